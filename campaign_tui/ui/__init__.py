"""The Textual interface. Imported only when the TUI starts."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from campaign_tui.store.paths import Places


def launch(places: Places, campaign: Path | None, read_only: bool = False) -> int:
    """Run the TUI: the campaign picker, or straight into *campaign*.

    The cyclic garbage collector is paused from here to the first painted screen
    (:meth:`CampaignApp.startup_done`): start-up allocates hundreds of thousands of
    long-lived objects (modules, widgets, the campaign's state) and nothing worth
    collecting, and the collector's passes over them were a third of the start-up time
    with a large campaign. Reference counting frees everything else as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        from campaign_tui.ui.app import CampaignApp

        app = CampaignApp(places, campaign, read_only=read_only, paused_gc=was_enabled)
        app.run()
    finally:
        if was_enabled:
            gc.enable()
    return app.return_code or 0
