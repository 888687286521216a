"""Every table of digest section 4 is shipped, under its digest id, with the digest's values."""

from __future__ import annotations

import pytest

from campaign_tui.core.tables import LookupRefused
from rulesets.star_cruiser_lite import plugin

T = plugin.tables()


def v(tid: str, **inputs: object) -> object:
    return T.get(tid).lookup(**inputs).value


def test_every_digest_table_is_present_by_its_id() -> None:
    for n in range(1, 43):
        assert f"T-{n:02d}" in T, f"T-{n:02d} missing"
    assert "T-08max" in T and "T-08b" in T


def test_every_table_carries_provenance() -> None:
    for t in T:
        assert t.provenance.grade in ("rulebook", "reconstructed", "default")


def test_T03_ceilings_with_defaults_for_fe_and_mq() -> None:
    expected = {
        "fTac": 8,
        "BB": 6,
        "BC": 6,
        "CV": 6,
        "CG": 5,
        "CA": 5,
        "LSA": 5,
        "DD": 4,
        "DE": 4,
        "CVE": 4,
        "CVL": 4,
        "SCT": 4,
        "FF": 3,
        "SDB": 3,
        "FTR": 2,
        "FT": 2,
        "FE": 4,
        "MQ": 2,
    }
    for k, val in expected.items():
        assert v("T-03", skill=k) == val
    assert T.get("T-03").cell_provenance["FE"].grade == "default"


def test_T08_facility_module_stats_and_maximums() -> None:
    cfr = dict(bm=1, sb=0, mi=1, sv=2, df=1, sc=1, sn=1, repair=1, troops=1, fighters=1, sp=100)
    cfr_max = dict(bm=10, sb=0, mi=10, sv=20, df=-1, sc=5, sn=4, repair=-1, troops=-1, fighters=-1, sp=-1)
    asb = dict(bm=0, sb=1, mi=1, sv=1, df=1, sc=1, sn=1, repair=1, troops=1, fighters=1, sp=100)
    asb_max = dict(bm=0, sb=6, mi=6, sv=6, df=-1, sc=3, sn=3, repair=-1, troops=-1, fighters=-1, sp=-1)
    for stat in cfr:
        assert v("T-08", facility="CFR", stat=stat) == cfr[stat]
        assert v("T-08max", facility="CFR", stat=stat) == cfr_max[stat]
        assert v("T-08", facility="ASB", stat=stat) == asb[stat]
        assert v("T-08max", facility="ASB", stat=stat) == asb_max[stat]
    assert v("T-08", facility="FB", stat="sp") == 10 and v("T-08max", facility="FB", stat="sb") == 3
    assert v("T-08", facility="SD", stat="sp") == 30 and v("T-08", facility="PSD", stat="sp") == 30


def test_T09_facility_detection() -> None:
    rows = {
        "CFR": (100, 100, 50),
        "ASB": (20, 30, 20),
        "SD": (10, 20, 10),
        "FB": (20, 30, 20),
        "LP": (10, 20, 10),
    }
    for fac, vals in rows.items():
        assert tuple(v("T-09", facility=fac, detector=d) for d in ("warship", "survey", "lp")) == vals


@pytest.mark.parametrize("bodies,pct", [(0, 50), (6, 50), (7, 30), (12, 30), (13, 10), (40, 10)])
def test_T10_system_layout(bodies: int, pct: int) -> None:
    assert v("T-10", bodies=bodies) == pct


def test_T11_T12_T13_detection_modifiers_and_intelligence() -> None:
    assert [
        v("T-11", behaviour=b)
        for b in ("covert", "recon", "defending", "overt", "detected_previous", "mine_attack")
    ] == [-20, -10, 0, 10, 10, 10]
    assert all(v("T-12", asset=a) == 5 for a in ("warship_force", "patrol", "facility", "listening_post"))
    assert T.get("T-13").lookup(margin=-1).value is None
    assert v("T-13", margin=9) == "task force present"
    assert "size" in str(v("T-13", margin=20)) and "types" not in str(v("T-13", margin=29))
    assert "specific ships" in str(v("T-13", margin=40))


def test_T15_damage_location_columns() -> None:
    ship = ["sn", "mv", "sc", "mi", "sv", "bm", "bm", "sb", "df", "df"]
    fac = ["sn", "repair*", "sc", "mi", "sv", "bm", "fighters*", "sb", "df", "sp10"]
    for i in range(10):
        assert v("T-15", roll=i + 1, target="ship") == ship[i]
        assert v("T-15", roll=i + 1, target="facility") == fac[i]


def test_T18_arousal_and_T17_factors() -> None:
    assert v("T-18", round=1) == 2 and v("T-18", round=2) == 4 and v("T-18", round=7) == 6
    assert len(T.get("T-17").cells) == 7


def test_T20_T22_T23_T24_troops() -> None:
    base = {
        "JBn": (50, 10),
        "Bde(L)": (30, 10),
        "Bde(M)": (20, 20),
        "Bde(H)": (15, 30),
        "PD": (0, 5),
        "Militia": (0, 10),
        "Crew, Warship": (10, 0),
        "Crew, Other": (5, 0),
        "Bde(K)": (40, 20),
        "Militia, Kafer": (0, 10),
        "Crew, Kafer": (20, 0),
    }
    for troop, (bf, gf) in base.items():
        assert (v("T-20", troop=troop, factor="bf"), v("T-20", troop=troop, factor="gf")) == (bf, gf)
    assert [v("T-22", level=x) for x in ("Elite", "Veteran", "Regular", "Green")] == [10, 5, 0, -5]
    morale = {"Elite": (10, 10, 10), "Veteran": (6, 10, 20), "Regular": (8, 8, 30), "Green": (10, 5, 50)}
    for lvl, row in morale.items():
        assert tuple(v("T-23", level=lvl, column=c) for c in ("bf_break", "gf_break", "chance")) == row
    logistic = {
        "JBn": 1,
        "Bde(L)": 1,
        "Bde(M)": 2,
        "Bde(H)": 3,
        "PD": 1,
        "Militia": 0,
        "Bde(K)": 2,
        "Crew, Kafer": 0,
    }
    for troop, sp in logistic.items():
        assert v("T-24", troop=troop) == sp


def test_T25_T26_outcomes_by_difference() -> None:
    assert "attacker wins" in str(v("T-25", difference=3))
    assert "draw" in str(v("T-25", difference=0))
    assert v("T-26", difference=-1) == "defender wins" and v("T-26", difference=0) == "draw"


def test_T27_experience_change() -> None:
    t = T.get("T-27")
    assert t.lookup(level="Green", case="attacker_wins_raise_attacker").value == 30
    assert t.lookup(level="Elite", case="attacker_wins_raise_attacker").value == 0
    assert t.lookup(level="Veteran", case="defender_wins_drop_attacker").value == 20
    assert t.lookup(level="Green", case="draw_raise_defender").value == 20
    assert t.lookup(level="Green", case="defender_wins_drop_attacker").value == 0


def test_T30_construction() -> None:
    assert v("T-30", type="BB/BC/CV", column="months") == 12
    assert v("T-30", type="FTR", column="cost") == "2req"
    assert v("T-30", type="ASB", column="cost") == 3 and v("T-30", type="ASB", column="months") == 3
    assert v("T-30", type="LP", column="cost") == 4 and v("T-30", type="sDrn", column="cost") == 20
    assert v("T-30", type="SubD", column="cost") == 15 and v("T-30", type="JBn", column="months") == 12


def test_T31_supply_penalties() -> None:
    rows = {0: (0, 0, 0), 1: (-1, 0, 0), 2: (-1, -1, 5), 3: (-2, -1, 7), 4: (-2, -2, 9), 9: (-2, -2, 9)}
    for weeks, row in rows.items():
        assert tuple(v("T-31", weeks=weeks, column=c) for c in ("cq", "target", "retreat_below")) == row
    with pytest.raises(LookupRefused):
        v("T-31", weeks=-1, column="cq")


def test_T32_T33_T34_T35_T36_T37_T38() -> None:
    assert str(v("T-32", priority=1)).startswith("core") and str(v("T-32", priority=10)).startswith(
        "other_tf"
    )
    assert [v("T-33", facility=f) for f in ("CFR", "ASB", "FB", "SD")] == [10, 6, 4, 2]
    assert (
        v("T-34", mines=99) == "ceil(1d6/2)"
        and v("T-34", mines=100) == "1d6"
        and v("T-34", mines=500) == "1d10"
    )
    assert [v("T-35", distance=d) for d in (0, 1, 2, 3, 4, 9)] == [75, 75, 50, 25, 0, 0]
    assert [v("T-36", paranoia=p) for p in ("Low", "Moderate", "High")] == [20, 40, 60]
    assert [v("T-37", distance=d) for d in (0, 1, 2, 3, 4, 8)] == [40, 30, 20, 10, 5, 5]
    assert v("T-38", code="SCT") < v("T-38", code="DD") < v("T-38", code="CV")
    assert v("T-38", code="FTR") < v("T-38", code="MQ") < v("T-38", code="SDB") < v("T-38", code="FF")


def test_T42_agency_and_T01_month() -> None:
    assert [v("T-42", condition=c) for c in ("initially", "bcv_lost", "qas_lost")] == ["BCV", "QAS", "Core"]
    assert str(v("T-01", week=0)).startswith("Week 0")
