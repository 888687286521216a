"""Advancing several steps at once: "advance until" a step, a number of turns or days, or the
next step where something is due. One loop, shared by the CLI (``advance --until/--turns/
--days``) and the TUI's "Advance until…".

The loop always stops at a decision (a question, or with ``hold_rolls`` the first die, so
the dice of an advance can be previewed and typed), when advancing is refused (something
required is missing), and at the end of the campaign. ``stop_at_battles`` also stops where
the rule set says a battle is to be fought (:meth:`RuleSet.battle`); the target ``due``
stops too where the rule set says a side has something to do (:meth:`RuleSet.due`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import AdvanceRefused, InvalidInput, NeedDecision

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine, Outcome

KINDS = ("one", "step", "clock", "due")


@dataclass(frozen=True)
class Target:
    """What to advance to: ``one`` step, a ``step`` (id), the ``clock`` level *level*
    moving *count* times, or the next step where something is ``due``."""

    kind: str = "one"
    step: str = ""
    level: str = ""
    count: int = 1

    def describe(self, engine: Engine) -> str:
        if self.kind == "step":
            return f"until {engine.machine.step(self.step).title}"
        if self.kind == "clock":
            label = next((c.title for c in engine.machine.clock if c.name == self.level),
                         self.level)
            return f"{self.count} {label.lower()}{'s' * (self.count > 1)}"
        if self.kind == "due":
            return "until something is due"
        return "one step"


@dataclass
class Advanced:
    """What an advance loop did: the steps taken, why it stopped, and the refusal or the
    decision it stopped at (nothing of that last try was changed)."""

    outcomes: list[Outcome] = field(default_factory=list)
    stop: str = ""
    why: str = ""  # refused, decision, final, reached, clock, battle, due, max_steps
    refused: AdvanceRefused | None = None
    decision: NeedDecision | None = None

    @property
    def rolls(self) -> int:
        return sum(len(o.entry.rolls) for o in self.outcomes)


def step_target(engine: Engine, wanted: str) -> Target:
    """The step named *wanted* (its id or title, any case)."""
    folded = wanted.casefold()
    for sid, step in engine.machine.steps.items():
        if folded in (sid.casefold(), str(step.title).casefold()):
            return Target("step", step=sid)
    raise InvalidInput("no such step; steps: " + ", ".join(engine.machine.steps))


def clock_target(engine: Engine, count: int, days: bool = False) -> Target:
    """*count* turns (the outermost clock level) or days."""
    if count < 1:
        raise InvalidInput("the number of turns or days must be at least 1")
    levels = [c.name for c in engine.machine.clock]
    level = "day" if days else (levels[0] if levels else None)
    if level not in levels:
        raise InvalidInput(f"this campaign's clock has no {'days' if days else 'turns'}; "
                           f"it counts {', '.join(levels) or 'nothing'}")
    return Target("clock", level=str(level), count=count)


def open_actions(engine: Engine) -> list[str]:
    """The titles of the current step's own actions (not the anytime ones, nor the GM's
    edits) that may be done now."""
    out = []
    for kind in engine.step.actions:
        defn = engine.action_def(kind)
        if kind.startswith("gm.") or defn.side == "gm":
            continue
        if defn.why_not(engine.state) is None:
            out.append(defn.title)
    return out


def due_here(engine: Engine) -> str:
    """Why advancing should stop at this step ('' when nothing is due): something required
    is missing, or the rule set says a side has something to do here."""
    missing = engine.missing()
    if missing:
        return f"{engine.actor_name(engine.resolve_actor(engine.state, engine.step.actor))} "\
               f"must act: {'; '.join(missing)}"
    return engine.ruleset.due(engine.state, open_actions(engine)) or ""


def advance_until(engine: Engine, target: Target, *, by: str = "gm",
                  answers: dict[str, Any] | None = None, max_steps: int = 10000,
                  hold_rolls: bool = False, stop_at_battles: bool = False,
                  perform: Callable[[dict[str, Any]], Outcome] | None = None) -> Advanced:
    """Advance toward *target*, one logged step at a time (each one undoable). *answers* go
    to the first step only. With *hold_rolls* a step that would roll a die is not taken:
    the loop stops with that die as its decision, so the dice can be previewed or typed.
    *perform* takes one step (default: the engine's advance; a screen passes its session's,
    which may be a hosted seat's)."""
    if perform is None:
        def perform(given: dict[str, Any]) -> Outcome:
            return engine.perform("advance", {}, given, by=by, hold_rolls=hold_rolls)
    done = Advanced()
    ticks, last = 0, dict(engine.state.clock)
    for n in range(1 if target.kind == "one" else max_steps):
        try:
            done.outcomes.append(perform(dict(answers or {}) if n == 0 else {}))
        except AdvanceRefused as exc:
            done.refused, done.why = exc, "refused"
            done.stop = str(exc)
            return done
        except NeedDecision as exc:
            done.decision, done.why = exc, "decision"
            done.stop = f"a decision is needed: {exc.decision.prompt}"
            return done
        if target.kind == "clock" and engine.state.clock.get(target.level) != last.get(
                target.level):
            ticks += 1
            last = dict(engine.state.clock)
        step = engine.step
        if step.final:
            done.why = "final"
            done.stop = f"the campaign is over: {engine.state.vars.get('outcome') or step.title}"
            return done
        if target.kind == "step" and step.id == target.step:
            done.why = "reached"
            done.stop = f"reached {step.title}"
            return done
        if target.kind == "clock" and ticks >= target.count:
            done.why = "clock"
            done.stop = f"{target.level} moved {ticks} time{'s' * (ticks > 1)}"
            return done
        battle = engine.ruleset.battle(engine.state) if (
            stop_at_battles or target.kind == "due") else None
        if battle:
            done.why = "battle"
            done.stop = f"a battle: {battle}"
            return done
        if target.kind == "due":
            why = due_here(engine)
            if why:
                done.why = "due"
                done.stop = f"{step.title}: {why}"
                return done
    if target.kind != "one":
        done.why = "max_steps"
        done.stop = f"stopped after {max_steps} steps (--max-steps)"
    return done
