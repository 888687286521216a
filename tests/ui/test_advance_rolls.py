"""Advancing with a roll (an automatic procedure: a storm of three rounds) goes through the
resolve dialog: totals and modifiers first, then the program's dice or the GM's, typed one
round at a time; nothing changes before Apply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import keys, make_app, screen_text, static_text


async def press(pilot: Pilot[Any], *names: str) -> None:
    for name in names:
        await pilot.press(name)
        await pilot.pause()


def engine(app: Any) -> Any:
    return app.session.engine


def held_prompt(app: Any) -> str:
    decision = app.screen.decision
    assert decision is not None and decision.kind == "dice"
    return str(decision.prompt)


async def _advance_held(pilot: Pilot[Any]) -> str:
    """n: the dialog opens held at the storm's first die; nothing has changed yet."""
    app = pilot.app
    await press(pilot, "n")
    assert isinstance(app.screen, ResolveDialog)
    text = screen_text(app)
    assert "Ready to roll" in text and "Roll 1d6 for storm round 1" in text
    assert "modifier +1 (heavy seas)" in text and "target 5" in text
    assert static_text(app, "#resolve-review") == ""             # no die seen
    assert engine(app).state.step == "calm"                      # nothing applied
    return text


async def test_advancing_shows_the_roll_before_applying(home_places: Places,
                                                       rolling_path: Path) -> None:
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await _advance_held(pilot)
        await press(pilot, "ctrl+r")                 # the program rolls every round
        review = static_text(app, "#resolve-review")
        assert "Result:" in review and review.count("storm round") == 3
        assert engine(app).state.step == "calm"      # a preview until Apply
        await press(pilot, "enter")
        assert not isinstance(app.screen, ResolveDialog)
        e = engine(app)
        assert e.state.step == "storm"
        entry = e.entries()[-1]
        assert [r.manual for r in entry.rolls] == [False, False, False]


async def test_typed_dice_are_used_round_by_round(home_places: Places,
                                                  rolling_path: Path) -> None:
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await _advance_held(pilot)
        await press(pilot, "6", "enter")             # the die rolled at the table
        await pilot.pause()                          # the next round is asked for too,
        assert held_prompt(app) == "Roll 1d6 for storm round 2"  # with the summary so far
        assert "sunk so far 1" in static_text(app, "#resolve-sofar")
        await press(pilot, "1", "enter")
        await pilot.pause()
        assert held_prompt(app) == "Roll 1d6 for storm round 3"
        await press(pilot, "ctrl+r")                 # the program rolls the last round
        review = static_text(app, "#resolve-review")
        assert "1d6 [6]" in review and "1d6 [1]" in review
        await press(pilot, "enter")
        e = engine(app)
        assert e.state.step == "storm"
        rolls = e.entries()[-1].rolls
        assert [r.dice for r in rolls[:2]] == [[6], [1]]
        assert [r.manual for r in rolls] == [True, True, False]
        assert e.state.vars["sunk"] == 1 + (rolls[2].natural + 1 >= 5)


async def test_a_handful_of_dice_typed_at_once(home_places: Places, rolling_path: Path) -> None:
    """Three dice thrown together answer the three rounds; one too many is said, not used."""
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await _advance_held(pilot)
        await press(pilot, *keys("6 1 2 3"), "enter")
        await pilot.pause()
        review = static_text(app, "#resolve-review")
        assert "1d6 [6]" in review and "1d6 [1]" in review and "1d6 [2]" in review
        assert "1 typed dice were not needed: 3" in static_text(app, "#resolve-error")
        await press(pilot, "enter")
        e = engine(app)
        rolls = e.entries()[-1].rolls
        assert [r.dice for r in rolls] == [[6], [1], [2]] and all(r.manual for r in rolls)
        assert e.state.vars["sunk"] == 1


async def test_round_by_round_with_the_programs_dice(home_places: Places,
                                                     rolling_path: Path) -> None:
    """^t: the program rolls one round and stops at the next, the summary so far shown;
    the GM may then type the next round's die."""
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await _advance_held(pilot)
        await press(pilot, "ctrl+t")
        await pilot.pause()
        assert held_prompt(app) == "Roll 1d6 for storm round 2"
        assert "round 1:" in static_text(app, "#resolve-sofar")
        await press(pilot, "ctrl+t")
        await pilot.pause()
        assert held_prompt(app) == "Roll 1d6 for storm round 3"
        await press(pilot, "5", "enter")               # the last round by hand
        await press(pilot, "enter")
        rolls = engine(app).entries()[-1].rolls
        assert [r.manual for r in rolls] == [False, False, True] and rolls[2].dice == [5]
