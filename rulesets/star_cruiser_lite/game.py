"""Read-only views of a Star Cruiser Lite campaign state.

The campaign keeps:

* sides = nations (``data.kafer``); formations: task forces (kind ``task_force``, id
  ``AME-2``), facilities (kind ``facility``, ``AME-F2``, data: type, modules, damage, sp...)
  and ground contingents (kind ``contingent``, ``AME-G2``); a formation's ``location`` is a
  system id (a task force between systems has none and ``data.transit``);
* units: ships, fighter wings and troop units (catalog types; damage as ``lost_*`` status);
* records: ``systems``, ``colonies``, ``nations`` (economy), ``commanders``, ``construction``,
  ``events`` (what the turn reports tell), ``battles``;
* secrets per nation: this week's ``orders`` and the ``intel`` gathered;
* vars: the week's working lists (engagements, the battle being fought...).

:class:`Game` answers the rules' questions about that state without changing it; the
action context makes every change.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from campaign_tui.core.board import GraphMap
from campaign_tui.core.catalog import Catalog
from campaign_tui.core.model import Formation, State, Unit
from campaign_tui.core.tables import TableSet
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.classes import (
    FLAG_OFFICER_CLASSES,
    FLAGSHIP_CLASSES,
    PRECEDENCE,
    SHIPS,
    TROOPS,
    WARSHIPS,
)
from rulesets.star_cruiser_lite.rules_combat import effective_cq, supply_target_modifier

SHIP_STATS = ("bm", "sb", "mi", "sv", "df", "sc", "sn", "mv")
DEFAULT_TF_ORDER: dict[str, Any] = {"detection": "no_attack", "movement": "hold"}


def absolute_week(month: int, week: int) -> int:
    """The digest's absolute weekly turn counter t = 5 x (month - 1) + week."""
    return 5 * (int(month) - 1) + int(week)


def previous_action_week(t: int) -> int:
    """The action week before week t (Week 0 has no detection, so week 1 looks back to week 4)."""
    return t - 2 if t % 5 == 1 else t - 1


class Game:
    def __init__(self, state: State, catalog: Catalog, tables: TableSet) -> None:
        self.state = state
        self.catalog = catalog
        self.tables = tables
        self._stars: GraphMap | None = None

    # -- clock ----------------------------------------------------------------------------
    @property
    def month(self) -> int:
        return int(self.state.clock.get("month", 1))

    @property
    def week(self) -> int:
        return int(self.state.clock.get("week", 0))

    @property
    def t(self) -> int:
        return absolute_week(self.month, self.week)

    # -- nations ---------------------------------------------------------------------------
    def nations(self) -> list[str]:
        return list(self.state.sides)

    def kafer(self, nation: str) -> bool:
        side = self.state.sides.get(nation)
        return bool(side and side.data.get("kafer"))

    def enemies(self, a: str, b: str) -> bool:
        return a != b and self.kafer(a) != self.kafer(b)

    def at_war(self, nation: str) -> bool:
        return bool(self.nation(nation).get("at_war", True))

    def nation(self, code: str) -> dict[str, Any]:
        return self.state.records("nations").get(code, {})

    def relations(self, a: str, b: str) -> int:
        rel = self.state.vars.get("relations", {})
        return int(rel.get(f"{a}|{b}", rel.get(f"{b}|{a}", 5)))

    def logistics_tracked(self, nation: str) -> bool:
        return not self.kafer(nation) or bool(self.state.options.get("kafer_logistics", False))

    # -- map ------------------------------------------------------------------------------
    def systems(self) -> dict[str, dict[str, Any]]:
        return self.state.records("systems")

    def system(self, sid: str) -> dict[str, Any]:
        return self.systems().get(sid, {})

    def links(self, sid: str) -> list[str]:
        return [str(x) for x in self.system(sid).get("links", [])]

    @property
    def stars(self) -> GraphMap:
        """The star map as the engine's graph: systems joined by their links."""
        if self._stars is None:
            systems = self.systems()
            edges = {tuple(sorted((sid, str(x)))) for sid, rec in systems.items()
                     for x in rec.get("links", [])}
            self._stars = GraphMap({sid: {"name": rec.get("name", sid)} for sid, rec in systems.items()},
                                   sorted(edges))
        return self._stars

    def linked(self, a: str, b: str) -> bool:
        return self.stars.adjacent(a, b)

    def held_by_enemy_of(self, sid: str, nation: str) -> bool:
        holder = self.system(sid).get("held_by")
        return bool(holder) and self.enemies(str(holder), nation)

    def kafer_held(self, sid: str) -> bool:
        holder = self.system(sid).get("held_by")
        return bool(holder) and self.kafer(str(holder))

    def qas(self) -> str:
        for sid, rec in self.systems().items():
            if rec.get("qas"):
                return sid
        return "QAS"

    def core(self) -> str | None:
        for sid, rec in self.systems().items():
            if rec.get("core"):
                return sid
        return None

    def colonies(self, system: str | None = None) -> dict[str, dict[str, Any]]:
        cols = self.state.records("colonies")
        if system is None:
            return dict(cols)
        return {k: v for k, v in cols.items() if v.get("system") == system}

    def colony_output(self, cid: str) -> int:
        """F-25: output in proportion to population, fractions rounded up."""
        c = self.colonies()[cid]
        pop, base = int(c.get("pop", 0)), int(c.get("pop_base", 1)) or 1
        if c.get("destroyed") or pop <= 0:
            return 0
        return -(-int(c.get("sp_output_base", 0)) * pop // base)

    # -- units ----------------------------------------------------------------------------
    def attr(self, unit: Unit, name: str, default: Any = 0) -> Any:
        if name in unit.attrs:
            return unit.attrs[name]
        utype = self.catalog.types.get(unit.type)
        if utype is None:
            return default
        value = utype.attrs.get(name, default)
        return default if value is None else value

    def code(self, unit: Unit) -> str:
        return str(self.attr(unit, "code", ""))

    def alive(self, unit: Unit) -> bool:
        return not unit.status.get("fate")

    def is_ship(self, unit: Unit) -> bool:
        return self.code(unit) in SHIPS

    def is_troop(self, unit: Unit) -> bool:
        return self.code(unit) in TROOPS

    def base(self, unit: Unit, stat: str) -> int:
        value = int(self.attr(unit, stat, 0) or 0)
        if stat == "sn" and unit.status.get("drone"):
            value = min(5, value + 1)
        if stat == "sv":
            value += 2 * int(unit.status.get("paks", 0))
        if stat == "sb" and unit.status.get("subd"):
            value = max(value, 2)
        return value

    def cur(self, unit: Unit, stat: str) -> int:
        """Current value of a ship stat: class value (with upgrades) minus losses."""
        return max(0, self.base(unit, stat) - int(unit.status.get(f"lost_{stat}", 0)))

    def losses(self, unit: Unit) -> dict[str, int]:
        return {s: int(unit.status.get(f"lost_{s}", 0)) for s in SHIP_STATS if unit.status.get(f"lost_{s}")}

    def damaged(self, unit: Unit) -> bool:
        return any(int(unit.status.get(f"lost_{s}", 0)) for s in ("sn", "mv", "sc", "mi", "bm", "df"))

    def cq(self, unit: Unit) -> int:
        """F-22: crew quality with the supply penalty (human ships only)."""
        return effective_cq(int(unit.status.get("cq", 0)), self.weeks_unsupplied(unit))

    def weeks_unsupplied(self, unit: Unit) -> int:
        if not self.logistics_tracked(unit.side):
            return 0
        return int(unit.status.get("weeks_unsupplied", 0))

    def supply_modifier(self, unit: Unit) -> int:
        return supply_target_modifier(self.weeks_unsupplied(unit))

    def cargo(self, unit: Unit) -> Fraction:
        return spm.sp(unit.status.get("cargo_sp", "0"))

    def cargo_capacity(self, unit: Unit) -> Fraction:
        return spm.sp(self.attr(unit, "cy_sp", 0) or 0) + spm.sp(self.attr(unit, "cargo_sp", 0) or 0)

    def req_sp(self, unit: Unit) -> Fraction:
        if self.is_troop(unit):
            return spm.sp(self.attr(unit, "logistic", 0) or 0)
        return spm.sp(self.attr(unit, "req_sp", 0) or 0)

    def flagship(self, unit: Unit) -> bool:
        return self.code(unit) in FLAGSHIP_CLASSES or bool(self.attr(unit, "flagship", False))

    def label(self, unit: Unit) -> str:
        return unit.name or unit.id

    # -- formations -----------------------------------------------------------------------
    def formations(self, kind: str, nation: str | None = None, system: str | None = None) -> list[Formation]:
        out = [
            f
            for f in self.state.formations.values()
            if f.kind == kind
            and (nation is None or f.side == nation)
            and (system is None or f.location == system)
        ]
        return sorted(out, key=lambda f: f.id)

    def tfs(self, nation: str | None = None, system: str | None = None) -> list[Formation]:
        return [f for f in self.formations("task_force", nation, system) if self.ships(f.id)]

    def facilities(self, nation: str | None = None, system: str | None = None) -> list[Formation]:
        return [f for f in self.formations("facility", nation, system) if not f.data.get("destroyed")]

    def contingents(self, nation: str | None = None, system: str | None = None) -> list[Formation]:
        return self.formations("contingent", nation, system)

    def members(self, fid: str) -> list[Unit]:
        return sorted(
            (u for u in self.state.units.values() if u.formation == fid and self.alive(u)), key=lambda u: u.id
        )

    def ships(self, fid: str) -> list[Unit]:
        """Ships and fighter wings of a task force (or based at a facility)."""
        return [u for u in self.members(fid) if self.is_ship(u) or self.code(u) == "FTR"]

    def hulls(self, fid: str) -> list[Unit]:
        """Ships not carried by another ship (carried craft excluded)."""
        return [u for u in self.ships(fid) if not u.status.get("carried_by")]

    def troops(self, fid: str) -> list[Unit]:
        return [u for u in self.members(fid) if self.is_troop(u)]

    def warships(self, fid: str) -> list[Unit]:
        return [u for u in self.ships(fid) if self.code(u) in WARSHIPS]

    def carried(self, ship_id: str) -> list[Unit]:
        return sorted(
            (u for u in self.state.units.values() if u.status.get("carried_by") == ship_id and self.alive(u)),
            key=lambda u: u.id,
        )

    def unit_system(self, unit: Unit) -> str | None:
        if unit.status.get("carried_by") and unit.status["carried_by"] in self.state.units:
            return self.unit_system(self.state.units[unit.status["carried_by"]])
        if unit.formation and unit.formation in self.state.formations:
            return self.state.formations[unit.formation].location
        return unit.location

    def fac_type(self, f: Formation) -> str:
        return str(f.data.get("type", ""))

    def fac_stat(self, f: Formation, stat: str) -> int:
        """F-33 with damage and, for a captured facility, only its converted modules."""
        ftype = self.fac_type(f)
        if ftype == "LP":
            return 0
        modules = int(f.data.get("working_modules", f.data.get("modules", 0)))
        try:
            per = int(self.tables.get("T-08").lookup(facility=ftype, stat=stat).value)
            cap = int(self.tables.get("T-08max").lookup(facility=ftype, stat=stat).value)
        except Exception:
            return 0
        raw = per * modules
        full = raw if cap < 0 else min(raw, cap)
        return max(0, full - int(f.data.get("damage", {}).get(stat, 0)))

    def fac_sp(self, f: Formation) -> Fraction:
        return spm.sp(f.data.get("sp", 0))

    # -- commanders -------------------------------------------------------------------------
    def commanders(self) -> dict[str, dict[str, Any]]:
        return self.state.records("commanders")

    def captain(self, unit: Unit) -> dict[str, Any] | None:
        cid = unit.status.get("captain") or ""
        return self.commanders().get(cid) if cid else None

    def flag_officers(self, fid: str) -> list[tuple[str, dict[str, Any]]]:
        out = []
        for cid, c in self.commanders().items():
            if not c.get("alive", True):
                continue
            ship = c.get("ship")
            if (
                c.get("flag")
                and ship in self.state.units
                and self.state.units[ship].formation == fid
                and self.alive(self.state.units[ship])
            ):
                out.append((cid, c))
        return out

    def tf_commander(self, fid: str) -> tuple[str | None, dict[str, Any] | None]:
        """T-02: the commander of a task force."""
        flags = self.flag_officers(fid)
        if flags:
            return max(flags, key=lambda x: (int(x[1].get("ftac", 0)), x[0]))
        ships = self.ships(fid)
        for _name, codes in PRECEDENCE:
            rated = [
                (u.status.get("captain"), self.captain(u))
                for u in ships
                if self.code(u) in codes and self.captain(u) is not None
            ]
            rated = [(cid, c) for cid, c in rated if c.get("alive", True)]
            if rated:
                return max(rated, key=lambda x: (int(x[1].get("stac", 0)), str(x[0])))
        return None, None

    def ftac(self, fid: str) -> int:
        _cid, c = self.tf_commander(fid)
        return int(c.get("ftac", 0)) if c and c.get("flag") else 0

    def best_stac(self, units: Iterable[Unit]) -> int:
        vals = [int(c.get("stac", 0)) for u in units if (c := self.captain(u)) and c.get("alive", True)]
        return max(vals, default=0)

    def is_flag_officer_class(self, code: str) -> bool:
        return code in FLAG_OFFICER_CLASSES

    # -- orders ---------------------------------------------------------------------------
    def orders(self, nation: str) -> dict[str, Any]:
        o = self.state.secrets.get(nation, {}).get("orders") or {}
        if int(o.get("month", -1)) == self.month and int(o.get("week", -1)) == self.week:
            return o
        return {}

    def has_orders(self, nation: str) -> bool:
        return bool(self.orders(nation))

    def tf_order(self, fid: str) -> dict[str, Any]:
        f = self.state.formations.get(fid)
        if f is None:
            return dict(DEFAULT_TF_ORDER)
        section = "facility" if f.kind == "facility" else "ground" if f.kind == "contingent" else "tf"
        order = self.orders(f.side).get(section, {}).get(fid)
        if order is None:
            return dict(DEFAULT_TF_ORDER)
        return {**DEFAULT_TF_ORDER, **order}

    def patrols(self, fid: str) -> list[list[str]]:
        order = self.tf_order(fid)
        if order.get("movement") != "defend":
            return []
        return [list(p) for p in order.get("patrols", [])]
