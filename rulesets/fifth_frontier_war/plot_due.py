"""Which fleets owe orders now, and for which turns (S5 initial plot, 4C plotting step): the
one reading the advance check, the plot form's fleet candidates and "hold the unplotted
fleets" share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign_tui.core.records import record
from rulesets.fifth_frontier_war import ops
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war.game import Game

if TYPE_CHECKING:
    from campaign_tui.core.model import Formation, State

INITIAL = "SETUP_INITIAL_PLOT"


@record(frozen=True)
class Due:
    """A fleet that plots now: its plot so far, the turns after *base* up to *top* it may
    plot, and those still without an order."""

    fleet: Formation
    plot: P.Plot
    base: int
    top: int
    gaps: list[int]


def plotting_fleets(state: State) -> list[Due]:
    """Fleets with a plotting horizon now: at the initial plot the Zhodani player's (turns 1-4,
    Sword Worlds and Vargr 1-5) and the Imperial ones only if the build-up was discovered; at
    the plotting step every fleet with PF > 0. Well-led fleets (PF 0) move unplotted."""
    g = Game.read(state)
    initial = state.step == INITIAL
    base = 0 if initial else g.turn
    out = []
    for f in sorted(g.fleets(), key=lambda x: x.id):
        pf = g.fleet_pf(f.id)
        if pf == 0:
            continue
        if initial:
            if f.side == "imperial" and not state.vars.get("imperial_initial_plot"):
                continue
            pf = 4 if g.fleet_navy(f.id) == "zhodani" else 5
        plot = ops.plot(state, f.side, f.id)
        out.append(Due(f, plot, base, base + pf, P.missing_turns(plot, base, pf)))
    return out


def holds(due: Due) -> P.Plot:
    """The plot with every turn still without an order made a hold where the fleet will be."""
    new = dict(due.plot)
    for u in due.gaps:
        here = P.position_after(new, due.base, due.fleet.location or "", u - 1)
        new[u] = {"order": "R", "hex": here}
    return new
