"""Small dialogs: confirm, pick one, pick units, privacy screen, error text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from campaign_tui.core.records import record
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.once import ClosesOnce
from campaign_tui.ui.widgets.entry import Entry
from campaign_tui.ui.widgets.marks import MarkedSelectionList


class Dialog(ClosesOnce):
    """Base: escape cancels (dismisses with None)."""

    CMDS: ClassVar = (C.CANCEL, C.HELP)
    BINDINGS: ClassVar = bindings(*CMDS)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.show_help()  # type: ignore[attr-defined]


class ConfirmDialog(Dialog):
    """A question: choose one of the buttons (esc closes without choosing)."""

    def __init__(self, title: str, message: str | Text,
                 buttons: Sequence[tuple[str, str, str]] = (("yes", "Yes", "primary"),
                                                            ("no", "No", "default")),
                 focus: str | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.message = message
        self.buttons = list(buttons)
        self.focus_id = focus or self.buttons[0][0]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog small"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            msg = self.message if isinstance(self.message, Text) else Text(self.message)
            yield Static(msg, classes="dialog-message")
            with Horizontal(classes="buttons"):
                for bid, label, variant in self.buttons:
                    yield Button(label, id=f"btn-{bid}", variant=variant,  # type: ignore[arg-type]
                                 compact=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(f"#btn-{self.focus_id}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("btn-"))


class InputDialog(Dialog):
    """Ask for one line of text; returns it (None on escape)."""

    def __init__(self, title: str, message: str | Text = "", value: str = "",
                 placeholder: str = "", type: str = "text") -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.message = message
        self.value = value
        self.placeholder = placeholder
        self.type = type  # "integer" or "number": the field refuses letters

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog small"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            if self.message:
                msg = self.message if isinstance(self.message, Text) else Text(self.message)
                yield Static(msg, classes="dialog-message")
            yield Entry(self.value, placeholder=self.placeholder, compact=True, id="answer",
                        type=self.type)  # type: ignore[arg-type]
            yield Static(Text("enter confirms, esc cancels", style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)


class ChoiceDialog(Dialog):
    """Pick one item from a list; returns its value."""

    def __init__(self, title: str, items: Sequence[tuple[str, str | Text]],
                 help: str = "", current: str | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.items = list(items)
        self.help = help
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            if self.help:
                yield Static(Text(self.help, style="dim"), classes="dialog-message")
            yield OptionList(*[Option(label, id=value) for value, label in self.items],
                             id="choice-list")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        ol.focus()
        if self.current is not None:
            for i, (value, _) in enumerate(self.items):
                if value == self.current:
                    ol.highlighted = i

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)


@record
class PickEntry:
    id: str
    label: Text
    search: str


class EntityPicker(Dialog):
    """Pick units or formations: type to filter, enter (or space for several) to choose.

    Returns the chosen ids (a list, also for one)."""

    LIMIT = 300
    BINDINGS: ClassVar = [*Dialog.BINDINGS,
                          Binding("ctrl+n", "done", "Done", show=True, id="picker-done")]

    def __init__(self, title: str, entries: list[PickEntry], multi: bool = False,
                 selected: Sequence[str] = ()) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.entries = entries
        self.multi = multi
        self.selected: list[str] = list(selected)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog tall"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            how = ("space marks, enter (or ^n) takes the marked" if self.multi
                   else "enter takes the highlighted one")
            yield Static(Text(f"Type to filter; {how}.", style="dim"), classes="dialog-message")
            yield Entry(placeholder="filter", id="picker-filter", compact=True)
            if self.multi:
                yield MarkedSelectionList(id="picker-list")
            else:
                yield OptionList(id="picker-list")
            yield Static("", id="picker-count", classes="panel-status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._fill("")
        self.query_one("#picker-filter", Input).focus()

    def _matches(self, text: str) -> list[PickEntry]:
        words = text.lower().split()
        return [e for e in self.entries if all(w in e.search for w in words)]

    def _fill(self, text: str) -> None:
        found = self._matches(text)
        shown = found[: self.LIMIT]
        if self.multi:
            sl = self.query_one("#picker-list", SelectionList)
            sl.clear_options()
            sl.add_options([Selection(e.label, e.id, e.id in self.selected) for e in shown])
        else:
            ol = self.query_one("#picker-list", OptionList)
            ol.set_options([Option(e.label, id=e.id) for e in shown])
            if shown:
                ol.highlighted = 0
        more = f" (first {self.LIMIT}; refine the filter)" if len(found) > self.LIMIT else ""
        marked = f" · {len(self.selected)} marked" if self.multi else ""
        self.query_one("#picker-count", Static).update(
            Text(f"{len(found)} match{'es' if len(found) != 1 else ''}{more}{marked}",
                 style="dim"))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._fill(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_done()

    def on_key(self, event: events.Key) -> None:
        # in a list of several, space marks and enter takes the marks, as in any list
        if event.key == "enter" and self.multi and self.focused is self.query_one("#picker-list"):
            event.stop()
            event.prevent_default()
            self.action_done()
            return
        # arrows in the filter move the list's cursor
        if event.key in ("down", "up") and self.focused is self.query_one("#picker-filter"):
            lst = self.query_one("#picker-list", OptionList)
            lst.focus()
            if lst.highlighted is None and lst.option_count:
                lst.highlighted = 0
            event.stop()

    @on(SelectionList.SelectionToggled)
    def _toggled(self, event: SelectionList.SelectionToggled[str]) -> None:
        event.stop()
        value = event.selection.value
        if value in self.selected:
            self.selected.remove(value)
        else:
            self.selected.append(value)
        self.query_one("#picker-count", Static).update(
            Text(f"{len(self.selected)} marked", style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if not self.multi:
            event.stop()
            if event.option.id:
                self.dismiss([event.option.id])

    def action_done(self) -> None:
        if self.multi:
            self.dismiss(list(self.selected))
            return
        ol = self.query_one("#picker-list", OptionList)
        if ol.highlighted is not None and ol.option_count:
            self.dismiss([ol.get_option_at_index(ol.highlighted).id])


class PrivacyScreen(ClosesOnce):
    """Hides everything while the keyboard changes hands."""

    BINDINGS: ClassVar = [Binding("enter", "done", "I am ready", show=True)]

    def __init__(self, message: str) -> None:
        super().__init__(classes="privacy-screen")
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(classes="privacy"):
            yield Static(Text("Privacy screen", style="bold"), classes="dialog-title")
            yield Static(Text(self.message), classes="dialog-message")
            yield Static(Text("Press Enter when ready.", style="bold"),
                         classes="dialog-message")
        yield Footer(compact=True)

    def action_done(self) -> None:
        self.dismiss(True)
