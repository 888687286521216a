"""The baseline for the startup benchmark: a bare Textual app showing the same widgets as
the main screen (top bar, panel bar, phase prompt with its choice list, a lazily built
tree of sides and formations, a line-API log and the footer) with trivial content and no
campaign behind it. It writes the time of its first paint like the real app."""

from __future__ import annotations

import os
import time
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer, Input, OptionList, Static, Tree


class Lines(ScrollView):
    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.size.width)


class BareApp(App[None]):
    BINDINGS: ClassVar = [Binding("ctrl+q", "quit", "Quit", priority=True),
                          Binding("n", "bell", "Advance"), Binding("f1", "bell", "Help"),
                          Binding("ctrl+s", "bell", "Save"), Binding("ctrl+z", "bell", "Undo"),
                          Binding("ctrl+y", "bell", "Redo")]
    CSS = """
    #topbar, #panelbar { height: 1; }
    #panel-oob, #panel-log { display: none; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.started = time.perf_counter()

    def compose(self) -> ComposeResult:
        yield Static(Text(" Bare  saved · as GM · Turn 1 · Move"), id="topbar")
        yield Static(Text(" F2 Prompt   F3 Forces   F4 Dice"), id="panelbar")
        with Vertical(id="panel-prompt"):
            yield Static(Text("Turn 1 MOVE · Move\nActing: Army A"))
            yield Static(Text("Army A: move your units."))
            yield OptionList("1 Move a unit", "n Advance")
            yield Static(Text("n advances to the next step."))
        with Vertical(id="panel-oob"):
            yield Input(placeholder="/ filter units")
            tree: Tree[str] = Tree("Order of battle")
            tree.show_root = False
            for side in ("A", "B"):
                node = tree.root.add(f"Army {side}", expand=True)
                for f in range(10):
                    node.add(f"Brigade {f + 1}", allow_expand=True)
            yield tree
            yield Static("")
        with Vertical(id="panel-log"):
            yield Input(placeholder="/ filter rolls")
            yield Lines()
            yield Static("")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        log = os.environ.get("CAMPAIGN_TUI_STARTUP_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(f"{time.time():.6f} painted {time.perf_counter() - self.started:.6f}\n")


if __name__ == "__main__":
    BareApp().run()
