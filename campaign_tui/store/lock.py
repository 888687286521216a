"""One writer per campaign: a lock file naming the process that holds it.

A second process gets :class:`CampaignLocked` and can open read-only or open a copy. A lock
left by a process that no longer runs on this machine is taken over.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from pathlib import Path

from campaign_tui.core.errors import CampaignLocked
from campaign_tui.core.info import now_iso


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Lock:
    def __init__(self, path: Path, campaign: Path) -> None:
        self.path = path
        self.campaign = campaign
        self.held = False

    def holder(self) -> dict[str, object] | None:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def acquire(self) -> None:
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": now_iso()}
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                info = self.holder()
                if info is None or self._stale(info):
                    with contextlib.suppress(FileNotFoundError):
                        self.path.unlink()
                    continue
                who = f"process {info.get('pid')} on {info.get('host')} since {info.get('since')}"
                raise CampaignLocked(self.campaign, who) from None
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(me, fh)
            self.held = True
            return
        raise CampaignLocked(self.campaign, "another process (the lock could not be taken)")

    @staticmethod
    def _stale(info: dict[str, object]) -> bool:
        if info.get("host") != socket.gethostname():
            return False
        pid = info.get("pid")
        return isinstance(pid, int) and not _alive(pid)

    def release(self) -> None:
        if self.held:
            info = self.holder()
            if info and info.get("pid") == os.getpid():
                with contextlib.suppress(FileNotFoundError):
                    self.path.unlink()
            self.held = False
