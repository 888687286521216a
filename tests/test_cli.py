"""The campaign-tui command: every subcommand, its output and exit codes (demo rule set)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_tui.cli import EXIT_DECIDE, EXIT_FAIL, EXIT_OK, build_parser, main
from tests.cli_helpers import fresh_registry, run  # noqa: F401


@pytest.fixture
def campaign(capsys) -> str:
    code, out, _ = run(capsys, "new", "demo", "--seed", "7", "--name", "CLI Test")
    assert code == EXIT_OK
    return out.strip()


def test_rulesets_scenarios_tables_phases(capsys):
    code, out, _ = run(capsys, "rulesets")
    assert code == 0 and "demo\tDemo Skirmish\t1.0" in out
    assert run(capsys, "scenarios", "demo", "--ids")[1].split() == ["skirmish", "long"]
    assert "skirmish\tSkirmish\t3 turns\tA vs B" in run(capsys, "scenarios", "demo")[1]
    out = run(capsys, "tables", "demo")[1]
    assert "crt, T1, 1.1: Demo Combat Results Table" in out and "UNVERIFIED" in out
    out = run(capsys, "phases", "demo")[1]
    assert "Demo skirmish [demo.standard]" in out and "combat_start" in out


def test_unknown_ruleset_is_a_clear_error(capsys):
    code, _, err = run(capsys, "scenarios", "nope")
    assert code == EXIT_FAIL and "no rule set 'nope'; installed:" in err


def test_table_lookup_with_explanation_and_json(capsys):
    code, out, _ = run(capsys, "table", "demo", "T1", "odds=15:5", "--roll", "6")
    assert code == 0 and out.splitlines()[0] == "Demo Combat Results Table: +3/-3"
    assert "odds 15:5 -> 3-1 (rounded in the defender's favour)" in out
    code, out, _ = run(capsys, "table", "demo", "crt", "odds=15:5", "--roll", "6",
                       "--shift", "odds=-1", "--json")
    data = json.loads(out)
    assert data["cell"] == "+2/-3" and data["labels"] == {"roll": "6", "odds": "2-1"}
    code, out, _ = run(capsys, "table", "demo", "crt", "odds=15:5")
    assert code == 0 and out.startswith("rolled ")
    code, _, err = run(capsys, "table", "demo", "crt", "odds=1:9", "--roll", "1")
    assert code == EXIT_FAIL and "below 1-2: not allowed" in err


def test_roll_and_calc(capsys):
    code, out, _ = run(capsys, "roll", "3d10+4", "--seed", "5")
    assert code == 0 and out.startswith("3d10+4: [") and out.strip().endswith(
        str(sum(json.loads(out.split(": ")[1].split(" =")[0])) + 4))
    assert run(capsys, "roll", "d6", "--seed", "5") == run(capsys, "roll", "d6", "--seed", "5")
    code, _, err = run(capsys, "roll", "d7x")
    assert code == EXIT_FAIL and "'d7x' is not a dice expression" in err
    code, out, _ = run(capsys, "calc", "demo", "5.7", "defense=4", "modifier=-1", "--dice", "5")
    assert code == 0 and "Saving roll: unit fails" in out and "d6 5 vs 3 -> fails" in out
    code, out, _ = run(capsys, "calc", "demo", "save", "defense=4", "modifier=0", "--dice", "2",
                       "--json")
    assert json.loads(out)["value"] is True
    code, _, err = run(capsys, "calc", "demo", "save", "defense=4", "modifier=0", "--dice", "9")
    assert code == EXIT_FAIL and "9 is not a face of a d6" in err
    assert "procedures" and "save, 5.7: Saving roll" in run(capsys, "procedures", "demo")[1]


def test_bad_arguments_exit_2_with_a_message(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["table", "demo", "crt", "oddsis15"])
    assert exc.value.code == 2
    assert "'oddsis15' is not NAME=VALUE" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["new"])
    assert exc.value.code == 2


def test_help_everywhere():
    parser = build_parser()
    subs = next(a for a in parser._actions if a.dest == "command").choices
    for name in subs:
        result = subprocess.run([sys.executable, "-m", "campaign_tui", name, "--help"],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0 and "usage: campaign-tui" in result.stdout, name


def test_a_turn_from_the_command_line(capsys, campaign):
    path = campaign
    assert Path(path, "campaign.toml").is_file()
    code, out, _ = run(capsys, "status", path)
    assert "CLI Test — Demo Skirmish" in out and "Now: Check the set-up." in out
    assert "2. advance — Advance" in out
    code, out, _ = run(capsys, "advance", path)
    assert code == 0 and "now: Turn 1 · MOVE · Move" in out
    code, out, _ = run(capsys, "act", path, "move", "unit=a-inf", "to=hex:0303")
    assert code == 0 and "A Infantry hex:0101 -> hex:0303" in out
    code, _, err = run(capsys, "act", path, "move", "unit=b-inf", "to=hex:0303")
    assert code == EXIT_FAIL and "does not belong to the phasing side" in err
    code, _, err = run(capsys, "act", path, "move", "unit=ghost", "to=x")
    assert code == EXIT_FAIL and "no unit 'ghost'" in err
    run(capsys, "advance", "CLI Test")                       # by campaign name
    code, out, _ = run(capsys, "act", path, "declare", "attackers=a-inf,a-tank", "target=b-inf")
    assert code == EXIT_DECIDE and "Decision needed (gm): Are a-inf, a-tank adjacent" in out
    assert "answer with: adj:b-inf=VALUE" in out
    code, out, _ = run(capsys, "act", path, "declare", "attackers=a-inf,a-tank", "target=b-inf",
                       "adj:b-inf=yes")
    assert code == 0 and "GM ruling" in out
    run(capsys, "advance", path)
    code, out, _ = run(capsys, "advance", path)
    assert code == EXIT_FAIL and "Cannot advance yet: resolve the remaining attacks" in out
    code, out, _ = run(capsys, "act", path, "resolve", "shift=0", "--preview")
    assert code == 0 and out.startswith("preview: attack on B Infantry")
    preview_rolls = [line for line in out.splitlines() if "roll:" in line]
    code, out, _ = run(capsys, "act", path, "resolve", "shift=0")
    assert [line for line in out.splitlines() if "roll:" in line] == preview_rolls
    code, out, _ = run(capsys, "log", path, "--rolls")
    assert "attack on B Infantry" in out and "roll 1: 1d6" in out
    data = json.loads(run(capsys, "log", path, "--json", "--limit", "1")[1])
    assert data[0]["kind"] == "resolve" and data[0]["rolls"]
    assert run(capsys, "log", path, "--turn", "2")[1] == ""
    code, out, _ = run(capsys, "undo", path)
    assert code == EXIT_FAIL and "Run again with --yes" in out
    assert run(capsys, "undo", path, "--yes")[1].startswith("Undo: attack on B Infantry")
    assert run(capsys, "redo", path)[1].startswith("Redo: attack on B Infantry")
    code, out, _ = run(capsys, "check", path, "--replay")
    assert code == 0 and "replay identical" in out
    status = json.loads(run(capsys, "status", path, "--json")[1])
    assert status["step"] == "combat_start" and status["sides"]["A"]


def test_acting_as_a_side_and_viewing_as_a_side(capsys, campaign):
    run(capsys, "advance", campaign)
    code, _, err = run(capsys, "act", campaign, "move", "unit=a-inf", "to=x", "--as", "B")
    assert code == EXIT_FAIL and "it is for Army A to do" in err
    out = run(capsys, "status", campaign, "--as", "A")[1]
    assert "Army B: 0 units" in out                       # B's contents are hidden from A


def test_export_import_list_and_file_arguments(capsys, campaign, tmp_path):
    out = tmp_path / "bundle.toml"
    assert run(capsys, "export", campaign, "-o", str(out))[0] == 0
    side = tmp_path / "side.toml"
    assert run(capsys, "export", campaign, "--side", "A", "-o", str(side))[0] == 0
    assert "b-tank" not in side.read_text()
    assert run(capsys, "check", str(out), "--replay")[0] == 0
    code, imported, _ = run(capsys, "import", str(out), "--name", "Imported")
    assert code == 0 and Path(imported.strip()).is_dir()
    listing = run(capsys, "list")[1]
    assert "CLI Test  (demo)" in listing and "Imported" in listing
    assert json.loads(run(capsys, "list", "--json")[1])[0]["ruleset"] == "demo"
    note = tmp_path / "note.txt"
    note.write_text("from a file")
    run(capsys, "act", campaign, "note", f"text=@{note}")
    assert "Note: from a file" in run(capsys, "log", campaign, "--limit", "1")[1]
    with pytest.raises(SystemExit) as exc:
        main(["act", campaign, "note", "text=@/nonexistent/x"])
    assert exc.value.code == 2 and "cannot read /nonexistent/x" in capsys.readouterr().err


def test_a_damaged_save_is_reported_with_file_and_line(capsys, campaign):
    header = Path(campaign, "campaign.toml")
    header.write_text(header.read_text().replace("seed = 7", "seed = = 7"))
    code, _, err = run(capsys, "status", campaign)
    assert code == EXIT_FAIL and f"{header}:" in err and "not valid TOML" in err
    code, _, err = run(capsys, "check", campaign)
    assert code == EXIT_FAIL


def test_reports_command_without_reports(capsys, campaign):
    assert "has no reports" in run(capsys, "report", campaign)[1]
