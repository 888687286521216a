"""A choice field that shows its choices: several rows at once (not a one-line dropdown that
hides them), a filter line when there are many, enter or space takes the highlighted one and
goes on, as in any list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from campaign_tui.ui.widgets.entry import Entry

NONE = ""  # the id of the "(none)" row of a choice that may stay empty


class ChoiceList(Vertical):
    """Pick one of *options* (``(value, label)``); ``value`` is the highlighted one."""

    FILTER_AT = 8  # more choices than this get a filter line
    DEFAULT_CSS: ClassVar[str] = """
    ChoiceList { height: auto; }
    ChoiceList > OptionList { height: auto; max-height: 6; }
    """

    class Changed(Message):
        def __init__(self, choices: ChoiceList) -> None:
            super().__init__()
            self.choices = choices

    class Picked(Message):
        """Enter or space on a row: the choice is made, the form goes on."""

        def __init__(self, choices: ChoiceList) -> None:
            super().__init__()
            self.choices = choices

    def __init__(self, options: Sequence[tuple[str, str]], value: str | None = None,
                 allow_blank: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.options: list[tuple[str, str]] = [(NONE, "(none)")] if allow_blank else []
        for option, label in options:  # each value once (a row's id is its value)
            if option not in [v for v, _ in self.options]:
                self.options.append((option, label))
        values = [v for v, _ in self.options]
        self._value: str | None = value if value in values else (
            values[0] if values and not allow_blank else None)
        self.shown = list(self.options)

    def compose(self) -> ComposeResult:
        if len(self.options) > self.FILTER_AT:
            yield Entry(placeholder="type to filter the choices", compact=True,
                        classes="choice-filter")
        yield OptionList(*self._rows(self.shown))

    @staticmethod
    def _rows(options: Sequence[tuple[str, str]]) -> list[Option]:
        return [Option(Text(label), id=value) for value, label in options]

    def on_mount(self) -> None:
        self._highlight()

    @property
    def list(self) -> OptionList:
        return self.query_one(OptionList)

    def _highlight(self) -> None:
        ol = self.list
        values = [v for v, _ in self.shown]
        if self._value in values:
            ol.highlighted = values.index(self._value)

    @property
    def value(self) -> str | None:
        return None if self._value in (None, NONE) else self._value

    @value.setter
    def value(self, value: str) -> None:
        if value not in [v for v, _ in self.options]:
            raise ValueError(f"{value!r} is not one of the choices")
        self._value = value
        if self.is_mounted:
            self._highlight()
        self.post_message(self.Changed(self))

    def focus(self, scroll_visible: bool = True) -> ChoiceList:
        self.list.focus(scroll_visible)
        return self

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.screen.focused is not self.list:  # the list drawn or refilled: no choice
            self._highlight()
            return
        if event.option.id is not None and event.option.id != self._value:
            self._value = event.option.id
            self.post_message(self.Changed(self))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._value = event.option.id
        self.post_message(self.Picked(self))

    def on_input_changed(self, event: Input.Changed) -> None:
        if not event.input.has_class("choice-filter"):
            return
        event.stop()
        words = event.value.lower().split()
        self.shown = [(v, lbl) for v, lbl in self.options
                      if all(w in f"{v} {lbl}".lower() for w in words)]
        self.list.set_options(self._rows(self.shown))
        self._highlight()
        if self.list.highlighted is None and self.shown:
            self.list.highlighted = 0

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.has_class("choice-filter"):
            event.stop()
            if self.shown:
                self.list.focus()

    def on_key(self, event: events.Key) -> None:
        ol = self.list
        filters = self.query(".choice-filter")
        char = event.character
        if (filters and self.screen.focused is ol and char and len(char) == 1
                and char.isprintable() and char != " "):
            # typing on the list goes to its filter
            event.stop()
            event.prevent_default()
            box = filters.first(Input)
            box.focus()
            box.insert_text_at_cursor(char)
        elif event.key == "space" and self.screen.focused is ol and ol.highlighted is not None:
            event.stop()
            event.prevent_default()
            ol.action_select()
        elif event.key == "down" and self.screen.focused is not ol and self.shown:
            event.stop()
            ol.focus()
