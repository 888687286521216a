"""Battles (digest 2.4, 5.6-5.8): declaration, forces, results entered from Knight Hawks.

A battle is a record in ``battles``: the day, the declaring side (the attacker), the system
and target planet, the declared stacks, and once it starts the ships and stations of both
sides, the rules used (T11), the defender's choices, and each ship's result. The tactical
fight happens on the Knight Hawks map; only its outcome comes back here, ship by ship.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State, Unit

from . import locations as L
from .fdm import Fdm
from .forces import detach_fighter, new_stack, set_move
from .ledger import destroy_station, record_loss
from .rules import battle_size
from .ships import (
    alive,
    at_planet,
    home_system,
    is_fighter,
    is_militia,
    is_station,
    ships_in,
    stacks_in_system,
    system_of,
    working,
)

OTHER = {"UPF": "SATHAR", "SATHAR": "UPF"}


def battle(state: State, bid: str | None = None) -> dict[str, Any]:
    bid = bid or str(state.vars.get("battle", ""))
    if not bid:
        raise ActionRejected("no battle is being fought now")
    return state.record("battles", bid)


def current(state: State) -> dict[str, Any] | None:
    bid = state.vars.get("battle")
    return state.records("battles").get(str(bid)) if bid else None


def contested(state: State, fdm: Fdm) -> list[dict[str, Any]]:
    """Starbursts holding Sathar ships and UPF ships, militia ships or a surviving station."""
    out = []
    for sid in fdm.systems:
        sathar = [u for u in stacks_in_system(state, fdm, sid, "SATHAR")]
        if not sathar:
            continue
        planets = {}
        for pid in fdm.system(sid).planets:
            upf = [u for u in at_planet(state, pid, "UPF")]
            if upf:
                planets[pid] = upf
        if planets:
            out.append({"system": sid, "planets": planets, "sathar": [f.id for f in sathar]})
    return out


def attacked_today(state: State) -> set[str]:
    return set(state.vars.get("today", {}).get("attacked", []))


def declared_today(state: State, side: str) -> dict[str, str]:
    """Ships of *side* already in an attack today -> the battle."""
    out: dict[str, str] = {}
    day = int(state.clock.get("day", 0))
    for bid, b in state.records("battles").items():
        if b.get("day") == day and b.get("side") == side:
            for fid in b.get("stacks", []):
                for sid in b.get("stack_ships", {}).get(fid, []):
                    out[sid] = bid
    return out


def declare(
    ctx: Ctx, fdm: Fdm, side: str, system: str, planet: str, forces: list[str], stations: list[str]
) -> str:
    state = ctx.state
    day = int(ctx.clock.get("day", 0))
    sid = fdm.find_system(system)
    planets = fdm.system(sid).planets
    if planet:
        pid = fdm.find_planet(planet)
        if pid not in planets:
            raise ActionRejected(f"{fdm.planets[pid].name} is not in {fdm.name(sid)}")
    elif len(planets) == 1:
        pid = planets[0]
    else:
        raise ActionRejected(
            f"{fdm.name(sid)} has two planets: name the target planet ({', '.join(planets)})"
        )
    mine = stacks_in_system(state, fdm, sid, side)
    if not forces:
        forces = [f.id for f in mine]
    for fid in forces:
        f = state.formation(fid)
        if f.side != side:
            raise ActionRejected(f"{f.name} is not a {side} force")
        if f.id not in [m.id for m in mine]:
            raise ActionRejected(f"{f.name} is not in {fdm.name(sid)}")
    if not forces and not stations:
        raise ActionRejected(f"no {side} force in {fdm.name(sid)}")
    busy = declared_today(state, side)
    stack_ships: dict[str, list[str]] = {}
    for fid in forces:
        ids = [u.id for u in ships_in(state, fid)]
        clash = [i for i in ids if i in busy and state.record("battles", busy[i])["planet"] != pid]
        if clash:
            raise ActionRejected(
                f"{state.unit(clash[0]).label} already attacks another planet today "
                "(one planet per ship or fleet per day)"
            )
        stack_ships[fid] = ids
    for st in stations:
        u = state.unit(st)
        if not is_station(u) or L.parse(u.location).planet != pid or not alive(u) or side != "UPF":
            raise ActionRejected(f"{u.label} is not a surviving UPF station at {fdm.planets[pid].name}")
    enemy = OTHER[side]
    if side == "SATHAR":
        targets = [u for u in at_planet(state, pid, "UPF")]
        if not targets:
            raise ActionRejected(f"there is no UPF ship or station at {fdm.planets[pid].name} to attack")
    else:
        done = attacked_today(state)
        targets = [
            u for u in stacks_units(state, stacks_in_system(state, fdm, sid, "SATHAR")) if u.id not in done
        ]
        if not targets:
            raise ActionRejected(
                "the UPF may not attack Sathar ships that attacked UPF or militia "
                "ships today, and no other Sathar ship is here"
            )
    for bid, b in state.records("battles").items():
        if (
            b.get("day") == day
            and b.get("side") == side
            and b.get("planet") == pid
            and b.get("status") == "declared"
        ):
            rec = ctx.record("battles", bid)
            rec["stacks"] = list(dict.fromkeys([*rec["stacks"], *forces]))
            rec["stack_ships"] = {**rec["stack_ships"], **stack_ships}
            rec["stations"] = list(dict.fromkeys([*rec.get("stations", []), *stations]))
            return bid
    bid = ctx.new_id(f"B{day}-", "records/battles")
    ctx.put_record(
        "battles",
        bid,
        {
            "day": day,
            "side": side,
            "enemy": enemy,
            "system": sid,
            "planet": pid,
            "stacks": forces,
            "stack_ships": stack_ships,
            "stations": stations,
            "status": "declared",
            "results": {},
            "fired": [],
            "notes": [],
        },
    )
    queue = ctx.edit_var("attack_queue", [])
    queue.append(bid)
    return bid


def stacks_units(state: State, fs: list[Any]) -> list[Unit]:
    return [u for f in fs for u in ships_in(state, f.id)]


# -- B0: the battle starts --------------------------------------------------------------------
def start(ctx: Ctx, fdm: Fdm) -> None:
    queue = ctx.edit_var("attack_queue", [])
    bid = queue.pop(0)
    ctx.set_var("battle", bid)
    b = ctx.record("battles", bid)
    state = ctx.state
    side, enemy = b["side"], b["enemy"]
    attackers = [u.id for fid in b["stacks"] if fid in state.formations for u in ships_in(state, fid)]
    attackers += [s for s in b.get("stations", []) if alive(state.unit(s))]
    if side == "SATHAR":
        defenders = [u.id for u in at_planet(state, b["planet"], "UPF")]
        dstacks = sorted({state.unit(u).formation for u in defenders if state.unit(u).formation})
    else:
        done = attacked_today(state)
        dst = stacks_in_system(state, fdm, b["system"], "SATHAR")
        defenders = [u.id for u in stacks_units(state, dst) if u.id not in done]
        dstacks = [f.id for f in dst]
    b.update(status="setup", attackers=attackers, defenders=defenders, defender_stacks=dstacks, gathered=[])
    ctx.set_var("roles", {"attacker": side, "defender": enemy})
    where = fdm.planets[b["planet"]].name
    ctx.explain(
        f"battle {bid}: {side} attack at {where} ({fdm.name(b['system'])}): "
        f"{len(attackers)} attacking, {len(defenders)} defending"
    )


def participants(b: dict[str, Any]) -> list[str]:
    return [*b.get("attackers", []), *b.get("defenders", [])]


def sathar_ids(state: State, b: dict[str, Any]) -> list[str]:
    return [i for i in participants(b) if state.unit(i).side == "SATHAR"]


def upf_ids(state: State, b: dict[str, Any]) -> list[str]:
    return [i for i in participants(b) if state.unit(i).side == "UPF"]


def long_range_sathar(state: State, b: dict[str, Any]) -> list[str]:
    """Surviving, non-fled Sathar ships of the battle with a working EB or PB (5.7)."""
    fled = set(b.get("fled", []))
    return [
        i
        for i in sathar_ids(state, b)
        if alive(state.unit(i))
        and i not in fled
        and (working(state, state.unit(i), "EB") or working(state, state.unit(i), "PB"))
    ]


def lone_station_falls(state: State) -> bool:
    """B0 -> B4: a station with no UPF ship at its planet falls on declaration (G-26)."""
    b = current(state)
    if not b or b.get("side") != "SATHAR":
        return False
    if not (
        state.options.get("station_autodestroy") and state.options.get("autodestroy_on_declaration", True)
    ):
        return False
    ups = [state.unit(i) for i in b.get("defenders", [])]
    if any(not is_station(u) for u in ups):
        return False
    return bool([u for u in ups if u.type in ("ARMED", "FORTIFIED")]) and bool(long_range_sathar(state, b))


def autodestroy_pending(state: State) -> bool:
    """B3 -> B4: the house rule applies and an armed or fortified station is in the battle."""
    b = current(state)
    if not b or not state.options.get("station_autodestroy"):
        return False
    return any(
        state.unit(i).type in ("ARMED", "FORTIFIED") and alive(state.unit(i)) for i in upf_ids(state, b)
    )


# -- B1: set-up -----------------------------------------------------------------------------------
def setup(ctx: Ctx, fdm: Fdm) -> None:
    b = ctx.record("battles", str(ctx.var("battle")))
    state = ctx.state
    _letters(ctx, b)
    counts: dict[str, int] = {}
    for i in participants(b):
        t = state.unit(i).type
        counts[t] = counts.get(t, 0) + 1
    n = battle_size(counts, str(ctx.options.get("t11_count", "all")))
    mode = str(ctx.options.get("tactical_rules", "suggested"))
    if mode == "suggested":
        look = ctx.lookup("T11", ships=max(n, 2))
        rules = str(look.value)
        if rules == "advanced_npc" and not ctx.options.get("skills", True):
            rules = "advanced"
            ctx.explain("skills are off: Advanced rules without skill modifiers")
    else:
        rules = mode
        ctx.explain(f"option tactical_rules: always {mode}")
    b["rules"] = rules
    b["suggested_for"] = n
    if rules == "basic" and ctx.options.get("basic_ship_specs"):
        ctx.explain("Basic-rules battle: rosters use the Basic Game specifications (T1b)")


def _letters(ctx: Ctx, b: dict[str, Any]) -> None:
    from .scenarios import fighter_letters

    state = ctx.state
    used = {u.status.get("letter") for u in state.units.values() if u.side == "UPF" and is_fighter(u)}
    pool = [x for x in fighter_letters() if x not in used]
    for i in participants(b):
        u = state.unit(i)
        if u.side == "UPF" and is_fighter(u) and not u.status.get("letter") and pool:
            letter = pool.pop(0)
            w = ctx.unit(i)
            w.status["letter"] = letter
            ctx.explain(f"{u.label} gets its letter in its first battle: {letter}")


def gather(ctx: Ctx, fdm: Fdm, forces: list[str]) -> list[str]:
    """Ships of either side at the system's other planet join the battle (optional, 5.6)."""
    b = ctx.record("battles", str(ctx.var("battle")))
    state = ctx.state
    added: list[str] = []
    for fid in forces:
        f = state.formation(fid)
        loc = L.parse(f.location)
        if system_of(fdm, loc) != b["system"]:
            raise ActionRejected(f"{f.name} is not in {fdm.name(b['system'])}")
        ids = [u.id for u in ships_in(state, fid)]
        key = "attackers" if f.side == b["side"] else "defenders"
        if f.side == "SATHAR" and b["side"] == "UPF":
            done = attacked_today(state)
            ids = [i for i in ids if i not in done]
        for i in ids:
            if i not in participants(b):
                b[key].append(i)
                added.append(i)
        b["gathered"] = list(dict.fromkeys([*b.get("gathered", []), fid]))
    return added


# -- B3: results ------------------------------------------------------------------------------------
def _in_battle(b: dict[str, Any], uid: str) -> None:
    if uid not in participants(b):
        raise ActionRejected(f"{uid} is not in this battle")


def destroyed(ctx: Ctx, fdm: Fdm, ids: list[str], cause: str) -> None:
    bid = str(ctx.var("battle"))
    b = ctx.record("battles", bid)
    attacker = b["side"]
    by = ", ".join(sorted({ctx.state.formation(f).name for f in b["stacks"] if f in ctx.state.formations}))
    for uid in ids:
        _in_battle(b, uid)
        u = ctx.state.unit(uid)
        if not alive(u):
            continue
        if is_station(u):
            destroy_station(
                ctx,
                fdm,
                uid,
                by if attacker == "SATHAR" else "the Sathar",
                bid,
                "combat",
                tuple(participants(b)),
            )
        else:
            record_loss(ctx, uid, cause, bid)
        b["results"][uid] = "destroyed" if cause == "combat" else cause.replace("_", " ")


def damaged(ctx: Ctx, uid: str, values: dict[str, Any]) -> str:
    b = ctx.record("battles", str(ctx.var("battle")))
    _in_battle(b, uid)
    u = ctx.state.unit(uid)
    if not alive(u):
        raise ActionRejected(f"{u.label} is destroyed")
    w = ctx.unit(uid)
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        w.status[key] = value
        shown = ", ".join(str(v) for v in value) if isinstance(value, list) else value
        parts.append(f"{key.replace('_', ' ')} {shown}")
    text = "; ".join(parts) or "undamaged"
    b["results"][uid] = f"damaged: {text}"
    return text


def militia_may_flee(state: State, fdm: Fdm, b: dict[str, Any], uid: str) -> str | None:
    """5.8: militia in their home system must fire at an enemy before breaking off."""
    u = state.unit(uid)
    if not is_militia(u) or u.status.get("deputized") or home_system(fdm, u) != b["system"]:
        return None
    fired = set(b.get("fired", []))
    if str(state.options.get("militia_attack_rule", "each_ship")) == "any_one_ship":
        same = [i for i in participants(b) if state.unit(i).status.get("home") == u.status.get("home")]
        if fired & set(same):
            return None
        return (
            f"{u.label} is militia in its home system: at least one of its militia ships must "
            "fire at an enemy ship before it may flee (record it with militia_fired)"
        )
    if uid in fired:
        return None
    return (
        f"{u.label} is militia in its home system: it must fire at an enemy ship before it may "
        "flee (record it with militia_fired)"
    )


def fled(ctx: Ctx, fdm: Fdm, ids: list[str], route_id: str, rate: int) -> str:
    """Escaped ships go to box 1 of a route out of the battle system, heading away (5.8)."""
    bid = str(ctx.var("battle"))
    b = ctx.record("battles", bid)
    state = ctx.state
    route = fdm.route(route_id)
    if b["system"] not in (route.a, route.b):
        raise ActionRejected(f"route {route.id} does not leave {fdm.name(b['system'])}")
    away = route.other(b["system"])
    sides = {state.unit(i).side for i in ids}
    if len(sides) != 1:
        raise ActionRejected("list the ships of one side at a time")
    side = sides.pop()
    ships_going: list[str] = []
    stranded: list[str] = []
    for uid in ids:
        _in_battle(b, uid)
        u = state.unit(uid)
        if not alive(u):
            raise ActionRejected(f"{u.label} is destroyed")
        if is_station(u):
            raise ActionRejected(f"{u.label} is a station and cannot flee")
        why = militia_may_flee(state, fdm, b, uid)
        if why:
            raise ActionRejected(why)
        if is_fighter(u):
            host = str(u.status.get("aboard", ""))
            if host not in ids:
                stranded.append(uid)
            continue
        ships_going.append(uid)
    if rate > 1:
        if not ctx.options.get("flee_risk_jump"):
            raise ActionRejected(
                "fleeing ships enter their transit box at one box a day (house rule "
                "flee_risk_jump allows a risk jump)"
            )
        from .ships import ship_rate

        slow = [
            state.unit(i).label
            for i in ships_going
            if ship_rate(state, state.unit(i), L.parse(f"planet:{b['planet']}")) < rate
        ]
        if slow:
            raise ActionRejected(f"cannot risk-jump at {rate}: {', '.join(slow)}")
    day = int(ctx.clock.get("day", 0))
    out = []
    if ships_going:
        box = route.to_a(1, b["system"])
        where = L.fmt(L.Loc("transit", route=route.id, box=box, heading=away))
        g = new_stack(ctx, side, f"Escaped from {fdm.name(b['system'])}", where, ships_going, prefix="fled-")
        set_move(
            ctx,
            g.id,
            moved=day,
            rate=rate,
            jump_rate=None,
            order={"kind": "go", "dest": away, "rate": rate, "groups": "all"},
        )
        for i in ships_going:
            b["results"][i] = f"fled toward {fdm.name(away)}" + (f" at RJ{rate}" if rate > 1 else "")
        b["fled"] = list(
            dict.fromkeys(
                [
                    *b.get("fled", []),
                    *ships_going,
                    *[u.id for u in state.units.values() if u.formation == g.id],
                ]
            )
        )
        out.append(f"{len(ships_going)} ship(s) escape into the first box toward {fdm.name(away)}")
    for uid in stranded:
        u = state.unit(uid)
        detach_fighter(ctx, u, f"planet:{b['planet']}")
        ctx.unit(uid).status["aboard"] = ""
        b["results"][uid] = "fled without a carrier"
        out.append(f"{u.label} breaks off but has no carrier: it must land before the day ends")
    return "; ".join(out)


def militia_fired(ctx: Ctx, ids: list[str]) -> None:
    b = ctx.record("battles", str(ctx.var("battle")))
    for uid in ids:
        _in_battle(b, uid)
    b["fired"] = list(dict.fromkeys([*b.get("fired", []), *ids]))


# -- B4 / B5 ---------------------------------------------------------------------------------------
def autodestroy(ctx: Ctx, fdm: Fdm) -> None:
    bid = str(ctx.var("battle"))
    b = ctx.record("battles", bid)
    state = ctx.state
    if not state.options.get("station_autodestroy"):
        return
    shooters = long_range_sathar(state, b)
    targets = [
        i for i in upf_ids(state, b) if state.unit(i).type in ("ARMED", "FORTIFIED") and alive(state.unit(i))
    ]
    if not targets:
        return
    if not shooters:
        ctx.explain("no surviving Sathar ship with a working EB or PB: the station must be fought normally")
        return
    names = ", ".join(state.unit(i).label for i in shooters[:4])
    by = (
        ", ".join(sorted({state.formation(f).name for f in b["stacks"] if f in state.formations}))
        if b["side"] == "SATHAR"
        else "the Sathar"
    )
    for st in targets:
        ctx.explain(f"house rule: {names} pound {state.unit(st).label} from beyond its laser range")
        destroy_station(ctx, fdm, st, by, bid, "autodestroy", tuple(participants(b)))
        b["results"][st] = "destroyed automatically"
        ctx.tags["indicator"] = "target destroyed"
    b["autodestroyed"] = targets


def post(ctx: Ctx, fdm: Fdm) -> None:
    bid = str(ctx.var("battle"))
    b = ctx.record("battles", bid)
    state = ctx.state
    today = ctx.edit_var("today", {})
    fought = today.setdefault("fought", [])
    for i in participants(b):
        if i not in fought:
            fought.append(i)
    ships_defending = [i for i in b.get("defenders", []) if not is_station(state.unit(i))]
    if b["side"] == "SATHAR" and ships_defending:
        attacked = today.setdefault("attacked", [])
        for i in b.get("attackers", []):
            if i not in attacked:
                attacked.append(i)
    for fid in [*b.get("stacks", []), *b.get("gathered", [])]:
        if (
            fid in state.formations
            and ships_in(state, fid)
            and L.parse(state.formations[fid].location).kind == "planet"
        ):
            ctx.formation(fid).location = L.planet(b["planet"])
    if b.get("rules") == "basic":
        ctx.explain("Basic rules were used: in-space repairs may start now that the battle is over")
    b["status"] = "done"
    lost = [i for i in participants(b) if not alive(state.unit(i))]
    ctx.explain(f"battle {bid} over: {len(lost)} lost, {len(b.get('fled', []))} escaped")
    ctx.set_var("battle", None)
    ctx.set_var("roles", {})


def victors_move(ctx: Ctx, fdm: Fdm, forces: list[str], route_id: str) -> str:
    """Option victor_may_move: victorious stacks move on toward an adjacent system."""
    b = ctx.record("battles", str(ctx.var("battle")))
    route = fdm.route(route_id)
    if b["system"] not in (route.a, route.b):
        raise ActionRejected(f"route {route.id} does not leave {fdm.name(b['system'])}")
    away = route.other(b["system"])
    day = int(ctx.clock.get("day", 0))
    for fid in forces:
        f = ctx.state.formation(fid)
        if fid not in [*b.get("stacks", []), *b.get("defender_stacks", []), *b.get("gathered", [])]:
            raise ActionRejected(f"{f.name} did not fight in this battle")
        ctx.formation(fid).location = L.fmt(
            L.Loc("transit", route=route.id, box=route.to_a(1, b["system"]), heading=away)
        )
        set_move(
            ctx,
            fid,
            moved=day,
            rate=1,
            jump_rate=None,
            order={"kind": "go", "dest": away, "rate": 1, "groups": "all"},
        )
    return f"{len(forces)} stack(s) move on toward {fdm.name(away)}"
