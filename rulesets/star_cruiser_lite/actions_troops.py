"""Putting troops aboard a ship and back ashore (T-06, T-07)."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_cargo import troop_load


@action(
    "load_troops",
    "Put troops aboard a ship, or ashore",
    Param("units", "units", help="troop units of one nation in one system"),
    Param("ship", help="the ship that carries them, or - to put them ashore"),
    reference="T-06, T-07",
)
def load_troops(ctx: Ctx, units: list[str], ship: str) -> None:
    """Troops go aboard a friendly ship in their system if they fit with those already aboard
    (T-06 room, T-07 sizes); a contingent wholly aboard a task force's ships moves with it."""
    g = Game(ctx.state, ctx.catalog, ctx.tables)
    troops = [g.state.unit(uid) for uid in units]
    if not troops:
        raise ActionRejected("name one or more troop units")
    for t in troops:
        if not g.is_troop(t) or not g.alive(t):
            raise ActionRejected(f"{t.id} is not a troop unit in play")
    if ship in ("-", ""):
        for t in troops:
            ctx.unit(t.id).status["carried_by"] = ""
        ctx.summary(f"{len(troops)} troop unit(s) ashore at {g.unit_system(troops[0])}")
        return
    s = g.state.unit(ship)
    if not g.is_ship(s) or not g.alive(s):
        raise ActionRejected(f"{ship} is not a ship in play")
    where = g.unit_system(s)
    for t in troops:
        if t.side != s.side or g.unit_system(t) != where:
            raise ActionRejected(f"{t.id} is not a {s.side} troop unit at {where}, where {ship} is")
    already = [u for u in g.carried(ship) if g.is_troop(u) and u.id not in units]
    codes = [g.code(u) for u in (*already, *troops)]
    load = troop_load(
        g.code(s), codes, int(g.attr(s, "troop_cap", 0) or 0), int(g.attr(s, "cargo_troops", 0) or 0)
    )
    if not load.fits:
        held = f" with {', '.join(u.id for u in already)} aboard" if already else ""
        raise ActionRejected(f"{', '.join(units)} cannot go aboard {ship}{held}: {load.why}")
    for t in troops:
        ctx.unit(t.id).status["carried_by"] = ship
    ctx.summary(f"{', '.join(units)} aboard {ship} ({load.why})")
