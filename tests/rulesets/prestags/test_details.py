"""Rules details in play: terrain costs and effects, exclusive-rule charts, elevation, facing,
the die-7 policy and other options."""

from __future__ import annotations

import pytest

from campaign_tui.core.errors import ActionRejected
from tests.rulesets.prestags.helpers import act, act_all, blue_turn, deployed, force, place, status, u, until


def test_road_slope_and_hilltop_costs():
    """[5.51], [5.61], [5.62]: road 1 MP through a road hexside; slope 2; slope to hilltop
    the terrain's cost plus 1 (EXT TEC)."""
    e = deployed()
    act(e, "map_hexes", {"facts": "0604 clear road; 0603 woods road; 0602 clear slope; 0601 clear hilltop"})
    place(e, "a-hc-01", "0605")
    until(e, "MOVE")
    out = act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0604", "0603+road", "0602", "0601"]})
    lines = "\n".join(out.entry.lines)
    assert "0604: 1 MP (clear)" in lines and "0603: 1 MP (road to road" in lines
    assert (
        "0602: 2 MP (slope hex [5.61])" in lines
        and "0601: 2 MP (clear hilltop from a slope, +1 [5.62])" in lines
    )
    assert "(6 of 7 MP)" in out.entry.summary


def test_impassable_terrain_and_game_prohibitions():
    e = deployed()
    act(e, "map_hexes", {"facts": "0604 river; 0704 swamp"})
    e.perform("gm.set_var", {"name": "game", "value": '"Y"'})
    until(e, "MOVE")
    with pytest.raises(ActionRejected, match="river may not be entered"):
        act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0604"]})
    with pytest.raises(ActionRejected, match="Class C may not enter swamp"):
        act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0704"]})


def test_foot_fire_cannot_fire_from_a_stream():
    """[6.33]."""
    e = deployed()
    act(e, "map_hexes", {"facts": "0406 stream"})
    with pytest.raises(ActionRejected, match=r"may not fire from stream \[6.33\]"):
        act(e, "fire", {"firers": ["a-bw-02"], "target": "0408"}, {"los:a-bw-02:0408": True})


def test_terrain_doubles_the_defence_and_halves_an_attacker_in_a_stream():
    """[7.6] with the EXT TEC: woods x2 for the defender; a unit attacking out of a stream x1/2."""
    e = deployed()
    act(e, "map_hexes", {"facts": "0408 woods; 0407 stream"})
    place(e, "a-sd-03", "0407")
    place(e, "a-sd-04", "0407")
    place(e, "b-ax-02", "0100")
    place(e, "b-sk-01", "0100")
    until(e, "MELEE")
    out = act(e, "melee", {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]}, force("-"))
    text = "\n".join(out.entry.lines)
    assert "terrain woods x2" in text and "terrain stream x½ -> 2" in text and "4:6 -> 1-2" in text


def test_slope_units_of_class_a_b_ignore_disruption():
    """[14.31], [14.32]: with Elevation, A/B troops on a slope ignore a D; the others do not."""
    e = deployed({"elevation": True})
    act(e, "map_hexes", {"facts": "0408 clear slope; 0407 clear"})
    place(e, "a-sd-03", "0407")
    place(e, "a-sd-04", "0407")
    place(e, "b-ax-02", "0100")
    until(e, "MELEE")
    act(e, "melee", {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]}, force("D"))
    assert not u(e, "b-ax-01").status["disrupted"] and u(e, "b-sk-01").status["disrupted"]


def test_yeoman_capability_chart_sets_defence_and_forbids_some_attacks():
    """Yeoman [8.2], [8.21], [8.22] (EXT-SCAN): LC/MC may not attack PP; SD defends at 2
    against HC."""
    e = deployed({"unit_capability": True})
    e.perform("gm.set_var", {"name": "game", "value": '"Y"'})
    place(e, "b-sd-01", "0606")
    until(e, "MELEE")
    out = act(e, "melee", {"attackers": ["a-hc-01", "a-hc-02"], "targets": ["0606"]}, force("-"))
    assert "unit capability chart: defends at 2" in "\n".join(out.entry.lines)


def test_chariot_capability_chart_multiplies():
    e = deployed({"unit_capability": True})
    e.perform("gm.set_var", {"name": "game", "value": '"C"'})
    place(e, "a-sd-03", "0407")
    for uid in ("b-ax-01", "b-ax-02", "b-sk-01"):
        place(e, uid, "0100")
    e.perform("gm.add_unit", {"type": "MI", "side": "B", "id": "b-mi-x", "location": "hex:0408"})
    until(e, "MELEE")
    out = act(e, "melee", {"attackers": ["a-sd-03"], "targets": ["0408"]}, force("-"))
    text = "\n".join(out.entry.lines)
    assert "unit capability chart x½ -> 1 [5.39]" in text and "defence total 1" in text


def test_range_effects_reduce_fire_at_long_range():
    """Chariot [3.1]: BW fires 2 at one hex, 1 at two."""
    e = deployed({"range_effects": True})
    act(e, "map_hexes", {"facts": "0508 stream"})
    out = act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"}, {"los:a-bw-01:0508": True, **force("-")})
    assert "range 2 -> fire strength 1 (range effects)" in "\n".join(out.entry.lines)


def test_facing_limits_movement_and_turns_cost_a_movement_point():
    """[16.0], [16.11]: Red faces south (3); north is behind it."""
    e = deployed({"facing": True})
    until(e, "MOVE")
    with pytest.raises(ActionRejected, match="front"):
        act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0604"]})
    out = act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0604", "0603"], "start_facing": 0})
    assert "(3 of 7 MP)" in out.entry.summary and u(e, "a-hc-01").status["facing"] == 0


def test_facing_fire_only_through_the_front():
    """[16.31]."""
    e = deployed({"facing": True})
    status(e, "a-bw-01", "facing", 0)
    with pytest.raises(ActionRejected, match=r"front hexsides \[16.31\]"):
        act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"}, {"los:a-bw-01:0508": True})


def test_die_seven_policy():
    """G-3: row 7 by default; clamp6 reads a modified 7 as 6."""
    for policy, result in (("row7", "E"), ("clamp6", "D")):
        e = deployed({"die7_policy": policy})
        status(e, "b-ax-01", "disrupted", True)
        place(e, "b-ax-02", "0100")
        place(e, "b-sk-01", "0100")
        place(e, "a-sd-03", "0407")
        place(e, "a-sd-04", "0407")
        until(e, "MELEE")
        out = act_all(e, "melee", {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]}, {"roll1": 6})
        assert out.entry.summary.endswith(f"-> {result}"), policy


def test_fire_advance_option_lets_adjacent_firers_in():
    """G-13."""
    e = deployed({"fire_advance": True})
    blue_turn(e, "FIRE")
    place(e, "b-sk-01", "0606")
    act(e, "fire", {"firers": ["b-sk-01"], "target": "0605"}, {**force("E"), "advance:0605:2": "b-sk-01"})
    assert u(e, "b-sk-01").location == "hex:0605" and u(e, "a-hc-01").status["state"] == "eliminated"


def test_panicked_defender_defends_at_half():
    e = deployed({"panic": True})
    status(e, "b-ax-01", "panicked", True)
    place(e, "a-sd-03", "0407")
    until(e, "MELEE")
    out = act(e, "melee", {"attackers": ["a-sd-03"], "targets": ["0408"]}, force("-"))
    assert "Blue AX 1: x1/2 (panicked [13.0]) -> 1½" in "\n".join(out.entry.lines)


def test_road_fire_protection_option():
    e = deployed({"road_fps": "chart"})
    act(e, "map_hexes", {"facts": "0508 clear road"})
    out = act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"}, {"los:a-bw-01:0508": True, **force("-")})
    assert "Fire Protection Strength of 0508 (road): 2" in "\n".join(out.entry.lines)
