"""Quick set-up: both deployments at once, then on to Game-Turn 1 [11.1].

The scenarios give each side's deployment area ("within 3 hexes of lettered hex D"), not
the hex of every counter, and the seed has no map. So the quick set-up is a default: each
side's units stand in stacks of one unit type (at the stacking limit, leaders with the
first stacks) in the area around its lettered hex on the numbered grid, the hexes nearest
the enemy's area first (a battle line facing the enemy, missile troops screening its
front, as a table would deploy). When no lettered hex has been placed on the grid yet, the
demonstration mapsheet (labelled as such, not the SPI sheet) is imported first, so that
every area has hexes, and its unlisted hexes are clear ground. Areas described only
in words ("within 3 hexes of the line D") are filled outward from their letter, each stack
a GM default. Everything is then the GM's to adjust (gm.place, map_hexes, gm.map_fact).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from fractions import Fraction

from campaign_tui.core.board import facts
from campaign_tui.core.board.actions import map_import
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State, Unit
from rulesets.prestags import hexmap, movement
from rulesets.prestags.act_setup import _ZONE, undeployed
from rulesets.prestags.common import info, units_at

_WORDS = re.compile(r"within (\d+) hexes? of (?:the line )?([A-Z])\b")
NOTE = "quick set-up default (the scenario gives areas, not hexes)"


DEMO_MAP = "demo_mapsheet.toml"
DEMO_DEFAULT_TERRAIN = "clear"  # the demonstration sheet's unlisted hexes
WORDS_RADIUS = 12  # how far out an area told in words is filled


def why_not(state: State) -> str | None:
    if state.step != "SETUP":
        return "the deployment is over (quick set-up is offered at the Set-up step)"
    if hexmap.geometry(state) is None:
        return ("quick set-up needs the numbered grid (option hex_grid odd-q or even-q); "
                "with hex_grid=gm deploy by hand")
    return None


def _letters_placed(state: State) -> bool:
    return bool(state.records("letters")) or any(
        facts.letter_hex(state, chr(c)) for c in range(ord("A"), ord("Z") + 1))


def _ensure_map(ctx: Ctx) -> None:
    """No lettered hex on the grid yet: import the demonstration mapsheet (a logged part of
    this action, undone with it), so that the areas have hexes."""
    if _letters_placed(ctx.state):
        return
    text = (ctx.ruleset.data_root() / "maps" / DEMO_MAP).read_text(encoding="utf-8")
    map_import.handler(ctx, text=text, name=DEMO_MAP)
    ctx.explain(f"No lettered hex was placed yet: imported the DEMONSTRATION mapsheet "
                f"({DEMO_MAP}, not the SPI sheet); correct it with gm.map_fact or import "
                "the real sheet")
    if not ctx.var("default_terrain"):
        # the demonstration sheet lists its features only: every other hex is clear ground
        ctx.set_var("default_terrain", DEMO_DEFAULT_TERRAIN)
        ctx.explain(f"Hexes the demonstration mapsheet does not list are {DEMO_DEFAULT_TERRAIN} "
                    "ground (its default; record a hex with map_hexes to change it)")


def _areas(zone: str) -> tuple[list[tuple[str, int]], bool]:
    """([(centre, radius)...], stated exactly) for a unit's deployment area."""
    alts = [a.strip() for a in zone.split("|")]
    exact = [(m.group(1), int(m.group(2))) for m in map(_ZONE.match, alts) if m]
    if exact and len(exact) == len(alts):
        return exact, True
    m = _WORDS.search(zone)
    return [(m.group(2), int(m.group(1))) if m else ("AREA", 0)], False


def _grid_rings(state: State, centre: str, radius: int) -> Iterator[tuple[str, int]]:
    grid = hexmap.geometry(state)
    assert grid is not None  # why_not refuses without a grid
    seen, ring = {centre}, [centre]
    yield centre, 0
    for r in range(1, radius + 1):
        nxt = []
        for h in ring:
            for d in range(6):
                n = grid.neighbour(h, d)
                if n is not None and n not in seen:
                    seen.add(n)
                    nxt.append(n)
                    yield n, r
        ring = nxt


def _enemy_letters(ctx: Ctx, side: str) -> list[str]:
    """The grid hexes of the lettered hexes the other side deploys around."""
    grid = hexmap.geometry(ctx.state)
    out = []
    for u in ctx.state.units.values():
        if u.side == side:
            continue
        for centre, _ in _areas(str(u.data.get("zone", "")))[0]:
            real = hexmap.canon(ctx.state, centre) if centre != "AREA" else ""
            if grid is not None and real and grid.parse(real) is not None and real not in out:
                out.append(real)
    return out


def _hexes(ctx: Ctx, centres: list[tuple[str, int]], exact: bool, front: Sequence[str] = ()
           ) -> Iterator[tuple[str, str, int]]:
    """(hex, centre, distance) in the area. An area stated exactly fills its front first
    (the hexes nearest the enemy's area: a battle line facing the enemy), then nearest the
    letter; an area told in words fills outward from its letter."""
    grid = hexmap.geometry(ctx.state)
    for centre, radius in centres:
        if centre == "AREA":
            continue  # an area the program cannot read: the GM deploys it
        real = hexmap.canon(ctx.state, centre)
        if grid is None or grid.parse(real) is None:
            raise ActionRejected(f"quick set-up: lettered hex {centre} is not on the grid yet; "
                                 "place it (map_hexes or gm.map_fact) or import a map")
        rings = list(_grid_rings(ctx.state, real, radius if exact else WORDS_RADIUS))
        if exact and front:
            rings.sort(key=lambda hr: (min(grid.distance(hr[0], f) for f in front), hr[1]))
        for h, r in rings:
            yield h, centre, r


def _stacks(ctx: Ctx, side: str, units: list[Unit]) -> list[list[str]]:
    """Stacks of one unit type each, at the stacking limit; leaders join the first stacks.
    Missile troops come first (they take the front hexes: a screen before the line), then
    the faster types."""
    troops: dict[str, list[str]] = {}
    leaders: list[str] = []
    screen: dict[str, tuple[bool, Fraction]] = {}
    for u in units:
        i = info(ctx.state, ctx.ruleset, u)
        if i.is_leader:
            leaders.append(u.id)
        else:
            troops.setdefault(i.code, []).append(u.id)
            screen[i.code] = (i.fire is not None, i.ma)
    troops = dict(sorted(troops.items(), key=lambda kv: screen[kv[0]], reverse=True))
    stacks: list[list[str]] = []
    for code, ids in troops.items():
        limit = max(1, movement.stack_limit(ctx.state, side, [code] * len(ids)))
        stacks += [ids[k:k + limit] for k in range(0, len(ids), limit)]
    for n, leader in enumerate(leaders):
        if stacks:
            stacks[n % len(stacks)].append(leader)
        else:
            stacks.append([leader])
    return stacks


def _place(ctx: Ctx, side: str, h: str, stack: list[str], face: int) -> None:
    """What deploy does, without asking where the area is: the hex is in it by design."""
    for uid in stack:
        w = ctx.unit(uid)
        w.location = f"hex:{h}"
        w.status["state"] = "active"
        if ctx.options.get("facing"):
            w.status["facing"] = face
    problem = movement.hex_problem(ctx, side, h)
    if problem:
        raise ActionRejected(f"quick set-up: {problem}")


def _deploy_side(ctx: Ctx, side: str) -> list[str]:
    by_zone: dict[str, list[Unit]] = {}
    for uid in undeployed(ctx.state, side):
        u = ctx.state.unit(uid)
        by_zone.setdefault(str(u.data.get("zone", "")), []).append(u)
    lines = []
    face = 0 if side == "A" else 3
    for zone, units in by_zone.items():
        centres, exact = _areas(zone)
        spots = _hexes(ctx, centres, exact, _enemy_letters(ctx, side))
        placements = []
        for stack in _stacks(ctx, side, units):
            h = next(spots, ("", "", 0))[0]
            while h and units_at(ctx.state, h):  # taken by another area's stacks
                h = next(spots, ("", "", 0))[0]
            if not h:
                break  # the rest waits for the GM (deploy)
            _place(ctx, side, h, stack, face)
            placements.append(h)
        if placements:
            movement.mark_control(ctx, placements)
            where = f"in the area {zone}" if exact else f"in the area '{zone}' (GM default)"
            lines.append(f"{ctx.state.sides[side].name}: {len(placements)} stacks {where}")
    return lines


def run(ctx: Ctx) -> None:
    lines: list[str] = []
    _ensure_map(ctx)
    ctx.advance()  # into the first deployment
    while ctx.state.step in ("DEPLOY_1", "DEPLOY_2"):
        side = ctx.role("deploying")
        lines += _deploy_side(ctx, side)
        if ctx.missing():
            lines.append("Not everything fitted: " + "; ".join(ctx.missing())
                         + " (deploy the rest by hand)")
            break
        ctx.advance()
    for line in lines:
        ctx.explain(line)
    ctx.explain(f"Hexes are a {NOTE}; move any stack with gm.place.")
    ctx.summary("Quick set-up: both armies deployed (default stacks in their areas); "
                "Game-Turn 1 begins")
