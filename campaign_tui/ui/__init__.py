"""The Textual interface. Imported only when the TUI starts."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from campaign_tui.store.paths import Places


def launch(places: Places, campaign: Path | None, read_only: bool = False) -> int:
    """Run the TUI: the campaign picker, or straight into *campaign*."""
    from campaign_tui.ui.app import CampaignApp

    app = CampaignApp(places, campaign, read_only=read_only)
    app.run()
    return app.return_code or 0
