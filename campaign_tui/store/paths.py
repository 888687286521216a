"""Where campaigns live: platformdirs' user folders, or one root given by --home /
CAMPAIGN_TUI_HOME."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

APP = "campaign-tui"


@dataclass(frozen=True)
class Places:
    campaigns: Path   # user data dir: the user's campaigns
    state: Path       # user state dir: autosaves and crash recovery
    config: Path      # user config dir

    @property
    def trash(self) -> Path:
        return self.campaigns.parent / "trash"

    @property
    def recovery(self) -> Path:
        return self.state / "recovery"

    def ensure(self) -> Places:
        for p in (self.campaigns, self.state, self.config, self.recovery):
            p.mkdir(parents=True, exist_ok=True)
        return self


def places(home: str | Path | None = None) -> Places:
    root = home or os.environ.get("CAMPAIGN_TUI_HOME")
    if root:
        base = Path(root).expanduser()
        return Places(base / "campaigns", base / "state", base / "config")
    import platformdirs

    return Places(Path(platformdirs.user_data_dir(APP)) / "campaigns",
                  Path(platformdirs.user_state_dir(APP)),
                  Path(platformdirs.user_config_dir(APP)))
