"""Every worked example of the digest's section 7 (E1-E21), by name."""

from __future__ import annotations

import pytest

from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from rulesets.second_sathar_war import plugin
from rulesets.second_sathar_war.fdm import Fdm
from rulesets.second_sathar_war.locations import parse
from rulesets.second_sathar_war.movement import allowed
from rulesets.second_sathar_war.rules import class_summary
from rulesets.second_sathar_war.ships import ships_in

from .swii_kit import calc, new, put, to_setup_done, to_step


def test_E1_splitting_the_upf_among_three_players_and_a_disputed_split_roll():
    e = new("standard")
    for player, tf, homes in (
        ("Ann", "upf-tf-prenglar", ["gollywog", "hargut", "hentz"]),
        ("Ben", "upf-tf-cassidine", ["inner-reach", "outer-reach", "kenzah-kit"]),
        ("Cy", "upf-sfn", ["minotaur", "pale", "terledrom"]),
    ):
        e.perform("assign_player", {"player": player, "forces": [tf], "militia": homes})
    out = e.perform("free_roll", {"expr": "1d10", "purpose": "who takes Strike Force NOVA"})
    players = e.state.vars["players"]
    assert players["Ann"] == {"forces": ["upf-tf-prenglar"], "militia": ["gollywog", "hargut", "hentz"]}
    assert len(players) == 3
    assert out.entry.rolls and out.entry.rolls[0].purpose == "who takes Strike Force NOVA"


def test_E2_start_circle_stack_enters_red_box_1_on_day_1_and_arrives_on_day_R_plus_1():
    e = to_setup_done(new("seed_start"), place=False)
    for fleet, circle in (
        ("sat-devastator", "sc-prenglar"),
        ("sat-prime-kill", "sc-kizk-kar"),
        ("sat-warbird", "sc-ktsa-kar"),
    ):
        e.perform("place_fleet", {"fleet": fleet, "at": circle}, by="SATHAR")
    e.advance()
    e.advance()
    red = e.state.records("circles")["sc-prenglar"]["red_boxes"]
    e.advance()  # day 1: reinforcements -> movement
    assert e.state.step == "SATHAR_MOVE"
    with pytest.raises(AdvanceRefused, match="start circle"):
        e.advance()
    assert allowed(e.state, "sat-devastator")[0] == 1
    e.perform("move_stack", {"stack": "sat-devastator", "order": "go", "rate": 2}, by="SATHAR")
    assert e.state.formations["sat-devastator"].location == "red:sc-prenglar:1:in"
    for day in range(1, red + 2):
        assert e.state.clock["day"] == day
        loc = parse(e.state.formations["sat-devastator"].location)
        if day <= red:
            assert (loc.kind, loc.box) == ("red", day)  # exactly one red box a day
            to_step(e, "SATHAR_DECLARE")
            to_step(e, "SATHAR_MOVE")
            e.perform("move_all", {}, by="SATHAR")
        else:
            assert loc.kind == "planet" and loc.planet == "morgaines-world"


def test_E3_time_record_wraps_after_day_10():
    result, _ = calc("E3", day=11)
    assert result.value == {"tenday": 10, "day": 1, "tenday_index": 2}
    e = to_setup_done(new("standard"), place=False)
    e.perform("gm.set_clock", {"level": "day", "value": 10})
    assert plugin.machine(e.state.machine).clock_text(e.state.clock) == "Day 10 (Time Record: Day 10)"
    e.perform("gm.goto", {"step": "END_OF_DAY"})
    e.advance()
    assert e.state.clock["day"] == 11
    clock = plugin.machine(e.state.machine).clock_text(e.state.clock)
    assert clock == "Day 11 (Time Record: Tenday 10, Day 1)"


def test_E4_interlocked_group_rolls_once_at_the_battleships_95():
    safe, r = calc("E4", dice=[95], rows=["UPF_BB", "UPF", "UPF", "UPF", "MILITIA", "MILITIA"], rate=2)
    assert safe.value is True and len(r.rolls) == 1 and r.rolls[0].target == 95
    lost, _ = calc("E4", dice=[96], rows=["UPF_BB", "UPF", "UPF", "UPF", "MILITIA", "MILITIA"], rate=2)
    assert lost.value is False


def _e4_stack(e):  # the example's six ships at Fromeltar, one stack
    e.perform(
        "split", {"stack": "upf-tf-cassidine", "ships": ["upf-bb-a"], "name": "Fromeltar group"}, by="UPF"
    )
    fid = next(f.id for f in e.state.formations.values() if f.name == "Fromeltar group")
    put(e, fid, "planet:terledrom")
    dds = [
        u.id
        for u in e.state.units.values()
        if u.type == "DD" and u.side == "UPF" and not u.status.get("home")
    ][:3]
    for uid in [*dds, "mil-terledrom-as1", "mil-terledrom-as2"]:
        e.perform("gm.move_unit", {"unit": uid, "formation": fid})
    return fid


def test_E4_interlocked_jump_in_the_campaign_one_roll_for_six_ships():
    e = to_setup_done(new("seed_start", misjump_effect="lost_for_war"), place=False)
    for fleet, circle in (
        ("sat-devastator", "sc-zebulon"),
        ("sat-prime-kill", "sc-kizk-kar"),
        ("sat-warbird", "sc-ktsa-kar"),
    ):
        e.perform("place_fleet", {"fleet": fleet, "at": circle}, by="SATHAR")
    to_step(e, "UPF_MOVE")
    fid = _e4_stack(e)
    e.perform("move_stack", {"stack": fid, "order": "go", "dest": "dramune", "rate": 2}, by="UPF")
    to_step(e, "SATHAR_DECLARE")
    to_step(e, "UPF_MOVE")
    out = e.perform("move_all", {}, by="UPF", answers={"roll1": 95})
    rolls = [r for r in out.entry.rolls if r.table == "T9"]
    assert len(rolls) == 1 and rolls[0].target == 95 and rolls[0].natural == 95
    assert len(ships_in(e.state, fid)) == 6
    assert parse(e.state.formations[fid].location).box in (4, 5)  # the jump box, counted from either end


def test_E5_grouping_is_free_each_group_rolls_with_its_own_best_row():
    each, r = calc(
        "E5",
        dice=[95, 91, 90, 90, 71, 70],
        rows=["UPF_BB", "UPF", "UPF", "UPF", "MILITIA", "MILITIA"],
        rate=2,
        interlocked=False,
    )
    assert [x.target for x in r.rolls] == [95, 90, 90, 90, 70, 70]
    assert each.value == 4  # 91 and 71 fail, the others succeed
    linked, r2 = calc("E5", dice=[90], rows=["UPF", "MILITIA"], rate=2)
    assert r2.rolls[0].target == 90 and linked.value is True


def test_E6_scc_repair_days_hull_and_drives_take_two_days():
    days, _ = calc("E6", hull_damage=8, systems=1, capacity=10)
    assert days.value == 2
    e = to_setup_done(new("seed_start"))
    e.perform("gm.set_status", {"unit": "upf-lc-a", "field": "hull_damage", "value": "8"})
    e.perform("gm.set_status", {"unit": "upf-lc-a", "field": "adf_lost", "value": "3"})
    assert e.state.units["upf-lc-a"].formation == "upf-tf-cassidine"
    to_step(e, "END_OF_DAY")
    e.advance()
    lc = e.state.units["upf-lc-a"]
    assert lc.status["hull_damage"] == 0 and lc.status["adf_lost"] == 3  # the hull first, not both
    to_step(e, "END_OF_DAY")
    e.advance()
    assert e.state.units["upf-lc-a"].status["adf_lost"] == 0


def test_E7_icms_against_a_torpedo_seed_arithmetic_and_the_table():
    """Erratum: the seed's example uses 70 (the Basic Game's torpedo vs RH); T5 gives 50, so 30%."""
    seed, _ = calc("E7", weapon="T", defences="RH", icms=2, base_override=70, roll=False)
    table, _ = calc("E7", weapon="T", defences="RH", icms=2, roll=False)
    assert seed.value == 50
    assert table.value == 30


def test_E8_break_up_28_percent():
    survive, r = calc("E8", dice=[29], hp_orig=50, hp_now=18, adf_used=3, mr_used=1)
    assert r.rolls[0].target == 28 and survive.value is False
    broke, _ = calc("E8", dice=[28], hp_orig=50, hp_now=18, adf_used=3, mr_used=1)
    assert broke.value is True


@pytest.mark.parametrize("result,new_adf", [("drive:1", 2), ("drive:half", 1), ("drive:all", 0)])
def test_E9_drive_hits_on_adf_3(result, new_adf):
    out, _ = calc("E9", result=result, adf=3, adf_original=3)
    assert out.value == f"adf:{new_adf}"


def test_E10_weapon_hit_list_destroys_the_destroyers_laser_cannon():
    dmg, _ = calc("T7", dice=[66], weapon="LB")
    assert dmg.value == "weapon:DC,LC,AR,T,LB"
    hit, _ = calc("E10", result=str(dmg.value), weapons="LC,RB,LB,T,EB")
    assert hit.value == "destroy:LC"


def test_E11_cumulative_drive_damage_and_a_hull_hit_when_none_is_left():
    adf = 3
    for _ in range(3):
        adf = int(str(calc("E11", result="drive:1", adf=adf, adf_original=3)[0].value).split(":")[1])
    assert adf == 0
    adf, seen = 2, []
    for _ in range(3):
        v = str(calc("E11", result="drive:1", adf=adf, adf_original=2)[0].value)
        seen.append(v)
        if v.startswith("adf:"):
            adf = int(v.split(":")[1])
    assert seen == ["adf:1", "adf:0", "hull"]


def test_E12_missing_system_becomes_a_hull_hit():
    assert calc("E12", result="weapon:LC,LB,PB,EB,AR,RB", weapons="")[0].value == "hull"
    assert calc("E12", result="drive:1", adf=0, adf_original=3)[0].value == "hull"


def test_E13_delayed_defensive_fire_and_the_house_rule():
    later, _ = calc("E13", effect="MR")
    assert later.value is False
    now, _ = calc("E13", options={"defensive_fire_timing": "immediate"}, effect="MR")
    assert now.value is True


def test_E14_moving_and_firing_range_is_checked_where_the_shot_is_taken():
    in_range, r0 = calc("attack", dice=[5], weapon="LB", defences="RH", range_hexes=9)
    assert in_range.value is True and r0.rolls[0].target == 5  # 50 - 9 x 5
    out_of_range, r = calc("attack", weapon="LB", defences="RH", range_hexes=10)
    assert out_of_range.value is False and not r.rolls
    immediate, _ = calc("E14", options={"defensive_fire_timing": "immediate"}, effect="LB")
    assert immediate.value is True


def test_E15_strike_force_nova_placed_by_a_3_at_gran_quivera():
    out, _ = calc("E15", dice=[3])
    assert out.value == "gran-quivera"
    e = to_setup_done(new("seed_start"), place=True, sfn=False)
    assert e.state.formations["upf-sfn"].location == "offmap"
    e2 = new("seed_start")
    e2 = to_setup_done(e2, place=False)
    for fleet, circle in (
        ("sat-devastator", "sc-fromeltar"),
        ("sat-prime-kill", "sc-kizk-kar"),
        ("sat-warbird", "sc-ktsa-kar"),
    ):
        e2.perform("place_fleet", {"fleet": fleet, "at": circle}, by="SATHAR")
    e2.advance()
    e2.perform("place_sfn", {}, by="UPF", answers={"roll1": 3})
    assert e2.state.formations["upf-sfn"].location == "planet:gran-quivera"
    assert e2.state.formations["upf-sfn"].visibility == "public"


def test_E16_merging_tf_prenglar_and_sfn_gives_pren_nova_at_one_box_a_day():
    e = new("seed_day13")
    e.advance()
    e.perform("choose_retreat_condition", {"condition": 2}, by="SATHAR")
    e.advance()
    assert e.state.step == "SATHAR_DECLARE" and e.state.clock["day"] == 13
    to_step(e, "UPF_MOVE")
    e.perform("merge", {"stacks": ["upf-tf-prenglar", "upf-sfn"]}, by="UPF")
    ships = ships_in(e.state, "upf-tf-prenglar")
    assert class_summary(u.type for u in ships) == "10 F, 4 AS, 1 FF, 1 DD, 1 ML, 3 LC, 2 AC, 2 BB"
    rate, why = allowed(e.state, "upf-tf-prenglar")
    assert rate == 1 and why == ["Zill-ikit (ML C) (ADF 1)"]  # G-35: the minelayer
    with pytest.raises(ActionRejected, match="at most 1"):
        e.perform(
            "move_stack",
            {"stack": "upf-tf-prenglar", "order": "go", "dest": "cassidine", "rate": 2},
            by="UPF",
        )
    assert (
        calc(
            "E16",
            classes=["F"] * 10
            + ["AC", "AC", "AS", "AS", "AS", "AS", "FF", "DD", "LC", "LC", "LC", "BB", "BB", "ML"],
        )[0].value
        == 1
    )


def _kaken_kar_battle(e, destroy_station: bool):
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-warbird", "planet:kenzah-kit")
    e.perform("gm.move_unit", {"unit": "mil-zik-kit-as2", "formation": "mil-kenzah-kit"})
    e.perform(
        "gm.edit_formation",
        {"formation": "mil-kenzah-kit", "field": "name", "value": "\"Ken'zah Kit militia + Kr'zzt\""},
    )
    e.perform("declare_attack", {"system": "kaken-kar"}, by="SATHAR")
    e.advance()
    assert e.state.step == "B1"
    e.advance()
    e.advance()
    assert e.state.step == "B3"
    dead = [
        "mil-kenzah-kit-as1",
        "mil-kenzah-kit-as2",
        "mil-zik-kit-as2",
        "sat-warbird-f04",
        "sat-warbird-f05",
    ]
    if destroy_station:
        dead.append("st-kenzah-kit")
    e.perform("ship_destroyed", {"ships": dead})
    e.advance()
    return e


def test_E17_battle_of_kaken_kar_results_and_ledgers():
    e = _kaken_kar_battle(to_setup_done(new("seed_start")), destroy_station=True)
    assert e.state.step == "UPF_DECLARE"
    kills = e.state.records("station_kills")
    assert list(kills) == ["st-kenzah-kit"] and kills["st-kenzah-kit"]["type"] == "FORTIFIED"
    losses = list(e.state.records("losses").values())
    assert sum(1 for r in losses if r["militia"]) == 3
    assert sum(1 for r in losses if r["side"] == "SATHAR" and r["cls"] == "F") == 2
    assert [u for u in ships_in(e.state, "sat-warbird") if u.type == "F"].__len__() == 3
    assert not [
        u
        for u in e.state.units.values()
        if u.status.get("home") == "kenzah-kit" and not u.status.get("destroyed")
    ]
    attacked = set(e.state.vars["today"]["attacked"])
    assert {u.id for u in ships_in(e.state, "sat-warbird")} <= attacked
    put(e, "upf-tf-prenglar", "planet:kenzah-kit")
    with pytest.raises(ActionRejected, match="attacked"):
        e.perform("declare_attack", {"system": "kaken-kar"}, by="UPF")
    fighter_losses = [r for r in losses if r["side"] == "SATHAR"]
    assert all(
        r["cause"] == "combat" and r["tenday"] == 1 and r["replacement"] == "none" for r in fighter_losses
    )


def test_E17_under_station_autodestroy_the_station_falls_anyway():
    e = _kaken_kar_battle(to_setup_done(new("seed_start")), destroy_station=False)
    kill = e.state.records("station_kills")["st-kenzah-kit"]
    assert kill["how"] == "autodestroy" and kill["by"] == "Warbird"


def test_E18_the_logs_sathar_placement_is_legal():
    ok, _ = calc("E18", counts=["devastator:20", "prime-kill:19", "warbird:3"])
    assert ok.value is True
    loads, _ = calc("carrier_loads", loads=["space-demon:8", "notorious:6", "monstrous:6", "star-of-glory:5"])
    assert loads.value is True
    e = to_setup_done(new("seed_start"))
    assert e.state.step == "SATHAR_REINFORCE" and e.state.clock["day"] == 1


def test_E19_fleet_rows_reconcile_with_start_game_totals_not_the_printed_totals():
    """G-33: the printed TOTAL cells (30, 29) contradict their own rows; the rows are used."""
    fleets = plugin.load_data("oob.toml")["seed"]["fleets"]
    totals: dict[str, int] = {}
    for f in fleets.values():
        for cls, n in f["start"].items():
            totals[cls] = totals.get(cls, 0) + n
    assert totals == {"F": 25, "FF": 8, "DD": 15, "LC": 7, "HC": 8, "AC": 4}
    assert plugin.load_data("oob.toml")["sathar"]["ships"] == totals
    assert sum(fleets["devastator"]["start"].values()) == 28 != fleets["devastator"]["printed_total"]["start"]
    assert sum(fleets["prime-kill"]["start"].values()) == 31 != fleets["prime-kill"]["printed_total"]["start"]


@pytest.mark.parametrize("rate,days", [(1, 7), (2, 4), (3, 3)])
def test_E20_provisional_route_timing_prenglar_cassidine(rate, days):
    out, _ = calc("E20", boxes=6, jump=4, rate=rate)
    assert out.value == days


def test_E20_prenglar_gruna_garu_at_rj3_takes_six_days_and_the_map_loads_it():
    assert calc("E20", boxes=13, jump=7, rate=3)[0].value == 6
    e = new("standard")
    r = Fdm.of(e.state).route("prenglar-gruna-garu")
    assert (r.boxes, r.jump_from_a, r.jump_from_b) == (13, 7, 7)
    c = Fdm.of(e.state).route("prenglar-cassidine")
    assert (c.boxes, c.jump_from_a, c.jump_from_b) == (6, 4, 4)


def test_E20_risk_jump_in_the_campaign_stops_at_the_jump_box_and_arrives_on_day_3():
    e = to_setup_done(new("standard"), place=False)
    fighters = [f"sat-f{n:02d}" for n in range(1, 26)]
    for i, ac in enumerate(("sat-ac01", "sat-ac02", "sat-ac03", "sat-ac04")):
        e.perform("base_fighters", {"fighters": fighters[8 * i : 8 * i + 8], "host": ac}, by="SATHAR")
    e.perform("form_fleet", {"name": "A", "ships": [f"sat-dd{n:02d}" for n in range(1, 11)]}, by="SATHAR")
    e.perform(
        "form_fleet",
        {
            "name": "B",
            "ships": [f"sat-dd{n:02d}" for n in range(11, 16)] + [f"sat-ff{n:02d}" for n in range(1, 6)],
        },
        by="SATHAR",
    )
    for name, circle in (("A", "sc-zebulon"), ("B", "sc-kizk-kar")):
        fid = next(f.id for f in e.state.formations.values() if f.name == name)
        e.perform("place_fleet", {"fleet": fid, "at": circle}, by="SATHAR")
    e.advance()
    e.advance()
    to_step(e, "UPF_MOVE")
    lcs = [u.id for u in ships_in(e.state, "upf-tf-prenglar") if u.type == "LC"][:2]
    e.perform("split", {"stack": "upf-tf-prenglar", "ships": lcs, "name": "Fast"}, by="UPF")
    fid = next(f.id for f in e.state.formations.values() if f.name == "Fast")
    e.perform("move_stack", {"stack": fid, "order": "go", "dest": "cassidine", "rate": 3}, by="UPF")
    assert e.state.formations[fid].location == "transit:prenglar-cassidine:3:cassidine"
    to_step(e, "SATHAR_DECLARE")
    to_step(e, "UPF_MOVE")
    out = e.perform("move_all", {}, by="UPF", answers={"roll1": 1})
    assert e.state.formations[fid].location == "transit:prenglar-cassidine:4:cassidine"
    assert [r.target for r in out.entry.rolls if r.table == "T9"] == [70]
    to_step(e, "SATHAR_DECLARE")
    to_step(e, "UPF_MOVE")
    e.perform("move_all", {}, by="UPF")
    assert e.state.clock["day"] == 3
    assert e.state.formations[fid].location == "planet:ruperts-hole"


def test_E21_automatic_hit_and_miss():
    hit, r = calc("E21", dice=[5], weapon="LB", defences="RH", target_masked=True, range_hexes=9)
    assert r.rolls[0].target == -25 and hit.value is True
    miss, _ = calc("E21", dice=[6], weapon="LB", defences="RH", target_masked=True, range_hexes=9)
    assert miss.value is False
    assert calc("E21", dice=[80], weapon="LC", defences="None", range_hexes=1, head_on=True)[0].value is True
    assert calc("E21", dice=[81], weapon="LC", defences="None", range_hexes=1, head_on=True)[0].value is False
    assert calc("E21", dice=[96], weapon="LC", defences="None", base_override=100)[0].value is False
