"""Values read from the tables for one unit or terrain: costs, caps, VP, terrain effects.

Reads go through the campaign's table set (with the GM's house rules applied) without
logging; the procedures that matter to a player explain the value they used.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import Unit
from campaign_tui.core.tables import TableSet
from rulesets.prefect.board import Board


def cell(tables: TableSet, table: str, **inputs: Any) -> Any:
    return tables.get(table).lookup(**inputs).value


def as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def terrain_effect(tables: TableSet, terrain: str, effect: str) -> Any:
    """T3 value for one terrain: 'detection' (int), 'defense' (int), 'zoc_blocked' (bool)."""
    try:
        return cell(tables, "terrain", terrain=terrain.lower(), effect=effect)
    except InvalidInput:
        raise InvalidInput(f"{terrain!r} is not a terrain of T3") from None


def ground_reorg_cost(tables: TableSet, cost_key: str) -> int | None:
    """T6 cost, None when the unit cannot be reorganized (Militia, Garrison)."""
    return as_int(cell(tables, "ground_reorg", unit=cost_key))


def ground_rebuild_cost(tables: TableSet, cost_key: str) -> int | None:
    """2 x T6, or the T6b exception (Militia 1, Garrison 4)."""
    table = tables.get("ground_rebuild_exceptions")
    if cost_key in table.axes[0].labels:
        return as_int(table.lookup(unit=cost_key).value)
    cost = ground_reorg_cost(tables, cost_key)
    return None if cost is None else 2 * cost


def naval_reorg_cost(tables: TableSet, cost_key: str) -> int:
    value = as_int(cell(tables, "naval_reorg", unit=cost_key))
    if value is None:
        raise InvalidInput(f"T9 has no cost for {cost_key}")
    return value


def vp_value(board: Board, tables: TableSet, u: Unit, options: dict[str, Any]) -> int:
    """VP for destroying (or capturing) a unit (5.16): ground units their rebuild cost;
    naval units and bases 2 x (or, option naval_vp_factor, 1 x) their T9 cost (G26)."""
    key = str(board.a(u, "cost_key", ""))
    if board.kind(u) == "ground":
        return ground_rebuild_cost(tables, key) or 0
    factor = int(options.get("naval_vp_factor", "2"))
    return factor * naval_reorg_cost(tables, key)


def storage_cap(board: Board, tables: TableSet, u: Unit) -> int:
    """Most SP a holder may store: T5 for Legion bases and Legion/Auxilia HQs, the catalog
    capacity for naval bases, the FTR (SP capacity) for transports, 0 for anything else."""
    kind = board.kind(u)
    if kind == "base":
        if board.base_class(u) == "GL":
            return int(cell(tables, "storage", holder=f"GL{board.rating(u)}"))
        return board.n(u, "capacity")
    if kind == "transport":
        return board.n(u, "ftr")
    hq = board.hq(u)
    if hq == "legion":
        return int(cell(tables, "storage", holder="Legion HQ"))
    if hq == "auxilia":
        return int(cell(tables, "storage", holder="Auxilia HQ"))
    return 0


def displacement(board: Board, tables: TableSet, u: Unit) -> int:
    """SP of transport space a ground unit (T10) or a base (20 per class) takes."""
    if board.kind(u) == "base":
        return 20 * board.rating(u)
    key = str(board.a(u, "transport_key", "All other units") or "All other units")
    return int(cell(tables, "displacement", unit=key))


def base_share(board: Board, tables: TableSet, base: Unit) -> int:
    """SP each carrier of a base's parts takes: 20 per class level split evenly (rounded up)."""
    carriers = 1 + len(base.data.get("shared_with", []))
    total = displacement(board, tables, base)
    return -(-total // carriers)


def cargo_load(board: Board, tables: TableSet, transport: str) -> int:
    """SP of transport space the cargo aboard a transport takes (T10; bases shared)."""
    used = 0
    for c in board.state.units.values():
        if c.status.get("destroyed"):
            continue
        if c.data.get("carried_by") == transport or transport in c.data.get("shared_with", []):
            used += (
                base_share(board, tables, c) if board.kind(c) == "base" else displacement(board, tables, c)
            )
    return used
