"""Planetary movement: allowances (5.1, T11), zones of control (5.2) and overruns (5.10)."""

from __future__ import annotations


def movement_allowance(
    combat_units: int,
    has_hq: bool,
    mode: str = "combat",
    role: str = "attacker",
    nongrav: bool = False,
    side: str = "",
    manus_primus: bool = False,
    clamp: str = "after",
    zero_combat_counter: int = 3,
) -> tuple[int, list[str]]:
    """Hexes a task force may move, with the reasoning.

    *role* is "attacker" (Combat or LAF mode) or "counteraction" (always Combat mode).
    *clamp* is the option G38: the 1-hex floor applied "after" (default) or "before" the
    HQ bonus.
    """
    lines: list[str] = []
    if nongrav:
        lines.append("a non-grav unit slows the whole task force to 1 hex")
        return 1, lines
    n = combat_units
    if role == "counteraction":
        if side == "CW" and manus_primus and n <= 4:
            lines.append(f"Manus Primus HQ with {n} combat units: 3 hexes")
            return 3, lines
        if n == 0:
            lines.append(f"no combat units: {zero_combat_counter} hexes (G15)")
            return zero_combat_counter, lines
        value = 3 if n <= 2 else 2
        lines.append(f"counteraction move with {n} combat units: {value} hexes")
        return value, lines
    base = 10 if mode == "combat" else 20
    hq = 1 if has_hq else 0
    if clamp == "before":
        value = min(base, max(1, base - n) + hq)
    else:
        value = max(1, min(base, base - n + hq))
    parts = f"{base} - {n} combat units" + (" + 1 (HQ)" if hq else "")
    lines.append(
        f"{mode.upper() if mode == 'laf' else 'Combat'} mode: {parts}, at most {base}, at least 1 -> {value}"
    )
    return value, lines


def zoc_covers(
    defender_in_combat_mode: bool,
    is_turn_defender: bool,
    adjacent: bool,
    mover_mode: str,
    hex_blocked: bool,
    has_zoc: bool = True,
) -> bool:
    """Does a task force's active ZOC reach a hex, against a mover in *mover_mode* (5.2)?

    Only the turn Defender's grav task forces in Combat mode have an active ZOC; terrain
    that blocks ZOC (T3) and bases stop it against Combat-mode movers, never against LAF.
    """
    if not (has_zoc and defender_in_combat_mode and is_turn_defender and adjacent):
        return False
    if mover_mode == "laf":
        return True
    return not hex_blocked


def overrun_cost(units_destroyed: int) -> int:
    """MP spent destroying disrupted units in a hex (5.10): 1 per unit."""
    return units_destroyed
