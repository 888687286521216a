"""From the quick set-up to the first battle: where "advance until something is due"
stops (RuleSet.due, RuleSet.battle), the candidates forms offer (contested systems and
planets, destinations along the routes, the dice helper's procedures, a battle's shooters,
weapons and targets), and the fire action (one shot's to-hit roll)."""

from __future__ import annotations

import pytest

from campaign_tui.core.advancing import Target, advance_until
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected
from rulesets.second_sathar_war import candidates as C
from tests.rulesets.second_sathar_war.swii_kit import new


def quick(seed: int = 4) -> Engine:
    e = new("standard", seed=seed)
    e.advance()
    e.perform("choose_retreat_condition", {"condition": 1}, by="SATHAR")
    e.advance()
    e.perform("gm.quick_setup")
    return e


def until_due(e: Engine) -> str:
    done = advance_until(e, Target("due"), hold_rolls=True, stop_at_battles=True)
    assert done.why in ("due", "battle"), done.stop
    return done.stop


@pytest.fixture(scope="module")
def at_declare() -> Engine:
    """Day 4, the Sathar fleets in their systems, the attacks to declare."""
    e = quick()
    for day in (1, 2, 3, 4):
        stop = until_due(e)
        assert (e.state.step, e.state.clock["day"]) == ("SATHAR_MOVE", day)
        assert "Sathar must act" in stop
        e.perform("move_all", by="SATHAR")
    assert "may leave before the attacks" in until_due(e)
    assert e.state.step == "UPF_MOVE"
    assert until_due(e) == "a battle: SATHAR may attack in Kizk'-Kar, Fromeltar"
    return e


def test_the_quick_set_up_places_in_start_circles_with_provenance() -> None:
    e = quick()
    fleets = [f for f in e.state.formations.values() if f.name.startswith("Sathar Attack")]
    assert sorted(str(f.location) for f in fleets) == ["circle:sc-fromeltar", "circle:sc-kizk-kar"]
    assert any("(quick set-up default)" in line for line in e.entries()[-1].lines)


def test_nothing_is_due_on_a_quiet_day() -> None:
    """Days 2 and 3 pass every step but the forced Sathar move: nothing contested, no
    reserve, no stack idle in a system, no UPF ship beside a Sathar one."""
    e = quick()
    until_due(e)
    e.perform("move_all", by="SATHAR")
    done = advance_until(e, Target("due"), stop_at_battles=True)
    assert [o.entry.summary for o in done.outcomes][-1].endswith("-> Sathar movement")
    assert len(done.outcomes) == 7 and e.state.clock["day"] == 2


def test_attack_candidates_are_the_contested_systems(at_declare: Engine) -> None:
    s = at_declare.state
    assert C.contested_systems(s, "SATHAR") == ["kizk-kar", "fromeltar"]
    assert C.contested_planets(s, "SATHAR") == ["zik-kit", "groth", "terledrom"]
    assert C.contested_systems(s, "UPF") == ["kizk-kar", "fromeltar"]   # none attacked yet


def test_destinations_are_along_the_routes_nearest_first(at_declare: Engine) -> None:
    s = at_declare.state
    dests = C.destinations(s, "SATHAR")
    assert "kizk-kar" not in dests and "fromeltar" not in dests      # where they stand
    assert set(dests[:2]) <= {"dramune", "kaken-kar", "ktsa-kar", "cassidine"}
    assert dests == sorted(set(dests), key=dests.index)               # each once


def test_the_helper_offers_its_procedures(at_declare: Engine) -> None:
    procs = C.procedures(at_declare.state, "gm")
    assert procs[0] != "attack" and "attack" in procs                # no battle yet


def fight() -> Engine:
    e = quick()
    for _ in range(4):
        until_due(e)
        e.perform("move_all", by="SATHAR")
    until_due(e)
    until_due(e)
    e.perform("declare_attack", {"system": C.contested_systems(e.state, "SATHAR")[0]},
              by="SATHAR")
    assert until_due(e) == "a battle: battle B4-1 at Zik-kit (Kizk'-Kar)"
    e.advance()
    assert e.state.step == "B2"
    return e


def test_fire_one_shot_of_the_battle() -> None:
    e = fight()
    s = e.state
    assert C.procedures(s, "gm")[0] == "attack"
    shooters, targets = C.shooters(s, "gm"), C.battle_targets(s, "gm")
    sides = [s.units[i].side for i in shooters]
    assert sides == sorted(sides, key=lambda x: x != "SATHAR") and "UPF" in sides  # attackers first
    assert targets[:3] == ["st-zikit", "mil-zik-kit-as1", "mil-zik-kit-as2"]
    assert C.battle_weapons(s, "gm")[0] == "LB"                      # the first shooter's
    out = e.perform("fire", {"attacker": shooters[0], "weapon": "LB", "target": targets[1]},
                    {"roll1": 51})
    assert out.entry.rolls[0].dice == [51] and out.entry.rolls[0].manual
    assert out.entry.summary.endswith("LB: miss (51 > 50)")
    assert any("defences: RH (its class)" in line for line in out.entry.lines)
    with pytest.raises(ActionRejected, match="same side"):
        e.perform("fire", {"attacker": shooters[0], "weapon": "LB", "target": shooters[1]})
    with pytest.raises(ActionRejected, match="has no working EB; it fires"):
        e.perform("fire", {"attacker": "sat-ac02", "weapon": "EB", "target": targets[0]})
    with pytest.raises(ActionRejected, match="is not fighting"):
        e.perform("fire", {"attacker": shooters[0], "weapon": "LB", "target": "st-gollwin"})
