"""A hosted table for tests: the real server (in a thread of its own, or a process of its
own) and real seat connections over its unix socket."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from campaign_tui.hosted import protocol as P
from campaign_tui.hosted.identity import SeatInfo, seat_token
from campaign_tui.hosted.link import Link
from campaign_tui.hosted.remote_session import RemoteSession
from campaign_tui.hosted.table_server import TableServer
from campaign_tui.store.paths import Places

ROOT = Path(__file__).resolve().parents[2]


class ThreadTable:
    """A TableServer running on its own event loop in a background thread."""

    def __init__(self, places: Places, campaign: Path, runtime: Path | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = TableServer(places, campaign, runtime)
        self.places = places
        try:
            self.call(self.server.start())
        except BaseException:
            self.loop.call_soon_threadsafe(self.loop.stop)
            raise

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def run(self, fn: Any, *args: Any) -> Any:
        """Run a plain function on the server's loop (its state is the loop's alone)."""
        async def go() -> Any:
            return fn(*args)
        return self.call(go())

    def seat(self, name: str, side: str | None) -> RemoteSession:
        info = SeatInfo(name, side)
        link = Link(self.server.socket_path, info, seat_token(self.server.secret, info))
        return RemoteSession(self.places, link, link.connect())

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@contextmanager
def thread_table(places: Places, campaign: Path) -> Iterator[ThreadTable]:
    table = ThreadTable(places, campaign)
    try:
        yield table
    finally:
        table.stop()


class RawSeat:
    """A bare socket speaking the protocol by hand: every byte it receives is kept."""

    def __init__(self, path: Path | str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(60)
        self.sock.connect(str(path))
        self.buf = b""
        self.received: list[bytes] = []

    def send(self, data: bytes | dict[str, Any]) -> None:
        self.sock.sendall(P.encode(data) if isinstance(data, dict) else data)

    def read(self, timeout: float = 60) -> dict[str, Any] | None:
        """The next message (None when the server closed the connection)."""
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        self.received.append(line)
        return json.loads(line)

    def until(self, kind: str, timeout: float = 60) -> dict[str, Any]:
        while True:
            got = self.read(timeout)
            assert got is not None, f"closed before a {kind!r} message"
            if got.get("t") == kind:
                return got

    def hello(self, secret: str, seat: SeatInfo) -> dict[str, Any]:
        self.send({"t": "hello", "v": P.VERSION, "seat": seat.name, "side": seat.side,
                   "token": seat_token(secret, seat)})
        return self.until("sync")

    def close(self) -> None:
        self.sock.close()


class ProcessTable:
    """The table server as a process of its own (to kill it)."""

    def __init__(self, campaign: Path, runtime: Path, seats: list[str]) -> None:
        self.campaign, self.runtime, self.seats = campaign, runtime, seats
        self.proc: subprocess.Popen[str] | None = None
        self.tokens: dict[str, str] = {}
        self.socket = ""

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "campaign_tui.hosted.run_table", str(self.campaign),
             str(self.runtime), *self.seats], stdout=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the table server did not start"
        data = json.loads(line)
        self.socket, self.tokens = data["socket"], data["tokens"]

    def seat(self, places: Places, name: str, side: str | None) -> RemoteSession:
        link = Link(self.socket, SeatInfo(name, side), self.tokens[name])
        return RemoteSession(places, link, link.connect())

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def wait_until(predicate: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def to_attacks(table: ThreadTable) -> tuple[RemoteSession, RemoteSession]:
    """The GM's seat and Army A's, at A's attack declarations (the demo rule set)."""
    gm, a = table.seat("gm", None), table.seat("alice", "A")
    gm.advance()
    gm.viewer = "A"
    gm.advance()                                   # A's attacks
    gm.viewer = "gm"
    assert a.wait_for(lambda: a.engine.state.step == "declare")
    return gm, a
