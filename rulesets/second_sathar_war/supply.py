"""Supply (digest 5.9): a path over the routes to a fortress (UPF) or to a start circle (Sathar).

UPF: no system on the way may hold a Sathar ship (transit boxes never block); supply may be
traced into a contested system but not through it. Sathar: no system on the way may hold a
UPF ship or a surviving station, and the circle's target system is passed through on the way
to the circle, so it must be clear too. A ship's own system never blocks its own supply; a
ship in transit traces from either end of its route (PROPOSED, G-21). Supply only matters
for rearming.
"""

from __future__ import annotations

from campaign_tui.core.model import State

from .fdm import Fdm
from .locations import Loc
from .rules import trace_supply
from .ships import alive, is_station, loc_of, system_of


class SupplyMap:
    """Who holds which system, computed once, and the supply traces over it."""

    def __init__(self, state: State, fdm: Fdm) -> None:
        self.fdm = fdm
        self.neighbours = {sid: [o for _, o in fdm.routes_from(sid)] for sid in fdm.systems}
        upf_ships: set[str] = set()
        sathar_ships: set[str] = set()
        stations: set[str] = set()
        forts: set[str] = set()
        for u in state.units.values():
            if not alive(u):
                continue
            sid = system_of(fdm, loc_of(state, u))
            if sid is None:
                continue
            if is_station(u):
                stations.add(sid)
                if u.type == "FORTRESS":
                    forts.add(sid)
            elif u.side == "UPF":
                upf_ships.add(sid)
            else:
                sathar_ships.add(sid)
        self.upf_blocked = sathar_ships
        self.sathar_blocked = upf_ships | stations
        self.fortresses = forts
        self.circle_targets = {c.target for c in fdm.circles.values()}
        self._memo: dict[tuple[str, str], bool] = {}

    def in_supply(self, side: str, loc: Loc) -> bool:
        if side == "SATHAR" and loc.kind in ("circle", "red"):
            return True
        if loc.kind == "planet":
            sid = system_of(self.fdm, loc)
            starts = [sid] if sid else []
            transit = False
        elif loc.kind == "transit" and loc.route in self.fdm.routes:
            r = self.fdm.routes[loc.route]
            starts = [r.a, r.b]
            transit = True
        else:
            return False
        if side == "UPF":
            targets, blocked, strict = self.fortresses, self.upf_blocked, False
        else:
            targets, blocked, strict = self.circle_targets, self.sathar_blocked, True
        for start in starts:
            if transit and start in blocked:
                if start in targets and not strict:
                    return True
                continue
            key = (side, start)
            if key not in self._memo:
                self._memo[key] = trace_supply(self.neighbours, [start], targets, blocked, strict) is not None
            if self._memo[key]:
                return True
        return False


def in_supply(state: State, fdm: Fdm, side: str, loc: Loc) -> bool:
    return SupplyMap(state, fdm).in_supply(side, loc)
