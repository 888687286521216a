"""The standard sequence driven through the engine: a whole Game-Turn, fire readiness,
disruption, leaders' radius, movement rules, panic in the middle of a phase, retreat before
combat, contact, concession and the end of the game."""

from __future__ import annotations

import pytest

from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from rulesets.prestags import plugin
from tests.rulesets.prestags.helpers import (
    act,
    act_all,
    blue_turn,
    deployed,
    force,
    new,
    place,
    status,
    u,
    until,
)


def test_scenario_opens_into_its_first_prompt_and_deployment_is_checked():
    e = new()
    st = e.status()
    assert st.step == "SETUP" and "Training battle" in st.prompt
    act(e, "map_hexes", {"facts": "A=0505; B=0509; C=0507"})
    e.advance()
    assert e.status().actor == "A" and e.status().missing
    with pytest.raises(ActionRejected, match="outside its deployment area"):
        act(e, "deploy", {"units": ["a-sd-01"], "hex": "0501"})
    with pytest.raises(ActionRejected, match="limit 3"):
        act(e, "deploy", {"units": ["a-sd-01", "a-sd-02", "a-sd-03", "a-sd-04"], "hex": "0506"})
    with pytest.raises(ActionRejected, match="Class B and Class C"):
        act(e, "deploy", {"units": ["a-sd-01", "a-hc-01"], "hex": "0506"})
    with pytest.raises(AdvanceRefused, match="still has 9 unit"):
        e.advance()


def test_a_whole_game_turn_of_two_player_turns():
    e = deployed(seed=11)
    assert (e.state.step, e.state.clock) == ("FIRE", {"gt": 1, "pt": 1}) and e.status().actor == "A"
    act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"}, {"los:a-bw-01:0508": True, **force("-")})
    with pytest.raises(ActionRejected, match="already been fired on"):
        act(e, "fire", {"firers": ["a-bw-02"], "target": "0508"}, {"los:a-bw-02:0508": True})
    e.advance()
    assert e.state.step == "MOVE"
    act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0606", "0607"]})
    with pytest.raises(ActionRejected, match="already moved"):
        act(e, "move", {"units": ["a-hc-01"], "path": ["0606"]})
    e.advance()
    assert e.state.step == "DEF_FIRE" and e.status().actor == "B"
    act(e, "defensive_fire", {"firers": ["b-sk-02"], "target": "0607"}, force("D"))
    assert u(e, "a-hc-01").status["disrupted"] and u(e, "a-hc-01").status["disrupted_at"] == 1
    e.advance()
    assert e.state.step == "MELEE"
    with pytest.raises(ActionRejected, match=r"disrupted \[8.2\]"):
        act(e, "melee", {"attackers": ["a-hc-01"], "targets": ["0608"]})  # [7.15]
    e.advance()  # recovery (automatic) then Blue's fire phase
    assert (e.state.step, e.state.clock, e.status().actor) == ("FIRE", {"gt": 1, "pt": 2}, "B")
    assert u(e, "a-hc-01").status["disrupted"]  # disrupted in Player-Turn 1, kept through it
    with pytest.raises(ActionRejected, match=r"fired in the previous Player-Turn \(1\)"):
        act(e, "fire", {"firers": ["b-sk-02"], "target": "0607"})  # it used defensive fire [6.51]
    place(e, "a-sd-03", "0407")
    act(e, "fire", {"firers": ["b-sk-01"], "target": "0407"}, force("-"))
    until(e, "MOVE")
    e.advance()
    until(e, "MELEE")
    with pytest.raises(ActionRejected, match=r"fired offensively this Player-Turn \[6.11\]"):
        act(e, "melee", {"attackers": ["b-sk-01"], "targets": ["0407"]})
    e.advance()
    assert (e.state.step, e.state.clock) == ("FIRE", {"gt": 2, "pt": 3})
    assert not u(e, "a-hc-01").status["disrupted"]  # recovered at the end of Player-Turn 2
    kinds = [x.kind for x in e.entries()]
    assert kinds.count("advance") >= 10


def forward(e: object) -> None:
    """Red's SD 3 and 4 step to 0407, next to the Blue stack in 0408."""
    place(e, "a-sd-03", "0407")
    place(e, "a-sd-04", "0407")


def test_disruption_recovery_keeps_this_player_turns_disruption():
    """[8.23]: disrupted in the enemy Player-Turn, a unit stays disrupted through its own."""
    e = deployed()
    forward(e)
    until(e, "MELEE")
    act(e, "melee", {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]}, {**force("D")})
    assert u(e, "b-ax-01").status["disrupted"] and u(e, "b-ax-01").status["disrupted_at"] == 1
    e.advance()  # recovery of Player-Turn 1: the AX keeps it
    assert u(e, "b-ax-01").status["disrupted"]
    assert "cannot melee: disrupted [8.2]" in plugin.badges(e.state, u(e, "b-ax-01"))
    with pytest.raises(ActionRejected, match="disrupted"):
        act(e, "fire", {"firers": ["b-sk-01"], "target": "0406"})
    blue_turn(e, "FIRE")
    assert not u(e, "b-ax-01").status["disrupted"]


def test_second_disruption_eliminates_and_scores():
    """[8.22], [11.2]."""
    e = deployed()
    forward(e)
    status(e, "b-ax-01", "disrupted", True)
    until(e, "MELEE")
    out = act(
        e,
        "melee",
        {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]},
        {**force("D"), "advance:0408:1": ""},
    )
    assert "+1 (disrupted defender [8.2])" in out.entry.rolls[0].describe()
    assert u(e, "b-ax-01").status["state"] == "eliminated"
    assert e.state.ledger("A", "vp") == 2


def test_half_elimination_is_the_defenders_choice_of_the_majority():
    e = deployed()
    forward(e)
    until(e, "MELEE")
    out = act(
        e,
        "melee",
        {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]},
        {**force("1/2E"), "half:0408": "b-ax-01,b-sk-01"},
    )
    assert [u(e, x).status["state"] for x in ("b-ax-01", "b-ax-02", "b-sk-01")] == [
        "eliminated",
        "active",
        "eliminated",
    ]
    assert u(e, "b-ax-02").status["disrupted"]
    assert e.state.ledger("A", "vp") == 5
    assert "1/2E" in out.entry.summary


def test_fire_readiness_across_player_turns():
    """[6.12], [6.43], [6.51]: a unit that used defensive fire cannot fire offensively in its
    next Player-Turn, but may melee; one that fired offensively may not defensive-fire next."""
    e = deployed()
    until(e, "MOVE")
    act(e, "move", {"units": ["a-sd-03", "a-sd-04"], "path": ["0407"]})
    until(e, "DEF_FIRE")
    act(e, "defensive_fire", {"firers": ["b-sk-01"], "target": "0407"}, force("-"))
    assert u(e, "b-sk-01").status["last_fire"] == 1
    blue_turn(e, "FIRE")
    assert "cannot fire: fired in the previous Player-Turn (1) [6.12]" in plugin.badges(
        e.state, u(e, "b-sk-01")
    )
    assert "can melee" in plugin.badges(e.state, u(e, "b-sk-01"))
    with pytest.raises(ActionRejected, match=r"\[6.12\]"):
        act(e, "fire", {"firers": ["b-sk-01"], "target": "0407"})
    until(e, "MELEE")
    act(e, "melee", {"attackers": ["b-sk-01", "b-ax-01"], "targets": ["0407"]}, force("-"))


def test_half_movement_outside_every_leader_radius():
    """[10.23]: units starting beyond every friendly leader's radius have half MA; Mt.Ex.
    mounted units keep it [10.0]."""
    e = deployed()
    place(e, "a-hc-01", "0601")
    place(e, "a-sd-03", "0402")
    until(e, "MOVE")
    assert e.state.vars["ma"]["a-sd-03"] == "2"
    assert e.state.vars["ma"]["a-hc-01"] == "7/2"
    assert "half MA 3½" in plugin.badges(e.state, u(e, "a-hc-01"))
    with pytest.raises(ActionRejected, match="costs 3 MP; the MA is 2"):
        act(e, "move", {"units": ["a-sd-03"], "path": ["0403", "0404", "0405"]})
    act(e, "move", {"units": ["a-sd-03"], "path": ["0403", "0404"]})


def test_one_hex_move_whatever_the_cost_and_exit_needs_one_mp():
    """[5.15], [10.24], [11.42]."""
    e = deployed()
    act(e, "map_hexes", {"facts": "0405 woods; 0305 woods"})
    status(e, "a-sd-03", "state", "active")
    until(e, "MOVE")
    with pytest.raises(ActionRejected, match="costs 7 MP"):
        act(e, "move", {"units": ["a-sd-03", "a-sd-04"], "path": ["0405", "0305", "0304"]})
    act(e, "move", {"units": ["a-sd-03", "a-sd-04"], "path": ["0405"]})  # 3 MP of 4 anyway
    place(e, "a-hc-01", "0102")
    act(e, "map_hexes", {"facts": "0102 clear edge:W"})
    with pytest.raises(ActionRejected, match="needs 1 MP left"):
        act(
            e,
            "move",
            {"units": ["a-hc-01"], "path": ["0103", "0104", "0105", "0106", "0107", "0108", "0107", "off:W"]},
        )
    act(e, "move", {"units": ["a-hc-01"], "path": ["off:W"]})
    assert u(e, "a-hc-01").status["state"] == "exited" and u(e, "a-hc-01").status["exit_edge"] == "W"
    assert e.state.ledger("B", "vp") == 0  # exiting for a victory condition scores nothing


def test_stacking_is_checked_at_the_end_of_movement():
    e = deployed()
    until(e, "MOVE")
    act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0606"]})
    act(e, "move", {"units": ["a-sd-03", "a-sd-04", "a-bw-02"], "path": ["0506"]})  # through is fine [5.26]
    with pytest.raises(AdvanceRefused, match="6 units, limit 3"):
        e.advance()


def test_control_goes_to_the_last_occupant():
    """[11.3]."""
    from rulesets.prestags.movement import controller

    e = deployed()
    assert controller(e.state, "0506") == "A" and controller(e.state, "0101") is None
    until(e, "MOVE")
    act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0606"]})
    assert controller(e.state, "0605") == "A" and controller(e.state, "0606") == "A"


def test_panic_strikes_in_the_middle_of_a_phase():
    """[13.11]: the moment Blue's losses reach its Panic Level (9), mid melee phase, Blue
    panics; units stacked with its grade-3 leader do not [13.0]; Red can never panic."""
    e = deployed({"panic": True})
    forward(e)
    place(e, "a-hc-01", "0607")
    place(e, "a-hc-02", "0607")
    e.perform("gm.set_ledger", {"holder": "A", "resource": "vp", "value": 7})
    until(e, "MELEE")
    act(
        e,
        "melee",
        {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]},
        {**force("1/2E"), "half:0408": "b-ax-01,b-ax-02", "advance:0408:1": ""},
    )
    assert e.state.step == "MELEE"
    assert e.state.vars["panic"]["side"] == "B"
    assert (
        e.state.sides["B"].data["panic_state"] == "panicked"
        and e.state.sides["A"].data["panic_state"] == "immune"
    )
    assert u(e, "b-sk-02").status["panicked"] and u(e, "b-lc-01").status["panicked"]
    assert not u(e, "b-sd-01").status["panicked"]  # stacked with the 3 leader
    # the disrupted SK survivor was then disrupted: not panicked at the instant, it just stays disrupted
    out = act(
        e,
        "melee",
        {"attackers": ["a-hc-01", "a-hc-02"], "targets": ["0608"]},
        {**force("D"), "advance:0608:1": ""},
    )
    assert u(e, "b-sk-02").status["state"] == "eliminated"  # panicked + D = eliminated [13.0]
    assert "panicked unit disrupted" in "\n".join(out.entry.lines)
    assert "cannot melee: panicked [13.0]" in plugin.badges(e.state, u(e, "b-lc-01"))
    blue_turn(e, "PANIC_MOVE")  # Blue's panicked units must flee first [13.0]
    assert e.status().actor == "B" and "b-lc-01" in e.status().missing[0]


def test_panicked_units_flee_farther_from_every_enemy():
    e = deployed({"panic": True})
    status(e, "b-lc-01", "panicked", True)
    blue_turn(e, "PANIC_MOVE")
    with pytest.raises(AdvanceRefused, match="b-lc-01"):
        e.advance()
    with pytest.raises(ActionRejected, match="not farther"):
        act(e, "flee", {"unit": "b-lc-01", "path": ["0608"]})
    act(e, "flee", {"unit": "b-lc-01", "path": ["0610", "0611"]}, {"flee-ok:b-lc-01:2": True})
    assert u(e, "b-lc-01").location == "hex:0611"
    e.advance()
    assert e.state.step == "MOVE"
    with pytest.raises(ActionRejected, match="already moved"):
        act(e, "move", {"units": ["b-lc-01"], "path": ["0612"]})
    place(e, "b-lc-01", "0609")  # next to the grade 3 leader in 0508: 3 and 4 only protect stacked units
    e.advance()
    assert u(e, "b-lc-01").status["panicked"]


def test_rally_at_the_end_of_movement_next_to_a_grade_2_leader():
    """[13.22]: adjacent to a 1 or 2 leader is enough; next to a 3 or 4 is not."""
    e = deployed({"panic": True})
    status(e, "a-hc-01", "panicked", True)
    status(e, "a-hc-02", "panicked", True)
    status(e, "a-hc-01", "disrupted", True)  # disrupted: does not flee, still rallies
    place(e, "a-hc-01", "0505")  # next to the 2 leader in 0506
    place(e, "a-hc-02", "0404")  # two hexes away
    until(e, "PANIC_MOVE")
    act(e, "flee", {"unit": "a-hc-02", "path": []}, {"flee-ok:a-hc-02:1": True})
    e.advance()
    e.advance()
    assert e.state.step == "DEF_FIRE"
    assert not u(e, "a-hc-01").status["panicked"] and u(e, "a-hc-02").status["panicked"]


def test_retreat_before_combat_and_advance():
    """[17.0]-[17.4]: the LC (MA 9) steps back from SD (MA 4); the hex empties, the attack
    is off, the attackers advance and may not attack again this Player-Turn."""
    e = deployed({"retreat_before_combat": True})
    place(e, "b-lc-01", "0407")
    until(e, "MELEE")
    act(
        e,
        "melee",
        {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0407"]},
        {"retreat:b-lc-01": "0307", "advance:rbc:0407:1": "a-sd-03"},
    )
    assert u(e, "b-lc-01").location == "hex:0307" and u(e, "a-sd-03").location == "hex:0407"
    assert u(e, "a-sd-03").status["rbc_adv"] == 1
    with pytest.raises(ActionRejected, match="attack"):
        act(e, "melee", {"attackers": ["a-sd-03"], "targets": ["0408"]})


def test_contact_when_a_melee_decides_nothing():
    """[18.1]-[18.5]."""
    e = deployed({"contact": True})
    forward(e)
    until(e, "MELEE")
    act(e, "melee", {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]}, force("-"))
    group = u(e, "a-sd-03").status["contact"]
    assert group and u(e, "b-ax-01").status["contact"] == group
    blue_turn(e, "MOVE")
    with pytest.raises(ActionRejected, match=r"in contact .*\[18.2\]"):
        act(e, "move", {"units": ["b-ax-01"], "path": ["0409"]})
    until(e, "MELEE")
    act(e, "melee", {"attackers": ["b-ax-01", "b-ax-02"], "targets": ["0407"]}, force("D"))
    assert u(e, "a-sd-03").status["contact"] == 0 and u(e, "b-ax-01").status["contact"] == 0


def test_leader_reduction_option_one_asks_the_owner():
    e = deployed({"leader_reduction": "one"})
    forward(e)
    place(e, "b-ldr-01", "0408")
    e.perform("gm.add_unit", {"type": "L", "side": "B", "id": "b-l9", "location": "hex:0408"})
    status(e, "b-l9", "grade", 1)
    until(e, "MELEE")
    act(
        e,
        "melee",
        {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]},
        {**force("D"), "reduce:0408": "b-l9"},
    )
    assert u(e, "b-l9").status["grade"] == 2 and u(e, "b-ldr-01").status["grade"] == 3


def test_concession_and_the_end_of_the_game():
    e = deployed()
    act(e, "concede", {"side": "B"})
    with pytest.raises(ActionRejected, match="already been declared"):
        act(e, "concede", {"side": "A"})
    act(e, "concession_done", {"note": "the rest cannot reach a road"})
    assert e.state.step == "VICTORY_CHECK"
    with pytest.raises(AdvanceRefused, match="judge"):
        e.advance()
    act(e, "judge_victory")
    e.advance()
    assert e.status().final and e.state.vars["outcome"]["winner"] == "A"


def test_game_ends_after_the_last_game_turn_with_gm_rulings_for_conditions():
    e = deployed()
    e.perform("gm.set_var", {"name": "game_length", "value": "1"})
    for _ in range(12):
        if e.state.step == "VICTORY_CHECK":
            break
        e.advance()
    assert e.state.step == "VICTORY_CHECK" and e.state.clock["gt"] == 1
    act(e, "judge_victory", {"verdict": "draw"})
    e.advance()
    assert e.state.vars["outcome"]["winner"] == "draw" and "GM verdict" in e.state.vars["outcome"]["rule"]


def test_undo_restores_a_combat():
    e = deployed()
    forward(e)
    until(e, "MELEE")
    act(
        e,
        "melee",
        {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]},
        {**force("E"), "advance:0408:1": "a-sd-03"},
    )
    assert u(e, "b-ax-01").status["state"] == "eliminated" and u(e, "a-sd-03").location == "hex:0408"
    e.undo(confirm=True)
    assert u(e, "b-ax-01").status["state"] == "active" and e.state.ledger("A", "vp") == 0


def test_flank_attack_is_worked_out_from_the_grid():
    e = deployed()
    for uid in ("b-sd-01", "b-sd-02", "b-sd-03", "b-ldr-01"):
        place(e, uid, "0100")
    place(e, "a-sd-01", "0507")  # direction 5 from 0608
    place(e, "a-hc-01", "0708")  # direction 2: the opposite side
    place(e, "a-hc-02", "0605")
    until(e, "MELEE")
    out = act_all(e, "melee", {"attackers": ["a-sd-01", "a-hc-01"], "targets": ["0608"]}, force("-"))
    assert any("flank attack" in line for line in out.entry.lines)
