"""Snapshots of the map view (pytest-textual-snapshot) for each rule set at 80x24 and
120x32, on a new campaign after quick set-up where the scenario allows it.

Update after an intended change with ``pytest tests/ui/test_map_snapshots.py
--snapshot-update`` and look at the SVG files before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign_tui import campaigns
from campaign_tui.core.errors import ActionRejected
from campaign_tui.store.paths import Places
from tests.ui.helpers import make_app

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 32), id="120x32")]
RULESETS = ["fifth_frontier_war", "prestags", "prefect", "second_sathar_war",
            "star_cruiser_lite"]


def _campaign(home: Places, ruleset: str) -> Path:
    try:
        return campaigns.new_campaign(home, ruleset, None, "Map", 7, "auto", {},
                                      quick_setup=True)
    except ActionRejected:  # a scenario whose set-up needs a secret choice first
        return campaigns.new_campaign(home, ruleset, None, "Map", 7, "auto", {})


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("size", SIZES)
def test_map_view(snap_compare: Any, home_places: Places, ruleset: str,
                  size: tuple[int, int]) -> None:
    path = _campaign(home_places, ruleset)

    async def open_map(pilot: Any) -> None:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(make_app(home_places, path), terminal_size=size, run_before=open_map)
