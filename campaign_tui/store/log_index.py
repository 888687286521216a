"""An index of the sealed log segments, so that die-log filters over a year of play read a
few kilobytes instead of parsing every segment.

Each sealed (full, immutable) segment ``log/l00000101.toml`` gets a sidecar
``index/l00000101.json`` with, for that segment only: the rolls by table, side,
procedure (action kind) and clock value as ``[seq, roll number]`` pairs, the entries that
set bookmarks, and the byte offset of every entry in the segment file. Each sidecar
records the hash of the segment bytes it was built from (the hash ``campaign.toml``
records for that segment), so an index that no longer matches its segment is noticed and
rebuilt, never trusted. ``index/summary.json`` repeats each segment's hash and its roll
counts by table, so "every roll on the CRT this campaign" counts from one small file.

The index is derived data: it is not part of the commit point (the header does not name
it), it can be deleted at any time, and a missing, damaged or stale one is rebuilt from
the segments. JSON, not TOML: it is read often and never edited by hand.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from campaign_tui.core.log import REDO, UNDO, LogEntry
from campaign_tui.store.atomic import atomic_write
from campaign_tui.store.integrity import file_hash

INDEX_DIR = "index"
SUMMARY = "summary.json"
TOTALS = "totals.json"        # the summary's counts summed over all sealed segments
FORMAT = 3
KEYS = ("table", "side", "kind", "clock")   # what a query can ask for
SEGMENT_SIZE = 100                          # entries per segment (as the folder store)


def _key_values(entry: LogEntry) -> dict[str, set[str]]:
    """The index keys an entry's rolls fall under (lower case, as the filters compare)."""
    return {"kind": {entry.kind.lower()},
            "clock": {f"{k}={v}".lower() for k, v in entry.clock.items()}}


def segment_index(entries: Iterable[LogEntry], seg_hash: str, raw: bytes = b"",
                  bookmarks: Iterable[int] = ()) -> dict[str, Any]:
    """The sidecar of one segment: postings ``[seq, roll n]`` by key, and offsets."""
    postings: dict[str, dict[str, list[list[int]]]] = {k: {} for k in KEYS}
    seqs: list[int] = []
    undo: list[int] = []
    for e in entries:
        seqs.append(e.seq)
        if e.kind in (UNDO, REDO):
            undo.append(e.seq)
        common = _key_values(e)
        for roll in e.rolls:
            keys = dict(common)
            keys["table"] = {(roll.table or "").lower()}
            keys["side"] = {(roll.side or e.by or "").lower()}
            for kind, values in keys.items():
                for v in values:
                    postings[kind].setdefault(v, []).append([e.seq, roll.n])
    offsets = _entry_offsets(raw) if raw else []
    marks = sorted(b for b in bookmarks if seqs and seqs[0] <= b <= seqs[-1])
    return {"format": FORMAT, "hash": seg_hash, "first": seqs[0] if seqs else 0,
            "entries": len(seqs), "offsets": offsets, "bookmarks": marks, "undo": undo,
            "postings": postings}


def _entry_offsets(raw: bytes) -> list[int]:
    out, at = [], raw.find(b"[[entry]]")
    while at >= 0:
        out.append(at)
        at = raw.find(b"[[entry]]", at + 9)
    return out


def counts(index: dict[str, Any]) -> dict[str, int]:
    """A segment's rolls by table (the summary keeps only these, so that it stays a few
    kilobytes for a year of play; the other keys are counted from the sidecars)."""
    return {v: len(p) for v, p in index["postings"]["table"].items()}


class LogIndex:
    """The index of one campaign folder's sealed segments.

    *segments* maps each sealed segment's first entry to the hash the header records;
    *build* returns ``(entries, raw bytes)`` of one segment (the store's checked read).
    Without *writable*, what gets built stays in memory (a read-only open writes nothing).
    """

    def __init__(self, folder: Path, segments: dict[int, str],
                 build: Callable[[int], tuple[list[LogEntry], bytes]],
                 bookmarks: Callable[[], Iterable[int]] = tuple,
                 writable: bool = True) -> None:
        self.folder = Path(folder) / INDEX_DIR
        self.segments = dict(segments)
        self._build = build
        self._bookmarks = bookmarks
        self.writable = writable
        self._summary: dict[int, dict[str, Any]] | None = None
        self._sidecars: dict[int, dict[str, Any]] = {}
        self._dirty = False
        self._lock = threading.RLock()        # the TUI builds in a worker thread
        self.rebuilt: list[int] = []          # segments indexed by this object (for tests)

    # -- files --------------------------------------------------------------------------
    def _path(self, first: int) -> Path:
        return self.folder / f"l{first:08d}.json"

    def _load_summary(self) -> dict[int, dict[str, Any]]:
        if self._summary is None:
            self._summary = {}
            with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
                doc = json.loads((self.folder / SUMMARY).read_bytes())
                if doc.get("format") == FORMAT:
                    self._summary = {int(k): v for k, v in doc["segments"].items()}
        return self._summary

    def save_summary(self) -> None:
        if not self._dirty or not self.writable or self._summary is None:
            return
        self._dirty = False
        doc = {"format": FORMAT, "segments": {str(k): v for k, v in sorted(self._summary.items())
                                              if k in self.segments}}
        totals: dict[str, int] = {}
        for row in doc["segments"].values():
            for table, n in row["counts"].items():
                totals[table] = totals.get(table, 0) + n
        with contextlib.suppress(OSError):
            self.folder.mkdir(exist_ok=True)
            atomic_write(self.folder / SUMMARY, json.dumps(doc, separators=(",", ":")))
            atomic_write(self.folder / TOTALS, json.dumps(
                {"format": FORMAT, "of": self._fingerprint(), "table": totals}))

    def _fingerprint(self) -> str:
        """One hash over the sealed segments' hashes: the totals hold for exactly these."""
        text = ";".join(f"{k}={v}" for k, v in sorted(self.segments.items()))
        return file_hash(text.encode("utf-8"))

    def _totals(self) -> dict[str, int] | None:
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            doc = json.loads((self.folder / TOTALS).read_bytes())
            if doc.get("format") == FORMAT and doc.get("of") == self._fingerprint():
                return {str(k): int(v) for k, v in doc["table"].items()}
        return None

    def sidecar(self, first: int) -> dict[str, Any]:
        """The index of one sealed segment, rebuilt when missing, damaged or stale."""
        with self._lock:
            return self._sidecar(first)

    def _sidecar(self, first: int) -> dict[str, Any]:
        want = self.segments[first]
        cached = self._sidecars.get(first)
        if cached is not None and cached.get("hash") == want:
            return cached
        doc: dict[str, Any] | None = None
        with contextlib.suppress(OSError, ValueError):
            doc = json.loads(self._path(first).read_bytes())
        if not (isinstance(doc, dict) and doc.get("format") == FORMAT
                and doc.get("hash") == want and isinstance(doc.get("postings"), dict)):
            return self._index_segment(first)
        summary = self._load_summary()
        if summary.get(first, {}).get("hash") != want:     # a summary row lost or stale
            summary[first] = {"hash": want, "counts": counts(doc)}
            self._dirty = True
        self._sidecars[first] = doc
        return doc

    def _index_segment(self, first: int) -> dict[str, Any]:
        return self.add(first, *self._build(first))

    def add(self, first: int, entries: list[LogEntry], raw: bytes) -> dict[str, Any]:
        """Index one sealed segment from its entries and bytes (at the save that seals it;
        call :meth:`save_summary` after)."""
        doc = segment_index(entries, self.segments[first], raw, self._bookmarks())
        self.rebuilt.append(first)
        if self.writable:
            with contextlib.suppress(OSError):
                self.folder.mkdir(exist_ok=True)
                atomic_write(self._path(first), json.dumps(doc, separators=(",", ":")))
        summary = self._load_summary()
        summary[first] = {"hash": doc["hash"], "counts": counts(doc)}
        self._sidecars[first] = doc
        self._dirty = True
        return doc

    # -- keeping up ---------------------------------------------------------------------
    def sealed(self, segments: dict[int, str]) -> None:
        """The header now names these sealed segments: index the new ones (at save)."""
        with self._lock:
            self.segments = dict(segments)
            summary = self._load_summary()
            stale = [f for f in sorted(self.segments)
                     if summary.get(f, {}).get("hash") != self.segments[f]]
            for first in stale:
                self._sidecar(first)
            if self.writable and self.segments and self._totals() is None:
                self._dirty = True      # written by an older version, or out of step
            self.save_summary()

    def ensure(self) -> int:
        """Build whatever is missing or stale (once, on opening an older campaign);
        returns the number of segments indexed."""
        before = len(self.rebuilt)
        self.sealed(self.segments)
        return len(self.rebuilt) - before

    @property
    def complete(self) -> bool:
        summary = self._load_summary()
        return all(summary.get(f, {}).get("hash") == h for f, h in self.segments.items())

    # -- asking -------------------------------------------------------------------------
    def _matching_values(self, kind: str, wanted: str, names: Iterable[str]) -> list[str]:
        wanted = wanted.lower()
        if kind == "clock":
            return [n for n in names if n == wanted]
        return [n for n in names if wanted in n]

    def count(self, **query: str) -> int | None:
        """How many rolls match (one key only; None when the answer needs the rolls)."""
        if len(query) != 1:
            return None
        (kind, wanted), = query.items()
        totals = self._totals() if kind == "table" else None
        if totals is not None:          # one tiny file, when it matches the header
            return sum(totals[n] for n in self._matching_values(kind, wanted, totals))
        self.ensure()
        total = 0
        summary = self._load_summary()
        for first in self.segments:
            row = (summary[first]["counts"] if kind == "table" else
                   {v: len(p) for v, p in self.sidecar(first)["postings"][kind].items()})
            total += sum(row[n] for n in self._matching_values(kind, wanted, row))
        return total

    def matches(self, first: int, **query: str) -> list[tuple[int, int]]:
        """The ``(seq, roll n)`` in one sealed segment matching every key of *query*."""
        postings = self.sidecar(first)["postings"]
        found: set[tuple[int, int]] | None = None
        for kind, wanted in query.items():
            table = postings[kind]
            hits = {(s, n) for v in self._matching_values(kind, wanted, table)
                    for s, n in table[v]}
            found = hits if found is None else found & hits
        return sorted(found or ())

    def newest(self, limit: int, **query: str) -> list[tuple[int, int]]:
        """The newest *limit* matches over all sealed segments, newest first."""
        out: list[tuple[int, int]] = []
        for i, first in enumerate(sorted(self.segments, reverse=True)):
            if i == 3:                  # a rare match: let the summary skip segments
                self._load_summary()
            if "table" in query and self._summary is not None and first in self._summary \
                    and not self._matching_values("table", query["table"],
                                                  self._summary[first]["counts"]):
                continue
            out.extend(reversed(self.matches(first, **query)))
            if len(out) >= limit:
                break
        return out[:limit]

    def candidates(self, lo: int, hi: int, **query: str) -> set[int]:
        """The entries in sealed segments within lo..hi that a filtered reader must read:
        those holding a matching roll, and the undos and redos (they mark rows undone)."""
        out: set[int] = set()
        for first in self.segments:
            if first + SEGMENT_SIZE - 1 < lo or first > hi:
                continue
            seqs = [s for s, _n in self.matches(first, **query)] + self.sidecar(first)["undo"]
            out.update(s for s in seqs if lo <= s <= hi)
        return out

    @property
    def end(self) -> int:
        """The last entry covered by the index (0 when nothing is sealed)."""
        return max(self.segments, default=1 - SEGMENT_SIZE) + SEGMENT_SIZE - 1

    def offset(self, seq: int) -> int | None:
        """Where entry *seq* starts in its segment file (None when not indexed)."""
        for first in self.segments:
            if first <= seq < first + SEGMENT_SIZE:
                offsets = self.sidecar(first)["offsets"]
                i = seq - first
                return offsets[i] if i < len(offsets) else None
        return None
