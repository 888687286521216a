"""The installed package carries what a fresh machine needs: the rule sets' data and the
example campaigns the README opens (built into a wheel and checked from its contents)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # built from a copy: two test workers building in the checkout itself would share
    # setuptools' build/ and egg-info folders
    source = tmp_path_factory.mktemp("source") / "campaign-tui"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(out), str(source)], check=True, capture_output=True,
                   timeout=300)
    return next(out.glob("campaign_tui-*.whl"))


def test_the_wheel_ships_examples_data_and_entry_points(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {Path(n).name for n in names if n.startswith("campaign_tui/examples/")}
    assert {p.name for p in (ROOT / "saves").glob("*.toml")} <= shipped
    data = {str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.toml")}
    assert data and data <= names, f"missing from the wheel: {sorted(data - names)}"
    for rid in ("prefect", "star_cruiser_lite", "fifth_frontier_war", "prestags",
                "second_sathar_war"):
        assert f"rulesets/{rid}/ruleset.toml" in names
    assert "campaign_tui/ui/app.tcss" in names
    schemas = {f"campaign_tui/cli/schemas/{p.name}"
               for p in (ROOT / "campaign_tui" / "cli" / "schemas").glob("*.json")}
    assert schemas and schemas <= names, f"missing from the wheel: {sorted(schemas - names)}"
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[campaign_tui.rulesets]" in text and "campaign-tui = campaign_tui.cli:main" in text


def test_examples_are_found_in_an_installed_layout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    code = ("from campaign_tui.examples_index import find_example, examples_dir; "
            "print(examples_dir()); print(find_example('prefect-liberation'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
                         cwd=tmp_path, check=True).stdout.split()
    assert out[0] == str(target / "campaign_tui" / "examples")
    assert out[1].endswith("prefect-liberation.toml")
