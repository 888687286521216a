"""Advance until… (N): several steps at once, the CLI's loop, stopping at any decision or
roll (the resolve dialog then shows the roll, to preview or type), at a battle and at the
end; a notice says what was passed, and each step is its own log entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import ChoiceDialog, InputDialog
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import make_app, press, static_text


def notices(app: Any) -> str:
    return "\n".join(f"{n.title}: {n.message}" for n in app._notifications)


async def test_the_dialog_offers_the_targets(home_places: Places, demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "N")
        assert isinstance(app.screen, ChoiceDialog)
        assert [v for v, _ in app.screen.items] == ["due", "clock:turn:1", "clock:turn:?",
                                                    "step"]
        await press(pilot, "escape")
        assert app.session.engine.state.step == "setup"        # nothing done


async def test_a_die_met_while_advancing_is_held_in_the_dialog(
        home_places: Places, rolling_path: Path) -> None:
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = app.session.engine
        await press(pilot, "N", "enter")                       # until something is due
        assert isinstance(app.screen, ResolveDialog)           # stopped at the storm's die
        assert app.screen.decision is not None
        assert app.screen.decision.prompt == "Roll 1d6 for storm round 1"
        assert e.state.step == "calm" and len(e.entries()) == 1   # nothing applied yet
        assert "a roll or a question" in notices(app)
        await press(pilot, "6", "enter")                       # typed from the table
        await press(pilot, "ctrl+r")                           # the program rolls the rest
        assert "1d6 [6]" in static_text(app, "#resolve-review")
        await press(pilot, "enter")
        assert e.state.step == "storm"
        assert e.entries()[-1].rolls[0].manual and e.entries()[-1].rolls[0].dice == [6]


async def test_turns_counted_and_refusal_said(home_places: Places, demo_path: Path) -> None:
    """One turn: the loop passes the steps with nothing required and stops where the
    rules refuse to go on, with the reason; each step taken is logged alone."""
    app = make_app(home_places, demo_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = app.session.engine
        before = len(e.entries())
        await press(pilot, "N", "down", "enter")               # one turn
        assert e.state.clock["turn"] == 2 and e.state.step == "move"
        taken = e.entries()[before:]
        assert [x.kind for x in taken] == ["advance"] * len(taken) and len(taken) >= 3
        said = notices(app)
        assert f"Advanced {len(taken)} steps (1 turn)" in said and "turn moved 1 time" in said
        assert app.screen.advance_target == "clock:turn:1"       # offered first next time


async def test_several_turns_and_a_step(home_places: Places, demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = app.session.engine
        await press(pilot, "N", "down", "down", "enter")       # several turns…
        assert isinstance(app.screen, InputDialog)
        await press(pilot, "ctrl+u", "x", "enter")              # letters are refused
        assert e.state.clock["turn"] == 1
        await press(pilot, "N", "enter", "ctrl+u", "2", "enter")  # the last choice first
        assert e.state.clock["turn"] == 3
        await press(pilot, "N", "end", "enter")                 # until a step…
        assert isinstance(app.screen, ChoiceDialog)
        ids = [v for v, _ in app.screen.items]
        assert "end_turn" not in ids and "declare" in ids      # automatic steps not offered
        app.screen.query_one("#choice-list").highlighted = ids.index("declare")
        await press(pilot, "enter")
        assert e.state.step == "declare" and "reached Declare attacks" in notices(app)


async def test_a_refusal_at_once_changes_nothing(home_places: Places, demo_path: Path) -> None:
    path = campaigns.new_campaign(home_places, "demo", "skirmish", "Refused", 42, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = app.session.engine
        e.advance()
        e.perform("move", {"unit": "a-inf", "to": "hex:0303"})
        e.advance()
        e.perform("declare", {"attackers": ["a-inf", "a-tank"], "target": "b-inf"},
                  {"adj:b-inf": "yes"})
        e.advance()                                            # into the attacks
        n = len(e.entries())
        await press(pilot, "N", "enter")
        assert len(e.entries()) == n
        assert "Cannot advance" in notices(app) and "resolve the remaining attacks" in \
            notices(app)


async def test_second_sathar_war_stops_where_a_side_must_act(home_places: Places) -> None:
    """From the quick set-up to the first contested system: the loop stops at each day's
    forced Sathar move, then at the UPF ships that may leave, then at the possible battle."""
    path = campaigns.new_campaign(home_places, "second_sathar_war", "standard", "SSW", 4,
                                  "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = app.session.engine
        e.advance()
        e.perform("choose_retreat_condition", {"condition": 1})
        e.advance()
        e.perform("gm.quick_setup")
        for day in (1, 2, 3, 4):
            await press(pilot, "N", "enter")
            assert (e.state.step, e.state.clock["day"]) == ("SATHAR_MOVE", day)
            assert "Sathar must act" in notices(app)
            e.perform("move_all")
        await press(pilot, "N", "enter")
        assert e.state.step == "UPF_MOVE" and "may leave before the attacks" in notices(app)
        await press(pilot, "N", "enter")
        assert e.state.step == "SATHAR_DECLARE"
        assert "a battle: SATHAR may attack in" in notices(app)
