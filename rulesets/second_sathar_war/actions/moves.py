"""Movement actions (digest 2.2 steps 2 and 4, 2.5): stacks, standing orders, one-key moves."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from rulesets.second_sathar_war import candidates as C

from .. import locations as L
from ..forces import cleanup, mark_moved, moved_today, new_stack, set_move, transfer
from ..movement import ORDER_KINDS, allowed, move, move_all, plan_move
from ..ships import is_fighter, ships_in, system_of
from .common import acting_side, check_owner, day, fdm

MOVE_STEPS = ("SATHAR_MOVE", "UPF_MOVE")


@action(
    "split",
    "Split ships off into a new stack",
    Param("stack", "formation", candidates=C.own_stacks),
    Param("ships", "units"),
    Param("name", required=False, default="", help="the new stack's name"),
    side="phasing",
    reference="2.2 step 2",
)
def split(ctx: Ctx, stack: str, ships: list[str], name: str) -> None:
    """Detach ships from a stack; the new stack is where the old one is and has the same
    movement state (a carrier takes its fighters along)."""
    f = ctx.state.formation(stack)
    check_owner(ctx, stack)
    members = {u.id for u in ships_in(ctx.state, stack)}
    for sid in ships:
        if sid not in members:
            raise ActionRejected(f"{ctx.state.unit(sid).label} is not in {f.name}")
    g = new_stack(
        ctx,
        f.side,
        name or f"Detachment of {f.name}",
        str(f.location),
        ships,
        like=stack,
        visibility=f.visibility,
    )
    cleanup(ctx)
    ctx.summary(f"{len(ships)} ship(s) split from {f.name} into {g.name} ({g.id})")


@action(
    "merge",
    "Merge stacks",
    Param("stacks", "formations", help="the first one keeps the ships"),
    side="phasing",
    reference="2.2 step 2",
)
def merge(ctx: Ctx, stacks: list[str]) -> None:
    """Join stacks that share a position (same planet, or same box, heading and rate)."""
    if len(stacks) < 2:
        raise ActionRejected("name at least two stacks")
    first = ctx.state.formation(stacks[0])
    kinds = [ctx.state.formation(s).kind for s in stacks]
    if (
        ctx.options.get("tf_combining") == "no_merge"
        and sum(1 for k in kinds if k in ("task_force", "strike_force")) > 1
    ):
        raise ActionRejected("task forces may not be merged into one force (option tf_combining)")
    today = day(ctx)
    moved = any(moved_today(ctx.state.formation(s).status, today) for s in stacks)
    for s in stacks:
        g = ctx.state.formation(s)
        check_owner(ctx, s)
        if g.location != first.location:
            raise ActionRejected(f"{g.name} is not where {first.name} is")
        if (
            int(g.status.get("rate", 1)) != int(first.status.get("rate", 1))
            and L.parse(g.location).kind == "transit"
        ):
            raise ActionRejected(f"{g.name} travels at another rate than {first.name}")
    for s in stacks[1:]:
        transfer(
            ctx,
            [
                u.id
                for u in ships_in(ctx.state, s)
                if not is_fighter(u)
                or not u.status.get("aboard")
                or ctx.state.unit(u.status["aboard"]).formation == s
            ],
            stacks[0],
        )
    if moved:
        mark_moved(ctx, stacks[0])
    gone = cleanup(ctx)
    ctx.summary(f"merged into {first.name}" + (f" ({', '.join(gone)} dissolved)" if gone else ""))


@action(
    "transfer",
    "Move ships to another stack here",
    Param("ships", "units"),
    Param("to", "formation"),
    side="phasing",
    reference="2.2 step 4",
)
def transfer_ships(ctx: Ctx, ships: list[str], to: str) -> None:
    """Add ships to a stack at the same position (a task force, a fleet, a group)."""
    check_owner(ctx, to)
    target = ctx.state.formation(to)
    for sid in ships:
        u = ctx.state.unit(sid)
        if u.side != target.side:
            raise ActionRejected(f"{u.label} is not yours")
        here = (
            ctx.state.formations[u.formation].location if u.formation in ctx.state.formations else u.location
        )
        if here != target.location:
            raise ActionRejected(f"{u.label} is not where {target.name} is")
    transfer(ctx, ships, to)
    if moved_today(target.status, day(ctx)):
        mark_moved(ctx, to)
    gone = cleanup(ctx)
    ctx.summary(
        f"{len(ships)} ship(s) join {target.name}" + (f" ({', '.join(gone)} dissolved)" if gone else "")
    )


@action("rename", "Rename a stack", Param("stack", "formation", candidates=C.own_stacks), Param("name"),
        side="phasing")
def rename(ctx: Ctx, stack: str, name: str) -> None:
    """Give a force or group a new name."""
    check_owner(ctx, stack)
    old = ctx.state.formation(stack).name
    ctx.formation(stack).name = name
    ctx.summary(f"{old} is now {name}")


@action("disband", "Disband a task force", Param("stack", "formation", candidates=C.own_stacks),
        side="UPF", reference="6.1")
def disband(ctx: Ctx, stack: str) -> None:
    """A task force stops being a task force; its ships stay together as a plain group."""
    check_owner(ctx, stack)
    f = ctx.formation(stack)
    if f.side != "UPF":
        raise ActionRejected(f"{f.name} is not a UPF force")
    if f.kind not in ("task_force", "strike_force"):
        raise ActionRejected(f"{f.name} is not a task force")
    f.kind = "group"
    f.name = f"{f.name} (disbanded)"
    cleanup(ctx)
    ctx.summary(f"{f.name}: task force disbanded")


def _order_params() -> tuple[Param, ...]:
    return (
        Param("stack", "formation", candidates=C.own_stacks),
        Param(
            "order",
            "choice",
            choices=ORDER_KINDS,
            default="go",
            required=False,
            help="go (toward dest), hold (stay / coast), coast, reverse, void (Sathar: to a "
            "start circle and into the Void for repair), withdraw (Sathar retreat)",
        ),
        Param(
            "dest",
            required=False,
            default="",
            help="destination system (go), along the routes",
            candidates=C.destinations,
        ),
        Param(
            "rate",
            "int",
            required=False,
            default=1,
            min=1,
            max=3,
            help="boxes a day: 1, or 2/3 to risk-jump (declared on leaving a system)",
        ),
        Param(
            "groups",
            required=False,
            default="all",
            help="misjump grouping: all (one interlocked roll), each, or a+b;c",
        ),
    )


@action(
    "move_stack",
    "Move one stack",
    *_order_params(),
    side="phasing",
    key="m",
    available=lambda s: None if s.step in MOVE_STEPS else "only during the move steps",
    reference="2.5, 5.3",
)
def move_stack(ctx: Ctx, stack: str, order: str, dest: str, rate: int, groups: str) -> None:
    """Move a stack now: leave a system, advance, coast, turn back, or (Sathar) head for the
    Void. A go order stays as the stack's standing order until it arrives."""
    check_owner(ctx, stack)
    text = move(ctx, fdm(ctx), stack, order, dest, rate, groups)
    cleanup(ctx)
    ctx.summary(text)


@action(
    "set_order", "Give a stack a standing order", *_order_params(), side="phasing", key="o", reference="9.1"
)
def set_order(ctx: Ctx, stack: str, order: str, dest: str, rate: int, groups: str) -> None:
    """Set what the stack does each day when the side moves everything at once (move_all):
    for example go to Cassidine at one box a day."""
    side = ctx.state.formation(stack).side
    check_owner(ctx, stack)
    m = fdm(ctx)
    f = ctx.state.formation(stack)
    if order == "go":
        if not dest:
            raise ActionRejected("give the destination system")
        target = m.find_system(dest)
        loc = L.parse(f.location)
        here = system_of(m, loc) or (loc.heading if loc.kind == "transit" else "")
        if here and here != target:
            m.path(here, target)
        top, limits = allowed(ctx.state, stack)
        if rate > top:
            ctx.explain(f"note: {f.name} can move at most {top} box(es) a day now ({'; '.join(limits)})")
        value = {"kind": "go", "dest": target, "rate": rate, "groups": groups}
        text = f"go to {m.name(target)} at {rate} box(es) a day"
    elif order in ("void", "withdraw") and side != "SATHAR":
        raise ActionRejected("only Sathar ships enter the Void")
    else:
        value = {"kind": order, "groups": groups}
        text = order
    set_move(ctx, stack, order=value)
    ctx.summary(f"{f.name}: standing order {text}")


@action(
    "move_all",
    "Move every stack (standing orders)",
    side="phasing",
    key="M",
    available=lambda s: None if s.step in MOVE_STEPS else "only during the move steps",
    reference="9.1, 2.2 steps 2 and 4",
)
def move_all_stacks(ctx: Ctx) -> None:
    """One key for the whole side: every stack not yet moved today follows its standing order;
    forced moves (start circles, red boxes, risk jumps, militia going home) are made too.
    Each move and misjump roll is logged."""
    side = acting_side(ctx)
    lines = move_all(ctx, fdm(ctx), side)
    for line in lines:
        ctx.explain(line)
    moved = sum(1 for line in lines if " does not move" not in line)
    ctx.summary(f"{side}: {moved} stack move(s) made")


@action(
    "station_at",
    "Go to another planet of the same system",
    Param("stack", "formation", candidates=C.own_stacks),
    Param("planet"),
    side="phasing",
    reference="3.1",
    available=lambda s: None if s.step in MOVE_STEPS else "only during the move steps",
)
def station_at(ctx: Ctx, stack: str, planet: str) -> None:
    """Within a starburst a stack may take up station at the other planet; it counts as its
    move for the day (no rearm or repair that day)."""
    check_owner(ctx, stack)
    m = fdm(ctx)
    f = ctx.state.formation(stack)
    loc = L.parse(f.location)
    pid = m.find_planet(planet)
    if loc.kind != "planet" or m.planets[pid].system != m.planets[loc.planet].system:
        raise ActionRejected(f"{m.planets[pid].name} is not in {f.name}'s system")
    plan_move(ctx.state, m, stack, "hold")
    ctx.formation(stack).location = L.planet(pid)
    mark_moved(ctx, stack)
    set_move(ctx, stack, moved=day(ctx))
    ctx.summary(f"{f.name} moves to {m.planets[pid].name}")


ACTIONS = (split, merge, transfer_ships, rename, disband, move_stack, set_order, move_all_stacks, station_at)
