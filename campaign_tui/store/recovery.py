"""Crash recovery: a journal of actions not yet saved, kept under the user state folder.

The TUI saves a campaign when the user asks (ctrl+s). Between saves, every action is
appended to this journal (cheap: one small append and fsync), so after a crash or a
killed terminal the next start can offer to restore the unsaved work. A clean save or
quit removes the journal.

If another writer saved the campaign meanwhile, the journal cannot be re-applied as it
is; :func:`apply_on_top` performs its actions again on the new state instead, with their
logged dice typed in, and reports the ones that no longer apply.
"""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import field
from pathlib import Path

from campaign_tui.core.changes import apply_changes
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import CampaignError, SaveError
from campaign_tui.core.info import CampaignInfo, now_iso
from campaign_tui.core.log import REDO, UNDO, LogEntry
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


@record
class OnTop:
    """What applying a journal on top of a changed campaign did."""

    applied: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def is_stale(engine: Engine, journal: Journal) -> bool:
    """The campaign was saved again (by another writer) after the journal began."""
    return len(engine.history) != journal.base_log_length


def effective(journal: Journal) -> tuple[list[LogEntry], list[str]]:
    """The journal's actions still in effect at its end (undone ones dropped, redone ones
    kept), and the undo/redo steps that reach outside the journal (not replayable)."""
    by_seq = {e.seq: e for e in journal.entries}
    kept: list[int] = []
    outside: list[str] = []
    for e in journal.entries:
        if e.kind in (UNDO, REDO):
            if e.target not in by_seq:
                outside.append(f"{e.summary} (it undoes or redoes an older, saved action)")
            elif e.kind == UNDO and e.target in kept:
                kept.remove(e.target)
            elif e.kind == REDO:
                kept.append(e.target)
        elif e.changes or e.rolls:
            kept.append(e.seq)
    return [by_seq[s] for s in kept], outside


def apply_on_top(engine: Engine, journal: Journal) -> OnTop:
    """Apply the journal's actions to a campaign that changed since the journal began:
    each is performed again with its logged parameters and answers, its dice given as
    typed dice (so the log marks them ``[typed]``); one that no longer applies is skipped
    and reported, and the rest go on."""
    report = OnTop()
    todo, report.skipped = effective(journal)
    for e in todo:
        answers = dict(e.answers)
        for r in e.rolls:
            if r.kind == "dice" and f"override:roll{r.n}" not in answers:
                answers[f"roll{r.n}"] = list(r.dice)
        try:
            engine.perform(e.kind, dict(e.params), answers, by=e.by)
        except CampaignError as exc:
            report.skipped.append(f"{e.summary}: {exc}")
            continue
        report.applied.append(e.summary)
    return report


def discard(journal: Journal) -> None:
    with contextlib.suppress(OSError):
        shutil.rmtree(journal.folder)
