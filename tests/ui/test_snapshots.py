"""Snapshot tests (pytest-textual-snapshot) of the picker, the main screen, the resolve
dialog and the help screen, at 80x24 and 120x40. The cursor blink is frozen, the clock
and time zone are fixed, and the demo rule set plays with seed 42.

Update after an intended change with ``pytest tests/ui/test_snapshots.py --snapshot-update``
and look at the SVG files before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from tests.ui.helpers import make_app

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def _played(path: Path) -> Path:
    """The demo campaign at its combat: A attacks B Infantry (seed 42), nothing resolved."""
    opened = campaigns.open_path(path)
    e = opened.engine
    e.perform("advance")
    e.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    e.perform("advance")
    e.perform("declare", {"attackers": ["a-inf", "a-tank"], "target": "b-inf"},
              {"adj:b-inf": True})
    e.perform("advance")
    campaigns.save(opened)
    campaigns.close(opened)
    return path


def _resolved(path: Path) -> Path:
    _played(path)
    opened = campaigns.open_path(path)
    opened.engine.perform("resolve", {}, {"shift": "0"})
    campaigns.save(opened)
    campaigns.close(opened)
    return path


@pytest.mark.parametrize("size", SIZES)
def test_picker(snap_compare: Any, home_places: Places, demo_path: Path, example: Path,
                size: tuple[int, int]) -> None:
    campaigns.new_campaign(home_places, "demo", "long", "Long game", 3, "manual", {})
    assert snap_compare(make_app(home_places, None), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_main_screen(snap_compare: Any, home_places: Places, demo_path: Path,
                     size: tuple[int, int]) -> None:
    _resolved(demo_path)

    async def open_formations(pilot: Pilot[Any]) -> None:
        for key in ("f3", "down", "enter", "down", "down", "down", "down", "enter", "f2"):
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause()

    assert snap_compare(make_app(home_places, demo_path), terminal_size=size,
                        run_before=open_formations)


@pytest.mark.parametrize("size", SIZES)
def test_resolve_dialog(snap_compare: Any, home_places: Places, demo_path: Path,
                        size: tuple[int, int]) -> None:
    _played(demo_path)

    async def open_dialog(pilot: Pilot[Any]) -> None:
        # a pause after each key: on a loaded machine a key sent while the dialog is
        # still being mounted would reach the screen below
        for key in ("1", "enter"):
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause()

    assert snap_compare(make_app(home_places, demo_path), terminal_size=size,
                        run_before=open_dialog)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Any, home_places: Places, demo_path: Path,
              size: tuple[int, int]) -> None:
    assert snap_compare(make_app(home_places, demo_path), terminal_size=size, press=["f1"])
