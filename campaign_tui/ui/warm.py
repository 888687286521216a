"""What the TUI's start-up reads back from the user cache folder before the engine is
imported: the record methods the last run compiled (core/records.py). The app writes them
back once its first screen is up (``CampaignApp.keep_caches``). ``CAMPAIGN_TUI_NO_CACHE``
turns this off, as it does the other caches."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from campaign_tui.store.paths import Places

NO_CACHE_ENV = "CAMPAIGN_TUI_NO_CACHE"


def code_cache(places: Places) -> Path:
    return places.cache / "code"


def warm_start(places: Places) -> None:
    """Call before the engine is imported (``ui.launch`` does)."""
    if not os.environ.get(NO_CACHE_ENV):
        from campaign_tui.core import records

        records.use_compiled(code_cache(places))
