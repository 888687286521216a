"""Procedure edge cases and invariants (hypothesis where one exists)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.fifth_frontier_war import combat_procs as CP
from rulesets.fifth_frontier_war import formulas as F
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war import plugin
from rulesets.fifth_frontier_war.hexes import jump_distance, normalise_place, parse_corrections
from rulesets.fifth_frontier_war.procedures import PROCEDURES
from tests.rulesets.fifth_frontier_war.helpers import resolver

T6 = plugin.tables().get("T6")
T6_FULLS = [int(v) for v in T6.axes[0].values]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(T6_FULLS), st.sampled_from(range(10, 100, 10)))
def test_t6_formula_equals_the_table(full: int, loss: int) -> None:
    assert F.current_strength(full, loss) == T6.lookup(full=full, loss=loss).value


@given(st.integers(1, 10**6), st.integers(0, 100))
def test_current_strength_is_round_half_up(full: int, loss: int) -> None:
    value = F.current_strength(full, loss)
    exact = Fraction(full * (100 - loss), 100)
    assert abs(value - exact) <= Fraction(1, 2)
    if loss >= 100:
        assert value == 0
    elif exact - int(exact) == Fraction(1, 2):
        assert value == int(exact) + 1


@given(st.fractions(min_value=0, max_value=2000), st.sampled_from([48, 480]))
def test_split_parts_add_up_and_stay_within_the_top(total: Fraction, top: int) -> None:
    parts = F.split(total, top)
    assert sum(parts) == total
    assert all(0 < p <= top for p in parts)
    assert all(p == top for p in parts[:-1])


@given(st.integers(0, 200), st.integers(0, 200), st.integers(-13, 13))
def test_troop_odds_never_favour_the_attacker(a: int, d: int, shift: int) -> None:
    t5 = plugin.tables().get("T5")
    if d == 0:
        return
    look = t5.lookup(roll=7, odds=(a, d))
    axis = t5.axes[1]
    value = axis.values[axis.labels.index(look.labels["odds"])]
    ratio = Fraction(a, d)
    assert value <= ratio or look.labels["odds"] == "1:100"


@given(
    st.integers(0, 40),
    st.lists(st.tuples(st.integers(1, 12), st.integers(0, 6), st.booleans()), min_size=1, max_size=8),
)
def test_minimal_allocation_covers_the_damage(result: int, spec: list[tuple[int, int, bool]]) -> None:
    hulls = [CP.Hull(f"s{i}", d, min(r, d) if back else None) for i, (d, r, back) in enumerate(spec)]
    choice = CP.minimal_allocation(result, hulls)
    assert CP.check_allocation(result, hulls, choice) is None
    if result and sum(h.defense for h in hulls) > result:
        lost = CP.allocation_loss(hulls, choice)
        assert lost >= result
        # no single operation can be dropped and still cover the damage
        for sid in choice:
            smaller = {k: v for k, v in choice.items() if k != sid}
            assert CP.allocation_loss(hulls, smaller) < result


def test_allocation_rules() -> None:
    hull = CP.Hull("a", 3, 1, reduced=True)
    assert CP.check_allocation(2, [hull], {"a": "reduce"})  # a reduced squadron can only be eliminated
    scout = CP.Hull("s", 6, None)
    assert CP.check_allocation(1, [scout], {"s": "reduce"})  # no back face
    assert CP.check_allocation(1, [scout], {"s": "eliminate"}) is None
    assert CP.check_allocation(50, [scout], {"s": "eliminate"}) is None  # everything lost


@given(st.integers(1, 6), st.integers(-1, 1))
def test_space_fire_roll_is_clamped(die: int, mod: int) -> None:
    res = CP.space_fire(resolver(die), 30, mod)
    row = min(6, max(1, die + mod))
    assert res.value == plugin.tables().get("T1").lookup(roll=row, attack=30).value


@pytest.mark.parametrize(
    ("col", "shift", "main", "extra"),
    [(42, 2, 48, 1), (48, 1, 48, 1), (48, 2, 48, 3), (18, 1, 24, None), (36, 2, 48, None)],
)
def test_quality_shift_past_48(col: int, shift: int, main: int, extra: int | None) -> None:
    new, more = F.quality_extra_attacks(F.SPACE_COLUMNS.index(col), shift)
    assert (F.SPACE_COLUMNS[new], more) == (main, extra)


def test_quality_shift_on_the_chosen_part_gives_an_extra_attack() -> None:
    r = resolver(6, 6)
    res = CP.space_fire(r, 48, 0, quality_shift=1)
    assert len(r.rolls) == 2 and res.value == 11 + 1


@given(st.integers(1, 6), st.integers(0, 15), st.booleans())
def test_t2_column_and_row_methods_agree_inside_the_table(die: int, tl: int, passive: bool) -> None:
    col = CP.squadrons_vs_sdb(resolver(die), 24, 150, tl, passive).value
    row = CP.squadrons_vs_sdb(resolver(die, t2_counting="row"), 24, 150, tl, passive).value
    m = die - tl // 2 - (3 if passive else 0)
    if -3 <= m <= 4:  # away from the table's edges the diagonal makes both the same
        assert col == row


def test_t2_non_label_rows() -> None:
    assert CP.t2_row(300) == 200 and CP.t2_row(300, "next_larger") == 500
    assert CP.t2_row(9000) == 5000


def test_sdb_fire_third_part() -> None:
    r = resolver(6, 6, 6)
    value = CP.sdb_fire(r, 1000, 13).value
    t3 = plugin.tables().get("T3")
    assert value == 2 * t3.lookup(roll=6, sdb=480).value + t3.lookup(roll=6, sdb=40).value
    assert len(r.rolls) == 3
    r = resolver(6, sdb_below_10="first_column")
    assert CP.sdb_fire(r, 9, 15).value == t3.lookup(roll=8, sdb=10).value


def test_bombing_per_target_and_tl() -> None:
    assert (
        CP.bomb_target(resolver(1), 12, 15).value
        == plugin.tables().get("T4").lookup(roll=3, bombard=12).value
    )
    assert CP.sdb_bombardment(125) == Fraction(25, 2)
    assert CP.sdb_bombardment(125, "floor") == 12


def test_surface_attack_floor_of_two_and_zero_defence() -> None:
    r = resolver(1, 1)
    res = CP.surface_attack(r, 1, 1, 10, 10, "vacuum")
    assert res.value == plugin.tables().get("T5").lookup(roll=2, odds=(1, 1)).value
    res = CP.surface_attack(resolver(6, 6), 1, 0, 10, 10, "breathable")  # no defence: best column
    assert res.value == 80


def test_combat_strength_options() -> None:
    assert F.combat_strength(10, armor=True, firing=False) == 20
    assert F.combat_strength(10, armor=True, firing=False, doubling="fire_only") == 10
    assert F.combat_strength(3, mercenary=True, loss=70, mercenary_rule="fire_and_defend_truncated") == 1
    assert (
        F.combat_strength(
            3, mercenary=True, loss=70, firing=False, mercenary_rule="fire_and_defend_truncated"
        )
        == 1
    )


def test_cut_carried_troops_to_capacity() -> None:
    assert F.cut_to_capacity([("div", 20, 10)], 10) == {"div": 50}
    assert F.cut_to_capacity([("corps", 500, 0)], 300) == {"corps": 40}
    assert F.cut_to_capacity([("a", 10, 0)], 10) == {}


def test_guerrilla_fraction_options() -> None:
    assert F.guerrilla_full(15) == Fraction(3, 2)
    assert F.guerrilla_full(15, "floor_min1") == 1
    assert F.guerrilla_full(2, "floor_min1") == 1
    assert F.guerrilla_current(15, 50) == Fraction(3, 4)


def test_replacement_costs() -> None:
    assert F.troop_rebuild_cost(20, 30, armor=True) == 12
    assert F.troop_rebuild_cost(20, 30, armor=False) == 6
    assert F.troop_rebuild_cost(20, 30, armor=False, to_loss=10) == 4
    assert F.troop_replace_cost(20, armor=True) == 40


def test_victory_half_points_and_armistice_floor() -> None:
    assert F.victory_d(Fraction(101, 2)) == 50
    assert F.victory_d(Fraction(-101, 2)) == -50
    assert F.victory_d(Fraction(101, 2), "raw") == 51
    assert F.victory_d(Fraction(-101, 2), "raw") == -50
    assert F.armistice_level("Imperial major victory", 30, True) == "Imperial decisive victory"
    assert F.armistice_level("Zhodani automatic victory", 30, True) == "Zhodani marginal victory"
    assert F.armistice_level("Imperial automatic victory", 60, False) == "Imperial decisive victory"


def test_hex_distances_and_corrections() -> None:
    assert jump_distance("2213", "2314") == 1
    assert jump_distance("2307", "2308") == 1
    assert jump_distance("2307", "2409") == 3
    assert jump_distance("2307", "2409", "2307-2409=2") == 2
    assert parse_corrections("2307-2409=2, 2314-2213=1") == {
        frozenset(("2307", "2409")): 2,
        frozenset(("2314", "2213")): 1,
    }
    with pytest.raises(ValueError):
        parse_corrections("2307=2")
    assert normalise_place("ZR") == "box:zho_reinf" and normalise_place("box:imp_reinf") == "box:imp_reinf"
    with pytest.raises(ValueError):
        normalise_place("Regina")


@given(st.integers(1, 32), st.integers(1, 30), st.integers(1, 32), st.integers(1, 30))
def test_hex_distance_is_a_metric(c1: int, r1: int, c2: int, r2: int) -> None:
    a, b = f"{c1:02d}{r1:02d}", f"{c2:02d}{r2:02d}"
    assert jump_distance(a, b) == jump_distance(b, a) >= 0
    assert (jump_distance(a, b) == 0) == (a == b)


def test_plot_parsing_errors() -> None:
    with pytest.raises(ValueError):
        P.parse_order("X2011")
    with pytest.raises(ValueError):
        P.parse_order("J")
    assert P.parse_order("j zr")["hex"] == "box:zho_reinf"


def test_every_procedure_runs_from_the_calculator() -> None:
    samples = {
        "split_attack": {"total": "100"},
        "space_fire": {"attack": "30"},
        "tactical_modifiers": {"tf_a": 2, "tf_b": 1},
        "damage_allocation": {"result": 3, "squadrons": '[{"id": "a", "defense": 6, "reduced_defense": 3}]'},
        "quality": {"regular_attack": "8", "total_attack": "15"},
        "quality_shift": {"firing": "imperial_standard", "target": "zhodani_low"},
        "squadrons_vs_sdb": {"bombard": "40", "sdb_full": 100, "sdb_tl": 13},
        "sdb_fire": {"sdb_current": 120, "sdb_tl": 13},
        "surface_bombing": {"bombard": "18", "target_tl": 10},
        "sdb_bombardment": {"sdb_current": 125},
        "surface_attack": {"firing": "15", "defending": "5", "firer_tl": 14, "target_tl": 15},
        "odds": {"firing": "13", "defending": "5"},
        "combat_strength": {"current": "10", "armor": True},
        "current_strength": {"full": "150", "loss": 20},
        "add_losses": {"loss": 10, "result": 40},
        "capacity": {"sq_type": "C", "defense": 4},
        "cut_to_capacity": {"capacity": 10, "troops": '[["d", 20, 10]]'},
        "hex_distance": {"a": "2213", "b": "2314"},
        "box_jump_cost": {"entry": "0708", "dest": "0707"},
        "fleet_jump": {"jumps": "3,3,1"},
        "refuel_time": {"source": "gas_giant", "code": "unstreamlined"},
        "starport_refuel": {"starport": "A", "squadrons": 10},
        "tanker_capacity": {"tanker_defense": 6},
        "plot_horizon": {"turn": 3, "pf": 4, "plotted": "4,5,6"},
        "abort_plot": {"turn": 10, "here": "2314", "plot": '{"11": "R2314", "12": "J2213"}'},
        "insert_hold": {"turn": 6, "here": "2409", "plot": '{"7": "J2411", "8": "R2411"}'},
        "garrison": {"db_full": "1500", "garrison": "15"},
        "guerrilla_strength": {"db_full": "1000", "loss": 50},
        "guerrilla_recovery": {"loss": 30},
        "troop_rebuild_cost": {"full": 20, "loss": 30, "armor": True},
        "troop_replace_cost": {"full": 20},
        "replacement_points": {"side": "imperial", "turn": 6},
        "imperial_reinforcements": {},
        "world_vp": {"tl": 10, "capital": True},
        "victory_level": {"d": "127"},
        "armistice": {"d": "127", "turn": 34},
        "tl_modifier": {"tl": 13},
        "atmosphere_modifier": {"atmosphere": "vacuum"},
        "surprise_discovery": {},
        "movement_order": {},
        "disengage_order": {"imperial_tf": 1, "zhodani_tf": 1},
        "space_commander": {"admirals": ["A:imperial:2:+1"], "squadrons": ["imperial:3"]},
        "surrender": {"vacuum": True, "armed_enemy_squadrons": 1},
        "gain_control": {"garrison": "15", "units": 1, "db_full": "1500"},
        "refuel": {"code": "streamlined", "jumped": True, "gas_giant": True},
        "transfer": {"when": "combat", "active_enemy_sdbs": True},
        "xboat_move": {"side": "imperial", "origin": "2307", "dest": "2409"},
        "allied_bonus": {"vargr_held": 3, "sword_worlds_held": 4},
        "secret_base_reveal": {},
        "red_zone": {"use": "land", "warrant_holder": True},
    }
    procs = {p.id: p for p in PROCEDURES}
    assert set(samples) == set(procs)
    for pid, params in samples.items():
        r = resolver(4, 3, 2, 5, 6, 1, 2, 3, 4, 5, 6)
        result = procs[pid].fn(r, **params)
        assert result.summary
    assert procs["armistice"].fn(resolver(), d="127", turn=34).value == "stalemate"
    assert procs["plot_horizon"].fn(resolver(), turn=3, pf=4, plotted="4,5,6").value["plot"] == [7]
