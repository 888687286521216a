"""Seats at a real rule set's secret step (PRESTAGS' simultaneous plots): a side's seat
fills side parameters with its own side alone, seals from the palette whatever screen is
on top, hears of seats arriving and leaving, and is not told of the one-screen privacy
screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from campaign_tui.hosted.seat_client import SeatApp
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.resolve import ResolveDialog
from campaign_tui.ui.widgets.choices import NONE, ChoiceList
from tests.hosted.helpers import ThreadTable
from tests.rulesets.prestags.helpers import deployed
from tests.secrets.cases import save_engine
from tests.ui.helpers import screen_text, static_text


@pytest.fixture
def prestags_table(home_places: Places, tmp_path: Path) -> Iterator[ThreadTable]:
    path = save_engine(deployed({"simultaneous": True}), tmp_path / "prestags")
    t = ThreadTable(home_places, path)
    try:
        yield t
    finally:
        t.stop()


def side_options(dialog: ResolveDialog) -> list[Any]:
    return [value for value, _label in dialog.query_one("#f-side", ChoiceList).options
            if value != NONE]


@pytest.mark.parametrize("side", ["A", "B"])
async def test_a_side_seat_plots_for_its_own_side(prestags_table: ThreadTable,
                                                  side: str) -> None:
    session = prestags_table.seat(f"player-{side}", side)
    assert session.engine.state.step == "PLOT"
    app = SeatApp(prestags_table.places, session, blink=False, theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        defn = session.engine.action_def("plot")
        app.main_screen.open_action("plot", defn.title, defn.params, defn.help)
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ResolveDialog)
        assert side_options(dialog) == [side]
        assert dialog.query_one("#f-side", ChoiceList).value == side
        orders = dialog.query_one("#f-orders")                  # the side is settled
        assert dialog.focused is orders or orders in dialog.focused.ancestors


async def test_sealing_from_the_palette_after_closing_the_form(prestags_table: ThreadTable
                                                               ) -> None:
    session = prestags_table.seat("player-A", "A")
    app = SeatApp(prestags_table.places, session, blink=False, theme="textual-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        defn = session.engine.action_def("plot")
        app.main_screen.open_action("plot", defn.title, defn.params, defn.help)
        await pilot.pause()
        app.screen.query_one("#f-orders").value = "a-bw-01 OF 0508"
        await pilot.press("ctrl+r")                 # roll: the review
        await pilot.pause()
        await pilot.press("ctrl+e")                 # apply
        await pilot.pause()
        app.main_screen.open_action("plot", defn.title, defn.params, defn.help)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Table: seal my")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause(0.5)
        assert session.wait_for(lambda: "A" in session.table.get("sealed", []))
        await pilot.pause(0.3)
        assert app.is_running
        assert "Your orders are sealed" in screen_text(app)


async def test_table_news_never_reach_a_main_screen_not_in_place(prestags_table: ThreadTable
                                                                 ) -> None:
    """What the table sends goes to the main screen in the stack; a main screen not (or no
    longer) composed is left alone rather than crashing the seat (NoMatches '#topbar')."""
    from campaign_tui.ui.screens.main import MainScreen

    session = prestags_table.seat("player-B", "B")
    app = SeatApp(prestags_table.places, session, blink=False, theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        live = app.main_screen
        stray = MainScreen()
        stray.update_topbar()                       # not composed: nothing to update
        app.main_screen = stray
        gm = prestags_table.seat("gm", None)
        gm.table_op("pause", flag=True)
        await pilot.pause(0.5)
        assert app.is_running
        app.main_screen = live
        app._table_news()
        await pilot.pause()
        assert "paused" in screen_text(app)


def test_seats_arriving_and_leaving_are_told_to_every_seat(prestags_table: ThreadTable
                                                           ) -> None:
    gm = prestags_table.seat("boss", None)
    a = prestags_table.seat("player-A", "A")
    b = prestags_table.seat("player-B", "B")
    a_name = gm.viewer_name("A")
    assert gm.wait_for(lambda: len(gm.table.get("present", [])) == 3)
    assert any(p.startswith("player-A") for p in gm.table["present"])
    assert "At the table: boss (GM)" in gm.status().prompt
    assert b.wait_for(lambda: a_name in b.table.get("waiting_names", []))
    assert "present" not in b.table and "At the table" not in b.status().prompt
    a.close()                                          # A leaves: nobody acts, all are told
    assert gm.wait_for(lambda: len(gm.table.get("present", [])) == 2)
    assert b.wait_for(lambda: a_name in b.table.get("away", []))
    assert f"{a_name} (not connected)" in b.status().prompt
    a = prestags_table.seat("player-A", "A")           # back again
    assert b.wait_for(lambda: a_name not in b.table.get("away", []))
    assert gm.wait_for(lambda: len(gm.table.get("present", [])) == 3)


async def test_a_seat_is_not_told_of_the_privacy_screen(prestags_table: ThreadTable) -> None:
    session = prestags_table.seat("player-B", "B")
    app = SeatApp(prestags_table.places, session, blink=False, theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = static_text(app, "#prompt-text")
        assert "Secret input" in text and "at its own seat" in text
        assert "F8 privacy" not in text
