"""The README's two commands are the contract CI checks: keep them and .ci/run in step."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_command(heading: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(heading)
    block = re.search(r"```sh\n(.+?)\n```", text[start:], flags=re.S)
    assert block, f"no command under {heading!r}"
    return block.group(1).strip()


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_command("**Run the tests:**") in ci


def test_ci_checks_the_readme_run_command_without_a_screen():
    run = readme_command("**Run it**")
    assert " open " in run
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert run.replace(" open ", " status ") in ci


def test_the_example_the_readme_opens_is_shipped():
    from campaign_tui.examples_index import find_example

    name = readme_command("**Run it**").rsplit(" ", 1)[1]
    assert find_example(name) is not None, f"saves/{name}.toml is missing"
