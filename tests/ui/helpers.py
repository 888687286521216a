"""Helpers for the interface tests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign_tui.store.paths import Places
    from campaign_tui.ui.app import CampaignApp


def make_app(places_: Places, path: Path | None, read_only: bool = False) -> CampaignApp:
    from campaign_tui.ui.app import CampaignApp

    return CampaignApp(places_, path, read_only=read_only, blink=False, theme="textual-dark")


def screen_text(app: Any) -> str:
    """What the terminal shows, as plain text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


KEY_NAMES = {":": "colon", ",": "comma", "-": "minus", " ": "space", "/": "slash",
             ".": "full_stop", "?": "question_mark", "_": "underscore"}


def keys(text: str) -> list[str]:
    """The key names that type *text*."""
    return [KEY_NAMES.get(c, c) for c in text]


def static_text(app: Any, selector: str) -> str:
    """The text a Static of the current screen holds (also what is scrolled out of view)."""
    content = app.screen.query_one(selector).content
    return content.plain if hasattr(content, "plain") else str(content)
