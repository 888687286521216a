"""What fits an action's parameters now, for forms: ``(state, actor) -> [id, ...]``."""

from __future__ import annotations

from campaign_tui.core.model import State
from rulesets.prestags.common import hex_of, units_of


def _side(state: State, actor: str) -> str | None:
    if actor in state.sides:
        return actor
    roles = state.vars.get("roles", {})
    return roles.get("phasing") or roles.get("deploying")


def own_units(state: State, actor: str) -> list[str]:
    """The acting side's units on the map."""
    side = _side(state, actor)
    return [u.id for u in units_of(state, side) if hex_of(u)]


def waiting_units(state: State, actor: str) -> list[str]:
    """The deploying side's units still off the map."""
    side = _side(state, actor)
    return [u.id for u in units_of(state, side, ("reserve",))]


def enemy_hexes(state: State, actor: str) -> list[str]:
    """Hexes holding a unit of the other side."""
    side = _side(state, actor)
    return sorted({h for u in units_of(state) if u.side != side and (h := hex_of(u))})


def panicked(state: State, actor: str) -> list[str]:
    from rulesets.prestags.turns import panicked_to_flee

    return panicked_to_flee(state)


def own_chariots(state: State, actor: str) -> list[str]:
    """The acting side's chariots on the map (Chariot [1.0])."""
    side = _side(state, actor)
    return [u.id for u in units_of(state, side) if u.type == "CH" and hex_of(u)]


def own_fleets(state: State, actor: str) -> list[str]:
    """The acting side's Viking fleets on the map (Viking [3.1])."""
    side = _side(state, actor)
    return [u.id for u in units_of(state, side) if u.type == "VF" and hex_of(u)]


def _enemy_hexes_of(state: State, side: str | None) -> set[str]:
    return {h for u in units_of(state) if u.side != side and (h := hex_of(u))}


def movers(state: State, actor: str) -> list[str]:
    """The acting side's units on the map, those nearest an enemy first (a move toward the
    enemy is the usual one)."""
    from rulesets.prestags.hexmap import geometry

    side = _side(state, actor)
    grid = geometry(state)
    units = [u for u in units_of(state, side) if hex_of(u)]
    enemy = [h for h in _enemy_hexes_of(state, side) if grid and grid.parse(h) is not None]
    if grid is None or not enemy:
        return [u.id for u in units]

    def nearest(h: str) -> int:  # a hex off the numbered grid comes last
        return min(grid.distance(h, e) for e in enemy) if grid.parse(h) else 10**6

    return [u.id for u in sorted(units, key=lambda u: nearest(hex_of(u) or ""))]


def _contact(state: State, actor: str) -> tuple[list[str], list[str]]:
    """(own units next to an enemy unit, enemy hexes next to an own unit) on the grid."""
    from rulesets.prestags.hexmap import geometry

    side = _side(state, actor)
    grid = geometry(state)
    if grid is None:
        return own_units(state, actor), enemy_hexes(state, actor)
    enemy = _enemy_hexes_of(state, side)
    own = [u for u in units_of(state, side) if hex_of(u)]
    near = {h: {n for n in grid.neighbours(h) if n in enemy}
            for h in {hex_of(u) for u in own} if h and grid.parse(h) is not None}
    units = [u.id for u in own if near.get(hex_of(u) or "")]
    hexes = sorted(set().union(*near.values())) if near else []
    return units, hexes


def in_contact(state: State, actor: str) -> list[str]:
    """The acting side's units next to an enemy unit: those that may attack in melee."""
    return _contact(state, actor)[0]


def contact_hexes(state: State, actor: str) -> list[str]:
    """Enemy hexes next to one of the acting side's units: those a melee may attack."""
    return _contact(state, actor)[1]
