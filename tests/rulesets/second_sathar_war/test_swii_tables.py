"""Tables T1-T20 against the digest's section 4, the catalogue and the orders of battle."""

from __future__ import annotations

import pytest

from rulesets.second_sathar_war import plugin
from rulesets.second_sathar_war.ships import mounts

T = plugin.tables()

T5_UNSHADED = {
    "LC": ["75", "60", "75", "75", "75", "25*", "-", "2d10"],
    "LB": ["65", "50", "65", "65", "65", "20*", "-", "1d10"],
    "PB": ["60", "60", "25*", "70", "40", "50", "-", "1d10"],
    "EB": ["60", "60", "70", "25*", "40", "50", "-", "1d10"],
    "DC": ["60", "60", "50", "50", "40", "50", "-", "3d10"],
    "T": ["50", "50", "50", "50", "75", "50", "-10", "4d10"],
    "AR": ["60", "60", "60", "60", "60", "60", "-5", "2d10+4"],
    "RB": ["40", "40", "40", "40", "40", "40", "-3", "2d10"],
    "M": ["60", "60", "60", "60", "80", "60", "-5", "3d10+5"],
    "S": ["75", "75", "75", "75", "90", "75", "-8", "5d10"],
}
T5_SHADED = {
    "LC": ["60", "45", "60", "60", "60", "10*"],
    "LB": ["55", "40", "55", "55", "55", "10*"],
    "PB": ["50", "50", "15*", "60", "30", "40"],
    "EB": ["50", "50", "60", "15*", "30", "40"],
    "DC": ["45", "45", "35", "35", "25", "35"],
    "T": ["45", "45", "45", "45", "65", "40"],
    "AR": ["50", "50", "50", "50", "50", "50"],
    "RB": ["30", "30", "30", "30", "30", "30"],
}


@pytest.mark.parametrize("weapon", list(T5_UNSHADED))
def test_T5_combat_table_every_cell(weapon):
    cols = ["None", "RH", "PS", "ES", "SS", "MS", "ICM", "HDR"]
    assert [T.get("T5").lookup(weapon=weapon, defence=c).cell for c in cols] == T5_UNSHADED[weapon]


@pytest.mark.parametrize("weapon", list(T5_SHADED))
def test_T5_shaded_values(weapon):
    cols = ["None", "RH", "PS", "ES", "SS", "MS"]
    assert [T.get("T5s").lookup(weapon=weapon, defence=c).cell for c in cols] == T5_SHADED[weapon]


def test_T6_damage_table_modifiers():
    expect = {
        "LC": 0,
        "LB": 0,
        "PB": 10,
        "EB": 10,
        "DC": 20,
        "AR": -10,
        "RB": -10,
        "T": -20,
        "M": -20,
        "S": -20,
        "fire": 20,
        "SD": -20,
    }
    assert {w: T.get("T6").lookup(weapon=w).value for w in expect} == expect


@pytest.mark.parametrize(
    "roll,result",
    [
        (-20, "hull:double"),
        (10, "hull:double"),
        (11, "hull"),
        (45, "hull"),
        (46, "drive:1"),
        (49, "drive:1"),
        (50, "drive:half"),
        (52, "drive:half"),
        (53, "drive:all"),
        (54, "steering:1"),
        (58, "steering:1"),
        (59, "steering:all"),
        (60, "steering:all"),
        (61, "weapon:LC,LB,PB,EB,AR,RB"),
        (63, "weapon:PB,EB,LB,RB,T,AR"),
        (66, "weapon:DC,LC,AR,T,LB"),
        (67, "weapon:T,AR,EB,PB,LB,RB"),
        (70, "weapon:LB,RB,T,AR,PB,EB,LC"),
        (71, "power_short"),
        (74, "power_short"),
        (75, "defence:PS,ES,SS,MS,ICM"),
        (78, "defence:MS,ICM,SS,PS,ES"),
        (84, "defence:ICM,SS,PS,ES,MS"),
        (85, "ccs"),
        (91, "ccs"),
        (92, "navigation"),
        (97, "navigation"),
        (98, "fire"),
        (105, "fire"),
        (106, "dcr"),
        (116, "dcr"),
        (117, "disastrous_fire"),
        (120, "disastrous_fire"),
    ],
)
def test_T7_damage_table_bands(roll, result):
    assert T.get("T7").lookup(roll=roll).value == result


@pytest.mark.parametrize(
    "roll,planet",
    [
        (1, "gran-quivera"),
        (3, "gran-quivera"),
        (4, "pale"),
        (5, "inner-reach"),
        (6, "terledrom"),
        (7, "zik-kit"),
        (8, "kenzah-kit"),
        (9, "gollywog"),
        (10, "kawdl-kit"),
    ],
)
def test_T8_sfn_placement(roll, planet):
    assert T.get("T8").lookup(roll=roll).value == planet


def test_T9_misjump_probabilities():
    t = T.get("T9")
    got = {
        row: [t.lookup(row=row, rate=r).value for r in ("2", "3")]
        for row in ("UPF_BB", "UPF", "SATHAR", "MILITIA")
    }
    assert got == {"UPF_BB": [95, 90], "UPF": [90, 70], "SATHAR": [90, 70], "MILITIA": [70, 50]}


@pytest.mark.parametrize("roll,value", [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 4)])
def test_T10_misjump_displacement(roll, value):
    assert T.get("T10").lookup(roll=roll).value == value


@pytest.mark.parametrize(
    "ships,rules",
    [
        (2, "advanced_npc"),
        (4, "advanced_npc"),
        (5, "advanced"),
        (14, "advanced"),
        (15, "basic"),
        (60, "basic"),
    ],
)
def test_T11_which_rules(ships, rules):
    assert T.get("T11").lookup(ships=ships).value == rules


def test_T12_repair_capacity():
    t = T.get("T12")
    expect = {
        "hentz": 20,
        "ruperts-hole": 10,
        "triad": 40,
        "outer-reach": 10,
        "terledrom": 20,
        "gran-quivera": 40,
        "minotaur": 20,
        "pale": 10,
        "gollywog": 10,
    }
    assert {k: t.lookup(scc=k, side="UPF").value for k in expect} == expect
    assert {k: t.lookup(scc=k, side="SATHAR").value for k in expect} == {k: v // 2 for k, v in expect.items()}


def test_T13_five_retreat_conditions():
    t = T.get("T13")
    assert len(t.cells) == 5
    assert "two assault carriers" in t.lookup(condition="1", column="The Sathar retreat when").value
    assert "40 ships" in t.lookup(condition="3", column="The Sathar retreat when").value


@pytest.mark.parametrize("roll,value", [(1, "returns"), (35, "returns"), (36, "removed"), (100, "removed")])
def test_T14_sathar_replacement_split_at_35(roll, value):
    assert T.get("T14").lookup(roll=roll).value == value


def test_T14_cell_36_is_tagged_reconstructed():
    assert T.get("T14").lookup(roll=40).provenance.grade == "reconstructed"


def test_T16_nineteen_stations_four_four_eleven_and_scc():
    oob = plugin.load_data("oob.toml")
    kinds = [s["type"] for s in oob["stations"].values()]
    assert (kinds.count("FORTRESS"), kinds.count("FORTIFIED"), kinds.count("ARMED")) == (4, 4, 11)
    assert len(T.get("T16").cells) == 19
    assert oob["scc"] == {
        "hentz": 20,
        "ruperts-hole": 10,
        "triad": 40,
        "outer-reach": 10,
        "terledrom": 20,
        "gran-quivera": 40,
        "minotaur": 20,
        "pale": 10,
        "gollywog": 10,
    }


def test_T17_militia_totals():
    oob = plugin.load_data("oob.toml")["militia"]
    tot = {c: sum(m["ships"].get(c, 0) for m in oob.values()) for c in ("AS", "FF", "DD")}
    assert tot == {"AS": 27, "FF": 8, "DD": 2} and len(oob) == 10
    t = T.get("T17")
    assert t.lookup(home="minotaur", column="AS").value == 4


@pytest.mark.parametrize("roll,side", [(1, "left"), (5, "left"), (6, "right"), (10, "right")])
def test_T18_navigation(roll, side):
    assert side in T.get("T18").lookup(roll=roll).value


@pytest.mark.parametrize("adf,rate", [(0, 1), (1, 1), (2, 2), (3, 3), (5, 3)])
def test_T19_rate_by_adf(adf, rate):
    assert T.get("T19").lookup(adf=adf).value == rate


def test_T20_time_record_rows():
    assert T.get("T20").lookup(day=10).value == "(blank)"
    assert T.get("T20").lookup(day=11).value == "10"
    assert T.get("T20").lookup(day=30).value == "20"


CLASSES = {  # T1 / T2: hp, adf, mr, dcr
    "F": (8, 5, 5, 30),
    "AS": (15, 5, 4, 50),
    "FF": (40, 4, 3, 70),
    "DD": (50, 3, 3, 75),
    "ML": (50, 1, 2, 75),
    "LC": (70, 3, 2, 100),
    "HC": (80, 2, 1, 120),
    "AC": (75, 2, 1, 150),
    "BB": (120, 2, 2, 200),
    "FORTRESS": (300, 0, 0, 200),
    "FORTIFIED": (140, 0, 0, 100),
    "ARMED": (80, 0, 0, 75),
}


@pytest.mark.parametrize("code", list(CLASSES))
def test_T1_T2_catalogue_statistics(code):
    t = plugin.catalog().type(code)
    assert tuple(t.attrs[k] for k in ("hp", "adf", "mr", "dcr")) == CLASSES[code]


def test_T1_T3_weapons_and_ammunition_of_the_stat_blocks():
    cat = plugin.catalog()
    assert mounts(cat.type("HC").attrs["weapons"]).count(("LB", 0)) == 2
    assert ("T", 4) in mounts(cat.type("HC").attrs["weapons"])
    assert ("M", 20) in mounts(cat.type("ML").attrs["weapons"])
    assert ("ICM", 20) in mounts(cat.type("FORTRESS").attrs["defences"])
    assert cat.type("AC").attrs["carries"] == 10
    t3 = T.get("T3")
    assert [
        t3.lookup(weapon=w, column="Range").value
        for w in ("LC", "LB", "PB", "EB", "DC", "T", "AR", "RB", "M")
    ] == [10, 9, 12, 12, 9, 4, 4, 3, 0]
    assert t3.lookup(weapon="AR", column="HDR").value == "2d10+4"


def test_tables_carry_provenance_and_aliases():
    for alias in [f"T{n}" for n in range(1, 21)]:
        t = T.get(alias)
        assert t.provenance.grade in ("rulebook", "reconstructed", "external", "default")
    assert T.get("T5").provenance.grade == "reconstructed"
    assert T.get("T1b").provenance.grade == "external"
