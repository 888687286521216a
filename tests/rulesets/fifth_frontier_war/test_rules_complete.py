"""Issue 16 ("The rules, complete"), Fifth Frontier War points: each test failed before its fix."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign_tui.core.errors import ActionRejected, InvalidInput
from rulesets.fifth_frontier_war import formulas as F
from rulesets.fifth_frontier_war import fuel, plugin
from rulesets.fifth_frontier_war.procedures import PROCEDURES
from tests.rulesets.fifth_frontier_war.helpers import (
    clear_map,
    goto,
    new_engine,
    of_type,
    place,
    resolver,
    run,
    world,
)

PROCS = {p.id: p for p in PROCEDURES}


# -- T21 / 5.22 / G-28 -------------------------------------------------------------------------
def test_t21_reads_every_half_point_as_g28_truncates_it() -> None:
    """The table itself (``table ... victory d=50.5``) gives what the procedure gives."""
    t21 = plugin.tables().get("T21")
    for twice in range(-800, 801):
        d = Fraction(twice, 2)
        assert t21.lookup(d=d).value == t21.lookup(d=F.victory_d(d)).value, d
    assert t21.lookup(d=Fraction(101, 2)).value == "stalemate"
    assert t21.lookup(d=Fraction(-601, 2)).value == "Imperial decisive victory"


def test_t21_explains_minus_100_and_a_half_as_written() -> None:
    look = plugin.tables().get("T21").lookup(d=Fraction(-201, 2))
    assert "-100½ -> -100 to -51" in look.explanation[0]


def test_calc_explains_each_table_lookup_once() -> None:
    r = resolver()
    calc = PROCS["victory_level"].fn(r, d="-100.5")
    lines = [*r.lines, *calc.lines]
    assert sum(line.startswith("Victory Table:") for line in lines) == 1
    r = resolver(3)
    calc = PROCS["squadrons_vs_sdb"].fn(r, bombard="40", sdb_full=100, sdb_tl=13)
    lines = [*r.lines, *calc.lines]
    assert sum(line.startswith("Squadron Against SDB") for line in lines) == 1


# -- 5.15 tankers ---------------------------------------------------------------------------------
def _tanker_hex(tankers: list[str], cruisers: int = 3, **status: object):  # type: ignore[no-untyped-def]
    """A hex with no fuel source: the tankers and some cruisers all jumped in and need fuel."""
    e = new_engine()
    clear_map(e)
    ships = [f"imp-cr-{n:02d}" for n in range(1, cruisers + 1)]
    for s in [*ships, *tankers]:
        place(e, s, "2411", needs_fuel=True, jumped_turn=1)
    for t in tankers:
        e.state.units[t].status.update(status)
    world(e, "2411").update(
        {"gas_giant": False, "water": False, "naval_base": False, "scout_base": False, "starport": "X"}
    )
    goto(e, "M_REFUEL", 1)
    return e, ships


def _fed(e, ids: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    return [s for s in ids if not e.state.units[s].status.get("needs_fuel")]


def test_a_tanker_may_refuel_itself_instead_of_the_waiting_squadrons() -> None:
    e, ships = _tanker_hex(["imp-tk-01"])
    e.perform("tanker_fuels_tanker", {"tanker": "imp-tk-01"}, by="imperial")
    run(e, fuel.resolve)
    assert _fed(e, ["imp-tk-01"]) == ["imp-tk-01"]
    assert _fed(e, ships) == []
    assert e.state.units["imp-tk-01"].status["tanker_spent"]
    # by default the waiting cruisers come first, as before
    e, ships = _tanker_hex(["imp-tk-01"])
    run(e, fuel.resolve)
    assert _fed(e, ships) == ships and _fed(e, ["imp-tk-01"]) == []


def test_a_tanker_may_refuel_another_tanker_which_stays_unable_to_serve_others() -> None:
    e, ships = _tanker_hex(["imp-tk-01", "imp-tk-02"], tanker_spent=False)
    e.state.units["imp-tk-02"].status["tanker_spent"] = True
    e.perform("tanker_fuels_tanker", {"tanker": "imp-tk-01", "target": "imp-tk-02"}, by="imperial")
    run(e, fuel.resolve)
    assert _fed(e, ["imp-tk-01", "imp-tk-02"]) == ["imp-tk-02"]
    assert _fed(e, ships) == []
    assert e.state.units["imp-tk-01"].status["tanker_spent"]
    assert e.state.units["imp-tk-02"].status["tanker_spent"]  # tanker fuel does not restore it


def test_tanker_fuel_never_restores_a_spent_tankers_ability_by_default_either() -> None:
    e, _ = _tanker_hex(["imp-tk-01", "imp-tk-02"], cruisers=0)
    e.state.units["imp-tk-01"].status["needs_fuel"] = False
    e.state.units["imp-tk-02"].status["tanker_spent"] = True
    run(e, fuel.resolve)
    assert _fed(e, ["imp-tk-02"]) == ["imp-tk-02"]
    assert e.state.units["imp-tk-02"].status["tanker_spent"]


def test_a_spent_tanker_cannot_refuel_even_itself() -> None:
    e, _ = _tanker_hex(["imp-tk-01"], tanker_spent=True)
    with pytest.raises(ActionRejected, match="refuels nobody, itself included"):
        e.perform("tanker_fuels_tanker", {"tanker": "imp-tk-01"}, by="imperial")
    e.perform("reserve_tanker", {"tanker": "imp-tk-01"}, by="imperial")


def test_calc_tanker_capacity_offers_the_choice() -> None:
    proc = PROCS["tanker_capacity"]
    assert proc.fn(resolver(), tanker_defense=6).value == 6
    assert proc.fn(resolver(), tanker_defense=6, serves="itself").value == 1
    assert proc.fn(resolver(), tanker_defense=6, serves="tanker", spent=True).value == 0


# -- seen at the table -----------------------------------------------------------------------------
def _prompt(e) -> str:  # type: ignore[no-untyped-def]
    return plugin.machine(e.state.machine).step(e.state.step).prompt_text(e.state, {})


def test_the_reinforcement_prompt_speaks_of_turn_two_draws_only_while_they_wait() -> None:
    e = new_engine()
    goto(e, "END_OF_TURN", 1)
    e.advance()
    assert "place_arrivals" in _prompt(e)
    waiting = sorted(u.id for u in e.state.units.values() if u.location == "arrived")
    e.perform("place_arrivals", {"units": waiting, "box": "imp_reinf"}, by="imperial")
    assert "turn 2" not in _prompt(e) and "place_arrivals" not in _prompt(e)
    goto(e, "END_OF_TURN", 2)
    e.advance()
    assert e.state.clock["turn"] == 3
    assert "turn 2" not in _prompt(e) and "place_arrivals" not in _prompt(e)


def test_each_sides_space_fire_lines_come_under_that_sides_name() -> None:
    e = new_engine()
    clear_map(e)
    for s in [*of_type(e, "imp-bb-", 3), *of_type(e, "zho-bb-", 3)]:
        place(e, s, "1409")
    e.state.vars["combat_queue"] = ["1409"]
    goto(e, "C_SELECT_HEX", 3)
    e.advance()
    entry = e.entries()[-1]
    sides = [r.side for r in entry.rolls if r.table == "T1"]
    heading = None
    seen = []
    for line in entry.lines:
        for name in ("Imperial", "Zhodani"):
            if line.startswith(f"{name} round"):
                heading = name.lower()
        if line.startswith("Space Combat Results Table"):
            seen.append(heading)
    assert sides == ["imperial", "zhodani"] and seen == sides


# -- every rule reachable: procedures added by the audit ---------------------------------------
def test_order_of_movement_and_of_disengagement_are_reachable() -> None:
    assert PROCS["movement_order"].fn(resolver(4, 2)).value == "zhodani"
    assert PROCS["disengage_order"].fn(resolver(), imperial_tf=2, zhodani_tf=0).value == "zhodani"
    r = resolver(3, 3, 5, 2)
    assert PROCS["disengage_order"].fn(r, imperial_tf=1, zhodani_tf=1).value == "zhodani"
    assert len(r.rolls) == 4  # the tie was rolled again (G-09)


def test_space_commander_follows_seniority_navy_composition_and_the_world_penalty() -> None:
    proc = PROCS["space_commander"].fn
    vargr = proc(resolver(), admirals=["Demiatl:zhodani:1:0", "Gvung:vargr:3:+1:world"],
                 squadrons=["zhodani:3", "vargr:4"])
    assert vargr.value == 0 and "Gvung" in vargr.summary  # 5.18's example; -1 on the world
    senior = proc(resolver(), admirals=["A:imperial:4:+2", "B:imperial:2:-1"], squadrons=["imperial:5"])
    assert senior.value == -1 and "B commands" in senior.summary
    assert proc(resolver(), admirals=[], squadrons=["imperial:1"]).value == 0


def test_surrender_and_gain_of_control_take_the_tables_facts() -> None:
    s = PROCS["surrender"].fn
    assert s(resolver(), vacuum=True, armed_enemy_squadrons=1).value is True
    assert s(resolver(), vacuum=True, armed_enemy_squadrons=1, active_sdbs=True).value is False
    assert s(resolver(), vacuum=False, armed_enemy_squadrons=3).value is False
    g = PROCS["gain_control"].fn
    assert g(resolver(), garrison="15", units=1, db_full="1500").value is True  # Regina, 5.17
    assert g(resolver(), garrison="14", units=1, db_full="1500").value is False
    assert g(resolver(), enemy_sdb="10", garrison="99", units=2).value is False


def test_one_squadrons_refuel_and_a_transfer_are_reachable() -> None:
    fuelled = PROCS["refuel"].fn
    assert fuelled(resolver(), code="streamlined", jumped=True, gas_giant=True).value is True
    assert fuelled(resolver(), code="unstreamlined", jumped=True, gas_giant=True).value is False
    assert fuelled(resolver(), code="unstreamlined", jumped=False, gas_giant=True).value is True
    assert fuelled(resolver(), code="partial", jumped=True, starport="A").value is True
    assert fuelled(resolver(), code="partial", jumped=True, starport="A", starport_slot=False).value is False
    assert fuelled(resolver(), code="partial", jumped=True, starport="A", controlled=False).value is False
    closed = fuelled(resolver(), code="streamlined", jumped=True, ocean=True, red_zone_closed=True)
    assert closed.value is False
    move = PROCS["transfer"].fn
    assert move(resolver(), when="movement").value is True
    assert move(resolver(), when="movement", enemy_squadrons=True).value is False
    assert move(resolver(), when="combat", active_enemy_sdbs=True).value is False
    assert move(resolver(jump_troops=True), when="combat", active_enemy_sdbs=True, jump_troops=True).value
    assert move(resolver(), when="movement", imperial=True, red_zone_closed=True).value is False
    assert move(resolver(), when="movement", imperial=True, red_zone_closed=True, warrant=True).value


# -- 5.24 / G-31: xboat moves on the engine board's route graph ------------------------------------
def test_xboat_move_follows_the_friendly_route_graph() -> None:
    xboat = PROCS["xboat_move"].fn
    r = resolver()
    ok = xboat(r, side="imperial", origin="Pixie", dest="2409")
    assert ok.value is True and "route: 2307 - 2308 - 2409" in " ".join(r.lines)
    far = xboat(resolver(), side="imperial", origin="2307", dest="Regina")
    assert far.value is False and "more than jump-4" in far.summary
    assert xboat(resolver(), side="imperial", origin="2307", dest="2409", enemy_at=["Feri"]).value is False
    assert xboat(resolver(), side="imperial", origin="2307", dest="2409", moved=True).value is False
    wrong_side = xboat(resolver(), side="zhodani", origin="2307", dest="2409")
    assert wrong_side.value is False and "not on a zhodani xboat route" in wrong_side.summary


def test_xboat_move_measures_the_route_with_the_option() -> None:
    xboat = PROCS["xboat_move"].fn
    hexes = xboat(resolver(), side="imperial", origin="2409", dest="2606")
    routed = xboat(resolver(xboat_measure="route_length"), side="imperial", origin="2409", dest="2606")
    assert hexes.value is True  # 4 hexes apart, but more than 4 parsecs along the routes
    assert routed.value is False and "parsecs long" in routed.summary


# -- 5.22: the Imperial Vargr and Sword Worlds bonus; 5.26: the secret base --------------------------
def test_allied_bonus_needs_every_world_of_the_region() -> None:
    bonus = PROCS["allied_bonus"].fn
    assert bonus(resolver(), vargr_held=3, sword_worlds_held=4).value == 30
    assert bonus(resolver(), vargr_held=3, sword_worlds_held=3).value == 15
    assert bonus(resolver(), vargr_held=2, sword_worlds_held=0).value == 0
    with pytest.raises(InvalidInput, match="there are 3"):
        bonus(resolver(), vargr_held=4, sword_worlds_held=0)


def test_secret_base_reveal_passes_control_only_without_imperial_troops() -> None:
    reveal = PROCS["secret_base_reveal"].fn
    assert reveal(resolver()).value == "zhodani"
    assert reveal(resolver(), imperial_troops=2).value == "imperial"


def test_red_zone_opens_with_a_zhodani_entry_and_the_warrant_lands_anyway() -> None:
    """5.23."""
    red = PROCS["red_zone"].fn
    assert red(resolver(), use="gas_giant").value is True
    assert red(resolver(), use="land").value is False
    assert red(resolver(), use="starport", warrant_holder=True).value is False
    assert red(resolver(), use="land", warrant_holder=True).value is True
    assert red(resolver(), use="ocean", zhodani_entered=True).value is True
