"""Every command but open drives with --json and its output validates against the schema it
names (campaign_tui/cli/schemas/<command>.json): results, refusals and pending decisions."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from campaign_tui.cli import EXIT_DECIDE, EXIT_FAIL, EXIT_OK, EXIT_USAGE, build_parser, main
from tests.cli_helpers import fresh_registry  # noqa: F401


def schema(name: str) -> dict[str, Any]:
    text = resources.files("campaign_tui.cli").joinpath("schemas", f"{name}.json").read_text()
    return json.loads(text)


def run_json(capsys, *argv: str, code: int = EXIT_OK) -> Any:
    """Run one command with --json; check the exit code and validate what it printed."""
    try:
        got = main([*argv, "--json"])
    except SystemExit as exc:  # bad arguments: argparse's exit, after the JSON error
        got = int(exc.code or 0)
    out = capsys.readouterr().out
    assert got == code, out
    data = json.loads(out)
    name = argv[0] if isinstance(data, list) else data["command"]
    if isinstance(data, dict) and data["command"] not in ("error", "decision"):
        assert data["command"] == argv[0]
    jsonschema.validate(data, schema(name))
    assert "½" not in out and "¼" not in out and "¾" not in out
    return data


def test_every_schema_is_a_valid_schema():
    folder = resources.files("campaign_tui.cli").joinpath("schemas")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
    assert len(names) >= 20
    for name in names:
        jsonschema.Draft202012Validator.check_schema(json.loads(folder.joinpath(name).read_text()))


def test_the_shipped_schemas_are_what_the_writer_writes(tmp_path):
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, str(root / "tools" / "write_cli_schemas.py"), str(tmp_path)],
                   check=True, capture_output=True, cwd=root, timeout=60)
    folder = resources.files("campaign_tui.cli").joinpath("schemas")
    for written in tmp_path.iterdir():
        assert written.read_text() == folder.joinpath(written.name).read_text(), written.name


def test_numbers_carry_no_glyphs_and_exact_values_go_beside_them(capsys):
    data = run_json(capsys, "calc", "prestags", "melee_defence", "units=5", "terrain=1/2")
    assert data["value"] == "2 1/2" and data["value_exact"] == {"num": 5, "den": 2}
    assert data["steps"][-1]["value_exact"] == {"num": 5, "den": 2}
    assert any(step["reference"] == "7.6" for step in data["steps"])


def test_every_command_with_json_validates(capsys, tmp_path):
    seen: set[str] = set()

    def go(*argv: str, code: int = EXIT_OK) -> Any:
        seen.add(argv[0])
        return run_json(capsys, *argv, code=code)

    path = go("new", "demo", "--seed", "7", "--name", "Json")["path"]
    assert go("list")[0]["name"] == "Json"
    assert "demo" in [r["id"] for r in go("rulesets")["rulesets"]]
    assert [s["id"] for s in go("scenarios", "demo")["scenarios"]] == ["skirmish", "long"]
    assert go("tables", "demo")["tables"][0]["inputs"]
    assert go("phases", "demo")["machines"]
    table = go("table", "demo", "crt", "odds=15:5", "--roll", "6")
    assert table["cell"] == "+3/-3" and table["steps"]
    assert go("roll", "2d6", "--seed", "3")["total"] >= 2
    procs = go("procedures", "demo")["procedures"]
    assert procs[0]["params"] and {"name", "type", "help", "choices"} <= set(procs[0]["params"][0])
    calc = go("calc", "demo", "save", "defense=4", "modifier=0", "--dice", "2")
    assert calc["value"] is True and calc["rolls"][0]["dice"] == [2]
    status = go("status", path)
    assert status["sides"]["A"] and status["viewer_sides"] == ["A", "B"]
    assert status["formations"] is not None
    assert {u["id"] for u in go("units", path)["units"]} >= {"a-inf", "b-inf"}
    advanced = go("advance", path)
    assert advanced["entries"] and advanced["now"]["step"]
    acted = go("act", path, "move", "unit=a-inf", "to=hex:0303")
    assert acted["kind"] == "move" and acted["preview"] is False
    missing = go("act", path, "move", "unit=a-tank", code=EXIT_FAIL)
    assert missing["error"].endswith(": give the hex (To).")
    assert missing["details"] == {"action": "move", "param": "to", "problem": "missing"}
    go("advance", path)
    decision = go("act", path, "declare", "attackers=a-inf,a-tank", "target=b-inf",
                  code=EXIT_DECIDE)
    assert decision["command"] == "decision" and decision["decision"]["id"] == "adj:b-inf"
    refused = go("act", path, "move", "unit=a-inf", "to=x", code=EXIT_FAIL)
    assert refused["command"] == "error" and "not allowed now" in refused["error"]
    bad_calc = go("calc", "demo", "save", "defense=four", "modifier=0", code=EXIT_FAIL)
    assert bad_calc["error"] == "Defense: 'four' is not a whole number"
    assert bad_calc["details"] == {"action": "save", "param": "defense", "problem": "bad",
                                   "value": "four", "reason": bad_calc["error"]}
    assert go("undo", path)["summary"].startswith("Undo")
    assert go("redo", path)["summary"].startswith("Redo")
    assert go("log", path)[0]["seq"] == 1
    assert go("check", path, "--replay")["ok"] is True
    out = tmp_path / "b.toml"
    assert go("export", path, "-o", str(out))["path"] == str(out)
    assert Path(go("import", str(out), "--name", "Again")["path"]).is_dir()
    assert go("report", path)["reports"] == []
    svg = tmp_path / "map.svg"
    assert go("map", path, "-o", str(svg))["picture"] == str(svg) and svg.exists()
    bad = go("calc", "demo", "save", "defense=4", "modifier=0", "nonsense=1", code=EXIT_USAGE)
    assert "unknown parameter nonsense" in bad["error"]
    bad = go("calc", "demo", "save", "--bogus", code=EXIT_USAGE)
    assert bad["error"] == "unrecognized arguments: --bogus" and bad["exit"] == 2
    drafted = go("orders", path, "--side", "A")
    assert drafted["mode"] == "draft" and "[orders]" in drafted["text"]
    assert go("seat", path, "list")["seats"] == []
    subs = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert seen == set(subs) - {"open", "serve"}   # serve's JSON: tests/hosted/test_serve_cli.py
