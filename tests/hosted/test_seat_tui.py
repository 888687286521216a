"""The seat's TUI (the whole interface) against an in-process table server: it shows its
seat's view, acts through the server, and repaints when another seat acts."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from campaign_tui.hosted.seat_client import SeatApp
from campaign_tui.ui.screens.main import MainScreen
from tests.hosted.helpers import ThreadTable
from tests.ui.helpers import screen_text


def seat_app(table: ThreadTable, name: str, side: str | None) -> SeatApp:
    return SeatApp(table.places, table.seat(name, side), blink=False, theme="textual-dark")


async def settle(pilot: Pilot[Any], predicate: Any, rounds: int = 100) -> bool:
    for _ in range(rounds):
        if predicate():
            return True
        await pilot.pause(0.02)
    return predicate()


async def test_a_seat_repaints_when_another_seat_acts(table: ThreadTable) -> None:
    app = seat_app(table, "bob", "B")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert "as Army B" in screen_text(app)
        assert "Set up" in screen_text(app)
        gm = table.seat("gm", None)
        gm.advance()                               # another seat acts: B's screen follows
        assert await settle(pilot, lambda: "Army A: move your units" in screen_text(app))
        a = table.seat("alice", "A")
        a.perform("move", {"unit": "a-inf", "to": "hex:0201"})
        assert await settle(pilot, lambda: app.remote.engine.state.units["a-inf"].location
                            == "hex:0201")
        a.advance()
        assert await settle(pilot, lambda: "Army A: declare attacks" in screen_text(app))
        assert "for Army A to do now" in screen_text(app)   # not B's step


async def test_a_seat_acts_from_the_keyboard(table: ThreadTable) -> None:
    gm = table.seat("gm", None)
    gm.advance()
    app = seat_app(table, "alice", "A")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "Army A: move your units" in screen_text(app)
        await pilot.press("n")                     # advance: done moving
        assert await settle(pilot, lambda: "declare attacks" in screen_text(app))
        assert gm.wait_for(lambda: gm.engine.state.step == "declare")


async def test_a_side_seat_is_refused_the_gm_step(table: ThreadTable) -> None:
    app = seat_app(table, "bob", "B")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")                     # the GM's set-up: not B's to end
        await pilot.pause()
        assert table.run(lambda: table.server.engine.state.step) == "setup"
        assert app.remote.engine.state.step == "setup"
