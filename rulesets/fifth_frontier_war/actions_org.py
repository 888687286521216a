"""Organization and transport actions: fleets (rule 3 "Fleet Adjustment", 5.18), admirals and
the warrant, and loading and unloading troops and admirals (5.12, 5.23)."""

from __future__ import annotations

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import Formation
from rulesets.fifth_frontier_war import candidates as C
from rulesets.fifth_frontier_war.acting import owns, side_for
from rulesets.fifth_frontier_war.formulas import fmt
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ABOARD, is_box, is_hex

# rule modules: imported at the first call of one of their functions
K = later("rulesets.fifth_frontier_war.combat")
movement = later("rulesets.fifth_frontier_war.movement")
ops = later("rulesets.fifth_frontier_war.ops")


def _plot_turn(ctx: Ctx) -> int:
    return 0 if ctx.state.step.startswith("SETUP") else int(ctx.clock.get("turn", 1))


def _squadrons_here(ctx: Ctx, g: Game, ids: list[str], side: str, place: str) -> None:
    for sid in ids:
        s = ctx.state.units[sid]
        owns(ctx, s)
        if g.kind(s) != "squadron" or not g.in_play(s):
            raise ActionRejected(f"{s.label} is not a squadron in play")
        if s.side != side:
            raise ActionRejected(f"{s.label} belongs to the {s.side} player")
        if s.location != place:
            raise ActionRejected(f"{s.label} is at {s.location}, not {place}")


def _conforms(ctx: Ctx, g: Game, fid: str, ids: list[str]) -> None:
    """No squadron joins a fleet whose plot it cannot follow (WE-10)."""
    f = ctx.state.formations[fid]
    plot = ops.plot(ctx.state, f.side, fid)
    if not plot:
        return
    before = set(movement.plot_problems(g, fid, plot, _plot_turn(ctx)))
    extra = [ctx.state.units[s] for s in ids if ctx.state.units[s].formation != fid]
    after = set(movement.plot_problems(g, fid, plot, _plot_turn(ctx), extra))
    new = sorted(after - before)
    if new:
        raise ActionRejected(f"cannot join {f.name}: it could not follow the fleet's plot ({'; '.join(new)})")


@action(
    "form_fleet",
    "Bring a fleet marker into play",
    Param("marker", "record", record="fleet_markers", candidates=C.free_markers),
    Param("squadrons", "units", candidates=C.loose_squadrons),
    Param("admiral", required=False, default="", help="an admiral present to command it"),
    reference="4A.3",
    key="f",
)
def form_fleet(ctx: Ctx, marker: str, squadrons: list[str], admiral: str) -> None:
    """Form a fleet from squadrons in one hex or box with an available fleet marker."""
    from rulesets.fifth_frontier_war.actions_setup import take_marker

    g = Game.of(ctx)
    m = ctx.state.records("fleet_markers")[marker]
    side = side_for(ctx, m["side"])
    if m["status"] == "group" and ctx.state.step.startswith("SETUP"):
        take_marker(ctx, marker)
    elif m["status"] != "available":
        raise ActionRejected(f"fleet marker {m['name']} is not available ({m['status'].replace('_', ' ')})")
    if not squadrons:
        raise ActionRejected("a fleet needs at least one squadron")
    place = ctx.state.units[squadrons[0]].location or ""
    _squadrons_here(ctx, g, squadrons, side, place)
    ctx.add_formation(
        Formation(
            marker,
            side,
            m["name"],
            "fleet",
            location=place,
            data={"navy": m["navy"]},
            status={"mismatch": False},
        )
    )
    ctx.record("fleet_markers", marker)["status"] = "in_play"
    for sid in squadrons:
        ctx.unit(sid).formation = marker
    if admiral:
        _assign(ctx, Game.of(ctx), admiral, marker, True)
    ops.disband_empty(ctx)
    ctx.summary(
        f"{m['name']} formed at {place} with {len(squadrons)} squadron(s)"
        + (f" under {ctx.state.units[admiral].label}" if admiral else "")
    )


@action(
    "attach",
    "Attach squadrons to a fleet",
    Param("squadrons", "units"),
    Param("fleet", "formation", candidates=C.own_fleets),
    reference="4A.2",
)
def attach(ctx: Ctx, squadrons: list[str], fleet: str) -> None:
    """Attach squadrons in the fleet's hex (free ones, or from another fleet) to it."""
    g = Game.of(ctx)
    f = ctx.state.formations[fleet]
    side = side_for(ctx, f.side)
    _squadrons_here(ctx, g, squadrons, side, f.location or "")
    _conforms(ctx, g, fleet, squadrons)
    for sid in squadrons:
        ctx.unit(sid).formation = fleet
    ctx.summary(f"{len(squadrons)} squadron(s) attached to {f.name}")


@action("detach", "Detach squadrons from their fleet", Param("squadrons", "units"), reference="4A.2")
def detach(ctx: Ctx, squadrons: list[str]) -> None:
    """Detached squadrons stay in the hex on their own (only scouts may move alone)."""
    for sid in squadrons:
        s = ctx.state.units[sid]
        owns(ctx, s)
        if not s.formation:
            raise ActionRejected(f"{s.label} is not in a fleet")
        ctx.unit(sid).formation = None
    ctx.summary(f"{len(squadrons)} squadron(s) detached")


@action("disband_fleet", "Disband a fleet", Param("fleet", "formation", candidates=C.own_fleets),
        reference="4A.4")
def disband_fleet(ctx: Ctx, fleet: str) -> None:
    """Detach every squadron and return the marker; it may come back into play later."""
    f = ctx.state.formations[fleet]
    side_for(ctx, f.side)
    g = Game.of(ctx)
    for s in g.fleet_ships(fleet):
        ctx.unit(s.id).formation = None
    ops.disband_fleet(ctx, fleet, "by its player")
    ctx.summary(f"{f.name} disbanded")


def _assign(ctx: Ctx, g: Game, admiral: str, fleet: str, command: bool) -> None:
    a = ctx.state.units[admiral]
    f = ctx.state.formations[fleet]
    owns(ctx, a)
    if g.kind(a) != "admiral" or not g.in_play(a):
        raise ActionRejected(f"{a.label} is not an admiral in play")
    if a.side != f.side:
        raise ActionRejected(f"{a.label} serves the other side")
    if g.place_of(a) != f.location:
        raise ActionRejected(f"{a.label} is at {g.place_of(a)}, {f.name} at {f.location}")
    if command and not g.may_command(a, g.fleet_ships(fleet)):
        raise ActionRejected(
            f"{a.label} may not command {f.name}: it holds more squadrons of other navies "
            f"than of the {g.command_navy(a).replace('_', ' ')} navy"
        )
    if command:
        old = g.commander(fleet)
        if old is not None and old.id != admiral:
            ctx.unit(old.id).status["command"] = False
            ctx.explain(f"{old.label} gives up command of {f.name} and stays with it")
    u = ctx.unit(admiral)
    u.formation = fleet
    u.status["command"] = command
    u.status["on_world"] = False
    u.status["carrier"] = ""
    u.location = f.location


@action(
    "assign_admiral",
    "Assign an admiral to a fleet",
    Param("admiral", "unit"),
    Param("fleet", "formation", candidates=C.own_fleets),
    Param("command", "bool", required=False, default=True, help="take command (else ride along)"),
    reference="4A.5, 5.18",
    key="a",
)
def assign_admiral(ctx: Ctx, admiral: str, fleet: str, command: bool) -> None:
    """Put an admiral present in the fleet's hex in command of it (or aboard it). The navy rule
    applies: no command of a fleet with more squadrons of other navies than of his own."""
    g = Game.of(ctx)
    _assign(ctx, g, admiral, fleet, command)
    f = ctx.state.formations[fleet]
    ctx.summary(
        f"{ctx.state.units[admiral].label} {'commands' if command else 'rides with'} {f.name} "
        f"(plotting factor now {Game.of(ctx).fleet_pf(fleet)})"
    )


@action(
    "pass_warrant",
    "Pass the warrant",
    Param("admiral", "unit", help="the Imperial admiral to hold it"),
    side="imperial",
    reference="4A.6, 5.23",
)
def pass_warrant(ctx: Ctx, admiral: str) -> None:
    """The warrant passes to an Imperial admiral in the same hex (or in the box where it waits)."""
    side_for(ctx, "imperial")
    g = Game.of(ctx)
    w = ctx.state.units.get("imp-warrant")
    a = ctx.state.units[admiral]
    if w is None or not g.in_play(w):
        raise ActionRejected("the warrant is not in play")
    if a.side != "imperial" or g.kind(a) != "admiral" or not g.in_play(a):
        raise ActionRejected(f"{a.label} is not an Imperial admiral in play")
    if g.place_of(w) != g.place_of(a):
        raise ActionRejected(f"the warrant is at {g.place_of(w)}, {a.label} at {g.place_of(a)}")
    u = ctx.unit("imp-warrant")
    u.status["holder"] = admiral
    u.location = "held"
    ctx.summary(f"{a.label} holds the warrant (precedence 0)")


# -- loading and unloading ----------------------------------------------------------------------
def _transfer_check(
    ctx: Ctx, g: Game, side: str, place: str, carrier: str | None, landing: bool, unit_type: str = ""
) -> None:
    step = ctx.state.step
    if step.startswith("SETUP"):
        if side == "imperial":
            raise ActionRejected("Imperial troops start on world boxes")
        return
    if step.startswith("M_"):
        if g.enemy_present(place, side):
            raise ActionRejected(
                f"enemy squadrons or SDBs are at {place}: transfers wait for the combat "
                "phase's transfer substep"
            )
        return
    if step == "C_BLACK_GLOBE":
        c = K.cv(ctx.state)
        bg = str(c.get("bg_transfer", ""))
        if not bg or (carrier and ctx.state.units[carrier].formation != bg):
            raise ActionRejected("only the black-globe fleet's squadrons transfer in the black-globe step")
        return
    if step == "ST":
        if place != K.here(ctx.state):
            raise ActionRejected(f"the transfer substep is for {K.here(ctx.state)}")
        if carrier:
            s = ctx.state.units[carrier]
            if s.status.get("stood_aside") or s.status.get("disengaged"):
                raise ActionRejected(
                    f"{s.label} declined or broke off the SDB fight (or disengaged): no transfers"
                )
        if g.enemy_sdb_active(place, side):
            if landing and unit_type == "jump" and ctx.options.get("jump_troops"):
                return
            raise ActionRejected(
                "active enemy SDBs remain in the system: no transfers (jump troops may land "
                "under the Jump Troops option)"
            )
        return
    raise ActionRejected(
        "troops and admirals load and unload only in the movement phase and the transfer substep"
    )


@action(
    "load",
    "Load troops or admirals",
    Param("units", "units", help="troop units or admirals"),
    Param("carrier", help="a squadron (troops, or an admiral riding it) or a fleet (admirals)"),
    reference="5.12",
    key="l",
)
def load(ctx: Ctx, units: list[str], carrier: str) -> None:
    """Embark troops on one squadron (within its capacity in current troop factors) or admirals
    on a squadron or fleet in the same system."""
    g = Game.of(ctx)
    carrier = carrier.strip()
    fleet = ctx.state.formations.get(carrier)
    sq = ctx.state.units.get(carrier)
    if fleet is None and (sq is None or g.kind(sq) != "squadron" or not g.in_play(sq)):
        raise ActionRejected(f"{carrier} is neither a squadron in play nor a fleet")
    place = fleet.location if fleet else sq.location  # type: ignore[union-attr]
    side = fleet.side if fleet else sq.side  # type: ignore[union-attr]
    side_for(ctx, side)
    total = g.load(sq) if sq else 0
    for uid in units:
        u = ctx.state.units[uid]
        owns(ctx, u)
        kind = g.kind(u)
        if u.side != side:
            raise ActionRejected(f"{u.label} belongs to the other side")
        if kind == "guerrilla":
            raise ActionRejected("guerrillas are never transported")
        if kind == "admiral":
            if g.place_of(u) != place:
                raise ActionRejected(f"{u.label} is not at {place}")
            continue
        if kind != "troop":
            raise ActionRejected(f"{u.label} cannot be carried")
        if u.location != place:
            raise ActionRejected(f"{u.label} is not on the world box at {place}")
        if sq is None:
            raise ActionRejected("troops ride in one squadron: give a squadron as carrier")
        total += g.troop_current(u)
    _transfer_check(ctx, g, side, place or "", sq.id if sq else None, False)
    if sq is not None and total > g.capacity(sq):
        raise ActionRejected(
            f"{sq.label} can carry {g.capacity(sq)} troop factors; this would be {fmt(total)}"
        )
    for uid in units:
        u = ctx.unit(uid)
        if g.kind(u) == "admiral":
            u.status["on_world"] = False
            if fleet is not None:
                u.formation = fleet.id
                u.status["carrier"] = ""
            else:
                u.formation = sq.formation if sq else None  # type: ignore[union-attr]
                u.status["carrier"] = "" if u.formation else carrier
            u.status["command"] = False
        else:
            u.location = ABOARD + carrier
    ctx.summary(f"{len(units)} unit(s) embark on {fleet.name if fleet else sq.label}")  # type: ignore[union-attr]


@action("unload", "Unload troops or admirals", Param("units", "units"), reference="5.12, 5.23", key="u")
def unload(ctx: Ctx, units: list[str]) -> None:
    """Land carried troops and admirals on the world box of the system they are in."""
    g = Game.of(ctx)
    for uid in units:
        u = ctx.state.units[uid]
        owns(ctx, u)
        kind = g.kind(u)
        if kind == "admiral":
            if u.status.get("on_world"):
                raise ActionRejected(f"{u.label} is already on the world box")
            place = g.place_of(u) or ""
            carrier = None
        else:
            loc = u.location or ""
            if not loc.startswith(ABOARD):
                raise ActionRejected(f"{u.label} is not aboard a squadron")
            carrier = loc[len(ABOARD) :]
            place = ctx.state.units[carrier].location or ""
        if not (is_box(place) or (is_hex(place) and g.world(place))):
            raise ActionRejected(f"there is no world box at {place}")
        _transfer_check(ctx, g, u.side, place, carrier, True, str(g.a(u, "troop_type", "")))
        problem = movement.landing_problem(g, u.side, place, "troops and admirals") if is_hex(place) else None
        if problem:
            raise ActionRejected(problem)
    for uid in units:
        u = ctx.unit(uid)
        if g.kind(u) == "admiral":
            u.status.update({"on_world": True, "command": False, "carrier": ""})
            u.formation = None
        else:
            u.location = ctx.state.units[u.location[len(ABOARD) :]].location  # type: ignore[index]
    ctx.summary(f"{len(units)} unit(s) land")


ACTIONS: list[ActionDef] = [
    form_fleet,
    attach,
    detach,
    disband_fleet,
    assign_admiral,
    pass_warrant,
    load,
    unload,
]
