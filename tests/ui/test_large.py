"""A large campaign stays responsive: the die log pages from the end, the order of battle
builds only what is opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign_tui.store.paths import Places
from campaign_tui.ui.widgets.dielog import PAGE, DieLog, DieLogModel, LogFilter
from campaign_tui.ui.widgets.oob import CHUNK, OobTree
from tests.ui.bigcampaign import make_big
from tests.ui.helpers import keys, make_app, screen_text

UNITS = 600
ENTRIES = 2500


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_big(tmp_path_factory.mktemp("big") / "big", UNITS, ENTRIES, per_formation=250)


def test_filter_syntax() -> None:
    f = LogFilter.parse("turn:3 p:combat side:A table:CRT saving roll")
    assert (f.turn, f.phase, f.side, f.table) == (3, "combat", "a", "crt")
    assert f.words == ["saving", "roll"] and f.active
    assert not LogFilter.parse("").active


def test_model_reads_only_pages(big: Path) -> None:
    from campaign_tui import campaigns

    opened = campaigns.open_path(big, read_only=True)
    engine = opened.engine
    total = len(engine.history)
    assert total >= ENTRIES
    model = DieLogModel(engine)
    model.fill(40)
    assert 40 <= len(model.rows) <= 2 * PAGE + 2
    assert model.more and model.lowest > total - 2 * PAGE
    before = len(model.rows)
    added = model.load_older()
    assert added > 0 and len(model.rows) == before + added
    assert [r.entry.seq for r in model.rows] == sorted(r.entry.seq for r in model.rows)
    model.set_filter("table:crt")
    model.fill(30)
    assert model.rows and all(r.roll is not None and r.roll.table == "crt" for r in model.rows)
    model.set_filter("turn:99")          # no such turn: the bookmarks say so, nothing is read
    assert model.fill(30) == 0 and not model.rows


async def test_app_stays_lazy(home_places: Places, big: Path) -> None:
    app = make_app(home_places, big, read_only=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        tree = app.screen.query_one(OobTree)
        assert len(tree.nodes) < 20                      # sides and brigades only
        await pilot.press("f3", "down", "down", "enter")  # open Brigade 1 (250 units)
        await pilot.pause()
        assert CHUNK <= len(tree.nodes) < CHUNK + 20     # one chunk, then "… more"
        more = next(n for k, n in tree.nodes.items() if k[0] == "more")
        tree.move_cursor(more)
        await pilot.press("enter")                        # "… 50 more": show the rest
        await pilot.pause()
        assert 250 <= len(tree.nodes) < 250 + 20
        # the filter finds a unit anywhere
        await pilot.press("slash", *keys("unit 417"))
        await pilot.pause()
        assert "B unit 417" in screen_text(app)
        # the die log holds a few pages, not the whole log
        await pilot.press("escape", "f4")
        await pilot.pause()
        log = app.screen.query_one(DieLog)
        assert 0 < len(log.model.rows) <= 2 * PAGE + 2 and log.model.more
        n = len(log.model.rows)
        await pilot.press("home", "home")
        await pilot.pause()
        assert len(log.model.rows) > n
        await pilot.press("ctrl+q")


async def test_keypress_is_fast(home_places: Places, big: Path) -> None:
    import time

    app = make_app(home_places, big, read_only=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        t0 = time.perf_counter()
        for _ in range(10):
            await pilot.press("down")
        await pilot.pause()
        per_key = (time.perf_counter() - t0) / 10
        assert per_key < 0.25, per_key
