"""Where "advance until something is due" stops in the Fifth Frontier War (RuleSet.due and
RuleSet.battle).

Required things (plots owed, arrivals to place, damage to allocate, disengagement...) stop
the loop anyway, and so does every die. Beyond those, a step is due only when the side
acting there has something its actions could move or spend: replacement points and a
reduced or eliminated unit to use them on (1B); admirals not commanding a fleet, who may
travel by xboat (2B); scout squadrons outside fleets (2C); fleets under an admiral of
plotting factor 0 (2D); a tanker beside squadrons that need fuel (before refuelling); troops
that may land or embark (3Cc); guerrillas whose mode may change (4B); and the set-up steps
and the quality shift, whatever their actions allow. A battle is due where a contested hex
waits (3) and through a hex's combat steps. Steps it passes are named in the notice.
"""

from __future__ import annotations

from collections.abc import Callable

from campaign_tui.core.model import State
from rulesets.fifth_frontier_war import combat as K
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ELIMINATED, is_hex

SIDES = ("imperial", "zhodani")
NAMES = {"imperial": "Imperial", "zhodani": "Zhodani"}
ASK_ACTIONS = ("SC1",)  # any action allowed there is a decision due
COMBAT_STEPS = ("C_BLACK_GLOBE", "SB", "ST")
COMBAT_PREFIXES = ("SC", "SD", "SF")


def _acting(state: State, actor: str) -> list[str]:
    side = state.vars.get("roles", {}).get(actor, actor)
    return [side] if side in SIDES else list(SIDES)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _replacements(g: Game, side: str) -> str | None:
    """1B: points to spend and something to spend them on (SW and Vargr get none)."""
    navies = ("imperial",) if side == "imperial" else ("zhodani",)
    out = []
    if g.state.ledger(side, "squadron_rp") > 0:
        ships = [u for u in g.state.units.values() if u.side == side and g.kind(u) == "squadron"
                 and g.navy(u) in navies and ((u.status.get("reduced") and g.in_play(u))
                                              or u.location == ELIMINATED)]
        if ships:
            out.append(_count(len(ships), "reduced or eliminated squadron"))
    if g.state.ledger(side, "troop_rp") > 0:
        troops = [u for u in g.state.units.values() if u.side == side and g.kind(u) == "troop"
                  and not g.elite(u) and (int(u.status.get("loss", 0)) > 0
                                          or u.location == ELIMINATED)]
        if troops:
            out.append(_count(len(troops), "troop unit") + " with losses")
    return f"{NAMES[side]} replacement points for {' and '.join(out)}" if out else None


def _loose_admirals(g: Game, side: str) -> str | None:
    loose = [a for a in g.admirals(side=side) if g.in_play(a) and is_hex(a.location)
             and not a.status.get("command")]
    return f"{_count(len(loose), NAMES[side] + ' admiral')} not commanding a fleet (xboat)" \
        if loose else None


def _scouts(g: Game, side: str) -> str | None:
    free = [s for s in g.squadrons(side=side) if g.in_play(s) and s.formation is None
            and g.face(s).type == "S" and is_hex(s.location)]
    return f"{_count(len(free), NAMES[side] + ' scout squadron')} outside fleets" if free else None


def _well_led(g: Game, side: str) -> str | None:
    fleets = [f.name for f in g.fleets(side=side) if g.fleet_pf(f.id) == 0]
    return f"{', '.join(fleets)} (plotting factor 0) may move" if fleets else None


def _tankers(g: Game, side: str) -> str | None:
    places = sorted({str(t.location) for t in g.squadrons(side=side)
                     if g.in_play(t) and g.face(t).type == "T" and is_hex(t.location)
                     and any(s.status.get("needs_fuel") for s in g.squadrons(t.location, side)
                             if s.id != t.id)})
    return f"{NAMES[side]} tankers beside squadrons needing fuel at {', '.join(places)}" \
        if places else None


def _guerrillas(g: Game, side: str) -> str | None:
    n = sum(1 for u in g.state.units.values() if g.is_guerrilla(u) and g.in_play(u))
    return f"{_count(n, 'Ine Givar unit')} may change mode" if n else None


CHECKS: dict[str, Callable[[Game, str], str | None]] = {
    "T_REPL": _replacements,
    "M_XBOAT_1": _loose_admirals, "M_XBOAT_2": _loose_admirals,
    "M_SCOUT_1": _scouts, "M_SCOUT_2": _scouts,
    "M_WELL_LED_1": _well_led, "M_WELL_LED_2": _well_led,
    "M_REFUEL": _tankers,
    "P_GUERRILLA": _guerrillas,
}


def due(state: State, open_actions: list[str]) -> str | None:
    from rulesets.fifth_frontier_war.phases import MACHINE

    step = state.step
    if step.startswith("SETUP") or step in ASK_ACTIONS:
        return ("may be done now: " + ", ".join(open_actions)) if open_actions else None
    if step == "ST":
        return "troops may land or embark" if K.transfers_possible(state) else None
    check = CHECKS.get(step)
    if check is None:
        return None
    g = Game.read(state)
    actor = MACHINE.steps[step].actor
    found = [why for side in _acting(state, actor) if (why := check(g, side))]
    return "; ".join(found) or None


def _world(state: State, place: str) -> str:
    w = state.records("worlds").get(place)
    return f"{w['name']} ({place})" if w else place


def battle(state: State) -> str | None:
    step = state.step
    if step == "C_SELECT_HEX":
        queue = state.vars.get("combat_queue", [])
        return ("combat at " + ", ".join(_world(state, h) for h in queue)) if queue else None
    if step in COMBAT_STEPS or step.startswith(COMBAT_PREFIXES):
        place = K.here(state)
        return f"combat at {_world(state, place)}" if place else None
    return None
