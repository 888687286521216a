"""Fixtures for the interface tests: demo campaigns with fixed seeds, frozen clocks and
an app factory with the cursor blink frozen."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from campaign_tui import campaigns
from campaign_tui.store.files import export_bundle
from campaign_tui.store.paths import Places
from campaign_tui.ui.app import CampaignApp
from tests.ui.helpers import make_app, ruleset_campaign

FIXED_NOW = "2025-03-01T12:00:00Z"


@pytest.fixture(autouse=True)
def _frozen_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Saved times (shown by the picker) and the local time zone are fixed."""
    import campaign_tui.core.engine
    import campaign_tui.core.info
    import campaign_tui.store.files
    import campaign_tui.store.recovery

    for mod in (campaign_tui.store.files, campaign_tui.store.recovery, campaign_tui.core.engine):
        monkeypatch.setattr(mod, "now_iso", lambda: FIXED_NOW)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("CAMPAIGN_TUI_THEME", raising=False)
    yield
    time.tzset()


@pytest.fixture
def manual_path(home_places: Places) -> Path:
    """A demo campaign played with physical dice typed in."""
    return campaigns.new_campaign(home_places, "demo", "skirmish", "Dice by hand", 42, "manual",
                                  {})


@pytest.fixture
def ffw_quick_path(home_places: Places) -> Path:
    """A new Fifth Frontier War campaign (seed 4, the program rolls) after its quick
    set-up: the Zhodani strike group stands at Clan, every fleet owes its plot."""
    return campaigns.new_campaign(home_places, "fifth_frontier_war", "campaign", "FFW", 4,
                                  "auto", {}, quick_setup=True)


@pytest.fixture
def rolling_path(home_places: Places, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A campaign of the rolling test rule set (tests/ui/rolling_ruleset.py): advancing
    rolls a storm, and its action "battle" fights a big battle in rounds."""
    from tests.ui.rolling_ruleset import plugin

    return ruleset_campaign(home_places, monkeypatch, plugin, "r", "Rolling")


@pytest.fixture
def app_factory(home_places: Places) -> Callable[..., CampaignApp]:
    def factory(path: Path | None = None, read_only: bool = False) -> CampaignApp:
        return make_app(home_places, path, read_only)

    return factory


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home_places: Places) -> Path:
    """One bundled example, whatever the saves/ folder holds today."""
    from campaign_tui.core.engine import Engine
    from tests.demo_ruleset import plugin

    folder = tmp_path / "examples"
    folder.mkdir()
    out = folder / "demo-skirmish.toml"
    export_bundle(Engine.create(plugin, "long", None, 5, "auto", "Demo example"), out)
    monkeypatch.setattr(campaigns, "bundled_examples", lambda: [out])
    return out
