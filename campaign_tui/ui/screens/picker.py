"""The campaign picker: what ``campaign-tui`` opens."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widgets import DataTable, Footer, Static

from campaign_tui.core.errors import CampaignError
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.base import AppScreen
from campaign_tui.ui.screens.dialogs import ConfirmDialog
from campaign_tui.ui.text import fmt_saved

if TYPE_CHECKING:
    from campaign_tui.campaigns import Summary


class PickerScreen(AppScreen):
    """Your campaigns (newest first) and the bundled examples."""

    CMDS: ClassVar = (C.P_OPEN, C.P_NEW, C.P_DUP, C.P_DELETE, C.P_REFRESH, C.HELP)
    BINDINGS: ClassVar = bindings(*CMDS)

    def __init__(self) -> None:
        super().__init__(id="picker")
        self.rows: list[Summary] = []

    def compose(self) -> ComposeResult:
        yield Static(Text(" campaign-tui · campaigns ", style="bold reverse"), id="topbar")
        yield DataTable(id="campaigns", cursor_type="row", zebra_stripes=False)
        yield Static("", id="picker-detail", classes="panel-status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._width = self.app.size.width
        self._columns()
        self.load()
        self.query_one(DataTable).focus()

    def _columns(self) -> None:
        """Column widths that fit the terminal (80 columns and up)."""
        table = self.query_one(DataTable)
        table.clear(columns=True)
        width = max(80, self._width)
        saved, ruleset = 16, 12 if width < 100 else 18
        where = 18 if width < 100 else min(40, 18 + (width - 100) // 2)
        name = max(16, width - saved - ruleset - where - 10)
        table.add_column("Campaign", key="name", width=name)
        table.add_column("Rule set", key="ruleset", width=ruleset)
        table.add_column("Where", key="where", width=where)
        table.add_column("Saved", key="saved", width=saved)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != getattr(self, "_width", None):
            self._width = event.size.width
            cursor = self.query_one(DataTable).cursor_row
            self._columns()
            self.load()
            self.query_one(DataTable).move_cursor(row=cursor)

    def load(self, select: str | None = None) -> None:
        from campaign_tui import campaigns

        table = self.query_one(DataTable)
        table.clear()
        try:
            self.rows = campaigns.list_campaigns(self.capp.places)
        except OSError as exc:
            self.rows = []
            self.notify(f"Cannot read the campaigns folder: {exc}", severity="error")
        for i, s in enumerate(self.rows):
            name = Text(s.name, style="bold" if not s.example else "", no_wrap=True,
                        overflow="ellipsis")
            if s.example and "example" not in s.name.lower():
                name.append(" (example)", style="italic dim")
            where = Text(s.problem, style="red") if s.problem else Text(
                s.where or ("example" if s.example else "-"), no_wrap=True, overflow="ellipsis")
            saved = "-" if s.example else fmt_saved(s.saved)
            table.add_row(name, s.ruleset, where, saved, key=str(i))
        if not self.rows:
            self.query_one("#picker-detail", Static).update(Text(
                "No campaigns yet: press n to create one.", style="italic"))
        if select is not None:
            for i, s in enumerate(self.rows):
                if str(s.path) == select:
                    table.move_cursor(row=i)
        self._detail()

    def current(self) -> Summary | None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row is None:
            return None
        i = table.cursor_row
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail()

    def _detail(self) -> None:
        s = self.current()
        if s is None:
            return
        text = Text(f"{s.name} · {s.ruleset}", style="bold")
        if s.where:
            text.append(f" · {s.where}")
        if s.example:
            text.append("\nA bundled example: opening it copies it into your campaigns.",
                        style="dim")
        else:
            text.append(f"\nfolder {s.path.name}, saved {fmt_saved(s.saved)}", style="dim")
        if s.problem:
            text.append(f"\n{s.problem}", style="red")
        self.query_one("#picker-detail", Static).update(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_campaign()

    # -- commands -------------------------------------------------------------------------
    def action_open_campaign(self) -> None:
        s = self.current()
        if s is None:
            return
        if s.problem:
            self.notify(s.problem, title="Cannot open", severity="error", timeout=8)
            return
        path = s.path
        if s.example:
            from campaign_tui import campaigns
            from campaign_tui.registry import load_ruleset
            from campaign_tui.store.files import import_bundle

            try:
                places = self.capp.places.ensure()
                target = campaigns.unique_folder(places.campaigns, path.stem)
                import_bundle(path, target, load_ruleset).close()
            except (CampaignError, OSError) as exc:
                self.notify(str(exc), title="Cannot copy the example", severity="error",
                            timeout=8)
                return
            self.notify(f"Copied the example to {target.name}.", timeout=3)
            path = target
        self.capp.open_campaign(path)

    def action_new_campaign(self) -> None:
        from campaign_tui.ui.screens.wizard import WizardScreen

        self.app.push_screen(WizardScreen())

    def action_duplicate_campaign(self) -> None:
        from campaign_tui import campaigns

        s = self.current()
        if s is None or s.problem:
            return
        try:
            target = campaigns.duplicate(self.capp.places.ensure(), s.path)
        except (CampaignError, OSError) as exc:
            self.notify(str(exc), title="Not duplicated", severity="error", timeout=8)
            return
        self.notify(f"Duplicated as {target.name}.", timeout=3)
        self.load(select=str(target))

    def action_delete_campaign(self) -> None:
        from campaign_tui import campaigns

        s = self.current()
        if s is None:
            return
        if s.example:
            self.notify("Bundled examples cannot be deleted.", severity="warning", timeout=4)
            return

        def chosen(what: str | None) -> None:
            if what != "delete":
                return
            try:
                target = campaigns.delete(self.capp.places, s.path)
            except OSError as exc:
                self.notify(str(exc), title="Not deleted", severity="error", timeout=8)
                return
            self.notify(f"Moved to the trash: {target}", timeout=6)
            self.load()

        self.app.push_screen(ConfirmDialog(
            "Delete campaign?", f"Move {s.name} to the trash folder "
            f"({self.capp.places.trash})? It can be restored from there by hand.",
            (("delete", "Delete", "error"), ("keep", "Keep", "primary")), focus="keep"),
            chosen)

    def action_refresh(self) -> None:
        self.load()

    def on_screen_resume(self) -> None:
        if self.is_mounted and self.query_one(DataTable).columns:
            self.load()
