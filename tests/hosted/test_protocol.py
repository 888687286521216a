"""Malformed, oversized and unauthorised messages get a clear error and the table lives;
a crashing seat process harms nothing."""

from __future__ import annotations

import os
import pty
import signal
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from campaign_tui import campaigns
from campaign_tui.hosted import protocol as P
from campaign_tui.hosted import table_server
from campaign_tui.hosted.feed import Feed
from campaign_tui.hosted.identity import SeatInfo, seat_token
from campaign_tui.hosted.lines import TOO_LONG, LineBuffer
from tests.hosted.helpers import ROOT, RawSeat, ThreadTable, wait_until


def test_line_buffer_skips_an_oversized_line_whole() -> None:
    lines = LineBuffer(10)
    assert lines.feed(b'{"a":1}\n0123456789ABC') == [b'{"a":1}', TOO_LONG]
    assert lines.feed(b"DEF more of it") == []
    assert lines.feed(b"\n{}\n") == [b"{}"]
    assert lines.feed(b"0123456789ABCDE\n") == [TOO_LONG]


@pytest.mark.parametrize(("data", "words"), [
    (b"not json\n", "not JSON"),
    (b"[1, 2]\n", "JSON object"),
    (b'{"id": 1}\n', 'type ("t")'),
    (b'{"t": "launch", "id": 1}\n', "unknown request 'launch'"),
    (b'{"t": "perform", "kind": "advance"}\n', "whole-number id"),
    (b'{"t": "perform", "id": 4, "kind": "advance", "params": [1]}\n', "params must be"),
    (b"\xff\xfe\n", "UTF-8"),
    (b"x" * (P.MAX_REQUEST + 10) + b"\n", "too long"),
])
def test_a_malformed_message_gets_an_error_and_the_table_lives(
        table: ThreadTable, data: bytes, words: str) -> None:
    seat = RawSeat(table.server.socket_path)
    seat.hello(table.server.secret, SeatInfo("alice", "A"))
    seat.send(data)
    got = seat.until("error")
    assert words in got["message"]
    seat.send({"t": "ping", "id": 9})              # the same connection goes on
    assert seat.until("reply")["id"] == 9
    other = table.seat("gm", None)                 # and the table serves everyone
    other.advance()
    assert other.engine.state.step == "move"


@pytest.mark.parametrize(("hello", "words"), [
    ({"t": "hello", "v": 99, "seat": "alice", "side": "A", "token": "x"}, "version 99"),
    ({"t": "hello", "v": P.VERSION, "seat": "alice", "side": "A", "token": "0" * 64},
     "token is not valid"),
    ({"t": "ping", "id": 1}, "first message must be"),
])
def test_a_stranger_gets_no_seat(table: ThreadTable, hello: dict, words: str) -> None:
    seat = RawSeat(table.server.socket_path)
    seat.send(hello)
    got = seat.read()
    assert got is not None and got["t"] == "error" and words in got["message"]
    assert seat.read() is None                     # and is shown the door
    assert table.run(table.server.connected) == []


def test_a_seat_token_opens_no_other_seat(table: ThreadTable) -> None:
    secret = table.server.secret
    alice = seat_token(secret, SeatInfo("alice", "A"))
    for claim in (SeatInfo("alice", "B"), SeatInfo("alice", None), SeatInfo("bob", "A")):
        seat = RawSeat(table.server.socket_path)
        seat.send({"t": "hello", "v": P.VERSION, "seat": claim.name, "side": claim.side,
                   "token": alice})
        got = seat.read()
        assert got is not None and "token is not valid" in got["message"]


def test_the_socket_is_private(table: ThreadTable) -> None:
    path = table.server.socket_path
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_crashing_seat_process_harms_nothing(table: ThreadTable) -> None:
    """A real seat process (the whole TUI, in a pty) is killed mid-play."""
    argv, env = table.server.seat_command(SeatInfo("alice", "A"), 100, 30)
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    try:
        assert wait_until(lambda: len(table.run(table.server.connected)) == 1, 30)
        os.write(master, b"n")                     # a key on its way, then it dies
        time.sleep(0.2)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert wait_until(lambda: table.run(table.server.connected) == [])
    gm = table.seat("gm", None)
    gm.advance()
    gm.viewer = "A"
    gm.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    stored = campaigns.open_path(table.server.campaign, read_only=True).engine
    assert stored.state.units["a-inf"].location == "hex:0201"
    assert [e.kind for e in stored.entries()][-2:] == ["advance", "move"]


def test_the_table_refuses_a_campaign_already_open(home_places, demo_path: Path) -> None:
    from campaign_tui.core.errors import CampaignLocked

    opened = campaigns.open_path(demo_path)
    try:
        with pytest.raises(CampaignLocked):
            ThreadTable(home_places, demo_path)
    finally:
        campaigns.close(opened)


def test_the_asking_seat_is_answered_before_the_others_updates_are_made(
        table: ThreadTable, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's own action: its viewer's update is made and written with the reply (in one
    write) first; the other viewers' updates are made after that write. A second seat of
    the asking viewer gets the same update; every seat gets exactly one."""
    order: list[tuple[str, str]] = []
    made, written = Feed.update, table_server.Connection.send

    def update(feed: Feed, events: list[str]) -> dict[str, Any]:
        order.append(("made", feed.viewer))
        return made(feed, events)

    def send(conn: table_server.Connection, data: bytes) -> None:
        kinds = [P.decode(line, P.MAX_PUSH)["t"] for line in data.splitlines()]
        if conn.held is None and kinds != ["table"]:   # (news of the seats arriving)
            order.append(("wrote", f"{conn.seat.name}:{'+'.join(kinds)}"))
        written(conn, data)

    secret = table.server.secret
    gm, gm2, alice, bob = (RawSeat(table.server.socket_path) for _ in range(4))
    gm.hello(secret, SeatInfo("gm", None))
    gm2.hello(secret, SeatInfo("gm2", None))
    alice.hello(secret, SeatInfo("alice", "A"))
    bob.hello(secret, SeatInfo("bob", "B"))
    monkeypatch.setattr(Feed, "update", update)
    monkeypatch.setattr(table_server.Connection, "send", send)
    gm.send({"t": "perform", "id": 7, "kind": "advance", "params": {}, "answers": {},
             "by": "gm"})
    assert gm.until("reply")["ok"] is True
    assert alice.until("update") and bob.until("update") and gm2.until("update")
    monkeypatch.undo()
    first_after = order.index(("wrote", "gm:update+reply")) + 1
    assert order[:first_after] == [("made", "gm"), ("wrote", "gm:update+reply")], order
    assert sorted(order[first_after:]) == [
        ("made", "A"), ("made", "B"),
        ("wrote", "alice:update"), ("wrote", "bob:update"), ("wrote", "gm2:update")], order
    assert max(order.index(("made", v)) for v in "AB") < order.index(("wrote", "alice:update"))
