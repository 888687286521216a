"""Rounds on the command line: with physical dice, a held die of a marked round says how
to let the program roll the rest of that round (``round:N=auto``); previews and typed dice
work as before."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.registry import reset_registry
from campaign_tui.store.files import create_campaign
from tests.cli_helpers import fresh_registry, run  # noqa: F401
from tests.ui.rolling_ruleset import plugin

EXIT_DECIDE = 3


@pytest.fixture
def battle_path(home_places, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A campaign of the rolling test rule set, dice typed by hand."""
    monkeypatch.setenv("CAMPAIGN_TUI_PLUGINS", os.environ["CAMPAIGN_TUI_PLUGINS"]
                       + ",rolling=tests.ui.rolling_ruleset:plugin")
    reset_registry()
    path = home_places.campaigns / "battle"
    create_campaign(Engine.create(plugin, "r", None, 5, "manual", "Battle"), path).close()
    return path


def test_a_held_die_names_its_round_and_the_answer_for_it(capsys, battle_path: Path) -> None:
    code, out, _ = run(capsys, "act", str(battle_path), "battle", "ships=3")
    assert code == EXIT_DECIDE
    assert "Decision needed (A): Roll 1d6 for ship 1 of A fires" in out
    assert "so far: ── Round 1: 3 ships of A against 3 of B ──" in out
    assert ("in Round 1: 3 ships of A against 3 of B: round:1=auto lets the program roll "
            "the rest of this round") in out
    code, out, _ = run(capsys, "act", str(battle_path), "battle", "ships=3", "round:1=auto",
                       "--json")
    assert code == EXIT_DECIDE
    decision = json.loads(out)["decision"]
    assert decision["round"] == "round:2" and decision["round_label"].startswith("Round 2: ")


def test_a_round_typed_die_by_die(capsys, battle_path: Path) -> None:
    typed = [f"roll{n}=6" for n in range(1, 7)]        # six dice, every one a hit
    code, out, _ = run(capsys, "act", str(battle_path), "battle", "ships=3", *typed,
                       "--preview")
    assert code == 0, out
    assert out.startswith("preview: after 1 rounds: A 0 ships left, B 0")
    assert out.count("[typed]") == 6 and "── Round 1: 3 ships of A against 3 of B ──" in out
    code, out, _ = run(capsys, "act", str(battle_path), "battle", "ships=3", *typed)
    assert code == 0 and "now:" in out


def test_rounds_released_one_after_the_other_preview_what_is_applied(
        capsys, battle_path: Path) -> None:
    answers: list[str] = []
    while True:
        code, out, _ = run(capsys, "act", str(battle_path), "battle", "ships=8", *answers,
                           "--preview", "--json")
        if code != EXIT_DECIDE:
            break
        answers.append(json.loads(out)["decision"]["round"] + "=auto")
    assert code == 0 and len(answers) >= 2
    previewed = [r["dice"] for r in json.loads(out)["rolls"]]
    code, out, _ = run(capsys, "act", str(battle_path), "battle", "ships=8", *answers,
                       "--json")
    assert code == 0 and [r["dice"] for r in json.loads(out)["rolls"]] == previewed
    assert not any(r.get("manual") for r in json.loads(out)["rolls"])


def test_a_round_answered_with_anything_but_auto_is_refused(capsys, battle_path: Path) -> None:
    code, out, err = run(capsys, "act", str(battle_path), "battle", "ships=3", "round:1=6")
    assert code != 0 and "is not an answer for a round" in out + err
