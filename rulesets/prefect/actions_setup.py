"""Set-up (2.1) and the map knowledge the GM enters: placing task forces in alternation
inside the scenario's areas, placing bases, registering cities, entering hexes."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.board import facts
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State
from rulesets.prefect import candidates as C
from rulesets.prefect.board import TERRAINS, Board, hexid, map_board, other
from rulesets.prefect.common import actor_side, own_unit
from rulesets.prefect.rulings import area_of, norm_terrain, remember_hex, terrain_of


def unplaced(state: State, side: str | None = None) -> list[str]:
    """Ground forces still to be placed on the map in set-up."""
    out = []
    for f in state.formations.values():
        if f.kind not in ("tf", "independent") or f.location:
            continue
        if side and f.side != side:
            continue
        org = state.formations.get(f.parent or "")
        if org is not None and org.data.get("start", "map") != "map":
            continue
        if not any(u.formation == f.id for u in state.units.values()):
            continue
        out.append(f.id)
    return out


def unplaced_bases(state: State) -> list[str]:
    return [
        u.id
        for u in state.units.values()
        if u.data.get("needs_hex") and not u.location and not u.status.get("destroyed")
    ]


@action(
    "map_hex",
    "Enter map data for a hex",
    Param("hex", "hex", board=map_board),
    Param("terrain", "list", required=False, help="its terrain types (T3 names)"),
    Param("area", "int", required=False, min=1, max=10, help="its planetary area"),
    Param("adjacent", "list", required=False, help="its neighbouring hexes"),
    reference="G2",
    key="",
)
def map_hex(
    ctx: Ctx,
    hex: str,
    terrain: list[str] | None = None,
    area: int | None = None,
    adjacent: list[str] | None = None,
) -> None:
    """Record what the map shows for one hex; the program then stops asking about it."""
    h = hexid(hex, ctx.state)
    hexes = ctx.edit_var("hexes", {})
    info = hexes.setdefault(h, {})
    if terrain:
        info["terrain"] = [norm_terrain(t) for t in terrain]
    if area is not None:
        info["area"] = int(area)
    if adjacent is not None:
        adj = [hexid(a, ctx.state) for a in adjacent]
        info["adj"] = adj
        for a in adj:
            other_info = hexes.setdefault(a, {})
            if "adj" in other_info and h not in other_info["adj"]:
                other_info["adj"].append(h)
    ctx.summary(f"map data for hex {h}: {info}")


@action(
    "import_map",
    "Import map data",
    Param("map", help='TOML text: [hexes."0707"] terrain, area, adjacent, pieces'),
    reference="G2",
)
def import_map(ctx: Ctx, map: str) -> None:
    """Enter many hexes at once from a map file (campaign-tui act PATH import_map
    map=@kucrassus.toml). Each [hexes."ID"] may give terrain (T3 names), area (1-10) and
    adjacent hexes (only where the map differs from the grid) and pieces (the other pieces of
    a split hex). At the top, grid = "ccrr" says the hexes are numbered column-row (the
    default numbering, option hex_grid, is used), default_terrain names the terrain of every
    hex the file does not describe,
    and [area_columns] gives areas by column ranges (area = [first, last] column). Cities
    are listed under [cities.NAME] with hex and controller."""
    import tomllib

    try:
        data = tomllib.loads(map)
    except tomllib.TOMLDecodeError as exc:
        raise ActionRejected(f"the map file is not valid TOML: {exc}") from None
    grid = data.get("grid")
    if grid not in (None, "ccrr"):
        raise ActionRejected(f'grid {grid!r} is not known; use grid = "ccrr" or list adjacent hexes')
    if grid:
        ctx.set_var("grid", grid)
    if "default_terrain" in data:
        ctx.set_var("default_terrain", norm_terrain(str(data["default_terrain"])))
    if "area_columns" in data:
        if grid != "ccrr":
            raise ActionRejected('area_columns needs grid = "ccrr"')
        cols = {}
        for area, span in data["area_columns"].items():
            if not 1 <= int(area) <= 10 or len(span) != 2:
                raise ActionRejected(f"area_columns: {area} = {span} is not area = [first, last]")
            for c in range(int(span[0]), int(span[1]) + 1):
                cols[str(c)] = int(area)
        ctx.set_var("area_columns", cols)
    hexes = ctx.edit_var("hexes", {})
    count = 0
    for raw, body in data.get("hexes", {}).items():
        h = hexid(raw, ctx.state)
        info = hexes.setdefault(h, {})
        if "terrain" in body:
            kinds = body["terrain"] if isinstance(body["terrain"], list) else [body["terrain"]]
            info["terrain"] = [norm_terrain(t) for t in kinds]
        if "area" in body:
            area = int(body["area"])
            if not 1 <= area <= 10:
                raise ActionRejected(f"hex {h}: area {area} is not 1-10")
            info["area"] = area
        if "adjacent" in body:
            info["adj"] = [hexid(a, ctx.state) for a in body["adjacent"]]
        if "pieces" in body:
            info["pieces"] = [hexid(a, ctx.state) for a in body["pieces"]]
        count += 1
    for name, body in data.get("cities", {}).items():
        h = hexid(body["hex"], ctx.state)
        side = str(body.get("controller", ""))
        if side not in ("TOG", "CW"):
            raise ActionRejected(f"city {name}: controller must be TOG or CW")
        ctx.put_record(
            "cities",
            name.lower().replace(" ", "-"),
            {"name": name, "hex": h, "controller": side, "owner": side},
        )
    ctx.summary(f"map data imported: {count} hexes, {len(data.get('cities', {}))} cities")


@action(
    "register_city",
    "Register an urban area",
    Param("name"),
    Param("hex", "hex", board=map_board),
    Param("controller", "choice", choices=("TOG", "CW")),
    reference="3.4, G2",
)
def register_city(ctx: Ctx, name: str, hex: str, controller: str) -> None:
    """Cities are on the map only: enter each one with its hex and who holds it at the start."""
    h = hexid(hex, ctx.state)
    cid = name.lower().replace(" ", "-")
    ctx.put_record("cities", cid, {"name": name, "hex": h, "controller": controller, "owner": controller})
    remember_hex(ctx, h, terrain="urban")
    ctx.summary(f"urban area {name} in hex {h}, held by {controller}")


@action(
    "place_base",
    "Place a base on the map",
    Param("base", "unit", candidates=C.waiting_bases),
    Param("hex", "hex", board=map_board),
    reference="6.3, 6.4, G2",
)
def place_base(ctx: Ctx, base: str, hex: str) -> None:
    """Put a scenario base whose hex is on the (missing) scenario map into its hex."""
    board = Board.of(ctx)
    b = ctx.state.unit(base)
    if not b.data.get("needs_hex"):
        raise ActionRejected(f"{b.label} is not waiting for a hex")
    h = hexid(hex, ctx.state)
    area = int(b.data.get("area", 0))
    found = area_of(ctx, h, None) if area else None
    if area and found != area:
        raise ActionRejected(f"hex {h} is in area {found}, {b.label} belongs in area {area}")
    if board.bases_at(h):
        raise ActionRejected(f"hex {h} already holds a base")
    mb = ctx.unit(base)
    mb.location = f"hex:{h}"
    mb.data.pop("needs_hex", None)
    mb.data["placed"] = True
    ctx.summary(f"{b.label} placed in hex {h}")


def _check_area(
    ctx: Ctx, name: str, data: dict[str, Any], h: str, area: int | None, terrain: str | None, side: str
) -> None:
    areas = data.get("areas")
    if areas:
        found = area_of(ctx, h, area)
        if found not in areas:
            raise ActionRejected(f"{name} sets up in area {' or '.join(str(a) for a in areas)}, not {found}")
        line = data.get("line")
        if line and not facts.ask(ctx, h, line, f"Is hex {h} {line}?", answer_kind="bool",
                                  info=("remembered as a map fact; gm.map_fact corrects it",)):
            raise ActionRejected(f"hex {h} is not {line} (map fact)")
    elif area is not None:
        area_of(ctx, h, area)
    if data.get("no_water") and terrain_of(ctx, h, terrain, chooser=side) == "water":
        raise ActionRejected(f"{name} may not set up on Water")


@action(
    "place_tf",
    "Place a task force",
    Param("tf", "formation", candidates=C.waiting_forces),
    Param("hex", "hex", board=map_board),
    Param("area", "int", required=False, min=1, max=10, help="the planetary area of the hex, if asked"),
    Param("terrain", "choice", choices=TERRAINS, required=False, help="its terrain, if asked"),
    side="placer",
    reference="2.1 P_SETUP.3",
    key="p",
)
def place_tf(ctx: Ctx, tf: str, hex: str, area: int | None = None, terrain: str | None = None) -> None:
    """Place one of your task-force counters (or independent units) inside your set-up
    area; the players alternate one counter at a time, one task force per hex."""
    board = Board.of(ctx)
    side = ctx.role("placer")
    f = ctx.state.formation(tf)
    if f.side != side:
        raise ActionRejected(f"it is {side}'s turn to place")
    if f.location:
        raise ActionRejected(f"{f.name} is already placed")
    if tf not in unplaced(ctx.state, side):
        raise ActionRejected(f"{f.name} is not waiting to be placed")
    h = hexid(hex, ctx.state)
    if board.forces_at(h):
        raise ActionRejected(f"hex {h} already holds a task force")
    org = ctx.state.formations.get(f.parent or "")
    _check_area(ctx, f.name, org.data if org else {}, h, area, terrain, side)
    ctx.formation(tf).location = f"hex:{h}"
    roles = dict(ctx.var("roles", {}))
    nxt = other(side)
    if not unplaced(ctx.state, nxt):
        nxt = side
    roles["placer"] = nxt
    ctx.set_var("roles", roles)
    ctx.summary(f"{f.name} placed in hex {h}")


@action(
    "assign_unit",
    "Move a unit to another task force (set-up)",
    Param("unit", "unit", candidates=C.own_units),
    Param("tf", "formation", candidates=C.own_record_tfs),
    reference="2.1 P_SETUP.2",
    visibility="actor",
)
def assign_unit(ctx: Ctx, unit: str, tf: str) -> None:
    """Rearrange your record sheet before play: put a unit in another of your task forces."""
    side = actor_side(ctx, ctx.state.unit(unit).side)
    u = own_unit(ctx, unit, side)
    f = ctx.state.formation(tf)
    if f.side != side or f.kind != "tf":
        raise ActionRejected(f"{f.name} is not one of your task forces")
    if f.location:
        raise ActionRejected(f"{f.name} is already on the map")
    ctx.unit(unit).formation = tf
    ctx.summary(f"{u.label} assigned to {f.name}")


@action(
    "open_tf",
    "Open another task force (set-up)",
    Param("org", "formation", candidates=C.own_orgs),
    reference="2.1, 3.2",
    visibility="actor",
)
def open_tf(ctx: Ctx, org: str) -> None:
    """Open an empty task-force box on an organization's record sheet (within its limit)."""
    from rulesets.prefect.actions_supply import new_tf

    o = ctx.state.formation(org)
    f = new_tf(ctx, org, o.side, None)
    ctx.summary(f"{f.name} opened")


def setup_ready(s: State) -> str | None:
    missing = unplaced_bases(s)
    if missing:
        return f"place the scenario's bases first ({len(missing)} left: place_base)"
    return None


def placing_done(s: State) -> str | None:
    left = unplaced(s)
    if left:
        return f"{len(left)} counters still to place"
    return None


def start_placing(ctx: Ctx) -> None:
    """The scenario's set-up order says who places first; otherwise a d10 roll-off."""
    order = ctx.var("setup_order") or []
    roles = dict(ctx.var("roles", {}))
    if order:
        first = order[0]
    else:
        while True:
            a = ctx.roll("1d10", "set-up roll-off", side="TOG")
            c = ctx.roll("1d10", "set-up roll-off", side="CW")
            if a.natural != c.natural:
                first = "TOG" if a.natural > c.natural else "CW"
                break
    if not unplaced(ctx.state, first):
        first = other(first)
    roles["placer"] = first
    ctx.set_var("roles", roles)
    ctx.explain(f"{first} places the first counter")
