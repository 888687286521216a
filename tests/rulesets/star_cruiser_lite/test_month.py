"""A month driven through Week 0 and the four action weeks with engine.perform / advance."""

from __future__ import annotations

from rulesets.star_cruiser_lite import sp as spm

from .helpers import engine, orders_text, to_step

WEEK0 = [
    "M0.PRODUCTION",
    "M0.COLONY_INITIATIVES",
    "M0.CONSTRUCTION",
    "M0.RESUPPLY",
    "M0.POLITICAL",
    "M0.REPORT",
]
WEEK = [
    "W.UPKEEP",
    "W.MINES",
    "W.DETECT_TF",
    "W.DETECT_FAC",
    "W.REORG",
    "W.COORDINATE",
    "W.ACTIONS",
    "W.SPECIALS",
    "W.MOVES",
    "W.END",
    "W.REPORT",
]


def test_a_new_campaign_opens_in_setup_with_tactics_rolled() -> None:
    e = engine()
    assert e.state.step == "SETUP" and e.state.clock == {"month": 1, "week": 0}
    assert not e.missing()
    cmds = e.state.records("commanders")
    assert all(c.get("rolled") for c in cmds.values())
    assert all(0 <= c["stac"] <= 5 for c in cmds.values() if not c.get("kafer") and c.get("captain"))
    assert all(1 <= c["stac"] <= 6 for c in cmds.values() if c.get("kafer") and c.get("captain"))
    assert e.entries()[0].rolls, "the tactics rolls are in the log"


def test_week0_then_four_weeks_then_week0_of_month_2() -> None:
    e = engine()
    e.advance()
    assert e.state.step == "M0.ORDERS"
    refused = e.status().missing
    assert refused and "orders still missing" in refused[0]
    e.perform("import_orders", {"text": orders_text("orders-bri-m1w0.toml")})
    e.perform("default_orders")
    seen = []
    for _ in WEEK0:
        e.advance()
        seen.append(e.state.step)
    assert seen == WEEK0
    e.advance()
    assert e.state.step == "W.ORDERS" and e.state.clock == {"month": 1, "week": 1}
    e.perform("default_orders")
    seen = []
    while e.state.step != "W.REPORT":
        e.advance()
        seen.append(e.state.step)
    assert seen == WEEK
    for week in (2, 3, 4):
        e.advance()
        assert e.state.clock == {"month": 1, "week": week} and e.state.step == "W.ORDERS"
        e.perform("default_orders")
        e.perform("run_to_report")
        assert e.state.step == "W.REPORT"
    e.advance()
    assert e.state.step == "M0.ORDERS" and e.state.clock == {"month": 2, "week": 0}


def test_week0_chores_production_construction_leftovers_and_resupply() -> None:
    e = engine()
    e.advance()
    e.perform("import_orders", {"text": orders_text("orders-bri-m1w0.toml")})
    e.perform("default_orders")
    stock0 = spm.sp(e.state.records("nations")["BRI"]["qas_stock"])
    to_step(e, "M0.CONSTRUCTION")
    jobs = {j["name"]: j for j in e.state.records("construction").values()}
    dd = jobs["DD Dragon"]
    assert dd["months"] == 8 and dd["per_month"] == 6 and dd["months_paid"] == 1  # T-30: Req SP x 8 months
    mines = next(j for j in jobs.values() if j["item"] == "mines")
    assert mines["location"] == "alice"
    # Core: 100 produced, 6 spent on the destroyer -> 94 to QAS
    assert spm.sp(e.state.records("nations")["BRI"]["qas_stock"]) == stock0 + 94
    to_step(e, "M0.POLITICAL")
    ark = e.state.units["bri-cv-1"]
    assert not ark.status["unsupplied"], "the carrier drew its 18 SP from the named depot"
    log = "\n".join(x for en in e.entries() for x in en.lines)
    assert "CV Ark Royal: needs 18, paid 18 (18 from SD BRI-F2)" in log


def test_missed_resupply_counts_weeks_and_late_resupply_resets() -> None:
    e = engine()
    to_step(e, "M0.REPORT")
    sct = e.state.units["ame-sct-1"].status
    assert sct["unsupplied"] and sct["arrears"] == 1
    to_step(e, "W.ORDERS")
    e.perform("default_orders")
    to_step(e, "W.MINES")
    assert e.state.units["ame-sct-1"].status["weeks_unsupplied"] == 1  # DEFAULT-53: 1 during week 1
    to_step(e, "W.REPORT")
    e.advance()
    # the GM loads SP from the French repair facility into the American merchant, then the scout is
    # resupplied late: it pays Req SP x 1 (the month made good) and its counter goes back to 0
    e.perform("transfer_sp", {"source": "FRA-F1", "to": "ame-mf-2", "amount": "10"})
    e.perform("late_resupply", {"id": "ame-sct-1", "source": "merchants"})
    e.perform("default_orders")
    e.advance()
    st = e.state.units["ame-sct-1"].status
    assert not st["unsupplied"] and st["weeks_unsupplied"] == 0 and st["arrears"] == 0
    assert e.state.units["ame-mf-2"].status["cargo_sp"] == "6"
    other = e.state.units["ame-ff-1"].status
    assert other["unsupplied"] and other["weeks_unsupplied"] == 2


def test_supply_counter_carries_over_the_month_and_retreat_checks_roll() -> None:
    e = engine()
    to_step(e, "M0.REPORT")
    short = [u.id for u in e.state.units.values() if u.status.get("unsupplied") and u.side == "FRA"]
    for _ in range(4):
        to_step(e, "W.ORDERS")
        e.perform("default_orders")
        e.perform("run_to_report")
        e.advance()
    rolls = [r for en in e.entries() for r in en.rolls if "supply retreat check" in r.purpose]
    assert rolls, "2+ weeks unsupplied ships rolled 1D10 + sTac + fTac"
    for uid in short:
        u = e.state.units[uid]
        if not u.status.get("fate") and u.status.get("unsupplied"):
            assert u.status["weeks_unsupplied"] >= 4


def test_core_items_reach_qas_a_week_after_completion() -> None:
    e = engine()
    e.advance()
    e.perform("order_construction", {"nation": "AME", "item": "sDrn"})
    e.perform("default_orders")
    to_step(e, "M0.REPORT")
    job = next(j for j in e.state.records("construction").values() if j["item"] == "sDrn")
    assert job["status"] == "complete" and job["months"] == 1
    for _ in range(5):
        to_step(e, "W.ORDERS") if e.state.step != "M0.ORDERS" else None
        e.perform("default_orders")
        e.perform("run_to_report")
        e.advance()
        if e.state.clock == {"month": 2, "week": 0}:
            break
    e.perform("default_orders")
    to_step(e, "M0.REPORT")
    assert e.state.vars.get("arrivals"), "the drone waits one week (DEFAULT-07)"
    to_step(e, "W.ORDERS")
    e.perform("default_orders")
    to_step(e, "W.MINES")
    assert e.state.records("nations")["AME"]["stores"].get("sDrn@QAS") == 1


def test_escort_fees_are_earned_then_paid_next_week() -> None:
    e = engine()
    to_step(e, "W.ORDERS")
    e.perform("reorganize", {"ships": "ame-dd-1,ame-dd-2", "from_tf": "AME-1", "to_tf": "AME-5"})
    e.perform("default_orders")
    to_step(e, "W.REORG")
    assert e.state.units["ame-dd-1"].formation == "AME-5" == e.state.units["ame-dd-2"].formation
    to_step(e, "W.REPORT")
    e.advance()
    e.perform("set_tf_order", {"tf": "AME-5", "movement": "escort"})
    e.perform("default_orders")
    to_step(e, "W.REPORT")
    # QAS volume 40 shared by 2 escorting units, all American: ceil(10% x 40) = 4, paid next week
    assert e.state.records("nations")["AME"]["fees_due"] == 4
    stock = spm.sp(e.state.records("nations")["AME"]["qas_stock"])
    e.advance()
    e.perform("default_orders")
    e.advance()
    assert spm.sp(e.state.records("nations")["AME"]["qas_stock"]) == stock + 4


def test_escort_order_refused_for_capital_ships() -> None:
    import pytest

    from campaign_tui.core.errors import ActionRejected

    e = engine()
    to_step(e, "W.ORDERS")
    with pytest.raises(ActionRejected, match="Escort order is only for"):
        e.perform("set_tf_order", {"tf": "BRI-1", "movement": "escort"})
