"""Form fields built from what the engine declares.

:class:`ParamField` renders one action parameter (``Param``: str, int, float, bool, choice,
unit, formation, side, units, formations, record, hex; lists and JSON values get a structured
editor, never a text field: :mod:`campaign_tui.ui.widgets.shapes`); :class:`DecisionField`
renders one decision request (choice, multi, number, bool, text, allocate, order, dice,
ruling). Both only collect text or simple values; the engine checks them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from campaign_tui.ui.text import fmt_value
from campaign_tui.ui.widgets import shapes
from campaign_tui.ui.widgets.choices import ChoiceList
from campaign_tui.ui.widgets.entry import Entry
from campaign_tui.ui.widgets.shapes import Shape

if TYPE_CHECKING:
    from campaign_tui.core.actions import Param
    from campaign_tui.core.decisions import Decision

ENTITY_TYPES = ("unit", "units", "formation", "formations")


def _default_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class ParamField(Vertical):
    """One parameter: label, widget, help."""

    class PickRequest(Message):
        def __init__(self, field: ParamField) -> None:
            super().__init__()
            self.field = field

    class Edited(Message):
        """The user changed the value (answers given for the old values no longer hold)."""

    class EditRequest(Message):
        """Open the structured editor for this field (a list, a table, a record)."""

        def __init__(self, field: ParamField) -> None:
            super().__init__()
            self.field = field

    def __init__(self, param: Param, value: Any = None,
                 choices: Sequence[tuple[str, str]] | None = None,
                 describe: Any = None, shape: Shape | None = None,
                 name: Callable[[str], str] = str) -> None:
        super().__init__(classes="field")
        self.param = param
        self.initial = value if value is not None else param.default
        self.choices = list(choices) if choices is not None else None
        self.describe = describe  # callable(ids) -> str for entity fields
        self.shape = shape  # a structured value: edited in the structured editor
        self.name_of = name  # id -> words, for the structured value's line
        self.structured: Any = shapes.read(shape, self.initial) if shape is not None else None

    @property
    def name_(self) -> str:
        return self.param.name

    def compose(self) -> ComposeResult:
        p = self.param
        label = Text(p.name.replace("_", " ").capitalize(), style="bold")
        if not p.required:
            label.append(" (optional)", style="dim")
        kind_hint = {"unit": "F2 picks", "units": "one or more; F2 picks",
                     "formation": "F2 picks", "formations": "one or more; F2 picks",
                     "hex": "F2 picks on the map",
                     "int": "a whole number", "float": "a number"}.get(p.type)
        if self.shape is not None:
            kind_hint = "enter edits"
        elif p.suggest is not None:
            kind_hint = "type, or F2 offers what fits"
        if kind_hint:
            label.append(f"  {kind_hint}", style="dim")
        yield Static(label, classes="field-label")
        kind = p.type
        if self.shape is not None:
            yield Button(self._words(), compact=True, id=f"f-{p.name}", classes="structured")
        elif self.choices is not None or kind == "choice":
            options = self.choices if self.choices is not None else [(c, c) for c in p.choices]
            values = [v for v, _ in options]
            initial = _default_text(self.initial)
            yield ChoiceList(options, initial if initial in values else None,
                             allow_blank=not p.required, id=f"f-{p.name}")
        elif kind == "bool":
            yield Checkbox("yes", bool(self.initial), compact=True, id=f"f-{p.name}")
        elif kind in ENTITY_TYPES:
            with Horizontal(classes="entity-row"):
                yield Entry(_default_text(self.initial), compact=True, id=f"f-{p.name}",
                            placeholder="ids, or F2 to pick from the order of battle")
                pick = Button("Pick (F2)", compact=True, id=f"pick-{p.name}", classes="pick")
                pick.can_focus = False
                yield pick
            yield Static("", classes="field-echo")
        else:
            typ = {"int": "integer", "float": "number"}.get(kind, "text")
            placeholder = {"list": "comma-separated values", "json": "a value (JSON allowed)"
                           }.get(kind, "")
            yield Entry(_default_text(self.initial), type=typ, compact=True,  # type: ignore[arg-type]
                        id=f"f-{p.name}", placeholder=placeholder)
        help_text = p.help
        if p.min is not None or p.max is not None:
            lo = fmt_value(p.min) if p.min is not None else ""
            hi = fmt_value(p.max) if p.max is not None else ""
            rng = f"{lo}..{hi}"
            help_text = f"{help_text} ({rng})".strip()
        if help_text:
            yield Static(Text(help_text, style="dim"), classes="field-help")

    def on_mount(self) -> None:
        self._echo()

    @property
    def widget(self) -> Any:
        return self.query_one(f"#f-{self.param.name}")

    def _words(self) -> str:
        assert self.shape is not None
        return shapes.words(self.shape, self.structured, self.name_of)

    def set_structured(self, value: Any) -> None:
        """A new value from the structured editor."""
        self.structured = value
        self.widget.label = self._words()
        self.post_message(self.Edited())

    def focus_widget(self) -> None:
        """Focus the field's input (nothing before it is drawn: keys typed fast can ask)."""
        found = self.query(f"#f-{self.param.name}")
        if found:
            found.first().focus()

    def value(self) -> Any:
        if self.shape is not None:
            return shapes.write(self.shape, self.structured)
        found = self.query(f"#f-{self.param.name}")
        if not found:  # not drawn yet (keys typed fast): the value it was opened with
            return _default_text(self.initial) or None
        w = found.first()
        if isinstance(w, Checkbox):
            return w.value
        if isinstance(w, ChoiceList):
            return w.value
        text = w.value.strip()
        return text or None

    def set_ids(self, ids: list[str]) -> None:
        self.widget.value = ",".join(ids)
        self._echo()

    def add_text(self, text: str) -> None:
        """Add *text* to a typed field, after a comma when something is typed already."""
        w = self.widget
        typed = w.value.strip().rstrip(",").strip()
        w.value = f"{typed}, {text}" if typed else text
        w.cursor_position = len(w.value)

    def ids(self) -> list[str]:
        raw = self.value()
        return [x.strip() for x in str(raw).split(",") if x.strip()] if raw else []

    def _echo(self) -> None:
        if self.param.type in ENTITY_TYPES and self.describe is not None:
            names = self.describe(self.ids())
            self.query_one(".field-echo", Static).update(Text(names, style="italic"))

    def on_input_changed(self, event: Input.Changed) -> None:
        self._echo()
        self.post_message(self.Edited())

    def on_choice_list_changed(self, event: ChoiceList.Changed) -> None:
        self.post_message(self.Edited())

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.post_message(self.Edited())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.has_class("pick"):
            event.stop()
            self.post_message(self.PickRequest(self))
        elif event.button.has_class("structured"):
            event.stop()
            self.post_message(self.EditRequest(self))


class DecisionField(Vertical):
    """One decision request, rendered by its kind. Posts :class:`Answered`."""

    BINDINGS: ClassVar = [
        Binding("u", "move(-1)", "Move up", show=False),
        Binding("d", "move(1)", "Move down", show=False),
    ]

    class Answered(Message):
        def __init__(self, value: Any) -> None:
            super().__init__()
            self.value = value

    def __init__(self, decision: Decision) -> None:
        super().__init__(classes="decision")
        self.decision = decision
        kind = decision.answer_kind if decision.kind == "ruling" else decision.kind
        if kind == "choice" and not decision.options and decision.kind == "ruling":
            kind = "text"
        self.kind = kind
        self.order = [o.value for o in decision.options]

    def compose(self) -> ComposeResult:
        d = self.decision
        kind = self.kind
        default = d.default
        if kind == "choice":
            yield OptionList(*[Option(self._opt_text(i, o.value, o.label, o.detail), id=o.value)
                               for i, o in enumerate(d.options, 1)], id="answer")
        elif kind == "bool":
            yield OptionList(Option(Text("y  Yes"), id="yes"), Option(Text("n  No"), id="no"),
                             id="answer")
        elif kind == "multi":
            pre = default if isinstance(default, list) else []
            yield SelectionList[str](*[Selection(Text(o.label or o.value) + Text(
                f"  {o.detail}" if o.detail else "", style="dim"), o.value, o.value in pre)
                for o in d.options], id="answer")
            lo = int(d.min) if d.min is not None else 0
            hi = int(d.max) if d.max is not None else len(d.options)
            yield Static(Text(f"space marks ({lo} to {hi}); ^r goes on", style="dim"))
        elif kind == "allocate":
            total = d.total
            yield Static(Text(f"Share {fmt_value(total)} among these:" if total is not None
                              else "Give each an amount:", style="bold"))
            pre = default if isinstance(default, dict) else {}
            for i, o in enumerate(d.options):
                with Horizontal(classes="alloc-row"):
                    yield Static(Text(o.label or o.value), classes="alloc-label")
                    yield Entry(str(pre.get(o.value, "")), type="number", compact=True,
                                id=f"alloc-{i}", classes="alloc")
            yield Static("", id="alloc-sum")
        elif kind == "order":
            yield OptionList(*self._order_options(), id="answer")
            yield Static(Text("u/d move the highlighted one up/down; ^r goes on",
                              style="dim"))
        else:
            placeholder = {"dice": f"the faces of {d.expr}, e.g. 3 or 3,5",
                           "number": "a number"}.get(kind, "")
            typ = "number" if kind == "number" else "text"
            yield Entry(_default_text(default), type=typ, compact=True,  # type: ignore[arg-type]
                        id="answer", placeholder=placeholder)
            if kind == "number" and (d.min is not None or d.max is not None):
                yield Static(Text(f"from {fmt_value(d.min)} to {fmt_value(d.max)}",
                                  style="dim"))

    @staticmethod
    def _opt_text(i: int, value: str, label: str, detail: str) -> Text:
        text = Text(f"{i:>2} ", style="bold")
        text.append(label or value)
        if label and label != value:
            text.append(f" [{value}]", style="dim")
        if detail:
            text.append(f"  {detail}", style="dim")
        return text

    def _order_options(self) -> list[Option]:
        labels = {o.value: o.label or o.value for o in self.decision.options}
        return [Option(Text(f"{i:>2}. {labels.get(v, v)}"), id=v)
                for i, v in enumerate(self.order, 1)]

    def on_mount(self) -> None:
        if self.kind == "choice" and self.decision.default is not None:
            ol = self.query_one("#answer", OptionList)
            values = [o.value for o in self.decision.options]
            if str(self.decision.default) in values:
                ol.highlighted = values.index(str(self.decision.default))
        if self.kind == "bool" and self.decision.default is False:
            self.query_one("#answer", OptionList).highlighted = 1
        self._sum()
        self.focus_first()

    def focus_first(self) -> None:
        found = list(self.query("Input, OptionList, SelectionList"))
        if found:
            found[0].focus()

    def value(self) -> Any:
        kind = self.kind
        if kind in ("choice", "bool"):
            ol = self.query_one("#answer", OptionList)
            if ol.highlighted is None:
                return None
            return ol.get_option_at_index(ol.highlighted).id
        if kind == "multi":
            return list(self.query_one("#answer", SelectionList).selected)
        if kind == "allocate":
            out: dict[str, Any] = {}
            for i, o in enumerate(self.decision.options):
                text = self.query_one(f"#alloc-{i}", Input).value.strip()
                if text:
                    out[o.value] = text
            return out
        if kind == "order":
            return list(self.order)
        return self.query_one("#answer", Input).value.strip()

    def _sum(self) -> None:
        if self.kind != "allocate":
            return
        total = 0.0
        for i, _o in enumerate(self.decision.options):
            with contextlib.suppress(ValueError):
                total += float(self.query_one(f"#alloc-{i}", Input).value or 0)
        want = self.decision.total
        text = f"given {fmt_value(total)}" + (f" of {fmt_value(want)}" if want is not None else "")
        self.query_one("#alloc-sum", Static).update(Text(text + "; ^r goes on", style="dim"))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.has_class("alloc"):
            self._sum()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.has_class("alloc"):
            inputs = list(self.query("Input.alloc"))
            i = inputs.index(event.input)
            if i + 1 < len(inputs):
                inputs[i + 1].focus()
                return
        self.post_message(self.Answered(self.value()))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.kind in ("choice", "bool"):
            event.stop()
            self.post_message(self.Answered(event.option.id))
        elif self.kind == "order":
            event.stop()
            self.post_message(self.Answered(self.value()))

    def on_key(self, event: events.Key) -> None:
        if self.kind == "bool" and event.key in ("y", "n"):
            event.stop()
            self.post_message(self.Answered("yes" if event.key == "y" else "no"))
        elif self.kind == "choice" and event.key.isdigit():
            i = int(event.key)
            if 1 <= i <= len(self.decision.options):
                event.stop()
                self.post_message(self.Answered(self.decision.options[i - 1].value))

    def action_move(self, delta: int) -> None:
        if self.kind != "order":
            return
        ol = self.query_one("#answer", OptionList)
        i = ol.highlighted
        if i is None:
            return
        j = i + delta
        if not 0 <= j < len(self.order):
            return
        self.order[i], self.order[j] = self.order[j], self.order[i]
        ol.set_options(self._order_options())
        ol.highlighted = j

