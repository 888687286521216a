"""The command line as a user meets it, the bundled example save, and every procedure by alias."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign_tui.cli import main
from campaign_tui.core.engine import Engine
from rulesets.second_sathar_war import plugin

from .swii_kit import calc, new, to_setup_done, to_step

ROOT = Path(__file__).resolve().parents[3]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_reference_commands(capsys):
    code, out = run(capsys, "scenarios", "second_sathar_war")
    assert code == 0 and "seed_day13" in out
    code, out = run(capsys, "table", "second_sathar_war", "T9", "row=MILITIA", "rate=3")
    assert code == 0 and ": 50" in out
    code, out = run(
        capsys, "calc", "second_sathar_war", "5.4", "rows=UPF_BB,MILITIA", "rate=2", "--dice", "96"
    )
    assert code == 0 and "misjump" in out and "vs 95" in out
    code, out = run(capsys, "phases", "second_sathar_war")
    assert "B0 (then SATHAR_BATTLES)" in out and "TENDAY_END" in out


def test_a_short_campaign_on_the_command_line(capsys):
    code, out = run(
        capsys, "new", "second_sathar_war", "--scenario", "seed_start", "--seed", "1", "--name", "c1"
    )
    assert code == 0
    for args in (
        ("advance", "c1"),
        ("act", "c1", "choose_retreat_condition", "condition=2", "--as", "SATHAR"),
        ("advance", "c1"),
    ):
        assert run(capsys, *args)[0] == 0
    code, out = run(capsys, "log", "c1", "--as", "UPF")
    assert "seal" not in out  # the sealed choice is not in the UPF's log
    code, out = run(capsys, "advance", "c1")
    assert code == 1 and "non-attached" in out  # refused, with the reason
    code, out = run(capsys, "report", "c1", "--side", "UPF")
    assert "Fleet locations" in out and "sealed" in out
    code, out = run(capsys, "undo", "c1", "--yes")
    assert code == 0
    code, out = run(capsys, "check", "c1", "--replay")
    assert code == 0 and "replay identical" in out


def test_the_example_save_opens_and_replays(capsys):
    save = ROOT / "saves" / "second_sathar_war-seed_start.toml"
    assert save.is_file()
    code, out = run(capsys, "check", str(save), "--replay")
    assert code == 0, out
    code, out = run(capsys, "status", str(save))
    assert "Day 6" in out


def test_the_example_module_plays_a_battle_with_real_rolls():
    from rulesets.second_sathar_war import example

    e = Engine.create(plugin, example.SCENARIO, example.OPTIONS, example.SEED, "auto", example.NAME)
    example.play(e)
    assert e.state.clock["day"] == 6
    kinds = [x.kind for x in e.entries()]
    assert {"ship_destroyed", "ship_fled", "ship_damaged", "place_sfn", "move_all"} <= set(kinds)
    assert sum(len(x.rolls) for x in e.entries()) >= 3
    assert len(e.state.records("station_kills")) == 3


PROCEDURE_INPUTS = {
    "time_record": {"day": 20},
    "sathar_placement": {"counts": ["a:10", "b:10"]},
    "carrier_loads": {"loads": ["x:8"]},
    "movement_rate": {"adf": 2},
    "stack_rate": {"classes": ["BB", "DD"]},
    "route_timing": {"boxes": 6, "jump": 4, "rate": 2},
    "misjump": {"rows": ["SATHAR"], "rate": 3},
    "misjump_displacement": {},
    "militia_move": {"home": "Dramune", "dest": "Cassidine"},
    "supply": {"start": "Cassidine", "blocked": ["Prenglar"]},
    "fighter_rearm": {"in_supply": False, "used": 2},
    "scc_repair_days": {"hull_damage": 45, "scc": "triad"},
    "captured_repair": {"scc": "triad"},
    "void_return": {"day": 9},
    "sathar_replacement": {"ships": 3},
    "upf_replacements": {"fortresses": 3, "fortified": 2},
    "victory": {"stations_destroyed": 12, "fortresses_destroyed": 4},
    "retreat": {"condition": 1, "ac_lost": 2},
    "retreat_outcome": {"fortresses": 0},
    "sfn_placement": {},
    "which_rules": {"ships": 9},
    "attack": {"weapon": "EB", "defences": "RH,PS"},
    "damage": {"weapon": "DC"},
    "hull": {"weapon": "AR", "double": True},
    "system_hit": {"result": "defence:PS,ES,SS,MS,ICM", "defences": "RH,MS,ICM"},
    "breakup": {"hp_orig": 80, "hp_now": 30, "adf_used": 2, "mr_used": 1},
    "navigation": {},
    "fire": {},
    "mine": {"weapon": "S"},
    "shatter_drone": {},
    "defensive_fire": {},
    "basic_damage": {"weapon": "T"},
    "dcr_repair": {"points": 40},
    "masking_screen": {"orbiting": True, "turns_so_far": 2},
    "attack_eligibility": {"side": "upf", "sathar_ships": 2, "upf_ships": 1},
    "station_autodestroy": {"station": "armed", "sathar": ["DD"], "house_rule": True},
    "militia_flee": {"home_system": True, "fired": True},
    "rearm": {"whole_day_at_planet": True, "in_supply": True},
    "docked_damage": {"destroyed": "ship", "original_hp": 75},
}


@pytest.mark.parametrize("proc", sorted(PROCEDURE_INPUTS))
def test_every_procedure_runs_and_explains_itself(proc):
    result, r = calc(proc, **PROCEDURE_INPUTS[proc])
    assert result.summary
    assert r.lines or r.rolls or result.lines


def test_every_procedure_is_listed():
    assert set(plugin.procedures()) == set(PROCEDURE_INPUTS)


@pytest.mark.parametrize("alias,value", [("victory", True), ("retreat_outcome", "draw"), ("T11", "advanced")])
def test_procedure_values(alias, value):
    inputs = {
        "victory": {"stations_destroyed": 12, "fortresses_destroyed": 4},
        "retreat_outcome": {"fortresses": 0},
        "T11": {"ships": 9},
    }[alias]
    assert calc(alias, **inputs)[0].value == value


def test_attraction_chooses_the_attracting_screen_and_ccs_penalties_stack():
    eb, _ = calc("attack", weapon="EB", defences="RH,PS", roll=False)
    assert eb.value == 70  # PS attracts the electron beam
    pb, _ = calc("attack", weapon="PB", defences="RH,PS", roll=False)
    assert pb.value == 25  # the most effective defence
    both, _ = calc("attack", weapon="LC", defences="None", ccs_hit=True, disastrous_fire=True, roll=False)
    assert both.value == 55
    one, _ = calc(
        "attack",
        options={"disastrous_fire_ccs": "replace"},
        weapon="LC",
        defences="None",
        ccs_hit=True,
        disastrous_fire=True,
        roll=False,
    )
    assert one.value == 65


def test_hull_damage_doubling_and_halving_orders():
    dbl, _ = calc("hull", dice=[3, 4], weapon="AR", double=True, halve=True)  # (3+4+4) x 2 / 2
    assert dbl.value == 11
    other, _ = calc(
        "hull",
        dice=[3, 4],
        options={"halve_double_order": "halve_first"},
        weapon="AR",
        double=True,
        halve=True,
    )
    assert other.value == 12
    dice_only, _ = calc("hull", dice=[3, 4], options={"double_bonus": False}, weapon="AR", double=True)
    assert dice_only.value == 18


def test_in_space_repair_keeps_the_station_only_limits():
    e = to_setup_done(new("seed_start"), condition=2)
    to_step(e, "UPF_MOVE")
    e.perform("gm.set_status", {"unit": "upf-lc-a", "field": "hull_damage", "value": "20"})
    e.perform("gm.set_status", {"unit": "upf-lc-a", "field": "systems_out", "value": '["LB", "T"]'})
    e.perform(
        "space_repair",
        {"ship": "upf-lc-a", "hull_points": 7, "systems": ["LB"], "hull_failed": True, "station_only": ["T"]},
    )
    u = e.state.units["upf-lc-a"]
    assert u.status["hull_damage"] == 13 and u.status["systems_out"] == ["T"]
    assert u.status["hull_station_only"] and u.status["station_repair"] == ["T"]
    with pytest.raises(Exception, match="only be repaired at a station"):
        e.perform("space_repair", {"ship": "upf-lc-a", "hull_points": 3})
    with pytest.raises(Exception, match="only be repaired at a station"):
        e.perform("space_repair", {"ship": "upf-lc-a", "systems": ["T"]})


def test_what_joins_strike_force_nova_off_the_map_is_hidden_from_the_sathar():
    e = new("standard")
    e.advance()
    e.perform("choose_retreat_condition", {"condition": 1}, by="SATHAR")
    e.advance()
    out = e.perform("deploy", {"ships": ["upf-lc-h"], "to": "upf-sfn"}, by="UPF")
    assert out.entry.visibility == "UPF"
    assert "upf-lc-h" not in e.view("SATHAR").units
