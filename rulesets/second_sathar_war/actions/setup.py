"""Set-up actions (digest 2.2, steps 0.1-0.6) and the reinforcement placements of the day loop."""

from __future__ import annotations

import hashlib

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from rulesets.second_sathar_war import candidates as C

from .. import locations as L
from ..dice_util import roll, tag_table
from ..forces import detach_fighter, new_stack, set_move, transfer
from ..ledger import retreating
from ..movement import fighters_loose_state, place_on
from ..rules import carrier_problems, placement_problems
from ..ships import alive, carried_by, is_fighter, is_station, loc_of, ships_in
from .common import day, fdm


@action(
    "assign_player",
    "Assign forces to a player",
    Param("player", help="the player's name"),
    Param("forces", "formations", required=False, default=[], help="task forces, fleets, groups"),
    Param("militia", "list", required=False, default=[], help="home planets of the militias"),
    side="gm",
    reference="0.1",
)
def assign_player(ctx: Ctx, player: str, forces: list[str], militia: list[str]) -> None:
    """Record which forces a player commands (for three UPF players, for instance, one task
    force and three planets' militias each). Nothing is computed from it."""
    m = fdm(ctx)
    homes = [m.find_planet(h) for h in militia]
    players = ctx.edit_var("players", {})
    players[player] = {"forces": list(forces), "militia": homes}
    names = [ctx.state.formation(f).name for f in forces] + [f"{m.planets[h].name} militia" for h in homes]
    ctx.summary(f"{player} commands {', '.join(names) or 'nothing yet'}")


@action(
    "free_roll",
    "Roll a free die (settle a dispute)",
    Param("expr", help="dice, e.g. 1d10"),
    Param("purpose", help="what the roll decides"),
    side="gm",
    reference="0.1",
)
def free_roll(ctx: Ctx, expr: str, purpose: str) -> None:
    """Roll dice the rules do not call for, to settle a disagreement at the table; logged."""
    die = roll(ctx, expr, purpose)
    tag_table(die, str(die.natural))
    ctx.summary(f"{purpose}: {expr} = {die.natural}")


@action(
    "set_observer",
    "Name the observer of a side's rolls",
    Param("side", "side"),
    Param("name"),
    reference="House rules",
)
def set_observer(ctx: Ctx, side: str, name: str) -> None:
    """House rule: a member of the opposing faction watches the rolls; this names the witness
    each side provides (rolls by the other side are tagged with it)."""
    obs = ctx.edit_var("observers", {})
    obs[side] = name
    ctx.summary(f"{name} observes rolls for {side}")


@action(
    "choose_retreat_condition",
    "Seal the Sathar retreat condition",
    Param("condition", "int", min=1, max=5, help="1-5, see table T13"),
    Param(
        "phrase",
        required=False,
        default="",
        help="optional secret word: a public fingerprint lets a table without a GM verify later",
    ),
    side="SATHAR",
    visibility="actor",
    reference="0.2, T13",
)
def choose_retreat_condition(ctx: Ctx, condition: int, phrase: str) -> None:
    """The Sathar pick one of the five retreat conditions in secret. The UPF never sees it
    until it is met; then it is revealed and the war's result fixed."""
    ctx.set_secret("SATHAR", "retreat_condition", int(condition))
    ctx.secret_to("SATHAR")
    if phrase:
        digest = hashlib.sha256(f"{condition}:{phrase}".encode()).hexdigest()[:16]
        ctx.set_var("retreat_fingerprint", digest)
        ctx.explain(f"public fingerprint of the sealed choice: {digest}")
    ctx.summary("The Sathar seal their retreat condition")


@action(
    "name_shatter_drone", "Name a frigate as a shatter drone", Param("ship", "unit"), reference="0.3, 5.14i"
)
def name_shatter_drone(ctx: Ctx, ship: str) -> None:
    """Before day 1 each side turns two of its frigates into shatter drones (UPF: Spacefleet
    or militia frigates)."""
    u = ctx.state.unit(ship)
    if u.type != "FF" or not alive(u):
        raise ActionRejected(f"{u.label} is not a frigate")
    if ctx.by in ("UPF", "SATHAR") and ctx.by != u.side:
        raise ActionRejected(f"{u.label} is not yours")
    named = [x for x in ctx.state.units.values() if x.side == u.side and x.status.get("shatter_drone")]
    if len(named) >= 2 and not u.status.get("shatter_drone"):
        raise ActionRejected(f"{u.side} already has two shatter drones")
    ctx.unit(ship).status["shatter_drone"] = True
    ctx.summary(f"{u.label} becomes a shatter drone")


def drone_problems(state) -> str | None:  # type: ignore[no-untyped-def]
    for side in ("UPF", "SATHAR"):
        frigates = [u for u in state.units.values() if u.side == side and u.type == "FF" and alive(u)]
        named = [u for u in frigates if u.status.get("shatter_drone")]
        if len(named) < min(2, len(frigates)):
            return f"{side} must name two frigates as shatter drones"
    return None


# -- UPF set-up ----------------------------------------------------------------------------------
@action(
    "deploy",
    "Deploy non-attached ships",
    Param("ships", "units", candidates=C.non_attached),
    Param("to", help="a planet (a new group there) or a force id (task force, Strike Force NOVA)"),
    side="UPF",
    reference="0.4",
)
def deploy(ctx: Ctx, ships: list[str], to: str) -> None:
    """Send non-attached ships to any system (in any number of groups), or attach them to a
    task force or to Strike Force NOVA (off the map with it)."""
    for sid in ships:
        u = ctx.state.unit(sid)
        if u.formation != "upf-non-attached":
            raise ActionRejected(f"{u.label} is not a non-attached ship")
        if is_fighter(u):
            raise ActionRejected(
                f"{u.label} is a fighter: base it aboard a carrier or at a station with base_fighters"
            )
    if to in ctx.state.formations:
        f = ctx.state.formation(to)
        if f.side != "UPF" or f.id == "upf-non-attached":
            raise ActionRejected(f"{f.name} is not a UPF force")
        transfer(ctx, ships, to)
        if f.visibility != "public":
            ctx.secret_to("UPF")  # what joins Strike Force NOVA off the map stays hidden
        ctx.summary(f"{len(ships)} ship(s) join {f.name}")
        return
    pid = fdm(ctx).find_planet(to)
    g = new_stack(ctx, "UPF", f"Non-attached group at {fdm(ctx).planets[pid].name}", L.planet(pid), ships)
    ctx.summary(f"{len(ships)} ship(s) deployed at {fdm(ctx).planets[pid].name} ({g.id})")


def upf_setup_problems(state) -> str | None:  # type: ignore[no-untyped-def]
    pool = [
        u
        for u in state.units.values()
        if u.formation == "upf-non-attached" and alive(u) and not is_fighter(u)
    ]
    if pool:
        return f"{len(pool)} non-attached ship(s) still to deploy: {', '.join(u.label for u in pool[:5])}"
    loose = [
        u
        for u in state.units.values()
        if u.side == "UPF" and is_fighter(u) and alive(u) and not u.status.get("aboard")
    ]
    if loose:
        return f"fighters still to base aboard a carrier or at a station: {', '.join(u.label for u in loose)}"
    return None


# -- fighters ----------------------------------------------------------------------------------
@action(
    "base_fighters",
    "Base fighters aboard a carrier or at a station",
    Param("fighters", "units", candidates=C.loose_fighters),
    Param("host", "unit", help="an assault carrier or a station", candidates=C.hosts),
    reference="0.4, 0.5, 5.8",
)
def base_fighters(ctx: Ctx, fighters: list[str], host: str) -> None:
    """Put fighters aboard an assault carrier (they move with it) or base them at a station.
    At set-up fighters may come from the pool; in play they must be where the host is."""
    h = ctx.state.unit(host)
    if not alive(h) or not (h.type == "AC" or is_station(h)):
        raise ActionRejected(f"{h.label} is not a surviving assault carrier or station")
    setup = ctx.state.step in ("UPF_SETUP", "SATHAR_SETUP", "SATHAR_REINFORCE")
    hloc = loc_of(ctx.state, h)
    for fid in fighters:
        f = ctx.state.unit(fid)
        if not is_fighter(f) or not alive(f):
            raise ActionRejected(f"{f.label} is not a fighter")
        if f.side != h.side:
            raise ActionRejected(f"{h.label} is not on {f.label}'s side")
        floc = loc_of(ctx.state, f)
        off_map_pool = floc.kind in ("unassigned", "reserve")
        entering = hloc.kind in ("reserve", "circle") or (f.side == "UPF" and ctx.state.step == "UPF_SETUP")
        own_force = ctx.state.formations.get(str(f.formation))
        if (
            ctx.state.step == "UPF_SETUP"
            and own_force is not None
            and own_force.kind in ("task_force", "strike_force")
            and not (h.formation == own_force.id or (is_station(h) and h.location == own_force.location))
        ):
            raise ActionRejected(
                f"{f.label} belongs to {own_force.name}: it goes aboard that force's carrier "
                "or to the station where the force is based"
            )
        if not (floc == hloc or (setup and off_map_pool and entering)):
            raise ActionRejected(
                f"{f.label} is not where {h.label} is (fighters from off the map board a "
                "carrier off the map or in a start circle)"
            )
    if h.formation in ctx.state.formations and ctx.state.formations[h.formation].visibility != "public":
        ctx.secret_to(h.side)
    if h.type == "AC":
        cap = int(ctx.options.get("carrier_capacity", 8))
        load = len({*(u.id for u in carried_by(ctx.state, host)), *fighters})
        if load > cap:
            text = f"{h.label} would carry {load} fighters; capacity {cap}"
            if h.side == "SATHAR" or ctx.options.get("upf_carrier_check") == "enforce":
                raise ActionRejected(text)
            ctx.explain(f"warning: {text} (G-07: a warning only for the UPF)")
        for fid in fighters:
            transfer(ctx, [fid], str(h.formation))
            ctx.unit(fid).status["aboard"] = host
    else:
        for fid in fighters:
            detach_fighter(ctx, ctx.state.unit(fid), str(h.location))
            ctx.unit(fid).status["aboard"] = host
    ctx.summary(f"{len(fighters)} fighter(s) based on {h.label}")


# -- Sathar set-up and reinforcements -------------------------------------------------------------
def _in_reserve(ctx: Ctx, ids: list[str]) -> None:
    for sid in ids:
        u = ctx.state.unit(sid)
        if u.side != "SATHAR" or loc_of(ctx.state, u).kind != "reserve":
            raise ActionRejected(f"{u.label} is not a Sathar ship in reserve")


@action(
    "form_fleet",
    "Form a fleet from reserve ships",
    Param("name"),
    Param("ships", "units", required=False, default=[], help="ships by id", candidates=C.reserve_ships),
    Param(
        "classes",
        "list",
        required=False,
        default=[],
        help="or counts by class taken from the reserve, e.g. DD:7,HC:4,AC:1,F:8",
    ),
    side="SATHAR",
    reference="0.5",
)
def form_fleet(ctx: Ctx, name: str, ships: list[str], classes: list[str]) -> None:
    """Group Sathar ships waiting off the map into a named fleet (any number of ships).
    Fighters taken by class count are loaded aboard the fleet's carriers, up to capacity."""
    chosen = list(ships)
    wanted: dict[str, int] = {}
    for item in classes:
        code, _, n = str(item).partition(":")
        wanted[code.strip().upper()] = wanted.get(code.strip().upper(), 0) + int(n or 1)
    for code, n in wanted.items():
        pool = sorted(
            u.id
            for u in ctx.state.units.values()
            if u.side == "SATHAR"
            and u.type == code
            and alive(u)
            and u.formation in ctx.state.formations
            and ctx.state.formations[u.formation].kind == "reserve"
            and u.id not in chosen
            and not u.status.get("aboard")
        )
        if len(pool) < n:
            raise ActionRejected(f"only {len(pool)} {code} left unorganised in the reserve, not {n}")
        chosen += pool[:n]
    if not chosen:
        raise ActionRejected("name the ships, or counts by class")
    _in_reserve(ctx, chosen)
    g = new_stack(ctx, "SATHAR", name, "reserve", chosen, kind="fleet", prefix="fleet-")
    cap = int(ctx.options.get("carrier_capacity", 8))
    carriers = [u for u in ships_in(ctx.state, g.id) if u.type == "AC"]
    for u in ships_in(ctx.state, g.id):
        if is_fighter(u) and not u.status.get("aboard"):
            host = next((c for c in carriers if len(carried_by(ctx.state, c.id)) < cap), None)
            if host is not None:
                ctx.unit(u.id).status["aboard"] = host.id
    ctx.summary(f"fleet {name} formed ({g.id}): {len(chosen)} ship(s)")


def _placements(state) -> dict[str, int]:  # type: ignore[no-untyped-def]
    out: dict[str, int] = {}
    for f in state.formations.values():
        if f.side == "SATHAR" and L.parse(f.location).kind == "circle":
            n = sum(1 for u in ships_in(state, f.id) if not is_fighter(u))
            out[L.parse(f.location).circle] = out.get(L.parse(f.location).circle, 0) + n
    return out


def sathar_setup_problems(state) -> str | None:  # type: ignore[no-untyped-def]
    problems = placement_problems(_placements(state), initial=True)
    loads = {}
    for u in state.units.values():
        if u.side == "SATHAR" and u.type == "AC" and alive(u):
            loads[u.label] = len(carried_by(state, u.id))
    problems += carrier_problems(loads, int(state.options.get("carrier_capacity", 8)))
    loose = [
        u.label
        for u in state.units.values()
        if u.side == "SATHAR" and is_fighter(u) and alive(u) and not u.status.get("aboard")
    ]
    if loose:
        problems.append(f"every Sathar fighter must start aboard a carrier: {len(loose)} are not")
    return "; ".join(problems) or None


def later_placement_problems(state) -> str | None:  # type: ignore[no-untyped-def]
    if state.options.get("later_placement_check", "warn") != "enforce":
        return None
    placed = state.vars.get("today", {}).get("placed", {})
    problems = placement_problems(placed, initial=False)
    return "; ".join(problems) or None


@action(
    "place_fleet",
    "Place a fleet in a start circle",
    Param("fleet", "formation", candidates=C.reserve_fleets),
    Param(
        "at",
        help="a start circle id (or, for replacements under option sathar_replacement_entry"
        " = scc, a planet with a captured construction centre)",
    ),
    side="SATHAR",
    reference="0.5, 1, 5.2",
)
def place_fleet(ctx: Ctx, fleet: str, at: str) -> None:
    """Bring a fleet from off the map into a start circle. At set-up at least 20 ships
    (fighters not counted) go into two or more circles with no more than half in any one."""
    if retreating(ctx.state):
        raise ActionRejected("the Sathar are retreating: no more ships enter the Frontier")
    f = ctx.state.formation(fleet)
    if f.side != "SATHAR" or L.parse(f.location).kind != "reserve":
        raise ActionRejected(f"{f.name} is not a Sathar fleet waiting off the map")
    if not ships_in(ctx.state, fleet):
        raise ActionRejected(f"{f.name} holds no ship")
    loose = fighters_loose_state(ctx.state, fleet)
    if loose:
        raise ActionRejected(
            f"fighters must be aboard a carrier of the fleet: {', '.join(u.label for u in loose)}"
        )
    m = fdm(ctx)
    replacement = fleet.startswith("sathar-repl-")
    if at in m.circles:
        where = f"circle:{at}"
        label = m.circles[at].name
    elif replacement and ctx.options.get("sathar_replacement_entry") == "scc":
        pid = m.find_planet(at)
        from ..ships import stations_in, upf_ships_in

        sid = m.planets[pid].system
        if (
            pid not in [str(v) for v in ctx.tables.get("T12").axes[0].values]
            or stations_in(ctx.state, m, sid)
            or upf_ships_in(ctx.state, m, sid)
        ):
            raise ActionRejected(f"{m.planets[pid].name} is not a captured construction centre")
        where, label = L.planet(pid), m.planets[pid].name
    else:
        raise ActionRejected(f"{at!r} is not a start circle; circles: {', '.join(m.circles)}")
    place_on(ctx, fleet, where, day(ctx))
    n = sum(1 for u in ships_in(ctx.state, fleet) if not is_fighter(u))
    if ctx.state.step != "SATHAR_SETUP" and not replacement and where.startswith("circle:"):
        today = ctx.edit_var("today", {})
        placed = today.setdefault("placed", {})
        placed[at] = placed.get(at, 0) + n
        for p in placement_problems(placed, initial=False):
            mode = ctx.options.get("later_placement_check", "warn")
            if mode != "off":
                ctx.explain(f"{'warning' if mode == 'warn' else 'not yet allowed'}: {p} (G-03)")
    ctx.summary(f"{f.name} ({n} ships) placed in {label}")


@action(
    "unplace_fleet",
    "Take a fleet back off the map (set-up only)",
    Param("fleet", "formation"),
    side="SATHAR",
    reference="0.5",
)
def unplace_fleet(ctx: Ctx, fleet: str) -> None:
    """Undo a set-up placement: the fleet goes back to the reserve."""
    f = ctx.state.formation(fleet)
    if f.side != "SATHAR" or L.parse(f.location).kind != "circle":
        raise ActionRejected(f"{f.name} is not in a start circle")
    ctx.formation(fleet).location = "reserve"
    set_move(ctx, fleet, placed=None)
    ctx.summary(f"{f.name} back in reserve")


# -- Strike Force NOVA ------------------------------------------------------------------------------
SFN = "upf-sfn"


@action("place_sfn", "Place Strike Force NOVA (roll 1d10 on T8)", side="UPF", reference="0.6, 3, T8")
def place_sfn(ctx: Ctx) -> None:
    """Roll for where Strike Force NOVA appears and put it there; it may move this same day."""
    if ctx.var("sfn_placed") or SFN not in ctx.state.formations:
        raise ActionRejected("Strike Force NOVA is already on the map")
    die = roll(ctx, "1d10", "Strike Force NOVA placement", side="UPF", table="T8")
    look = ctx.lookup("T8", roll=die.natural)
    pid = str(look.value)
    tag_table(die, str(look.cell))
    place_on(ctx, SFN, L.planet(pid), day(ctx))
    ctx.formation(SFN).visibility = "public"
    ctx.set_var("sfn_placed", True)
    m = fdm(ctx)
    ctx.summary(
        f"Strike Force NOVA appears at {look.cell} (d10 {die.natural}) in {m.name(m.planets[pid].system)}"
    )


ACTIONS = (
    assign_player,
    free_roll,
    set_observer,
    choose_retreat_condition,
    name_shatter_drone,
    deploy,
    base_fighters,
    form_fleet,
    place_fleet,
    unplace_fleet,
    place_sfn,
)
