"""A campaign's board: its geometry (a hex grid or a graph of places) and its map facts.

A rule set says what board a campaign plays on with ``RuleSet.board(state)``; everything
else (validation of hex input, the ``map`` command, map files) works from that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaign_tui.core.board.graph import GraphMap
from campaign_tui.core.board.hexgrid import LAYOUTS, HexGrid
from campaign_tui.core.errors import InvalidInput


@dataclass
class Board:
    """What the engine knows of one campaign's map. ``grid`` for hex maps, ``graph`` for
    point-to-point maps (a campaign may have both: Prefect's planet and its system)."""

    title: str = "Map"
    grid: HexGrid | None = None
    graph: GraphMap | None = None
    # place id -> plain facts shipped with the rule set (worlds, systems) or the scenario;
    # the campaign's own map facts (records "map") come on top of these
    places: dict[str, dict[str, Any]] = field(default_factory=dict)

    def check_place(self, text: object, what: str = "hex") -> str:
        """A valid place id for *text*, or InvalidInput with the reason and nearest forms."""
        if self.grid is not None:
            try:
                return self.grid.check(text, what)
            except InvalidInput:
                if self.graph is None:
                    raise
        if self.graph is not None:
            return self.graph.check(text, what)
        return str(text)


def grid_from_options(options: dict[str, Any], *, option: str = "hex_grid", default: str = "odd-q",
                      width_option: str = "", letters: bool = False, note: str = "",
                      first: int | None = None) -> HexGrid:
    """A hex grid from a campaign's numbering option (``odd-q``/``even-q``; the old value
    ``gm`` now means the default numbering) and, for a wrapping map, its width option."""
    layout = str(options.get(option, default) or default)
    if layout not in LAYOUTS:
        layout = default
    width = int(options.get(width_option, 0) or 0) if width_option else 0
    if width % 2:
        width += 1
    start = first if first is not None else 1
    return HexGrid(layout=layout, first_col=start if width or first is not None else None,
                   last_col=start + width - 1 if width else None,
                   first_row=first, wrap=bool(width), letters=letters,
                   default=layout == default, note=note)


def bare_board() -> Board:
    """The board of a rule set that declares none: any well-formed hex number is a hex."""
    return Board(grid=HexGrid())
