"""The tables screen: every table of the rule set laid out like its chart sheet."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, OptionList, Static
from textual.widgets.option_list import Option

from campaign_tui.core.errors import CampaignError
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.base import CampaignScreen
from campaign_tui.ui.screens.dialogs import ConfirmDialog
from campaign_tui.ui.screens.resolve import ResolveDialog

if TYPE_CHECKING:
    from campaign_tui.core.engine import Outcome
    from campaign_tui.core.tables import Table

WARN = "⚠"


def _cell_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return "" if value is None else str(value)


class TablesScreen(CampaignScreen):
    """Every table with its provenance; GM overrides are edited here and logged."""

    CMDS: ClassVar = (C.T_EDIT, C.T_RESET, C.BACK, C.SAVE, C.UNDO, C.REDO, C.HELP)
    BINDINGS: ClassVar = bindings(*CMDS)

    def __init__(self, table: str | None = None) -> None:
        super().__init__(id="tables")
        self.table_id = table

    def compose(self) -> ComposeResult:
        yield Static("", id="topbar")
        with Horizontal(id="tables-body"):
            yield OptionList(id="table-list")
            with Vertical(id="table-view"):
                yield Static("", id="table-head")
                yield DataTable(id="table-grid", cursor_type="cell", zebra_stripes=True)
                yield Static("", id="table-notes", classes="panel-status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        tables = list(self.session.engine.tables)
        ol = self.query_one("#table-list", OptionList)
        ol.set_options([self._list_item(t) for t in tables])
        index = 0
        if self.table_id is not None:
            for i, t in enumerate(tables):
                if t.id == self.table_id:
                    index = i
        if tables:
            ol.highlighted = index
            self.show(tables[index].id)
        ol.focus()
        self.update_topbar()

    def update_topbar(self) -> None:
        s = self.session
        bar = Text(f" {s.name} ", style="bold reverse")
        bar.append(f" Tables of {s.engine.ruleset.name} · esc back")
        if s.dirty and not s.read_only:
            bar.append(f" · {s.unsaved_count} unsaved (^s)", style="bold yellow")
        self.query_one("#topbar", Static).update(bar)

    @staticmethod
    def _list_item(t: Table) -> Option:
        text = Text()
        if not t.verified:
            text.append(f"{WARN} ", style="bold yellow")
        text.append(t.title)
        return Option(text, id=t.id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id:
            self.show(event.option.id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.query_one("#table-grid").focus()

    def current(self) -> Table | None:
        if self.table_id is None:
            return None
        try:
            return self.session.engine.tables.get(self.table_id)
        except CampaignError:
            return None

    def show(self, tid: str) -> None:
        self.table_id = tid
        t = self.current()
        if t is None:
            return
        head = Text(t.title, style="bold")
        names = ", ".join([t.id, *t.aliases])
        head.append(f"  [{names}]", style="dim")
        if t.reference:
            head.append(f"  rule {t.reference}", style="dim")
        head.append("\n")
        head.append(f"{t.provenance.badge()}", style="bold" if t.provenance.verified
                    else "bold yellow")
        if not t.verified:
            head.append(f"  {WARN} UNVERIFIED: not checked against the rulebook",
                        style="bold red")
        inputs = "; ".join(f"{a.title or a.name}: {a.match}" + (f" ({a.die})" if a.die else "")
                           for a in t.axes)
        head.append(f"\ninputs: {inputs}", style="dim")
        if t.result:
            head.append(f"\nresult: {t.result}", style="dim")
        self.query_one("#table-head", Static).update(head)

        grid = self.query_one("#table-grid", DataTable)
        grid.clear(columns=True)
        rows = t.axes[0]
        grid.add_column(Text(rows.title or rows.name, style="bold"), key="_row")
        if len(t.axes) == 2:
            cols = t.axes[1]
            for label in cols.labels:
                grid.add_column(Text(label, style="bold"), key=label)
        else:
            cols = None
            grid.add_column(Text("result", style="bold"), key="_result")
        marked: list[str] = []
        for r, rlabel in enumerate(rows.labels):
            cells: list[Any] = [Text(rlabel, style="bold")]
            if cols is not None:
                for c, clabel in enumerate(cols.labels):
                    cells.append(self._cell(t, f"{rlabel}/{clabel}", t.cells[r][c], marked))
            else:
                cells.append(self._cell(t, rlabel, t.cells[r], marked))
            grid.add_row(*cells, key=rlabel)
        notes = Text()
        if marked:
            notes.append("* " + "; ".join(marked), style="yellow")
            notes.append("\n")
        if t.symbols:
            notes.append("symbols: " + ", ".join(f"{k} = {v}" for k, v in t.symbols.items()),
                         style="dim")
            notes.append("\n")
        for n in t.notes:
            notes.append(f"{n}\n", style="dim")
        if not self.session.read_only:
            notes.append("e overrides the highlighted cell (GM, logged); r restores the table",
                         style="dim")
        self.query_one("#table-notes", Static).update(notes)

    @staticmethod
    def _cell(t: Table, key: str, value: Any, marked: list[str]) -> Text:
        text = Text(_cell_text(value))
        prov = t.cell_provenance.get(key)
        if prov is not None and not prov.verified:
            if prov.grade == "house":
                text.stylize("bold reverse")
                text.append(" H", style="bold")
            else:
                text.append(" *", style="bold yellow")
            marked.append(f"{key}: {prov.badge()}")
        return text

    def _cursor_key(self) -> str | None:
        t = self.current()
        if t is None:
            return None
        grid = self.query_one("#table-grid", DataTable)
        row, col = grid.cursor_coordinate
        rows = t.axes[0].labels
        if not 0 <= row < len(rows):
            return None
        if len(t.axes) == 2:
            cols = t.axes[1].labels
            c = max(0, col - 1)
            return f"{rows[row]}/{cols[min(c, len(cols) - 1)]}"
        return rows[row]

    def action_edit_cell(self) -> None:
        t = self.current()
        key = self._cursor_key()
        if t is None or key is None:
            return
        if self.session.viewer != "gm":
            self.notify("Only the GM overrides tables.", severity="warning")
            return
        parts = key.split("/") if len(t.axes) == 2 else [key]
        indices = [axis.labels.index(p) for axis, p in zip(t.axes, parts, strict=True)]
        current = t.cell_at(indices)
        defn = self.session.engine.action_def("gm.edit_table")
        self.app.push_screen(ResolveDialog(
            self.session, defn.kind, f"Override {t.title} cell {key}", defn.params, defn.help,
            {"table": t.id, "cell": key, "value": _cell_text(current)}, focus="value"),
            self._done)

    def _done(self, outcome: Outcome | None) -> None:
        if outcome is not None:
            self.capp.acted(outcome)

    def action_reset_table(self) -> None:
        t = self.current()
        if t is None:
            return
        if self.session.viewer != "gm":
            self.notify("Only the GM restores tables.", severity="warning")
            return

        def chosen(what: str | None) -> None:
            if what != "reset":
                return
            try:
                outcome = self.session.perform("gm.reset_table", {"table": t.id})
            except CampaignError as exc:
                self.notify(str(exc), severity="error")
                return
            self.capp.acted(outcome)

        self.app.push_screen(ConfirmDialog("Restore table?", f"Drop every house-rule override "
                                           f"of {t.title}? (logged, undoable)",
                                           (("reset", "Restore", "error"),
                                            ("keep", "Keep", "primary")), focus="keep"), chosen)

    def action_back(self) -> None:
        self.dismiss(None)

    def campaign_changed(self, outcome: Outcome) -> None:
        if self.table_id is not None and self.is_mounted:
            grid = self.query_one("#table-grid", DataTable)
            coord = grid.cursor_coordinate
            self.show(self.table_id)
            grid.cursor_coordinate = coord
            ol = self.query_one("#table-list", OptionList)
            for i, t in enumerate(self.session.engine.tables):
                ol.replace_option_prompt_at_index(i, self._list_item(t).prompt)
        self.update_topbar()
