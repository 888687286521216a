"""kill -9 of the table server at random moments during play loses no committed action,
and the seats reconnect to the restarted server."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from campaign_tui import campaigns
from campaign_tui.core.errors import CampaignError
from campaign_tui.store.paths import Places
from tests.hosted.helpers import ProcessTable, wait_until

ROUNDS = 4


def play(session, acked: list[int], stop: threading.Event, start: int) -> None:
    n = start
    while not stop.is_set():
        n += 1
        try:
            session.perform("gm.set_var", {"name": "tally", "value": str(n)})
        except CampaignError:
            return
        acked.append(n)


@pytest.mark.slow
def test_killing_the_server_loses_nothing_committed(home_places: Places, demo_path: Path,
                                                    tmp_path: Path) -> None:
    rng = random.Random(18)
    table = ProcessTable(demo_path, tmp_path / "run", ["gm:gm", "alice:A"])
    acked: list[int] = []
    alice = None
    try:
        for round_ in range(ROUNDS):
            table.start()
            if alice is None:
                alice = table.seat(home_places, "alice", "A")
            else:                                   # the same seat comes back
                assert wait_until(alice.reconnect, 10)
            gm = table.seat(home_places, "gm", None)
            assert alice.engine.info.log_length == len(alice.engine.history)
            stop = threading.Event()
            worker = threading.Thread(target=play, args=(gm, acked, stop,
                                                         acked[-1] if acked else 0))
            worker.start()
            time.sleep(rng.uniform(0.1, 0.8))
            table.kill()
            stop.set()
            worker.join(20)
            stored = campaigns.open_path(demo_path, read_only=True).engine
            tallies = [int(e.params["value"]) for e in stored.entries()
                       if e.kind == "gm.set_var"]
            lost = sorted(set(acked) - set(tallies))
            assert not lost, f"round {round_}: acknowledged but lost: {lost[:5]}"
            seat = alice
            assert seat.wait_for(lambda s=seat: not s.connected, 5)   # it noticed
    finally:
        table.stop()
    assert len(acked) > ROUNDS                         # it was played, not just started
