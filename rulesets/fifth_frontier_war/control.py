"""World control, garrisons, vacuum-world surrender and red-zone opening (digest 5.17, 5.23).

* Gain: destroy every enemy squadron and SDB in the system and every enemy troop unit and
  defense battalion on the world, and hold a garrison there (covert guerrillas ignored).
* Keep: a world taken from its original owner needs troops of at least 1% of its full
  defense-battalion factor (exactly: 150 needs 1.5), or any troop unit if it has none; a
  surrendered vacuum world may instead be held by a squadron with attack > 0. Otherwise it
  reverts to its original owner (none for Esalin and independent worlds).
* Surrender: a vacuum world facing an enemy squadron with attack > 0, with no friendly
  squadrons and no active SDBs, surrenders: its battalions and friendly troops are disarmed
  (100%), and its SDBs too by default (G-19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.fifth_frontier_war.formulas import fmt, garrison_holds, garrison_needed, other, sum_frac
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ELIMINATED

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx


def garrison(g: Game, place: str, side: str) -> tuple[Any, int]:
    troops = g.troops(place, side)
    return sum_frac(g.troop_current(u) for u in troops), len(troops)


def holds(g: Game, place: str, side: str) -> bool:
    w = g.world(place)
    if not w:
        return False
    total, count = garrison(g, place, side)
    if garrison_holds(total, w.get("defense_battalions", 0), count):
        return True
    return bool(w.get("surrendered") and any(g.face(s).attack > 0 for s in g.squadrons(place, side)))


def eliminate_troop(ctx: Ctx, uid: str, why: str) -> None:
    u = ctx.unit(uid)
    u.status["loss"] = 100
    u.status["eliminated"] = True
    u.location = ELIMINATED
    ctx.explain(f"{u.label} eliminated ({why})")


def set_controller(ctx: Ctx, place: str, side: str, why: str) -> None:
    w = ctx.record("worlds", place)
    old = w.get("controller") or "nobody"
    w["controller"] = side
    if not side:
        w["surrendered"] = False
    ctx.explain(f"control of {w['name']} ({place}): {old} -> {side or 'nobody'} ({why})")
    log = ctx.edit_var("control_log", [])
    log.append(
        {
            "turn": ctx.clock.get("turn", 1),
            "hex": place,
            "name": w["name"],
            "from": old,
            "to": side or "",
            "why": why,
        }
    )


def surrender(ctx: Ctx, place: str) -> bool:
    g = Game.of(ctx)
    w = g.world(place)
    if not w or w.get("atmosphere") != "vacuum":
        return False
    owner = w.get("controller") or ""
    if owner not in ("imperial", "zhodani"):
        return False
    enemy = other(owner)
    attackers = [s for s in g.squadrons(place, enemy) if g.face(s).attack > 0]
    if not attackers or g.squadrons(place, owner):
        return False
    if g.sdb_current(w) > 0 and w.get("sdb_mode", "") != "passive":
        return False
    rec = ctx.record("worlds", place)
    rec["db_loss"] = 100
    if ctx.options.get("surrender_disarms_sdbs", True):
        rec["sdb_loss"] = 100
    for u in g.troops(place, owner):
        eliminate_troop(ctx, u.id, f"{w['name']} surrendered")
    rec["surrendered"] = True
    set_controller(ctx, place, enemy, "the vacuum world surrendered to an armed enemy squadron")
    return True


def check_world(ctx: Ctx, place: str, gain: bool = True) -> None:
    """Surrender and gain of control (with *gain*), then the garrison of a captured world."""
    g = Game.of(ctx)
    w = g.world(place)
    if not w:
        return
    if gain:
        surrender(ctx, place)
        w = g.world(place)
        owner = w.get("controller") or ""
        for side in ("imperial", "zhodani"):
            if side == owner:
                continue
            enemy = other(side)
            if g.squadrons(place, enemy) or g.troops(place, enemy):
                continue
            defender = g.defender(w, side)
            if defender is not None and (g.sdb_current(w) > 0 or g.db_current(w) > 0):
                continue
            if not g.troops(place, side):
                continue
            if holds(g, place, side):
                set_controller(ctx, place, side, "every enemy force there destroyed and the world garrisoned")
                w = g.world(place)
                break
    owner = w.get("controller") or ""
    initial = w.get("initial_controller") or ""
    if owner and owner != initial and not holds(g, place, owner):
        total, _ = garrison(g, place, owner)
        need = garrison_needed(w.get("defense_battalions", 0))
        set_controller(
            ctx,
            place,
            initial,
            f"garrison {fmt(total)} below the {fmt(need)} needed" if need else "no garrison left",
        )


def open_red_zone(ctx: Ctx, place: str) -> None:
    g = Game.of(ctx)
    w = g.world(place)
    if not w or w.get("zone") != "red" or w.get("red_opened"):
        return
    present = [
        u
        for u in g.state.units.values()
        if u.side == "zhodani"
        and g.in_play(u)
        and g.place_of(u) == place
        and g.kind(u) in ("squadron", "troop", "admiral")
    ]
    if present:
        ctx.record("worlds", place)["red_opened"] = True
        ctx.explain(
            f"{w['name']} ({place}) is no longer closed to Imperial forces: a Zhodani-player unit "
            "has entered the system"
        )


def check_all(ctx: Ctx, gain: bool = False) -> None:
    """Garrisons everywhere a world is held by a non-owner (G-18: end of movement and end of
    turn); with *gain*, surrender and gain of control too wherever units are."""
    g = Game.of(ctx)
    places = {
        h
        for h, w in g.state.records("worlds").items()
        if (w.get("controller") or "") != (w.get("initial_controller") or "")
    }
    if gain:
        places |= {g.place_of(u) for u in g.state.units.values() if g.in_play(u)}
    for place in sorted(p for p in places if p and g.world(p)):
        open_red_zone(ctx, place)
        check_world(ctx, place, gain)
