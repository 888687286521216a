"""Requirements and transition conditions of the phase machine (read-only, over a state).

Each ``*_missing`` / ``*_problems`` function returns None when the step may be left, else
what is still to do, in plain words (shown when an advance is refused)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.fifth_frontier_war import combat as K
from rulesets.fifth_frontier_war import movement, plot_due, setup_rules
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ARRIVED, SETUP

if TYPE_CHECKING:
    from campaign_tui.core.model import State


def _join(items: list[str], limit: int = 6) -> str | None:
    if not items:
        return None
    more = f" (and {len(items) - limit} more)" if len(items) > limit else ""
    return "; ".join(items[:limit]) + more


def secret_base_missing(s: State) -> str | None:
    return (
        None if s.secrets.get("zhodani", {}).get("secret_base") else "the Zhodani secret base is not chosen"
    )


def guerrillas_missing(s: State) -> str | None:
    g = Game.read(s)
    left = [u for u in s.units.values() if g.kind(u) == "guerrilla" and u.location == SETUP]
    return f"{len(left)} Ine Givar units still to place" if left else None


def deploy_missing(s: State, side: str) -> str | None:
    g = Game.read(s)
    out = []
    left = setup_rules.waiting(g, side)
    if left:
        out.append(f"{len(left)} counters still to place (e.g. {', '.join(g.label(u) for u in left[:3])})")
    out.extend(setup_rules.markers_missing(g, side))
    return _join(out)


def surprise_missing(s: State) -> str | None:
    return _join(setup_rules.surprise_problems(Game.read(s)))


def surprise_fleet_at_1914(s: State) -> bool:
    g = Game.read(s)
    return bool(s.options.get("surprise_attack") and g.fleets(setup_rules.SURPRISE_1914, "zhodani"))


def precedence_problems(s: State, side: str | None) -> str | None:
    """5.18: the senior admiral present commands the largest fleet he may command, the next the
    next largest; no admiral commands a fleet with more squadrons of other navies than his own."""
    g = Game.read(s)
    out: list[str] = []
    places = {f.location for f in g.fleets(side=side) if f.location}
    for place in sorted(places):
        for sd in ("imperial", "zhodani"):
            if side and sd != side:
                continue
            fleets = g.fleets(place, sd)
            adms = g.admirals(place, sd)
            for f in fleets:
                cmd = g.commander(f.id)
                if cmd and not g.may_command(cmd, g.fleet_ships(f.id)):
                    out.append(
                        f"{cmd.label} may not command {f.name}: it holds more squadrons of other navies"
                    )
            for navy in sorted({g.command_navy(a) for a in adms}):
                mine = sorted(
                    (a for a in adms if g.command_navy(a) == navy), key=lambda a: (g.precedence(a), a.id)
                )
                eligible = [f for f in fleets if g.may_command(mine[0], g.fleet_ships(f.id))]
                sizes = sorted((len(g.fleet_ships(f.id)) for f in eligible), reverse=True)
                for i in range(min(len(mine), len(sizes))):
                    a = mine[i]
                    commanded = [
                        f for f in eligible if g.commander(f.id) is not None and g.commander(f.id).id == a.id
                    ]
                    size = len(g.fleet_ships(commanded[0].id)) if commanded else None
                    if size != sizes[i]:
                        rank = "most senior" if i == 0 else f"number {i + 1} in seniority"
                        out.append(
                            f"at {place}: {a.label} ({rank}, precedence {g.precedence(a)}) must command a "
                            f"fleet of {sizes[i]} squadrons (give him that fleet or move squadrons to his)"
                        )
                        break
    return _join(out)


def initial_plots_missing(s: State) -> str | None:
    return plots_missing(s)


def plots_missing(s: State) -> str | None:
    """Orders still owed (S5, 4C), plots to repair and plots that fail validation."""
    g = Game.read(s)
    out = []
    owed = False
    for d in plot_due.plotting_fleets(s):
        f = d.fleet
        if f.status.get("mismatch") and s.step != plot_due.INITIAL:
            out.append(f"{f.name}: its plot no longer matches the map (abort_plot or insert_hold)")
            continue
        if d.gaps:
            owed = True
            out.append(f"{f.name}: orders for turn{'s' if len(d.gaps) > 1 else ''} "
                       f"{', '.join(map(str, d.gaps))}")
        out.extend(f"{f.name}: {p}" for p in movement.plot_problems(g, f.id, d.plot, d.base))
    text = _join(out)
    if text and owed:
        text += " (or \"Hold the unplotted fleets\": the rest hold where they are)"
    return text


def arrivals_missing(s: State) -> str | None:
    left = [u for u in s.units.values() if u.location == ARRIVED]
    return f"{len(left)} Imperial reinforcements still to put in a box (place_arrivals)" if left else None


def black_globe_step(s: State) -> bool:
    return bool(K.black_globe_fleets(Game.read(s), K.here(s)))


def black_globe_missing(s: State) -> str | None:
    return None if K.cv(s).get("bg_done") else "choose the black-globe action (or none)"


def disengage_missing(s: State, role: str) -> str | None:
    side = s.vars.get("roles", {}).get(role, "")
    return None if K.cv(s).get("decided", {}).get(side) else f"{side}: disengage or stand"


def sd_missing(s: State, key: str) -> str | None:
    sd = K.cv(s).get("sd") or {}
    if not sd or sd.get(key) is not None:
        return None
    return {
        "attack": "the squadrons' attack decision",
        "mode": "the SDBs' mode (active or passive)",
        "x_go": "the squadrons' decision: break off or go on",
        "y_go": "the SDBs' decision: break off or go on",
    }[key] + " is missing"


def bombing_missing(s: State) -> str | None:
    done = K.cv(s).get("bombed", {})
    left = [K.SIDE_NAMES[x] for x in K.bombing_sides(s) if not done.get(x)]
    return f"still to bomb or pass: {', '.join(left)}" if left else None


def game_over(s: State) -> bool:
    return bool(s.vars.get("auto_victory")) or bool(s.vars.get("turn_limit_reached"))
