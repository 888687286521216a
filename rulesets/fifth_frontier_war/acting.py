"""Who is acting, and reading structured parameters (JSON or short ``key:value`` lists)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import ActionRejected
from rulesets.fifth_frontier_war.formulas import SIDES

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import Unit


def side_for(ctx: Ctx, side: str = "") -> str:
    """The side an action is taken for: the given one (the GM may act for anyone), the acting
    player, or the side whose turn it is at this step."""
    if side:
        if side not in SIDES:
            raise ActionRejected(f"{side!r}: the sides are imperial and zhodani")
        if ctx.by not in ("gm", side):
            raise ActionRejected(f"only the {side} player (or the GM) may do this")
        return side
    if ctx.by in SIDES:
        return ctx.by
    step_side = ctx.engine.resolve_actor(ctx.state, ctx.step.actor)
    if step_side in SIDES:
        return step_side
    raise ActionRejected("say which side acts: side=imperial or side=zhodani")


def owns(ctx: Ctx, unit: Unit) -> None:
    if ctx.by not in ("gm", unit.side):
        raise ActionRejected(f"{unit.label} belongs to the {unit.side} player")


def read_map(value: Any, what: str) -> dict[str, Any]:
    """A JSON object, or ``a:1, b:2`` / ``a=1; b=2``."""
    if isinstance(value, dict):
        return dict(value)
    text = str(value or "").strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ActionRejected(f"{what}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(data, dict):
            raise ActionRejected(f"{what}: give an object")
        return data
    out: dict[str, Any] = {}
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part:
            k, v = part.split("=", 1)
        elif ":" in part:
            k, v = part.rsplit(":", 1)
        else:
            raise ActionRejected(f"{what}: write key:value pairs separated by commas ({part!r})")
        out[k.strip()] = v.strip()
    return out


def read_nested(value: Any, what: str) -> dict[str, dict[str, Any]]:
    """``{"target": {"firer": 5}}`` or ``target=firer:5+firer2:3; target2=firer:4``."""
    if isinstance(value, dict):
        return {k: dict(v) if isinstance(v, dict) else read_map(v, what) for k, v in value.items()}
    text = str(value or "").strip()
    if text.startswith("{"):
        data = read_map(text, what)
        return {k: v if isinstance(v, dict) else read_map(v, what) for k, v in data.items()}
    out: dict[str, dict[str, Any]] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise ActionRejected(f"{what}: write target=unit:factors+unit:factors; ... ({part!r})")
        target, rest = part.split("=", 1)
        out[target.strip()] = read_map(rest.replace("+", ","), what)
    return out
