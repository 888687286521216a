"""What one viewer (the GM or a side) receives from the table: its whole projection at
connection (``sync``) and, after each committed action, what changed (``update``): its
new log entries, and its info, status and state only where they differ from the
revision before (the info's changed fields alone, the state as a
:mod:`~campaign_tui.hosted.delta`: the GM's bookmarks, a year of them, travel only when
they change). Every seat of one
viewer gets the same bytes; each message carries the viewer's revision (``rev``), an
update also the one it applies to (``base``): a seat that does not hold that revision
asks for a whole sync again.

A side's messages are made through its :class:`~campaign_tui.core.sideview.SideView`
only: its view of the state, its projected log entries renumbered in its own sequence
(as in a side's export: no generator positions, no seed, no bookmarks of the full log),
and its status. Nothing in them is computed from the full state except through that
door. The GM's messages carry the full state and log.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from campaign_tui.core.sideview import LiveTail
from campaign_tui.hosted.authority import refusal
from campaign_tui.hosted.delta import Delta, info_delta, state_delta, view_delta
from campaign_tui.hosted.identity import GM

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine, Status
    from campaign_tui.core.log import LogEntry
    from campaign_tui.core.model import State
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


TAIL = 40    # the log entries a first sync carries; older ones are sent when asked for


class Feed:
    """One viewer's stream. Its log is numbered at once (by each entry's visibility, which
    costs nothing) but projected only where it is read: a sync carries the last ``TAIL``
    entries, the seat asks for older ones when its screens read them (``older``), and each
    projected entry is kept."""

    def __init__(self, engine: Engine, viewer: str) -> None:
        self.engine = engine
        self.viewer = viewer
        self.sent = 0                    # full log entries numbered so far
        self.numbers: dict[int, int] = {}  # full seq -> the viewer's seq
        self.full: list[int] = []          # the viewer's seq - 1 -> full seq
        self.log: dict[int, dict[str, Any]] = {}  # the viewer's projected entries so far
        # a side's entries are projected through its side view's rules, each new one from
        # the point after the one before (not by walking the log again)
        self.tail = LiveTail(engine, viewer) if viewer != GM else None
        self.rev = 0                     # the viewer's revision: one more at each change
        self.last: dict[str, Any] | None = None   # its info, status and state at rev

    @property
    def seat(self) -> SideView:
        return self.engine.side_view(self.viewer)

    def _info(self) -> dict[str, Any]:
        e = self.engine
        if self.viewer == GM:
            e.info.where = e.where()
            return e.info.to_dict()
        info = dataclasses.replace(e.info, export_side=self.viewer, head=0, redo=[],
                                   bookmarks=[], log_length=len(self.full),
                                   where=e.where(), seed=0, rng_position=0)
        return info.to_dict()

    def _number_new(self) -> int:
        """Number the full log's new entries the viewer sees; returns the first new number."""
        e = self.engine
        first_new = len(self.full) + 1
        n = len(e.history)
        if self.sent < n:
            for entry in e.history.range(self.sent + 1, n):
                if entry.visible_to(self.viewer):
                    self.full.append(entry.seq)
                    self.numbers[entry.seq] = len(self.full)
            self.sent = n
        return first_new

    def entries(self, first: int, last: int) -> list[dict[str, Any]]:
        """The viewer's entries *first*..*last* (its own numbers), projected once each."""
        first, last = max(first, 1), min(last, len(self.full))
        missing = [k for k in range(first, last + 1) if k not in self.log]
        if missing:
            lo, hi = self.full[missing[0] - 1], self.full[missing[-1] - 1]
            if self.viewer == GM:
                got = self.engine.entries(lo, hi)
            else:
                got = self.tail.entries(lo, hi)
            for entry in got:
                if entry.seq in self.numbers:
                    number = self.numbers[entry.seq]
                    self.log.setdefault(number, self._renumbered(entry).to_dict())
        return [self.log[k] for k in range(first, last + 1) if k in self.log]

    def _renumbered(self, entry: LogEntry) -> LogEntry:
        if self.viewer == GM:
            return entry
        target = self.numbers.get(entry.target) if entry.target else None
        return dataclasses.replace(entry, seq=self.numbers[entry.seq], parent=0, target=target,
                                   rng=(0, 0))

    def number(self, seq: int) -> int | None:
        """The viewer's number for full log entry *seq* (None: hidden from it)."""
        return seq if self.viewer == GM else self.numbers.get(seq)

    def _body(self, entries: list[dict[str, Any]]) -> dict[str, Any]:
        """The viewer's entries, info and status, and its state as kept (``_wire_state``
        makes the state that travels of it)."""
        return {"viewer": self.viewer, "entries": entries, "info": self._info(),
                "state": self._kept_state(),
                "status": status_to_wire(self.engine, self.viewer, self.seat.status())}

    def _kept_state(self) -> dict[str, Any] | State:
        """What is kept of the viewer's state to compare the next one with: a side's view
        itself (a fresh projection, never changed once made), the GM's as plain data (the
        engine's own state, changed in place by every action)."""
        if self.viewer == GM:
            return self.engine.state.to_dict()
        return self.seat.state

    @staticmethod
    def _wire_state(kept: dict[str, Any] | State) -> dict[str, Any]:
        return kept if isinstance(kept, dict) else kept.to_dict()

    @staticmethod
    def _state_delta(last: dict[str, Any] | State, now: dict[str, Any] | State) -> Delta:
        if isinstance(last, dict) and isinstance(now, dict):
            return state_delta(last, now)
        assert not isinstance(last, dict) and not isinstance(now, dict)
        return view_delta(last, now)

    def sync(self) -> dict[str, Any]:
        """The whole projection, but for the log: its last ``TAIL`` entries (``first`` is
        the first one's number; the seat asks for older ones with ``entries``). A new
        revision when it differs from the last one sent (no seat of this viewer was
        connected since)."""
        first_new = self._number_new()
        length = len(self.full)
        first = max(1, length - TAIL + 1)
        body = self._body(self.entries(first, length))
        last = self.last
        if last is None or first_new <= length or \
                any(body[k] != last[k] for k in ("info", "status")) or \
                self._state_delta(last["state"], body["state"]):
            self.rev += 1
            self.last = {k: body[k] for k in ("info", "status", "state")}
        return {"t": "sync", "first": first, "rev": self.rev, **body,
                "state": self._wire_state(body["state"])}

    def update(self, events: list[str]) -> dict[str, Any]:
        """What changed since the last sync or update: the new entries, and the info,
        status and state where they differ (computed between this viewer's projections
        only)."""
        first = self._number_new()
        body = self._body(self.entries(first, len(self.full)))
        out: dict[str, Any] = {"t": "update", "events": events, "viewer": self.viewer,
                               "entries": body["entries"]}
        last = self.last
        if last is None:          # nothing sent before: all of it
            out.update(info=body["info"], status=body["status"],
                       state=self._wire_state(body["state"]))
        else:
            out["base"] = self.rev
            changed, dropped = info_delta(last["info"], body["info"])
            if changed:
                out["info_set"] = changed
            if dropped:
                out["info_drop"] = dropped
            if body["status"] != last["status"]:
                out["status"] = body["status"]
            delta = self._state_delta(last["state"], body["state"])
            if delta:
                out["delta"] = delta
        self.rev += 1
        out["rev"] = self.rev
        self.last = {k: body[k] for k in ("info", "status", "state")}
        return out
