"""Unit types and the fields a rule set declares (typed attributes and per-unit status).

A rule set's ``units.toml`` declares:

* ``[attrs.<name>]``  typed attributes every unit type may carry (attack, defense, jump...);
* ``[status.<name>]`` per-unit status with its default, bounds and badge text
  (fatigue 0-3, disrupted, losses %, destroyed, fuelled...);
* ``[types.<id>]``    the catalog: each type's name, category, attribute values and
  provenance (with ``value_provenance`` for single values that are reconstructed or
  defaulted).

Values are checked against the declared types, so a hand-edited catalog or a GM edit with
a wrong value gets a clear message.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.provenance import HOUSE, Provenance
from campaign_tui.core.records import record

FIELD_TYPES = ("int", "float", "bool", "str", "choice", "list", "number")


@record(frozen=True)
class FieldDef:
    name: str
    type: str = "int"
    label: str = ""
    default: Any = None
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    badge: str = ""
    help: str = ""
    show: bool = True

    def __post_init__(self) -> None:
        if self.type not in FIELD_TYPES:
            raise InvalidInput(f"field {self.name}: type must be one of {FIELD_TYPES}")

    @classmethod
    def from_data(cls, name: str, d: dict[str, Any]) -> FieldDef:
        known = {"type", "label", "default", "min", "max", "choices", "badge", "help", "show"}
        extra = set(d) - known
        if extra:
            raise InvalidInput(f"field {name}: unknown keys {sorted(extra)}")
        return cls(name=name, type=str(d.get("type", "int")), label=str(d.get("label", name)),
                   default=d.get("default"), min=d.get("min"), max=d.get("max"),
                   choices=tuple(d.get("choices", ())), badge=str(d.get("badge", "")),
                   help=str(d.get("help", "")), show=bool(d.get("show", True)))

    def check(self, value: Any, where: str) -> Any:
        """Return *value* converted to the field's type, or raise a clear InvalidInput."""
        what = f"{where}: {self.name}"
        if value is None:
            return None
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "false", "no", "0"):
                return value.lower() in ("true", "yes", "1")
            raise InvalidInput(f"{what} must be true or false, not {value!r}")
        if self.type in ("int", "float", "number"):
            try:
                if isinstance(value, bool):
                    raise ValueError
                if self.type == "int":
                    number: float | int = int(value) if not isinstance(value, float) else value
                    if isinstance(number, float):
                        if not number.is_integer():
                            raise ValueError
                        number = int(number)
                else:
                    number = float(value) if self.type == "float" else _num(value)
            except (TypeError, ValueError, OverflowError):
                raise InvalidInput(f"{what} must be a whole number, not {value!r}"
                                   if self.type == "int" else
                                   f"{what} must be a number, not {value!r}") from None
            if self.min is not None and number < self.min:
                raise InvalidInput(f"{what} must be at least {_fmt(self.min)}, not {value}")
            if self.max is not None and number > self.max:
                raise InvalidInput(f"{what} must be at most {_fmt(self.max)}, not {value}")
            return number
        if self.type == "choice":
            if str(value) not in self.choices:
                raise InvalidInput(f"{what} must be one of {', '.join(self.choices)}, not {value!r}")
            return str(value)
        if self.type == "list":
            if not isinstance(value, list):
                raise InvalidInput(f"{what} must be a list, not {value!r}")
            return list(value)
        if not isinstance(value, str):
            raise InvalidInput(f"{what} must be text, not {value!r}")
        return value

    def badge_for(self, value: Any) -> str:
        """Status badge text, empty when the value is the default / falsy."""
        if not self.badge or value is None or value == self.default or value is False:
            return ""
        if self.type in ("int", "float", "number") and not value:
            return ""
        return self.badge.format(value=value, label=self.label)


def _num(value: Any) -> int | float:
    if isinstance(value, (int, float)):
        return value
    text = str(value)
    return int(text) if text.lstrip("-").isdigit() else float(text)


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@record
class UnitType:
    id: str
    name: str
    category: str = ""
    attrs: dict[str, Any] = field(default_factory=dict)
    provenance: Provenance = field(default_factory=Provenance)
    value_provenance: dict[str, Provenance] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    notes: str = ""

    @property
    def verified(self) -> bool:
        return self.provenance.verified and all(p.verified for p in self.value_provenance.values())

    def provenance_of(self, attr: str) -> Provenance:
        return self.value_provenance.get(attr, self.provenance)


class Catalog:
    """Field declarations plus the unit types of a rule set (with campaign overrides)."""

    def __init__(self, attrs: dict[str, FieldDef], status: dict[str, FieldDef],
                 types: dict[str, UnitType]) -> None:
        self.attrs = attrs
        self.status = status
        self.types = types

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Catalog:
        attrs = {k: FieldDef.from_data(k, v) for k, v in data.get("attrs", {}).items()}
        status = {k: FieldDef.from_data(k, v) for k, v in data.get("status", {}).items()}
        types: dict[str, UnitType] = {}
        for tid, body in data.get("types", {}).items():
            types[tid] = cls._type_from(tid, dict(body), attrs)
        return cls(attrs, status, types)

    @staticmethod
    def _type_from(tid: str, body: dict[str, Any], attrs: dict[str, FieldDef]) -> UnitType:
        meta = {"name", "category", "provenance", "value_provenance", "tags", "notes"}
        values = {}
        for k, v in body.items():
            if k in meta:
                continue
            if k not in attrs:
                raise InvalidInput(f"unit type {tid}: unknown attribute {k!r}; "
                                   f"declared: {', '.join(attrs)}")
            values[k] = attrs[k].check(v, f"unit type {tid}")
        return UnitType(
            id=tid, name=str(body.get("name", tid)), category=str(body.get("category", "")),
            attrs=values, provenance=Provenance.from_data(body.get("provenance")),
            value_provenance={k: Provenance.from_data(v)
                              for k, v in body.get("value_provenance", {}).items()},
            tags=tuple(body.get("tags", ())), notes=str(body.get("notes", "")),
        )

    def type(self, tid: str) -> UnitType:
        try:
            return self.types[tid]
        except KeyError:
            raise InvalidInput(f"no unit type {tid!r} in the catalog") from None

    def with_overrides(self, overrides: dict[str, dict[str, Any]]) -> Catalog:
        """GM edits: ``{type id: {attr: value, "name": ...}}``; new ids add types."""
        if not overrides:
            return self
        types = dict(self.types)
        for tid, changes in overrides.items():
            if tid in types:
                base = types[tid]
                values = dict(base.attrs)
                vprov = dict(base.value_provenance)
                for k, v in changes.items():
                    if k in ("name", "category", "notes"):
                        continue
                    values[k] = self.attr_def(k).check(v, f"unit type {tid}")
                    vprov[k] = HOUSE
                types[tid] = UnitType(
                    id=tid, name=str(changes.get("name", base.name)),
                    category=str(changes.get("category", base.category)), attrs=values,
                    provenance=base.provenance, value_provenance=vprov, tags=base.tags,
                    notes=str(changes.get("notes", base.notes)))
            else:
                body = dict(changes)
                body.setdefault("provenance", "house")
                types[tid] = self._type_from(tid, body, self.attrs)
        return Catalog(self.attrs, self.status, types)

    def attr_def(self, name: str) -> FieldDef:
        try:
            return self.attrs[name]
        except KeyError:
            raise InvalidInput(f"no unit attribute {name!r}; attributes: "
                               f"{', '.join(self.attrs)}") from None

    def status_def(self, name: str) -> FieldDef:
        try:
            return self.status[name]
        except KeyError:
            raise InvalidInput(f"no unit status {name!r}; status fields: "
                               f"{', '.join(self.status)}") from None

    def default_status(self) -> dict[str, Any]:
        return {k: f.default for k, f in self.status.items() if f.default is not None}
