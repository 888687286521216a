"""The orders a plot form offers for a fleet's next unplotted turn (issue 13: choose, do not
type codes): hold where the fleet will then be, or jump to a hex or one's own box within the
fleet's jump, each said with its world's name and the jump it costs. The orders already typed
in the form count: the next offer starts where they leave the fleet. Fuel and the rest of the
plot rules are checked when the orders are written."""

from __future__ import annotations

from itertools import count
from typing import Any

from campaign_tui.core.model import State
from rulesets.fifth_frontier_war import ops
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import BOX, BOX_IDS, GRID, box_id, is_box, is_hex
from rulesets.fifth_frontier_war.movement import entry_hex, jump_cost


def _typed(plot: P.Plot, base: int, start: str, text: str) -> P.Plot:
    """The plot with the orders typed so far (turn:order, or filling the next gaps)."""
    out = dict(plot)
    for item in [x.strip() for x in str(text or "").split(",") if x.strip()]:
        turn_text, sep, order = item.partition(":")
        if sep and turn_text.strip().isdigit():
            turn = int(turn_text)
        else:
            turn, order = next(u for u in count(base + 1) if u not in out), item
        out[turn] = P.parse_order(order, here=P.position_after(out, base, start, turn - 1))
    return out


def _named(state: State, place: str) -> str:
    w = state.records("worlds").get(place)
    return f"{w['name']} ({place})" if w and w.get("name") else f"{place} (no world)"


def plot_orders_offered(state: State, actor: str, values: dict[str, Any]) -> list[tuple[str, str]]:
    f = state.formations.get(str(values.get("fleet") or ""))
    if f is None or not f.location:
        return []
    g = Game.read(state)
    base = 0 if state.step == "SETUP_INITIAL_PLOT" else int(state.clock.get("turn", 1))
    try:
        plot = _typed(ops.plot(state, f.side, f.id), base, f.location, values.get("orders", ""))
    except (ValueError, StopIteration):
        plot = ops.plot(state, f.side, f.id)  # the typed text is not read: the written plot
    turn = next(u for u in count(base + 1) if u not in plot)
    where = P.position_after(plot, base, f.location, turn - 1)
    reach = g.fleet_jump(f.id)
    out = [("R", f"turn {turn}: refuel or hold at {_named(state, where)}")]
    centre, radius = (entry_hex(g, box_id(where)), reach - 1) if is_box(where) else (where, reach)
    if not is_hex(centre) or radius < 0:
        return out
    jumps = []
    for dest in [*GRID.within(centre, radius), *(BOX + b for b in BOX_IDS)]:
        cost = jump_cost(g, f.side, where, dest) if dest != where else None
        if cost is not None and 0 < cost <= reach:
            jumps.append((cost, dest))
    for cost, dest in sorted(jumps):
        out.append((f"J{dest}", f"turn {turn}: jump {cost} to {_named(state, dest)}"))
    return out
