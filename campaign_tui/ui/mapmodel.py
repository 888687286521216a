"""What the map view shows, made from the session's projected view (never the full state):
the board, the map facts, what stands where, and a text layout of it. No Textual import, so
the layout is tested and timed on its own.

Hex maps are drawn cell by cell, each hex a terrain letter (so NO_COLOR still tells terrain
apart), who holds it (the side's hollow mark: □ ○ △ ...), an objective (!) and what stands
there (the side's full mark: ■ ● ▲ ...); the hexes a route crosses between two places (FFW's
xboat routes) show the route's direction (─ │ ╱ ╲). Graph maps without hex positions become a
list of places, each with its holder, objective and routes. Everything is characters, so it
reads the same under NO_COLOR.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from campaign_tui.core.board.facts import on_board
from campaign_tui.core.board.layout import drawn_on_hexes, extent, terrain_text
from campaign_tui.core.board.svg import side_styles

if TYPE_CHECKING:
    from campaign_tui.core.board.hexgrid import HexGrid
    from campaign_tui.core.board.spec import Board
    from campaign_tui.ui.session import Session

EMPTY = "·"
WORLD = "*"
OBJECTIVE = "!"
ZOOMS = ("far", "near")
HOLLOW = {"■": "□", "●": "○", "▲": "△", "◆": "◇", "★": "☆", "✚": "+"}


@dataclass
class MapModel:
    board: Board
    facts: dict[str, dict[str, Any]]
    located: dict[str, list[tuple[str, str]]]
    sides: dict[str, str]
    styles: dict[str, tuple[str, str]] = field(default_factory=dict)
    extent: tuple[int, int, int, int] = (0, 0, 0, 0)
    places: list[str] = field(default_factory=list)  # the list layout's rows
    routes: dict[str, str] = field(default_factory=dict)  # hex a route crosses -> ─ │ ╱ ╲
    _cells: dict[str, tuple[str, str, str, str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, session: Session) -> MapModel:
        view = session.seat().state  # the seat's projection, never the full state
        board = session.engine.ruleset.board(view)
        facts = on_board(board, view)
        located = session.engine.ruleset.locate(view)
        sides = {sid: s.name for sid, s in view.sides.items()}
        colours = {sid: s.color for sid, s in view.sides.items() if s.color.startswith("#")}
        model = cls(board, facts, located, sides, side_styles(list(sides), colours))
        if model.is_hex:
            grid = board.grid
            assert grid is not None
            model.extent = extent(grid, [*facts, *located, *board.places])
            model.routes = crossed(board)
        else:
            nodes = list(board.graph.nodes) if board.graph is not None else []
            extra = sorted(p for p in [*facts, *located] if p not in nodes)
            model.places = sorted(nodes, key=lambda n: model.name(n).lower()) + extra
        return model

    @property
    def is_hex(self) -> bool:
        b = self.board
        return b.grid is not None and (b.graph is None or drawn_on_hexes(b))

    # -- facts of one place -----------------------------------------------------------------
    def place_facts(self, place: str) -> dict[str, Any]:
        node = self.board.graph.nodes.get(place) if self.board.graph is not None else None
        fixed, known = self.board.places.get(place), self.facts.get(place)
        if not (node or fixed or known):
            return {}
        return {**dict(node or {}), **(fixed or {}), **(known or {})}

    def name(self, place: str) -> str:
        return str(self.place_facts(place).get("name") or place)

    def symbol(self, place: str, f: dict[str, Any] | None = None) -> str:
        """One character: the terrain's initial, a world, a lettered hex, or empty."""
        f = self.place_facts(place) if f is None else f
        terrain = terrain_text(f)
        if f.get("letter"):
            return str(f["letter"])[:1].lower()
        if terrain:
            return terrain[:1].upper()
        return WORLD if f.get("name") else EMPTY

    def holder(self, place: str, f: dict[str, Any] | None = None) -> str:
        """The hollow mark of the side that holds *place* ("" when nobody or unknown)."""
        f = self.place_facts(place) if f is None else f
        side = str(f.get("owner") or f.get("held_by") or f.get("control") or "")
        mark = self.styles.get(side, ("", ""))[1]
        return HOLLOW.get(mark, mark)

    def objective(self, place: str) -> str:
        return OBJECTIVE if self.place_facts(place).get("objective") else ""

    def marks(self, place: str) -> str:
        """The side marks of what stands in *place* ("" when nothing)."""
        items = self.located.get(place)
        if not items:
            return ""
        seen = dict.fromkeys(side for side, _ in items)
        return "".join(self.styles.get(s, ("", "?"))[1] for s in seen)

    def details(self, place: str) -> list[str]:
        """What the viewer knows of *place*: its facts, routes and what stands there."""
        f = self.place_facts(place)
        head = place if f.get("name") in (None, place) else f"{place}  {f['name']}"
        lines = [head]
        for k, v in f.items():
            if k in ("name", "hex"):
                continue
            lines.append(f"  {k}: {', '.join(map(str, v)) if isinstance(v, list) else v}")
        if self.board.graph is not None and place in self.board.graph:
            routes = [self.name(n) for n in self.board.graph.neighbours(place)]
            if routes:
                lines.append("  routes: " + ", ".join(routes))
        for side, label in self.located.get(place, []):
            mark = self.styles.get(side, ("", "?"))[1]
            lines.append(f"  {mark} {label} ({self.sides.get(side, side)})")
        if len(lines) == 1:
            lines.append("  nothing known here")
        return lines

    # -- finding --------------------------------------------------------------------------------
    def find(self, text: str) -> list[str]:
        """Places matching *text*: a hex number, a place's name, or a unit's label."""
        q = text.strip().lower()
        if not q:
            return []
        grid = self.board.grid
        out: list[str] = []
        if grid is not None and grid.parse(text.strip()) is not None:
            out.append(grid.label(*grid.parse(text.strip())))  # type: ignore[misc]
        names = {**{p: self.name(p) for p in self.facts}, **{p: self.name(p) for p in self.places}}
        out += [p for p, n in sorted(names.items()) if q in n.lower() or q == p.lower()]
        out += [p for p, items in sorted(self.located.items())
                if any(q in label.lower() for _, label in items)]
        return list(dict.fromkeys(p for p in out if self.is_place(p)))

    def is_place(self, place: str) -> bool:
        if not self.is_hex:
            return place in self.places
        grid = self.board.grid
        assert grid is not None
        cell = grid.parse(place)
        if cell is None:
            return False
        c0, c1, r0, r1 = self.extent
        return c0 <= cell[0] <= c1 and r0 <= cell[1] <= r1

    def start(self) -> str:
        """Where the cursor starts: the first place with something on it, else the corner."""
        if not self.is_hex:
            return self.places[0] if self.places else ""
        for p in sorted(self.located):
            if self.is_place(p):
                return p
        grid = self.board.grid
        assert grid is not None
        return grid.label(self.extent[0], self.extent[2])

    # -- layout ---------------------------------------------------------------------------------
    def cell_size(self, zoom: int) -> tuple[int, int]:
        """(characters, lines) of one hex at *zoom*."""
        return (2, 1) if zoom == 0 else (6, 2)

    def hex_lines(self, zoom: int, numbers: bool, cursor: str, col0: int, row0: int,
                  width: int, height: int) -> list[list[tuple[str, str]]]:
        """The visible rows of a hex map as (text, style) runs, from column *col0* and row
        *row0*; only what fits in *width* x *height* is made."""
        grid = self.board.grid
        assert grid is not None
        _c0, c1, _r0, r1 = self.extent
        cw, ch = self.cell_size(zoom)
        ncols = min(c1 - col0 + 1, max(1, width // cw))
        lines: list[list[tuple[str, str]]] = [[] for _ in range(height)]
        shift = 1 if grid.layout == "odd-q" else 0
        for i in range(ncols):
            col = col0 + i
            down = zoom == 1 and (col & 1) == shift
            for line in range(height):
                offset = line - (1 if down else 0)
                row = row0 + offset // ch
                part = offset % ch
                if offset < 0 or row > r1:
                    lines[line].append((" " * cw, ""))
                    continue
                h = grid.label(col, row)
                style = "reverse" if h == cursor else ("dim" if zoom and part == 0 else "")
                lines[line].append((self._cell(h, zoom, part, numbers), style))
        return lines

    def _cell(self, h: str, zoom: int, part: int, numbers: bool) -> str:
        known = self._cells.get(h)
        if known is None:  # each hex is looked up once, then drawn from here
            f = self.place_facts(h)
            symbol = self.symbol(h, f)
            if symbol == EMPTY and h in self.routes:
                symbol = self.routes[h]
            known = (symbol, self.marks(h), str(f.get("name", "")), self.holder(h, f),
                     OBJECTIVE if f.get("objective") else "")
            self._cells[h] = known
        symbol, marks, name, holder, objective = known
        if zoom == 0:
            return f"{objective or symbol}{marks[:1] or holder or ' '}"
        if part == 1:
            return f"{holder or ' '}{symbol}{objective or ' '}{marks[:2]:<2} "
        if numbers:
            return f" {h:<4} "[:6]
        return f" {name[:4]:<4} "

    def list_lines(self, cursor: str, top: int, height: int) -> list[list[tuple[str, str]]]:
        """Rows of a graph map: each place with its marks and routes."""
        out: list[list[tuple[str, str]]] = []
        for p in self.places[top:top + height]:
            style = "reverse" if p == cursor else ""
            routes = ""
            if self.board.graph is not None and p in self.board.graph:
                routes = " → " + ", ".join(self.name(n) for n in self.board.graph.neighbours(p))
            flags = f"{self.holder(p) or ' '}{self.objective(p) or ' '}"
            out.append([(f"{self.marks(p) or ' '}{flags}{self.name(p)}", style or "bold"),
                        (routes, "dim")])
        return out

    def legend(self) -> str:
        """Each side's marks (■ its units, □ what it holds), then the other signs in use."""
        out = [f"{mark}{HOLLOW.get(mark, '')} {self.sides.get(s, s)}"
               for s, (_, mark) in self.styles.items()]
        if any(f.get("objective") for f in self.facts.values()):
            out.append(f"{OBJECTIVE} objective")
        if self.routes:
            out.append("─│╱╲ route")
        return "  ".join(out)


def crossed(board: Board) -> dict[str, str]:
    """The hexes each route of a route map drawn on hexes passes through (its ends left
    out), with the route's direction on the screen as a line character."""
    grid, graph = board.grid, board.graph
    if grid is None or graph is None:
        return {}
    return dict(_crossed(grid, tuple((e.a, e.b) for e in graph.edges)))


@functools.lru_cache(maxsize=8)
def _crossed(grid: HexGrid, ends: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """:func:`crossed` for a grid and the routes' ends: the same routes are drawn again
    from here each time the map opens."""
    out: dict[str, str] = {}
    for a_hex, b_hex in ends:
        a, b = grid.parse(a_hex), grid.parse(b_hex)
        if a is None or b is None or grid.distance(a_hex, b_hex) < 2:
            continue
        # a hex cell is 6 characters wide and 2 lines high at the near zoom
        angle = math.degrees(math.atan2((b[1] - a[1]) * 2, (b[0] - a[0]) * 6)) % 180
        char = "─" if angle < 22.5 or angle >= 157.5 else (
            "│" if 67.5 <= angle < 112.5 else ("╲" if angle < 90 else "╱"))
        for h in grid.line(a_hex, b_hex)[1:-1]:
            out.setdefault(h, char)
    return out


def moved(model: MapModel, cursor: str, dx: int, dy: int) -> str:
    """The place after a cursor move (clamped to the map)."""
    if not model.is_hex:
        if not model.places:
            return cursor
        i = model.places.index(cursor) if cursor in model.places else 0
        return model.places[max(0, min(len(model.places) - 1, i + dy + dx))]
    grid = model.board.grid
    assert grid is not None
    cell = grid.parse(cursor) or (model.extent[0], model.extent[2])
    c0, c1, r0, r1 = model.extent
    return grid.label(max(c0, min(c1, cell[0] + dx)), max(r0, min(r1, cell[1] + dy)))


def visible(first: int, cursor: int, span: int) -> int:
    """The first visible index so that *cursor* shows in a window of *span* from *first*."""
    if cursor < first:
        return cursor
    if cursor >= first + span:
        return cursor - span + 1
    return first

