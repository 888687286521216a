"""Durable file writes: temporary file in the same folder, fsync, rename, fsync the folder.

Temporary files are named ``.NAME.PID.tmp``; one left behind by a killed process is
removed by the next write of the same file (:func:`clean_stale_temporaries`).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

_TMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.tmp$")


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def temporary_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def clean_stale_temporaries(folder: Path, name: str | None = None) -> list[Path]:
    """Remove ``.NAME.PID.tmp`` files and folders in *folder* (only those for *name* when
    given) whose process no longer runs; returns what was removed."""
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for entry in names:
        m = _TMP.match(entry) if entry.endswith(".tmp") else None  # (cheap test first)
        if not m or (name is not None and m.group("name") != name):
            continue
        child = folder / entry
        if int(m.group("pid")) != os.getpid() and pid_alive(int(m.group("pid"))):
            continue
        with contextlib.suppress(OSError):
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
            removed.append(child)
    return removed


def atomic_write(path: Path, data: str | bytes) -> None:
    """Replace *path* with *data* so that a crash leaves either the old or the new file."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    clean_stale_temporaries(path.parent, path.name)
    tmp = temporary_name(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(path.parent)


def append_at(path: Path, committed: int, data: bytes) -> int:
    """Write *data* after the first *committed* bytes of *path* (dropping anything after
    them, such as the remains of an interrupted save); returns the new length. A file
    created here has its folder fsynced too, so the new name is as durable as its bytes."""
    created = not path.exists()
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.ftruncate(fd, committed)
        os.lseek(fd, committed, os.SEEK_SET)
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)
    return committed + len(data)
