"""A test rule set (the demo's data) whose advance rolls: leaving the first step, a storm
batters the fleet for three rounds, one die a round (an automatic procedure made when the
GM advances), so the advance's roll preview and typed dice are exercised end to end.

Its action "battle" is an automatic battle of two big fleets fought in marked rounds (one
d6 a ship a round, hits on 5+), a few hundred dice in all: the resolve dialog's round by
round play and the engine's ``round:N`` answers are tested on it."""

from __future__ import annotations

from campaign_tui.core.actions import ActionDef, Param, action
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


@action("battle", "Fight a fleet battle", Param("ships", "int", min=1, max=200, default=60),
        help="Two fleets of SHIPS fire at once, one d6 a ship a round (5 or 6 hits) until one "
        "is gone.")
def battle(ctx: Ctx, ships: int = 60) -> None:
    fleets = {"A": ships, "B": ships}
    n = 0
    while fleets["A"] and fleets["B"]:
        n += 1
        ctx.round(f"Round {n}: {fleets['A']} ships of A against {fleets['B']} of B")
        hits = {}
        for side in ("A", "B"):
            rolls = [ctx.roll("1d6", f"ship {i + 1} of {side} fires", target=5, side=side)
                     for i in range(fleets[side])]
            hits[side] = sum(r.natural >= 5 for r in rolls)
            ctx.explain(f"{side} fires {len(rolls)} dice: {hits[side]} hits")
        fleets["A"], fleets["B"] = max(0, fleets["A"] - hits["B"]), max(0, fleets["B"] - hits["A"])
        ctx.explain(f"losses so far: A {ships - fleets['A']}, B {ships - fleets['B']}")
    ctx.set_var("fleets", fleets)
    ctx.summary(f"after {n} rounds: A {fleets['A']} ships left, B {fleets['B']}")


MACHINE = Machine.build("rolling.m", "Rolling", [
    Step("calm", "Calm", phase="SEA", actor="gm", prompt="Advance into the storm.",
         actions=("battle",), next=(Go("storm"),)),
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
        return {battle.kind: battle}

    def scenarios(self) -> list[Scenario]:
        return [Scenario("r", "Rolling", "A storm.", ("A", "B"), "1 step", MACHINE.id)]


plugin = Rolling()
