"""Quick set-up: both deployments at once, then on to Game-Turn 1 [11.1].

The scenarios give each side's deployment area ("within 3 hexes of lettered hex D"), not
the hex of every counter, and the seed has no map. So the quick set-up is a default: each
side's units stand in stacks of one unit type (at the stacking limit, leaders with the
first stacks) in rings around the area's lettered hex. With the numbered grid in use and
the letter placed on it, the stacks get real hex numbers; otherwise they get named hexes
("D.1", "D.2"...) whose distance to the letter is recorded as a default. Areas described
only in words get named hexes too, each a GM default. Everything is then the GM's to
adjust (gm.place, map_hexes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State, Unit
from rulesets.prestags import hexmap, movement
from rulesets.prestags.act_setup import _ZONE, undeployed
from rulesets.prestags.common import info, units_at

_WORDS = re.compile(r"within (\d+) hexes? of (?:the line )?([A-Z])\b")
NOTE = "quick set-up default (the scenario gives areas, not hexes)"


def why_not(state: State) -> str | None:
    if state.step != "SETUP":
        return "the deployment is over (quick set-up is offered at the Set-up step)"
    return None


def _areas(zone: str) -> tuple[list[tuple[str, int]], bool]:
    """([(centre, radius)...], stated exactly) for a unit's deployment area."""
    alts = [a.strip() for a in zone.split("|")]
    exact = [(m.group(1), int(m.group(2))) for m in map(_ZONE.match, alts) if m]
    if exact and len(exact) == len(alts):
        return exact, True
    m = _WORDS.search(zone)
    return [(m.group(2), int(m.group(1))) if m else ("AREA", 0)], False


def _grid_rings(centre: str, radius: int, mode: str) -> Iterator[tuple[str, int]]:
    seen, ring = {centre}, [centre]
    yield centre, 0
    for r in range(1, radius + 1):
        nxt = []
        for h in ring:
            for d in range(6):
                n = hexmap.grid_neighbour(h, d, mode)
                if n is not None and n not in seen:
                    seen.add(n)
                    nxt.append(n)
                    yield n, r
        ring = nxt


def _named_rings(centre: str, radius: int) -> Iterator[tuple[str, int]]:
    n = 0
    for r in range(radius + 1):
        for _ in range(max(1, 6 * r)):
            n += 1
            yield f"{centre}.{n}", r


def _hexes(ctx: Ctx, centres: list[tuple[str, int]], exact: bool
           ) -> Iterator[tuple[str, str, int, bool]]:
    """(hex, centre, distance, named) in the area; named hexes are defaults, not map hexes.
    An area told in words (a line, an edge, the sea) is wider than a circle: its named
    hexes go on as long as needed, each one a GM default."""
    mode = hexmap.grid(ctx.state)
    for centre, radius in centres:
        real = hexmap.canon(ctx.state, centre)
        if mode and hexmap._coords(real, mode) is not None:
            for h, r in _grid_rings(real, radius, mode):
                yield h, centre, r, False
        else:
            for h, r in _named_rings(centre, radius if exact else 10_000):
                yield h, centre, r, True


def _stacks(ctx: Ctx, side: str, units: list[Unit]) -> list[list[str]]:
    """Stacks of one unit type each, at the stacking limit; leaders join the first stacks."""
    troops: dict[str, list[str]] = {}
    leaders: list[str] = []
    for u in units:
        i = info(ctx.state, ctx.ruleset, u)
        if i.is_leader:
            leaders.append(u.id)
        else:
            troops.setdefault(i.code, []).append(u.id)
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
        spots = _hexes(ctx, centres, exact)
        placements = []
        for stack in _stacks(ctx, side, units):
            h, centre, r, named = next(spots, ("", "", 0, False))
            while h and units_at(ctx.state, h):  # taken by another area's stacks
                h, centre, r, named = next(spots, ("", "", 0, False))
            if not h:
                break  # the rest waits for the GM (deploy)
            if named and exact and h != centre:
                key = "|".join(sorted((h, centre)))
                ctx.put_record("pairs", key, {"d": r, "adj": r == 1, "note": NOTE})
            _place(ctx, side, h, stack, face)
            placements.append(h)
        if placements:
            movement.mark_control(ctx, placements)
            where = f"in the area {zone}" if exact else f"in the area '{zone}' (GM default)"
            lines.append(f"{ctx.state.sides[side].name}: {len(placements)} stacks {where}")
    return lines


def run(ctx: Ctx) -> None:
    lines: list[str] = []
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
