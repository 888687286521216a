"""Who is connected, published by a running ``serve`` for ``seat list``: one small JSON file
per served campaign in the user state folder (``hosted/``), rewritten on every arrival and
departure, removed at shutdown; a file whose server is gone counts as nobody."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from campaign_tui.store.atomic import atomic_write, pid_alive


def presence_path(state_dir: Path, campaign: Path) -> Path:
    where = str(campaign.resolve())
    digest = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return state_dir / "hosted" / f"{digest}.json"


def publish(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps({"pid": os.getpid(), **data}, indent=1))


def withdraw(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def read(path: Path) -> dict[str, Any] | None:
    """What the running server published, or None when no server runs for the campaign."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("pid"), int):
        return None
    return data if pid_alive(data["pid"]) else None
