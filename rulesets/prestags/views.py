"""What the players see: unit badges (can fire / can melee, digest section 9 item 1), unit
lines, each side's headline, the battle report, and state checks on load."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.model import State, Unit
from rulesets.prestags import combat, victory
from rulesets.prestags.common import (
    SIDES,
    frac,
    ftext,
    info,
    leader_values,
    other,
    stamp,
    units_of,
    vp_scored,
)
from rulesets.prestags.movement import controller


def badges(ruleset: Any, state: State, unit: Unit) -> list[str]:
    out = []
    catalog = ruleset.effective_catalog(state)
    for name, fdef in catalog.status.items():
        badge = fdef.badge_for(unit.status.get(name))
        if badge:
            out.append(badge)
    i = info(state, ruleset, unit)
    if not i.active or i.hex is None:
        return out
    if i.is_leader:
        if not 1 <= i.grade <= 6:
            out.append("grade not set (gm.set_status grade 1-6): no bonus, no radius")
            return out
        lv = leader_values(state, ruleset, i.grade)
        out.append(f"grade {i.grade} (+{ftext(lv['bonus'])}, radius {ftext(lv['radius'])})")
        return out
    if i.is_fire:
        why = combat.fire_block(state, ruleset, unit.id)
        last = int(unit.status.get("last_fire", 0) or 0)
        if why is None and last and last == stamp(state):
            turn = "Game-Turn" if state.options.get("simultaneous") else "Player-Turn"
            out.append(f"fired this {turn}: no fire in the next [6.12]")
        else:
            out.append("can fire" if why is None else f"cannot fire: {why}")
    why = combat.melee_block(state, ruleset, unit.id)
    out.append("can melee" if why is None else f"cannot melee: {why}")
    snap = state.vars.get("ma", {})
    if unit.id in snap and frac(snap[unit.id]) < i.ma:
        out.append(f"half MA {ftext(frac(snap[unit.id]))}")
    if state.options.get("facing") and int(unit.status.get("facing", -1)) >= 0:
        out.append(f"facing {unit.status['facing']}")
    return out


def unit_stats(ruleset: Any, state: State, unit: Unit) -> str:
    i = info(state, ruleset, unit)
    melee = "•" if i.kind == "dot" else f"[{i.melee}]" if i.kind == "bracket" else str(i.melee)
    parts = [f"{melee} {i.klass} {ftext(i.ma)}"]
    if i.fire:
        # the counter's "fire ◇ range" [3.31], spelt out: SK reads F2 R1 (fire 2, range 1)
        parts.insert(0, f"F{i.fire} R{i.range}")
    if i.hex:
        parts.append(f"@{i.hex}")
    return " ".join(parts)


def headline(ruleset: Any, state: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    lv = victory.levels(state)
    for side in SIDES:
        data = state.sides[side].data
        mine = [u for u in state.units.values() if u.side == side]
        active = sum(1 for u in mine if u.status.get("state") == "active")
        reserve = sum(1 for u in mine if u.status.get("state") == "reserve")
        lost = sum(1 for u in mine if u.status.get("state") == "eliminated")
        gone = sum(1 for u in mine if u.status.get("state") == "exited")
        vp = vp_scored(state, side)
        line = [
            f"{active} on the map" + (f", {reserve} off the map" if reserve else ""),
            f"{lost} destroyed",
            f"{gone} exited",
            f"VP scored {vp} (record {'/'.join(victory.vp_record(vp))})",
            f"level {lv[side]}",
        ]
        pl = data.get("panic_level")
        if pl:
            line.append(
                f"Panic Level {pl} (losses {vp_scored(state, other(side))}), {data.get('panic_state')}"
            )
        if data.get("conceded"):
            line.append("conceded")
        out[side] = line
    return out


def reports(ruleset: Any, view: State, viewer: str) -> dict[str, str]:
    lines = [f"# {view.vars.get('scenario', {}).get('title', 'Battle')}", ""]
    clock = view.clock
    lines.append(
        f"Game-Turn {clock.get('gt', 1)} of {view.vars.get('game_length')}"
        + (f", Player-Turn {clock['pt']}" if "pt" in clock else "")
    )
    lines.append("")
    lv = victory.levels(view)
    for side in SIDES:
        s = view.sides[side]
        vp = vp_scored(view, side)
        lines.append(f"## {s.name} ({side})")
        lines.append(
            f"- victory points scored: {vp} (record boxes {', '.join(victory.vp_record(vp))}); "
            f"level {lv[side]}"
        )
        if s.data.get("panic_level"):
            lines.append(
                f"- Panic Level {s.data['panic_level']}; losses {vp_scored(view, other(side))}; "
                f"{s.data.get('panic_state')}"
            )
        lines.append(f"- printed army VP {s.data.get('printed_vp')}, computed {s.data.get('computed_vp')}")
        for alt in view.vars.get("victory", {}).get(side, []):
            lines.append(f"- to win: {alt}")
        lines.append("")
        by_hex: dict[str, list[str]] = {}
        for u in sorted(units_of(view, side), key=lambda x: x.id):
            h = str(u.location)[4:] if u.location else "off map"
            tags = ", ".join(badges(ruleset, view, u))
            by_hex.setdefault(h, []).append(
                f"{u.label} [{unit_stats(ruleset, view, u)}]" + (f" ({tags})" if tags else "")
            )
        for h in sorted(by_hex):
            lines.append(f"- {h}: " + "; ".join(by_hex[h]))
        lines.append("")
    objectives: list[str] = []
    for alts in view.vars.get("victory", {}).values():
        for alt in alts:
            for clause in alt.split("&"):
                words = clause.split()
                if len(words) > 1 and words[0] in ("control", "occupy"):
                    objectives += [h for h in words[1].split(",") if h not in objectives]
    if objectives:
        lines.append("## Objective hexes")
        for h in objectives:
            owner = controller(view, h)
            lines.append(f"- {h}: {view.sides[owner].name if owner else 'nobody'}")
        lines.append("")
    if viewer in SIDES:
        plot = view.secrets.get(viewer, {}).get("plot")
        if plot:
            lines.append(f"## Your plot, Game-Turn {plot.get('gt')}")
            for uid, o in sorted(plot.get("orders", {}).items()):
                if o.get("task") != "none":
                    lines.append(
                        f"- {uid}: {o.get('task')} {o.get('target', '')}{' '.join(o.get('path', []))}"
                        + ("" if o.get("valid") else f" (no plot: {o.get('problem')})")
                    )
    open_plots = view.records("plots")
    if open_plots:
        lines.append("## Plots (open after the game)")
        for key in sorted(open_plots):
            rec = open_plots[key]
            tasks = [
                f"{u} {o.get('task')}"
                for u, o in sorted(rec.get("orders", {}).items())
                if o.get("task") != "none"
            ]
            lines.append(f"- {key}: " + ", ".join(tasks))
    return {"Battle status": "\n".join(lines)}


def validate_state(ruleset: Any, state: State) -> list[tuple[list[str], str]]:
    """Problems that make a saved battle unplayable (they stop it loading, so only real
    damage is reported): the two sides, and unit types the catalog does not know."""
    problems: list[tuple[list[str], str]] = []
    for side in SIDES:
        if side not in state.sides:
            problems.append((["sides", side], "PRESTAGS has two sides, A and B"))
    catalog = ruleset.effective_catalog(state)
    for uid, u in state.units.items():
        if u.type not in catalog.types:
            problems.append((["units", uid, "type"], f"unknown unit type {u.type!r}"))
    return problems
