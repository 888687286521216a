"""Map files: a map's numbering, extent and facts in TOML, to ship in a rule set's data,
import into a campaign, export from one and keep in the user's map library.

    [map]
    title = "Ku Crassus (demonstration layout)"
    kind = "hex"                 # "hex" or "graph"
    numbering = "odd-q"          # odd-q | even-q
    columns = [1, 24]            # optional extent; wrap = true joins the last column to the first
    rows = [1, 16]
    wrap = true
    provenance = "demo"          # rulebook, external, default, demo, house
    note = "not the printed map"

    [hexes."0507"]               # any map fact: terrain, elevation, road, river, area,
    terrain = "woods"            # objective, name, letter, pieces, owner...
    letter = "M"

    [places.regina]              # graph maps: the places (nodes)
    name = "Regina"
    hex = "2314"                 # where it is drawn (optional)

    [[routes]]                   # graph maps: the links between places
    from = "regina"
    to = "rhylanor"
    weight = 1

A bad file is refused whole, with its name, the line and the problem.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from campaign_tui.core.board.graph import Edge, GraphMap
from campaign_tui.core.board.hexgrid import LAYOUTS, HexGrid
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.provenance import GRADES

KINDS = ("hex", "graph")
_MAP_KEYS = {"title", "kind", "numbering", "columns", "rows", "wrap", "provenance", "note",
             "default_terrain", "digits", "letters", "ruleset"}


class MapFileError(InvalidInput):
    """A map file that cannot be used: names the file, the line and the problem."""


@dataclass
class MapFile:
    meta: dict[str, Any] = field(default_factory=dict)
    hexes: dict[str, dict[str, Any]] = field(default_factory=dict)
    places: dict[str, dict[str, Any]] = field(default_factory=dict)
    routes: list[dict[str, Any]] = field(default_factory=list)
    name: str = "<map>"

    @property
    def title(self) -> str:
        return str(self.meta.get("title", self.name))

    @property
    def kind(self) -> str:
        return str(self.meta.get("kind", "graph" if self.places and not self.hexes else "hex"))

    def grid(self) -> HexGrid:
        cols = self.meta.get("columns") or [None, None]
        rows = self.meta.get("rows") or [None, None]
        return HexGrid(layout=str(self.meta.get("numbering", "odd-q")), first_col=cols[0],
                       last_col=cols[1], first_row=rows[0], last_row=rows[1],
                       wrap=bool(self.meta.get("wrap", False)),
                       digits=int(self.meta.get("digits", 2)),
                       letters=bool(self.meta.get("letters", False)),
                       default=self.meta.get("provenance") in ("default", "demo"))

    def graph(self) -> GraphMap:
        edges = [Edge(str(r["from"]), str(r["to"]), float(r.get("weight", 1)),
                      str(r.get("id", "")), {k: v for k, v in r.items()
                                              if k not in ("from", "to", "weight", "id")})
                 for r in self.routes]
        return GraphMap(self.places, edges)

    def facts(self) -> dict[str, dict[str, Any]]:
        """Place id -> facts, hexes and places together."""
        out = {h: dict(f) for h, f in self.hexes.items()}
        for pid, f in self.places.items():
            out.setdefault(pid, {}).update(f)
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"map": dict(self.meta)}
        if self.hexes:
            out["hexes"] = self.hexes
        if self.places:
            out["places"] = self.places
        if self.routes:
            out["routes"] = self.routes
        return out

    def dumps(self) -> str:
        head = f"# {self.title}: a campaign-tui map file (see README, \"Map files\")\n"
        return head + tomli_w.dumps(_plain(self.to_dict()))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _line_of(text: str, *needles: str) -> int:
    """The first line holding every needle (1-based); 1 when not found."""
    for n, line in enumerate(text.splitlines(), 1):
        if all(x in line for x in needles):
            return n
    return 1


def parse_map(text: str, name: str = "<map>") -> MapFile:
    """Read a map file's text; MapFileError naming *name*, the line and the problem."""

    def fail(line: int, problem: str) -> MapFileError:
        return MapFileError(f"{name}, line {line}: {problem}")

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = int(m.group(1)) if m else 1
        raise fail(line, f"not valid TOML: {str(exc).split(' (at line')[0]}") from None
    unknown = set(data) - {"map", "hexes", "places", "routes"}
    if unknown:
        key = sorted(unknown)[0]
        raise fail(_line_of(text, key), f"unknown table {key!r}; a map file has [map], [hexes.ID], "
                   "[places.ID] and [[routes]]")
    meta = data.get("map", {})
    if not isinstance(meta, dict):
        raise fail(_line_of(text, "map"), "map must be a table: [map]")
    for key in meta:
        if key not in _MAP_KEYS:
            raise fail(_line_of(text, key), f"[map] has no setting {key!r}; settings: "
                       f"{', '.join(sorted(_MAP_KEYS))}")
    if meta.get("kind", "hex") not in KINDS:
        raise fail(_line_of(text, "kind"), f"kind {meta['kind']!r}: use hex or graph")
    if meta.get("numbering", "odd-q") not in LAYOUTS:
        raise fail(_line_of(text, "numbering"), f"numbering {meta['numbering']!r}: use "
                   f"{' or '.join(LAYOUTS)}")
    if meta.get("provenance", "demo") not in GRADES:
        raise fail(_line_of(text, "provenance"), f"provenance {meta['provenance']!r}: use one of "
                   f"{', '.join(GRADES)}")
    for key in ("columns", "rows"):
        span = meta.get(key)
        if span is not None and not (isinstance(span, list) and len(span) == 2
                                     and all(isinstance(v, int) and v >= 0 for v in span)
                                     and span[0] <= span[1]):
            raise fail(_line_of(text, key), f"{key} must be [first, last], two whole numbers")
    mf = MapFile(meta=dict(meta), name=name)
    try:
        grid = mf.grid()
    except InvalidInput as exc:
        raise fail(_line_of(text, "wrap"), str(exc)) from None
    for hex_id, facts in (data.get("hexes") or {}).items():
        line = _line_of(text, "hexes", hex_id)
        if not isinstance(facts, dict):
            raise fail(line, f"hex {hex_id}: write its facts as a table [hexes.\"{hex_id}\"]")
        try:
            grid.check(hex_id, "hex")
        except InvalidInput as exc:
            raise fail(line, str(exc)) from None
        mf.hexes[hex_id] = dict(facts)
    for pid, facts in (data.get("places") or {}).items():
        if not isinstance(facts, dict):
            raise fail(_line_of(text, "places", pid), f"place {pid}: write it as a table [places.{pid}]")
        mf.places[pid] = dict(facts)
    routes = data.get("routes") or []
    if not isinstance(routes, list):
        raise fail(_line_of(text, "routes"), "routes must be written [[routes]]")
    for n, r in enumerate(routes, 1):
        if not isinstance(r, dict) or "from" not in r or "to" not in r:
            raise fail(_line_of(text, "[[routes]]"), f"route {n} needs from and to")
        for end in (r["from"], r["to"]):
            if mf.places and str(end) not in mf.places:
                raise fail(_line_of(text, f'"{end}"'), f"route {n}: no place {end!r} in [places]")
        weight = r.get("weight", 1)
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
            raise fail(_line_of(text, "weight"), f"route {n}: weight must be a number >= 0")
        mf.routes.append(dict(r))
    return mf


def load_map(path: Path | str) -> MapFile:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise MapFileError(f"{p}: cannot read the map file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise MapFileError(f"{p}, line 1: not UTF-8 text") from None
    return parse_map(text, str(p))
