"""``campaign-tui units``: the units a viewer may see, as ids to script with.

Everything comes from ``engine.view(side)``, so a side sees only what the rule set lets it
see; the GM sees all.
"""

from __future__ import annotations

import argparse
from typing import Any

from campaign_tui.cli.common import EXIT_OK, Usage, emit, open_ro

FIELDS = ("side", "formation", "location", "type", "status")


def unit_rows(engine: Any, viewer: str) -> list[dict[str, Any]]:
    view = engine.view(viewer)
    rs = engine.ruleset
    rows = []
    for u in view.units.values():
        formation = view.formations.get(u.formation) if u.formation else None
        rows.append({
            "id": u.id, "name": u.name or u.id, "side": u.side, "type": u.type,
            "formation": u.formation, "formation_name": formation.name if formation else None,
            "location": u.location, "values": rs.unit_stats(view, u),
            "attrs": dict(u.attrs), "status": dict(u.status), "badges": rs.badges(view, u)})
    return rows


def formation_rows(engine: Any, viewer: str) -> list[dict[str, Any]]:
    view = engine.view(viewer)
    return [{"id": f.id, "name": f.name, "side": f.side, "kind": f.kind, "parent": f.parent,
             "location": f.location, "units": [u.id for u in view.units_in(f.id)]}
            for f in view.formations.values()]


def _matches(row: dict[str, Any], rule: str) -> bool:
    if "=" in rule:
        name, value = rule.split("=", 1)
        if name not in FIELDS:
            raise Usage(f"--filter {rule!r}: {name!r} is not one of {', '.join(FIELDS)}")
        if name == "status":
            return value.casefold() in (str(k).casefold() for k, v in row["status"].items()
                                        if v) or value.casefold() in (
                b.casefold() for b in row["badges"])
        return str(row[name] or "").casefold() == value.casefold()
    needle = rule.casefold()
    return any(needle in str(row[k] or "").casefold()
               for k in ("id", "name", "side", "formation", "formation_name", "location"))


def cmd_units(args: argparse.Namespace) -> int:
    opened = open_ro(args)
    sides = opened.engine.state.sides
    if args.by != "gm" and args.by not in sides:
        raise Usage(f"--as {args.by!r}: no such side; sides: gm, {', '.join(sides)}")
    rows = [r for r in unit_rows(opened.engine, args.by)
            if all(_matches(r, rule) for rule in args.filter or [])]
    if args.json:
        emit("units", {"viewer": args.by, "units": rows})
        return EXIT_OK
    if not rows:
        print("No units match." if args.filter else "No units to show.")
    for r in rows:
        where = f" @ {r['location']}" if r["location"] else ""
        group = f" [{r['formation_name'] or r['formation']}]" if r["formation"] else ""
        badges = f" ({', '.join(r['badges'])})" if r["badges"] else ""
        values = f" — {r['values']}" if r["values"] else ""
        print(f"{r['id']}\t{r['name']}\t{r['side']}{group}{where}{values}{badges}")
    return EXIT_OK
