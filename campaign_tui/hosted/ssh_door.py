"""The SSH door (asyncssh): public keys only, the key picks the seat (with several campaigns
served, the user name picks the campaign); a shell or exec request starts the seat's TUI in
a pseudo-terminal, never a system shell and never the command asked for. Passwords,
keyboard-interactive, port forwarding, agent and X11 forwarding, SFTP/SCP and subsystems
are all refused."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import Any

import asyncssh

from campaign_tui.hosted.hall import Hall, Hosted
from campaign_tui.hosted.pty_child import DEFAULT_TERM, PtyChild, child_environment
from campaign_tui.hosted.seats import Seat, SeatBook, canonical

log = logging.getLogger("campaign_tui.serve")
HOST_KEY_NAME = "ssh_host_ed25519_key"
# what a TUI may have left switched on in the client's terminal when it is cut off: the
# alternate screen, mouse reporting, a hidden cursor
TERMINAL_RESET = b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?25h"


def host_key(config_dir: Path) -> tuple[asyncssh.SSHKey, Path, bool]:
    """The server's host key under the user config folder: made on the first start (mode
    0600), then reused so clients see the same host. Returns the key, its file and whether
    it was just made."""
    path = config_dir / HOST_KEY_NAME
    if path.exists():
        try:
            return asyncssh.read_private_key(path), path, False
        except (asyncssh.KeyImportError, OSError, ValueError) as exc:
            raise OSError(f"{path}: cannot read the SSH host key ({exc}); move it away to "
                          "make a new one") from None
    config_dir.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="campaign-tui host key")
    tmp = path.with_name(path.name + ".new")
    key.write_private_key(tmp)
    tmp.chmod(0o600)
    tmp.replace(path)
    return key, path, True


class SeatServer(asyncssh.SSHServer):
    """One SSH connection: authentication and the sessions it opens."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.peer = "?"
        self.found: tuple[Hosted, Seat] | None = None
        self.key: str | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"

    def begin_auth(self, username: str) -> bool:
        return True          # always authenticate: the key decides

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        found = self.hall.seat_by_key(username, canonical(key))
        if found is None:
            log.warning("refused: key %s (user %r, from %s) opens no seat%s",
                        key.get_fingerprint(), username, self.peer,
                        "" if len(self.hall.hosted) == 1 else
                        " (with several campaigns served, the user name picks one: "
                        + ", ".join(h.id for h in self.hall.hosted) + ")")
            return False
        self.found, self.key = found, canonical(key)
        return True

    def session_requested(self) -> Any:
        if self.found is None or self.key is None:
            return False
        return SeatSession(self.hall, *self.found, key=self.key, peer=self.peer)


class SeatSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One session channel: the seat's TUI in a pseudo-terminal."""

    door = "ssh"

    def __init__(self, hall: Hall, hosted: Hosted, seat: Seat, key: str, peer: str) -> None:
        self.hall, self.hosted, self.seat, self.key, self.peer = hall, hosted, seat, key, peer
        self.since = time.time()
        self.term, self.cols, self.rows = DEFAULT_TERM, 80, 24
        self.chan: Any = None
        self.child: PtyChild | None = None
        self.early = bytearray()             # keys typed before the TUI started
        self.reason: str | None = None       # why the server is closing this session
        self.ended = False

    # -- requests ------------------------------------------------------------------------
    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.term = term_type or DEFAULT_TERM
        if term_size[0] > 0 and term_size[1] > 0:
            self.cols, self.rows = term_size[0], term_size[1]
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        log.info("%s: seat %s asked to run %r: starting the seat's TUI instead", self.hosted.id,
                 self.seat.name, command[:80])
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        log.warning("%s: seat %s asked for the %r subsystem: refused", self.hosted.id,
                    self.seat.name, subsystem[:40])
        return False

    def session_started(self) -> None:
        asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        try:
            table = await self.hosted.table_ready()
            argv, extra = table.seat_command(self.seat.info, self.cols, self.rows)
            child = PtyChild(self._output, self._exited)
            await child.start(argv, child_environment(extra, self.term),
                              self.cols, self.rows)
        except Exception as exc:   # the seat cannot start: say so and end the session
            log.error("%s: seat %s cannot start: %s", self.hosted.id, self.seat.name, exc)
            self._end(f"campaign-tui: your seat cannot start ({exc})", 1)
            return
        self.child = child
        if self.early:
            child.write(bytes(self.early))
            self.early.clear()
        self.hall.join(self.hosted, self)

    # -- traffic -------------------------------------------------------------------------
    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.child is not None:
            self.child.write(data)
        elif len(self.early) < 65536:
            self.early += data

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        if width > 0 and height > 0:
            self.cols, self.rows = width, height
            if self.child is not None:
                self.child.resize(width, height)

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume()

    def eof_received(self) -> bool:
        return True          # the client's input ended: the screen goes on until it leaves

    def break_received(self, msec: int) -> bool:
        return False

    def _output(self, data: bytes) -> None:
        if self.ended or self.chan is None:
            return
        try:
            self.chan.write(data)
        except (BrokenPipeError, OSError):      # the client went: stop the TUI
            self.connection_lost(None)

    # -- the end -------------------------------------------------------------------------
    def _exited(self, code: int) -> None:
        self._end(self.reason, code if self.reason is None else 1)

    def _end(self, message: str | None, code: int) -> None:
        if self.ended:
            return
        self.ended = True
        self.hall.leave(self.hosted, self)
        if self.chan is None:
            return
        with contextlib.suppress(Exception):
            self.chan.write(TERMINAL_RESET + (f"\r\n{message}\r\n".encode() if message else b""))
            self.chan.exit(max(0, min(code, 255)) if code >= 0 else 1)

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self.hall.leave(self.hosted, self)
        if self.child is not None:
            child, self.child = self.child, None
            child.pause()
            asyncio.get_running_loop().create_task(child.stop())

    def still_seated(self, book: SeatBook) -> bool:
        seat = book.by_key(self.key)
        return seat is not None and seat.name == self.seat.name and seat.side == self.seat.side

    def close(self, reason: str) -> None:
        if self.ended:
            return
        self.reason = reason
        if self.child is not None:
            asyncio.get_running_loop().create_task(self.child.stop())
        else:
            self._end(reason, 1)


class SshDoor:
    def __init__(self, hall: Hall, key: asyncssh.SSHKey) -> None:
        self.hall = hall
        self.key = key
        self.acceptor: Any = None

    async def start(self, host: str, port: int) -> int:
        """Listen; returns the port (the one chosen when *port* is 0)."""
        self.acceptor = await asyncssh.create_server(
            lambda: SeatServer(self.hall), host, port, server_host_keys=[self.key],
            server_version="campaign_tui", encoding=None, line_editor=False,
            password_auth=False, kbdint_auth=False, gss_auth=False, gss_kex=False,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, sftp_factory=None,
            login_timeout=30, keepalive_interval=30, keepalive_count_max=4,
            config=None, reuse_address=True)
        return int(self.acceptor.get_port())

    async def stop(self) -> None:
        if self.acceptor is not None:
            self.acceptor.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.acceptor.wait_closed(), 3)
