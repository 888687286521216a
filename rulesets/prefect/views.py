"""What each side may see (hidden record sheets, 9.1), how units and sides are shown, the
reports, and consistency checks on data and saves."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State, Unit
from campaign_tui.core.procedures import plural
from rulesets.prefect.board import Board, loc_hex, other

SECRET_PLACES = ("tspace", "outsystem")


def redact(plugin: Any, view: State, viewer: str) -> None:
    """Hide what the record sheets hold from the other side (the engine already hides the
    contents of task-force counters): supply stocks, the T-space track and the outsystem
    area, orbital allocations not yet revealed, missions and cargo."""
    if viewer == "gm":
        return
    board = Board(view, plugin.effective_catalog(view))
    for f in list(view.formations.values()):
        if f.side == viewer or viewer in f.known_to:
            continue
        if (f.kind == "naval_tf" and (f.location in SECRET_PLACES or not f.location)) or f.kind == "box":
            del view.formations[f.id]
    for u in list(view.units.values()):
        if u.side == viewer or viewer in u.known_to:
            continue
        if u.formation and u.formation not in view.formations:
            del view.units[u.id]
            continue
        if board.is_base(u):
            if not u.location and not u.data.get("placed"):
                del view.units[u.id]
                continue
            u.status.pop("supply", None)
            if u.data.get("secret_segment"):
                u.data.pop("segment", None)
                sector = u.data.get("sector")
                u.location = f"sector:{sector}" if sector else None
            for key in ("assigned", "buildable", "outsystem"):
                u.data.pop(key, None)
        elif board.kind(u) == "ground" and not u.location:
            del view.units[u.id]
        else:
            u.status.pop("supply", None)
            for key in ("carried_by", "from_tf", "segment", "committed", "gs_area", "drop_area"):
                u.data.pop(key, None)
    pending = view.vars.get("emerging")
    if pending:
        view.vars["emerging"] = [e for e in pending if e.get("side") == viewer]
    exits = view.vars.get("exits")
    if exits:  # task forces leaving T-space: only those the viewer sees are named
        view.vars["exits"] = [tf for tf in exits if tf in view.formations]


def _unverified(plugin: Any, state: State, unit: Unit) -> set[str]:
    catalog = plugin.effective_catalog(state)
    t = catalog.types.get(unit.type)
    if t is None:
        return set()
    return {k for k in t.attrs if not t.provenance_of(k).verified and k not in unit.attrs}


def badges(plugin: Any, state: State, unit: Unit) -> list[str]:
    out = []
    for name, fdef in plugin.catalog().status.items():
        badge = fdef.badge_for(unit.status.get(name))
        if badge:
            out.append(badge)
    board = Board(state, plugin.effective_catalog(state))
    if board.independent(unit):
        out.append("Independent")
    if unit.data.get("carried_by"):
        out.append(f"aboard {unit.data['carried_by']}")
    if unit.data.get("arrives") is not None:
        out.append(f"arrives turn {unit.data['arrives']}")
    if _unverified(plugin, state, unit):
        out.append("values unverified")
    return out


STAT_ORDER = ("attack", "defense", "sig", "esm", "thrust", "ftr", "rating", "capacity")


def unit_stats(plugin: Any, state: State, unit: Unit) -> str:
    """'A 3 D 6 Sig 2* ESM 2': * marks a value that is not from the rulebook."""
    catalog = plugin.effective_catalog(state)
    t = catalog.types.get(unit.type)
    if t is None:
        return ""
    values = dict(t.attrs)
    values.update(unit.attrs)
    weak = _unverified(plugin, state, unit)
    shown = []
    for k in STAT_ORDER:
        if k not in values or (k in ("thrust", "ftr", "capacity") and not values[k]):
            continue
        if k in ("rating", "capacity", "thrust", "ftr") and values.get("kind") == "ground":
            continue
        label = catalog.attrs[k].label or k
        shown.append(f"{label} {values[k]}{'*' if k in weak else ''}")
    text = " ".join(shown)
    return text + ("  (* unverified)" if weak & set(STAT_ORDER) else "")


def headline(plugin: Any, state: State) -> dict[str, list[str]]:
    board = Board(state, plugin.effective_catalog(state))
    out: dict[str, list[str]] = {}
    roles = state.vars.get("roles", {})
    btca = state.vars.get("btca", {})
    for side in ("TOG", "CW"):
        line = []
        if roles.get("attacker") == side:
            line.append("Attacker")
        elif roles.get("defender") == side:
            line.append("Defender")
        tfs = [f for f in state.formations.values() if f.side == side and f.kind in ("tf", "naval_tf")]
        if tfs:
            line.append(plural(len(tfs), "task force"))
        units = [u for u in state.units.values() if u.side == side and not board.is_base(u)]
        if units:
            lost = sum(1 for u in units if u.status.get("destroyed"))
            dis = sum(1 for u in units if u.status.get("disrupted"))
            line.append(
                plural(len(units) - lost, "unit")
                + (f", {dis} disrupted" if dis else "")
                + (f", {lost} destroyed" if lost else "")
            )
        bases = board.bases(side)
        if bases:
            line.append(f"{len(bases)} base{'s' if len(bases) != 1 else ''}")
        cities = [c for c in board.cities().values() if c.get("controller") == side]
        if cities:
            line.append(f"{len(cities)} cit{'ies' if len(cities) != 1 else 'y'}")
        line.append(f"VP {state.ledger(side, 'vp'):g}")
        if btca.get(side):
            line.append(f"BT/CA {btca[side]}")
        out[side] = line
    return out


def _unit_line(plugin: Any, state: State, u: Unit) -> str:
    stats = unit_stats(plugin, state, u)
    tags = ", ".join(badges(plugin, state, u))
    return f"  - {u.label} ({u.id}) {stats}" + (f" [{tags}]" if tags else "")


def place_text(location: str | None, box: Any = None) -> str:
    """A location key in words: 'hex:1903' -> 'hex 1903', 'orbit:3,2/7' -> 'orbit of (3,2), segment 7'."""
    if not location:
        return "not placed"
    kind, _, rest = location.partition(":")
    if kind == "hex":
        return f"hex {rest}"
    if kind == "sector":
        return f"sector ({rest})"
    if kind == "orbit":
        sector, _, seg = rest.partition("/")
        return f"orbit of ({sector})" + (f", segment {seg}" if seg else "")
    if location == "tspace":
        return "T-space" + (f", box {box}" if box is not None else "")
    return location


def reports(plugin: Any, view: State, viewer: str) -> dict[str, str]:
    board = Board(view, plugin.effective_catalog(view))
    machine = plugin.machine(view.machine)
    roles = view.vars.get("roles", {})
    track = view.vars.get("track", {})
    lines = [
        f"# {machine.clock_text(view.clock)}",
        "",
        f"Attacker: {roles.get('attacker')} - Defender: {roles.get('defender')}",
        f"Task Force Movement Track: {track.get('moved', 0)} moved, {track.get('counter', 0)} counteractions",
        f"Breakthrough/Counterattack Track: {view.vars.get('btca', {})}",
        f"Victory points: TOG {view.ledger('TOG', 'vp'):g}, CW {view.ledger('CW', 'vp'):g}",
    ]
    if view.vars.get("outcome"):
        lines.append(f"Outcome: {view.vars['outcome']}")
    out = {"Situation": "\n".join(lines)}
    sides = ("TOG", "CW") if viewer == "gm" else (viewer,)
    for side in sides:
        sheet = [f"# {side} record sheet", ""]
        for org in [
            f
            for f in view.formations.values()
            if f.side == side and f.kind in ("legion", "auxilia", "regiment", "militia", "garrison", "fleet")
        ]:
            sheet.append(f"## {org.name}")
            kids = [f for f in view.formations.values() if f.parent == org.id]
            for tf in kids:
                if tf.kind == "box":  # the outsystem holding boxes of the naval display
                    sheet.append(f"- {tf.name}")
                else:
                    where = place_text(tf.location, tf.status.get("tspace_box"))
                    marks = [m.kind for m in view.markers.values() if m.target == tf.id]
                    extra = f", fatigue {tf.status.get('fatigue', 0)}" + (
                        f", {', '.join(marks)}" if marks else ""
                    )
                    if tf.status.get("mission"):
                        extra += f", mission {tf.status['mission'].replace('_', ' ')}"
                    sheet.append(f"- {tf.name} at {where}{extra}")
                for u in board.units(tf.id):
                    sheet.append(_unit_line(plugin, view, u))
            loose = [
                u for u in view.units.values() if u.formation == org.id and not u.status.get("destroyed")
            ]
            if loose:
                sheet.append("- not in a task force:")
                sheet.extend(_unit_line(plugin, view, u) for u in loose)
        dis = [
            u
            for u in view.units.values()
            if u.side == side and u.status.get("disrupted") and u.formation is None and not board.is_base(u)
        ]
        if dis:
            sheet.append("## Disrupted units on the map")
            sheet.extend(f"- {u.label} in hex {loc_hex(u.location)}" for u in dis)
        bases = board.bases(side)
        if bases:
            sheet.append("## Bases")
            for b in bases:
                where = place_text(b.location)
                sheet.append(
                    f"- {b.label}: {where}, {b.status.get('supply', 0)} SP"
                    + (" [disrupted]" if b.status.get("disrupted") else "")
                )
        out[f"{side} record sheet"] = "\n".join(sheet)
    last = view.vars.get("last_combat")
    if last:
        out["Last combat"] = "\n".join(f"- {k}: {v}" for k, v in last.items() if v is not None)
    out["Unverified values"] = unverified_report(plugin, view)
    return out


def unverified_report(plugin: Any, state: State) -> str:
    catalog = plugin.effective_catalog(state)
    used = sorted({u.type for u in state.units.values()})
    lines = [
        "# Unit values in use that are not from the rulebook",
        "",
        "Counter values are not printed in the rulebook (G1). Correct them with gm.edit_catalog.",
        "",
    ]
    for tid in used:
        t = catalog.types.get(tid)
        if t is None:
            continue
        weak = [
            f"{k} {v} ({t.provenance_of(k).badge()})"
            for k, v in t.attrs.items()
            if not t.provenance_of(k).verified and k in STAT_ORDER
        ]
        if weak:
            lines.append(f"- {t.name}: " + ", ".join(weak))
    return "\n".join(lines)


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def validate_state(plugin: Any, state: State) -> list[tuple[list[str], str]]:
    problems: list[tuple[list[str], str]] = []
    track = state.vars.get("track", {})
    if not isinstance(track, dict):
        return [(["vars", "track"], "vars.track must be a table")]
    counter, moved = _whole(track.get("counter", 0)), _whole(track.get("moved", 0))
    if counter is None or moved is None:
        problems.append((["vars", "track"], "the task force movement track must hold whole numbers"))
    elif counter > moved:
        problems.append((["vars", "track"], "more counteractions than task forces the Attacker moved"))
    for f in state.formations.values():
        fat = f.status.get("fatigue")
        if fat is not None and (_whole(fat) is None or not 0 <= fat <= 3):
            problems.append((["formations", f.id, "status", "fatigue"], "fatigue must be 0-3"))
    seen: dict[tuple[str, str], str] = {}
    for f in state.formations.values():
        if f.kind == "naval_tf" and f.status.get("mission") == "sector_defense" and f.location:
            key = (f.side, f.location)
            if key in seen:
                problems.append((["formations", f.id], f"a second sector-defense task force in {f.location}"))
            seen[key] = f.id
    return problems


def check_data(plugin: Any) -> None:
    """Cross-checks between the data files: every cost and transport key exists in its table,
    every T20 formation builds from catalog types, every scenario builds."""
    from rulesets.prefect.scenario_build import T20_TYPES

    tables = plugin.tables()
    catalog = plugin.catalog()
    t6 = tables.get("ground_reorg").axes[0].labels
    t9 = tables.get("naval_reorg").axes[0].labels
    t10 = tables.get("displacement").axes[0].labels
    for tid, t in catalog.types.items():
        key = t.attrs.get("cost_key")
        kind = t.attrs.get("kind")
        if kind == "ground" and key not in t6:
            raise InvalidInput(f"unit type {tid}: cost_key {key!r} is not a T6 row")
        if kind != "ground" and key not in t9:
            raise InvalidInput(f"unit type {tid}: cost_key {key!r} is not a T9 row")
        if kind == "ground" and t.attrs.get("transport_key") not in t10:
            raise InvalidInput(f"unit type {tid}: transport_key is not a T10 row")
    for utype in T20_TYPES.values():
        catalog.type(utype)
    for s in plugin.scenarios():
        plugin.build(s, {o.id: o.default for o in plugin.options()} | s.options)
    other("TOG")
