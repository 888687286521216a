"""What the TUI's start-up reads back from the user cache folder before the engine is
imported (:func:`warm_start`): the record methods the last run compiled (core/records.py).
The app writes them back once its first screen is up and when it exits (:func:`keep_warm`,
from ``CampaignApp.keep_caches``). ``CAMPAIGN_TUI_NO_CACHE`` turns this off, as it does
the other caches."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from campaign_tui.store.paths import Places

NO_CACHE_ENV = "CAMPAIGN_TUI_NO_CACHE"


def _code_cache(places: Places) -> Path | None:
    return None if os.environ.get(NO_CACHE_ENV) else places.cache / "code"


def warm_start(places: Places) -> None:
    """Call before the engine is imported (``ui.launch`` does)."""
    folder = _code_cache(places)
    if folder is not None:
        from campaign_tui.core import records

        records.use_compiled(folder)


def keep_warm(places: Places) -> None:
    """Write what this run compiled for the next start (nothing when nothing is new)."""
    folder = _code_cache(places)
    if folder is not None:
        from campaign_tui.core import records

        records.keep_compiled(folder)
