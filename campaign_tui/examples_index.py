"""The bundled example campaigns (saves/ in the repository, campaign_tui.examples when
installed)."""

from __future__ import annotations

from pathlib import Path


def examples_dir() -> Path | None:
    """Installed, the examples sit beside the package (``campaign_tui/examples``, built from
    saves/ by setup.py); in a checkout (an editable install) they are ``saves/`` itself."""
    here = Path(__file__).resolve().parent
    for folder in (here / "examples", here.parent / "saves"):
        if folder.is_dir():
            return folder
    return None


def bundled_examples() -> list[Path]:
    folder = examples_dir()
    if folder is None:
        return []
    return sorted(p for p in folder.glob("*.toml") if not p.name.startswith("."))


def find_example(name: str) -> Path | None:
    wanted = name.lower().removesuffix(".toml")
    for p in bundled_examples():
        if p.stem.lower() == wanted:
            return p
    return None
