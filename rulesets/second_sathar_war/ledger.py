"""Losses, station destructions and the checks built on them (victory, retreat).

Records kept in the campaign:

* ``losses``        one per ship lost: day, tenday, ship, class, side, militia, fighter,
                    cause (combat, breakup, stranded_fighter, misjump, shatter_drone,
                    station_destroyed), battle, replacement (none, pending, replaced, denied);
* ``station_kills`` one per station destroyed: day, tenday, type, by (fleet), battle, how.

Retreat condition 5 counts combat losses; a fighter or ship lost with its station or its
carrier is counted as a combat loss, since it died in the battle.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import State

from .fdm import Fdm
from .forces import detach_fighter
from .locations import parse
from .rules import retreat_met, retreat_outcome, sathar_victory, tenday_index
from .ships import alive, carried_by, home_system, is_fighter, is_militia, stations_in

COMBAT_CAUSES = ("combat", "breakup", "station_destroyed")


def record_loss(ctx: Ctx, unit_id: str, cause: str, battle: str = "", note: str = "") -> None:
    """A ship is lost: it leaves its stack, its fighters are stranded, the loss is recorded."""
    u = ctx.state.unit(unit_id)
    if not alive(u):
        return
    where = (
        parse(ctx.state.formations[u.formation].location)
        if u.formation in ctx.state.formations
        else parse(u.location)
    )
    w = ctx.unit(unit_id)
    w.status["destroyed"] = True
    w.formation = None
    w.location = "destroyed"
    day = int(ctx.clock.get("day", 0))
    key = ctx.new_id("L", "records/losses")
    ctx.put_record(
        "losses",
        key,
        {
            "day": day,
            "tenday": tenday_index(max(day, 1)),
            "ship": u.id,
            "name": u.label,
            "cls": u.type,
            "side": u.side,
            "militia": is_militia(u),
            "fighter": is_fighter(u),
            "cause": cause,
            "battle": battle,
            "replacement": "none",
            "note": note,
        },
    )
    ctx.explain(f"{u.label} ({u.type}) lost: {cause.replace('_', ' ')}")
    for f in carried_by(ctx.state, unit_id):
        if cause == "misjump":
            record_loss(ctx, f.id, "misjump", battle, f"aboard {u.label}")
        elif where.kind == "planet":
            detach_fighter(ctx, f, f"planet:{where.planet}")
            ctx.unit(f.id).status["aboard"] = ""
            ctx.explain(f"{f.label} is left without a carrier: it must land before the day ends")
        else:
            record_loss(ctx, f.id, cause, battle, f"aboard {u.label}")


def destroy_station(
    ctx: Ctx,
    fdm: Fdm,
    station_id: str,
    by: str,
    battle: str = "",
    how: str = "combat",
    in_battle: tuple[str, ...] = (),
) -> None:
    """A station is destroyed: kill record, based fighters, militia deputization."""
    st = ctx.state.unit(station_id)
    if not alive(st):
        return
    w = ctx.unit(station_id)
    w.status["destroyed"] = True
    day = int(ctx.clock.get("day", 0))
    ctx.put_record(
        "station_kills",
        station_id,
        {
            "day": day,
            "tenday": tenday_index(max(day, 1)),
            "station": station_id,
            "name": st.label,
            "type": st.type,
            "by": by,
            "battle": battle,
            "how": how,
        },
    )
    ctx.explain(f"{st.label} ({st.type.lower()}) destroyed ({how})")
    for f in carried_by(ctx.state, station_id):
        if f.id in in_battle:
            ctx.unit(f.id).status["aboard"] = ""
            ctx.explain(f"{f.label} was out fighting: it must land on a carrier before the day ends")
        else:
            record_loss(ctx, f.id, "station_destroyed", battle, f"based at {st.label}")
    system = fdm.planets[parse(st.location).planet].system
    if not stations_in(ctx.state, fdm, system):
        for u in list(ctx.state.units.values()):
            if alive(u) and is_militia(u) and not u.status.get("deputized") and home_system(fdm, u) == system:
                ctx.unit(u.id).status["deputized"] = True
                ctx.explain(f"{u.label} is deputized: no station is left in its home system")


# -- counts ------------------------------------------------------------------------------------
def losses(state: State, side: str | None = None) -> list[dict[str, Any]]:
    rows = [
        dict(v, id=k)
        for k, v in sorted(state.records("losses").items(), key=lambda kv: (kv[1].get("day", 0), kv[0]))
    ]
    return [r for r in rows if side is None or r["side"] == side]


def kills(state: State) -> list[dict[str, Any]]:
    return [dict(v, id=k) for k, v in sorted(state.records("station_kills").items())]


def destroyed_station_types(state: State) -> list[str]:
    return [k["type"] for k in kills(state)]


def fortresses_left(state: State) -> int:
    return sum(1 for u in state.units.values() if u.type == "FORTRESS" and alive(u))


def retreating(state: State) -> bool:
    return bool(state.vars.get("retreat"))


def victory_now(state: State) -> bool:
    return not retreating(state) and sathar_victory(destroyed_station_types(state))


def _sathar_rows(state: State, tenday: int | None = None) -> list[dict[str, Any]]:
    count_misjump = bool(state.options.get("misjump_counts_for_retreat", True))
    out = []
    for r in losses(state, "SATHAR"):
        if r["cause"] == "shatter_drone" or (r["cause"] == "misjump" and not count_misjump):
            continue
        if tenday is not None and r.get("tenday") != tenday:
            continue
        out.append({"cls": r["cls"], "fighter": r["fighter"], "combat": r["cause"] in COMBAT_CAUSES})
    return out


def _upf_rows(state: State, tenday: int | None = None) -> list[dict[str, Any]]:
    return [
        {"cls": r["cls"], "fighter": r["fighter"], "combat": r["cause"] in COMBAT_CAUSES}
        for r in losses(state, "UPF")
        if not r["militia"]
        and r["cause"] != "shatter_drone"
        and (tenday is None or r.get("tenday") == tenday)
    ]


def retreat_counters(state: State, day: int) -> dict[str, int]:
    """The public counters the retreat conditions are judged on (no condition named)."""
    rows = _sathar_rows(state)
    td = tenday_index(max(day, 1))
    per = bool(state.options.get("cond5_per_tenday", False))
    sat5 = _sathar_rows(state, td if per else None)
    upf5 = _upf_rows(state, td if per else None)
    return {
        "sathar_ac": sum(1 for r in rows if r["cls"] == "AC"),
        "sathar_hc": sum(1 for r in rows if r["cls"] == "HC"),
        "sathar_all": len(rows),
        "kills_this_tenday": sum(1 for k in kills(state) if k.get("tenday") == td),
        "sathar_combat": sum(1 for r in sat5 if r["combat"] and not r["fighter"]),
        "upf_combat": sum(1 for r in upf5 if r["combat"] and not r["fighter"]),
    }


def condition(state: State) -> int:
    return int(state.secrets.get("SATHAR", {}).get("retreat_condition", 0) or 0)


def retreat_due(state: State, tenday_end: bool) -> bool:
    """Whether the secret condition is met now (reads the sealed choice)."""
    if retreating(state):
        return False
    cond = condition(state)
    if not cond:
        return False
    day = int(state.clock.get("day", 0))
    if cond == 4 and tenday_end and day <= 10 and not state.options.get("cond4_first_tenday", True):
        return False
    td = tenday_index(max(day, 1))
    per = bool(state.options.get("cond5_per_tenday", False))
    sat = _sathar_rows(state, td if (cond == 5 and per) else None)
    upf = _upf_rows(state, td if (cond == 5 and per) else None)
    kills_td = sum(1 for k in kills(state) if k.get("tenday") == td)
    return retreat_met(cond, sat, upf, kills_td, tenday_end)


def outcome_now(state: State) -> str:
    return retreat_outcome(fortresses_left(state), str(state.options.get("retreat_zero_fortresses", "draw")))


def sathar_on_map(state: State) -> bool:
    for u in state.units.values():
        if u.side != "SATHAR" or not alive(u):
            continue
        loc = (
            parse(state.formations[u.formation].location)
            if u.formation in state.formations
            else parse(u.location)
        )
        if loc.on_map:
            return True
    return False
