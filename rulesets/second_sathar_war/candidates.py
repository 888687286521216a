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


def _spots(state: State, actor: str) -> list[dict]:  # type: ignore[type-arg]
    from .attention import open_spots
    from .fdm import Fdm

    side = _side(state, actor)
    return open_spots(state, Fdm.of(state), side) if side else []


def contested_systems(state: State, actor: str) -> list[str]:
    """Where the acting side may declare an attack now (5.6)."""
    return [c["system"] for c in _spots(state, actor)]


def contested_planets(state: State, actor: str) -> list[str]:
    """The planets of those systems with UPF ships or stations at them."""
    return [p for c in _spots(state, actor) for p in c["planets"]]


def destinations(state: State, actor: str) -> list[str]:
    """Systems the acting side's stacks can reach along the routes, nearest first (days at
    one box a day from the nearest stack); a stack's own system is not offered."""
    from . import locations as L
    from .fdm import Fdm
    from .ships import stacks, system_of

    fdm = Fdm.of(state)
    side = _side(state, actor)
    starts: dict[str, int] = {}  # system -> days away (0: a stack is there)
    for f in stacks(state, side):
        loc = L.parse(f.location)
        here = system_of(fdm, loc)
        if here in fdm.systems:
            starts[here] = 0
            continue
        ahead = loc.heading if loc.kind == "transit" else (
            fdm.circles[loc.circle].target if loc.circle in fdm.circles else None)
        if ahead in fdm.systems:
            starts[ahead] = min(starts.get(ahead, 1), 1)
    best = dict(starts)
    frontier = list(starts)
    while frontier:
        a = frontier.pop(0)
        for route, b in fdm.routes_from(a):
            d = best[a] + fdm.days(route)
            if d < best.get(b, 10**9):
                best[b] = d
                frontier.append(b)
    return [s for s in sorted(best, key=lambda s: (best[s], fdm.name(s))) if best[s]]


def procedures(state: State, actor: str) -> list[str]:
    """The dice helper's procedures; in a battle the tactical ones (5.14) first, the attack
    roll at their head."""
    from . import plugin

    procs = list(plugin.procedures().values())
    if state.step in ("B1", "B2", "B3"):
        procs.sort(key=lambda p: not p.fn.__module__.endswith(".tactical"))
    return [p.id for p in procs]


# -- a battle's shots (the fire action) ------------------------------------------------------
def _fighting(state: State, defenders_first: bool = False) -> list[str]:
    """The battle's ships and stations still in it: the declaring side's first (or last)."""
    from .battles import current, participants
    from .ships import alive

    b = current(state)
    if not b or state.step not in ("B2", "B3"):
        return []
    fled = set(b.get("fled", []))
    ids = [i for i in participants(b) if i in state.units and alive(state.units[i])
           and i not in fled]
    return sorted(ids, key=lambda i: (state.units[i].side == b.get("side")) == defenders_first)


def shooters(state: State, actor: str) -> list[str]:
    """The battle's ships with a weapon that works, the attackers first."""
    from .ships import intact, mounts, stat

    out = []
    for i in _fighting(state):
        u = state.units[i]
        have = intact(state, u)
        if any(have.get(code, 0) for code, _ in mounts(stat(state, u, "weapons", []))):
            out.append(i)
    return out


def battle_targets(state: State, actor: str) -> list[str]:
    """The battle's ships and stations, the defenders first."""
    return _fighting(state, defenders_first=True)


def battle_weapons(state: State, actor: str) -> list[str]:
    """The weapon codes that work on the battle's ships: the first shooter's first."""
    from .ships import intact, mounts, stat

    out: list[str] = []
    for i in shooters(state, actor):
        u = state.units[i]
        have = intact(state, u)
        for code, _ in mounts(stat(state, u, "weapons", [])):
            if have.get(code, 0) and code not in out:
                out.append(code)
    return out
