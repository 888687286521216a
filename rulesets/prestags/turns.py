"""The GM's chores between phases, done automatically as the phase machine advances.

Order (digest section 9): the Player-Turn starts (who is phasing, the Player-Turn index);
each combat phase starts with no unit used; the Movement Phase starts with the arrivals
from the map edge and the Movement Allowance snapshot [10.23]; the Movement Phase ends with
the rally [13.22]; the Mutual Disruption Recovery Phase clears disruption except this
Player-Turn's [8.23] and checks a concession [15.2]; the Turn Record advances the
Game-Turn [4.2].
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import State
from rulesets.prestags import movement, panic
from rulesets.prestags.common import other, side_data, stamp, units_of

PER_PT = (
    "moved", "entered", "used", "fired_hexes", "df_hexes", "meleed_hexes", "rbc_received", "fled",
    "chariot_moved", "chariot_mp", "chariot_stopped", "fleet_mp",
)


def start_pt(which: str) -> Any:
    """Transition effect: the first or second Player-Turn of the Game-Turn begins [4.2]."""

    def effect(ctx: Ctx) -> None:
        roles = dict(ctx.var("roles"))
        roles["phasing"] = roles[which]
        roles["non_phasing"] = other(roles[which])
        ctx.set_var("roles", roles)
        gt = int(ctx.clock.get("gt", 1))
        ctx.set_clock("pt", 2 * gt - 1 if which == "first" else 2 * gt)
        for name in PER_PT:
            ctx.set_var(name, None)
        ctx.set_var("ma", None)

    return effect


def next_game_turn(ctx: Ctx) -> None:
    """Turn Record [4.2 (3)]: one more Game-Turn."""
    ctx.tick("gt")
    if not ctx.options.get("simultaneous"):
        start_pt("first")(ctx)


def last_turn(state: State) -> bool:
    return int(state.clock.get("gt", 1)) >= int(state.vars.get("game_length", 1))


def reset_phase(ctx: Ctx) -> None:
    """A new combat phase: every unit may take part in one attack again [6.15], [7.14]."""
    ctx.set_var("used", None)


def start_fire(ctx: Ctx) -> None:
    reset_phase(ctx)
    ctx.set_var("fired_hexes", None)


def start_chariot_phase(ctx: Ctx) -> None:
    """Chariot [1.2]: the Chariot Phase comes before the Fire Combat Phase; the hexes its
    chariots enter are open to the enemy's defensive fire before the Fire Combat Phase."""
    for name in ("chariot_moved", "entered", "used", "df_hexes"):
        ctx.set_var(name, None)


def start_movement(ctx: Ctx) -> None:
    """Arrivals from the map edge, and the Movement Allowance snapshot [10.23]."""
    side = ctx.role("phasing")
    for name in ("moved", "entered", "fled", "df_hexes"):
        ctx.set_var(name, None)
    arrivals = arriving(ctx.state, side)
    if arrivals:
        edges = side_data(ctx.state, side).get("enter", "")
        ctx.explain(
            f"{len(arrivals)} units of {ctx.state.sides[side].name} may enter this "
            f"Movement Phase by the {edges} edge (path from:EDGE ...)"
        )
    ctx.set_var("ma", movement.snapshot(ctx, side))


def arriving(state: State, side: str) -> list[str]:
    """Units waiting off the map that may come on now."""
    data = side_data(state, side)
    if not data.get("enter"):
        return []
    gt = int(state.clock.get("gt", 1))
    when = int(data.get("enter_gt", 0) or 0)
    if when and gt < when:
        return []
    return [u.id for u in units_of(state, side, ("reserve",))]


def panicked_to_flee(state: State) -> list[str]:
    """Panicked, undisrupted units still to flee: the phasing side's in the standard game,
    both sides' in the simultaneous game's Movement Resolution Phase [13.0]."""
    side = None if state.options.get("simultaneous") else state.vars.get("roles", {}).get("phasing")
    done = set(state.vars.get("fled", []))
    return [
        u.id
        for u in units_of(state, side)
        if u.status.get("panicked") and not u.status.get("disrupted") and u.location and u.id not in done
    ]


def end_movement(ctx: Ctx) -> None:
    from rulesets.prestags.act_fleet import sink_stuck_fleets

    sink_stuck_fleets(ctx)  # Viking [3.28]
    if ctx.options.get("panic") and ctx.options.get("rally_before_df", True):
        panic.rally(ctx, ctx.role("phasing"))


def after_defensive_fire(ctx: Ctx) -> None:
    if ctx.options.get("panic") and not ctx.options.get("rally_before_df", True):
        panic.rally(ctx, ctx.role("phasing"))


def recovery(ctx: Ctx) -> None:
    """Mutual Disruption Recovery [8.23]: both sides' disruption markers come off, except
    from units disrupted during this Player-Turn (this Game-Turn in the simultaneous game,
    G-15)."""
    now = stamp(ctx.state)
    back = []
    for u in sorted(ctx.state.units.values(), key=lambda x: x.id):
        if (
            u.status.get("state") == "active"
            and u.status.get("disrupted")
            and int(u.status.get("disrupted_at", 0)) != now
        ):
            ctx.unit(u.id).status["disrupted"] = False
            back.append(u.label)
    ctx.explain("disruption removed [8.23]: " + (", ".join(back) if back else "none"))
    for name in PER_PT:
        ctx.set_var(name, None)
    concession_check(ctx)


def concession_check(ctx: Ctx) -> None:
    """A concession is complete when every unit of the conceding side is exited or
    destroyed [15.2] (the GM declares the rest immobile with concession_done)."""
    con = ctx.var("concession")
    if not con or con.get("complete"):
        return
    side = con["side"]
    if not units_of(ctx.state, side, ("active", "reserve")):
        done = dict(con)
        done["complete"] = True
        ctx.set_var("concession", done)
        ctx.explain(f"the concession of {ctx.state.sides[side].name} is complete [15.2]")


def concession_complete(state: State) -> bool:
    con = state.vars.get("concession")
    return bool(con and con.get("complete")) or bool(state.vars.get("stop_agreed"))
