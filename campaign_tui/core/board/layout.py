"""How a board is laid out for drawing, shared by the SVG picture and the TUI's map view:
which cells to draw, whether a route map sits on hexes, and a place's terrain as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campaign_tui.core.board.hexgrid import HexGrid
from campaign_tui.core.board.spec import Board


def terrain_text(facts: Mapping[str, Any]) -> str:
    t = facts.get("terrain")
    if isinstance(t, list):
        return "/".join(str(x) for x in t)
    return str(t) if t else ""


def drawn_on_hexes(board: Board) -> bool:
    g = board.graph
    return g is not None and bool(g.nodes) and all("hex" in a for a in g.nodes.values())


def extent(grid: HexGrid, places: Sequence[str]) -> tuple[int, int, int, int]:
    cells = [c for c in (grid.parse(p) for p in places) if c]
    if None not in (grid.first_col, grid.last_col, grid.first_row, grid.last_row):
        return (grid.first_col or 0, grid.last_col or 0, grid.first_row or 0, grid.last_row or 0)
    if not cells:
        lo_c, lo_r = grid.first_col or 1, grid.first_row or 1
        return lo_c, lo_c + 9, lo_r, lo_r + 7
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    lo_c = max(min(cols) - 1, grid.first_col if grid.first_col is not None else 0)
    lo_r = max(min(rows) - 1, grid.first_row if grid.first_row is not None else 0)
    hi_c = max(cols) + 1 if grid.last_col is None else min(max(cols) + 1, grid.last_col)
    hi_r = max(rows) + 1 if grid.last_row is None else min(max(rows) + 1, grid.last_row)
    return lo_c, hi_c, lo_r, hi_r
