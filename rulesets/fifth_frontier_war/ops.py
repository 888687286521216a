"""State changes shared by many actions, all through the context: moving a fleet or a scout,
eliminating or reducing a squadron (with its cargo), admirals lost with the last squadron,
disbanding a fleet, and the secret plot ledgers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import ActionRejected
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war.formulas import cut_to_capacity, fmt
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ABOARD, ELIMINATED

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import State


# -- plots (secret per side) ----------------------------------------------------------------
def plots_of(state: State, side: str) -> dict[str, Any]:
    return dict(state.secrets.get(side, {}).get("plots", {}))


def plot(state: State, side: str, fid: str) -> P.Plot:
    return P.from_store(plots_of(state, side).get(fid))


def save_plot(ctx: Ctx, side: str, fid: str, new: P.Plot | None) -> None:
    book = plots_of(ctx.state, side)
    if new:
        book[fid] = P.to_store(new)
    else:
        book.pop(fid, None)
    ctx.set_secret(side, "plots", book)


# -- moving ---------------------------------------------------------------------------------
def _arrive(ctx: Ctx, g: Game, sid: str, dest: str, turn_for: int) -> None:
    u = ctx.unit(sid)
    u.location = dest
    u.status["needs_fuel"] = True
    u.status["jumped_turn"] = turn_for


def jump_fleet(ctx: Ctx, fid: str, dest: str, turn_for: int) -> list[str]:
    """Move a fleet with its squadrons, their cargo and its admirals. An admiral who moved by
    xboat this turn may not ride a jump (5.24): he stays behind on the world box."""
    g = Game.of(ctx)
    f = ctx.formation(fid)
    origin = f.location or ""
    notes = []
    for s in g.fleet_ships(fid):
        _arrive(ctx, g, s.id, dest, turn_for)
    for adm in g.fleet_admirals(fid):
        a = ctx.unit(adm.id)
        if int(a.status.get("xboat_turn", 0)) == g.turn and a.location == origin:
            a.formation = None
            a.status["command"] = False
            a.status["on_world"] = True
            notes.append(f"{a.label} moved by xboat this turn and stays on the world box at {origin}")
            continue
        a.location = dest
        a.status["on_world"] = False
    f.location = dest
    return notes


def jump_squadron(ctx: Ctx, sid: str, dest: str, turn_for: int) -> None:
    """An independent scout jumps, with its cargo and the admirals it carries."""
    g = Game.of(ctx)
    origin = ctx.state.units[sid].location
    _arrive(ctx, g, sid, dest, turn_for)
    for adm in g.admirals():
        if adm.status.get("carrier") == sid and adm.location == origin:
            a = ctx.unit(adm.id)
            if int(a.status.get("xboat_turn", 0)) == g.turn:
                a.status["carrier"] = ""
                a.status["on_world"] = True
                continue
            a.location = dest


# -- losses ----------------------------------------------------------------------------------
def eliminate_squadron(ctx: Ctx, sid: str, why: str) -> None:
    g = Game.of(ctx)
    sq = ctx.state.units[sid]
    place = sq.location
    for t in g.aboard(sq):
        u = ctx.unit(t.id)
        u.status["loss"] = 100
        u.status["eliminated"] = True
        u.location = ELIMINATED
        ctx.explain(f"{u.label} is lost with its carrier {sq.label}")
    for adm in g.admirals():
        if adm.status.get("carrier") == sid:
            ctx.unit(adm.id).status["carrier"] = ""
    u = ctx.unit(sid)
    u.status["eliminated"] = True
    u.location = ELIMINATED
    u.formation = None
    ctx.explain(f"{u.label} eliminated ({why}) at {place}")


def reduce_squadron(ctx: Ctx, sid: str, troop_losses: dict[str, int] | None = None) -> None:
    """Flip to the reduced face; carried troops are cut to the new capacity in 10% steps
    (the owner's choice in *troop_losses*, else the smallest cut, G-36)."""
    g = Game.of(ctx)
    u = ctx.unit(sid)
    u.status["reduced"] = True
    ctx.explain(f"{u.label} reduced")
    cargo = g.aboard(u)
    cap = g.capacity(u)
    load = g.load(u)
    if load <= cap:
        return
    if troop_losses:
        new = {k: v for k, v in troop_losses.items() if k in {t.id for t in cargo}}
    else:
        new = cut_to_capacity([(t.id, g.troop_full(t), int(t.status.get("loss", 0))) for t in cargo], cap)
    for tid, loss in new.items():
        t = ctx.unit(tid)
        if loss < int(t.status.get("loss", 0)) or loss % 10:
            raise ActionRejected(f"{t.label}: carried losses rise in steps of 10%")
        t.status["loss"] = min(100, loss)
        if loss >= 100:
            t.status["eliminated"] = True
            t.location = ELIMINATED
        ctx.explain(f"{t.label} cut to fit {u.label}'s reduced capacity {cap}: losses {loss}%")
    if g.load(u) > cap:
        raise ActionRejected(
            f"{u.label} carries {fmt(g.load(u))} troop factors, more than its reduced "
            f"capacity {cap}: cut more"
        )


def admirals_lost(ctx: Ctx, place: str, side: str) -> None:
    """Admirals riding squadrons are lost only when every friendly squadron in the hex is gone."""
    g = Game.of(ctx)
    if g.squadrons(place, side):
        return
    for adm in g.admirals(place, side):
        if not adm.status.get("on_world"):
            a = ctx.unit(adm.id)
            a.status["eliminated"] = True
            a.location = ELIMINATED
            a.formation = None
            a.status["command"] = False
            ctx.explain(f"{a.label} is lost: no friendly squadron left at {place}")


def disband_fleet(ctx: Ctx, fid: str, why: str) -> None:
    g = Game.of(ctx)
    f = ctx.state.formations[fid]
    for s in g.fleet_ships(fid):
        ctx.unit(s.id).formation = None
    for u in ctx.state.units_in(fid):
        uu = ctx.unit(u.id)
        uu.formation = None
        uu.status["command"] = False
    marker = ctx.record("fleet_markers", fid)
    marker["status"] = "available"
    save_plot(ctx, f.side, fid, None)
    ctx.remove_formation(fid)
    ctx.explain(f"{f.name} disbanded ({why}); its marker may come back into play later")


def disband_empty(ctx: Ctx) -> None:
    g = Game.of(ctx)
    for f in list(g.fleets()):
        if not g.fleet_ships(f.id):
            disband_fleet(ctx, f.id, "no squadrons left")


def carried_by(g: Game, uid: str) -> str | None:
    loc = g.state.units[uid].location or ""
    return loc[len(ABOARD) :] if loc.startswith(ABOARD) else None
