"""``serve`` in front of the real table server, with real asyncssh clients: the GM and two
sides play a step of secret plots from their own terminals; each side's terminal receives
nothing the side may not know (the leak harness's yardstick over every byte it was sent),
and the GM sees both plots."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest

from campaign_tui import campaigns
from campaign_tui.hosted.seats import Seat
from campaign_tui.hosted.serve import make_table
from campaign_tui.store.paths import places
from tests.hosted.door_helpers import (
    Screen,
    connect,
    new_key,
    open_screen,
    public,
    serving,
    write_seats,
)
from tests.secrets.leakcheck import SideAudit, states_over_history

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]
PLOTS = {"A": "NORTH-0707", "B": "SOUTH-0303"}
ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
F6 = b"\x1b[17~"


@pytest.fixture
def plots_campaign(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    from campaign_tui.registry import reset_registry

    monkeypatch.setenv("CAMPAIGN_TUI_PLUGINS",
                       "demo=tests.demo_ruleset:plugin,plots=tests.hosted.plot_ruleset:plugin")
    reset_registry()
    yield campaigns.new_campaign(places().ensure(), "plots", "plots", "Plots", 42, "auto", {})
    monkeypatch.undo()
    reset_registry()


def received(screen: Screen) -> str:
    """Every character the terminal was sent, its control sequences taken out."""
    return ESCAPES.sub(b"", bytes(screen.raw)).decode("utf-8", "replace")


async def plot_and_seal(screen: Screen, side: str) -> None:
    await screen.wait_for("Write a secret plot")
    screen.process.stdin.write(b"1")                       # the plot's form
    await screen.wait_for("Roll ^r")
    await asyncio.sleep(1.0)                               # the form takes the focus
    screen.process.stdin.write(PLOTS[side].encode())
    await screen.wait_for(PLOTS[side])
    screen.process.stdin.write(b"\r")                      # roll: the review
    await screen.wait_for(f"Result: {side} plotted: {PLOTS[side]}")
    screen.process.stdin.write(b"\r")                      # apply
    await screen.wait_until(lambda text: "1 Write a secret plot (text)" in text
                            and "Roll ^r" not in text, what="the main screen")
    await asyncio.sleep(0.5)
    screen.process.stdin.write(b"\x10")                    # ctrl+p: the palette
    await screen.wait_for("Search for commands")
    await asyncio.sleep(0.5)
    screen.process.stdin.write(b"Table: seal my")
    await screen.wait_until(lambda text: "Table: seal my orders" in text
                            and "Search for commands" not in text, what="the seal command")
    screen.process.stdin.write(b"\r")
    await screen.wait_for("Your orders are sealed")


async def test_two_sides_plot_in_secret_and_the_gm_advances(plots_campaign: Path) -> None:
    keys = {who: new_key() for who in ("gm", "A", "B")}
    write_seats(plots_campaign, [Seat("boss", None, (public(keys["gm"]),)),
                                 Seat("alice", "A", (public(keys["A"]),)),
                                 Seat("bob", "B", (public(keys["B"]),))])
    screens: dict[str, Screen] = {}
    conns: list[asyncssh.SSHClientConnection] = []
    async with serving([plots_campaign], table=make_table) as served:
        try:
            for who in ("gm", "A", "B"):
                conn = await connect(served, keys[who])
                conns.append(conn)
                screens[who] = await open_screen(conn, 100, 30)
            for who, name in (("gm", "Plots"), ("A", "as Army A"), ("B", "as Army B")):
                await screens[who].wait_for(name, timeout=60)
            await plot_and_seal(screens["A"], "A")
            await screens["gm"].wait_for("waiting for Army B")
            screens["gm"].process.stdin.write(b"n")        # refused: B has not sealed
            await screens["gm"].wait_for("waiting for: Army B")
            await plot_and_seal(screens["B"], "B")
            screens["gm"].process.stdin.write(b"n")
            for screen in screens.values():                # every seat follows at once
                await screen.wait_for("Plots written")
            for who, screen in screens.items():
                screen.process.stdin.write(F6)
                await screen.wait_for("History")
                if who != "gm":
                    await screen.wait_for(f"{who} plotted: {PLOTS[who]}")
            await screens["gm"].wait_until(lambda text: PLOTS["A"] in text and PLOTS["B"] in text,
                                           what="both plots on the GM's history")
        finally:
            for conn in conns:
                conn.close()
    opened = campaigns.open_path(plots_campaign, read_only=True)
    engine = opened.engine
    assert engine.state.step == "done"
    assert engine.state.secrets["A"]["plot"] == PLOTS["A"]
    states = states_over_history(engine)
    for side, other in (("A", "B"), ("B", "A")):
        hidden = SideAudit(engine, side, states).overall
        assert PLOTS[other] in hidden.facts
        everything = received(screens[side]) + "\n" + screens[side].text()
        assert hidden.found_in(everything) == [], f"{side}'s terminal was sent hidden facts"
        assert PLOTS[other] not in everything
