"""Helpers for the interface tests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from campaign_tui.store.paths import Places
    from campaign_tui.ui.app import CampaignApp


def make_app(places_: Places, path: Path | None, read_only: bool = False) -> CampaignApp:
    from campaign_tui.ui.app import CampaignApp

    return CampaignApp(places_, path, read_only=read_only, blink=False, theme="textual-dark")


def ruleset_campaign(places_: Places, monkeypatch: Any, plugin: Any, scenario: str,
                          name: str) -> Path:
    """A campaign of a test rule set (found by its id while the test runs)."""
    from campaign_tui import campaigns
    from campaign_tui.core.engine import Engine
    from campaign_tui.store.files import create_campaign

    real = campaigns.load_ruleset
    monkeypatch.setattr(campaigns, "load_ruleset",
                        lambda rid: plugin if rid == plugin.id else real(rid))
    path = places_.campaigns / plugin.id
    create_campaign(Engine.create(plugin, scenario, None, 1, "auto", name), path).close()
    return path


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


async def press(pilot: Pilot[Any], *names: str) -> None:
    """Press keys one by one, letting the app settle after each (as a person types)."""
    for name in names:
        await pilot.press(name)
        await pilot.pause()
    await pilot.pause()


def action_notice(app: Any) -> str:
    """What the screen's action notice says now ("" when none is shown)."""
    from campaign_tui.ui.widgets.notice import NoticeRack

    return " ".join(rack.message for rack in app.screen.query(NoticeRack))
