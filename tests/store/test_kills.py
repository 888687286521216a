"""kill -9 at random moments during save (act), import and export, on several rule sets:
the campaign always opens, holds a prefix of the actions, and the next start leaves no
leftovers (temporary files, half-imported folders)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from campaign_tui import campaigns
from campaign_tui.examples_index import find_example
from campaign_tui.store.files import export_bundle, import_bundle, open_campaign
from campaign_tui.store.paths import places
from tests.store.helpers import loader

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ["prestags-training", "prefect-liberation", "fifth_frontier_war-campaign"]
KILLS_PER_KIND = 3


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def summaries(path: Path) -> list[str]:
    return [e.summary for e in open_campaign(path, loader, read_only=True).engine.entries()]


def run_and_kill(argv: list[str], home: Path, delay: float) -> bool:
    """Start the command, kill it with SIGKILL after *delay* seconds; True if it had
    already finished."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CAMPAIGN_TUI_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "campaign_tui", *argv], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    finished = proc.poll() is not None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return finished


def timed(argv: list[str], home: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CAMPAIGN_TUI_HOME": str(home)}
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "campaign_tui", *argv], env=env, check=True,
                   capture_output=True)
    return time.monotonic() - start


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES)
def test_kill_9_during_save_import_and_export(tmp_path, example):
    rnd = random.Random(example)
    home = tmp_path / "home"
    here = places(home).ensure()
    camp = here.campaigns / "camp"
    import_bundle(find_example(example), camp, loader).close()
    bundle = str(find_example(example))
    out = tmp_path / "out" / "x.toml"
    out.parent.mkdir()
    argv = {"act": ["act", str(camp), "note", "text=" + "k" * 3000],
            "import": ["import", bundle, "--name", "imp"],
            "export": ["export", str(camp), "-o", str(out)]}
    span = {kind: timed(a, home) for kind, a in argv.items()}
    for p in list(here.campaigns.iterdir()):       # the timing run's import
        if p.name.startswith("imp"):
            campaigns.delete(here, p)
    out.unlink()
    kills = finished = 0
    for _ in range(KILLS_PER_KIND):
        for kind in ("act", "import", "export"):
            before = summaries(camp)
            finished += run_and_kill(argv[kind], home, rnd.uniform(0.2, 1.1) * span[kind])
            kills += 1
            # the next start: listing cleans, opening for writing cleans the folder
            rows = campaigns.list_campaigns(here, include_examples=False)
            assert not [r for r in rows if r.problem]
            opened = open_campaign(camp, loader)
            opened.store.close()
            after = summaries(camp)
            assert after[: len(before)] == before and len(after) - len(before) in (0, 1)
            assert leftovers(here.campaigns) == []
            for p in here.campaigns.iterdir():
                assert p.name.startswith(("camp", "imp")), p
                if p.name.startswith("imp"):
                    assert summaries(p) == summaries(Path(bundle))
                    campaigns.delete(here, p)
            if out.exists():                          # a complete bundle or nothing
                assert summaries(out) == summaries(camp)
            export_bundle(open_campaign(camp, loader, read_only=True).engine, out)
            assert leftovers(out.parent) == []       # the next export cleans the last one's
            out.unlink()
    assert kills == 3 * KILLS_PER_KIND and finished < kills     # most were interrupted
    print(f"{example}: {kills} kills, {kills - finished} mid-command")
