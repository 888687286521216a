"""Procedures of digest section 5: edge cases, and invariants checked with hypothesis."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.prefect import plugin
from rulesets.prefect.checks import target_test
from rulesets.prefect.crt import COLUMNS, column_index, parse_cell, planetary_shifter, shift_choices
from rulesets.prefect.movement import movement_allowance
from rulesets.prefect.saves import (
    DESTROYED,
    DISRUPTED,
    UNHARMED,
    ground_must_save,
    ground_outcome,
    space_outcome,
)
from rulesets.prefect.supply import base_may_pay, deliver, manufacturing
from rulesets.prefect.victory import next_attacker
from tests.rulesets.prefect.helpers import procedure

T4 = plugin.tables().get("T4")


@given(st.integers(1, 10), st.integers(-20, 30))
def test_natural_1_always_passes_and_10_always_fails(natural: int, target: int) -> None:
    ok, auto = target_test(natural, target)
    if natural == 1:
        assert ok and auto == "success"
    elif natural == 10:
        assert not ok and auto == "failure"
    else:
        assert ok == (natural <= target) and auto is None


@settings(max_examples=200)
@given(st.integers(0, 200), st.integers(0, 200))
def test_odds_column_rounds_for_the_defender_and_matches_the_table(attack: int, defense: int) -> None:
    col = column_index(attack, defense)
    assert T4.lookup(roll=5, odds=(attack, defense)).labels["odds"] == COLUMNS[col]
    if defense and col < 5:
        ratios = [Fraction(1, 2), Fraction(2, 3), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)]
        assert Fraction(attack, defense) < ratios[col + 1]  # never rounded up


@given(st.integers(0, 60), st.integers(0, 60))
def test_more_attack_never_gives_a_worse_column(attack: int, defense: int) -> None:
    assert column_index(attack + 1, defense) >= column_index(attack, defense)
    assert column_index(attack, defense + 1) <= column_index(attack, defense)


@given(
    st.integers(0, 40),
    st.booleans(),
    st.sampled_from(["combat", "laf"]),
    st.sampled_from(["after", "before"]),
)
def test_attacker_allowance_stays_within_its_bounds(n: int, hq: bool, mode: str, clamp: str) -> None:
    value, _ = movement_allowance(n, hq, mode, "attacker", clamp=clamp)
    cap = 10 if mode == "combat" else 20
    assert 1 <= value <= cap
    if clamp == "after":
        assert value == max(1, min(cap, cap - n + (1 if hq else 0)))


def test_clamp_order_matters_only_at_the_floor() -> None:
    """G38: clamping after the HQ bonus gives 1, before it gives 2, for 10+ combat units."""
    assert movement_allowance(10, True, "combat", clamp="after")[0] == 1
    assert movement_allowance(10, True, "combat", clamp="before")[0] == 2
    assert (
        movement_allowance(5, True, "combat", clamp="before")[0] == movement_allowance(5, True, "combat")[0]
    )


@pytest.mark.parametrize(
    ("n", "side", "primus", "expected"),
    [
        (0, "TOG", False, 3),
        (1, "TOG", False, 3),
        (2, "CW", False, 3),
        (3, "CW", False, 2),
        (6, "TOG", False, 2),
        (4, "CW", True, 3),
        (5, "CW", True, 2),
        (4, "TOG", True, 2),
    ],
)
def test_counteraction_allowance(n: int, side: str, primus: bool, expected: int) -> None:
    assert movement_allowance(n, False, role="counteraction", side=side, manus_primus=primus)[0] == expected


def test_non_grav_always_one_hex() -> None:
    assert movement_allowance(0, True, "laf", nongrav=True)[0] == 1
    assert movement_allowance(0, True, role="counteraction", nongrav=True)[0] == 1


def test_every_crt_cell_parses() -> None:
    for row in T4.cells:
        for cell in row:
            c = parse_cell(cell)
            assert c.att_flag in (None, "AR", "CA") and c.def_flag in (None, "DR", "BT")
            assert not (c.att_flag and c.def_flag)


def test_shift_rules() -> None:
    assert planetary_shifter(True, True) is None and planetary_shifter(False, False) is None
    assert planetary_shifter(True, False) == "defender" and planetary_shifter(False, True) == "attacker"
    assert shift_choices(0) == [0, 1] and shift_choices(5) == [-1, 0] and shift_choices(2) == [-1, 0, 1]
    calc, _ = procedure(
        "5.5", attack=5, defense=1, attacker_detected=False, defender_detected=True, game="space"
    )
    assert calc.value == ["3 to 1 (or more)"]


@pytest.mark.parametrize(
    ("role", "special", "only", "broken", "expected"),
    [
        ("combat", "", False, False, True),
        ("support", "", False, False, False),
        ("support", "", False, True, True),
        ("combat", "artillery", False, False, False),
        ("combat", "artillery", True, False, True),
        ("combat", "artillery", False, True, True),
    ],
)
def test_who_saves(role: str, special: str, only: bool, broken: bool, expected: bool) -> None:
    assert ground_must_save(role, special, only, broken) is expected


def test_save_outcomes() -> None:
    assert ground_outcome(True, False, False, False) == UNHARMED
    assert ground_outcome(False, False, False, False) == DISRUPTED
    assert ground_outcome(False, False, True, False) == DESTROYED  # non-grav
    assert ground_outcome(False, False, False, True) == DESTROYED  # already disrupted
    assert ground_outcome(True, True, False, False) == DISRUPTED  # BT/CA: a pass disrupts
    assert ground_outcome(False, True, False, False) == DESTROYED
    assert space_outcome(False, False, True) == DESTROYED and space_outcome(True, True, False) == DISRUPTED


def test_ground_save_calculator_modifiers() -> None:
    calc, _ = procedure("5.7", defense=6, crt_mod=1, fatigue=2, moved_laf=True, engineer=True, dice_=[7])
    assert calc.value == {"target": 6 - 2 + 1 + 2 + 1, "outcome": "unharmed"}
    calc, _ = procedure("5.7", defense=4, role="support")
    assert calc.value == "no roll"
    calc, _ = procedure("5.7", defense=12, dice_=[10])
    assert calc.value["outcome"] == "disrupted"  # a 10 always fails, even against 12


@given(st.integers(0, 3), st.integers(0, 3))
def test_merged_fatigue_is_the_higher(a: int, b: int) -> None:
    calc, _ = procedure("5.9", current=a, merged_with=b)
    assert calc.value == max(a, b)


def test_fatigue_caps_at_three() -> None:
    calc, _ = procedure("5.9", current=3, game="space")
    assert calc.value == 3 and "disrupted" in calc.summary


@given(st.integers(0, 120), st.integers(0, 120), st.sampled_from([6, 15, 25, 50, 100]))
def test_storage_cap_loses_the_excess(stored: int, incoming: int, cap: int) -> None:
    stored = min(stored, cap)
    new, lost = deliver(stored, incoming, cap)
    assert new <= cap and new + lost == stored + incoming


def test_supply_costs() -> None:
    assert procedure("5.11.4", unit="Heavy Grav Cohort")[0].value == 8
    assert procedure("5.11.4", unit="Militia Regiment")[0].value is None
    assert procedure("5.11.5", unit="Heavy Grav Cohort")[0].value == 16
    assert procedure("5.11.5", unit="Militia Regiment")[0].value == 1
    assert procedure("5.11.5", unit="Garrison Legion")[0].value == 4
    assert procedure("5.11.8", base="GL2")[0].value == {"centuries": 2, "sp": 15}
    assert manufacturing(10) == 12 and manufacturing(3) == 3


@pytest.mark.parametrize(
    ("cls", "rating", "purpose", "kind", "ok"),
    [
        ("GL", 1, "rearm", "fighter", False),
        ("GL", 2, "rearm", "fighter", True),
        ("GL", 2, "reorganize", "fighter", False),
        ("GL", 3, "reorganize", "fighter", True),
        ("GL", 4, "rearm", "starship", False),
        ("ON", 2, "rearm", "ground", False),
        ("GN", 1, "reorganize", "marine", True),
        ("GL", 1, "rebuild", "marine", True),
    ],
)
def test_base_limitations(cls: str, rating: int, purpose: str, kind: str, ok: bool) -> None:
    assert base_may_pay(cls, rating, purpose, kind)[0] is ok


@given(st.integers(0, 5), st.integers(0, 5))
def test_tempo_keeps_the_attacker_only_when_strictly_ahead(a: int, d: int) -> None:
    nxt = next_attacker("TOG", "CW", {"TOG": a, "CW": d})
    assert nxt == ("TOG" if a > d else "CW")


def test_outcome_edge_cases() -> None:
    assert procedure("T14", vp_tog=0, vp_cw=0)[0].value["result"] == "Draw"
    out = procedure("T14", vp_tog=5, vp_cw=0)[0].value
    assert out["result"] == "Decisive Victory" and out["winner"] == "TOG"  # G49
    assert procedure("T14", vp_tog=299, vp_cw=200)[0].value["result"] == "Draw"  # 1.495
    assert procedure("T14", vp_tog=30, vp_cw=20)[0].value["result"] == "Marginal Victory"
    assert procedure("T14", vp_tog=40, vp_cw=20)[0].value["result"] == "Substantial Victory"


def test_victory_points_for_units() -> None:
    assert procedure("5.16", unit="Medium Grav Cohort")[0].value == 10
    assert procedure("5.16", unit="BB", kind="naval")[0].value == 16  # G26: 2 x T9


def test_centurion_conversion() -> None:
    assert procedure("G31", attacker_losses=1, defender_losses=3)[0].value == "BT"
    assert procedure("G31", attacker_losses=1, defender_losses=2)[0].value == "DR"
    assert procedure("G31", attacker_losses=3, defender_losses=1)[0].value == "CA"
    assert procedure("G31", attacker_losses=2, defender_losses=1)[0].value == "AR"
    assert procedure("G31", attacker_losses=2, defender_losses=2)[0].value == "none"


def test_every_procedure_is_addressable_by_its_digest_id() -> None:
    for alias in (
        "5.0",
        "5.1",
        "5.2",
        "5.3",
        "5.4",
        "5.5",
        "5.6",
        "5.7",
        "5.9",
        "5.11.3",
        "5.13.1",
        "5.13.2",
        "5.13.3",
        "5.13.4",
        "5.13.6",
        "5.13.7",
        "5.13.12",
        "5.13.13",
        "5.14.1",
        "5.14.3",
        "5.15",
        "5.16",
        "T4",
        "T14",
        "W33",
    ):
        assert plugin.procedure(alias)
