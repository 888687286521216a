"""What fits an action's parameters now, for forms: ``(state, actor) -> [id, ...]``."""

from __future__ import annotations

from campaign_tui.core.model import State

from .ships import alive, is_fighter, is_station

SIDES = ("UPF", "SATHAR")


def _side(state: State, actor: str, role: str = "phasing") -> str | None:
    if actor in SIDES:
        return actor
    side = state.vars.get("roles", {}).get(role)
    return side if side in SIDES else None


def non_attached(state: State, actor: str) -> list[str]:
    return [u.id for u in state.units.values()
            if u.formation == "upf-non-attached" and alive(u) and not is_fighter(u)]


def loose_fighters(state: State, actor: str) -> list[str]:
    side = _side(state, actor)
    return [u.id for u in state.units.values()
            if is_fighter(u) and alive(u) and not u.status.get("aboard")
            and (side is None or u.side == side)]


def hosts(state: State, actor: str) -> list[str]:
    """Assault carriers and stations that can take fighters."""
    side = _side(state, actor)
    return [u.id for u in state.units.values()
            if alive(u) and (u.type == "AC" or is_station(u)) and (side is None or u.side == side)]


def reserve_ships(state: State, actor: str) -> list[str]:
    return [u.id for u in state.units.values()
            if u.side == "SATHAR" and alive(u) and u.formation == "sathar-reserve"]


def reserve_fleets(state: State, actor: str) -> list[str]:
    return [f.id for f in state.formations.values()
            if f.side == "SATHAR" and f.kind == "fleet" and f.location == "reserve"]


def own_stacks(state: State, actor: str) -> list[str]:
    """The acting side's stacks on the map that hold a ship."""
    side = _side(state, actor)
    held = {u.formation for u in state.units.values() if alive(u)}
    return [f.id for f in state.formations.values()
            if f.id in held and f.location and f.location != "reserve"
            and (side is None or f.side == side)]
