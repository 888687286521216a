"""The Textual interface. Imported only when the TUI starts."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from campaign_tui.store.paths import Places


def launch(places: Places, campaign: Path | str | None, read_only: bool = False) -> int:
    """Run the TUI: the campaign picker, or straight into *campaign* (a path, or a name or
    path as typed, resolved here as ``campaigns.resolve`` does).

    The cyclic garbage collector is paused from here to the first painted screen
    (:meth:`CampaignApp.startup_done`): start-up allocates hundreds of thousands of
    long-lived objects (modules, widgets, the campaign's state) and nothing worth
    collecting, and the collector's passes over them were a third of the start-up time
    with a large campaign. Reference counting frees everything else as usual. The record
    methods the last run compiled are read first (``ui/warm.py``), before the engine is
    imported."""
    from campaign_tui.ui.warm import warm_start

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        warm_start(places)
        if isinstance(campaign, str):
            from campaign_tui.campaigns import resolve

            campaign = resolve(places, campaign)
        from campaign_tui.ui.app import CampaignApp

        app = CampaignApp(places, campaign, read_only=read_only, paused_gc=was_enabled)
        app.run()
    finally:
        if was_enabled:
            gc.enable()
    return app.return_code or 0
