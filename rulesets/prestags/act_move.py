"""Movement actions of the standard sequence [5.0]-[5.6], [11.4], [13.0], [16.1]."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from rulesets.prestags import act_chariot, carriers, exclusive, hexmap, movement
from rulesets.prestags import candidates as C
from rulesets.prestags.common import Info, ftext, info, side_data, stamp, units_of
from rulesets.prestags.turns import arriving

# rule modules: imported at the first call of one of their functions
results = later("rulesets.prestags.results")


def _movers(ctx: Ctx, ids: list[str], side: str, entering: bool) -> list[Info]:
    moved = set(ctx.var("moved", []))
    out = []
    for uid in dict.fromkeys(ids):
        u = ctx.state.unit(uid)
        i = info(ctx.state, ctx.ruleset, u)
        if u.side != side:
            raise ActionRejected(f"{u.label} is not a unit of the phasing player")
        if uid in moved:
            raise ActionRejected(f"{u.label} has already moved this phase [5.14], [5.24]")
        if entering:
            if uid not in arriving(ctx.state, side):
                raise ActionRejected(f"{u.label} is not waiting to enter the map now")
        elif not i.active or i.hex is None:
            raise ActionRejected(f"{u.label} is not on the map")
        if u.status.get("disrupted"):
            raise ActionRejected(f"{u.label} is disrupted and may not move [8.2]")
        if int(u.status.get("contact", 0) or 0):
            raise ActionRejected(f"{u.label} is in contact and may not leave its hex [18.2]")
        if u.status.get("panicked"):
            raise ActionRejected(f"{u.label} is panicked: it flees instead (flee) [13.0]")
        if u.type == carriers.FLEET and exclusive.in_game(ctx.state, "V"):
            raise ActionRejected(f"{u.label} is a fleet: it sails (sail) [V3.1]")
        ride = carriers.carrier_of(ctx.state, u)
        if ride is not None:
            raise ActionRejected(f"{u.label} is aboard {ride.label}: it moves with it until it gets down "
                                 "[C1.0], [V3.4]")
        out.append(i)
    if not out:
        raise ActionRejected("name the units to move")
    hexes = {i.hex for i in out}
    if len(hexes) > 1:
        raise ActionRejected("a stack moves from one hex; move the others separately [5.43]")
    return out


@action(
    "move",
    "Move a unit or stack",
    Param("units", "units", help="the units (one hex; a stack moves at its slowest MA)",
          candidates=C.movers),
    Param(
        "path",
        "list",
        help="hexes entered in order; HEX+road along a road; off[:EDGE] to exit; "
        "from:EDGE first to enter from the map edge",
    ),
    Param(
        "start_facing",
        "int",
        required=False,
        default=-1,
        min=-1,
        max=5,
        help="Facing rule: turn before moving (1 MP)",
    ),
    Param(
        "end_facing",
        "int",
        required=False,
        default=-1,
        min=-1,
        max=5,
        help="Facing rule: turn at the end (1 MP)",
    ),
    side="phasing",
    key="v",
    reference="5.0",
)
def move(ctx: Ctx, units: list[str], path: list[str], start_facing: int, end_facing: int) -> None:
    """Move through the hexes listed, paying each hex's entry cost; stop on entering a hex
    next to an undisrupted enemy fire unit [6.41]; never into an enemy hex [5.23]."""
    side = ctx.role("phasing")
    if exclusive.in_game(ctx.state, "C") and any(ctx.state.unit(x).type == carriers.CHARIOT for x in units):
        if len(units) > 1:
            raise ActionRejected("a chariot moves alone, with its riders (chariot_move) [C1.0], [C1.9]")
        act_chariot.run(ctx, units[0], path, [], [], "")
        return
    p = movement.parse_path(path)
    entering = bool(p.enter_edge)
    movers = _movers(ctx, units, side, entering)
    p.start = None if entering else movers[0].hex
    if not p.steps and p.exit_edge is None:
        raise ActionRejected("the path is empty")
    planned = movement.plan(ctx, movers, p, f"{movers[0].id}:{ctx.clock.get('pt', 0)}")
    spent = planned.spent
    facing = -1
    if ctx.options.get("facing") and not entering:
        extra, facing = movement.facing_walk(
            ctx,
            p.start,
            [int(ctx.state.unit(m.id).status.get("facing", -1)) for m in movers],
            planned.hexes,
            start_facing,
        )
        if end_facing >= 0 and end_facing != facing:
            extra += 1
            ctx.explain(f"turn to face hexside {end_facing} at the end: 1 MP [16.11]")
            facing = end_facing
        spent += extra
        if spent > planned.ma and not planned.one_hex:
            raise ActionRejected(
                f"with facing changes the move costs {ftext(spent)} MP of {ftext(planned.ma)}"
            )
    for line in planned.lines:
        ctx.explain(line)
    final = planned.hexes[-1] if planned.hexes else movers[0].hex
    conceded = side_data(ctx.state, side).get("conceded")
    for m in movers:
        u = ctx.unit(m.id)
        if entering:
            u.status["state"] = "active"
        if facing >= 0:
            u.status["facing"] = facing
        elif entering and ctx.options.get("facing") and end_facing >= 0:
            u.status["facing"] = end_facing
        if planned.exit_edge is not None:
            movement.place(ctx, m.id, final)
            results.exit_unit(ctx, m.id, "concession" if conceded else "victory", planned.exit_edge)
        else:
            movement.place(ctx, m.id, final)
    ctx.edit_var("moved", []).extend(m.id for m in movers)
    entered = ctx.edit_var("entered", [])
    entered.extend(h for h in planned.hexes if h not in entered)
    movement.mark_control(ctx, planned.hexes, passing=side)  # every hex moved through [11.3]
    names = ", ".join(m.label for m in movers)
    where = (
        f"off the map{' by ' + planned.exit_edge if planned.exit_edge else ''}"
        if planned.exit_edge is not None
        else f"to {final}"
    )
    ctx.summary(f"{names} move {where} ({ftext(spent)} of {ftext(planned.ma)} MP)")


@action(
    "flee",
    "Move a panicked unit away",
    Param("unit", "unit", help="the panicked unit", candidates=C.panicked),
    Param(
        "path",
        "list",
        required=False,
        default=[],
        help="hexes entered, each farther from every enemy unit; off[:EDGE] if it can leave; "
        "empty if no hex is farther",
    ),
    side="phasing",
    key="p",
    reference="13.0",
)
def flee(ctx: Ctx, unit: str, path: list[str]) -> None:
    """A panicked unit moves as far as it can from the enemy: every hex farther from every
    enemy unit, never next to an enemy fire unit, off the map if possible [13.0]. The GM
    confirms the flight. In the simultaneous game panicked units of both sides flee in the
    Movement Resolution Phase, before the plotted moves (their plots are void)."""
    u = ctx.state.unit(unit)
    side = u.side if ctx.options.get("simultaneous") else ctx.role("phasing")
    now = stamp(ctx.state)
    i = info(ctx.state, ctx.ruleset, u)
    if u.side != side or not u.status.get("panicked") or u.status.get("disrupted") or i.hex is None:
        raise ActionRejected(f"{u.label} is not a panicked, undisrupted unit of the phasing player")
    if unit in ctx.var("fled", []):
        raise ActionRejected(f"{u.label} has already fled this phase")
    p = movement.parse_path(path or [])
    p.start = i.hex
    enemies = sorted({str(x.location)[4:] for x in units_of(ctx.state) if x.side != side and x.location})
    if p.steps or p.exit_edge is not None:
        planned = movement.plan(ctx, [i], p, f"flee:{unit}:{now}", allow_zone_pass=True)
        if movement.zone_stop(ctx, i, planned.hexes, f"flee:{unit}:{now}:all"):
            raise ActionRejected("a panicked unit may not move next to an enemy fire unit [13.0]")
        if hexmap.geometry(ctx.state) is not None:
            prev = i.hex
            for h in planned.hexes:
                for e in enemies:
                    a, b = hexmap.known_distance(ctx.state, prev, e), hexmap.known_distance(ctx.state, h, e)
                    if a is not None and b is not None and b <= a:
                        raise ActionRejected(f"{h} is not farther than {prev} from the enemy in {e} [13.0]")
                prev = h
        for line in planned.lines:
            ctx.explain(line)
        route = " ".join(planned.hexes) + (" off the map" if planned.exit_edge is not None else "")
    else:
        planned = None
        route = "stays: no hex is farther from every enemy unit"
    if not ctx.ruling(
        f"flee-ok:{unit}:{now}",
        f"Is this the flight the panic rule demands for {u.label} from {i.hex}: {route}?",
        info=(
            "as far as its MA allows, each hex farther from every enemy unit, no "
            "prohibited terrain, no enemy hex, nothing next to an enemy fire unit, "
            "off the map if it can [13.0]",
            f"enemy units in: {', '.join(enemies)}",
        ),
    ):
        raise ActionRejected("the GM does not accept this flight; give another path")
    if planned is not None:
        final = planned.hexes[-1] if planned.hexes else i.hex
        movement.place(ctx, unit, final)
        if planned.exit_edge is not None:
            results.exit_unit(ctx, unit, "panic", planned.exit_edge)
        movement.mark_control(ctx, planned.hexes, passing=side)  # every hex moved through [11.3]
        entered = ctx.edit_var("entered", [])
        entered.extend(h for h in planned.hexes if h not in entered)
    ctx.edit_var("fled", []).append(unit)
    ctx.edit_var("moved", []).append(unit)
    ctx.summary(f"{u.label} flees: {route}")
