"""Engine invariants under random play (hypothesis), on the demo rule set.

* an action that is refused, or stopped for a decision, changes nothing;
* replaying the log from the initial state gives the live state exactly;
* undo then redo is the identity;
* save then load is the identity (folder and bundle).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import CampaignError, NeedConfirmation
from campaign_tui.store.files import BundleStore, FolderStore, export_bundle, open_campaign
from tests.store.helpers import loader

UNITS = ["a-inf", "a-tank", "b-inf", "b-tank"]
op_st = st.one_of(
    st.tuples(st.just("advance")),
    st.tuples(st.just("move"), st.sampled_from(UNITS), st.integers(1, 9)),
    st.tuples(st.just("attack"), st.sampled_from(UNITS), st.booleans()),
    st.tuples(st.just("resolve"), st.sampled_from(["0", "-1"])),
    st.tuples(st.just("undo"), st.booleans()),
    st.tuples(st.just("redo")),
    st.tuples(st.just("note"), st.text(max_size=12)),
    st.tuples(st.just("fatigue"), st.sampled_from(UNITS), st.integers(-1, 4)),
    st.tuples(st.just("table"), st.sampled_from(["1/1-1", "6/3-1", "2/2-1"]), st.text(max_size=5)),
)


def apply(e: Engine, op: tuple) -> None:
    kind = op[0]
    if kind == "advance":
        e.advance()
    elif kind == "move":
        e.perform("move", {"unit": op[1], "to": f"hex:0{op[2]}0{op[2]}"})
    elif kind == "attack":
        e.perform("declare", {"attackers": ["a-inf", "a-tank"] if op[2] else [op[1]],
                              "target": op[1]}, {f"adj:{op[1]}": "yes"})
    elif kind == "resolve":
        e.perform("resolve", answers={"shift": op[1]})
    elif kind == "undo":
        e.undo(confirm=op[1])
    elif kind == "redo":
        e.redo()
    elif kind == "note":
        e.perform("note", {"text": op[1] or "-"})
    elif kind == "fatigue":
        e.perform("gm.set_status", {"unit": op[1], "field": "fatigue", "value": str(op[2])})
    elif kind == "table":
        e.perform("gm.edit_table", {"table": "crt", "cell": op[1], "value": json.dumps(op[2])})


def play(demo, ops: list[tuple], seed: int, dice: str = "auto") -> Engine:
    e = Engine.create(demo, seed=seed, dice=dice)
    for op in ops:
        before = e.state.to_dict()
        n, pos = len(e.history), e.stream.position
        try:
            apply(e, op)
        except (CampaignError, NeedConfirmation):
            assert e.state.to_dict() == before, f"{op} was refused but changed state"
            assert len(e.history) == n and e.stream.position == pos
    return e


settings.register_profile("engine", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings(settings.get_profile("engine"))
@given(ops=st.lists(op_st, max_size=30), seed=st.integers(1, 10**9))
def test_replay_equals_live_state(demo, ops, seed):
    e = play(demo, ops, seed)
    replayed = Engine.replay(demo, e.initial, e.info, e.entries())
    assert replayed.state == e.state
    assert replayed.stream.position == e.stream.position
    assert replayed.info.head == e.info.head and replayed.info.redo == e.info.redo


@settings(settings.get_profile("engine"))
@given(ops=st.lists(op_st, max_size=30), seed=st.integers(1, 10**9))
def test_undo_then_redo_is_the_identity(demo, ops, seed):
    e = play(demo, ops, seed)
    if e.undo_target() is None or e.undo_target().kind == "start":
        return
    before, pos = e.state.to_dict(), e.stream.position
    e.undo(confirm=True)
    e.redo()
    assert e.state.to_dict() == before and e.stream.position == pos


@settings(settings.get_profile("engine"), max_examples=25)
@given(ops=st.lists(op_st, max_size=25), seed=st.integers(1, 10**9))
def test_save_then_load_is_the_identity(demo, tmp_path_factory, ops, seed):
    e = play(demo, ops, seed)
    folder = tmp_path_factory.mktemp("c") / "camp"
    FolderStore.create(e, folder).close()
    opened = open_campaign(folder, loader, read_only=True)
    assert opened.engine.state == e.state
    assert opened.engine.info.to_dict() | {"saved": "", "where": ""} == \
        e.info.to_dict() | {"saved": "", "where": ""}
    assert opened.engine.state_at(0) == e.initial
    bundle = tmp_path_factory.mktemp("b") / "b.toml"
    export_bundle(e, bundle)
    again = BundleStore.open(bundle, loader, read_only=True)
    assert again.engine.state == e.state
    assert [x.to_dict() for x in again.engine.entries()] == [x.to_dict() for x in e.entries()]


@settings(settings.get_profile("engine"), max_examples=25)
@given(ops=st.lists(op_st, max_size=25), seed=st.integers(1, 10**9))
def test_history_views_match_the_state_at_each_bookmark(demo, ops, seed):
    e = play(demo, ops, seed)
    for bm in e.info.bookmarks:
        then = e.state_at(bm.seq)
        assert then.step == bm.step and then.clock == bm.clock
