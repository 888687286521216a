"""A cache of parsed TOML, so that opening a large campaign does not parse its snapshot
again (tomllib takes ~0.12 s for a 2,000-unit snapshot; marshal reads the same data in
~0.005 s).

Entries are keyed by a hash of the file's exact bytes and the Python version: any edit to
a save, by hand or by the program, gives a new key, so the TOML file is always the source
of truth. A missing, stale or damaged entry is simply parsed again. The cache lives in the
user cache folder and can be deleted at any time.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

from campaign_tui.core import digests
from campaign_tui.store import tomlio

KEEP = 256  # entries kept; the oldest are dropped beyond this
_PERSON = f"py{sys.version_info[0]}{sys.version_info[1]}m{marshal.version}".encode()[:16]


def _folder() -> Path | None:
    from campaign_tui.store.paths import places

    return places().cached("toml")


def _key(raw: bytes) -> str:
    return digests.blake2b(raw, digest_size=20, person=_PERSON).hexdigest()


def _entry(raw: bytes) -> Path | None:
    folder = _folder()
    if folder is None:
        return None
    return folder / f"{_key(raw)}.marshal"


def _mark(raw: bytes, tag: str) -> Path | None:
    folder = _folder()
    if folder is None:
        return None
    digest = digests.blake2b(tag.encode(), digest_size=8).hexdigest()
    return folder / f"{_key(raw)}.{digest}.ok"


def checked(raw: bytes, tag: str) -> bool:
    """Whether these exact bytes already passed the check named by *tag* (which names the
    rule set's data and the program version)."""
    mark = _mark(raw, tag)
    return mark is not None and mark.exists()


def mark_checked(raw: bytes, tag: str) -> None:
    mark = _mark(raw, tag)
    if mark is None:
        return
    with contextlib.suppress(OSError):
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()


def loads(raw: bytes, path: Path | str, text: str | None = None) -> dict[str, Any]:
    """Parse TOML *raw* (the bytes of *path*; *text* if already decoded), through the
    cache."""
    entry = _entry(raw)
    if entry is not None:
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            data = marshal.loads(entry.read_bytes())
            if isinstance(data, dict):
                return data
    data = tomlio.loads(text if text is not None else tomlio.decode(raw, path), path)
    put(raw, data, entry)
    return data


def put(raw: bytes, data: dict[str, Any], entry: Path | None = None) -> None:
    """Remember that *raw* parses to *data* (the writer knows it without parsing)."""
    entry = entry or _entry(raw)
    if entry is None:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(data))
        os.replace(tmp, entry)
        _prune(entry.parent)
    except (OSError, ValueError):
        pass  # a cache that cannot be written only costs time


def _prune(folder: Path) -> None:
    entries = list(folder.glob("*.marshal"))
    if len(entries) <= KEEP:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) - KEEP]:
        with contextlib.suppress(OSError):
            old.unlink()
        for mark in folder.glob(f"{old.stem}.*.ok"):
            with contextlib.suppress(OSError):
                mark.unlink()


def load(path: Path) -> tuple[bytes, str, dict[str, Any]]:
    """Read and parse a TOML file through the cache: its bytes, its text (for error lines)
    and its data."""
    raw = tomlio.read_bytes(path)
    text = tomlio.decode(raw, path)
    return raw, text, loads(raw, path, text)
