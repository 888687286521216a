"""Procedures for the map rules campaign play applies by itself (issue 16): xboat travel along
the friendly route graph (5.24, G-31), the Imperial bonus for the Vargr and Sword Worlds
(5.22), red zones and the warrant (5.23) and the reveal of the Zhodani secret base (5.26).
Inputs are what a GM sees."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param
from campaign_tui.core.board import Edge, GraphMap
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.fifth_frontier_war.formulas import truthy
from rulesets.fifth_frontier_war.hexes import jump_distance

NETWORKS = {"imperial": ("imperial",), "zhodani": ("zhodani", "sword_worlds")}
ALLIED_REGIONS = (("vargr", "Vargr", 3), ("sword_worlds", "Sword Worlds", 4))


def route_map(worlds: dict[str, dict[str, Any]], routes: list[dict[str, Any]], side: str,
              corrections: str = "") -> GraphMap:
    """5.24: the worlds as places and the side's own xboat routes as edges weighted in parsecs
    (Imperial routes for the Imperial player, Zhodani and Sword Worlds routes for the Zhodani)."""
    places = {h: {"name": w.get("name", h)} for h, w in worlds.items()}
    edges = [Edge(str(r["a"]), str(r["b"]), jump_distance(str(r["a"]), str(r["b"]), corrections),
                  attrs={"network": r.get("network", "")})
             for r in routes if r.get("network") in NETWORKS[side]]
    return GraphMap(places, edges)


def xboat_problems(graph: GraphMap, side: str, a: str, b: str, measure: str, corrections: str = "",
                   enemy_at: set[str] | frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """5.24 / G-31 on the route graph: (what forbids the move, the route found). The distance
    is the hex distance (skipped route systems do not count) or, with option xboat_measure =
    route_length, the parsecs along the routes."""
    name = {h: f"{graph.nodes.get(h, {}).get('name', h)} ({h})" for h in (a, b)}
    problems = [f"{name[h]} is not on a {side} xboat route" for h in (a, b) if not graph.edges_of(h)]
    path = [] if problems else graph.path(a, b)
    if not problems and not path:
        problems.append(f"{name[b]} is not connected to {name[a]} by {side} xboat routes")
    if path:
        length = graph.distance(a, b) or 0
        d = jump_distance(a, b, corrections)
        if measure == "route_length" and length > 4:
            problems.append(f"the route from {name[a]} to {name[b]} is {length:g} parsecs long, more than 4")
        elif measure != "route_length" and d > 4:
            problems.append(f"{name[b]} is {d} hexes from {name[a]}, more than jump-4")
    problems += [f"enemy squadrons are at {name[h]}" for h in (a, b) if h in enemy_at]
    return problems, path


def _map_data() -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    from rulesets.fifth_frontier_war import plugin

    data = plugin.load_data("worlds.toml")
    return dict(data.get("worlds", {})), list(data.get("xboat_routes", []))


def p_xboat(r: Resolver, side: str, origin: str, dest: str, enemy_at: list[str] | None = None,
            moved: Any = False) -> Calc:
    """5.24 / G-31: along friendly routes (intermediate systems may be skipped), at most jump-4
    (option xboat_measure: hex distance or route length), no enemy squadrons at either end,
    one xboat move per admiral per turn."""
    side = str(side).strip().lower()
    if side not in NETWORKS:
        raise InvalidInput(f"side {side!r}: write imperial or zhodani")
    worlds, routes = _map_data()
    corrections = str(r.options.get("distance_corrections", ""))
    graph = route_map(worlds, routes, side, corrections)
    a, b = graph.check(origin, "origin"), graph.check(dest, "destination")
    name = {h: f"{graph.nodes[h].get('name', h)} ({h})" for h in (a, b)}
    enemy = {graph.check(x, "enemy_at") for x in (enemy_at or []) if str(x).strip()}
    measure = str(r.options.get("xboat_measure", "hex_distance"))
    problems, path = xboat_problems(graph, side, a, b, measure, corrections, enemy)
    if truthy(moved):
        problems.insert(0, "the admiral has already moved by xboat this turn (G-31)")
    if path:
        r.explain("route: " + " - ".join(path) + f" ({graph.distance(a, b):g} parsecs along the routes)")
        r.explain(f"{name[a]} to {name[b]}: {jump_distance(a, b, corrections)} hexes "
                  f"(measured by {measure.replace('_', ' ')}, option xboat_measure)")
    for why in problems:
        r.explain(why)
    if problems:
        return Calc(False, f"no xboat move {name[a]} -> {name[b]}: {problems[0]}")
    r.explain("the admiral may not also ride a jumping squadron this movement phase")
    return Calc(True, f"xboat move {name[a]} -> {name[b]} allowed")


def p_allied_bonus(r: Resolver, vargr_held: int, sword_worlds_held: int) -> Calc:
    """5.22: the Imperial player gains 15 VP for holding all three Vargr worlds and 15 for all
    four Sword Worlds worlds (the Zhodani player has no such bonus)."""
    total = 0
    for (_, label, count), held in zip(ALLIED_REGIONS, (int(vargr_held), int(sword_worlds_held)),
                                       strict=True):
        if not 0 <= held <= count:
            raise InvalidInput(f"{label} worlds held: {held}; there are {count}")
        if held == count:
            total += 15
            r.explain(f"all {count} {label} worlds held by the Imperium: +15")
        else:
            r.explain(f"{held} of {count} {label} worlds held: no bonus")
    return Calc(total, f"Imperial bonus {total} VP")


def p_secret_base_reveal(r: Resolver, imperial_troops: int = 0) -> Calc:
    """5.26: the Zhodani Fulacin battalion (1-14, elite) is placed on the world; with no Imperial
    troops there control passes to the Zhodani player (who may use its starport), otherwise the
    Imperium keeps it until its troops there are eliminated in surface combat."""
    r.explain("place the Fulacin battalion (1-14, elite) on the secret-base world")
    if int(imperial_troops) > 0:
        r.explain(f"{imperial_troops} Imperial troop unit(s) on the world: the Imperium keeps control "
                  "until they are eliminated in surface combat")
        return Calc("imperial", "the Imperium keeps control for now")
    r.explain("no Imperial troops there: control passes to the Zhodani player, who may use its starport")
    return Calc("zhodani", "control passes to the Zhodani player")


RED_ZONE_USES = ("land", "starport", "ocean", "gas_giant", "enter")


def p_red_zone(r: Resolver, use: str, zhodani_entered: Any = False, warrant_holder: Any = False) -> Calc:
    """5.23: Imperial squadrons may enter an interdicted (red-zone) system and always use its gas
    giant; Imperial troops and admirals may not land and squadrons may not use its starport or
    ocean until any Zhodani-player unit has entered the system (then it is open for the rest of
    the game). The warrant holder may land forces there at any time. Amber zones: no effect."""
    key = str(use).strip().lower().replace(" ", "_")
    if key not in RED_ZONE_USES:
        raise InvalidInput(f"use {use!r}: one of {', '.join(RED_ZONE_USES)}")

    if key in ("enter", "gas_giant"):
        r.explain("Imperial squadrons may always enter a red-zone system and use its gas giant")
        return Calc(True, "allowed")
    if truthy(zhodani_entered):
        r.explain("a Zhodani-player unit has entered the system: it is open to Imperial forces for good")
        return Calc(True, "allowed (the red zone is open)")
    if key == "land" and truthy(warrant_holder):
        r.explain("the warrant holder may land forces on any interdicted world at any time")
        return Calc(True, "allowed (the warrant)")
    r.explain(f"{key.replace('_', ' ')}: closed to Imperial forces until a Zhodani-player unit "
              "enters the system")
    return Calc(False, "not allowed (red zone)")


def _p(name: str, kind: str = "str", help: str = "", default: Any = None) -> Param:
    return Param(name, kind, help=help, required=default is None, default=default)


PROCEDURES: list[ProcedureDef] = [
    ProcedureDef(
        "xboat_move", "Admiral's xboat move", p_xboat,
        (
            Param("side", "choice", help="imperial or zhodani", choices=("imperial", "zhodani")),
            _p("origin", "str", "hex or world name"),
            _p("dest", "str", "hex or world name"),
            _p("enemy_at", "list", "hexes or names with enemy squadrons", []),
            _p("moved", "bool", "the admiral already moved by xboat this turn", False),
        ),
        ("5.24", "G-31", "xboat"), reference="5.24",
    ),
    ProcedureDef(
        "allied_bonus", "Imperial Vargr and Sword Worlds bonus", p_allied_bonus,
        (_p("vargr_held", "int", "Vargr worlds (of 3) the Imperium controls"),
         _p("sword_worlds_held", "int", "Sword Worlds worlds (of 4) the Imperium controls")),
        ("5.22b",), reference="5.22",
    ),
    ProcedureDef(
        "red_zone", "Imperial use of a red-zone world", p_red_zone,
        (
            Param("use", "choice", help="land (troops, admirals), starport, ocean, gas_giant or enter",
                  choices=RED_ZONE_USES),
            _p("zhodani_entered", "bool", "a Zhodani-player unit has entered the system", False),
            _p("warrant_holder", "bool", "the admiral with the warrant is there", False),
        ),
        ("5.23", "warrant"), reference="5.23",
    ),
    ProcedureDef(
        "secret_base_reveal", "Reveal of the secret base", p_secret_base_reveal,
        (_p("imperial_troops", "int", "Imperial troop units on the world", 0),),
        ("5.26",), reference="5.26",
    ),
]
