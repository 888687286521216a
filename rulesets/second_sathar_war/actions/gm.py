"""GM corrections: the provisional Frontier Deployment Map, threats, stations, stack positions.

The map shipped with the rule set is a provisional default (digest 6.2, G-01), so the GM
can correct every box count, jump box, route and start circle against the physical FDM.
Each change is a logged, undoable action and marks the value as a house edit.
"""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, InvalidInput

from .. import locations as L
from ..fdm import Fdm
from ..ledger import destroy_station
from ..ships import alive
from .common import fdm


def _reason(ctx: Ctx, reason: str) -> str:
    ctx.tags["override"] = True
    if reason:
        ctx.explain(f"reason: {reason}")
    return f" ({reason})" if reason else ""


def _stacks_on_route(ctx: Ctx, rid: str) -> list[str]:
    return [
        f.id
        for f in ctx.state.formations.values()
        if L.parse(f.location).kind == "transit" and L.parse(f.location).route == rid
    ]


def _check_jumps(boxes: int, ja: int, jb: int) -> None:
    if boxes < 1:
        raise InvalidInput("a route has at least one transit box")
    for j in (ja, jb):
        if not 1 <= j <= boxes:
            raise InvalidInput(f"a jump box must be between 1 and {boxes}")


@action(
    "gm.fdm_route",
    "Correct a route of the map",
    Param("route"),
    Param("boxes", "int", min=1, help="light-blue transit boxes between the two systems"),
    Param("jump_from_a", "int", min=1, help="jump box counted from the route's first system"),
    Param("jump_from_b", "int", min=1, help="jump box counted from the route's second system"),
    Param("reason", required=False, default=""),
    reference="G-01, 6.2",
)
def fdm_route(ctx: Ctx, route: str, boxes: int, jump_from_a: int, jump_from_b: int, reason: str) -> None:
    """Set a route's box count and jump boxes from the physical map."""
    m = fdm(ctx)
    r = m.route(route)
    _check_jumps(boxes, jump_from_a, jump_from_b)
    rec = ctx.record("routes", route)
    old = f"{rec['boxes']} boxes, jump {rec['jump_from_a']}/{rec['jump_from_b']}"
    rec.update(
        boxes=boxes,
        jump_from_a=jump_from_a,
        jump_from_b=jump_from_b,
        provenance="house",
        note="set by the GM from the map",
    )
    for fid in _stacks_on_route(ctx, route):
        loc = L.parse(ctx.state.formation(fid).location)
        if loc.box > boxes:
            ctx.formation(fid).location = L.fmt(loc.moved(box=boxes))
            ctx.explain(f"{ctx.state.formation(fid).name} moved to box {boxes} (the route is shorter now)")
    ctx.summary(
        f"GM: route {m.name(r.a)} - {m.name(r.b)}: {old} -> {boxes} boxes, jump "
        f"{jump_from_a}/{jump_from_b}{_reason(ctx, reason)}"
    )


@action(
    "gm.fdm_add_route",
    "Add a route to the map",
    Param("a", help="first system"),
    Param("b", help="second system"),
    Param("boxes", "int", min=1),
    Param("jump_from_a", "int", min=1),
    Param("jump_from_b", "int", min=1),
    Param("reason", required=False, default=""),
    reference="G-01",
)
def fdm_add_route(
    ctx: Ctx, a: str, b: str, boxes: int, jump_from_a: int, jump_from_b: int, reason: str
) -> None:
    """Add a route the provisional map lacks."""
    m = fdm(ctx)
    sa, sb = m.find_system(a), m.find_system(b)
    if sa == sb or m.route_between(sa, sb):
        raise ActionRejected(
            f"there already is a route {m.name(sa)} - {m.name(sb)} (or the ends are the same)"
        )
    _check_jumps(boxes, jump_from_a, jump_from_b)
    rid = f"{sa}-{sb}"
    ctx.put_record(
        "routes",
        rid,
        {
            "a": sa,
            "b": sb,
            "boxes": boxes,
            "jump_from_a": jump_from_a,
            "jump_from_b": jump_from_b,
            "provenance": "house",
            "note": "added by the GM",
        },
    )
    ctx.summary(f"GM: new route {m.name(sa)} - {m.name(sb)} ({boxes} boxes){_reason(ctx, reason)}")


@action(
    "gm.fdm_remove_route",
    "Remove a route from the map",
    Param("route"),
    Param("reason", required=False, default=""),
    reference="G-01",
)
def fdm_remove_route(ctx: Ctx, route: str, reason: str) -> None:
    """Delete a route that is not on the physical map (no stack may be on it)."""
    fdm(ctx).route(route)
    if _stacks_on_route(ctx, route):
        raise ActionRejected("stacks are travelling on this route; move them first (gm.move_stack)")
    ctx.delete_record("routes", route)
    ctx.summary(f"GM: route {route} removed{_reason(ctx, reason)}")


@action(
    "gm.fdm_circle",
    "Correct a start circle",
    Param("circle"),
    Param("red_boxes", "int", min=0),
    Param("reason", required=False, default=""),
    reference="G-01",
)
def fdm_circle(ctx: Ctx, circle: str, red_boxes: int, reason: str) -> None:
    """Set how many red boxes lead from a Sathar start circle to its system."""
    fdm(ctx).circle(circle)
    rec = ctx.record("circles", circle)
    old = rec["red_boxes"]
    rec.update(red_boxes=red_boxes, provenance="house", note="set by the GM from the map")
    for f in list(ctx.state.formations.values()):
        loc = L.parse(f.location)
        if loc.kind == "red" and loc.circle == circle and loc.box > red_boxes:
            ctx.formation(f.id).location = (
                L.fmt(loc.moved(box=max(red_boxes, 1))) if red_boxes else f"circle:{circle}"
            )
            ctx.explain(f"{f.name} moved back onto the shorter red route")
    ctx.summary(f"GM: {rec.get('name', circle)} red boxes {old} -> {red_boxes}{_reason(ctx, reason)}")


@action(
    "gm.fdm_add_circle",
    "Add a start circle",
    Param("id"),
    Param("target", help="the system it leads to"),
    Param("red_boxes", "int", min=0),
    Param("name", required=False, default=""),
    Param("reason", required=False, default=""),
    reference="G-01",
)
def fdm_add_circle(ctx: Ctx, id: str, target: str, red_boxes: int, name: str, reason: str) -> None:
    """Add a Sathar start circle and its red route."""
    m = fdm(ctx)
    if id in m.circles:
        raise ActionRejected(f"there already is a start circle {id}")
    sid = m.find_system(target)
    ctx.put_record(
        "circles",
        id,
        {
            "name": name or f"Start Circle ({m.name(sid)})",
            "target": sid,
            "red_boxes": red_boxes,
            "provenance": "house",
            "note": "added by the GM",
        },
    )
    ctx.summary(f"GM: new start circle {id} -> {m.name(sid)} ({red_boxes} red boxes){_reason(ctx, reason)}")


@action(
    "gm.fdm_remove_circle",
    "Remove a start circle",
    Param("circle"),
    Param("reason", required=False, default=""),
    reference="G-01",
)
def fdm_remove_circle(ctx: Ctx, circle: str, reason: str) -> None:
    """Delete a start circle the physical map does not have (no stack may be in it)."""
    fdm(ctx).circle(circle)
    busy = [f for f in ctx.state.formations.values() if L.parse(f.location).circle == circle]
    if busy:
        raise ActionRejected("stacks are in this circle or on its red route")
    ctx.delete_record("circles", circle)
    ctx.summary(f"GM: start circle {circle} removed{_reason(ctx, reason)}")


@action(
    "gm.threat",
    "Rule on an imminent threat",
    Param("system"),
    Param("value", "choice", choices=("on", "off", "auto")),
    reference="G-16, 5.5",
)
def threat(ctx: Ctx, system: str, value: str) -> None:
    """Declare a system imminently threatened (or not) whatever the program computes, or give
    the decision back to the program (auto). It governs militia movement."""
    sid = fdm(ctx).find_system(system)
    book = ctx.edit_var("threat_overrides", {})
    if value == "auto":
        book.pop(sid, None)
    else:
        book[sid] = value == "on"
    ctx.summary(f"GM: {fdm(ctx).name(sid)} threat {value}")


@action(
    "gm.station",
    "Correct a station's state",
    Param("station", "unit"),
    Param("destroyed", "bool"),
    Param("by", required=False, default="", help="the fleet that destroyed it"),
    Param("reason", required=False, default=""),
    reference="G-34",
)
def station(ctx: Ctx, station: str, destroyed: bool, by: str, reason: str) -> None:
    """Mark a station destroyed or intact (for example to confirm or undo the seed's uncertain
    Zikit station); the kill record follows."""
    u = ctx.state.unit(station)
    if u.type not in ("FORTRESS", "FORTIFIED", "ARMED"):
        raise ActionRejected(f"{u.label} is not a station")
    if destroyed and alive(u):
        destroy_station(ctx, fdm(ctx), station, by or "unknown", "", "GM correction")
    elif not destroyed and not alive(u):
        ctx.unit(station).status["destroyed"] = False
        ctx.delete_record("station_kills", station)
    elif destroyed and by:
        ctx.record("station_kills", station)["by"] = by
    ctx.summary(f"GM: {u.label} {'destroyed' if destroyed else 'intact'}{_reason(ctx, reason)}")


@action(
    "gm.move_stack",
    "Put a stack anywhere on the map",
    Param("stack", "formation"),
    Param(
        "location", help="planet:<id>, transit:<route>:<box>:<heading>, circle:<id>, red:<circle>:<i>:in|out"
    ),
    Param("reason", required=False, default=""),
    reference="G-01",
)
def move_stack_gm(ctx: Ctx, stack: str, location: str, reason: str) -> None:
    """Set a stack's position by hand (a correction; logged as an override)."""
    loc = L.parse(location)
    _valid(fdm(ctx), loc)
    f = ctx.formation(stack)
    old = f.location
    f.location = L.fmt(loc)
    ctx.summary(f"GM: {f.name} {old} -> {f.location}{_reason(ctx, reason)}")


def _valid(m: Fdm, loc: L.Loc) -> None:
    if loc.kind == "planet":
        m.planet(loc.planet)
    elif loc.kind == "transit":
        r = m.route(loc.route)
        if not 1 <= loc.box <= r.boxes or loc.heading not in (r.a, r.b):
            raise InvalidInput(f"route {r.id} has boxes 1-{r.boxes} and leads to {r.a} or {r.b}")
    elif loc.kind in ("circle", "red"):
        c = m.circle(loc.circle)
        if loc.kind == "red" and not 1 <= loc.box <= c.red_boxes:
            raise InvalidInput(f"{c.name} has red boxes 1-{c.red_boxes}")


ACTIONS = (
    fdm_route,
    fdm_add_route,
    fdm_remove_route,
    fdm_circle,
    fdm_add_circle,
    fdm_remove_circle,
    threat,
    station,
    move_stack_gm,
)
