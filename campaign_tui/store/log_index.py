"""An index of the sealed log segments, so that die-log filters over a year of play read a
few kilobytes instead of parsing every segment.

Each sealed (full, immutable) segment ``log/l00000101.toml`` gets a sidecar
``index/l00000101.json`` with, for that segment only: the rolls by table, side,
procedure (action kind) and clock value as ``[seq, roll number]`` pairs, the entries that
set bookmarks, and the byte offset of every entry in the segment file. Each sidecar
records the hash of the segment bytes it was built from (the hash ``campaign.toml``
records for that segment), so an index that no longer matches its segment is noticed and
rebuilt, never trusted. ``index/summary.json`` repeats each segment's hash, its roll
counts by table and its undos and redos (``[seq, target, 1 for undo]``);
``index/totals.json`` sums the counts and lists the undos over all sealed segments and
holds for exactly the header's segment hashes, so "every roll on the CRT this campaign"
counts, and the die log marks undone rows, from one tiny file.

The index is derived data: it is not part of the commit point (the header does not name
it), it can be deleted at any time, and a missing, damaged or stale one is rebuilt from
the segments. JSON, not TOML: it is read often and never edited by hand.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from campaign_tui.core.log import REDO, UNDO, LogEntry
from campaign_tui.store.atomic import atomic_write
from campaign_tui.store.integrity import file_hash

INDEX_DIR = "index"
SUMMARY = "summary.json"
TOTALS = "totals.json"        # the summary's counts and undos over all sealed segments
FORMAT = 4
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
    undo: list[list[int]] = []
    for e in entries:
        seqs.append(e.seq)
        if e.kind in (UNDO, REDO) and e.target is not None:
            undo.append([e.seq, e.target, int(e.kind == UNDO)])
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
    """A segment's rolls by table (the summary keeps only these and the undos, so that it
    stays a few kilobytes for a year of play; the other keys are counted from the
    sidecars)."""
    return {v: len(p) for v, p in index["postings"]["table"].items()}


def summary_row(index: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {"hash": index["hash"], "counts": counts(index)}
    if index["undo"]:
        row["undo"] = index["undo"]
    return row


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
        self._of: str | None = None           # the fingerprint of the segments
        self.segments = segments
        self._build = build
        self._bookmarks = bookmarks
        self.writable = writable
        self._summary: dict[int, dict[str, Any]] | None = None
        self._sidecars: dict[int, dict[str, Any]] = {}
        self._dirty = False
        self._totals_doc: tuple[str, dict[str, Any] | None] | None = None   # (of, doc)
        self._lock = threading.RLock()        # the TUI builds in a worker thread
        self.rebuilt: list[int] = []          # segments indexed by this object (for tests)

    @property
    def segments(self) -> dict[int, str]:
        """The sealed segments: first entry -> the hash the header records."""
        return self._segments

    @segments.setter
    def segments(self, value: dict[int, str]) -> None:
        self._segments = dict(value)
        self._of = None

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
        with contextlib.suppress(OSError):
            self.folder.mkdir(exist_ok=True)
            atomic_write(self.folder / SUMMARY, json.dumps(doc, separators=(",", ":")))
            if self.complete:           # totals hold only when every segment is counted
                atomic_write(self.folder / TOTALS, json.dumps(self._sum(doc["segments"]),
                                                              separators=(",", ":")))

    def _sum(self, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
        totals: dict[str, int] = {}
        undo: list[list[int]] = []
        for _first, row in sorted(rows.items(), key=lambda kv: int(kv[0])):
            for table, n in row["counts"].items():
                totals[table] = totals.get(table, 0) + n
            undo.extend(row.get("undo", ()))
        doc = {"format": FORMAT, "of": self._fingerprint(), "table": totals, "undo": undo}
        self._totals_doc = (doc["of"], doc)
        return doc

    def _fingerprint(self) -> str:
        """One hash over the sealed segments' hashes: the totals hold for exactly these."""
        if self._of is None:
            text = ";".join(f"{k}={v}" for k, v in sorted(self.segments.items()))
            self._of = file_hash(text.encode("utf-8"))
        return self._of

    def _totals(self) -> dict[str, Any] | None:
        """totals.json when it holds for exactly the header's sealed segments (read once
        per set of segments)."""
        of = self._fingerprint()
        if self._totals_doc is not None and self._totals_doc[0] == of:
            return self._totals_doc[1]
        found = None
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            doc = json.loads((self.folder / TOTALS).read_bytes())
            if doc.get("format") == FORMAT and doc.get("of") == of \
                    and isinstance(doc.get("table"), dict) and isinstance(doc.get("undo"), list):
                found = doc
        self._totals_doc = (of, found)
        return found

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
        summary[first] = summary_row(doc)
        self._sidecars[first] = doc
        self._dirty = True
        return doc

    # -- keeping up ---------------------------------------------------------------------
    def sealed(self, segments: dict[int, str]) -> None:
        """The header now names these sealed segments: index the new ones (at save)."""
        with self._lock:
            self.segments = segments
            summary = self._load_summary()
            stale = [f for f in sorted(self.segments)
                     if summary.get(f, {}).get("hash") != self.segments[f]]
            for first in stale:
                doc = self._sidecar(first)
                if summary.get(first, {}).get("hash") != doc["hash"]:   # a row lost or stale
                    summary[first] = summary_row(doc)
                    self._dirty = True
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
        """Whether every sealed segment is indexed (totals.json that matches the header
        says so without reading the summary)."""
        if self._totals() is not None:
            return True
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
        doc = self._totals() if kind == "table" else None
        if doc is not None:             # one tiny file, when it matches the header
            totals = doc["table"]
            return sum(int(totals[n]) for n in self._matching_values(kind, wanted, totals))
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

    def segments_with(self, lo: int, hi: int, skip: bool = True,
                      **query: str) -> Iterator[int]:
        """The sealed segments overlapping lo..hi that can hold a match, newest first.
        With *skip*, a table the summary does not count in a segment skips it (the summary
        is read only once a few segments gave too little)."""
        span = sorted((f for f in self.segments if f <= hi and f + SEGMENT_SIZE - 1 >= lo),
                      reverse=True)
        for i, first in enumerate(span):
            if skip and i == 3 and "table" in query:
                self._load_summary()
            row = self._summary.get(first) if skip and self._summary is not None else None
            if row is not None and "table" in query and row.get("hash") == self.segments[first] \
                    and not self._matching_values("table", query["table"], row["counts"]):
                continue
            yield first

    def newest(self, limit: int, **query: str) -> list[tuple[int, int]]:
        """The newest *limit* matches over all sealed segments, newest first."""
        out: list[tuple[int, int]] = []
        for first in self.segments_with(1, self.end, **query):
            out.extend(reversed(self.matches(first, **query)))
            if len(out) >= limit:
                break
        return out[:limit]

    def undo_marks(self) -> list[list[int]]:
        """Every undo and redo in the sealed segments, oldest first, as ``[seq, target,
        1 for an undo]`` (from totals.json when it matches the header)."""
        doc = self._totals()
        if doc is not None:
            return doc["undo"]
        return [u for first in sorted(self.segments) for u in self.sidecar(first)["undo"]]

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
