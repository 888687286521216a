"""Startup benchmark, measured in one run beside its baseline.

Launch to the first painted main screen of a large campaign (2,000 units, 20,000 log
entries) with the installed ``campaign-tui open``, beside a bare Textual app showing the
same widgets (:mod:`tests.ui.bare_app`), both in a real terminal (tmux at 80x24). Each app
writes the wall-clock time of its first paint; the launch time is that minus the moment
tmux was asked to start it. Then keypress-to-repaint, in-process (Textual's pilot), for
the same keys in both apps.

    CAMPAIGN_TUI_PLUGINS=demo=tests.demo_ruleset:plugin PYTHONPATH=. \\
        python -m tests.ui.bench_startup [--runs 5] [--units 2000] [--entries 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent


def _tmux(socket: str, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["tmux", "-L", socket, *args], check=False, capture_output=True, env=env,
                   timeout=30)


def launch(command: str, env: dict[str, str], log: Path, socket: str) -> tuple[float, float]:
    """Seconds from asking tmux to start *command* to its first paint, and the part of it
    spent inside the app (from App.__init__)."""
    log.unlink(missing_ok=True)
    t0 = time.time()
    _tmux(socket, "new-session", "-d", "-s", "bench", "-x", "80", "-y", "24", command, env=env)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().strip():
            break
        time.sleep(0.01)
    else:
        screen = subprocess.run(["tmux", "-L", socket, "capture-pane", "-p", "-t", "bench"],
                                capture_output=True, text=True, check=False).stdout
        _tmux(socket, "kill-server")
        raise RuntimeError(f"{command} did not paint within 20 s; the screen:\n{screen}")
    stamp, _, inside = log.read_text().split()[:3]
    _tmux(socket, "send-keys", "-t", "bench", "C-q")
    time.sleep(0.3)
    _tmux(socket, "kill-server")
    return float(stamp) - t0, float(inside)


async def keypresses(app: Any, keys: list[str]) -> float:
    """Median seconds from a key press to the repaint that follows it."""
    times: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await asyncio.sleep(0.3)
        for key in keys:
            t = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            times.append(time.perf_counter() - t)
        await pilot.press("ctrl+q")
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--units", type=int, default=2000)
    parser.add_argument("--entries", type=int, default=20000)
    parser.add_argument("--keep", help="build (or reuse) the large campaign here")
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux is needed for the terminal measurement")
        return 1
    from tests.ui.bigcampaign import make_big

    work = Path(tempfile.mkdtemp(prefix="ct-bench-"))
    big = Path(args.keep) if args.keep else work / "big"
    if not (big / "campaign.toml").exists():
        t = time.perf_counter()
        make_big(big, args.units, args.entries)
        print(f"built {big} ({args.units} units, {args.entries} entries) in "
              f"{time.perf_counter() - t:.1f} s")
    env = dict(os.environ)
    env.update({"CAMPAIGN_TUI_HOME": str(work / "home"), "TERM": "xterm-256color",
                "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", ""))
                                              if p)})
    env.setdefault("CAMPAIGN_TUI_PLUGINS", "demo=tests.demo_ruleset:plugin")
    env.pop("TMUX", None)
    exe = Path(sys.executable).parent / "campaign-tui"
    cmd_app = f"{exe if exe.exists() else 'campaign-tui'} open {big}"
    cmd_bare = f"{sys.executable} -m tests.ui.bare_app"
    socket = f"ct-bench-{os.getpid()}"
    results: dict[str, list[tuple[float, float]]] = {"campaign-tui": [], "bare": []}
    for run in range(args.runs):
        for name, cmd in (("bare", cmd_bare), ("campaign-tui", cmd_app)):
            log = work / f"{name}.log"
            env["CAMPAIGN_TUI_STARTUP_LOG"] = str(log)
            # a fresh tmux server each time (a server being killed may still hold the name)
            results[name].append(launch(f"cd {ROOT} && {cmd}", env, log,
                                        f"{socket}-{run}-{name}"))

    print(f"\nlaunch to first painted main screen, tmux 80x24, {args.runs} runs each")
    print(f"{'':14} {'median':>8} {'min':>8} {'max':>8}   in-app median")
    for name, runs in results.items():
        total = [r[0] for r in runs]
        inside = [r[1] for r in runs]
        print(f"{name:14} {statistics.median(total):8.3f} {min(total):8.3f} {max(total):8.3f}"
              f"   {statistics.median(inside):.3f}")
    ratio = (statistics.median(r[0] for r in results["campaign-tui"])
             / statistics.median(r[0] for r in results["bare"]))
    print(f"ratio campaign-tui / bare: {ratio:.2f}")

    from campaign_tui.store.paths import places
    from campaign_tui.ui.app import CampaignApp
    from tests.ui.bare_app import BareApp

    keys = ["f3", *["down"] * 10, "f4", *["up"] * 10, "f2"]
    os.environ["CAMPAIGN_TUI_HOME"] = str(work / "home")
    ours = asyncio.run(keypresses(CampaignApp(places(None), big, read_only=True, blink=False),
                                  keys))
    bare = asyncio.run(keypresses(BareApp(), ["down"] * len(keys)))
    print(f"\nkeypress to repaint (median, in-process pilot): campaign-tui {ours * 1000:.0f} ms, "
          f"bare {bare * 1000:.0f} ms")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
