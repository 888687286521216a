"""The rules in play: system defense, disengagement, black globes, transport, xboats, free
movement, replacements, the secret base, guerrillas, plotting, victory and the GM's tools."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from rulesets.fifth_frontier_war import ops, plugin, reinforcements
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war.game import Game
from tests.rulesets.fifth_frontier_war.helpers import (
    clear_map,
    fleet,
    game,
    goto,
    new_engine,
    place,
    run,
    world,
)


def to_combat(e: Engine, turn: int = 3) -> None:
    """From the last movement step: refuelling, the contested hexes, the first hex."""
    goto(e, "M_REFUEL", turn)
    e.state.options["hex_order"] = "hex_number"
    e.advance()


def test_system_defense_round_and_break_off() -> None:
    e = new_engine()
    clear_map(e)
    ships = ["zho-bb-01", "zho-bb-02", "zho-bb-03", "zho-bb-04"]
    fleet(e, "zho-40th", "zhodani", "1510", ships)
    to_combat(e)
    assert e.state.step == "SD1" and e.state.vars["roles"]["sq_side"] == "zhodani"
    with pytest.raises(ActionRejected):
        e.perform("sdb_attack", {"attack": True}, by="imperial")
    e.perform("sdb_attack", {"attack": True}, by="zhodani")
    e.advance()
    e.perform("sdb_mode", {"mode": "active"}, by="imperial")
    out = e.advance()
    assert any(r.table == "T2" for r in out.entry.rolls) and any(r.table == "T3" for r in out.entry.rolls)
    if e.state.step == "SD3.allocate":
        e.perform("allocate_auto", {"side": "zhodani"}, by="zhodani")
        e.advance()
    if e.state.step == "SD4.squadrons":
        e.perform("sdb_break_off", {}, by="zhodani")
        e.advance()
    assert e.state.step not in ("SD3", "SD4.sdbs")
    alive = [s for s in ships if not e.state.units[s].status.get("eliminated")]
    if world(e, "1510")["sdb_loss"] < 100:
        assert all(e.state.units[s].status.get("stood_aside") for s in alive)


def test_passive_sdbs_fight_one_round_at_minus_three_and_do_not_fire() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1510", ["zho-bb-01", "zho-bb-02"])
    to_combat(e)
    e.perform("sdb_attack", {"attack": True}, by="zhodani")
    e.advance()
    e.perform("sdb_mode", {"mode": "passive"}, by="imperial")
    out = e.advance(answers={"roll1": 6})
    t2 = [r for r in out.entry.rolls if r.table == "T2"]
    assert t2 and ("passive SDBs", -3) in t2[0].modifiers
    assert not [r for r in out.entry.rolls if r.table == "T3"]
    assert e.state.step not in ("SD3", "SD4.squadrons", "SD4.sdbs", "SD3.allocate")
    assert world(e, "1510")["sdb_mode"] == "passive"


def test_declined_squadrons_still_take_active_sdb_fire_and_cannot_bomb() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1510", ["zho-bb-01", "zho-bb-02"])
    to_combat(e)
    e.perform("sdb_attack", {"attack": False}, by="zhodani")
    e.advance()
    e.perform("sdb_mode", {"mode": "active"}, by="imperial")
    out = e.advance()
    assert [r for r in out.entry.rolls if r.table == "T3"] and not [
        r for r in out.entry.rolls if r.table == "T2"
    ]
    assert all(e.state.units[s].status.get("stood_aside") for s in ("zho-bb-01", "zho-bb-02"))


def test_space_combat_disengagement_counts_as_next_turns_move() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1409", ["zho-cr-01", "zho-cr-02"])
    fleet(e, "imp-18th", "imperial", "1409", ["imp-bb-10", "imp-bb-11"])
    run(
        e,
        lambda ctx: ops.save_plot(
            ctx, "zhodani", "zho-40th", {4: P.parse_order("J1410"), 5: P.parse_order("R1410")}
        ),
    )
    world(e, "1409")["sdb"] = 0
    to_combat(e)
    for _ in range(10):
        step = e.state.step
        if step == "SC3":
            for side in ("imperial", "zhodani"):
                if not e.state.vars["combat"]["allocated"][side]:
                    e.perform("allocate_auto", {"side": side})
        elif step in ("SC4.decide", "SC5.decide"):
            role = "first_disengager" if step == "SC4.decide" else "second_disengager"
            side = e.state.vars["roles"][role]
            if side == "zhodani":
                e.perform("disengage", {"side": "zhodani", "destinations": "zho-40th:1410"}, by="zhodani")
            else:
                e.perform("stand", {"side": side}, by=side)
        if e.state.formations.get("zho-40th") and e.state.formations["zho-40th"].location == "1410":
            break
        e.advance()
    f = e.state.formations.get("zho-40th")
    if f is None:  # both cruisers died before the decision: nothing to check
        return
    assert f.location == "1410"
    ships = Game.read(e.state).fleet_ships("zho-40th")
    assert all(s.status.get("moved_for") == 4 and s.status.get("disengaged") for s in ships)
    assert ops.plot(e.state, "zhodani", "zho-40th")[4]["hex"] == "1410"  # the plotted jump: kept


def test_disengagement_needs_a_system_in_range_and_every_able_fleet() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1409", ["zho-cr-01"])
    fleet(e, "zho-68th", "zhodani", "1409", ["zho-cr-02"])
    fleet(e, "imp-18th", "imperial", "1409", ["imp-bb-10"])
    e.state.vars["combat"] = {"hex": "1409", "decided": {}}
    e.state.vars["roles"] = {"first_disengager": "zhodani", "second_disengager": "imperial"}
    goto(e, "SC4.decide", 3)
    with pytest.raises(ActionRejected, match="every fleet"):
        e.perform("disengage", {"side": "zhodani", "destinations": "zho-40th:1410"}, by="zhodani")
    far = next(h for h in e.state.records("worlds") if game(e).dist("1409", h) > 5)
    with pytest.raises(ActionRejected, match="hexes away"):
        e.perform(
            "disengage", {"side": "zhodani", "destinations": f"zho-40th:{far}, zho-68th:1410"}, by="zhodani"
        )
    e.perform("disengage", {"side": "zhodani", "destinations": "zho-40th:1410, zho-68th:1410"}, by="zhodani")
    plot = ops.plot(e.state, "zhodani", "zho-68th")
    assert all(o["order"] == "R" and o["hex"] == "1410" for o in plot.values())


def test_black_globe_surprise_round() -> None:
    e = new_engine(black_globes=True)
    clear_map(e)
    bgs = [f"imp-bg-{n:02d}" for n in range(1, 5)]
    fleet(e, "imp-18th", "imperial", "1608", bgs)
    for s in bgs:
        place(e, s, "1608", jumped_turn=3, needs_fuel=True)
    fleet(e, "zho-40th", "zhodani", "1608", ["zho-bb-01", "zho-bb-02"])
    to_combat(e)
    assert e.state.step == "C_BLACK_GLOBE"
    with pytest.raises(AdvanceRefused):
        e.advance()
    out = e.perform("black_globe", {"fleet": "imp-18th", "kind": "attack"}, by="imperial")
    assert all(r.side == "imperial" for r in out.entry.rolls)
    if not e.state.vars["combat"]["allocated"]["zhodani"]:
        e.perform("allocate_auto", {"side": "zhodani"}, by="zhodani")
    e.advance()
    assert e.state.step in ("SC3", "SD0", "SB", "ST", "SF2", "P_FLEET_ADJ", "C_SELECT_HEX") or e.state.step


def test_loading_rules() -> None:
    e = new_engine()
    clear_map(e)
    place(e, "imp-bb-10", "2314")
    place(e, "imp-t20-01", "2314")
    place(e, "imp-t10-01", "2314")
    goto(e, "M_XBOAT_1", 3)
    e.state.vars["roles"] = {"first": "imperial", "second": "zhodani"}
    e.perform("load", {"units": ["imp-t20-01"], "carrier": "imp-bb-10"}, by="imperial")
    with pytest.raises(ActionRejected, match="can carry 20"):
        e.perform("load", {"units": ["imp-t10-01"], "carrier": "imp-bb-10"}, by="imperial")
    with pytest.raises(ActionRejected, match="only the imperial"):
        e.perform("load", {"units": ["imp-t10-01"], "carrier": "imp-bb-10"}, by="zhodani")
    place(e, "zho-cr-01", "2314")
    with pytest.raises(ActionRejected, match="enemy squadrons or SDBs"):
        e.perform("unload", {"units": ["imp-t20-01"]}, by="imperial")
    place(e, "zho-cr-01", "pool:test")
    place(e, "zho-cr-02", "0708")
    place(e, "ig-01", "0708")
    with pytest.raises(ActionRejected, match="never transported"):
        e.perform("load", {"units": ["ig-01"], "carrier": "zho-cr-02"}, by="gm")
    # a carrier reduced in combat: its division is cut to the reduced capacity
    run(e, lambda ctx: ops.reduce_squadron(ctx, "imp-bb-10"))
    assert e.state.units["imp-t20-01"].status.get("loss", 0) == 50


def test_red_zone_landing_and_opening() -> None:
    e = new_engine()
    clear_map(e)
    red = next(h for h, w in e.state.records("worlds").items() if w["zone"] == "red")
    place(e, "imp-bb-10", red)
    place(e, "imp-t10-01", "sq:imp-bb-10")
    goto(e, "M_XBOAT_1", 3)
    with pytest.raises(ActionRejected, match="interdicted"):
        e.perform("unload", {"units": ["imp-t10-01"]}, by="imperial")
    place(e, "zho-sc-01", red)
    from rulesets.fifth_frontier_war import control

    run(e, lambda ctx: control.open_red_zone(ctx, red))
    assert world(e, red)["red_opened"]
    place(e, "zho-sc-01", "pool:test")
    e.perform("unload", {"units": ["imp-t10-01"]}, by="imperial")
    assert e.state.units["imp-t10-01"].location == red


def test_jump_troops_land_despite_active_sdbs() -> None:
    for option in (False, True):
        e = new_engine(jump_troops=option)
        clear_map(e)
        place(e, "imp-bb-10", "1510")
        place(e, "zho-bb-01", "1510")
        world(e, "1510")["controller"] = "zhodani"
        e.state.units["imp-t10-01"].attrs["troop_type"] = "jump"
        place(e, "imp-t10-01", "sq:imp-bb-10")
        place(e, "zho-bb-01", "pool:test")
        e.state.vars["combat"] = {"hex": "1510"}
        goto(e, "ST", 3)
        if option:
            e.perform("unload", {"units": ["imp-t10-01"]}, by="imperial")
        else:
            with pytest.raises(ActionRejected, match="active enemy SDBs"):
                e.perform("unload", {"units": ["imp-t10-01"]}, by="imperial")


def test_xboat_moves() -> None:
    e = new_engine()
    clear_map(e)
    place(e, "imp-adm-02", "2307", on_world=True)
    goto(e, "M_XBOAT_1", 3)
    e.state.vars["roles"] = {"first": "imperial", "second": "zhodani"}
    with pytest.raises(ActionRejected, match="more than jump-4"):
        e.perform("xboat", {"admiral": "imp-adm-02", "to": "2314"}, by="imperial")
    place(e, "zho-cr-01", "2409")
    with pytest.raises(ActionRejected, match="enemy squadrons"):
        e.perform("xboat", {"admiral": "imp-adm-02", "to": "2409"}, by="imperial")
    place(e, "zho-cr-01", "pool:test")
    e.perform("xboat", {"admiral": "imp-adm-02", "to": "2409"}, by="imperial")
    with pytest.raises(ActionRejected, match="already moved by xboat"):
        e.perform("xboat", {"admiral": "imp-adm-02", "to": "2411"}, by="imperial")
    # he may not ride a jump in the same movement phase
    fleet(e, "imp-18th", "imperial", "2409", ["imp-cr-01"])
    e.state.units["imp-adm-02"].formation = "imp-18th"
    e.state.units["imp-adm-02"].status["on_world"] = False
    notes = []
    run(e, lambda ctx: notes.extend(ops.jump_fleet(ctx, "imp-18th", "2411", 3)))
    assert e.state.units["imp-adm-02"].location == "2409" and notes


def test_scouts_and_well_led_fleets_move_freely() -> None:
    e = new_engine()
    clear_map(e)
    place(e, "imp-sc-01", "2314")
    fleet(e, "imp-18th", "imperial", "2314", ["imp-cr-01"], admiral="imp-adm-02")
    e.state.units["imp-adm-02"].attrs["plotting"] = 0
    goto(e, "M_SCOUT_1", 3)
    e.state.vars["roles"] = {"first": "imperial", "second": "zhodani"}
    with pytest.raises(ActionRejected, match="needs jump 5"):
        e.perform("move_scout", {"squadron": "imp-sc-01", "to": "2409"}, by="imperial")
    e.perform("move_scout", {"squadron": "imp-sc-01", "to": "2213"}, by="imperial")
    assert e.state.units["imp-sc-01"].location == "2213" and e.state.units["imp-sc-01"].status.get(
        "needs_fuel"
    )
    with pytest.raises(ActionRejected, match=r"not fueled|already moved"):
        e.perform("move_scout", {"squadron": "imp-sc-01", "to": "2314"}, by="imperial")
    with pytest.raises(ActionRejected, match="only scouts"):
        e.perform("move_scout", {"squadron": "imp-cr-01", "to": "2213"}, by="imperial")
    goto(e, "M_WELL_LED_1", 3)
    e.perform("move_fleet", {"fleet": "imp-18th", "to": "2213"}, by="imperial")
    assert e.state.formations["imp-18th"].location == "2213"
    assert e.state.units["imp-adm-02"].location == "2213"


def test_replacements() -> None:
    e = new_engine()
    clear_map(e)
    goto(e, "T_REPL", 6)
    e.state.ledgers["imperial"].update({"squadron_rp": 5, "troop_rp": 20})
    place(e, "imp-bb-10", "2314", reduced=True)
    e.perform("rebuild_squadron", {"squadron": "imp-bb-10"}, by="imperial")
    assert (
        not e.state.units["imp-bb-10"].status.get("reduced")
        and e.state.ledgers["imperial"]["squadron_rp"] == 4
    )
    place(e, "imp-bb-11", "1212", reduced=True)  # Quar: a naval base outside the Imperium
    with pytest.raises(ActionRejected, match="own state's borders"):
        e.perform("rebuild_squadron", {"squadron": "imp-bb-11"}, by="imperial")
    scout_only = next(
        h
        for h, w in e.state.records("worlds").items()
        if w["scout_base"] and not w["naval_base"] and w["region"] == "imperial"
    )
    place(e, "imp-bb-12", scout_only, reduced=True)
    with pytest.raises(ActionRejected, match="scout"):
        e.perform("rebuild_squadron", {"squadron": "imp-bb-12"}, by="imperial")
    place(e, "imp-ncol-01", "eliminated", eliminated=True)
    e.perform("replace_squadron", {"squadron": "imp-ncol-01"}, by="imperial")
    assert e.state.units["imp-ncol-01"].location == "box:imp_rimward"
    e.state.units["imp-t20-01"].attrs["troop_type"] = "tank"
    place(e, "imp-t20-01", "2314", loss=30)
    e.perform("rebuild_troop", {"troop": "imp-t20-01"}, by="imperial")
    assert e.state.ledgers["imperial"]["troop_rp"] == 20 - 12
    place(e, "imp-mar-01", "2314", loss=10)
    with pytest.raises(ActionRejected, match="elite"):
        e.perform("rebuild_troop", {"troop": "imp-mar-01"}, by="imperial")
    place(e, "sw-t10-01", "1627", loss=10)
    e.state.ledgers["zhodani"]["troop_rp"] = 10
    with pytest.raises(ActionRejected, match="Sword Worlds"):
        e.perform("rebuild_troop", {"troop": "sw-t10-01"}, by="zhodani")
    with pytest.raises(ActionRejected, match="costs"):
        e.state.ledgers["imperial"]["troop_rp"] = 1
        place(e, "imp-t20-02", "2314", loss=50)
        e.perform("rebuild_troop", {"troop": "imp-t20-02"}, by="imperial")


def test_replacement_points_arrive_on_schedule() -> None:
    e = new_engine()
    assert (e.state.ledgers["imperial"]["squadron_rp"], e.state.ledgers["imperial"]["troop_rp"]) == (0, 3)
    assert (e.state.ledgers["zhodani"]["squadron_rp"], e.state.ledgers["zhodani"]["troop_rp"]) == (30, 10)
    e.state.clock["turn"] = 10
    run(e, reinforcements.income)
    assert e.state.ledgers["imperial"]["squadron_rp"] == 2 and e.state.ledgers["zhodani"]["squadron_rp"] == 45


def test_zhodani_turn_ten_and_twenty_lists() -> None:
    from tests.rulesets.fifth_frontier_war.test_machine import set_up_to

    e = set_up_to("SETUP_INITIAL_PLOT")
    e.state.clock["turn"] = 10
    run(e, reinforcements.arrive, answers={"roll1": 3})
    box = [u for u in e.state.units.values() if u.location == "box:zho_reinf"]
    g = game(e)
    assert len([u for u in box if g.a(u, "sq_type") == "B"]) == 13
    assert len([u for u in box if g.a(u, "sq_type") == "C"]) == 7
    assert len([u for u in box if g.kind(u) == "admiral"]) == 4
    e.state.clock["turn"] = 20
    run(e, reinforcements.arrive, answers={"roll1": 3})
    extra = [u for u in e.state.units.values() if u.location == "box:zho_additional"]
    assert len([u for u in extra if g.a(u, "sq_type") == "B"]) == 10
    assert not reinforcements.pool(g, "zho_battle")
    markers = [m for m in e.state.records("fleet_markers").values() if m["navy"] == "zhodani"]
    assert all(m["status"] != "group" for m in markers)


def test_secret_base_reveal() -> None:
    e = new_engine()
    e.perform("advance", {})
    e.perform("choose_secret_base", {"world": "3017"}, by="zhodani")
    e.perform("reveal_secret_base", {}, by="zhodani")
    assert world(e, "3017")["controller"] == "zhodani"
    assert e.state.units["zho-fulacin"].location == "3017"
    with pytest.raises(ActionRejected):
        e.perform("reveal_secret_base", {}, by="zhodani")


def test_secret_base_with_imperial_troops_present() -> None:
    e = new_engine()
    e.perform("advance", {})
    e.perform("choose_secret_base", {"world": "3017"}, by="zhodani")
    place(e, "imp-t10-01", "3017")
    e.perform("reveal_secret_base", {}, by="zhodani")
    assert world(e, "3017")["controller"] == "imperial"


def test_guerrilla_step() -> None:
    e = new_engine()
    place(e, "ig-01", "2109", mode="covert", loss=30)
    place(e, "ig-02", "2109", mode="overt", loss=30)
    goto(e, "P_FLEET_ADJ", 3)
    e.advance()
    assert e.state.step == "P_GUERRILLA"
    assert (
        e.state.units["ig-01"].status.get("loss", 0) == 20
        and e.state.units["ig-02"].status.get("loss", 0) == 30
    )
    e.perform("guerrilla_mode", {"units": ["ig-01"], "mode": "overt"}, by="zhodani")
    assert e.state.units["ig-01"].status.get("mode") == "overt"


def test_plotting_step_requirements_and_actions() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1507", ["zho-bb-01", "zho-bb-02"])
    goto(e, "P_PLOTTING", 3)
    with pytest.raises(AdvanceRefused, match="40th Fleet: orders for turns 4, 5, 6, 7"):
        e.advance()
    with pytest.raises(ActionRejected, match="plots turns 4-7"):
        e.perform("plot", {"fleet": "zho-40th", "orders": "8:R1507"}, by="zhodani")
    far = next(h for h in sorted(e.state.records("worlds")) if game(e).dist("1507", h) == 5)
    with pytest.raises(ActionRejected, match="needs jump 5"):
        e.perform("plot", {"fleet": "zho-40th", "orders": f"J{far}"}, by="zhodani")
    with pytest.raises(ActionRejected, match="only the zhodani"):
        e.perform("plot", {"fleet": "zho-40th", "orders": "R"}, by="imperial")
    out = e.perform("plot", {"fleet": "zho-40th", "orders": "J1608, R, R, R"}, by="zhodani")
    assert out.entry.visibility == "zhodani"
    with pytest.raises(ActionRejected, match="already plotted"):
        e.perform("plot", {"fleet": "zho-40th", "orders": "4:R1507"}, by="zhodani")
    e.advance()
    assert e.state.step == "END_OF_TURN"
    goto(e, "P_PLOTTING", 3)
    e.state.formations["zho-40th"].status["mismatch"] = True
    with pytest.raises(AdvanceRefused, match="no longer matches"):
        e.advance()
    e.perform("insert_hold", {"fleet": "zho-40th"}, by="zhodani")
    plot = ops.plot(e.state, "zhodani", "zho-40th")
    assert P.order_text(plot[4]) == "R1507" and P.order_text(plot[5]) == "J1608"
    e.advance()


def test_plotted_detachment_happens_at_fleet_adjustment() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1507", ["zho-bb-01", "zho-bb-41"])
    plot = {3: {"order": "R", "hex": "1507", "detach": ["zho-bb-41"]}}
    run(e, lambda ctx: ops.save_plot(ctx, "zhodani", "zho-40th", plot))
    goto(e, "P_GUERRILLA", 3)
    run(e, lambda ctx: ctx.goto("P_FLEET_ADJ"))
    assert e.state.units["zho-bb-41"].formation is None


def test_failed_jump_is_a_plot_mismatch() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1507", ["zho-bb-01"])
    place(e, "zho-bb-01", "1507", needs_fuel=True)
    run(e, lambda ctx: ops.save_plot(ctx, "zhodani", "zho-40th", {3: P.parse_order("J1608")}))
    goto(e, "M_WELL_LED_2", 3)
    e.advance()
    assert e.state.formations["zho-40th"].location == "1507"
    assert e.state.formations["zho-40th"].status.get("mismatch")
    assert "plot mismatch" in e.state.records("orders")["003-zho-40th"]["result"]


def test_armistice_and_automatic_victory() -> None:
    e = new_engine()
    goto(e, "END_OF_TURN", 20)
    with pytest.raises(ActionRejected, match="turn 26"):
        e.perform("armistice", {"kind": "zhodani"}, by="zhodani")
    goto(e, "END_OF_TURN", 34)
    for h in ("2314", "2109", "3120", "1510", "2123", "1520"):
        world(e, h)["controller"] = "zhodani"
    e.perform("armistice", {"kind": "zhodani"}, by="zhodani")
    assert e.state.step == "GAME_OVER" and e.state.vars["outcome"]["armistice"] == "zhodani"
    e = new_engine()
    goto(e, "P_PLOTTING", 7)
    g = game(e)
    troops = [u.id for u in e.state.units.values() if u.side == "zhodani" and g.kind(u) == "troop"]
    worlds = sorted(
        (h for h, w in e.state.records("worlds").items() if w["controller"] == "imperial"),
        key=lambda h: -e.state.records("worlds")[h]["tech_level"],
    )
    for h, t in zip(worlds, troops):
        world(e, h).update({"controller": "zhodani", "defense_battalions": 0, "sdb": 0})
        place(e, t, h)
    e.advance()
    assert e.state.vars["auto_victory"]
    e.advance()
    assert e.state.step == "GAME_OVER"
    assert e.state.vars["outcome"]["winner"] == "zhodani"


def test_mutual_armistice_is_recorded_by_the_gm() -> None:
    e = new_engine()
    with pytest.raises(ActionRejected):
        e.perform("armistice", {"kind": "mutual"}, by="zhodani")
    e.perform("armistice", {"kind": "mutual"}, by="gm")
    assert e.state.vars["outcome"]["result"] == "stalemate"


def test_turn_limit_ends_the_war() -> None:
    e = new_engine(turn_limit=3)
    goto(e, "P_PLOTTING", 3)
    e.advance()
    e.advance()
    assert e.state.step == "GAME_OVER" and e.state.vars["outcome"]["reason"] == "the GM turn limit"


def test_gm_corrects_a_world() -> None:
    e = new_engine()
    out = e.perform(
        "gm.correct_world", {"world": "3218", "field": "tech_level", "value": "9", "reason": "physical map"}
    )
    assert world(e, "3218")["tech_level"] == 9 and out.entry.tags.get("override")
    with pytest.raises(ActionRejected):
        e.perform("gm.correct_world", {"world": "3218", "field": "starport", "value": "Q"})
    with pytest.raises(ActionRejected):
        e.perform("gm.correct_world", {"world": "3218", "field": "tech_level", "value": "9"}, by="imperial")


def test_surprise_attack_set_up_and_discovery_roll() -> None:
    from tests.rulesets.fifth_frontier_war.test_machine import set_up_to

    e = set_up_to("SETUP_ZHODANI_DEPLOY", surprise_attack=True)
    g = game(e)
    fast = [
        u.id
        for u in e.state.units.values()
        if u.side == "zhodani"
        and u.location == "setup"
        and g.kind(u) == "squadron"
        and g.navy(u) == "zhodani"
        and g.face(u).jump >= 3
        and g.face(u).refuel == "streamlined"
        and g.a(u, "category") == "regular"
    ][:2]
    slow = [
        u.id
        for u in e.state.units.values()
        if u.side == "zhodani"
        and u.location == "setup"
        and g.kind(u) == "squadron"
        and g.face(u).refuel == "unstreamlined"
        and g.navy(u) == "zhodani"
    ][:1]
    e.perform("deploy", {"units": fast + slow, "to": "1914"}, by="zhodani")
    e.perform("form_fleet", {"marker": "zho-1st-assault", "squadrons": fast + slow}, by="zhodani")
    e.perform("deploy_rest", {"side": "zhodani"}, by="zhodani")
    with pytest.raises(AdvanceRefused, match="only streamlined"):
        e.advance()
    e.perform("detach", {"squadrons": slow}, by="zhodani")
    e.state.units[slow[0]].location = "0708"
    out = e.advance(answers={"roll1": 2})
    assert out.entry.rolls[0].table == "T24"
    assert e.state.step == "SETUP_SURPRISE_ROLL" and e.state.vars["imperial_initial_plot"] is True
    e.advance()
    assert e.state.step == "SETUP_INITIAL_PLOT"
    with pytest.raises(AdvanceRefused, match="1st Assault Fleet: orders for turns 1, 2, 3, 4"):
        e.advance()


def test_hidden_secret_base_and_view_of_the_other_side() -> None:
    e = new_engine()
    e.perform("advance", {})
    e.perform("choose_secret_base", {"world": "3017"}, by="zhodani")
    assert "zhodani" not in e.view("imperial").secrets
    assert e.view("zhodani").secrets["zhodani"]["secret_base"] == "3017"
    entry = e.entries()[-1]
    assert not entry.visible_to("imperial") and entry.visible_to("zhodani")


def test_options_cover_the_gaps() -> None:
    opts = {o.id: o for o in plugin.options()}
    refs = " ".join(o.reference for o in opts.values())
    for gap in (
        "G-08",
        "G-09",
        "G-10",
        "G-11",
        "G-12",
        "G-13",
        "G-14",
        "G-15",
        "G-16",
        "G-18",
        "G-19",
        "G-20",
        "G-21",
        "G-23",
        "G-24",
        "G-25",
        "G-28",
        "G-30",
        "G-31",
        "G-32",
        "G-40",
        "G-47",
        "G-48",
        "G-49",
    ):
        assert gap in refs, gap
    for o in opts.values():
        assert o.help and o.label
    for name in ("surprise_attack", "black_globes", "jump_troops", "squadron_quality"):
        assert opts[name].setup_only and opts[name].default is False


def test_unit_catalog_provenance() -> None:
    catalog = plugin.catalog()
    unverified = [t for t in catalog.types.values() if not t.verified]
    assert unverified, "counter values are placeholders and must show as unverified"
    for t in catalog.types.values():
        assert t.provenance.grade in ("rulebook", "external", "default", "reconstructed")
        if t.provenance.grade != "rulebook":
            assert t.provenance.note
    assert catalog.type("imp_adm_02").value_provenance["plotting"].grade == "rulebook"


def test_independent_defenses_resist_only_under_the_option() -> None:
    from rulesets.fifth_frontier_war import combat

    for option in (False, True):
        e = new_engine(independent_defenses_resist=option)
        clear_map(e)
        place(e, "zho-bb-01", "2213")
        assert ("2213" in combat.contested(game(e))) is option
        if option:
            to_combat(e)
            assert e.state.step == "SD1" and e.state.vars["roles"]["sdb_side"] == "gm"
            e.perform("sdb_attack", {"attack": True}, by="zhodani")
            e.advance()
            with pytest.raises(ActionRejected, match="GM runs"):
                e.perform("sdb_mode", {"mode": "active"}, by="imperial")
            e.perform("sdb_mode", {"mode": "active"}, by="gm")


def test_quality_shift_in_a_space_round() -> None:
    from rulesets.fifth_frontier_war import combat

    e = new_engine(squadron_quality=True)
    clear_map(e)
    for s in ("imp-bb-10", "imp-bb-11"):
        place(e, s, "1409")
    for s in ("zho-bb-01", "zho-ncol-01", "zho-ncol-02"):
        place(e, s, "1409")
    e.state.vars["combat"] = {"hex": "1409"}
    info = combat.round_info(game(e), "1409")
    assert info["imperial"]["quality"] == "standard" and info["zhodani"]["quality"] == "low"
    assert info["imperial"]["shift"] == 2 and info["zhodani"]["shift"] == 0


def test_colonial_forces_turn_six_and_troops_turn_ten() -> None:
    e = new_engine()
    e.state.clock["turn"] = 6
    run(e, reinforcements.arrive)
    rim = [u for u in e.state.units.values() if u.location == "box:imp_rimward"]
    assert len(rim) == 28
    e.state.clock["turn"] = 10
    run(e, reinforcements.arrive, answers={"roll1": 2})
    box = [u for u in e.state.units.values() if u.location == "box:imp_reinf"]
    assert len([u for u in box if game(e).kind(u) == "troop"]) == 6 + 8 + 8


def test_turn_two_arrivals_are_put_in_a_box() -> None:
    e = new_engine()
    goto(e, "END_OF_TURN", 1)
    e.advance()
    assert e.state.step == "T_REINF" and e.state.clock["turn"] == 2
    waiting = sorted(u.id for u in e.state.units.values() if u.location == "arrived")
    with pytest.raises(AdvanceRefused, match="put in a box"):
        e.advance()
    e.perform("place_arrivals", {"units": waiting[:3], "box": "imp_rimward"}, by="imperial")
    e.perform("place_arrivals", {"units": waiting[3:], "box": "imp_reinf"}, by="imperial")
    e.advance()
    assert e.state.step == "T_REPL"


def test_xboat_route_length_option() -> None:
    from rulesets.fifth_frontier_war import movement

    e = new_engine(xboat_measure="route_length")
    g = game(e)
    routes = e.state.vars["xboat_routes"]
    assert movement.xboat_problem(g, routes, "imperial", "2307", "2409") is None  # 2307-2308-2409: 1 + 2
    from rulesets.fifth_frontier_war.procs_map_rules import route_map

    graph = route_map(dict(e.state.records("worlds")), routes, "imperial")
    on_routes = sorted(h for h in graph.nodes if graph.edges_of(h))
    pairs = [
        (a, b)
        for a in on_routes
        for b in on_routes
        if a < b and g.dist(a, b) <= 4 and (graph.distance(a, b) or 0) > 4
    ]
    assert pairs
    a, b = pairs[0]
    assert "route" in (movement.xboat_problem(g, routes, "imperial", a, b) or "")
    plain = new_engine()
    assert movement.xboat_problem(game(plain), routes, "imperial", a, b) is None
