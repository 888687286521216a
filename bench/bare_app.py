"""The baseline for the startup, keypress and memory benchmarks: a bare Textual app with
the same widget types as the main screen (top bar, panel bar, phase prompt with its choice
list, a lazily built tree of sides and formations, a line-API log, the footer), showing
the same visible data as the real screen (read from the JSON file named by
CAMPAIGN_TUI_BARE_DATA), with no campaign behind it. It writes the time of its first paint
and its pid like the real app, and switches panels with F2/F3/F4 like it."""

from __future__ import annotations

import json
import os
import time
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer, Input, OptionList, Static, Tree

DEFAULT: dict[str, Any] = {
    "topbar": " Bare  saved · as GM · Turn 1 · Move",
    "panelbar": " F2 Prompt   F3 Forces   F4 Dice",
    "where": "Turn 1 MOVE · Move\nActing: Army A",
    "prompt": "Army A: move your units.",
    "choices": ["1 Move a unit", "n Advance"],
    "tree": {"Army A": [f"Brigade {i}" for i in range(1, 11)],
             "Army B": [f"Brigade {i}" for i in range(1, 11)]},
    "log": [f"#{i} T1 roll" for i in range(1, 21)],
}


def visible_data() -> dict[str, Any]:
    path = os.environ.get("CAMPAIGN_TUI_BARE_DATA")
    if not path:
        return DEFAULT
    with open(path, encoding="utf-8") as fh:
        return {**DEFAULT, **json.load(fh)}


class Lines(ScrollView):
    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def render_line(self, y: int) -> Strip:
        from rich.segment import Segment

        index = y + int(self.scroll_y)
        text = self.lines[index] if index < len(self.lines) else ""
        return Strip([Segment(text[: self.size.width].ljust(self.size.width))])


class BareApp(App[None]):
    BINDINGS: ClassVar = [Binding("ctrl+q", "quit", "Quit", priority=True),
                          Binding("n", "bell", "Advance"), Binding("f1", "bell", "Help"),
                          Binding("ctrl+s", "bell", "Save"), Binding("ctrl+z", "bell", "Undo"),
                          Binding("ctrl+y", "bell", "Redo"),
                          Binding("f2", "panel('prompt')", "Prompt"),
                          Binding("f3", "panel('oob')", "Forces"),
                          Binding("f4", "panel('log')", "Dice")]
    CSS = """
    #topbar, #panelbar { height: 1; }
    #panel-oob, #panel-log { display: none; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.started = time.perf_counter()
        self.data = visible_data()

    def compose(self) -> ComposeResult:
        d = self.data
        yield Static(Text(d["topbar"]), id="topbar")
        yield Static(Text(d["panelbar"]), id="panelbar")
        with Vertical(id="panel-prompt"):
            yield Static(Text(d["where"]))
            yield Static(Text(d["prompt"]))
            yield OptionList(*d["choices"])
            yield Static(Text("n advances to the next step."))
        with Vertical(id="panel-oob"):
            yield Input(placeholder="/ filter units")
            tree: Tree[str] = Tree("Order of battle")
            tree.show_root = False
            for side, formations in d["tree"].items():
                node = tree.root.add(side, expand=True)
                for f in formations:
                    node.add(f, allow_expand=True)
            yield tree
            yield Static("")
        with Vertical(id="panel-log"):
            yield Input(placeholder="/ filter rolls")
            yield Lines(list(d["log"]))
            yield Static("")
        yield Footer(compact=True)

    def action_panel(self, name: str) -> None:
        for panel in ("prompt", "oob", "log"):
            self.query_one(f"#panel-{panel}").display = panel == name
        target = {"oob": Tree, "log": Lines, "prompt": OptionList}[name]
        self.query(target).first().focus()

    def on_mount(self) -> None:
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        log = os.environ.get("CAMPAIGN_TUI_STARTUP_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(f"{time.time():.6f} painted {time.perf_counter() - self.started:.6f} "
                         f"{os.getpid()} {time.process_time():.6f}\n")


if __name__ == "__main__":
    BareApp().run()
