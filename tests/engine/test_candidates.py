"""Candidates from the rule sets: what forms offer for the first scenario's set-up and first
turn exists, and belongs to the side acting."""

from __future__ import annotations

import pytest

from campaign_tui.core.actions import Param
from campaign_tui.core.engine import Engine
from campaign_tui.registry import load_ruleset

CASES = {
    "prefect": ("liberation", {"place_base", "assign_unit", "move_tf"}),
    "prestags": ("chariot-rome", {"fire"}),
    "fifth_frontier_war": ("campaign", {"plot"}),
    "star_cruiser_lite": ("demo", {"set_tf_order"}),
}


def _check(e: Engine, seen: set[str]) -> None:
    actor = e.resolve_actor(e.state, e.step.actor)
    for choice in e.status().choices:
        for p in choice.params:
            found = p.candidates_for(e.state, actor)
            if found is None:
                continue
            seen.add(choice.kind)
            assert found, f"{choice.kind}.{p.name}: no candidates"
            for c in found:
                if p.type in ("unit", "units"):
                    owner = e.state.units[c].side
                elif p.type in ("formation", "formations"):
                    owner = e.state.formations[c].side
                else:
                    continue
                if actor in e.state.sides:
                    assert owner == actor, f"{choice.kind}.{p.name}: {c} is {owner}'s"


@pytest.mark.parametrize("rid", sorted(CASES))
def test_candidates_exist_and_belong_to_the_actor(rid: str) -> None:
    scenario, expected = CASES[rid]
    e = Engine.create(load_ruleset(rid), scenario, None, 9, "auto", "t")
    seen: set[str] = set()
    _check(e, seen)
    e.perform("gm.quick_setup")
    _check(e, seen)
    assert expected <= seen


def test_ssw_set_up_candidates() -> None:
    e = Engine.create(load_ruleset("second_sathar_war"), "standard", None, 9, "auto", "t")
    e.advance()
    e.perform("choose_retreat_condition", {"condition": 1}, by="SATHAR")
    e.advance()
    seen: set[str] = set()
    _check(e, seen)
    assert {"deploy", "base_fighters"} <= seen


def test_a_faulty_candidate_function_offers_nothing_instead_of_failing() -> None:
    def broken(state: object, actor: str) -> list[str]:
        raise KeyError("x")

    p = Param("u", "unit", candidates=broken)
    assert p.candidates_for(None, "gm") is None  # type: ignore[arg-type]
    assert Param("u", "unit").candidates_for(None, "gm") is None  # type: ignore[arg-type]
