"""A seat's TUI: the whole campaign-tui interface, in the seat's view, played at a hosted
table. Started by the door (``TableServer.seat_command``) in the seat's terminal:

    python -m campaign_tui.hosted.seat_client

with the table's socket, the seat's name, side and token in the environment.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import sys
import time
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import SystemCommand

from campaign_tui.core.errors import CampaignError
from campaign_tui.hosted.identity import GM, SeatInfo
from campaign_tui.hosted.link import Link, TableGone
from campaign_tui.hosted.remote_session import RemoteSession
from campaign_tui.hosted.table_server import SEAT_ENV, SIDE_ENV, SOCKET_ENV, TOKEN_ENV
from campaign_tui.store.paths import places as find_places
from campaign_tui.ui.app import CampaignApp

if TYPE_CHECKING:
    from textual.screen import Screen

    from campaign_tui.store.paths import Places

RECONNECT_EVERY = 1.0
WARM_UP_AFTER = 0.5      # seconds after the first paint
PAINT_LOG_ENV = "CAMPAIGN_TUI_PAINT_LOG"   # bench/hosted.py: when each update is on screen
STAMP_AT_THE_LATEST = 0.5    # seconds (an update whose refresh draws nothing)


class SeatApp(CampaignApp):
    """The campaign-tui TUI at one seat of a hosted table."""

    CSS_PATH: ClassVar = [Path(__file__).resolve().parent.parent / "ui" / "app.tcss"]

    def __init__(self, places: Places, session: RemoteSession, **kwargs: Any) -> None:
        super().__init__(places, None, **kwargs)
        self.remote = session
        self._retry: Any = None
        self._stamp_due = False     # (bench/hosted.py) stamped at the next screen update
        self._updates = 0           # (bench/hosted.py) updates waiting for a screen update

    def startup_done(self) -> None:
        super().startup_done()
        self.set_timer(WARM_UP_AFTER, self._warm_up)

    def _warm_up(self) -> None:
        """Once the screen is up and idle: import what the first undo, redo or confirmation
        shows (its dialogs), so the first action at a seat does not wait for it."""
        import campaign_tui.ui.screens.dialogs  # noqa: F401

    def show_picker(self) -> None:
        """A seat has one campaign: no picker (the base class's mount would show it)."""

    def on_mount(self) -> None:
        session = self.remote
        self.session = session  # type: ignore[assignment]
        loop = asyncio.get_running_loop()
        if session.link.threaded:   # (in the app's context: the reader thread has none)
            session.link.wakeup = partial(loop.call_soon_threadsafe, self._pump,
                                          context=contextvars.copy_context())
        else:      # this loop reads the table's messages itself: no thread to wake
            session.link.attach(loop, self._pump)
        session.listeners.append(self._committed)
        session.reloaded.append(self._reloaded)
        if os.environ.get(PAINT_LOG_ENV):
            self._paint_log = open(os.environ[PAINT_LOG_ENV], "a", encoding="utf-8",  # noqa: SIM115
                                   buffering=1)  # (one line at a time, closed at exit)
            session.listeners.append(lambda _outcome: self._stamp_when_shown())
            session.reloaded.append(self._stamp_when_shown)
        session.table_changed.append(self._table_news)
        session.ruled.append(self._ruled)
        self._asked: set[int] = set()       # questions the GM has been told of
        session.lost.append(self._lost)
        who = session.viewer_name(session.own_viewer)
        self.title = f"campaign-tui · {session.name} · {who}'s seat"
        self.show_main()
        session.pump()

    # -- what the table sends ----------------------------------------------------------------
    def _pump(self) -> None:
        if not self.remote.closed:
            self.remote.pump()

    def _live_main(self) -> Screen[Any] | None:
        """The main screen, when it is in the stack (under a form, a dialog or the palette
        alike): what the table sends is shown there, whatever screen is on top."""
        screen = self.main_screen
        if screen is None or screen not in self.screen_stack or not screen.is_mounted:
            return None
        return screen

    def _reloaded(self) -> None:
        screen = self._live_main()
        if screen is not None:
            screen.viewer_changed()  # type: ignore[attr-defined]

    # -- bench/hosted.py: when each update is on screen -----------------------------------
    def _stamp_when_shown(self) -> None:
        """Stamp the update once it is on screen: looked at once its handling is done (the
        event loop's next pass), stamped at once when nothing is left to draw (the screen
        shows nothing new), else when the screen's next update is written to the terminal
        (``_display``: Textual's after-refresh callback can come before it)."""
        asyncio.get_running_loop().call_soon(self._stamp_if_drawn)

    def _stamp_if_drawn(self) -> None:
        if self._nothing_to_draw():
            self._stamp()
            return
        self._updates += 1
        self._stamp_due = True
        # a refresh that turns out to change nothing writes nothing: stamped late, not never
        asyncio.get_running_loop().call_later(STAMP_AT_THE_LATEST, self._stamp_late,
                                              self._updates)

    def _stamp_late(self, update: int) -> None:
        if self._stamp_due and update == self._updates:   # (not the next update's stamp)
            self._stamp_due = False
            self._stamp()

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        super()._display(screen, renderable)
        if self._stamp_due and renderable is not None:
            self._stamp_due = False
            self._stamp()

    def _nothing_to_draw(self) -> bool:
        """Nothing waiting to run at the event loop (a message posted to any widget, or a
        refresh asked for, wakes a task there first) and no repaint, layout or callback
        pending at the screen. (Textual's and asyncio's own bookkeeping, read as cheaply
        as it can be: an instrument's view, not the app's.)"""
        if asyncio.get_running_loop()._ready:  # type: ignore[attr-defined]
            return False
        screen = self.screen
        return not any(getattr(screen, flag, False) for flag in (
            "_dirty_widgets", "_layout_required", "_repaint_required", "_scroll_required",
            "_recompose_required", "_callbacks", "_next_callbacks"))

    def _stamp(self) -> None:
        self._paint_log.write(f"{time.time():.6f} update {os.getpid()}\n")

    def _table_news(self) -> None:
        screen = self._live_main()
        if screen is not None:
            screen.refresh_campaign()  # type: ignore[attr-defined]
        for q in self.remote.table.get("questions", []):
            if q["id"] not in self._asked:
                self._asked.add(q["id"])
                self.notify(f"{q['text']}\nctrl+p, Table: answer {q['who']}'s question",
                            title="A question for the GM", timeout=10)

    # -- GM rulings ------------------------------------------------------------------------
    def answer_question(self, q: dict[str, Any]) -> None:
        """The GM answers a side's question: the question, what the side's action had
        worked out so far, then the answer (a choice, yes/no, or typed)."""
        from rich.text import Text

        from campaign_tui.hosted.wire import decision_from_wire
        from campaign_tui.ui.screens.dialogs import ChoiceDialog, InputDialog

        d = decision_from_wire(q["decision"])
        context = "\n".join([*d.info, *(["So far:"] if q["lines"] else []),
                              *(f"  {line}" for line in q["lines"])])
        title = f"{q['who']} asks: {d.prompt}"
        answer_kind = d.answer_kind if d.kind == "ruling" else d.kind

        def answered(value: str | None) -> None:
            if value is not None:
                self._rule(q, {d.id: value})

        if d.options or answer_kind == "bool":
            items = [(o.value, Text(o.label or o.value)) for o in d.options] or \
                [("yes", Text("Yes")), ("no", Text("No"))]
            self.push_screen(ChoiceDialog(title, items, context), answered)
        else:
            self.push_screen(InputDialog(title, context, placeholder=answer_kind), answered)

    def _rule(self, q: dict[str, Any], answers: dict[str, Any]) -> None:
        try:
            result = self.remote.rule(q["id"], answers)
        except CampaignError as exc:
            self.notify(str(exc), title="Ruling", severity="warning", timeout=8)
            return
        if result.get("question"):
            self.answer_question(result["question"])       # the next ruling it needs
        elif result.get("side_again"):
            self.notify(f"Ruled. {q['who']} finishes {q['title']} (a decision of its own).",
                        timeout=6)
        elif result.get("refused"):
            self.notify(f"Ruled: {q['title']} is refused ({result['refused']}).", timeout=8)
        else:
            self.notify(f"Ruled: {q['who']}'s {q['title']} is done.", timeout=5)

    def _ruled(self, message: dict[str, Any]) -> None:
        """The GM answered this side's question: its action is done (its form, if still
        open, closes), refused, or its own to finish (its form computes again)."""
        from campaign_tui.ui.screens.resolve import ResolveDialog

        form = self.screen if isinstance(self.screen, ResolveDialog) and \
            self.screen.kind == message.get("action") else None
        if message.get("done"):
            self.notify(f"The GM has ruled: your {message['title']} is done.", timeout=6)
            if form is not None:
                form.dismiss(None)
        elif message.get("refused"):
            self.notify(f"The GM has ruled: your {message['title']} is refused "
                        f"({message['refused']}).", severity="warning", timeout=8)
        else:
            self.notify(f"The GM has ruled on your {message['title']}: finish it now.",
                        timeout=6)
            if form is not None:
                form.action_roll()
        self._table_news()

    def _lost(self) -> None:
        self.notify("The connection to the table is lost; reconnecting...", severity="warning",
                    timeout=5)
        self._table_news()
        if self._retry is None:
            self._retry = self.set_interval(RECONNECT_EVERY, self._reconnect)

    def _reconnect(self) -> None:
        if self.remote.reconnect():
            if self._retry is not None:
                self._retry.stop()
                self._retry = None
            self.notify("Back at the table.", timeout=3)

    # -- what differs from one screen of one's own -------------------------------------------
    def save(self) -> bool:
        self.notify("The table saves every action as it is done.", timeout=3)
        return True

    def close_campaign(self, then: Any = None) -> None:
        self.remote.close()
        self.exit(0)

    def _table_command(self, op: str, **fields: Any) -> None:
        try:
            result = self.remote.table_op(op, **fields)
        except CampaignError as exc:
            self.notify(str(exc), severity="warning", timeout=5)
            return
        if op == "connected":
            rows = [f"{s['seat']} ({self.remote.viewer_name(s['side'] or GM)}) since "
                    f"{s['since']}{' · locked' if s['locked'] else ''}" for s in result["seats"]]
            self.notify("\n".join(rows) or "nobody", title="At the table", timeout=12)
        self._table_news()

    def _seal(self, flag: bool) -> None:
        try:
            self.remote.seal(flag)
        except CampaignError as exc:
            self.notify(str(exc), severity="warning", timeout=5)
            return
        self.notify("Your orders are sealed." if flag else "Your orders are unsealed.",
                    timeout=3)

    def table_commands(self) -> list[tuple[str, str, Any]]:
        session = self.remote
        out: list[tuple[str, str, Any]] = [
            ("Table: seal my orders", "Say your secret orders for this step are complete: "
             "the step waits until every side has sealed its own", partial(self._seal, True)),
            ("Table: unseal my orders", "Take your seal back to change your orders",
             partial(self._seal, False)),
        ]
        if session.own_viewer != GM:
            return out
        out += [(f"Table: answer {q['who']}'s question", f"{q['title']}: {q['prompt']}",
                 partial(self.answer_question, q)) for q in session.table.get("questions", [])]
        paused = bool(session.table.get("paused"))
        out += [
            ("Table: resume play" if paused else "Table: pause", "Only the GM acts while "
             "the table is paused", partial(self._table_command, "pause", flag=not paused)),
            ("Table: who is connected", "The seats at the table now",
             partial(self._table_command, "connected")),
        ]
        try:
            seats = session.table_op("connected")["seats"]
        except CampaignError:
            seats = []
        locked = set(session.table.get("locked", []))
        for name in sorted({s["seat"] for s in seats} | locked):
            flag = name not in locked
            out.append((f"Table: {'lock' if flag else 'unlock'} seat {name}",
                        "A locked seat watches but cannot act",
                        partial(self._table_command, "lock", seat=name, flag=flag)))
        return out

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, help_text, callback in self.table_commands():
            yield SystemCommand(title, help_text, callback)


def seat_from_env() -> tuple[str, SeatInfo, str]:
    try:
        socket_path, token, name = (os.environ[SOCKET_ENV], os.environ[TOKEN_ENV],
                                    os.environ[SEAT_ENV])
    except KeyError as exc:
        raise SystemExit(f"campaign-tui seat: {exc.args[0]} is not set; a seat is started "
                         "by `campaign-tui serve`, not by hand") from None
    return socket_path, SeatInfo(name, os.environ.get(SIDE_ENV) or None), token


def main() -> int:
    socket_path, seat, token = seat_from_env()
    link = Link(socket_path, seat, token)
    try:
        sync = link.connect(reader=False)   # the app's loop reads (attach)
    except TableGone as exc:
        print(f"campaign-tui: {exc}", file=sys.stderr)
        return 2
    places = find_places(None)
    app = SeatApp(places, RemoteSession(places, link, sync))
    return app.run() or 0


if __name__ == "__main__":
    sys.exit(main())
