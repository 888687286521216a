"""The interface benchmarks: startup, keypress and memory, each against a bare Textual app
with the same widget types and the same visible data (bench/bare_app.py), in one run.

* startup: from the exec of the command in a terminal (tmux, 80x24) to the first painted
  main screen of the large campaign (each app writes the time of its first paint);
* memory: the peak resident memory (VmHWM) of each process, 1.5 s after its first paint;
* keypress: key to repaint on the main screen, in-process with Textual's pilot, for the
  same keys in both apps (switch panels, move the cursor).
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


def launch(command: str, env: dict[str, str], log: Path, socket: str) -> tuple[float, int]:
    """Seconds from the moment *command* is exec'd (in tmux) to its first paint; its peak
    memory. The start is stamped by the shell just before the exec, so the time tmux
    takes to start a server (which varies a lot, and is the same for both) is left out."""
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
    stamp, _, _inside, pid = log.read_text().split()[:4]
    t0 = float(stamp_file.read_text())
    time.sleep(1.5)
    rss = _peak_rss_kib(int(pid))
    _tmux(socket, "send-keys", "-t", "bench", "C-q")
    time.sleep(0.3)
    _tmux(socket, "kill-server")
    return float(stamp) - t0, rss


async def _keypresses(app: Any, keys: list[str]) -> float:
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
    return statistics.median(times)


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
            seen: dict[str, list[tuple[float, int]]] = {"bare": [], "app": []}
            for n in range(runs):
                for name, cmd in commands.items():
                    log = work / f"{name}.log"
                    env["CAMPAIGN_TUI_STARTUP_LOG"] = str(log)
                    seen[name].append(launch(cmd, env, log, f"cbench-{os.getpid()}-{n}-{name}"))
            t_app = statistics.median(t for t, _ in seen["app"])
            t_bare = statistics.median(t for t, _ in seen["bare"])
            m_app = statistics.median(m for _, m in seen["app"])
            m_bare = statistics.median(m for _, m in seen["bare"])
            if only is None or "startup" in only:
                out.append(("startup", t_app / t_bare, 1.5,
                            f"launch to first painted main screen (exec in tmux 80x24, median of {runs}): "
                            f"campaign-tui {t_app * 1000:.0f} ms; bare app {t_bare * 1000:.0f} ms"))
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

            ours = asyncio.run(_keypresses(CampaignApp(places(None), path, read_only=True,
                                                       blink=False), KEYS))
            bare = asyncio.run(_keypresses(BareApp(), KEYS))
            out.append(("keypress", ours / bare, 1.5,
                        f"key to repaint (median of {len(KEYS)} keys, in-process): campaign-tui "
                        f"{ours * 1000:.1f} ms; bare app {bare * 1000:.1f} ms"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out
