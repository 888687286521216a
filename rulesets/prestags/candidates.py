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
