"""Start-up runs without the cyclic garbage collector (ui.launch pauses it), which is on
again, with what start-up made frozen, once the first screen is painted; a campaign closed
unfreezes it, so nothing of a closed campaign is kept."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_tui.store.paths import Places
from campaign_tui.ui.app import CampaignApp


@pytest.fixture
def paused() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    yield
    gc.unfreeze()
    if was:
        gc.enable()


def _app(places: Places, path: Path | None) -> CampaignApp:
    return CampaignApp(places, path, blink=False, theme="textual-dark", paused_gc=True)


async def test_the_collector_is_on_again_once_the_main_screen_is_painted(
        paused: None, home_places: Places, demo_path: Path) -> None:
    app = _app(home_places, demo_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.painted is not None
        assert gc.isenabled() and not app.paused_gc
        assert gc.get_freeze_count() > 0       # start-up's objects are not scanned again
        app.close_campaign()
        await pilot.pause()
        assert gc.get_freeze_count() == 0      # the closed campaign can be collected


async def test_the_collector_is_on_again_once_the_picker_is_painted(
        paused: None, home_places: Places) -> None:
    app = _app(home_places, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert gc.isenabled() and not app.paused_gc


async def test_an_app_not_started_by_launch_leaves_the_collector_alone(
        home_places: Places, demo_path: Path) -> None:
    app = CampaignApp(home_places, demo_path, blink=False, theme="textual-dark")
    gc.disable()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.painted is not None
            assert not gc.isenabled()
    finally:
        gc.enable()


def test_launch_gives_the_collector_back_as_it_found_it(
        monkeypatch: pytest.MonkeyPatch, home_places: Places) -> None:
    from campaign_tui import ui

    seen: list[bool] = []
    monkeypatch.setattr(CampaignApp, "run", lambda self: seen.append(gc.isenabled()))
    assert gc.isenabled()
    ui.launch(home_places, None)
    assert seen == [False] and gc.isenabled()
