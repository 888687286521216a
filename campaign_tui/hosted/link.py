"""A seat's connection to the table server: a unix socket whose incoming lines are queued
either by a reader thread (tools and tests without an event loop) or, in the seat's TUI,
by its event loop (``attach``: no thread to wake, no lock to pass at every update).
Requests wait for their reply (the server is local and answers at once); what arrives
meanwhile (updates, table news) is handed to *handle* in order, on the caller's thread,
so the replica is only ever touched by one thread."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import socket
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from campaign_tui.core.errors import CampaignError
from campaign_tui.hosted import protocol as P
from campaign_tui.hosted.identity import SeatInfo
from campaign_tui.hosted.lines import TOO_LONG, LineBuffer

CLOSED = {"t": "_closed"}
REPLY_TIMEOUT = 60.0
SYNC_TIMEOUT = 120.0
RECV_SIZE = 1 << 16   # what one read takes (a longer message is read in several)


class TableGone(CampaignError):
    """The connection to the table server is lost."""


class Link:
    def __init__(self, socket_path: Path | str, seat: SeatInfo, token: str) -> None:
        self.socket_path = str(socket_path)
        self.seat = seat
        self.token = token
        self.sock: socket.socket | None = None
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.ids = itertools.count(1)
        self.wakeup: Callable[[], None] | None = None
        self.closed = True
        self.threaded = False          # a reader thread queues the lines
        self.loop: asyncio.AbstractEventLoop | None = None   # or this loop does (attach)
        self._pump_now: Callable[[], None] | None = None     # (its handler, see attach)
        self._lines = LineBuffer(P.MAX_PUSH)

    def connect(self, timeout: float = 10.0, reader: bool = True) -> dict[str, Any]:
        """Connect and say hello; returns the sync (raises TableGone when refused). What
        comes after it is read by the loop this link is attached to, else by a reader
        thread (without *reader*: by none until ``attach``)."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(self.socket_path)
            sock.sendall(P.encode({"t": "hello", "v": P.VERSION, "seat": self.seat.name,
                                   "side": self.seat.side, "token": self.token}))
            sock.settimeout(None)
        except OSError as exc:
            sock.close()
            raise TableGone(f"cannot reach the table ({exc})") from None
        self.sock = sock
        self.closed = False
        self.inbox = queue.Queue()
        self._lines = LineBuffer(P.MAX_PUSH)
        self.threaded = False
        try:
            first = self._next(SYNC_TIMEOUT)   # a large campaign's first sync takes a while
        except TableGone:
            self.close()
            raise
        if first.get("t") != "sync":
            self.close()
            raise TableGone(str(first.get("message", "the table refused this seat")))
        if self.loop is not None:
            self.loop.add_reader(sock.fileno(), self._readable)
        elif reader:
            self.threaded = True
            sock.settimeout(None)
            threading.Thread(target=self._read, args=(sock, self.inbox), daemon=True).start()
        return first

    def attach(self, loop: asyncio.AbstractEventLoop, pump: Callable[[], None]) -> None:
        """From now on *loop* reads what arrives (for a link connected without a reader)
        and calls *pump* to handle it: at once when the loop's reader has read it (one
        pass of the loop less at every update), else at the loop's next pass (a wake asked
        for while something is being handled)."""
        assert not self.threaded, "this link has its reader thread"
        self.loop, self.wakeup, self._pump_now = loop, partial(loop.call_soon, pump), pump
        if self.sock is not None and not self.closed:
            loop.add_reader(self.sock.fileno(), self._readable)
        if not self.inbox.empty():
            self._wake()

    def _take(self, data: bytes, inbox: queue.Queue[dict[str, Any]]) -> None:
        for line in self._lines.feed(data):
            if line is TOO_LONG or not isinstance(line, bytes):
                continue
            with contextlib.suppress(P.ProtocolError):
                inbox.put(P.decode(line, P.MAX_PUSH))

    def _read(self, sock: socket.socket, inbox: queue.Queue[dict[str, Any]]) -> None:
        """The reader thread."""
        try:
            while True:
                data = sock.recv(RECV_SIZE)
                if not data:
                    break
                self._take(data, inbox)
                self._wake()
        except OSError:
            pass
        inbox.put(CLOSED)
        self._wake()

    def _read_now(self, timeout: float | None) -> bool:
        """Without a reader thread: wait up to *timeout* for what arrives and queue it
        (False: nothing came)."""
        sock = self.sock
        if sock is None:
            self.inbox.put(CLOSED)
            return True
        try:
            if sock.gettimeout() != timeout:    # (each change is a system call)
                sock.settimeout(timeout)
            data = sock.recv(RECV_SIZE)
        except (TimeoutError, BlockingIOError):
            return False
        except OSError:
            data = b""
        if data:
            self._take(data, self.inbox)
        else:
            self._lost()
        return True

    def _readable(self) -> None:
        """The attached loop's reader: the socket has something."""
        if self._read_now(0.0) and self._pump_now is not None:
            self._pump_now()

    def _lost(self) -> None:
        if self.loop is not None and self.sock is not None:
            with contextlib.suppress(Exception):
                self.loop.remove_reader(self.sock.fileno())
        self.inbox.put(CLOSED)

    def wake(self) -> None:
        """Have the seat look at its messages again."""
        self._wake()

    def _wake(self) -> None:
        if self.wakeup is not None:
            with contextlib.suppress(RuntimeError):   # the loop is gone: nobody to tell
                self.wakeup()

    def _next(self, timeout: float | None) -> dict[str, Any]:
        got = self.wait(timeout)
        if got is None:
            raise TableGone("the table did not answer in time")
        return got

    def send(self, message: dict[str, Any]) -> None:
        if self.sock is None or self.closed:
            raise TableGone("not connected to the table")
        try:
            self.sock.settimeout(None)
            self.sock.sendall(P.encode(message))
        except OSError as exc:
            raise TableGone(f"the connection to the table is lost ({exc})") from None

    def request(self, message: dict[str, Any],
                handle: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        """Send a request and wait for its reply, handing whatever comes first to *handle*."""
        rid = next(self.ids)
        self.send({**message, "id": rid})
        while True:
            got = self._next(REPLY_TIMEOUT)
            if got.get("t") in ("reply", "error") and got.get("id", got.get("re")) == rid:
                return got
            handle(got)
            if got is CLOSED:
                raise TableGone("the connection to the table is lost")

    def pending(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def wait(self, timeout: float | None) -> dict[str, Any] | None:
        """The next message, waiting up to *timeout* (None: nothing came)."""
        if self.threaded:
            try:
                return self.inbox.get(timeout=timeout)
            except queue.Empty:
                return None
        end = None if timeout is None else time.monotonic() + timeout
        while self.inbox.empty():
            left = None if end is None else end - time.monotonic()
            if (left is not None and left <= 0) or not self._read_now(left):
                return None
        return self.inbox.get_nowait()

    def close(self) -> None:
        self.closed = True
        if self.sock is not None:
            if self.loop is not None:
                with contextlib.suppress(Exception):
                    self.loop.remove_reader(self.sock.fileno())
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            self.sock.close()
            self.sock = None
