"""A campaign's map written out as a map file: the board's numbering and extent, and every
fact the GM's view holds (a graph map's places and routes)."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.board.facts import on_board
from campaign_tui.core.board.mapfile import MapFile


def map_file_of(engine: Any) -> MapFile:
    """The campaign's map as the GM knows it, as a map file (for `map --export` and the
    map screen's export)."""
    view = engine.view("gm")
    board = engine.ruleset.board(view)
    meta: dict[str, Any] = {"title": f"{board.title} ({engine.info.name})",
                            "ruleset": engine.ruleset.id, "provenance": "house"}
    mf = MapFile(meta=meta, name=engine.info.name)
    grid = board.grid
    if grid is not None:
        meta.update(kind="hex", numbering=grid.layout)
        if grid.first_col is not None and grid.last_col is not None:
            meta["columns"] = [grid.first_col, grid.last_col]
        if grid.first_row is not None and grid.last_row is not None:
            meta["rows"] = [grid.first_row, grid.last_row]
        if grid.wrap:
            meta["wrap"] = True
        if grid.letters:
            meta["letters"] = True
    facts = on_board(board, view)
    if board.graph is not None and grid is None:
        meta["kind"] = "graph"
        mf.places = {n: {**dict(a), **facts.get(n, {})} for n, a in board.graph.nodes.items()}
        mf.routes = [{"from": e.a, "to": e.b, "weight": e.weight, **dict(e.attrs)}
                     for e in board.graph.edges]
    else:
        mf.hexes = {h: f for h, f in facts.items() if grid is None or grid.is_hex(h)}
    return mf
