"""Hidden information and the turn reports (digest M0.7, W.11; checklist items 7 and 8).

:func:`redact` removes from a nation's view what it may not know beyond the engine's own
projection (which already hides other nations' task forces, ships, troops and undetected
facilities, and other nations' secrets: their orders and intelligence). :func:`reports` builds the
general report and the national reports in Markdown from such a view only.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.catalog import Catalog
from campaign_tui.core.model import State
from campaign_tui.core.tables import TableSet
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.game import Game

PUBLIC_VARS = ("relations", "roles", "outcome", "gm_ends")


def redact(view: State, viewer: str) -> None:
    nations = view.records("nations")
    for code in list(nations):
        if code != viewer:
            rec = nations[code]
            nations[code] = {
                "name": rec.get("name", code),
                "kafer": rec.get("kafer", False),
                "at_war": rec.get("at_war", True),
            }
    for coll, key in (("construction", "nation"), ("commanders", "nation"), ("politics", "nation")):
        bucket = view.records(coll)
        for k in list(bucket):
            if bucket[k].get(key) != viewer:
                del bucket[k]
    for coll in ("events", "battles"):
        bucket = view.records(coll)
        for k in list(bucket):
            to = bucket[k].get("to", [])
            if ("*" not in to and viewer not in to) or (coll == "battles" and viewer not in to):
                del bucket[k]
    for rec in view.records("systems").values():
        rec["minefields"] = {n: v for n, v in rec.get("minefields", {}).items() if n == viewer}
    for rec in view.records("colonies").values():
        if rec.get("owner") != viewer:
            rec.pop("psd_sp", None)
            rec.pop("psd", None)
    for name in list(view.vars):
        if name not in PUBLIC_VARS:
            del view.vars[name]


def _clock(g: Game) -> str:
    return f"Month {g.month}, Week {g.week}"


def _events(g: Game, viewer: str, general: bool) -> list[str]:
    out = []
    for _k, e in sorted(g.state.records("events").items()):
        if int(e.get("t", -1)) != g.t:
            continue
        to = e.get("to", [])
        if (general and "*" in to) or (not general and viewer in to and "*" not in to):
            out.append(f"- {e['text']}")
    return out


def general_report(g: Game, viewer: str) -> str:
    lines = [f"# General turn report — {_clock(g)}", ""]
    ev = _events(g, viewer, True)
    lines += ["## Events", "", *(ev or ["- Nothing of general note."]), ""]
    lines += ["## Nations", "", "| Nation | At war |", "|---|---|"]
    for code in g.nations():
        rec = g.nation(code)
        lines.append(
            f"| {g.state.sides[code].name} ({code}) | {'yes' if rec.get('at_war', True) else 'no'} |"
        )
    rel = g.state.vars.get("relations", {})
    if rel:
        lines += ["", "## Political relations", "", "| Nations | Level |", "|---|---|"]
        lines += [f"| {k.replace('|', ' – ')} | {v} |" for k, v in sorted(rel.items())]
    lines += [
        "",
        "## Colonies",
        "",
        "| Colony | System | Held by | Population | Output SP |",
        "|---|---|---|---|---|",
    ]
    for cid, col in sorted(g.colonies().items()):
        status = " (destroyed)" if col.get("destroyed") else " (captured)" if col.get("captured") else ""
        lines.append(
            f"| {col.get('name', cid)} | {col.get('system')} | {col.get('owner')}{status} | "
            f"{col.get('pop')} | {g.colony_output(cid)} |"
        )
    return "\n".join(lines) + "\n"


def _ship_line(g: Game, u: Any) -> str:
    stats = " ".join(
        f"{s.capitalize()} {g.cur(u, s)}/{g.base(u, s)}"
        if g.cur(u, s) != g.base(u, s)
        else f"{s.capitalize()} {g.cur(u, s)}"
        for s in ("bm", "sb", "mi", "sv", "df", "sc", "sn", "mv")
        if g.base(u, s)
    )
    notes = []
    boats = g.state.options.get("sdb_counter_ships", 2)
    counter = {"FF": "2 frigates", "SDB": f"{boats} boats", "FTR": "wing of 4"}.get(g.code(u))
    if counter:
        notes.append(counter)
    if u.status.get("cq"):
        notes.append(f"CQ {int(u.status['cq']):+d}")
    if u.status.get("unsupplied"):
        notes.append(f"unsupplied ({u.status.get('weeks_unsupplied', 0)} wk)")
    if u.status.get("docked"):
        notes.append(f"docked at {u.status['docked']}")
    if u.status.get("carried_by"):
        notes.append(f"aboard {u.status['carried_by']}")
    if g.cargo(u):
        notes.append(f"holds {spm.text(g.cargo(u))} SP")
    cap = g.captain(u)
    if cap:
        notes.append(f"{cap.get('name')} sTac {cap.get('stac')}")
    return f"  - {g.label(u)} ({g.code(u)}): {stats}" + (f" — {'; '.join(notes)}" if notes else "")


def national_report(g: Game, nation: str) -> str:
    side = g.state.sides[nation]
    rec = g.nation(nation)
    lines = [f"# National turn report — {side.name} ({nation}) — {_clock(g)}", ""]
    lines += [
        "## Supply",
        "",
        f"- Core stockpile at QAS: {spm.text(rec.get('qas_stock', 0))} SP",
        f"- Core output: {rec.get('core_output', 0)} SP a month"
        + (" (−10% next month: directive ignored)" if rec.get("penalty_next") else "")
        + (f" (+{rec['bonus_next']} SP next month: colony protection)" if rec.get("bonus_next") else ""),
    ]
    if rec.get("fees_due"):
        lines.append(f"- Escort fees due next week: {rec['fees_due']} SP")
    stores = {k: v for k, v in rec.get("stores", {}).items() if v}
    if stores:
        lines.append(
            "- Stores: " + ", ".join(f"{v} {k.replace('@', ' at ')}" for k, v in sorted(stores.items()))
        )
    for cid, col in sorted(g.colonies().items()):
        if col.get("owner") == nation and col.get("psd_sp"):
            lines.append(
                f"- Depot at {col.get('name', cid)}: {spm.text(col['psd_sp'])} SP"
                + (" (resupply only)" if col.get("resupply_only") else "")
            )
    jobs = [
        j
        for j in g.state.records("construction").values()
        if j.get("nation") == nation and j.get("status") in ("building", "complete")
    ]
    if jobs:
        lines += [
            "",
            "## Construction",
            "",
            "| Item | Where | Paid | Cost a month | State |",
            "|---|---|---|---|---|",
        ]
        for j in jobs:
            lines.append(
                f"| {j['name']} | {j['location']} | {j.get('months_paid', 0)}/{j['months']} | "
                f"{spm.text(j['per_month'])} | {j['status']} |"
            )
    lines += ["", "## Task forces", ""]
    tfs = [f for f in g.formations("task_force", nation)]
    if not tfs:
        lines.append("- none")
    for tf in tfs:
        ships = g.ships(tf.id)
        if not ships:
            continue
        where = tf.location or (
            f"between {tf.data['transit']['from']} and {tf.data['transit']['to']}"
            if tf.data.get("transit")
            else "?"
        )
        cid, c = g.tf_commander(tf.id)
        cmd = f"{c.get('name')} (fTac {c.get('ftac') or 0}, sTac {c.get('stac')})" if c else "no commander"
        order = g.tf_order(tf.id) if g.orders(nation) else {}
        lines.append(
            f"- **{tf.id}** at {where} — {cmd}"
            + (f" — orders: {order.get('movement')}" if order.get("movement") else "")
        )
        lines += [_ship_line(g, u) for u in ships]
    facs = g.formations("facility", nation)
    if facs:
        lines += [
            "",
            "## Facilities",
            "",
            "| Facility | Where | Modules | State | SP | Damage |",
            "|---|---|---|---|---|---|",
        ]
        for f in facs:
            dmg = ", ".join(f"{k} −{v}" for k, v in sorted(f.data.get("damage", {}).items()) if v) or "none"
            state = "destroyed" if f.data.get("destroyed") else f.data.get("state", "deployed")
            lines.append(
                f"| {f.name} | {f.location} | {f.data.get('modules')} | {state} | "
                f"{spm.text(f.data.get('sp', 0))} | {dmg} |"
            )
    conts = [c for c in g.formations("contingent", nation) if g.troops(c.id)]
    if conts:
        lines += ["", "## Ground contingents", ""]
        for c in conts:
            lines.append(
                f"- **{c.id}** at {c.location or 'aboard ship'}"
                + (f" ({c.data['colony']})" if c.data.get("colony") else "")
            )
            for u in g.troops(c.id):
                lines.append(
                    f"  - {g.label(u)} ({g.code(u)}, {u.status.get('exp')}): BF {u.status.get('bf')}, "
                    f"GF {u.status.get('gf')}"
                    + (" — aboard " + u.status["carried_by"] if u.status.get("carried_by") else "")
                    + (" — dispersed" if u.status.get("dispersed") else "")
                    + (" — unsupplied" if u.status.get("unsupplied") else "")
                )
    fields = [
        (sid, s["minefields"][nation])
        for sid, s in sorted(g.systems().items())
        if s.get("minefields", {}).get(nation)
    ]
    if fields:
        lines += ["", "## Our minefields", ""] + [f"- {sid}: {n} mines" for sid, n in fields]
    intel = [i for i in g.state.secrets.get(nation, {}).get("intel", []) if int(i.get("t", -1)) == g.t]
    lines += ["", "## Intelligence", ""] + (
        [f"- {i.get('text')}" for i in intel] or ["- No new intelligence."]
    )
    battles = [
        b
        for b in g.state.records("battles").values()
        if int(b.get("t", -1)) == g.t and nation in b.get("to", [])
    ]
    if battles:
        lines += ["", "## Battles", ""]
        for b in battles:
            mine = "A" if nation in b["sides"]["A"]["nations"] else "B"
            result = (
                "we hold the field"
                if b.get("winner") == mine
                else "the enemy holds the field"
                if b.get("winner")
                else "no side holds the field"
            )
            lines.append(
                f"- {b['system']}: {b['rounds']} round(s), {result}. Our losses: "
                f"{', '.join(b['losses'].get(nation, [])) or 'none'}."
            )
    ev = _events(g, nation, False)
    lines += ["", "## Our events", "", *(ev or ["- none"])]
    return "\n".join(lines) + "\n"


def referee_report(g: Game) -> str:
    lines = [f"# Referee notes — {_clock(g)}", ""]
    det = g.state.vars.get("detections") or []
    if det:
        lines += [
            "## Detection",
            "",
            "| System | Detector | Target | Chance | Roll | Result |",
            "|---|---|---|---|---|---|",
        ]
        for d in det:
            lines.append(
                f"| {d['system']} | {d['detector']} | {d['target']} | {d['chance']}% | {d['roll']} | "
                + ("detected: " + ", ".join(d["levels"]) if d["detected"] else "no")
                + " |"
            )
    battles = [b for b in g.state.records("battles").values() if int(b.get("t", -1)) == g.t]
    for b in battles:
        lines += ["", f"## Battle at {b['system']} ({b['kind']})", ""] + [f"- {x}" for x in b.get("log", [])]
    if len(lines) == 2:
        lines.append("Nothing to note.")
    return "\n".join(lines) + "\n"


def build(view: State, viewer: str, catalog: Catalog, tables: TableSet) -> dict[str, str]:
    g = Game(view, catalog, tables)
    out = {f"General report {_clock(g)}": general_report(g, viewer)}
    if viewer == "gm":
        for nation in g.nations():
            out[f"National report {nation} {_clock(g)}"] = national_report(g, nation)
        out[f"Referee notes {_clock(g)}"] = referee_report(g)
    elif viewer in view.sides:
        out[f"National report {viewer} {_clock(g)}"] = national_report(g, viewer)
    return out
