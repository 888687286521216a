"""Map knowledge. The seed has no map, so the program never guesses one.

Hex ids are free text (the map's numbers, or its lettered reference hexes such as "M").
What the rules need to know about the map comes from three places, in this order:

1. the grid, when the GM chose four-digit column-row numbering at set-up (option
   ``hex_grid``): adjacency, range and hexside directions are then computed;
2. what the GM has already said, kept in the campaign (records ``hexes``, ``letters`` and
   ``pairs``), whether typed with the ``map_hexes`` action or given as an earlier ruling;
3. otherwise a GM ruling (``ctx.ruling``), logged, and remembered in the same records so
   the same question is never asked twice.

Directions are numbered 0-5 clockwise from the top hexside (0 = N, 1 = NE, 2 = SE, 3 = S,
4 = SW, 5 = NW); the Facing rule [16.0] uses the same numbers.
"""

from __future__ import annotations

import math
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State

TERRAINS = ("clear", "village", "woods", "swamp", "river", "stream", "ford", "bridge", "lake", "sea")
ELEVATIONS = ("ground", "slope", "hilltop")
ALIASES = {"town": "village", "stream ford": "ford", "all-lake": "lake", "all-sea": "sea"}

# cube-coordinate steps for directions 0-5 on flat-topped columns (row numbers grow south)
_STEPS = ((0, 1, -1), (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0))


def norm(hex_id: str) -> str:
    text = str(hex_id).strip()
    if not text:
        raise InvalidInput("a hex id is empty")
    return text.upper() if text.isalpha() else text


def canon(state: State, hex_id: str) -> str:
    """The hex id used for everything: a lettered hex the GM has placed on the grid is
    replaced by its number."""
    h = norm(hex_id)
    mapped = state.records("letters").get(h)
    return str(mapped["hex"]) if mapped else h


def grid(state: State) -> str | None:
    mode = str(state.options.get("hex_grid", "gm"))
    return None if mode == "gm" else mode


def _coords(h: str, mode: str) -> tuple[int, int, int] | None:
    if not h.isdigit() or len(h) < 4 or len(h) % 2:
        return None
    half = len(h) // 2
    col, row = int(h[:half]), int(h[half:])
    x = col
    if mode == "odd-q":
        z = row - (col - (col & 1)) // 2
    else:
        z = row - (col + (col & 1)) // 2
    return x, -x - z, z


def grid_distance(a: str, b: str, mode: str) -> int | None:
    ca, cb = _coords(a, mode), _coords(b, mode)
    if ca is None or cb is None:
        return None
    return max(abs(ca[i] - cb[i]) for i in range(3))


def grid_direction(a: str, b: str, mode: str) -> int | None:
    """The direction 0-5 from *a* to the adjacent hex *b* (None if not adjacent)."""
    ca, cb = _coords(a, mode), _coords(b, mode)
    if ca is None or cb is None:
        return None
    delta = tuple(cb[i] - ca[i] for i in range(3))
    return _STEPS.index(delta) if delta in _STEPS else None


def grid_bearing(a: str, b: str, mode: str) -> float | None:
    """The angle (degrees, clockwise from north) of the line from the centre of *a* to the
    centre of *b*."""
    ca, cb = _coords(a, mode), _coords(b, mode)
    if ca is None or cb is None:
        return None
    dq, dr = cb[0] - ca[0], cb[2] - ca[2]
    x = 1.5 * dq
    y = -(math.sqrt(3) / 2 * dq + math.sqrt(3) * dr)
    return math.degrees(math.atan2(x, y)) % 360


def grid_neighbour(h: str, direction: int, mode: str) -> str | None:
    c = _coords(h, mode)
    if c is None:
        return None
    step = _STEPS[direction % 6]
    x, z = c[0] + step[0], c[2] + step[2]
    col = x
    row = z + ((col - (col & 1)) // 2 if mode == "odd-q" else (col + (col & 1)) // 2)
    if col < 0 or row < 0:
        return None
    half = len(h) // 2
    return f"{col:0{half}d}{row:0{half}d}"


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
def known_distance(state: State, a: str, b: str) -> int | None:
    a, b = canon(state, a), canon(state, b)
    if a == b:
        return 0
    mode = grid(state)
    if mode:
        d = grid_distance(a, b, mode)
        if d is not None:
            return d
    rec = _pair(state, a, b)
    if "d" in rec:
        return int(rec["d"])
    if rec.get("adj") is True:
        return 1
    return None


def distance(ctx: Ctx, a: str, b: str, why: str = "") -> int:
    """Hexes from *a* to *b*, counting *b* and not *a* (the range of [3.35])."""
    a, b = canon(ctx.state, a), canon(ctx.state, b)
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
    a, b = canon(ctx.state, a), canon(ctx.state, b)
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
    a, b = canon(ctx.state, a), canon(ctx.state, b)
    if a == b:
        return n >= 0
    d = known_distance(ctx.state, a, b)
    if d is not None:
        return d <= n
    if n >= 1 and _pair(ctx.state, a, b).get("adj") is True:
        return True
    if n == 1:
        return adjacent(ctx, a, b, why)
    return distance(ctx, a, b, why) <= n


def direction(ctx: Ctx, a: str, b: str) -> int:
    """The hexside 0-5 of *a* that faces the adjacent hex *b*."""
    a, b = canon(ctx.state, a), canon(ctx.state, b)
    mode = grid(ctx.state)
    if mode:
        d = grid_direction(a, b, mode)
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
    a, b = canon(ctx.state, a), canon(ctx.state, b)
    mode = grid(ctx.state)
    if mode:
        d = grid_direction(a, b, mode)
        if d is not None:
            return (d - facing) % 6 in (0, 1, 5)
        bearing = grid_bearing(a, b, mode)
        if bearing is not None:
            off = abs((bearing - facing * 60 + 180) % 360 - 180)
            if abs(off - 90) > 1e-6:
                return off < 90
    elif known_distance(ctx.state, a, b) == 1:
        return (direction(ctx, a, b) - facing) % 6 in (0, 1, 5)
    return bool(
        ctx.ruling(
            f"front:{a}:{facing}/{b}",
            f"{what}: does {b} lie through a front hexside of a unit in {a} facing hexside {facing}?",
            info=("front = the facing hexside and the two beside it [16.0]",),
        )
    )


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
    return dict(state.records("hexes").get(canon(state, h), {}))


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
    if not raw and ctx.var("default_terrain"):
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
    h = norm(h)
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
