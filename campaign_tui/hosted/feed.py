"""What one viewer (the GM or a side) receives from the table: its whole projection at
connection (``sync``) and, after each committed action, what changed (``update``).

A side's messages are made through its :class:`~campaign_tui.core.sideview.SideView`
only: its view of the state, its projected log entries renumbered in its own sequence
(as in a side's export: no generator positions, no seed, no bookmarks of the full log),
and its status. Nothing in them is computed from the full state except through that
door. The GM's messages carry the full state and log.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from campaign_tui.hosted.authority import refusal
from campaign_tui.hosted.identity import GM

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine, Status
    from campaign_tui.core.log import LogEntry
    from campaign_tui.core.sideview import SideView


def status_to_wire(engine: Engine, viewer: str, status: Status) -> dict[str, Any]:
    """The seat's status as the server judges it (on the full state, through the side's
    view, and by the table's rules for the seat). The actions' forms are the rule set's,
    which the seat has: a choice travels as kind, scope, available and reason."""
    out = {f.name: getattr(status, f.name) for f in dataclasses.fields(status)
           if f.name != "choices"}
    choices = []
    for c in status.choices:
        why = refusal(engine, viewer, c.kind) if c.available else None
        choices.append([c.kind, c.scope, False, why] if why else
                       [c.kind, c.scope, c.available, c.reason])
    out["choices"] = choices
    return out


class Feed:
    def __init__(self, engine: Engine, viewer: str) -> None:
        self.engine = engine
        self.viewer = viewer
        self.sent = 0                    # full log entries covered so far
        self.numbers: dict[int, int] = {}  # full seq -> the viewer's seq (a side)
        self.log: list[dict[str, Any]] = []  # the viewer's log so far (a reconnection's)

    @property
    def seat(self) -> SideView:
        return self.engine.side_view(self.viewer)

    def _info(self) -> dict[str, Any]:
        e = self.engine
        if self.viewer == GM:
            e.info.where = e.where()
            return e.info.to_dict()
        info = dataclasses.replace(e.info, export_side=self.viewer, head=0, redo=[],
                                   bookmarks=[], log_length=len(self.numbers),
                                   where=e.where(), seed=0, rng_position=0)
        return info.to_dict()

    def _new_entries(self) -> list[dict[str, Any]]:
        e = self.engine
        n = len(e.history)
        first, self.sent = self.sent + 1, n
        if first > n:
            return []
        if self.viewer == GM:
            out = [x.to_dict() for x in e.entries(first, n)]
        else:
            out = []
            for entry in self.seat.entries(first, n):
                self.numbers[entry.seq] = len(self.numbers) + 1
                out.append(self._renumbered(entry).to_dict())
        self.log += out
        return out

    def _renumbered(self, entry: LogEntry) -> LogEntry:
        target = self.numbers.get(entry.target) if entry.target else None
        return dataclasses.replace(entry, seq=self.numbers[entry.seq], parent=0, target=target,
                                   rng=(0, 0))

    def number(self, seq: int) -> int | None:
        """The viewer's number for full log entry *seq* (None: hidden from it)."""
        return seq if self.viewer == GM else self.numbers.get(seq)

    def _body(self, entries: list[dict[str, Any]]) -> dict[str, Any]:
        seat = self.seat
        return {"viewer": self.viewer, "entries": entries, "info": self._info(),
                "state": seat.state.to_dict(),
                "status": status_to_wire(self.engine, self.viewer, seat.status())}

    def sync(self) -> dict[str, Any]:
        """The whole projection (the log from the start: projected once, then kept)."""
        self._new_entries()
        return {"t": "sync", **self._body(list(self.log))}

    def update(self, events: list[str]) -> dict[str, Any]:
        """What changed since the last sync or update."""
        return {"t": "update", "events": events, **self._body(self._new_entries())}
