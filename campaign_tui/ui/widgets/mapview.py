"""The map drawn in text: a cursor place, a view that scrolls to keep it in sight, two zoom
levels, hex numbers on demand. Only the visible rows are made at each paint.

``SideMap`` is the same map beside the prompt on a wide main screen, with one line saying
what is at the cursor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from typing import Self

    from campaign_tui.ui.mapmodel import MapModel
    from campaign_tui.ui.session import Session


class MapView(Widget, can_focus=True):
    """The map; posts ``Moved`` when the cursor changes and ``Chosen`` on Enter."""

    BINDINGS: ClassVar = [
        Binding("up", "move(0,-1)", "Up", show=False),
        Binding("down", "move(0,1)", "Down", show=False),
        Binding("left", "move(-1,0)", "Left", show=False),
        Binding("right", "move(1,0)", "Right", show=False),
        Binding("pageup", "move(0,-10)", "Page up", show=False),
        Binding("pagedown", "move(0,10)", "Page down", show=False),
        Binding("enter", "choose", "Show / pick"),
    ]

    class Moved(Message):
        def __init__(self, place: str) -> None:
            super().__init__()
            self.place = place

    class Chosen(Message):
        def __init__(self, place: str) -> None:
            super().__init__()
            self.place = place

    def __init__(self, model: MapModel, cursor: str | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.cursor = cursor if cursor and model.is_place(cursor) else model.start()
        self.zoom = 1
        self.numbers = True
        self.first_col = model.extent[0]
        self.first_row = model.extent[2]
        self.top = 0
        self._rows: list[list[tuple[str, str]]] = []
        self._rows_key: tuple[Any, ...] | None = None
        self._styles: dict[str, Style] = {}
        self._strips: list[Strip | None] = []  # each row's strip once painted
        self._strips_width = 0
        self._base: Style | None = None  # the widget's own style (its ancestors' colours)

    # -- state ------------------------------------------------------------------------------
    def set_model(self, model: MapModel) -> None:
        """A new picture of the same campaign (after an action, or another viewer): the
        cursor stays where it was if that place is still on the map."""
        self.model = model
        if not model.is_place(self.cursor):
            self.cursor = model.start()
        self.refresh()

    def go(self, place: str) -> None:
        self.cursor = place
        self.post_message(self.Moved(place))
        old = self._rows
        if not old or not self.is_mounted:
            self.refresh()
            return
        self._rows_key = None
        new = self._frame()
        if len(new) != len(old):
            self.refresh()
            return
        # only the lines that changed are painted again (the old and the new cursor's,
        # or all of them when the view scrolled)
        width = self.size.width
        for y, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                super().refresh(Region(0, y, width, 1))

    def action_move(self, dx: int, dy: int) -> None:
        from campaign_tui.ui.mapmodel import moved

        self.go(moved(self.model, self.cursor, dx, dy))

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.cursor))

    def set_zoom(self, zoom: int) -> None:
        self.zoom = max(0, min(1, zoom))
        self.refresh()

    def toggle_numbers(self) -> None:
        self.numbers = not self.numbers
        self.refresh()

    # -- painting ---------------------------------------------------------------------------
    # The line API (as Textual's own log and table use it): each line is a strip of a few
    # segments, made from the rows computed once per change, with no rich Text in between.
    def render_line(self, y: int) -> Strip:
        rows = self._frame()
        strips = self._strips
        strip = strips[y] if y < len(strips) else None
        if strip is not None:
            return strip
        width = self.size.width
        base = self._base
        if base is None:  # once per change of the widget's colours, not once per line
            base = self._base = self.rich_style
        if y >= len(rows):
            return Strip.blank(width, base)
        styles = self._styles
        if styles.get("") != base:  # the widget's own colours changed (theme, focus)
            styles.clear()
            styles[""] = base
        segments = []
        for chunk, name in rows[y]:
            style = styles.get(name)
            if style is None:
                style = styles[name] = base + Style.parse(name)
            segments.append(Segment(chunk, style))
        strip = strips[y] = Strip(segments).adjust_cell_length(width, base)
        return strip

    def notify_style_update(self) -> None:
        self._base = None  # the colours may have changed (theme, focus): strips made again
        self._strips = [None] * len(self._rows)
        super().notify_style_update()

    def refresh(self, *regions: Any, **kw: Any) -> Self:
        self._rows_key = None  # anything may have changed: the rows are made again
        return super().refresh(*regions, **kw)

    def _frame(self) -> list[list[tuple[str, str]]]:
        """The visible rows as (text, style) runs, neighbouring runs of one style joined;
        made again only when the cursor, zoom, numbers, model or size changed."""
        width, height = self.size.width, max(1, self.size.height)
        key = (self.cursor, self.zoom, self.numbers, id(self.model), width, height)
        if key == self._rows_key:
            return self._rows
        from campaign_tui.ui.mapmodel import visible

        m = self.model
        if not m.is_hex:
            if not m.places:
                rows = [[("No places known on this map yet.", "dim")]]
            else:
                i = m.places.index(self.cursor) if self.cursor in m.places else 0
                self.top = visible(self.top, i, height)
                rows = m.list_lines(self.cursor, self.top, height)
        else:
            grid = m.board.grid
            assert grid is not None
            col, row = grid.parse(self.cursor) or (m.extent[0], m.extent[2])
            cw, ch = m.cell_size(self.zoom)
            self.first_col = visible(self.first_col, col, max(1, width // cw))
            self.first_row = visible(self.first_row, row, max(1, (height - 1) // ch))
            rows = m.hex_lines(self.zoom, self.numbers, self.cursor, self.first_col,
                               self.first_row, width, height)
        joined = [_joined(runs) for runs in rows]
        # a row unchanged keeps its strip (a cursor move paints two rows again, not all)
        same = len(self._strips) == len(joined) and self._strips_width == width
        kept = self._strips if same else []
        self._strips_width = width
        self._strips = [kept[i] if kept and joined[i] == self._rows[i] else None
                        for i in range(len(joined))]
        self._rows = joined
        self._rows_key = key
        return self._rows


def _joined(runs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Neighbouring runs of one style as one run: fewer segments to paint."""
    out: list[tuple[str, str]] = []
    chunks: list[str] = []
    last = ""
    for chunk, style in runs:
        if style != last and chunks:
            out.append(("".join(chunks), last))
            chunks = []
        chunks.append(chunk)
        last = style
    if chunks:
        out.append(("".join(chunks), last))
    return out


class SideMap(Vertical):
    """The map beside the prompt: made from the session's projected view when first shown,
    and again after each change (``show``)."""

    DEFAULT_CSS = """
    SideMap { height: 1fr; }
    SideMap MapView { height: 1fr; }
    SideMap #side-map-place { height: 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="side-map-place")

    shown_for: tuple[Any, ...] | None = None

    def show(self, session: Session) -> None:
        engine = session.engine
        key = (session.viewer, len(engine.history), engine.info.head)
        if key == self.shown_for:  # nothing changed since the last picture
            return
        self.shown_for = key
        from campaign_tui.ui.mapmodel import MapModel  # not at import: 80x24 has no side map

        model = MapModel.of(session)
        views = self.query(MapView)
        if views:
            views.first().set_model(model)
        else:  # mounted only once a wide screen shows it: 80x24 never pays for it
            self.mount(MapView(model, id="side-map-view"), before=0)
        self._place(self.cursor())

    def cursor(self) -> str | None:
        views = self.query(MapView)
        return views.first().cursor if views else None

    def on_map_view_moved(self, event: MapView.Moved) -> None:
        self._place(event.place)

    def _place(self, place: str | None) -> None:
        views = self.query(MapView)
        if not place or not views:
            return
        model = views.first().model
        head, *rest = model.details(place)
        # one line: the place, then what stands there (what a player looks for), then facts
        standing = len(model.located.get(place, []))
        facts, units = (rest[:-standing], rest[-standing:]) if standing else (rest, [])
        text = "; ".join(line.strip() for line in [head, *units, *facts])
        self.query_one("#side-map-place", Static).update(Text(text, no_wrap=True,
                                                              overflow="ellipsis"))
