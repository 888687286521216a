"""The main screen's layouts and the dialogs at the three sizes a table uses: 80x24 (one
panel at a time, notices above the prompt's actions, a dialog's question pinned), 120x32 and
200x50 (the prompt beside the map, forces and dice under it: the space is used).

Snapshots (pytest-textual-snapshot): update after an intended change with
``pytest tests/ui/test_layouts.py --snapshot-update`` and look at the SVG files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.main import MainScreen
from campaign_tui.ui.screens.map import MapScreen
from campaign_tui.ui.screens.resolve import ResolveDialog
from campaign_tui.ui.widgets.mapview import MapView, SideMap
from tests.ui.helpers import make_app, screen_text
from tests.ui.test_snapshots import _played

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 32), id="120x32"),
         pytest.param((200, 50), id="200x50")]


def _rome(home: Places) -> Path:
    return campaigns.new_campaign(home, "prestags", "chariot-rome", "Rome", 4, "auto", {},
                                  quick_setup=True)


async def _press(pilot: Pilot[Any], *names: str) -> None:
    for name in names:
        await pilot.press(name)
        await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", [(120, 32), (200, 50)])
async def test_wide_screens_put_the_prompt_beside_the_map(home_places: Places,
                                                          size: tuple[int, int]) -> None:
    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=size) as pilot:
        await _press(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        prompt = screen.query_one("#panel-prompt").region
        side = screen.query_one("#panel-map").region
        oob = screen.query_one("#panel-oob").region
        log = screen.query_one("#panel-log").region
        assert prompt.width >= 45                      # not squeezed to 30 columns
        assert side.x >= prompt.right and side.y == prompt.y
        assert side.width >= size[0] // 2              # the map takes the other half
        assert oob.y >= side.bottom and log.y >= side.bottom and log.x >= oob.right
        assert oob.bottom + 1 >= size[1] - 2 and prompt.bottom + 1 >= size[1] - 2
        view = screen.query_one(SideMap).query_one(MapView)
        assert view.region.height >= 10
        # the map shows the seat's projection; what stands at the cursor is named below it
        place, items = next(iter(sorted(view.model.located.items())))
        view.go(place)
        await pilot.pause()
        assert items[0][1] in screen_text(app)


async def test_the_map_beside_the_prompt_follows_the_campaign(home_places: Places) -> None:
    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=(120, 32)) as pilot:
        await _press(pilot)
        screen = app.screen
        view = screen.query_one("#side-map-view", MapView)
        before = view.model
        view.focus()
        await _press(pilot, "right", "down")
        cursor = view.cursor
        assert screen.query_one("#panel-map > .panel-title").has_class("current-title")
        assert app.session is not None
        app.session.perform("gm.map_fact", {"place": cursor, "fact": "terrain",
                                            "value": "woods", "reason": "test"})
        screen.refresh_campaign()
        await _press(pilot)
        assert view.model is not before and view.cursor == cursor
        assert view.model.place_facts(cursor).get("terrain") == "woods"
        await _press(pilot, "enter")                  # Enter opens the map screen there
        assert isinstance(app.screen, MapScreen)
        assert app.screen.query_one(MapView).cursor == cursor


async def test_narrow_screen_has_no_map_panel(home_places: Places) -> None:
    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=(80, 24)) as pilot:
        await _press(pilot)
        assert not app.screen.query("#panel-map")           # never mounted at 80x24
        assert not app.screen.query(".panel-title")         # (nor the titles, never shown)
        await pilot.resize_terminal(120, 32)                # grown wide: both come
        await _press(pilot)
        assert app.screen.query_one("#panel-map").display
        assert app.screen.query_one(SideMap).query(MapView)
        assert len(app.screen.query(".panel-title")) == 4
        await pilot.resize_terminal(80, 24)
        await _press(pilot)
        assert not app.screen.query_one("#panel-map").display


@pytest.mark.parametrize("size", SIZES)
async def test_notices_never_cover_the_actions_or_before_advancing(
        home_places: Places, size: tuple[int, int]) -> None:
    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=size, notifications=True) as pilot:
        await _press(pilot)
        for n in range(3):
            app.notify(f"Notice {n}: " + "a long notice that wraps over several lines " * 3,
                       timeout=30)
            await _press(pilot)
        toasts = [t for t in app.screen.query("Toast") if t.display and t.parent.display]
        assert toasts and "Notice 2" in screen_text(app)          # the newest shows
        choices = app.screen.query_one("#prompt-choices").region
        foot = app.screen.query_one("#prompt-foot").region
        for toast in toasts:
            assert not toast.region.overlaps(choices)
            assert not toast.region.overlaps(foot)


async def test_a_dialog_keeps_its_question_and_first_roll_in_sight(home_places: Places,
                                                                  demo_path: Path) -> None:
    _played(demo_path)
    app = make_app(home_places, demo_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _press(pilot, "1", "enter")
        dialog = app.screen
        assert isinstance(dialog, ResolveDialog)
        question = dialog.query_one("#resolve-question")
        assert "Roll 1d6 for combat" in screen_text(app)
        await _press(pilot, "ctrl+r")
        text = screen_text(app)
        assert "Result: attack on B Infantry" in text and "roll 1 · combat: 1d6 [4]" in text
        body = dialog.query_one("#resolve-body")
        assert body.max_scroll_y > 0                       # the rest does not fit: it scrolls
        assert question.region.bottom <= body.region.y
        await _press(pilot, "pagedown")
        assert body.scroll_y > 0
        text = screen_text(app)
        assert "Result: attack on B Infantry" in text     # pinned while the rest scrolls
        assert "Changes:" in text
        await _press(pilot, "pageup")
        assert body.scroll_y == 0


@pytest.mark.parametrize("size", SIZES)
def test_main_screen_layout(snap_compare: Any, home_places: Places,
                            size: tuple[int, int]) -> None:
    assert snap_compare(make_app(home_places, _rome(home_places)), terminal_size=size,
                        run_before=_press)


@pytest.mark.parametrize("size", SIZES)
def test_dialog_layout(snap_compare: Any, home_places: Places, demo_path: Path,
                       size: tuple[int, int]) -> None:
    _played(demo_path)

    async def review(pilot: Pilot[Any]) -> None:
        await _press(pilot, "1", "enter", "ctrl+r")

    assert snap_compare(make_app(home_places, demo_path), terminal_size=size,
                        run_before=review)
