"""Test configuration shared by the whole suite.

* CAMPAIGN_TUI_STRICT=1: any action that changes state without going through the action
  context fails (so undo and the log can never miss a change).
* The demo rule set (tests/demo_ruleset) is registered alongside the installed ones.
* Every test gets its own campaign home, so nothing touches the user's folders.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["CAMPAIGN_TUI_STRICT"] = "1"
_demo = "demo=tests.demo_ruleset:plugin"
if _demo not in os.environ.get("CAMPAIGN_TUI_PLUGINS", ""):
    os.environ["CAMPAIGN_TUI_PLUGINS"] = ",".join(
        p for p in (os.environ.get("CAMPAIGN_TUI_PLUGINS", ""), _demo) if p)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def campaign_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("CAMPAIGN_TUI_HOME", str(home))
    return home


@pytest.fixture
def demo():
    from tests.demo_ruleset import plugin

    return plugin


@pytest.fixture
def demo_engine(demo):
    from campaign_tui.core.engine import Engine

    return Engine.create(demo, seed=42, name="Demo")


# Hypothesis: the suite runs on a 2-core machine, often beside other work; generation speed
# and per-example time say nothing about the properties, so neither fails a test here.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("campaign", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("campaign")


@pytest.fixture
def home_places(campaign_home: Path):  # -> Places (imported here, not at collection)
    from campaign_tui.store.paths import places

    return places(campaign_home).ensure()


@pytest.fixture
def demo_path(home_places) -> Path:
    """A fresh demo campaign (seed 42, the program rolls)."""
    from campaign_tui import campaigns

    return campaigns.new_campaign(home_places, "demo", "skirmish", "Demo", 42, "auto", {})
