"""The shape of a structured parameter (a list, a table, a record) and how its value is read,
written and said in words.

Parameters typed ``list`` or ``json`` are not typed as text in the TUI: each gets a
structured editor (:mod:`campaign_tui.ui.screens.editor`) built from a :class:`Shape`. The
values produced are exactly the forms the engine already accepts (a list, a dict, a list of
``CODE:N``); values given in the old forms (JSON text, comma lists) are read back.

The known parameters of the five rule sets are listed in :data:`KNOWN`; any other ``list``
is a list of words (or of the rule set's candidates), any other ``json`` a single value.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from campaign_tui.core.typed_text import split_list

if TYPE_CHECKING:
    from campaign_tui.core.actions import Param
    from campaign_tui.core.model import State

# the current view and the form's other values -> the ids that fit
Source = Callable[["State", dict[str, Any]], list[str]]

SCALARS = ("int", "bool", "text", "choice", "unit", "hex", "side", "value")


@dataclass(frozen=True)
class Shape:
    """``kind``: list | map | record | int | bool | text | choice | unit | hex | side | value."""

    kind: str
    item: Shape | None = None                 # a list's items, a map's values
    key: Shape | None = None                  # a map's keys
    fields: tuple[tuple[str, Shape], ...] = ()  # a record's fields
    choices: tuple[str, ...] = ()
    source: Source | None = field(default=None, compare=False)  # units/choices that fit now
    out: str = ""                             # "codes": a map written as ["K:N", ...]
    help: str = ""

    @property
    def scalar(self) -> bool:
        return self.kind in SCALARS

    def options(self, view: State, params: dict[str, Any]) -> list[str] | None:
        """The values an item may take (None: anything typed)."""
        if self.source is not None:
            found: list[str] = []
            with contextlib.suppress(Exception):  # a hint only; the engine checks
                found = list(self.source(view, params))
            if found:  # none fit now (no battle yet): any unit may be named
                return found
        if self.choices:
            return list(self.choices)
        if self.kind == "unit":
            return list(view.units)
        if self.kind == "side":
            return list(view.sides)
        return None


def _battle_units(side: str | None = None) -> Source:
    """Star Cruiser Lite: the ships and facilities in the battle being fought (of one side)."""
    def source(view: State, params: dict[str, Any]) -> list[str]:
        units = (view.vars.get("battle") or {}).get("units") or {}
        return [u for u, d in units.items() if side is None or d.get("side") == side]
    return source


def _combat_units(view: State, params: dict[str, Any]) -> list[str]:
    """Prefect: the units of the task forces in the combat waiting for a result."""
    c = view.vars.get("combat") or {}
    forces = [*c.get("attackers", []), c.get("defender")]
    return [u.id for u in view.units.values() if u.formation in forces]


def _force_units(view: State, params: dict[str, Any]) -> list[str]:
    """The units of the task force named by the form's ``tf`` field."""
    tf = params.get("tf")
    return [u.id for u in view.units.values() if tf and u.formation == tf]


INT, BOOL, TEXT, HEX, UNIT, SIDE = (Shape("int"), Shape("bool"), Shape("text"), Shape("hex"),
                                    Shape("unit"), Shape("side"))


def units_of(source: Source | None = None, help: str = "") -> Shape:
    return Shape("list", item=Shape("unit", source=source), help=help)


BREAKOFF = Shape("record", fields=(
    ("damaged_pct", Shape("int", help="break off when this % of ships are damaged")),
    ("destroyed_pct", Shape("int", help="break off when this % of ships are destroyed")),
    ("flagship_lost", Shape("bool", help="break off when the flagship is lost")),
    ("round", Shape("int", help="break off after this round")),
    ("salvoes_spent", Shape("bool", help="break off when the salvoes are spent")),
    ("never", Shape("bool", help="fight to the end")),
))
SCL_STATS = ("bm", "sb", "mi", "sv", "df", "sc", "sn", "mv")
STAT_POINTS = Shape("map", key=Shape("choice", choices=SCL_STATS), item=INT)
PREFECT_TERRAIN = ("clear", "forest", "urban", "rough", "sink holes", "water", "craters",
                   "desert/lava flow", "jungle", "mountains/volcano", "swamp")  # T3
SYSTEM = Shape("text", help="a system's code, e.g. LB, T, ICM")
SSW_FLAGS = ("ccs_hit", "nav_hit", "fire", "dcr_hit", "power_short", "disastrous_fire")

# (action kind or "*", parameter name) -> shape
KNOWN: dict[tuple[str, str], Shape] = {
    # Star Cruiser Lite
    ("set_tf_order", "patrols"): Shape("list", item=units_of(_force_units),
                                       help="each patrol: the ships that form it"),
    ("set_tf_order", "special"): Shape("list", item=Shape("choice", choices=(
        "mining_deploy", "mining_clear", "repair", "survey", "deploy_facility",
        "remove_facility"))),
    ("*", "breakoff"): BREAKOFF,
    ("*", "threshold"): BREAKOFF,
    ("cmb_pair", "pairs"): Shape("list", item=Shape("record", fields=(
        ("a", units_of(_battle_units("A"), "side A's ships")),
        ("b", units_of(_battle_units("B"), "side B's ships"))))),
    ("cmb_result", "destroyed"): units_of(_battle_units()),
    ("cmb_result", "retreated"): units_of(_battle_units()),
    ("cmb_result", "damage"): Shape("map", key=Shape("unit", source=_battle_units()),
                                    item=STAT_POINTS),
    ("*", "has"): STAT_POINTS,
    ("note_event", "to"): Shape("list", item=SIDE),
    ("set_system", "links"): Shape("list", item=TEXT, help="a linked system's id"),
    # Prefect
    ("resolve_externally", "results"): Shape("map", key=Shape("unit", source=_combat_units),
                                             item=Shape("choice", choices=(
                                                 "unharmed", "disrupted", "destroyed"))),
    ("*", "path"): Shape("list", item=HEX, help="hexes entered, in order"),
    ("map_hex", "terrain"): Shape("list", item=Shape("choice", choices=PREFECT_TERRAIN)),
    ("map_hex", "adjacent"): Shape("list", item=HEX),
    # PRESTAGS
    ("*", "targets"): Shape("list", item=HEX),
    # Fifth Frontier War
    ("erase_plot", "turns"): Shape("list", item=INT),
    # Second Sathar War
    ("*", "hexes"): Shape("list", item=HEX),
    ("ship_damaged", "systems_out"): Shape("list", item=SYSTEM, help="one entry per mount"),
    ("ship_damaged", "flags"): Shape("list", item=Shape("choice", choices=SSW_FLAGS)),
    ("ship_damaged", "spent"): Shape("map", key=SYSTEM, item=INT, out="codes",
                                     help="ammunition used: code and number"),
    ("ship_damaged", "station_repair"): Shape("list", item=SYSTEM),
}


# typed as written in the game's own notation (a table cell such as ``0/0`` or ``3R``)
AS_WRITTEN = {("gm.edit_table", "value")}


def shape_for(kind: str, param: Param, candidates: list[str] | None = None) -> Shape | None:
    """The editor's shape for a structured parameter; None for the others."""
    if param.type not in ("list", "json") or (kind, param.name) in AS_WRITTEN:
        return None
    known = KNOWN.get((kind, param.name)) or KNOWN.get(("*", param.name))
    if known is not None:
        return known
    if param.type == "json":
        return Shape("value", help=param.help)
    if candidates is not None:
        return Shape("list", item=Shape("choice", choices=tuple(candidates)), help=param.help)
    return Shape("list", item=TEXT, help=param.help)


# -- reading and writing values -----------------------------------------------------------------
def read(shape: Shape, raw: Any) -> Any:
    """The structured value for *raw* (a value as the engine takes it, or old typed text)."""
    if raw is None or raw == "":
        return {} if shape.kind in ("map", "record") else [] if shape.kind == "list" else None
    if isinstance(raw, str) and raw.strip()[:1] in "[{":
        with contextlib.suppress(ValueError):
            raw = json.loads(raw)
    kind = shape.kind
    if kind == "list":
        items = split_list(raw) if not isinstance(raw, list) else raw
        return [read(shape.item, x) if shape.item is not None and not shape.item.scalar else x
                for x in items]
    if kind == "map" and shape.out == "codes" and not isinstance(raw, dict):
        out: dict[str, Any] = {}
        for item in split_list(raw):
            code, _, n = str(item).partition(":")
            out[code] = int(n) if n.isdigit() else n
        return out
    if kind in ("map", "record"):
        if not isinstance(raw, dict):
            return {}
        if kind == "map" and shape.item is not None and not shape.item.scalar:
            return {k: read(shape.item, v) for k, v in raw.items()}
        if kind == "record":
            sub = dict(shape.fields)
            return {k: read(sub[k], v) if k in sub and not sub[k].scalar else v
                    for k, v in raw.items()}
        return dict(raw)
    return raw


def write(shape: Shape, value: Any) -> Any:
    """The value in the form the engine accepts (None when empty)."""
    if shape.kind == "map" and shape.out == "codes":
        return [f"{k}:{v}" for k, v in (value or {}).items()] or None
    if shape.kind in ("list", "map", "record"):
        return value or None
    return value


def words(shape: Shape, value: Any, name: Callable[[str], str] = str) -> str:
    """The value said briefly, for the field's line: ``2 patrols: DD 1; DD 2, DD 3``."""
    kind = shape.kind
    if value in (None, "", [], {}):
        return "none"
    if kind == "list":
        item = shape.item or TEXT
        return "; ".join(words(item, x, name) for x in value)
    if kind == "map":
        key, item = shape.key or TEXT, shape.item or TEXT
        return "; ".join(f"{words(key, k, name)}: {words(item, v, name)}"
                         for k, v in value.items())
    if kind == "record":
        sub = dict(shape.fields)
        parts = []
        for k, v in value.items():
            label = k.replace("_", " ")
            if isinstance(v, bool):
                parts.append(label if v else f"not {label}")
            else:
                parts.append(f"{label} {words(sub.get(k, TEXT), v, name)}")
        return ", ".join(parts)
    if kind == "unit":
        return name(str(value))
    if kind == "bool" or isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
