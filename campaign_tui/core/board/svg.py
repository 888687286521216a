"""The map as an SVG picture (for a turn report): hexes with their terrain, places and
routes, and what stands where as the viewer may see it. Made only from a board and a view
(the engine's per-side projection), never from the full state.

Without colour the picture still reads: each terrain also has a letter, each side its own
mark, and every name is SVG text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from campaign_tui.core.board.hexgrid import HexGrid
from campaign_tui.core.board.layout import drawn_on_hexes, extent, terrain_text
from campaign_tui.core.board.spec import Board

SIZE = 22.0  # hex radius (centre to corner), in SVG units
SQ3 = math.sqrt(3)
PALETTE = ("#c0392b", "#2e6db4", "#2b8a3e", "#8e44ad", "#d68910", "#16a085")
MARKS = ("■", "●", "▲", "◆", "★", "✚")
TERRAIN_COLOURS = {
    "clear": "#f4f1e4", "woods": "#9cc48a", "forest": "#9cc48a", "jungle": "#6fa86a",
    "swamp": "#a9c7b5", "village": "#d9b99b", "urban": "#c9a27e", "river": "#9ec9e8",
    "stream": "#b9dcef", "ford": "#b9dcef", "bridge": "#cfcfcf", "lake": "#7fb2dd",
    "sea": "#5d9bd1", "water": "#7fb2dd", "rough": "#cdbb9c", "craters": "#bdb5a6",
    "sink holes": "#bdb5a6", "desert/lava flow": "#e8cf8f", "mountains/volcano": "#a89f91",
}
EMPTY = "#ffffff"


def _colour(terrain: str) -> str:
    return TERRAIN_COLOURS.get(terrain.split("/")[0], "#e6e6e6") if terrain else EMPTY


def _letter(terrain: str) -> str:
    return terrain[:1].upper() if terrain else ""


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, text: str, size: float = 8, anchor: str = "middle",
             fill: str = "#222", weight: str = "normal", cls: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}" '
                 f'fill="{fill}" font-weight="{weight}"{c}>{escape(text)}</text>')


def side_styles(sides: Sequence[str],
                colours: Mapping[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """side id -> (colour, mark)."""
    colours = colours or {}
    return {s: (colours.get(s) or PALETTE[i % len(PALETTE)], MARKS[i % len(MARKS)])
            for i, s in enumerate(sides)}


def render(board: Board, facts: Mapping[str, Mapping[str, Any]],
           located: Mapping[str, Sequence[tuple[str, str]]], *, title: str, viewer: str,
           sides: Mapping[str, str], colours: Mapping[str, str] | None = None) -> str:
    """The SVG text. *facts*: place -> map facts; *located*: place -> (side, label) of what
    the viewer sees there; *sides*: side id -> name."""
    styles = side_styles(list(sides), colours)
    if board.grid is not None and (board.graph is None or drawn_on_hexes(board)):
        body, w, h = _hex_map(board, board.grid, facts, located, styles)
    else:
        body, w, h = _graph_map(board, facts, located, styles)
    head = 56
    legend = [f"{styles[s][1]} {name}" for s, name in sides.items()]
    width, height = max(w, 420), h + head
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, sans-serif">',
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           f'<text x="10" y="20" font-size="15" font-weight="bold">{escape(title)}</text>',
           f'<text x="10" y="36" font-size="10">{escape(viewer)} · {escape(" · ".join(legend))}'
           f'</text>']
    note = board.grid.describe() if board.grid is not None else "places and routes"
    out.append(f'<text x="10" y="50" font-size="9" fill="#555">{escape(note)}</text>')
    out.append(f'<g transform="translate(0,{head})">')
    out.extend(body)
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _centre(grid: HexGrid, col: int, row: int, c0: int, r0: int) -> tuple[float, float]:
    shifted = (col & 1) == (1 if grid.layout == "odd-q" else 0)
    x = SIZE + (col - c0) * 1.5 * SIZE + 6
    y = SQ3 / 2 * SIZE + (row - r0) * SQ3 * SIZE + (SQ3 / 2 * SIZE if shifted else 0) + 4
    return x, y


def _hex_map(board: Board, grid: HexGrid, facts: Mapping[str, Mapping[str, Any]],
             located: Mapping[str, Sequence[tuple[str, str]]],
             styles: Mapping[str, tuple[str, str]]) -> tuple[list[str], float, float]:
    places = [*facts, *located, *board.places]
    c0, c1, r0, r1 = extent(grid, places)
    cv = _Canvas()
    centres: dict[str, tuple[float, float]] = {}
    corners = [(math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)]
    for col in range(c0, c1 + 1):
        for row in range(r0, r1 + 1):
            h = grid.label(col, row)
            x, y = _centre(grid, col, row, c0, r0)
            centres[h] = (x, y)
            f = {**board.places.get(h, {}), **facts.get(h, {})}
            terrain = terrain_text(f)
            pts = " ".join(f"{x + SIZE * cx:.1f},{y + SIZE * cy:.1f}" for cx, cy in corners)
            tip = escape(h + (" " + terrain if terrain else ""))
            cv.add(f'<polygon points="{pts}" fill="{_colour(terrain)}" stroke="#888" '
                   f'stroke-width="0.6"><title>{tip}</title></polygon>')
            cv.text(x, y - SIZE * 0.55, h, size=5.5, fill="#777", cls="hexnum")
            mark = _letter(terrain) + (str(f.get("letter", "")) and f" {f['letter']}")
            if mark.strip():
                cv.text(x - SIZE * 0.55, y + 2, mark.strip(), size=6, anchor="start", fill="#555",
                        cls="terrain")
            if f.get("name"):
                cv.text(x, y + SIZE * 0.75, str(f["name"])[:14], size=5.5, fill="#111", cls="place")
            owner = str(f.get("owner") or f.get("held_by") or f.get("control") or "")
            if owner in styles:  # who holds the hex: its side's colour round the inside
                inner = " ".join(f"{x + SIZE * 0.82 * cx:.1f},{y + SIZE * 0.82 * cy:.1f}"
                                 for cx, cy in corners)
                cv.add(f'<polygon points="{inner}" fill="none" stroke="{styles[owner][0]}" '
                       f'stroke-width="1.4" class="control"><title>{escape(owner)}</title>'
                       '</polygon>')
            if f.get("objective"):
                cv.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.8:.1f}" fill="none" '
                       f'stroke="#000" stroke-dasharray="2,2"/>')
    if board.graph is not None:
        for e in board.graph.edges:
            if e.a in centres and e.b in centres:
                (xa, ya), (xb, yb) = centres[e.a], centres[e.b]
                cv.add(f'<line x1="{xa:.1f}" y1="{ya:.1f}" x2="{xb:.1f}" y2="{yb:.1f}" '
                       f'stroke="#d4a017" stroke-width="1.2" opacity="0.8"/>')
    _units(cv, centres, located, styles)
    w = (c1 - c0 + 1) * 1.5 * SIZE + SIZE + 14
    h = (r1 - r0 + 1) * SQ3 * SIZE + SQ3 * SIZE + 10
    return cv.parts, w, h


def _units(cv: _Canvas, centres: Mapping[str, tuple[float, float]],
           located: Mapping[str, Sequence[tuple[str, str]]],
           styles: Mapping[str, tuple[str, str]]) -> None:
    for place, items in sorted(located.items()):
        if place not in centres:
            continue
        x, y = centres[place]
        by_side: dict[str, list[str]] = {}
        for side, label in items:
            by_side.setdefault(side, []).append(label)
        for i, (side, labels) in enumerate(sorted(by_side.items())):
            colour, mark = styles.get(side, ("#000", "?"))
            text = f"{mark}{len(labels)}" if len(labels) > 1 else f"{mark} {labels[0][:10]}"
            names = ", ".join(labels)
            cv.add(f'<text x="{x:.1f}" y="{y + 3 + i * 8 - (len(by_side) - 1) * 4:.1f}" '
                   f'font-size="7" text-anchor="middle" fill="{colour}" font-weight="bold" '
                   f'class="unit"><title>{escape(names)}</title>{escape(text)}</text>')


def _graph_map(board: Board, facts: Mapping[str, Mapping[str, Any]],
               located: Mapping[str, Sequence[tuple[str, str]]],
               styles: Mapping[str, tuple[str, str]]) -> tuple[list[str], float, float]:
    g = board.graph
    nodes = sorted(g.nodes) if g is not None else sorted(facts)
    n = max(len(nodes), 1)
    radius = max(120.0, 22.0 * n / math.pi)
    cx, cy = radius + 80, radius + 30
    pos = {}
    for i, node in enumerate(nodes):
        attrs = g.nodes.get(node, {}) if g is not None else {}
        if "x" in attrs and "y" in attrs:
            pos[node] = (float(attrs["x"]), float(attrs["y"]))
        else:
            a = 2 * math.pi * i / n - math.pi / 2
            pos[node] = (cx + radius * math.cos(a), cy + radius * math.sin(a))
    cv = _Canvas()
    if g is not None:
        for e in g.edges:
            if e.a in pos and e.b in pos:
                (xa, ya), (xb, yb) = pos[e.a], pos[e.b]
                cv.add(f'<line x1="{xa:.1f}" y1="{ya:.1f}" x2="{xb:.1f}" y2="{yb:.1f}" '
                       f'stroke="#999" stroke-width="1"/>')
                if e.weight != 1:
                    cv.text((xa + xb) / 2, (ya + yb) / 2 - 2, f"{e.weight:g}", size=6, fill="#777")
    for node in nodes:
        x, y = pos[node]
        attrs = {**(g.nodes.get(node, {}) if g is not None else {}), **facts.get(node, {})}
        owner = str(attrs.get("owner") or attrs.get("held_by") or "")
        colour = styles.get(owner, ("#666", ""))[0]
        cv.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}" stroke="#222">'
               f'<title>{escape(node)}</title></circle>')
        cv.text(x, y - 8, str(attrs.get("name", node)), size=8, cls="place")
    _units(cv, {k: (x, y + 14) for k, (x, y) in pos.items()}, located, styles)
    w = max(x for x, _ in pos.values()) + 90 if pos else 400
    h = max(y for _, y in pos.values()) + 40 if pos else 200
    return cv.parts, w, h
