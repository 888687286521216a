"""The Fifth Frontier War map for the engine's board: the Spinward Marches hex grid (even
columns half a hex lower) with its 146 worlds as places and the xboat routes as a graph."""

from __future__ import annotations

from campaign_tui.core.board import Board, Edge, GraphMap
from campaign_tui.core.model import State
from rulesets.fifth_frontier_war.hexes import GRID


def board(state: State) -> Board:
    worlds = state.records("worlds")
    places = {h: {"name": w.get("name", h), "hex": h, "owner": w.get("controller") or "",
                  "region": w.get("region", "")} for h, w in worlds.items()}
    routes = [Edge(str(r["a"]), str(r["b"]), 1, attrs={"network": r.get("network", "")})
              for r in state.vars.get("xboat_routes", []) if "a" in r and "b" in r]
    return Board(title="The Spinward Marches", grid=GRID, graph=GraphMap(places, routes),
                 places=places)
