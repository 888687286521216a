"""Tempo (5.15), victory points (5.16) and the outcome (T14, G49)."""

from __future__ import annotations

from fractions import Fraction


def next_attacker(attacker: str, defender: str, score: dict[str, int]) -> str:
    """The Attacker stays only if his score is strictly higher; ties swap (5.15)."""
    return attacker if score.get(attacker, 0) > score.get(defender, 0) else defender


def btca_credit(result: str, combat_attacker: str, combat_defender: str) -> str:
    """Whose score a BT or CA result raises (G8): BT to the combat attacker, CA to the
    combat defender."""
    return combat_attacker if result == "BT" else combat_defender


def outcome_ratio(high: int | float, low: int | float) -> Fraction | None:
    """high / low as an exact fraction, None when the low total is 0 (G49)."""
    if low <= 0:
        return None
    return (
        Fraction(high) / Fraction(low)
        if isinstance(high, int) and isinstance(low, int)
        else Fraction(str(high)) / Fraction(str(low))
    )


def parse_award(cell: str) -> tuple[str | None, int]:
    """'TOG +5' -> ('TOG', 5); 'none' -> (None, 0). (T13 cells)"""
    text = str(cell).strip()
    if text.lower() in ("none", "0", "-", ""):
        return None, 0
    side, _, amount = text.partition(" ")
    return side, int(amount.replace("+", ""))
