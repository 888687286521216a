"""Scenarios: ready-made starting positions, and the builder that creates initial state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import Formation, Marker, Side, State, Unit, plain
from campaign_tui.core.records import record

if TYPE_CHECKING:
    from campaign_tui.core.catalog import Catalog


@record
class Scenario:
    id: str
    title: str
    description: str
    sides: tuple[str, ...]
    length: str                       # "12 turns", "open-ended", ...
    machine: str                      # the phase machine it plays under
    data: dict[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)  # preset option values
    provenance: str = ""


class Builder:
    """Builds an initial :class:`State` directly (before any action exists).

    Units are checked against the catalog: the type must exist, attribute overrides and
    status values must fit their declared fields, and missing status gets its default.
    """

    def __init__(self, catalog: Catalog, machine: str, start_step: str) -> None:
        self.catalog = catalog
        self.state = State()
        self.state._c["meta"]["machine"] = machine
        self.state._c["meta"]["position"] = {"step": start_step, "stack": []}

    def side(self, sid: str, name: str, color: str = "", **data: Any) -> Side:
        side = Side(sid, name, color, plain(data))
        self.state.sides[sid] = side
        return side

    def formation(self, fid: str, side: str, name: str, kind: str = "formation",
                  parent: str | None = None, location: str | None = None,
                  visibility: str = "public", data: dict[str, Any] | None = None,
                  **status: Any) -> Formation:
        if fid in self.state.formations:
            raise InvalidInput(f"formation {fid!r} declared twice")
        if side not in self.state.sides:
            raise InvalidInput(f"formation {fid}: unknown side {side!r}")
        if parent and parent not in self.state.formations:
            raise InvalidInput(f"formation {fid}: unknown parent {parent!r}")
        f = Formation(fid, side, name, kind, parent, location, plain(status), plain(data or {}),
                      visibility)
        self.state.formations[fid] = f
        return f

    def unit(self, uid: str, side: str, type: str, name: str = "",
             formation: str | None = None, location: str | None = None,
             visibility: str = "public", attrs: dict[str, Any] | None = None,
             data: dict[str, Any] | None = None, **status: Any) -> Unit:
        if uid in self.state.units:
            raise InvalidInput(f"unit {uid!r} declared twice")
        if side not in self.state.sides:
            raise InvalidInput(f"unit {uid}: unknown side {side!r}")
        if formation and formation not in self.state.formations:
            raise InvalidInput(f"unit {uid}: unknown formation {formation!r}")
        self.catalog.type(type)
        checked_attrs = {k: self.catalog.attr_def(k).check(v, f"unit {uid}")
                         for k, v in (attrs or {}).items()}
        full_status = self.catalog.default_status()
        for k, v in status.items():
            full_status[k] = self.catalog.status_def(k).check(v, f"unit {uid}")
        u = Unit(uid, side, type, name, formation, location, plain(full_status),
                 checked_attrs, plain(data or {}), visibility)
        self.state.units[uid] = u
        return u

    def add_formation(self, f: Formation) -> Formation:
        """Add a ready-made formation (checked like :meth:`formation`)."""
        made = self.formation(f.id, f.side, f.name, f.kind, f.parent, f.location, f.visibility,
                              f.data, **f.status)
        made.known_to = list(f.known_to)
        return made

    def add_unit(self, u: Unit) -> Unit:
        """Add a ready-made unit (checked like :meth:`unit`: type, values, default status)."""
        made = self.unit(u.id, u.side, u.type, u.name, u.formation, u.location, u.visibility,
                         u.attrs, u.data, **u.status)
        made.known_to = list(u.known_to)
        return made

    def marker(self, mid: str, kind: str, **kw: Any) -> Marker:
        m = Marker(mid, kind, **kw)
        self.state.markers[mid] = m
        return m

    def record(self, collection: str, key: str, value: dict[str, Any]) -> None:
        coll = "records/" + collection
        self.state.ensure_collection(coll)
        self.state._c[coll][key] = plain(value)

    def var(self, name: str, value: Any) -> None:
        self.state.vars[name] = plain(value)

    def clock(self, **levels: int) -> None:
        self.state.clock.update(levels)

    def ledger(self, holder: str, **amounts: Any) -> None:
        self.state.ledgers.setdefault(holder, {}).update(amounts)

    def secret(self, side: str, key: str, value: Any) -> None:
        self.state.secrets.setdefault(side, {})[key] = plain(value)

    def options(self, options: dict[str, Any]) -> None:
        self.state.options.update(plain(options))

    def meta(self, key: str, value: Any) -> None:
        self.state._c["meta"][key] = plain(value)


ScenarioBuild = Callable[[Scenario, Builder, dict[str, Any]], None]
