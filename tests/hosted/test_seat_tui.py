"""The seat's TUI (the whole interface) against an in-process table server: it shows its
seat's view, acts through the server, and repaints when another seat acts."""

from __future__ import annotations

import time
from typing import Any

import pytest
from textual.pilot import Pilot

from campaign_tui.hosted.seat_client import SeatApp
from campaign_tui.ui.screens.main import MainScreen
from tests.hosted.helpers import ThreadTable
from tests.ui.helpers import screen_text


def seat_app(table: ThreadTable, name: str, side: str | None) -> SeatApp:
    return SeatApp(table.places, table.seat(name, side), blink=False, theme="textual-dark")


async def settle(pilot: Pilot[Any], predicate: Any, seconds: float = 15.0) -> bool:
    """Wait until *predicate* holds (a loaded machine may take seconds to repaint)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
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


def command(app: SeatApp, title: str):
    found = [cb for t, _help, cb in app.table_commands() if t == title]
    assert found, f"no palette command {title!r}: {[t for t, _h, _c in app.table_commands()]}"
    return found[0]


async def test_the_gm_pauses_and_locks_from_the_palette(table: ThreadTable) -> None:
    gm_app = seat_app(table, "gm", None)
    alice = table.seat("alice", "A")
    async with gm_app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        command(gm_app, "Table: pause")()
        assert alice.wait_for(lambda: alice.table.get("paused") is True)
        assert "The GM has paused the table." in alice.status().prompt
        assert await settle(pilot, lambda: "Table: resume play" in
                            [t for t, _h, _c in gm_app.table_commands()])
        command(gm_app, "Table: lock seat alice")()
        assert alice.wait_for(lambda: alice.table.get("locked") == ["alice"])
        command(gm_app, "Table: who is connected")()
        await pilot.pause()
        assert any("alice (Army A)" in n.message for n in gm_app._notifications)
    side_app = seat_app(table, "bob", "B")
    async with side_app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        titles = [t for t, _h, _c in side_app.table_commands()]
        assert not any("pause" in t or "lock" in t for t in titles)   # the GM's only
        assert "The GM has paused the table." in screen_text(side_app)


async def test_a_side_seat_shows_only_what_it_can_use(table: ThreadTable) -> None:
    """No View as (F7), Privacy (F8) or GM menu (F9) at a side's seat: not in the footer,
    the panel bar or the palette, and the keys do nothing; the GM's seat keeps them."""
    side_app = seat_app(table, "bob", "B")
    async with side_app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        text = screen_text(side_app)
        assert "F6 History" in text
        for gone in ("View as", "F7", "F9 GM", "F8"):
            assert gone not in text
        screen = side_app.screen
        for action in ("view_as", "privacy", "gm_actions"):
            assert screen.check_action(action, ()) is False
        for key in ("f7", "f8", "f9"):
            await pilot.press(key)
            await pilot.pause()
            assert side_app.screen is screen          # no dialog, no privacy screen
    gm_app = seat_app(table, "gm", None)
    async with gm_app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        text = screen_text(gm_app)
        assert "View as" in text and "F9 GM" in text
        assert gm_app.screen.check_action("view_as", ()) is True


async def test_the_hidden_die_log_shows_what_came_while_hidden(table: ThreadTable) -> None:
    """At 80x24 the die log is a panel of its own; entries arriving while another panel
    is shown are there when it is shown (it is not redrawn while hidden)."""
    app = seat_app(table, "bob", "B")
    gm = table.seat("gm", None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f4", "a")                  # the log, every entry
        await pilot.pause()
        await pilot.press("f2")                       # back to the prompt: the log hidden
        await pilot.pause()
        gm.perform("gm.set_var", {"name": "weather", "value": "stormy"})
        assert await settle(pilot, lambda: "weather" in str(
            app.remote.engine.history.get(len(app.remote.engine.history)).summary))
        summary = app.remote.engine.history.get(len(app.remote.engine.history)).summary
        assert summary not in screen_text(app)
        await pilot.press("f4")
        assert await settle(pilot, lambda: summary[:30] in screen_text(app)), screen_text(app)


async def test_a_seat_whose_table_is_gone_shows_its_log_without_the_older_entries(
        table: ThreadTable, monkeypatch: pytest.MonkeyPatch) -> None:
    from campaign_tui.hosted import feed

    monkeypatch.setattr(feed, "TAIL", 1)
    gm = table.seat("gm", None)
    gm.advance()
    gm.perform("gm.set_var", {"name": "weather", "value": "stormy"})
    app = seat_app(table, "bob", "B")
    app.remote.link.close()                        # lost before the log is read
    monkeypatch.setattr(app.remote, "reconnect", lambda: False)   # and the table gone
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()                        # (a loaded machine: the screen first)
        assert await settle(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press("f4", "a")               # the log, every entry
        assert await settle(pilot, lambda: "not loaded" in screen_text(app)), screen_text(app)
        assert app.is_running
