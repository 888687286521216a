"""What a save's header promises and how opening checks it.

* Every snapshot and log segment the header names carries a hash of its bytes; a file
  whose bytes differ is refused, naming it.
* The history pointer (``head``, ``redo``) and the dice position are not free values:
  they follow from the log. Each snapshot records them as they stood at its entry (with
  the seed), and opening follows the log from there and compares.
* Retention: which snapshots a save keeps, so that any position of the campaign is at most
  ``MAX_REPLAY`` entries after a snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from campaign_tui.core import digests
from campaign_tui.core.log import REDO, UNDO, LogEntry
from campaign_tui.core.records import record

MAX_REPLAY = 100        # entries replayed at most to show any position (one log segment)
KEEP_RECENT = 6         # the latest snapshots are always kept (undo and the timeline)


def file_hash(raw: bytes) -> str:
    return "b2:" + digests.blake2b(raw, digest_size=16).hexdigest()


@record
class Pointer:
    """The undo pointer, redo stack and dice position as they stood after one entry."""

    head: int = 0
    redo: tuple[int, ...] = ()
    rng_position: int = 0

    def to_dict(self, seed: int) -> dict[str, Any]:
        return {"seed": seed, "rng_position": self.rng_position, "head": self.head,
                "redo": list(self.redo)}

    @classmethod
    def from_dict(cls, d: Any) -> Pointer:
        if not isinstance(d, dict):
            raise ValueError("[campaign] is missing or not a table")
        head, rng, redo = d.get("head"), d.get("rng_position"), d.get("redo")
        if not (_is_int(head) and _is_int(rng) and isinstance(redo, list)
                and all(_is_int(r) for r in redo)):
            raise ValueError("[campaign] head, rng_position and redo must be whole numbers")
        return cls(head, tuple(redo), rng)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def follow(start: Pointer, entries: Iterable[LogEntry],
           get: Callable[[int], LogEntry]) -> Pointer:
    """The pointer after *entries*, starting from *start* (the engine's undo/redo rules)."""
    head, redo, rng = start.head, list(start.redo), start.rng_position
    for e in entries:
        if e.kind == UNDO:
            head = get(e.target).parent if e.target else head
            redo.append(e.target)
        elif e.kind == REDO:
            if redo:
                redo.pop()
            head = e.target
        elif e.changes:
            head, redo = e.seq, []
        rng = e.rng[1]
    return Pointer(head, tuple(redo), rng)


def retained(snapshots: list[dict[str, Any]], length: int) -> list[dict[str, Any]]:
    """The snapshots a save keeps: the first, every turn start, the latest few, and enough
    others that no position is more than MAX_REPLAY entries after a kept snapshot."""
    rows = sorted(snapshots, key=lambda s: s["seq"])
    recent = {s["seq"] for s in rows[-KEEP_RECENT:]}
    keep: list[dict[str, Any]] = []
    for i, s in enumerate(rows):
        following = rows[i + 1]["seq"] if i + 1 < len(rows) else length
        if (not keep or s["seq"] in recent or s.get("turn_start")
                or following - keep[-1]["seq"] > MAX_REPLAY):
            keep.append(s)
    return keep


def seed_disagrees(seed: int, entries: list[LogEntry], sample: int = 3) -> LogEntry | None:
    """The first of the last few entries rolled wholly by the generator whose dice the
    generator, started from *seed* at the entry's position, does not give again; None when
    they all agree (a bundle has no snapshot recording its seed: its dice show it)."""
    from campaign_tui.core.dice import DiceExpr, DiceStream

    checked = 0
    for e in reversed(entries):
        if checked >= sample:
            break
        if e.rng[1] <= e.rng[0] or not e.rolls or any(
                r.kind != "dice" or r.manual or r.override for r in e.rolls):
            continue
        stream = DiceStream(seed, e.rng[0])
        try:
            again = [stream.roll(DiceExpr.parse(r.expr)) for r in e.rolls]
        except Exception:  # an expression this version cannot parse: no evidence
            continue
        if stream.position != e.rng[1]:
            continue       # the entry drew in other ways too: no evidence either way
        checked += 1
        if again != [list(r.dice) for r in e.rolls]:
            return e
    return None


def _plain(v: Any) -> Any:
    """Data as a TOML file holds it: no None, tuples as lists."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items() if x is not None}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v if x is not None]
    return v


def log_hash(entries: Iterable[LogEntry]) -> str:
    """A hash of a bundle's log as it reads back (entries normalised through LogEntry), so
    that an edited or damaged entry in a single-file save is noticed."""
    import json

    text = json.dumps([_plain(e.to_dict()) for e in entries], sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"), default=str)
    return file_hash(text.encode("utf-8"))
