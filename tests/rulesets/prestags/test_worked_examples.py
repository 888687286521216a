"""Every worked example of the digest's section 7 (W1-W20), named by its id."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign_tui.core.errors import ActionRejected, NeedDecision
from campaign_tui.core.procedures import FreeResolver
from rulesets.prestags import crt, plugin, strength, victory
from rulesets.prestags.hexmap import GRIDS
from rulesets.prestags.movement import classes_compatible
from tests.rulesets.prestags.helpers import (
    act,
    act_all,
    blue_turn,
    deployed,
    force,
    place,
    sim_to,
    status,
    u,
    until,
)

OPTS = {o.id: o.default for o in plugin.options()}


def column(a: Fraction | int, d: Fraction | int) -> str:
    return crt.odds_column(plugin.tables(), OPTS, Fraction(a), Fraction(d))[0]


def test_W1_bracketed_strength_attacks_full_defends_half():
    """[3.37]: [4] attacks with 4, defends with 2; fractions kept ([3] defends 1½)."""
    att, _ = strength.group_attack(strength.AttackGroup("x", [strength.Attacker("h", "HC", "C", 4)]))
    assert att == 4
    dfn, _ = strength.hex_defence(strength.DefenceHex("y", [strength.Troop("h", "HC", "C", 4, "bracket")]))
    assert dfn == 2
    dfn3, _ = strength.hex_defence(strength.DefenceHex("y", [strength.Troop("m", "MC", "C", 3, "bracket")]))
    assert dfn3 == Fraction(3, 2)


def test_W2_26_against_9_is_two_to_one():
    """[7.32]: 26:9 = 2.89, rounded in the defender's favour to 2-1."""
    assert column(26, 9) == "2-1"


def test_W3_flank_attack_doubles_last():
    """[7.51]: two units of 2 flanking a 4 attack at 8:4, 2-1; attackers on opposite sides
    of the ring cover all six hexes."""
    groups = [
        strength.AttackGroup("n", [strength.Attacker("a", "a", "B", 2)]),
        strength.AttackGroup("s", [strength.Attacker("b", "b", "B", 2)]),
    ]
    total, lines = strength.attack_total(groups, flank=True)
    assert total == 8 and "x2" in lines[-2]
    assert column(total, 4) == "2-1"
    assert strength.flank_covered({0, 3}) and strength.flank_covered({0, 2, 4})
    assert not strength.flank_covered({0, 1}) and not strength.flank_covered({0, 2})


def test_W4_elevation_halves_uphill_class_a_b_attack():
    """[14.12]: attack 5 from a slope into a hilltop is 2½; against 2 that is 1-1."""
    why = strength.elevation_halves("A", "slope", "hilltop")
    assert why
    att, _ = strength.group_attack(
        strength.AttackGroup("x", [strength.Attacker("a", "PS", "A", 5, uphill=why)])
    )
    assert att == Fraction(5, 2)
    assert column(att, 2) == "1-1"
    assert not strength.elevation_halves("C", "slope", "hilltop")  # cavalry is not halved [14.11]


def test_W4_elevation_in_play_before_leader_bonus():
    """[14.13]: the halving comes before the leader bonus (bonus capped at the halved value)."""
    e = deployed({"elevation": True})
    act(e, "map_hexes", {"facts": "0507 clear slope; 0508 clear hilltop"})
    until(e, "MOVE")
    act(e, "move", {"units": ["a-sd-01", "a-sd-02", "a-ldr-01"], "path": ["0507"]})
    until(e, "MELEE")
    out = act(e, "melee", {"attackers": ["a-sd-01", "a-sd-02"], "targets": ["0508"]}, force("-"))
    text = "\n".join(out.entry.lines)
    assert "elevation x1/2 (slope attacking a hilltop [14.11])" in text
    assert "leader bonus +4 (capped at the units' strength)" in text  # 2+2 halved, bonus 6 capped
    assert "attack total 8" in text


def test_W5_facing_flank_defence_of_bracketed_unit():
    """[16.25]: HC [4] defends at 2 from the front and 1 through a flank."""
    front, _ = strength.hex_defence(strength.DefenceHex("y", [strength.Troop("h", "HC", "C", 4, "bracket")]))
    flank, _ = strength.hex_defence(
        strength.DefenceHex("y", [strength.Troop("h", "HC", "C", 4, "bracket")], halvings={"h": ["flank"]})
    )
    assert (front, flank) == (2, 1)


def test_W5_facing_in_play():
    """The same with the Facing rule: an attacker behind the HC halves its defence."""
    e = deployed({"facing": True})
    place(e, "a-hc-02", "0405")
    status(e, "a-hc-01", "facing", 0)  # HC at 0605 faces north
    place(e, "b-sd-01", "0606")  # south of it: through a flank hexside
    status(e, "b-sd-01", "facing", 0)  # and facing it
    blue_turn(e, "MELEE")
    out = act(e, "melee", {"attackers": ["b-sd-01"], "targets": ["0605"]}, force("-"))
    text = "\n".join(out.entry.lines)
    assert "[4] defends at 2" in text and "attacked through a flank hexside [16.21]" in text
    assert "defence total 1" in text


def _melee_setup() -> object:
    e = deployed()
    until(e, "MOVE")
    act(e, "move", {"units": ["a-sd-01", "a-sd-02", "a-ldr-01"], "path": ["0507"]})
    blue_turn(e, "MELEE")
    return e


def test_W6_melee_D_reduces_leader_grade_2_to_3_troops_untouched():
    """[10.3], [10.32]."""
    e = _melee_setup()
    act(e, "melee", {"attackers": ["b-sd-01", "b-sd-02", "b-sd-03"], "targets": ["0507"]}, force("D"))
    assert u(e, "a-ldr-01").status["grade"] == 3
    assert not u(e, "a-sd-01").status["disrupted"] and not u(e, "a-sd-02").status["disrupted"]


def test_W7_melee_D_eliminates_grade_4_leader_troops_still_saved():
    """[10.3], [10.32]: the leader's demise still saves his units that turn."""
    e = _melee_setup()
    status(e, "a-ldr-01", "grade", 4)
    act(e, "melee", {"attackers": ["b-sd-01", "b-sd-02", "b-sd-03"], "targets": ["0507"]}, force("D"))
    assert u(e, "a-ldr-01").status["state"] == "eliminated"
    assert not u(e, "a-sd-01").status["disrupted"]
    assert e.state.ledger("B", "vp") == 1  # a destroyed leader is worth 1 VP (G-9)


def test_W8_fire_E_eliminates_troops_leader_stays():
    """[10.31]."""
    e = deployed()
    act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"}, {"los:a-bw-01:0508": True, **force("E")})
    assert [u(e, x).status["state"] for x in ("b-sd-01", "b-sd-02", "b-sd-03")] == ["eliminated"] * 3
    assert u(e, "b-ldr-01").status["state"] == "active" and u(e, "b-ldr-01").status["grade"] == 3


def test_W9_fire_D_with_leader_does_nothing():
    """[10.31]: troops stacked with a leader ignore a fire D; the leader is untouched."""
    e = deployed()
    out = act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"}, {"los:a-bw-01:0508": True, **force("D")})
    assert not any(u(e, x).status["disrupted"] for x in ("b-sd-01", "b-sd-02", "b-sd-03"))
    assert u(e, "b-ldr-01").status["grade"] == 3
    assert any("not disrupted [10.0] [10.31]" in line for line in out.entry.lines)


def test_W10_higher_level_satisfies_lower_condition():
    """[11.24]: 'Marginal and control of C' holds with a Substantive or Decisive Victory."""
    assert victory.at_least("Substantive", "Marginal") and victory.at_least("Decisive", "Marginal")
    assert not victory.at_least("none", "Marginal")
    for a_vp, lv in ((4, "Substantive"), (9, "Decisive")):
        e = deployed()
        place(e, "a-sd-03", "0507")
        e.perform("gm.set_ledger", {"holder": "A", "resource": "vp", "value": a_vp})
        e.perform("gm.set_ledger", {"holder": "B", "resource": "vp", "value": 2})
        act(e, "agree_end")
        act(e, "judge_victory")
        out = e.state.vars["judgement"]
        assert out["levels"]["A"] == lv and out["winner"] == "A"


def test_W11_victory_point_record_boxes():
    assert victory.vp_record(27) == ("000", "20", "7")
    assert victory.vp_record(134) == ("100", "30", "4")


def test_W12_plot_with_a_pause_is_no_plot():
    """[22.11], [20.4]: three hexes, a pause, two more: illegal; five in a row: legal."""
    e = deployed({"simultaneous": True})
    path = []
    h = "0605"
    for _ in range(5):
        h = GRIDS["odd-q"].neighbour(h, 5)
        path.append(h)
    paused = " ".join([*path[:3], "pause:2", *path[3:]])
    act(e, "plot", {"side": "A", "orders": f"a-hc-01 MV {paused}; a-hc-02 MV {' '.join(path)}"}, by="A")
    orders = e.state.secrets["A"]["plot"]["orders"]
    assert orders["a-hc-01"]["valid"] is False and "pause" in orders["a-hc-01"]["problem"]
    assert orders["a-hc-02"]["valid"] is True


def test_W13_fired_unit_cannot_defensive_fire_but_still_stops_movement():
    """[6.43], [6.44]."""
    e = deployed()
    act(e, "fire", {"firers": ["a-bw-02"], "target": "0408"}, {"los:a-bw-02:0408": True, **force("-")})
    blue_turn(e, "MOVE")
    place(e, "b-lc-01", "0403")
    # 0405 is next to the BW in 0406: the LC must stop there
    with pytest.raises(ActionRejected, match="next to an enemy fire unit"):
        act(e, "move", {"units": ["b-lc-01"], "path": ["0404", "0405", "0505"]})
    act(e, "move", {"units": ["b-lc-01"], "path": ["0404", "0405"]})
    until(e, "DEF_FIRE")
    with pytest.raises(ActionRejected, match=r"fired in the previous Player-Turn \(1\) \[6.12\]"):
        act(e, "defensive_fire", {"firers": ["a-bw-02"], "target": "0405"})


def test_W14_foot_fire_mixes_with_A_or_B_never_both():
    """[5.35], [5.32]."""
    tables = plugin.tables()
    assert classes_compatible(tables, ["Ff", "A"]) == ""
    assert classes_compatible(tables, ["Ff", "B"]) == ""
    assert "Class A and Class B" in classes_compatible(tables, ["Ff", "A", "B"])


def _sim_melee() -> object:
    e = deployed({"simultaneous": True})
    place(e, "a-sd-03", "0507")
    place(e, "a-sd-04", "0507")
    return e


def test_W15a_unit_hit_in_the_same_phase_still_attacks():
    """[20.21]: both sides' melee attacks are made, though each disrupts the other."""
    e = _sim_melee()
    act(e, "plot", {"side": "A", "orders": "a-sd-03 ML 0508; a-sd-04 ML 0508"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-sd-01 ML 0507; b-sd-02 ML 0507"}, by="B")
    sim_to(e, "MELEE_RES")
    out = act(e, "resolve_melee", {}, {**force("D", 1), **force("D", 2)})
    assert len(out.entry.rolls) == 2
    assert u(e, "a-sd-03").status["disrupted"] and u(e, "b-sd-01").status["disrupted"] is False  # leader
    assert u(e, "b-ldr-01").status["grade"] == 4


def test_W15b_unit_disrupted_in_an_earlier_phase_cannot_carry_out_its_plot():
    """[20.22]: disrupted by fire, the unit plotted to melee does not attack."""
    e = _sim_melee()
    act(e, "plot", {"side": "A", "orders": "a-sd-03 ML 0508; a-sd-04 ML 0508"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-sk-01 OF 0507"}, by="B")
    until(e, "FIRE_RES")
    act(e, "resolve_fire", {}, force("D"))
    assert u(e, "a-sd-03").status["disrupted"] and u(e, "a-sd-04").status["disrupted"]
    e.advance()
    out = act(e, "resolve_melee")
    assert not out.entry.rolls
    assert any("disrupted in an earlier phase [20.22]" in line for line in out.entry.lines)


def test_W16_one_die_two_results_on_two_hexes():
    """[8.24]: the hex holding a disrupted unit reads the die +1, the other the plain die."""
    r = FreeResolver(plugin.tables(), OPTS, dice=[3])
    _col, readings, roll = crt.resolve(r, OPTS, Fraction(2), Fraction(1), [("H1", True), ("H2", False)], "x")
    assert roll.natural == 3
    assert [(x.hexes, x.row, x.result) for x in readings] == [(["H1"], 4, "D"), (["H2"], 3, "D")]
    r = FreeResolver(plugin.tables(), OPTS, dice=[6])
    _col, readings, _roll = crt.resolve(r, OPTS, Fraction(2), Fraction(1), [("H1", True), ("H2", False)], "x")
    assert [(x.row, x.result) for x in readings] == [(7, "E"), (6, "D")]


def test_W16_two_hex_melee_in_play():
    e = deployed()
    place(e, "b-sd-03", "0408")
    place(e, "b-ax-02", "0509")
    status(e, "b-ax-01", "disrupted", True)
    place(e, "a-sd-01", "0507")
    place(e, "a-sd-02", "0507")
    place(e, "a-ldr-01", "0507")
    until(e, "MELEE")
    out = act_all(
        e, "melee", {"attackers": ["a-sd-01", "a-sd-02"], "targets": ["0508", "0408"]}, {"roll1": 3}
    )
    shown = out.entry.summary
    assert "0408 row 4" in shown and "0508 row 3" in shown


def test_W17_plotted_melee_unit_defends_at_full_bracketed_value():
    """[23.3]: a [4] HC plotted ML defends at 2 (not halved) and attacks at 4."""
    e = deployed({"simultaneous": True})
    place(e, "a-hc-01", "0607")
    act(e, "plot", {"side": "A", "orders": "a-hc-01 ML 0608"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-sk-02 ML 0607"}, by="B")
    sim_to(e, "MELEE_RES")
    out = act(e, "resolve_melee", {}, {**force("-", 1), **force("-", 2)})
    text = "\n".join(out.entry.lines)
    assert "Red HC 1: 4" in text and "Red HC 1: [4] defends at 2" in text
    assert "plotted to move" not in text


def test_W18_six_stacks_around_one_hex_make_one_attack():
    """[7.21]: all strengths summed, whatever their class; here it is also a flank attack."""
    e = deployed()
    ring = [GRIDS["odd-q"].neighbour("0608", d) for d in range(6)]
    red = ["a-sd-01", "a-sd-02", "a-sd-03", "a-sd-04", "a-hc-01", "a-hc-02"]
    for uid in ("b-sd-01", "b-sd-02", "b-sd-03", "b-ldr-01", "b-lc-01"):
        place(e, uid, "0100")
    for uid, h in zip(red, ring, strict=True):
        place(e, uid, h)
    until(e, "MELEE")
    out = act(e, "melee", {"attackers": red, "targets": ["0608"]}, {**force("E"), "advance:0608:1": ""})
    text = "\n".join(out.entry.lines)
    assert "flank attack: 24 x2 = 48" in text
    assert u(e, "b-sk-02").status["state"] == "eliminated"


def test_W19_concession_gives_at_least_substantive_whatever_follows():
    """[15.1]."""
    e = deployed()
    act(e, "concede", {"side": "A"})
    e.perform("gm.set_ledger", {"holder": "A", "resource": "vp", "value": 30})
    act(e, "agree_end")
    act(e, "judge_victory")
    out = e.state.vars["judgement"]
    assert out["winner"] == "B" and out["levels"]["B"] == "Substantive"


def test_W20_line_of_sight_from_the_map_else_a_gm_ruling():
    """[6.34]-[6.38]: across hexes whose terrain is known the map answers (issue 12); where the
    map does not say, the line of sight is asked and logged."""
    e = deployed()
    out = act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"})  # 0507 between: open, empty
    assert "rulings" not in out.entry.tags
    assert any("line of sight to 0508 clear (map)" in line for line in out.entry.lines)
    e = deployed()
    act(e, "map_hexes", {"facts": "0507 woods"})
    with pytest.raises(ActionRejected, match="no line of sight"):
        act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"})
    e = deployed()
    e.perform("gm.set_var", {"name": "default_terrain", "value": "null"})  # the map says nothing
    with pytest.raises(NeedDecision) as exc:
        act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"},
            {"terrain:0506": "clear", "terrain:0508": "clear"})
    assert exc.value.decision.kind == "ruling" and exc.value.decision.id == "los:a-bw-01:0508"
    answers = {"terrain:0506": "clear", "terrain:0508": "clear", "los:a-bw-01:0508": True}
    out = act(e, "fire", {"firers": ["a-bw-01"], "target": "0508"}, answers)
    assert "los:a-bw-01:0508" in out.entry.tags["rulings"]
