"""Issue 16, "The rules, complete": the T-15 '*' dock hit, engagement range and break-off ties,
screens of unaroused Kafers and docked ships, the boarding order of F-23, Week 0 orders and
battle results that name the side."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.procedures import FreeResolver
from rulesets.star_cruiser_lite import plugin
from rulesets.star_cruiser_lite import rules_ground as rg

from .helpers import battle, engine, place, resolver, set_var, to_step


def _calc(name: str, *dice: int, **params: object) -> tuple[object, list[str], int]:
    r = resolver(*dice)
    out = plugin.procedure(name).fn(r, **params)
    return out.value, r.lines + out.lines, len(r.rolls)


# -- T-15 '*' ---------------------------------------------------------------------------------
def test_calc_damage_location_rolls_the_docked_ships_damage():
    """T-15 '*' / F-18: a Repair Bay hit sends 1D6 points to the docked ship, each on the Ship
    column."""
    value, lines, n = _calc("damage_location", 2, 4, 1, 3, 9, 9, points=1, target="facility", docked=True)
    assert value == ["repair*"]
    assert n == 6, "1D10 location, 1D6 points, four Ship-column rolls"
    text = "\n".join(lines)
    assert "1D6 = 4" in text and "sn, sc, df, df" in text
    value, lines, n = _calc("damage_location", 7, points=1, target="facility")
    assert value == ["fighters*"] and n == 1
    assert any("T-15 *" in line and "1D6" in line for line in lines), "the rule is shown"


def test_a_hit_on_the_repair_bay_in_battle_damages_the_docked_ship():
    e = engine(seed=5)
    place(e, "KAF-1", "BCV")
    to_step(e, "W.ACTIONS")
    e.perform("gm.set_status", {"unit": "ame-mf-2", "field": "docked", "value": json.dumps("FRA-F1")})
    battle(e, ["KAF-1"], ["AME-2"], "BCV", facilities=["FRA-F1"])
    e.advance()
    b = json.loads(json.dumps(e.state.vars["battle"]))
    assert b["units"]["ame-mf-2"]["role"] == "docked"
    b["pending"] = {"FRA-F1": ["repair*"]}
    set_var(e, "battle", b)
    out = e.advance()
    purposes = [r.purpose for r in out.entry.rolls]
    assert "damage to MF Prairie Wind through FRA-F1" in purposes
    assert any(p.startswith("damage location 1 on MF Prairie Wind") for p in purposes)
    assert any("T-15 *: Repair Bay hit on FRA-F1" in line for line in out.entry.lines)


# -- engagement range and break-off --------------------------------------------------------------
def test_engagement_range_from_both_values_and_the_previous_range():
    assert _calc("engagement_range", a_value=9, b_value=9, previous="short")[0] == "short"  # tie keeps
    assert _calc("engagement_range", a_value=9, b_value=7, previous="short", a_wants="long")[0] == "long"
    assert _calc("engagement_range", a_value=3, b_value=7, b_wants="short")[0] == "short"
    assert _calc("engagement_range", a_value=3, b_value=7, round=1, b_wants="short")[0] == "long"


def test_breakoff_fails_on_a_tie():
    value, lines, _ = _calc("breakoff", range="short", own_value=8, enemy_value=8)
    assert value == "short" and any("tie" in line for line in lines)
    assert _calc("breakoff", range="short", own_value=9, enemy_value=8)[0] == "long"
    assert _calc("breakoff", range="long", own_value=9, enemy_value=8)[0] == "out"
    assert _calc("breakoff", range="long")[0] == "out"  # the old form: the range was won


# -- screens of unaroused Kafers and docked ships ------------------------------------------------
def test_unaroused_kafer_and_docked_targets_have_no_screens():
    """T-18 / F-16 / F-17: screen_now is 0 for an unaroused Kafer ship or a docked ship."""
    assert _calc("missile_damage", mi=6, screen=3)[0] == 3
    assert _calc("missile_damage", mi=6, screen=3, target_kafer_unaroused=True)[0] == 6
    assert _calc("beam_damage", bm=4, screen=3, target_docked=True)[0] == 4
    assert _calc("beam_damage", bm=4, screen=3, target_kafer_unaroused=True)[0] == 4
    assert _calc("beam_damage", bm=4, screen=3, kafer_unaroused=True)[0] == 0  # attacker halved: 2 - 3


# -- boarding (F-23) ---------------------------------------------------------------------------
def test_boarding_continuation_is_rolled_after_a_defender_win():
    """F-23: losses, morale, then 'if passed and 1D10 + (A - D) > 5: may fight again' whatever
    the section's outcome."""
    r = resolver(1, 1, 10)
    res = rg.boarding_section(r, 24, 25).value
    assert res["outcome"] == "defender" and not res["section_taken"]
    assert res["continue"] is True  # 10 + (24 - 25) = 9 > 5
    assert [x.purpose for x in r.rolls][-1] == "boarding: continuation"
    r = resolver(1, 1, 5)
    assert rg.boarding_section(r, 24, 25).value["continue"] is False  # 5 - 1 = 4
    r = resolver(1, 1, 6)
    res = rg.boarding_section(r, 20, 20).value  # a draw: the defender keeps it; the roll still comes
    assert res["outcome"] == "draw" and res["continue"] is True


def test_no_continuation_roll_for_an_attacker_that_breaks():
    """Morale comes before the continuation roll: a broken attacker does not roll."""
    r = resolver(9, 1, 1)  # attacker 10 - 9 = 1 (at or below 8: checks), defender 5 - 1; d100 01 breaks
    res = rg.boarding_section(r, 10, 5).value
    assert res["a_holds"] is False and res["continue"] is False
    assert not any("continuation" in x.purpose for x in r.rolls)


# -- seen at the table -----------------------------------------------------------------------------
def test_week_0_orders_by_task_force_are_accepted():
    e = engine()
    to_step(e, "M0.ORDERS")
    prompt = e.status().prompt
    assert "Week 0" in prompt and "resupply" in prompt
    e.perform("set_tf_order", {"tf": "BRI-1", "resupply": "facility:BRI-F2"})
    assert e.state.secrets["BRI"]["orders"]["tf"]["BRI-1"]["resupply"] == "facility:BRI-F2"
    week0 = r"^BRI-1: Week 0 has no detection or movement actions \(movement, destination\)"
    with pytest.raises(ActionRejected, match=week0):
        e.perform("set_tf_order", {"tf": "BRI-1", "movement": "move", "destination": "QAS"})


def test_battle_results_name_the_side():
    e = engine(seed=11)
    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    out = e.perform("cmb_auto")
    assert e.state.step == "CMB.END"
    winner = e.state.vars["last_battle"]["winner"]
    text = e.status().prompt + " " + out.entry.summary
    assert " side holds" not in e.status().prompt
    if winner:
        name = "Kafers" if winner == "A" else "America"
        assert name in text
    record = next(iter(e.state.records("battles").values()))
    assert record["winner"] in ("A", "B", None)


# -- every rule reachable: what the audit added ----------------------------------------------------
def test_breakoff_threshold_as_the_orders_give_it():
    """E-11 / F-20b: the campaign's break-off check with explicit inputs."""
    t = {"damaged_pct": 50, "flagship_lost": True}
    assert _calc("breakoff_threshold", threshold=t, start=4, damaged=2)[0] is True
    assert _calc("breakoff_threshold", threshold=t, start=4, damaged=1)[0] is False
    assert _calc("breakoff_threshold", threshold=t, start=4, flagship_lost=True)[0] is True
    assert _calc("breakoff_threshold", threshold={"round": 3}, start=4, round=3)[0] is True
    assert _calc("breakoff_threshold", threshold={"never": True}, start=4, damaged=4)[0] is False


def test_screening_of_damaged_warships():
    assert _calc("screening", own_line=4, enemy_line=3)[0] == "screened"
    assert _calc("screening", own_line=3, enemy_line=3)[0] == "line"


class _BoardingCtx(FreeResolver):
    """Just what one boarding pass reads and writes, around a real campaign state."""

    def __init__(self, dice: list[int], brd: dict[str, object]) -> None:
        e = engine()
        super().__init__(e.tables, {o.id: o.default for o in plugin.options()}, dice=dice, seed=1)
        self.state, self.catalog = e.state, e.catalog
        self.vars: dict[str, object] = {"brd": brd}

    def edit_var(self, name: str, default: object) -> object:
        return self.vars.setdefault(name, default)

    def unit(self, uid: str) -> object:
        return self.state.units[uid]


def test_boarding_party_thrown_back_to_its_own_section_fights_on():
    """F-23 in play: after a defender win, an attacker that holds a section to fall back to,
    passed morale and rolls over 5 fights again this round."""
    from rulesets.star_cruiser_lite import boarding

    brd = {
        "attackers": {"ame-bdem-1": {"bf": 24, "again": True, "level": "Regular"}},
        "sections": [
            {"holder": "D", "unit": None, "bf": 25, "crew": True, "level": "Regular"},
            {"holder": "A", "unit": "ame-bdem-1", "bf": 24, "crew": False},
        ],
        "retreat": [],
    }
    ctx = _BoardingCtx([1, 1, 10], brd)
    boarding.section_pass(ctx)  # type: ignore[arg-type]
    a = ctx.vars["brd"]["attackers"]["ame-bdem-1"]  # type: ignore[index]
    assert a["again"] is True and a["bf"] == 23
    assert boarding.more_passes(SimpleNamespace(vars=ctx.vars))  # type: ignore[arg-type]
