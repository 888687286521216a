"""Read-only questions about a Fifth Frontier War campaign state.

:class:`Game` wraps a state with the campaign's effective catalog, tables and options and
answers the questions every rule asks: which squadrons are in a hex, a squadron's current
face, a fleet's jump and plotting factor, a troop unit's current strength, who defends a
world. It never changes anything; actions change state through the context.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from campaign_tui.core.model import Formation, State, Unit
from campaign_tui.core.records import record
from rulesets.fifth_frontier_war.formulas import (
    ARMOR_TYPES,
    NAVY_SIDE,
    capacity,
    current_strength,
    frac,
    guerrilla_current,
    guerrilla_full,
    other,
)
from rulesets.fifth_frontier_war.hexes import ABOARD, ARRIVED, ELIMINATED, POOL, SETUP, is_hex, jump_distance

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.tables import TableSet


@record(frozen=True)
class Face:
    type: str
    jump: int
    refuel: str
    attack: int
    bombard: int
    defense: int


class Game:
    def __init__(self, state: State, attr: Callable[[Unit, str, Any], Any], tables: TableSet) -> None:
        self.state = state
        self._attr = attr
        self.tables = tables

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def of(cls, ctx: Ctx) -> Game:
        return cls(ctx.state, lambda u, n, d=None: ctx.attr(u, n, d), ctx.tables)

    @classmethod
    def read(cls, state: State) -> Game:
        from rulesets.fifth_frontier_war import plugin

        tables = plugin.tables().with_overrides(state.table_overrides)
        return cls(state, lambda u, n, d=None: plugin.attr(state, u, n, d), tables)

    # -- basics -----------------------------------------------------------------------------
    @property
    def options(self) -> dict[str, Any]:
        return self.state.options

    @property
    def turn(self) -> int:
        return int(self.state.clock.get("turn", 1))

    def a(self, unit: Unit, name: str, default: Any = None) -> Any:
        return self._attr(unit, name, default)

    def kind(self, unit: Unit) -> str:
        return str(self.a(unit, "kind", ""))

    def navy(self, unit: Unit) -> str:
        return str(self.a(unit, "navy", ""))

    def label(self, unit: Unit) -> str:
        return unit.name or unit.id

    def dist(self, a: str, b: str) -> int:
        return jump_distance(a, b, str(self.options.get("distance_corrections", "")))

    def in_play(self, unit: Unit) -> bool:
        loc = unit.location or ""
        if unit.status.get("eliminated") or not loc:
            return False
        return not (loc.startswith(POOL) or loc in (SETUP, ARRIVED, ELIMINATED))

    def place_of(self, unit: Unit) -> str | None:
        """The hex or box a unit is at (a carried troop: its carrier's place)."""
        loc = unit.location or ""
        if loc.startswith(ABOARD):
            carrier = self.state.units.get(loc[len(ABOARD) :])
            return carrier.location if carrier else None
        if self.kind(unit) == "warrant" and unit.status.get("holder"):
            holder = self.state.units.get(unit.status["holder"])
            return self.place_of(holder) if holder else None
        if not self.in_play(unit):
            return None
        return loc

    def units(self, kind: str | None = None, side: str | None = None, place: str | None = None) -> list[Unit]:
        out = []
        for u in self.state.units.values():
            if side and u.side != side:     # (the cheaper test first)
                continue
            if kind and self.kind(u) != kind:
                continue
            if not self.in_play(u):
                continue
            if place is not None and self.place_of(u) != place:
                continue
            out.append(u)
        return out

    # -- squadrons --------------------------------------------------------------------------
    def face(self, sq: Unit) -> Face:
        r = "r_" if sq.status.get("reduced") else ""
        return Face(
            str(self.a(sq, "sq_type", "")),
            int(self.a(sq, f"{r}jump", self.a(sq, "jump", 0))),
            str(self.a(sq, f"{r}refuel", self.a(sq, "refuel", "unstreamlined"))),
            int(self.a(sq, f"{r}attack", 0)),
            int(self.a(sq, f"{r}bombard", 0)),
            int(self.a(sq, f"{r}defense", 0)),
        )

    def has_back(self, sq: Unit) -> bool:
        return bool(self.a(sq, "has_back", False))

    def squadrons(
        self, place: str | None = None, side: str | None = None, active_only: bool = False
    ) -> list[Unit]:
        out = self.units("squadron", side, place)
        if active_only:
            out = [s for s in out if not s.status.get("disengaged")]
        return out

    def regular(self, sq: Unit) -> bool:
        return str(self.a(sq, "category", "regular")) == "regular"

    def capacity(self, sq: Unit) -> int:
        f = self.face(sq)
        return capacity(f.type, bool(sq.status.get("reduced")), f.defense)

    def aboard(self, sq: Unit) -> list[Unit]:
        key = ABOARD + sq.id
        return [u for u in self.state.units.values() if u.location == key and not u.status.get("eliminated")]

    def load(self, sq: Unit) -> int:
        return sum(self.troop_current(u) for u in self.aboard(sq))

    # -- fleets -----------------------------------------------------------------------------
    def fleets(self, place: str | None = None, side: str | None = None) -> list[Formation]:
        return [
            f
            for f in self.state.formations.values()
            if f.kind == "fleet"
            and (side is None or f.side == side)
            and (place is None or f.location == place)
        ]

    def fleet_ships(self, fid: str) -> list[Unit]:
        return [u for u in self.state.units_in(fid) if self.kind(u) == "squadron" and self.in_play(u)]

    def fleet_admirals(self, fid: str) -> list[Unit]:
        return [u for u in self.state.units_in(fid) if self.kind(u) == "admiral" and self.in_play(u)]

    def commander(self, fid: str) -> Unit | None:
        for u in self.fleet_admirals(fid):
            if u.status.get("command"):
                return u
        return None

    def fleet_navy(self, fid: str) -> str:
        return str(self.state.formations[fid].data.get("navy", ""))

    def default_pf(self, navy: str) -> int:
        return int(self.tables.get("T17").lookup(navy=navy, item="plotting").value)

    def fleet_pf(self, fid: str) -> int:
        cmd = self.commander(fid)
        if cmd is not None:
            return int(self.a(cmd, "plotting", 0))
        return self.default_pf(self.fleet_navy(fid))

    def fleet_jump(self, fid: str) -> int:
        ships = self.fleet_ships(fid)
        return min((self.face(s).jump for s in ships), default=0)

    # -- admirals ---------------------------------------------------------------------------
    def command_navy(self, adm: Unit) -> str:
        """Loaned admirals count for their host navy (rule 5)."""
        if adm.data.get("loaned"):
            return "imperial" if adm.side == "imperial" else "zhodani"
        return self.navy(adm)

    def precedence(self, adm: Unit) -> int:
        warrant = self.state.units.get("imp-warrant")
        if warrant is not None and warrant.status.get("holder") == adm.id:
            return 0
        if adm.data.get("loaned"):
            return 15
        return int(self.a(adm, "precedence", 14))

    def admirals(self, place: str | None = None, side: str | None = None) -> list[Unit]:
        return self.units("admiral", side, place)

    def navy_counts(self, ships: list[Unit]) -> dict[str, int]:
        out: dict[str, int] = {}
        for s in ships:
            out[self.navy(s)] = out.get(self.navy(s), 0) + 1
        return out

    def may_command(self, adm: Unit, ships: list[Unit]) -> bool:
        """5.18: not more squadrons from other navies than from the admiral's own."""
        counts = self.navy_counts(ships)
        own = counts.get(self.command_navy(adm), 0)
        return sum(counts.values()) - own <= own

    # -- troops -----------------------------------------------------------------------------
    def is_guerrilla(self, u: Unit) -> bool:
        return self.kind(u) == "guerrilla"

    def overt(self, u: Unit) -> bool:
        return not self.is_guerrilla(u) or u.status.get("mode") == "overt"

    def troop_world(self, u: Unit) -> dict[str, Any] | None:
        place = self.place_of(u)
        return self.world(place) if place and is_hex(place) else None

    def troop_full(self, u: Unit) -> Fraction:
        if self.is_guerrilla(u):
            w = self.troop_world(u)
            return guerrilla_full(
                w["defense_battalions"] if w else 0, self.options.get("guerrilla_fraction", "exact")
            )
        return frac(self.a(u, "factor", 0))

    def troop_current(self, u: Unit) -> Fraction:
        loss = int(u.status.get("loss", 0))
        if self.is_guerrilla(u):
            w = self.troop_world(u)
            return guerrilla_current(
                w["defense_battalions"] if w else 0, loss, self.options.get("guerrilla_fraction", "exact")
            )
        return Fraction(current_strength(self.a(u, "factor", 0), loss))

    def troop_tl(self, u: Unit) -> int:
        if self.is_guerrilla(u):
            w = self.troop_world(u)
            return int(w["tech_level"]) if w else 0
        return int(self.a(u, "tl", 0))

    def armor(self, u: Unit) -> bool:
        return str(self.a(u, "troop_type", "infantry")) in ARMOR_TYPES

    def elite(self, u: Unit) -> bool:
        return bool(self.a(u, "elite", False))

    def mercenary(self, u: Unit) -> bool:
        return str(self.a(u, "category", "")) == "mercenary"

    def psionic(self, u: Unit) -> bool:
        return bool(self.a(u, "psionic", False))

    def troops(self, place: str, side: str | None = None, overt_only: bool = True) -> list[Unit]:
        """Troop units on the world box of *place* (carried troops excluded)."""
        out = []
        for u in self.state.units.values():
            if u.location != place or u.status.get("eliminated"):
                continue
            if self.kind(u) not in ("troop", "guerrilla"):
                continue
            if side and u.side != side:
                continue
            if overt_only and not self.overt(u):
                continue
            out.append(u)
        return out

    # -- worlds -----------------------------------------------------------------------------
    def world(self, place: str | None) -> dict[str, Any] | None:
        if not place or not is_hex(place):
            return None
        return self.state.records("worlds").get(place)

    def sdb_current(self, w: dict[str, Any]) -> int:
        return current_strength(int(w.get("sdb", 0)), int(w.get("sdb_loss", 0)))

    def db_current(self, w: dict[str, Any]) -> int:
        return current_strength(int(w.get("defense_battalions", 0)), int(w.get("db_loss", 0)))

    def defender(self, w: dict[str, Any], side: str) -> str | None:
        """Who the world's static defenses fight for against *side*: the enemy player, the
        GM for an independent world when its defenses resist (G-20), or nobody."""
        owner = w.get("controller") or ""
        if owner and owner != side:
            return owner
        if not owner and self.options.get("independent_defenses_resist"):
            return "independent"
        return None

    def enemy_sdb_active(self, place: str, side: str) -> bool:
        """Active enemy SDBs in the system (they stop bombing and transfers)."""
        w = self.world(place)
        if not w or self.defender(w, side) is None or self.sdb_current(w) <= 0:
            return False
        return w.get("sdb_mode", "") != "passive"

    def enemy_present(self, place: str, side: str) -> bool:
        """Enemy squadrons or enemy SDBs in the system (no loading in the movement phase)."""
        if self.squadrons(place, other(side)):
            return True
        w = self.world(place)
        return bool(w and self.defender(w, side) is not None and self.sdb_current(w) > 0)

    def red_closed(self, place: str, side: str) -> bool:
        """5.23: an interdicted world is closed to Imperial landings, starport and ocean until
        a Zhodani-player unit has entered the system."""
        w = self.world(place)
        return bool(side == "imperial" and w and w.get("zone") == "red" and not w.get("red_opened"))

    def warrant_holder_at(self, place: str) -> bool:
        warrant = self.state.units.get("imp-warrant")
        if warrant is None or not warrant.status.get("holder"):
            return False
        holder = self.state.units.get(warrant.status["holder"])
        return bool(holder and self.place_of(holder) == place)

    def side_of_navy(self, navy: str) -> str:
        return NAVY_SIDE.get(navy, "zhodani")
