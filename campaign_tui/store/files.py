"""Campaigns on disk.

**Folder** (the working format, chosen by measurement; see README "Save layout")::

    my-campaign/
      campaign.toml         header: the commit point (schema, rule-set pin, seed, generator
                            position, history pointer, bookmarks, log length, and the
                            hash of every snapshot and segment it names)
      snapshots/s00000123.toml   the whole state after entry 123 (one line per unit), with
                            the seed, dice position and history pointer at that entry
      log/l00000101.toml    immutable segments of 100 log entries ([[entry]] tables);
                            only the last one grows, by appending
      backups/              the last headers, rotated
      campaign.lock         the operating-system write lock (see store/lock.py)
      campaign.holder       who holds it, for the "already open" message

Saving appends the new entries to the open segment (fsync), writes a snapshot when a phase
boundary was crossed or 100 entries have passed, then replaces the header atomically, and
only then deletes the snapshots the new header no longer names. A crash at any moment
leaves the previous header, which names only bytes already on disk. Opening reads the
header, the latest snapshot and the few entries after it (never the year of history behind
it), checks their hashes, and follows the log from the snapshot to check the header's
history pointer and dice position.

**Bundle**: one TOML file with the header, the initial state, the current state and the
whole log: what ``campaign-tui export`` writes to be mailed, and how the bundled examples
ship. A bundle opens and saves as it is (rewritten atomically, with ``.bak`` copies).
"""

from __future__ import annotations

import contextlib
import errno
import os
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
from campaign_tui.store.atomic import (
    append_at,
    atomic_write,
    clean_stale_temporaries,
    fsync_dir,
    temporary_name,
)
from campaign_tui.store.integrity import (
    MAX_REPLAY,
    Pointer,
    file_hash,
    follow,
    log_hash,
    retained,
    seed_disagrees,
)
from campaign_tui.store.lock import Lock
from campaign_tui.store.log_index import LogIndex
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
)
from campaign_tui.store.side_export import side_bundle_text

if TYPE_CHECKING:
    from campaign_tui.core.ruleset import RuleSet

HEADER = "campaign.toml"
LOCK = "campaign.lock"
SEGMENT_SIZE = 100
KEEP_BACKUPS = 5
FOLDER_FORMAT = "campaign-tui/folder"
BUNDLE_FORMAT = "campaign-tui/bundle"
HEADER_ROWS = ("campaign.bookmarks", "files.snapshots", "files.segments")
CHANGED = ("changed since it was saved (its bytes do not match the hash campaign.toml "
           "records); put the original file back, or open a copy of the campaign from "
           "before the change")

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
        self.lock = Lock(self.path / LOCK, self.path)
        self.snapshots: list[dict[str, Any]] = []   # [{seq, turn_start, hash}]
        self.segments: dict[int, dict[str, Any]] = {}   # first seq -> {bytes, hash}
        self.last_snapshot = 0
        self.pointer = Pointer()       # head / redo / dice position at the saved length
        self._seg_cache: dict[int, list[LogEntry]] = {}
        self._length = 0               # log entries already on disk
        self.ruleset: RuleSet | None = None
        self.index: LogIndex | None = None     # the sealed segments' index (log_index.py)

    @property
    def open_bytes(self) -> int:
        """Committed length of the last (open) segment."""
        seg = self.segments.get(_segment_first(max(1, self._length)))
        return int(seg["bytes"]) if seg else 0

    # -- creating ----------------------------------------------------------------------
    @classmethod
    def create(cls, engine: Engine, path: Path) -> FolderStore:
        """Write a new campaign folder at *path*. It is built in a temporary folder beside
        it and renamed into place, so an interrupted creation leaves no half campaign."""
        path = Path(path)
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise SaveError(path, "a campaign or other files are already there")
        parent = path.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SaveError(path, f"cannot create a campaign there ({exc.strerror or exc}); "
                            "choose another place") from None
        clean_stale_temporaries(parent)
        work = temporary_name(path)
        store = cls(work)
        store.ruleset = engine.ruleset
        try:
            for sub in ("log", "snapshots", "backups"):
                (work / sub).mkdir(parents=True, exist_ok=True)
            store.lock.acquire()
            initial = engine.initial or engine.state
            entries = engine.history.pending
            start = Pointer(0, (), entries[0].rng[0] if entries else engine.info.rng_position)
            store.snapshots = [store._write_snapshot(initial, 0, start, engine.info.seed, True)]
            store.pointer = start
            store.save(engine)
            if path.exists():
                path.rmdir()            # an empty folder given by the user
            os.rename(work, path)
        except BaseException as exc:
            store.lock.release()
            shutil.rmtree(work, ignore_errors=True)
            if isinstance(exc, OSError):
                raise SaveError(path, f"cannot create a campaign there ({exc.strerror or exc}); "
                                "choose another place") from None
            raise
        fsync_dir(parent)
        store._move_to(path)
        store._attach_index(engine)
        return store

    def _move_to(self, path: Path) -> None:
        """The folder was renamed: the lock (an open file) stays held across the rename."""
        self.path = path
        self.lock.path = path / LOCK
        self.lock.campaign = path
        self.lock.holder_file = path / self.lock.holder_file.name

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
            opened = store._open(load_ruleset)
            if not read_only:
                store._clean_leftovers()
            return opened
        except BaseException:
            store.lock.release()
            raise

    def _open(self, load_ruleset: Any) -> Opened:
        header_path = self.path / HEADER
        _raw, text, data = parse_cache.load(header_path)
        version = check_schema(data, header_path, text)
        if version < SCHEMA_VERSION:
            data = self._migrate(data, version)
            text = tomlio.dumps(data, rows=HEADER_ROWS)
        if data.get("format") != FOLDER_FORMAT:
            raise SaveError(header_path, f"format must be {FOLDER_FORMAT!r}",
                            tomlio.locate(text, ["format"]))
        info = info_from(data.get("campaign"), header_path, text)
        self._length = info.log_length
        self._read_files_table(data.get("files"), info.log_length, header_path, text)
        ruleset = load_ruleset(info.ruleset)
        self.ruleset = ruleset
        snap_path = self.path / _snap_name(self.last_snapshot)
        state, at, seed = self._read_snapshot(self.last_snapshot, ruleset, with_pointer=True)
        if seed != info.seed:
            raise SaveError(header_path, f"seed {info.seed} differs from the seed {seed} "
                            f"recorded in {_snap_name(self.last_snapshot)}",
                            tomlio.locate(text, ["campaign", "seed"]))
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
        self.pointer = follow(at, tail, history.get)
        check_pointer(info, self.pointer, header_path, text)
        engine = Engine(ruleset, state, info, history, read_only=self.read_only)
        engine.snapshots = self.snapshot_near
        self._attach_index(engine)
        probe(engine, snap_path)
        return Opened(engine, self, pin_warnings(info, ruleset))

    def _sealed(self, length: int) -> dict[int, str]:
        """The hashes of the full (immutable) segments among the first *length* entries."""
        return {first: str(row["hash"]) for first, row in self.segments.items()
                if first + SEGMENT_SIZE - 1 <= length}

    def _attach_index(self, engine: Engine) -> None:
        self.index = LogIndex(self.path, self._sealed(self._length), self._indexable,
                              lambda: [b.seq for b in engine.info.bookmarks],
                              writable=not self.read_only)
        engine.log_index = self.index

    def _indexable(self, first: int) -> tuple[list[LogEntry], bytes]:
        """One sealed segment for the index, read apart from the segment cache (the TUI
        builds the index of an older campaign in a worker thread)."""
        raw = self._committed_segment(first)
        spath = self.path / _seg_name(first)
        text = tomlio.decode(raw, spath)
        return entries_from(tomlio.loads(text, spath), spath, text, first), raw

    def _read_files_table(self, files: Any, length: int, header_path: Path, text: str) -> None:
        where = tomlio.locate(text, ["files"])
        if not isinstance(files, dict):
            raise SaveError(header_path, "[files] is missing", where)
        try:
            self.snapshots = [{"seq": _whole(s["seq"]), "turn_start": bool(s.get("turn_start")),
                               "hash": str(s["hash"])} for s in files.get("snapshots", [])]
            self.segments = {_whole(s["first"]): {"bytes": _whole(s["bytes"]),
                                                  "hash": str(s["hash"])}
                             for s in files.get("segments", [])}
        except (TypeError, ValueError, KeyError, AttributeError):
            raise SaveError(header_path, "[files] is damaged (each snapshot and segment needs "
                            "its number and hash)", where) from None
        if not self.snapshots:
            raise SaveError(header_path, "[files] lists no snapshot", where)
        if len({s["seq"] for s in self.snapshots}) != len(self.snapshots):
            raise SaveError(header_path, "[files] lists a snapshot twice", where)
        self.last_snapshot = max(s["seq"] for s in self.snapshots)
        if min(s["seq"] for s in self.snapshots) < 0 or self.last_snapshot > length:
            raise SaveError(header_path, "[files] names a snapshot outside the log", where)
        if length - self.last_snapshot > MAX_REPLAY:
            raise SaveError(header_path, f"log_length {length} does not match the saved "
                            f"log (the latest snapshot is at {self.last_snapshot})",
                            tomlio.locate(text, ["campaign", "log_length"]))
        expected = set(range(1, length + 1, SEGMENT_SIZE))
        if set(self.segments) != expected:
            raise SaveError(header_path, "[files] segments do not match log_length "
                            f"{length}", where)

    def _migrate(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        header_path = self.path / HEADER  # check_schema has made sure a chain exists
        if self.read_only:
            raise SaveError(header_path, f"save format {version} needs migrating; open it "
                            "for writing once to migrate it")
        backup = self.path / "backups" / f"before-format-{SCHEMA_VERSION}"
        if not backup.exists():
            shutil.copytree(self.path, backup, ignore=shutil.ignore_patterns(
                "backups", LOCK, "*.holder", ".*.tmp"))
        docs = SaveDocs(header=data)
        for snap in sorted((self.path / "snapshots").glob("s*.toml")):
            docs.snapshots[snap.name] = tomlio.load(snap)
        files = data.get("files", {})
        open_bytes = int(files.get("open_segment_bytes", 0))
        segments = sorted((self.path / "log").glob("l*.toml"))
        for seg in segments:
            raw = seg.read_bytes()
            if seg == segments[-1]:
                raw = raw[:open_bytes]
            docs.entries.extend(tomlio.loads(tomlio.decode(raw, seg), seg).get("entry", []))
        docs = migrate(docs, version)
        files = docs.header.setdefault("files", {})
        hashes: dict[int, str] = {}
        for name, doc in docs.snapshots.items():
            raw = tomlio.dumps(doc, rows=snapshot_row_paths(doc.get("state", {}), "state")
                               ).encode("utf-8")
            atomic_write(self.path / "snapshots" / name, raw)
            hashes[int(doc.get("seq", -1))] = file_hash(raw)
        for row in files.get("snapshots", []):
            row["hash"] = hashes.get(int(row["seq"]), "")
        by_segment: dict[int, list[dict[str, Any]]] = {}
        for entry in docs.entries:
            by_segment.setdefault(_segment_first(int(entry["seq"])), []).append(entry)
        files["segments"] = []
        for start, items in sorted(by_segment.items()):
            raw = tomlio.dumps({"entry": items}, rows=["entry"]).encode("utf-8")
            atomic_write(self.path / _seg_name(start), raw)
            files["segments"].append({"first": start, "bytes": len(raw), "hash": file_hash(raw)})
            files["open_segment_bytes"] = len(raw)
        atomic_write(header_path, tomlio.dumps(docs.header, rows=HEADER_ROWS))
        return docs.header

    def _snapshot_row(self, seq: int) -> dict[str, Any]:
        for s in self.snapshots:
            if s["seq"] == seq:
                return s
        raise SaveError(self.path / HEADER, f"names no snapshot for entry {seq}")

    def _read_snapshot(self, seq: int, ruleset: RuleSet, with_pointer: bool = False) -> Any:
        spath = self.path / _snap_name(seq)
        raw = tomlio.read_bytes(spath)
        text = tomlio.decode(raw, spath)
        data = parse_cache.loads(raw, spath, text)
        check_schema(data, spath, text)
        if data.get("seq") != seq:
            raise SaveError(spath, f"snapshot says seq {data.get('seq')}, expected {seq}",
                            tomlio.locate(text, ["seq"]))
        # these exact bytes already passed every check with this rule set: skip them
        tag = f"state/{ruleset.id}/{ruleset.version}/{ruleset.data_hash()}/{__version__}"
        if isinstance(data.get("state"), dict) and parse_cache.checked(raw, tag):
            state = State.from_dict(data["state"], fresh=True)
        else:
            state = state_from(data.get("state"), spath, text, ruleset)
            parse_cache.mark_checked(raw, tag)
        # checked after the content, so that a bad hand edit gets its precise message
        if file_hash(raw) != self._snapshot_row(seq)["hash"]:
            raise SaveError(spath, CHANGED)
        if not with_pointer:
            return state
        try:
            at = Pointer.from_dict(data.get("campaign"))
            seed = data["campaign"]["seed"]
        except (ValueError, KeyError, TypeError) as exc:
            raise SaveError(spath, str(exc).strip("'"), tomlio.locate(text, ["campaign"])) from None
        return state, at, seed

    def snapshot_before(self, seq: int) -> tuple[int, State] | None:
        candidates = [s["seq"] for s in self.snapshots if s["seq"] <= seq]
        if not candidates or self.ruleset is None:
            return None
        best = max(candidates)
        return best, self._read_snapshot(best, self.ruleset)

    def snapshot_near(self, seq: int) -> tuple[int, State] | None:
        """The kept snapshot to show entry *seq* from: the one whose replay (forward from
        a snapshot before, or backward from one after) reads the fewest log segments, then
        the fewest entries. Retention keeps one within MAX_REPLAY before any position."""
        if self.ruleset is None:
            return None

        def cost(at: int) -> tuple[int, int]:
            lo, hi = sorted((at, seq))
            files = 0 if lo == hi else len({_segment_first(lo + 1), _segment_first(hi)})
            return files, hi - lo

        near = [s["seq"] for s in self.snapshots if abs(s["seq"] - seq) <= MAX_REPLAY]
        if not near:
            return self.snapshot_before(seq)
        best = min(near, key=cost)
        return best, self._read_snapshot(best, self.ruleset)

    def load_entries(self, first: int, last: int) -> list[LogEntry]:
        """The saved entries first..last (those past the last save are the engine's)."""
        out: list[LogEntry] = []
        last = min(last, self._length)
        start = _segment_first(first)
        while start <= last:
            entries = self._segment(start)
            out.extend(e for e in entries if first <= e.seq <= last)
            start += SEGMENT_SIZE
        return out

    def _committed_segment(self, start: int) -> bytes:
        """The committed bytes of one segment, checked against the header's hash."""
        spath = self.path / _seg_name(start)
        row = self.segments.get(start)
        if row is None:
            raise SaveError(self.path / HEADER, f"names no log segment for entry {start}")
        raw = tomlio.read_bytes(spath) if row["bytes"] else b""
        if len(raw) < row["bytes"]:
            raise SaveError(spath, f"the log segment is shorter ({len(raw)} bytes) than the "
                            f"header says ({row['bytes']})")
        raw = raw[: row["bytes"]]
        if file_hash(raw) != row["hash"]:
            raise SaveError(spath, CHANGED)
        return raw

    def _segment(self, start: int) -> list[LogEntry]:
        cached = self._seg_cache.get(start)
        if cached is not None:
            return cached
        spath = self.path / _seg_name(start)
        raw = self._committed_segment(start)
        text = tomlio.decode(raw, spath)
        entries = entries_from(parse_cache.loads(raw, spath, text), spath, text, start)
        if len(self._seg_cache) > 4:
            self._seg_cache.pop(next(iter(self._seg_cache)))
        self._seg_cache[start] = entries
        return entries

    def audit(self, engine: Engine) -> list[str]:
        """Replay the whole log's changes from the first snapshot and compare with every
        snapshot kept on the way and with the current state: the first departure, naming
        the file and the entry (what ``check`` reports)."""
        if self.ruleset is None:
            return []
        seqs = sorted(s["seq"] for s in self.snapshots)
        state = self._read_snapshot(seqs[0], self.ruleset)
        pointer = self._read_snapshot(seqs[0], self.ruleset, with_pointer=True)[1]
        for entry in engine.entries(seqs[0] + 1):
            where = f"{_seg_name(_segment_first(entry.seq))} entry {entry.seq}"
            try:
                apply_changes(state, entry.changes)
            except (KeyError, TypeError, ValueError, AttributeError, CampaignError) as exc:
                return [f"{where} cannot be applied to the state before it ({exc})"]
            pointer = follow(pointer, [entry], engine.history.get)
            if entry.seq in seqs:
                saved, at, _seed = self._read_snapshot(entry.seq, self.ruleset, with_pointer=True)
                if saved != state or at != pointer:
                    return [f"{_snap_name(entry.seq)} does not match the log replayed up to "
                            f"{where}; the log departs from the saved state there"]
        if state != engine.state:
            return [f"the current state does not match the log replayed up to entry "
                    f"{len(engine.history)} ({_seg_name(_segment_first(max(1, len(engine.history))))})"]
        return []

    def _clean_leftovers(self) -> None:
        """Opened for writing, with the header durable: remove what interrupted saves left
        (temporary files, snapshots and segments the header does not name)."""
        named = {_snap_name(s["seq"]) for s in self.snapshots}
        named |= {_seg_name(first) for first in self.segments}
        for folder in (self.path, self.path / "log", self.path / "snapshots",
                       self.path / "backups"):
            clean_stale_temporaries(folder)
        for sub, prefix in (("snapshots", "s"), ("log", "l")):
            try:
                names = os.listdir(self.path / sub)
            except OSError:
                continue
            for name in names:
                if name.startswith(prefix) and name.endswith(".toml") \
                        and f"{sub}/{name}" not in named:
                    with contextlib.suppress(OSError):
                        (self.path / sub / name).unlink()

    # -- saving ------------------------------------------------------------------------
    def save(self, engine: Engine) -> None:
        """Append the new entries, write the snapshots they call for, then replace the
        header (the commit point); only then delete what the new header no longer names.
        Everything is prepared in memory first, so a value that cannot be written stops the
        save before any byte reaches the disk."""
        if self.read_only:
            raise SaveError(self.path, "opened read-only; save a copy instead")
        try:
            plan = self._plan(engine)
        except (TypeError, ValueError) as exc:
            raise SaveError(self.path / HEADER, f"cannot be saved: {exc}; nothing was "
                            "written (undo the last action, or report this)") from None
        try:
            for spath, committed, data in plan.appends:
                append_at(spath, committed, data)
            for spath, raw in plan.snapshot_files:
                atomic_write(spath, raw)
            self._rotate_backups()
            atomic_write(self.path / HEADER, plan.header)
        except OSError as exc:
            raise write_error(exc, self.path) from None
        # committed: update the in-memory bookkeeping, then prune
        self.segments = plan.segments
        self.snapshots = plan.snapshots
        self.last_snapshot = max(s["seq"] for s in plan.snapshots)
        self._length = len(engine.history)
        self.pointer = plan.pointer
        for start in plan.touched:
            self._seg_cache.pop(start, None)
        if self.index is not None:
            sealed = self._sealed(self._length)
            self.index.segments = sealed
            for first in sorted(set(plan.touched) & set(sealed)):
                entries = list(engine.history.range(first, first + SEGMENT_SIZE - 1))
                self.index.add(first, entries, self._committed_segment(first))
            self.index.save_summary()
        for seq in plan.dropped:
            with contextlib.suppress(OSError):
                (self.path / _snap_name(seq)).unlink()
        engine.history.mark_saved()

    def _plan(self, engine: Engine) -> SavePlan:
        pending = list(engine.history.pending)
        length = len(engine.history)
        info = engine.info
        plan = SavePlan(segments={k: dict(v) for k, v in self.segments.items()})
        # 1. the new entries, appended to their segments
        by_segment: dict[int, list[LogEntry]] = {}
        for entry in pending:
            by_segment.setdefault(_segment_first(entry.seq), []).append(entry)
        for start, entries in by_segment.items():
            row = self.segments.get(start)
            committed = self._committed_segment(start) if row else b""
            data = entries_to_text(entries).encode("utf-8")
            if committed:
                data = b"\n" + data
            plan.appends.append((self.path / _seg_name(start), len(committed), data))
            plan.segments[start] = {"bytes": len(committed) + len(data),
                                    "hash": file_hash(committed + data)}
            plan.touched.append(start)
        # 2. snapshots: at phase boundaries, and no more than MAX_REPLAY entries apart
        by_seq = {e.seq: e for e in pending}
        wanted = list(range(self.last_snapshot + MAX_REPLAY, length, MAX_REPLAY))
        new_bookmarks = [b for b in info.bookmarks if b.seq > self.last_snapshot]
        if length > self.last_snapshot and (new_bookmarks or length - self.last_snapshot
                                            >= MAX_REPLAY):
            wanted.append(length)
        states = self._states_at(engine.state, wanted, by_seq, length)
        pointer, previous = self.pointer, self._length
        rows = list(self.snapshots)
        for seq in sorted(set(wanted)):
            pointer = follow(pointer, (by_seq[s] for s in range(previous + 1, seq + 1)),
                             engine.history.get)
            previous = seq
            turn = any(b.turn_start for b in new_bookmarks if b.seq <= seq)
            doc = snapshot_doc(states[seq], seq, pointer.to_dict(info.seed))
            raw = snapshot_text(doc).encode("utf-8")
            parse_cache.put(raw, doc)            # the next open need not parse it
            plan.snapshot_files.append((self.path / _snap_name(seq), raw))
            rows.append({"seq": seq, "turn_start": turn, "hash": file_hash(raw)})
        plan.pointer = follow(pointer, (by_seq[s] for s in range(previous + 1, length + 1)),
                              engine.history.get)
        plan.snapshots = retained(rows, length)
        kept = {s["seq"] for s in plan.snapshots}
        plan.dropped = [s["seq"] for s in rows if s["seq"] not in kept]
        # 3. the header: the commit point
        info.where = engine.where()
        info.saved = now_iso()
        info.rng_position = engine.stream.position
        info.log_length = length
        open_start = _segment_first(max(1, length))
        header = {
            "schema_version": SCHEMA_VERSION, "format": FOLDER_FORMAT,
            "campaign": info.to_dict(),
            "files": {"segment_size": SEGMENT_SIZE,
                      "open_segment_bytes": plan.segments.get(open_start, {}).get("bytes", 0),
                      "snapshots": plan.snapshots,
                      "segments": [{"first": k, **v} for k, v in sorted(plan.segments.items())]},
        }
        text = tomlio.dumps(header, rows=HEADER_ROWS,
                            header=SAVE_COMMENT + "\nThis header is the commit point: it names "
                            "what is saved in snapshots/ and log/, with a hash of each file.")
        plan.header = text.encode("utf-8")
        return plan

    @staticmethod
    def _states_at(current: State, seqs: list[int], by_seq: dict[int, LogEntry],
                   length: int) -> dict[int, State]:
        """The states after each entry in *seqs* (all among the unsaved entries), found by
        undoing the unsaved entries' changes from the current state."""
        out: dict[int, State] = {}
        state = current.copy()
        for seq in range(length, min(seqs, default=length + 1) - 1, -1):
            if seq in seqs:
                out[seq] = state.copy()
            apply_changes(state, by_seq[seq].changes, forward=False)
        return out

    def _write_snapshot(self, state: State, seq: int, at: Pointer, seed: int,
                        turn_start: bool) -> dict[str, Any]:
        raw = snapshot_text(snapshot_doc(state, seq, at.to_dict(seed))).encode("utf-8")
        atomic_write(self.path / _snap_name(seq), raw)
        return {"seq": seq, "turn_start": turn_start, "hash": file_hash(raw)}

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

    def close(self) -> None:
        self.lock.release()


@record
class SavePlan:
    """Everything one save writes, prepared before the first byte is written."""

    segments: dict[int, dict[str, Any]]
    appends: list[tuple[Path, int, bytes]] = field(default_factory=list)
    touched: list[int] = field(default_factory=list)
    snapshot_files: list[tuple[Path, bytes]] = field(default_factory=list)
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)
    pointer: Pointer = field(default_factory=Pointer)
    header: bytes = b""


def _whole(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise ValueError(v)
    return v


def check_pointer(info: CampaignInfo, pointer: Pointer, path: Path, text: str) -> None:
    """The header's head, redo and dice position must be what the log says."""
    for name, saved, derived in (("head", info.head, pointer.head),
                                 ("redo", list(info.redo), list(pointer.redo)),
                                 ("rng_position", info.rng_position, pointer.rng_position)):
        if saved != derived:
            raise SaveError(path, f"{name} is {saved}, but the log says {derived} (edited or "
                            f"damaged header; set it to {derived} or restore a header from "
                            "backups/)", tomlio.locate(text, ["campaign", name]))


def write_error(exc: OSError, where: Path) -> SaveError:
    """An operating-system error while saving, as a message saying what to do."""
    reason = exc.strerror or str(exc)
    hint = {errno.ENOSPC: "free some disk space and save again",
            errno.EDQUOT: "free some disk space and save again",
            errno.EROFS: "the disk is read-only; save a copy somewhere else",
            errno.EACCES: "you may not write there; save a copy somewhere else",
            errno.EPERM: "you may not write there; save a copy somewhere else"}.get(
        exc.errno or 0, "check the disk and save again")
    return SaveError(where, f"could not save ({reason}); the last save is intact: {hint}")


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
            if data["campaign"].get("log_hash") != log_hash(entries):
                raise SaveError(path, "the log does not match its log_hash (an entry was edited "
                                "or damaged); use an unedited copy of the file",
                                tomlio.locate(text, ["campaign", "log_hash"]))
            history = History()
            for e in entries:
                history.append(e)
            history.mark_saved()
            if not export:
                start = Pointer(0, (), entries[0].rng[0] if entries else info.rng_position)
                check_pointer(info, follow(start, entries, history.get), path, text)
                wrong = seed_disagrees(info.seed, entries)
                if wrong is not None:
                    raise SaveError(path, f"seed {info.seed} does not give the dice logged in "
                                    f"entry {wrong.seq} (edited or damaged seed)",
                                    tomlio.locate(text, ["campaign", "seed"]))
            engine = Engine(ruleset, state, info, history, read_only=read_only or export)
            engine.initial = initial
            probe(engine, path)
            if initial is not None and not export:
                check = initial.copy()      # forward from [initial]: state_at(n) is [current]
                for entry in entries:
                    try:
                        apply_changes(check, entry.changes)
                    except (KeyError, TypeError, ValueError, AttributeError, CampaignError):
                        raise SaveError(path, f"log entry {entry.seq} cannot be applied to "
                                        "the state before it") from None
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
        try:
            text = bundle_text(engine)
        except (TypeError, ValueError) as exc:
            raise SaveError(self.path, f"cannot be saved: {exc}; nothing was written") from None
        try:
            if self.path.exists():
                for n in range(3, 1, -1):
                    older = self.path.with_name(f"{self.path.name}.bak{n - 1}")
                    if older.exists():
                        older.replace(self.path.with_name(f"{self.path.name}.bak{n}"))
                shutil.copyfile(self.path, self.path.with_name(f"{self.path.name}.bak1"))
            atomic_write(self.path, text)
        except OSError as exc:
            raise write_error(exc, self.path) from None
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
    if isinstance(out.get("campaign"), dict):
        # a damaged entry gets no hash: opening reports it with its line
        with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError, CampaignError):
            out["campaign"]["log_hash"] = log_hash(LogEntry.from_dict(e) for e in docs.entries)
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
    entries = engine.entries()
    doc["entry"] = [e.to_dict() for e in entries]
    info["log_hash"] = log_hash(entries)
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
    path = Path(path)
    if not path.parent.is_dir():
        raise SaveError(path, f"the folder {path.parent} does not exist; create it first or "
                        "write somewhere else")
    text = bundle_text(engine, side)
    try:
        atomic_write(path, text)
    except OSError as exc:
        raise write_error(exc, path) from None


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
