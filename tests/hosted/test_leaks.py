"""A side's seat receives nothing that belongs to another side: every message it gets
from the table (its sync, every update, table news, replies), while the GM plays on
through the server, is checked with the leak harness's yardstick
(tests/secrets/leakcheck.py): no fact the side's view never held appears in any of it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from campaign_tui import campaigns
from campaign_tui.core.errors import CampaignError
from campaign_tui.hosted.identity import SeatInfo
from campaign_tui.hosted.remote_session import RemoteSession
from campaign_tui.store.paths import Places
from tests.hosted.helpers import RawSeat, ThreadTable
from tests.secrets.cases import SCRIPTED, open_engine, random_play
from tests.secrets.leakcheck import SideAudit, states_over_history


class ThroughTheTable:
    """The engine face random_play needs, played by the GM's seat through the server."""

    def __init__(self, gm: RemoteSession) -> None:
        self.gm = gm

    @property
    def state(self) -> Any:
        return self.gm.engine.state

    def status(self) -> Any:
        return self.gm.status()

    def perform(self, kind: str, params: dict[str, Any], answers: dict[str, Any],
                by: str = "gm") -> Any:
        if kind == "advance":        # the GM seals for every side the step waits for
            for side in self.gm.table.get("waiting", []):
                self.gm.viewer = side
                self.gm.seal(True)
        self.gm.viewer = by
        try:
            return self.gm.perform(kind, params, answers)
        finally:
            self.gm.viewer = "gm"


def play_and_listen(places: Places, path: Path, seed: int, steps: int) -> dict[str, RawSeat]:
    table = ThreadTable(places, path)
    try:
        sides = list(table.run(lambda: list(table.server.engine.state.sides)))
        seats = {}
        for side in sides:
            seats[side] = RawSeat(table.server.socket_path)
            seats[side].hello(table.server.secret, SeatInfo(f"seat-{side}", side))
        gm = table.seat("gm", None)
        done = random_play(ThroughTheTable(gm), random.Random(seed), steps)  # type: ignore[arg-type]
        assert done > 0
        for seat in seats.values():   # a side's own requests: their replies count too
            seat.send({"t": "perform", "id": 1, "kind": "advance", "preview": True})
            seat.send({"t": "undo", "id": 2})
            seat.send({"t": "table", "id": 3, "op": "info"})
            while seat.read(0.5 if seat.received else 5) is not None:
                if json.loads(seat.received[-1]).get("id") == 3:
                    break
    except BaseException:
        table.stop()
        raise
    table.stop()
    return seats


CASES = {"demo": None, **SCRIPTED}


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c.startswith("ffw")
                                  else c for c in sorted(CASES)])
def test_a_side_seat_receives_nothing_of_another_side(case: str, tmp_path: Path,
                                                      home_places: Places) -> None:
    if CASES[case] is None:
        path = campaigns.new_campaign(home_places, "demo", "skirmish", "Demo", 42, "auto", {})
    else:
        path = CASES[case](tmp_path / "campaign")
    seats = play_and_listen(home_places, path, seed=7, steps=25)
    engine = open_engine(path)
    states = states_over_history(engine)
    problems = []
    for side, seat in seats.items():
        audit = SideAudit(engine, side, states)
        assert len(seat.received) >= 3
        for n, line in enumerate(seat.received):
            found = audit.overall.found_in(line.decode("utf-8"))
            if found:
                problems.append(f"{side} message {n}: {found[:5]}")
            message = json.loads(line)
            info = message.get("info", {})
            assert "seed" not in info and "rng_position" not in info
            assert all(e["rng"] == [0, 0] for e in message.get("entries", []))
    assert not problems, "\n".join(problems)


def test_the_yardstick_catches_a_leak(tmp_path: Path, home_places: Places) -> None:
    """The check above can fail: the GM's stream (the full state) names what B hides."""
    path = campaigns.new_campaign(home_places, "demo", "skirmish", "Demo", 42, "auto", {})
    table = ThreadTable(home_places, path)
    try:
        gm = RawSeat(table.server.socket_path)
        gm.hello(table.server.secret, SeatInfo("gm", None))
    finally:
        table.stop()
    engine = open_engine(path)
    audit = SideAudit(engine, "A", states_over_history(engine))
    assert "b-tank" in audit.overall.found_in(gm.received[0].decode())
    with pytest.raises(CampaignError):
        engine.check_viewer("nobody")
