"""Supply arithmetic (5.11, 5.13.11, 5.14.4, 5.14.8, 5.14.9): storage caps, rearming,
reorganizing, rebuilding, construction, transport space and base limitations."""

from __future__ import annotations

import math


def deliver(stored: int, amount: int, cap: int | None) -> tuple[int, int]:
    """Add *amount* SP to a holder with storage *cap*: (new stock, SP lost above the cap)."""
    if cap is None:
        return stored + amount, 0
    new = min(cap, stored + amount)
    return new, stored + amount - new


def rearm_cost(units_in_tf: int, levels: int) -> int:
    """SP to remove *levels* of fatigue from a TF (5.11.3, 5.13.11): 1 per unit per level;
    fatigue belongs to the whole TF, so every unit is paid for."""
    return units_in_tf * levels


def rebuild_cost(reorg_cost: int | None, exception: int | None = None) -> int | None:
    """Ground rebuild cost (5.11.5): twice the T6 cost, or the T6b exception (Militia 1,
    Garrison 4). None when the unit cannot be rebuilt."""
    if exception is not None:
        return exception
    if reorg_cost is None:
        return None
    return 2 * reorg_cost


def base_displacement(base_class_level: int) -> int:
    """SP of transport space a base takes (T10): 20 per class level."""
    return 20 * base_class_level


def manufacturing(sp: int) -> int:
    """GL4 manufacturing (5.14.9, optional): SP straight from outsystem count 1.25 x, down."""
    return math.floor(sp * 5 / 4)


def base_may_pay(
    base_class: str, rating: int, purpose: str, unit_kind: str, campaign: bool = True
) -> tuple[bool, str]:
    """May a base spend SP on *purpose* ("rearm", "reorganize", "rebuild") for a unit of
    *unit_kind* ("ground", "marine", "fighter", "starship", "transport")? (5.14.8)"""
    if unit_kind == "marine":
        return True, "any base may supply Marine Cohorts"
    if base_class in ("ON", "GN", "TR"):
        if unit_kind == "ground":
            return False, "naval bases supply naval units only"
        return True, "naval bases supply naval units"
    # Legion bases
    if unit_kind == "ground":
        return True, "Legion bases supply ground units"
    if not campaign:
        return False, "Legion bases cannot supply naval units in the space game"
    if unit_kind in ("starship", "transport"):
        return False, "Legion bases never supply starships"
    if purpose == "rearm":
        if rating >= 2:
            return True, f"GL{rating} may remove fighter fatigue in its sector"
        return False, "GL1 supplies ground units only"
    if purpose == "reorganize":
        if rating >= 3:
            return True, f"GL{rating} may reorganize Fighter Flights in its sector"
        return False, f"GL{rating} cannot reorganize Fighter Flights"
    return False, "Legion bases cannot rebuild naval units"
