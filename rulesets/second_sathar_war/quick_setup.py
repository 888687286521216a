"""Quick set-up: the rest of set-up (0.3-0.5) in one action, once the Sathar have sealed
their retreat condition (a secret choice that stays theirs).

The rules print where the task forces, stations and militias start (the scenario already
puts them there); what they leave to the players gets a legal default, said so in the
log: the shatter drones are each side's first frigates; the non-attached UPF ships form
one group at Morgaine's World with TF Prenglar; every fighter goes aboard its force's
carrier or, failing that, to the station where its force is; the Sathar reserve forms
"Sathar Attack Fleet #1" and "#2" (ships dealt out class by class, fighters aboard their
carriers) unless the scenario has its fleets, and each fleet goes whole into the emptiest
start circle, largest first (no circle holds more than half). Strike Force NOVA's decision stays
the UPF's (SFN_DECISION).
"""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State, Unit

from .actions.common import fdm
from .actions.setup import base_fighters, deploy, name_shatter_drone, place_fleet
from .forces import new_stack, transfer
from .ships import alive, carried_by, is_fighter, is_station, ships_in

STEPS = ("SHATTER_DRONES", "UPF_SETUP", "SATHAR_SETUP")
DEFAULT = "(quick set-up default)"


def why_not(state: State) -> str | None:
    if state.step in ("OPTIONS", "RETREAT_CONDITION"):
        if "sathar-reserve" not in state.formations or state.clock.get("day", 0):
            return "this campaign resumes mid-war: its forces are already placed"
        return ("the Sathar seal their retreat condition first (a secret choice); quick "
                "set-up does the rest")
    if state.step not in STEPS:
        return "set-up is over"
    return None


def _drones(ctx: Ctx) -> None:
    for side in ("UPF", "SATHAR"):
        frigates = sorted(u.id for u in ctx.state.units.values()
                          if u.side == side and u.type == "FF" and alive(u))
        named = [f for f in frigates if ctx.state.units[f].status.get("shatter_drone")]
        for fid in [f for f in frigates if f not in named][:max(0, 2 - len(named))]:
            name_shatter_drone.handler(ctx, fid)
            ctx.explain(f"{ctx.state.units[fid].label}: shatter drone {DEFAULT}")


def _host_for(state: State, fighter: Unit) -> str | None:
    force = state.formations.get(str(fighter.formation))
    ships = [u for u in state.units.values() if alive(u)]
    if force is not None:
        carrier = next((u.id for u in ships if u.type == "AC" and u.formation == force.id), None)
        if carrier:
            return carrier
        where = force.location
    else:
        where = None
    stations = sorted((u for u in ships if is_station(u) and u.side == fighter.side),
                      key=lambda u: (u.location != where, u.id))
    return stations[0].id if stations else None


def _upf(ctx: Ctx) -> None:
    pool = sorted(u.id for u in ctx.state.units.values()
                  if u.formation == "upf-non-attached" and alive(u) and not is_fighter(u))
    if pool:
        deploy.handler(ctx, pool, "morgaines-world")
        ctx.explain(f"{len(pool)} non-attached ships at Morgaine's World {DEFAULT}")
    loose = sorted((u for u in ctx.state.units.values()
                    if u.side == "UPF" and is_fighter(u) and alive(u)
                    and not u.status.get("aboard")), key=lambda u: u.id)
    by_host: dict[str, list[str]] = {}
    for f in loose:
        host = _host_for(ctx.state, f)
        if host is None:
            raise ActionRejected(f"no carrier or station for {f.label}")
        by_host.setdefault(host, []).append(f.id)
    for host, ids in by_host.items():
        base_fighters.handler(ctx, ids, host)
        ctx.explain(f"{len(ids)} fighter(s) based on {ctx.state.units[host].label} {DEFAULT}")


def _size(state: State, fid: str) -> int:
    return sum(1 for u in ships_in(state, fid) if not is_fighter(u))


def _sathar(ctx: Ctx) -> None:
    reserve = sorted((u for u in ctx.state.units.values()
                      if u.side == "SATHAR" and alive(u) and u.formation == "sathar-reserve"),
                     key=lambda u: (u.type, u.id))
    waiting = [f.id for f in ctx.state.formations.values()
               if f.side == "SATHAR" and f.kind == "fleet" and f.location == "reserve"]
    empty = [f for f in waiting if not ships_in(ctx.state, f)]
    if any(not is_fighter(u) for u in reserve):
        if not empty:
            for n in (1, 2):
                f = new_stack(ctx, "SATHAR", f"Sathar Attack Fleet #{len(waiting) + n}",
                              "reserve", kind="fleet", prefix="fleet-")
                empty.append(f.id)
            waiting += empty[-2:]
        for n, u in enumerate(u for u in reserve if not is_fighter(u)):
            transfer(ctx, [u.id], empty[n % len(empty)])
        cap = int(ctx.options.get("carrier_capacity", 8))
        carriers = [u for f in empty for u in ships_in(ctx.state, f) if u.type == "AC"]
        for u in (u for u in reserve if is_fighter(u) and not u.status.get("aboard")):
            host = next((c for c in carriers if len(carried_by(ctx.state, c.id)) < cap), None)
            if host is not None:
                transfer(ctx, [u.id], str(host.formation))
                ctx.unit(u.id).status["aboard"] = host.id
        ctx.explain(f"the Sathar reserve dealt out among {len(empty)} fleets, fighters aboard "
                    f"their carriers {DEFAULT}")
    waiting = [f for f in waiting if ships_in(ctx.state, f)]
    # the largest fleet first, each into the emptiest start circle: no circle over half
    circles = list(fdm(ctx).circles)[:max(2, len(waiting))]
    load = dict.fromkeys(circles, 0)
    for fid in sorted(waiting, key=lambda f: (-_size(ctx.state, f), f)):
        at = min(circles, key=lambda c: (load[c], circles.index(c)))
        place_fleet.handler(ctx, fid, at)
        load[at] += _size(ctx.state, fid)
        ctx.explain(f"{ctx.state.formations[fid].name}: {_size(ctx.state, fid)} ships in "
                    f"{fdm(ctx).circles[at].name} {DEFAULT}")


def run(ctx: Ctx) -> None:
    if ctx.state.step == "SHATTER_DRONES":
        _drones(ctx)
        ctx.advance()
    if ctx.state.step == "UPF_SETUP":
        _upf(ctx)
        ctx.advance()
    if ctx.state.step == "SATHAR_SETUP":
        _sathar(ctx)
        ctx.advance()
    ctx.summary(f"Quick set-up: UPF and Sathar forces placed by default; {ctx.step.title} next")
