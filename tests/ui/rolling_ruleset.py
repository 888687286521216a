"""A test rule set (the demo's data) whose advance rolls: leaving the first step, a storm
batters the fleet for three rounds, one die a round (an automatic procedure made when the
GM advances), so the advance's roll preview and typed dice are exercised end to end."""

from __future__ import annotations

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.context import Ctx
from campaign_tui.core.machine import Go, Machine, Step
from campaign_tui.core.scenario import Scenario
from tests.demo_ruleset import Demo

ROUNDS = 3


def storm(ctx: Ctx) -> None:
    """Entering the storm: one d6 a round, +1 for the heavy seas; 5 or more sinks a ship."""
    sunk = 0
    for n in range(1, ROUNDS + 1):
        roll = ctx.roll("1d6", f"storm round {n}", modifiers=(("heavy seas", 1),), target=5)
        hit = roll.natural + 1 >= 5
        sunk += hit
        ctx.explain(f"round {n}: {roll.natural}+1 -> {'a ship sinks' if hit else 'no loss'} "
                    f"(sunk so far {sunk})")
    ctx.set_var("sunk", sunk)


MACHINE = Machine.build("rolling.m", "Rolling", [
    Step("calm", "Calm", phase="SEA", actor="gm", prompt="Advance into the storm.",
         next=(Go("storm"),)),
    Step("storm", "Storm", phase="SEA", actor="gm", prompt="The storm is over.", enter=storm,
         next=(Go("end"),)),
    Step("end", "End", phase="END", final=True),
])


class Rolling(Demo):
    id = "rolling"
    name = "Rolling"

    def machines(self) -> dict[str, Machine]:
        return {MACHINE.id: MACHINE}

    def actions(self) -> dict[str, ActionDef]:
        return {}

    def scenarios(self) -> list[Scenario]:
        return [Scenario("r", "Rolling", "A storm.", ("A", "B"), "1 step", MACHINE.id)]


plugin = Rolling()
