"""What the end-to-end tests share: the installed command and a terminal's environment."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def installed(name: str) -> str | None:
    """The command *name* beside this interpreter (the venv's), else on the PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def terminal_env(home: Path, drop: tuple[str, ...] = ()) -> dict[str, str]:
    """This process's environment for a program in a fresh terminal: a private campaign
    home, this checkout importable, a colour terminal, not inside our tmux, colours on."""
    env = dict(os.environ)
    env.update({
        "CAMPAIGN_TUI_HOME": str(home),
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p),
        "TERM": "xterm-256color",
    })
    for var in ("TMUX", "NO_COLOR", *drop):
        env.pop(var, None)
    return env
