"""Issue 16, "The rules, complete": control through every hex moved through, the flank
question, skirmisher range, procedures honouring the optional rules and taking the tables'
own words."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.procedures import FreeResolver
from rulesets.prestags import combat, plugin
from rulesets.prestags.movement import controller
from tests.rulesets.prestags.helpers import act, act_all, deployed, place, sim_to, status, until

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
        self.options = dict(OPTS)  # hex_grid "gm": no grid, the GM rules on the ring
        self.state = SimpleNamespace(options=self.options)
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
    until(e, "MOVE")
    e.advance()
    # Blue's own turn: b-sk-02 in 0608 fires at 0606, two hexes away
    for _ in range(12):
        if e.state.step == "FIRE" and e.state.vars["roles"]["phasing"] == "B":
            break
        e.advance()
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
