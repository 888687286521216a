"""The chores of each day and of the tenday and 20-day cycles (digest 2.2 step 9, 5.10-5.13).

In order: at the start of a day the per-day flags are cleared, displaced ships return and
Void repairs and Sathar replacements become available; UPF replacements appear at their
stations when the UPF reinforce. At the end of the day stranded fighters die, ships that
spent the whole day at a planet in supply rearm, construction centres repair, then the
victory and retreat checks run (conditions 4 and 5 at a tenday's end) and, every 20th day
with the optional rule, the replacement phase.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import State, Unit

from . import locations as L
from .dice_util import d100
from .fdm import Fdm
from .forces import cleanup, new_stack, set_move
from .ledger import condition, fortresses_left, losses, outcome_now, record_loss, retreat_counters
from .rules import BIG_CLASSES, SMALL_CLASSES, captured_capacity, tenday_index, upf_entitlement
from .ships import (
    alive,
    is_fighter,
    is_station,
    loc_of,
    sathar_ships_in,
    ships,
    station_at_planet,
    stations_in,
    upf_ships_in,
)
from .supply import SupplyMap


# -- start of a day ------------------------------------------------------------------------------
def start_of_day(ctx: Ctx, fdm: Fdm) -> None:
    day = int(ctx.clock["day"])
    ctx.set_var("today", {"moved": [], "attacked": [], "fought": [], "placed": {}})
    ctx.set_var("attack_queue", [])
    ctx.set_var("repair_plan", {})
    ctx.set_var(
        "day_start",
        {
            u.id: L.fmt(loc_of(ctx.state, u))
            for u in ships(ctx.state)
            if loc_of(ctx.state, u).kind == "planet"
        },
    )
    for f in list(ctx.state.formations.values()):
        if f.location == "lost" and int(f.status.get("return_day", -1)) == day:
            where = str(f.status.get("return_to"))
            ctx.formation(f.id).location = where
            set_move(ctx, f.id, no_move=day, return_day=None, return_to=None)
            ctx.explain(f"{f.name} reappears after its misjump ({where}); it may not move today")
        elif f.location == "void" and int(f.status.get("return_day", -1)) == day:
            for u in [x for x in ctx.state.units.values() if x.formation == f.id and alive(x)]:
                repair_fully(ctx, u, rearm=bool(ctx.options.get("void_rearm", True)))
            ctx.formation(f.id).location = "reserve"
            set_move(ctx, f.id, return_day=None)
            ctx.explain(f"{f.name} is back from the Void, fully repaired; place it in a start circle")
    pending = [r for r in losses(ctx.state, "SATHAR") if r.get("replacement") == "pending"]
    if pending:
        ids = []
        for r in pending:
            revive(ctx, r["ship"])
            ctx.record("losses", r["id"])["replacement"] = "replaced"
            ids.append(r["ship"])
        ships_ = [i for i in ids if not is_fighter(ctx.state.unit(i))]
        g = new_stack(
            ctx, "SATHAR", f"Sathar replacements (day {day})", "reserve", ships_, kind="fleet", prefix="repl-"
        )
        for i in ids:
            if is_fighter(ctx.state.unit(i)):
                w = ctx.unit(i)
                w.formation = g.id
                w.location = None
        ctx.explain(f"Sathar replacements ready to enter: {len(ids)} ship(s)")


def revive(ctx: Ctx, uid: str) -> Unit:
    w = ctx.unit(uid)
    w.status.update(
        destroyed=False,
        hull_damage=0,
        adf_lost=0,
        mr_lost=0,
        dcr_halved=False,
        systems_out=[],
        flags=[],
        spent=[],
        hull_station_only=False,
        station_repair=[],
        aboard="",
    )
    w.location = None
    return w


def repair_fully(ctx: Ctx, u: Unit, rearm: bool = True) -> None:
    w = ctx.unit(u.id)
    w.status.update(
        hull_damage=0,
        adf_lost=0,
        mr_lost=0,
        dcr_halved=False,
        systems_out=[],
        flags=[],
        hull_station_only=False,
        station_repair=[],
    )
    if rearm:
        w.status["spent"] = []


def upf_reinforcements(ctx: Ctx, fdm: Fdm) -> None:
    day = int(ctx.clock["day"])
    for r in losses(ctx.state, "UPF"):
        if r.get("replacement") != "pending" or not r.get("at"):
            continue
        station = ctx.state.unit(r["at"])
        pid = L.parse(station.location).planet
        if ctx.options.get("upf_replacement_placement") == "fortress":
            forts = [s for s in stations_in(ctx.state, fdm, fdm.planets[pid].system) if s.type == "FORTRESS"]
            if forts:
                pid = L.parse(forts[0].location).planet
        u = revive(ctx, r["ship"])
        if is_fighter(u):
            host = station_at_planet(ctx.state, pid)
            w = ctx.unit(u.id)
            w.formation = None
            w.location = L.planet(pid)
            w.status["aboard"] = host.id if host is not None and alive(host) else ""
        else:
            g = new_stack(ctx, "UPF", f"Replacement {u.label}", L.planet(pid), [u.id], prefix="repl-")
            set_move(ctx, g.id, placed=day)
        ctx.record("losses", r["id"])["replacement"] = "replaced"
        ctx.explain(f"replacement {u.label} ({u.type}) appears at {fdm.planets[pid].name}")


# -- end of the day --------------------------------------------------------------------------------
def end_of_day(ctx: Ctx, fdm: Fdm) -> None:
    stranded_fighters(ctx)
    rearm(ctx, fdm)
    repairs(ctx, fdm)
    ctx.set_var("repair_plan", {})
    cleanup(ctx)


def stranded(state: State) -> list[Unit]:
    out = []
    for u in state.units.values():
        if not alive(u) or not is_fighter(u):
            continue
        loc = loc_of(state, u)
        if not loc.on_map:
            continue
        host = state.units.get(str(u.status.get("aboard", "")))
        ok = (
            host is not None
            and alive(host)
            and (
                (host.type == "AC" and host.formation == u.formation and host.formation is not None)
                or (is_station(host) and L.parse(host.location) == loc)
            )
        )
        if not ok:
            out.append(u)
    return out


def stranded_fighters(ctx: Ctx) -> None:
    for u in stranded(ctx.state):
        ctx.explain(f"{u.label} is not aboard a carrier or station when the day ends")
        record_loss(ctx, u.id, "stranded_fighter")


def _stayed(state: State, u: Unit) -> bool:
    today = state.vars.get("today", {})
    if u.id in today.get("moved", []) or u.id in today.get("fought", []) or u.id in today.get("attacked", []):
        return False
    start = state.vars.get("day_start", {}).get(u.id)
    return start is not None and start == L.fmt(loc_of(state, u))


def rearm(ctx: Ctx, fdm: Fdm) -> None:
    """5.10: a whole day at a planet in supply restores spent ammunition of intact systems."""
    state = ctx.state
    supply = SupplyMap(state, fdm)
    keep_ms = not ctx.options.get("rearm_mines_seekers", True)
    supplied_hosts: set[str] = set()
    for u in sorted(ships(state), key=lambda x: x.id):
        if is_fighter(u):
            continue
        loc = loc_of(state, u)
        if loc.kind != "planet" or not _stayed(state, u):
            continue
        if not supply.in_supply(u.side, loc):
            continue
        supplied_hosts.add(u.id)
        left = [s for s in u.status.get("spent", []) if keep_ms and str(s).split(":")[0] in ("M", "S")]
        if u.status.get("spent") and list(u.status.get("spent")) != left:
            ctx.unit(u.id).status["spent"] = left
            ctx.explain(f"{u.label} rearms (a whole day at {fdm.planets[loc.planet].name}, in supply)")
        if u.status.get("oos_rearms"):
            ctx.unit(u.id).status["oos_rearms"] = 0
    for st in [s for s in state.units.values() if is_station(s) and alive(s)]:
        loc = L.parse(st.location)
        if supply.in_supply("UPF", loc):
            supplied_hosts.add(st.id)
            if st.status.get("oos_rearms"):
                ctx.unit(st.id).status["oos_rearms"] = 0
    fought = set(state.vars.get("today", {}).get("fought", []))
    hosts: dict[str, list[Unit]] = {}
    for u in ships(state):
        if is_fighter(u) and u.status.get("spent") and u.id not in fought and u.status.get("aboard"):
            hosts.setdefault(str(u.status["aboard"]), []).append(u)
    for host_id, fighters in sorted(hosts.items()):
        host = state.units.get(host_id)
        if host is None or not alive(host):
            continue
        used = int(host.status.get("oos_rearms", 0))
        if host_id in supplied_hosts:
            ok, new_used = True, 0
        elif used < 2:
            ok, new_used = True, used + 1
        else:
            ok, new_used = False, used
        if not ok:
            ctx.explain(f"{host.label} is out of supply and has rearmed its fighters twice: no rearm")
            continue
        for f in fighters:
            ctx.unit(f.id).status["spent"] = []
        if new_used != used:
            ctx.unit(host_id).status["oos_rearms"] = new_used
        note = "" if host_id in supplied_hosts else f" (out of supply: {new_used} of 2)"
        ctx.explain(f"{host.label} rearms {len(fighters)} fighter(s){note}")


REPAIR_SYSTEMS = ("drives", "steering", "dcr", "ccs", "nav", "power_short", "fire", "disastrous_fire")


def damaged_systems(u: Unit) -> list[str]:
    out = []
    if int(u.status.get("adf_lost", 0)):
        out.append("drives")
    if int(u.status.get("mr_lost", 0)):
        out.append("steering")
    if u.status.get("dcr_halved"):
        out.append("dcr")
    flag_map = {
        "ccs_hit": "ccs",
        "nav_hit": "nav",
        "power_short": "power_short",
        "fire": "fire",
        "disastrous_fire": "disastrous_fire",
    }
    for flag in u.status.get("flags", []):
        if flag in flag_map and flag_map[flag] not in out:
            out.append(flag_map[flag])
    out.extend(str(s) for s in u.status.get("systems_out", []))
    return out


def restore(ctx: Ctx, u: Unit, job: str) -> str:
    w = ctx.unit(u.id)
    if job == "drives":
        w.status["adf_lost"] = 0
    elif job == "steering":
        w.status["mr_lost"] = 0
    elif job == "dcr":
        w.status["dcr_halved"] = False
        w.status["flags"] = [f for f in w.status.get("flags", []) if f != "dcr_hit"]
    elif job in ("ccs", "nav", "power_short", "fire", "disastrous_fire"):
        flag = {"ccs": "ccs_hit", "nav": "nav_hit"}.get(job, job)
        w.status["flags"] = [f for f in w.status.get("flags", []) if f != flag]
    else:
        out = list(w.status.get("systems_out", []))
        if job in out:
            out.remove(job)
        w.status["systems_out"] = out
    w.status["station_repair"] = [s for s in w.status.get("station_repair", []) if s != job]
    return job


def scc_capacity(ctx: Ctx, pid: str, side: str) -> int:
    """A construction centre's daily hull points (T12, with the GM's corrections)."""
    return int(ctx.lookup("T12", scc=pid, side=side).value)


def repairs(ctx: Ctx, fdm: Fdm) -> None:
    """5.11b/d: a whole day docked at an SCC gives one system or a share of the hull points."""
    from .rules import scc_allocate

    state = ctx.state
    sccs = _scc_planets(ctx)
    plan: dict[str, str] = dict(state.vars.get("repair_plan", {}))
    for pid in sccs:
        sid = fdm.planets[pid].system
        station = station_at_planet(state, pid)
        for side in ("UPF", "SATHAR"):
            docked = [
                u
                for u in ships(state, side)
                if not is_fighter(u)
                and loc_of(state, u).kind == "planet"
                and loc_of(state, u).planet == pid
                and _stayed(state, u)
            ]
            docked = [u for u in docked if damaged_systems(u) or int(u.status.get("hull_damage", 0))]
            if not docked:
                continue
            if side == "UPF":
                if sathar_ships_in(state, fdm, sid):
                    ctx.explain(f"{fdm.planets[pid].name}: no repairs while Sathar ships are in the system")
                    continue
                if ctx.options.get("scc_needs_station", True) and (station is None or not alive(station)):
                    ctx.explain(f"{fdm.planets[pid].name}: the construction centre's station is destroyed")
                    continue
                cap = scc_capacity(ctx, pid, "UPF")
            else:
                if stations_in(state, fdm, sid) or upf_ships_in(state, fdm, sid):
                    continue
                cap = captured_capacity(scc_capacity(ctx, pid, "UPF"))
                ctx.explain(
                    f"{fdm.planets[pid].name} is a captured construction centre: "
                    f"the Sathar repair {cap} hull points a day"
                )
            needs = []
            for u in docked:
                job = plan.get(u.id) or (
                    "hull" if int(u.status.get("hull_damage", 0)) else damaged_systems(u)[0]
                )
                if job == "hull":
                    needs.append((u.id, int(u.status.get("hull_damage", 0))))
                elif job != "none":
                    restore(ctx, u, job.removeprefix("system:"))
                    ctx.explain(
                        f"{u.label}: {job.removeprefix('system:')} fully repaired at {fdm.planets[pid].name}"
                    )
            for uid, pts in scc_allocate(cap, needs).items():
                if pts <= 0:
                    continue
                w = ctx.unit(uid)
                w.status["hull_damage"] = int(w.status.get("hull_damage", 0)) - pts
                if w.status["hull_damage"] == 0:
                    w.status["hull_station_only"] = False
                ctx.explain(f"{w.label}: {pts} hull points repaired at {fdm.planets[pid].name}")


def _scc_planets(ctx: Ctx) -> list[str]:
    table = ctx.tables.get("T12")
    return [str(v) for v in table.axes[0].values]


# -- tenday and replacements -------------------------------------------------------------------------
def tenday_report(ctx: Ctx) -> None:
    day = int(ctx.clock["day"])
    counts = retreat_counters(ctx.state, day)
    reports = ctx.edit_var("tenday_reports", [])
    reports.append({"day": day, **counts})
    ctx.explain(
        f"end of tenday {tenday_index(day)}: {counts['kills_this_tenday']} station(s) destroyed "
        f"this tenday; combat losses (no fighters, no militia) Sathar {counts['sathar_combat']}, "
        f"UPF {counts['upf_combat']}"
    )


def replacement_phase(ctx: Ctx, fdm: Fdm) -> None:
    """5.12: Sathar d100 <= 35 per eligible loss; the UPF entitlement is computed."""
    day = int(ctx.clock["day"])
    window = {tenday_index(day) - 1, tenday_index(day)}
    fighters_ok = bool(ctx.options.get("sathar_fighter_replacement", True))
    for r in losses(ctx.state, "SATHAR"):
        if r.get("replacement") != "none" or r["cause"] not in ("combat", "breakup"):
            continue
        if r.get("tenday") not in window or (r["fighter"] and not fighters_ok):
            continue
        die = d100(ctx, f"Sathar replacement roll for {r['name']} ({r['cls']})", 35, "T14", "SATHAR")
        look = ctx.lookup("T14", roll=die.natural)
        outcome = "pending" if look.value == "returns" else "denied"
        die.result = str(look.cell)
        ctx.record("losses", r["id"])["replacement"] = outcome
    forts = [u for u in ctx.state.units.values() if u.type == "FORTRESS" and alive(u)]
    fortified = [u for u in ctx.state.units.values() if u.type == "FORTIFIED" and alive(u)]
    ent = upf_entitlement(len(forts), len(fortified))
    ctx.set_var("replacement", {"day": day, **ent, "stations": [u.id for u in [*forts, *fortified]]})
    ctx.explain(
        f"UPF entitlement: {ent['big']} ship(s) of frigate class or larger (one per surviving "
        f"fortress), {ent['small']} assault scouts or fighters (two per surviving fortified station)"
    )


def upf_pool(state: State) -> list[dict[str, Any]]:
    day = int(state.clock.get("day", 0))
    window = {tenday_index(day) - 1, tenday_index(day)}
    recent = state.options.get("upf_replacement_pool") == "last_20_days"
    return [
        r
        for r in losses(state, "UPF")
        if not r["militia"]
        and r.get("replacement") == "none"
        and r["cause"] not in ("shatter_drone", "misjump")
        and not state.unit(r["ship"]).status.get("shatter_drone")
        and (not recent or r.get("tenday") in window)
    ]


def station_quota(state: State, station_id: str) -> tuple[int, tuple[str, ...]]:
    t = state.unit(station_id).type
    return (1, BIG_CLASSES) if t == "FORTRESS" else (2, SMALL_CLASSES) if t == "FORTIFIED" else (0, ())


# -- retreat and the end --------------------------------------------------------------------------
def reveal_retreat(ctx: Ctx, fdm: Fdm) -> None:
    from .scenarios import condition_text

    cond = condition(ctx.state)
    day = int(ctx.clock["day"])
    result = outcome_now(ctx.state)
    ctx.set_var(
        "retreat",
        {
            "condition": cond,
            "text": condition_text(cond),
            "day": day,
            "result": result,
            "fortresses": fortresses_left(ctx.state),
        },
    )
    ctx.explain(f"the Sathar retreat condition is met and revealed: {cond}. {condition_text(cond)}")
    ctx.explain(f"the UPF holds {fortresses_left(ctx.state)} fortress(es): result {result.replace('_', ' ')}")
    queue = [b for b in ctx.var("attack_queue", []) if ctx.state.record("battles", b)["side"] != "SATHAR"]
    ctx.set_var("attack_queue", queue)
    for f in ctx.state.formations.values():
        if f.side == "SATHAR" and L.parse(f.location).on_map:
            set_move(ctx, f.id, order={"kind": "withdraw"})


def final_outcome(ctx: Ctx) -> None:
    if ctx.var("outcome"):
        return
    retreat = ctx.var("retreat")
    if retreat:
        result = retreat["result"]
        winner = {"upf_victory": "UPF", "draw": "draw"}.get(result, "")
        ctx.set_var(
            "outcome",
            {
                "result": result,
                "winner": winner,
                "reason": f"the Sathar retreated on day {retreat['day']} (condition {retreat['condition']})",
            },
        )


def sathar_win(ctx: Ctx) -> None:
    kills = len(ctx.state.records("station_kills"))
    ctx.set_var(
        "outcome",
        {
            "result": "sathar_victory",
            "winner": "SATHAR",
            "reason": f"{kills} stations destroyed, all four fortresses among them",
        },
    )


def replacement_candidates(state: State, station_id: str) -> list[dict[str, Any]]:
    _, classes = station_quota(state, station_id)
    return [r for r in upf_pool(state) if r["cls"] in classes]
