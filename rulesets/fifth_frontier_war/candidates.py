"""What fits an action's parameters now, for forms: ``(state, actor) -> [id, ...]``."""

from __future__ import annotations

from campaign_tui.core.model import State
from rulesets.fifth_frontier_war.game import Game

SIDES = ("imperial", "zhodani")
NAVIES = {"imperial": ("imperial",), "zhodani": ("zhodani", "sword_worlds", "vargr")}


def _side(state: State, actor: str) -> str | None:
    return actor if actor in SIDES else None


def waiting_counters(state: State, actor: str) -> list[str]:
    from rulesets.fifth_frontier_war.setup_rules import waiting

    g = Game.read(state)
    sides = [_side(state, actor)] if _side(state, actor) else list(SIDES)
    return [u.id for side in sides for u in waiting(g, side)]


def free_markers(state: State, actor: str) -> list[str]:
    """Fleet markers the acting side may bring into play (available, or at set-up not yet
    taken)."""
    side = _side(state, actor)
    navies = NAVIES.get(side, ()) if side else tuple(n for v in NAVIES.values() for n in v)
    wanted = ("available", "group") if state.step.startswith("SETUP") else ("available",)
    return [k for k, m in state.records("fleet_markers").items()
            if m["navy"] in navies and m["status"] in wanted]


def loose_squadrons(state: State, actor: str) -> list[str]:
    g = Game.read(state)
    return [s.id for s in g.squadrons(side=_side(state, actor))
            if s.formation is None and g.in_play(s)]


def own_fleets(state: State, actor: str) -> list[str]:
    return [f.id for f in Game.read(state).fleets(side=_side(state, actor))]


def plotting_fleets(state: State, actor: str) -> list[str]:
    """The acting side's fleets that plot now, those still owing orders first."""
    from rulesets.fifth_frontier_war.plot_due import plotting_fleets as due

    side = _side(state, actor)
    fleets = [d for d in due(state) if side is None or d.fleet.side == side]
    return [d.fleet.id for d in sorted(fleets, key=lambda d: not d.gaps)]


def bombers(state: State, actor: str) -> list[str]:
    """The sides that may still bomb here (the acting one alone when a side acts)."""
    from rulesets.fifth_frontier_war import combat as K

    done = K.cv(state).get("bombed", {})
    side = _side(state, actor)
    return [s for s in K.bombing_sides(state) if not done.get(s) and side in (None, s)]
