"""Where "advance until something is due" stops in SWII (RuleSet.due, RuleSet.battle).

The forced moves (start circles, red boxes, militia going home) are required, so advancing
stops at them anyway. Beyond those a side has something to decide when: Sathar ships wait
in reserve (reinforcements); a Sathar stack stands in a system with no standing order (its
next move); UPF ships share a system with Sathar ships (they may leave before attacks are
declared, 5.3 "Avoiding combat"); and at replacements and the set-up steps, whatever their
actions allow. A battle is due where a starburst is contested at a declaration step (5.6),
and through a battle's own steps (2.4).
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.model import State

from . import battles as B
from . import locations as L
from .candidates import reserve_fleets, reserve_ships
from .fdm import Fdm
from .ledger import retreating
from .ships import is_station, ships_in, stacks, system_of, upf_ships_in

BATTLE_STEPS = ("B1", "B2", "B3")
# steps where any action allowed is a decision due
ASK_ACTIONS = ("OPTIONS", "RETREAT_CONDITION", "SHATTER_DRONES", "UPF_SETUP", "SATHAR_SETUP",
               "SFN_DECISION", "REPLACEMENT_PHASE", "RETREAT_MODE")


def open_spots(state: State, fdm: Fdm, side: str) -> list[dict[str, Any]]:
    """The contested starbursts *side* may declare attacks in now (5.6): for the UPF only
    where a Sathar ship did not attack today; none for the Sathar while they retreat."""
    if side == "SATHAR" and retreating(state):
        return []
    spots = B.contested(state, fdm)
    if side == "UPF":
        done = B.attacked_today(state)
        spots = [c for c in spots
                 if any(u.id not in done for f in c["sathar"] for u in ships_in(state, f))]
    return spots


def battle(state: State) -> str | None:
    fdm = Fdm.of(state)
    if state.step in BATTLE_STEPS:
        b = B.current(state)
        if b:
            return (f"battle {state.vars.get('battle')} at {fdm.planets[b['planet']].name} "
                    f"({fdm.name(b['system'])})")
    side = {"SATHAR_DECLARE": "SATHAR", "UPF_DECLARE": "UPF"}.get(state.step)
    if side:
        spots = open_spots(state, fdm, side)
        if spots:
            where = ", ".join(fdm.name(c["system"]) for c in spots)
            return f"{side} may attack in {where}"
    return None


def _idle_sathar(state: State, fdm: Fdm) -> list[str]:
    day = int(state.clock.get("day", 0))
    out = []
    for f in stacks(state, "SATHAR"):
        loc = L.parse(f.location)
        order = f.status.get("order") or {}
        if loc.kind == "planet" and order.get("kind") != "go" and \
                int(f.status.get("moved", -1)) != day:
            out.append(f"{f.name} waits for orders in {fdm.name(system_of(fdm, loc))}")
    return out


def _upf_may_leave(state: State, fdm: Fdm) -> list[str]:
    out = []
    for c in B.contested(state, fdm):
        ships = [u for u in upf_ships_in(state, fdm, c["system"]) if not is_station(u)]
        if ships:
            out.append(f"{len(ships)} UPF ship(s) in {fdm.name(c['system'])} may leave "
                       "before the attacks")
    return out


def due(state: State, open_actions: list[str]) -> str | None:
    if state.step in ASK_ACTIONS:
        return ("may be done now: " + ", ".join(open_actions)) if open_actions else None
    fdm = Fdm.of(state)
    if state.step == "SATHAR_REINFORCE":
        waiting = [f for f in reserve_fleets(state, "SATHAR")
                   if ships_in(state, f)] or reserve_ships(state, "SATHAR")
        return "Sathar ships wait in reserve to be placed" if waiting else None
    if state.step == "SATHAR_MOVE":
        idle = _idle_sathar(state, fdm)
        return "; ".join(idle) if idle else None
    if state.step == "UPF_MOVE":
        leave = _upf_may_leave(state, fdm)
        return "; ".join(leave) if leave else None
    return None
