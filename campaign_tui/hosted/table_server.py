"""The table server: the one process that owns a served campaign's engine.

It opens the campaign for writing (taking the store's exclusive lock), listens on a unix
socket in a private (0700) runtime folder and serves seat processes: each authenticates
with its seat token (see :mod:`campaign_tui.hosted.identity`), receives its projection,
sends actions and receives every committed change. Every action is saved to the store as
it is committed, so a killed server loses nothing committed. No Textual import here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import ActionRejected, CampaignError, InvalidInput, NeedDecision
from campaign_tui.core.info import now_iso
from campaign_tui.hosted import protocol as P
from campaign_tui.hosted.authority import refusal
from campaign_tui.hosted.feed import Feed
from campaign_tui.hosted.identity import GM, SeatInfo, new_secret, seat_token, token_matches
from campaign_tui.hosted.lines import TOO_LONG, LineBuffer
from campaign_tui.hosted.questions import Question, Questions
from campaign_tui.hosted.seals import Seals
from campaign_tui.hosted.wire import error_to_wire, lookup_to_wire

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine, Outcome
    from campaign_tui.store.files import Opened
    from campaign_tui.store.paths import Places

SOCKET_ENV = "CAMPAIGN_TUI_TABLE_SOCKET"
TOKEN_ENV = "CAMPAIGN_TUI_TABLE_TOKEN"
SEAT_ENV = "CAMPAIGN_TUI_TABLE_SEAT"
SIDE_ENV = "CAMPAIGN_TUI_TABLE_SIDE"
MAX_BACKLOG = 16 * 1024 * 1024    # a seat that reads nothing is dropped past this
ENTRIES_AT_ONCE = 4               # older log entries projected between two other requests


def _campaigns() -> Any:
    """The campaign files (imported when the table opens its campaign: ``serve`` listens
    before that)."""
    from campaign_tui import campaigns

    return campaigns


class Refused(ActionRejected):
    """The table refuses a seat's request (authority, pause, lock, seals)."""


class AwaitingRuling(Refused):
    """A side's action waits for the GM's ruling (the GM's seat has the question)."""


class Connection:
    def __init__(self, seat: SeatInfo, writer: asyncio.StreamWriter) -> None:
        self.seat = seat
        self.writer = writer
        self.since = now_iso()
        self.held: list[bytes] | None = None   # kept while the table answers a request

    @property
    def viewer(self) -> str:
        return self.seat.viewer

    def send(self, data: bytes) -> None:
        if self.held is not None:
            self.held.append(data)
            return
        if self.writer.is_closing():
            return
        transport = self.writer.transport
        if transport.get_write_buffer_size() > MAX_BACKLOG:
            self.writer.close()          # it reads nothing: drop it (it may reconnect)
            return
        self.writer.write(data)


class TableServer:
    def __init__(self, places: Places, campaign: Path, runtime_dir: Path | None = None) -> None:
        self.places = places
        self.campaign = Path(campaign)
        self._runtime_dir = Path(runtime_dir) if runtime_dir is not None else None
        self._made_dir: Path | None = None
        self.secret = new_secret()
        self.opened: Opened | None = None
        self.server: asyncio.AbstractServer | None = None
        self.connections: list[Connection] = []
        self.feeds: dict[str, Feed] = {}
        self.paused = False
        self.locked: set[str] = set()
        self.seals: Seals | None = None
        self.problem = ""       # the last save's failure, shown on every seat
        self.questions = Questions()    # a side's action waiting on the GM's ruling
        self._tasks: set[asyncio.Task[None]] = set()   # older entries being sent
        self._table_sent: dict[str, dict[str, Any]] = {}   # each viewer's seats have these
        self._asking: Connection | None = None   # the seat whose request is being answered
        self._later: dict[str, list[str]] = {}   # viewers whose update waits for its reply
        self._dir: Path | None = None

    # -- life --------------------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        assert self.opened is not None, "the table is not started"
        return self.opened.engine

    @property
    def socket_path(self) -> Path:
        assert self._dir is not None, "the table is not started"
        return self._dir / "table.sock"

    async def start(self) -> None:
        # on the loop's thread (the write lock belongs to the thread that takes it); the
        # doors in front listen already: a seat arriving meanwhile waits
        self.opened = _campaigns().open_path(self.campaign)   # CampaignLocked if held
        try:
            if self.opened.store is None:
                raise CampaignError(f"{self.campaign} is a side's export (read-only); serve "
                                    "the campaign itself")
            if self.engine.history.pending:      # restored or migrated: on disk first
                _campaigns().save(self.opened)
            self.engine.listeners.append(self._committed)
            self.seals = Seals(self.places.state / "tables" / f"{self.engine.info.id}.json")
            self._dir = self._make_dir()
            self.secret = self._keep_secret(self._dir / "secret")
            with contextlib.suppress(FileNotFoundError):
                self.socket_path.unlink()
            self.server = await asyncio.start_unix_server(self._serve, path=str(self.socket_path))
            os.chmod(self.socket_path, 0o600)
        except BaseException:
            _campaigns().close(self.opened)
            self.opened = None
            raise

    def _keep_secret(self, path: Path) -> str:
        """The serve's secret: kept in the private runtime folder, so a restarted server
        on the same folder takes its seats' tokens back (they reconnect)."""
        with contextlib.suppress(OSError):
            kept = path.read_text(encoding="utf-8").strip()
            if len(kept) >= 32:
                return kept
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(self.secret)
        return self.secret

    def _make_dir(self) -> Path:
        if self._runtime_dir is None:
            self._made_dir = Path(tempfile.mkdtemp(prefix="ctui-table-"))
            return self._made_dir
        self._runtime_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self._runtime_dir, 0o700)
        return self._runtime_dir

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            for conn in list(self.connections):
                conn.writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)
            self.server = None
        if self.opened is not None:
            with contextlib.suppress(CampaignError, OSError):
                _campaigns().save(self.opened)
            _campaigns().close(self.opened)
            self.opened = None
        if self._dir is not None:
            with contextlib.suppress(FileNotFoundError):
                self.socket_path.unlink()
        if self._made_dir is not None:
            shutil.rmtree(self._made_dir, ignore_errors=True)
            self._made_dir = None

    # -- for the door --------------------------------------------------------------------------
    def seat_command(self, seat: SeatInfo, cols: int, rows: int) -> tuple[list[str], dict[str, str]]:
        """The command line and extra environment that start *seat*'s TUI (in a pty)."""
        argv = [sys.executable, "-m", "campaign_tui.hosted.seat_client"]
        env = {SOCKET_ENV: str(self.socket_path), TOKEN_ENV: seat_token(self.secret, seat),
               SEAT_ENV: seat.name, SIDE_ENV: seat.side or "",
               "COLUMNS": str(cols), "LINES": str(rows)}
        home = os.environ.get("CAMPAIGN_TUI_HOME")
        if home:
            env["CAMPAIGN_TUI_HOME"] = home
        return argv, env

    def connected(self) -> list[dict[str, Any]]:
        return [{"seat": c.seat.name, "side": c.seat.side, "since": c.since,
                 "locked": c.seat.name in self.locked} for c in self.connections]

    def pause(self, flag: bool) -> None:
        self.paused = bool(flag)
        self._broadcast_table()

    def lock_seat(self, name: str, flag: bool) -> None:
        if flag:
            self.locked.add(name)
        else:
            self.locked.discard(name)
        self._broadcast_table()

    # -- the table's own facts --------------------------------------------------------------
    def table_info(self, viewer: str = GM) -> dict[str, Any]:
        """The table's facts for *viewer*: who is waited for (and which of them has no seat
        connected now); the GM also gets who is connected."""
        e = self.engine
        assert self.seals is not None
        waiting = self.seals.waiting(e)
        seated = {c.seat.side for c in self.connections}
        info = {"t": "table", "paused": self.paused, "locked": sorted(self.locked),
                "problem": self.problem,
                "waiting": waiting, "waiting_names": [e.actor_name(s) for s in waiting],
                "away": [e.actor_name(s) for s in waiting if s not in seated],
                "sealed": sorted(self.seals.sealed & set(self.seals.involved(e)))}
        if viewer == GM:
            info["present"] = [f"{c.seat.name} ({e.actor_name(c.viewer)})"
                               for c in self.connections]
            info["questions"] = self.questions.for_gm()
        else:
            info["awaiting"] = self.questions.for_side(viewer)
        return info

    def _table_for(self, viewer: str) -> dict[str, Any]:
        return {k: v for k, v in self.table_info(viewer).items() if k != "t"}

    def _broadcast_table(self, skip: Connection | None = None) -> None:
        """Every seat gets the table's facts (on a seal, a pause, a lock, a seat arriving
        or leaving)."""
        for viewer in {c.viewer for c in self.connections}:
            table = self._table_for(viewer)
            data = P.encode({"t": "table", **table})
            for conn in self.connections:
                if conn.viewer == viewer and conn is not skip:
                    conn.send(data)
            self._table_sent[viewer] = table

    def _table_news(self, viewer: str) -> dict[str, Any]:
        """The table's facts for an update of *viewer*'s: none when its seats have them."""
        table = self._table_for(viewer)
        if self._table_sent.get(viewer) == table:
            return {}
        self._table_sent[viewer] = table
        return {"table": table}

    def _committed(self, outcome: Outcome) -> None:
        """After every committed action: save it, then tell every seat what it sees."""
        assert self.opened is not None
        entry = outcome.entry
        if not self.questions.done(entry.by) and entry.by == GM:
            for q in list(self.questions.by_side.values()):   # the GM played it for them
                if q.action == entry.kind:
                    self.questions.done(q.side)
        try:
            _campaigns().save(self.opened)
            self.problem = ""
        except (CampaignError, OSError) as exc:   # play goes on; every seat is told
            self.problem = f"The last action is not saved: {exc}"
            print(f"campaign-tui table: {self.problem}", file=sys.stderr, flush=True)
        events = list(outcome.events)
        viewers = {c.viewer for c in self.connections}
        asking = self._asking
        if asking is not None and entry.by == asking.viewer:
            # a seat acting for itself: its viewer's update now, the others' after its reply
            for viewer in viewers - {asking.viewer}:
                self._later.setdefault(viewer, []).extend(events)
            viewers = {asking.viewer}
        self._send_updates({v: [*self._later.pop(v, []), *events] for v in viewers})

    def _send_updates(self, events: dict[str, list[str]]) -> None:
        """Each viewer named gets its update (with these events), to every seat of it.
        Every viewer's update is made before any is sent: the seats woken first would
        otherwise take the processor from the table still making the others'."""
        ready: dict[str, bytes] = {}
        for viewer, its_events in events.items():
            try:
                ready[viewer] = P.encode({**self._feed(viewer).update(its_events),
                                          **self._table_news(viewer)})
            except Exception as exc:  # a rule set's projection failing: resync those seats
                print(f"campaign-tui table: {viewer}'s update failed ({exc})", file=sys.stderr)
                self.feeds.pop(viewer, None)
                for conn in [c for c in self.connections if c.viewer == viewer]:
                    conn.writer.close()    # they reconnect and get a fresh sync
        for conn in list(self.connections):
            if conn.viewer in ready:
                conn.send(ready[conn.viewer])

    def _feed(self, viewer: str) -> Feed:
        feed = self.feeds.get(viewer)
        if feed is None:
            feed = self.feeds[viewer] = Feed(self.engine, viewer)
        return feed

    # -- one seat's connection --------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn: Connection | None = None
        lines = LineBuffer(P.MAX_REQUEST)
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                for line in lines.feed(data):
                    if conn is None:
                        conn = self._hello(line, writer)
                        if conn is None:
                            return
                    else:
                        self._request(conn, line)
        except (ConnectionError, OSError):
            return
        finally:
            if conn is not None and conn in self.connections:
                self.connections.remove(conn)
                with contextlib.suppress(Exception):   # the others learn who left
                    self._broadcast_table()
            writer.close()

    def _hello(self, line: bytes | object, writer: asyncio.StreamWriter) -> Connection | None:
        try:
            if line is TOO_LONG:
                raise P.ProtocolError("hello too long")
            assert isinstance(line, bytes)
            message = P.decode(line)
            P.check_hello(message)
            seat = SeatInfo(message["seat"], message.get("side"))
            if not token_matches(self.secret, seat, message["token"]):
                raise P.ProtocolError("this seat's token is not valid at this table")
            if seat.side is not None:
                self.engine.check_viewer(seat.side)
        except (P.ProtocolError, CampaignError) as exc:
            writer.write(P.encode(P.error(str(exc))))
            return None
        conn = Connection(seat, writer)
        self.connections.append(conn)
        assert self.seals is not None
        if seat.side is not None:
            self.seals.seat_joined(seat.side)
        conn.send(P.encode({**self._feed(conn.viewer).sync(),
                            "table": self._table_for(conn.viewer)}))
        self._broadcast_table(skip=conn)    # who is here (and waited for) has changed
        return conn

    def _request(self, conn: Connection, line: bytes | object) -> None:
        """Answer one request. The asking seat's reply goes first: what the request sends
        to any seat is held until the reply is made, then the asking seat gets its
        updates and the reply in one write. The updates of an action it commits for
        itself are made for its viewer only before the reply; the other viewers' after
        that write (while the asking seat shows its action on the other processor), and
        sent to their seats with whatever else was held for them. (An action done for
        another side, as a GM's ruling, updates everyone at once: that side learns of
        its action before it is told of the ruling.)"""
        others = [c for c in self.connections if c is not conn]
        for c in (conn, *others):
            c.held = []
        self._asking, self._later = conn, {}
        try:
            self._answer(conn, line)
        finally:
            self._asking = None
            self._flush(conn)
            later, self._later = self._later, {}
            self._send_updates(later)
            for c in others:
                self._flush(c)

    @staticmethod
    def _flush(conn: Connection) -> None:
        held, conn.held = conn.held, None
        if held:
            conn.send(b"".join(held))

    def _answer(self, conn: Connection, line: bytes | object) -> None:
        rid: int | None = None
        try:
            if line is TOO_LONG:
                raise P.ProtocolError(f"message too long (at most {P.MAX_REQUEST} bytes)")
            assert isinstance(line, bytes)
            message = P.decode(line)
            rid = message.get("id") if isinstance(message.get("id"), int) else None
            P.check_request(message)
        except P.ProtocolError as exc:
            conn.send(P.encode(P.error(str(exc), rid)))
            return
        if message["t"] == "entries":    # older log entries: projected a few at a time
            self._tasks.add(task := asyncio.get_running_loop().create_task(
                self._send_entries(conn, rid, message)))
            task.add_done_callback(self._tasks.discard)
            return
        seat_text = self.engine.side_view(conn.viewer).text
        try:
            result = self._handle(conn, message)
        except NeedDecision as exc:
            decision, preview = self.engine.side_view(conn.viewer).decision(exc.decision,
                                                                           exc.preview)
            exc = NeedDecision(decision, preview)
            reply = {"t": "reply", "id": rid, "ok": False, "error": error_to_wire(exc, seat_text)}
        except CampaignError as exc:
            reply = {"t": "reply", "id": rid, "ok": False, "error": error_to_wire(exc, seat_text)}
        except Exception as exc:  # a fault in a rule set: the engine rolled it back
            message_text = (f"The rule set failed ({type(exc).__name__}: {exc}). Nothing was "
                            "changed; please report it.")
            reply = {"t": "reply", "id": rid, "ok": False,
                     "error": {"type": "CampaignError", "message": seat_text(message_text)}}
        else:
            reply = {"t": "reply", "id": rid, "ok": True, "result": result}
        try:
            data = P.encode(reply)
        except (TypeError, ValueError) as exc:
            data = P.encode({"t": "reply", "id": rid, "ok": False, "error": {
                "type": "CampaignError", "message": f"the answer cannot be sent ({exc})"}})
        conn.send(data)

    # -- requests ------------------------------------------------------------------------------
    def _handle(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        kind = message["t"]
        if kind == "ping":
            return {}
        if kind == "sync":       # the seat lost the thread of its updates: all again
            conn.send(P.encode({**self._feed(conn.viewer).sync(), "t": "resync",
                                "table": self._table_for(conn.viewer)}))
            return {}
        if kind == "table":
            return self._table_request(conn, message)
        if kind == "rule":
            return self._rule(conn, message)
        by = self._acting(conn, message.get("by"))
        if kind == "seal":
            return self._seal(by, bool(message.get("sealed", True)))
        e = self.engine
        if kind == "undo":
            self._may_take_back(conn, e.undo_target(), "undo")
            return self._outcome(conn, e.undo(by=by, confirm=bool(message.get("confirm"))))
        if kind == "redo":
            self._may_take_back(conn, e.redo_target(), "redo")
            return self._outcome(conn, e.redo(by=by))
        action = message.get("kind", "")
        params = message.get("params") or {}
        answers = message.get("answers") or {}
        preview = bool(message.get("preview"))
        hold = bool(message.get("hold_rolls"))
        self._may_perform(conn, by, action)

        def run(given: dict[str, Any]) -> Outcome:
            if action == "advance" and not hold:
                return e.advance(given, by=by, preview=preview)
            return e.perform(action, params, given, by=by, preview=preview, hold_rolls=hold)

        if conn.viewer == GM:
            return self._outcome(conn, run(answers))
        return self._outcome(conn, self._run_as_side(run, answers, by, action, params))

    def _run_as_side(self, run: Any, answers: dict[str, Any], side: str, action: str,
                     params: dict[str, Any]) -> Outcome:
        """Run a side's action taking only the answers that are its own to give: each is
        used once the engine has asked for it, so a side never answers a GM ruling or
        another side's decision (nor overrides a die or a table lookup). A GM ruling the
        GM has given for this action is used; one not given yet goes to the GM's seat as a
        question, and the side is told it waits for it."""
        e = self.engine
        rulings = self.questions.rulings(side, action)
        given: dict[str, Any] = {}
        while True:
            try:
                return run(given)
            except NeedDecision as exc:
                d = exc.decision
                if d.side == GM:
                    key = d.answer_key(rulings)
                    if key is not None and key not in given:
                        given[key] = rulings[key]
                        continue
                    q = self._ask_gm(side, action, params, answers, d, exc.preview)
                    raise AwaitingRuling(f"Waiting for the GM's ruling ({q.side_prompt}); "
                                         f"your {q.title} goes on once the GM has answered"
                                         ) from None
                if d.side not in (None, side, "all", "both"):
                    prompt = e.side_view(side).decision(d)[0].prompt
                    raise Refused(f"this needs {e.actor_name(str(d.side))}'s decision "
                                  f"({prompt}): the GM can play it, or settle it first"
                                  ) from None
                key = d.answer_key(answers)
                if key is None or key in given:
                    raise
                given[key] = answers[key]

    async def _send_entries(self, conn: Connection, rid: int | None,
                            message: dict[str, Any]) -> None:
        """Older log entries a seat reads (its own, projected): a side's cost a state
        projection each, so they are projected a few at a time, the other seats' requests
        and updates going on in between (the entries before the last ones never change)."""
        feed = self._feed(conn.viewer)
        first, last = int(message.get("first", 1)), int(message.get("last", 0))
        try:
            last = min(last, len(feed.full))
            for lo in range(max(first, 1), last + 1, ENTRIES_AT_ONCE):
                feed.entries(lo, min(last, lo + ENTRIES_AT_ONCE - 1))   # projected, kept
                await asyncio.sleep(0.002)   # (not 0: what waits on a socket goes first)
            reply = {"t": "reply", "id": rid, "ok": True,
                     "result": {"entries": feed.entries(first, last)}}
        except Exception as exc:  # a rule set's projection failing: said, nothing changes
            reply = {"t": "reply", "id": rid, "ok": False, "error": {
                "type": "CampaignError", "message": self.engine.side_view(conn.viewer).text(
                    f"the log cannot be read here ({type(exc).__name__}: {exc})")}}
        conn.send(P.encode(reply))

    def _title(self, action: str) -> str:
        return self.engine.action_def(action).title if action != "advance" else "Advance"

    def _ask_gm(self, side: str, action: str, params: dict[str, Any], answers: dict[str, Any],
                decision: Any, lines: list[str]) -> Question:
        """A side's action waits on a GM ruling: the question goes to the GM's seat (as
        the GM sees it) and stays there until the GM answers, the side does something
        else or the GM plays that action."""
        e = self.engine
        side_prompt = e.side_view(side).decision(decision)[0].prompt
        q = self.questions.ask(side, e.actor_name(side), action, self._title(action), params,
                               answers, decision, lines, side_prompt)
        self._broadcast_table()
        return q

    def _rule(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        """The GM answers a side's question: the side's action is carried out with the
        ruling (the update reaches every seat), or the next question it raises is the
        GM's to answer (returned), or, when it needs a decision of the side's own, the
        side is told to do it again (the ruling is kept for it)."""
        if conn.viewer != GM:
            raise Refused("only the GM answers the questions put to the GM")
        q = self.questions.get(message.get("question"))
        if q is None or q.side_again:
            raise Refused("that question is no longer open (the side did something else, "
                          "or it was answered)")
        answers = message.get("answers") or {}
        key = q.decision.answer_key(answers)
        if key is None:
            raise Refused(f"no answer to the question ({q.decision.prompt})")
        q.decision.coerce(answers[key])          # a bad answer: refused, nothing kept
        q.ruled[key] = answers[key]
        e = self.engine
        side, action = q.side, q.action

        def run(given: dict[str, Any]) -> Outcome:
            if action == "advance":
                return e.advance(given, by=side)
            return e.perform(action, q.params, given, by=side)

        try:
            outcome = self._run_as_side(run, q.answers, side, action, q.params)
        except AwaitingRuling:                     # another ruling: the GM's next question
            nxt = self.questions.by_side.get(side)
            return {"done": False, "question": nxt.for_gm() if nxt else None}
        except NeedDecision:                       # the side's own decision: its turn again
            q.side_again = True
            self._tell(side, {"t": "ruled", "question": q.id, "action": action, "title": q.title,
                              "done": False, "again": True})
            self._broadcast_table()
            return {"done": False, "side_again": True}
        except InvalidInput:
            q.ruled.pop(key, None)
            raise
        except CampaignError as exc:               # refused as ruled: the question is closed
            self.questions.done(side)
            text = e.side_view(side).text(str(exc))
            self._tell(side, {"t": "ruled", "question": q.id, "action": action, "title": q.title,
                              "done": False, "refused": text})
            self._broadcast_table()
            return {"done": True, "refused": str(exc)}
        self.questions.done(side)
        self._tell(side, {"t": "ruled", "question": q.id, "action": action, "title": q.title, "done": True,
                          "seq": self._feed(side).number(outcome.entry.seq)})
        self._broadcast_table()
        return {"done": True, **self._outcome(conn, outcome)}

    def _tell(self, viewer: str, message: dict[str, Any]) -> None:
        data = P.encode(message)
        for conn in self.connections:
            if conn.viewer == viewer:
                conn.send(data)

    def _acting(self, conn: Connection, by: Any) -> str:
        """Who an action is by: a side's seat acts for its side only; the GM's seat for
        whoever it views as. Refused while the seat is locked, or (but for the GM) paused."""
        if conn.seat.name in self.locked:
            raise Refused("your seat is locked by the GM")
        if self.paused and conn.viewer != GM:
            raise Refused("the table is paused by the GM; wait until play resumes")
        if conn.viewer != GM:
            return conn.viewer
        by = by or GM
        if by != GM:
            self.engine.check_viewer(str(by))
        return str(by)

    def _may_perform(self, conn: Connection, by: str, kind: str) -> None:
        e = self.engine
        assert self.seals is not None
        if kind == "advance":
            waiting = self.seals.waiting(e)
            if waiting:
                names = ", ".join(e.actor_name(s) for s in waiting)
                raise Refused(f"waiting for: {names} (each side seals its own orders)")
        elif by != GM and e.step.hidden_input and self.seals.is_sealed(e, by):
            raise Refused("you have sealed your orders for this step; unseal them to change "
                          "anything")
        why = refusal(e, conn.viewer, kind)
        if why:
            raise Refused(f"{e.action_def(kind).title}: {why}")

    def _may_take_back(self, conn: Connection, target: Any, what: str) -> None:
        if conn.viewer == GM or target is None:
            return
        if target.by != conn.viewer:
            raise Refused(f"nothing of yours to {what}: the last action was not "
                          f"{self.engine.actor_name(conn.viewer)}'s (ask the GM)")

    def _seal(self, by: str, sealed: bool) -> dict[str, Any]:
        e = self.engine
        assert self.seals is not None
        if by not in self.seals.involved(e):
            raise Refused(f"{e.actor_name(by)} has no secret orders to seal at this step")
        self.seals.seal(e, by, sealed)
        self._broadcast_table()
        return {"sealed": sealed}

    def _table_request(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        op = message.get("op")
        if op == "info":
            return self.table_info(conn.viewer)
        if conn.viewer != GM:
            raise Refused("only the GM runs the table")
        if op == "connected":
            return {"seats": self.connected()}
        if op == "pause":
            self.pause(bool(message.get("flag", True)))
            return {"paused": self.paused}
        if op == "lock":
            name = message.get("seat")
            if not isinstance(name, str):
                raise P.ProtocolError("lock: name the seat")
            self.lock_seat(name, bool(message.get("flag", True)))
            return {"locked": sorted(self.locked)}
        raise Refused(f"unknown table operation {op!r}: connected, pause, lock, info")

    def _outcome(self, conn: Connection, outcome: Outcome) -> dict[str, Any]:
        """An outcome as the seat may see it: a committed one by its number in the seat's
        log (the update before this reply brought the entry), a preview projected."""
        seat = self.engine.side_view(conn.viewer)
        out: dict[str, Any] = {"preview": outcome.preview, "events": list(outcome.events),
                               "unasked": list(outcome.unasked)}
        if outcome.preview:
            entry = seat.entry(outcome.entry)
            if entry is None:
                raise ActionRejected("the preview concerns only what is hidden from you")
            out["entry"] = entry.to_dict()
        else:
            out["seq"] = self._feed(conn.viewer).number(outcome.entry.seq)
        if conn.viewer == GM:
            out["lookups"] = [lookup_to_wire(k, v) for k, v in outcome.lookups]
        return out
