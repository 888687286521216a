"""What the command-line tests share: a registry found afresh for each test, and one way to
run a command in-process and read its exit code and output."""

from __future__ import annotations

import pytest

from campaign_tui.cli import main
from campaign_tui.registry import reset_registry


@pytest.fixture(autouse=True)
def fresh_registry():
    reset_registry()
    yield
    reset_registry()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one command; argparse's own exits count as codes."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err
