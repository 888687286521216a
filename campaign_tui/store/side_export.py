"""A side's export: the one file a player receives.

It is made through the side's :class:`~campaign_tui.core.sideview.SideView` only: the
side's view of the current state and its projected log (renumbered, without generator
positions). It carries no seed and no generator position, so no roll, past or future,
can be computed from it, and no initial state, so it cannot be replayed or turned back
into a playable campaign: it opens read-only, in player mode.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from campaign_tui.core.log import LogEntry
from campaign_tui.core.model import snapshot_row_paths
from campaign_tui.store import tomlio
from campaign_tui.store.integrity import log_hash
from campaign_tui.store.migrations import SCHEMA_VERSION
from campaign_tui.store.serial import SAVE_COMMENT

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine


def _renumbered(entries: list[LogEntry]) -> list[LogEntry]:
    numbers = {e.seq: n for n, e in enumerate(entries, 1)}
    return [dataclasses.replace(e, seq=numbers[e.seq], parent=0,
                                target=numbers.get(e.target) if e.target else None,
                                rng=(0, 0))
            for e in entries]


def side_bundle_text(engine: Engine, side: str) -> str:
    from campaign_tui.store.files import BUNDLE_FORMAT

    seat = engine.side_view(side)
    entries = _renumbered(seat.entries())
    info = dataclasses.replace(engine.info, export_side=seat.side, head=0, redo=[],
                               bookmarks=[], log_length=len(entries), where=engine.where())
    current = seat.state.to_dict()
    header = {**info.to_dict(), "log_hash": log_hash(entries)}
    doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "format": BUNDLE_FORMAT,
                           "campaign": header, "current": current,
                           "entry": [e.to_dict() for e in entries]}
    rows = ["campaign.bookmarks", "entry", *snapshot_row_paths(current, "current")]
    note = (f"{seat.name}'s view of \"{engine.info.name}\": what that side may see. A "
            "player's copy: read-only, without the dice generator or any other side's secrets.")
    return tomlio.dumps(doc, rows=rows, header=f"{SAVE_COMMENT}\n{note}")
