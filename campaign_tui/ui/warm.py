"""What the TUI's start-up reads back from the user cache folder before the engine is
imported (:func:`warm_start`): the record methods the last run compiled (core/records.py).
The app writes them back once its first screen is up and when it exits (:func:`keep_warm`,
from ``CampaignApp.keep_caches``). ``CAMPAIGN_TUI_NO_CACHE`` turns this off, as it does
the other caches (``Places.cached``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from campaign_tui.store.paths import Places


def warm_start(places: Places) -> None:
    """Call before the engine is imported (``ui.launch`` does)."""
    folder = places.cached("code")
    if folder is not None:
        from campaign_tui.core import records

        records.use_compiled(folder)


def keep_warm(places: Places) -> None:
    """Write what this run compiled for the next start (nothing when nothing is new)."""
    folder = places.cached("code")
    if folder is not None:
        from campaign_tui.core import records

        records.keep_compiled(folder)
