"""bench/table_side.py in a real terminal, for every rule set: from the picker through a new
campaign of the first scenario, its quick set-up, the first turn up to one combat resolved
through the dialog with a typed die, save, quit and reopen, in
no more keys than the issue's target (60).

The walk reaches a combat in PRESTAGS, Prefect, Second Sathar War (four days of forced
moves from the start circles with Advance until…, then the first attack roll of the battle)
and Fifth Frontier War (the quick set-up's strike fleet jumps from Clan to Jewell on turn 1,
every other fleet holds, and meets the 214th Fleet: the first space-combat die is typed)
and Star Cruiser Lite (week 1: France attacks the Kafer raider at Eta Bootis): every rule
set reaches its first combat."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
ALL = ("fifth_frontier_war", "prefect", "prestags", "second_sathar_war", "star_cruiser_lite")


def test_table_side_walks_every_rule_set() -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the table-side benchmark needs it")
    bin_dir = str(Path(sys.executable).parent)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(Path.home()), "TERM": "xterm-256color"}
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "table_side.py"), *ALL],
                         capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    rows = {}
    for line in out.stdout.splitlines():
        m = re.fullmatch(r"TABLE (\w+) keys=(\d+) seconds=([\d.]+) combat=(yes|no)", line)
        assert m, line
        rows[m.group(1)] = (int(m.group(2)), m.group(4))
    assert set(rows) == set(ALL)
    for rid, (keys, combat) in rows.items():
        assert keys <= 60, (rid, keys)
        assert combat == "yes", rid
