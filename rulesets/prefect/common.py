"""Helpers shared by the action modules: checks that name the problem in plain words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import Formation, State, Unit
from rulesets.prefect.board import GROUND_FORCE_KINDS, Board, loc_hex


def actor_side(ctx: Ctx, hint: str | None = None) -> str:
    """The side acting now: the current step's actor; at a step where both players (or the
    GM) act, the player who sent the action, else the side *hint* names."""
    side = ctx.role(ctx.step.actor)
    if side in ("TOG", "CW"):
        return side
    if ctx.by in ("TOG", "CW"):
        return ctx.by
    if hint in ("TOG", "CW"):
        return str(hint)
    raise ActionRejected("say which side acts (act as TOG or CW)")


def own_force(ctx: Ctx, fid: str, side: str | None = None) -> Formation:
    f = ctx.state.formation(fid)
    if f.kind not in GROUND_FORCE_KINDS:
        raise ActionRejected(f"{f.name} is not a ground task force")
    if side and f.side != side:
        raise ActionRejected(f"{f.name} belongs to {f.side}, not {side}")
    if not f.location:
        raise ActionRejected(f"{f.name} is not on the map")
    return f


def own_unit(ctx: Ctx, uid: str, side: str | None = None) -> Unit:
    u = ctx.state.unit(uid)
    if side and u.side != side:
        raise ActionRejected(f"{u.label} belongs to {u.side}, not {side}")
    if u.status.get("destroyed"):
        raise ActionRejected(f"{u.label} is destroyed")
    return u


def hex_of(f: Formation) -> str:
    h = loc_hex(f.location)
    if h is None:
        raise ActionRejected(f"{f.name} is not on the planetary map")
    return h


def when_var(name: str, message: str) -> Callable[[State], str | None]:
    """Availability: the var must be set."""
    return lambda s: None if s.vars.get(name) else message


def unless_var(name: str, message: str) -> Callable[[State], str | None]:
    return lambda s: message if s.vars.get(name) else None


def step_is(*steps: str) -> Callable[[State], bool]:
    return lambda s: s.step in steps


def holders(board: Board, side: str, turn: int) -> list[Unit]:
    """Ground supply holders of a side: Legion bases and Legion/Auxilia HQs, usable now."""
    out = []
    for u in board.state.units.values():
        if u.side != side or u.status.get("destroyed"):
            continue
        is_gl = board.is_base(u) and board.base_class(u) == "GL" and u.location
        is_hq = board.hq(u) in ("legion", "auxilia") and (u.formation or u.location)
        if not (is_gl or is_hq):
            continue
        if int(u.status.get("knocked_out", 0)) == turn:
            continue
        out.append(u)
    return out


def greedy_allocation(stocks: list[tuple[str, int]], total: int) -> dict[str, int] | None:
    """A default way to pay *total* from holders, largest stocks first; None if short."""
    out: dict[str, int] = {}
    left = total
    for uid, stock in sorted(stocks, key=lambda x: -x[1]):
        if left <= 0:
            break
        take = min(stock, left)
        if take > 0:
            out[uid] = take
            left -= take
    return out if left <= 0 else None


def allocate_payment(
    ctx: Ctx, key: str, side: str, total: int, candidates: list[Unit], purpose: str
) -> dict[str, int]:
    """Ask *side* how to pay *total* SP from several holders (an allocation decision)."""
    from campaign_tui.core.decisions import Decision, Option

    if total <= 0:
        return {}
    stocks = [(u.id, int(u.status.get("supply", 0))) for u in candidates]
    have = sum(s for _, s in stocks)
    if have < total:
        raise ActionRejected(f"{purpose} costs {total} SP but the holders that may pay have only {have}")
    default = greedy_allocation(stocks, total)
    if len([s for s in stocks if s[1] > 0]) == 1:
        return default or {}
    stock_of = dict(stocks)

    def check(answer: Any) -> str | None:
        if sum(int(v) for v in answer.values()) != total:
            return f"the shares must add up to exactly {total} SP"
        for uid, v in answer.items():
            if int(v) > stock_of.get(uid, 0):
                return f"{uid} holds only {stock_of.get(uid, 0)} SP"
        return None

    answer = ctx.decide(
        Decision(
            id=f"pay:{key}",
            kind="allocate",
            prompt=f"Who pays the {total} SP for {purpose}?",
            options=tuple(Option(uid, f"{ctx.state.unit(uid).label} ({s} SP)") for uid, s in stocks),
            total=total,
            side=side,
            default=default,
        ),
        validate=check,
    )
    return {k: int(v) for k, v in answer.items() if int(v) > 0}
