"""The leak harness: campaigns in which secrets exist (the shipped examples of all five rule
sets, scripted games, random legal play), every output a side receives, and no fact the
side's view lacks in any of them. Facts come from comparing the full state with the
side's view (tests/secrets/leakcheck.py), never from a hand list."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_tui.core.engine import Engine
from campaign_tui.registry import load_ruleset
from tests.secrets.cases import (
    EXAMPLES,
    SCRIPTED,
    example_folder,
    open_engine,
    random_play,
    run_cli,
    save_engine,
)
from tests.secrets.leakcheck import SideAudit, states_over_history

OUTPUTS = ("status", "status --json", "log", "log --json", "report", "export", "units",
           "units --json", "map", "orders")


def side_outputs(path: Path, side: str, tmp: Path) -> dict[str, str]:
    """Everything the command line hands one side."""
    out: dict[str, str] = {}
    for name in OUTPUTS:
        if name in ("export", "map"):  # files written for the side
            target = tmp / f"{name}-{side}.{'toml' if name == 'export' else 'svg'}"
            option = "--side" if name == "export" else "--as"
            rc, text = run_cli(name, str(path), option, side, "-o", str(target))
            assert rc == 0, text
            text = target.read_text(encoding="utf-8")
            # the grid's own hex numbers are the board, not a fact about anyone's forces
            text = re.sub(r'<text[^>]*class="hexnum"[^>]*>[^<]*</text>', "", text)
            out[name] = re.sub(r"<title>\d{4}</title>", "", text)
            continue
        cmd, *flags = name.split()
        option = "--side" if cmd in ("report", "orders") else "--as"
        rc, text = run_cli(cmd, str(path), option, side, *flags)
        assert rc == 0, f"{name} --as {side}: {text}"
        out[name] = text
    return out


def assert_no_leaks(engine: Engine, path: Path, tmp: Path) -> int:
    """Check every side of a campaign; returns the number of (view, output) pairs checked."""
    states = states_over_history(engine)
    checked = 0
    problems: list[str] = []
    for side in engine.state.sides:
        audit = SideAudit(engine, side, states)
        for name, text in side_outputs(path, side, tmp).items():
            checked += 1
            found = audit.overall.found_in(text)
            if found:
                problems.append(f"{side} {name}: {found[:5]}")
        # each log entry as the side receives it, against what was hidden around it
        full = {e.seq: e for e in engine.entries()}
        for entry in engine.side_view(side).entries():
            found = audit.around(full[entry.seq]).found_in_data(entry.to_dict())
            if found:
                problems.append(f"{side} log entry {entry.seq} ({entry.kind}): {found[:5]}")
        checked += 1
        # the export's log says nothing of the dice generator
        doc = side_outputs_export_doc(tmp / f"export-{side}.toml")
        assert "seed" not in doc["campaign"] and "rng_position" not in doc["campaign"]
        assert all(e["rng"] == [0, 0] for e in doc.get("entry", []))
    assert not problems, "\n".join(problems)
    return checked


def side_outputs_export_doc(path: Path) -> dict:
    import tomllib

    return tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLES)
def test_shipped_examples_leak_nothing(name: str, tmp_path: Path) -> None:
    path = example_folder(name, tmp_path / "campaign")
    engine = open_engine(path)
    assert assert_no_leaks(engine, path, tmp_path) == len(engine.state.sides) * (
        len(OUTPUTS) + 1)


@pytest.mark.parametrize("name", sorted(SCRIPTED))
def test_scripted_games_leak_nothing(name: str, tmp_path: Path) -> None:
    path = SCRIPTED[name](tmp_path / "campaign")
    assert_no_leaks(open_engine(path), path, tmp_path)


RULESETS = ("prefect", "star_cruiser_lite", "fifth_frontier_war", "prestags",
            "second_sathar_war")


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(min_value=1, max_value=2**31), steps=st.integers(5, 30))
def test_random_legal_play_leaks_nothing(ruleset: str, seed: int, steps: int,
                                         tmp_path_factory: pytest.TempPathFactory) -> None:
    engine = Engine.create(load_ruleset(ruleset), seed=seed)
    random_play(engine, random.Random(seed), steps)
    tmp = tmp_path_factory.mktemp("random")
    path = save_engine(engine, tmp / "campaign")
    assert_no_leaks(open_engine(path), path, tmp)


def test_the_harness_finds_a_planted_leak(tmp_path: Path) -> None:
    """The yardstick works: an output naming another side's secret plot is caught."""
    path = SCRIPTED["prestags-plotted"](tmp_path / "campaign")
    engine = open_engine(path)
    audit = SideAudit(engine, "A", states_over_history(engine))
    plot = json.dumps(engine.state.secrets["B"])
    assert audit.overall.found_in(plot), "B's plot should be a fact A's view lacks"
    assert not audit.overall.found_in(json.dumps(engine.view("A").to_dict()))
