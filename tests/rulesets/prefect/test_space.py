"""The space game driven through its phase machine (Holding the Line): set-up limits,
missions, T-space and insystem movement, N-space detection, interception, segment combat,
fatigue once per turn, withdrawal, supply and the per-turn supply VP."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from rulesets.prefect import plugin
from rulesets.prefect.actions_space import contested, intercept_candidates, missions_left
from tests.rulesets.prefect.helpers import act, assign_missions, dice, holding_the_line


def next_mission(e: Engine) -> str:
    """The next task force to resolve: finish the current sector first."""
    left = missions_left(e.state)
    here = (e.state.vars.get("mission_sector") or {}).get("sector")
    same = [tf for tf in left if e.state.formations[tf].location == f"sector:{here}"]
    return (same or left)[0]


MISSIONS = {
    "cw-ntf1": "sector_defense",
    "cw-ntf2": "sector_defense",
    "cw-ntf3": "sector_defense",
    "cw-ntf4": "supply",
    "tog-ntf1": "attack",
    "tog-ntf2": "hs_attack",
    "tog-ntf9": "supply",
    "tog-ntf10": "supply",
    "tog-ntf11": "supply",
}
SEGMENTS = {"cw-ntf1": 1, "cw-ntf2": 9, "cw-ntf3": 1}


def test_setup_limits_of_holding_the_line() -> None:
    e = Engine.create(plugin, "holding_the_line", seed=1)
    assert e.status().actor == "CW"
    with pytest.raises(ActionRejected, match="44454th"):
        act(e, "deploy_tf", {"tf": "cw-ntf1", "where": "3,2"}, by="CW")
    with pytest.raises(ActionRejected, match="TOG base"):
        act(e, "deploy_tf", {"tf": "cw-ntf1", "where": "7,12"}, by="CW")
    with pytest.raises(AdvanceRefused, match="deploy"):
        e.advance(by="CW")
    e2 = holding_the_line()
    assert e2.state.step == "S_MISSIONS"
    assert e2.status().hidden_input
    e3 = Engine.create(plugin, "holding_the_line", seed=1)
    for tf, where in (("cw-ntf1", "5,12"), ("cw-ntf2", "3,2"), ("cw-ntf3", "3,11")):
        act(e3, "deploy_tf", {"tf": tf, "where": where}, by="CW")
    act(e3, "place_naval_base", {"base": "cw-on4-1", "segment": 1}, by="CW")
    act(e3, "advance", by="CW")
    with pytest.raises(ActionRejected, match="Commonwealth naval base"):
        act(e3, "deploy_tf", {"tf": "tog-ntf1", "where": "3,11"}, by="TOG")
    with pytest.raises(ActionRejected, match="Orbital Drop or Supply"):
        act(e3, "set_mission", {"tf": "tog-ntf3", "mission": "attack"}, by="TOG")


def test_mission_rules() -> None:
    e = holding_the_line()
    with pytest.raises(AdvanceRefused, match="missions still to assign"):
        e.advance()
    with pytest.raises(ActionRejected, match="insystem"):
        act(e, "set_mission", {"tf": "cw-ntf4", "mission": "sector_defense"}, by="CW")
    with pytest.raises(ActionRejected, match="keeps its mission"):
        act(e, "set_mission", {"tf": "tog-ntf3", "mission": "supply"}, by="TOG")
    with pytest.raises(ActionRejected, match="Transport Squadron"):
        act(e, "set_mission", {"tf": "tog-ntf9", "mission": "sector_defense"}, by="TOG")
    assign_missions(e, MISSIONS, SEGMENTS)
    seg = {u.data.get("segment") for u in e.state.units.values() if u.formation == "cw-ntf2"}
    assert seg == {9}
    act(e, "advance")
    assert e.state.step == "S_ATK_TSPACE" and e.state.vars["roles"]["phasing"] == "TOG"
    boxes = sorted(f.status.get("tspace_box") for f in e.state.formations.values() if f.location == "tspace")
    assert boxes == [2, 3, 4, 5, 6, 7]  # each moved one box


def _to_tog_combat(e: Engine) -> None:
    assign_missions(e, MISSIONS, SEGMENTS)
    act(e, "advance")
    out = act(e, "exit_tspace", {"tf": "tog-ntf3", "sector": "3,2"}, by="TOG", answers=dice(10))
    assert "not detected" in out.entry.summary or "undetected" in out.entry.summary
    assert e.state.formations["tog-ntf3"].location == "tspace"  # placed after the reaction
    act(e, "advance", by="TOG")
    assert e.state.step == "S_ATK_REACT" and e.status().actor == "CW"
    act(e, "advance", by="CW")
    assert e.state.formations["tog-ntf3"].location == "sector:3,2"
    act(e, "move_naval", {"tf": "tog-ntf1", "sector": "3,2"}, by="TOG")
    act(e, "advance", by="TOG")
    assert e.state.step == "S_ATK_COMBAT"  # W18: insystem movement gets no reaction


def test_tspace_detection_uses_the_time_track() -> None:
    e = holding_the_line()
    assign_missions(e, MISSIONS, SEGMENTS)
    act(e, "advance")
    out = act(e, "exit_tspace", {"tf": "tog-ntf4", "sector": "3,2"}, by="TOG", answers=dice(4))
    text = "\n".join(out.entry.lines)
    assert "Turns in T-space 3 -> 2-3; result 2" in text  # box 2 moved to 3
    assert e.state.formations["tog-ntf4"].location == "sector:3,2"  # detected: placed at once


def test_missions_detection_interception_and_segment_combat() -> None:
    e = holding_the_line()
    _to_tog_combat(e)
    with pytest.raises(AdvanceRefused, match="mission"):
        e.advance(by="TOG")
    act(e, "start_mission", {"tf": "tog-ntf1"}, by="TOG")
    assert e.state.step == "M_COMMIT"
    fighters = [
        u.id for u in e.state.units.values() if u.formation == "tog-ntf1" and u.type.startswith("tog_f")
    ]
    act(e, "commit_units", {"units": fighters}, by="TOG", answers=dice(1))  # detected in N-space
    assert e.state.step == "M_INTERCEPT" and e.status().actor == "CW"
    cands = intercept_candidates(e.state)
    assert cands and all(e.state.units[c].type != "p_sqd" for c in cands)  # thrust 5 < lowest 6
    with pytest.raises(ActionRejected, match="may not intercept"):
        act(e, "intercept", {"units": ["cw-p_sqd-1"]}, by="CW")
    act(e, "advance", by="CW")  # no interception
    act(e, "choose_segment", {"segment": 9}, by="TOG")
    placed = [u.id for u in e.state.units.values() if u.data.get("chart_seg") == 9]
    assert placed  # the CW units allocated to segment 9 go on the Sector Combat Chart
    out = act(e, "resolve_mission", {}, by="TOG", answers=dice(5, *[1] * 40))
    assert "attack:" in out.entry.summary
    assert e.state.formations["tog-ntf1"].status.get("resolved_turn") == 1
    while missions_left(e.state):
        tf = next_mission(e)
        act(e, "start_mission", {"tf": tf}, by="TOG")
        act(e, "abort_mission", by="TOG") if e.state.vars["mission"]["mission"] in (
            "attack",
            "hs_attack",
        ) else act(e, "commit_units", {}, by="TOG", answers=dice(10))
        while e.state.step.startswith("M_"):
            step = e.state.step
            if step == "M_SEGMENT":
                act(e, "choose_segment", {"segment": 1}, by="TOG")
            elif step == "M_RESOLVE":
                act(e, "resolve_mission", {}, by="TOG", answers=dice(*[5] * 40))
            else:
                act(e, "advance", by=e.status().actor)
    act(e, "advance", by="TOG")
    # fatigue once per turn: the attackers and the defending TF that fought
    assert e.state.formations["tog-ntf1"].status["fatigue"] == 1
    assert e.state.formations["tog-ntf2"].status["fatigue"] == 1  # aborted HS Attack still tires
    assert e.state.formations["tog-ntf9"].status["fatigue"] == 0  # supply without combat
    assert e.state.formations["cw-ntf2"].status["fatigue"] == 1
    assert e.state.step == "S_DEF_TSPACE" and e.state.vars["roles"]["phasing"] == "CW"


def test_orbital_drop_supply_counts_for_the_turn_vp() -> None:
    e = holding_the_line()
    _to_tog_combat(e)
    act(e, "start_mission", {"tf": "tog-ntf3"}, by="TOG")
    act(e, "commit_units", {}, by="TOG", answers=dice(10))
    act(e, "choose_segment", {"segment": 3}, by="TOG")
    act(e, "resolve_mission", {}, by="TOG")
    assert e.state.step == "M_AFTER"
    trl = next(u.id for u in e.state.units.values() if u.formation == "tog-ntf3" and u.type in ("trl", "trm"))
    act(e, "deliver_field_supply", {"transport": trl, "amount": 10}, by="TOG")
    assert e.state.vars["delivered"]["field"] == 10
    with pytest.raises(ActionRejected, match="take only"):
        act(e, "deliver_field_supply", {"transport": trl, "amount": 25}, by="TOG")


def test_opposing_sector_defenses_fight_until_one_side_is_gone() -> None:
    e = holding_the_line()
    missions = dict(MISSIONS, **{"tog-ntf2": "sector_defense"})
    assign_missions(e, missions, dict(SEGMENTS, **{"tog-ntf2": 9}))
    act(e, "advance")
    act(e, "advance", by="TOG")
    act(e, "advance", by="TOG")
    assert contested(e.state) == [("3,2", 9)]
    with pytest.raises(AdvanceRefused, match="contested"):
        e.advance(by="TOG")
    for _ in range(12):
        if not contested(e.state):
            break
        act(e, "osd_round", {"sector": "3,2", "segment": 9}, by="TOG")
    if contested(e.state):
        units = [u.id for u in e.state.units.values() if u.formation == "cw-ntf2"]
        act(e, "osd_pull_back", {"units": units}, by="CW")
    assert not contested(e.state)


def test_withdrawal_to_outsystem_clears_fatigue() -> None:
    e = holding_the_line()
    e.state.formations["tog-ntf9"].status["fatigue"] = 2
    missions = dict(MISSIONS, **{"tog-ntf9": "withdrawal"})
    assign_missions(e, missions, SEGMENTS)
    act(e, "advance")
    act(e, "advance", by="TOG")
    with pytest.raises(AdvanceRefused, match="declare_withdrawal"):
        e.advance(by="TOG")
    act(e, "declare_withdrawal", {"tf": "tog-ntf9", "destination": "outsystem"}, by="TOG")
    act(e, "advance", by="TOG")
    while missions_left(e.state):
        tf = next_mission(e)
        act(e, "start_mission", {"tf": tf}, by="TOG")
        act(e, "abort_mission", by="TOG") if e.state.vars["mission"]["mission"] in (
            "attack",
            "hs_attack",
        ) else act(e, "commit_units", {}, by="TOG", answers=dice(10))
        while e.state.step.startswith("M_"):
            if e.state.step == "M_SEGMENT":
                act(e, "choose_segment", {"segment": 1}, by="TOG")
            elif e.state.step == "M_RESOLVE":
                act(e, "resolve_mission", {}, by="TOG")
            else:
                act(e, "advance", by=e.status().actor)
    units = [u.id for u in e.state.units.values() if u.formation == "tog-ntf9"]
    act(e, "advance", by="TOG")
    assert e.state.step == "S_ATK_WITHDRAW" and e.status().actor == "CW"
    with pytest.raises(ActionRejected, match="no CW Sector Defense"):
        act(e, "intercept_withdrawal", {"tf": "tog-ntf9", "units": []}, by="CW")
    act(e, "advance", by="CW")
    assert "tog-ntf9" not in e.state.formations
    assert all(e.state.units[u].formation == "TOG-functional" for u in units)


def test_a_full_space_turn_ends_with_tempo_and_supply_vp() -> None:
    e = holding_the_line()
    _to_tog_combat(e)
    while missions_left(e.state):
        tf = next_mission(e)
        act(e, "start_mission", {"tf": tf}, by="TOG")
        act(e, "abort_mission", by="TOG") if e.state.vars["mission"]["mission"] in (
            "attack",
            "hs_attack",
        ) else act(e, "commit_units", {}, by="TOG", answers=dice(10))
        while e.state.step.startswith("M_"):
            if e.state.step == "M_SEGMENT":
                act(
                    e,
                    "choose_segment",
                    {"segment": 1 if e.state.vars["mission"]["sector"] != "3,2" else 9},
                    by="TOG",
                )
            elif e.state.step == "M_RESOLVE":
                act(e, "resolve_mission", {}, by="TOG", answers=dice(*[5] * 40))
            else:
                act(e, "advance", by=e.status().actor)
    for _ in range(6):
        act(e, "advance", by=e.status().actor)
        if e.state.step == "S_ADJUST":
            break
    assert e.state.step == "S_ADJUST"
    act(e, "advance")
    assert e.state.step == "S_SUPPLY.attacker"
    with pytest.raises(ActionRejected, match=r"no friendly undisrupted naval base|fatigue"):
        act(e, "naval_rearm", {"tf": "tog-ntf1", "levels": 1}, by="TOG")
    act(e, "advance", by="TOG")
    act(e, "advance", by="CW")
    assert e.state.clock["turn"] == 2 and e.state.step == "S_MISSIONS"
    # no SP delivered on turn 1: 5 VP to the Commonwealth (T13)
    assert e.state.ledgers["CW"]["vp"] >= 5


def test_an_interception_fought_in_interceptor_takes_the_outcome_by_hand() -> None:
    """Appendix A: a space combat marked as fought in Interceptor rolls no die; the outcome
    of every unit, the letter and the fatigue (normal rule) are entered and applied."""
    e = holding_the_line()
    _to_tog_combat(e)
    act(e, "start_mission", {"tf": "tog-ntf1"}, by="TOG")
    fighters = [
        u.id for u in e.state.units.values() if u.formation == "tog-ntf1" and u.type.startswith("tog_f")
    ]
    act(e, "commit_units", {"units": fighters}, by="TOG", answers=dice(1))
    assert "fight_externally" in [c.kind for c in e.status().choices]
    act(e, "fight_externally", {"game": "Interceptor", "note": "two fighter maps"}, by="CW")
    cands = intercept_candidates(e.state)[:2]
    answers = {
        **dice(10),  # the interceptors are not detected (the only roll of the action)
        "ext_destroyed": [fighters[0]],
        "ext_disrupted": [cands[0], fighters[1]],
        "ext_letter": "DR",
    }
    out = act(e, "intercept", {"units": cands}, by="CW", answers=answers)
    assert len(out.entry.rolls) == 1  # the detection roll only: no CRT, no saving rolls
    assert out.entry.tags.get("external") == "Interceptor"
    s = e.state
    assert s.units[fighters[0]].status["destroyed"] and s.ledger("CW", "vp") > 0
    assert s.units[fighters[1]].status["disrupted"] and s.units[cands[0]].status["disrupted"]
    assert not s.units[cands[1]].status.get("disrupted")
    assert s.formations["tog-ntf1"].status.get("fought")
    assert s.vars.get("external_space") is None  # the mark is used up
    # DR: the defender of this combat (TOG's committed force) goes back to its box, so the
    # mission ends there
    assert s.formations["tog-ntf1"].status.get("resolved_turn") == 1
    assert not [u for u in s.units.values() if u.data.get("committed")]
    assert e.state.step == "S_ATK_COMBAT"


def test_an_external_mark_can_be_taken_back_and_lapses_with_its_step() -> None:
    e = holding_the_line()
    _to_tog_combat(e)
    act(e, "fight_externally", {"game": "Leviathan"}, by="TOG")
    act(e, "fight_externally", {"game": "none"}, by="TOG")
    with pytest.raises(ActionRejected, match="no combat is marked"):
        act(e, "fight_externally", {"game": "none"}, by="TOG")
    act(e, "fight_externally", {"game": "Leviathan"}, by="TOG")
    act(e, "start_mission", {"tf": "tog-ntf1"}, by="TOG")
    from rulesets.prefect.external import pending

    assert pending(e.state) is None  # marked in another step: the mission's combats roll as usual
