"""The board: hex geometry, point-to-point maps, map facts and map files.

See docs/ENGINE-API.md ("The board") for the API a rule set uses.
"""

from campaign_tui.core.board.graph import Edge, GraphMap
from campaign_tui.core.board.hexgrid import DIRECTION_NAMES, LAYOUTS, HexGrid
from campaign_tui.core.board.spec import Board, bare_board, grid_from_options

__all__ = ["DIRECTION_NAMES", "LAYOUTS", "Board", "Edge", "GraphMap", "HexGrid", "bare_board",
           "grid_from_options"]
