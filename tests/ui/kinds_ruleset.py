"""A test rule set (the demo's data) whose actions use every parameter type and ask every
kind of decision, so the interface's generic forms are exercised end to end."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.machine import Go, Machine, Step
from campaign_tui.core.scenario import Scenario
from tests.demo_ruleset import Demo


@action("params", "Every parameter type",
        Param("n", "int", min=1, max=9), Param("x", "float"), Param("flag", "bool"),
        Param("colour", "choice", choices=("red", "blue")), Param("side", "side"),
        Param("groups", "formations"), Param("tags", "list"), Param("data", "json"),
        Param("note", required=False, default="none"))
def params(ctx: Ctx, n: int, x: float, flag: bool, colour: str, side: str, groups: list[str],
           tags: list[str], data: Any, note: str) -> None:
    ctx.set_var("params", {"n": n, "x": x, "flag": flag, "colour": colour, "side": side,
                           "groups": groups, "tags": tags, "data": data, "note": note})
    ctx.summary(f"params n={n} x={x} flag={flag} colour={colour} side={side}")


@action("ask", "Every kind of decision")
def ask(ctx: Ctx) -> None:
    opts = (Option("a", "Alpha", "first"), Option("b", "Bravo"), Option("c", "Charlie"))
    out: dict[str, Any] = {}
    out["choice"] = ctx.decide(Decision("k_choice", "choice", "Pick one", options=opts))
    out["multi"] = ctx.decide(Decision("k_multi", "multi", "Pick two", options=opts,
                                       min=2, max=2))
    out["number"] = ctx.decide(Decision("k_number", "number", "How many?", min=1, max=5))
    out["bool"] = ctx.decide(Decision("k_bool", "bool", "Really?"))
    out["text"] = ctx.decide(Decision("k_text", "text", "Say something"))
    out["allocate"] = ctx.decide(Decision("k_alloc", "allocate", "Share 3", options=opts[:2],
                                          total=3))
    out["order"] = ctx.decide(Decision("k_order", "order", "Order them", options=opts))
    out["ruling"] = ctx.ruling("k_ruling", "How far is it?", answer_kind="number")
    out["secret"] = ctx.decide(Decision("k_secret", "choice", "B's secret plan", side="B",
                                        options=opts[:2], secret=True))
    ctx.set_var("asked", out)
    ctx.summary("asked everything")


MACHINE = Machine.build("kinds.m", "Kinds", [
    Step("play", "Play", phase="PLAY", actor="gm", prompt="Try every form.",
         actions=("params", "ask"), next=(Go("end"),)),
    Step("end", "End", phase="END", final=True),
])


class Kinds(Demo):
    id = "kinds"
    name = "Kinds"

    def machines(self) -> dict[str, Machine]:
        return {MACHINE.id: MACHINE}

    def actions(self) -> dict[str, ActionDef]:
        return {a.kind: a for a in (params, ask)}

    def scenarios(self) -> list[Scenario]:
        return [Scenario("k", "Kinds", "Every form.", ("A", "B"), "1 step", MACHINE.id)]


plugin = Kinds()
