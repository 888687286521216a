"""The interface benchmarks: startup, keypress and memory, each against a bare Textual app
with the same widget types and the same visible data (bench/bare_app.py), in one run.

* startup: from the exec of the command in a terminal (tmux, 80x24) to the first painted
  main screen of the large campaign (each app writes the time of its first paint);
* memory: the peak resident memory (VmHWM) of each process, 1.5 s after its first paint;
* keypress: key to repaint on the main screen, in-process with Textual's pilot, for the
  same keys in both apps (switch panels, move the cursor), the two apps taking turns.

Startup also reports the processor time each process used up to its first paint: on a
loaded machine it moves much less than the wall-clock time, so it shows whether a change
helped when the wall-clock ratio is noise.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KEYS = ["f3", *["down"] * 10, "f4", *["up"] * 10, "f2"]


def visible_data(path: Path, out: Path) -> None:
    """What the main screen shows at first, for the bare app to show the same."""
    from campaign_tui.campaigns import open_path

    opened = open_path(path, read_only=True)
    e = opened.engine
    st = e.status()
    state = e.state
    tree = {}
    for sid, side in state.sides.items():
        tree[side.name] = [f.name for f in state.formations.values()
                           if f.side == sid and not f.parent][:40]
    rolls = []
    for entry in e.history.range(max(1, len(e.history) - 200), len(e.history)):
        rolls += [f"#{entry.seq} {r.describe()} {r.purpose}" for r in entry.rolls]
    json.dump({
        "topbar": f" {e.info.name}  saved · as GM · {e.where()}",
        "panelbar": " F2 Prompt   F3 Forces   F4 Dice    F5 Tables  F6 History  F7 View as",
        "where": f"{st.clock_text} {st.phase_title} · {st.step_title}\nActing: {st.actor_name}",
        "prompt": st.prompt,
        "choices": [f"{i} {c.title}" for i, c in enumerate(st.choices, 1)],
        "tree": tree, "log": rolls[-200:],
    }, out.open("w", encoding="utf-8"))


def _tmux(socket: str, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], check=False, capture_output=True,
                          env=env, text=True, timeout=30).stdout


def _peak_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def launch(command: str, env: dict[str, str], log: Path,
           socket: str) -> tuple[float, int, float]:
    """Seconds from the moment *command* is exec'd (in tmux) to its first paint; its peak
    memory; the processor seconds it used up to its first paint. The start is stamped by
    the shell just before the exec, so the time tmux takes to start a server (which varies
    a lot, and is the same for both) is left out."""
    log.unlink(missing_ok=True)
    stamp_file = log.with_suffix(".start")
    stamp_file.unlink(missing_ok=True)
    wrapped = f"date +%s.%N > {stamp_file} && exec {command}"
    _tmux(socket, "new-session", "-d", "-s", "bench", "-x", "80", "-y", "24",
          f"cd {ROOT} && {wrapped}", env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().strip():
            break
        time.sleep(0.005)
    else:
        screen = _tmux(socket, "capture-pane", "-p", "-t", "bench")
        _tmux(socket, "kill-server")
        raise RuntimeError(f"{command} did not paint within 30 s; the screen:\n{screen}")
    stamp, _, _inside, pid, cpu = log.read_text().split()[:5]
    t0 = float(stamp_file.read_text())
    time.sleep(1.5)
    rss = _peak_rss_kib(int(pid))
    _tmux(socket, "send-keys", "-t", "bench", "C-q")
    time.sleep(0.3)
    _tmux(socket, "kill-server")
    return float(stamp) - t0, rss, float(cpu)


async def _keypresses(app: Any, keys: list[str]) -> list[float]:
    times: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await asyncio.sleep(0.5)
        for key in keys:
            t = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            times.append(time.perf_counter() - t)
        await pilot.press("ctrl+q")
    return times


def run(path: Path, quick: bool = False,
        only: set[str] | None = None) -> list[tuple[str, float, float, str]]:
    if shutil.which("tmux") is None:
        print("# tmux is missing: startup and memory are not measured", file=sys.stderr)
        only = {"keypress"} & (only or {"keypress"})
    work = Path(tempfile.mkdtemp(prefix="campaign-ui-bench-"))
    data = work / "visible.json"
    visible_data(path, data)
    env = dict(os.environ)
    env.update({"CAMPAIGN_TUI_HOME": str(work / "home"), "TERM": "xterm-256color",
                "CAMPAIGN_TUI_BARE_DATA": str(data),
                "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", ""))
                                              if p)})
    env.pop("TMUX", None)
    exe = Path(sys.executable).parent / "campaign-tui"
    commands = {"bare": f"{sys.executable} {ROOT / 'bench' / 'bare_app.py'}",
                "app": f"{exe if exe.exists() else 'campaign-tui'} open {path}"}
    out: list[tuple[str, float, float, str]] = []
    try:
        if only is None or only & {"startup", "memory"}:
            runs = 3 if quick else 11
            seen: dict[str, list[tuple[float, int, float]]] = {"bare": [], "app": []}
            for n in range(runs):
                for name, cmd in commands.items():
                    log = work / f"{name}.log"
                    env["CAMPAIGN_TUI_STARTUP_LOG"] = str(log)
                    seen[name].append(launch(cmd, env, log, f"cbench-{os.getpid()}-{n}-{name}"))
            t_app, m_app, c_app = (statistics.median(x) for x in zip(*seen["app"]))
            t_bare, m_bare, c_bare = (statistics.median(x) for x in zip(*seen["bare"]))
            if only is None or "startup" in only:
                out.append(("startup", t_app / t_bare, 1.25,
                            f"launch to first painted main screen (exec in tmux 80x24, median "
                            f"of {runs}): campaign-tui {t_app * 1000:.0f} ms; bare app "
                            f"{t_bare * 1000:.0f} ms (processor time {c_app * 1000:.0f} ms "
                            f"and {c_bare * 1000:.0f} ms: {c_app / c_bare:.2f})"))
            if only is None or "memory" in only:
                out.append(("memory", m_app / m_bare, 1.5,
                            f"peak resident memory: campaign-tui {m_app / 1024:.1f} MiB; bare app "
                            f"{m_bare / 1024:.1f} MiB"))
        if only is None or "keypress" in only:
            os.environ["CAMPAIGN_TUI_HOME"] = str(work / "home")
            os.environ["CAMPAIGN_TUI_BARE_DATA"] = str(data)
            from bench.bare_app import BareApp
            from campaign_tui.store.paths import places
            from campaign_tui.ui.app import CampaignApp

            rounds = 1 if quick else 3
            mine: list[float] = []
            theirs: list[float] = []
            for _ in range(rounds):         # taking turns: a busy moment slows both
                mine += asyncio.run(_keypresses(CampaignApp(places(None), path,
                                                            read_only=True, blink=False), KEYS))
                theirs += asyncio.run(_keypresses(BareApp(), KEYS))
            ours, bare = statistics.median(mine), statistics.median(theirs)
            out.append(("keypress", ours / bare, 1.2,
                        f"key to repaint (median of {len(mine)}: {len(KEYS)} keys, {rounds} "
                        f"rounds, in-process): campaign-tui {ours * 1000:.1f} ms; bare app "
                        f"{bare * 1000:.1f} ms"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out
