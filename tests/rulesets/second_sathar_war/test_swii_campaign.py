"""The campaign driven through the engine: the day loop over days 10 and 20, battles with
results entered, the secret retreat condition, victory, end-of-day chores, map edits."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected
from rulesets.second_sathar_war import plugin
from rulesets.second_sathar_war.ships import ships_in

from .swii_kit import new, put, run_quiet_day, to_setup_done, to_step


def test_plugin_check_passes():
    plugin.check()
    assert set(plugin.machine("second_sathar_war.campaign").anytime) <= set(plugin.actions())


def test_every_scenario_opens_at_its_first_prompt():
    for s in plugin.scenarios():
        e = new(s.id)
        status = e.status()
        assert status.prompt and not status.final
        assert e.state.step == "OPTIONS"


def _day5_battles(e: Engine) -> None:
    """From day 1: the Sathar arrive on day 5; the Terledrom battle costs Devastator 2 fighters."""
    for _ in range(4):
        run_quiet_day(e)
    to_step(e, "SATHAR_DECLARE")
    assert e.state.clock["day"] == 5
    e.perform("declare_attack", {"system": "fromeltar", "planet": "terledrom"}, by="SATHAR")
    e.advance()
    e.advance()
    e.advance()
    assert e.state.step == "B3"
    e.perform("ship_destroyed", {"ships": ["sat-devastator-f07", "sat-devastator-f08", "mil-terledrom-as1"]})
    e.perform(
        "ship_damaged",
        {"ship": "sat-devastator-dd1", "hull_damage": 10, "flags": ["ccs_hit"], "spent": ["T:2"]},
    )
    e.perform("militia_fired", {"ships": ["mil-terledrom-as2"]})
    e.perform(
        "ship_fled",
        {"ships": ["mil-terledrom-as2", "mil-terledrom-as3"], "route": "fromeltar-dramune", "rate": 2},
    )
    e.advance()
    assert e.state.step == "UPF_DECLARE"


def test_day_loop_across_day_10_and_day_20_with_replacements():
    e = to_setup_done(new("seed_start"), condition=3)
    _day5_battles(e)
    assert e.state.records("station_kills")["st-terledrom"]["how"] == "autodestroy"
    fled = next(f for f in e.state.formations.values() if f.name.startswith("Escaped"))
    assert fled.location.startswith("transit:fromeltar-dramune:") and fled.status["rate"] == 2
    run_quiet_day(e)
    while e.state.clock["day"] < 20:
        run_quiet_day(e)
    assert [r["day"] for r in e.state.vars["tenday_reports"]] == [10]
    to_step(e, "END_OF_DAY")
    out = e.advance(answers={"roll1": 10, "roll2": 50})
    assert e.state.step == "REPLACEMENT_PHASE" and e.state.clock["day"] == 20
    assert [r["day"] for r in e.state.vars["tenday_reports"]] == [10, 20]
    rolls = [r for r in out.entry.rolls if r.table == "T14"]
    assert [r.natural for r in rolls] == [10, 50]
    reps = {r["ship"]: r["replacement"] for r in e.state.records("losses").values() if r["side"] == "SATHAR"}
    assert reps == {"sat-devastator-f07": "pending", "sat-devastator-f08": "denied"}
    assert e.state.vars["replacement"]["big"] == 4 and e.state.vars["replacement"]["small"] == 8
    militia_loss = next(k for k, r in e.state.records("losses").items() if r["militia"])
    with pytest.raises(ActionRejected, match="never replaced"):
        e.perform("upf_replacement", {"loss": militia_loss, "station": "st-gollwin"}, by="UPF")
    e.advance()
    assert e.state.clock["day"] == 21 and e.state.step == "SATHAR_REINFORCE"
    back = e.state.units["sat-devastator-f07"]
    assert not back.status["destroyed"] and e.state.formations[back.formation].location == "reserve"


def test_upf_replacement_is_rebuilt_at_its_fortress_next_day():
    e = to_setup_done(new("seed_start"), condition=3)
    to_step(e, "UPF_MOVE")
    e.perform("gm.set_clock", {"level": "day", "value": 20})
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-warbird", "planet:morgaines-world")
    e.perform("declare_attack", {"system": "prenglar", "planet": "morgaines-world"}, by="SATHAR")
    e.advance()
    e.advance()
    e.advance()
    e.perform("ship_destroyed", {"ships": ["upf-ff-c"]})
    to_step(e, "END_OF_DAY")
    e.advance(answers={f"roll{n}": 99 for n in range(1, 5)})
    assert e.state.step == "REPLACEMENT_PHASE"
    loss = next(k for k, r in e.state.records("losses").items() if r["ship"] == "upf-ff-c")
    with pytest.raises(ActionRejected, match="AS, F"):
        e.perform("upf_replacement", {"loss": loss, "station": "st-gran-quivera"}, by="UPF")
    e.perform("upf_replacement", {"loss": loss, "station": "st-pale"}, by="UPF")
    e.advance()
    to_step(e, "UPF_MOVE")
    ff = e.state.units["upf-ff-c"]
    assert not ff.status["destroyed"]
    assert e.state.formations[ff.formation].location == "planet:pale"


def test_secret_retreat_condition_hidden_from_the_upf_and_revealed_when_met():
    e = to_setup_done(new("seed_start"), condition=4)
    assert e.view("UPF").secrets == {}
    assert e.view("SATHAR").secrets["SATHAR"]["retreat_condition"] == 4
    sealed = next(x for x in e.entries() if x.kind == "choose_retreat_condition")
    assert not sealed.visible_to("UPF") and sealed.visible_to("SATHAR")
    board = plugin.reports(e.view("UPF"), "UPF")["Retreat tracker"]
    assert "sealed" in board and "4" not in board.split("\n")[2]
    assert (
        "Sealed condition (hidden from the UPF): 4"
        in plugin.reports(e.view("SATHAR"), "SATHAR")["Retreat tracker"]
    )
    for _ in range(9):
        run_quiet_day(e)
        assert "retreat" not in e.view("UPF").vars
    to_step(e, "END_OF_DAY")
    e.advance()
    assert e.state.step == "RETREAT_MODE"
    revealed = e.view("UPF").vars["retreat"]
    assert revealed["condition"] == 4 and revealed["day"] == 10 and revealed["result"] == "upf_victory"
    assert "condition 4" in plugin.reports(e.view("UPF"), "UPF")["Retreat tracker"]
    e.advance()
    for _ in range(10):
        if e.step.final:
            break
        run_quiet_day(e)
    assert e.step.final and e.state.step == "GAME_OVER"
    assert e.state.vars["outcome"]["result"] == "upf_victory"
    assert all(
        f.location == "withdrawn"
        for f in e.state.formations.values()
        if f.side == "SATHAR" and ships_in(e.state, f.id) and f.id != "sathar-reserve"
    )


def test_retreat_condition_1_triggers_in_the_middle_of_a_battle():
    e = to_setup_done(new("seed_start"), condition=1)
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-prime-kill", "planet:triad")
    put(e, "sat-warbird", "planet:ruperts-hole")
    e.perform(
        "declare_attack",
        {"system": "cassidine", "planet": "triad", "forces": ["sat-prime-kill"]},
        by="SATHAR",
    )
    e.perform(
        "declare_attack",
        {"system": "cassidine", "planet": "ruperts-hole", "forces": ["sat-warbird"]},
        by="SATHAR",
    )
    e.advance()
    e.advance()
    e.advance()
    e.perform("ship_destroyed", {"ships": ["sat-prime-kill-ac1", "sat-prime-kill-ac2"]})
    e.advance()
    assert e.state.vars["retreat"]["condition"] == 1
    assert e.state.step == "UPF_DECLARE"  # the second Sathar attack was called off
    assert e.state.records("battles")["B1-2"]["status"] == "declared"
    assert e.state.formations["sat-warbird"].status["order"] == {"kind": "withdraw"}


def test_sathar_victory_is_detected_when_the_12th_station_falls():
    e = to_setup_done(new("seed_start", station_autodestroy=False), condition=2)
    forts = ["st-gollwin", "st-kdikit", "st-redoubt", "st-pale"]
    others = [
        "st-minotaur",
        "st-hentz",
        "st-gran-quivera",
        "st-groth",
        "st-terledrom",
        "st-new-pale",
        "st-lossend",
    ]
    for st in forts + others:
        e.perform("gm.station", {"station": st, "destroyed": True, "by": "test", "reason": "set-up"})
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-warbird", "planet:hargut")
    e.perform("declare_attack", {"system": "gruna-garu"}, by="SATHAR")
    e.advance()
    e.advance()
    e.advance()
    e.perform("ship_destroyed", {"ships": ["st-hargut"]})
    e.advance()
    assert e.step.final
    assert e.state.vars["outcome"]["result"] == "sathar_victory"


def test_twelve_stations_without_all_four_fortresses_is_not_victory():
    e = to_setup_done(new("seed_start"), condition=2)
    for st in [
        "st-gollwin",
        "st-kdikit",
        "st-redoubt",
        "st-minotaur",
        "st-hentz",
        "st-gran-quivera",
        "st-groth",
        "st-terledrom",
        "st-new-pale",
        "st-lossend",
        "st-hargut",
        "st-triad",
    ]:
        e.perform("gm.station", {"station": st, "destroyed": True})
    run_quiet_day(e)
    assert not e.step.final and e.state.clock["day"] == 2


def test_stranded_fighters_die_at_the_end_of_the_day_unless_they_land():
    e = to_setup_done(new("seed_start", station_autodestroy=False), condition=2)
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-warbird", "planet:triad")
    e.perform("declare_attack", {"system": "cassidine", "planet": "triad"}, by="SATHAR")
    e.advance()
    e.advance()
    e.advance()
    carrier = next(u.id for u in ships_in(e.state, "upf-tf-cassidine") if u.type == "AC")
    fighters = [u.id for u in ships_in(e.state, "upf-tf-cassidine") if u.type == "F"]
    e.perform("ship_destroyed", {"ships": [carrier]})
    assert all(e.state.units[f].status["aboard"] == "" for f in fighters)
    e.advance()
    to_step(e, "END_OF_DAY")
    e.perform("base_fighters", {"fighters": fighters[:2], "host": "st-triad"})
    e.advance()
    lost = {r["ship"] for r in e.state.records("losses").values() if r["cause"] == "stranded_fighter"}
    assert lost == set(fighters[2:])


def test_rearm_needs_a_whole_day_at_a_planet_in_supply():
    e = to_setup_done(new("seed_start"), condition=2)
    e.perform("gm.set_status", {"unit": "upf-lc-a", "field": "spent", "value": '["T:2", "RB:3"]'})
    e.perform("gm.set_status", {"unit": "upf-lc-b", "field": "spent", "value": '["T:1"]'})
    to_step(e, "UPF_MOVE")
    e.perform("split", {"stack": "upf-tf-prenglar", "ships": ["upf-lc-b"], "name": "Mover"}, by="UPF")
    mover = next(f.id for f in e.state.formations.values() if f.name == "Mover")
    e.perform("move_stack", {"stack": mover, "order": "go", "dest": "cassidine"}, by="UPF")
    to_step(e, "END_OF_DAY")
    e.advance()
    assert e.state.units["upf-lc-a"].status["spent"] == []
    assert e.state.units["upf-lc-b"].status["spent"] == ["T:1"]


def test_scc_repairs_stop_while_sathar_ships_are_in_the_system():
    e = to_setup_done(new("seed_start"), condition=2)
    e.perform("gm.set_status", {"unit": "upf-lc-a", "field": "hull_damage", "value": "30"})
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-warbird", "planet:ruperts-hole")
    to_step(e, "END_OF_DAY")
    out = e.advance()
    assert e.state.units["upf-lc-a"].status["hull_damage"] == 30
    assert any("no repairs while Sathar ships" in line for line in out.entry.lines)


def test_a_upf_attack_on_sathar_that_did_not_attack_today():
    e = to_setup_done(new("seed_start"), condition=2)
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-warbird", "planet:ruperts-hole")
    e.advance()
    assert e.state.step == "UPF_DECLARE"
    e.perform(
        "declare_attack",
        {"system": "cassidine", "planet": "ruperts-hole", "forces": ["upf-tf-cassidine"]},
        by="UPF",
    )
    e.advance()
    assert e.state.step == "B1"
    b = e.state.records("battles")[e.state.vars["battle"]]
    assert b["side"] == "UPF" and set(b["defenders"]) == {u.id for u in ships_in(e.state, "sat-warbird")}
    e.perform("near_planet", {"choice": False})
    with pytest.raises(ActionRejected, match="minelayer"):  # the attacker never pre-places mines
        e.perform("record_mines", {"hexes": ["0512"]}, by="UPF")
    e.advance()
    e.perform("helper", {"procedure": "breakup", "inputs": "hp_orig=50 hp_now=18 adf_used=3 mr_used=1"})
    e.advance()
    e.perform("ship_destroyed", {"ships": ["sat-warbird-ff1"]})
    e.perform("ship_fled", {"ships": ["sat-warbird-dd1", "sat-warbird-ac1"], "route": "dramune-cassidine"})
    e.advance()
    assert e.state.step == "END_OF_DAY"
    esc = next(f for f in e.state.formations.values() if f.side == "SATHAR" and f.name.startswith("Escaped"))
    assert {u.type for u in ships_in(e.state, esc.id)} == {"DD", "AC", "F"}  # the fighters went aboard


def test_gm_corrects_the_provisional_map():
    e = to_setup_done(new("seed_start"), condition=2)
    e.perform(
        "gm.fdm_route",
        {
            "route": "prenglar-cassidine",
            "boxes": 5,
            "jump_from_a": 3,
            "jump_from_b": 3,
            "reason": "checked against the FDM",
        },
    )
    rec = e.state.records("routes")["prenglar-cassidine"]
    assert (rec["boxes"], rec["provenance"]) == (5, "house")
    e.perform("gm.fdm_circle", {"circle": "sc-prenglar", "red_boxes": 3})
    e.perform(
        "gm.fdm_add_route", {"a": "zebulon", "b": "athor", "boxes": 6, "jump_from_a": 3, "jump_from_b": 4}
    )
    assert "zebulon-athor" in e.state.records("routes")
    with pytest.raises(ActionRejected, match="only the GM"):
        e.perform("gm.fdm_remove_route", {"route": "zebulon-athor"}, by="UPF")
    e.perform("gm.fdm_remove_route", {"route": "zebulon-athor"})
    text = plugin.reports(e.view("gm"), "gm")["Frontier Deployment Map"]
    assert "NOT the rulebook's FDM" in text and "(house)" in text


def test_status_board_and_map_report_show_fleet_positions():
    e = new("seed_day13")
    reports = plugin.reports(e.view("UPF"), "UPF")
    board = reports["Fleet locations"]
    assert "Stations destroyed: **5/12**, fortresses **0/4**" in board
    assert "Devastator" in board and "Task Force Cassidine" in board
    fdm = reports["Frontier Deployment Map"]
    assert "Madderly's Star [ ][ ][3][12][ ][ ][ ] Cassidine  (7 boxes, jump 4/4)" in fdm
    assert "Day log" in reports


def test_strike_force_nova_is_hidden_from_the_sathar_until_placed():
    e = to_setup_done(new("seed_start"), condition=2)
    sfn_ships = {u.id for u in e.state.units.values() if u.formation == "upf-sfn"}
    view = e.view("SATHAR")
    assert "upf-sfn" in view.formations and not sfn_ships & set(view.units)
    assert not sfn_ships & set(view.vars.get("day_start", {}))
    to_step(e, "UPF_REINFORCE")
    e.perform("place_sfn", {}, by="UPF")
    assert sfn_ships <= set(e.view("SATHAR").units)


def test_undo_and_replay_of_a_day():
    e = to_setup_done(new("seed_start"), condition=2)
    to_step(e, "SATHAR_MOVE")
    before = e.state.copy()
    e.perform("move_all", {}, by="SATHAR")
    e.undo(confirm=True)
    assert e.state == before
    e.perform("move_all", {}, by="SATHAR")
    replayed = Engine.replay(plugin, e.state_at(0), e.info, e.entries())
    assert replayed.state == e.state


def test_a_defending_minelayer_records_secret_mine_hexes():
    e = to_setup_done(new("seed_start", station_autodestroy=False), condition=2)
    to_step(e, "SATHAR_DECLARE")
    put(e, "sat-warbird", "planet:triad")
    e.perform("declare_attack", {"system": "cassidine", "planet": "triad"}, by="SATHAR")
    e.advance()
    bid = e.state.vars["battle"]
    out = e.perform("record_mines", {"hexes": ["0512", "0613"]}, by="UPF")
    assert out.entry.visibility == "UPF"
    assert e.state.secrets["UPF"][f"mines:{bid}"] == ["0512", "0613"]
    assert "UPF" not in e.view("SATHAR").secrets
    e.advance()
    found = e.perform("reveal_mine", {"hex": "0613"})
    assert "revealed" in found.entry.summary
    assert e.state.records("battles")[bid]["revealed"] == ["0613"]
