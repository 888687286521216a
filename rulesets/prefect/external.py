"""Space battles fought in Leviathan or Interceptor (Appendix A.1-A.2).

A player marks the next space combat of the current step as fought outside the program
(``fight_externally``). When that combat comes up, its totals and odds are still shown, but
no die is rolled: whoever acts enters which units and bases were destroyed and which were
disrupted (everything else is unharmed) and, where the combat can give one, the retreat or
breakthrough letter. Fatigue then follows the normal Prefect rule (the task forces fought),
and transports disrupted in such a battle pass the damage on to their cargo as A.2 says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State
from rulesets.prefect import ops
from rulesets.prefect.board import Board

if TYPE_CHECKING:
    from rulesets.prefect.space_combat import Force, Result

GAMES = ("Leviathan", "Interceptor")
LETTERS = ("none", "AR", "DR", "BT", "CA")


def pending(state: State) -> dict[str, Any] | None:
    """The mark for the current step, if a player set one."""
    mark = state.vars.get("external_space")
    if not isinstance(mark, dict):
        return None
    return mark if [mark.get("step"), mark.get("turn")] == [state.step, state.clock.get("turn")] else None


@action(
    "fight_externally",
    "Fight the next space combat in Leviathan or Interceptor",
    Param("game", "choice", choices=(*GAMES, "none"), help="none removes the mark"),
    Param("note", required=False, default="", help="where and how it is fought"),
    reference="Appendix A.1-A.2",
    key="x",
)
def fight_externally(ctx: Ctx, game: str, note: str = "") -> None:
    """Mark the next space combat of this step as fought in Leviathan (ships) or Interceptor
    (fighters). The program still shows its totals, then asks for the outcome of every unit
    instead of rolling."""
    if game == "none":
        if not pending(ctx.state):
            raise ActionRejected("no combat is marked to be fought outside the program")
        ctx.set_var("external_space", None)
        ctx.summary("the next space combat will be resolved here again")
        return
    ctx.set_var(
        "external_space",
        {"game": game, "note": note, "step": ctx.state.step, "turn": ctx.state.clock.get("turn")},
    )
    ctx.summary(f"the next space combat of this step will be fought in {game}; enter its outcome by hand")


def _pick(ctx: Ctx, key: str, prompt: str, pool: list[str], side: str | None) -> list[str]:
    if not pool:
        return []
    return list(
        ctx.decide(
            Decision(
                id=key,
                kind="multi",
                side=side,
                prompt=prompt,
                options=tuple(Option(x, ctx.state.unit(x).label) for x in pool),
                min=0,
                default=[],
            )
        )
    )


def resolve(ctx: Ctx, att: Force, dfn: Force, purpose: str, res: Result, letters: bool) -> bool:
    """Apply the hand-entered outcome if this combat was marked; False when it was not."""
    mark = pending(ctx.state)
    if mark is None:
        return False
    game = str(mark["game"])
    ctx.set_var("external_space", None)
    ctx.tags["external"] = game
    if mark.get("note"):
        ctx.explain(f"fought in {game}: {mark['note']}")
    pool = [*att.units, *att.bases, *att.free_bases, *dfn.units, *dfn.bases, *dfn.free_bases]
    destroyed = _pick(ctx, "ext_destroyed", f"{game}: which units and bases were destroyed?", pool, None)
    rest = [x for x in pool if x not in destroyed]
    disrupted = _pick(ctx, "ext_disrupted", f"{game}: which of the others were disrupted?", rest, None)
    letter = "none"
    if letters:
        letter = ctx.choose(
            "ext_letter",
            f"{game}: did either side retreat or break (as the attacker's result)?",
            [
                ("none", "no retreat"),
                ("AR", f"{att.side} retreats (AR)"),
                ("DR", f"{dfn.side} retreats (DR)"),
                ("BT", f"breakthrough by {att.side} (BT)"),
                ("CA", f"counterattack by {dfn.side} (CA)"),
            ],
            default="none",
        )
    board = Board.of(ctx)
    res.cell = f"{game}: {letter}"
    for uid in pool:
        res.outcomes[uid] = (
            "destroyed" if uid in destroyed else "disrupted" if uid in disrupted else "unharmed"
        )
    for uid in destroyed:
        ops.destroy_unit(ctx, uid, f"{game} result")
    for uid in disrupted:
        was_carrying = [c.id for c in ctx.state.units.values() if c.data.get("carried_by") == uid]
        ops.disrupt_unit(ctx, uid, f"{game} result")
        if board.kind(ctx.state.unit(uid)) == "transport":
            _cargo_of_disrupted_transport(ctx, uid, was_carrying)
    for uid in [*att.units, *dfn.units]:
        u = ctx.state.unit(uid)
        f = ctx.state.formations.get(u.formation or "")
        if f is not None and f.kind == "naval_tf":
            ctx.formation(f.id).status["fought"] = True
    if letter == "AR":
        res.retreat = att.side
    elif letter == "DR":
        res.retreat = dfn.side
    elif letter in ("BT", "CA"):
        res.btca = letter
        ops.credit_btca(ctx, letter, att.side, dfn.side)
        res.retreat = dfn.side if letter == "BT" else att.side
    if res.retreat:
        ctx.explain(f"{res.retreat}'s ships and fighters go back to their task-force boxes")
    return True


def _cargo_of_disrupted_transport(ctx: Ctx, uid: str, cargo: list[str]) -> None:
    """A.2: ground units aboard a disrupted squadron are disrupted; base parts are destroyed."""
    board = Board.of(ctx)
    t = ctx.state.unit(uid)
    for cid in cargo:
        c = ctx.state.unit(cid)
        if c.status.get("destroyed"):
            continue
        if board.kind(c) == "base":
            ctx.unit(cid).data.pop("carried_by", None)
            ops.destroy_unit(ctx, cid, f"aboard {t.label}, disrupted in the battle")
        elif board.kind(c) == "ground" and not c.status.get("disrupted"):
            ctx.unit(cid).status["disrupted"] = True
            ctx.explain(f"{c.label} aboard {t.label} disrupted")
    shared = [b for b in ctx.state.units.values() if uid in b.data.get("shared_with", [])]
    for base in [b for b in shared if board.kind(b) == "base"]:
        if not base.status.get("destroyed"):
            ops.destroy_unit(ctx, base.id, f"part of it aboard {t.label}, disrupted in the battle")
