"""Two processes and one campaign: the second is told, chooses a copy, nothing is lost."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from campaign_tui import campaigns
from campaign_tui.store.paths import places
from tests.store.helpers import new_folder, reopen

ROOT = Path(__file__).resolve().parents[2]

HOLDER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from campaign_tui.store.files import open_campaign
    from tests.store.helpers import loader
    opened = open_campaign({path!r}, loader)
    print("holding", flush=True)
    sys.stdin.readline()                     # wait until told to go on
    opened.engine.perform("note", {{"text": "first writer"}})
    opened.store.save(opened.engine)
    opened.store.close()
    print("saved", flush=True)
""")


def test_the_second_writer_gets_the_choice_and_no_action_is_lost(demo, tmp_path):
    path = tmp_path / "c"
    new_folder(demo, path).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-c", HOLDER.format(root=str(ROOT), path=str(path))],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert first.stdout.readline().strip() == "holding"
    second = subprocess.run(
        [sys.executable, "-m", "campaign_tui", "act", str(path), "note", "text=second writer"],
        capture_output=True, text=True, env=env)
    assert second.returncode == 1
    assert "already open for writing by process" in second.stderr
    assert "Open it read-only, or open a copy" in second.stderr
    # the second writer takes the copy
    copy = campaigns.duplicate(places(), path)
    opened = reopen(copy)
    opened.engine.perform("note", {"text": "second writer"})
    opened.store.save(opened.engine)
    opened.store.close()
    first.stdin.write("\n")
    first.stdin.flush()
    assert first.stdout.readline().strip() == "saved"
    first.wait(timeout=30)
    original = reopen(path, read_only=True).engine
    copied = reopen(copy, read_only=True).engine
    assert original.history.get(len(original.history)).summary == "Note: first writer"
    assert copied.history.get(len(copied.history)).summary == "Note: second writer"
    assert copied.info.id != original.info.id and copied.info.name.endswith("(copy)")
