"""One writer per campaign, enforced by the operating system.

The lock is an exclusive ``flock`` on ``campaign.lock``: the kernel grants it to one open
file at a time and drops it when the holder's process ends, however it ends, so a stale
lock cannot exist and two writers cannot both hold it. The lock file's contents mean
nothing. On POSIX it is taken with ``fcntl.flock`` directly, the very lock the
``filelock`` library takes there (so the two exclude each other), without importing that
library (a twentieth of the TUI's start-up); elsewhere, or on a file system without
``flock``, through ``filelock``, imported only then.

Who holds it is written, after taking it, to a separate small file (``campaign.holder``)
for the message a second process gets ("held by process 123 on host since ..."). That
file is only ever read to word the message, never to decide anything.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
from pathlib import Path
from typing import Any

from campaign_tui.core.errors import CampaignLocked, SaveError
from campaign_tui.core.info import now_iso
from campaign_tui.store.atomic import temporary_name


def holder_path(lock_path: Path) -> Path:
    return lock_path.with_name(lock_path.name.removesuffix(".lock") + ".holder")


class Lock:
    def __init__(self, path: Path, campaign: Path) -> None:
        self.path = Path(path)
        self.campaign = campaign
        self.holder_file = holder_path(self.path)
        self._os_lock: Any = None
        self.held = False

    def holder(self) -> dict[str, object] | None:
        try:
            data = json.loads(self.holder_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def acquire(self) -> None:
        if self.held:
            return
        if self._os_lock is None:
            self._os_lock = _Flock(self.path)
        try:
            try:
                taken = self._os_lock.acquire()
            except _NoFlock:
                self._os_lock = _PortableLock(self.path)
                taken = self._os_lock.acquire()
        except OSError as exc:
            raise SaveError(self.path, f"cannot take the write lock: {exc.strerror or exc} "
                            "(is the folder read-only? open it read-only instead)") from None
        if not taken:
            info = self.holder()
            who = (f"process {info.get('pid')} on {info.get('host')} since {info.get('since')}"
                   if info else "another process")
            raise CampaignLocked(self.campaign, who)
        self.held = True
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": now_iso()}
        tmp = temporary_name(self.holder_file)
        with contextlib.suppress(OSError):   # only the message's details: no fsync needed
            tmp.write_text(json.dumps(me), encoding="utf-8")
            os.replace(tmp, self.holder_file)

    def release(self) -> None:
        if not self.held:
            return
        with contextlib.suppress(OSError):
            self.holder_file.unlink()
        self._os_lock.release()
        self.held = False


class _NoFlock(Exception):
    """This system or file system has no ``flock``."""


class _Flock:
    """An exclusive, non-blocking ``flock`` on the lock file (what ``filelock`` takes on
    POSIX)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> bool:
        """True when taken; False when another open file holds it."""
        try:
            import fcntl
        except ImportError:
            raise _NoFlock from None
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK):
                return False
            if exc.errno in (errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOLCK):
                raise _NoFlock from None
            raise
        self.fd = fd
        return True

    def release(self) -> None:
        if self.fd is None:
            return
        import fcntl

        fd, self.fd = self.fd, None
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


class _PortableLock:
    """The ``filelock`` library's lock, where ``flock`` is missing (Windows, some network
    file systems)."""

    def __init__(self, path: Path) -> None:
        from filelock import FileLock

        self.lock = FileLock(path, timeout=0)

    def acquire(self) -> bool:
        from filelock import Timeout

        try:
            self.lock.acquire()
        except Timeout:
            return False
        return True

    def release(self) -> None:
        self.lock.release()
