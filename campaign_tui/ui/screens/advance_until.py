"""Advance until…: several steps at once from the main screen (key N, and the palette).

The GM chooses the target: the next step where something is due (a side's decision, a roll,
a battle), a number of days or turns, or a named step. The loop is the CLI's
(:mod:`campaign_tui.core.advancing`); it stops at any decision, at a battle and at the end of
the campaign. A die it meets stops it with the resolve dialog open on that step, so the roll
can be previewed, or typed from the table. Each step taken is logged (and undone) alone; a
notice says what was passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from campaign_tui.core.advancing import Advanced, Target, advance_until
from campaign_tui.ui.screens.dialogs import ChoiceDialog, InputDialog
from campaign_tui.ui.session import describe_error

if TYPE_CHECKING:
    from campaign_tui.ui.screens.main import MainScreen

DUE = "due"
SHOWN = 2  # steps named in the notice (a notice stays short)


def targets(engine: Any) -> list[tuple[str, Text]]:
    """The choices of the dialog: (id, label)."""
    items = [(DUE, Text("Until something is due: a side's decision, a roll, a battle"))]
    for level in engine.machine.clock:
        title = level.title.lower()
        items.append((f"clock:{level.name}:1", Text(f"One {title}")))
        items.append((f"clock:{level.name}:?", Text(f"Several {title}s…")))
    items.append(("step", Text("Until a step…")))
    return items


def open_dialog(screen: MainScreen) -> None:
    """Ask for the target, then advance."""
    session = screen.session
    if session.read_only:
        screen.notify("Read-only: nothing can be changed.", severity="warning")
        return
    engine = session.engine

    def chosen(choice: str | None) -> None:
        if choice is None:
            return
        screen.advance_target = choice
        if choice == DUE:
            run(screen, Target("due"))
        elif choice == "step":
            _ask_step(screen)
        else:
            _, level, count = choice.split(":")
            if count == "?":
                _ask_count(screen, level)
            else:
                run(screen, Target("clock", level=level, count=int(count)))

    screen.app.push_screen(ChoiceDialog(
        "Advance until…", targets(engine),
        "Stops at any decision or roll, at a battle and at the end of the campaign; each "
        "step taken is logged.", current=screen.advance_target), chosen)


def _ask_count(screen: MainScreen, level: str) -> None:
    engine = screen.session.engine
    title = next(c.title for c in engine.machine.clock if c.name == level).lower()

    def entered(value: str | None) -> None:
        if not value:
            return
        try:
            count = int(value)
        except ValueError:
            count = 0
        if count < 1:
            screen.notify(f"Give a whole number of {title}s, at least 1 (not {value!r}).",
                          severity="warning")
            return
        run(screen, Target("clock", level=level, count=count))

    screen.app.push_screen(InputDialog(f"How many {title}s?", value="2", type="integer"),
                           entered)


def _ask_step(screen: MainScreen) -> None:
    machine = screen.session.engine.machine
    here = screen.session.engine.step.id
    items: list[tuple[str, str | Text]] = [
        (sid, Text(step.title) + Text(f"  {step.id}", style="dim"))
        for sid, step in machine.steps.items() if not step.auto and sid != here]

    def chosen(sid: str | None) -> None:
        if sid is not None:
            run(screen, Target("step", step=sid))

    screen.app.push_screen(ChoiceDialog("Advance until the step", items), chosen)


def run(screen: MainScreen, target: Target) -> Advanced | None:
    """Advance toward *target*; at a die, open the resolve dialog on that step."""
    session = screen.session
    engine = session.engine
    try:
        done = advance_until(engine, target, by=session.viewer, hold_rolls=True,
                             stop_at_battles=True,
                             perform=lambda answers: session.perform(
                                 "advance", {}, answers, hold_rolls=True))
    except Exception as exc:  # a rule-set fault must not end the session
        screen.notify(describe_error(exc), severity="error", timeout=8)
        return None
    screen.refresh_campaign()
    _tell(screen, target, done)
    if done.decision is not None:
        screen.open_action("advance", "Advance", (), "Finish this step and go on.")
    return done


def _tell(screen: MainScreen, target: Target, done: Advanced) -> None:
    seat = screen.session.seat()
    steps = len(done.outcomes)
    passed = [e.summary for e in (seat.entry(o.entry) for o in done.outcomes) if e is not None]
    lines = []
    if passed:
        shown = passed[-SHOWN:]
        if len(passed) > SHOWN:
            shown.insert(0, f"… {len(passed) - SHOWN} more")
        lines += shown
    stop = seat.text(done.stop) if done.stop else ""
    if done.decision is not None:
        stop = "a roll or a question: the dialog shows it"
    lines.append(f"Stopped: {stop}" if stop else "Stopped.")
    rolls = f", {done.rolls} roll{'s' * (done.rolls != 1)}" if done.rolls else ""
    title = (f"Advanced {steps} step{'s' * (steps != 1)}{rolls} "
             f"({target.describe(screen.session.engine)})")
    refused = done.refused is not None and not steps
    screen.notify("\n".join(lines), title="Cannot advance" if refused else title,
                  severity="warning" if refused else "information", timeout=8)
