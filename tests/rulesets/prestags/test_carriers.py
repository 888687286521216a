"""Chariots, Viking fleets and the francisca in play (Chariot [1.0]-[1.9], Viking [1.0]-[1.4],
[3.1]-[3.5]; digest 4.5, EXT sources), on the training battle made a Chariot or Viking battle."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_tui.core.errors import ActionRejected, NeedDecision
from tests.rulesets.prestags.helpers import act, act_all, blue_turn, deployed, place, sim_to, until


def _loc(e: Any, uid: str) -> str:
    return str(e.state.units[uid].location)[4:]


def _game(
    code: str,
    exclusive: dict[str, Any] | None = None,
    types: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
) -> Any:
    e = deployed(options)
    e.state.vars["game"] = code
    if exclusive:
        e.state.vars["exclusive"] = exclusive
    for uid, t in (types or {}).items():
        e.state.units[uid].type = t
    return e


# -- Chariot --------------------------------------------------------------------------------------
def _chariots(options: dict[str, Any] | None = None) -> Any:
    return _game("C", types={"b-lc-01": "CH"}, options=options)  # Blue's chariot in 0609, SK in 0608


def test_the_chariot_phase_comes_before_fire_for_the_side_with_chariots():
    e = _chariots()
    assert e.state.step == "FIRE"  # Red has no chariot: no Chariot Phase
    blue_turn(e, "CHARIOT")
    assert "chariot_move" in e.status().prompt
    e.advance()
    assert e.state.step == "CHARIOT_DF"
    e.advance()
    assert e.state.step == "FIRE"


@pytest.mark.parametrize("on", [True, False])
def test_no_chariot_phase_without_the_exclusive_rules(on: bool):
    e = _chariots(None if on else {"exclusive_rules": False})
    seen = []
    for _ in range(12):
        e.advance()
        seen.append(e.state.step)
        if e.state.clock["pt"] == 2 and e.state.step == "FIRE":
            break
    assert ("CHARIOT" in seen) is on


def test_one_movement_allowance_for_both_phases_and_riders_move_with_it():
    """[1.0], [1.4]: the SK next to the chariot gets on free; 4 MP in the Chariot Phase leave 5."""
    e = _chariots()
    blue_turn(e, "CHARIOT")
    path = ["0610", "0611", "0612", "0613"]
    act(e, "chariot_move", {"chariot": "b-lc-01", "embark": ["b-sk-02"], "path": path})
    assert _loc(e, "b-sk-02") == _loc(e, "b-lc-01") == "0613"
    assert e.state.units["b-sk-02"].status["aboard"] == "b-lc-01"
    until(e, "MOVE")
    with pytest.raises(ActionRejected, match="MA is 5"):
        act(e, "move", {"units": ["b-lc-01"], "path": ["0614", "0615", "0616", "0617", "0618", "0619"]})
    with pytest.raises(ActionRejected, match="aboard"):
        act(e, "move", {"units": ["b-sk-02"], "path": ["0614"]})  # a rider moves only with it
    out = act(e, "move", {"units": ["b-lc-01"], "path": ["0614", "0615", "0616", "0617", "0618"]})
    assert "5 MP of the 5" in out.entry.summary
    assert _loc(e, "b-sk-02") == "0618"


def test_riders_get_down_next_to_the_chariot_and_may_still_move_after_the_chariot_phase():
    """[1.0], [1.3]: the SK gets down at the end of the Chariot Phase and moves in the Movement Phase."""
    e = _chariots()
    blue_turn(e, "CHARIOT")
    with pytest.raises(ActionRejected, match="not next to"):
        act(e, "chariot_move", {"chariot": "b-lc-01", "embark": ["b-sk-01"]})  # 0408 is two hexes off
    act(
        e,
        "chariot_move",
        {
            "chariot": "b-lc-01",
            "embark": ["b-sk-02"],
            "path": ["0610", "0611"],
            "debark": ["b-sk-02"],
            "debark_to": "0612",
        },
    )
    assert _loc(e, "b-sk-02") == "0612" and not e.state.units["b-sk-02"].status.get("aboard")
    until(e, "MOVE")
    act(e, "move", {"units": ["b-sk-02"], "path": ["0613"]})


def test_a_rider_of_the_movement_phase_has_made_its_move():
    e = _chariots()
    blue_turn(e, "MOVE")
    act(
        e,
        "chariot_move",
        {
            "chariot": "b-lc-01",
            "embark": ["b-sk-02"],
            "path": ["0610"],
            "debark": ["b-sk-02"],
            "debark_to": "0611",
        },
    )
    with pytest.raises(ActionRejected, match="already moved"):
        act(e, "move", {"units": ["b-sk-02"], "path": ["0612"]})


def test_a_chariot_carries_one_bw_ib_or_sk():
    e = _chariots()
    blue_turn(e, "CHARIOT")
    with pytest.raises(ActionRejected, match="only a BW, IB or SK"):
        act(e, "chariot_move", {"chariot": "b-lc-01", "embark": ["b-sd-01"]})


def test_a_chariot_stream_hex_ends_its_player_turn():
    """[1.5]: entering a stream hex in the Chariot Phase, it may not move in the Movement Phase."""
    e = _chariots()
    act(e, "map_hexes", {"facts": "0610 stream"})
    blue_turn(e, "CHARIOT")
    act(e, "chariot_move", {"chariot": "b-lc-01", "path": ["0610"]})
    until(e, "MOVE")
    with pytest.raises(ActionRejected, match="stream hex"):
        act(e, "move", {"units": ["b-lc-01"], "path": ["0611"]})


def test_a_chariot_holds_only_its_riders_and_leaders_at_the_end_of_the_phase():
    """[1.9]: the chariot may not end the Chariot Phase stacked with a unit that is not aboard."""
    e = _chariots()
    blue_turn(e, "CHARIOT")
    act(e, "chariot_move", {"chariot": "b-lc-01", "path": ["0608"]})  # onto the SK, not aboard
    with pytest.raises(Exception, match=r"C1\.9"):
        e.advance()


def test_defensive_fire_at_a_hex_a_chariot_entered():
    """[1.5]: the enemy fires at the chariot's hex before the Fire Combat Phase, and that unit
    has made its defensive fire for the Player-Turn."""
    e = _chariots()
    blue_turn(e, "CHARIOT")
    act(e, "chariot_move", {"chariot": "b-lc-01", "path": ["0608", "0607"]})
    until(e, "CHARIOT_DF")
    out = act(e, "defensive_fire", {"firers": ["a-bw-01"], "target": "0607"}, {"override:lookup1": "-"})
    assert "0607" in out.entry.summary
    until(e, "DEF_FIRE")
    e.state.vars["entered"] = ["0607"]
    with pytest.raises(ActionRejected, match="made its defensive fire"):
        act(e, "defensive_fire", {"firers": ["a-bw-01"], "target": "0607"})


# -- Viking fleets ------------------------------------------------------------------------------------
RIVER = "; ".join(f"{h} river river:Seine" for h in ("0610", "0611", "0612", "0613")) + "; 0614 clear"


def _fleet() -> Any:
    e = _game("V", types={"b-lc-01": "VF"})
    act(e, "map_hexes", {"facts": RIVER})
    blue_turn(e, "MOVE")
    return e


def test_a_fleet_sails_moors_takes_units_on_and_unmoors_on_fifteen_mp():
    """[3.11], [3.12], [3.32], [3.33], [3.43]: 1 hex + mooring 7 = 8; unmooring 5 + 1 hex = 14."""
    e = _fleet()
    assert "(sail)" in e.status().prompt
    with pytest.raises(ActionRejected, match="sails"):
        act(e, "move", {"units": ["b-lc-01"], "path": ["0610"]})
    with pytest.raises(ActionRejected, match="sea and river"):
        act(e, "sail", {"fleet": "b-lc-01", "path": ["0509"]})
    out = act(e, "sail", {"fleet": "b-lc-01", "path": ["0610"], "moor": True})
    assert "8 of 15 MP" in out.entry.summary and e.state.units["b-lc-01"].status["moored"]
    act(e, "board", {"units": ["b-sk-02"], "fleet": "b-lc-01", "path": ["0609"]})  # 1 + 2 MP
    assert e.state.units["b-sk-02"].status["aboard"] == "b-lc-01" and _loc(e, "b-sk-02") == "0610"
    out = act(e, "sail", {"fleet": "b-lc-01", "unmoor": True, "path": ["0611"]})
    assert "14 of 15 MP" in out.entry.summary and _loc(e, "b-sk-02") == "0611"
    with pytest.raises(ActionRejected, match="MA of 15"):
        act(e, "sail", {"fleet": "b-lc-01", "moor": True})


def test_an_empty_fleet_cannot_unmoor_and_a_moored_fleet_must_unmoor_to_sail():
    e = _fleet()
    act(e, "sail", {"fleet": "b-lc-01", "path": ["0610"], "moor": True})
    with pytest.raises(ActionRejected, match="trapped"):
        act(e, "sail", {"fleet": "b-lc-01", "unmoor": True})
    with pytest.raises(ActionRejected, match="unmoor it first"):
        act(e, "sail", {"fleet": "b-lc-01", "path": ["0611"]})


def test_units_land_for_two_mp_onto_a_land_hex_and_move_on():
    """[3.41]: landing costs 2 MP and covers the adjacent hex; the SK (MA 10?) goes on."""
    e = _fleet()
    act(e, "sail", {"fleet": "b-lc-01", "path": ["0610"], "moor": True})
    act(e, "board", {"units": ["b-sk-02"], "fleet": "b-lc-01", "path": ["0609"]})
    e.state.vars["moved"] = []  # the next Movement Phase, for short
    with pytest.raises(ActionRejected, match="not river, bridge or ford"):
        act(e, "land", {"units": ["b-sk-02"], "path": ["0611"]})
    out = act(e, "land", {"units": ["b-sk-02"], "path": ["0710", "0711"]})
    assert _loc(e, "b-sk-02") == "0711" and "3 of" in out.entry.summary
    assert not e.state.units["b-sk-02"].status.get("aboard")


def test_a_fleet_takes_three_units_leaders_free():
    from rulesets.prestags import carriers

    assert carriers.passenger_problem("VF", ["AX", "AX", "IB", "L2"]) == ""
    assert "up to 3" in carriers.passenger_problem("VF", ["AX", "AX", "IB", "SD"])


def test_a_fleet_under_sail_cannot_be_meleed_and_has_fire_protection_4():
    """[3.25], [3.28], [3.5]: Red's fleet alone in 0605, under sail then moored."""
    e = _game("V", types={"a-hc-01": "VF"})
    place(e, "a-hc-02", "0604")
    place(e, "b-sd-01", "0606")
    place(e, "b-sk-01", "0606")
    blue_turn(e, "FIRE")
    out = act(e, "fire", {"firers": ["b-sk-01"], "target": "0605"}, {"override:lookup1": "-"})
    assert "vs 4" in out.entry.summary
    until(e, "MELEE")
    with pytest.raises(ActionRejected, match="under sail"):
        act(e, "melee", {"attackers": ["b-sd-01"], "targets": ["0605"]})
    e.state.units["a-hc-01"].status["moored"] = True  # moored, empty: it defends at 4 [3.5]
    act_all(e, "melee", {"attackers": ["b-sd-01"], "targets": ["0605"]}, {"override:lookup1": "-"})


# -- the francisca ---------------------------------------------------------------------------------------
def test_a_frankish_ax_throws_its_francisca_once_in_defensive_fire():
    """Viking [1.0]-[1.4]: Blue's AX counts as a fire unit until it has thrown, strength 3."""
    e = _game("V", exclusive={"francisca": "B"})
    until(e, "MOVE")
    with pytest.raises(ActionRejected, match="next to an enemy fire unit"):
        act(e, "move", {"units": ["a-sd-03"], "path": ["0407", "0307"]})  # 0407 is next to the AX in 0408
    act(e, "move", {"units": ["a-sd-03"], "path": ["0407"]})
    until(e, "DEF_FIRE")
    out = act(e, "defensive_fire", {"firers": ["b-ax-01"], "target": "0407"})
    assert "francisca" in "\n".join(out.entry.lines) and ": 3 vs" in out.entry.summary
    assert e.state.units["b-ax-01"].status["francisca_used"]
    from rulesets.prestags import exclusive

    assert not exclusive.francisca_ready(e.state, e.state.units["b-ax-01"])
    assert exclusive.francisca_ready(e.state, e.state.units["b-ax-02"])


def test_the_francisca_is_no_offensive_weapon():
    e = _game("V", exclusive={"francisca": "B"})
    blue_turn(e, "FIRE")
    with pytest.raises(ActionRejected, match="defensive fire only"):
        act(e, "fire", {"firers": ["b-ax-01"], "target": "0406"})


def test_a_fleet_is_fired_on_at_once_and_a_disrupted_fleet_has_seven_mp():
    """[3.21], [3.23]: Red fires at the fleet the moment it comes next to its bowmen; disrupted
    after 2 hexes it has 7 - 2 = 5 MP left."""
    e = _game("V", types={"b-lc-01": "VF"})
    act(
        e,
        "map_hexes",
        {
            "facts": "; ".join(
                f"{h} river river:Elbe"
                for h in ("0608", "0607", "0606", "0706", "0705", "0704", "0703", "0702")
            )
        },
    )
    blue_turn(e, "MOVE")
    act(e, "sail", {"fleet": "b-lc-01", "path": ["0608", "0607"]})
    act(e, "move", {"units": ["b-sk-01"], "path": ["0407"]})
    with pytest.raises(ActionRejected, match=r"V3\.21"):
        act(e, "defensive_fire", {"firers": ["a-bw-02"], "target": "0407"})
    act(e, "defensive_fire", {"firers": ["a-bw-01"], "target": "0607"}, {"override:lookup1": "D"})
    assert e.state.units["b-lc-01"].status["disrupted"]
    with pytest.raises(ActionRejected, match="MA of 7"):
        act(e, "sail", {"fleet": "b-lc-01", "path": ["0606", "0706", "0705", "0704", "0703", "0702"]})
    act(e, "sail", {"fleet": "b-lc-01", "path": ["0606", "0706", "0705", "0704", "0703"]})


def test_a_rider_rides_one_chariot_a_phase():
    e = _game("C", types={"b-lc-01": "CH", "b-sk-01": "CH"})
    place(e, "b-sk-01", "0611")  # a second chariot
    blue_turn(e, "CHARIOT")
    act(
        e,
        "chariot_move",
        {
            "chariot": "b-lc-01",
            "embark": ["b-sk-02"],
            "path": ["0610"],
            "debark": ["b-sk-02"],
            "debark_to": "0710",
        },
    )
    with pytest.raises(ActionRejected, match="already moved"):
        act(e, "chariot_move", {"chariot": "b-sk-01", "embark": ["b-sk-02"]})


def test_the_scenarios_name_the_francisca_and_bring_fleets():
    """Tours (Viking [4.2]) allows the francisca to the Franks; Paris (Viking [4.4]) has fleets."""
    from campaign_tui.core.engine import Engine
    from rulesets.prestags import carriers, exclusive, plugin

    tours = Engine.create(plugin, "viking-tours", {}, seed=1).state
    franks = [u for u in tours.units.values() if u.type == "AX"]
    assert franks and all(exclusive.francisca_ready(tours, u) for u in franks)
    paris = Engine.create(plugin, "viking-paris", {}, seed=1).state
    assert carriers.fleets_in_play(paris)
    off = Engine.create(plugin, "viking-tours", {"exclusive_rules": False}, seed=1).state
    assert not any(exclusive.francisca_ready(off, u) for u in off.units.values())


def test_a_fleet_follows_the_river_and_the_river_is_asked_once():
    """[V3.13]: two adjacent river hexes on different rivers do not link; a hex whose river the
    map does not name is asked once, as a map fact."""
    e = _game("V", types={"b-lc-01": "VF"})
    act(e, "map_hexes", {"facts": "0610 river river:Seine; 0611 river river:Oise; 0612 river"})
    blue_turn(e, "MOVE")
    with pytest.raises(ActionRejected, match=r"different rivers.*V3\.13"):
        act(e, "sail", {"fleet": "b-lc-01", "path": ["0610", "0611"]})
    act(e, "map_hexes", {"facts": "0611 river river:Seine"})
    with pytest.raises(NeedDecision, match="Which river runs through hex 0612"):
        act(e, "sail", {"fleet": "b-lc-01", "path": ["0610", "0611", "0612"]})
    act(e, "sail", {"fleet": "b-lc-01", "path": ["0610", "0611", "0612"]}, {"map:river:0612": "Seine"})
    assert _loc(e, "b-lc-01") == "0612"
    assert e.state.records("map")["0612"]["river"] == "Seine"  # remembered: never asked again


def test_a_disrupted_fleet_left_on_an_enemy_held_ford_is_eliminated_at_the_end_of_movement():
    """[V3.28]: it may sail into the enemy-held ford; left there disrupted, it and its riders go."""
    e = _game("V", types={"b-lc-01": "VF"})
    act(e, "map_hexes", {"facts": "0610 ford river:Seine"})
    blue_turn(e, "MOVE")
    place(e, "a-bw-02", "0610")
    e.state.units["b-lc-01"].status["disrupted"] = True
    act(e, "sail", {"fleet": "b-lc-01", "path": ["0610"]})
    red = e.state.units["a-bw-02"].side
    before = e.state.ledgers.get(red, {}).get("vp", 0)
    e.advance({})
    assert e.state.units["b-lc-01"].status["state"] == "eliminated"
    assert e.state.ledgers[red]["vp"] > before


def test_a_fleet_sails_its_plotted_course_in_the_simultaneous_game_with_its_riders():
    """[20.0], [22.12] with Viking [3.1]-[3.2]: SL is the fleet's task; only fleets sail; the
    rider goes with it, step by step with the other movers."""
    e = _game("V", types={"b-lc-01": "VF"}, options={"simultaneous": True})
    act(e, "map_hexes", {"facts": RIVER})
    place(e, "b-sk-02", "0609")
    e.state.units["b-sk-02"].status["aboard"] = "b-lc-01"
    act(e, "plot", {"side": "A", "orders": "a-hc-01 -"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 SL 0610 0611 0612; b-sk-01 SL 0508"}, by="B")
    orders = e.state.secrets["B"]["plot"]["orders"]
    assert orders["b-lc-01"]["valid"] and not orders["b-sk-01"]["valid"]
    assert "only fleets sail" in orders["b-sk-01"]["problem"]
    e.advance()
    sim_to(e, "PLOT")
    assert _loc(e, "b-lc-01") == "0612" and _loc(e, "b-sk-02") == "0612"


def test_a_disrupted_fleet_sails_into_an_enemy_held_ford_and_is_lost_in_the_simultaneous_game():
    """[V3.23] a disrupted fleet sails; [V3.28] through an enemy-held ford, and left there it goes."""
    e = _game("V", types={"b-lc-01": "VF"}, options={"simultaneous": True})
    act(e, "map_hexes", {"facts": "0610 ford river:Seine"})
    place(e, "a-bw-02", "0610")
    e.state.units["b-lc-01"].status["disrupted"] = True
    act(e, "plot", {"side": "A", "orders": "a-hc-01 -"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 SL 0610"}, by="B")
    assert e.state.secrets["B"]["plot"]["orders"]["b-lc-01"]["valid"]
    e.advance()
    sim_to(e, "PLOT")
    assert e.state.units["b-lc-01"].status["state"] == "eliminated"


def test_a_chariot_carries_its_rider_along_its_plotted_move_in_the_simultaneous_game():
    """Chariot [1.0], [1.8]: the rider aboard goes where the chariot goes."""
    e = _game("C", types={"b-lc-01": "CH"}, options={"simultaneous": True})
    place(e, "b-sk-01", "0609")
    e.state.units["b-sk-01"].status["aboard"] = "b-lc-01"
    act(e, "plot", {"side": "A", "orders": "a-hc-01 -"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0610"}, by="B")
    e.advance()
    sim_to(e, "PLOT")
    assert _loc(e, "b-lc-01") == "0610" and _loc(e, "b-sk-01") == "0610"
