"""Fixtures of the hosted-table tests: a demo campaign served by a real table server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_tui import campaigns
from campaign_tui.store.paths import Places, places
from tests.hosted.helpers import ThreadTable


@pytest.fixture
def home_places(campaign_home: Path) -> Places:
    return places(campaign_home).ensure()


@pytest.fixture
def demo_path(home_places: Places) -> Path:
    return campaigns.new_campaign(home_places, "demo", "skirmish", "Demo", 42, "auto", {})


@pytest.fixture
def table(home_places: Places, demo_path: Path) -> Iterator[ThreadTable]:
    t = ThreadTable(home_places, demo_path)
    try:
        yield t
    finally:
        t.stop()
