"""What both doors share: the served campaigns with their seats and tables, who is
connected, and the watch that closes a connection whose seat was removed or changed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from campaign_tui.hosted import presence
from campaign_tui.hosted.identity import SeatInfo
from campaign_tui.hosted.seats import Seat, SeatBook, SeatFile, seats_path

log = logging.getLogger("campaign_tui.serve")
WATCH_EVERY = 0.5   # seconds between looks at the seats files


class Table(Protocol):
    """What a door needs of the table server: the command that runs one seat's TUI."""

    def seat_command(self, seat: SeatInfo, cols: int, rows: int) -> tuple[list[str], dict[str, str]]:
        ...


class Connection(Protocol):
    seat: Seat
    door: str
    peer: str
    since: float

    def still_seated(self, book: SeatBook) -> bool: ...

    def close(self, reason: str) -> None: ...


@dataclass
class Hosted:
    """One served campaign. ``id`` is the SSH user name that picks it when several are
    served (the folder's name, or the bundle file's name without .toml)."""

    id: str
    path: Path
    table: Any
    seats: SeatFile
    connections: list[Connection] = field(default_factory=list)
    presence_file: Path | None = None
    # set once the table has opened the campaign (the doors listen before that: a seat
    # arriving early waits for it); *failure* says why it could not
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    failure: str | None = None

    async def table_ready(self) -> Any:
        """The table, once it serves (raises OSError with the reason when it cannot)."""
        await self.opened.wait()
        if self.failure is not None:
            raise OSError(f"the campaign cannot be served: {self.failure}")
        return self.table

    @classmethod
    def of(cls, path: Path, table: Any, state_dir: Path) -> Hosted:
        ident = path.name if path.is_dir() else path.stem
        return cls(ident, path, table, SeatFile(seats_path(path)),
                   presence_file=presence.presence_path(state_dir, path))


class Hall:
    def __init__(self, hosted: list[Hosted]) -> None:
        self.hosted = hosted
        self.addresses: dict[str, str] = {}    # door -> where it listens
        self._watch: asyncio.Task[None] | None = None

    # -- finding a seat ------------------------------------------------------------------
    def candidates(self, username: str) -> list[Hosted]:
        """The campaigns a user name may mean: all of them when one is served or the name
        names none."""
        named = [h for h in self.hosted if h.id == username]
        return named or self.hosted

    def seat_by_key(self, username: str, canonical: str) -> tuple[Hosted, Seat] | None:
        hits = []
        for h in self.candidates(username):
            seat = h.seats.current().by_key(canonical)
            if seat is not None:
                hits.append((h, seat))
        return hits[0] if len(hits) == 1 else None

    def seat_by_token(self, token: str) -> tuple[Hosted, Seat] | None:
        for h in self.hosted:
            seat = h.seats.current().by_token(token)
            if seat is not None:
                return h, seat
        return None

    # -- who is here --------------------------------------------------------------------
    def join(self, hosted: Hosted, conn: Connection) -> None:
        hosted.connections.append(conn)
        log.info("%s: seat %s (%s) joined over %s from %s", hosted.id, conn.seat.name,
                 conn.seat.side_label, conn.door, conn.peer)
        self.publish(hosted)

    def leave(self, hosted: Hosted, conn: Connection) -> None:
        if conn in hosted.connections:
            hosted.connections.remove(conn)
            log.info("%s: seat %s left (%s)", hosted.id, conn.seat.name, conn.door)
            self.publish(hosted)

    def publish(self, hosted: Hosted) -> None:
        if hosted.presence_file is None:
            return
        rows = [{"seat": c.seat.name, "side": c.seat.side_label, "door": c.door,
                 "peer": c.peer, "since": round(c.since, 3)} for c in hosted.connections]
        try:
            presence.publish(hosted.presence_file, {
                "campaign": str(hosted.path), "addresses": self.addresses, "connections": rows})
        except OSError as exc:
            log.warning("cannot publish who is connected (%s)", exc)

    # -- the watch ----------------------------------------------------------------------
    def start_watch(self) -> None:
        for h in self.hosted:
            h.seats.current()
            self.publish(h)
        self._watch = asyncio.get_running_loop().create_task(self._watching())

    async def _watching(self) -> None:
        problems: dict[str, str | None] = {}
        while True:
            await asyncio.sleep(WATCH_EVERY)
            for h in self.hosted:
                book = h.seats.current()
                if h.seats.problem != problems.get(h.id):
                    problems[h.id] = h.seats.problem
                    if h.seats.problem:
                        log.warning("%s: keeping the last good seats: %s", h.id, h.seats.problem)
                for conn in list(h.connections):
                    if not conn.still_seated(book):
                        log.info("%s: seat %s was removed or changed: closing its %s connection",
                                 h.id, conn.seat.name, conn.door)
                        conn.close("your seat was removed or changed by the GM")

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        for h in self.hosted:
            for conn in list(h.connections):
                conn.close("the server is shutting down")
            if h.presence_file is not None:
                presence.withdraw(h.presence_file)
