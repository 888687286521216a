"""Fast key sequences never leave the screen blank (seen while placing counters one after
another): keys are pressed with no pause between them, and the screen is checked after
each one."""

from __future__ import annotations

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
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
