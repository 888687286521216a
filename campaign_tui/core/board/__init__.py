"""The board: hex geometry, point-to-point maps, map facts and map files.

See docs/ENGINE-API.md ("The board") for the API a rule set uses.

The names below are imported from their modules when first asked for: opening a campaign
imports ``board.facts`` (the map actions) but needs no geometry until a map, a hex parameter
or a rule asks for it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign_tui.core.board.graph import Edge, GraphMap
    from campaign_tui.core.board.hexgrid import DIRECTION_NAMES, LAYOUTS, HexGrid
    from campaign_tui.core.board.spec import Board, bare_board, grid_from_options

__all__ = ["DIRECTION_NAMES", "LAYOUTS", "Board", "Edge", "GraphMap", "HexGrid", "bare_board",
           "grid_from_options"]

_HOME = {"Edge": "graph", "GraphMap": "graph", "DIRECTION_NAMES": "hexgrid", "LAYOUTS": "hexgrid",
         "HexGrid": "hexgrid", "Board": "spec", "bare_board": "spec", "grid_from_options": "spec"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
