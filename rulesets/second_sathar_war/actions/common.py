"""Helpers shared by the actions."""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State

from ..fdm import Fdm

SIDES = ("UPF", "SATHAR")


def fdm(ctx: Ctx) -> Fdm:
    return Fdm.of(ctx.state)


def day(ctx: Ctx) -> int:
    return int(ctx.clock.get("day", 0))


def step_side(state: State) -> str:
    """The side whose step this is (from the machine's actor), or '' for GM/both steps."""
    from rulesets.second_sathar_war.phases import MACHINE

    actor = MACHINE.step(state.step).actor
    return actor if actor in SIDES else ""


def acting_side(ctx: Ctx) -> str:
    side = step_side(ctx.state)
    if not side:
        if ctx.by in SIDES:
            return ctx.by
        raise ActionRejected("this step belongs to no single side")
    return side


def check_owner(ctx: Ctx, fid: str) -> None:
    """The stack must belong to the side whose step it is (or to the player acting)."""
    f = ctx.state.formation(fid)
    side = step_side(ctx.state)
    if side and f.side != side:
        raise ActionRejected(f"{f.name} is not a {side} force, and this is the {side} step")
    if not side and ctx.by in SIDES and f.side != ctx.by:
        raise ActionRejected(f"{f.name} is not yours")
