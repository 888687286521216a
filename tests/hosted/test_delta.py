"""Updates carry what changed (a delta between two projections of one viewer): applied to
the seat's previous projection it gives the new one; a seat that does not hold the
revision an update applies to gets the whole projection again; a delta is made only of
its own side's projection."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from campaign_tui import campaigns
from campaign_tui.core.info import CampaignInfo
from campaign_tui.core.model import State
from campaign_tui.hosted.delta import apply_to_state, apply_to_tree, state_delta, view_delta
from campaign_tui.hosted.feed import Feed
from campaign_tui.hosted.identity import SeatInfo
from campaign_tui.hosted.replica import info_after
from tests.hosted.helpers import RawSeat, ThreadTable
from tests.secrets.cases import SCRIPTED, random_play

COLLS = ("vars", "units", "records")
leaf = st.one_of(st.integers(-3, 3), st.text(max_size=3), st.none())
value = st.recursive(leaf, lambda inner: st.dictionaries(st.text(max_size=2), inner,
                                                         max_size=3), max_leaves=6)
tree = st.fixed_dictionaries({c: st.dictionaries(st.sampled_from("abcdef"), value, max_size=5)
                              for c in COLLS})


@given(tree, tree)
def test_a_delta_applied_to_the_old_tree_gives_the_new_one(old: dict, new: dict) -> None:
    delta = state_delta(old, new)
    got = apply_to_tree(old, delta)
    assert got == new
    assert all(list(got[c]) == list(new[c]) for c in COLLS)     # the slots' order too
    assert (delta == {}) == (old == new)
    for coll, slots in delta.get("set", {}).items():            # only what changed
        assert all(old[coll][k] != v for k, v in slots.items())


def _as_made(data: dict[str, Any]) -> State:
    """A state holding the data as given (``None`` values too, as a rule set may leave)."""
    state = State.from_dict(data)
    state._c["vars"] = data["vars"]
    for name, bucket in data["records"].items():
        state._c[f"records/{name}"] = bucket
    return state


unit = st.fixed_dictionaries({"side": st.sampled_from("AB"), "type": st.sampled_from("xy")},
                             optional={"status": st.dictionaries(st.sampled_from("hp"), value,
                                                                 max_size=2),
                                       "location": st.sampled_from(["0101", "0102"])})
a_state = st.fixed_dictionaries({
    "vars": st.dictionaries(st.sampled_from("abcdef"), value, max_size=5),
    "units": st.dictionaries(st.sampled_from("uvwxyz"), unit, max_size=4),
    "records": st.dictionaries(st.sampled_from("rs"), st.dictionaries(
        st.sampled_from("ab"), value, max_size=2), max_size=2),
}).map(_as_made)


def _made(vars_: dict[str, Any], records: dict[str, Any]) -> State:
    return _as_made({"vars": vars_, "units": {}, "records": records})


@given(a_state, a_state)
@example(_made({"a": {"b": None}}, {}), _made({"a": {}}, {}))           # the same as plain data
@example(_made({}, {"r": {"a": None}}), _made({}, {"r": {}}))
@example(_made({"a": 1, "b": None}, {}), _made({"b": 2, "a": 1}, {}))     # the slots moved
def test_a_views_delta_is_the_delta_of_its_plain_data(old: State, new: State) -> None:
    """Made from the states themselves (a side's kept views), the delta is the one of
    their plain data: the same slots (``None`` values left out as plain data leaves them
    out, the records' collections as one), the same values."""
    assert view_delta(old, new) == state_delta(old.to_dict(), new.to_dict())


def _played_feeds(path: Path, steps: int, seed: int = 3) -> None:
    """Random play on *path*; after each action every side's update is checked: its delta
    applied to the previous projection (as a seat's replica does) gives the new one, and
    every value it carries is the side's own new projection's."""
    opened = campaigns.open_path(path)
    engine = opened.engine
    feeds = {side: Feed(engine, side) for side in [*engine.state.sides, "gm"]}
    held: dict[str, State] = {}
    infos: dict[str, CampaignInfo] = {}
    for side, feed in feeds.items():
        sync = feed.sync()
        held[side] = State.from_dict(sync["state"], fresh=True)
        infos[side] = CampaignInfo.from_dict(sync["info"])
    updates: list[bool] = []
    bookmarks_sent: list[bool] = []

    def check(_outcome: object) -> None:       # after each commit, as the table does
        for side, feed in feeds.items():
            rev = feed.rev
            message = feed.update([])
            assert message["base"] == rev and message["rev"] == rev + 1
            assert "state" not in message and "info" not in message
            # the info's changed fields alone, applied as a seat's replica does
            infos[side] = info_after(infos[side], message.get("info_set", {}),
                                     message.get("info_drop", []))
            assert infos[side].to_dict() == feed._info()
            if side == "gm":
                assert infos[side].bookmarks == engine.info.bookmarks
                bookmarks_sent.append("bookmarks" in message.get("info_set", {}))
            if side == "gm":
                continue
            view = engine.side_view(side).state.to_dict()
            delta: dict[str, Any] = message.get("delta", {})
            for coll, slots in delta.get("set", {}).items():
                assert all(view[coll][k] == v for k, v in slots.items())
            for coll, data in delta.get("all", {}).items():
                assert view[coll] == data
            held[side] = apply_to_state(held[side], delta)
            assert held[side].to_dict() == view
            assert list(held[side].units) == list(view["units"])
            updates.append(bool(delta))

    engine.listeners.append(check)
    try:
        assert random_play(engine, random.Random(seed), steps) > 0
    finally:
        campaigns.close(opened)
    assert any(updates)
    assert any(bookmarks_sent) and not all(bookmarks_sent)   # only when they changed


def test_every_sides_delta_gives_its_projection_prestags(tmp_path: Path) -> None:
    _played_feeds(SCRIPTED["prestags-plotted"](tmp_path / "campaign"), steps=15)


def test_an_update_sends_only_what_changed(table: ThreadTable) -> None:
    gm, b = table.seat("gm", None), table.seat("bob", "B")
    seat = RawSeat(table.server.socket_path)
    seat.hello(table.server.secret, SeatInfo("bob2", "B"))
    gm.perform("gm.set_var", {"name": "weather", "value": "rain"})
    added = seat.until("update")      # a new slot: its collection whole (its order kept)
    assert "state" not in added and set(added["delta"]) == {"all"}
    assert added["delta"]["all"]["vars"]["weather"] == "rain"
    gm.perform("gm.set_var", {"name": "weather", "value": "snow"})
    update = seat.until("update")
    assert "state" not in update and "status" not in update
    # of the info, what an action changes (not the name, nor the bookmarks); the table's
    # facts only when they change
    assert set(update["info_set"]) <= {"log_length", "saved", "where"}
    assert "table" not in update
    assert update["delta"] == {"set": {"vars": {"weather": "snow"}}}
    assert update["base"] == added["rev"]
    assert b.wait_for(lambda: b.engine.state.vars.get("weather") == "snow")
    assert b.rev == update["rev"]


def test_a_seat_that_missed_a_revision_gets_the_whole_projection(table: ThreadTable) -> None:
    gm, b = table.seat("gm", None), table.seat("bob", "B")
    reloaded: list[bool] = []
    b.reloaded.append(lambda: reloaded.append(True))
    b.rev = -1                                      # as if an update had been lost
    gm.perform("gm.set_var", {"name": "weather", "value": "rain"})
    assert b.wait_for(lambda: bool(reloaded))       # it asked for, and got, a resync
    assert not b.resyncing
    assert b.engine.state.vars.get("weather") == "rain"
    server_rev = table.run(lambda: table.server.feeds["B"].rev)
    assert b.rev == server_rev
    gm.perform("gm.set_var", {"name": "weather", "value": "snow"})    # and follows on
    assert b.wait_for(lambda: b.engine.state.vars.get("weather") == "snow")
    assert b.rev == server_rev + 1
    seen = table.run(lambda: table.server.engine.side_view("B").state.to_dict())
    assert b.engine.state.to_dict() == seen


def test_a_resync_is_the_sides_own_projection(table: ThreadTable) -> None:
    seat = RawSeat(table.server.socket_path)
    sync = seat.hello(table.server.secret, SeatInfo("bob", "B"))
    seat.send({"t": "sync", "id": 1})
    resync = seat.until("resync")
    assert resync["viewer"] == "B" and resync["rev"] == sync["rev"]
    assert resync["state"] == sync["state"]
    assert seat.until("reply")["id"] == 1


def test_an_update_carries_the_tables_facts_when_they_change(
        table: ThreadTable, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that fails is news on every seat with the update; the next save that works
    clears it the same way; in between, updates leave the table's facts out."""
    gm = table.seat("gm", None)
    seat = RawSeat(table.server.socket_path)
    seat.hello(table.server.secret, SeatInfo("bob2", "B"))

    def fails(_opened: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as m:
        m.setattr(campaigns, "save", fails)
        gm.perform("gm.set_var", {"name": "weather", "value": "rain"})
        update = seat.until("update")
    assert "disk full" in update["table"]["problem"]
    gm.perform("gm.set_var", {"name": "weather", "value": "snow"})
    assert seat.until("update")["table"]["problem"] == ""
    gm.perform("gm.set_var", {"name": "weather", "value": "fog"})
    assert "table" not in seat.until("update")
