"""What the players and the GM read: unit lines, the status headline, and Markdown reports
(victory panel, situation by system, fuel warnings, own plots, control changes, the referee's
loose descriptions for role-play). Built only from the view the reader may see."""

from __future__ import annotations

from collections import Counter

from campaign_tui.core.model import State, Unit
from campaign_tui.core.procedures import plural
from rulesets.fifth_frontier_war import ops, victory
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war.formulas import SIDES, fmt
from rulesets.fifth_frontier_war.game import Game


def unit_stats(state: State, unit: Unit) -> str:
    g = Game.read(state)
    kind = g.kind(unit)
    if kind == "squadron":
        f = g.face(unit)
        text = f"{f.type}{f.jump} {f.attack}-{f.bombard}-{f.defense} {f.refuel}"
        if not g.has_back(unit):
            text += " (no back)"
        return text
    if kind == "troop":
        cur = g.troop_current(unit)
        flags = [
            w
            for w, on in (("armor", g.armor(unit)), ("elite", g.elite(unit)), ("psionic", g.psionic(unit)))
            if on
        ]
        return f"{g.a(unit, 'factor', 0)}-{g.a(unit, 'tl', 0)} now {fmt(cur)}" + (
            f" ({', '.join(flags)})" if flags else ""
        )
    if kind == "guerrilla":
        return (
            f"strength {fmt(g.troop_current(unit))} TL {g.troop_tl(unit)}" if g.in_play(unit) else "guerrilla"
        )
    if kind == "admiral":
        return (
            f"precedence {g.precedence(unit)} plotting {g.a(unit, 'plotting', 0)} tactical "
            f"{int(g.a(unit, 'tactical', 0)):+d}"
        )
    return ""


def headline(state: State) -> dict[str, list[str]]:
    g = Game.read(state)
    out: dict[str, list[str]] = {}
    vp = state.vars.get("vp", {})
    for side in SIDES:
        ships = g.squadrons(side=side)
        reduced = sum(1 for s in ships if s.status.get("reduced"))
        troops = [u for u in g.units("troop", side)]
        held = sum(1 for w in state.records("worlds").values() if w.get("controller") == side)
        line = [
            plural(len(ships), "squadron") + (f" ({reduced} reduced)" if reduced else ""),
            plural(len(troops), "troop unit"),
            plural(len(g.fleets(side=side)), "fleet"),
            plural(held, "world"),
            f"RP {state.ledger(side, 'squadron_rp')} squadron / {state.ledger(side, 'troop_rp')} troop",
        ]
        if vp:
            line.append(f"VP {vp.get(side, 0)}")
        out[side] = line
    return out


def _victory_report(state: State) -> str:
    d, z, i = victory.difference(state.records("worlds"))
    lines = ["# Victory points", "", f"Zhodani {fmt(z.total)} - Imperial {fmt(i.total)} = **{fmt(d)}**", ""]
    for score in (z, i):
        lines.append(f"## {score.side.title()} ({fmt(score.total)})")
        lines.extend(f"- {x}" for x in score.lines or ["no worlds outside its own state"])
        lines.append("")
    if abs(d) >= 250:
        lines.append("**Alarm:** the difference is within reach of the automatic victory (301).")
    return "\n".join(lines)


def _situation(state: State, viewer: str) -> str:
    g = Game.read(state)
    places: dict[str, list[str]] = {}
    for f in g.fleets():
        ships = g.fleet_ships(f.id)
        cmd = g.commander(f.id)
        places.setdefault(f.location or "?", []).append(
            f"{f.name} ({f.side}): {len(ships)} squadrons, jump {g.fleet_jump(f.id)}, plotting "
            f"{g.fleet_pf(f.id)}"
            + (f", under {cmd.label}" if cmd else "")
            + (" [plot mismatch]" if f.status.get("mismatch") else "")
        )
    for s in g.squadrons():
        if not s.formation:
            places.setdefault(s.location or "?", []).append(f"{s.label} ({s.side}, free)")
    for u in list(g.units("troop")) + list(g.units("guerrilla")):
        place = g.place_of(u)
        if place and u.location == place and (g.overt(u) or viewer in ("gm", u.side)):
            places.setdefault(place, []).append(
                f"{u.label} ({u.side}) on the world, {fmt(g.troop_current(u))}"
            )
    lines = ["# Situation", ""]
    for place in sorted(places):
        w = g.world(place)
        head = f"## {place}" + (f" {w['name']} (held by {w.get('controller') or 'nobody'})" if w else "")
        lines.append(head)
        lines.extend(f"- {x}" for x in places[place])
        lines.append("")
    return "\n".join(lines)


def _fuel(state: State, viewer: str) -> str:
    g = Game.read(state)
    lines = ["# Fuel", ""]
    for f in sorted(g.fleets(), key=lambda x: x.id):
        if viewer not in ("gm", f.side):
            continue
        dry = [g.label(s) for s in g.fleet_ships(f.id) if s.status.get("needs_fuel")]
        if dry:
            lines.append(f"- **{f.name} cannot jump next turn**: {', '.join(dry)} not fueled")
    if len(lines) == 2:
        lines.append("Every fleet can jump next turn.")
    return "\n".join(lines)


def _plots(state: State, viewer: str) -> str:
    g = Game.read(state)
    lines = ["# Plots", ""]
    for side in SIDES:
        if viewer not in ("gm", side):
            continue
        for f in sorted(g.fleets(side=side), key=lambda x: x.id):
            plot = ops.plot(state, side, f.id)
            text = ", ".join(f"t{u} {P.order_text(o)}" for u, o in sorted(plot.items())) or "no orders"
            lines.append(f"- {f.name} (plotting {g.fleet_pf(f.id)}): {text}")
    return "\n".join(lines)


def _control(state: State) -> str:
    log = state.vars.get("control_log", [])
    lines = ["# Changes of control", ""]
    for e in log:
        lines.append(
            f"- turn {e['turn']}: {e.get('name', '')} ({e['hex']}) {e['from']} -> "
            f"{e['to'] or 'nobody'} ({e['why']})"
        )
    if len(lines) == 2:
        lines.append("No world has changed hands.")
    return "\n".join(lines)


def _referee(state: State) -> str:
    """Loose descriptions for adventurers in a system, as the rulebook suggests."""
    g = Game.read(state)
    lines = ["# Referee's view", "", "What travellers would be told in each occupied system.", ""]
    places = sorted({g.place_of(s) for s in g.squadrons()} - {None})
    for place in places:
        w = g.world(place)
        if not w:
            continue
        seen = Counter()
        for s in g.squadrons(place):
            word = {"A": "assault carrier", "B": "battle", "C": "cruiser", "S": "scout", "T": "tanker"}[
                g.face(s).type
            ]
            seen[(s.side, word)] += 1
        parts = [
            f"{n} {side.title()} {word} squadron{'s' if n > 1 else ''}"
            for (side, word), n in sorted(seen.items())
        ]
        sdb = (
            "heavy system defense boat activity"
            if g.sdb_current(w) >= 100
            else "some system defense boats"
            if g.sdb_current(w) > 0
            else ""
        )
        lines.append(f"- {w['name']} ({place}): " + "; ".join(parts + ([sdb] if sdb else [])))
    return "\n".join(lines)


def reports(view: State, viewer: str) -> dict[str, str]:
    out = {
        "Victory points": _victory_report(view),
        "Situation": _situation(view, viewer),
        "Fuel": _fuel(view, viewer),
        "Plots": _plots(view, viewer),
        "Changes of control": _control(view),
    }
    if viewer == "gm":
        out["Referee's view"] = _referee(view)
    return out
