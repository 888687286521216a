"""Map knowledge. The seed has no map, so the program never guesses one.

Hex ids are the map's column-row numbers (``0507``) or its lettered reference hexes (``M``).
Geometry comes from the engine's board (:mod:`campaign_tui.core.board`): option ``hex_grid``
names the numbering, odd-q by DEFAULT (the mapsheet was never found, digest G-27). What the
rules need to know about the map comes from, in this order:

1. the grid: adjacency, range and hexside directions are computed from hex numbers;
2. the map facts the campaign holds: records ``hexes``, ``letters`` and ``pairs`` written by
   the ``map_hexes`` action or an earlier ruling, and the engine's ``map`` records (an
   imported map file, ``gm.map_fact``);
3. otherwise a GM ruling (``ctx.ruling``), logged, and remembered in the same records so
   the same question is never asked twice: where a lettered hex lies on the grid, and (only
   with ``hex_grid = gm``, for maps whose hexes are not numbered) adjacency and range.

Directions are numbered 0-5 clockwise from the top hexside (0 = N, 1 = NE, 2 = SE, 3 = S,
4 = SW, 5 = NW); the Facing rule [16.0] uses the same numbers.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.board import Board, HexGrid, facts
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State

TERRAINS = ("clear", "village", "woods", "swamp", "river", "stream", "ford", "bridge", "lake", "sea")
ELEVATIONS = ("ground", "slope", "hilltop")
ALIASES = {"town": "village", "stream ford": "ford", "all-lake": "lake", "all-sea": "sea"}
GRIDS = {
    layout: HexGrid(layout, letters=True, default=True, note="PRESTAGS mapsheet: numbering not in the seed")
    for layout in ("odd-q", "even-q")
}
ANY_HEX = HexGrid(letters=True)


def norm(hex_id: str) -> str:
    text = str(hex_id).strip()
    if not text:
        raise InvalidInput("a hex id is empty")
    return text.upper() if text.isalpha() else text


def check(state: State, hex_id: str, what: str = "hex") -> str:
    """A hex of this map (a column-row number or a lettered hex), or InvalidInput with the
    reason and the valid forms."""
    return (geometry(state) or ANY_HEX).check(norm(hex_id), what)


def board(state: State) -> Board:
    """The mapsheet for the engine: its grid and the hexes the campaign knows (lettered
    hexes placed on the grid carry their letter)."""
    places = {h: dict(f) for h, f in state.records("hexes").items()}
    for letter, rec in state.records("letters").items():
        places.setdefault(str(rec.get("hex")), {})["letter"] = letter
    return Board(title="PRESTAGS mapsheet", grid=geometry(state) or ANY_HEX, places=places)


def canon(state: State, hex_id: str) -> str:
    """The hex id used for everything: a lettered hex the GM has placed on the grid is
    replaced by its number. Anything that is not a hex of this map is refused."""
    h = check(state, hex_id)
    mapped = state.records("letters").get(h)
    if mapped:
        return str(mapped["hex"])
    if h.isalpha():
        return facts.letter_hex(state, h) or h
    return h


def grid(state: State) -> str | None:
    mode = str(state.options.get("hex_grid", "odd-q"))
    return None if mode == "gm" else mode


def geometry(state: State) -> HexGrid | None:
    mode = grid(state)
    return GRIDS.get(mode) if mode else None


def place_letter(ctx: Ctx, letter: str, why: str = "") -> str:
    """The numbered hex of lettered hex *letter*: known, or asked once (a map fact)."""
    h = canon(ctx.state, letter)
    if not h.isalpha():
        return h
    answer = ctx.ruling(
        f"letter:{h}",
        f"Which numbered hex is lettered hex {h} on the mapsheet?" + (f" ({why})" if why else ""),
        answer_kind="text",
        info=("write its column-row number, e.g. 1207; it is remembered for the campaign",),
    )
    number = (geometry(ctx.state) or ANY_HEX).check(str(answer), f"lettered hex {h}")
    if number.isalpha():
        raise InvalidInput(f"lettered hex {h}: give its column-row number, not another letter")
    if may_cache(ctx):
        ctx.put_record("letters", h, {"hex": number})
    return number


def _pair_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def _pair(state: State, a: str, b: str) -> dict[str, Any]:
    return state.records("pairs").get(_pair_key(a, b), {})


def may_cache(ctx: Ctx) -> bool:
    """False inside a secret action (a side's plot): what the GM says about the map then must
    not show in the public records, where it would hint at the plot; it is asked again when
    the plot is carried out."""
    return ctx.visibility == "public"


def _remember(ctx: Ctx, a: str, b: str, **facts: Any) -> None:
    if not may_cache(ctx):
        return
    key = _pair_key(a, b)
    rec = dict(ctx.state.records("pairs").get(key, {}))
    rec.update(facts)
    ctx.put_record("pairs", key, rec)


# -- distance and adjacency ----------------------------------------------------------------------
def _numbered(ctx: Ctx, a: str, b: str, why: str) -> tuple[str, str]:
    """Both hexes as numbers when the grid is on (a lettered hex is placed once)."""
    a, b = canon(ctx.state, a), canon(ctx.state, b)
    if geometry(ctx.state) is not None:
        if a.isalpha():
            a = place_letter(ctx, a, why)
        if b.isalpha():
            b = place_letter(ctx, b, why)
    return a, b


def known_distance(state: State, a: str, b: str) -> int | None:
    a, b = canon(state, a), canon(state, b)
    if a == b:
        return 0
    g = geometry(state)
    if g is not None and g.parse(a) and g.parse(b):
        return g.distance(a, b)
    rec = _pair(state, a, b)
    if "d" in rec:
        return int(rec["d"])
    if rec.get("adj") is True:
        return 1
    return None


def hex_range(ctx: Ctx, a: str, b: str, why: str = "") -> int:
    """Hexes from *a* to *b*, counting *b* and not *a* (the range of [3.35])."""
    a, b = _numbered(ctx, a, b, why)
    d = known_distance(ctx.state, a, b)
    if d is not None:
        return d
    lo, hi = sorted((a, b))
    answer = ctx.ruling(
        f"dist:{lo}/{hi}",
        f"How many hexes from {lo} to {hi}?" + (f" ({why})" if why else ""),
        answer_kind="number",
        info=("count the far hex, not the near one; adjacent hexes are 1",),
    )
    d = int(answer)
    if d < 1:
        raise InvalidInput(f"{lo} and {hi} are different hexes: the distance is at least 1")
    _remember(ctx, a, b, d=d, adj=d == 1)
    return d


def adjacent(ctx: Ctx, a: str, b: str, why: str = "") -> bool:
    a, b = _numbered(ctx, a, b, why)
    if a == b:
        return False
    d = known_distance(ctx.state, a, b)
    if d is not None:
        return d == 1
    rec = _pair(ctx.state, a, b)
    if "adj" in rec:
        return bool(rec["adj"])
    lo, hi = sorted((a, b))
    value = bool(
        ctx.ruling(f"adj:{lo}/{hi}", f"Are hexes {lo} and {hi} adjacent?" + (f" ({why})" if why else ""))
    )
    if value:
        _remember(ctx, a, b, adj=True, d=1)
    else:
        _remember(ctx, a, b, adj=False)
    return value


def within(ctx: Ctx, a: str, b: str, n: int, why: str = "") -> bool:
    """Is *b* at most *n* hexes from *a*?"""
    a, b = _numbered(ctx, a, b, why)
    if a == b:
        return n >= 0
    d = known_distance(ctx.state, a, b)
    if d is not None:
        return d <= n
    if n >= 1 and _pair(ctx.state, a, b).get("adj") is True:
        return True
    if n == 1:
        return adjacent(ctx, a, b, why)
    return hex_range(ctx, a, b, why) <= n


def direction(ctx: Ctx, a: str, b: str) -> int:
    """The hexside 0-5 of *a* that faces the adjacent hex *b*."""
    a, b = _numbered(ctx, a, b, "facing")
    g = geometry(ctx.state)
    if g is not None and g.parse(a) and g.parse(b):
        d = g.direction(a, b)
        if d is not None:
            return d
    rec = _pair(ctx.state, a, b)
    if "dir" in rec:
        lo, _hi = sorted((a, b))
        base = int(rec["dir"])
        return base if a == lo else (base + 3) % 6
    answer = ctx.ruling(
        f"dir:{a}/{b}",
        f"Which hexside of {a} faces {b}?",
        answer_kind="choice",
        options=("0", "1", "2", "3", "4", "5"),
        info=("0 = top (north), then clockwise: 1 NE, 2 SE, 3 S, 4 SW, 5 NW",),
    )
    d = int(answer)
    lo, _hi = sorted((a, b))
    _remember(ctx, a, b, adj=True, d=1, dir=d if a == lo else (d + 3) % 6)
    return d


def in_front(ctx: Ctx, a: str, facing: int, b: str, what: str) -> bool:
    """With Facing [16.0]: does *b* lie through one of the three front hexsides of a unit
    in *a* faced toward hexside *facing*?"""
    a, b = _numbered(ctx, a, b, what)
    g = geometry(ctx.state)
    if g is not None and g.parse(a) and g.parse(b):
        front = g.in_front(a, facing, b)
        if front is not None:
            return front
    elif known_distance(ctx.state, a, b) == 1:
        return (direction(ctx, a, b) - facing) % 6 in (0, 1, 5)
    return bool(
        ctx.ruling(
            f"front:{a}:{facing}/{b}",
            f"{what}: does {b} lie through a front hexside of a unit in {a} facing hexside {facing}?",
            info=("front = the facing hexside and the two beside it [16.0]",),
        )
    )


def line_of_sight(state: State, firer: str, target: str, occupied: set[str]) -> bool | None:
    """[6.32]-[6.38] from the map, where it can be: a firer at ground level looking across
    hexes whose terrain and elevation are known. Any occupied hex, village, woods or slope
    between blocks; a line along a hexside is clear if either side is [6.38]. None when the
    map does not say (a GM ruling)."""
    g = geometry(state)
    a, b = canon(state, firer), canon(state, target)
    if g is None or not (g.parse(a) and g.parse(b)):
        return None
    if _elevation_known(state, a) != "ground":
        return None
    verdicts = []
    for side in (1, -1):
        between = g.line(a, b, side)[1:-1]
        looks = [(_terrain_known(state, h), _elevation_known(state, h)) for h in between]
        if any(t is None or e is None for t, e in looks):
            return None
        verdicts.append(not any(h in occupied or t in ("village", "woods") or e == "slope"
                                for h, (t, e) in zip(between, looks, strict=True)))
    return any(verdicts)


def _terrain_known(state: State, h: str) -> str | None:
    raw = known_hex(state, h).get("terrain") or state.vars.get("default_terrain")
    return effective(state, str(raw), "ground")[0] if raw else None


def _elevation_known(state: State, h: str) -> str | None:
    rec = known_hex(state, h)
    raw = rec.get("elevation") or ("ground" if state.vars.get("default_terrain") else None)
    if raw is None and _elevations_ignored(state):
        return "ground"
    return effective(state, "clear", str(raw))[1] if raw else None


def _elevations_ignored(state: State) -> bool:
    """The scenario ignores slopes and hilltops: every hex is at ground level."""
    return all(effective(state, "clear", e)[1] == "ground" for e in ELEVATIONS)


# -- terrain -------------------------------------------------------------------------------------
def _mods(state: State) -> dict[str, Any]:
    return dict(state.vars.get("terrain_mods", {}))


def effective(state: State, terrain: str, elevation: str) -> tuple[str, str]:
    """Apply the scenario's terrain modifications (ignore, keep only, replace)."""
    mods = _mods(state)
    terrain = ALIASES.get(terrain, terrain)
    terrain = str(mods.get("replace", {}).get(terrain, terrain))
    keep = mods.get("keep")
    ignore = set(mods.get("ignore", []))
    if keep is not None:
        ignore |= {t for t in (*TERRAINS, "slope", "hilltop") if t not in keep}
    if terrain in ignore:
        terrain = "clear"
    if elevation in ignore:
        elevation = "ground"
    return terrain, elevation


def prohibited_by_scenario(state: State, terrain: str, elevation: str) -> bool:
    banned = set(_mods(state).get("prohibit", []))
    return terrain in banned or elevation in banned


def known_hex(state: State, h: str) -> dict[str, Any]:
    """What the campaign knows of a hex: its own records, with the engine's map facts (an
    imported map file, a GM correction) on top."""
    key = canon(state, h)
    return facts.merge(state.records(facts.COLLECTION), key, state.records("hexes").get(key, {}))


def terrain(ctx: Ctx, h: str, why: str = "") -> str:
    """The hex's terrain (clear, woods, village...), after the scenario's modifications."""
    h = canon(ctx.state, h)
    rec = known_hex(ctx.state, h)
    raw = rec.get("terrain") or ctx.var("default_terrain")
    if not raw:
        raw = ctx.ruling(
            f"terrain:{h}",
            f"What is the terrain of hex {h}?" + (f" ({why})" if why else ""),
            answer_kind="choice",
            options=TERRAINS,
            info=("the main terrain, leaving out slopes, hilltops and roads",),
        )
        rec["terrain"] = str(raw)
        if may_cache(ctx):
            ctx.put_record("hexes", h, rec)
    return effective(ctx.state, str(raw), "ground")[0]


def elevation(ctx: Ctx, h: str, why: str = "") -> str:
    """ground, slope or hilltop [14.0], after the scenario's modifications."""
    h = canon(ctx.state, h)
    rec = known_hex(ctx.state, h)
    raw = rec.get("elevation")
    if not raw and (ctx.var("default_terrain") or _elevations_ignored(ctx.state)):
        raw = "ground"
    if not raw:
        raw = ctx.ruling(
            f"elevation:{h}",
            f"Is hex {h} ground level, slope or hilltop?" + (f" ({why})" if why else ""),
            answer_kind="choice",
            options=ELEVATIONS,
            info=("hexes beside dark-border slope hexsides are hilltops [14.0]",),
        )
        rec["elevation"] = str(raw)
        if may_cache(ctx):
            ctx.put_record("hexes", h, rec)
    return effective(ctx.state, "clear", str(raw))[1]


def record_hex(ctx: Ctx, h: str, **facts: Any) -> dict[str, Any]:
    """Write what the GM says about a hex (map_hexes action)."""
    h = check(ctx.state, h)
    rec = dict(ctx.state.records("hexes").get(h, {}))
    for key, value in facts.items():
        if value in (None, ""):
            continue
        if key == "terrain":
            value = ALIASES.get(str(value), str(value))
            if value not in TERRAINS:
                raise InvalidInput(f"terrain {value!r}: use one of {', '.join(TERRAINS)}")
        if key == "elevation" and value not in ELEVATIONS:
            raise InvalidInput(f"elevation {value!r}: use one of {', '.join(ELEVATIONS)}")
        rec[key] = value
    ctx.put_record("hexes", h, rec)
    return rec


# -- rivers (Viking [3.13]) --------------------------------------------------------------------------
RIVER_WATER = ("river", "ford", "bridge")


def river_of(ctx: Ctx, h: str, why: str = "") -> str:
    """The river a river, ford or bridge hex lies on: the map fact ``river`` (a name, or true
    for a map with one river), asked once as a GM ruling when the map does not say."""
    h = canon(ctx.state, h)
    known = known_hex(ctx.state, h).get("river")
    if known is True:
        return "river"
    if known:
        return str(known)
    answer = facts.ask(
        ctx,
        h,
        "river",
        f"Which river runs through hex {h}?" + (f" ({why})" if why else ""),
        answer_kind="text",
        info=("its name; hexes side by side on the same river are linked along its course",),
        convert=lambda v: str(v).strip() or "river",
    )
    return str(answer)


def along_river(ctx: Ctx, a: str, b: str, why: str = "") -> bool:
    """Viking [3.13]: a fleet going from one river-borne hex (river, ford, bridge) to an
    adjacent one follows the river's course: both lie on the same river."""
    return river_of(ctx, a, why) == river_of(ctx, b, why)
