"""The short way to the first combat at the table (issue 13): the quick set-up stages a
Zhodani strike group within a jump of Jewell, fleets left unplotted hold ("Hold the unplotted
fleets"), the plot form offers only the fleets that plot now, and a bombing with one target
needs no allocation typed."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from rulesets.fifth_frontier_war import candidates as C
from rulesets.fifth_frontier_war import checks, ops
from rulesets.fifth_frontier_war.hexes import jump_distance
from tests.rulesets.fifth_frontier_war.helpers import game, new_engine

EMERALD, CLAN, JEWELL = "1410", "1507", "1510"


def _quick() -> Engine:
    e = new_engine()
    e.perform("gm.quick_setup")
    assert e.state.step == "SETUP_INITIAL_PLOT"
    return e


def _plot(e: Engine, fid: str, side: str = "zhodani") -> dict[int, dict]:
    return ops.plot(e.state, side, fid)


def test_unplotted_fleets_hold_and_written_orders_stay() -> None:
    e = _quick()
    owing = C.plotting_fleets(e.state, "gm")
    assert set(owing) == {"zho-40th", "zho-65th", "zho-68th", "sw-gram", "sw-joyeuse",
                          "vg-gireel"}
    e.perform("plot", {"fleet": "zho-65th", "orders": f"J{EMERALD}"}, by="zhodani")
    assert "zho-65th" in C.plotting_fleets(e.state, "gm")         # turns 2-4 still owed
    e.perform("plot", {"fleet": "zho-40th", "orders": "R, R, R, R"}, by="zhodani")
    assert C.plotting_fleets(e.state, "gm")[-1] == "zho-40th"     # those owing orders first
    with pytest.raises(AdvanceRefused, match="Hold the unplotted fleets"):
        e.advance()
    with pytest.raises(ActionRejected, match="no fleet of yours"):
        e.perform("hold_unplotted", {}, by="imperial")              # surprised: plots nothing
    out = e.perform("hold_unplotted", {}, by="zhodani")
    assert "68th Fleet holds at 0708 on turns 1, 2, 3, 4 (not plotted: no move)" in out.entry.lines
    assert "65th Fleet holds at 1410 on turns 2, 3, 4 (not plotted: no move)" in out.entry.lines
    assert not any(line.startswith("40th Fleet") for line in out.entry.lines)
    assert _plot(e, "zho-65th") == {1: {"order": "J", "hex": EMERALD},
                                    **{u: {"order": "R", "hex": EMERALD} for u in (2, 3, 4)}}
    assert _plot(e, "sw-gram") == {u: {"order": "R", "hex": "1627"} for u in range(1, 6)}
    assert ops.plots_of(e.state, "imperial") == {}
    assert checks.plots_missing(e.state) is None
    with pytest.raises(ActionRejected, match="no fleet of yours"):
        e.perform("hold_unplotted", {}, by="zhodani")
    e.undo(confirm=True)                                            # one undo takes it back
    assert 2 not in _plot(e, "zho-65th") and _plot(e, "sw-gram") == {}


def test_quick_setup_stages_a_strike_group_that_meets_the_214th_on_turn_1() -> None:
    e = _quick()
    g = game(e)
    strike = e.state.formations["zho-40th"]
    assert strike.location == CLAN
    ships = g.fleet_ships("zho-40th")
    assert ships and all(g.face(s).jump >= 3 for s in ships)
    assert g.commander("zho-40th") is not None                     # the senior admiral drawn
    assert any("staged at Clan (1507), on the Jewell border (default)" in line
               for line in e.entries()[-1].lines)
    assert jump_distance(CLAN, JEWELL) == 3
    assert e.state.formations["imp-214th"].location == JEWELL
    e.perform("plot", {"fleet": "zho-40th", "orders": f"J{JEWELL}"}, by="zhodani")
    e.perform("hold_unplotted", {})
    for _ in range(20):
        if e.state.step.startswith("SC"):
            break
        out = e.advance()
    assert e.state.step.startswith("SC")
    assert out.entry.rolls[0].purpose == "Imperial round 1: space fire on 4 factors"
    assert out.entry.rolls[0].table == "T1"


def _to_bombing(e: Engine) -> None:
    """The Cipango colonial squadron (65th Fleet, jump 3) to Emerald, the rest holding."""
    e.perform("plot", {"fleet": "zho-65th", "orders": f"J{EMERALD}"}, by="zhodani")
    e.perform("hold_unplotted", {})
    for _ in range(20):
        if e.state.step == "SB":
            return
        e.advance()
    raise AssertionError(f"no bombing reached: {e.state.step}")


def test_the_first_turn_reaches_emerald_and_one_target_takes_all_the_bombardment() -> None:
    e = _quick()
    _to_bombing(e)
    assert e.state.formations["zho-65th"].location == EMERALD
    assert C.bombers(e.state, "gm") == ["zhodani"]
    assert C.bombers(e.state, "imperial") == []
    out = e.perform("bomb", {"side": "zhodani"})
    assert ("all 3 bombardment factors on the only target, the defence battalions of "
            "Emerald (1410)") in out.entry.lines
    assert out.entry.summary == "Zhodani bomb the defence battalions of Emerald (1410): 3 factors"
    assert out.entry.rolls[0].table == "T4"
    assert C.bombers(e.state, "gm") == []                          # bombed: nobody left


def test_several_targets_need_the_shares_said() -> None:
    e = _quick()
    _to_bombing(e)
    marine = e.state.units["imp-mar-01"]
    marine.location = EMERALD                                       # arrangement: a second target
    with pytest.raises(ActionRejected, match="among: db:1410, imp-mar-01"):
        e.perform("bomb", {"side": "zhodani"})
    out = e.perform("bomb", {"side": "zhodani", "targets": "imp-mar-01:3"})
    assert out.entry.summary == f"Zhodani bomb {marine.label}: 3 factors"


def test_plotting_step_holds_each_side_apart() -> None:
    e = _quick()
    e.perform("hold_unplotted", {})
    for _ in range(60):
        if e.state.step == "P_PLOTTING":
            break
        e.advance()
    assert e.state.step == "P_PLOTTING"
    assert C.plotting_fleets(e.state, "imperial") == ["imp-193rd", "imp-212th", "imp-213th",
                                                      "imp-214th"]
    assert C.plotting_fleets(e.state, "zhodani")[-2:] == ["zho-40th", "zho-68th"]  # plotted
    out = e.perform("hold_unplotted", {}, by="imperial")            # the first Imperial plot
    assert "212th Fleet holds at 2314 on turns 2, 3, 4, 5 (not plotted: no move)" in out.entry.lines
    left = checks.plots_missing(e.state) or ""
    assert "65th Fleet: orders for turn 5" in left and "212th" not in left
    out = e.perform("hold_unplotted", {}, by="zhodani")
    assert "65th Fleet holds at 1109 on turn 5 (not plotted: no move)" in out.entry.lines
    assert checks.plots_missing(e.state) is None
    e.advance()
    assert e.state.step == "END_OF_TURN"


def test_advance_until_due_stops_where_a_side_has_something_to_do() -> None:
    from campaign_tui.core.advancing import Target, advance_until

    e = _quick()
    e.perform("plot", {"fleet": "zho-40th", "orders": f"J{JEWELL}"}, by="zhodani")
    e.perform("hold_unplotted", {})
    done = advance_until(e, Target("due"), hold_rolls=True, stop_at_battles=True)
    assert e.state.step == "T_REPL" and done.why == "decision"     # the movement-order die
    assert "Replacements" not in done.stop                         # nothing to rebuild yet
    e.advance()
    assert e.state.step == "M_XBOAT_1"
    done = advance_until(e, Target("due"), hold_rolls=True, stop_at_battles=True)
    assert (e.state.step, done.why) == ("M_XBOAT_2", "due")
    assert "not commanding a fleet (xboat)" in done.stop
    done = advance_until(e, Target("due"), hold_rolls=True, stop_at_battles=True)
    assert (e.state.step, done.why) == ("C_SELECT_HEX", "battle")
    assert done.stop == "a battle: combat at Jewell (1510)"
    assert [o.entry.step for o in done.outcomes][:2] == ["M_XBOAT_2", "M_SCOUT_1"]


def test_due_names_scouts_replacements_and_guerrillas() -> None:
    from rulesets.fifth_frontier_war import attention

    e = _quick()
    g = game(e)
    scout = next(s for s in g.squadrons(side="imperial") if g.face(s).type == "S")
    scout.formation = None                                          # arrangement: detached
    e.state.vars["roles"] = {"first": "imperial", "second": "zhodani"}

    def due_at(step: str, open_actions: list[str] | None = None) -> str | None:
        e.state._c["meta"]["position"]["step"] = step               # arrangement: the step only
        return attention.due(e.state, open_actions or [])

    assert due_at("M_SCOUT_1") == "1 Imperial scout squadron outside fleets"
    assert due_at("M_SCOUT_2") is None                              # no Zhodani ones
    assert due_at("P_GUERRILLA") == "10 Ine Givar units may change mode"
    assert due_at("M_PLOTTED", ["Load troops"]) is None             # loading alone is not due
    assert due_at("T_REPL") is None
    scout.status["reduced"] = True
    e.state.ledgers.setdefault("imperial", {})["squadron_rp"] = 2
    assert due_at("T_REPL") == "Imperial replacement points for 1 reduced or eliminated squadron"
