"""``campaign-tui serve``: the table servers of the campaigns, the doors in front of them,
and a clean stop on SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campaign_tui.hosted.hall import Hall, Hosted
from campaign_tui.store.paths import Places

log = logging.getLogger("campaign_tui.serve")


def make_table(places: Places, campaign: Path) -> Any:
    """The table server that owns one campaign while it is served (its engine's one
    writer); the doors only ask it for the command that runs a seat."""
    from campaign_tui.hosted.table_server import TableServer

    return TableServer(places, campaign)


@dataclass
class Listening:
    """Where the server listens, as printed at start."""

    campaigns: list[dict[str, str]]
    ssh: str
    host_key: str
    host_key_file: str
    host_key_new: bool
    web: str | None
    hall: Hall | None = field(default=None, repr=False)   # for tests: who is connected

    def to_dict(self) -> dict[str, Any]:
        return {"campaigns": self.campaigns, "ssh": self.ssh, "host_key": self.host_key,
                "host_key_file": self.host_key_file, "host_key_new": self.host_key_new,
                "web": self.web}


def setup_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)


async def serve(places: Places, campaigns: list[Path], host: str, port: int,
                web_port: int | None, ready: Callable[[Listening], None],
                stop: asyncio.Event | None = None,
                table: Callable[[Places, Path], Any] = make_table) -> None:
    """Serve until *stop* is set (or SIGINT/SIGTERM arrive). *table* makes each campaign's
    table server (tests give a stand-in).

    The doors listen first (within moments of the start); the campaigns are opened behind
    them, and a seat that arrives before its campaign is open waits for it. A campaign that
    cannot be opened ends the serve with the reason."""
    from campaign_tui.hosted.ssh_door import SshDoor, host_key

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    key, key_file, new = host_key(places.config)
    hall = Hall([Hosted.of(path, table(places, path), places.state) for path in campaigns])
    ssh = SshDoor(hall, key)
    web: Any = None
    started: list[Any] = []
    opening: asyncio.Task[None] | None = None
    try:
        ssh_port = await ssh.start(host, port)
        hall.addresses["ssh"] = f"{host}:{ssh_port}"
        web_url = None
        if web_port is not None:
            from campaign_tui.hosted.web_door import WebDoor

            web = WebDoor(hall)
            web_url = await web.start(host, web_port)
            hall.addresses["web"] = web_url
        opening = loop.create_task(open_tables(hall, started, stop))
        hall.start_watch()
        ready(Listening([{"id": h.id, "path": str(h.path)} for h in hall.hosted],
                        f"{host}:{ssh_port}", key.get_fingerprint(), str(key_file), new, web_url,
                        hall))
        await stop.wait()
        log.info("stopping")
        if opening.done() and opening.exception() is not None:
            raise opening.exception()  # type: ignore[misc]
    finally:
        if opening is not None and not opening.done():
            with contextlib.suppress(BaseException):
                await opening          # a campaign being read: let it finish, then close
        await hall.stop()
        await ssh.stop()
        if web is not None:
            await web.stop()
        for started_table in reversed(started):
            await started_table.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)


async def open_tables(hall: Hall, started: list[Any], stop: asyncio.Event) -> None:
    """Open each served campaign (its table server starts); the first that cannot be opened
    stops the serve, its seats told why."""
    for hosted in hall.hosted:
        try:
            await hosted.table.start()
            started.append(hosted.table)
        except BaseException as exc:
            hosted.failure = str(exc) or type(exc).__name__
            log.error("%s: cannot be served: %s", hosted.id, hosted.failure)
            stop.set()
            raise
        finally:
            hosted.opened.set()
        log.info("%s: open, seats may join", hosted.id)
