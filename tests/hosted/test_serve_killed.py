"""kill -9 of the real ``campaign-tui serve`` process at random moments during play, with
real SSH clients (asyncssh, their screens read through a terminal emulator): every action
a screen has shown is on disk, and everyone reconnects to the restarted server and sees
the campaign as it was saved."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_tui import campaigns
from campaign_tui.hosted.seats import Seat
from tests.hosted.door_helpers import new_key, open_screen, public, write_seats

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]
ROUNDS = 3
SETUP, MOVE = "Set up", "Army A: move your units"
ADVANCE, UNDO = b"n", b"\x1a"


def start_serve(campaign: Path, log: Path) -> tuple[subprocess.Popen[str], int]:
    with open(log, "a", encoding="utf-8") as err:
        proc = subprocess.Popen([sys.executable, "-m", "campaign_tui", "serve", str(campaign),
                                 "--port", "0", "--json"], stdout=subprocess.PIPE, stderr=err,
                                text=True, stdin=subprocess.DEVNULL, env=dict(os.environ))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, log.read_text()
    return proc, int(json.loads(line)["ssh"].rsplit(":", 1)[1])


def stored_step(campaign: Path) -> tuple[str, int]:
    engine = campaigns.open_path(campaign, read_only=True).engine
    return engine.state.step, len(engine.history)


async def join(port: int, key: object):
    import asyncssh

    conn = await asyncssh.connect("127.0.0.1", port, username="player", client_keys=[key],
                                  known_hosts=None, agent_path=None, config=None)
    return conn, await open_screen(conn, 110, 34)


async def test_kill_serve_at_random_moments(campaign_home: Path, demo_path: Path,
                                            tmp_path: Path) -> None:
    rng = random.Random(18)
    gm_key, a_key = new_key(), new_key()
    write_seats(demo_path, [Seat("gm", None, (public(gm_key),)),
                            Seat("alice", "A", (public(a_key),))])
    log = tmp_path / "serve.log"
    shown = 0                  # actions every screen has shown (so committed)
    _, base = stored_step(demo_path)
    proc: subprocess.Popen[str] | None = None
    try:
        for round_ in range(ROUNDS):
            proc, port = start_serve(demo_path, log)
            step, length = stored_step(demo_path)
            # everyone comes back and sees the campaign as it was saved
            (gm_conn, gm), (a_conn, alice) = await join(port, gm_key), await join(port, a_key)
            at = SETUP if step == "setup" else MOVE
            await gm.wait_for(at, 60)
            await alice.wait_for("as Army A", 60)
            await alice.wait_for(at, 20)
            for _ in range(rng.randint(1, 3)):     # actions each screen shows
                key, then = (ADVANCE, MOVE) if at == SETUP else (UNDO, SETUP)
                gm.process.stdin.write(key)
                await gm.wait_for(then, 30)
                await alice.wait_for(then, 30)
                at = then
                shown += 1
            # one more key, and the server is killed at a random moment after it
            gm.process.stdin.write(ADVANCE if at == SETUP else UNDO)
            await asyncio.sleep(rng.uniform(0.0, 0.4))
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            for conn in (gm_conn, a_conn):
                conn.close()
            step, length = stored_step(demo_path)
            assert length - base >= shown, f"round {round_}: {shown} shown, " \
                f"{length - base} on disk"
            assert length - base <= shown + 1       # at most the key pressed as it died
            shown = length - base
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
    assert shown >= ROUNDS
    proc, port = start_serve(demo_path, log)       # the last restart: still sound
    try:
        step, _ = stored_step(demo_path)
        conn, gm = await join(port, gm_key)
        await gm.wait_for(SETUP if step == "setup" else MOVE, 60)
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
