"""Where campaigns live: platformdirs' user folders, or one root given by --home /
CAMPAIGN_TUI_HOME."""

from __future__ import annotations

import os
from pathlib import Path

from campaign_tui.core.records import record

APP = "campaign-tui"
NO_CACHE_ENV = "CAMPAIGN_TUI_NO_CACHE"   # set: no cache is read or written


@record(frozen=True)
class Places:
    campaigns: Path   # user data dir: the user's campaigns
    state: Path       # user state dir: autosaves and crash recovery
    config: Path      # user config dir
    cache: Path       # user cache dir: parsed-file cache (safe to delete)

    @property
    def trash(self) -> Path:
        return self.campaigns.parent / "trash"

    @property
    def recovery(self) -> Path:
        return self.state / "recovery"

    def cached(self, name: str) -> Path | None:
        """*name* in the cache folder; None when caches are turned off (``NO_CACHE_ENV``)."""
        return None if os.environ.get(NO_CACHE_ENV) else self.cache / name

    def ensure(self) -> Places:
        for p in (self.campaigns, self.state, self.config, self.recovery):
            p.mkdir(parents=True, exist_ok=True)
        return self


def places(home: str | Path | None = None) -> Places:
    root = home or os.environ.get("CAMPAIGN_TUI_HOME")
    if root:
        base = Path(root).expanduser()
        return Places(base / "campaigns", base / "state", base / "config", base / "cache")
    import platformdirs

    return Places(Path(platformdirs.user_data_dir(APP)) / "campaigns",
                  Path(platformdirs.user_state_dir(APP)),
                  Path(platformdirs.user_config_dir(APP)),
                  Path(platformdirs.user_cache_dir(APP)))
