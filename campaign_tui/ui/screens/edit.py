"""The status editor of the order of battle (each change becomes a ``gm.set_status``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Footer, Input, Static

from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.dialogs import Dialog
from campaign_tui.ui.text import fmt_value
from campaign_tui.ui.widgets.choices import ChoiceList
from campaign_tui.ui.widgets.entry import Entry
from campaign_tui.ui.widgets.marks import MarkedCheckbox

if TYPE_CHECKING:
    from campaign_tui.core.catalog import FieldDef
    from campaign_tui.core.model import Unit

SAVE_EDIT = C.Cmd("apply-edit", "ctrl+e", "Apply", "Apply the changes (each one is logged and "
                  "undoable)", "apply")


class StatusDialog(Dialog):
    """Edit a unit's status fields; returns ``({field: value}, reason)`` for the changed ones."""

    CMDS: ClassVar = (SAVE_EDIT, C.CANCEL, C.HELP)
    BINDINGS: ClassVar = bindings(*CMDS)

    def __init__(self, unit: Unit, fields: dict[str, FieldDef]) -> None:
        super().__init__(classes="dialog-screen")
        self.unit = unit
        self.fields = fields

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"Status of {self.unit.label}", style="bold"),
                         classes="dialog-title")
            with VerticalScroll():
                for name, fdef in self.fields.items():
                    current = self.unit.status.get(name, fdef.default)
                    label = Text(fdef.label or name, style="bold")
                    extra = []
                    if fdef.min is not None or fdef.max is not None:
                        extra.append(f"{fmt_value(fdef.min)}..{fmt_value(fdef.max)}")
                    if fdef.help:
                        extra.append(fdef.help)
                    if extra:
                        label.append("  " + "; ".join(extra), style="dim")
                    yield Static(label, classes="field-label")
                    wid = f"s-{name}"
                    if fdef.type == "bool":
                        yield MarkedCheckbox("yes", bool(current), compact=True, id=wid)
                    elif fdef.type == "choice":
                        yield ChoiceList([(c, c) for c in fdef.choices],
                                         current if current in fdef.choices else None,
                                         allow_blank=True, id=wid)
                    else:
                        typ = {"int": "integer", "float": "number", "number": "number"}.get(
                            fdef.type, "text")
                        yield Entry("" if current is None else str(current), type=typ,  # type: ignore[arg-type]
                                    compact=True, id=wid)
                yield Static(Text("reason (optional, logged)", style="bold"),
                             classes="field-label")
                yield Entry("", compact=True, id="reason")
            with Horizontal(classes="buttons"):
                yield Button("Apply ^e", id="btn-apply", variant="primary", compact=True)
                yield Button("Cancel esc", id="btn-cancel", compact=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        first = self.query("Checkbox, ChoiceList, Input").first()
        if first is not None:
            first.focus()

    def changes(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, fdef in self.fields.items():
            w = self.query_one(f"#s-{name}")
            current = self.unit.status.get(name, fdef.default)
            if isinstance(w, Checkbox):
                value: Any = w.value
            elif isinstance(w, ChoiceList):
                value = w.value
            else:
                text = w.value.strip()  # type: ignore[attr-defined]
                if fdef.type in ("int", "float", "number"):
                    try:
                        value = int(text) if fdef.type == "int" else float(text)
                    except ValueError:
                        value = text
                else:
                    value = text
            if value != current and not (value in ("", None) and current is None):
                out[name] = value
        return out

    def action_apply(self) -> None:
        reason = self.query_one("#reason", Input).value.strip()
        self.dismiss((self.changes(), reason))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "btn-apply":
            self.action_apply()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "reason":
            self.action_apply()
        else:
            self.focus_next()
