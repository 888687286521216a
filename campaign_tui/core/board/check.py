"""Hex input, checked the same way everywhere a hex is taken."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign_tui.core.board.hexgrid import HexGrid
from campaign_tui.core.board.spec import Board
from campaign_tui.core.model import State


def check_hex(raw: Any, state: State, board: Callable[[State], Any] | None, where: str) -> str:
    """The hex id for *raw*; InvalidInput naming *where*, the reason and the valid forms."""
    made = board(state) if board is not None else HexGrid()
    if isinstance(made, Board):
        return made.check_place(raw, where)
    return made.check(raw, where)
