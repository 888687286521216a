"""F1 help: every key of the current screen, from the same declarations as the bindings."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from campaign_tui.ui.commands import command_rows
from campaign_tui.ui.screens.once import ClosesOnce

MOVING = [
    ("tab / shift+tab", "Move between panels and fields"),
    ("arrows, pgup/pgdn, home/end", "Move in lists, trees and tables"),
    ("enter", "Choose, open or confirm"),
    ("esc", "Close a dialog without doing anything"),
    ("^p", "Command palette: every command of this screen, by name"),
    ("^q", "Quit (asks first if something is unsaved)"),
]

Row = tuple[str, str, str, str]


def help_rows(screen: Screen[Any]) -> list[Row]:
    """The declared commands of *screen*: the focused panel's first, then the screen's,
    then the other panels', then the app's."""
    app = screen.app
    nodes: list[Any] = []
    focused = screen.focused
    if focused is not None:
        nodes.extend(n for n in focused.ancestors_with_self if n is not screen and n is not app)
    nodes.append(screen)
    nodes.extend(n for n in screen.query("*") if getattr(n, "CMDS", None) and n not in nodes)
    nodes.append(app)
    return list(command_rows(nodes))


class HelpScreen(ClosesOnce):
    BINDINGS: ClassVar = [
        Binding("escape,f1,question_mark,q", "close", "Close help", key_display="esc"),
    ]

    def __init__(self, rows: list[Row], title: str) -> None:
        super().__init__(classes="dialog-screen")
        self.rows = rows
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Static(Text(f"Keys · {self.title_text}", style="bold"), classes="dialog-title")
            with VerticalScroll(id="help-body"):
                yield Static(self._text(), id="help-text")
        yield Footer(compact=True)

    def _text(self) -> Group:
        parts: list[Any] = []
        groups: dict[str, list[tuple[str, str, str]]] = {}
        for scope, keys, title, help_text in self.rows:
            groups.setdefault(scope, []).append((keys, title, help_text))
        groups["Moving around"] = [(k, "", what) for k, what in MOVING]
        for scope, rows in groups.items():
            table = Table(box=None, show_header=False, padding=(0, 1), expand=True,
                          title=scope, title_justify="left", title_style="bold underline")
            table.add_column("keys", style="bold", no_wrap=True, min_width=6, max_width=14)
            table.add_column("command", style="bold cyan", no_wrap=True, max_width=14)
            table.add_column("what", ratio=1)
            for keys, title, help_text in rows:
                table.add_row(keys, title, help_text)
            parts.append(table)
        return Group(*parts)

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)

