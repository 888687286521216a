"""NO_COLOR: every check box, radio button and list mark shows its state by a character."""

from __future__ import annotations

from typing import Any

from campaign_tui.store.paths import Places
from tests.ui.helpers import keys, make_app, screen_text
from tests.ui.test_candidates import PickerApp
from tests.ui.test_wizard import open_wizard, press


async def test_pick_list_marks_read_without_colour(monkeypatch: Any) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = PickerApp(multi=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press(*keys("red"), "down", "space")   # mark u-1 only
        await pilot.pause()
        text = screen_text(app)
        assert "[x] u-1" in text and "[ ] u-3" in text


async def test_wizard_options_and_dice_read_without_colour(monkeypatch: Any,
                                                           home_places: Places) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(home_places, None)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await open_wizard(pilot, "prefect")
        await press(pilot, "enter")                         # first scenario -> options
        text = screen_text(app)
        assert "[ ] on" in text or "[x] on" in text
        await press(pilot, "ctrl+n")                        # -> name, seed and dice
        text = screen_text(app)
        assert "(*) The program rolls" in text and "( ) Physical dice" in text
