"""The phase machine's automatic chores: what happens on entering a step or on a transition
(draws, rolls, plotted movement, refuelling, the combat queue, recovery, victory)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.fifth_frontier_war import combat as K
from rulesets.fifth_frontier_war import control, fuel, movement, ops, reinforcements, setup_rules, victory
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war.formulas import fmt
from rulesets.fifth_frontier_war.formulas import guerrilla_recovery as recover
from rulesets.fifth_frontier_war.game import Game

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx


def imperial_setup(ctx: Ctx) -> None:
    setup_rules.imperial_draws(ctx)


def zhodani_setup(ctx: Ctx) -> None:
    setup_rules.zhodani_draws(ctx)


def surprise_roll(ctx: Ctx) -> None:
    """T24: on 1-4 the Imperium discovers the build-up and plots its opening turns too."""
    roll = ctx.roll(
        "1d6", "Surprise Attack: discovery of the build-up at 871-438", table="T24", side="imperial"
    )
    look = ctx.lookup("T24", roll=roll.natural)
    found = look.value == "discovered"
    ctx.result(roll, str(look.value), look.explanation)
    ctx.set_var("imperial_initial_plot", found)
    ctx.explain(
        "the build-up is discovered: the Imperial player plots turns 1-5 now"
        if found
        else "the build-up goes unnoticed"
    )


def begin_war(ctx: Ctx) -> None:
    ctx.set_var("war_started", True)
    ctx.explain("The Zhodani surprise attack begins: turn 1")


def turn_start(ctx: Ctx) -> None:
    """Start of a week: per-turn flags reset, then reinforcements arrive (1A)."""
    g = Game.of(ctx)
    for u in g.state.units.values():
        if u.status.get("stood_aside") or u.status.get("disengaged"):
            uu = ctx.unit(u.id)
            uu.status["stood_aside"] = False
            uu.status["disengaged"] = False
    for h, w in g.state.records("worlds").items():
        if w.get("sdb_mode"):
            ctx.record("worlds", h)["sdb_mode"] = ""
    for name in ("reserved_tankers", "tanker_choices", "combat_done", "order_tie"):
        if ctx.var(name) is not None:
            ctx.set_var(name, None)
    reinforcements.arrive(ctx)


def replacement_income(ctx: Ctx) -> None:
    reinforcements.income(ctx)


def order_roll(ctx: Ctx) -> None:
    """2A: both roll 1d6; the lower moves first in every free-movement step."""
    rule = ctx.options.get("order_roll_tie", "reroll")
    a = ctx.roll("1d6", "movement order: Imperial", side="imperial").natural
    z = ctx.roll("1d6", "movement order: Zhodani", side="zhodani").natural
    tie = a == z
    if tie and rule == "reroll":
        ctx.set_var("order_tie", True)
        ctx.explain(f"both rolled {a}: roll again (G-08)")
        return
    ctx.set_var("order_tie", None)
    if tie:
        first = "imperial" if rule == "imperial_first" else "zhodani"
    else:
        first = "imperial" if a < z else "zhodani"
    roles = dict(ctx.var("roles", {}))
    roles["first"], roles["second"] = first, "zhodani" if first == "imperial" else "imperial"
    ctx.set_var("roles", roles)
    ctx.set_var("first_mover", first)
    ctx.explain(f"Imperial {a}, Zhodani {z}: the {first} player moves first this turn")


def plotted_movement(ctx: Ctx) -> None:
    for line in movement.execute_plots(ctx):
        ctx.explain(line)
    for place in sorted({f.location for f in Game.of(ctx).fleets() if f.location}):
        control.open_red_zone(ctx, place)


def refuel_resolution(ctx: Ctx) -> None:
    """End of the movement phase: refuelling, then control and garrisons (G-18)."""
    for line in fuel.resolve(ctx):
        ctx.explain(line)
    if ctx.options.get("control_checks", "hex_movement_turn") == "hex_movement_turn":
        control.check_all(ctx)


def combat_start(ctx: Ctx) -> None:
    queue = K.contested(Game.of(ctx))
    ctx.set_var("combat_queue", queue)
    ctx.set_var("combat_done", [])
    ctx.explain("contested hexes: " + (", ".join(queue) if queue else "none"))


def start_next_hex(ctx: Ctx) -> None:
    K.start_hex(ctx, sorted(ctx.var("combat_queue", []))[0])


def start_chosen_hex(ctx: Ctx) -> None:
    queue = ctx.var("combat_queue", [])
    chosen = ctx.var("combat_next")
    ctx.set_var("combat_next", None)
    K.start_hex(ctx, chosen if chosen in queue else queue[0])


def next_sd_round(ctx: Ctx) -> None:
    c = ctx.edit_var("combat", {})
    c["sd"]["x_go"] = None
    c["sd"]["y_go"] = None


def fleet_adjustment(ctx: Ctx) -> None:
    """4A, first: squadrons plotted to detach this turn leave their fleets."""
    g = Game.of(ctx)
    turn = g.turn
    for f in g.fleets():
        order = ops.plot(ctx.state, f.side, f.id).get(turn)
        for sid in (order or {}).get("detach", []):
            u = ctx.state.units.get(sid)
            if u is not None and u.formation == f.id:
                ctx.unit(sid).formation = None
                ctx.explain(f"{u.label} detached from {f.name} as plotted")
    ops.disband_empty(ctx)


def leave_fleet_adjustment(ctx: Ctx) -> None:
    ops.disband_empty(ctx)


def guerrilla_recovery(ctx: Ctx) -> None:
    """4B: each guerrilla covert at the start of the step recovers 10 points of losses."""
    g = Game.of(ctx)
    for u in g.units("guerrilla"):
        loss = int(u.status.get("loss", 0))
        new = recover(loss, u.status.get("mode") == "covert")
        if new != loss:
            ctx.unit(u.id).status["loss"] = new
            ctx.explain(f"{u.label} (covert) recovers: losses {loss}% -> {new}%")


def plotting_start(ctx: Ctx) -> None:
    """4C: fleets under a plotting factor of 0 keep no plot; excess orders may be erased."""
    g = Game.of(ctx)
    turn = g.turn
    for f in g.fleets():
        pf = g.fleet_pf(f.id)
        plot = ops.plot(ctx.state, f.side, f.id)
        if pf == 0 and plot:
            ops.save_plot(ctx, f.side, f.id, None)
            continue
        excess = P.excess_turns(plot, turn, pf)
        if excess and ctx.options.get("erase_excess_plots"):
            ops.save_plot(ctx, f.side, f.id, {u: o for u, o in plot.items() if u not in excess})


def end_of_turn(ctx: Ctx) -> None:
    """Control and garrisons, victory points and the automatic-victory alarm."""
    control.check_all(ctx, gain=ctx.options.get("control_checks", "hex_movement_turn") == "end_of_turn")
    g = Game.of(ctx)
    d, z, i = victory.difference(g.state.records("worlds"))
    used, level = victory.level(ctx.tables, d, str(ctx.options.get("half_points", "truncate")))
    ctx.set_var(
        "vp", {"zhodani": fmt(z.total), "imperial": fmt(i.total), "difference": fmt(d), "level": level}
    )
    ctx.set_var("vp_text", f"Zhodani {fmt(z.total)}, Imperial {fmt(i.total)}, difference {fmt(d)} ({level})")
    ctx.explain(f"victory points: Zhodani {fmt(z.total)}, Imperial {fmt(i.total)}; D = {fmt(d)} -> {level}")
    if "automatic" in level:
        winner = "zhodani" if used > 0 else "imperial"
        ctx.set_var("auto_victory", True)
        ctx.set_var(
            "outcome",
            {
                "result": level.replace("automatic", "decisive") + " (automatic victory)",
                "winner": winner,
                "vp_difference": fmt(d),
                "turn": g.turn,
            },
        )
        ctx.explain(
            f"AUTOMATIC VICTORY: {level}; the game ends with a decisive victory for the {winner} player"
        )
    limit = int(ctx.options.get("turn_limit", 0) or 0)
    if limit and g.turn >= limit and not ctx.var("auto_victory"):
        ctx.set_var("turn_limit_reached", True)
        ctx.explain(f"the GM turn limit ({limit}) is reached")


def next_turn(ctx: Ctx) -> None:
    ctx.tick("turn")


def game_over(ctx: Ctx) -> None:
    if ctx.var("outcome"):
        return
    g = Game.of(ctx)
    d, _, _ = victory.difference(g.state.records("worlds"))
    _used, level = victory.level(ctx.tables, d, str(ctx.options.get("half_points", "truncate")))
    winner = "zhodani" if "Zhodani" in level else "imperial" if "Imperial" in level else ""
    outcome = {"result": level, "vp_difference": fmt(d), "turn": g.turn, "reason": "the GM turn limit"}
    if winner:
        outcome["winner"] = winner
    ctx.set_var("outcome", outcome)
