"""Helpers for fault tests: run the command in-process, read-only and tiny filesystems."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_tui.cli import main
from campaign_tui.examples_index import find_example


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def imported(capsys, example: str, name: str) -> Path:
    code, out, _ = cli(capsys, "import", str(find_example(example)), "--name", name)
    assert code == 0
    assert len(out.splitlines()) == 1           # only the new path
    return Path(out.strip())


def _run(*cmd: str) -> bool:
    return subprocess.run(cmd, capture_output=True).returncode == 0


@contextlib.contextmanager
def read_only_view(folder: Path) -> Iterator[Path]:
    """*folder* seen through a read-only bind mount (skips where mounting is not allowed)."""
    mount = Path(tempfile.mkdtemp())
    if not (_run("mount", "--bind", str(folder), str(mount))
            and _run("mount", "-o", "remount,bind,ro", str(mount))):
        _run("umount", str(mount))
        pytest.skip("cannot make a read-only bind mount here (needs root and mount)")
    try:
        yield mount
    finally:
        _run("umount", str(mount))


@contextlib.contextmanager
def small_filesystem(size: str = "2m") -> Iterator[Path]:
    """A tiny tmpfs (skips where mounting is not allowed)."""
    mount = Path(tempfile.mkdtemp())
    if not _run("mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)):
        pytest.skip("cannot mount a small tmpfs here (needs root and mount)")
    try:
        yield mount
    finally:
        _run("umount", str(mount))


def fill(folder: Path) -> Path:
    """Fill the filesystem of *folder* to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as fh:
        with contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 4096)
        with contextlib.suppress(OSError):
            while True:
                fh.write(b"\0")
    return filler
