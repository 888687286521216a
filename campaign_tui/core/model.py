"""The campaign model: what a campaign is at one moment.

Core entities are typed (sides, formations, units, markers); everything a rule set needs
beyond them lives in named record collections (bases, worlds, plots, battles...) and in
``vars`` (attacker, tracks, flags). Every piece of state is addressed as a *slot*,
``(collection, key)``; the transaction layer records changes slot by slot.

Visibility (hidden information):

* ``public``  everyone sees it;
* ``counter`` others see that the formation exists and where, not what is in it;
* ``owner``   only its own side (and the GM) see it.

``known_to`` lists other sides to which it has been revealed (detected, announced).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field
from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.records import record

VISIBILITY = ("public", "counter", "owner")
ENTITY_COLLECTIONS = ("sides", "formations", "units", "markers")
PLAIN_COLLECTIONS = ("meta", "clock", "vars", "options", "ledgers", "secrets", "catalog", "tables")
RECORDS_PREFIX = "records/"


_SCALARS = frozenset((str, int, float, bool, type(None)))


def plain(value: Any) -> Any:
    """A deep copy made only of dicts, lists and scalars, with ``None`` dict values dropped.
    (Plain dicts, lists and scalars, nearly all a state holds, are taken by their exact
    class without a call each: every projection and update at a hosted table copies a
    state; anything else, subclasses too, goes the checked way of ``_plain_other``.)"""
    cls = value.__class__
    if cls is dict:
        return {k if k.__class__ is str else str(k): v if v.__class__ in _SCALARS else plain(v)
                for k, v in value.items() if v is not None}
    if cls in _SCALARS:
        return value
    if cls is list:
        return [v if v.__class__ in _SCALARS else plain(v) for v in value]
    return _plain_other(value)


def _plain_other(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise InvalidInput(f"cannot store a {type(value).__name__} in a campaign: {value!r}")


def _opt(data: dict[str, Any], key: str) -> Any:
    v = data.get(key)
    return None if v is None else v


def _same(value: Any) -> Any:
    return value


def _copy(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, scalars): faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


@record(slots=True)
class Side:
    id: str
    name: str
    color: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.color:
            out["color"] = self.color
        if self.data:
            out["data"] = plain(self.data)
        return out

    @classmethod
    def from_dict(cls, key: str, d: dict[str, Any], copy: bool = True) -> Side:
        c = _copy if copy else _same
        return cls(id=key, name=str(d.get("name", key)), color=str(d.get("color", "")),
                   data=c(d.get("data", {})))


@record(slots=True)
class Formation:
    id: str
    side: str
    name: str
    kind: str = "formation"
    parent: str | None = None
    location: str | None = None
    status: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    visibility: str = "public"
    known_to: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "name": self.name, "kind": self.kind}
        if self.parent:
            out["parent"] = self.parent
        if self.location:
            out["location"] = self.location
        if self.status:
            out["status"] = plain(self.status)
        if self.data:
            out["data"] = plain(self.data)
        if self.visibility != "public":
            out["visibility"] = self.visibility
        if self.known_to:
            out["known_to"] = list(self.known_to)
        return out

    @classmethod
    def from_dict(cls, key: str, d: dict[str, Any], copy: bool = True) -> Formation:
        c = _copy if copy else _same
        return cls(
            id=key, side=str(d["side"]), name=str(d.get("name", key)),
            kind=str(d.get("kind", "formation")), parent=_opt(d, "parent"),
            location=_opt(d, "location"), status=c(d.get("status", {})),
            data=c(d.get("data", {})), visibility=str(d.get("visibility", "public")),
            known_to=list(d.get("known_to", [])),
        )


@record(slots=True)
class Unit:
    id: str
    side: str
    type: str
    name: str = ""
    formation: str | None = None
    location: str | None = None
    status: dict[str, Any] = field(default_factory=dict)
    attrs: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    visibility: str = "public"
    known_to: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.name or self.id

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "type": self.type}
        if self.name:
            out["name"] = self.name
        if self.formation:
            out["formation"] = self.formation
        if self.location:
            out["location"] = self.location
        if self.status:
            out["status"] = plain(self.status)
        if self.attrs:
            out["attrs"] = plain(self.attrs)
        if self.data:
            out["data"] = plain(self.data)
        if self.visibility != "public":
            out["visibility"] = self.visibility
        if self.known_to:
            out["known_to"] = list(self.known_to)
        return out

    @classmethod
    def from_dict(cls, key: str, d: dict[str, Any], copy: bool = True) -> Unit:
        if not copy:
            return cls._adopt(key, d)
        c = _copy
        return cls(
            id=key, side=str(d["side"]), type=str(d["type"]), name=str(d.get("name", "")),
            formation=_opt(d, "formation"), location=_opt(d, "location"),
            status=c(d.get("status", {})), attrs=c(d.get("attrs", {})),
            data=c(d.get("data", {})), visibility=str(d.get("visibility", "public")),
            known_to=list(d.get("known_to", [])),
        )

    @classmethod
    def _adopt(cls, key: str, d: dict[str, Any]) -> Unit:
        """Build from fresh, already checked data, taking its dicts as they are (three
        times faster than the checked constructor; opening 2,000 units uses it)."""
        u = cls.__new__(cls)
        u.id, u.side, u.type, u.name = key, d["side"], d["type"], d.get("name", "")
        u.formation, u.location = d.get("formation"), d.get("location")
        u.status, u.attrs, u.data = d.get("status", {}), d.get("attrs", {}), d.get("data", {})
        u.visibility, u.known_to = d.get("visibility", "public"), list(d.get("known_to", ()))
        return u


@record(slots=True)
class Marker:
    id: str
    kind: str
    label: str = ""
    side: str | None = None
    location: str | None = None
    target: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for k in ("label", "side", "location", "target"):
            v = getattr(self, k)
            if v:
                out[k] = v
        if self.data:
            out["data"] = plain(self.data)
        return out

    @classmethod
    def from_dict(cls, key: str, d: dict[str, Any], copy: bool = True) -> Marker:
        c = _copy if copy else _same
        return cls(id=key, kind=str(d["kind"]), label=str(d.get("label", "")),
                   side=_opt(d, "side"), location=_opt(d, "location"),
                   target=_opt(d, "target"), data=c(d.get("data", {})))


_ENTITY_TYPES: dict[str, Any] = {
    "sides": Side, "formations": Formation, "units": Unit, "markers": Marker,
}


class State:
    """All of a campaign's state at one moment. Mutate it only through a transaction."""

    __slots__ = ("_c",)

    def __init__(self) -> None:
        self._c: dict[str, dict[str, Any]] = {
            name: {} for name in (*ENTITY_COLLECTIONS, *PLAIN_COLLECTIONS)
        }
        self._c["meta"].update({"machine": "", "position": {"step": "", "stack": []}})

    # -- typed views ------------------------------------------------------------------
    @property
    def sides(self) -> dict[str, Side]:
        return self._c["sides"]

    @property
    def formations(self) -> dict[str, Formation]:
        return self._c["formations"]

    @property
    def units(self) -> dict[str, Unit]:
        return self._c["units"]

    @property
    def markers(self) -> dict[str, Marker]:
        return self._c["markers"]

    @property
    def ledgers(self) -> dict[str, dict[str, Any]]:
        return self._c["ledgers"]

    @property
    def vars(self) -> dict[str, Any]:
        return self._c["vars"]

    @property
    def clock(self) -> dict[str, int]:
        return self._c["clock"]

    @property
    def options(self) -> dict[str, Any]:
        return self._c["options"]

    @property
    def secrets(self) -> dict[str, dict[str, Any]]:
        return self._c["secrets"]

    @property
    def catalog_overrides(self) -> dict[str, dict[str, Any]]:
        return self._c["catalog"]

    @property
    def table_overrides(self) -> dict[str, dict[str, Any]]:
        return self._c["tables"]

    @property
    def machine(self) -> str:
        return str(self._c["meta"].get("machine", ""))

    @property
    def step(self) -> str:
        return str(self._c["meta"]["position"]["step"])

    @property
    def stack(self) -> list[str]:
        return list(self._c["meta"]["position"].get("stack", []))

    def records(self, name: str) -> dict[str, dict[str, Any]]:
        """A record collection (empty if it does not exist yet). Read only."""
        return self._c.get(RECORDS_PREFIX + name, {})

    def record(self, name: str, key: str) -> dict[str, Any]:
        try:
            return self._c[RECORDS_PREFIX + name][key]
        except KeyError:
            raise InvalidInput(f"no {name} record {key!r}") from None

    def ledger(self, holder: str, resource: str) -> Any:
        return self._c["ledgers"].get(holder, {}).get(resource, 0)

    # -- lookups with clear errors ------------------------------------------------------
    def unit(self, uid: str) -> Unit:
        try:
            return self.units[uid]
        except KeyError:
            raise InvalidInput(f"no unit {uid!r} in this campaign") from None

    def formation(self, fid: str) -> Formation:
        try:
            return self.formations[fid]
        except KeyError:
            raise InvalidInput(f"no formation {fid!r} in this campaign") from None

    def side(self, sid: str) -> Side:
        try:
            return self.sides[sid]
        except KeyError:
            known = ", ".join(self.sides)
            raise InvalidInput(f"no side {sid!r}; sides are {known}") from None

    def units_in(self, fid: str, deep: bool = False) -> list[Unit]:
        direct = [u for u in self.units.values() if u.formation == fid]
        if not deep:
            return direct
        out = list(direct)
        for child in self.children(fid):
            out.extend(self.units_in(child.id, deep=True))
        return out

    def children(self, fid: str | None) -> list[Formation]:
        return [f for f in self.formations.values() if f.parent == fid]

    def ancestors(self, fid: str | None) -> Iterator[Formation]:
        seen: set[str] = set()
        while fid and fid in self.formations and fid not in seen:
            seen.add(fid)
            f = self.formations[fid]
            yield f
            fid = f.parent

    # -- slots ------------------------------------------------------------------------
    def dump_slot(self, coll: str, key: str) -> Any:
        """The plain (serialised, copied) value of one slot, or None if absent."""
        bucket = self._c.get(coll)
        if bucket is None or key not in bucket:
            return None
        item = bucket[key]
        if coll in _ENTITY_TYPES:
            return item.to_dict()
        return plain(item)

    def load_slot(self, coll: str, key: str, value: Any) -> None:
        """Set one slot from its plain value (None deletes it)."""
        if coll not in self._c:
            if not coll.startswith(RECORDS_PREFIX):
                raise InvalidInput(f"unknown state collection {coll!r}")
            self._c[coll] = {}
        bucket = self._c[coll]
        if value is None:
            bucket.pop(key, None)
            return
        if coll in _ENTITY_TYPES:
            bucket[key] = _ENTITY_TYPES[coll].from_dict(key, value)
        else:
            bucket[key] = _copy(value)

    def collections(self) -> list[str]:
        return list(self._c)

    def keys(self, coll: str) -> list[str]:
        return list(self._c.get(coll, {}))

    def ensure_collection(self, coll: str) -> None:
        if coll not in self._c:
            if not coll.startswith(RECORDS_PREFIX):
                raise InvalidInput(f"unknown state collection {coll!r}")
            self._c[coll] = {}

    # -- whole-state (de)serialisation ---------------------------------------------------
    def to_dict(self, leave_out: dict[str, set[str]] | None = None) -> dict[str, Any]:
        """The state as plain data; *leave_out* names entities (by collection) to omit."""
        out: dict[str, Any] = {}
        for coll in ("meta", "clock", "vars", "options"):
            out[coll] = plain(self._c[coll])
        for coll in ("sides", "formations", "units", "markers"):
            omit = leave_out.get(coll) if leave_out else None
            out[coll] = {k: v.to_dict() for k, v in self._c[coll].items()
                         if not omit or k not in omit}
        for coll in ("ledgers", "secrets", "catalog", "tables"):
            out[coll] = plain(self._c[coll])
        out["records"] = {
            c[len(RECORDS_PREFIX):]: plain(bucket)
            for c, bucket in self._c.items() if c.startswith(RECORDS_PREFIX)
        }
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], fresh: bool = False) -> State:
        """Build a state from plain data. With ``fresh``, the data is new and not shared
        (just parsed, or just made by ``to_dict``) and is used without copying."""
        if not fresh:
            data = _copy(data)
        state = cls()
        for coll in ("meta", "clock", "vars", "options", "ledgers", "secrets", "catalog",
                     "tables"):
            state._c[coll] = data.get(coll, {})
        state._c["meta"].setdefault("machine", "")
        state._c["meta"].setdefault("position", {"step": "", "stack": []})
        for coll, typ in _ENTITY_TYPES.items():
            state._c[coll] = {k: typ.from_dict(k, v, copy=False)
                              for k, v in data.get(coll, {}).items()}
        for name, bucket in data.get("records", {}).items():
            state._c[RECORDS_PREFIX + name] = bucket
        return state

    def copy(self, leave_out: dict[str, set[str]] | None = None) -> State:
        """A deep copy; *leave_out* names entities (by collection) not to copy at all."""
        return State.from_dict(self.to_dict(leave_out), fresh=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


SNAPSHOT_ROWS = ("sides", "formations", "units", "markers", "ledgers", "secrets", "catalog",
                 "tables")


def snapshot_row_paths(state_dict: dict[str, Any], prefix: str = "") -> list[str]:
    """The table paths written one line per entry in a snapshot."""
    p = f"{prefix}." if prefix else ""
    paths = [p + r for r in SNAPSHOT_ROWS]
    paths += [f"{p}records.{name}" for name in state_dict.get("records", {})]
    return paths
