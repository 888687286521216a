"""Reading ships, stations and stacks out of a campaign (read only).

Every ship is a unit. A ship on or off the map belongs to a stack (a formation: task force,
fleet, militia group, detachment) whose ``location`` is the stack's place; stations and
fighters based at a station have no stack and carry their own ``location`` (a planet).
Destroyed ships leave their stack and sit at ``destroyed``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaign_tui.core.model import Formation, State, Unit

from .fdm import Fdm
from .locations import Loc, parse
from .rules import STATION_TYPES, allowed_rate, class_summary

SIDES = ("UPF", "SATHAR")


def _plugin() -> Any:
    from rulesets.second_sathar_war import plugin

    return plugin


def stat(state: State, unit: Unit, name: str, default: Any = None) -> Any:
    """A unit's catalogue value (with the campaign's GM corrections)."""
    return _plugin().attr(state, unit, name, default)


def is_fighter(u: Unit) -> bool:
    return u.type == "F"


def is_station(u: Unit) -> bool:
    return u.type in STATION_TYPES


def is_militia(u: Unit) -> bool:
    return bool(u.status.get("home"))


def alive(u: Unit) -> bool:
    return not u.status.get("destroyed")


def loc_of(state: State, u: Unit) -> Loc:
    if u.formation and u.formation in state.formations:
        return parse(state.formations[u.formation].location)
    return parse(u.location)


def system_of(fdm: Fdm, loc: Loc) -> str | None:
    """The star system a position is in (None in transit, in red boxes, off the map)."""
    if loc.kind == "planet" and loc.planet in fdm.planets:
        return fdm.planets[loc.planet].system
    return None


def ships_in(state: State, fid: str) -> list[Unit]:
    return sorted(
        (u for u in state.units.values() if u.formation == fid and alive(u)),
        key=lambda u: (-int(stat(state, u, "size", 0)), u.id),
    )


def stacks(state: State, side: str | None = None, on_map: bool = True) -> list[Formation]:
    """Stacks that hold at least one ship (on the map unless *on_map* is False)."""
    holding = {u.formation for u in state.units.values() if u.formation and alive(u)}
    out = []
    for f in state.formations.values():
        if f.id not in holding or (side and f.side != side):
            continue
        if on_map and not parse(f.location).on_map:
            continue
        out.append(f)
    return sorted(out, key=lambda f: f.id)


def ships(state: State, side: str | None = None) -> list[Unit]:
    return [
        u for u in state.units.values() if alive(u) and not is_station(u) and (side is None or u.side == side)
    ]


def stations(state: State, alive_only: bool = True) -> list[Unit]:
    return sorted(
        (u for u in state.units.values() if is_station(u) and (alive(u) or not alive_only)),
        key=lambda u: u.id,
    )


def at_planet(state: State, pid: str, side: str | None = None) -> list[Unit]:
    """Ships and stations at a planet (in stacks there or based there)."""
    out = []
    for u in state.units.values():
        if not alive(u) or (side and u.side != side):
            continue
        loc = loc_of(state, u)
        if loc.kind == "planet" and loc.planet == pid:
            out.append(u)
    return out


def in_system(state: State, fdm: Fdm, sid: str, side: str | None = None) -> list[Unit]:
    return [u for pid in fdm.system(sid).planets for u in at_planet(state, pid, side)]


def stacks_in_system(state: State, fdm: Fdm, sid: str, side: str | None = None) -> list[Formation]:
    return [f for f in stacks(state, side) if system_of(fdm, parse(f.location)) == sid]


def sathar_ships_in(state: State, fdm: Fdm, sid: str) -> list[Unit]:
    return [u for u in in_system(state, fdm, sid, "SATHAR") if not is_station(u)]


def upf_ships_in(state: State, fdm: Fdm, sid: str) -> list[Unit]:
    return [u for u in in_system(state, fdm, sid, "UPF") if not is_station(u)]


def stations_in(state: State, fdm: Fdm, sid: str) -> list[Unit]:
    return [u for u in in_system(state, fdm, sid, "UPF") if is_station(u)]


def station_at_planet(state: State, pid: str) -> Unit | None:
    for u in stations(state, alive_only=False):
        if parse(u.location).planet == pid:
            return u
    return None


def home_system(fdm: Fdm, u: Unit) -> str | None:
    home = u.status.get("home")
    return fdm.planets[home].system if home in fdm.planets else None


# -- a ship's current values ---------------------------------------------------------------
def max_hp(state: State, u: Unit) -> int:
    return int(stat(state, u, "hp", 0))


def cur_hp(state: State, u: Unit) -> int:
    return max_hp(state, u) - int(u.status.get("hull_damage", 0))


def cur_adf(state: State, u: Unit) -> int:
    return max(0, int(stat(state, u, "adf", 0)) - int(u.status.get("adf_lost", 0)))


def cur_mr(state: State, u: Unit) -> int:
    return max(0, int(stat(state, u, "mr", 0)) - int(u.status.get("mr_lost", 0)))


# 5.14d: a Damage Control hit or a disastrous fire halves the DCR (once; rounded up)
HALVING_FLAGS = ("dcr_hit", "disastrous_fire")


def cur_dcr(state: State, u: Unit) -> int:
    dcr = int(stat(state, u, "dcr", 0))
    return (dcr + 1) // 2 if u.status.get("dcr_halved") else dcr


def condition(state: State, u: Unit) -> str:
    """A ship's current values: hull points, ADF, MR and DCR (the halved DCR shown as such)."""
    dcr = f"DCR {cur_dcr(state, u)}"
    if u.status.get("dcr_halved"):
        dcr += f" (halved from {int(stat(state, u, 'dcr', 0))})"
    return f"HP {cur_hp(state, u)}/{max_hp(state, u)} ADF {cur_adf(state, u)} MR {cur_mr(state, u)} {dcr}"


def hull_damaged(u: Unit) -> bool:
    return int(u.status.get("hull_damage", 0)) > 0


def mounts(entries: Iterable[str]) -> list[tuple[str, int]]:
    """``["LB", "LB", "T:2"]`` -> ``[("LB", 0), ("LB", 0), ("T", 2)]`` (shots for LTD)."""
    out = []
    for e in entries:
        code, _, n = str(e).partition(":")
        out.append((code, int(n) if n else 0))
    return out


def systems(state: State, u: Unit) -> list[tuple[str, int]]:
    return mounts([*stat(state, u, "weapons", []), *stat(state, u, "defences", [])])


def intact(state: State, u: Unit) -> dict[str, int]:
    """Intact systems by code (batteries counted per mount)."""
    out: dict[str, int] = {}
    for code, _ in systems(state, u):
        out[code] = out.get(code, 0) + 1
    for code in u.status.get("systems_out", []):
        if out.get(code, 0) > 0:
            out[code] -= 1
    return out


def working(state: State, u: Unit, code: str) -> bool:
    return intact(state, u).get(code, 0) > 0


def spent(u: Unit) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in u.status.get("spent", []):
        code, _, n = str(item).partition(":")
        out[code] = out.get(code, 0) + int(n or 1)
    return out


def ship_rate(state: State, u: Unit, loc: Loc | None = None) -> int:
    """T19 for one ship at its position."""
    loc = loc or loc_of(state, u)
    sathar_red = u.side == "SATHAR" and loc.kind in ("circle", "red")
    return allowed_rate(cur_adf(state, u), hull_damaged(u), sathar_red, is_fighter(u))


def carried_by(state: State, host: str) -> list[Unit]:
    return [u for u in state.units.values() if alive(u) and is_fighter(u) and u.status.get("aboard") == host]


def label(state: State, uid: str) -> str:
    u = state.units.get(uid)
    return u.label if u else uid


def summary(units: Iterable[Unit]) -> str:
    return class_summary(u.type for u in units)
