"""The shipped data against the digest's section 4 tables, typed in again here."""

from __future__ import annotations

import pytest

from rulesets.prestags import plugin
from rulesets.prestags.common import vp_value

COLS = ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1"]

# digest 4.1, EXT-FAN "original" CRT ("·" written "-")
CRT_EXT = {
    1: "- - - - D D D 1/2E E",
    2: "- - - - D D 1/2E 1/2E E",
    3: "- - D D D D 1/2E E E",
    4: "- D D D 1/2E 1/2E E E E",
    5: "- D D 1/2E 1/2E E E E E",
    6: "D D D 1/2E E E E E E",
    7: "D D E E E E E E E",
}
# digest 4.1, DEFAULT placeholder
CRT_DEFAULT = {
    1: "- - - - D D D 1/2E 1/2E",
    2: "- - - D D D 1/2E 1/2E E",
    3: "- - D D D 1/2E 1/2E E E",
    4: "- D D D 1/2E 1/2E E E E",
    5: "D D D 1/2E 1/2E E E E E",
    6: "D D 1/2E 1/2E E E E E E",
    7: "D 1/2E 1/2E E E E E E E",
}


@pytest.mark.parametrize(("table", "grid"), [("crt", CRT_EXT), ("crt_placeholder", CRT_DEFAULT)])
def test_crt_grid(table, grid):
    t = plugin.tables().get(table)
    assert list(t.axis("odds").labels) == COLS
    for row, cells in grid.items():
        for col, cell in zip(COLS, cells.split(), strict=True):
            assert t.lookup(roll=row, odds=col.replace("-", ":")).cell == cell, (table, row, col)


def test_crt_is_unverified_with_provenance():
    t = plugin.tables().get("crt")
    assert not t.verified and t.provenance.grade == "external" and t.provenance.trust == "fan"
    assert "crt_prestags old.html" in t.provenance.source
    assert plugin.tables().get("crt_placeholder").provenance.grade == "default"


def test_crt_placeholder_is_monotone():
    """Higher odds and higher rolls are never better for the defender (digest 4.1)."""
    rank = {"-": 0, "D": 1, "1/2E": 2, "E": 3}
    for grid in (CRT_EXT, CRT_DEFAULT):
        for row, cells in grid.items():
            values = [rank[c] for c in cells.split()]
            assert values == sorted(values)
            if row > 1:
                below = [rank[c] for c in grid[row - 1].split()]
                assert all(a >= b for a, b in zip(values, below, strict=True))


# digest 4.2 EXT TEC: MP, FPS, firing, attacker, defender
TEC = {
    "clear": ("1", "3", "-", "-", "-"),
    "road": ("1", "2", "-", "-", "-"),
    "slope": ("2", "3", "-", "-", "-"),
    "village": ("1", "5", "-", "-", "x2"),
    "woods": ("3", "4", "-", "-", "x2"),
    "swamp": ("3", "4", "no Mf", "-", "x2"),
    "river": ("X", "-", "-", "-", "x2"),
    "stream": ("2", "1", "no Ff", "x1/2", "-"),
    "ford": ("1", "1", "no Ff", "x1/2", "-"),
    "bridge": ("1", "1", "-", "x1/2", "x2"),
    "lake": ("X", "-", "-", "-", "-"),
    "sea": ("X", "-", "-", "-", "-"),
}


def test_tec_ext_values():
    t = plugin.tables().get("tec")
    for terrain, (mp, fps, fire, att, dfn) in TEC.items():
        got = tuple(
            t.lookup(terrain=terrain, effect=e).cell
            for e in ("mp", "fps", "fire_from", "attacker", "defender")
        )
        assert got == (mp, fps, fire, att, dfn), terrain
    assert t.lookup(terrain="hilltop", effect="mp").cell == "+1"
    for blocker in ("village", "woods"):
        assert t.lookup(terrain=blocker, effect="los").cell == "blocks"  # [6.32]


def test_tec_placeholder_values():
    t = plugin.tables().get("tec_placeholder")
    expect = {
        "clear": ("1", "2"),
        "slope": ("2", "2"),
        "woods": ("2", "4"),
        "village": ("2", "4"),
        "stream": ("2", "1"),
        "ford": ("2", "1"),
        "bridge": ("1", "2"),
        "river": ("X", "1"),
    }
    for terrain, (mp, fps) in expect.items():
        assert (
            t.lookup(terrain=terrain, effect="mp").cell,
            t.lookup(terrain=terrain, effect="fps").cell,
        ) == (mp, fps), terrain


def test_leader_summary_ext_and_default():
    ext = plugin.tables().get("leaders")
    got = [
        tuple(ext.lookup(grade=str(g), value=v).cell for v in ("bonus", "radius", "ma")) for g in range(1, 7)
    ]
    assert got == [
        ("9", "2", "9"),
        ("6", "2", "9"),
        ("3", "1", "9"),
        ("3", "0", "9"),
        ("0", "2", "4"),
        ("0", "1", "4"),
    ]
    dflt = plugin.tables().get("leaders_placeholder")
    got = [tuple(dflt.lookup(grade=str(g), value=v).cell for v in ("bonus", "radius")) for g in range(1, 5)]
    assert got == [("9", "2"), ("6", "2"), ("3", "1"), ("0", "1")]


# digest 4.3, EXT-SCAN: class, melee (n, [n] or •), fire, range, MA, games
UNITS = {
    "MI": ("A", "2", None, None, 3, "CSVY"),
    "MS": ("A", "3", None, None, 3, "CSLY"),
    "PS": ("A", "4", None, None, 3, "SLY"),
    "PP": ("A", "6", None, None, 4, "SY"),
    "LT": ("A", "[4]", None, None, 5, "S"),
    "EX": ("A", "3", 2, 1, 5, "S"),
    "BI": ("B", "[6]", None, None, 5, "SLV"),
    "SD": ("B", "4", None, None, 4, "CSLVY"),
    "AX": ("B", "3", None, None, 4, "CV"),
    "LC": ("C", "1", None, None, 9, "SLY"),
    "MC": ("C", "[3]", None, None, 9, "CSVY"),
    "HC": ("C", "[4]", None, None, 7, "SLVY"),
    "VF": ("D", "4", None, None, 15, "V"),
    "EL": ("D", "[8]", None, None, 6, "S"),
    "CH": ("D", "•", None, None, 9, "C"),
    "BW": ("Ff", "•", 2, 2, 5, "CS"),
    "IB": ("Ff", "•", 2, 3, 5, "CV"),
    "SK": ("Ff", "[2]", 2, 1, 5, "CSL"),
    "BL": ("Ff", "•", 3, 7, 2, "S"),
    "CB": ("Ff", "•", 2, 3, 5, "VY"),
    "AE": ("Ff", "•", 2, 3, 5, "Y"),
    "AL": ("Ff", "•", 2, 4, 5, "Y"),
    "LB": ("Ff", "•", 3, 3, 5, "Y"),
    "HB": ("Mf", "•", 1, 2, 9, "CV"),
    "OC": ("Mf", "2", 1, 1, 9, "SL"),
    "BC": ("Mf", "3", 1, 2, 9, "LV"),
    "HA": ("Mf", "•", 3, 7, 2, "Y"),
    "LA": ("Mf", "•", 2, 5, 4, "Y"),
}


def test_unit_types_against_the_scanned_summary():
    catalog = plugin.catalog()
    assert set(catalog.types) == {*UNITS, "L"}
    for code, (klass, melee, fire, rng, ma, games) in UNITS.items():
        a = catalog.type(code).attrs
        shown = (
            "•"
            if a["melee_kind"] == "dot"
            else f"[{a['melee']}]"
            if a["melee_kind"] == "bracket"
            else str(a["melee"])
        )
        assert (a["klass"], shown, a.get("fire"), a.get("range"), a["ma"], a["games"]) == (
            klass,
            melee,
            fire,
            rng,
            ma,
            games,
        ), code
        assert catalog.type(code).provenance.grade == "external" and not catalog.type(code).verified


def test_mounted_units_are_class_c_mf_and_chariots_not_elephants():
    catalog = plugin.catalog()
    mounted = {c for c, t in catalog.types.items() if t.attrs.get("mounted")}
    assert mounted == {"LC", "MC", "HC", "HB", "OC", "BC", "HA", "LA", "CH"}


def test_victory_points_of_each_type():
    """[11.2]: half the melee attack (rounded up; a dot is 1) plus the fire strength."""
    catalog = plugin.catalog()
    expect = {
        "SD": 2,
        "AX": 2,
        "MI": 1,
        "PP": 3,
        "BI": 3,
        "LC": 1,
        "HC": 2,
        "EL": 4,
        "CH": 1,
        "BW": 3,
        "SK": 3,
        "EX": 4,
        "BC": 3,
        "HA": 4,
        "LB": 4,
    }
    for code, vp in expect.items():
        a = catalog.type(code).attrs
        assert vp_value(a.get("melee"), a["melee_kind"], a.get("fire")) == vp, code


def test_stacking_matrix():
    t = plugin.tables().get("stacking")
    ok = {("A", "Ff"), ("B", "Ff"), ("C", "Mf")}
    for a in ("A", "B", "C", "Ff", "Mf", "D", "E"):
        for b in ("A", "B", "C", "Ff", "Mf", "D", "E"):
            expected = a == b or "D" in (a, b) or "E" in (a, b) or (a, b) in ok or (b, a) in ok
            assert (t.lookup(first=a, second=b).cell == "yes") == expected, (a, b)


def test_unit_capability_and_range_charts():
    t = plugin.tables()
    assert t.get("ucc_chariot").lookup(defender="MS,MI", attacker="MC").cell == "2"
    assert t.get("ucc_chariot").lookup(defender="AX,SD", attacker="MC").cell == "1/2"
    assert t.get("ucc_spartan").lookup(defender="class A", attacker="SD").cell == "1/2"
    assert t.get("ucc_yeoman").lookup(defender="PP", attacker="LC,MC").cell == "P"
    assert t.get("ucc_yeoman").lookup(defender="SD", attacker="HC").cell == "2"
    assert [t.get("range_effects").lookup(unit="HA", range=str(r)).cell for r in range(1, 8)] == [
        "3",
        "3",
        "2",
        "2",
        "1",
        "1",
        "1",
    ]
    assert t.get("prohibitions").lookup(game="Y", klass="A").cell == "woods,swamp"


def test_panic_rally_table_by_grade():
    t = plugin.tables().get("panic_leaders")
    assert [t.lookup(grade=str(g), where="adjacent").cell for g in range(1, 7)] == [
        "yes",
        "yes",
        "no",
        "no",
        "no",
        "no",
    ]
    assert all(t.lookup(grade=str(g), where="stacked").cell == "yes" for g in range(1, 7))


def test_options_carry_the_digest_defaults():
    opts = {o.id: o for o in plugin.options()}
    expect = {
        "panic": False,
        "elevation": False,
        "concession": True,
        "facing": False,
        "retreat_before_combat": False,
        "contact": False,
        "simultaneous": False,
        "unit_capability": False,
        "die7_policy": "row7",
        "fire_advance": False,
        "leader_reduction": "all",
        "lone_leader_defence": 1,
        "leader_vp": 1,
        "zero_enemy_vp": "decisive",
        "crt_table": "ext",
        "hex_grid": "odd-q",  # issue 12: odd-q by DEFAULT (the mapsheet was never found)
        "halving_stack": "multiply",
        "panic_tie": "defender",
    }
    for key, value in expect.items():
        assert opts[key].default == value, key
        assert opts[key].help and len(opts[key].help) < 140
    for key in (
        "panic",
        "elevation",
        "concession",
        "facing",
        "retreat_before_combat",
        "contact",
        "simultaneous",
        "unit_capability",
    ):
        assert opts[key].group == "Optional rules" and opts[key].setup_only


def test_every_table_has_provenance_and_an_alias():
    for t in plugin.tables():
        assert t.provenance.grade in ("rulebook", "external", "default", "reconstructed"), t.id
        assert t.aliases, t.id
