"""Actions open at any time (concession, agreed end, panic check) and the victory judgement."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.prestags.common import SIDES, other, units_of

# rule modules: imported at the first call of one of their functions
panic = later("rulesets.prestags.panic")
victory = later("rulesets.prestags.victory")


def _concession_open(state: State) -> str | None:
    if not state.options.get("concession", True):
        return "the Tactical Concession rule is not in use"
    if state.vars.get("concession"):
        return "a concession has already been declared"
    return None


@action(
    "concede",
    "Tactical concession",
    Param("side", "side", help="the side that concedes"),
    available=_concession_open,
    key="c",
    reference="15.0",
)
def concede(ctx: Ctx, side: str) -> None:
    """Give the battle up and withdraw by road. The opponent is sure of at least a
    Substantive Victory, whatever happens next [15.0], [15.1]."""
    if ctx.by not in ("gm", side):
        raise ActionRejected(f"only {ctx.state.sides[side].name} (or the GM) may concede for them")
    ctx.side(side).data["conceded"] = True
    ctx.side(side).data["conceded_gt"] = ctx.clock.get("gt", 1)
    ctx.set_var("concession", {"side": side, "gt": ctx.clock.get("gt", 1), "complete": False})
    ctx.summary(
        f"{ctx.state.sides[side].name} concede; their units now leave the map by road "
        f"hexes; {ctx.state.sides[other(side)].name} have at least a Substantive Victory [15.1]"
    )


def _conceded(state: State) -> str | None:
    con = state.vars.get("concession")
    if not con:
        return "no concession has been declared"
    if con.get("complete"):
        return "the concession is already complete"
    return None


@action(
    "concession_done",
    "Concession complete",
    Param("note", required=False, default="", help="why the remaining units are immobile"),
    available=_conceded,
    reference="15.2",
)
def concession_done(ctx: Ctx, note: str) -> None:
    """The GM rules that every unit of the conceding side still on the map is immobile
    (G-26): the concession is complete and the game ends [15.2]."""
    con = dict(ctx.var("concession"))
    left = units_of(ctx.state, con["side"], ("active", "reserve"))
    con["complete"] = True
    con["immobile"] = [u.id for u in left]
    ctx.set_var("concession", con)
    if note:
        ctx.explain(note)
    ctx.goto("VICTORY_CHECK")
    ctx.summary(f"Concession complete; {len(left)} unit(s) ruled immobile [15.2]")


@action(
    "agree_end",
    "End the battle by agreement",
    Param("note", required=False, default=""),
    reference="15.2",
    help="Both players agree to stop the game now [15.2]; victory is judged on the position as it stands.",
)
def agree_end(ctx: Ctx, note: str) -> None:
    ctx.set_var("stop_agreed", {"gt": ctx.clock.get("gt", 1), "note": note})
    ctx.goto("VICTORY_CHECK")
    ctx.summary("The players agree to end the battle")


@action(
    "panic_check",
    "Check for panic",
    reference="13.1",
    available=lambda s: None if s.options.get("panic") else "the Panic rule is not in use",
    help="Run the panic check now (it runs by itself whenever victory points are scored; use "
    "this after correcting points by hand, or to ask whether an enemy unit stands next to Darius).",
)
def panic_check(ctx: Ctx) -> None:
    hit = panic.check(ctx, None)
    if not hit and not ctx.var("panic"):
        enemy_hexes = sorted({str(u.location)[4:] for u in units_of(ctx.state) if u.location})
        panic.darius_check(ctx, enemy_hexes, ask=True)  # Spartan [3.22]
        hit = (ctx.var("panic") or {}).get("side")
    if hit:
        ctx.summary(f"{ctx.state.sides[hit].name} panic [13.11]")
    else:
        state = ctx.var("panic")
        ctx.summary("No panic" + (f" (already happened to {state['side']})" if state else ""))


@action(
    "judge_victory",
    "Judge victory",
    Param(
        "verdict",
        "choice",
        choices=("", "A", "B", "draw"),
        required=False,
        default="",
        help="the GM's own verdict, if it differs from the rules' reading",
    ),
    key="j",
    reference="11.2",
)
def judge_victory(ctx: Ctx, verdict: str) -> None:
    """Work out each side's level of victory and scenario conditions; the GM answers what
    the program cannot see and confirms the verdict (G-22)."""
    out = victory.judge(ctx, verdict)
    for side in SIDES:
        ctx.explain(
            f"{ctx.state.sides[side].name}: {out['vp'][side]} VP (record {out['record'][side]}), "
            f"level {out['levels'][side]}"
        )
        for line in out["conditions"][side]:
            ctx.explain(f"  {line}")
    ctx.explain(f"verdict: {out['result']} ({out['rule']})")
    ctx.set_var("judgement", out)
    ctx.summary(f"Victory: {out['result']}")


def judged(state: State) -> str | None:
    return None if state.vars.get("judgement") else "judge the victory first (judge_victory)"


def finish(ctx: Ctx) -> None:
    """The end of the game: the outcome, and every plot made public [20.1]."""
    out = ctx.var("judgement")
    if not out:
        raise ActionRejected("no victory judgement")
    ctx.set_var("outcome", out)
    for side in SIDES:
        archive = ctx.state.secrets.get(side, {}).get("archive", {})
        for gt in sorted(archive, key=int):
            ctx.put_record("plots", f"{side}-{int(gt):02d}", {"side": side, "gt": int(gt), **archive[gt]})
    ctx.explain("the game is over; both sides' plots are now open to all [20.1]")
