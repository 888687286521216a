"""Applying damage results (T-15/T-16) to ships and facilities, destruction and survival."""

from __future__ import annotations

from fractions import Fraction

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import Unit
from rulesets.star_cruiser_lite import news
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_combat import commander_survival, damage_location
from rulesets.star_cruiser_lite.rules_logistics import facility_sp_loss

SHIP_RESULTS = ("sn", "mv", "sc", "mi", "sv", "bm", "sb", "df")


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def current_stats(g: Game, unit: Unit) -> dict[str, int]:
    return {s: g.cur(unit, s) for s in SHIP_RESULTS}


def roll_ship_damage(ctx: Ctx, unit: Unit, points: int, pending: list[str] | None = None) -> list[str]:
    """One location roll per point on the ship column; stats already lost this round (pending)
    count as gone."""
    g = game(ctx)
    stats = current_stats(g, unit)
    for res in pending or []:
        if res in stats and stats[res] > 0:
            stats[res] -= 1
    return list(damage_location(ctx, points, "ship", stats, g.label(unit), unit.side).value)


def apply_ship_results(ctx: Ctx, uid: str, results: list[str], cause: str) -> bool:
    """Apply collected results; returns True if the ship was destroyed."""
    g = game(ctx)
    unit = g.state.units[uid]
    if not g.alive(unit):
        return False
    u = ctx.unit(uid)
    for res in results:
        if res in SHIP_RESULTS and g.cur(u, res) > 0:
            u.status[f"lost_{res}"] = int(u.status.get(f"lost_{res}", 0)) + 1
    if g.cur(u, "df") <= 0:
        destroy_ship(ctx, uid, cause)
        return True
    return False


def destroy_ship(ctx: Ctx, uid: str, cause: str, fate: str = "destroyed") -> None:
    """A ship (or fighter wing) is lost: it leaves its formation; what it carries is lost with it
    (F-19: its commander rolls for survival)."""
    g = game(ctx)
    unit = g.state.units[uid]
    nation = unit.side
    for carried in g.carried(uid):
        c = ctx.unit(carried.id)
        c.status["fate"] = fate if fate != "destroyed" else "destroyed"
        c.formation = None
    captain = g.captain(unit)
    cid = unit.status.get("captain")
    u = ctx.unit(uid)
    u.status["fate"] = fate
    u.location = u.location or (
        g.state.formations[u.formation].location if u.formation in g.state.formations else None
    )
    u.formation = None
    news.event(ctx, f"{g.label(unit)} {fate} ({cause})", [nation], "loss", unit=uid)
    if fate == "destroyed":
        for fcid, c in g.commanders().items():
            if c.get("ship") == uid and c.get("alive", True) and (fcid == cid or c.get("flag")):
                ok = commander_survival(ctx, g.cq(unit), str(c.get("name", fcid)), nation).value
                rec = ctx.record("commanders", fcid)
                if ok:
                    rec["ship"] = ""
                    rec["rescued"] = True
                else:
                    rec["alive"] = False
                news.event(
                    ctx,
                    f"{c.get('name', fcid)} {'survives and is rescued' if ok else 'is lost'}",
                    [nation],
                    "commander",
                )
    elif captain is not None and cid:
        rec = ctx.record("commanders", cid)
        rec["alive"] = False
        rec["fate"] = fate


def apply_facility_results(ctx: Ctx, fid: str, results: list[str], cause: str) -> bool:
    """Apply results to a facility; '*' results send 1D6 points to a docked ship or a based
    fighter (rolled on the ship column); SP -10% rounds the loss per the option (DEFAULT-21)."""
    g = game(ctx)
    f = g.state.formations[fid]
    if f.data.get("destroyed"):
        return False
    for res in results:
        stat = res.rstrip("*")
        fac = ctx.formation(fid)
        if stat == "sp10":
            have = g.fac_sp(fac)
            loss = facility_sp_loss(have, str(ctx.options.get("facility_sp_loss_rounding", "up")))
            fac.data["sp"] = spm.store(max(Fraction(0), have - loss))
            ctx.explain(f"{fid}: supply points {spm.text(have)} - {loss}")
            continue
        if g.fac_stat(fac, stat) > 0:
            dmg = dict(fac.data.get("damage", {}))
            dmg[stat] = int(dmg.get(stat, 0)) + 1
            fac.data["damage"] = dmg
        if res.endswith("*"):
            pool = [
                u
                for u in g.state.units.values()
                if g.alive(u)
                and (
                    (stat == "repair" and u.status.get("docked") == fid)
                    or (stat == "fighters" and u.formation == fid and g.code(u) == "FTR")
                )
            ]
            bay = "Repair Bay" if stat == "repair" else "Fighter Hangar"
            if pool:
                victim = ctx.draw(
                    sorted(pool, key=lambda u: u.id),
                    1,
                    f"{fid}: who is hit in the {'dock' if stat == 'repair' else 'hangar'}",
                )[0]
                pts = ctx.roll("1d6", f"damage to {g.label(victim)} through {fid}").natural
                ctx.explain(
                    f"T-15 *: {bay} hit on {fid}: {g.label(victim)} takes 1D6 = {pts} point(s), each "
                    "on the Ship column"
                )
                results_v = roll_ship_damage(ctx, victim, pts)
                apply_ship_results(ctx, victim.id, results_v, cause)
            else:
                what = "docked" if stat == "repair" else "based"
                ctx.explain(f"T-15 *: {bay} hit on {fid}; nothing {what} there")
    if g.fac_stat(g.state.formations[fid], "df") <= 0 and g.fac_type(f) != "LP":
        destroy_facility(ctx, fid, cause)
        return True
    return False


def destroy_facility(ctx: Ctx, fid: str, cause: str) -> None:
    g = game(ctx)
    f = g.state.formations[fid]
    fac = ctx.formation(fid)
    fac.data["destroyed"] = True
    fac.data["sp"] = 0
    for u in g.members(fid):
        unit = ctx.unit(u.id)
        unit.status["fate"] = "destroyed"
        unit.formation = None
    for u in g.state.units.values():
        if u.status.get("docked") == fid and g.alive(u):
            ctx.unit(u.id).status["docked"] = ""
    news.event(
        ctx,
        f"facility {fid} ({g.fac_type(f)}) destroyed at {f.location} ({cause})",
        sorted({f.side, *f.known_to}),
        "loss",
    )
