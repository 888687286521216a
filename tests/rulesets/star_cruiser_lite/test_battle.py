"""Space combat, pre-emptive attacks, boarding, mines and ground operations in play."""

from __future__ import annotations

from campaign_tui.core.engine import Engine
from rulesets.star_cruiser_lite import example, plugin

from .helpers import battle, engine, place, to_step


def test_an_automatic_battle_logs_every_roll() -> None:
    e = engine(seed=11)
    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    b = e.state.vars["battle"]
    assert b["round"] == 1 and b["range"] == "long" and b["pairs"]
    out = e.perform("cmb_auto")
    assert e.state.step == "CMB.END"
    rolls = out.entry.rolls
    purposes = " | ".join(r.purpose for r in rolls)
    assert "acquisition: missiles of" in purposes and "damage location" in purposes
    assert "arousal of Kafers" in purposes and "luck for side A" in purposes
    assert all(r.dice for r in rolls)
    record = next(iter(e.state.records("battles").values()))
    assert record["rounds"] >= 1 and record["log"]
    e.advance()
    assert e.state.step == "W.ACTIONS" and "battle" not in e.state.vars
    replayed = Engine.replay(plugin, e.initial, e.info, e.entries())
    assert replayed.state == e.state


def test_round_by_round_long_range_first_then_the_range_roll() -> None:
    e = engine(seed=5)
    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    e.advance()
    assert e.state.step == "CMB.DECLARE" and e.state.vars["battle"]["range"] == "long"
    out = e.advance()
    assert not any("beams of" in r.purpose for r in out.entry.rolls), "no beam fire at long range"
    if e.state.step == "CMB.DECLARE":
        b = e.state.vars["battle"]
        assert b["round"] == 2 and set(b["er"]) == {"A", "B", "winner"}


def test_gm_allocation_puts_every_battery_on_point_defence() -> None:
    e = engine(seed=5)
    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    e.advance()
    e.perform("cmb_allocate", {"unit": "ame-cg-1", "pd": 99, "target": "kaf-cg-1"})
    a = e.state.vars["battle"]["alloc"]["ame-cg-1"]
    assert a["pd"] == 5 and a["attack_bm"] == 0 and a["mtarget"] == "kaf-cg-1"


def test_a_battle_result_entered_by_hand() -> None:
    e = engine()
    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    out = e.perform(
        "cmb_result",
        {
            "winner": "B",
            "destroyed": "kaf-cg-1",
            "damage": '{"kaf-bb-1": {"df": 5}}',
            "retreated": "kaf-bb-1,kaf-cg-2",
            "note": "fought on the table",
        },
    )
    assert out.entry.tags.get("override")
    assert e.state.step == "CMB.END"
    assert e.state.units["kaf-cg-1"].status["fate"] == "destroyed"
    assert e.state.units["kaf-bb-1"].status["lost_df"] == 5
    assert e.state.formations["KAF-1"].data["must_leave"] is True
    fights = e.state.vars["week_fights"]
    assert fights["ame-cg-1"]["won"] and fights["kaf-bb-1"]["retreated"]


def test_preemptive_attack_on_a_detected_newcomer() -> None:
    e = Engine.create(plugin, example.SCENARIO, seed=example.SEED)
    example.play(e)
    kinds = {b["kind"] for b in e.state.records("battles").values()}
    assert "preemptive" in kinds
    pre = next(b for b in e.state.records("battles").values() if b["kind"] == "preemptive")
    assert pre["sides"]["B"]["tfs"] == ["KAF-1"] and pre["sides"]["A"]["nations"] == ["FRA"]
    assert "round 1 at long range" in pre["log"]


def test_minefields_attack_before_detection_and_help_detection() -> None:
    e = engine(seed=2)
    e.perform("set_minefield", {"system": "DM36", "nation": "KAF", "mines": 1000})
    place(e, "AME-2", "DM36")
    to_step(e, "W.DETECT_TF")
    tf = e.state.formations["AME-2"]
    t = 1
    assert tf.data["mine_attack_t"] == t
    assert e.state.records("systems")["DM36"]["minefields"]["KAF"] < 1000
    det = [d for d in e.state.vars["detections"] if d["target"] == "AME-2"]
    # 4 bodies 50 + defending 0 + mine attack 10 + Kafer assets (1 warship force 5)
    assert det and det[0]["chance"] == 65


def test_boarding_an_immobile_ship() -> None:
    e = engine(seed=4)
    place(e, "KAF-1", "QAS")
    e.perform("gm.set_status", {"unit": "kaf-cg-1", "field": "lost_mv", "value": "4"})
    battle(e, ["AME-1"], ["KAF-1"], "QAS")
    e.advance()
    assert e.state.step == "CMB.DECLARE"
    e.perform("cmb_board", {"ship": "ame-tt-1", "target": "kaf-cg-1", "units": "ame-bdem-1"})
    out = e.advance()
    purposes = " | ".join(r.purpose for r in out.entry.rolls)
    assert "boarding of Epsilon cruiser 1: defensive fire" in purposes
    assert "ame-bdem-1 vs section 1: attacker losses" in purposes
    assert "brd" not in e.state.vars
    b = e.state.vars.get("battle") or {}
    captured = e.state.units["kaf-cg-1"].side == "AME"
    assert captured or "kaf-cg-1" in b.get("boarded", {}) or e.state.units["ame-bdem-1"].status.get("fate")


def test_boarding_needs_a_target_at_all_stop() -> None:
    import pytest

    from campaign_tui.core.errors import ActionRejected

    e = engine(seed=4)
    place(e, "KAF-1", "QAS")
    battle(e, ["AME-1"], ["KAF-1"], "QAS")
    e.advance()
    with pytest.raises(ActionRejected, match="only a ship at All Stop"):
        e.perform("cmb_board", {"ship": "ame-tt-1", "target": "kaf-cg-1", "units": "ame-bdem-1"})


def test_E16_attack_colony_captured_colony_serves_resupply_only() -> None:
    """GRD end to end: the Kafers take Aurore; its SP then serve their resupply only (E-16)."""
    import pytest

    from campaign_tui.core.errors import ActionRejected

    e = engine(seed=9, kafer_logistics=True)
    place(e, "KAF-2", "ETB")
    place(e, "FRA-1", "BCV")
    e.perform("gm.set_status", {"unit": "kaf-bdek-1", "field": "gf", "value": "90"})
    to_step(e, "W.ORDERS")
    e.perform("set_tf_order", {"tf": "KAF-2", "movement": "attack", "attack": "colony", "target": "aurore"})
    e.perform("default_orders")
    e.perform("run_to_report")
    col = e.state.records("colonies")["aurore"]
    steps = [en.summary for en in e.entries()]
    assert any("Resolved" in s for s in steps)
    rolls = " | ".join(r.purpose for en in e.entries() for r in en.rolls)
    assert "PD fire" in rolls or "acquisition: Aurore PD site" in rolls
    assert "landing on Aurore" in rolls and "outer line" in rolls
    assert col["owner"] == "KAF" and col["captured"] and col["resupply_only"]
    assert e.state.records("systems")["ETB"]["held_by"] == "KAF"
    militia = [u for u in e.state.units.values() if u.type == "militia"]
    assert militia, "the inner line raised the colony's militia (F-28)"
    # the captor cannot build there
    to_step(e, "M0.ORDERS")
    text = '[turn]\nnation = "KAF"\n\n[[construction]]\nlocation = "aurore"\nitem = "mines"\nsp = 1\n'
    with pytest.raises(ActionRejected, match="resupply only"):
        e.perform("import_orders", {"text": text})
    e.perform("default_orders")
    to_step(e, "M0.COLONY_INITIATIVES")
    to_step(e, "M0.RESUPPLY")
    # the colony's month went to its depot for the captor's resupply, never into construction
    log = "\n".join(x for en in e.entries()[-6:] for x in en.lines)
    assert "aurore (KAF): output" in log and "(resupply only: captured)" in log


def test_bombardment_reduces_population_and_output() -> None:
    from rulesets.star_cruiser_lite.rules_ground import colony_output

    from .helpers import game, resolver

    e = engine(seed=21)
    place(e, "KAF-1", "KIM")
    to_step(e, "W.ORDERS")
    text = (
        '[turn]\nnation = "KAF"\n\n[tf.KAF-1]\nmovement = "attack"\nattack = "colony"\ntarget = "kim2"\n'
        'bombard = "colony"\nland = false\n'
    )
    e.perform("import_orders", {"text": text})
    e.perform("default_orders")
    e.perform("run_to_report")
    rolls = [
        r for en in e.entries() for r in en.rolls if r.purpose.startswith("bombardment of Kimanjano II: beam")
    ]
    assert len(rolls) == 9 + 3 + 3  # every BB and CG beam rolls pct(10)
    hits = sum(1 for r in rolls if r.natural <= 10)
    diverted = sum(
        1
        for en in e.entries()
        for r in en.rolls
        if "diverted to a supply depot" in r.purpose and r.natural <= 10
    )
    col = e.state.records("colonies")["kim2"]
    assert col["pop"] == max(0, 5 - (hits - diverted)) and col["owner"] == "AME"
    expected = colony_output(resolver(), 3, col["pop"], 5).value if col["pop"] > 0 else 0
    assert game(e).colony_output("kim2") == expected
