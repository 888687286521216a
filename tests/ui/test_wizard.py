"""The New campaign wizard, walked back and forth from the keyboard."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.main import MainScreen
from campaign_tui.ui.screens.wizard import WizardScreen
from tests.ui.helpers import keys, make_app, press, screen_text, static_text


async def open_wizard(pilot: Pilot[Any], ruleset_id: str) -> WizardScreen:
    await pilot.pause()
    await press(pilot, "n")
    wizard = pilot.app.screen
    assert isinstance(wizard, WizardScreen)
    ids = [r[0] for r in wizard.rulesets]
    await press(pilot, *(["down"] * ids.index(ruleset_id)), "enter")
    return wizard


async def test_back_and_forth_between_scenario_and_options(home_places: Places) -> None:
    app = make_app(home_places, None)
    async with app.run_test(size=(100, 40)) as pilot:
        wizard = await open_wizard(pilot, "fifth_frontier_war")
        await press(pilot, "enter")                       # first scenario -> options
        assert wizard.step == "options"
        await press(pilot, "escape", "enter")             # back to Scenario, forward again
        assert wizard.step == "options"                   # no DuplicateIds, still running
        assert len(wizard.query("#opt-surprise_attack")) == 1
        await press(pilot, "escape", "down", "enter")     # another scenario: its presets
        assert wizard.step == "options"
        assert len(wizard.query("#opt-surprise_attack")) == 1
        await press(pilot, "escape", "escape", "up", "enter", "enter")  # another rule set
        assert wizard.step == "options"
        assert wizard.ruleset is not None and wizard.ruleset.id != "fifth_frontier_war"
        assert len(wizard.query("#opt-surprise_attack")) == 0
        assert app.is_running


async def test_options_survive_going_back_to_the_same_scenario(home_places: Places) -> None:
    app = make_app(home_places, None)
    async with app.run_test(size=(100, 40)) as pilot:
        wizard = await open_wizard(pilot, "demo")
        await press(pilot, "enter")
        before = wizard.option_values()
        field = wizard.query_one("#opt-turns")
        field.value = "7"  # type: ignore[attr-defined]
        await press(pilot, "escape", "enter")
        assert wizard.option_values()["turns"] == "7" != before["turns"]


async def test_empty_and_duplicate_names_are_refused(home_places: Places) -> None:
    campaigns.new_campaign(home_places, "demo", "skirmish", "Skirmish", 1, "auto", {})
    app = make_app(home_places, None)
    async with app.run_test(size=(100, 40)) as pilot:
        wizard = await open_wizard(pilot, "demo")
        await press(pilot, "enter", "ctrl+n")
        assert wizard.step == "start"
        name = wizard.query_one("#campaign-name")
        scenario_title = wizard.scenario.title  # type: ignore[union-attr]
        assert name.value == f"{scenario_title} 2"  # type: ignore[attr-defined]
        await press(pilot, "ctrl+a", "ctrl+k", "ctrl+n")    # an empty name
        assert app.screen is wizard
        assert "Give the campaign a name" in static_text(app, "#wizard-error")
        await press(pilot, *keys(scenario_title), "ctrl+n")  # a name already used
        assert app.screen is wizard
        error = static_text(app, "#wizard-error")
        assert "already have a campaign named" in error and scenario_title in error
        assert "already have" in screen_text(app)
        await press(pilot, *keys(" two"), "ctrl+n")
        assert isinstance(app.screen, MainScreen)
    names = sorted(s.name for s in campaigns.list_campaigns(home_places, False))
    assert names == sorted(["Skirmish", f"{scenario_title} two"])
