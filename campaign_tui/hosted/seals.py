"""Sealed orders at a hosted table.

A step with secret input from several sides (plots, orders, a sealed condition: the
machine's ``hidden_input`` steps) waits until every side playing from a seat has sealed
its own: each enters its orders privately (the engine withholds their content from the
others), then seals; the step cannot advance while anyone is unsealed, and every seat
sees "waiting for: ..." without the content. A side that sealed acts no more in the step
until it unseals. Seals belong to the table, not to the campaign's log; they are kept in
a small file so that a restarted server still knows them.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from campaign_tui.store.atomic import atomic_write

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine


def step_key(engine: Engine) -> str:
    state = engine.state
    return json.dumps([state.step, state.clock], sort_keys=True)


class Seals:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.key = ""
        self.sealed: set[str] = set()
        self.seated: set[str] = set()   # sides that have had a seat at this table
        if path is not None:
            with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
                data = json.loads(path.read_text(encoding="utf-8"))
                self.key = str(data["key"])
                self.sealed = set(data["sealed"])
                self.seated = set(data["seated"])

    def _save(self) -> None:
        if self.path is None:
            return
        data = {"key": self.key, "sealed": sorted(self.sealed), "seated": sorted(self.seated)}
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps(data))

    def _current(self, engine: Engine) -> None:
        key = step_key(engine)
        if key != self.key:
            self.key = key
            self.sealed = set()
            self._save()

    def seat_joined(self, side: str) -> None:
        if side not in self.seated:
            self.seated.add(side)
            self._save()

    @staticmethod
    def involved(engine: Engine) -> list[str]:
        """The sides whose secret input the current step takes."""
        step = engine.step
        if not step.hidden_input or step.final:
            return []
        actor = engine.resolve_actor(engine.state, step.actor)
        sides = list(engine.state.sides)
        if actor in ("both", "all"):
            return sides
        return [actor] if actor in sides else []

    def waiting(self, engine: Engine) -> list[str]:
        """The sides (playing from a seat) that have not sealed this step's input yet."""
        self._current(engine)
        return [s for s in self.involved(engine) if s in self.seated and s not in self.sealed]

    def is_sealed(self, engine: Engine, side: str) -> bool:
        self._current(engine)
        return side in self.sealed

    def seal(self, engine: Engine, side: str, sealed: bool) -> None:
        self._current(engine)
        if sealed:
            self.sealed.add(side)
        else:
            self.sealed.discard(side)
        self._save()
