"""Crash recovery: a journal of actions not yet saved, kept under the user state folder.

The TUI saves a campaign when the user asks (ctrl+s). Between saves, every action is
appended to this journal (cheap: one small append and fsync), so after a crash or a
killed terminal the next start can offer to restore the unsaved work. A clean save or
quit removes the journal.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from campaign_tui.core.changes import apply_changes
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import CampaignError, SaveError
from campaign_tui.core.info import CampaignInfo, now_iso
from campaign_tui.core.log import LogEntry
from campaign_tui.core.records import record
from campaign_tui.store import tomlio
from campaign_tui.store.atomic import append_at, atomic_write
from campaign_tui.store.migrations import SCHEMA_VERSION
from campaign_tui.store.paths import Places
from campaign_tui.store.serial import entries_from, entries_to_text, info_from

HEADER = "journal.toml"
ENTRIES = "entries.toml"


@record
class Journal:
    folder: Path
    campaign: Path
    base_log_length: int
    written: str
    info: CampaignInfo
    entries: list[LogEntry]

    @property
    def count(self) -> int:
        return len(self.entries)


class Recorder:
    """Keeps the journal of one open campaign up to date."""

    def __init__(self, places: Places, campaign: Path, engine: Engine) -> None:
        self.folder = places.recovery / engine.info.id
        self.campaign = Path(campaign).resolve()
        self.engine = engine
        self.base = len(engine.history) - len(engine.history.pending)
        self.written = 0          # entries already in the journal
        self.bytes = 0

    def update(self) -> None:
        """Append the entries made since the last call and refresh the journal header."""
        pending = self.engine.history.pending
        if not pending:
            self.clear()
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        new = pending[self.written:]
        if new:
            data = entries_to_text(new).encode("utf-8")
            if self.bytes:
                data = b"\n" + data
            self.bytes = append_at(self.folder / ENTRIES, self.bytes, data)
            self.written = len(pending)
        header = {"schema_version": SCHEMA_VERSION, "campaign_path": str(self.campaign),
                  "base_log_length": self.base, "entries_bytes": self.bytes,
                  "written": now_iso(), "campaign": self.engine.info.to_dict()}
        atomic_write(self.folder / HEADER, tomlio.dumps(header, rows=["campaign.bookmarks"]))

    def saved(self) -> None:
        """The campaign was saved: nothing is left to recover."""
        self.base = len(self.engine.history)
        self.clear()

    def clear(self) -> None:
        self.written = 0
        self.bytes = 0
        if self.folder.exists():
            shutil.rmtree(self.folder, ignore_errors=True)


def find(places: Places, campaign_id: str) -> Journal | None:
    """The journal left for a campaign, if any (a damaged one is reported, not fatal)."""
    folder = places.recovery / campaign_id
    header = folder / HEADER
    if not header.is_file():
        return None
    text = tomlio.read_text(header)
    data = tomlio.loads(text, header)
    try:
        size = int(data["entries_bytes"])
        base = int(data["base_log_length"])
        campaign = Path(str(data["campaign_path"]))
    except (KeyError, TypeError, ValueError):
        raise SaveError(header, "damaged recovery journal header") from None
    info = info_from(data.get("campaign"), header, text)
    raw = (folder / ENTRIES).read_bytes()[:size] if (folder / ENTRIES).is_file() else b""
    etext = raw.decode("utf-8", errors="replace")
    entries = entries_from(tomlio.loads(etext, folder / ENTRIES), folder / ENTRIES, etext,
                           base + 1)
    return Journal(folder, campaign, base, str(data.get("written", "")), info, entries)


def restore(engine: Engine, journal: Journal) -> int:
    """Re-apply the journal's entries to a freshly opened campaign; returns how many."""
    if len(engine.history) != journal.base_log_length:
        raise CampaignError(
            f"the recovery journal starts after entry {journal.base_log_length}, but the saved "
            f"campaign has {len(engine.history)} entries (saved again since?); not restored")
    for entry in journal.entries:
        apply_changes(engine.state, entry.changes)
        engine.history.append(entry)
    info = engine.info
    info.head, info.redo = journal.info.head, list(journal.info.redo)
    info.bookmarks = list(journal.info.bookmarks)
    info.log_length = len(engine.history)
    info.rng_position = journal.info.rng_position
    engine.stream.position = journal.info.rng_position
    return len(journal.entries)


def discard(journal: Journal) -> None:
    with contextlib.suppress(OSError):
        shutil.rmtree(journal.folder)
