"""A stand-in for the table server, to test the doors on their own (fast, and without a
campaign's rules): each seat gets a small Textual screen naming the seat, its side and its
terminal size, and echoing the keys it receives. Same shape as ``TableServer`` (the doors
only call ``seat_command``); ``python tests/hosted/standin.py NAME SIDE CAMPAIGN`` runs the
screen."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from campaign_tui.hosted.identity import SeatInfo


class StandInTable:
    def __init__(self, places: Any, campaign: Path, runtime_dir: Path | None = None) -> None:
        self.campaign = campaign
        self.socket_path: Path | None = None

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def seat_command(self, seat: SeatInfo, cols: int, rows: int) -> tuple[list[str], dict[str, str]]:
        return ([sys.executable, __file__, seat.name, seat.side or "gm", self.campaign.name],
                {"COLUMNS": str(cols), "LINES": str(rows)})   # as the real table gives them

    def connected(self) -> list[dict[str, Any]]:
        return []

    def pause(self, flag: bool) -> None:
        return None

    def lock_seat(self, name: str, flag: bool) -> None:
        return None


def main(argv: list[str]) -> int:
    from textual.app import App, ComposeResult
    from textual.events import Key
    from textual.widgets import Static

    name, side, campaign = argv[:3]

    class SeatScreen(App[int]):
        def compose(self) -> ComposeResult:
            yield Static(id="who")
            yield Static(id="keys")

        def _show(self) -> None:
            self.query_one("#who", Static).update(
                f"SEAT {name} SIDE {side} CAMPAIGN {campaign} SIZE {self.size.width}x{self.size.height}")

        def on_mount(self) -> None:
            self.typed = ""
            self._show()
            self.set_interval(0.2, self._show)    # the size, kept up to date

        def on_key(self, event: Key) -> None:
            if event.key == "ctrl+q":
                self.exit(0)
                return
            self.typed += event.character or ""
            self.query_one("#keys", Static).update(f"TYPED {self.typed}")

    return SeatScreen().run() or 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
