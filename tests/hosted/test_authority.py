"""A side's seat acts for its side only: no other side's action, no GM action, no undo of
another side's action, no looking as another side; the GM's seat may do everything."""

from __future__ import annotations

import pytest

from campaign_tui import campaigns
from campaign_tui.core.errors import ActionRejected, CampaignError
from tests.hosted.helpers import ThreadTable, to_attacks, wait_until


def test_a_side_plays_its_own_turn_and_everyone_sees_it(table: ThreadTable) -> None:
    gm, a, b = table.seat("gm", None), table.seat("alice", "A"), table.seat("bob", "B")
    gm.advance()                                   # set-up -> A's move
    assert wait_until(lambda: (a.pump(), a.engine.state.step)[1] == "move")
    a.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    for seat in (gm, a, b):
        assert seat.wait_for(lambda s=seat: s.engine.state.units["a-inf"].location == "hex:0201")
    # what the server committed is on disk already (it saves every action)
    stored = campaigns.open_path(table.server.campaign, read_only=True).engine
    assert stored.state.units["a-inf"].location == "hex:0201"


def test_a_side_cannot_act_for_another_side(table: ThreadTable) -> None:
    gm, b = table.seat("gm", None), table.seat("bob", "B")
    gm.advance()                                   # A's move
    n = table.run(lambda: len(table.server.engine.history))
    with pytest.raises(ActionRejected, match="Army A"):
        b.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    with pytest.raises(ActionRejected):
        b.advance()
    # the seat's claim to be someone else is ignored: it acts as its own side
    b.link.send({"t": "perform", "id": 999, "kind": "advance", "by": "A"})
    assert b.wait_for(lambda: False, 0.3) is False
    assert table.run(lambda: len(table.server.engine.history)) == n


def test_a_side_cannot_do_gm_actions(table: ThreadTable) -> None:
    a = table.seat("alice", "A")
    for kind, params in (("gm.set_attr", {"unit": "a-inf", "attr": "x", "value": "1"}),
                         ("gm.quick_setup", {}), ("gm.place", {"id": "b-inf",
                                                             "location": "hex:0101"})):
        with pytest.raises(ActionRejected, match="only the GM"):
            a.perform(kind, params)
    with pytest.raises(CampaignError, match="only the GM"):
        a.table_op("pause", flag=True)
    with pytest.raises(CampaignError, match="only the GM"):
        a.table_op("connected")


def test_a_side_cannot_undo_another_sides_action(table: ThreadTable) -> None:
    gm, a, b = table.seat("gm", None), table.seat("alice", "A"), table.seat("bob", "B")
    gm.advance()
    a.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    with pytest.raises(ActionRejected, match="nothing of yours to undo"):
        b.undo()
    a.undo()                                       # its own: allowed
    assert a.wait_for(lambda: a.engine.state.units["a-inf"].location == "hex:0101")
    with pytest.raises(ActionRejected, match="nothing of yours to redo"):
        b.redo()


def test_a_side_seat_never_looks_as_another_side(table: ThreadTable) -> None:
    a = table.seat("alice", "A")
    assert a.sides() == [("A", "Army A")]
    with pytest.raises(CampaignError):
        a.viewer = "B"
    with pytest.raises(CampaignError):
        a.viewer = "gm"
    assert "b-tank" not in a.engine.state.units      # hidden from A: not in its replica


def test_the_gm_seat_does_everything(table: ThreadTable) -> None:
    gm = table.seat("gm", None)
    gm.advance()
    gm.viewer = "A"                                # the GM plays a side from its seat
    gm.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    gm.viewer = "gm"
    gm.perform("gm.place", {"id": "b-inf", "location": "hex:0404"})
    assert gm.engine.state.units["b-inf"].location == "hex:0404"
    gm.undo()
    assert gm.engine.state.units["b-inf"].location == "hex:0505"


def test_pause_and_lock(table: ThreadTable) -> None:
    gm, a = table.seat("gm", None), table.seat("alice", "A")
    gm.advance()
    gm.table_op("pause", flag=True)
    assert a.wait_for(lambda: a.table.get("paused") is True)
    assert a.read_only and "paused" in a.status().prompt
    with pytest.raises(ActionRejected, match="paused"):
        a.perform("move", {"unit": "a-inf", "to": "hex:0201"})
    gm.viewer = "A"
    gm.perform("move", {"unit": "a-inf", "to": "hex:0201"})   # the GM plays on
    gm.viewer = "gm"
    gm.table_op("pause", flag=False)
    gm.table_op("lock", seat="alice", flag=True)
    assert a.wait_for(lambda: "alice" in a.table.get("locked", []))
    with pytest.raises(ActionRejected, match="locked"):
        a.perform("move", {"unit": "a-tank", "to": "hex:0202"})
    seats = gm.table_op("connected")["seats"]
    assert {(s["seat"], s["side"], s["locked"]) for s in seats} == {
        ("gm", None, False), ("alice", "A", True)}
    gm.table_op("lock", seat="alice", flag=False)
    assert a.wait_for(lambda: not a.table.get("locked"))
    a.perform("move", {"unit": "a-tank", "to": "hex:0202"})
    assert table.run(table.server.connected)[1]["seat"] == "alice"


def test_a_side_cannot_answer_a_gm_ruling(table: ThreadTable) -> None:
    gm, a = to_attacks(table)
    gm.viewer = "A"
    params = {"attackers": "a-inf", "target": "b-inf"}
    with pytest.raises(ActionRejected, match="the GM's ruling"):
        a.perform("declare", params, {"adj:b-inf": True})
    assert table.run(lambda: table.server.engine.state.vars.get("attacks")) in (None, [])
    gm.perform("declare", params, {"adj:b-inf": True})    # the GM plays it for A
    assert table.run(lambda: table.server.engine.state.vars.get("attacks"))


def test_a_question_for_the_gm_shows_on_the_gm_seat(table: ThreadTable) -> None:
    gm, a = to_attacks(table)
    params = {"attackers": "a-inf", "target": "b-inf"}
    with pytest.raises(ActionRejected, match="the GM's ruling"):
        a.perform("declare", params)
    assert gm.wait_for(lambda: bool(gm.table.get("questions")))
    assert "Army A asks the GM's ruling" in gm.status().prompt
    assert "questions" not in a.table and "asks the GM" not in a.status().prompt
    gm.viewer = "A"
    gm.perform("declare", params, {"adj:b-inf": True})    # the GM plays it for A
    assert gm.wait_for(lambda: not gm.table.get("questions"))
