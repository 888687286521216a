"""Sealed orders with two sides (PRESTAGS simultaneous plots): each side plots privately
from its own seat, the step waits until both have sealed, and every seat sees who it waits
for, never what the others plotted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign_tui.core.errors import ActionRejected
from campaign_tui.store.paths import Places
from tests.hosted.helpers import ThreadTable
from tests.rulesets.prestags.helpers import deployed
from tests.secrets.cases import save_engine

RED_PLOT = "a-bw-01 OF 0508; a-hc-01 MV 0606 0607"
BLUE_PLOT = "b-lc-01 MV 0610 0611; b-sk-02 DF"


@pytest.fixture
def plotting(home_places: Places, tmp_path: Path) -> ThreadTable:
    engine = deployed({"simultaneous": True})
    assert engine.state.step == "PLOT" and engine.step.hidden_input
    table = ThreadTable(home_places, save_engine(engine, tmp_path / "battle"))
    yield table
    table.stop()


def test_the_step_waits_for_every_side_to_seal(plotting: ThreadTable) -> None:
    gm, red, blue = (plotting.seat("gm", None), plotting.seat("red", "A"),
                     plotting.seat("blue", "B"))
    red_got: list[str] = []
    handle = red.handle

    def listen(message: dict) -> None:             # every message Red's seat receives
        red_got.append(json.dumps(message))
        handle(message)

    red.handle = listen  # type: ignore[method-assign]
    assert red.wait_for(lambda: red.table["waiting_names"] == ["Red", "Blue"])
    assert "waiting for Red, Blue" in red.status().prompt

    red.perform("plot", {"side": "A", "orders": RED_PLOT})
    red.seal(True)
    assert blue.wait_for(lambda: blue.table["waiting"] == ["B"])
    assert "waiting for Blue" in blue.status().prompt
    with pytest.raises(ActionRejected, match="waiting for: Blue"):
        gm.advance()
    with pytest.raises(ActionRejected, match="sealed your orders"):
        red.perform("plot", {"side": "A", "orders": "a-bw-01 DF"})

    blue.perform("plot", {"side": "B", "orders": BLUE_PLOT})
    blue.seal(False)                               # unsealed: may still change its mind
    blue.seal(True)
    assert gm.wait_for(lambda: gm.table["waiting"] == [])
    red.pump()
    while_secret = list(red_got)
    assert any("waiting" in m for m in while_secret)
    gm.advance()                                   # both sealed: the plots are revealed on
    assert gm.engine.state.step != "PLOT"
    assert red.wait_for(lambda: red.engine.state.step == gm.engine.state.step)
    # Blue's plot never reached Red's seat while it was secret
    assert not any(w in m for m in while_secret for w in ("b-lc-01 MV", "0610 0611"))
    assert any("a-hc-01 MV 0606 0607" in m for m in while_secret)   # its own, it sees


def test_seals_survive_a_restart_of_the_server(plotting: ThreadTable, home_places: Places
                                              ) -> None:
    red = plotting.seat("red", "A")
    plotting.seat("blue", "B")
    red.perform("plot", {"side": "A", "orders": RED_PLOT})
    red.seal(True)
    campaign = plotting.server.campaign
    plotting.stop()
    again = ThreadTable(home_places, campaign)
    try:
        gm = again.seat("gm", None)
        assert gm.table["waiting"] == ["B"] and gm.table["sealed"] == ["A"]
    finally:
        again.stop()
        plotting.call = lambda coro: coro.close()   # already stopped
        plotting.stop = lambda: None  # type: ignore[method-assign]


def test_a_side_with_nothing_to_seal_is_told(plotting: ThreadTable) -> None:
    gm = plotting.seat("gm", None)
    with pytest.raises(ActionRejected, match="no secret orders"):
        gm.seal(True)                              # the GM has no orders of its own here


async def test_a_seat_seals_from_its_screen(plotting: ThreadTable) -> None:
    from campaign_tui.hosted.seat_client import SeatApp
    from tests.ui.helpers import static_text

    app = SeatApp(plotting.places, plotting.seat("red", "A"), blink=False, theme="textual-dark")
    blue = plotting.seat("blue", "B")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.remote.perform("plot", {"side": "A", "orders": RED_PLOT})
        seal = next(cb for t, _h, cb in app.table_commands() if t == "Table: seal my orders")
        seal()
        for _ in range(100):
            await pilot.pause(0.02)
            if "Your orders are sealed" in static_text(app, "#prompt-text"):
                break
        text = static_text(app, "#prompt-text")
        assert "Your orders are sealed" in text and "waiting for Blue" in text
    assert blue.wait_for(lambda: blue.table["sealed"] == ["A"])
