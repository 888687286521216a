"""Each GM tool used once in play: it works, is logged, and refuses what the rules forbid."""

from __future__ import annotations

import pytest

from campaign_tui.core.errors import ActionRejected

from .helpers import battle, engine, place, to_step


def test_a_nation_cannot_order_another_nations_forces() -> None:
    e = engine()
    to_step(e, "W.ORDERS")
    with pytest.raises(ActionRejected, match="FRA cannot give orders to KAF"):
        e.perform("set_tf_order", {"tf": "KAF-1", "movement": "hold"}, by="FRA")
    e.perform("set_tf_order", {"tf": "FRA-1", "movement": "hold"}, by="FRA")


def test_week0_politics_reinforcements_and_war() -> None:
    e = engine(scenario="skeleton")
    to_step(e, "M0.POLITICAL")
    e.perform("political_event", {"nation": "JAP", "kind": "directive_ignored"})
    assert e.state.records("nations")["JAP"]["penalty_next"]
    e.perform("reinforce", {"nation": "JAP", "type": "demo_dd", "system": "QAS", "count": 2, "tf": "JAP-1"})
    assert len([u for u in e.state.units.values() if u.formation == "JAP-1"]) == 3
    e.perform("reinforce", {"nation": "JAP", "type": "bde_l", "system": "QAS"})
    assert any(u.type == "bde_l" for u in e.state.units.values())
    e.perform("enter_war", {"nation": "MAN", "core_output": 40})
    assert e.state.records("nations")["MAN"]["at_war"]
    e.perform("set_core_output", {"nation": "JAP", "output": 100})
    to_step(e, "M0.PRODUCTION")
    assert e.state.vars["production"]["JAP"]["core"] == 90  # 100 - ceil(10%) for the ignored directive


def test_colony_protection_bonus_next_month() -> None:
    e = engine()
    to_step(e, "M0.POLITICAL")
    e.perform("political_event", {"nation": "FRA", "kind": "protection_dispatched", "colony": "bcv4"})
    assert e.state.records("nations")["FRA"]["bonus_next"] == 1  # max(1, floor(10% of 6))
    with pytest.raises(ActionRejected, match="protected colony"):
        e.perform("political_event", {"nation": "FRA", "kind": "protection_dispatched"})


def test_promotion_of_a_cruiser_captain_to_flag_rank() -> None:
    e = engine()
    to_step(e, "M0.POLITICAL")
    cid = e.state.units["ame-cg-1"].status["captain"]
    stac = e.state.records("commanders")[cid]["stac"]
    with pytest.raises(ActionRejected, match="open command slot"):
        e.perform("promote", {"commander": cid, "ship": "ame-bb-1"})
    e.perform("gm.set_status", {"unit": "ame-bb-1", "field": "captain", "value": '""'})
    e.perform("promote", {"commander": cid, "ship": "ame-bb-1"})
    c = e.state.records("commanders")[cid]
    assert c["flag"] and c["ftac"] == max(2, stac - 2) and c["ship"] == "ame-bb-1"
    new = e.state.units["ame-cg-1"].status["captain"]
    assert new != cid and e.state.records("commanders")[new]["rolled"]


def test_split_withheld_and_cancel_job() -> None:
    e = engine(seed=4)
    e.advance()
    e.perform("order_construction", {"nation": "AME", "item": "demo_dd", "name": "DD Spare"})
    to_step(e, "M0.COLONY_INITIATIVES")
    withheld = e.state.vars.get("withheld") or {}
    if withheld:
        cid, amount = next(iter(withheld.items()))
        with pytest.raises(ActionRejected, match="cost"):
            e.perform("split_withheld", {"colony": cid, "pd": amount, "mines": 0})
        e.perform("split_withheld", {"colony": cid, "pd": 0, "mines": 5 * amount})
    to_step(e, "M0.CONSTRUCTION")
    jid = next(k for k, j in e.state.records("construction").items() if j["name"] == "DD Spare")
    e.perform("cancel_job", {"job": jid})
    assert e.state.records("construction")[jid]["status"] == "cancelled"


def test_transfer_and_resupply_unit() -> None:
    e = engine()
    to_step(e, "M0.RESUPPLY")
    stock = e.state.records("nations")["AME"]["qas_stock"]
    e.perform("transfer_sp", {"source": "ame-mf-1", "to": "AME", "amount": "2 1/2"})
    e.perform("transfer_sp", {"source": "AME", "to": "ame-mf-1", "amount": "0.25"})
    assert e.state.units["ame-mf-1"].status["cargo_sp"] == "7 3/4"
    assert e.state.records("nations")["AME"]["qas_stock"] == f"{int(stock) + 2} 1/4"
    with pytest.raises(ActionRejected, match="room for 2 1/4 SP"):
        e.perform("transfer_sp", {"source": "AME", "to": "ame-mf-1", "amount": "3"})
    with pytest.raises(ActionRejected, match="between systems"):
        e.perform("transfer_sp", {"source": "AME", "to": "ame-mf-2", "amount": "1"})
    out = e.perform("resupply_unit", {"unit": "ame-dd-1", "source": "core"})
    assert "DD Kidd" in out.entry.summary


def test_upgrade_installation_takes_a_week() -> None:
    e = engine()
    to_step(e, "W.ORDERS")
    rec = e.state.records("nations")["AME"]
    rec["stores"] = {"sDrn@QAS": 1, "SubD@QAS": 1}
    with pytest.raises(ActionRejected, match="mounts only"):
        e.perform("install_upgrade", {"ship": "ame-dd-1", "item": "sDrn"})
    e.perform("install_upgrade", {"ship": "ame-bb-1", "item": "sDrn"})
    e.perform("default_orders")
    to_step(e, "W.REPORT")
    bb = e.state.units["ame-bb-1"]
    assert bb.status["drone"] and not bb.status["install"]
    from .helpers import game

    assert game(e).cur(bb, "sn") == 4


def test_facility_packing_loading_and_deploying() -> None:
    e = engine()
    to_step(e, "W.ORDERS")
    e.perform(
        "set_tf_order",
        {"tf": "AME-1", "movement": "defend", "special": "remove_facility", "facility": "AME-F1"},
    )
    e.perform("default_orders")
    to_step(e, "W.SPECIALS")
    assert e.state.formations["AME-F1"].data["state"] == "packing"
    to_step(e, "W.REPORT")
    assert e.state.formations["AME-F1"].data["state"] == "packed"
    e.advance()
    with pytest.raises(ActionRejected, match="room for 2 module"):
        e.perform("load_facility", {"facility": "AME-F1", "tf": "AME-1"})
    e.perform(
        "set_tf_order",
        {"tf": "AME-1", "movement": "defend", "special": "deploy_facility", "facility": "AME-F1"},
    )
    e.perform("default_orders")
    to_step(e, "W.REPORT")
    assert e.state.formations["AME-F1"].data["state"] == "deployed"


def test_engagements_can_be_added_and_dropped_and_battles_controlled() -> None:
    e = engine(seed=8)
    place(e, "KAF-1", "BCV")
    to_step(e, "W.ACTIONS")
    e.perform("add_engagement", {"system": "BCV", "attackers": "KAF-1", "defenders": "BRI-1"})
    e.perform("add_engagement", {"system": "BCV", "attackers": "KAF-1", "defenders": "AME-2"})
    e.perform("drop_engagement", {"index": 1})
    assert [x["b"]["tfs"] for x in e.state.vars["engagements"]][-1] == ["AME-2"]
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    e.perform("cmb_side", {"side": "B", "range": "short", "breakoff": '{"never": true}'})
    assert e.state.vars["battle"]["sides"]["B"]["range_pref"] == "short"
    e.perform(
        "cmb_pair",
        {
            "pairs": '[{"a": ["kaf-bb-1", "kaf-cg-1", "kaf-cg-2", "kaf-ftr-1"], '
            '"b": ["ame-cg-1", "ame-ff-1", "ame-sct-1"]}]'
        },
    )
    assert len(e.state.vars["battle"]["pairs"]) == 1
    with pytest.raises(ActionRejected, match="outnumbers"):
        e.perform("cmb_escort", {"escort": "ame-ff-1", "charge": "ame-cg-1"})
    e.perform("cmb_auto")
    assert e.state.step == "CMB.END"


def test_declare_end() -> None:
    e = engine()
    to_step(e, "M0.REPORT")
    e.perform("declare_end", {"result": "the Kafers withdraw"})
    assert e.status().final and e.state.vars["outcome"]["result"] == "the Kafers withdraw"


def test_scheduled_reinforcements_arrive_by_themselves() -> None:
    e = engine()
    e.perform(
        "schedule_reinforcement",
        {"month": 2, "nation": "BRI", "type": "demo_ff", "system": "QAS", "count": 2},
    )
    e.perform("schedule_reinforcement", {"month": 1, "nation": "AME", "type": "bde_h", "system": "QAS"})
    to_step(e, "M0.POLITICAL")
    assert any(u.type == "bde_h" for u in e.state.units.values())
    assert not any(
        u.type == "demo_ff" and u.side == "BRI" and u.status.get("fresh") for u in e.state.units.values()
    )
    for _ in range(5):
        to_step(e, "W.REPORT") if e.state.step != "M0.ORDERS" else None
        if e.state.clock == {"month": 2, "week": 0}:
            break
        e.advance()
    to_step(e, "M0.POLITICAL")
    new = [
        u
        for u in e.state.units.values()
        if u.type == "demo_ff" and u.side == "BRI" and u.formation != "BRI-1"
    ]
    assert len(new) == 2 and e.state.formations[new[0].formation].location == "QAS"
    assert new[0].status["fresh"], "new units pay nothing this month"


def test_an_intruder_that_wins_the_range_check_avoids_and_leaves() -> None:
    from .helpers import set_var

    e = engine(seed=3)
    place(e, "KAF-1", "ETB")
    for field, value in (("lost_sn", "2"), ("lost_mv", "5"), ("cq", "-2")):
        e.perform("gm.set_status", {"unit": "fra-dd-1", "field": field, "value": value})
    to_step(e, "W.DETECT_TF")
    set_var(
        e,
        "preempt_queue",
        [
            {
                "system": "ETB",
                "defender_tf": "FRA-1",
                "nation": "FRA",
                "patrol_ships": ["fra-dd-1"],
                "intruder_tf": "KAF-1",
                "intruder_nation": "KAF",
                "defender_detected": True,
                "intruder_detected": True,
                "defender_roll": 50,
                "intruder_roll": 10,
            }
        ],
    )
    out = e.advance()
    assert e.state.step == "W.DETECT_FAC"
    assert "the intruder may avoid the attack" in "\n".join(out.entry.lines)
    assert e.state.formations["KAF-1"].data["must_leave"] is True
    to_step(e, "W.REPORT")
    assert e.state.formations["KAF-1"].location != "ETB"


def test_rebuilding_a_troop_unit_costs_ceil_of_tenths() -> None:
    e = engine()
    e.perform("gm.set_status", {"unit": "ame-bdem-1", "field": "gf", "value": "9"})
    e.perform("gm.set_status", {"unit": "ame-bdem-1", "field": "bf", "value": "19"})
    to_step(e, "M0.RESUPPLY")
    stock = e.state.records("nations")["AME"]["qas_stock"]
    out = e.perform("rebuild_troops", {"unit": "ame-bdem-1"})
    st = e.state.units["ame-bdem-1"].status
    assert st["bf"] == 20 and st["gf"] == 20
    assert "for 3 SP" in out.entry.summary  # ceil(1/10) + ceil(11/10) = 1 + 2
    assert e.state.records("nations")["AME"]["qas_stock"] == stock - 3
