"""Strategic movement on the FDM (digest 5.3-5.5, the per-stack machine of 2.5).

One move per stack per day. A stack in a system may stay or leave along a route at 1, 2
or 3 boxes a day (2 and 3 are risk jumps: every ship needs the ADF, an undamaged hull, and
the stack moves at its slowest ship's rate). A risk-jumping stack keeps its rate until it
enters its jump box, stops there and rolls for a misjump (T9), then decelerates at its
jump rate or slower. A stack in transit at one box a day may advance, coast or turn back.
Sathar stacks leave their start circle into red box 1 and cross the red boxes one a day.
Every move is validated completely before anything changes, so a refused move in
``move_all`` leaves the other stacks' moves intact.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import Formation, State
from campaign_tui.core.records import record

from . import locations as L
from .dice_util import percent, roll
from .fdm import Fdm, Route
from .forces import cleanup, mark_moved, moved_today, new_stack, set_move
from .ledger import record_loss, retreating
from .rules import militia_may_enter, misjump_row, parse_groups, stack_rate
from .ships import (
    alive,
    cur_adf,
    home_system,
    hull_damaged,
    is_fighter,
    is_militia,
    ship_rate,
    ships_in,
    stacks,
    system_of,
)

ORDER_KINDS = ("go", "hold", "coast", "reverse", "void", "withdraw")


# -- threats and militia ------------------------------------------------------------------------
def threatened_systems(state: State, fdm: Fdm) -> set[str]:
    """Systems under imminent threat (PROPOSED 5.5): Sathar in the starburst, in a start
    circle or red box leading there, or past the jump box of a route heading there."""
    out: set[str] = set()
    for f in stacks(state, "SATHAR"):
        loc = L.parse(f.location)
        if loc.kind in ("circle", "red") and loc.circle in fdm.circles:
            out.add(fdm.circles[loc.circle].target)
        elif loc.kind == "planet":
            sid = system_of(fdm, loc)
            if sid:
                out.add(sid)
        elif loc.kind == "transit" and loc.route in fdm.routes:
            r = fdm.routes[loc.route]
            origin = r.other(loc.heading)
            if r.from_origin(loc.box, origin) >= r.jump_index(origin):
                out.add(loc.heading)
    for sid, value in state.vars.get("threat_overrides", {}).items():
        if value:
            out.add(sid)
        else:
            out.discard(sid)
    return out


def must_go_home(state: State, fdm: Fdm, threat: set[str]) -> list[str]:
    """Militia ships in another system while their home is threatened: they must go back
    (not deputized; ships still in transit finish their trip first)."""
    out = []
    for u in state.units.values():
        if not alive(u) or not is_militia(u) or u.status.get("deputized") or not u.formation:
            continue
        home = home_system(fdm, u)
        f = state.formations.get(u.formation)
        if home is None or f is None or home not in threat:
            continue
        loc = L.parse(f.location)
        if loc.kind == "planet" and system_of(fdm, loc) != home:
            out.append(u.id)
    return out


def militia_problem(state: State, fdm: Fdm, fid: str, systems_entered: list[str]) -> str | None:
    threat = threatened_systems(state, fdm)
    for u in ships_in(state, fid):
        if not is_militia(u):
            continue
        home = home_system(fdm, u)
        if home is None:
            continue
        for sid in systems_entered:
            why = militia_may_enter(
                home, sid, bool(u.status.get("deputized")), fdm.adjacent(home, sid), home in threat
            )
            if why and sid != home:
                return f"{u.label}: {why}"
    return None


# -- rates ---------------------------------------------------------------------------------------
def allowed(state: State, fid: str, loc: L.Loc | None = None) -> tuple[int, list[str]]:
    """The stack's highest rate and the ships that limit it."""
    loc = loc or L.parse(state.formation(fid).location)
    rates = {}
    for u in ships_in(state, fid):
        if not is_fighter(u):
            rates[u.id] = ship_rate(state, u, loc)
    rate = stack_rate(rates.values())
    notes = []
    for u in ships_in(state, fid):
        if u.id in rates and rates[u.id] == rate and rate < 3:
            why = (
                "hull damage"
                if hull_damaged(u)
                else (
                    "still in a start circle or red box"
                    if loc.kind in ("circle", "red") and u.side == "SATHAR"
                    else f"ADF {cur_adf(state, u)}"
                )
            )
            notes.append(f"{u.label} ({why})")
    return rate, notes


def transit_state(fdm: Fdm, loc: L.Loc) -> tuple[Route, str, int, bool]:
    """(route, origin, position from the origin, jumped) of a stack in a transit box."""
    route = fdm.route(loc.route)
    origin = route.other(loc.heading)
    pos = route.from_origin(loc.box, origin)
    return route, origin, pos, pos >= route.jump_index(origin)


def pre_jump_rj(state: State, fdm: Fdm, f: Formation) -> bool:
    loc = L.parse(f.location)
    if loc.kind != "transit" or loc.route not in fdm.routes:
        return False
    _, _, _, jumped = transit_state(fdm, loc)
    return int(f.status.get("rate", 1)) >= 2 and not jumped


def decel_limit(state: State, fdm: Fdm, f: Formation) -> int:
    """Highest rate a stack past its jump box may decelerate at today."""
    if str(state.options.get("post_jump_decel", "seed")) == "normal":
        return allowed(state, f.id)[0]
    return max(1, min(int(f.status.get("jump_rate", 1) or 1), allowed(state, f.id)[0]))


# -- a planned move (validated, then applied) ---------------------------------------------------
@record
class Plan:
    fid: str
    text: str
    kind: str = "path"  # path, coast, void, withdraw, hold
    route: Route | None = None
    origin: str = ""
    heading: str = ""
    start: int = 0  # position from the origin before the move
    rate: int = 1
    declare: int | None = None  # new declared rate
    red: tuple[str, int, bool] | None = None  # circle, new index, inward
    arrive: str = ""  # planet id when the move ends in a starburst
    groups: str = "all"
    order: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def nearest_circle(fdm: Fdm, sid: str) -> tuple[str, int] | None:
    """The start circle reachable in the fewest days from system *sid* (Sathar withdrawal)."""
    dist, _ = fdm.graph.distances(sid)
    best = None
    for c in fdm.circles.values():
        if c.target in dist:
            days = dist[c.target] + c.red_boxes + 1
            if best is None or (days, c.id) < best[::-1]:
                best = (c.id, days)
    return best


def plan_move(
    state: State, fdm: Fdm, fid: str, kind: str, dest: str = "", rate: int = 1, groups: str = "all"
) -> Plan:
    """Check one stack's move for today and say what it will do (nothing changes)."""
    f = state.formation(fid)
    day = int(state.clock.get("day", 0))
    if kind not in ORDER_KINDS:
        raise ActionRejected(f"unknown move {kind!r}; moves: {', '.join(ORDER_KINDS)}")
    if not ships_in(state, fid):
        raise ActionRejected(f"{f.name} holds no ship")
    if moved_today(f.status, day):
        raise ActionRejected(f"{f.name} has already moved today")
    if int(f.status.get("no_move", -1)) == day:
        raise ActionRejected(f"{f.name} came back from a misjump today and may not move")
    loc = L.parse(f.location)
    if retreating(state) and f.side == "SATHAR" and kind not in ("void", "withdraw"):
        kind = "withdraw"
    if kind == "withdraw" and not retreating(state):
        raise ActionRejected("the Sathar withdraw into the Void only after their retreat condition is met")
    if kind in ("void", "withdraw") and f.side != "SATHAR":
        raise ActionRejected("only Sathar ships enter the Void")
    if loc.kind == "planet":
        return _plan_from_system(state, fdm, f, loc, kind, dest, rate, groups)
    if loc.kind == "transit":
        return _plan_in_transit(state, fdm, f, loc, kind, dest, rate, groups)
    if loc.kind == "circle":
        return _plan_in_circle(fdm, f, loc, kind)
    if loc.kind == "red":
        return _plan_in_red(fdm, f, loc, kind)
    raise ActionRejected(f"{f.name} is not on the map ({loc.kind})")


def _check_leave(state: State, fdm: Fdm, f: Formation, rate: int, entered: list[str]) -> None:
    loose = fighters_loose_state(state, f.id)
    if loose:
        raise ActionRejected(
            f"fighters can leave a system only aboard an assault carrier: "
            f"{', '.join(u.label for u in loose)} (base them aboard, or detach them)"
        )
    top, limits = allowed(state, f.id)
    if rate > top:
        raise ActionRejected(
            f"{f.name} can move at most {top} box(es) a day: {'; '.join(limits) or 'its ships'}"
        )
    why = militia_problem(state, fdm, f.id, entered)
    if why:
        raise ActionRejected(why)


def fighters_loose_state(state: State, fid: str) -> list[Any]:
    out = []
    for u in ships_in(state, fid):
        if not is_fighter(u):
            continue
        host = state.units.get(str(u.status.get("aboard", "")))
        if host is None or host.formation != fid or not alive(host) or host.type != "AC":
            out.append(u)
    return out


def _path_end(
    fdm: Fdm, route: Route, origin: str, start: int, rate: int, jumped: bool, declared: int
) -> tuple[int, bool, bool]:
    """Walk *rate* steps: (end position, jump roll needed, arrived)."""
    jump = route.jump_index(origin)
    arrive = fdm.arrival_position(route)
    pos = start
    for _ in range(rate):
        pos += 1
        if pos == jump and not jumped:
            jumped = True
            if declared >= 2:
                return pos, True, pos >= arrive
        if pos >= arrive:
            return pos, False, True
    return pos, False, False


def _plan_from_system(
    state: State, fdm: Fdm, f: Formation, loc: L.Loc, kind: str, dest: str, rate: int, groups: str
) -> Plan:
    here = fdm.planets[loc.planet].system
    if kind in ("hold", "coast"):
        return Plan(f.id, f"{f.name} stays in {fdm.name(here)}", kind="hold")
    if kind == "reverse":
        raise ActionRejected(f"{f.name} is in a system: there is nothing to turn back from")
    order = {"kind": kind}
    if kind in ("void", "withdraw"):
        best = nearest_circle(fdm, here)
        if best is None:
            raise ActionRejected("no start circle can be reached from here")
        circle = fdm.circle(best[0])
        if circle.target == here:
            _check_leave(state, fdm, f, 1, [])
            if circle.red_boxes == 0:
                return Plan(
                    f.id,
                    f"{f.name} heads out to {circle.name}",
                    kind="path",
                    red=(circle.id, 0, False),
                    order=order,
                )
            return Plan(
                f.id,
                f"{f.name} heads out toward {circle.name} (red box {circle.red_boxes})",
                red=(circle.id, circle.red_boxes, False),
                order=order,
            )
        dest, rate = circle.target, max(1, rate)
    else:
        dest = fdm.find_system(dest) if dest else ""
        if not dest:
            raise ActionRejected("give the destination system")
        if dest == here:
            return Plan(f.id, f"{f.name} is already in {fdm.name(here)}", kind="hold")
        order = {"kind": "go", "dest": dest, "rate": rate, "groups": groups}
    route, nxt = fdm.next_hop(here, dest)
    entered = [nxt] if nxt == dest else [nxt, dest]
    _check_leave(state, fdm, f, rate, entered)
    end, roll_needed, arrived = _path_end(fdm, route, here, 0, rate, False, rate)
    text = f"{f.name} leaves {fdm.name(here)} for {fdm.name(nxt)} at {rate} box(es) a day"
    return Plan(
        f.id,
        text,
        route=route,
        origin=here,
        heading=nxt,
        start=0,
        rate=rate,
        declare=rate,
        groups=groups,
        order=order,
        arrive=fdm.system(nxt).primary if arrived else "",
        extra={"end": end, "roll": roll_needed},
    )


def _plan_in_transit(
    state: State, fdm: Fdm, f: Formation, loc: L.Loc, kind: str, dest: str, rate: int, groups: str
) -> Plan:
    route, origin, pos, jumped = transit_state(fdm, loc)
    heading = loc.heading
    declared = int(f.status.get("rate", 1))
    binding = declared >= 2 and not jumped
    order: dict[str, Any] | None = None
    if kind in ("void", "withdraw"):
        order = {"kind": kind}
        ahead = fdm.arrival_position(route) - pos
        via_ahead = (nearest_circle(fdm, heading) or ("", 10**6))[1] + ahead
        via_back = (nearest_circle(fdm, origin) or ("", 10**6))[1] + pos
        if via_back < via_ahead and not binding:
            kind = "reverse"
        else:
            kind = "go"
            rate = declared if binding else (min(max(rate, 1), decel_limit(state, fdm, f)) if jumped else 1)
    elif kind == "go":
        want = fdm.find_system(dest) if dest else heading
        if want == origin:
            kind = "reverse"
        else:
            order = {"kind": "go", "dest": want, "rate": rate, "groups": groups}
    if kind in ("hold", "coast"):
        if binding:
            raise ActionRejected(
                f"{f.name} is risk-jumping at {declared} boxes a day: it must keep "
                "moving until it reaches its jump box"
            )
        return Plan(f.id, f"{f.name} coasts in its transit box", kind="coast")
    if kind == "reverse":
        if binding:
            raise ActionRejected(f"{f.name} is risk-jumping: it cannot turn back before its jump box")
        back_pos = route.from_origin(loc.box, heading)
        end, _, arrived = _path_end(fdm, route, heading, back_pos, 1, True, 1)
        back_order = order or {"kind": "go", "dest": origin, "rate": 1, "groups": groups}
        return Plan(
            f.id,
            f"{f.name} turns back toward {fdm.name(origin)}",
            route=route,
            origin=heading,
            heading=origin,
            start=back_pos,
            rate=1,
            declare=1,
            order=back_order,
            arrive=fdm.system(origin).primary if arrived else "",
            extra={"end": end, "roll": False},
        )
    if binding:
        rate = declared
    elif not jumped:
        if rate > 1:
            if not state.options.get("lenient_rj", False):
                raise ActionRejected(
                    "a risk jump is declared on leaving a system (option lenient_rj allows it in mid-route)"
                )
            top, limits = allowed(state, f.id)
            if rate > top:
                raise ActionRejected(f"{f.name} can move at most {top} box(es) a day: {'; '.join(limits)}")
    else:
        top = decel_limit(state, fdm, f)
        if rate > top:
            raise ActionRejected(f"{f.name} may decelerate at most {top} box(es) a day after its jump")
    new_declared = rate if (not jumped and rate >= 2) else declared
    end, roll_needed, arrived = _path_end(fdm, route, origin, pos, rate, jumped, new_declared)
    text = f"{f.name} moves {rate} box(es) toward {fdm.name(heading)}"
    return Plan(
        f.id,
        text,
        route=route,
        origin=origin,
        heading=heading,
        start=pos,
        rate=rate,
        declare=new_declared if not jumped else None,
        groups=groups or "all",
        order=order,
        arrive=fdm.system(heading).primary if arrived else "",
        extra={"end": end, "roll": roll_needed},
    )


def _plan_in_circle(fdm: Fdm, f: Formation, loc: L.Loc, kind: str) -> Plan:
    circle = fdm.circle(loc.circle)
    if kind in ("void", "withdraw"):
        what = "withdraws into the Void" if kind == "withdraw" else "enters the Void for repair"
        return Plan(f.id, f"{f.name} {what}", kind=kind)
    if kind == "hold":
        raise ActionRejected(f"{f.name} must leave its start circle (red box 1) or enter the Void")
    if circle.red_boxes == 0:
        return Plan(
            f.id,
            f"{f.name} enters {fdm.name(circle.target)}",
            kind="path",
            arrive=fdm.system(circle.target).primary,
            red=(circle.id, 1, True),
        )
    return Plan(f.id, f"{f.name} enters red box 1 toward {fdm.name(circle.target)}", red=(circle.id, 1, True))


def _plan_in_red(fdm: Fdm, f: Formation, loc: L.Loc, kind: str) -> Plan:
    circle = fdm.circle(loc.circle)
    inward = loc.inward
    if kind in ("void", "withdraw") and inward:
        inward = False
        turn = " turns back and"
    elif kind == "go" and not inward:
        inward = True
        turn = " turns back and"
    else:
        turn = ""
    if kind in ("hold", "coast"):
        raise ActionRejected(f"{f.name} must cross one red box every day")
    if kind == "reverse":
        inward, turn = not inward, " turns back and"
    nxt = loc.box + 1 if inward else loc.box - 1
    if inward and nxt > circle.red_boxes:
        return Plan(
            f.id,
            f"{f.name}{turn} enters {fdm.name(circle.target)}",
            arrive=fdm.system(circle.target).primary,
            red=(circle.id, nxt, True),
        )
    if not inward and nxt < 1:
        return Plan(f.id, f"{f.name}{turn} reaches {circle.name}", red=(circle.id, 0, False))
    return Plan(f.id, f"{f.name}{turn} moves to red box {nxt}", red=(circle.id, nxt, inward))


# -- applying a plan -----------------------------------------------------------------------------
def apply_plan(ctx: Ctx, fdm: Fdm, plan: Plan) -> str:
    f = ctx.state.formation(plan.fid)
    day = int(ctx.clock.get("day", 0))
    if plan.kind == "hold":
        return plan.text
    if plan.kind == "coast":
        mark_moved(ctx, f.id)
        return plan.text
    if plan.kind in ("void", "withdraw"):
        mark_moved(ctx, f.id)
        if plan.kind == "withdraw":
            ctx.formation(f.id).location = "withdrawn"
            set_move(ctx, f.id, order=None)
            return plan.text + " and leaves the Frontier"
        ctx.formation(f.id).location = "void"
        set_move(ctx, f.id, return_day=day + 6, order=None, rate=1, jump_rate=None)
        return plan.text + f" (back on day {day + 6}, fully repaired)"
    if plan.red is not None:
        cid, idx, inward = plan.red
        if plan.arrive:
            ctx.formation(f.id).location = L.planet(plan.arrive)
        elif idx == 0:
            ctx.formation(f.id).location = f"circle:{cid}"
        else:
            ctx.formation(f.id).location = L.fmt(L.Loc("red", circle=cid, box=idx, inward=inward))
        if plan.order is not None:
            set_move(ctx, f.id, order=plan.order)
        mark_moved(ctx, f.id)
        return plan.text
    assert plan.route is not None
    route = plan.route
    end = int(plan.extra["end"])
    if plan.declare is not None:
        set_move(ctx, f.id, rate=plan.declare)
    if plan.order is not None and plan.order.get("kind") not in ("hold", "coast", "reverse"):
        set_move(ctx, f.id, order=plan.order)
    mark_moved(ctx, f.id)
    lines = [plan.text]
    if plan.extra.get("roll"):
        ctx.formation(f.id).location = L.fmt(
            L.Loc("transit", route=route.id, box=route.to_a(end, plan.origin), heading=plan.heading)
        )
        set_move(ctx, f.id, jump_rate=plan.rate)
        lines.append(f"enters its jump box at {plan.rate} boxes a day and stops: misjump check")
        survivors = misjump(ctx, fdm, f.id, plan.rate, plan.groups, route, plan.heading)
        if not survivors:
            cleanup(ctx)
            return "; ".join(lines)
    if plan.arrive:
        ctx.formation(f.id).location = L.planet(plan.arrive)
        order = ctx.state.formation(f.id).status.get("order") or {}
        final = order.get("dest") == fdm.planets[plan.arrive].system
        set_move(ctx, f.id, rate=1, jump_rate=None, order={"kind": "hold"} if final else order or None)
        lines.append(f"arrives in {fdm.name(fdm.planets[plan.arrive].system)}")
    elif not plan.extra.get("roll"):
        ctx.formation(f.id).location = L.fmt(
            L.Loc("transit", route=route.id, box=route.to_a(end, plan.origin), heading=plan.heading)
        )
        if plan.kind == "path" and plan.rate == 1 and plan.declare == 1:
            set_move(ctx, f.id, jump_rate=None)
    return "; ".join(lines)


def move(ctx: Ctx, fdm: Fdm, fid: str, kind: str, dest: str = "", rate: int = 1, groups: str = "all") -> str:
    plan = plan_move(ctx.state, fdm, fid, kind, dest, rate, groups)
    return apply_plan(ctx, fdm, plan)


# -- misjumps (5.4) --------------------------------------------------------------------------------
def misjump(
    ctx: Ctx, fdm: Fdm, fid: str, rate: int, groups_text: str, route: Route, heading: str
) -> list[str]:
    """Roll for each group of the stack; apply the misjump effect. Returns surviving ids."""
    f = ctx.state.formation(fid)
    members = [u.id for u in ships_in(ctx.state, fid) if not is_fighter(u)]
    try:
        groups = parse_groups(groups_text, members)
    except ValueError as exc:
        raise ActionRejected(f"misjump groups: {exc}") from None
    opt_row = str(ctx.options.get("deputized_misjump_row", "militia"))
    survivors: list[str] = []
    failed: list[list[str]] = []
    for i, group in enumerate(groups, 1):
        best = 0
        rows: dict[str, str] = {}
        for sid in group:
            u = ctx.state.unit(sid)
            rows[sid] = misjump_row(u.side, u.type, is_militia(u), bool(u.status.get("deputized")), opt_row)
        for row in sorted(set(rows.values())):
            look = ctx.lookup("T9", row=row, rate=str(rate))
            best = max(best, int(look.value))
        names = ", ".join(ctx.state.unit(s).label for s in group)
        what = "interlocked group" if len(group) > 1 else "ship"
        ctx.explain(f"{f.name} {what} {i} ({names}): safe jump {best}% (best astrogator of the group)")
        ok, _ = percent(
            ctx, f"misjump check, {f.name} {what} {i} at {rate} boxes a day", best, "T9", side=f.side
        )
        if ok:
            survivors.extend(group)
        else:
            failed.append(group)
    for i, group in enumerate(failed, 1):
        _misjump_effect(ctx, fdm, fid, group, route, heading, i)
    return survivors


def _misjump_effect(
    ctx: Ctx, fdm: Fdm, fid: str, group: list[str], route: Route, heading: str, n: int
) -> None:
    f = ctx.state.formation(fid)
    names = ", ".join(ctx.state.unit(s).label for s in group)
    if str(ctx.options.get("misjump_effect", "lost_for_war")) == "lost_for_war":
        ctx.explain(f"misjump: {names} lost for the rest of the war")
        for sid in group:
            record_loss(ctx, sid, "misjump")
        return
    day = int(ctx.clock.get("day", 0))
    boxes = _t10(ctx, f"misjump displacement: boxes past {fdm.name(heading)}", f.side)
    days = _t10(ctx, "misjump displacement: days lost", f.side)
    options = [(r, o) for r, o in fdm.routes_from(heading) if r.id != route.id] or fdm.routes_from(heading)
    if len(options) == 1:
        away, far = options[0]
    else:
        pick = ctx.choose(
            f"misjump_route:{fid}:{n}",
            f"{names} overshoot {fdm.name(heading)} by {boxes} box(es): along which route?",
            [(r.id, f"toward {fdm.name(o)}") for r, o in options],
            side="gm",
        )
        away = fdm.route(pick)
        far = away.other(heading)
    pos = min(boxes, away.boxes)
    back = day + days + (1 if ctx.options.get("misjump_return") == "d_plus_t_plus_1" else 0)
    where = L.fmt(L.Loc("transit", route=away.id, box=away.to_a(pos, heading), heading=far))
    lost = new_stack(ctx, f.side, f"{f.name} (lost after a misjump)", "lost", group, like=fid, prefix="lost-")
    set_move(ctx, lost.id, return_day=back, return_to=where, rate=1, jump_rate=None, order={"kind": "hold"})
    ctx.explain(
        f"misjump: {names} overshoot {fdm.name(heading)} by {boxes} box(es) toward "
        f"{fdm.name(far)}; off the map until day {back}, and may not move that day"
    )


def _t10(ctx: Ctx, purpose: str, side: str) -> int:
    die = roll(ctx, "1d10", purpose, side=side, table="T10")
    look = ctx.lookup("T10", roll=die.natural)
    die.result = f"{look.value}"
    return int(look.value)


# -- the day's forced moves and standing orders ----------------------------------------------------
def must_move(state: State, fdm: Fdm, side: str) -> list[str]:
    """Stacks of *side* that still have to move today, with the reason."""
    day = int(state.clock.get("day", 0))
    out = []
    home_bound = set(must_go_home(state, fdm, threatened_systems(state, fdm))) if side == "UPF" else set()
    for f in stacks(state, side):
        if moved_today(f.status, day) or int(f.status.get("no_move", -1)) == day:
            continue
        loc = L.parse(f.location)
        if side == "SATHAR" and retreating(state):
            out.append(f"{f.name} must withdraw toward a start circle")
        elif loc.kind == "circle" and (day == 1 or state.options.get("mandatory_first_box", True)):
            out.append(f"{f.name} must leave its start circle into red box 1 (or enter the Void)")
        elif loc.kind == "red":
            out.append(f"{f.name} must cross one red box")
        elif pre_jump_rj(state, fdm, f):
            out.append(f"{f.name} is risk-jumping and must keep moving to its jump box")
        elif any(u.id in home_bound for u in ships_in(state, f.id)):
            out.append(f"{f.name}: militia ships must head home, their system is threatened")
    return out


def move_all(ctx: Ctx, fdm: Fdm, side: str) -> list[str]:
    """Move every stack of *side* along its standing order (forced moves included)."""
    day = int(ctx.clock.get("day", 0))
    lines: list[str] = []
    if side == "UPF":
        lines += _send_militia_home(ctx, fdm)
    for f in list(stacks(ctx.state, side)):
        if f.id not in ctx.state.formations:
            continue
        f = ctx.state.formations[f.id]
        if moved_today(f.status, day) or int(f.status.get("no_move", -1)) == day:
            continue
        order = dict(f.status.get("order") or {"kind": "hold"})
        kind = str(order.get("kind", "hold"))
        loc = L.parse(f.location)
        if side == "SATHAR" and retreating(ctx.state):
            kind = "withdraw"
        rate = int(order.get("rate", 1))
        dest = str(order.get("dest", ""))
        if loc.kind == "circle" and kind == "hold":
            if not (day == 1 or ctx.options.get("mandatory_first_box", True)):
                continue
            kind = "go"
        elif loc.kind == "red" and kind in ("hold", "coast"):
            kind = "go"
        elif loc.kind == "transit":
            if pre_jump_rj(ctx.state, fdm, f):
                kind, rate = "go", int(f.status.get("rate", 1))
            elif kind == "go":
                _, _, _, jumped = transit_state(fdm, loc)
                rate = min(rate, decel_limit(ctx.state, fdm, f)) if jumped else 1
            elif kind == "hold":
                kind = "coast"
        elif loc.kind == "planet" and kind in ("hold", "coast", "reverse"):
            continue
        elif loc.kind == "planet":
            rate = min(rate, allowed(ctx.state, f.id)[0])
        try:
            lines.append(move(ctx, fdm, f.id, kind, dest, rate, str(order.get("groups", "all"))))
        except ActionRejected as exc:
            lines.append(f"{f.name} does not move: {exc}")
    cleanup(ctx)
    return lines


def _send_militia_home(ctx: Ctx, fdm: Fdm) -> list[str]:
    lines = []
    bound = must_go_home(ctx.state, fdm, threatened_systems(ctx.state, fdm))
    by_stack: dict[str, list[str]] = {}
    for uid in bound:
        u = ctx.state.unit(uid)
        by_stack.setdefault(f"{u.formation}|{home_system(fdm, u)}", []).append(uid)
    for key, ids in sorted(by_stack.items()):
        fid, home = key.split("|")
        f = ctx.state.formation(fid)
        others = [u for u in ships_in(ctx.state, fid) if u.id not in ids and not is_fighter(u)]
        if others:
            g = new_stack(
                ctx, f.side, f"{fdm.name(home or '')} militia (going home)", f.location, ids, like=fid
            )
            fid = g.id
            lines.append(f"{', '.join(ctx.state.unit(i).label for i in ids)} split off to go home")
        set_move(ctx, fid, order={"kind": "go", "dest": home, "rate": 1, "groups": "all"})
    return lines


def place_on(ctx: Ctx, fid: str, where: str, day: int) -> None:
    ctx.formation(fid).location = where
    set_move(ctx, fid, placed=day, rate=1, jump_rate=None, moved=None)


def eta(state: State, fdm: Fdm, f: Formation) -> int | None:
    """The day a stack with a go order should reach its destination (provisional map, no
    misjump; legs after the first at one box a day)."""
    order = f.status.get("order") or {}
    if order.get("kind") != "go" or order.get("dest") not in fdm.systems:
        return None
    dest = str(order["dest"])
    loc = L.parse(f.location)
    rate = max(1, int(order.get("rate", 1)))
    if loc.kind == "transit" and loc.route in fdm.routes:
        route, origin, pos, jumped = transit_state(fdm, loc)
        if pre_jump_rj(state, fdm, f):
            rate = int(f.status.get("rate", 1))
        elif jumped:
            rate = min(rate, max(1, int(f.status.get("jump_rate") or 1)))
        else:
            rate = 1
        nxt = loc.heading
    elif loc.kind == "planet":
        here = system_of(fdm, loc)
        if here is None or here == dest:
            return None
        route, nxt = fdm.next_hop(here, dest)
        origin, pos, jumped = here, 0, False
    else:
        return None
    days = 0
    while True:
        days += 1
        pos, _, arrived = _path_end(fdm, route, origin, pos, rate, jumped, rate)
        jumped = jumped or pos >= route.jump_index(origin)
        if arrived or days > 60:
            break
    rest = fdm.graph.distances(nxt)[0].get(dest, 0)
    today = int(state.clock.get("day", 0))
    start = today + (1 if moved_today(f.status, today) else 0)
    return start + days + rest - 1
