"""A seat's first sync carries its projection and only the last entries of its log; older
entries are read from the table (projected for the seat) when its screens read them."""

from __future__ import annotations

import pytest

from campaign_tui.hosted import feed
from tests.hosted.helpers import ThreadTable


def test_the_sync_carries_the_tail_and_older_entries_come_when_read(
        table: ThreadTable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed, "TAIL", 2)
    gm = table.seat("gm", None)
    gm.advance()
    alice = table.seat("alice", "A")
    alice.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    alice.advance()
    bob = table.seat("bob", "B")
    history = bob.engine.history
    length = len(history)
    assert length >= 3
    assert sorted(history._cache) == [length - 1, length]     # only the tail came
    asked = []
    original = bob._older
    monkeypatch.setattr(bob, "_older", lambda a, b: asked.append((a, b)) or original(a, b))
    history._loader = bob._older
    got = [(e.seq, e.kind, e.summary) for e in bob.engine.entries(1, length)]
    assert asked and asked[0][0] == 1
    wanted = table.run(lambda: [(e.kind, e.summary) for e in
                                table.server.engine.side_view("B").entries()])
    assert [(k, s) for _n, k, s in got] == wanted          # B's projection, numbered 1..n
    assert [n for n, _k, _s in got] == list(range(1, length + 1))
    gm.perform("gm.set_var", {"name": "x", "value": "1"})  # later updates go on from there
    assert bob.wait_for(lambda: len(bob.engine.history) > length)


def test_older_entries_are_refused_nothing_hidden(table: ThreadTable,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A side asking for entries past its log, or its whole range, gets its own only."""
    gm = table.seat("gm", None)
    gm.advance()
    bob = table.seat("bob", "B")
    reply = bob.link.request({"t": "entries", "first": 1, "last": 10_000}, bob.deferred.append)
    entries = reply["result"]["entries"]
    assert [e["seq"] for e in entries] == list(range(1, len(bob.engine.history) + 1))
    assert all(e["rng"] == [0, 0] for e in entries)
    bad = bob.link.request({"t": "entries", "first": "x"}, bob.deferred.append)
    assert bad["t"] == "error" and "whole number" in bad["message"]


def test_each_new_entry_is_projected_as_a_walk_of_the_log_would() -> None:
    """The feed projects each committed entry from the point after the one before
    (LiveTail): the same entries, for each side, as walking the log."""
    from campaign_tui.core.sideview import LiveTail, walk_entries
    from tests.hosted.test_sealed_orders import BLUE_PLOT, RED_PLOT
    from tests.rulesets.prestags.helpers import deployed

    engine = deployed({"simultaneous": True})
    tails = {side: LiveTail(engine, side) for side in engine.state.sides}
    n = len(engine.history)
    for tail in tails.values():
        tail.entries(1, n)                            # the sync: walks the log

    def check() -> None:
        last = len(engine.history)
        for side, tail in tails.items():
            assert [e.to_dict() for e in tail.entries(last, last)] == \
                [e.to_dict() for e in walk_entries(engine, side, last, last)]

    engine.perform("plot", {"side": "A", "orders": RED_PLOT}, by="A")
    check()
    engine.perform("plot", {"side": "B", "orders": BLUE_PLOT}, by="B")
    check()
    engine.undo(by="gm")
    check()
    engine.redo(by="gm")
    check()
    engine.advance(by="gm")
    check()
    engine.perform("gm.set_var", {"name": "x", "value": "1"})
    check()


def test_reading_older_entries_does_not_hold_up_the_table(
        table: ThreadTable, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from campaign_tui.hosted import table_server

    monkeypatch.setattr(table_server, "ENTRIES_AT_ONCE", 1)
    monkeypatch.setattr(feed, "TAIL", 1)
    gm = table.seat("gm", None)
    gm.advance()
    for n in range(5):
        gm.perform("gm.set_var", {"name": "x", "value": str(n)})
    bob = table.seat("bob", "B")
    length = len(bob.engine.history)
    slow = feed.Feed.entries

    def slowed(self: feed.Feed, first: int, last: int) -> list[dict]:
        missing = sum(k not in self.log for k in range(first, last + 1))
        time.sleep(0.1 * missing)            # a big campaign's projection: each entry
        return slow(self, first, last)

    monkeypatch.setattr(feed.Feed, "entries", slowed)
    bob.link.send({"t": "entries", "id": 500, "first": 1, "last": length})
    time.sleep(0.05)                         # the server is projecting them now
    started = time.monotonic()
    gm.table_op("info")                      # another seat's request meanwhile
    took = time.monotonic() - started
    reply = bob.link.wait(10)
    while reply is not None and reply.get("id") != 500:
        reply = bob.link.wait(10)
    assert reply is not None and reply["ok"]
    assert [e["seq"] for e in reply["result"]["entries"]] == list(range(1, length + 1))
    assert length >= 6 and took < 0.25, f"the GM waited {took:.2f} s for a side's log"


def test_older_entries_read_after_the_table_is_gone_say_so(
        table: ThreadTable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed, "TAIL", 1)
    gm = table.seat("gm", None)
    gm.advance()
    gm.perform("gm.set_var", {"name": "x", "value": "1"})
    bob = table.seat("bob", "B")
    bob.link.close()                               # the connection is lost
    got = bob.engine.entries(1, len(bob.engine.history) - 1)
    assert got and all(e.kind == "unavailable" and "not loaded" in e.summary for e in got)
    assert not bob.connected
