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
from campaign_tui.core.dice import DiceExpr, DiceStream, Roll, read_face
from campaign_tui.core.errors import InvalidInput, NeedDecision
from campaign_tui.core.records import record
from campaign_tui.core.rounds import heading
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

    def round(self, label: str) -> None: ...

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


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class FreeResolver:
    """A resolver outside any campaign: dice from a list or a seeded stream; nothing logged."""

    def __init__(self, tables: TableSet, options: dict[str, Any] | None = None,
                 dice: Sequence[int | str] | None = None, seed: int | None = None,
                 answers: dict[str, Any] | None = None, *, strict: bool = False) -> None:
        """*dice* are typed die values used in order. With *strict* (the command line),
        every roll and draw must take its dice from them (running out is an error naming
        the roll) and :meth:`check_all_used` refuses dice and answers left over; without
        it, the generator takes over when they run out."""
        import random

        self.tables = tables
        self.options = dict(options or {})
        self._fixed = list(dice or [])
        self._strict = strict and dice is not None
        self._stream = DiceStream(seed if seed is not None else random.randrange(1 << 62))
        self.answers = dict(answers or {})
        self.used_answers: set[str] = set()
        self.rolls: list[Roll] = []
        self.lines: list[str] = []
        self.lookups: list[Lookup] = []

    def _typed(self, count: int, what: str) -> list[int | str] | None:
        """The next *count* typed dice, or None when the generator is to roll."""
        if not self._fixed and not self._strict:
            return None
        if len(self._fixed) < count:
            raise InvalidInput(f"--dice ran out: {what} needs {plural(count, 'die value')}, "
                               f"{len(self._fixed)} left")
        taken, self._fixed = self._fixed[:count], self._fixed[count:]
        return taken

    def roll(self, expr: str, purpose: str, *, modifiers: Sequence[tuple[str, int]] = (),
             table: str | None = None, target: int | None = None, side: str | None = None,
             tags: dict[str, Any] | None = None) -> Roll:
        parsed = DiceExpr.parse(expr)
        n = len(self.rolls) + 1
        typed = self._typed(parsed.count, f"roll {n} ({parsed} for {purpose})")
        if typed is not None:
            dice = [read_face(parsed.sides, v) for v in typed]
        else:
            dice = self._stream.roll(parsed)
        r = Roll(n=n, expr=str(parsed), dice=dice, purpose=purpose,
                 constant=parsed.constant, modifiers=list(modifiers), table=table,
                 target=target, side=side, manual=typed is not None, tags=dict(tags or {}))
        self.rolls.append(r)
        return r

    def draw(self, pool: Sequence[Any], k: int = 1, purpose: str = "random draw",
             side: str | None = None) -> list[Any]:
        items = list(pool)
        if k > len(items):
            raise InvalidInput(f"{purpose}: cannot draw {k} from {len(items)}")
        chosen = []
        for _ in range(k):
            typed = self._typed(1, f"the draw for {purpose} (1..{len(items)})")
            if typed is None:
                index = self._stream.randint(0, len(items) - 1)
            else:
                index = self._draw_index(typed[0], len(items), purpose)
            chosen.append(items.pop(index))
        return chosen

    @staticmethod
    def _draw_index(raw: int | str, size: int, purpose: str) -> int:
        text = str(raw).strip()
        if not text.isdigit() or not 1 <= int(text) <= size:
            raise InvalidInput(f"{purpose}: draw {raw!r} is not in 1..{size}")
        return int(text) - 1

    def check_all_used(self) -> None:
        """Strict mode: refuse typed dice no roll took and answers no decision asked for."""
        if self._strict and self._fixed:
            rolled = sum(len(r.dice) for r in self.rolls)
            raise InvalidInput(f"--dice has {plural(len(self._fixed), 'value')} left over "
                               f"({', '.join(map(str, self._fixed))}); the calculation used "
                               f"{rolled}")
        unused = sorted(set(self.answers) - self.used_answers)
        if self._strict and unused:
            raise InvalidInput(f"nothing asked for {', '.join(unused)}")

    def lookup(self, table: str, shifts: dict[str, int] | None = None,
               **inputs: Any) -> Lookup:
        result = self.tables.get(table).lookup(shifts=shifts, **inputs)
        self.lookups.append(result)
        self.explain(f"{self.tables.get(table).title}: {result.summary}")
        return result

    def decide(self, decision: Decision,
               validate: Callable[[Any], str | None] | None = None) -> Any:
        key = decision.answer_key(self.answers)
        if key is not None:
            self.used_answers.add(key)
            value = decision.coerce(self.answers[key])
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

    def round(self, label: str) -> None:
        """A round starts: its heading opens its lines (the dice come as they are typed)."""
        self.explain(heading(str(label)))

    def result(self, roll: Roll, text: str, detail: Sequence[str] = ()) -> None:
        roll.result = text
        roll.detail.extend(detail)
