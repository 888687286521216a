"""Planetary detection in play (5.3): one task force tries to detect another."""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from rulesets.prefect import ops
from rulesets.prefect.board import Board, loc_hex
from rulesets.prefect.checks import roll_check
from rulesets.prefect.detection import announced_range, planetary_target, tf_esm, tf_sig
from rulesets.prefect.rulings import terrain_of
from rulesets.prefect.values import terrain_effect


def esm_of(board: Board, fid: str) -> int:
    units = board.active_units(fid)
    signal = [board.n(u, "esm") for u in units if board.special(u) == "signal"]
    return tf_esm(
        [board.n(u, "esm") for u in units if board.special(u) != "signal"], max(signal) if signal else None
    )


def sig_of(board: Board, fid: str) -> int:
    units = board.active_units(fid)
    signal = [board.n(u, "sig") for u in units if board.special(u) == "signal"]
    return tf_sig(
        [board.n(u, "sig") for u in units if board.special(u) != "signal"], min(signal) if signal else None
    )


def attempt(
    ctx: Ctx, detector: str, target: str, esm: int | None, purpose: str, esm_max: int | None = None
) -> bool:
    """Roll one detection attempt; a success flips the target to Detected (its owner
    reveals nothing of its contents) and records the pair for the Movement Phase."""
    board = Board.of(ctx)
    det = ctx.state.formation(detector)
    tgt = ctx.state.formation(target)
    top = esm_of(board, detector) if esm_max is None else esm_max
    lo, hi = announced_range(top)
    announced = hi if esm is None else int(esm)
    if not lo <= announced <= hi:
        raise ActionRejected(f"{det.name} may announce an ESM from {lo} to {hi}, not {announced}")
    hex_ = loc_hex(tgt.location) or ""
    laf = board.laf(target)
    terrain = "clear"
    mod = 0
    if not laf:
        terrain = terrain_of(ctx, hex_, chooser=tgt.side)
        mod = int(terrain_effect(ctx.tables, terrain, "detection"))
    ratings = [board.rating(b) for b in board.bases_at(hex_)]
    laf_mod = int(terrain_effect(ctx.tables, "task force at LAF", "detection"))
    target_no = planetary_target(
        announced,
        sig_of(board, target),
        laf,
        mod,
        ratings,
        bool(ctx.options.get("laf_ignores_bases", True)),
        laf_mod,
    )
    parts = list(target_no.parts)
    if not laf:
        parts = [(f"terrain {terrain}" if label == "terrain" else label, v) for label, v in parts]
    check = roll_check(
        ctx,
        f"{purpose}: {det.name} against {tgt.name}",
        parts,
        side=det.side,
        success="detected",
        failure="not detected",
    )
    if check.passed:
        ops.set_flag(ctx, target, "DETECTED", True)
        pairs = [p for p in ctx.var("detections", []) if p != [detector, target]]
        pairs.append([detector, target])
        ctx.set_var("detections", pairs)
    return check.passed
