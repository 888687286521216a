"""The Frontier Deployment Map as a graph: systems, planets, transit routes, start circles.

Systems and planets are fixed data (``data/fdm.toml``). Routes and start circles live in the
campaign (records ``routes`` and ``circles``) so the GM can correct the provisional box
counts against the physical map; every change is a logged action.

Box model (digest 5.3): a route of N transit boxes is numbered 1..N from its end ``a``.
Travelling from an origin, positions are counted from that origin: 0 is the origin's
starburst, 1..N the boxes, N+1 the destination starburst (entering it costs a step unless
option ``arrival_costs_step`` is off, when entering box N is arriving). Each direction has
its own jump box, counted from the end the ship leaves.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from campaign_tui.core.board import Edge, GraphMap
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State
from campaign_tui.core.records import record


@record(frozen=True)
class Planet:
    id: str
    name: str
    system: str
    aliases: tuple[str, ...] = ()


@record(frozen=True)
class StarSystem:
    id: str
    name: str
    planets: tuple[str, ...]
    aliases: tuple[str, ...] = ()

    @property
    def primary(self) -> str:
        """The planet a stack arriving in the starburst is taken to be at (PROPOSED, 3.1)."""
        return self.planets[0]


@record(frozen=True)
class Route:
    id: str
    a: str
    b: str
    boxes: int
    jump_from_a: int
    jump_from_b: int
    provenance: str = "external"
    note: str = ""

    def other(self, system: str) -> str:
        if system == self.a:
            return self.b
        if system == self.b:
            return self.a
        raise InvalidInput(f"route {self.id} does not touch {system}")

    def jump_index(self, origin: str) -> int:
        """The jump box for travel away from *origin*, counted from *origin*."""
        return self.jump_from_a if origin == self.a else self.jump_from_b

    def from_origin(self, box_from_a: int, origin: str) -> int:
        """A box numbered from ``a`` as counted from *origin*."""
        return box_from_a if origin == self.a else self.boxes + 1 - box_from_a

    def to_a(self, position: int, origin: str) -> int:
        """A position counted from *origin* as a box numbered from ``a``."""
        return position if origin == self.a else self.boxes + 1 - position


@record(frozen=True)
class Circle:
    id: str
    name: str
    target: str
    red_boxes: int
    provenance: str = "external"


@cache
def _static() -> dict[str, Any]:
    from rulesets.second_sathar_war import plugin

    return plugin.load_data("fdm.toml")


@cache
def static_systems() -> tuple[dict[str, StarSystem], dict[str, Planet]]:
    data = _static()
    systems: dict[str, StarSystem] = {}
    planets: dict[str, Planet] = {}
    for sid, body in data["systems"].items():
        pids = []
        for p in body["planets"]:
            planets[p["id"]] = Planet(p["id"], p["name"], sid, tuple(p.get("aliases", ())))
            pids.append(p["id"])
        systems[sid] = StarSystem(sid, body["name"], tuple(pids), tuple(body.get("aliases", ())))
    return systems, planets


def route_record(days: int) -> dict[str, int]:
    """Boxes and jump boxes for a route of *days* at one box a day (digest 6.2)."""
    boxes = max(1, days - 1)
    jump = min(boxes, math.ceil(days / 2))
    return {"boxes": boxes, "jump_from_a": jump, "jump_from_b": jump}


def initial_records(lengths: str) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The provisional routes and circles as campaign records, for option fdm_lengths."""
    data = _static()
    key = "days_up" if lengths == "rounded_up" else "days"
    routes: dict[str, dict[str, Any]] = {}
    for rid, body in data["routes"].items():
        days = int(body[key])
        routes[rid] = {
            "a": body["a"],
            "b": body["b"],
            **route_record(days),
            "days": days,
            "provenance": "external",
            "note": f"provisional: {days} days ({lengths}) from dagorym/SSW coordinates",
        }
    circles: dict[str, dict[str, Any]] = {}
    for cid, body in data["circles"].items():
        days = int(body[key])
        circles[cid] = {
            "name": body["name"],
            "target": body["target"],
            "red_boxes": days - 1,
            "days": days,
            "provenance": "external",
            "note": f"provisional: {days} days ({lengths}); {body.get('ext_name', '')}",
        }
    return routes, circles


class Fdm:
    """The map of one campaign (static systems + the campaign's routes and circles)."""

    def __init__(
        self,
        routes: dict[str, dict[str, Any]],
        circles: dict[str, dict[str, Any]],
        arrival_costs_step: bool = True,
    ) -> None:
        self.systems, self.planets = static_systems()
        self.arrival_costs_step = arrival_costs_step
        self.routes = {
            rid: Route(
                rid,
                r["a"],
                r["b"],
                int(r["boxes"]),
                int(r["jump_from_a"]),
                int(r["jump_from_b"]),
                str(r.get("provenance", "external")),
                str(r.get("note", "")),
            )
            for rid, r in sorted(routes.items())
        }
        self.circles = {
            cid: Circle(
                cid,
                str(c.get("name", cid)),
                c["target"],
                int(c["red_boxes"]),
                str(c.get("provenance", "external")),
            )
            for cid, c in sorted(circles.items())
        }
        self.graph = GraphMap(
            {sid: {"name": sys.name} for sid, sys in self.systems.items()},
            [Edge(r.a, r.b, self.days(r), r.id) for r in self.routes.values()],
        )

    @classmethod
    def of(cls, state: State) -> Fdm:
        return cls(
            state.records("routes"),
            state.records("circles"),
            bool(state.options.get("arrival_costs_step", True)),
        )

    # -- names -----------------------------------------------------------------------------
    def system(self, sid: str) -> StarSystem:
        try:
            return self.systems[sid]
        except KeyError:
            raise InvalidInput(f"no star system {sid!r}; systems: {', '.join(self.systems)}") from None

    def planet(self, pid: str) -> Planet:
        try:
            return self.planets[pid]
        except KeyError:
            raise InvalidInput(f"no planet {pid!r}; planets: {', '.join(self.planets)}") from None

    def route(self, rid: str) -> Route:
        try:
            return self.routes[rid]
        except KeyError:
            raise InvalidInput(f"no route {rid!r}; routes: {', '.join(self.routes)}") from None

    def circle(self, cid: str) -> Circle:
        try:
            return self.circles[cid]
        except KeyError:
            raise InvalidInput(f"no start circle {cid!r}; circles: {', '.join(self.circles)}") from None

    def find_system(self, text: str) -> str:
        """A system id from an id, a name or an alias (case and punctuation ignored)."""
        want = _squash(text)
        for s in self.systems.values():
            if want in (_squash(s.id), _squash(s.name), *(_squash(a) for a in s.aliases)):
                return s.id
        raise InvalidInput(f"no star system {text!r}; systems: {', '.join(self.systems)}")

    def find_planet(self, text: str) -> str:
        want = _squash(text)
        for p in self.planets.values():
            if want in (_squash(p.id), _squash(p.name), *(_squash(a) for a in p.aliases)):
                return p.id
        raise InvalidInput(f"no planet {text!r}; planets: {', '.join(self.planets)}")

    def name(self, sid: str) -> str:
        return self.systems[sid].name if sid in self.systems else sid

    # -- graph -----------------------------------------------------------------------------
    def routes_from(self, sid: str) -> list[tuple[Route, str]]:
        """The routes that leave a system, each with the system at its other end."""
        return [(self.routes[e.id], e.other(sid)) for e in self.graph.edges_of(sid)]

    def route_between(self, a: str, b: str) -> Route | None:
        edge = self.graph.edge(a, b)
        return self.routes[edge.id] if edge else None

    def adjacent(self, a: str, b: str) -> bool:
        return self.graph.adjacent(a, b)

    def days(self, route: Route) -> int:
        """Days along a whole route at one box a day."""
        return route.boxes + 1 if self.arrival_costs_step else route.boxes

    def arrival_position(self, route: Route) -> int:
        """Position (from the origin) at which a moving stack is in the destination starburst."""
        return route.boxes + 1 if self.arrival_costs_step else route.boxes

    def path(self, start: str, goal: str) -> list[str]:
        """Systems from *start* to *goal* (both included) along the quickest routes."""
        out = self.graph.path(start, goal)
        if not out:
            raise InvalidInput(f"no route from {self.name(start)} to {self.name(goal)} on the map")
        return out

    def next_hop(self, start: str, goal: str) -> tuple[Route, str]:
        p = self.path(start, goal)
        if len(p) < 2:
            raise InvalidInput(f"already in {self.name(goal)}")
        route = self.route_between(p[0], p[1])
        assert route is not None
        return route, p[1]


def _squash(text: str) -> str:
    return "".join(ch for ch in str(text).lower() if ch.isalnum())
