"""The plugin as a whole: its declarations, the command line, the example save, reports."""

from __future__ import annotations

from pathlib import Path

from campaign_tui.cli import main as cli
from campaign_tui.core.engine import Engine
from campaign_tui.registry import registry
from rulesets.prestags import example, plugin
from tests.conftest import ROOT
from tests.rulesets.prestags.helpers import act, deployed

SAVE = ROOT / "saves" / example.FILE


def test_plugin_check():
    plugin.check()
    assert set(plugin.machines()) == {"prestags.standard", "prestags.simultaneous"}
    info = registry().info("prestags")
    assert info.name == "PRESTAGS" and "Yeoman" in info.games


def test_machines_cover_the_digest_sequence():
    std = plugin.machine("prestags.standard")
    assert [
        s
        for s in std.steps
        if s
        in {
            "FIRE",
            "MOVE_START",
            "PANIC_MOVE",
            "MOVE",
            "MOVE_END",
            "DEF_FIRE",
            "MELEE",
            "RECOVERY",
            "TURN_END",
        }
    ] == ["FIRE", "MOVE_START", "PANIC_MOVE", "MOVE", "MOVE_END", "DEF_FIRE", "MELEE", "RECOVERY", "TURN_END"]
    sim = plugin.machine("prestags.simultaneous")
    assert sim.steps["PLOT"].hidden_input and sim.steps["PLOT"].actor == "both"
    for m in (std, sim):
        assert {"concede", "agree_end", "panic_check", "map_hexes"} <= set(m.anytime)
        assert m.steps["END"].final


def test_cli_reference_commands(capsys):
    assert cli(["scenarios", "prestags"]) == 0
    out = capsys.readouterr().out
    assert "chariot-kadesh" in out and "training" in out
    assert cli(["tables", "prestags"]) == 0
    out = capsys.readouterr().out
    assert "crt, CRT, 8.0" in out and "UNVERIFIED" in out
    assert cli(["phases", "prestags"]) == 0
    out = capsys.readouterr().out
    assert "PLOT: Operations Plot Phase" in out and "secret input" in out
    assert cli(["procedures", "prestags"]) == 0
    assert "odds, 7.32" in capsys.readouterr().out


def test_cli_campaign_round_trip(tmp_path: Path, capsys):
    assert (
        cli(
            [
                "new",
                "prestags",
                "--scenario",
                "training",
                "--seed",
                "1",
                "--option",
                "hex_grid=odd-q",
                "--name",
                "cli",
            ]
        )
        == 0
    )
    path = capsys.readouterr().out.strip().splitlines()[-1]
    assert cli(["act", path, "map_hexes", "facts=A=0505; B=0509; C=0507"]) == 0
    assert cli(["advance", path]) == 0
    assert cli(["act", path, "deploy", "placements=0506: a-sd-01, a-bw-01, a-ldr-01"]) == 0
    assert cli(["advance", path]) == 1  # eight units still to place
    capsys.readouterr()
    assert cli(["status", path]) == 0
    out = capsys.readouterr().out
    assert "Deployment" in out and "deploy (units, hex, placements, facing)" in out
    assert cli(["undo", path]) == 0
    assert cli(["log", path]) == 0
    assert cli(["check", path, "--replay"]) == 0


def test_example_save_replays():
    assert SAVE.is_file()
    assert cli(["check", str(SAVE), "--replay"]) == 0


def test_example_plays_two_game_turns_with_rolls():
    e = Engine.create(plugin, example.SCENARIO, example.OPTIONS, example.SEED, "auto", example.NAME)
    example.play(e)
    assert e.state.clock["gt"] == 3
    assert sum(len(x.rolls) for x in e.entries()) >= 6


def test_badges_show_readiness_and_status():
    e = deployed()
    act(
        e,
        "fire",
        {"firers": ["a-bw-01"], "target": "0508"},
        {"los:a-bw-01:0508": True, "override:lookup1": "-"},
    )
    badges = plugin.badges(e.state, e.state.unit("a-bw-01"))
    assert "fired this Player-Turn: no fire in the next [6.12]" in badges
    assert "can fire" in plugin.badges(e.state, e.state.unit("a-bw-02"))
    assert "cannot melee: dot value: no melee attack [3.36]" in badges
    assert plugin.badges(e.state, e.state.unit("a-ldr-01")) == ["grade 2 (+6, radius 2)"]
    assert plugin.unit_stats(e.state, e.state.unit("a-hc-01")) == "[4] C 7 @0605"
    assert plugin.unit_stats(e.state, e.state.unit("b-sk-01")) == "F2 R1 [2] Ff 5 @0408"


def test_headline_and_reports_by_viewer():
    e = deployed({"simultaneous": True})
    act(e, "plot", {"side": "A", "orders": "a-bw-01 OF 0508"}, by="A")
    heads = plugin.headline(e.state)
    assert any("Panic Level 10" in x for x in heads["A"])
    mine = plugin.reports(e.view("A"), "A")["Battle status"]
    theirs = plugin.reports(e.view("B"), "B")["Battle status"]
    assert "a-bw-01: OF 0508" in mine and "OF 0508" not in theirs
    assert "## Objective hexes" in mine and "- C: nobody" in mine


def test_validate_state_finds_broken_units():
    e = deployed()
    assert plugin.validate_state(e.state) == []
    broken = e.state.copy()
    broken.units["a-sd-01"].type = "ZZ"
    assert plugin.validate_state(broken) == [(["units", "a-sd-01", "type"], "unknown unit type 'ZZ'")]


def test_a_leader_added_by_the_gm_waits_for_its_grade():
    e = deployed()
    e.perform("gm.add_unit", {"type": "L", "side": "A", "id": "a-new", "location": "hex:0506"})
    assert plugin.badges(e.state, e.state.unit("a-new"))[-1].startswith("grade not set")
    e.perform("gm.set_status", {"unit": "a-new", "field": "grade", "value": "1"})
    assert plugin.badges(e.state, e.state.unit("a-new")) == ["grade 1 (+9, radius 2)"]
