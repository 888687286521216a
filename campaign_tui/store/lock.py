"""One writer per campaign, enforced by the operating system.

The lock is an exclusive ``flock`` on ``campaign.lock`` taken through the ``filelock``
library: the kernel grants it to one open file at a time and drops it when the holder's
process ends, however it ends, so a stale lock cannot exist and two writers cannot both
hold it. The lock file's contents mean nothing. ``filelock`` is imported when a lock is
first taken, not with this module, so that reading a campaign never pays for it.

Who holds it is written, after taking it, to a separate small file (``campaign.holder``)
for the message a second process gets ("held by process 123 on host since ..."). That
file is only ever read to word the message, never to decide anything.
"""

from __future__ import annotations

import contextlib
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
        from filelock import FileLock, Timeout

        if self._os_lock is None:
            self._os_lock = FileLock(self.path, timeout=0)
        try:
            self._os_lock.acquire()
        except Timeout:
            info = self.holder()
            who = (f"process {info.get('pid')} on {info.get('host')} since {info.get('since')}"
                   if info else "another process")
            raise CampaignLocked(self.campaign, who) from None
        except OSError as exc:
            raise SaveError(self.path, f"cannot take the write lock: {exc.strerror or exc} "
                            "(is the folder read-only? open it read-only instead)") from None
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
