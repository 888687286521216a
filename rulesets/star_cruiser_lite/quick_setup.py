"""Quick set-up: the campaign set-up in one action, up to the Week 0 orders.

The scenario file already holds the map, nations, forces and stockpiles (S.1-S.5; the
demonstration data is marked as invented). What remains is the referee's: the tactics
rolls of every commander (S.6, F-02), then Week 0. Each nation at war that has sent no
orders gets the standing order (hold, no attack), the same as ``default_orders``: a
default, said so in the log, which the players replace with set_tf_order or
import_orders before the referee advances.
"""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import State
from rulesets.star_cruiser_lite.actions_orders import default_orders
from rulesets.star_cruiser_lite.actions_setup import roll_all_tactics


def why_not(state: State) -> str | None:
    if state.step != "SETUP":
        return "campaign set-up is over (quick set-up is offered at Campaign set-up)"
    return None


def run(ctx: Ctx) -> None:
    roll_all_tactics(ctx)
    ctx.advance()  # into the Week 0 orders
    default_orders.handler(ctx)
    ctx.explain("standing orders (hold, no attack) for every nation at war: a quick set-up "
                "default; replace them with set_tf_order or import_orders")
    ctx.summary("Quick set-up: commanders' tactics rolled; standing Week 0 orders for every "
                "nation at war (defaults)")
