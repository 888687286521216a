"""The plot form's offers (issue 13: choose, do not type codes): hold where the fleet will be,
or jump within its jump, named by the worlds; orders typed so far move the starting point."""

from __future__ import annotations

from rulesets.fifth_frontier_war.hexes import jump_distance
from tests.rulesets.fifth_frontier_war.helpers import game, new_engine


def test_the_plot_form_offers_orders_within_the_fleets_jump() -> None:
    e = new_engine()
    e.perform("gm.quick_setup")
    orders = e.action_def("plot").param("orders")
    view = e.view("zhodani")
    assert orders.suggestions_for(view, "zhodani", {}) == []      # no fleet chosen yet
    offered = dict(orders.suggestions_for(view, "zhodani", {"fleet": "zho-40th"}))
    reach = game(e).fleet_jump("zho-40th")
    assert offered["R"] == "turn 1: refuel or hold at Clan (1507)"
    jumps = [t[1:] for t in offered if t.startswith("J")]
    assert jumps and all(0 < jump_distance("1507", h) <= reach for h in jumps)
    assert offered["J1510"] == "turn 1: jump 3 to Jewell (1510)"
    after = dict(orders.suggestions_for(view, "zhodani", {"fleet": "zho-40th",
                                                          "orders": "J1510, R"}))
    assert after["R"] == "turn 3: refuel or hold at Jewell (1510)"
    typo = dict(orders.suggestions_for(view, "zhodani", {"fleet": "zho-40th", "orders": "Q"}))
    assert typo["R"] == offered["R"]                               # unread text: the plot
