"""The plot ledger (digest 5.16, rule 3 "Plotting"): orders, horizon, abort, insert-hold, and
the validation of a plot against the fleet's squadrons and their fuel.

A plot is ``{turn: {"order": "J"|"R", "hex": place, "detach": [squadron ids]}}``: ``J`` jumps
to the place (a hex or ``box:<id>``), ``R`` refuels/holds where the fleet is; ``detach`` lists
squadrons that leave the fleet at step 4A of that turn. Everything here is pure: the callers
supply the squadrons and what the map offers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import field
from typing import Any

from campaign_tui.core.records import record
from rulesets.fifth_frontier_war.hexes import is_box, normalise_place

Plot = dict[int, dict[str, Any]]

_ORDER = re.compile(r"^\s*([JjRr])\s*(.*?)\s*$")


def parse_order(text: str, here: str | None = None) -> dict[str, Any]:
    """``J2011`` / ``R2011`` / ``R`` (hold here) / ``J box:zho_reinf`` / ``Jzr``."""
    m = _ORDER.match(str(text))
    if not m:
        raise ValueError(f"order {text!r}: write J<hex> (jump) or R<hex> (refuel/hold)")
    kind = m.group(1).upper()
    where = m.group(2)
    if not where:
        if kind == "J":
            raise ValueError(f"order {text!r}: a jump needs its destination, e.g. J2011")
        if here is None:
            raise ValueError(f"order {text!r}: give the hex to hold in, e.g. R2011")
        where = here
    return {"order": kind, "hex": normalise_place(where)}


def order_text(order: dict[str, Any]) -> str:
    place = order["hex"]
    text = f"{order['order']}{place}"
    if order.get("detach"):
        text += f" (detach {', '.join(order['detach'])} at 4A)"
    return text


def from_store(raw: dict[str, Any] | None) -> Plot:
    return {int(k): dict(v) for k, v in (raw or {}).items()}


def to_store(plot: Plot) -> dict[str, Any]:
    return {str(k): dict(v) for k, v in sorted(plot.items())}


def missing_turns(plot: Plot, turn: int, pf: int) -> list[int]:
    """The turns t+1..t+PF that have no order yet (normally only t+PF)."""
    return [u for u in range(turn + 1, turn + pf + 1) if u not in plot]


def excess_turns(plot: Plot, turn: int, pf: int) -> list[int]:
    """Orders beyond the horizon (after the plotting factor fell); they may be erased."""
    return sorted(u for u in plot if u > turn + pf)


def abort(plot: Plot, turn: int, here: str) -> Plot:
    """Abort: every order after *turn* becomes a hold where the fleet is (WE-07)."""
    kept = {u: o for u, o in plot.items() if u <= turn}
    for u in sorted(plot):
        if u > turn:
            kept[u] = {"order": "R", "hex": here}
    return kept


def insert_hold(plot: Plot, turn: int, here: str) -> Plot:
    """Insert a refuel/hold for turn+1 and delay every later order one turn (WE-08)."""
    kept = {u: o for u, o in plot.items() if u <= turn}
    kept[turn + 1] = {"order": "R", "hex": here}
    for u, o in plot.items():
        if u > turn:
            kept[u + 1] = dict(o)
    return kept


@record(frozen=True)
class Ship:
    """A squadron as the plot validation sees it."""

    id: str
    label: str
    jump: int
    code: str  # streamlined | partial | unstreamlined
    tanker: bool = False
    needs_fuel: bool = False  # unfueled right now
    moved_for: int = 0  # a disengagement jump already counted as this turn's move


@record
class Terrain:
    """What the map offers at a place, for plot validation (optimistic about control)."""

    zero_time: Callable[[str, str], bool]  # (place, code) -> a zero-time source may exist
    any_source: Callable[[str], bool]  # place -> some fuel source may exist
    cost: Callable[[str, str], int | None]  # (from, to) -> jump cost, None if not allowed
    notes: list[str] = field(default_factory=list)


def validate(plot: Plot, turn: int, start: str, ships: list[Ship], terrain: Terrain) -> list[str]:
    """Check every order after *turn* (5.16): jump distance within the slowest squadron still
    in the fleet on that turn, no jump while a squadron is sure to need fuel, holds where the
    fleet will be, detachments of squadrons that are in the fleet. Returns the problems."""
    problems: list[str] = []
    where = start
    present = {s.id: s for s in ships}
    # fuel state per squadron: "ok", "one" (needs one full phase), "never" (no source at all)
    fuel = {s.id: ("one" if s.needs_fuel else "ok") for s in ships}
    for s in ships:
        if (
            s.needs_fuel
            and not is_box(start)
            and not terrain.any_source(start)
            and not any(o.tanker and o.id != s.id for o in ships)
        ):
            fuel[s.id] = "never"
    for u in sorted(k for k in plot if k > turn):
        o = plot[u]
        if o["order"] == "R":
            if o["hex"] != where:
                problems.append(f"turn {u}: R{o['hex']} but the fleet will be at {where}")
            for sid in present:
                if fuel[sid] == "one":
                    tankers = [x for x in present.values() if x.tanker and x.id != sid]
                    fuel[sid] = "ok" if (is_box(where) or terrain.any_source(where) or tankers) else "never"
        else:
            dest = o["hex"]
            already = dest == where and any(s.moved_for == u for s in present.values())
            if already:
                pass
            elif dest == where:
                problems.append(f"turn {u}: J{dest} but the fleet will already be there (use R{dest})")
            elif not present:
                problems.append(f"turn {u}: J{dest} but no squadron is left in the fleet")
            else:
                slowest = min(present.values(), key=lambda s: s.jump)
                cost = terrain.cost(where, dest)
                if cost is None:
                    problems.append(f"turn {u}: the fleet cannot jump from {where} to {dest}")
                elif cost > slowest.jump:
                    problems.append(
                        f"turn {u}: J{dest} needs jump {cost} but {slowest.label} has jump "
                        f"{slowest.jump}; plot its detachment for turn {u - 1} or earlier"
                    )
                unfueled = [
                    present[sid].label for sid in present if fuel[sid] != "ok" and present[sid].moved_for != u
                ]
                if unfueled:
                    problems.append(
                        f"turn {u}: J{dest} while {', '.join(unfueled)} will surely still need "
                        "fuel (one full movement phase refuelling first)"
                    )
            for sid in present:
                s = present[sid]
                if is_box(dest):
                    fuel[sid] = "ok"
                    continue
                tankers = [x for x in present.values() if x.tanker and x.id != sid]
                if terrain.zero_time(dest, s.code) or tankers:
                    fuel[sid] = "ok"
                elif terrain.any_source(dest):
                    fuel[sid] = "one"
                else:
                    fuel[sid] = "never"
            where = dest
        for sid in o.get("detach", []):
            if sid not in present:
                problems.append(f"turn {u}: detachment of {sid}, which will not be in the fleet")
            else:
                del present[sid]
    return problems


def position_after(plot: Plot, turn: int, start: str, until: int) -> str:
    """Where the fleet will be after the orders of turns turn+1..until."""
    where = start
    for u in sorted(k for k in plot if turn < k <= until):
        if plot[u]["order"] == "J":
            where = plot[u]["hex"]
    return where
