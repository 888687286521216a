"""Appendix A: battles fought outside the program (Leviathan for ships, Centurion for the
ground): outcomes entered by hand, the A.2 cargo conversion, no CRT roll."""

from __future__ import annotations

from campaign_tui.core.engine import Engine
from campaign_tui.core.model import Unit
from rulesets.prefect import plugin
from rulesets.prefect.space_combat import Force, battle
from tests.rulesets.prefect.helpers import dice
from tests.rulesets.prefect.test_worked_examples import harness


def _state() -> Engine:
    e = Engine.create(plugin, "holding_the_line", seed=5)
    add = e.state.units
    add["t1"] = Unit("t1", "TOG", "trm", "TOG TRM", None, None, {"disrupted": False})
    add["t2"] = Unit("t2", "TOG", "trl", "TOG TRL", None, None, {"disrupted": False})
    add["coh"] = Unit("coh", "TOG", "medium_cohort", "Med Cohort", data={"carried_by": "t1"})
    add["base"] = Unit("base", "TOG", "gl1", "GL1", data={"carried_by": "t2"})
    add["cwh"] = Unit("cwh", "CW", "cw_fh1", "CW Heavy FF", None, None, {"disrupted": False})
    return e


def test_leviathan_result_disrupts_cargo_troops_and_destroys_cargo_bases() -> None:
    """A.2: troops aboard a disrupted squadron are disrupted, a base aboard is destroyed."""
    e = _state()
    answers = {"ext_destroyed": [], "ext_disrupted": ["t1", "t2"], "ext_letter": "none"}
    with harness(e, answers) as ctx:
        ctx.set_var("external_space", {"game": "Leviathan", "step": e.state.step, "turn": 1, "note": ""})
        res = battle(
            ctx, Force("CW", ["cwh"], [], "sector_defense"), Force("TOG", ["t1", "t2"], [], "supply"), "x"
        )
        s = ctx.state
        assert res.cell == "Leviathan: none"
        assert s.units["t1"].status["disrupted"] and s.units["coh"].status["disrupted"]
        assert s.units["base"].status["destroyed"] and not s.units["t2"].status.get("destroyed")
        assert s.ledger("CW", "vp") > 0  # the lost base scores for the enemy
        assert res.outcomes == {"cwh": "unharmed", "t1": "disrupted", "t2": "disrupted"}


def test_without_a_mark_the_same_battle_rolls_the_crt() -> None:
    e = _state()
    with harness(e, dice(5, 5, 5, 5)) as ctx:
        res = battle(ctx, Force("CW", ["cwh"], [], "sector_defense"), Force("TOG", ["t1"], [], "supply"), "x")
        text = "\n".join(ctx.lines)
    assert res.roll == 5 and "Leviathan" not in res.cell
    assert "save against disruption" in text  # the CRT and every unit's save are rolled
