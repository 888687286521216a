"""Helpers to express a rulebook digest's phase machine as a test.

Each machine is written from the digest's compact transition list: steps with their phase
and actor, transitions with their conditions over ``vars`` (set during the test through
the logged ``gm.set_var`` action, standing in for the rule set's own actions), clock ticks
as transition effects, and sub-machines entered with ``call``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.context import Ctx
from campaign_tui.core.engine import Engine
from campaign_tui.core.machine import Machine
from campaign_tui.core.model import State
from campaign_tui.core.ruleset import RuleSet
from campaign_tui.core.scenario import Scenario


def v(name: str, value: Any = True) -> Callable[[State], bool]:
    """Condition: vars[name] == value."""
    return lambda s: s.vars.get(name) == value


def tick(level: str) -> Callable[[Ctx], None]:
    return lambda ctx: ctx.tick(level)


class MachineOnly(RuleSet):
    """A rule set with one machine and two sides, for driving a machine in a test."""

    package = "tests.demo_ruleset"  # reuse the demo's (tiny) data files

    def __init__(self, machine: Machine, sides: tuple[str, str], roles: dict[str, str],
                 actions: dict[str, ActionDef] | None = None, **vars: Any) -> None:
        self.id = "machine_test"
        self.name = machine.title
        self.version = "test"
        self._machine = machine
        self._sides = sides
        self._roles = roles
        self._vars = vars
        self._actions = actions or {}

    def actions(self) -> dict[str, ActionDef]:
        return self._actions

    def machines(self) -> dict[str, Machine]:
        return {self._machine.id: self._machine}

    def scenarios(self) -> list[Scenario]:
        return [Scenario("s", "test", "", self._sides, "", self._machine.id)]

    def options(self) -> list:  # type: ignore[override]
        return []

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        b = self.builder(scenario, options)
        for sid in self._sides:
            b.side(sid, sid)
        b.var("roles", self._roles)
        for k, val in self._vars.items():
            b.var(k, val)
        return b.state


class Driver:
    """Advances a machine and records the steps visited."""

    def __init__(self, machine: Machine, sides: tuple[str, str] = ("A", "B"),
                 roles: dict[str, str] | None = None,
                 actions: dict[str, ActionDef] | None = None, **vars: Any) -> None:
        self.rs = MachineOnly(machine, sides, roles or {}, actions, **vars)
        self.engine = Engine.create(self.rs, seed=1)
        self.visited = [self.engine.state.step]

    @property
    def step(self) -> str:
        return self.engine.state.step

    @property
    def clock(self) -> dict[str, int]:
        return dict(self.engine.state.clock)

    def set(self, **values: Any) -> None:
        import json

        for k, val in values.items():
            self.engine.perform("gm.set_var", {"name": k, "value": json.dumps(val)})

    def next(self) -> str:
        self.engine.advance()
        self.visited.append(self.step)
        return self.step

    def until_final(self, limit: int = 200) -> list[str]:
        seen = []
        while not self.engine.step.final and len(seen) < limit:
            seen.append(self.next())
        return seen

    def run(self, steps: int) -> list[str]:
        return [self.next() for _ in range(steps)]

    def actor(self) -> str:
        st = self.engine.status()
        return st.actor
