"""The seat's session: the TUI's :class:`~campaign_tui.ui.session.Session`, served by the
table. The screens read the seat's replica (its projection) and every action goes to the
server, which runs it on the real engine and answers with what the seat may see. No
Textual import here: the seat TUI wires it up, tests drive it directly."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui.core.engine import Outcome
from campaign_tui.core.errors import CampaignError
from campaign_tui.core.log import LogEntry
from campaign_tui.hosted.identity import GM, SeatInfo
from campaign_tui.hosted.link import CLOSED, Link, TableGone
from campaign_tui.hosted.replica import Replica
from campaign_tui.hosted.wire import (
    entry_from_wire,
    error_from_wire,
    lookup_from_wire,
    status_from_wire,
)
from campaign_tui.ui.session import Session

if TYPE_CHECKING:
    from campaign_tui.core.engine import Status
    from campaign_tui.store.paths import Places
    from campaign_tui.ui.session import JournalProblem

Listener = Callable[[Outcome], None]
Hook = Callable[[], None]


class RemoteSession:
    hosted = True
    recorder = None
    opened = None
    dirty = False
    unsaved_count = 0

    def __init__(self, places: Places, link: Link, sync: dict[str, Any]) -> None:
        self.places = places
        self.link = link
        self.seat_info: SeatInfo = link.seat
        self.listeners: list[Listener] = []
        self.reloaded: list[Hook] = []       # many entries at once, none, or a reconnection
        self.table_changed: list[Hook] = []
        self.ruled: list[Callable[[dict[str, Any]], None]] = []   # the GM answered us
        self.lost: list[Hook] = []
        self.problems: list[JournalProblem] = []
        self.connected = True
        self.closed = False
        self.table: dict[str, Any] = {"paused": False, "locked": [], "waiting": [],
                                      "waiting_names": [], "sealed": []}
        self.deferred: list[dict[str, Any]] = []   # arrived while older entries were read
        self.resyncing = False     # a whole sync asked for (an update did not follow on)
        self._take_sync(sync)
        self._viewer = self.own_viewer

    def _take_sync(self, sync: dict[str, Any]) -> None:
        self.engine = Replica.from_sync(sync, self._older)
        self.rev = sync.get("rev")
        self.resyncing = False
        self.patch: dict[str, Any] = sync["status"]
        self._status: Status | None = None
        self._noted: tuple[Status, str, Status] | None = None   # it, the table's note, both
        self.table.update(sync.get("table", {}))
        self.path = Path(self.engine.info.name)

    @property
    def own_viewer(self) -> str:
        return self.seat_info.viewer

    @property
    def own_side(self) -> str | None:
        """A side's seat acts for its own side only (the GM's seat for any)."""
        return None if self.own_viewer == GM else self.own_viewer

    # -- who is looking: a side's seat never looks as anyone else -----------------------------
    @property
    def viewer(self) -> str:
        return self._viewer

    @viewer.setter
    def viewer(self, value: str) -> None:
        if self.own_viewer != GM and value != self.own_viewer:
            raise CampaignError("a side's seat sees only its own side")
        self._viewer = value

    @property
    def read_only(self) -> bool:
        """Nothing can be done from here now: disconnected, locked, or paused (but the GM)."""
        if not self.connected or self.seat_info.name in self.table.get("locked", []):
            return True
        return bool(self.table.get("paused")) and self.own_viewer != GM

    # -- facts, from the replica (read as the one-screen session reads its engine) ----------
    name = Session.name
    viewer_name = Session.viewer_name
    dice_mode = Session.dice_mode
    seat = Session.seat
    view = Session.view

    def sides(self) -> list[tuple[str, str]]:
        if self.own_viewer != GM:
            return [(self.own_viewer, self.viewer_name(self.own_viewer))]
        return Session.sides(self)  # type: ignore[arg-type]

    def status(self) -> Status:
        """The server's status for this seat (the GM viewing as a side: the replica's)."""
        if self.viewer != self.own_viewer:
            return self.seat().status()
        if self._status is None:
            self._status = status_from_wire(self.engine, self.patch)
        note = self.table_note()
        if self._noted is None or self._noted[0] is not self._status or self._noted[1] != note:
            # the same status object while nothing changed: the screens compare it first
            self._noted = (self._status, note,
                           dataclasses.replace(self._status, prompt=self._status.prompt + note))
        return self._noted[2]

    def table_note(self) -> str:
        notes = []
        if not self.connected:
            notes.append("Connection to the table lost; reconnecting...")
        if self.table.get("problem"):
            notes.append(str(self.table["problem"]))
        if self.table.get("paused"):
            notes.append("The GM has paused the table.")
        if self.seat_info.name in self.table.get("locked", []):
            notes.append("The GM has locked your seat.")
        if self.table.get("waiting_names"):
            away = set(self.table.get("away", []))
            notes.append("Sealed orders: waiting for " + ", ".join(
                f"{n} (not connected)" if n in away else n
                for n in self.table["waiting_names"]))
        for q in self.table.get("questions", []):
            notes.append(f"Question: {q['text']} (answer it: ctrl+p, Table: answer "
                         f"{q['who']}'s question)")
        for q in self.table.get("awaiting", []):
            notes.append(f"The GM has ruled on your {q['title']}: do it again to finish it."
                         if q["side_again"] else
                         f"Waiting for the GM's ruling on your {q['title']}: {q['prompt']}")
        if "present" in self.table:
            notes.append("At the table: " + (", ".join(self.table["present"]) or "nobody"))
        if self.own_viewer in self.table.get("sealed", []):
            notes.append("Your orders are sealed (palette: Unseal my orders to change them).")
        return "".join(f"\n{n}" for n in notes)

    # -- acting: everything goes to the server --------------------------------------------------
    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        self._deferred()
        try:
            reply = self.link.request(message, self.handle)
        except TableGone:
            self._gone()
            raise
        if reply.get("t") == "error":
            raise CampaignError(str(reply.get("message")))
        if not reply.get("ok"):
            raise error_from_wire(reply.get("error") or {})
        return reply.get("result") or {}

    def _outcome(self, result: dict[str, Any]) -> Outcome:
        if result.get("preview"):
            entry = entry_from_wire(result["entry"])
        else:
            seq = result.get("seq")
            entry = self.engine.history.get(seq) if seq else self._last_entry()
        lookups = [lookup_from_wire(x) for x in result.get("lookups", [])]
        return Outcome(entry, bool(result.get("preview")), list(result.get("events", [])),
                       None, lookups, list(result.get("unasked", [])))

    def _last_entry(self) -> Any:
        n = len(self.engine.history)
        if not n:
            raise CampaignError("done, but nothing of it is yours to see")
        return self.engine.history.get(n)

    def perform(self, kind: str, params: dict[str, Any] | None = None,
                answers: dict[str, Any] | None = None, preview: bool = False,
                hold_rolls: bool = False) -> Outcome:
        return self._outcome(self._ask({
            "t": "perform", "kind": kind, "params": params or {}, "answers": answers or {},
            "preview": preview, "hold_rolls": hold_rolls, "by": self.viewer}))

    def advance(self, answers: dict[str, Any] | None = None) -> Outcome:
        return self.perform("advance", {}, answers)

    def undo(self, confirm: bool = False) -> Outcome:
        return self._outcome(self._ask({"t": "undo", "confirm": confirm, "by": self.viewer}))

    def redo(self) -> Outcome:
        return self._outcome(self._ask({"t": "redo", "by": self.viewer}))

    def seal(self, sealed: bool = True) -> None:
        self._ask({"t": "seal", "sealed": sealed, "by": self.viewer})

    def rule(self, question: int, answers: dict[str, Any]) -> dict[str, Any]:
        """The GM answers a side's question (see TableServer._rule for the result)."""
        return self._ask({"t": "rule", "question": question, "answers": answers})

    def table_op(self, op: str, **fields: Any) -> dict[str, Any]:
        return self._ask({"t": "table", "op": op, **fields})

    def save(self) -> None:
        """Nothing to do: the table saves every action as it is committed."""

    def close(self, keep_journal: bool = False) -> None:
        self.closed = True
        self.link.close()

    def _older(self, first: int, last: int) -> list[LogEntry]:
        """Older log entries, read from the table when a screen reads them (a sync carries
        only the last ones). What arrives meanwhile waits for the next pump: the replica is
        being read now."""
        why = "the connection to the table is lost"
        try:
            reply = self.link.request({"t": "entries", "first": first, "last": last},
                                      self.deferred.append)
            if reply.get("ok"):
                return [entry_from_wire(d) for d in reply["result"]["entries"]]
            why = str((reply.get("error") or {}).get("message") or reply.get("message"))
        except TableGone:
            self._gone()
        finally:
            if self.deferred:
                self.link.wake()
        # the screens go on: these entries say they are not here (until reconnected)
        return [LogEntry(seq, "unavailable", summary=f"(not loaded: {why})")
                for seq in range(first, last + 1)]

    # -- what the server pushes -----------------------------------------------------------------
    def pump(self) -> None:
        """Handle whatever has arrived (the seat TUI calls this when woken)."""
        self._deferred()
        for message in self.link.pending():
            self.handle(message)

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        """Handle messages until *predicate* holds (for tests and tools without a loop)."""
        end = time.monotonic() + timeout
        self._deferred()
        while not predicate():
            left = end - time.monotonic()
            if left <= 0:
                return False
            message = self.link.wait(min(left, 0.2))
            if message is not None:
                self.handle(message)
        return True

    def _deferred(self) -> None:
        while self.deferred:
            self.handle(self.deferred.pop(0))

    def handle(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "update":
            if self.resyncing or ("base" in message and message["base"] != self.rev):
                self._resync()        # the whole projection follows (as "resync")
                return
            new = self.engine.apply(message)
            self.rev = message.get("rev")
            if "status" in message:
                self.patch = message["status"]
                self._status = None
            self.table.update(message.get("table", {}))
            if len(new) == 1:
                outcome = Outcome(new[0], False, list(message.get("events", [])))
                for listener in list(self.listeners):
                    listener(outcome)
            else:
                self._hooks(self.reloaded)
        elif kind == "resync":
            self._take_fresh(message)
            self._hooks(self.reloaded)
        elif kind == "table":
            self.table = {k: v for k, v in message.items() if k != "t"}
            self._hooks(self.table_changed)
        elif kind == "ruled":
            for hook in list(self.ruled):
                hook(message)
        elif message is CLOSED or kind == "_closed":
            self._gone()

    def _take_fresh(self, sync: dict[str, Any]) -> None:
        """A whole projection again (reconnected, or resynced): the GM keeps viewing as
        whoever it viewed as, when that viewer is still there."""
        viewer = self._viewer
        self._take_sync(sync)
        self._viewer = viewer if viewer in self.engine.viewers() or viewer == GM else \
            self.own_viewer

    def _resync(self) -> None:
        """Ask the table for the whole projection again (once; what comes before it is
        dropped: the resync holds it)."""
        if self.resyncing:
            return
        self.resyncing = True
        try:
            self.link.send({"t": "sync", "id": next(self.link.ids)})
        except TableGone:
            self._gone()

    @staticmethod
    def _hooks(hooks: list[Hook]) -> None:
        for hook in list(hooks):
            hook()

    def _gone(self) -> None:
        if self.connected:
            self.connected = False
            self._hooks(self.lost)

    def reconnect(self) -> bool:
        """Try once to join the table again; on success the replica is fresh."""
        if self.closed:
            return False
        try:
            sync = self.link.connect(timeout=3)
        except TableGone:
            return False
        self._take_fresh(sync)
        self.connected = True
        self.pump()
        self._hooks(self.reloaded)
        return True
