"""Capturing bases and urban areas on the planetary map (5.11.9, G37)."""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from rulesets.prefect import ops
from rulesets.prefect.board import Board
from rulesets.prefect.values import vp_value


def capture_hex(ctx: Ctx, fid: str, hex_: str, mode: str = "captured") -> None:
    """A unit of *fid* has entered *hex_*: enemy bases and an enemy urban area there change
    hands. *mode* says what happens to the supplies inside: "captured" (entered without an
    attack, after a BT, or the hex held only disrupted units or support units) or
    "destroyed" (entered after a DR)."""
    board = Board.of(ctx)
    side = ctx.state.formation(fid).side
    for b in board.bases_at(hex_):
        if b.side == side:
            continue
        if board.base_class(b) == "ON":
            continue
        if board.base_class(b) == "GN" and not ctx.options.get("ground_capture_gn", True):
            continue
        base = ctx.unit(b.id)
        value = vp_value(board, ctx.tables, base, ctx.options)
        old = base.side
        base.side = side
        stock = int(base.status.get("supply", 0))
        if mode == "destroyed" and stock:
            base.status["supply"] = 0
            ctx.explain(f"{base.label}: {stock} SP destroyed (entered after a retreat)")
        elif stock:
            ctx.explain(f"{base.label}: {stock} SP captured")
        base.status["knocked_out"] = 0
        ctx.explain(f"{base.label} captured from {old} by {side}")
        ops.vp(ctx, side, value, f"{base.label} captured")
        for u in board.loose_at(hex_, old):
            ops.destroy_unit(ctx, u.id, "at a captured base")
    found = board.city_at(hex_)
    if found:
        cid, city = found
        if city.get("controller") != side:
            rec = ctx.record("cities", cid)
            before = rec.get("controller")
            rec["controller"] = side
            ctx.explain(f"urban area {rec.get('name', cid)} now controlled by {side} (was {before})")
