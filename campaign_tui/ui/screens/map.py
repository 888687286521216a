"""The map screen: the map of the campaign as the viewer may see it, the cursor place's
details, and `/` to find a hex, place or unit. Opened to look (from the main screen) or to
pick a place for an action field (Enter picks, Escape gives nothing back)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from campaign_tui.ui.mapmodel import ZOOMS, MapModel
from campaign_tui.ui.screens.once import ClosesOnce
from campaign_tui.ui.widgets.mapview import MapView


class MapScreen(ClosesOnce):
    """Arrows move, +/- zoom, `h` hex numbers, `/` finds, Enter shows (or picks)."""

    DEFAULT_CSS = """
    MapScreen { background: $background; }
    #map-title { height: 1; background: $panel; }
    #map-body { height: 1fr; }
    #map-view { width: 1fr; height: 1fr; }
    #map-details { height: 6; border-top: solid $panel-lighten-2; overflow-y: auto; }
    MapScreen.wide #map-details { width: 40; height: 1fr; border-top: none;
                                  border-left: solid $panel-lighten-2; }
    #map-find { display: none; }
    #map-find.shown { display: block; }
    #map-keys { height: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "back", "Back"),
        Binding("slash", "find", "Find"),
        Binding("plus,equals_sign,z", "zoom(1)", "Zoom in"),
        Binding("minus", "zoom(-1)", "Zoom out"),
        Binding("h", "numbers", "Hex numbers"),
    ]

    def __init__(self, model: MapModel, *, pick: str | None = None, current: str | None = None,
                 title: str = "") -> None:
        super().__init__()
        self.model = model
        self.pick = pick  # the field's name when picking, else None
        self.current = current
        self.title_text = title or model.board.title
        self.found: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="map-title")
        with Horizontal(id="map-body") if self.app.size.width >= 120 else Vertical(id="map-body"):
            yield MapView(self.model, self.current, id="map-view")
            yield Static("", id="map-details")
        yield Input(placeholder="find a hex, place or unit; Enter goes there", id="map-find")
        keys = "arrows move · +/- zoom · h numbers · / find · "
        keys += "Enter picks · Esc cancels" if self.pick else "Enter details · Esc back"
        yield Static(Text(keys), id="map-keys")

    def _title(self) -> Text:
        t = Text(f" {self.title_text}", style="bold")
        if self.pick:
            t.append(f"  pick the {self.pick}", style="bold reverse")
        legend = self.model.legend()
        if legend:
            t.append(f"   {legend}")
        return t

    def on_mount(self) -> None:
        self.set_class(self.app.size.width >= 120, "wide")
        view = self.query_one(MapView)
        view.focus()
        self._show(view.cursor)

    @property
    def view(self) -> MapView:
        return self.query_one(MapView)

    def _show(self, place: str, full: bool = False) -> None:
        lines = self.model.details(place) if place else ["(no place)"]
        if not full and len(lines) > 8:
            lines = [*lines[:7], f"  … {len(lines) - 7} more: Enter shows all"]
        self.query_one("#map-details", Static).update(Text("\n".join(lines)))

    def on_map_view_moved(self, event: MapView.Moved) -> None:
        self._show(event.place)

    def on_map_view_chosen(self, event: MapView.Chosen) -> None:
        if self.pick:
            self.dismiss(event.place)
        else:
            self._show(event.place, full=True)

    def action_back(self) -> None:
        find = self.query_one("#map-find", Input)
        if find.has_class("shown"):
            find.remove_class("shown")
            self.view.focus()
            return
        self.dismiss(None)

    def action_find(self) -> None:
        find = self.query_one("#map-find", Input)
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

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= 120, "wide")


def open_map(screen: Any, *, pick: str | None = None, current: str | None = None,
             done: Any = None) -> None:
    """Push the map of *screen*'s session (its viewer's projected view)."""
    model = MapModel.of(screen.session)
    screen.app.push_screen(MapScreen(model, pick=pick, current=current), done)
