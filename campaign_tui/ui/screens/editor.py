"""The structured editor: lists, tables and records edited with keys, never typed as JSON.

One screen edits one :class:`~campaign_tui.ui.widgets.shapes.Shape`:

* a **list** or a **table** (map) shows its rows: ``a`` adds (picked from what fits, or
  typed), ``x``/delete removes the highlighted row, enter edits it;
* a **record** is a small form: number fields, check boxes, and nested lists opened with
  enter;
* a single **value** (a game value of any kind) is a number, yes, no or text.

``^n`` keeps the result, escape leaves it unchanged. Nested parts open the same screen.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from campaign_tui.ui.screens.dialogs import Dialog, EntityPicker, InputDialog, PickEntry
from campaign_tui.ui.widgets.entry import Entry
from campaign_tui.ui.widgets.marks import MarkedCheckbox
from campaign_tui.ui.widgets.shapes import TEXT, Shape, words

if TYPE_CHECKING:
    from campaign_tui.core.model import State

VALUE_KINDS = (("number", "a number"), ("yes", "yes"), ("no", "no"), ("text", "text"))


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


class StructuredEditor(Dialog):
    """Edit one structured value; dismisses with the new value (None: unchanged)."""

    BINDINGS: ClassVar = [
        *Dialog.BINDINGS,
        Binding("a,insert", "add", "Add", show=True),
        Binding("x,delete", "remove", "Remove", show=True),
        Binding("ctrl+n", "done", "Done", show=True, priority=True),
    ]

    def __init__(self, title: str, shape: Shape, value: Any, view: State,
                 params: dict[str, Any] | None = None,
                 name: Callable[[str], str] = str) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.shape = shape
        self.view = view
        self.params = dict(params or {})
        self.name_of = name
        if shape.kind == "list":
            self.value: Any = list(value or [])
        elif shape.kind in ("map", "record"):
            self.value = dict(value or {})
        else:
            self.value = value

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        kind = self.shape.kind
        with Vertical(classes="dialog tall editor"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            how = {"list": "a adds, x removes, enter edits the highlighted row; ^n done",
                   "map": "a adds, x removes, enter edits the highlighted row; ^n done",
                   "record": "tab between fields, space ticks, enter opens a list; ^n done",
                   }.get(kind, "pick the kind, type the value; ^n done")
            help_text = f"{self.shape.help}. " if self.shape.help else ""
            yield Static(Text(help_text + how, style="dim"), classes="dialog-message")
            if kind in ("list", "map"):
                yield OptionList(id="rows")
                yield Static("", id="rows-count", classes="panel-status")
            elif kind == "record":
                with VerticalScroll(id="record"):
                    for name, sub in self.shape.fields:
                        yield from self._record_field(name, sub)
            else:
                yield from self._value_fields()
        yield Footer(compact=True)

    def _record_field(self, name: str, sub: Shape) -> ComposeResult:
        current = self.value.get(name)
        hint = f"  {sub.help}" if sub.help else ""
        if sub.kind == "bool":
            yield MarkedCheckbox(_label(name) + hint, bool(current), compact=True,
                                 id=f"r-{name}")
            return
        yield Static(Text(_label(name), style="bold").append(hint, style="dim"))
        if sub.scalar:
            typ = "integer" if sub.kind == "int" else "text"
            yield Entry("" if current is None else str(current), type=typ,  # type: ignore[arg-type]
                        compact=True, id=f"r-{name}")
        else:
            yield Button(words(sub, current, self.name_of), id=f"r-{name}", compact=True,
                         classes="nested")

    def _value_fields(self) -> ComposeResult:
        value = self.value
        kind = ("yes" if value is True else "no" if value is False
                else "text" if isinstance(value, str) else "number")
        yield OptionList(*[Option(label, id=k) for k, label in VALUE_KINDS], id="value-kind")
        shown = "" if isinstance(value, bool) or value is None else str(value)
        yield Entry(shown, compact=True, id="value-text", placeholder="the value")
        self._start_kind = kind

    def on_mount(self) -> None:
        kind = self.shape.kind
        if kind in ("list", "map"):
            self._refresh_rows()
            self.query_one("#rows", OptionList).focus()
        elif kind == "record":
            found = list(self.query("#record Input, #record Checkbox, #record Button"))
            if found:
                found[0].focus()
        else:
            ol = self.query_one("#value-kind", OptionList)
            ol.highlighted = [k for k, _ in VALUE_KINDS].index(self._start_kind)
            self.query_one("#value-text", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("add", "remove"):
            return self.shape.kind in ("list", "map")
        return True

    # -- rows (list, map) -------------------------------------------------------------------
    def _rows(self) -> list[tuple[Any, Text]]:
        shape = self.shape
        item = shape.item or TEXT
        if shape.kind == "list":
            return [(i, Text(f"{i + 1:>2}. ").append(words(item, v, self.name_of)))
                    for i, v in enumerate(self.value)]
        key = shape.key or TEXT
        return [(k, Text(words(key, k, self.name_of), style="bold").append(
            f": {words(item, v, self.name_of)}")) for k, v in self.value.items()]

    def _refresh_rows(self, highlight: int | None = None) -> None:
        ol = self.query_one("#rows", OptionList)
        rows = self._rows()
        ol.set_options([Option(text) for _, text in rows])
        if rows:
            ol.highlighted = min(highlight if highlight is not None else len(rows) - 1,
                                 len(rows) - 1)
        n = len(rows)
        self.query_one("#rows-count", Static).update(Text(
            f"{n} row{'s' if n != 1 else ''}" + ("" if n else ": a adds one"), style="dim"))

    def _row_key(self) -> Any:
        ol = self.query_one("#rows", OptionList)
        rows = self._rows()
        if ol.highlighted is None or not rows:
            return None
        return rows[ol.highlighted][0]

    def action_add(self) -> None:
        if self.shape.kind == "list":
            self._ask(self.shape.item or TEXT, None, "Add", self._append)
        elif self.shape.kind == "map":
            key = self.shape.key or TEXT
            self._ask(key, None, "Add", self._add_key, exclude=list(self.value))

    def action_remove(self) -> None:
        key = self._row_key()
        if key is None or self.shape.kind not in ("list", "map"):
            return
        ol = self.query_one("#rows", OptionList)
        at = ol.highlighted
        del self.value[key]
        self._refresh_rows(at)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id != "rows":
            return
        key = self._row_key()
        if key is None:
            return
        item = self.shape.item or TEXT

        def replace(value: Any) -> None:
            self.value[key] = value
            self._refresh_rows(self.query_one("#rows", OptionList).highlighted)

        self._ask(item, self.value[key], "Change", replace, single=True)

    def _append(self, values: list[Any] | Any) -> None:
        new = values if isinstance(values, list) and (self.shape.item or TEXT).scalar \
            else [values]
        self.value.extend(v for v in new if v not in (None, ""))
        self._refresh_rows()

    def _add_key(self, keys: list[Any] | Any) -> None:
        key = keys[0] if isinstance(keys, list) else keys
        if key in (None, ""):
            return
        item = self.shape.item or TEXT

        def set_value(value: Any) -> None:
            if value is not None:
                self.value[key] = value
                self._refresh_rows()

        self._ask(item, None, f"{words(self.shape.key or TEXT, key, self.name_of)}:", set_value,
                  single=True)

    # -- asking for one item -----------------------------------------------------------------
    def _ask(self, shape: Shape, current: Any, verb: str, done: Callable[[Any], None],
             single: bool = False, exclude: list[Any] | None = None) -> None:
        """Ask for one item of *shape*: picked from what fits, typed, or in a nested editor.
        *done* gets the item (or, when several may be picked at once, a list)."""
        title = f"{verb} {self.title_text.lower()}"
        if not shape.scalar:
            self.app.push_screen(StructuredEditor(title, shape, current, self.view,
                                                  self.params, self.name_of),
                                 lambda v: v is not None and done(v))
            return
        if shape.kind == "bool":
            done(not current)
            return
        options = shape.options(self.view, self.params)
        if options is not None:
            taken = set(exclude or [])
            if not single and self.shape.kind == "list":
                taken |= set(self.value)  # a list of picks names each once
            entries = [PickEntry(o, self._pick_label(shape, o), f"{o} {self.name_of(o)}".lower())
                       for o in options if o not in taken]
            if not entries:
                self.notify("Nothing more to add.", timeout=3)
                return
            many = not single and self.shape.kind == "list"

            def picked(ids: list[str] | None) -> None:
                if ids:
                    done(ids if many else ids[0])

            self.app.push_screen(EntityPicker(title, entries, many), picked)
            return
        typ = "integer" if shape.kind == "int" else "text"
        what = {"hex": "a hex number", "int": "a whole number"}.get(shape.kind, shape.help
                                                                     or "the value")
        # adding to a list of hexes, several may be typed at once, in order ("0914,1015")
        several = not single and self.shape.kind == "list" and shape.kind == "hex"
        if several:
            what = "hex numbers, in order (commas or spaces between)"
            typ = "text"

        def typed(text: str | None) -> None:
            text = (text or "").strip()
            if not text:
                return
            if shape.kind == "int":
                try:
                    done(int(text))
                except ValueError:
                    self.notify(f"{text!r} is not a whole number.", severity="warning")
                return
            done(text.replace(",", " ").split() if several else text)

        self.app.push_screen(InputDialog(title, f"Type {what}.", "" if current is None
                                         else str(current), what, typ), typed)

    def _pick_label(self, shape: Shape, value: str) -> Text:
        text = Text(f"{value}  ", style="bold cyan")
        named = self.name_of(value)
        if named != value:
            text.append(named)
        return text

    # -- record -----------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = event.button.id or ""
        if not bid.startswith("r-"):
            return
        name = bid[2:]
        sub = dict(self.shape.fields)[name]

        def set_field(value: Any) -> None:
            self.value[name] = value
            event.button.label = words(sub, value, self.name_of)

        self.app.push_screen(StructuredEditor(_label(name), sub, self.value.get(name),
                                              self.view, self.params, self.name_of),
                             lambda v: v is not None and set_field(v))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.shape.kind == "record":
            self.focus_next()
        else:
            self.action_done()

    def _record_value(self) -> dict[str, Any] | None:
        out: dict[str, Any] = {}
        for name, sub in self.shape.fields:
            widget = self.query_one(f"#r-{name}")
            if isinstance(widget, MarkedCheckbox):
                if widget.value:
                    out[name] = True
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if not text:
                    continue
                if sub.kind == "int":
                    try:
                        out[name] = int(text)
                    except ValueError:
                        self.notify(f"{_label(name)}: {text!r} is not a whole number.",
                                    severity="warning")
                        widget.focus()
                        return None
                else:
                    out[name] = text
            elif self.value.get(name) not in (None, [], {}):
                out[name] = self.value[name]
        return out

    def _single_value(self) -> Any:
        ol = self.query_one("#value-kind", OptionList)
        kind = VALUE_KINDS[ol.highlighted or 0][0]
        text = self.query_one("#value-text", Input).value.strip()
        if kind == "yes":
            return True
        if kind == "no":
            return False
        if kind == "number":
            for cast in (int, float):
                with contextlib.suppress(ValueError):
                    return cast(text)
            self.notify(f"{text!r} is not a number.", severity="warning")
            return None
        return text

    def action_done(self) -> None:
        kind = self.shape.kind
        if kind == "record":
            value = self._record_value()
        elif kind in ("list", "map"):
            value = self.value
        else:
            value = self._single_value()
        if value is not None:
            self.dismiss(value)
