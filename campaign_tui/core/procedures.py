"""Procedures: the games' formulas as pure functions with an explanation.

A procedure takes plain inputs and a :class:`Resolver` (which rolls dice, looks up tables,
and records the explanation). The same function serves a phase-machine action (the
resolver is the action context, so rolls are logged), the resolve dialog, and
``campaign-tui calc`` (a free resolver with typed or seeded dice, logging nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from typing import Any, Protocol

from campaign_tui.core.actions import Param
from campaign_tui.core.decisions import Decision
from campaign_tui.core.dice import DiceExpr, DiceStream, Roll
from campaign_tui.core.errors import InvalidInput, NeedDecision
from campaign_tui.core.records import record
from campaign_tui.core.tables import Lookup, TableSet


class Resolver(Protocol):
    tables: TableSet
    options: dict[str, Any]

    def roll(self, expr: str, purpose: str, *, modifiers: Sequence[tuple[str, int]] = (),
             table: str | None = None, target: int | None = None, side: str | None = None,
             tags: dict[str, Any] | None = None) -> Roll: ...

    def draw(self, pool: Sequence[Any], k: int = 1, purpose: str = "random draw",
             side: str | None = None) -> list[Any]: ...

    def lookup(self, table: str, shifts: dict[str, int] | None = None,
               **inputs: Any) -> Lookup: ...

    def decide(self, decision: Decision,
               validate: Callable[[Any], str | None] | None = None) -> Any: ...

    def explain(self, line: str) -> None: ...

    def result(self, roll: Roll, text: str, detail: Sequence[str] = ()) -> None: ...


@record
class Calc:
    """A procedure's answer: its value, a one-line summary and the explanation."""

    value: Any
    summary: str = ""
    lines: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        value = self.value
        if not isinstance(value, (str, int, float, bool, list, dict, type(None))):
            value = str(value)
        return {"value": value, "summary": self.summary, "lines": self.lines}


@record(frozen=True)
class ProcedureDef:
    id: str
    title: str
    fn: Callable[..., Calc]
    params: tuple[Param, ...] = ()
    aliases: tuple[str, ...] = ()
    help: str = ""
    reference: str = ""


class FreeResolver:
    """A resolver outside any campaign: dice from a list or a seeded stream; nothing logged."""

    def __init__(self, tables: TableSet, options: dict[str, Any] | None = None,
                 dice: list[int] | None = None, seed: int | None = None,
                 answers: dict[str, Any] | None = None) -> None:
        import random

        self.tables = tables
        self.options = dict(options or {})
        self._fixed = list(dice or [])
        self._stream = DiceStream(seed if seed is not None else random.randrange(1 << 62))
        self.answers = dict(answers or {})
        self.rolls: list[Roll] = []
        self.lines: list[str] = []
        self.lookups: list[Lookup] = []

    def roll(self, expr: str, purpose: str, *, modifiers: Sequence[tuple[str, int]] = (),
             table: str | None = None, target: int | None = None, side: str | None = None,
             tags: dict[str, Any] | None = None) -> Roll:
        parsed = DiceExpr.parse(expr)
        if self._fixed:
            from campaign_tui.core.dice import read_face

            if len(self._fixed) < parsed.count:
                raise InvalidInput(f"{expr} for {purpose} needs {parsed.count} die values; "
                                   f"only {len(self._fixed)} left in --dice")
            dice = [read_face(parsed.sides, self._fixed.pop(0)) for _ in range(parsed.count)]
            manual = True
        else:
            dice = self._stream.roll(parsed)
            manual = False
        r = Roll(n=len(self.rolls) + 1, expr=str(parsed), dice=dice, purpose=purpose,
                 constant=parsed.constant, modifiers=list(modifiers), table=table,
                 target=target, side=side, manual=manual, tags=dict(tags or {}))
        self.rolls.append(r)
        return r

    def draw(self, pool: Sequence[Any], k: int = 1, purpose: str = "random draw",
             side: str | None = None) -> list[Any]:
        items = list(pool)
        if k > len(items):
            raise InvalidInput(f"{purpose}: cannot draw {k} from {len(items)}")
        chosen = []
        for _ in range(k):
            index = (self._fixed.pop(0) - 1) if self._fixed else self._stream.randint(
                0, len(items) - 1)
            if not 0 <= index < len(items):
                raise InvalidInput(f"{purpose}: draw {index + 1} is not in 1..{len(items)}")
            chosen.append(items.pop(index))
        return chosen

    def lookup(self, table: str, shifts: dict[str, int] | None = None,
               **inputs: Any) -> Lookup:
        result = self.tables.get(table).lookup(shifts=shifts, **inputs)
        self.lookups.append(result)
        self.explain(f"{self.tables.get(table).title}: {result.summary}")
        return result

    def decide(self, decision: Decision,
               validate: Callable[[Any], str | None] | None = None) -> Any:
        if decision.id in self.answers:
            value = decision.coerce(self.answers[decision.id])
        elif decision.default is not None:
            value = decision.default
        else:
            raise NeedDecision(decision, list(self.lines))
        if validate:
            problem = validate(value)
            if problem:
                raise InvalidInput(f"{decision.prompt}: {problem}")
        return value

    def explain(self, line: str) -> None:
        self.lines.append(line)

    def result(self, roll: Roll, text: str, detail: Sequence[str] = ()) -> None:
        roll.result = text
        roll.detail.extend(detail)
