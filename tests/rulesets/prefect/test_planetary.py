"""The planetary game driven through its phase machine (Liberation on the example's
demonstration map): set-up, movement with counteractions, detection, combat, supply,
withdrawal, adjustment and tempo, with decisions and GM rulings."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, AdvanceRefused, NeedDecision
from rulesets.prefect import plugin
from rulesets.prefect.example import BASE_HEXES, play
from tests.rulesets.prefect.helpers import act, dice, liberation


def _compose(e: Engine, tf: str, units: list[str], hex_: str) -> None:
    for u in list(e.state.units.values()):
        if u.formation == tf:
            u.formation = None
            u.location = None
    for uid in units:
        e.state.units[uid].formation = tf
    e.state.formations[tf].location = f"hex:{hex_}"


def _to_declare(e: Engine) -> None:
    for by in ("CW", "TOG", "CW", "TOG"):
        act(e, "advance", by=by)
    assert e.state.step == "P_COMBAT.declare"


# -- set-up -----------------------------------------------------------------------------------------
def test_setup_places_bases_then_alternates_counters_inside_the_areas() -> None:
    e = Engine.create(plugin, "liberation", seed=2)
    assert e.state.step == "P_SETUP.arrange"
    with pytest.raises(AdvanceRefused, match="place the scenario's bases"):
        e.advance()
    from rulesets.prefect.example import demo_map

    act(e, "import_map", {"map": demo_map()})
    with pytest.raises(ActionRejected, match="area 7"):
        act(e, "place_base", {"base": "cw-gl2-1", "hex": "0101"})  # area 1
    for base, hex_ in BASE_HEXES.items():
        act(e, "place_base", {"base": base, "hex": hex_})
    act(e, "advance")
    assert e.state.step == "P_SETUP.place" and e.status().actor == "CW"  # the scenario's set-up order
    with pytest.raises(ActionRejected, match="for Commonwealth"):
        act(e, "place_tf", {"tf": "tog786-tf1", "hex": "1011"}, by="TOG")
    with pytest.raises(ActionRejected, match="area 7 or 3"):
        act(e, "place_tf", {"tf": "cw199-tf1", "hex": "0101"}, by="CW")
    with pytest.raises(NeedDecision) as need:
        e.perform("place_tf", {"tf": "cw199-tf1", "hex": "1903"}, by="CW")
    assert need.value.decision.kind == "ruling" and "west of the start line" in need.value.decision.prompt
    act(e, "place_tf", {"tf": "cw199-tf1", "hex": "1903"}, by="CW")
    assert e.state.vars["roles"]["placer"] == "TOG"  # alternation
    with pytest.raises(ActionRejected, match="already holds a task force"):
        act(e, "place_tf", {"tf": "tog786-tf1", "hex": "1903"}, by="TOG")
    militia = next(f.id for f in e.state.formations.values() if f.kind == "independent" and f.side == "CW")
    act(e, "place_tf", {"tf": "tog786-tf1", "hex": "1011"}, by="TOG")
    with pytest.raises(ActionRejected, match="Water"):
        act(e, "place_tf", {"tf": militia, "hex": "0120"}, by="CW")


# -- a whole turn ---------------------------------------------------------------------------------
def test_example_plays_a_full_turn_and_the_tempo_swaps_roles() -> None:
    e = Engine.create(plugin, "liberation", seed=6830)
    play(e)
    s = e.state
    assert s.clock["turn"] == 3
    # no breakthroughs on either turn: the Attacker never stays (a tie swaps), CW -> TOG -> CW
    assert s.vars["roles"]["attacker"] == "CW"
    assert s.vars["btca"] == {"TOG": 0, "CW": 0}
    assert s.vars["track"] == {"moved": 1, "counter": 0}  # reset at the Tempo Phase, then one CW move
    assert not [m for m in s.markers.values() if m.kind in ("MOVED", "DETECTED")]
    assert s.step == "P_MOVE.zoc"
    visited = {en.step for en in e.entries()}
    for step in (
        "P_MOVE.select_tf",
        "P_MOVE.moving",
        "P_MOVE.zoc",
        "P_MOVE.cleanup",
        "P_COMBAT.detect_att",
        "P_COMBAT.detect_def",
        "P_COMBAT.declare",
        "P_COMBAT.resolve",
        "G_ROLL",
        "P_SUPPLY.attacker",
        "P_SUPPLY.defender",
        "P_SUPPLY.income",
        "P_WITHDRAW.loc",
        "P_WITHDRAW.move",
        "P_ADJUST",
    ):
        assert step in visited, step


# -- movement and counteractions ---------------------------------------------------------------------
def test_counteractions_never_exceed_the_attackers_moves() -> None:
    e = liberation()
    with pytest.raises(ActionRejected, match="no counteraction available"):
        act(e, "counter_move", {"tf": "tog786-tf4", "path": ["1012"]}, by="TOG")
    act(e, "move_tf", {"tf": "cw199-tf1", "mode": "combat"}, by="CW")
    act(e, "stop_move", by="CW")
    act(e, "counter_move", {"tf": "tog786-tf4", "path": ["1012"]}, by="TOG")
    assert e.state.vars["track"] == {"moved": 1, "counter": 1}
    with pytest.raises(ActionRejected, match="no counteraction available"):
        act(e, "counter_move", {"tf": "tog786-tf5", "path": ["1114"]}, by="TOG")
    act(e, "move_tf", {"tf": "cw199-tf2", "mode": "combat"}, by="CW")
    act(e, "stop_move", by="CW")
    with pytest.raises(ActionRejected, match="already counteracted"):
        act(e, "counter_move", {"tf": "tog786-tf4", "path": ["1013"]}, by="TOG")
    with pytest.raises(ActionRejected, match="more than the 2 hexes"):  # 3+ combat units: 2 hexes
        _compose(e, "tog786-tf6", ["tog786-med6", "tog786-med7", "tog786-art1"], "1213")
        act(e, "counter_move", {"tf": "tog786-tf6", "path": ["1214", "1215", "1216"]}, by="TOG")
    with pytest.raises(ActionRejected, match="already moved"):
        act(e, "move_tf", {"tf": "cw199-tf1", "mode": "laf"}, by="CW")


def test_counterattack_needs_a_detection_then_the_mover_detects_and_combat_returns() -> None:
    e = liberation()
    act(e, "move_tf", {"tf": "cw3099-tf4", "mode": "combat"}, by="CW")
    for h in ("1009", "0909", "0810"):
        act(e, "enter_hex", {"hex": h}, by="CW")
    assert e.state.step == "P_MOVE.zoc"
    with pytest.raises(ActionRejected, match="has not detected"):
        act(e, "counterattack", {"tfs": ["tog4245-tf2"]}, by="TOG")
    act(e, "zoc_detect", {"tf": "tog4245-tf2"}, by="TOG", answers=dice(1))
    with pytest.raises(ActionRejected, match="already tried in this hex"):
        act(e, "zoc_detect", {"tf": "tog4245-tf2"}, by="TOG")
    act(e, "counterattack", {"tfs": ["tog4245-tf2"]}, by="TOG")
    assert e.state.vars["track"]["counter"] == 1
    assert e.state.stack == ["P_MOVE.after_counter"]
    assert e.state.step == "G_DETECT" and e.status().actor == "CW"
    act(e, "detect_counterattacker", {"tf": "tog4245-tf2"}, by="CW", answers=dice(10))
    c = e.state.vars["combat"]
    assert c["att_side"] == "TOG" and c["def_side"] == "CW" and c["kind"] == "counter"
    # the CW mover is detected, the TOG counterattacker is not: TOG may shift
    assert e.state.step == "G_SHIFT" and e.status().actor == "TOG"
    act(e, "choose_shift", {"shift": "none"}, by="TOG")
    act(e, "roll_combat", by="TOG", answers=dice(5, *[5] * 12))
    while e.state.step.startswith("G_"):
        act(e, "advance", by=e.status().actor)
    assert e.state.step in ("P_MOVE.moving", "P_MOVE.select_tf")
    assert e.state.formations["tog4245-tf2"].status["fatigue"] == 1  # fatigue at once
    assert "MOVED@tog4245-tf2" in e.state.markers


def test_mover_that_gets_dr_stops_after_its_retreat() -> None:
    e = liberation()
    _compose(e, "tog4245-tf2", ["tog4245-hy1", "tog4245-med1", "tog4245-med2"], "0811")
    _compose(e, "cw3099-tf4", ["cw3099-inf4"], "1008")
    act(e, "move_tf", {"tf": "cw3099-tf4", "mode": "combat"}, by="CW")
    for h in ("1009", "0909", "0810"):
        act(e, "enter_hex", {"hex": h}, by="CW")
    act(e, "zoc_detect", {"tf": "tog4245-tf2"}, by="TOG", answers=dice(1))
    act(e, "counterattack", {"tfs": ["tog4245-tf2"]}, by="TOG")
    act(e, "advance", by="CW")  # no detection attempt
    if e.state.step == "G_SHIFT":
        act(e, "choose_shift", {"shift": "none"}, by=e.status().actor)
    act(e, "roll_combat", by="TOG", answers=dice(8, *[1] * 8))  # 10:5 -> 2 to 1, row 8: +3/-2DR
    assert e.state.step == "G_RETREAT"
    act(e, "retreat", {"tf": "cw3099-tf4", "hex": "0909"}, by="CW")
    while e.state.step.startswith("G_"):
        act(e, "advance", by=e.status().actor)
    assert e.state.step == "P_MOVE.select_tf" and not e.state.vars.get("moving")


def test_laf_movement_allowance_zoc_detection_and_saves() -> None:
    e = liberation()
    act(e, "move_tf", {"tf": "cw3099-tf4", "mode": "laf"}, by="CW")
    assert e.state.vars["moving"]["allowance"] == 19  # 20 - 2 + 1 (HQ)
    assert "LAF@cw3099-tf4" in e.state.markers
    act(e, "enter_hex", {"hex": "1009"}, by="CW")
    act(e, "enter_hex", {"hex": "0909"}, by="CW")
    act(e, "enter_hex", {"hex": "0910"}, by="CW")  # forest does not block ZOC against LAF
    assert e.state.step == "P_MOVE.zoc"
    out = act(e, "zoc_detect", {"tf": "tog4245-tf3", "esm": 1}, by="TOG", answers=dice(9))
    assert "+6 (target in LAF)" in out.entry.lines[-1] and "terrain" not in out.entry.lines[-1]
    act(e, "advance", by="TOG")
    act(e, "stop_move", by="CW")
    act(e, "advance", by="CW")
    act(e, "advance", by="TOG")
    with pytest.raises(ActionRejected, match="moved in LAF"):
        act(e, "detect", {"tf": "cw3099-tf4", "target": "tog4245-tf3"}, by="CW")


def test_overrun_destroys_disrupted_units_at_random_and_checks_fatigue() -> None:
    e = liberation()
    for uid in ("tog786-med7", "tog786-art1"):
        u = e.state.units[uid]
        u.formation, u.location = None, "hex:1009"
        u.status["disrupted"] = True
    act(e, "move_tf", {"tf": "cw3099-tf4", "mode": "combat"}, by="CW")
    out = act(
        e, "enter_hex", {"hex": "1009", "overrun": 1}, by="CW", answers={"draw1": "1", **dice(1, start=2)}
    )
    assert (
        e.state.units["tog786-med7"].status["destroyed"]
        and not e.state.units["tog786-art1"].status["destroyed"]
    )
    assert e.state.vars["moving"]["spent"] == 2
    assert any("overrun check" in line for line in out.entry.lines)
    with pytest.raises(ActionRejected, match="enemy units are there"):
        act(e, "stop_move", by="CW")
    assert e.state.ledgers["CW"]["vp"] == 10  # a Medium Cohort's rebuild cost


# -- combat ------------------------------------------------------------------------------------
def test_attack_on_a_hex_of_disrupted_units_and_on_support_units_alone() -> None:
    e = liberation()
    u = e.state.units["tog786-med7"]
    u.formation, u.location = None, "hex:1109"
    u.status["disrupted"] = True
    _compose(e, "tog786-tf3", ["tog786-sig3", "tog786-ceng1"], "1211")
    _to_declare(e)
    act(e, "declare_attack", {"attackers": ["cw3099-tf2"], "hex": "1109"}, by="CW")
    act(e, "declare_attack", {"attackers": ["cw3099-tf3"], "target": "tog786-tf3"}, by="CW")
    act(e, "advance", by="CW")
    out = act(e, "resolve_attack", {"attack": "a1"}, by="CW", answers=dice(10))
    assert e.state.units["tog786-med7"].status["destroyed"]
    assert any("lowest defense" in line for line in out.entry.lines)
    assert e.state.formations["cw3099-tf2"].status["fatigue"] == 1  # the save failed (a 10)
    act(e, "resolve_attack", {"attack": "a2"}, by="CW")
    assert "tog786-tf3" not in e.state.formations
    assert e.state.units["tog786-sig3"].status["destroyed"]
    assert e.state.vars["btca"] == {"TOG": 0, "CW": 0}  # not a breakthrough
    assert e.state.vars.get("special_advance")


def test_breakthrough_destroys_or_disrupts_scatters_and_scores() -> None:
    e = liberation()
    _compose(e, "tog786-tf2", ["tog786-sig2", "tog786-med3"], "1111")
    _compose(e, "cw3099-tf2", ["cw3099-med1", "cw3099-hy1"], "1110")
    for uid in ("tog786-med7",):
        u = e.state.units[uid]
        u.formation, u.location = None, "hex:1111"
        u.status["disrupted"] = True
    _to_declare(e)
    act(e, "declare_attack", {"attackers": ["cw3099-tf2"], "target": "tog786-tf2"}, by="CW")
    act(e, "advance", by="CW")
    act(e, "resolve_attack", {"attack": "a1"}, by="CW")
    out = act(e, "roll_combat", by="CW", answers=dice(10, *[1] * 30))  # 7:6 -> 1 to 1, row 10: +2/-2BT
    assert out.entry.summary.endswith("+2/-2BT")
    text = "\n".join(out.entry.lines)
    assert "save against destruction" in text  # support units roll too
    assert e.state.units["tog786-med7"].status["destroyed"]  # G14: beside a broken task force
    assert "tog786-tf2" not in e.state.formations
    assert e.state.vars["btca"]["CW"] == 1
    assert e.state.step == "G_RETREAT" and e.state.vars["combat"]["retreats"][0]["kind"] == "scatter"


def test_shift_past_the_table_end_is_not_offered() -> None:
    e = liberation()
    _to_declare(e)
    e.state.markers.clear()
    act(e, "declare_attack", {"attackers": ["cw3099-tf1"], "target": "tog786-tf1"}, by="CW")
    act(e, "advance", by="CW")
    _compose(e, "tog786-tf1", ["tog786-sig1"], "1011")
    e.state.units["tog786-med1"].formation = "tog786-tf1"
    from rulesets.prefect.crt import shift_choices

    assert shift_choices(5) == [-1, 0] and shift_choices(0) == [0, 1]


def test_centurion_result_entered_per_unit() -> None:
    e = liberation()
    _to_declare(e)
    act(e, "declare_attack", {"attackers": ["cw3099-tf1"], "target": "tog786-tf1"}, by="CW")
    act(e, "advance", by="CW")
    act(e, "resolve_attack", {"attack": "a1"}, by="CW")
    while e.state.step != "G_ROLL":
        act(e, "choose_shift", {"shift": "none"}, by=e.status().actor)
    out = act(
        e,
        "resolve_externally",
        {
            "results": {"tog786-med1": "destroyed", "cw3099-med1": "disrupted"},
            "letter": "DR",
            "note": "fought on the Centurion maps",
        },
        by="CW",
    )
    assert out.entry.tags.get("external") == "Centurion"
    assert e.state.units["tog786-med1"].status["destroyed"]
    assert e.state.units["cw3099-med1"].status["disrupted"]
    assert e.state.formations["cw3099-tf1"].status["fatigue"] == 1
    assert e.state.step == "G_RETREAT"


# -- supply, withdrawal, adjustment -----------------------------------------------------------------
def _to_supply(e: Engine) -> None:
    _to_declare(e)
    act(e, "advance", by="CW")
    act(e, "advance", by="CW")
    if e.state.step == "P_COMBAT.bombard":
        act(e, "orbital_bombardment", by="TOG")
        act(e, "advance", by="TOG")
    assert e.state.step == "P_SUPPLY.attacker"


def test_supply_order_rearm_cost_and_rebuild_limits() -> None:
    e = liberation()
    e.state.formations["cw3099-tf1"].status["fatigue"] = 2
    _to_supply(e)
    units = len([u for u in e.state.units.values() if u.formation == "cw3099-tf1"])
    before = sum(int(u.status.get("supply", 0)) for u in e.state.units.values() if u.side == "CW")
    act(e, "rearm", {"tf": "cw3099-tf1", "levels": 2}, by="CW")
    after = sum(int(u.status.get("supply", 0)) for u in e.state.units.values() if u.side == "CW")
    assert before - after == 2 * units
    with pytest.raises(ActionRejected, match="too late"):
        act(e, "transfer_supply", {"source": "cw-gl2-1", "dest": "cw-gl3-3", "amount": 1}, by="CW")
    dead = ["cw199-med1", "cw199-med2", "cw199-med3"]
    for uid in dead:
        u = e.state.units[uid]
        u.status["destroyed"], u.formation, u.location = True, None, None
    act(e, "rebuild", {"unit": dead[0], "base": "cw-gl2-1"}, by="CW")
    act(e, "rebuild", {"unit": dead[1], "base": "cw-gl2-1"}, by="CW")
    with pytest.raises(ActionRejected, match="rebuilt all it may"):  # rating 2: two a turn
        act(e, "rebuild", {"unit": dead[2], "base": "cw-gl2-1"}, by="CW")
    assert e.state.units["cw-gl2-1"].status["supply"] == 50 - 2 * 10


def test_withdrawal_destroys_cut_off_units_and_moves_the_rest() -> None:
    e = liberation()
    for uid, hex_ in (("tog786-med7", "1709"), ("tog786-art1", "1710")):
        u = e.state.units[uid]
        u.formation, u.location = None, f"hex:{hex_}"
        u.status["disrupted"] = True
    _to_supply(e)
    act(e, "advance", by="CW")
    act(e, "advance", by="TOG")
    act(e, "scenario_supply")
    act(e, "advance")
    assert e.state.step == "P_WITHDRAW.loc"
    with pytest.raises(AdvanceRefused):
        e.advance()
    act(e, "check_lines", policy=lambda d: ["tog786-med7"] if d.id.startswith("cutoff:TOG") else [])
    assert e.state.units["tog786-med7"].status["destroyed"]
    assert not e.state.units["tog786-art1"].status["destroyed"]
    act(e, "advance")
    with pytest.raises(ActionRejected, match="1 to 9 hexes"):
        act(
            e,
            "withdraw_unit",
            {"unit": "tog786-art1", "path": [f"17{r:02d}" for r in range(11, 21)]},
            by="TOG",
        )
    act(e, "withdraw_unit", {"unit": "tog786-art1", "path": ["1711", "1712"]}, by="TOG")
    assert e.state.units["tog786-art1"].location == "hex:1712"


def test_adjustment_takes_the_higher_fatigue_and_removes_empty_task_forces() -> None:
    e = liberation()
    e.state.formations["cw3099-tf1"].status["fatigue"] = 2
    _to_supply(e)
    act(e, "advance", by="CW")
    act(e, "advance", by="TOG")
    act(e, "scenario_supply")
    act(e, "advance")
    act(e, "advance")
    act(e, "advance")
    assert e.state.step == "P_ADJUST"
    light = next(u.id for u in e.state.units.values() if u.formation == "cw3099-tf1" and "med" in u.id)
    act(e, "transfer_units", {"units": [light], "to_tf": "cw3099-tf2"}, by="CW")
    assert e.state.formations["cw3099-tf2"].status["fatigue"] == 2  # W12 in play
    rest = [u.id for u in e.state.units.values() if u.formation == "cw3099-tf1"]
    act(e, "transfer_units", {"units": rest, "to_tf": "cw3099-tf2"}, by="CW")
    act(e, "advance")
    assert "cw3099-tf1" not in e.state.formations


def test_liberation_supply_and_bombardment_timing() -> None:
    e = liberation()
    _to_supply(e)
    assert "P_COMBAT.bombard" not in {en.step for en in e.entries()}  # not on turn 1 (G40)
    e.state.units["cw-gl2-1"].status["supply"] = 10
    act(e, "advance", by="CW")
    act(e, "advance", by="TOG")
    out = act(
        e,
        "scenario_supply",
        answers={"roll1": 4},
        policy=lambda d: (
            "cw-gl2-1" if d.id.startswith("city:") else True if d.kind == "ruling" else d.default
        ),
    )
    text = "\n".join(out.entry.lines)
    assert "CW GL2 #1 (area 7): 10 + 2 SP = 12" in text
    assert "+ 15 SP" in text and "one +10" in text


def test_victory_at_the_end_uses_the_outcome_table_and_held_cities() -> None:
    e = liberation()
    e.state.clock["turn"] = 10
    e.state.ledgers["CW"]["vp"] = 20
    e.state.ledgers["TOG"]["vp"] = 5
    next(c for c in e.state.records("cities").values() if c["controller"] == "TOG")["controller"] = "CW"
    _to_supply(e)
    while not e.status().final:
        if e.state.step == "P_SUPPLY.income":
            act(e, "scenario_supply")
        elif e.state.step == "P_WITHDRAW.loc" and e.status().missing:
            act(e, "check_lines")
        act(e, "advance", by=e.status().actor)
    out = e.state.vars["outcome"]
    assert out["vp"]["CW"] >= 30 and out["winner"] == "CW"
    assert out["result"] in ("Decisive Victory", "Substantial Victory")
