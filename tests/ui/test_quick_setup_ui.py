"""Quick set-up from the keyboard: one key, offered on the prompt, undone by one undo."""

from __future__ import annotations

from typing import Any

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import ConfirmDialog
from tests.ui.helpers import make_app, screen_text


async def test_q_sets_up_and_one_undo_removes_it(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prestags", "chariot-rome", "Rome", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert "q: quick set-up" in screen_text(app)
        await pilot.press("q")
        await pilot.pause()
        engine: Any = app.session.engine  # type: ignore[union-attr]
        assert engine.state.clock.get("gt") == 1 and engine.state.step != "SETUP"
        assert all(u.location for u in engine.state.units.values())
        assert "q: quick set-up" not in screen_text(app)
        app.clear_notifications()
        await pilot.press("q")                      # not offered twice: says why
        await pilot.pause()
        assert any("deployment is over" in str(n.message) for n in app._notifications)
        await pilot.press("ctrl+z")
        await pilot.pause()
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
            await pilot.pause()
        assert engine.state.step == "SETUP"
        assert not any(u.location for u in engine.state.units.values())
