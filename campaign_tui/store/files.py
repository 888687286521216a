"""Campaigns on disk.

**Folder** (the working format, chosen by measurement; see README "Save layout")::

    my-campaign/
      campaign.toml         header: the commit point (schema, rule-set pin, seed, generator
                            position, history pointer, bookmarks, log length)
      snapshots/s00000123.toml   the whole state after entry 123 (one line per unit)
      log/l00000101.toml    immutable segments of 100 log entries ([[entry]] tables);
                            only the last one grows, by appending
      backups/              the last headers, rotated
      campaign.lock         who holds it open for writing

Saving appends the new entries to the open segment (fsync), writes a snapshot when a phase
boundary was crossed or 100 entries have passed, then replaces the header atomically. A
crash at any moment leaves the previous header, which names only bytes already on disk.
Opening reads the header, the latest snapshot and the few entries after it: never the
year of history behind it.

**Bundle**: one TOML file with the header, the initial state, the current state and the
whole log: what ``campaign-tui export`` writes to be mailed, and how the bundled examples
ship. A bundle opens and saves as it is (rewritten atomically, with ``.bak`` copies).
"""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui import __version__
from campaign_tui.core.changes import apply_changes
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import CampaignError, SaveError
from campaign_tui.core.history import History
from campaign_tui.core.info import CampaignInfo, now_iso
from campaign_tui.core.log import LogEntry
from campaign_tui.core.model import State, snapshot_row_paths
from campaign_tui.core.records import record
from campaign_tui.store import parse_cache, tomlio
from campaign_tui.store.atomic import append_at, atomic_write
from campaign_tui.store.lock import Lock
from campaign_tui.store.migrations import SCHEMA_VERSION, SaveDocs, migrate
from campaign_tui.store.serial import (
    SAVE_COMMENT,
    check_schema,
    entries_from,
    entries_to_text,
    info_from,
    probe,
    snapshot_doc,
    snapshot_text,
    state_from,
    state_to_text,
)
from campaign_tui.store.side_export import side_bundle_text

if TYPE_CHECKING:
    from campaign_tui.core.ruleset import RuleSet

HEADER = "campaign.toml"
SEGMENT_SIZE = 100
SNAPSHOT_EVERY = 100
KEEP_RECENT_SNAPSHOTS = 6
KEEP_BACKUPS = 5
FOLDER_FORMAT = "campaign-tui/folder"
BUNDLE_FORMAT = "campaign-tui/bundle"
HEADER_ROWS = ("campaign.bookmarks", "files.snapshots")

def _seg_name(first: int) -> str:
    return f"log/l{first:08d}.toml"


def _snap_name(seq: int) -> str:
    return f"snapshots/s{seq:08d}.toml"


def _segment_first(seq: int) -> int:
    return ((seq - 1) // SEGMENT_SIZE) * SEGMENT_SIZE + 1


def pin_warnings(info: CampaignInfo, ruleset: RuleSet) -> list[str]:
    if info.ruleset_version == ruleset.version and info.data_hash == ruleset.data_hash():
        return []
    return [f"This campaign was made with {ruleset.name} {info.ruleset_version} (data "
            f"{info.data_hash or '?'}); the installed rule set is {ruleset.version} (data "
            f"{ruleset.data_hash()}). Shipped tables or unit values may have changed, so a "
            "replay of old turns may differ; the campaign's own state is unchanged."]


@record
class Opened:
    engine: Engine
    store: FolderStore | BundleStore | None
    warnings: list[str] = field(default_factory=list)


class FolderStore:
    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.lock = Lock(self.path / "campaign.lock", self.path)
        self.open_bytes = 0           # committed length of the last (open) segment
        self.snapshots: list[dict[str, Any]] = []   # [{seq, turn_start}]
        self.last_snapshot = 0
        self._seg_cache: dict[int, list[LogEntry]] = {}
        self._length = 0               # log entries already on disk
        self.ruleset: RuleSet | None = None

    # -- creating ----------------------------------------------------------------------
    @classmethod
    def create(cls, engine: Engine, path: Path) -> FolderStore:
        path = Path(path)
        if path.exists() and any(path.iterdir()):
            raise SaveError(path, "a campaign or other files are already there")
        (path / "log").mkdir(parents=True, exist_ok=True)
        (path / "snapshots").mkdir(exist_ok=True)
        (path / "backups").mkdir(exist_ok=True)
        store = cls(path)
        store.ruleset = engine.ruleset
        store.lock.acquire()
        initial = engine.initial or engine.state
        atomic_write(path / _snap_name(0), state_to_text(initial, 0))
        store.snapshots = [{"seq": 0, "turn_start": True}]
        store.save(engine)
        return store

    # -- opening -----------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path, load_ruleset: Any, read_only: bool = False) -> Opened:
        path = Path(path)
        header_path = path / HEADER
        if not header_path.is_file():
            raise SaveError(path, f"not a campaign folder (no {HEADER})")
        store = cls(path, read_only)
        if not read_only:
            store.lock.acquire()
        try:
            return store._open(load_ruleset)
        except BaseException:
            store.lock.release()
            raise

    def _open(self, load_ruleset: Any) -> Opened:
        header_path = self.path / HEADER
        _raw, text, data = parse_cache.load(header_path)
        version = check_schema(data, header_path, text)
        if version < SCHEMA_VERSION:
            data = self._migrate(data, version)
            text = tomlio.dumps(data)
        if data.get("format") != FOLDER_FORMAT:
            raise SaveError(header_path, f"format must be {FOLDER_FORMAT!r}",
                            tomlio.locate(text, ["format"]))
        info = info_from(data.get("campaign"), header_path, text)
        files = data.get("files")
        if not isinstance(files, dict):
            raise SaveError(header_path, "[files] is missing", tomlio.locate(text, ["files"]))
        try:
            self.open_bytes = int(files.get("open_segment_bytes", 0))
            self.snapshots = [{"seq": int(s["seq"]), "turn_start": bool(s.get("turn_start"))}
                              for s in files.get("snapshots", [])]
        except (TypeError, ValueError, OverflowError, KeyError):
            raise SaveError(header_path, "[files] is damaged",
                            tomlio.locate(text, ["files"])) from None
        if not self.snapshots:
            raise SaveError(header_path, "[files] lists no snapshot", tomlio.locate(text, ["files"]))
        self.last_snapshot = max(s["seq"] for s in self.snapshots)
        self._length = info.log_length
        if self.last_snapshot > info.log_length:
            raise SaveError(header_path, "the latest snapshot is past the end of the log",
                            tomlio.locate(text, ["files"]))
        if info.log_length - self.last_snapshot > SNAPSHOT_EVERY:
            raise SaveError(header_path, f"log_length {info.log_length} does not match the saved "
                            f"log (the latest snapshot is at {self.last_snapshot})",
                            tomlio.locate(text, ["campaign", "log_length"]))
        ruleset = load_ruleset(info.ruleset)
        self.ruleset = ruleset
        state = self._read_snapshot(self.last_snapshot, ruleset)
        history = History(info.log_length, self.load_entries)
        tail = self.load_entries(self.last_snapshot + 1, info.log_length)
        if len(tail) != info.log_length - self.last_snapshot:
            raise SaveError(self.path / _seg_name(_segment_first(max(1, info.log_length))),
                            f"the log ends before entry {info.log_length}, which the header names")
        for entry in tail:
            try:
                apply_changes(state, entry.changes)
            except (KeyError, TypeError, ValueError, OverflowError, AttributeError,
                    CampaignError) as exc:
                raise SaveError(self.path / _seg_name(_segment_first(entry.seq)),
                                f"log entry {entry.seq} cannot be applied: {exc}") from None
        engine = Engine(ruleset, state, info, history, read_only=self.read_only)
        engine.snapshots = self.snapshot_before
        if info.log_length and engine.stream.position < history.get(info.log_length).rng[1]:
            raise SaveError(header_path, "the dice generator position is behind the log",
                            tomlio.locate(text, ["campaign", "rng_position"]))
        probe(engine, self.path / _snap_name(self.last_snapshot))
        return Opened(engine, self, pin_warnings(info, ruleset))

    def _migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        header_path = self.path / HEADER  # check_schema has made sure a chain exists
        if self.read_only:
            raise SaveError(header_path, f"save format {version} needs migrating; open it "
                            "for writing once to migrate it")
        backup = self.path / "backups" / f"before-format-{SCHEMA_VERSION}"
        if not backup.exists():
            shutil.copytree(self.path, backup, ignore=shutil.ignore_patterns(
                "backups", "campaign.lock"))
        docs = SaveDocs(header=data)
        for snap in sorted((self.path / "snapshots").glob("s*.toml")):
            docs.snapshots[snap.name] = tomlio.load(snap)
        open_bytes = int(data.get("files", {}).get("open_segment_bytes", 0))
        segments = sorted((self.path / "log").glob("l*.toml"))
        for seg in segments:
            raw = seg.read_bytes()
            if seg == segments[-1]:
                raw = raw[:open_bytes]
            docs.entries.extend(tomlio.loads(raw.decode("utf-8"), seg).get("entry", []))
        docs = migrate(docs, version)
        for name, doc in docs.snapshots.items():
            atomic_write(self.path / "snapshots" / name,
                         tomlio.dumps(doc, rows=snapshot_row_paths(doc.get("state", {}), "state")))
        by_segment: dict[int, list[dict[str, Any]]] = {}
        for entry in docs.entries:
            by_segment.setdefault(_segment_first(int(entry["seq"])), []).append(entry)
        for start, items in by_segment.items():
            text = tomlio.dumps({"entry": items}, rows=["entry"])
            atomic_write(self.path / _seg_name(start), text)
            docs.header.setdefault("files", {})["open_segment_bytes"] = len(text.encode())
        atomic_write(header_path, tomlio.dumps(docs.header,
                                               rows=HEADER_ROWS))
        return docs.header

    def _read_snapshot(self, seq: int, ruleset: RuleSet) -> State:
        spath = self.path / _snap_name(seq)
        raw, text, data = parse_cache.load(spath)
        check_schema(data, spath, text)
        if data.get("seq") != seq:
            raise SaveError(spath, f"snapshot says seq {data.get('seq')}, expected {seq}",
                            tomlio.locate(text, ["seq"]))
        # these exact bytes already passed every check with this rule set: skip them
        tag = f"state/{ruleset.id}/{ruleset.version}/{ruleset.data_hash()}/{__version__}"
        if isinstance(data.get("state"), dict) and parse_cache.checked(raw, tag):
            return State.from_dict(data["state"], fresh=True)
        state = state_from(data.get("state"), spath, text, ruleset)
        parse_cache.mark_checked(raw, tag)
        return state

    def snapshot_before(self, seq: int) -> tuple[int, State] | None:
        candidates = [s["seq"] for s in self.snapshots if s["seq"] <= seq]
        if not candidates or self.ruleset is None:
            return None
        best = max(candidates)
        return best, self._read_snapshot(best, self.ruleset)

    def load_entries(self, first: int, last: int) -> list[LogEntry]:
        out: list[LogEntry] = []
        start = _segment_first(first)
        while start <= last:
            entries = self._segment(start)
            out.extend(e for e in entries if first <= e.seq <= last)
            start += SEGMENT_SIZE
        return out

    def _segment(self, start: int) -> list[LogEntry]:
        cached = self._seg_cache.get(start)
        if cached is not None:
            return cached
        spath = self.path / _seg_name(start)
        raw = spath.read_bytes() if spath.is_file() else b""
        is_open = self._is_open_segment(start)
        if is_open:
            if len(raw) < self.open_bytes:
                raise SaveError(spath, f"the log segment is shorter ({len(raw)} bytes) than the "
                                f"header says ({self.open_bytes})")
            raw = raw[: self.open_bytes]
        text = tomlio.decode(raw, spath)
        entries = entries_from(parse_cache.loads(raw, spath, text), spath, text, start)
        if len(self._seg_cache) > 4:
            self._seg_cache.pop(next(iter(self._seg_cache)))
        if not is_open:
            self._seg_cache[start] = entries
        return entries

    def _is_open_segment(self, start: int) -> bool:
        return start == _segment_first(max(1, self._length))

    # -- saving ------------------------------------------------------------------------
    def save(self, engine: Engine) -> None:
        if self.read_only:
            raise SaveError(self.path, "opened read-only; save a copy instead")
        pending = list(engine.history.pending)
        length = len(engine.history)
        open_bytes = self.open_bytes
        # 1. append new entries to their segments
        by_segment: dict[int, list[LogEntry]] = {}
        for entry in pending:
            by_segment.setdefault(_segment_first(entry.seq), []).append(entry)
        for start, entries in by_segment.items():
            spath = self.path / _seg_name(start)
            has_saved = self._length >= start and start == _segment_first(max(1, self._length))
            committed = open_bytes if has_saved else 0
            data = entries_to_text(entries).encode("utf-8")
            if committed:
                data = b"\n" + data
            open_bytes = append_at(spath, committed, data)
        # 2. a snapshot at phase boundaries and every SNAPSHOT_EVERY entries
        snapshots = list(self.snapshots)
        new_bookmarks = [b for b in engine.info.bookmarks if b.seq > self.last_snapshot]
        last_snapshot = self.last_snapshot
        if length > self.last_snapshot and (new_bookmarks or
                                            length - self.last_snapshot >= SNAPSHOT_EVERY):
            doc = snapshot_doc(engine.state, length)
            raw = snapshot_text(doc).encode("utf-8")
            atomic_write(self.path / _snap_name(length), raw)
            parse_cache.put(raw, doc)            # the next open need not parse it
            snapshots.append({"seq": length,
                              "turn_start": any(b.turn_start for b in new_bookmarks)})
            last_snapshot = length
        # 3. the header: the commit point
        info = engine.info
        info.where = engine.where()
        info.saved = now_iso()
        info.rng_position = engine.stream.position
        info.log_length = length
        header = {
            "schema_version": SCHEMA_VERSION, "format": FOLDER_FORMAT,
            "campaign": info.to_dict(),
            "files": {"segment_size": SEGMENT_SIZE, "open_segment_bytes": open_bytes,
                      "snapshots": snapshots},
        }
        text = tomlio.dumps(header, rows=HEADER_ROWS,
                            header=SAVE_COMMENT + "\nThis header is the commit point: it names "
                            "what is saved in snapshots/ and log/.")
        self._rotate_backups()
        raw = text.encode("utf-8")
        atomic_write(self.path / HEADER, raw)
        parse_cache.put(raw, header)
        # committed: update the in-memory bookkeeping
        self.open_bytes = open_bytes
        self.snapshots = snapshots
        self.last_snapshot = last_snapshot
        self._length = length
        self._prune_snapshots()
        engine.history.mark_saved()

    def _rotate_backups(self) -> None:
        current = self.path / HEADER
        if not current.exists():
            return
        folder = self.path / "backups"
        folder.mkdir(exist_ok=True)
        for n in range(KEEP_BACKUPS, 1, -1):
            older = folder / f"campaign.{n - 1}.toml"
            if older.exists():
                older.replace(folder / f"campaign.{n}.toml")
        shutil.copyfile(current, folder / "campaign.1.toml")

    def _prune_snapshots(self) -> None:
        keep = {0}
        recent = sorted(s["seq"] for s in self.snapshots)[-KEEP_RECENT_SNAPSHOTS:]
        keep.update(recent)
        keep.update(s["seq"] for s in self.snapshots if s["turn_start"])
        for s in [s for s in self.snapshots if s["seq"] not in keep]:
            with contextlib.suppress(FileNotFoundError):
                (self.path / _snap_name(s["seq"])).unlink()
        self.snapshots = [s for s in self.snapshots if s["seq"] in keep]

    def close(self) -> None:
        self.lock.release()


class BundleStore:
    """A campaign as one TOML file."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.lock = Lock(self.path.with_name(self.path.name + ".lock"), self.path)

    @classmethod
    def open(cls, path: Path, load_ruleset: Any, read_only: bool = False) -> Opened:
        store = cls(path, read_only)
        path = store.path
        _raw, text, data = parse_cache.load(path)
        version = check_schema(data, path, text)
        if version < SCHEMA_VERSION:
            data = _migrate_bundle(path, data, version, read_only)
            text = tomlio.dumps(data)
        if data.get("format") != BUNDLE_FORMAT:
            raise SaveError(path, f"format must be {BUNDLE_FORMAT!r}", tomlio.locate(text, ["format"]))
        info = info_from(data.get("campaign"), path, text)
        export = info.export_side is not None
        if not read_only and not export:
            store.lock.acquire()
        try:
            ruleset = load_ruleset(info.ruleset)
            state = state_from(data.get("current"), path, text, ruleset, ("current",))
            initial = None if export else state_from(data.get("initial"), path, text, ruleset,
                                                     ("initial",))
            entries = entries_from(data, path, text, 1)
            if len(entries) != info.log_length:
                raise SaveError(path, f"the log has {len(entries)} entries but the header says "
                                f"{info.log_length}", tomlio.locate(text, ["campaign", "log_length"]))
            history = History()
            for e in entries:
                history.append(e)
            history.mark_saved()
            engine = Engine(ruleset, state, info, history, read_only=read_only or export)
            engine.initial = initial
            probe(engine, path)
            if initial is not None and not export:
                check = engine.state_at(len(entries)) if entries else initial
                if check != state:
                    raise SaveError(path, "the current state does not match the initial state "
                                    "plus the log (hand-edited?); fix or remove [current]",
                                    tomlio.locate(text, ["current"]))
        except BaseException:
            store.lock.release()
            raise
        return Opened(engine, store if not export else None, pin_warnings(info, ruleset))

    def save(self, engine: Engine) -> None:
        if self.read_only:
            raise SaveError(self.path, "opened read-only; save a copy instead")
        engine.info.saved = now_iso()
        engine.info.where = engine.where()
        engine.info.rng_position = engine.stream.position
        engine.info.log_length = len(engine.history)
        text = bundle_text(engine)
        if self.path.exists():
            for n in range(3, 1, -1):
                older = self.path.with_name(f"{self.path.name}.bak{n - 1}")
                if older.exists():
                    older.replace(self.path.with_name(f"{self.path.name}.bak{n}"))
            shutil.copyfile(self.path, self.path.with_name(f"{self.path.name}.bak1"))
        atomic_write(self.path, text)
        engine.history.mark_saved()

    def close(self) -> None:
        self.lock.release()


def _migrate_bundle(path: Path, data: dict[str, Any], version: int,
                    read_only: bool) -> dict[str, Any]:
    """Run the migration chain on a bundle; unless read-only, keep the original beside it
    and write the migrated file."""
    parts = ("initial", "current")
    docs = SaveDocs(header={k: v for k, v in data.items() if k not in (*parts, "entry")},
                    snapshots={p: {"schema_version": version, "state": data[p]}
                               for p in parts if p in data},
                    entries=list(data.get("entry", [])))
    docs = migrate(docs, version)
    out = dict(docs.header)
    for p in parts:
        if p in docs.snapshots:
            out[p] = docs.snapshots[p]["state"]
    out["entry"] = docs.entries
    if not read_only:
        backup = path.with_name(f"{path.name}.before-format-{SCHEMA_VERSION}")
        if not backup.exists():
            shutil.copyfile(path, backup)
        rows = ["campaign.bookmarks", "entry"]
        for p in parts:
            if p in out:
                rows += snapshot_row_paths(out[p], p)
        atomic_write(path, tomlio.dumps(out, rows=rows, header=SAVE_COMMENT))
    return out


def bundle_text(engine: Engine, side: str | None = None) -> str:
    """The single-file form of a campaign; with *side*, that side's export only."""
    if side is not None:
        return side_bundle_text(engine, side)
    engine.info.where = engine.where()
    info = engine.info.to_dict()
    current = engine.state.to_dict()
    doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "format": BUNDLE_FORMAT,
                           "campaign": info}
    rows = ["campaign.bookmarks", "entry", *snapshot_row_paths(current, "current")]
    initial = engine.initial if engine.initial is not None else engine.state_at(0)
    initial_d = initial.to_dict()
    doc["initial"] = initial_d
    rows += snapshot_row_paths(initial_d, "initial")
    doc["current"] = current
    doc["entry"] = [e.to_dict() for e in engine.entries()]
    note = "A whole campaign in one file: header, initial state, current state, full log."
    return tomlio.dumps(doc, rows=rows, header=f"{SAVE_COMMENT}\n{note}")


# -- facade -------------------------------------------------------------------------------
def is_folder_campaign(path: Path) -> bool:
    return path.is_dir() and (path / HEADER).is_file()


def open_campaign(path: Path, load_ruleset: Any, read_only: bool = False) -> Opened:
    path = Path(path)
    if path.is_dir():
        return FolderStore.open(path, load_ruleset, read_only)
    if path.is_file():
        return BundleStore.open(path, load_ruleset, read_only)
    raise SaveError(path, "no campaign there (neither a campaign folder nor a save file)")


def create_campaign(engine: Engine, path: Path) -> FolderStore:
    return FolderStore.create(engine, path)


def export_bundle(engine: Engine, path: Path, side: str | None = None) -> None:
    side = side or engine.info.export_side  # a player's copy only ever yields that side's view
    atomic_write(Path(path), bundle_text(engine, side))


def import_bundle(bundle: Path, folder: Path, load_ruleset: Any,
                  name: str | None = None) -> FolderStore:
    """Turn a bundle into a folder campaign (for playing a bundled example or a mailed save)."""
    opened = BundleStore.open(bundle, load_ruleset, read_only=True)
    engine = opened.engine
    if name:
        engine.info.name = name
    if engine.info.export_side:
        raise CampaignError(
            f"{bundle.name} is {engine.actor_name(engine.info.export_side)}'s view of "
            f"\"{engine.info.name}\" (a side's export): it has no dice generator and no other "
            "side's secrets, so it cannot become a playable campaign. Open it as it is "
            f"(`campaign-tui open {bundle}`) to read it in player mode.")
    engine.read_only = False
    engine.history.pending = engine.entries()
    store = FolderStore.create(engine, folder)
    return store
