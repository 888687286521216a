"""Read-only questions about a Prefect campaign: which units a task force holds, its
values, markers, bases in a hex, map facts known so far.

How Prefect sits in the engine's model:

* sides ``TOG`` and ``CW``; vars ``roles`` names the turn's ``attacker``/``defender`` and
  the roles of the combat in progress;
* a parent organization (Legion, Auxilia, Regiment) is a formation of kind ``legion``,
  ``auxilia`` or ``regiment``; its ground task forces are formations of kind ``tf``
  (visibility ``counter``: the other side sees the counter and its hex, not its units);
  an independent non-grav unit sits in a formation of kind ``independent``;
* naval task forces are formations of kind ``naval_tf`` under the side's ``fleet``; the
  Outsystem Functional and Destroyed boxes are formations of kind ``box``;
* bases are units of kind ``base``; supply stored in a base, an HQ or a transport is the
  unit's ``supply`` status;
* public map markers (LAF, Moved, Detected) are engine markers ``KIND@tf``;
* the planetary map's geometry is the engine's hex grid (:func:`hex_grid`): column-row
  numbers, odd columns half a hex lower by DEFAULT (option ``hex_grid``; the Ku Crassus map
  is not in the rulebook), wrapping east-west once option ``map_width`` gives the number of
  columns; a split hex lists its other pieces as the map fact ``pieces``;
* optional map data (terrain, area, adjacency overrides of a hex) is in vars ``hexes`` and
  the engine's map facts (records ``map``: imported map files, ``gm.map_fact``); without
  it the program asks the GM once and remembers the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from campaign_tui.core.board import Board as MapBoard
from campaign_tui.core.board import HexGrid, facts, grid_from_options
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import Formation, State, Unit

if TYPE_CHECKING:
    from campaign_tui.core.catalog import Catalog

SIDES = ("TOG", "CW")
KU_CRASSUS = "3,2"
GROUND_FORCE_KINDS = ("tf", "independent")
ORG_KINDS = ("legion", "auxilia", "regiment", "militia", "garrison")
TERRAINS = (
    "clear",
    "forest",
    "urban",
    "rough",
    "sink holes",
    "water",
    "craters",
    "desert/lava flow",
    "jungle",
    "mountains/volcano",
    "swamp",
)
MISSIONS = (
    "attack",
    "hs_attack",
    "recon",
    "sector_defense",
    "supply",
    "withdrawal",
    "ground_support",
    "orbital_drop",
)


def other(side: str) -> str:
    return "CW" if side == "TOG" else "TOG"


def hex_grid(state: State) -> HexGrid:
    """The planetary map's numbering (option ``hex_grid``, odd-q by DEFAULT; an older
    campaign's map file ``grid = "ccrr"`` is the same) and its east-west wrap (option
    ``map_width``, the number of columns; 0 = not known, no wrap)."""
    return grid_from_options(state.options, width_option="map_width", first=1,
                             note="Ku Crassus planetary map: numbering not in the rulebook (G2)")


def map_board(state: State) -> MapBoard:
    """The planetary map for the engine: its grid, the hexes the campaign knows, cities."""
    places = {h: dict(f) for h, f in state.vars.get("hexes", {}).items()}
    for city in state.records("cities").values():
        places.setdefault(str(city.get("hex")), {})["name"] = city.get("name", "")
    return MapBoard(title="Planetary map", grid=hex_grid(state), places=places)


def hexid(text: str | None, state: State | None = None) -> str:
    """'hex:0707' or '0707' -> '0707'; anything that is not a hex of the map is refused."""
    if text is None:
        raise InvalidInput("no hex given")
    grid = hex_grid(state) if state is not None else HexGrid()
    return grid.check(text)


def loc_hex(location: str | None) -> str | None:
    if location and location.startswith("hex:"):
        return location[4:]
    return None


def sector_of(location: str | None) -> str | None:
    """The sector 'z,s' of a naval location ('sector:3,2', 'orbit:3,2/7')."""
    if not location:
        return None
    if location.startswith("sector:"):
        return location[len("sector:") :]
    if location.startswith("orbit:"):
        return location[len("orbit:") :].split("/")[0]
    return None


def catalog_of(state: State) -> Catalog:
    from rulesets.prefect import plugin

    return plugin.effective_catalog(state)


class Board:
    """Queries over one state and its effective catalog. Never changes anything."""

    def __init__(self, state: State, catalog: Catalog | None = None) -> None:
        self.state = state
        self.catalog = catalog if catalog is not None else catalog_of(state)

    @classmethod
    def of(cls, ctx: Any) -> Board:
        """A board over an action context's live state and catalog."""
        return cls(ctx.state, ctx.catalog)

    # -- attributes ----------------------------------------------------------------------
    def a(self, unit: Unit | str, name: str, default: Any = None) -> Any:
        u = self.state.unit(unit) if isinstance(unit, str) else unit
        if name in u.attrs:
            return u.attrs[name]
        utype = self.catalog.types.get(u.type)
        if utype is None:
            return default
        return utype.attrs.get(name, default)

    def n(self, unit: Unit | str, name: str) -> int:
        value = self.a(unit, name, 0)
        return int(value or 0)

    def label(self, unit: Unit | str) -> str:
        u = self.state.unit(unit) if isinstance(unit, str) else unit
        return u.label

    def kind(self, u: Unit) -> str:
        return str(self.a(u, "kind", "ground"))

    def is_combat(self, u: Unit) -> bool:
        return self.a(u, "role") == "combat"

    def is_support(self, u: Unit) -> bool:
        return self.a(u, "role") == "support"

    def special(self, u: Unit) -> str:
        return str(self.a(u, "special", "") or "")

    def hq(self, u: Unit) -> str:
        return str(self.a(u, "hq", "") or "")

    def nongrav(self, u: Unit) -> bool:
        return self.kind(u) == "ground" and not self.a(u, "grav", True)

    def is_base(self, u: Unit) -> bool:
        return self.kind(u) == "base"

    def base_class(self, u: Unit) -> str:
        return str(self.a(u, "base_class", "") or "")

    def rating(self, u: Unit) -> int:
        return self.n(u, "rating")

    @staticmethod
    def active(u: Unit) -> bool:
        return not u.status.get("disrupted") and not u.status.get("destroyed")

    # -- formations ----------------------------------------------------------------------
    def formation(self, fid: str) -> Formation:
        return self.state.formation(fid)

    def units(self, fid: str) -> list[Unit]:
        """Units carried by a formation (its record-sheet box), whatever their status."""
        return [u for u in self.state.units.values() if u.formation == fid and not u.status.get("destroyed")]

    def active_units(self, fid: str) -> list[Unit]:
        return [u for u in self.units(fid) if self.active(u)]

    def combat_units(self, fid: str) -> list[Unit]:
        return [u for u in self.active_units(fid) if self.is_combat(u)]

    def support_units(self, fid: str) -> list[Unit]:
        return [u for u in self.active_units(fid) if self.is_support(u)]

    def has_hq(self, fid: str, kinds: Iterable[str] = ("legion", "manus", "manus_primus", "auxilia")) -> bool:
        wanted = set(kinds)
        return any(self.hq(u) in wanted for u in self.active_units(fid))

    def has_special(self, fid: str, special: str) -> bool:
        return any(self.special(u) == special for u in self.active_units(fid))

    def count_special(self, fid: str, special: str) -> int:
        return sum(1 for u in self.active_units(fid) if self.special(u) == special)

    def force_nongrav(self, fid: str) -> bool:
        return any(self.nongrav(u) for u in self.active_units(fid))

    def fatigue(self, fid: str) -> int:
        return int(self.state.formation(fid).status.get("fatigue", 0))

    def ground_forces(self, side: str | None = None) -> list[Formation]:
        """Ground task forces and independent units on the map."""
        return [
            f
            for f in self.state.formations.values()
            if f.kind in GROUND_FORCE_KINDS and f.location and (side is None or f.side == side)
        ]

    def naval_tfs(self, side: str | None = None) -> list[Formation]:
        return [
            f
            for f in self.state.formations.values()
            if f.kind == "naval_tf" and (side is None or f.side == side)
        ]

    def forces_at(self, hex_: str, side: str | None = None) -> list[Formation]:
        loc = f"hex:{hex_}"
        return [f for f in self.ground_forces(side) if f.location == loc]

    def has_zoc(self, fid: str) -> bool:
        """A force with at least one active grav unit has a ZOC (non-grav units alone and
        disrupted units have none, 5.2)."""
        return any(not self.nongrav(u) for u in self.active_units(fid))

    def org_of(self, fid: str) -> Formation | None:
        f = self.state.formation(fid)
        return self.state.formations.get(f.parent) if f.parent else None

    def tf_limit(self, org: Formation) -> int:
        if org.kind == "legion":
            return int(self.state.options.get("legion_tf_limit", 18))
        if org.kind in ("auxilia", "regiment"):
            return 6
        return 999

    def tfs_of_org(self, org_id: str) -> list[Formation]:
        return [f for f in self.state.formations.values() if f.kind == "tf" and f.parent == org_id]

    # -- markers ---------------------------------------------------------------------------
    def flag(self, fid: str, kind: str) -> bool:
        return f"{kind}@{fid}" in self.state.markers

    def laf(self, fid: str) -> bool:
        return self.flag(fid, "LAF")

    def detected(self, fid: str) -> bool:
        return self.flag(fid, "DETECTED")

    # -- loose units, bases, cities ------------------------------------------------------
    def loose_at(self, hex_: str, side: str | None = None) -> list[Unit]:
        """Disrupted ground units lying loose in a hex (not in a TF box)."""
        loc = f"hex:{hex_}"
        return [
            u
            for u in self.state.units.values()
            if u.location == loc
            and u.formation is None
            and not self.is_base(u)
            and u.status.get("disrupted")
            and not u.status.get("destroyed")
            and (side is None or u.side == side)
        ]

    def bases_at(self, hex_: str, side: str | None = None) -> list[Unit]:
        loc = f"hex:{hex_}"
        return [
            u
            for u in self.state.units.values()
            if self.is_base(u)
            and u.location == loc
            and not u.status.get("destroyed")
            and (side is None or u.side == side)
        ]

    def bases(self, side: str | None = None) -> list[Unit]:
        return [
            u
            for u in self.state.units.values()
            if self.is_base(u) and not u.status.get("destroyed") and (side is None or u.side == side)
        ]

    def cities(self) -> dict[str, dict[str, Any]]:
        return self.state.records("cities")

    def city_at(self, hex_: str) -> tuple[str, dict[str, Any]] | None:
        for cid, c in self.cities().items():
            if c.get("hex") == hex_:
                return cid, c
        return None

    # -- map data ------------------------------------------------------------------------
    def hexinfo(self, hex_: str) -> dict[str, Any]:
        info = facts.merge(self.state.records(facts.COLLECTION), hex_,
                           self.state.vars.get("hexes", {}).get(hex_, {}))
        if isinstance(info.get("terrain"), str):  # a map fact may name a single terrain
            info["terrain"] = [info["terrain"]]
        return info

    def pieces(self, hex_: str) -> set[str]:
        """A hex and the other pieces of it, when it is a split hex (map fact ``pieces``)."""
        return {hex_, *(str(p) for p in self.hexinfo(hex_).get("pieces", []))}

    def adjacent(self, a: str, b: str) -> bool:
        """Are two hexes neighbours? Adjacency the map data lists wins; otherwise the grid
        answers. A hex next to any piece of a split hex is next to the whole hex."""
        if a == b or b in self.pieces(a):
            return False
        for x, y in ((a, b), (b, a)):
            adj = self.hexinfo(x).get("adj")
            if adj is not None and y in adj:
                return True
        grid = hex_grid(self.state)
        return any(grid.parse(x) and grid.parse(y) and grid.distance(x, y) == 1
                   for x in self.pieces(a) for y in self.pieces(b))

    def terrain_choice(self, hex_: str) -> str | None:
        """The terrain that applies in a hex this turn, if known (picked, single, or the map
        file's declared default for hexes it does not describe)."""
        pick = self.state.vars.get("terrain_pick", {}).get(hex_)
        if pick:
            return str(pick)
        kinds = self.hexinfo(hex_).get("terrain") or []
        if len(kinds) == 1:
            return str(kinds[0])
        if not kinds and self.state.vars.get("default_terrain"):
            return str(self.state.vars["default_terrain"])
        return None

    def area_of(self, hex_: str) -> int | None:
        area = self.hexinfo(hex_).get("area")
        if area is None and self.state.vars.get("area_columns") and len(hex_) == 4 and hex_.isdigit():
            area = self.state.vars["area_columns"].get(str(int(hex_[:2])))
        return int(area) if area is not None else None

    # -- roles ---------------------------------------------------------------------------
    def role(self, name: str) -> str:
        return str(self.state.vars.get("roles", {}).get(name, ""))

    @property
    def attacker(self) -> str:
        return self.role("attacker")

    @property
    def defender(self) -> str:
        return self.role("defender")

    @property
    def game(self) -> str:
        return str(self.state.vars.get("game", "planetary"))

    @property
    def turn(self) -> int:
        return int(self.state.clock.get("turn", 1))

    # -- naval --------------------------------------------------------------------------
    def mission(self, fid: str) -> str:
        return str(self.state.formation(fid).status.get("mission", "") or "")

    def starships(self, fid: str) -> list[Unit]:
        return [u for u in self.units(fid) if self.kind(u) in ("starship", "transport")]

    def fighters(self, fid: str) -> list[Unit]:
        return [u for u in self.units(fid) if self.kind(u) == "fighter"]

    def independent(self, u: Unit) -> bool:
        return bool(self.a(u, "independent", False))

    def naval_at(self, sector: str, side: str | None = None) -> list[Formation]:
        loc = f"sector:{sector}"
        return [f for f in self.naval_tfs(side) if f.location == loc]

    def sector_defense_tf(self, sector: str, side: str) -> Formation | None:
        for f in self.naval_at(sector, side):
            if self.mission(f.id) == "sector_defense":
                return f
        return None

    def base_sector(self, u: Unit) -> str | None:
        return str(u.data.get("sector")) if u.data.get("sector") else None

    def base_segment(self, u: Unit) -> int | None:
        seg = u.data.get("segment")
        return int(seg) if seg is not None else None

    def bases_in_sector(self, sector: str, side: str | None = None) -> list[Unit]:
        return [u for u in self.bases(side) if self.base_sector(u) == sector and u.data.get("placed", True)]

    def segments_of(self, sector: str) -> int:
        bodies = self.state.vars.get("bodies", {})
        body = bodies.get(sector)
        if body:
            return int(body.get("segments", 1))
        zone = int(sector.split(",")[0])
        for belt in self.state.vars.get("belts", []):
            if int(belt.get("zone", -1)) == zone:
                return int(belt.get("segments", 4))
        return 1
