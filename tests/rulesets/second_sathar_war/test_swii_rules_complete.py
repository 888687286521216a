"""Issue 16 ("The rules, complete"), Second Sathar War points: each test failed before its fix."""

from __future__ import annotations

import pytest

from campaign_tui.core.dice import read_face
from campaign_tui.core.errors import InvalidInput
from rulesets.second_sathar_war import plugin

from .swii_kit import calc, new, run_quiet_day, to_setup_done, to_step


# -- 5.14d: a Damage Control hit halves the DCR ------------------------------------------------------
def test_system_hit_takes_the_dcr_and_shows_it_halved() -> None:
    result, r = calc("system_hit", result="dcr", dcr=75)
    assert result.value == "flag:dcr_hit"  # the value form is unchanged
    assert "DCR 75 -> 38" in result.summary
    assert "DCR 75 / 2, rounded up = 38" in r.lines
    fire, _ = calc("system_hit", result="disastrous_fire", dcr=75)
    assert "DCR 75 -> 38" in fire.summary
    again, _ = calc("system_hit", result="disastrous_fire", dcr=38, flags="dcr_hit")
    assert "->" not in again.summary  # halved once only


def test_system_hit_reads_the_tables_words_and_the_modified_roll() -> None:
    words, _ = calc("system_hit", result="Damage Control hit", dcr=120)
    roll, _ = calc("system_hit", result="110", dcr=120)
    assert words.value == roll.value == "flag:dcr_hit"
    assert "DCR 120 -> 60" in words.summary
    for typo in ("Damage Contrl hit", "bogus"):  # these used to pass as unknown flags
        with pytest.raises(InvalidInput, match="not a Damage Table result"):
            calc("system_hit", result=typo)


def _at_battle_results():  # type: ignore[no-untyped-def]
    e = to_setup_done(new("seed_start"), condition=3)
    for _ in range(4):
        run_quiet_day(e)
    to_step(e, "SATHAR_DECLARE")
    e.perform("declare_attack", {"system": "fromeltar", "planet": "terledrom"}, by="SATHAR")
    for _ in range(3):
        e.advance()
    assert e.state.step == "B3"
    return e


def test_a_dcr_hit_entered_after_battle_shows_the_current_dcr_in_the_report() -> None:
    from rulesets.second_sathar_war.reports import damaged_ships

    e = _at_battle_results()
    e.perform("ship_damaged", {"ship": "sat-devastator-dd1", "hull_damage": 10, "flags": ["dcr_hit"]})
    u = e.state.unit("sat-devastator-dd1")
    assert u.status["dcr_halved"]
    assert "DCR 38 (halved from 75)" in plugin.unit_stats(e.state, u)
    report = damaged_ships(e.state)
    row = next(line for line in report.splitlines() if u.label in line)
    assert "HP 40/50" in row and "DCR 38 (halved from 75)" in row
    assert "Damaged ships" in plugin.reports(e.state, "gm")
    assert any("DCR 38" in line for line in e.entries()[-1].lines)


# -- T8, T10, T18, T14: a d10 shows 0 for 10, a d100 00 for 100 -------------------------------------
def test_every_die_read_table_declares_its_faces_and_modified_rolls_do_not() -> None:
    for table in plugin.tables():
        for axis in table.axes:
            if axis.die == "1d10":
                assert "0 = 10" in axis.title, table.id
                assert table.lookup(**{axis.name: read_face(10, "0")}).value == table.lookup(
                    **{axis.name: 10}).value
            elif axis.die == "1d100":
                assert "00 = 100" in axis.title, table.id
            if "modified" in axis.title:
                assert axis.die is None, table.id  # a modified 0 is not a face 00
    damage = plugin.tables().get("T7")
    assert damage.lookup(roll=0).value == "hull:double"


def test_a_typed_zero_places_strike_force_nova_as_ten() -> None:
    zero, _ = calc("sfn_placement", dice=[0])
    ten, _ = calc("sfn_placement", dice=[10])
    assert zero.value == ten.value == str(plugin.tables().get("T8").lookup(roll=10).value)


# -- 5.9 supply: "no fortress left" can be said ----------------------------------------------------
def test_supply_with_no_fortress_left_is_out_of_supply() -> None:
    default, _ = calc("supply", start="Dramune")
    assert default.value is True
    for none in ([], ["none"]):
        result, r = calc("supply", start="Dramune", fortresses=none)
        assert result.value is False, none
        assert any("no fortress is left" in line for line in r.lines)
        result, _ = calc("supply", start="Dramune", targets=none)
        assert result.value is False, none
    named, r = calc("supply", start="Dramune", fortresses=["Pale", "Fortress Redoubt"])
    assert named.value is True and "Fortress Pale (Truane's Star)" in r.lines[0]
    with pytest.raises(InvalidInput, match="no fortress 'Bob'"):
        calc("supply", start="Dramune", fortresses=["Bob"])


def test_calc_supply_reads_an_empty_fortress_list_from_the_command_line(capsys) -> None:  # type: ignore[no-untyped-def]
    from campaign_tui.cli import main

    assert main(["calc", "second_sathar_war", "supply", "start=Dramune", "fortresses=", "--json"]) == 0
    assert '"value": false' in capsys.readouterr().out


# -- T11: a Basic-rules battle has no Advanced Damage Table -----------------------------------------
def test_the_helper_in_a_basic_rules_battle_never_rolls_the_damage_table() -> None:
    from campaign_tui.core.errors import CampaignError

    e = to_setup_done(new("seed_start"), condition=3)
    for _ in range(4):
        run_quiet_day(e)
    to_step(e, "SATHAR_DECLARE")
    e.perform("declare_attack", {"system": "fromeltar", "planet": "terledrom"}, by="SATHAR")
    e.advance()
    assert e.state.step == "B1"
    e.perform("set_battle_rules", {"rules": "basic"})
    e.advance()
    e.perform("helper", {"procedure": "damage", "inputs": "weapon=LB"})
    entry = e.entries()[-1]
    assert "Basic rules" in entry.summary and not [r for r in entry.rolls if r.table == "T7"]
    for proc, inputs in (("fire", ""), ("system_hit", "result=dcr")):
        with pytest.raises(CampaignError, match="no Damage Table"):
            e.perform("helper", {"procedure": proc, "inputs": inputs})
    advanced, _ = calc("damage", dice=[50], weapon="LB")
    assert advanced.value == "drive:half"  # outside a Basic battle the table is rolled as before


# -- T20: the header on days 1-10 -------------------------------------------------------------------
def test_the_day_header_has_no_blank_tenday() -> None:
    from rulesets.second_sathar_war.rules import day_text

    assert day_text(3) == "Day 3 (Time Record: Day 3)"
    assert day_text(13) == "Day 13 (Time Record: Tenday 10, Day 3)"
    assert all("blank" not in day_text(d) for d in range(1, 60))


# -- every rule reachable: procedures added by the audit ---------------------------------------
def test_station_autodestroy_militia_flee_rearm_and_docking_are_reachable() -> None:
    on = {"station_autodestroy": True}
    assert calc("station_autodestroy", options=on, station="armed", sathar=["FF", "DD"])[0].value is True
    assert calc("station_autodestroy", options=on, station="fortified", sathar=["FF", "F"])[0].value is False
    assert calc("station_autodestroy", options=on, station="fortress", sathar=["HC"])[0].value is False
    assert calc("station_autodestroy", station="armed", sathar=["HC"])[0].value is False  # option off
    assert calc("station_autodestroy", station="armed", sathar=["HC"], house_rule=True)[0].value is True
    assert calc("militia_flee", home_system=True)[0].value is False
    assert calc("militia_flee", home_system=True, fired=True)[0].value is True
    house = {"militia_attack_rule": "any_one_ship"}
    assert calc("militia_flee", options=house, home_system=True, group_fired=True)[0].value is True
    assert calc("militia_flee", home_system=False)[0].value is True
    assert calc("rearm", whole_day_at_planet=True, in_supply=True)[0].value is True
    assert calc("rearm", whole_day_at_planet=True, in_supply=True, fought=True)[0].value is False
    assert calc("rearm", whole_day_at_planet=True, in_supply=False)[0].value is False
    assert calc("docked_damage", destroyed="station", original_hp=80)[0].value == 40


def test_calc_explains_each_table_lookup_once() -> None:
    for proc, params in (("which_rules", {"ships": 9}), ("retreat", {"condition": 1, "ac_lost": 2}),
                         ("system_hit", {"result": "110", "dcr": 75})):
        result, r = calc(proc, **params)
        lines = [*r.lines, *result.lines]
        assert len(lines) == len(set(lines)), (proc, lines)


# -- 5.6: who may declare an attack -----------------------------------------------------------------
def test_attack_eligibility_takes_the_days_facts() -> None:
    assert calc("attack_eligibility", side="sathar", sathar_ships=2, upf_ships=1)[0].value == 1
    assert calc("attack_eligibility", side="sathar", sathar_ships=2)[0].value == 0  # nobody to fight
    assert calc("attack_eligibility", side="sathar", sathar_ships=2, station=True)[0].value == 1
    assert calc("attack_eligibility", side="sathar", sathar_ships=2, militia_ships=1,
                planet_attacked_today=True)[0].value == 0  # one planet per day
    upf, _ = calc("attack_eligibility", side="upf", sathar_ships=3, upf_ships=2, attacked_today=1)
    assert upf.value == 2 and "the UPF may attack 2" in upf.summary
    assert calc("attack_eligibility", side="upf", sathar_ships=3, upf_ships=2, attacked_today=3)[0].value == 0
    assert calc("attack_eligibility", side="upf", sathar_ships=3, upf_ships=2,
                sathar_declared=False)[0].value == 0
    with pytest.raises(InvalidInput, match="attacked_today"):
        calc("attack_eligibility", side="upf", sathar_ships=1, upf_ships=1, attacked_today=2)
