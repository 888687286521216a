"""The demonstration's first battle within reach of week 1, and what the order forms offer."""

from __future__ import annotations

from campaign_tui.core.engine import Engine
from rulesets.star_cruiser_lite import candidates as C
from rulesets.star_cruiser_lite import plugin
from rulesets.star_cruiser_lite.rules_logistics import mine_attack
from tests.rulesets.star_cruiser_lite.helpers import engine, resolver


def _to_week_one(e: Engine) -> None:
    e.perform("gm.quick_setup")
    assert e.state.step == "M0.ORDERS"          # quick set-up stops at the Week 0 orders
    e.perform("run_to_report")
    e.advance()
    assert (e.state.step, e.state.clock["week"]) == ("W.ORDERS", 1)


def test_order_forms_offer_task_forces_facing_an_enemy_first() -> None:
    e = engine(seed=5)
    everyone = C.own_task_forces(e.state, "all")
    assert everyone[:2] == ["FRA-1", "KAF-3"]    # together at Eta Bootis
    assert not any("-G" in t for t in everyone)  # contingents take no task force orders
    assert C.own_task_forces(e.state, "FRA") == ["FRA-1"]
    assert C.destinations(e.state, "FRA") == ["BCB", "BCV", "DM36"]
    assert C.attack_targets(e.state, "FRA") == ["KAF-3"]
    assert C.attack_targets(e.state, "KAF") == ["FRA-1", "aurore"]
    assert C.attack_targets(e.state, "AME") == []
    assert C.own_facilities(e.state, "FRA") == ["FRA-F1"]


def test_france_attacks_the_raider_in_week_one() -> None:
    e = Engine.create(plugin, "demo", seed=2)
    _to_week_one(e)
    e.perform("set_tf_order", {"tf": "FRA-1", "movement": "attack"})
    e.perform("default_orders")
    mines = e.advance() and e.advance()          # start of the week; Aurore's minefield
    assert any("minefield attack on KAF-3" in r.purpose for r in mines.entry.rolls)
    e.advance()                                  # detection, both ways
    found = {(d["target"], d["detector"]): d for d in e.state.vars["detections"]}
    assert set(found) == {("KAF-3", "FRA"), ("FRA-1", "KAF")}
    assert found[("KAF-3", "FRA")]["detected"]   # this seed's die: 55% or less
    for _ in range(5):
        e.advance()
    assert e.state.step == "CMB.SETUP"
    b = e.state.vars["battle"]
    assert b["system"] == "ETB" and b["sides"]["A"]["tfs"] == ["FRA-1"]
    assert b["sides"]["B"]["tfs"] == ["KAF-3"]


def test_a_minefield_under_ten_mines_rolls_no_die() -> None:
    r = resolver()
    out = mine_attack(r, 9, "KAF-3").value
    assert out == {"hit": False, "damage": 0, "mines": 9}
    assert r.rolls == []
    r = resolver(100)
    assert mine_attack(r, 10, "KAF-3").value["hit"] is False
    assert len(r.rolls) == 1
