"""A seat's read-only copy of what it may see: an engine built from the seat's projection
(its view of the state and its log), updated by the table server's pushes.

For a side it is exactly what a side's export holds (no seed, no generator position, no
other side's secrets), so the TUI reads it as it reads an export; the GM's holds the full
state and log. Nothing is ever played on a replica: actions go to the server.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.engine import Engine
from campaign_tui.core.history import History, Loader
from campaign_tui.core.info import CampaignInfo
from campaign_tui.core.log import LogEntry
from campaign_tui.core.model import State
from campaign_tui.hosted.delta import apply_to_state
from campaign_tui.registry import load_ruleset


def info_after(info: CampaignInfo, changed: dict[str, Any], dropped: list[str]) -> CampaignInfo:
    """*info* with an update's changed and dropped fields (its bookmarks read again only
    when they are among them)."""
    data = {k: v for k, v in info.to_dict().items() if k not in dropped and k != "bookmarks"}
    data.update(changed)
    new = CampaignInfo.from_dict(data)
    if "bookmarks" not in changed and "bookmarks" not in dropped:
        new.bookmarks = info.bookmarks
    return new


class Replica(Engine):
    @classmethod
    def from_sync(cls, body: dict[str, Any], older: Loader | None = None) -> Replica:
        """The replica of a sync: its log's last entries, the older ones from *older* (the
        table) when they are read."""
        info = CampaignInfo.from_dict(body["info"])
        ruleset = load_ruleset(info.ruleset)
        state = State.from_dict(body["state"], fresh=True)
        history = History(int(body.get("first", 1)) - 1, older)
        for data in body["entries"]:
            history.append(LogEntry.from_dict(data))
        history.mark_saved()
        return cls(ruleset, state, info, history, read_only=True)

    def apply(self, body: dict[str, Any]) -> list[LogEntry]:
        """Take an update: its new entries (returned), and the header and view where it
        brings them (a whole state, or the delta from the one held)."""
        new = [LogEntry.from_dict(d) for d in body["entries"]]
        for entry in new:
            self.history.append(entry)
        self.history.mark_saved()
        if "info" in body:
            self.info = CampaignInfo.from_dict(body["info"])
        elif "info_set" in body or "info_drop" in body:
            self.info = info_after(self.info, body.get("info_set", {}),
                                   body.get("info_drop", []))
        if "state" in body:
            state = State.from_dict(body["state"], fresh=True)
        elif "delta" in body:
            state = apply_to_state(self.state, body["delta"])
        else:
            return new
        if state.machine != self.state.machine:
            self.machine = self.ruleset.machine(state.machine)
        self.state = state
        self._views = {}
        self._terms = {}
        self._tables_cache = None
        self._catalog_cache = None
        return new
