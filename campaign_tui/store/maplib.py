"""The user's map library: map files kept under the user data folder (``maps/`` next to the
campaigns folder), so a map typed or imported once is reused in the next campaign."""

from __future__ import annotations

import re
from pathlib import Path

from campaign_tui.core.board.mapfile import MapFile, load_map
from campaign_tui.store.atomic import atomic_write
from campaign_tui.store.paths import Places


def folder(places: Places) -> Path:
    return places.campaigns.parent / "maps"


def entries(places: Places) -> list[Path]:
    root = folder(places)
    return sorted(root.glob("*.toml")) if root.is_dir() else []


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "map"


def keep(places: Places, mf: MapFile, name: str = "") -> Path:
    """Write *mf* into the library (replacing a map of the same name); returns its path."""
    root = folder(places)
    root.mkdir(parents=True, exist_ok=True)
    path = root / f"{slug(name or mf.title)}.toml"
    atomic_write(path, mf.dumps())
    return path


def find(places: Places, text: str) -> Path:
    """A map file: a path that exists, else a library map by name (with or without .toml)."""
    p = Path(text).expanduser()
    if p.is_file():
        return p
    for candidate in (folder(places) / text, folder(places) / f"{slug(text)}.toml"):
        if candidate.is_file():
            return candidate
    return p


def load(places: Places, text: str) -> MapFile:
    return load_map(find(places, text))
