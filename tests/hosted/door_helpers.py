"""Serving a campaign inside a test, and real asyncssh clients whose screens are read
through a terminal emulator (pyte)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from campaign_tui.hosted.seats import Seat, SeatBook, seats_path
from campaign_tui.hosted.serve import Listening, serve
from campaign_tui.store.paths import places
from tests.hosted.standin import StandInTable


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def public(key: asyncssh.SSHKey) -> str:
    return key.export_public_key().decode("ascii").strip()


def write_seats(campaign: Path, seats: list[Seat]) -> SeatBook:
    book = SeatBook(seats_path(campaign), {s.name: s for s in seats})
    book.save()
    return book


@dataclass
class Served:
    where: Listening
    stop: asyncio.Event
    task: asyncio.Task[None]
    logs: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.where.ssh.rsplit(":", 1)[1])


@contextlib.asynccontextmanager
async def serving(campaigns: list[Path], web: bool = False,
                  table: Any = StandInTable) -> AsyncIterator[Served]:
    """``serve`` in this event loop, on free ports; by default in front of the stand-in
    table (give ``table=make_table`` for the real one)."""
    import logging

    got: asyncio.Future[Listening] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(serve(places().ensure(), campaigns, "127.0.0.1", 0,
                                     0 if web else None, got.set_result, stop, table))
    done, _ = await asyncio.wait([got, task], timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    served = Served(got.result(), stop, task)

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            served.logs.append(record.getMessage())

    handler = Keep()
    logger = logging.getLogger("campaign_tui.serve")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield served
    finally:
        logging.getLogger("campaign_tui.serve").removeHandler(handler)
        stop.set()
        await asyncio.wait_for(task, 15)


async def connect(served: Served, key: asyncssh.SSHKey | None, user: str = "player",
                  **kwargs: Any) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect("127.0.0.1", served.port, username=user,
                                  client_keys=[key] if key else None, known_hosts=None,
                                  agent_path=None, config=None, **kwargs)


class Screen:
    """A session's terminal, rendered."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes], cols: int, rows: int) -> None:
        self.process = process
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)
        self.process.change_terminal_size(cols, rows)

    async def read_some(self, wait: float = 0.2) -> bool:
        try:
            data = await asyncio.wait_for(self.process.stdout.read(65536), wait)
        except TimeoutError:
            return True
        if not data:
            return False
        self.raw += data
        self.stream.feed(data)
        return True

    async def wait_until(self, shows: Callable[[str], bool], timeout: float = 20.0,
                         what: str = "the awaited screen") -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if shows(self.text()):
                return self.text()
            if not await self.read_some():
                break
        raise AssertionError(f"{what} did not appear; the screen shows:\n{self.text()}")

    async def wait_for(self, text: str, timeout: float = 20.0) -> str:
        return await self.wait_until(lambda shown: text in shown, timeout, repr(text))

    async def ended(self, timeout: float = 10.0) -> int | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and await self.read_some():
            pass
        await asyncio.wait_for(self.process.wait_closed(), timeout)
        return self.process.exit_status


async def open_screen(conn: asyncssh.SSHClientConnection, cols: int = 100, rows: int = 30,
                      command: str | None = None) -> Screen:
    process = await conn.create_process(command, term_type="xterm-256color",
                                        term_size=(cols, rows), encoding=None)
    return Screen(process, cols, rows)
