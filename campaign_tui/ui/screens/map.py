"""The map screen: the map of the campaign as the viewer may see it, the cursor place's
details, and `/` to find a hex, place or unit. Opened to look (from the main screen) or to
pick a place for an action field (Enter picks, Escape gives nothing back). When looking, the
GM imports (`i`), exports (`x`) and keeps map files (`l`, the map library)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from campaign_tui.ui.mapmodel import ZOOMS, MapModel
from campaign_tui.ui.screens.once import ClosesOnce
from campaign_tui.ui.widgets.mapview import MapView


class MapScreen(ClosesOnce):
    """Arrows move, +/- zoom, `h` hex numbers, `/` finds, Enter shows (or picks)."""

    # The title, keys and details are split off the screen's edges (no container around
    # the map: one widget less to lay out and paint at each opening).
    DEFAULT_CSS = """
    MapScreen { background: $background; }
    #map-title { split: top; height: 1; background: $panel; }
    #map-keys { split: bottom; height: 1; color: $text-muted; }
    #map-details { split: bottom; height: 6; border-top: solid $panel-lighten-2;
                   overflow-y: auto; }
    MapScreen.wide #map-details { split: right; width: 40; border-top: none;
                                  border-left: solid $panel-lighten-2; }
    #map-view { width: 1fr; height: 1fr; }
    #map-find { display: none; }
    #map-find.shown { display: block; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("slash", "find", "Find"),
        Binding("plus,equals_sign,z", "zoom(1)", "Zoom in"),
        Binding("minus", "zoom(-1)", "Zoom out"),
        Binding("h", "numbers", "Hex numbers"),
        Binding("i", "import_map", "Import"),
        Binding("x", "export_map", "Export"),
        Binding("l", "library", "Library"),
        Binding("ctrl+z", "undo", "Undo"),
    ]

    def __init__(self, model: MapModel, *, pick: str | None = None, current: str | None = None,
                 title: str = "") -> None:
        super().__init__()
        self.model = model
        self.pick = pick  # the field's name when picking, else None
        self.current = current
        self.title_text = title or model.board.title
        self.found: list[str] = []
        # the layout class before the screen is attached: set in on_mount it would restyle
        # every widget once more before the first paint
        self.set_class(self.app.size.width >= 120, "wide")

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="map-title")
        keys = "arrows · +/- zoom · h numbers · / find · "
        keys += "Enter picks · Esc cancels" if self.pick else \
            "Enter details · i/x/l map files · Esc"
        yield Static(Text(keys), id="map-keys")
        view = MapView(self.model, self.current, id="map-view")
        yield Static(self._details(view.cursor), id="map-details")
        yield view

    def _title(self) -> Text:
        t = Text(f" {self.title_text}", style="bold")
        if self.pick:
            t.append(f"  pick the {self.pick}", style="bold reverse")
        legend = self.model.legend()
        if legend:
            t.append(f"   {legend}")
        return t

    def on_mount(self) -> None:
        self.query_one(MapView).focus()

    @property
    def view(self) -> MapView:
        return self.query_one(MapView)

    def _details(self, place: str, full: bool = False) -> Text:
        lines = self.model.details(place) if place else ["(no place)"]
        if not full and len(lines) > 8:
            lines = [*lines[:7], f"  … {len(lines) - 7} more: Enter shows all"]
        return Text("\n".join(lines))

    def _show(self, place: str, full: bool = False) -> None:
        # the details box has a fixed size: no layout pass at each cursor move
        self.query_one("#map-details", Static).update(self._details(place, full), layout=full)

    def on_map_view_moved(self, event: MapView.Moved) -> None:
        self._show(event.place)

    def on_map_view_chosen(self, event: MapView.Chosen) -> None:
        if self.pick:
            self.dismiss(event.place)
        else:
            self._show(event.place, full=True)

    def action_back(self) -> None:
        found = self.query("#map-find")
        if found and found.first().has_class("shown"):
            found.first().remove_class("shown")
            self.view.focus()
            return
        self.dismiss(None)

    async def action_find(self) -> None:
        found = self.query("#map-find")
        if found:
            find = found.first(Input)
        else:  # made at the first `/`: the map paints sooner without it
            find = Input(placeholder="find a hex, place or unit; Enter goes there",
                         id="map-find")
            await self.mount(find)
        find.add_class("shown")
        find.value = ""
        find.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        found = self.model.find(event.value)
        event.input.remove_class("shown")
        self.view.focus()
        if not found:
            self.notify(f"Nothing on the map matches {event.value!r}.", severity="warning",
                        timeout=3)
            return
        self.found = found
        self.view.go(found[0])
        if len(found) > 1:
            self.notify(f"{len(found)} matches: {', '.join(found[:6])}", timeout=4)

    def action_zoom(self, delta: int) -> None:
        self.view.set_zoom(self.view.zoom + delta)
        self.notify(f"Zoom: {ZOOMS[self.view.zoom]}", timeout=1)

    def action_numbers(self) -> None:
        self.view.toggle_numbers()

    # -- map files (looking only: a pick is for a dialog still open underneath) -------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in ("import_map", "export_map", "library", "undo") and self.pick)

    def action_import_map(self) -> None:
        from campaign_tui.ui.screens.mapfiles import ask_import

        ask_import(self, self.app.session)  # type: ignore[attr-defined]

    def action_export_map(self) -> None:
        from campaign_tui.ui.screens.mapfiles import ask_export

        ask_export(self, self.app.session)  # type: ignore[attr-defined]

    def action_library(self) -> None:
        from campaign_tui.ui.screens.mapfiles import open_library

        open_library(self, self.app.session)  # type: ignore[attr-defined]

    def action_undo(self) -> None:
        self.app.undo()  # type: ignore[attr-defined]

    def campaign_changed(self, outcome: object) -> None:
        """After an action (an import, an undo): the map is drawn again from the view."""
        self.model = MapModel.of(self.app.session)  # type: ignore[attr-defined]
        self.view.set_model(self.model)
        self.query_one("#map-title", Static).update(self._title())
        self._show(self.view.cursor)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= 120, "wide")


def open_map(screen: Any, *, pick: str | None = None, current: str | None = None,
             done: Any = None) -> None:
    """Push the map of *screen*'s session (its viewer's projected view)."""
    model = MapModel.of(screen.session)
    screen.app.push_screen(MapScreen(model, pick=pick, current=current), done)
