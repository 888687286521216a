"""The phase machine: a rule set's sequence of play, declared as data.

A :class:`Machine` is a set of :class:`Step`\\ s. Each step belongs to a phase, names who acts,
tells the GM what to do now (the prompt), lists the actions allowed and the rolls expected,
the requirements that must hold before leaving it, and its transitions (:class:`Go`) with
their conditions. Loops are transitions back; sub-machines (a combat used from several
phases) are entered with ``Go(call=entry, to=return_step)`` and left with ``Go("@return")``.
Clocks nest (game-turn > player-turn, month > week, day with every-10th-day events) and are
ticked by transition effects.

The runtime (:mod:`campaign_tui.core.engine`) holds the position, validates actions against
the current step and advances.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.records import record

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import State

Cond = Callable[["State"], bool]
Effect = Callable[["Ctx"], None]
Check = Callable[["State"], "str | None"]
PromptFn = Callable[["State"], str]

RETURN = "@return"
END = "@end"


@record(frozen=True)
class Require:
    """A condition that must hold before the step may be left.

    ``check(state)`` returns None when satisfied, else what is missing in plain words.
    """

    label: str
    check: Check


@record(frozen=True)
class Go:
    """A transition. The first one whose ``when`` holds is taken on advance."""

    to: str
    when: Cond | None = None
    label: str = ""
    effect: Effect | None = None
    call: str | None = None

    def applies(self, state: State) -> bool:
        return self.when is None or bool(self.when(state))


@record(frozen=True)
class Step:
    id: str
    title: str
    phase: str = ""
    actor: str = "gm"
    prompt: str | PromptFn = ""
    actions: tuple[str, ...] = ()
    rolls: tuple[str, ...] = ()
    requires: tuple[Require, ...] = ()
    next: tuple[Go, ...] = ()
    enter: Effect | None = None
    auto: bool = False
    final: bool = False
    reference: str = ""
    hidden_input: bool = False  # secret inputs per side (plots): privacy screen in the UI

    def prompt_text(self, state: State, context: dict[str, Any]) -> str:
        if callable(self.prompt):
            return self.prompt(state)
        try:
            return self.prompt.format(**context)
        except (KeyError, IndexError, ValueError):
            return self.prompt


@record(frozen=True)
class ClockLevel:
    """One level of the campaign clock: ``turn``, ``month``/``week``, ``day``..."""

    name: str
    label: str = ""
    start: int = 1
    maximum: int | None = None  # e.g. week 0..4; informative, ticks wrap with effects

    @property
    def title(self) -> str:
        return self.label or self.name.capitalize()


@record
class Machine:
    id: str
    title: str
    start: str
    steps: dict[str, Step]
    clock: tuple[ClockLevel, ...] = ()
    phases: dict[str, str] = field(default_factory=dict)
    anytime: tuple[str, ...] = ()
    subs: dict[str, str] = field(default_factory=dict)  # sub-machine name -> entry step
    format_clock: Callable[[dict[str, int]], str] | None = None
    description: str = ""

    @classmethod
    def build(cls, id: str, title: str, steps: list[Step], *, start: str | None = None,
              **kw: Any) -> Machine:
        table: dict[str, Step] = {}
        for step in steps:
            if step.id in table:
                raise InvalidInput(f"machine {id}: step {step.id} declared twice")
            table[step.id] = step
        phases = dict(kw.pop("phases", {}))
        for step in steps:
            if step.phase and step.phase not in phases:
                phases[step.phase] = step.phase
        machine = cls(id=id, title=title, start=start or steps[0].id, steps=table,
                      phases=phases, **kw)
        machine.validate()
        return machine

    def step(self, sid: str) -> Step:
        try:
            return self.steps[sid]
        except KeyError:
            raise InvalidInput(f"machine {self.id} has no step {sid!r}") from None

    def validate(self, action_kinds: set[str] | None = None) -> None:
        """Check that every target exists, every step can be reached, finals exist."""
        problems: list[str] = []
        if self.start not in self.steps:
            problems.append(f"start step {self.start!r} is not declared")
        for step in self.steps.values():
            if not step.next and not step.final:
                problems.append(f"step {step.id} has no transition and is not final")
            for go in step.next:
                for target in (go.to, go.call):
                    if target and target not in (RETURN, END) and target not in self.steps:
                        problems.append(f"step {step.id} goes to unknown step {target!r}")
            if action_kinds is not None:
                for kind in step.actions:
                    if kind not in action_kinds:
                        problems.append(f"step {step.id} allows unknown action {kind!r}")
        for name, entry in self.subs.items():
            if entry not in self.steps:
                problems.append(f"sub-machine {name} enters at unknown step {entry!r}")
        if action_kinds is not None:
            for kind in self.anytime:
                if kind not in action_kinds:
                    problems.append(f"anytime action {kind!r} is not declared")
        if not any(s.final for s in self.steps.values()):
            problems.append("no final step (the end of the game)")
        unreachable = set(self.steps) - self.reachable()
        if unreachable:
            problems.append(f"unreachable steps: {', '.join(sorted(unreachable))}")
        if problems:
            raise InvalidInput(f"machine {self.id}: " + "; ".join(problems))

    def reachable(self) -> set[str]:
        seen: set[str] = set()
        todo = [self.start, *self.subs.values()]
        while todo:
            sid = todo.pop()
            if sid in seen or sid not in self.steps:
                continue
            seen.add(sid)
            for go in self.steps[sid].next:
                for target in (go.to, go.call):
                    if target and target in self.steps:
                        todo.append(target)
        return seen

    def clock_text(self, clock: dict[str, int]) -> str:
        if self.format_clock:
            return self.format_clock(clock)
        parts = [f"{lvl.title} {clock[lvl.name]}" for lvl in self.clock if lvl.name in clock]
        return ", ".join(parts)

    def phase_title(self, phase: str) -> str:
        return self.phases.get(phase, phase)

    def outline(self) -> str:
        """The sequence of play as an indented outline (for ``campaign-tui phases``)."""
        lines = [f"{self.title} [{self.id}]"]
        if self.description:
            lines.append(f"  {self.description}")
        if self.clock:
            lines.append("  clock: " + " > ".join(
                f"{lvl.title} (from {lvl.start}"
                + (f" to {lvl.maximum})" if lvl.maximum is not None else ")")
                for lvl in self.clock))
        if self.anytime:
            lines.append("  at any time: " + ", ".join(self.anytime))
        by_phase: dict[str, list[Step]] = {}
        for step in self.steps.values():
            by_phase.setdefault(step.phase, []).append(step)
        for phase, steps in by_phase.items():
            lines.append(f"  {self.phase_title(phase) or '(no phase)'}")
            for step in steps:
                flags = []
                if step.auto:
                    flags.append("automatic")
                if step.final:
                    flags.append("end")
                if step.hidden_input:
                    flags.append("secret input")
                ref = f" ({step.reference})" if step.reference else ""
                lines.append(f"    {step.id}: {step.title}{ref} — {step.actor}"
                             + (f" [{', '.join(flags)}]" if flags else ""))
                if step.actions:
                    lines.append(f"      actions: {', '.join(step.actions)}")
                if step.rolls:
                    lines.append(f"      rolls: {'; '.join(step.rolls)}")
                for req in step.requires:
                    lines.append(f"      requires: {req.label}")
                for go in step.next:
                    target = go.to if not go.call else f"{go.call} (then {go.to})"
                    cond = f" [{go.label}]" if go.label else ""
                    lines.append(f"      -> {target}{cond}")
        if self.subs:
            lines.append("  sub-machines: " + ", ".join(f"{k} at {v}" for k, v in self.subs.items()))
        return "\n".join(lines)
