"""A two-step rule set for the hosted table's tests: both sides write a secret plot at once
(the step takes hidden input, so the table waits until each side has sealed its own),
then the plots are done. Built on the demo rule set (its forces and data)."""

from __future__ import annotations

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.machine import ClockLevel, Go, Machine, Step
from campaign_tui.core.scenario import Scenario
from tests.demo_ruleset import Demo


@action("plot", "Write a secret plot", Param("text"), visibility="actor")
def plot(ctx: Ctx, text: str) -> None:
    """The side acting writes its own plot (no side to choose)."""
    side = ctx.by
    if side not in ctx.state.sides:
        raise ActionRejected("a side writes its own plot, from its own seat")
    ctx.set_secret(side, "plot", text)
    ctx.secret_to(side)
    ctx.summary(f"{side} plotted: {text}")


MACHINE = Machine.build(
    "plots.standard", "Secret plots", [
        Step("plot", "Secret plots", phase="PLOT", actor="both", hidden_input=True,
             prompt="Both sides: write your secret plot, then seal it.", actions=("plot",),
             next=(Go("done"),)),
        Step("done", "Plots written", phase="END", actor="gm", final=True),
    ],
    clock=(ClockLevel("turn", "Turn", 1),),
)


class Plots(Demo):
    id = "plots"
    name = "Secret plots (tests)"

    def machines(self) -> dict[str, Machine]:
        return {MACHINE.id: MACHINE}

    def actions(self) -> dict[str, ActionDef]:
        return {"plot": plot}

    def scenarios(self) -> list[Scenario]:
        return [Scenario("plots", "Plots", "Both sides plot in secret.", ("A", "B"), "1 turn",
                         MACHINE.id)]


plugin = Plots()
