"""The GM's bookkeeping done by the program (digest 9): tempo, track resets, turn advance,
scenario events and the final victory computation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import State
from rulesets.prefect import ops
from rulesets.prefect.board import Board, other
from rulesets.prefect.victory import next_attacker, outcome_ratio, parse_award

PER_TURN_STATUS = ("moved", "moved_laf", "counter_detect", "combat_detect", "fought", "performed")


def last_turn(s: State) -> bool:
    return int(s.clock.get("turn", 1)) >= int(s.vars.get("max_turns", 10))


def tempo(ctx: Ctx) -> None:
    """The Tempo Phase (5.15): the Attacker stays only with a strictly higher score; then
    the tracks and per-turn markers are reset and the turn advances."""
    board = Board.of(ctx)
    att, dfn = board.attacker, board.defender
    if board.game == "space" and ctx.options.get("space_tempo", "btca") == "kills":
        score = dict(ctx.var("kills", {}))
        ctx.explain(f"units destroyed this turn: {att} {score.get(att, 0)}, {dfn} {score.get(dfn, 0)}")
    else:
        score = dict(ctx.var("btca", {}))
        ctx.explain(f"breakthroughs and counterattacks: {att} {score.get(att, 0)}, {dfn} {score.get(dfn, 0)}")
    nxt = next_attacker(att, dfn, score)
    roles = {"attacker": nxt, "defender": other(nxt)}
    ctx.set_var("roles", roles)
    ctx.explain(f"{nxt} is the Attacker next turn" + (" again" if nxt == att else " (the roles swap)"))
    _htl_supply_vp(ctx)
    ctx.set_var("btca", {"TOG": 0, "CW": 0})
    ctx.set_var("kills", {"TOG": 0, "CW": 0})
    ctx.set_var("track", {"moved": 0, "counter": 0})
    for name in (
        "detections",
        "attacks",
        "terrain_pick",
        "rebuilds",
        "supply_stage",
        "moving",
        "zoc",
        "special_advance",
        "delivered",
    ):
        ctx.set_var(name, None)
    for mid, m in list(ctx.state.markers.items()):
        if m.kind in ("MOVED", "DETECTED"):
            ctx.remove_marker(mid)
    for f in list(ctx.state.formations.values()):
        if any(k in f.status for k in PER_TURN_STATUS):
            fm = ctx.formation(f.id)
            for k in PER_TURN_STATUS:
                fm.status.pop(k, None)
    ctx.tick("turn")


def _htl_supply_vp(ctx: Ctx) -> None:
    """Holding the Line: VP for the SP delivered this turn (T13)."""
    if ctx.var("scenario") != "holding_the_line":
        return
    delivered = dict(ctx.var("delivered", {}) or {})
    total = int(delivered.get("base", 0)) + int(delivered.get("field", 0))
    look = ctx.lookup("T13", sp=total)
    side, amount = parse_award(str(look.value))
    if side:
        ops.vp(ctx, side, amount, f"{total} SP delivered this turn (T13)")
    else:
        ctx.explain(f"{total} SP delivered this turn: no VP (T13)")


def victory(ctx: Ctx) -> None:
    """End of the game (2.8): cities captured and held, then the ratio on T14 (G49)."""
    board = Board.of(ctx)
    for cid, c in board.cities().items():
        holder, owner = c.get("controller"), c.get("owner")
        if holder and owner and holder != owner:
            ops.vp(ctx, holder, 10, f"urban centre {c.get('name', cid)} captured and held")
    vp = {s: int(ctx.state.ledger(s, "vp")) for s in ("TOG", "CW")}
    ctx.set_var("outcome", outcome(ctx, vp))


def outcome(ctx: Any, vp: dict[str, int]) -> dict[str, Any]:
    high_side = max(vp, key=lambda s: (vp[s], s == "TOG"))
    low_side = other(high_side)
    high, low = vp[high_side], vp[low_side]
    ratio = outcome_ratio(high, low)
    out: dict[str, Any] = {"vp": vp}
    if ratio is None:
        if high > 0:
            out.update(
                result="Decisive Victory",
                winner=high_side,
                ratio="no lower score (G49)",
                levels={high_side: "Decisive Victory", low_side: "Decisive Defeat"},
            )
        else:
            out.update(result="Draw", winner=None, ratio="0 : 0", levels={"TOG": "Draw", "CW": "Draw"})
        return out
    hi = ctx.lookup("T14", ratio=ratio, player="high")
    lo = ctx.lookup("T14", ratio=ratio, player="low")
    level = str(hi.value)
    out.update(
        result=level,
        winner=None if level == "Draw" else high_side,
        ratio=f"{high}:{low} = {float(Fraction(ratio)):.2f}",
        levels={high_side: level, low_side: str(lo.value)},
    )
    return out
