"""The map view's benchmarks (issue 12), each against a bare Textual screen painting a grid
of the same size, in the same app, run and terminal size:

* map_first_paint: the map screen of a new Fifth Frontier War campaign (the whole Spinward
  Marches: 146 worlds, 40 xboat routes, the fleets) from the push of the screen, the map
  made from the seat's view included, to its first paint; the bare screen draws a grid of
  hex-number cells of the same size (the same grid with the map screen's frame of title,
  details and keys line is timed too, and shown beside);
* map_cursor: an arrow key on the map to its repaint (the cursor and the details of the
  place under it); the bare screen moves a highlighted cell.

Both sides run interleaved (one of ours, one of the bare one, ...) and each figure is the
median of this process's processor time, so that other work on a loaded machine counts
neither in ours nor in the baseline's.

    python bench/mapview.py [--quick]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from campaign_tui.ui.mapmodel import MapModel  # noqa: E402
from campaign_tui.ui.screens.map import MapScreen  # noqa: E402

SIZE = (120, 32)
# processor time of this process: on a machine loaded by other work, the wall clock counts
# their time too
CLOCK = time.process_time
KEYS = ["right", "down", "right", "down", "left", "up", "right", "down"]


class Grid(Widget, can_focus=True):
    """The baseline: a grid of hex-number cells with a highlighted cursor cell."""

    BINDINGS: ClassVar = [Binding("up", "move(0,-1)"), Binding("down", "move(0,1)"),
                          Binding("left", "move(-1,0)"), Binding("right", "move(1,0)")]

    def __init__(self) -> None:
        super().__init__()
        self.cursor = (1, 1)

    def action_move(self, dx: int, dy: int) -> None:
        self.cursor = (self.cursor[0] + dx, self.cursor[1] + dy)
        self.refresh()

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        for line in range(self.size.height):
            if line:
                text.append("\n")
            for col in range(1, self.size.width // 6 + 1):
                row = line // 2 + 1
                cell = f" {col:02d}{row:02d} " if line % 2 == 0 else "  ·   "
                text.append(cell, "reverse" if (col, row) == self.cursor else "")
        return text


class Painted:
    """A screen mixin: the time of the screen's first paint."""

    painted: float | None = None

    def on_mount(self) -> None:
        self.call_after_refresh(self._mark)  # type: ignore[attr-defined]

    def _mark(self) -> None:
        self.painted = CLOCK()


class BareScreen(Painted, Screen[None]):
    def compose(self) -> Any:
        yield Grid()

    def on_mount(self) -> None:  # Painted's on_mount runs too (Textual calls each class's)
        self.query_one(Grid).focus()


class FramedScreen(BareScreen):
    """The bare grid with the map screen's frame (a title, a details box, a keys line):
    shown beside the ratio, to tell the map's own cost from the frame's."""

    def compose(self) -> Any:
        yield Static(" title")
        with Horizontal():
            yield Grid()
            yield Static("details\n  one\n  two", classes="details")
        yield Static("keys")

    DEFAULT_CSS = "FramedScreen .details { width: 40; }"


def _session(home: Path) -> Any:
    from campaign_tui import campaigns
    from campaign_tui.store.paths import places
    from campaign_tui.ui.session import Session

    where = places(home).ensure()
    path = campaigns.new_campaign(where, "fifth_frontier_war", None, "Bench map", 4, "auto", {},
                                  quick_setup=True)
    return Session(where, path, campaigns.open_path(path, read_only=True), read_only=True)


class TimedMap(Painted, MapScreen):
    pass


def _map_screen(session: Any) -> Screen[Any]:
    return TimedMap(MapModel.of(session), current="1910")


async def _first_paint(app: App[Any], pilot: Any, make: Any) -> float:
    start = CLOCK()
    screen = make()
    app.push_screen(screen)
    while screen.painted is None:
        await asyncio.sleep(0)
    took = screen.painted - start
    app.pop_screen()
    await pilot.pause()
    return took


async def _keys(app: App[Any], pilot: Any, make: Any) -> float:
    app.push_screen(make())
    await pilot.pause()
    start = CLOCK()
    for key in KEYS:
        await pilot.press(key)
        await pilot.pause()
    took = (CLOCK() - start) / len(KEYS)
    app.pop_screen()
    await pilot.pause()
    return took


async def _measure(session: Any, repeat: int) -> dict[str, tuple[float, float]]:
    app: App[None] = App()
    paint: tuple[list[float], list[float], list[float]] = ([], [], [])
    keys: tuple[list[float], list[float]] = ([], [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # one unmeasured round of each: imports and first-use caches are not the paint's
        await _first_paint(app, pilot, lambda: _map_screen(session))
        await _first_paint(app, pilot, BareScreen)
        for _ in range(repeat):
            for i, make in enumerate((lambda: _map_screen(session), BareScreen)):
                paint[i].append(await _first_paint(app, pilot, make))
                keys[i].append(await _keys(app, pilot, make))
            paint[2].append(await _first_paint(app, pilot, FramedScreen))
    return {"map_first_paint": (statistics.median(paint[0]), statistics.median(paint[1])),
            "framed": (statistics.median(paint[2]), 0.0),
            "map_cursor": (statistics.median(keys[0]), statistics.median(keys[1]))}


def run(_path: object = None, quick: bool = False,
        only: set[str] | None = None) -> list[tuple[str, float, float, str]]:
    """(name, ratio, target, detail) for each map-view benchmark."""
    with tempfile.TemporaryDirectory(prefix="campaign-bench-map-") as home:
        session = _session(Path(home))
        got = asyncio.run(_measure(session, 7 if quick else 15))
    size = f"{SIZE[0]}x{SIZE[1]}"
    out = []
    mine, base = got["map_first_paint"]
    framed = got["framed"][0]
    out.append(("map_first_paint", mine / base, 1.5,
                f"FFW map screen (146 worlds) to its first paint at {size} "
                f"{mine * 1000:.1f} ms; bare grid screen {base * 1000:.1f} ms (with the map "
                f"screen's title, details and keys: {framed * 1000:.1f} ms, ratio "
                f"{mine / framed:.2f})"))
    mine, base = got["map_cursor"]
    out.append(("map_cursor", mine / base, 1.5,
                f"arrow key on the map to repaint {mine * 1000:.1f} ms; bare grid "
                f"{base * 1000:.1f} ms"))
    return [o for o in out if only is None or o[0] in only]


if __name__ == "__main__":
    for name, ratio, target, detail in run(quick="--quick" in sys.argv):
        print(f"BENCH {name} ratio={ratio:.2f} target={target:g}")
        print(f"  {detail}", flush=True)
