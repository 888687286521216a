"""Fast key sequences never leave the screen blank (seen while placing counters one after
another): keys are pressed with no pause between them, and the screen is checked after
each one."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import ChoiceDialog
from tests.ui.helpers import keys, make_app, screen_text


async def test_typing_fast_through_dialogs_never_blanks_the_screen(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prestags", "chariot-rome", "Fast", 4, "auto", {})
    app = make_app(home_places, path)
    sequence = ["q", "f3", "down", "down", "f2", "1", *keys("a-sk-01"), "escape",
                "1", *keys("a-mi-01"), "escape", "f4", "f2", "ctrl+z", "y", "q"]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in sequence:
            await pilot.press(key)          # no pause: as fast as the keys come
            text = screen_text(app)
            assert text.strip(), f"blank screen after {key!r}"
        await pilot.pause()
        assert screen_text(app).strip()
        assert app.is_running


def _burst(app: Any, names: list[str]) -> None:
    """Keys as a terminal sends them when typed fast: all queued before the first is read."""
    for name in names:
        char = name if len(name) == 1 else {"enter": "\r", "space": " "}.get(name)
        app.post_message(events.Key(name, char))


async def _shown(app: Any, pilot: Any) -> str:
    """The screen once the keys are handled: some screen on top of the main one, drawn. A
    loaded machine may take a moment to draw (a terminal keeps the last frame meanwhile);
    a blank that stays (the screens popped, the program stopped) fails."""
    for _ in range(20):
        assert app.is_running, "the program stopped"
        names = [type(s).__name__ for s in app.screen_stack]
        assert len(names) >= 2, f"only {names} left: the screen is blank"
        text = screen_text(app)
        if text.strip():
            return text
        await pilot.pause(0.1)
    return ""


@pytest.mark.parametrize(("ruleset", "scenario"), [("prefect", "liberation"),
                                                   ("prestags", "chariot-rome")])
async def test_placing_units_with_keys_typed_fast_never_blanks(home_places: Places,
                                                                ruleset: str,
                                                                scenario: str) -> None:
    """On a set-up step: open the first action, pick with F2, type, and press enter several
    times before anything has been drawn (two enters used to close the pick list and then
    the screens below it, down to a blank terminal)."""
    path = campaigns.new_campaign(home_places, ruleset, scenario, "Fast", 4, "auto", {})
    app = make_app(home_places, path)
    batches = [
        ["1", "f2", "down", "enter", "enter", "enter", "enter"],
        ["escape", "escape", "1", "f2", "space", "enter", "enter", "ctrl+r", "enter", "enter"],
        ["escape", "3", "f2", "1", "0", "enter", "enter", "enter", "escape", "escape"],
        ["2", "enter", "enter", "enter", "enter", "escape", "escape", "escape"],
    ]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for batch in batches:
            await pilot.press(*batch)              # pressed with no pause between keys
            assert (await _shown(app, pilot)).strip(), f"blank screen after {batch}"
            _burst(app, batch)                     # and all queued at once
            assert (await _shown(app, pilot)).strip(), f"blank screen after {batch} at once"
        assert app.is_running


async def test_a_dialog_closed_twice_closes_once(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Twice", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        below = app.screen
        dialog = ChoiceDialog("Pick", [("a", "A")])
        app.push_screen(dialog)
        await pilot.pause()
        dialog.dismiss("a")
        dialog.dismiss("a")                        # a second enter, already queued
        await pilot.pause()
        assert app.screen is below and (await _shown(app, pilot)).strip()
