"""History: the campaign as it stood at any turn or phase bookmark (read-only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from campaign_tui.core.errors import CampaignError
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.base import CampaignScreen
from campaign_tui.ui.widgets.oob import OobPanel

if TYPE_CHECKING:
    from campaign_tui.core.engine import Outcome

ENTRIES_SHOWN = 40


class HistoryScreen(CampaignScreen):
    """Step back to any turn or phase and look at the campaign as it stood then."""

    CMDS: ClassVar = (C.H_SHOW, C.BACK, C.SAVE, C.UNDO, C.REDO, C.HELP)
    BINDINGS: ClassVar = bindings(*CMDS)

    def __init__(self) -> None:
        super().__init__(id="history")
        self.marks: list[tuple[int, str, bool]] = []
        self.seq = 0
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="topbar")
        with Horizontal(id="history-body"):
            yield OptionList(id="bookmarks")
            with Vertical(id="history-view"):
                yield Static("", id="history-head")
                yield OobPanel(self.session.engine.ruleset, read_only=True, id="history-oob")
                yield Static("", id="history-entries", classes="panel-status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.load()
        self.query_one("#bookmarks").focus()

    def update_topbar(self) -> None:
        s = self.session
        bar = Text(f" {s.name} ", style="bold reverse")
        bar.append(" History (read-only) · esc back · ^z/^y undo/redo")
        if s.dirty and not s.read_only:
            bar.append(f" · {s.unsaved_count} unsaved", style="bold yellow")
        self.query_one("#topbar", Static).update(bar)

    def load(self) -> None:
        e = self.session.engine
        n = len(e.history)
        self.marks = [(n, f"Now · {e.where()}", True)]
        for bm in reversed(e.info.bookmarks):
            self.marks.append((bm.seq, bm.label, bm.turn_start))
        ol = self.query_one("#bookmarks", OptionList)
        options = []
        for i, (seq, label, turn) in enumerate(self.marks):
            text = Text(f"#{seq:<5} ", style="dim")
            text.append(label, style="bold" if turn or i == 0 else "")
            options.append(Option(text, id=str(i)))
        ol.set_options(options)
        ol.highlighted = 0
        self.show_index(0)
        self.update_topbar()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        index = int(event.option.id or 0)
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(0.12, lambda: self.show_index(index))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.show_index(int(event.option.id or 0))
        self.query_one("#oob-tree").focus()

    def action_show_bookmark(self) -> None:
        ol = self.query_one("#bookmarks", OptionList)
        if ol.highlighted is not None:
            self.show_index(ol.highlighted)

    def show_index(self, index: int) -> None:
        if not 0 <= index < len(self.marks):
            return
        seq, label, _ = self.marks[index]
        session = self.session
        e = session.engine
        try:
            state = e.state if index == 0 else e.state_at(seq)
        except CampaignError as exc:
            self.notify(str(exc), severity="error")
            return
        self.seq = seq
        view = session.view(state)
        head = Text()
        head.append("Now" if index == 0 else f"As it stood after entry #{seq}", style="bold")
        head.append(f": {label}")
        clock = e.machine.clock_text(state.clock)
        if clock:
            head.append(f"  ({clock})", style="dim")
        head.append("   read-only", style="italic")
        self.query_one("#history-head", Static).update(head)
        self.query_one(OobPanel).show_view(view, session.viewer)
        # the entries of that phase: from this bookmark to the next one
        later = [m[0] for m in self.marks[1:] if m[0] > seq]
        end = min(later) if later and index else len(e.history)
        start = seq + 1 if index else max(1, len(e.history) - ENTRIES_SHOWN + 1)
        lines = Text()
        shown = 0
        if start <= end:
            for entry in session.seat().entries(start, min(end, start + ENTRIES_SHOWN - 1)):
                lines.append(f"#{entry.seq} ", style="dim")
                lines.append(f"{entry.by}: {entry.summary}\n")
                shown += 1
        if not shown:
            lines.append("(no actions in this phase yet)" if index else "", style="dim")
        self.query_one("#history-entries", Static).update(lines)

    def action_back(self) -> None:
        self.dismiss(None)

    def campaign_changed(self, outcome: Outcome) -> None:
        if self.is_mounted:
            self.load()
