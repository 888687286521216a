"""Issue 16, "The rules, complete": control through every hex moved through, the flank
question, skirmisher range, procedures honouring the optional rules and taking the tables'
own words."""

from __future__ import annotations

import json
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest

from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.model import State
from campaign_tui.core.procedures import FreeResolver
from rulesets.prestags import combat, plugin
from rulesets.prestags.movement import controller
from tests.rulesets.prestags.helpers import act, act_all, blue_turn, deployed, place, sim_to, status, until

OPTS = {o.id: o.default for o in plugin.options()}


def calc(name: str, options: dict[str, Any] | None = None, **params: Any) -> Any:
    r = FreeResolver(plugin.tables(), {**OPTS, **(options or {})})
    out = plugin.procedure(name).fn(r, **params)
    out.lines = r.lines + out.lines
    return out


# -- digest 5.11 / [11.3]: control after every change of position ------------------------------
def test_standard_move_takes_control_of_every_hex_moved_through():
    e = deployed()
    until(e, "MOVE")
    act(e, "move", {"units": ["a-hc-01", "a-hc-02"], "path": ["0604", "0603"]})
    assert controller(e.state, "0604") == "A", "a hex moved through changes control [11.3]"
    assert controller(e.state, "0603") == "A"


def test_simultaneous_move_takes_control_of_every_hex_moved_through():
    e = deployed({"simultaneous": True})
    act(e, "plot", {"side": "A", "orders": "a-hc-01 MV 0604 0603"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 -"}, by="B")
    sim_to(e, "MOVE_RES")
    act(e, "resolve_movement")
    assert e.state.unit("a-hc-01").location == "hex:0603"
    assert controller(e.state, "0604") == "A", "a hex moved through changes control [11.3]"


# -- seen at the table: the flank question for one attacker ------------------------------------
class _Ctx:
    def __init__(self) -> None:
        self.options = {**OPTS, "hex_grid": "gm"}  # no grid: the GM rules on the ring
        self.state = State()
        self.state.options.update(self.options)
        self.asked: list[str] = []
        self.lines: list[str] = []

    def ruling(self, key: str, prompt: str, **_: Any) -> bool:
        self.asked.append(prompt)
        return True

    def explain(self, line: str) -> None:
        self.lines.append(line)


def test_a_single_attacking_hex_is_never_a_flank_attack_and_is_not_asked():
    """Digest 5.5: one ring hex covers three of the six, so a flank attack needs two hexes."""
    ctx = _Ctx()
    assert combat.is_flank_attack(ctx, ["0508"], ["0507", "0507"], "auto") is False  # type: ignore[arg-type]
    assert ctx.asked == []
    with pytest.raises(ActionRejected, match="at least two"):
        combat.is_flank_attack(ctx, ["0508"], ["0507"], "yes")  # type: ignore[arg-type]
    assert combat.is_flank_attack(ctx, ["0508"], ["0507", "0509"], "auto") is True  # type: ignore[arg-type]
    assert len(ctx.asked) == 1, "two attacking hexes without a grid: the GM is asked"


# -- seen at the table: the skirmisher's range ------------------------------------------------
def test_skirmisher_reads_fire_2_range_1_and_the_refusal_says_so():
    """[3.4] (seed RECON-H and the counter scan): SK is [2] Ff 5 with fire 2, range 1."""
    e = deployed()
    assert plugin.unit_stats(e.state, e.state.unit("b-sk-01")).startswith("F2 R1 ")
    blue_turn(e)  # Blue's own turn: b-sk-02 in 0608 fires at 0606, two hexes away
    place(e, "a-hc-01", "0606")
    with pytest.raises(ActionRejected, match=r"range of 1 .*fire 2, range 1"):
        act(e, "fire", {"firers": ["b-sk-02"], "target": "0606"}, by="B")


# -- procedures honour the optional rules ----------------------------------------------------
def test_elevation_procedure_follows_the_elevation_option():
    off = calc("elevation", klass="B", attacker="slope", defender="slope")
    assert off.value is False and "off" in off.summary
    on = calc("elevation", {"elevation": True}, klass="B", attacker="slope", defender="slope")
    assert on.value is True


def test_melee_procedures_follow_facing_and_elevation():
    assert calc("melee_defence", units="[4]", flank=True).value == "2"  # no Facing: no flank halving
    assert calc("melee_defence", {"facing": True}, units="[4]", flank=True).value == "1"  # [16.25]
    assert calc("melee_attack", {"facing": True}, groups="2|2", flank=True).value == "4"  # [16.24]
    assert calc("melee_attack", groups="5^").value == "5"  # no Elevation: no halving
    assert calc("melee_attack", {"elevation": True}, groups="5^").value == "2½"


# -- procedures take the tables' own words ----------------------------------------------------
def test_melee_defence_reads_the_terrain_and_types_from_the_tables():
    out = calc("melee_defence", units="SD,[4]", terrain="woods", leaders="L2")
    assert out.value == "18"  # (4 + 2) x2 woods [7.6], + grade 2 bonus 6 [10.11]
    assert any("woods" in line for line in out.lines)
    assert calc("melee_defence", units="4", terrain="2").value == "8"  # the old form still works
    with pytest.raises(InvalidInput, match="no terrain"):
        calc("melee_defence", units="4", terrain="jungle")


def test_stacking_by_unit_type():
    assert calc("stacking", classes="2SD,BW,L", limit=3).value is True
    out = calc("stacking", classes="SD,PP", limit=3)
    assert out.value is False and "Class A and Class B" in out.summary
    assert calc("stacking", classes="4SD", limit=3).value is False
    assert calc("stacking", classes="A,Ff,E", limit=3).value is True  # classes still work


# -- panic in the simultaneous game [13.0] ------------------------------------------------------
def test_panicked_units_must_flee_in_the_simultaneous_game():
    """[13.0], digest 5.9: a panicked unit flees in each of its side's Movement Phases; in the
    simultaneous game that is the Movement Resolution Phase, and its plot is void."""
    e = deployed({"simultaneous": True, "panic": True})
    status(e, "b-lc-01", "panicked", True)
    act(e, "plot", {"side": "A", "orders": "a-hc-01 MV 0604"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0608"}, by="B")
    sim_to(e, "MOVE_RES")
    assert "flee" in e.status().prompt
    with pytest.raises(ActionRejected, match="must flee first"):
        act(e, "resolve_movement")
    act_all(e, "flee", {"unit": "b-lc-01", "path": ["0610"]})
    out = act(e, "resolve_movement")
    assert e.state.unit("b-lc-01").location == "hex:0610", "the flight stands, the plot is void"
    assert "its flight replaces its plot" in "\n".join(out.entry.lines)
    assert e.state.unit("a-hc-01").location == "hex:0604"


# -- the games' exclusive rules, automated (digest 4.5) -------------------------------------------
def _set_var(e: Any, name: str, value: Any) -> None:
    e.perform("gm.set_var", {"name": name, "value": json.dumps(value)})


def _melee(e: Any) -> Any:
    return act(
        e,
        "melee",
        {"attackers": ["a-sd-03", "a-sd-04"], "targets": ["0408"]},
        {"advance:0408:1": "", "half:0408": "b-ax-01,b-ax-02"},
    )


def _melee_column(e: Any) -> tuple[str, str]:
    out = _melee(e)
    return out.entry.summary.split(", ")[1].split(":")[0], "\n".join(out.entry.lines)


def _ready_to_melee(exclusive: dict[str, Any] | None) -> Any:
    e = deployed()
    place(e, "a-sd-03", "0407")
    place(e, "a-sd-04", "0407")
    place(e, "a-ldr-01", "0407")
    if exclusive is not None:
        _set_var(e, "exclusive", exclusive)
    until(e, "MELEE")
    return e


LABELS = ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1"]


def test_alexander_shifts_his_stacks_melee_two_columns():
    """Spartan [3.1] (EXT-OCR): units stacked with Alexander shift the odds 2 columns their way."""
    plain, _ = _melee_column(_ready_to_melee(None))
    column, text = _melee_column(_ready_to_melee({"alexander": "a-ldr-01"}))
    assert LABELS.index(column) == min(8, LABELS.index(plain) + 2)
    assert "Alexander" in text and "[S3.1]" in text


def test_alexander_scenarios_name_him():
    from campaign_tui.core.engine import Engine

    e = Engine.create(plugin, "spartan-issus", {}, seed=1)
    assert e.state.vars["exclusive"] == {"alexander": "a-ldr-01", "darius": "b-ldr-01"}
    assert e.state.unit("a-ldr-01").status["grade"] == 1
    off = Engine.create(plugin, "spartan-issus", {"exclusive_rules": False}, seed=1)
    from rulesets.prestags import exclusive

    assert exclusive.rules(off.state) == {}


def test_viking_ferocity_column_then_die():
    """Viking [3.6]-[3.8] (EXT-OCR): the first melee Player-Turn +1 column; later +1 on the
    die, never above 6."""
    plain, _ = _melee_column(_ready_to_melee(None))
    column, text = _melee_column(_ready_to_melee({"ferocity": "A"}))
    assert LABELS.index(column) == min(8, LABELS.index(plain) + 1) and "[V3.6]" in text
    e = _ready_to_melee({"ferocity": "A"})
    _set_var(e, "ferocity_first", -1)  # the Vikings meleed in an earlier Player-Turn
    out = _melee(e)
    assert plain in out.entry.summary and "[V3.7]" in "\n".join(out.entry.lines)
    roll = out.entry.rolls[-1]
    kept = 0 if roll.dice == [6] else 1
    assert ("exclusive rule, within 1-6", kept) in [tuple(m) for m in roll.modifiers]


def test_ferocity_die_modifier_stays_within_one_to_six():
    from campaign_tui.core.procedures import FreeResolver as FR
    from rulesets.prestags import crt

    for die, mod, row in ((6, 1, 6), (3, 1, 4), (1, -1, 1), (4, -1, 3)):
        r = FR(plugin.tables(), OPTS, dice=[die])
        two_to_one = (Fraction(2), Fraction(1))
        _c, readings, _roll = crt.resolve(r, OPTS, *two_to_one, [("h", False)], "t", capped_mod=mod)
        assert readings[0].row == row
    r = FR(plugin.tables(), OPTS, dice=[6])
    _c, readings, _roll = crt.resolve(r, OPTS, Fraction(2), Fraction(1), [("h", True)], "t", capped_mod=1)
    assert readings[0].row == 7  # the ferocity cap is at 6; the disruption +1 still counts [8.2]


def test_legion_bc_fires_and_still_melees():
    from rulesets.prestags import exclusive

    legion = SimpleNamespace(vars={"game": "L"}, options=dict(OPTS))
    assert exclusive.fires_and_melees(legion, "BC")  # type: ignore[arg-type]
    assert not exclusive.fires_and_melees(SimpleNamespace(vars={"game": "V"}, options=OPTS), "BC")  # type: ignore[arg-type]


def test_spartan_range_increment_from_a_hilltop():
    """Spartan [3.3] (EXT-SCAN): a fire unit on a hilltop firing at a lower hex has one more
    hex of range; a skirmisher (range 1) then reaches 2 hexes."""
    e = deployed()
    _set_var(e, "game", "S")
    act(e, "map_hexes", {"facts": "0608 clear hilltop; 0606 clear ground"})
    blue_turn(e)
    place(e, "a-hc-01", "0606")
    out = act_all(e, "fire", {"firers": ["b-sk-02"], "target": "0606"})
    assert "[S3.3]" in "\n".join(out.entry.lines)


# -- every rule reachable: what the audit added ----------------------------------------------------
def test_entry_cost_from_the_tec_and_the_prohibitions():
    """Digest 5.3: [5.11], [5.51], [5.61], [5.62] and the exclusive prohibitions."""
    assert calc("entry_cost", terrain="woods").value == "3"
    assert calc("entry_cost", terrain="woods", road=True).value == "1"
    assert calc("entry_cost", terrain="clear", elevation="slope").value == "2"
    assert calc("entry_cost", terrain="clear", elevation="hilltop", from_slope=True).value == "2"
    assert calc("entry_cost", terrain="river").value is None
    assert calc("entry_cost", terrain="woods", klass="A", game="S").value is None
    assert calc("entry_cost", terrain="woods", klass="B", game="S").value == "3"


def test_unit_capability_chart_for_a_gm():
    """[5.39], Yeoman [8.21]: MS and SD attacking a PP: it defends at 4; LC may not attack it."""
    assert calc("capability", game="Y", defender="PP", attackers="MS,SD").value == "4"
    assert calc("capability", game="Y", defender="PP", attackers="LC").value == "P"
    assert calc("capability", game="S", defender="SD", attackers="HC,SD").value == "x½"
    assert calc("capability", game="C", defender="BW", attackers="MC").value == "x1"


def test_combat_takes_the_ferocity_die_modifier():
    r = FreeResolver(plugin.tables(), OPTS, dice=[6])
    assert plugin.procedure("combat").fn(r, attack="2", defence="1", ferocity=1).value == "D"  # row 6, not 7
    r = FreeResolver(plugin.tables(), OPTS, dice=[3])
    assert plugin.procedure("combat").fn(r, attack="2", defence="1", ferocity=1).value == "D"  # row 4


def test_optional_rule_procedures_answer_only_with_their_rule_on():
    assert calc("retreat", defender_ma="9", attacker_mas="4").value is False
    assert calc("retreat", {"retreat_before_combat": True}, defender_ma="9", attacker_mas="4").value is True
    assert calc("contact", result="-").value is False
    assert calc("contact", {"contact": True}, result="-").value is True
    assert calc("panic", a_level=10, b_level=9, a_lost=10, b_lost=3).value is None
    assert calc("panic", {"panic": True}, a_level=10, b_level=9, a_lost=10, b_lost=3).value == "A"


def test_darius_is_worth_30_vp_and_an_enemy_next_to_him_panics_his_army():
    """Spartan [3.22] (EXT-OCR)."""
    from rulesets.prestags import results
    from rulesets.prestags.common import info

    e = deployed({"panic": True})
    _set_var(e, "exclusive", {"darius": "b-ldr-01"})
    lines: list[str] = []
    ctx = SimpleNamespace(state=e.state, options=e.state.options, explain=lines.append)
    assert results.unit_vp(ctx, info(e.state, plugin, "b-ldr-01")) == 30  # type: ignore[arg-type]
    assert results.unit_vp(ctx, info(e.state, plugin, "a-ldr-01")) == 1  # type: ignore[arg-type]
    until(e, "MOVE")
    assert not e.state.vars.get("panic")
    out = act(e, "move", {"units": ["a-sd-01"], "path": ["0507"]})  # next to Darius in 0508
    assert e.state.vars["panic"]["side"] == "B"
    assert "[S3.22]" in "\n".join(out.entry.lines)


# -- Chariot [1.0]-[1.9] (digest 4.5, EXT-SCAN): a chariot stops on entering a stream hex ----------
def _chariot_on_a_stream(options: dict[str, Any] | None = None) -> Any:
    e = deployed(options)
    act(e, "map_hexes", {"facts": "0604 stream"})
    _set_var(e, "game", "C")
    e.state.units["a-hc-01"].type = "CH"  # a chariot in the training battle
    until(e, "MOVE")
    return e


def test_a_chariot_must_stop_on_entering_a_stream_hex():
    e = _chariot_on_a_stream()
    with pytest.raises(ActionRejected, match="stream hex: a chariot must stop"):
        act(e, "move", {"units": ["a-hc-01"], "path": ["0604", "0603"]})
    act(e, "move", {"units": ["a-hc-02"], "path": ["0604", "0603"]})  # not a chariot: moves on
    act(e, "move", {"units": ["a-hc-01"], "path": ["0604"]})  # the chariot stops there


def test_the_chariot_stream_stop_needs_the_exclusive_rules():
    e = _chariot_on_a_stream({"exclusive_rules": False})
    act(e, "move", {"units": ["a-hc-01"], "path": ["0604", "0603"]})
    assert str(e.state.units["a-hc-01"].location).endswith("0603")


def test_chariot_passenger_and_shared_movement_allowance():
    """Chariot [1.0]-[1.9]: one BW, IB or SK aboard, leaders free; MA 9 for both phases."""
    assert calc("chariot", carried=["BW", "L2"], chariot_phase_mp=4).value == 5
    assert calc("chariot").value == 9
    with pytest.raises(InvalidInput, match="only a BW, IB or SK"):
        calc("chariot", carried=["SD"])
    with pytest.raises(InvalidInput, match="carries one"):
        calc("chariot", carried=["BW", "SK"])


def test_francisca_and_viking_fleets():
    """Viking [1.0] and [3.1]-[3.5] (EXT-OCR)."""
    assert calc("francisca", distance=1).value == 3
    assert calc("francisca", distance=2).value == 0
    assert calc("francisca", distance=1, used=True).value == 0
    fleet = calc("viking_fleet", hexes=4, unmoor=True, loads=1, moor=True, carried=3)
    assert fleet.value == 18 and "more than the fleet's MA of 15" in fleet.summary
    assert "of 15" in calc("viking_fleet", hexes=8, unmoor=True, loads=1).summary  # 15 MP exactly
    assert "MA of 7" in calc("viking_fleet", hexes=8, disrupted=True).summary
    with pytest.raises(InvalidInput, match="0 to 3"):
        calc("viking_fleet", carried=4)
