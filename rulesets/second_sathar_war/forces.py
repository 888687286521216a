"""Making and changing stacks through the action context (every change recorded).

A stack's movement state lives in its formation's ``status``:

* ``rate``      boxes a day declared on leaving a system (2 or 3 = risk jump, binding until
                the jump box);
* ``jump_rate`` the rate at which it jumped (deceleration limit afterwards);
* ``moved``     the day it last moved; ``no_move`` a day on which it may not move (a
                displaced ship's return day); ``placed`` the day a Sathar stack was placed;
* ``order``     the standing order: ``{"kind": "go", "dest": <system>, "rate": r,
                "groups": "all"}``, ``{"kind": "hold"}``, ``{"kind": "void"}`` ...
* ``return_day`` / ``return_to`` for stacks in the Void or lost after a misjump.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import Formation, Unit

from .ships import alive, carried_by, is_station, ships_in

MOVE_KEYS = ("rate", "jump_rate", "moved", "no_move", "placed", "order", "return_day", "return_to")
LASTING_KINDS = ("task_force", "strike_force", "fleet", "militia", "reserve")


def new_stack(
    ctx: Ctx,
    side: str,
    name: str,
    location: str,
    ship_ids: Iterable[str] = (),
    kind: str = "group",
    like: str | None = None,
    prefix: str = "stack-",
    visibility: str = "public",
) -> Formation:
    """A new stack at *location*; it copies the movement state of stack *like*."""
    fid = ctx.new_id(f"{side.lower()}-{prefix}", "formations")
    status: dict[str, Any] = {}
    if like and like in ctx.state.formations:
        src = ctx.state.formations[like].status
        status = {k: v for k, v in src.items() if k in MOVE_KEYS}
    f = ctx.add_formation(Formation(fid, side, name, kind, None, location, status, visibility=visibility))
    ids = list(ship_ids)
    if ids:
        transfer(ctx, ids, fid)
    return f


def transfer(ctx: Ctx, ship_ids: Iterable[str], fid: str) -> list[str]:
    """Put ships into stack *fid*; a carrier's fighters go with it. Returns the ids moved."""
    target = ctx.state.formation(fid)
    moved: list[str] = []
    for sid in ship_ids:
        u = ctx.state.unit(sid)
        if u.side != target.side:
            raise ActionRejected(f"{u.label} is not a {target.side} ship")
        if is_station(u):
            raise ActionRejected(f"{u.label} is a station: it never moves")
        if not alive(u):
            raise ActionRejected(f"{u.label} is destroyed")
        for unit in (u, *carried_by(ctx.state, sid)):
            if unit.formation != fid or unit.location:
                w = ctx.unit(unit.id)
                w.formation = fid
                w.location = None
            if unit.id not in moved:
                moved.append(unit.id)
    return moved


def detach_fighter(ctx: Ctx, u: Unit, location: str) -> None:
    """A fighter leaves its stack and sits at *location* (based at a station or stranded)."""
    w = ctx.unit(u.id)
    w.formation = None
    w.location = location


def cleanup(ctx: Ctx) -> list[str]:
    """Remove stacks left empty (named forces stay); returns the removed names."""
    holding = {u.formation for u in ctx.state.units.values() if u.formation}
    gone = []
    for f in list(ctx.state.formations.values()):
        if f.id in holding or f.kind in LASTING_KINDS:
            continue
        gone.append(f.name)
        ctx.remove_formation(f.id)
    return gone


def set_move(ctx: Ctx, fid: str, **values: Any) -> None:
    f = ctx.formation(fid)
    for k, v in values.items():
        if v is None:
            f.status.pop(k, None)
        else:
            f.status[k] = v


def mark_moved(ctx: Ctx, fid: str) -> None:
    day = int(ctx.clock.get("day", 0))
    set_move(ctx, fid, moved=day)
    today = ctx.edit_var("today", {})
    moved = today.setdefault("moved", [])
    for u in ships_in(ctx.state, fid):
        if u.id not in moved:
            moved.append(u.id)


def moved_today(state_status: dict[str, Any], day: int) -> bool:
    return int(state_status.get("moved", -1)) == day
