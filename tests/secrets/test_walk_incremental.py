"""A side's log is projected walking the state forward once, with the strings of the state
and of the view kept slot by slot: it gives exactly what projecting every entry from the
whole state gave (the reference below is that former walk, kept for comparison)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_tui.core.changes import apply_changes
from campaign_tui.core.engine import Engine
from campaign_tui.core.log import LogEntry
from campaign_tui.core.model import State
from campaign_tui.core.sideview import (
    HiddenTerms,
    _Tally,
    identity_strings,
    project_entry,
    slot_identity,
    slot_strings,
    state_strings,
    walk_entries,
)
from campaign_tui.registry import load_ruleset
from campaign_tui.store.files import open_campaign
from tests.secrets.cases import EXAMPLES, SCRIPTED, example_folder, open_engine, random_play


def reference_walk(engine: Engine, viewer: str, first: int, last: int) -> Iterator[LogEntry]:
    """Every entry projected from the whole state and the whole view before and after."""
    state = engine.state_at(first - 1)
    for entry in engine.history.range(first, last):
        before = state.copy()
        if entry.changes:
            apply_changes(state, entry.changes)
        if not entry.visible_to(viewer):
            continue
        bv, av = engine.view(viewer, before), engine.view(viewer, state)
        terms = HiddenTerms((identity_strings(before) | identity_strings(state))
                            - (state_strings(bv) | state_strings(av)))
        got = project_entry(entry, viewer, bv, av, terms, engine.secret_params(entry.kind),
                            (state_strings(bv), state_strings(av)))
        if got is not None:
            yield got


def _same_logs(engine: Engine) -> int:
    n = len(engine.history)
    compared = 0
    for side in engine.state.sides:
        for first in (1, max(1, n // 2)):
            mine = [e.to_dict() for e in walk_entries(engine, side, first, n)]
            theirs = [e.to_dict() for e in reference_walk(engine, side, first, n)]
            assert mine == theirs, (side, first)
            compared += len(mine)
    return compared


@pytest.mark.parametrize("name", sorted(SCRIPTED))
def test_scripted_games_give_the_same_side_logs(name: str, tmp_path: Path) -> None:
    engine = open_engine(SCRIPTED[name](tmp_path / "campaign"))
    assert _same_logs(engine) > 0


@pytest.mark.parametrize("ruleset", ["prefect", "star_cruiser_lite", "fifth_frontier_war",
                                     "prestags", "second_sathar_war"])
def test_random_play_gives_the_same_side_logs(ruleset: str) -> None:
    engine = Engine.create(load_ruleset(ruleset), seed=7)
    random_play(engine, random.Random(7), 25)
    assert _same_logs(engine) >= 0


def test_hidden_changes_give_the_same_side_logs(demo_engine: Engine) -> None:
    e = demo_engine
    e.perform("gm.set_status", {"unit": "b-tank", "field": "fatigue", "value": 2,
                                "reason": "B Tank is worn out"})
    e.perform("gm.edit_formation", {"formation": "b1", "field": "status.orders",
                                    "value": '"hold"'})
    e.perform("gm.place", {"id": "b1", "location": "hex:0606"})
    e.perform("note", {"text": "nothing secret"})
    assert _same_logs(e) > 0


def test_the_tallies_are_the_whole_state_strings(demo_engine: Engine) -> None:
    state: State = demo_engine.state
    assert set(_Tally(state, slot_strings).count) == state_strings(state)
    assert set(_Tally(state, slot_identity).count) == identity_strings(state)
    view = demo_engine.view("A")
    tally = _Tally(view, slot_strings)
    unit = next(iter(view.units))
    view.units[unit].name = "Renamed 77"
    tally.update(view, [("units", unit)])
    assert set(tally.count) == state_strings(view)
    del view.units[unit]
    tally.update(view, [("units", unit)])
    assert set(tally.count) == state_strings(view)


def reference_project(state: State, viewer: str, ruleset: object = None) -> State:
    """The projection as it was: copy everything, then delete what is hidden."""
    from campaign_tui.core.views import _sees_contents, _sees_formation

    view = state.copy()
    formations = view.formations
    hidden = {fid for fid, f in formations.items() if not _sees_formation(f, viewer)}
    changed = True
    while changed:
        changed = False
        for fid, f in formations.items():
            if fid not in hidden and f.parent in hidden and f.side != viewer \
                    and viewer not in f.known_to:
                hidden.add(fid)
                changed = True
    closed = {fid for fid, f in formations.items()
              if fid not in hidden and not _sees_contents(f, viewer)}
    for fid in hidden:
        del formations[fid]
    for fid in closed:
        formations[fid].status = {}
        formations[fid].data = {}
    for uid in list(view.units):
        u = view.units[uid]
        if u.side == viewer or viewer in u.known_to:
            continue
        if u.visibility == "owner" or any(a.id in hidden or a.id in closed
                                          for a in state.ancestors(u.formation)):
            del view.units[uid]
    for side in list(view.secrets):
        if side != viewer:
            del view.secrets[side]
    if ruleset is not None:
        ruleset.redact(view, viewer)  # type: ignore[attr-defined]
    return view


@pytest.mark.parametrize("ruleset", ["prefect", "star_cruiser_lite", "fifth_frontier_war",
                                     "prestags", "second_sathar_war"])
def test_the_projection_leaves_out_what_it_used_to_delete(ruleset: str) -> None:
    from campaign_tui.core.views import project

    engine = Engine.create(load_ruleset(ruleset), seed=11)
    random_play(engine, random.Random(11), 15)
    for side in engine.state.sides:
        mine = project(engine.state, side, engine.ruleset)
        theirs = reference_project(engine.state, side, engine.ruleset)
        assert mine.to_dict() == theirs.to_dict()
        assert list(mine.units) == list(theirs.units)
        assert list(mine.formations) == list(theirs.formations)


def test_the_projection_of_the_demo_hides_the_same(demo_engine: Engine) -> None:
    from campaign_tui.core.views import project

    e = demo_engine
    e.perform("gm.edit_formation", {"formation": "b1", "field": "status.orders",
                                    "value": '"hold"'})
    for side in e.state.sides:
        assert project(e.state, side, e.ruleset).to_dict() == \
            reference_project(e.state, side, e.ruleset).to_dict()


def _strings_match_a_full_count(engine: Engine) -> int:
    """The kept counts of the current state give what counting it all gives, for every
    side (checked after every logged change)."""
    from campaign_tui.core.sideview import current_strings

    checked = 0
    for side in engine.state.sides:
        view, identity, shown = current_strings(engine, side)
        assert view is engine.view(side)
        assert identity == identity_strings(engine.state), side
        assert shown == state_strings(view), side
        checked += 1
    return checked


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_kept_counts_follow_random_play_undo_and_redo(name: str, tmp_path: Path) -> None:
    engine = open_campaign(example_folder(name, tmp_path / "campaign"), load_ruleset).engine
    checked: list[int] = []
    engine.listeners.append(lambda _outcome: checked.append(_strings_match_a_full_count(engine)))
    rng = random.Random(11)
    for _round in range(4):
        random_play(engine, rng, 8)
        for _ in range(rng.randint(1, 3)):
            if engine.undo_target() is not None:
                engine.undo(confirm=True)
        if engine.redo_target() is not None:
            engine.redo()
    assert sum(checked) > 0


def test_the_kept_counts_follow_hidden_changes(demo_engine: Engine) -> None:
    e = demo_engine
    e.listeners.append(lambda _outcome: _strings_match_a_full_count(e))
    _strings_match_a_full_count(e)
    e.perform("gm.set_status", {"unit": "b-tank", "field": "fatigue", "value": 2,
                                "reason": "B Tank is worn out"})
    e.perform("gm.edit_formation", {"formation": "b1", "field": "status.orders",
                                    "value": '"hold"'})
    e.perform("gm.place", {"id": "b1", "location": "hex:0606"})
    e.undo(confirm=True)
    e.redo()
    assert _strings_match_a_full_count(e) == len(e.state.sides)


def test_a_replaced_state_is_counted_again(demo_engine: Engine) -> None:
    from campaign_tui.core.sideview import current_strings

    e = demo_engine
    current_strings(e, "A")
    renamed = e.state.copy()
    unit = next(u for u in renamed.units.values() if u.side == "B")
    unit.name = "Quite New Name 99"
    e.state = renamed                   # (as a seat's replica takes a whole state)
    _view, identity, _shown = current_strings(e, "A")
    assert "Quite New Name 99" in identity
