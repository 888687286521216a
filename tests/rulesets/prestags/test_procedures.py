"""Formulas of digest section 5: odds, strengths, flank, victory, panic, plots; hypothesis
checks the invariants."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_tui.cli import main as cli
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.procedures import FreeResolver
from rulesets.prestags import crt, hexmap, plugin, strength, victory
from rulesets.prestags.common import frac, ftext

OPTS = {o.id: o.default for o in plugin.options()}
RBC, PANIC = {"retreat_before_combat": True}, {"panic": True}
RATIOS = [Fraction(1, 2), *(Fraction(n) for n in range(1, 9))]
LABELS = ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1"]
positive = st.fractions(min_value=Fraction(1, 8), max_value=Fraction(200), max_denominator=8)


def calc(name: str, **params: object) -> object:
    proc = plugin.procedure(name)
    options = {**OPTS, **params.pop("options", {})}  # type: ignore[dict-item]
    return proc.fn(FreeResolver(plugin.tables(), options, dice=params.pop("dice", None)), **params)


@given(positive, positive)
@settings(max_examples=300, deadline=None)
def test_odds_rounded_in_the_defenders_favour(attack, defence):
    """The column's ratio never exceeds the true ratio, and the next column is above it;
    below 1-2 refused, above 8-1 read as 8-1 [7.32], [8.1]."""
    ratio = attack / defence
    if ratio < Fraction(1, 2):
        with pytest.raises(ActionRejected, match="below 1-2"):
            crt.odds_column(plugin.tables(), OPTS, attack, defence)
        return
    label, _ = crt.odds_column(plugin.tables(), OPTS, attack, defence)
    i = LABELS.index(label)
    assert RATIOS[i] <= ratio
    assert i == len(LABELS) - 1 or RATIOS[i + 1] > ratio


@given(positive, positive, positive)
@settings(max_examples=150, deadline=None)
def test_more_attack_never_lowers_the_column(a, extra, d):
    if a / d < Fraction(1, 2):
        return
    low, _ = crt.odds_column(plugin.tables(), OPTS, a, d)
    high, _ = crt.odds_column(plugin.tables(), OPTS, a + extra, d)
    assert LABELS.index(high) >= LABELS.index(low)


def test_odds_examples_from_the_digest():
    cases = [
        ((26, 9), "2-1"),
        ((8, 4), "2-1"),
        ((Fraction(5, 2), 2), "1-1"),
        ((7, Fraction(15, 2)), "1-2"),
        ((80, 3), "8-1"),
        ((7, 1), "7-1"),
    ]
    for (a, d), label in cases:
        assert crt.odds_column(plugin.tables(), OPTS, Fraction(a), Fraction(d))[0] == label
    with pytest.raises(ActionRejected):
        crt.odds_column(plugin.tables(), OPTS, Fraction(4), Fraction(9))


melee_kinds = st.sampled_from(["normal", "bracket", "dot"])
troops = st.lists(st.tuples(st.integers(1, 8), melee_kinds), min_size=1, max_size=4)


@given(
    troops,
    st.lists(st.sampled_from([Fraction(9), Fraction(6), Fraction(3), Fraction(0)]), max_size=3),
    st.booleans(),
    st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_leader_bonus_never_exceeds_the_adjusted_troops(units, bonuses, panicked, flank):
    """[10.0], [10.11]: with leaders the defence is at most twice the troops' own."""
    ts = [strength.Troop(f"u{n}", f"u{n}", "B", m, k) for n, (m, k) in enumerate(units)]
    reasons = [r for r, on in (("panicked", panicked), ("flank", flank)) if on]
    bare, _ = strength.hex_defence(strength.DefenceHex("h", ts, [], halvings={t.id: reasons for t in ts}))
    led, _ = strength.hex_defence(strength.DefenceHex("h", ts, bonuses, halvings={t.id: reasons for t in ts}))
    assert bare <= led <= 2 * bare
    assert led - bare == min(sum(bonuses, Fraction(0)), bare)


def test_dot_value_defends_zero_beside_a_melee_unit_else_one():
    """[3.36], G-29."""
    bw = strength.Troop("b", "BW", "Ff", None, "dot")
    sd = strength.Troop("s", "SD", "B", 4)
    assert strength.hex_defence(strength.DefenceHex("h", [bw, sd]))[0] == 4
    assert strength.hex_defence(strength.DefenceHex("h", [bw]))[0] == 1
    assert strength.hex_defence(strength.DefenceHex("h", [bw], [Fraction(9)]))[0] == 2  # bonus capped at 1
    assert strength.hex_defence(strength.DefenceHex("h", []), Fraction(1), n_leaders=2)[0] == 2  # G-9


def test_halvings_multiply_or_apply_once():
    """G-24: panicked and flanked = x1/4 by default."""
    t = strength.Troop("s", "SD", "B", 4)
    h = strength.DefenceHex("h", [t], halvings={"s": ["panicked", "flank"]})
    assert strength.hex_defence(h)[0] == 1
    assert strength.hex_defence(h, halving="once")[0] == 2


def test_modifier_order_terrain_then_capability_then_halving_then_leader():
    t = strength.Troop("s", "SD", "B", 4)
    h = strength.DefenceHex(
        "h",
        [t],
        [Fraction(9)],
        terrain_mult=Fraction(2),
        terrain_name="woods",
        capability={"s": ("x", Fraction(1, 2))},
        halvings={"s": ["panicked"]},
    )
    value, lines = strength.hex_defence(h)
    assert value == 4  # 4 x2 x1/2 x1/2 = 2, +2 capped bonus
    order = [
        n
        for n, line in enumerate(lines)
        for key in ("terrain", "capability", "panicked", "leader")
        if key in line
    ]
    assert order == sorted(order)


@given(st.sets(st.integers(0, 5)))
def test_flank_ring_test_means_no_three_empty_in_a_row(positions):
    empty = [i not in positions for i in range(6)]
    three = any(empty[i] and empty[(i + 1) % 6] and empty[(i + 2) % 6] for i in range(6))
    assert strength.flank_covered(positions) == (bool(positions) and not three)


@given(st.integers(0, 500), st.integers(0, 500))
def test_victory_level_matches_the_ratio(own, enemy):
    lv = victory.level(own, enemy)
    if enemy == 0:
        assert lv == ("Decisive" if own > 0 else "none")
        return
    r = Fraction(own, enemy)
    assert lv == ("Decisive" if r >= 3 else "Substantive" if r >= 2 else "Marginal" if r > 1 else "none")


@given(st.integers(0, 99), st.integers(0, 99), st.integers(0, 99), st.integers(0, 99))
def test_grid_distance_is_a_metric_and_neighbours_are_adjacent(c1, r1, c2, r2):
    a, b = f"{c1:02d}{r1:02d}", f"{c2:02d}{r2:02d}"
    for mode in ("odd-q", "even-q"):
        g = hexmap.GRIDS[mode]
        d = g.distance(a, b)
        assert d == g.distance(b, a) and (d == 0) == (a == b)
        for direction in range(6):
            n = g.neighbour(a, direction)
            if n is not None and len(n) == 4:
                assert g.distance(a, n) == 1
                assert g.direction(a, n) == direction


def test_fraction_text():
    assert [ftext(x) for x in (Fraction(5, 2), Fraction(9, 4), Fraction(7, 3), Fraction(1, 2))] == [
        "2½",
        "2¼",
        "7/3",
        "½",
    ]
    assert frac("2½") == Fraction(5, 2) and frac("5/2") == Fraction(5, 2)


# -- the procedures as calc runs them ------------------------------------------------------------
def test_procedures_answer_and_explain():
    assert calc("odds", attack="26", defence="9").value == "2-1"
    assert calc("melee_defence", units="[4]", flank=True, options={"facing": True}).value == "1"
    assert calc("melee_defence", units="4,•", leaders="9").value == "8"
    assert calc("melee_attack", groups="5^", leaders="9", options={"elevation": True}).value == "5"  # 2½ + 2½
    assert calc("melee_attack", groups="2|2", flank=True).value == "8"
    assert calc("vp", melee="[4]").value == 2 and calc("vp", melee="•", fire=2).value == 3
    assert calc("victory_level", own=20, enemy=10).value == "Substantive"
    assert calc("vp_record", vp=27).value == ["000", "20", "7"]
    assert calc("movement_allowance", ma="9", in_radius=False).value == "4½"
    assert calc("movement_allowance", ma="9", in_radius=False, mounted=True, mt_ex=True).value == "9"
    assert calc("half_elimination", troops=3).value == 2
    assert calc("retreat", defender_ma="9", attacker_mas="4,6", options=RBC).value is True
    assert calc("retreat", defender_ma="9", attacker_mas="7", options=RBC).value is False
    assert calc("readiness", now=6, last_fire=5).value == {"fire": False, "melee": True}
    assert calc("recovery", disrupted_at=4, now=4).value is False
    assert calc("leader_reduction", grade=4).value == "eliminated"
    assert calc("leader_reduction", grade=5).value == 6
    assert calc("die_row", die=6, disrupted=True).value == 7
    assert calc("elevation", klass="B", attacker="slope", defender="slope", options={"elevation": True}).value
    assert calc("facing", facing=0, hexside=3).value == "flank"
    assert calc("stacking", classes="Ff,A,B", limit=3).value is False
    assert calc("combat", attack="8", defence="1", dice=[1]).value == "E"
    assert calc("two_hexes", attack="2", defence="1", dice=[3]).value == ["D", "D"]
    assert calc("plot_path", path="0405 0406 pause 0407", ma="9").value is False
    assert calc("plot_path", path="0101 0102 0103:2", ma="4", grid="odd-q").value is True
    assert calc("plot_path", path="0101 0103", ma="4", grid="odd-q").value is False
    assert calc("control", last_occupant="B").value == "B" and calc("control").value is None
    assert calc("contact", result="D", leader_cancelled=True, options={"contact": True}).value is True
    assert calc("contact", result="1/2E", options={"contact": True}).value is False
    assert calc("distance", a="0506", b="0508").value == 2


def test_panic_procedure_ties():
    """[13.12], [13.13]."""
    assert calc("panic", a_level=10, b_level=9, a_lost=10, b_lost=3, options=PANIC).value == "A"
    # surplus 2 vs 1
    assert calc("panic", a_level=10, b_level=9, a_lost=12, b_lost=10, options=PANIC).value == "A"
    tie = calc("panic", a_level=10, b_level=9, a_lost=11, b_lost=10, defender="B", options=PANIC)
    assert tie.value == "B"


def test_die7_policy_clamps_for_a_table_without_row_seven():
    opts = {**OPTS, "die7_policy": "clamp6"}
    assert crt.row_for(6, 1, opts)[0] == 6 and crt.row_for(6, 1, OPTS)[0] == 7


def test_case_numbers_address_procedures_and_tables(capsys):
    assert plugin.procedure("7.32").id == "odds" and plugin.procedure("8.24").id == "two_hexes"
    assert plugin.tables().get("8.0").id == "crt" and plugin.tables().get("10.4").id == "leaders"
    assert cli(["calc", "prestags", "7.32", "attack=26", "defence=9"]) == 0
    assert "2-1" in capsys.readouterr().out
    assert cli(["table", "prestags", "CRT", "odds=15:5", "--roll", "6"]) == 0
    assert "1/2E" in capsys.readouterr().out
