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
from tests.secrets.cases import SCRIPTED, open_engine, random_play


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
