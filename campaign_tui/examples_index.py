"""The bundled example campaigns (saves/ in the repository, campaign_tui.examples when
installed)."""

from __future__ import annotations

from pathlib import Path


def examples_dir() -> Path | None:
    try:
        from importlib import resources

        folder = Path(str(resources.files("campaign_tui.examples")))
        if folder.is_dir():
            return folder
    except (ModuleNotFoundError, TypeError):
        pass
    checkout = Path(__file__).resolve().parent.parent / "saves"
    return checkout if checkout.is_dir() else None


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
