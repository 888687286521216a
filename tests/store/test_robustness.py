"""Bad files and crashes: nothing but the clean error, and nothing lost.

* Random corruption of a valid save (truncation, flipped bytes, wrong types, missing and
  extra keys, huge numbers, odd unicode, a newer schema_version) ends in SaveError naming
  the file and the problem, never a traceback, and the files stay byte-identical.
* A process killed at random moments while saving leaves a campaign that loads and equals
  either the state before the save or the state after it.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import CampaignError, SaveError
from campaign_tui.examples_index import bundled_examples
from campaign_tui.store.files import export_bundle, import_bundle, open_campaign
from tests.store.helpers import loader, new_folder, played
from tests.store.test_files import tree_bytes

ROOT = Path(__file__).resolve().parents[2]

VALUES = ['"text"', "-1", "99999999999999999999999999", "1e400", "true", "[]", "{}",
          '"\\u0000\\u202e\\uffff🎲"', "nan", '""', "[1, \"a\"]", "{x = 1}", "0"]


def mutate(data: bytes, how: str, rnd: random.Random) -> bytes:
    if not data:
        return b"x"
    text = data.decode("utf-8", errors="replace")
    lines = text.splitlines(keepends=True)
    if how == "truncate":
        return data[: rnd.randrange(len(data))]
    if how == "flip":
        i = rnd.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rnd.randrange(8))]) + data[i + 1:]
    if how == "drop_line" and lines:
        del lines[rnd.randrange(len(lines))]
    elif how == "duplicate_line" and lines:
        i = rnd.randrange(len(lines))
        lines.insert(i, lines[i])
    elif how == "extra_key":
        lines.insert(rnd.randrange(len(lines) + 1), f"zz_extra_{rnd.randrange(99)} = 1\n")
    elif how == "wrong_value":
        candidates = [i for i, line in enumerate(lines) if " = " in line]
        if candidates:
            i = rnd.choice(candidates)
            key = lines[i].split(" = ", 1)[0]
            lines[i] = f"{key} = {rnd.choice(VALUES)}\n"
    elif how == "inner_value":
        candidates = [i for i, line in enumerate(lines) if line.count(" = ") > 1]
        if candidates:
            i = rnd.choice(candidates)
            parts = lines[i].split(" = ")
            j = rnd.randrange(1, len(parts))
            rest = parts[j]
            cut = min((rest.find(c) for c in ",}" if rest.find(c) >= 0), default=len(rest))
            parts[j] = rnd.choice(VALUES) + rest[cut:]
            lines[i] = " = ".join(parts)
    elif how == "schema":
        return text.replace("schema_version = 2", "schema_version = 7", 1).encode()
    elif how == "unicode":
        i = rnd.randrange(len(lines)) if lines else 0
        lines.insert(i, "\u202e\ufeff = \"\udcff\"\n".encode("utf-8", "surrogatepass").decode(
            "utf-8", "replace"))
    return "".join(lines).encode("utf-8", errors="surrogatepass")


HOW = ["truncate", "flip", "drop_line", "duplicate_line", "extra_key", "wrong_value",
       "inner_value", "schema", "unicode"]


def exercise(path: Path) -> tuple:
    """Open a save and read everything a user could reach: only SaveError may escape.
    Returns what the save means (state, log changes, pointer, dice), to compare."""
    opened = open_campaign(path, loader, read_only=True)
    e = opened.engine
    e.entries()
    e.state_at(0)
    e.status()
    e.view(next(iter(e.state.sides), "gm"))
    problems = opened.store.audit(e) if hasattr(opened.store, "audit") else []
    return meaning(e), problems


def meaning(e) -> tuple:
    return (e.state.to_dict(), [(x.seq, x.kind, x.target, x.parent, list(x.rng),
                                 [c.to_dict() for c in x.changes]) for x in e.entries()],
            e.info.head, list(e.info.redo), e.info.seed, e.info.rng_position, e.info.log_length)


@pytest.fixture(scope="module")
def valid_saves(tmp_path_factory):
    """For the demo and for every bundled example: a valid bundle and the same campaign as
    a folder."""
    from tests.demo_ruleset import plugin

    base = tmp_path_factory.mktemp("valid")
    (base / "demo").mkdir()
    new_folder(plugin, base / "demo" / "folder", rounds=3).close()
    engine = played(Engine.create(plugin, seed=4, name="Bundle"), 3)
    export_bundle(engine, base / "demo" / "bundle.toml")
    for example in bundled_examples():
        target = base / example.stem
        target.mkdir()
        shutil.copy(example, target / "bundle.toml")
        import_bundle(example, target / "folder", loader).close()
    return base


CASES = ["demo", *(p.stem for p in bundled_examples())]
BUDGET = {"demo": 120}


@pytest.mark.parametrize("case", CASES)
def test_random_corruption_gives_only_the_clean_error(valid_saves, tmp_path_factory, case):
    """Every rule set: mutated saves give SaveError naming the file, and stay untouched."""

    @settings(max_examples=BUDGET.get(case, 30), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(how=st.sampled_from(HOW), seed=st.integers(0, 10**9), target=st.integers(0, 3))
    def check(how: str, seed: int, target: int) -> None:
        rnd = random.Random(seed)
        work = tmp_path_factory.mktemp("work")
        source = valid_saves / case
        if target == 3:
            path = work / "bundle.toml"
            shutil.copy(source / "bundle.toml", path)
            victim = path
        else:
            path = work / "folder"
            shutil.copytree(source / "folder", path)
            victim = [path / "campaign.toml",
                      sorted((path / "snapshots").glob("*.toml"))[-1],
                      sorted((path / "log").glob("*.toml"))[-1]][target]
        original = exercise(path)[0]
        victim.write_bytes(mutate(victim.read_bytes(), how, rnd))
        before = tree_bytes(path)
        try:
            accepted, problems = exercise(path)
            # accepted: it must mean what was saved (a wrong state is never accepted)
            assert accepted == original, f"{how} of {victim.name} accepted a wrong save"
            assert problems == []
        except SaveError as exc:
            assert exc.path and exc.problem and str(exc).startswith(exc.path)
        except CampaignError as exc:
            assert str(exc)          # a clean message from the engine (a missing entry...)
        assert tree_bytes(path) == before

    check()


CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from campaign_tui.store.files import open_campaign
    from tests.store.helpers import loader
    opened = open_campaign({path!r}, loader)
    e = opened.engine
    for i in range(150):
        e.perform("note", {{"text": "crash test %d" % i}})
    e.advance()
    print("ready", flush=True)
    opened.store.save(e)
    print("saved", flush=True)
""")


def _state(path: Path):
    opened = open_campaign(path, loader, read_only=True)
    return opened.engine.state.to_dict(), len(opened.engine.history)


def test_a_process_killed_while_saving_leaves_a_loadable_campaign(demo, tmp_path):
    base = tmp_path / "base"
    new_folder(demo, base, rounds=1).close()
    before, n_before = _state(base)
    outcomes = {"before": 0, "after": 0}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rnd = random.Random(1234)
    full = tmp_path / "full"                   # the same save, not interrupted
    shutil.copytree(base, full)
    subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), path=str(full))],
                   env=env, check=True, capture_output=True)
    after, n_after = _state(full)
    for i in range(20):
        work = tmp_path / f"w{i}"
        shutil.copytree(base, work)
        code = CHILD.format(root=str(ROOT), path=str(work))
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env,
                                text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rnd.uniform(0, 0.02))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        state, n = _state(work)                 # loads, whatever the moment
        if n == n_before:
            assert state == before
            outcomes["before"] += 1
        else:
            assert state == after and n == n_after
            outcomes["after"] += 1
        opened = open_campaign(work, loader)   # the dead writer's lock is taken over
        opened.engine.perform("note", {"text": "after the crash"})
        opened.store.save(opened.engine)
        opened.store.close()
        assert _state(work)[1] == n + 1
    assert outcomes["before"] + outcomes["after"] == 20
