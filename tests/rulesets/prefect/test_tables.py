"""The tables of digest section 4 against the digest, cell by cell where it matters."""

from __future__ import annotations

import pytest

from rulesets.prefect import plugin

T = plugin.tables()

CRT = [
    ["-3CA/+3", "-2CA/+3", "-2CA/+2", "-1CA/+2", "-1CA/+1", "0/0"],
    ["-2CA/+4", "-2AR/+2", "-1AR/+2", "-1AR/+1", "-1AR/0", "0AR/0"],
    ["-2AR/+4", "-1AR/+2", "-1AR/+1", "0/+1", "0/0", "+1/0"],
    ["-1AR/+3", "0/+1", "-1/+1", "0/0", "+1/0", "+1/-1"],
    ["-1/+3", "0/0", "0/0", "+1/0", "+1/-1", "+2/-1DR"],
    ["0/+2", "+1/0", "0/0", "+1/-1", "+2/-1DR", "+2/-2DR"],
    ["+1/+2", "+1/-1", "+1/-1", "+2/-1DR", "+2/-2DR", "+3/-2DR"],
    ["+1/+1", "+1/-1", "+1/-1DR", "+2/-2DR", "+3/-2DR", "+3/-3DR"],
    ["+1/+1", "+2/-1DR", "+2/-1DR", "+3/-2DR", "+3/-3DR", "+3/-3BT"],
    ["+2/0DR", "+2/-2DR", "+2/-2BT", "+3/-3BT", "+3/-3BT", "+3/-3BT"],
]


def test_t4_crt_cell_by_cell_with_its_quirk() -> None:
    t = T.get("T4")
    assert t.cells == CRT
    assert t.provenance.grade == "reconstructed" and t.provenance.confidence == "high"
    assert t.lookup(roll=4, odds=(2, 3)).value == "0/+1" and t.lookup(roll=4, odds=(1, 1)).value == "-1/+1"
    assert t.lookup(roll=1, odds=(1, 5)).labels["odds"] == "1 to 2 (or less)"
    assert t.lookup(roll=1, odds=(9, 1)).labels["odds"] == "3 to 1 (or more)"
    with pytest.raises(Exception, match="not possible"):
        t.lookup(roll=1, odds=(9, 1), shifts={"odds": 1})


def test_t3_terrain() -> None:
    t = T.get("T3")
    expect = {
        "clear": (0, 0, False),
        "forest": (-4, 2, True),
        "urban": (-6, 3, True),
        "rough": (-3, 1, True),
        "sink holes": (-3, 1, True),
        "water": (2, 0, False),
        "craters": (-2, 1, True),
        "desert/lava flow": (0, 0, False),
        "jungle": (-4, 2, True),
        "mountains/volcano": (-5, 3, True),
        "swamp": (-3, 1, True),
        "task force at LAF": (6, 0, False),
    }
    for terrain, (det, df, zoc) in expect.items():
        assert t.lookup(terrain=terrain, effect="detection").value == det
        assert t.lookup(terrain=terrain, effect="defense").value == df
        assert t.lookup(terrain=terrain, effect="zoc_blocked").value is zoc


@pytest.mark.parametrize(
    ("alias", "inputs", "value"),
    [
        ("T1", {"counter": "GL3", "field": "rating"}, 3),
        ("T2", {"class": "O/GN5", "field": "rating"}, 5),
        ("T5", {"holder": "GL1"}, 25),
        ("T5", {"holder": "GL2"}, 50),
        ("T5", {"holder": "GL3"}, 100),
        ("T5", {"holder": "GL4"}, 100),
        ("T5", {"holder": "Legion HQ"}, 15),
        ("T5", {"holder": "Auxilia HQ"}, 6),
        ("T6", {"unit": "Light Grav Cohort"}, 3),
        ("T6", {"unit": "Medium Grav Cohort"}, 5),
        ("T6", {"unit": "Heavy Grav Cohort"}, 8),
        ("T6", {"unit": "Infantry Grav Cohort"}, 2),
        ("T6", {"unit": "Artillery Grav Cohort"}, 5),
        ("T6", {"unit": "Marine Cohort"}, 2),
        ("T6", {"unit": "Militia Regiment"}, "-"),
        ("T6", {"unit": "Garrison Legion"}, "-"),
        ("T6", {"unit": "Signal Century"}, 1),
        ("T6", {"unit": "Legion Headquarters"}, 5),
        ("T6", {"unit": "Manus/Auxilia Headquarters"}, 2),
        ("T6b", {"unit": "Militia Regiment"}, 1),
        ("T6b", {"unit": "Garrison Legion"}, 4),
        ("T7", {"base": "GL1", "field": "sp"}, 5),
        ("T7", {"base": "GL2", "field": "centuries"}, 2),
        ("T7", {"base": "GL3", "field": "sp"}, 50),
        ("T7", {"base": "GL4", "field": "sp"}, 100),
        ("T8", {"turns": 0}, 3),
        ("T8", {"turns": 1}, 3),
        ("T8", {"turns": 5}, 1),
        ("T8", {"turns": 7}, 0),
        ("T8", {"turns": 9}, -1),
        ("T8", {"turns": 11}, -2),
        ("T8", {"turns": 19}, -3),
        ("T9", {"unit": "BB"}, 8),
        ("T9", {"unit": "FGV"}, 15),
        ("T9", {"unit": "P Sqd"}, 4),
        ("T9", {"unit": "O/GN4"}, 50),
        ("T9", {"unit": "GL3"}, 25),
        ("T9", {"unit": "Marine Cohort"}, 1),
        ("T9", {"unit": "Heavy Fighter Flight"}, 3),
        ("T10", {"unit": "Legion Headquarters"}, 15),
        ("T10", {"unit": "Heavy Armor Cohort"}, 30),
        ("T10", {"unit": "Militia Regiment"}, 20),
        ("T10", {"unit": "Garrison Legion"}, 40),
        ("T10", {"unit": "All other units"}, 10),
        ("T13", {"sp": 0}, "CW +5"),
        ("T13", {"sp": 14}, "CW +5"),
        ("T13", {"sp": 15}, "none"),
        ("T13", {"sp": 30}, "TOG +5"),
        ("T13", {"sp": 44}, "TOG +5"),
        ("T13", {"sp": 45}, "TOG +10"),
        ("T15", {"roll": 1}, "fill"),
        ("T15", {"roll": 2}, "each +10"),
        ("T15", {"roll": 3}, "each +5"),
        ("T15", {"roll": 5}, "one +10"),
        ("T15", {"roll": 7}, "none"),
        ("T15", {"roll": 10}, "none"),
        ("T16", {"body": "planet"}, 10),
        ("T16", {"body": "planetoid"}, 4),
        ("T16", {"body": "empty sector"}, 1),
        ("T19", {"facility": "GL3"}, 5),
        ("T19", {"facility": "GN6"}, 5),
        ("T20", {"formation": "CW Strike Legion", "unit": "Med"}, 9),
        ("T20", {"formation": "TOG Recon Auxilia", "unit": "Lt"}, 6),
        ("T20", {"formation": "TOG Heavy Assault Auxilia", "unit": "HQ M+"}, 1),
        ("T20", {"formation": "CW B'ekkal Legion", "unit": "TF"}, 18),
        ("T18", {"centurion": "Sterling", "prefect": "Militia Regiment"}, 12),
        ("T18b", {"centurion": "Hasta", "prefect": "Garrison Legion"}, 28),
    ],
)
def test_tables_against_the_digest(alias: str, inputs: dict, value: object) -> None:
    assert T.get(alias).lookup(**inputs).value == value


def test_t14_outcome_with_exact_fractions() -> None:
    from fractions import Fraction

    t = T.get("T14")
    assert t.lookup(ratio=Fraction(3), player="high").value == "Decisive Victory"
    assert t.lookup(ratio=Fraction(299, 100), player="low").value == "Substantial Defeat"
    assert t.lookup(ratio=Fraction(3, 2), player="high").value == "Marginal Victory"
    assert t.lookup(ratio=Fraction(299, 200), player="high").value == "Draw"  # 1.495 is below 1.5


def test_every_table_is_addressable_and_tagged() -> None:
    for n in range(1, 21):
        if n in (11, 12, 17):
            assert f"T{n}" in T
        if n not in (17,):
            assert f"T{n}" in T, n
    for t in T:
        assert t.provenance.grade in ("rulebook", "reconstructed")
