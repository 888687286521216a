"""Transactions and change sets.

An action changes state through a :class:`Tx`. The first time a slot is touched, its
plain value is kept; at the end the change set lists ``(collection, key, before, after)``
for every slot that really changed. Undo applies the befores, redo the afters, and a
failed or previewed action rolls back to the befores. Nothing is ever replayed to undo.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.model import State
from campaign_tui.core.records import record


@record(frozen=True, slots=True)
class Change:
    coll: str
    key: str
    before: Any
    after: Any

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"c": self.coll, "k": self.key}
        if self.before is not None:
            out["b"] = self.before
        if self.after is not None:
            out["a"] = self.after
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Change:
        return cls(str(d["c"]), str(d["k"]), d.get("b"), d.get("a"))

    def inverse(self) -> Change:
        return Change(self.coll, self.key, self.after, self.before)


def apply_changes(state: State, changes: list[Change], forward: bool = True) -> None:
    """Apply a change set forward (afters) or backward (befores, in reverse order)."""
    seq = changes if forward else list(reversed(changes))
    for ch in seq:
        state.load_slot(ch.coll, ch.key, ch.after if forward else ch.before)


class Tx:
    """Records the state of each slot before its first change."""

    __slots__ = ("_before", "_orders", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self._before: dict[tuple[str, str], Any] = {}
        self._orders: dict[str, list[str]] = {}

    def touch(self, coll: str, key: str) -> None:
        slot = (coll, key)
        if slot in self._before:
            return
        if coll not in self._orders:
            self._orders[coll] = self.state.keys(coll)
        self._before[slot] = self.state.dump_slot(coll, key)

    def touched(self, coll: str, key: str) -> bool:
        return (coll, key) in self._before

    def changes(self) -> list[Change]:
        out = []
        for (coll, key), before in self._before.items():
            after = self.state.dump_slot(coll, key)
            if after != before:
                out.append(Change(coll, key, before, after))
        return out

    def rollback(self) -> None:
        for (coll, key), before in self._before.items():
            self.state.load_slot(coll, key, before)
        # keep the original order of entries in collections whose key set changed
        for coll, order in self._orders.items():
            bucket = self.state._c.get(coll)
            if bucket is None:
                continue
            if list(bucket) != order:
                items = {k: bucket[k] for k in order if k in bucket}
                items.update({k: v for k, v in bucket.items() if k not in items})
                bucket.clear()
                bucket.update(items)
        self._before.clear()
