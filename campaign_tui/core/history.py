"""The action log as the engine sees it: entries by sequence number, loaded on demand."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from campaign_tui.core.errors import CampaignError
from campaign_tui.core.log import LogEntry

Loader = Callable[[int, int], list[LogEntry]]  # (first seq, last seq) inclusive


class History:
    """Entries 1..len. Older ones come from the store through *loader* when asked for."""

    def __init__(self, length: int = 0, loader: Loader | None = None) -> None:
        self._length = length
        self._loader = loader
        self._cache: dict[int, LogEntry] = {}
        self.pending: list[LogEntry] = []  # appended since the last save

    def __len__(self) -> int:
        return self._length

    def get(self, seq: int) -> LogEntry:
        if not 1 <= seq <= self._length:
            raise CampaignError(f"no log entry {seq} (the log has {self._length})")
        entry = self._cache.get(seq)
        if entry is None:
            if self._loader is None:
                raise CampaignError(f"log entry {seq} is not available")
            for e in self._loader(seq, min(self._length, seq + 63)):
                self._cache[e.seq] = e
            entry = self._cache.get(seq)
            if entry is None:
                raise CampaignError(f"log entry {seq} is missing from the save")
        return entry

    def range(self, first: int, last: int) -> Iterator[LogEntry]:
        """Entries first..last inclusive, in order, loading missing ones in bulk."""
        first = max(first, 1)
        last = min(last, self._length)
        if first > last:
            return
        missing = [s for s in range(first, last + 1) if s not in self._cache]
        if missing and self._loader is not None:
            for e in self._loader(missing[0], missing[-1]):
                self._cache.setdefault(e.seq, e)
        for seq in range(first, last + 1):
            yield self.get(seq)

    def append(self, entry: LogEntry) -> None:
        if entry.seq != self._length + 1:
            raise CampaignError(f"log entry {entry.seq} out of order (expected {self._length + 1})")
        self._length += 1
        self._cache[entry.seq] = entry
        self.pending.append(entry)

    def mark_saved(self) -> None:
        self.pending.clear()
