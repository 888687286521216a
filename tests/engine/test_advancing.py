"""The advance-until loop (core/advancing.py) shared by the CLI and the TUI, on the demo
rule set and the rolling one: targets, where it stops, what it leaves logged."""

from __future__ import annotations

import pytest

from campaign_tui.core.advancing import Target, advance_until, clock_target, due_here, step_target
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import InvalidInput
from tests.ui.rolling_ruleset import plugin as rolling


def test_targets_are_read_from_the_machine(demo_engine: Engine) -> None:
    assert step_target(demo_engine, "declare attacks") == Target("step", step="declare")
    assert clock_target(demo_engine, 2) == Target("clock", level="turn", count=2)
    with pytest.raises(InvalidInput, match="no such step; steps: setup"):
        step_target(demo_engine, "nowhere")
    with pytest.raises(InvalidInput, match="no days; it counts turn"):
        clock_target(demo_engine, 1, days=True)
    with pytest.raises(InvalidInput, match="at least 1"):
        clock_target(demo_engine, 0)


def test_a_step_and_turns_each_logged_alone(demo_engine: Engine) -> None:
    e = demo_engine
    done = advance_until(e, step_target(e, "declare"))
    assert e.state.step == "declare" and done.why == "reached"
    assert [o.entry.kind for o in done.outcomes] == ["advance", "advance"]
    assert len(e.entries()) == 1 + 2                          # the start and the two steps
    done = advance_until(e, Target("clock", level="turn", count=1))
    assert e.state.clock["turn"] == 2 and done.stop == "turn moved 1 time"


def test_a_refusal_stops_it_with_the_reason(demo_engine: Engine) -> None:
    e = demo_engine
    e.advance()
    e.perform("move", {"unit": "a-inf", "to": "hex:0404"})
    e.advance()
    e.perform("declare", {"attackers": ["a-inf", "a-tank"], "target": "b-inf"},
              {"adj:b-inf": "yes"})
    done = advance_until(e, Target("clock", level="turn", count=1))
    assert done.why == "refused" and len(done.outcomes) == 1
    assert "resolve the remaining attacks" in done.stop


def test_due_stops_where_the_step_has_something_to_do(demo_engine: Engine) -> None:
    """The default: a step whose own actions may be done now (the rule set may say
    otherwise); a required action missing is due too."""
    e = demo_engine
    done = advance_until(e, Target("due"))
    assert e.state.step == "move" and done.why == "due"
    assert "may be done now: " in done.stop
    assert due_here(e).startswith("may be done now")


def test_the_end_of_the_campaign_stops_it(demo_engine: Engine) -> None:
    done = advance_until(demo_engine, Target("clock", level="turn", count=50))
    assert done.why == "final" and demo_engine.step.final


def test_held_rolls_stop_before_the_die_and_change_nothing() -> None:
    e = Engine.create(rolling, "r", None, 1, "auto", "Rolling")
    done = advance_until(e, Target("due"), hold_rolls=True)
    assert done.why == "decision" and done.outcomes == [] and e.state.step == "calm"
    assert done.decision is not None and done.decision.decision.kind == "dice"
    done = advance_until(e, Target("due"))                    # not held: the program rolls,
    assert done.why == "final" and done.rolls == 3           # and nothing is due after it


def test_battles_stop_it_when_asked(demo_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    e = demo_engine
    monkeypatch.setattr(type(e.ruleset), "battle",
                        lambda self, s: "at b-inf" if s.step == "declare" else None)
    done = advance_until(e, Target("clock", level="turn", count=1), stop_at_battles=True)
    assert e.state.step == "declare" and done.stop == "a battle: at b-inf"
    done = advance_until(e, Target("clock", level="turn", count=1))   # the CLI's --turns
    assert done.why == "clock"
