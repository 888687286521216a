"""Markdown reports for ``campaign-tui report`` and the interface, built from a side's view.

* Fleet locations: the status board of the seed (one row per station), with the totals
  toward a Sathar victory;
* Frontier Deployment Map: a text picture of the provisional map with every stack;
* Time record, losses, the retreat tracker (the condition only for the Sathar and the GM,
  or once revealed), battles and the day log.
"""

from __future__ import annotations

from campaign_tui.core.model import State

from . import locations as L
from .fdm import Fdm
from .ledger import kills, losses, retreat_counters
from .movement import eta
from .rules import day_text, is_replacement_day, tenday_index
from .ships import at_planet, condition, is_fighter, is_station, ships_in, summary


def build(view: State, viewer: str) -> dict[str, str]:
    m = Fdm.of(view)
    out = {
        "Fleet locations": fleet_locations(view, m),
        "Frontier Deployment Map": text_map(view, m),
        "Time record": time_record(view),
        "Losses": loss_report(view),
        "Damaged ships": damaged_ships(view),
        "Retreat tracker": retreat_tracker(view, viewer),
    }
    battles = battle_report(view, m)
    if battles:
        out["Battles"] = battles
    log = day_log(view)
    if log:
        out["Day log"] = log
    return out


def _stack_label(view: State, fid: str) -> str:
    f = view.formations[fid]
    inside = ships_in(view, fid)
    if not inside:
        return f"{f.name} (contents hidden)" if f.visibility != "public" else f.name
    rj = int(f.status.get("rate", 1))
    tag = f" RJ{rj}" if rj >= 2 else ""
    when = eta(view, Fdm.of(view), f)
    dest = (f.status.get("order") or {}).get("dest", "")
    going = f" (ETA {Fdm.of(view).name(dest)} day {when})" if when is not None else ""
    return f"{f.name}{tag} [{summary(inside)}]{going}"


def fleet_locations(view: State, m: Fdm) -> str:
    lines = [
        "# Fleet locations",
        "",
        f"{day_text(int(view.clock.get('day', 0)))}",
        "",
        "| Station (system) | Type | Status | UPF and militia present | Sathar present |",
        "|---|---|---|---|---|",
    ]
    destroyed = {k["station"]: k for k in kills(view)}
    for st in sorted((u for u in view.units.values() if is_station(u)), key=lambda u: (-_rank(u.type), u.id)):
        pid = L.parse(st.location).planet
        sysname = m.name(m.planets[pid].system) if pid in m.planets else "?"
        here = [u for u in at_planet(view, pid) if not is_station(u)]
        upf = [u for u in here if u.side == "UPF"]
        sat = [u for u in here if u.side == "SATHAR"]
        if st.id in destroyed:
            k = destroyed[st.id]
            when = f"day {k['day']}" if k.get("day") else f"tenday {k.get('tenday', '?')}"
            status = (
                f"**destroyed** ({when}, {k.get('by', '?')}"
                + (f"; {k['note']}" if k.get("note") else "")
                + ")"
            )
        else:
            status = "intact"
        lines.append(
            f"| {st.name} ({sysname}) | {st.type.capitalize()} | {status} | {_forces(view, upf)} | "
            f"{_forces(view, sat)} |"
        )
    k = kills(view)
    forts = sum(1 for x in k if x["type"] == "FORTRESS")
    lines += [
        "",
        f"Stations destroyed: **{len(k)}/12**, fortresses **{forts}/4** "
        "(the Sathar win at once with 12 including all 4).",
    ]
    return "\n".join(lines)


def _rank(kind: str) -> int:
    return {"FORTRESS": 3, "FORTIFIED": 2, "ARMED": 1}.get(kind, 0)


def _forces(view: State, units: list) -> str:  # type: ignore[type-arg]
    if not units:
        return "-"
    by_stack: dict[str, list] = {}  # type: ignore[type-arg]
    for u in units:
        by_stack.setdefault(u.formation or "(based here)", []).append(u)
    parts = []
    for fid, us in by_stack.items():
        name = view.formations[fid].name if fid in view.formations else fid
        parts.append(f"{name}: {summary(us)}")
    return "; ".join(parts)


def text_map(view: State, m: Fdm) -> str:
    lines = [
        "# Frontier Deployment Map",
        "",
        "_Provisional default graph (routes and lengths from the public dagorym/SSW program's star "
        "map, EXTERNAL): NOT the rulebook's FDM, which the seed lacks. The GM corrects it with the "
        "gm.fdm_* actions; edited values are marked (house)._",
        "",
        "Legend: `[ ]` transit box, `>` jump box toward the right-hand system, `<` toward the left-hand "
        "one, `X` both; a digit marks a stack (listed below the route).",
        "",
    ]
    positions: dict[str, list[tuple[L.Loc, str]]] = {}
    for f in view.formations.values():
        loc = L.parse(f.location)
        if not any(u.formation == f.id for u in view.units.values()) and f.visibility == "public":
            continue
        positions.setdefault(loc.kind, []).append((loc, f.id))
    lines.append("## Systems")
    for s in m.systems.values():
        parts = []
        for pid in s.planets:
            p = m.planets[pid]
            st = [u for u in view.units.values() if is_station(u) and L.parse(u.location).planet == pid]
            st_text = (
                f" [{st[0].name}{' - destroyed' if st and st[0].status.get('destroyed') else ''}]"
                if st
                else ""
            )
            stacks = [fid for loc, fid in positions.get("planet", []) if loc.planet == pid]
            based = [
                u
                for u in view.units.values()
                if not u.formation
                and is_fighter(u)
                and L.parse(u.location).planet == pid
                and not u.status.get("destroyed")
            ]
            present = [_stack_label(view, fid) for fid in stacks]
            if based:
                present.append(f"based fighters [{summary(based)}]")
            parts.append(f"{p.name}{st_text}" + (": " + "; ".join(present) if present else ""))
        lines.append(f"- **{s.name}**: " + " | ".join(parts))
    lines += ["", "## Routes"]
    for r in m.routes.values():
        marks: dict[int, list[str]] = {}
        legend = []
        for loc, fid in positions.get("transit", []):
            if loc.route == r.id:
                n = len(legend) + 1
                marks.setdefault(loc.box, []).append(str(n))
                legend.append(f"  {n}: {_stack_label(view, fid)} -> {m.name(loc.heading)} (box {loc.box})")
        cells = []
        jb = r.boxes + 1 - r.jump_from_b
        for k in range(1, r.boxes + 1):
            mark = marks.get(k)
            if mark:
                cells.append(f"[{''.join(mark)[:2]}]")
            else:
                j = (
                    "X"
                    if k == r.jump_from_a and k == jb
                    else ">"
                    if k == r.jump_from_a
                    else "<"
                    if k == jb
                    else " "
                )
                cells.append(f"[{j}]")
        prov = "" if r.provenance == "external" else f" ({r.provenance})"
        lines.append(
            f"- {m.name(r.a)} {''.join(cells)} {m.name(r.b)}  ({r.boxes} boxes, jump "
            f"{r.jump_from_a}/{r.jump_from_b}){prov}"
        )
        lines.extend(legend)
    lines += ["", "## Sathar start circles (red routes)"]
    for c in m.circles.values():
        inside = [fid for loc, fid in positions.get("circle", []) if loc.circle == c.id]
        reds = []
        legend = []
        for k in range(1, c.red_boxes + 1):
            here = [fid for loc, fid in positions.get("red", []) if loc.circle == c.id and loc.box == k]
            if here:
                n = len(legend) + 1
                for fid in here:
                    loc = L.parse(view.formations[fid].location)
                    legend.append(
                        f"  {len(legend) + 1}: {_stack_label(view, fid)} "
                        f"({'inward' if loc.inward else 'outward'}, red box {k})"
                    )
                reds.append(f"[{n}]")
            else:
                reds.append("[r]")
        prov = "" if c.provenance == "external" else f" ({c.provenance})"
        circle = (
            f"({c.name}" + (": " + "; ".join(_stack_label(view, f) for f in inside) if inside else "") + ")"
        )
        lines.append(f"- {circle} {''.join(reds)} -> {m.name(c.target)}{prov}")
        lines.extend(legend)
    off = []
    for kind, label in (
        ("offmap", "off the map"),
        ("reserve", "Sathar reserve"),
        ("void", "in the Void"),
        ("lost", "lost after a misjump"),
        ("unassigned", "not yet deployed"),
        ("withdrawn", "withdrawn"),
    ):
        for _, fid in positions.get(kind, []):
            f = view.formations[fid]
            extra = f" (back on day {f.status['return_day']})" if f.status.get("return_day") else ""
            off.append(f"- {_stack_label(view, fid)}: {label}{extra}")
    if off:
        lines += ["", "## Off the map", *off]
    return "\n".join(lines)


def time_record(view: State) -> str:
    day = int(view.clock.get("day", 0))
    lines = ["# Time record", "", day_text(day)]
    if day > 0:
        nxt = 10 * tenday_index(day)
        lines.append(f"Next tenday check (retreat conditions 4 and 5): end of day {nxt}.")
        if view.options.get("replacements"):
            rep = next(d for d in range(day, day + 21) if is_replacement_day(d, True))
            lines.append(f"Next replacement phase: end of day {rep}.")
    for r in view.vars.get("tenday_reports", []):
        lines.append(
            f"- Day {r['day']}: {r['kills_this_tenday']} station(s) destroyed in the tenday; combat "
            f"losses Sathar {r['sathar_combat']}, UPF {r['upf_combat']}"
        )
    return "\n".join(lines)


def loss_report(view: State) -> str:
    rows = losses(view)
    lines = ["# Losses", ""]
    if not rows:
        return "\n".join([*lines, "No ship lost yet."])
    lines += ["| Day | Side | Ship | Class | Cause | Replacement |", "|---|---|---|---|---|---|"]
    for r in rows:
        side = "militia" if r.get("militia") else r["side"]
        day = r.get("day", f"tenday {r.get('tenday')}")
        lines.append(
            f"| {day} | {side} | {r['name']} | {r['cls']} | {r['cause'].replace('_', ' ')} | "
            f"{r.get('replacement', 'none')} |"
        )
    return "\n".join(lines)


def retreat_tracker(view: State, viewer: str) -> str:
    day = int(view.clock.get("day", 0))
    c = retreat_counters(view, day)
    lines = ["# Sathar retreat tracker", ""]
    revealed = view.vars.get("retreat")
    if revealed:
        lines.append(
            f"**The Sathar retreat** since day {revealed['day']}: condition {revealed['condition']} - "
            f"{revealed['text']} Result: {str(revealed['result']).replace('_', ' ')}."
        )
    elif viewer in ("gm", "SATHAR"):
        cond = view.secrets.get("SATHAR", {}).get("retreat_condition")
        lines.append(f"Sealed condition (hidden from the UPF): {cond or 'not chosen yet'}.")
    else:
        lines.append("The Sathar retreat condition is sealed; it is revealed when it is met.")
    lines += [
        "",
        f"- Sathar assault carriers lost: {c['sathar_ac']} (condition 1 at 2)",
        f"- Sathar heavy cruisers lost: {c['sathar_hc']} (condition 2 at 5)",
        f"- Sathar ships lost, fighters included: {c['sathar_all']} (condition 3 at 40)",
        f"- Stations destroyed this tenday: {c['kills_this_tenday']} (condition 4: fewer than 2 at the "
        "tenday's end)",
        f"- Combat losses without fighters and militia: Sathar {c['sathar_combat']}, UPF {c['upf_combat']} "
        "(condition 5: Sathar more at a tenday's end)",
    ]
    if view.vars.get("retreat_fingerprint"):
        lines.append(f"- Fingerprint of the sealed choice: {view.vars['retreat_fingerprint']}")
    return "\n".join(lines)


DAMAGE_KEYS = ("hull_damage", "adf_lost", "mr_lost", "dcr_halved", "systems_out", "flags", "spent",
               "hull_station_only", "station_repair")


def damaged_ships(view: State) -> str:
    """Every ship and station still in play that has damage or spent ammunition, with its current
    hull points, ADF, MR and DCR (a Damage Control hit halves the DCR, 5.14d)."""
    lines = ["# Damaged ships", "", "| Ship | Side | Now | Damage |", "|---|---|---|---|"]
    rows = 0
    for u in sorted(view.units.values(), key=lambda x: (x.side, x.label)):
        if u.status.get("destroyed") or not any(u.status.get(k) for k in DAMAGE_KEYS):
            continue
        rows += 1
        damage = "; ".join(plugin_badges(view, u))
        lines.append(f"| {u.label} | {u.side} | {condition(view, u)} | {damage} |")
    if not rows:
        lines.append("| (none) | | | |")
    return "\n".join(lines)


def plugin_badges(view: State, u) -> list[str]:  # type: ignore[no-untyped-def]
    from . import plugin

    return plugin.badges(view, u)


def battle_report(view: State, m: Fdm) -> str:
    recs = view.records("battles")
    if not recs:
        return ""
    lines = ["# Battles", ""]
    for bid, b in sorted(recs.items(), key=lambda kv: (kv[1].get("day", 0), kv[0])):
        where = m.planets[b["planet"]].name if b.get("planet") in m.planets else b.get("planet", "?")
        day = b.get("day", "?")
        lines.append(
            f"## {bid}: day {day}, {where} ({m.name(b.get('system', ''))}) - {b.get('side')} attack "
            f"[{b.get('status')}]"
        )
        if b.get("historical"):
            lines.append(f"Attacker {b.get('attacker_name')}; defenders: {b.get('defender_text')}.")
        if b.get("rules"):
            lines.append(f"Rules: {b['rules']}" + (", near the planet" if b.get("near_planet") else ""))
        for uid, res in b.get("results", {}).items():
            name = view.units[uid].label if uid in view.units else uid
            lines.append(f"- {name}: {res}")
        for note in b.get("notes", []):
            lines.append(f"- note: {note}")
        lines.append("")
    return "\n".join(lines)


def day_log(view: State) -> str:
    recs = view.records("daylog")
    if not recs:
        return ""
    lines = ["# Day log (imported from the seed)", ""]
    for _, r in sorted(recs.items()):
        lines.append(
            f"- {'Game beginning' if not r['day'] else 'Day ' + str(r['day'])} ({r['side']}): {r['text']}"
        )
    return "\n".join(lines)
