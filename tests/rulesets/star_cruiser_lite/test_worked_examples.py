"""Every worked example of the digest's section 7 (E-01 to E-16), by name."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesets.star_cruiser_lite import ids, plugin
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.rules_combat import pairing
from rulesets.star_cruiser_lite.rules_command import convoy_owner, ftac_limits, tf_composition
from rulesets.star_cruiser_lite.rules_ground import colony_output
from rulesets.star_cruiser_lite.rules_logistics import (
    construction_plan,
    mine_attack,
    mine_attack_chance,
    monthly_need,
)

from .helpers import engine, game, resolver, to_step


def test_E01_covert_size_is_twice_fleet_tactics() -> None:
    r = resolver()
    lim = ftac_limits(r, 3, ships=6).value
    assert lim["covert_max_ships"] == 6 and lim["covert_allowed"]
    assert not ftac_limits(r, 3, ships=7).value["covert_allowed"]


def test_E01_carried_fighters_do_not_count_in_an_orders_file() -> None:
    e = engine()
    to_step(e, "W.ORDERS")
    # BRI-1: CV + 2 carried fighter wings + DD + FF = 3 hulls; Commodore Ashdown has fTac 3 -> up to 6
    text = '[turn]\nnation = "BRI"\n\n[tf.BRI-1]\nmovement = "move"\ndestination = "ETB"\nentry = "covert"\n'
    out = e.perform("import_orders", {"text": text})
    assert "BRI" in out.entry.summary


def test_E02_mine_attack_chance_rounds_down() -> None:
    r = resolver()
    assert mine_attack_chance(r, 34).value == 3
    hit = mine_attack(resolver(3, 5), 34).value  # d100 3 <= 3%, then ceil(1D6 5 / 2) = 3
    assert hit == {"hit": True, "damage": 3, "mines": 31}
    assert mine_attack(resolver(4), 34).value["hit"] is False


def test_E03_bombardment_colony_output_rounds_up() -> None:
    assert colony_output(resolver(), 6, 6, 10).value == 4


def test_E04_construction_comes_off_the_top_of_production() -> None:
    plan = construction_plan(resolver(), 100, 1, production=300).value
    assert plan["left"] == 200


def test_E04_stockpiles_cannot_pay_for_construction_in_play() -> None:
    e = engine()
    e.advance()
    stock0 = spm.sp(e.state.records("nations")["AME"]["qas_stock"])
    e.perform("order_construction", {"nation": "AME", "item": "mines", "sp": 100})
    to_step(e, "M0.PRODUCTION")
    e.perform("set_core_output", {"nation": "AME", "output": 300})
    assert e.state.vars["production"]["AME"]["core"] == 300
    to_step(e, "M0.CONSTRUCTION")
    job = next(j for j in e.state.records("construction").values() if j["nation"] == "AME")
    assert job["months_paid"] == 1 and job["per_month"] == 100
    # 300 produced, 100 built: 200 reach the QAS stockpile
    assert spm.sp(e.state.records("nations")["AME"]["qas_stock"]) == stock0 + 200


def test_E04_a_job_the_month_cannot_pay_stalls_despite_a_full_stockpile() -> None:
    e = engine()
    e.advance()
    e.perform("order_construction", {"nation": "FRA", "item": "mines", "sp": 100})
    to_step(e, "M0.PRODUCTION")
    e.perform("set_core_output", {"nation": "FRA", "output": 50})
    to_step(e, "M0.RESUPPLY")
    job = next(j for j in e.state.records("construction").values() if j["nation"] == "FRA")
    assert job["months_paid"] == 0 and job["stalled"] == 1


def test_E05_suffren_needs_15_sp_a_month() -> None:
    assert plugin.catalog().type("fra_suffren").attrs["req_sp"] == 15
    assert monthly_need(resolver(), "15").value == 15
    prov = plugin.catalog().type("fra_suffren").provenance_of("req_sp")
    assert prov.grade == "rulebook"


def test_E06_convoy_belongs_to_the_nation_with_the_destroyer() -> None:
    ships = (
        [{"nation": "AME", "code": "DD"}]
        + [{"nation": "BRI", "code": "FF"}] * 3
        + [{"nation": "FRA", "code": "SCT"}]
        + [{"nation": "GER", "code": "MF"}] * 6
    )
    assert convoy_owner(resolver(), ships).value == "AME"


def test_E07_two_british_frigates_beat_one_american() -> None:
    ships = (
        [{"nation": "BRI", "code": "FF"}] * 2
        + [{"nation": "AME", "code": "FF"}]
        + [{"nation": "GER", "code": "MF"}] * 6
    )
    assert convoy_owner(resolver(), ships).value == "BRI"


def test_E08_merchants_decide_without_warships_and_a_tt_is_not_one() -> None:
    ships = (
        [{"nation": "GER", "code": "MF"}] * 6
        + [{"nation": "MAN", "code": "MS"}] * 2
        + [{"nation": "AME", "code": "TT"}]
    )
    assert convoy_owner(resolver(), ships).value == "GER"


def test_E09_designated_cg_flagship_lifts_the_three_warship_limit() -> None:
    agano = plugin.catalog().type("jap_agano")
    assert agano.attrs["flagship"] is True and agano.provenance_of("flagship").grade == "rulebook"
    r = resolver()
    many = [{"code": "CG", "flagship": True}] + [{"code": "DD"}] * 4
    assert tf_composition(r, many).value
    assert not tf_composition(r, [{"code": "CG"}] + [{"code": "DD"}] * 3).value
    # fighters carried do not count (DEFAULT-59), unless the option says so
    assert tf_composition(r, [{"code": "DD"}] * 3 + [{"code": "FTR"}] * 2).value
    assert not tf_composition(
        resolver(fighters_count_in_tf_limit=True), [{"code": "DD"}] * 3 + [{"code": "FTR"}]
    ).value


def test_E09_a_designated_flagship_class_in_play() -> None:
    e = engine(scenario="skeleton")
    g = game(e)
    assert g.flagship(e.state.units["jap-cg-1"])


def test_E10_convoy_task_forces_travel_together_and_pay_their_own_resupply() -> None:
    e = engine()
    to_step(e, "W.ORDERS")
    e.perform("set_tf_order", {"tf": "AME-2", "movement": "convoy", "destination": "ETB"})
    e.perform("set_tf_order", {"tf": "BRI-1", "movement": "convoy", "destination": "ETB"})
    e.perform("default_orders")
    to_step(e, "W.REPORT")
    a, b = e.state.formations["AME-2"], e.state.formations["BRI-1"]
    assert a.location == b.location == "ETB"
    assert a.data["arrived_t"] == b.data["arrived_t"] and a.data["came_from"] == b.data["came_from"] == "BCV"
    # each nation paid its own units at Week 0: BRI-1 drew on the British depot, never on American stock
    log = "\n".join(x for en in e.entries() for x in en.lines if "DD Daring" in x and "paid" in x)
    assert "BRI-F2" in log


def test_E11_break_off_threshold_then_winning_the_range() -> None:
    from rulesets.star_cruiser_lite import combat

    e = engine()
    from .helpers import battle, place

    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    g = game(e)
    b = e.state.vars["battle"]
    side = b["sides"]["B"]
    side["breakoff"] = {"damaged_pct": 50, "flagship_lost": True}
    assert not combat.breakoff_due(g, b, "B")
    for uid in ("ame-cg-1", "ame-ff-1"):
        e.state.units[uid].status["lost_sn"] = 1  # two of four ships damaged: 50%
    assert combat.breakoff_due(g, b, "B")
    side["breakoff"] = {"flagship_lost": True}
    side["flagship"] = "ame-cg-1"
    e.state.units["ame-cg-1"].status["fate"] = "destroyed"
    assert combat.breakoff_due(g, b, "B")
    for uid in ("ame-cg-1", "ame-ff-1"):
        e.state.units[uid].status.update({"lost_sn": 0, "fate": ""})
    # breaking needs the range: short -> long, long -> out of the fight
    from rulesets.star_cruiser_lite.rules_combat import breakoff_step

    assert breakoff_step("short") == "long" and breakoff_step("long") == "out"


def test_E12_long_range_until_the_salvoes_are_spent() -> None:
    from rulesets.star_cruiser_lite import combat

    from .helpers import battle, place

    e = engine()
    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    g = game(e)
    b = e.state.vars["battle"]
    b["sides"]["A"]["range_pref"] = "long_until_salvoes"
    assert combat.wanted_range(g, b, "A") == "long"
    for uid in ("kaf-bb-1", "kaf-cg-1", "kaf-cg-2", "kaf-ftr-1"):
        e.state.units[uid].status["lost_sv"] = 9
    assert combat.wanted_range(g, b, "A") == "short"


def test_E13_identifiers_parse() -> None:
    assert ids.parse("AME-2") == ids.FormationId("AME", "task_force", 2)
    assert ids.parse("BRI-3").kind == "task_force"
    assert ids.parse("AME-F2") == ids.FormationId("AME", "facility", 2)
    assert ids.parse("BRI-F3").number == 3
    assert ids.parse("AME-G2").kind == "contingent"
    assert str(ids.parse("bri-g3")) == "BRI-G3"
    with pytest.raises(Exception, match="identifier"):
        ids.parse("AME2")


def test_E14_two_escorts_may_pair_on_one_target_with_superiority() -> None:
    r = resolver()
    pairs = pairing(r, [{"id": "dd1", "rank": 8}, {"id": "dd2", "rank": 8}], [{"id": "bb", "rank": 15}]).value
    assert pairs == [{"a": ["dd1", "dd2"], "b": ["bb"]}]
    # surplus spreads evenly: nobody faces a third before all face two
    pairs = pairing(
        r, [{"id": f"a{i}", "rank": 1} for i in range(5)], [{"id": "x", "rank": 1}, {"id": "y", "rank": 1}]
    ).value
    assert sorted(len(p["a"]) for p in pairs) == [2, 3]
    from rulesets.star_cruiser_lite.rules_combat import escorts_allowed

    assert escorts_allowed(r, 3, 2).value and not escorts_allowed(r, 2, 2).value


def test_E15_survey_ship_needs_one_sp_a_month() -> None:
    ss = plugin.catalog().type("demo_ss")
    assert ss.attrs["cy_sp"] == 3 and ss.attrs["req_sp"] == 1
    assert Fraction(ss.attrs["cy_sp"]) / ss.attrs["req_sp"] == 3
