"""Quick set-up: bases and task forces placed in one action, play ready to begin.

The scenarios give set-up areas, not hexes, and the scenario map is missing (G2). So unless
the GM has imported the real map, the quick set-up first imports a placeholder one, said so
in the log and in the game value ``map_note``: hexes numbered column-row, planetary area k
in columns 3k-2 to 3k, every hex Clear. Each base then goes to the first free hex of its
area; the task forces are placed in the scenario's alternation, each in the first free hex
of its organization's areas (taken in turn), the start line counted as kept (a map fact
marked as a quick set-up default). The real map and any hex can be corrected afterwards (import_map,
map_hex, gm.place).
"""

from __future__ import annotations

from collections.abc import Iterator

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.board import facts
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State
from rulesets.prefect.actions_setup import import_map, place_base, place_tf, unplaced, unplaced_bases
from rulesets.prefect.actions_space import deploy_tf, place_naval_base, set_mission, station_marines
from rulesets.prefect.board import Board

PLACEHOLDER = "\n".join([
    'grid = "ccrr"',
    'default_terrain = "clear"',
    "[area_columns]",
    *(f'{k} = [{3 * k - 2}, {3 * k}]' for k in range(1, 11)),
])
MAP_NOTE = ("placeholder map from the quick set-up (the scenario map is missing, G2): "
            "area k in columns 3k-2 to 3k, every hex Clear; import the real map with import_map")
ROWS = 20


def why_not(state: State) -> str | None:
    if state.step not in ("P_SETUP.arrange", "S_SETUP.first"):
        return "set-up has begun (quick set-up is offered at the first set-up step)"
    return None


def _has_map(state: State) -> bool:
    return bool(state.vars.get("area_columns")) or any(
        "area" in h for h in state.vars.get("hexes", {}).values())


def _area_hexes(state: State, area: int) -> Iterator[str]:
    """Hexes of *area*: those the map names, then those of its columns."""
    for h, info in sorted(state.vars.get("hexes", {}).items()):
        if info.get("area") == area:
            yield h
    cols = sorted(int(c) for c, a in state.vars.get("area_columns", {}).items() if a == area)
    for row in range(1, ROWS + 1):
        for col in cols:
            yield f"{col:02d}{row:02d}"


def _free(state: State, areas: list[int], need_no_base: bool) -> str | None:
    board = Board(state)
    for area in areas:
        for h in _area_hexes(state, area):
            if board.forces_at(h) or (need_no_base and board.bases_at(h)):
                continue
            if board.terrain_choice(h) == "water":
                continue
            return h
    return None


def _bases(ctx: Ctx) -> int:
    placed = 0
    for bid in unplaced_bases(ctx.state):
        area = int(ctx.state.units[bid].data.get("area", 0) or 0)
        h = _free(ctx.state, [area] if area else list(range(1, 11)), need_no_base=True)
        if h is None:
            continue  # left for the GM
        place_base.handler(ctx, bid, h)
        placed += 1
    return placed


def _fallback_areas(state: State, side: str) -> list[int]:
    """Where a force with no stated area starts: its side's base areas, else any area."""
    areas = [int(u.data["area"]) for u in state.units.values()
             if u.side == side and u.data.get("area")]
    return list(dict.fromkeys(areas)) or list(range(1, 11))


def _forces(ctx: Ctx) -> int:
    placed = 0
    turn: dict[str, int] = {}
    while unplaced(ctx.state):
        side = ctx.role("placer")
        mine = unplaced(ctx.state, side)
        if not mine:
            break
        tf = mine[0]
        org = ctx.state.formations.get(ctx.state.formations[tf].parent or "")
        areas = [int(a) for a in (org.data.get("areas") or []) if org is not None] \
            or _fallback_areas(ctx.state, side)
        n = turn.get(org.id if org else tf, 0)
        turn[org.id if org else tf] = n + 1
        order = areas[n % len(areas):] + areas[:n % len(areas)]
        h = _free(ctx.state, order, need_no_base=False)
        if h is None:
            break
        line = org.data.get("line") if org is not None else None
        if line:  # a start line is a map fact: counted as kept, a default the GM may correct
            facts.remember(ctx, h, "quick set-up default", **{str(line): True})
        place_tf.handler(ctx, tf, h)
        placed += 1
    return placed


def _try(action: ActionDef, ctx: Ctx, *args: object) -> bool:
    try:
        action.handler(ctx, *args)
    except ActionRejected:
        return False
    return True


def _deploy_naval(ctx: Ctx) -> int:
    """One side's space set-up: bases in segments (even fill), task forces in the sector of
    a base of theirs or else outsystem, the first that the scenario allows; Marines at the
    first naval base; T-space task forces on Supply."""
    side = ctx.role("setup")
    board = Board(ctx.state)
    for b in board.bases(side):
        if b.data.get("needs_segment"):
            n = board.segments_of(str(b.data.get("sector") or "")) or 1
            any(_try(place_naval_base, ctx, b.id, seg) for seg in range(1, n + 1))
    sectors = list(dict.fromkeys(str(b.data["sector"]) for b in board.bases(side)
                                 if b.data.get("sector")))
    placed = 0
    for f in board.naval_tfs(side):
        if f.location or not board.units(f.id):
            continue
        placed += any(_try(deploy_tf, ctx, f.id, where) for where in (*sectors, "outsystem"))
    naval_bases = [b.id for b in Board(ctx.state).bases(side)
                   if Board(ctx.state).base_class(b) in ("ON", "GN") and b.data.get("placed")]
    for u in list(ctx.state.units.values()):
        if u.side == side and u.data.get("needs_base") and naval_bases:
            station_marines.handler(ctx, u.id, naval_bases[0])
    for f in Board(ctx.state).naval_tfs(side):
        if f.location == "tspace" and not f.status.get("mission"):
            set_mission.handler(ctx, f.id, "supply")
    return placed


def _space(ctx: Ctx) -> int:
    placed = 0
    while ctx.state.step in ("S_SETUP.first", "S_SETUP.second"):
        placed += _deploy_naval(ctx)
        if ctx.missing():
            break
        ctx.advance()
    if placed:
        ctx.explain("naval task forces: in the sector of one of their side's bases, else "
                    "outsystem (defaults); T-space task forces on Supply")
    return placed


def run(ctx: Ctx) -> None:
    if ctx.state.step.startswith("S_SETUP"):
        fleets = _space(ctx)
        ctx.summary(f"Quick set-up: {fleets} naval task forces deployed (defaults); "
                    f"{ctx.step.title} next")
        return
    if not _has_map(ctx.state):
        import_map.handler(ctx, PLACEHOLDER)
        ctx.set_var("map_note", MAP_NOTE)
        ctx.explain(MAP_NOTE)
    bases = _bases(ctx)
    ctx.advance()  # the placing order (or its roll-off)
    forces = _forces(ctx)
    ctx.explain("hexes chosen by the quick set-up: the first free ones of each set-up area "
                "(defaults; move any with gm.place)")
    if not ctx.missing():
        ctx.advance()
    fleets = _space(ctx)
    ctx.summary(f"Quick set-up: {bases} bases and {forces} task forces placed in their set-up "
                f"areas" + (f", {fleets} naval task forces deployed" if fleets else "")
                + f" (defaults); {ctx.step.title} next")
