"""Generic game tables loaded from TOML data.

A table has one axis (a die-row list, range bands) or two (rows x columns). Each axis
says how an input finds its position:

* ``exact``      the label equal to the value (die rows, named keys);
* ``at_most``    the largest label not above the value ("use the largest column <= total");
* ``range``      the band whose bounds hold the value (``1-2``, ``9+``);
* ``ratio``      odds: attacker and defender strengths, rounded in the defender's favour to
                 the largest listed ratio not above the true one (exact fractions);
* ``difference`` attacker minus defender, then ``at_most``.

Past either end an axis ``refuse``\\s (the lookup is not allowed), ``clamp``\\s (uses the end
label) or gives ``none`` (no result, e.g. "no attack"). Column shifts and row counts
(count-up/count-down) move the position afterwards with their own edge policies.

Every lookup returns the cell, the labels used and an explanation a player can check.
"""

from __future__ import annotations

import re
from dataclasses import field, replace
from fractions import Fraction
from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.provenance import HOUSE, Provenance
from campaign_tui.core.records import record

MATCHES = ("exact", "at_most", "range", "ratio", "difference")
EDGES = ("refuse", "clamp", "none")

Number = int | float | Fraction


class LookupRefused(InvalidInput):
    """The table does not allow this lookup (odds below the table, a shift off the edge...)."""


def _frac(text: str) -> Fraction:
    text = text.strip().replace("½", ".5")
    if text.endswith(".5") and text[:-2] == "":
        text = "0.5"
    try:
        if "/" in text:
            a, b = text.split("/", 1)
            return Fraction(_frac(a)) / _frac(b)
        return Fraction(text)
    except (ValueError, ZeroDivisionError) as exc:
        raise InvalidInput(f"{text!r} is not a number") from exc


_RATIO = re.compile(r"^\s*([\d.½/]+)\s*(?:-|:|to)\s*([\d.½/]+)\s*$")


def parse_ratio_label(label: str) -> Fraction:
    """``3-1``, ``3:1``, ``1 to 2``, ``1½:1``, ``1:1½`` -> the ratio as a fraction."""
    text = label.split("(")[0].strip()
    m = _RATIO.match(text)
    if not m:
        raise InvalidInput(f"{label!r} is not an odds label such as 3-1 or 1:2")
    return _frac(m.group(1)) / _frac(m.group(2))


_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:-|–|\.\.)\s*(-?\d+)\s*$")


def parse_range_label(label: str) -> tuple[Fraction | None, Fraction | None]:
    """``1-2``, ``3``, ``9+``, ``-2``, ``≤0``, ``-3..-1`` -> inclusive bounds (None = open)."""
    text = label.strip()
    if text.endswith("+"):
        return _frac(text[:-1]), None
    if text.startswith(("≤", "<=")):
        return None, _frac(text.lstrip("≤<="))
    if text.startswith(("≥", ">=")):
        return _frac(text.lstrip("≥>=")), None
    m = _RANGE.match(text)
    if m:
        return _frac(m.group(1)), _frac(m.group(2))
    value = _frac(text)
    return value, value


def fmt_number(value: Number) -> str:
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        sign = "-" if value < 0 else ""
        whole, rest = divmod(abs(value.numerator), value.denominator)
        if rest * 2 == value.denominator:
            return f"{sign}{whole}½" if whole else f"{sign}½"
        return f"{float(value):.3g}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def ratio_text(attack: Number, defense: Number) -> str:
    return f"{fmt_number(attack)}:{fmt_number(defense)}"


@record(frozen=True)
class Axis:
    name: str
    labels: tuple[str, ...]
    match: str = "exact"
    title: str = ""
    values: tuple[Any, ...] = ()
    bounds: tuple[tuple[Fraction | None, Fraction | None], ...] = ()
    below: str = "refuse"
    above: str = "refuse"
    shift_below: str = "clamp"
    shift_above: str = "clamp"
    die: str | None = None
    shift_words: tuple[str, str] = ("left", "right")  # toward earlier / later labels

    def __post_init__(self) -> None:
        if self.match not in MATCHES:
            raise InvalidInput(f"axis {self.name!r}: match must be one of {MATCHES}")
        for policy in (self.below, self.above, self.shift_below, self.shift_above):
            if policy not in EDGES:
                raise InvalidInput(f"axis {self.name!r}: edge policy must be one of {EDGES}")
        if not self.labels:
            raise InvalidInput(f"axis {self.name!r} has no labels")

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Axis:
        labels = tuple(str(v) for v in data.get("labels", []))
        match = str(data.get("match", "exact"))
        values: tuple[Any, ...] = ()
        bounds: tuple[tuple[Fraction | None, Fraction | None], ...] = ()
        if "values" in data:
            raw = data["values"]
            if len(raw) != len(labels):
                raise InvalidInput(f"axis {data.get('name')!r}: values and labels differ in length")
            values = tuple(_frac(str(v)) if match != "exact" else v for v in raw)
        elif match == "ratio":
            values = tuple(parse_ratio_label(v) for v in labels)
        elif match in ("at_most", "difference"):
            values = tuple(_frac(v.rstrip("+")) for v in labels)
        elif match == "exact":
            values = tuple(labels)
        if match == "range":
            if "bounds" in data:
                bounds = tuple(
                    (None if lo is None or lo == "" else _frac(str(lo)),
                     None if hi is None or hi == "" else _frac(str(hi)))
                    for lo, hi in data["bounds"]
                )
            else:
                bounds = tuple(parse_range_label(v) for v in labels)
        if match in ("at_most", "ratio", "difference") and list(values) != sorted(values):
            raise InvalidInput(f"axis {data.get('name')!r}: labels must ascend")
        return cls(
            name=str(data["name"]),
            labels=labels,
            match=match,
            title=str(data.get("title", data["name"])),
            values=values,
            bounds=bounds,
            below=str(data.get("below", "refuse")),
            above=str(data.get("above", "refuse" if match in ("exact", "range") else "clamp")),
            shift_below=str(data.get("shift_below", "clamp")),
            shift_above=str(data.get("shift_above", "clamp")),
            die=data.get("die"),
            shift_words=tuple(data.get("shift_words", ("left", "right"))),  # type: ignore[arg-type]
        )

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "labels": list(self.labels), "match": self.match}
        if self.title and self.title != self.name:
            out["title"] = self.title
        if self.match == "range":
            out["bounds"] = [
                [None if lo is None else fmt_number(lo), None if hi is None else fmt_number(hi)]
                for lo, hi in self.bounds
            ]
        for key, default in (("below", "refuse"), ("shift_below", "clamp"),
                             ("shift_above", "clamp")):
            if getattr(self, key) != default:
                out[key] = getattr(self, key)
        out["above"] = self.above
        if self.die:
            out["die"] = self.die
        if self.shift_words != ("left", "right"):
            out["shift_words"] = list(self.shift_words)
        return out

    # -- finding a position ------------------------------------------------------------
    def locate(self, value: Any) -> tuple[int | None, list[str]]:
        """Return the index for *value* (None = no result) and the explanation lines."""
        notes: list[str] = []
        if self.match == "ratio":
            attack, defense = _pair(self.name, value)
            if defense == 0:
                notes.append(f"odds {ratio_text(attack, defense)}: no defence, best column")
                return len(self.labels) - 1, notes
            ratio = Fraction(attack) / Fraction(defense)
            index = _largest_at_most(self.values, ratio)
            head = f"odds {ratio_text(attack, defense)}"
            if index is None:
                return self._edge_below(f"{head} is below {self.labels[0]}", notes)
            if index == len(self.labels) - 1 and ratio > self.values[-1] and self.above == "refuse":
                raise LookupRefused(f"{head} is above {self.labels[-1]}: not on the table")
            notes.append(f"{head} -> {self.labels[index]} (rounded in the defender's favour)")
            return index, notes
        if self.match == "difference":
            attack, defense = _pair(self.name, value)
            diff = Fraction(attack) - Fraction(defense)
            index = _largest_at_most(self.values, diff)
            head = f"{fmt_number(attack)} - {fmt_number(defense)} = {fmt_number(diff)}"
            if index is None:
                return self._edge_below(f"{head} is below {self.labels[0]}", notes)
            if diff > self.values[-1] and self.above == "refuse":
                raise LookupRefused(f"{head} is above {self.labels[-1]}: not on the table")
            notes.append(f"{head} -> column {self.labels[index]}")
            return index, notes
        if self.match == "at_most":
            number = _number(self.name, value)
            index = _largest_at_most(self.values, number)
            if index is None:
                return self._edge_below(
                    f"{self.title} {fmt_number(number)} is below {self.labels[0]}", notes)
            notes.append(f"{self.title} {fmt_number(number)} -> {self.labels[index]}")
            return index, notes
        if self.match == "range":
            number = _number(self.name, value)
            for i, (lo, hi) in enumerate(self.bounds):
                if (lo is None or number >= lo) and (hi is None or number <= hi):
                    notes.append(f"{self.title} {fmt_number(number)} -> {self.labels[i]}")
                    return i, notes
            lows = [lo for lo, _ in self.bounds]
            if None not in lows and number < min(lo for lo in lows if lo is not None):
                return self._edge_below(
                    f"{self.title} {fmt_number(number)} is below the table", notes)
            highs = [hi for _, hi in self.bounds]
            if None in highs or number <= max(h for h in highs if h is not None):
                # between two bands: no edge policy applies (it is not past either end)
                raise LookupRefused(
                    f"{self.title} {fmt_number(number)} falls between two bands "
                    f"({', '.join(self.labels)}): not on the table")
            return self._edge_above(f"{self.title} {fmt_number(number)} is above the table", notes)
        # exact
        key = _norm(value)
        for i, label in enumerate(self.labels):
            if _norm(label) == key or (self.values and _norm(self.values[i]) == key):
                notes.append(f"{self.title} {value}")
                return i, notes
        numeric = _try_numbers(self.labels)
        if numeric is not None and _is_number(value):
            if Fraction(str(value)) < min(numeric):
                return self._edge_below(f"{self.title} {value} is below the table", notes, numeric)
            if Fraction(str(value)) > max(numeric):
                return self._edge_above(f"{self.title} {value} is above the table", notes, numeric)
        raise LookupRefused(f"{self.title}: no entry for {value!r}")

    def _edge_below(self, head: str, notes: list[str],
                    numeric: list[Fraction] | None = None) -> tuple[int | None, list[str]]:
        if self.below == "refuse":
            raise LookupRefused(f"{head}: not allowed")
        if self.below == "none":
            notes.append(f"{head}: no result")
            return None, notes
        index = numeric.index(min(numeric)) if numeric else 0
        notes.append(f"{head}: uses {self.labels[index]}")
        return index, notes

    def _edge_above(self, head: str, notes: list[str],
                    numeric: list[Fraction] | None = None) -> tuple[int | None, list[str]]:
        if self.above == "refuse":
            raise LookupRefused(f"{head}: not allowed")
        if self.above == "none":
            notes.append(f"{head}: no result")
            return None, notes
        index = numeric.index(max(numeric)) if numeric else len(self.labels) - 1
        notes.append(f"{head}: uses {self.labels[index]}")
        return index, notes

    def shift(self, index: int, by: int, what: str = "shifted") -> tuple[int | None, list[str]]:
        """Move *by* positions (positive = toward later labels) under the shift edge policy."""
        if by == 0:
            return index, []
        target = index + by
        direction = self.shift_words[1] if by > 0 else self.shift_words[0]
        head = f"{what} {abs(by)} {direction}"
        if 0 <= target < len(self.labels):
            return target, [f"{head} -> {self.labels[target]}"]
        policy = self.shift_below if target < 0 else self.shift_above
        if policy == "refuse":
            raise LookupRefused(f"{head}: off the edge of the table, not possible")
        if policy == "none":
            return None, [f"{head}: off the table, no result"]
        clamped = 0 if target < 0 else len(self.labels) - 1
        return clamped, [f"{head}: stops at the table edge, {self.labels[clamped]}"]


def _pair(name: str, value: Any) -> tuple[Number, Number]:
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return _number(name, value[0]), _number(name, value[1])
    if isinstance(value, str) and re.search(r"[:/]", value):
        a, b = re.split(r"[:/]", value, maxsplit=1)
        return _number(name, a), _number(name, b)
    raise InvalidInput(f"{name}: give attacker and defender strengths, like 15:5")


def _number(name: str, value: Any) -> Fraction:
    if isinstance(value, bool):
        raise InvalidInput(f"{name}: {value!r} is not a number")
    if isinstance(value, Fraction):
        return value
    try:
        return _frac(str(value))
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {value!r} is not a number") from exc


def _is_number(value: Any) -> bool:
    try:
        Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return False
    return not isinstance(value, bool)


def _try_numbers(labels: tuple[str, ...]) -> list[Fraction] | None:
    try:
        return [Fraction(label) for label in labels]
    except (ValueError, ZeroDivisionError):
        return None


def _norm(value: Any) -> str:
    text = str(value).strip().lower()
    try:
        f = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text
    return str(f)


def _largest_at_most(values: tuple[Any, ...], x: Fraction) -> int | None:
    found = None
    for i, v in enumerate(values):
        if v <= x:
            found = i
    return found


@record
class Lookup:
    """The result of one table lookup and how it was reached."""

    table: str
    cell: Any
    value: Any
    labels: dict[str, str]
    explanation: list[str]
    provenance: Provenance
    overridden: bool = False

    @property
    def summary(self) -> str:
        return "; ".join(self.explanation)


@record
class Table:
    id: str
    title: str
    axes: tuple[Axis, ...]
    cells: list[Any]
    kind: str = "grid"
    aliases: tuple[str, ...] = ()
    provenance: Provenance = field(default_factory=Provenance)
    cell_provenance: dict[str, Provenance] = field(default_factory=dict)
    symbols: dict[str, Any] = field(default_factory=dict)
    result: str = ""
    notes: tuple[str, ...] = ()
    reference: str = ""

    def __post_init__(self) -> None:
        if len(self.axes) not in (1, 2):
            raise InvalidInput(f"table {self.id}: one or two axes, not {len(self.axes)}")
        rows = self.axes[0]
        if len(self.cells) != len(rows.labels):
            raise InvalidInput(
                f"table {self.id}: {len(rows.labels)} {rows.name} labels but {len(self.cells)} rows"
            )
        if len(self.axes) == 2:
            width = len(self.axes[1].labels)
            for i, row in enumerate(self.cells):
                if not isinstance(row, list) or len(row) != width:
                    raise InvalidInput(
                        f"table {self.id}: row {rows.labels[i]} needs {width} cells"
                    )

    @property
    def verified(self) -> bool:
        return self.provenance.verified and all(p.verified for p in self.cell_provenance.values())

    def axis(self, name: str) -> Axis:
        for axis in self.axes:
            if axis.name == name:
                return axis
        raise InvalidInput(f"table {self.id} has no input {name!r}; inputs: {self.input_names}")

    @property
    def input_names(self) -> list[str]:
        return [a.name for a in self.axes]

    def cell_key(self, indices: list[int]) -> str:
        return "/".join(self.axes[i].labels[ix] for i, ix in enumerate(indices))

    def cell_at(self, indices: list[int]) -> Any:
        if len(self.axes) == 1:
            return self.cells[indices[0]]
        return self.cells[indices[0]][indices[1]]

    def value_of(self, cell: Any) -> Any:
        if isinstance(cell, str) and cell in self.symbols:
            return self.symbols[cell]
        return cell

    def lookup(self, shifts: dict[str, int] | None = None, **inputs: Any) -> Lookup:
        """Look up a cell. ``shifts`` moves an axis after matching (columns left/right,
        rows counted up/down)."""
        shifts = shifts or {}
        unknown = set(inputs) - set(self.input_names)
        if unknown:
            raise InvalidInput(f"table {self.id}: unknown inputs {sorted(unknown)}; "
                               f"inputs are {self.input_names}")
        for name in shifts:
            self.axis(name)
        indices: list[int] = []
        notes: list[str] = []
        labels: dict[str, str] = {}
        none_reached = False
        for axis in self.axes:
            if axis.name not in inputs:
                raise InvalidInput(f"table {self.id} needs {axis.name!r}")
            index, axis_notes = axis.locate(inputs[axis.name])
            notes.extend(axis_notes)
            if index is not None and shifts.get(axis.name):
                index, shift_notes = axis.shift(index, int(shifts[axis.name]))
                notes.extend(shift_notes)
            if index is None:
                none_reached = True
                break
            indices.append(index)
            labels[axis.name] = axis.labels[index]
        if none_reached:
            return Lookup(self.id, None, None, labels, [*notes, "no result"], self.provenance)
        cell = self.cell_at(indices)
        key = self.cell_key(indices)
        prov = self.cell_provenance.get(key, self.provenance)
        value = self.value_of(cell)
        notes.append(f"result {cell}" + ("" if value == cell else f" ({value})"))
        if not prov.verified:
            notes.append(f"[{prov.badge()}]")
        return Lookup(self.id, cell, value, labels, notes, prov)

    # -- overrides (house rules) ----------------------------------------------------------
    def with_cells(self, changes: dict[str, Any]) -> Table:
        """A copy with cells replaced; keys are ``row/column`` labels (or a row label)."""
        cells = [list(r) if isinstance(r, list) else r for r in self.cells]
        prov = dict(self.cell_provenance)
        for key, value in changes.items():
            parts = key.split("/") if len(self.axes) == 2 else [key]
            if len(self.axes) == 2 and len(parts) != 2:
                raise InvalidInput(f"table {self.id}: cell key {key!r} must be row/column")
            indices = []
            for axis, part in zip(self.axes, parts, strict=True):
                if part not in axis.labels:
                    raise InvalidInput(
                        f"table {self.id}: {part!r} is not a {axis.name} label; "
                        f"labels are {list(axis.labels)}"
                    )
                indices.append(axis.labels.index(part))
            if len(indices) == 1:
                cells[indices[0]] = value
            else:
                cells[indices[0]][indices[1]] = value
            prov[key] = HOUSE
        return replace(self, cells=cells, cell_provenance=prov)

    # -- data ---------------------------------------------------------------------------
    @classmethod
    def from_data(cls, table_id: str, data: dict[str, Any]) -> Table:
        try:
            axes = tuple(Axis.from_data(a) for a in data["axes"])
            return cls(
                id=table_id,
                title=str(data.get("title", table_id)),
                axes=axes,
                cells=list(data["cells"]),
                kind=str(data.get("kind", "grid")),
                aliases=tuple(str(a) for a in data.get("aliases", [])),
                provenance=Provenance.from_data(data.get("provenance")),
                cell_provenance={
                    str(k): Provenance.from_data(v)
                    for k, v in data.get("cell_provenance", {}).items()
                },
                symbols=dict(data.get("symbols", {})),
                result=str(data.get("result", "")),
                notes=tuple(str(n) for n in data.get("notes", [])),
                reference=str(data.get("reference", "")),
            )
        except KeyError as exc:
            hint = ""
            if any(isinstance(a, dict) and exc.args[0] in a for a in data.get("axes", [])):
                hint = (f" ({exc.args[0]} was read inside the last [[axes]] block: in TOML, put it"
                        " before the [[...axes]] blocks)")
            raise InvalidInput(f"table {table_id}: missing {exc.args[0]!r}{hint}") from exc

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"title": self.title, "kind": self.kind}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.reference:
            out["reference"] = self.reference
        out["provenance"] = self.provenance.to_dict()
        if self.result:
            out["result"] = self.result
        if self.symbols:
            out["symbols"] = dict(self.symbols)
        if self.notes:
            out["notes"] = list(self.notes)
        out["axes"] = [a.to_data() for a in self.axes]
        out["cells"] = self.cells
        if self.cell_provenance:
            out["cell_provenance"] = {k: v.to_dict() for k, v in self.cell_provenance.items()}
        return out


class TableSet:
    """The tables of a rule set, addressable by id or by any alias (``T4``, ``4.1``...)."""

    def __init__(self, tables: list[Table] | None = None) -> None:
        self._tables: dict[str, Table] = {}
        self._alias: dict[str, str] = {}
        for table in tables or []:
            self.add(table)

    def add(self, table: Table) -> None:
        if table.id in self._tables:
            raise InvalidInput(f"duplicate table id {table.id!r}")
        self._tables[table.id] = table
        for name in (table.id, *table.aliases):
            self._alias[name.lower()] = table.id

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._tables.values())

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._alias

    def resolve_id(self, name: str) -> str:
        try:
            return self._alias[name.lower()]
        except KeyError:
            known = ", ".join(sorted(self._tables))
            raise InvalidInput(f"no table {name!r}; tables are: {known}") from None

    def get(self, name: str) -> Table:
        return self._tables[self.resolve_id(name)]

    def with_overrides(self, overrides: dict[str, dict[str, Any]]) -> TableSet:
        """A copy where GM overrides (table id -> {cell key -> value}) replace cells."""
        if not overrides:
            return self
        out = TableSet()
        for table in self._tables.values():
            changes = overrides.get(table.id)
            out.add(table.with_cells(changes) if changes else table)
        return out

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> TableSet:
        """Load ``{"tables": {id: {...}}}`` as read from a TOML file."""
        tables = data.get("tables", {})
        if not isinstance(tables, dict):
            raise InvalidInput("'tables' must be a table of tables")
        return cls([Table.from_data(tid, body) for tid, body in tables.items()])
