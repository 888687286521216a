"""Forms in the table's language: labels without type names, number fields that say no to
letters, every action reachable by key, a missing value named in words."""

from __future__ import annotations

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import ChoiceDialog
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import make_app, screen_text, static_text


async def test_actions_past_the_ninth_number_forms_and_missing_values(home_places: Places
                                                                      ) -> None:
    path = campaigns.new_campaign(home_places, "star_cruiser_lite", "demo", "SCL", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("0")                    # the actions past the ninth
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        text = screen_text(app)
        assert "Set Core output" in text and "Set a stockpile" in text
        await pilot.press("escape")
        await pilot.pause()
        # "schedule_reinforcement" (1): month is a whole number
        await pilot.press("1")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ResolveDialog)
        text = screen_text(app)
        assert "  int" not in text and "  str" not in text and "  side" not in text
        assert "Month" in text and "a whole number" in text
        month = dialog.query_one("#f-month")
        month.focus()
        app.clear_notifications()
        await pilot.press("x", "3")
        await pilot.pause()
        assert month.value == "3"  # type: ignore[attr-defined]
        assert any("'x' refused" in str(n.message) for n in app._notifications)
        await pilot.press("ctrl+r")               # nation, type... still empty
        await pilot.pause()
        error = static_text(app, "#resolve-error")
        assert error == "Schedule reinforcements: give the ship or troop type id."
        assert "action schedule_reinforcement" not in error
