"""Viking fleets in play, in the Movement Phase (Viking exclusive rules [3.1]-[3.5], digest 4.5,
EXT-OCR of the SPI Viking folder).

A fleet has 15 Movement Points a Movement Phase (7 while disrupted, and unlike other units it
may move disrupted [3.23]); it sails 1 MP a sea or river hex whatever the terrain [3.12], is not
stopped next to enemy fire units [3.26], may sail through an enemy-held ford or bridge [3.28];
mooring costs 7 MP, all in one phase, on a river hex or a bridge free of enemy units [3.31],
[3.32]; unmooring costs 5 and needs a unit aboard [3.33]. Units get on a moored, undisrupted
fleet for 2 of their own MP [3.43] and get off a moored fleet for 2 MP into an adjacent hex that
is not river, bridge or ford, then move on with what is left [3.41]. A fleet takes three units,
leaders free [3.14]. Under sail it cannot be attacked in melee [3.28]; its Fire Protection
Strength is always 4 [3.25] (``combat.fire_protection``).
"""

from __future__ import annotations

from fractions import Fraction

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from rulesets.prestags import candidates as C
from rulesets.prestags import carriers, exclusive, hexmap, movement
from rulesets.prestags.common import Info, ftext, hex_of, info, other, units_at


def _fleet(ctx: Ctx, uid: str) -> Info:
    u = ctx.state.unit(uid)
    f = info(ctx.state, ctx.ruleset, u)
    if u.side != ctx.role("phasing") or u.type != carriers.FLEET:
        raise ActionRejected(f"{u.label} is not a fleet of the phasing player")
    if not exclusive.in_game(ctx.state, "V"):
        raise ActionRejected("fleets sail only in the Viking game with its exclusive rules on")
    if not f.active or f.hex is None:
        raise ActionRejected(f"{u.label} is not on the map")
    return f


def _enemy_at(ctx: Ctx, side: str, h: str) -> bool:
    return any(u.side != side for u in units_at(ctx.state, h))


def sail_cost(hexes: int, unmoor: bool, moor: bool) -> tuple[int, str]:
    """MP for one fleet move and how it adds up [V3.12], [V3.32], [V3.33]."""
    parts = [
        (carriers.UNMOOR_MP if unmoor else 0, "unmooring 5"),
        (hexes, f"{hexes} hex(es) at 1"),
        (carriers.MOOR_MP if moor else 0, "mooring 7"),
    ]
    cost = sum(n for n, _ in parts)
    return cost, " + ".join(why for n, why in parts if n) + f" = {cost} MP"


def course_problem(ctx: Ctx, side: str, start: str, hexes: list[str], label: str) -> str:
    """Why a fleet cannot sail this course ('' if it can): hex by hex, next to the last, sea or
    river-borne [V3.12], along one river [V3.13], through no enemy hex but a ford or bridge
    [V3.28], [5.23]."""
    prev = start
    prev_t = hexmap.known_hex(ctx.state, prev).get("terrain")
    for h in hexes:
        if not hexmap.adjacent(ctx, prev, h, f"{label} sailing"):
            return f"{h} is not next to {prev}: the course must be continuous"
        t = hexmap.terrain(ctx, h, "fleet movement")
        if t not in carriers.FLEET_WATER:
            return f"{h} is {t}: a fleet sails only sea and river hexes [V3.12], [V3.13]"
        if (
            t in hexmap.RIVER_WATER
            and prev_t in hexmap.RIVER_WATER
            and not hexmap.along_river(ctx, prev, h, f"{label} sailing [V3.13]")
        ):
            return f"{prev} and {h} lie on different rivers: a fleet follows the river's course [V3.13]"
        prev_t = t
        if _enemy_at(ctx, side, h) and t not in ("ford", "bridge"):
            return f"{h} holds enemy units [5.23]"
        prev = h
    return ""


@action(
    "sail",
    "Sail, moor or unmoor a fleet",
    Param("fleet", "unit", help="the Viking fleet (VF)", candidates=C.own_fleets),
    Param("path", "list", required=False, default=[], help="sea or river hexes entered in order"),
    Param("unmoor", "bool", required=False, default=False, help="unmoor first (5 MP, a unit aboard)"),
    Param("moor", "bool", required=False, default=False, help="moor at the end (7 MP)"),
    side="phasing",
    key="s",
    reference="Viking [3.1]-[3.3]",
)
def sail(ctx: Ctx, fleet: str, path: list[str], unmoor: bool, moor: bool) -> None:
    """A fleet sails 1 MP a sea or river hex, unmoors for 5 MP (only with a unit aboard) and
    moors for 7 on a river hex or a bridge free of enemy units; 15 MP a Movement Phase, 7
    disrupted [V3.1]-[V3.3]."""
    f = _fleet(ctx, fleet)
    u = ctx.state.unit(fleet)
    moored = bool(u.status.get("moored"))
    if unmoor and not moored:
        raise ActionRejected(f"{f.label} is not moored")
    if unmoor and not carriers.aboard(ctx.state, fleet):
        raise ActionRejected(f"{f.label} has no unit aboard to unmoor it: it is trapped [V3.33]")
    if moor and moored and not unmoor:
        raise ActionRejected(f"{f.label} is moored already")
    if path and moored and not unmoor:
        raise ActionRejected(f"{f.label} is moored: unmoor it first (unmoor) [V3.33]")
    hexes = [hexmap.canon(ctx.state, str(h)) for h in path]
    why = course_problem(ctx, f.side, str(f.hex), hexes, f.label)
    if why:
        raise ActionRejected(why)
    final = hexes[-1] if hexes else str(f.hex)
    if moor:
        t = hexmap.terrain(ctx, final, "mooring")
        if t not in carriers.MOORINGS:
            raise ActionRejected(f"{final} is {t}: a fleet moors on a river hex or a bridge [V3.31]")
    disrupted = bool(u.status.get("disrupted"))
    ma = carriers.fleet_ma(disrupted)
    used = carriers.fleet_mp_used(ctx.state, fleet)
    cost, sums = sail_cost(len(hexes), unmoor, moor)
    ctx.explain(
        sums + f"; {used} spent before, MA {ma}" + (" (disrupted) [V3.23]" if disrupted else " [V3.11]")
    )
    if used + cost > ma:
        raise ActionRejected(
            f"{sums}: with {used} spent already that is more than the MA of {ma}"
            + (" (mooring takes the full 7 in one phase) [V3.32]" if moor else "")
        )
    for x in [u, *carriers.aboard(ctx.state, fleet)]:
        movement.place(ctx, x.id, final)
    w = ctx.unit(fleet)
    w.status["moored"] = moor or (moored and not unmoor)
    mp = dict(ctx.var("fleet_mp", {}) or {})
    mp[fleet] = used + cost
    ctx.set_var("fleet_mp", mp)
    entered = ctx.edit_var("entered", [])
    entered.extend(h for h in hexes if h not in entered)
    what = (
        (["unmoors"] if unmoor else [])
        + ([f"sails to {final}"] if hexes else [])
        + (["moors"] if moor else [])
    )
    ctx.summary(f"{f.label} {', '.join(what) or 'stays'} ({used + cost} of {ma} MP)")


def sink_stuck_fleets(ctx: Ctx, side: str | None = None) -> None:
    """Viking [3.28], at the end of the Movement Phase: a disrupted fleet left on an enemy-held
    ford or bridge is eliminated, with the units aboard (they cannot stand in an enemy-held
    hex); the enemy scores their VP, then the panic check runs."""
    from rulesets.prestags import panic, results

    side = side or ctx.role("phasing")
    stuck = carriers.stuck_fleets(ctx.state, side)
    for fleet in stuck:
        riders = carriers.aboard(ctx.state, fleet.id)
        why = f"disrupted fleet stuck on the enemy-held ford or bridge {hex_of(fleet)} [V3.28]"
        for r in riders:
            results.eliminate(ctx, r.id, f"aboard {fleet.label}: {why}")
        results.eliminate(ctx, fleet.id, why)
    if stuck:
        panic.check(ctx, other(side))


def _walkers(ctx: Ctx, ids: list[str]) -> list[Info]:
    side = ctx.role("phasing")
    moved = set(ctx.var("moved", []))
    out = []
    for uid in dict.fromkeys(ids):
        u = ctx.state.unit(uid)
        i = info(ctx.state, ctx.ruleset, u)
        if u.side != side or not i.active or i.hex is None:
            raise ActionRejected(f"{u.label} is not a unit of the phasing player on the map")
        if u.type == carriers.FLEET:
            raise ActionRejected("a fleet does not carry another fleet [V3.14]")
        if uid in moved:
            raise ActionRejected(f"{u.label} has already moved this phase [5.14]")
        if u.status.get("disrupted") or u.status.get("panicked"):
            raise ActionRejected(f"{u.label} is disrupted or panicked and may not move [8.2], [13.0]")
        out.append(i)
    if not out:
        raise ActionRejected("name the units")
    return out


@action(
    "board",
    "Board a moored fleet",
    Param("units", "units", help="units getting on (one hex)", candidates=C.own_units),
    Param("fleet", "unit", help="the moored fleet", candidates=C.own_fleets),
    Param(
        "path", "list", required=False, default=[], help="land hexes walked first, ending next to the fleet"
    ),
    side="phasing",
    key="b",
    reference="Viking [3.43]",
)
def board(ctx: Ctx, units: list[str], fleet: str, path: list[str]) -> None:
    """Units next to a moored, undisrupted fleet (after walking *path*) get on for 2 MP of
    their own [V3.43]; it takes three units, leaders free [V3.14]."""
    f = _fleet(ctx, fleet)
    fu = ctx.state.unit(fleet)
    if not fu.status.get("moored") or fu.status.get("disrupted"):
        raise ActionRejected(f"{f.label} must be moored and undisrupted to take units on [V3.43], [V3.34]")
    walkers = _walkers(ctx, units)
    if len({w.hex for w in walkers}) > 1:
        raise ActionRejected("units board together from one hex [5.43]")
    if any(carriers.carrier_of(ctx.state, ctx.state.unit(w.id)) for w in walkers):
        raise ActionRejected("a unit aboard gets off first (land)")
    codes = [r.type for r in carriers.aboard(ctx.state, fleet)] + [w.code for w in walkers]
    why = carriers.passenger_problem(carriers.FLEET, codes)
    if why:
        raise ActionRejected(why)
    ma = min(movement.ma_now(ctx.state, w.id) for w in walkers)
    spent, last = Fraction(0), str(walkers[0].hex)
    if path:
        p = movement.parse_path(path)
        p.start = last
        planned = movement.plan(
            ctx, walkers, p, f"board:{walkers[0].id}:{ctx.clock.get('pt', 0)}", ma=ma - carriers.LOAD_MP
        )
        for line in planned.lines:
            ctx.explain(line)
        spent, last = planned.spent, planned.hexes[-1]
        if movement.zone_stop(ctx, walkers[0], [last], f"board:{walkers[0].id}:{ctx.clock.get('pt', 0)}:end"):
            raise ActionRejected(f"{last} is next to an enemy fire unit: the units stop there [6.41]")
    if not hexmap.adjacent(ctx, last, str(f.hex), f"boarding {f.label}"):
        raise ActionRejected(f"{last} is not next to {f.label} in {f.hex}")
    total = spent + carriers.LOAD_MP
    if total > ma:
        raise ActionRejected(
            f"{ftext(spent)} MP walking + 2 to board = {ftext(total)} MP; the MA is {ftext(ma)} [V3.43]"
        )
    for w in walkers:
        movement.place(ctx, w.id, f.hex)
        ctx.unit(w.id).status["aboard"] = fleet
    ctx.edit_var("moved", []).extend(w.id for w in walkers)
    ctx.explain(f"boarding: 2 MP [V3.43]; {ftext(total)} of {ftext(ma)} MP")
    ctx.summary(f"{', '.join(w.label for w in walkers)} board {f.label} in {f.hex} ({ftext(total)} MP)")


@action(
    "land",
    "Land units from a moored fleet",
    Param("units", "units", help="units aboard one moored fleet", candidates=C.own_units),
    Param(
        "path", "list", help="the adjacent land hex first (not river, bridge or ford), then any further hexes"
    ),
    side="phasing",
    key="l",
    reference="Viking [3.41]-[3.42]",
)
def land(ctx: Ctx, units: list[str], path: list[str]) -> None:
    """Units get off a moored fleet for 2 MP, which covers entering the adjacent land hex (not
    river, bridge or ford), then move on with what is left; from then on they are land units,
    stopped next to enemy fire units [V3.41], [V3.42]."""
    walkers = _walkers(ctx, units)
    rides = [carriers.carrier_of(ctx.state, ctx.state.unit(w.id)) for w in walkers]
    fu = rides[0]
    if fu is None or any(r is None or r.id != fu.id for r in rides):
        raise ActionRejected("name units aboard one fleet")
    if fu.type != carriers.FLEET or not fu.status.get("moored"):
        raise ActionRejected(f"{fu.label} must be moored to put units ashore [V3.31]")
    if not path:
        raise ActionRejected("name the adjacent land hex the units step onto")
    side, here = fu.side, str(fu.location)[4:]
    first = hexmap.canon(ctx.state, str(path[0]))
    if not hexmap.adjacent(ctx, here, first, f"landing from {fu.label}"):
        raise ActionRejected(f"{first} is not next to {fu.label} in {here} [V3.41]")
    t = hexmap.terrain(ctx, first, "landing")
    if t in ("river", "bridge", "ford", "sea"):
        raise ActionRejected(
            f"{first} is {t}: units land into a hex that is not river, bridge or ford [V3.41]"
        )
    if _enemy_at(ctx, side, first):
        raise ActionRejected(f"{first} holds enemy units [5.23]")
    ma = min(movement.ma_now(ctx.state, w.id) for w in walkers)
    hexes, spent = [first], Fraction(carriers.LOAD_MP)
    ctx.explain(f"{first}: 2 MP to land [V3.41]")
    key = f"land:{walkers[0].id}:{ctx.clock.get('pt', 0)}"
    if len(path) > 1:
        if movement.zone_stop(ctx, walkers[0], [first], key):
            raise ActionRejected(f"{first} is next to an enemy fire unit: landed units stop there [V3.42]")
        p = movement.parse_path(list(path[1:]))
        p.start = first
        planned = movement.plan(ctx, walkers, p, key, ma=ma - spent)
        for line in planned.lines:
            ctx.explain(line)
        hexes += planned.hexes
        spent += planned.spent
    elif spent > ma:
        raise ActionRejected(f"landing costs 2 MP; the MA is {ftext(ma)} [V3.41]")
    final = hexes[-1]
    for w in walkers:
        movement.place(ctx, w.id, final)
        ctx.unit(w.id).status["aboard"] = None
    ctx.edit_var("moved", []).extend(w.id for w in walkers)
    entered = ctx.edit_var("entered", [])
    entered.extend(h for h in hexes if h not in entered)
    movement.mark_control(ctx, hexes, passing=side)  # [11.3]
    ctx.summary(
        f"{', '.join(w.label for w in walkers)} land from {fu.label} to {final} ({ftext(spent)} of "
        f"{ftext(ma)} MP)"
    )
