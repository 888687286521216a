"""Cold start stays cold: the command line and the first screen import only what they use
(Harlequin's discipline). Each check runs a fresh interpreter and names the modules that
must not be loaded yet; a new top-level import of one of them fails here, with the chain
to look at (``python -X importtime``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Needed by some commands, never by importing the command line or printing its help.
NOT_FOR_THE_COMMAND_LINE = (
    "textual", "campaign_tui.ui", "campaign_tui.core.engine", "campaign_tui.core.board",
    "campaign_tui.core.orders", "campaign_tui.store", "campaign_tui.registry", "rulesets",
    "filelock", "importlib.metadata", "tomllib", "tomli_w",
)
# Not needed by the TUI's two command lines either (help and the parser need argparse).
NOT_FOR_STARTING_THE_TUI = ("argparse", "shlex", "hashlib")
# Not needed to paint an open campaign's main screen.
NOT_FOR_THE_FIRST_SCREEN = ("argparse", "hashlib",
    "campaign_tui.cli.orders", "campaign_tui.core.orders", "campaign_tui.core.board.mapfile",
    "campaign_tui.core.board.svg", "campaign_tui.ui.screens.dialogs", "campaign_tui.ui.mapmodel",
    "campaign_tui.ui.widgets.mapview", "campaign_tui.cli.parser",
    "importlib.metadata", "importlib.resources", "tomllib", "tomli_w", "filelock",
)

FIRST_SCREEN = """
import asyncio, json, sys
from pathlib import Path
from campaign_tui.store.paths import places
from campaign_tui.ui.app import CampaignApp

async def main():
    app = CampaignApp(places(None), Path(sys.argv[1]), blink=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.painted is not None, "the main screen was not painted"
        print(json.dumps(sorted(sys.modules)))
        await pilot.press("ctrl+q")

asyncio.run(main())
"""


def _modules(code: str, *args: str, home: Path) -> set[str]:
    env = {**os.environ, "CAMPAIGN_TUI_HOME": str(home), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _loaded(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_importing_the_command_line_loads_no_engine_store_or_ui(tmp_path: Path) -> None:
    mods = _modules("import json, sys, campaign_tui.cli; print(json.dumps(sorted(sys.modules)))",
                    home=tmp_path)
    assert "campaign_tui.cli.files" in mods
    # the TUI's two command lines never build the parser: it is imported when first used
    assert "campaign_tui.cli.parser" not in mods
    assert _loaded(mods, NOT_FOR_THE_COMMAND_LINE + NOT_FOR_STARTING_THE_TUI) == []


def test_help_loads_no_engine_store_or_ui(tmp_path: Path) -> None:
    code = ("import contextlib, io, json, sys\n"
            "from campaign_tui.cli import main\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['--help'])\n"
            "print(json.dumps(sorted(sys.modules)))")
    assert _loaded(_modules(code, home=tmp_path), NOT_FOR_THE_COMMAND_LINE) == []


@pytest.mark.slow
def test_the_first_screen_of_an_open_campaign_loads_only_what_it_shows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from campaign_tui.cli import main

    home = tmp_path / "home"
    path = tmp_path / "c"
    monkeypatch.setenv("CAMPAIGN_TUI_HOME", str(home))
    assert main(["new", "prefect", "--seed", "3", "--path", str(path)]) == 0
    capsys.readouterr()
    _modules(FIRST_SCREEN, str(path), home=home)      # fills the caches, as any start does
    mods = _modules(FIRST_SCREEN, str(path), home=home)
    assert "campaign_tui.ui.screens.main" in mods and "rulesets.prefect" in mods
    assert _loaded(mods, NOT_FOR_THE_FIRST_SCREEN) == []


@pytest.mark.parametrize("words", [[], ["open", "c"], ["open", "c", "--read-only"],
                                   ["open", "--read-only", "./c d"]])
def test_the_tui_command_lines_read_as_the_parser_reads_them(words: list[str]) -> None:
    from campaign_tui.cli import build_parser, parse, tui_args

    assert vars(tui_args(words)) == vars(parse(build_parser(), words))


@pytest.mark.parametrize("words", [["open"], ["open", "--help"], ["open", "-h", "c"],
                                   ["open", "c", "d"], ["open", "--read", "c"],
                                   ["open", "c", "--read-only", "--read-only"],
                                   ["--home", "h", "open", "c"], ["open", "-r", "c"],
                                   ["status", "c"], ["--version"]])
def test_other_command_lines_go_through_the_parser(words: list[str]) -> None:
    from campaign_tui.cli import tui_args

    assert tui_args(words) is None


def test_completion_goes_through_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    from campaign_tui.cli import tui_args

    monkeypatch.setenv("_ARGCOMPLETE", "1")
    assert tui_args(["open", "c"]) is None


# Rule modules a rule set's declarations (the phase machines and the actions) reach through
# ``core.later`` stand-ins: opening a campaign imports them only when a rule is first used.
RULES_NOT_FOR_DECLARING = {
    "fifth_frontier_war": ("checks", "combat", "combat_procs", "control", "fuel", "movement", "ops",
                           "plot_due", "plot_offers", "plots", "reinforcements", "setup_rules",
                           "turn_flow", "victory"),
    "prefect": ("capture", "checks", "crt", "detection", "ground_combat", "ground_detection",
                "saves", "space_combat"),
    "prestags": ("combat", "crt", "results", "strength"),
    "second_sathar_war": ("attention", "battles", "cycles"),
    "star_cruiser_lite": ("boarding", "chores_month", "chores_week", "combat", "damage", "ground",
                          "preempt"),
}
DECLARE = """
import json, sys
from campaign_tui.registry import load_ruleset
plugin = load_ruleset(sys.argv[1])
machines, actions = plugin.machines(), plugin.actions()
assert machines and actions
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("rid", sorted(RULES_NOT_FOR_DECLARING))
def test_declaring_a_rule_set_imports_no_rule_module(rid: str, tmp_path: Path) -> None:
    mods = _modules(DECLARE, rid, home=tmp_path)
    assert f"rulesets.{rid}" in mods
    rules = tuple(f"rulesets.{rid}.{m}" for m in RULES_NOT_FOR_DECLARING[rid])
    assert _loaded(mods, rules) == []
