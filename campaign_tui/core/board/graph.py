"""Point-to-point maps (star systems and jump routes) as graphs, with the same query API as
the hex grid: neighbours, adjacent, path, distance.

Nodes are ids with plain attributes (name, owner, position); edges join two nodes, carry a
weight (days, jumps, boxes; 1 by default), an id and plain attributes. Paths are the
lightest; between equally light paths the one through the alphabetically first predecessor
wins, so answers never depend on the order the map was written in.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from campaign_tui.core.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Edge:
    a: str
    b: str
    weight: float = 1
    id: str = ""
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def other(self, node: str) -> str:
        return self.b if node == self.a else self.a


class GraphMap:
    """An undirected graph of places. Never changes after it is built."""

    def __init__(self, nodes: Mapping[str, Mapping[str, Any]] | Iterable[str] = (),
                 edges: Iterable[Edge | tuple[str, str] | tuple[str, str, float]] = ()) -> None:
        self.nodes: dict[str, Mapping[str, Any]] = (
            dict(nodes) if isinstance(nodes, Mapping) else {n: {} for n in nodes})
        self.edges: list[Edge] = []
        self._by_node: dict[str, list[Edge]] = {n: [] for n in self.nodes}
        for e in edges:
            edge = e if isinstance(e, Edge) else Edge(*e)
            self.edges.append(edge)
            for end in (edge.a, edge.b):
                self.nodes.setdefault(end, {})
                self._by_node.setdefault(end, []).append(edge)

    def __contains__(self, node: object) -> bool:
        return node in self.nodes

    def check(self, text: object, what: str = "place") -> str:
        """The node id for *text* (an id or a name, case ignored), or InvalidInput listing
        the nearest ids."""
        raw = str(text if text is not None else "").strip()
        if raw in self.nodes:
            return raw
        want = raw.lower()
        for nid, attrs in self.nodes.items():
            if want in (nid.lower(), str(attrs.get("name", "")).lower()):
                return nid
        near = sorted(n for n in self.nodes if want and want[:2] in n.lower())[:5] or sorted(self.nodes)[:5]
        raise InvalidInput(f"{what} {raw!r} is not on this map; for example {', '.join(near)}")

    def edges_of(self, node: str) -> list[Edge]:
        return list(self._by_node.get(node, ()))

    def neighbours(self, node: str) -> list[str]:
        """The nodes one edge away, sorted."""
        return sorted({e.other(node) for e in self._by_node.get(node, ())})

    def edge(self, a: str, b: str) -> Edge | None:
        for e in self._by_node.get(a, ()):
            if e.other(a) == b:
                return e
        return None

    def adjacent(self, a: str, b: str) -> bool:
        return self.edge(a, b) is not None

    def distances(self, start: str, avoid: Iterable[str] = ()) -> tuple[dict[str, float], dict[str, str]]:
        """The lightest distance from *start* to every reachable node, and each node's
        predecessor on that path. Nodes in *avoid* are never entered."""
        blocked = set(avoid)
        dist: dict[str, float] = {start: 0}
        prev: dict[str, str] = {}
        heap: list[tuple[float, str]] = [(0, start)]
        while heap:
            d, node = heapq.heappop(heap)
            if d > dist.get(node, float("inf")):
                continue
            for e in self._by_node.get(node, ()):
                other = e.other(node)
                if other in blocked:
                    continue
                nd = d + e.weight
                known = dist.get(other)
                if known is None or nd < known or (nd == known and node < prev.get(other, "~")):
                    dist[other] = nd
                    prev[other] = node
                    heapq.heappush(heap, (nd, other))
        return dist, prev

    def path(self, start: str, goal: str, avoid: Iterable[str] = ()) -> list[str]:
        """The nodes from *start* to *goal*, both included, along the lightest path; [] when
        *goal* cannot be reached."""
        dist, prev = self.distances(start, avoid)
        if goal not in dist:
            return []
        out = [goal]
        while out[-1] != start:
            out.append(prev[out[-1]])
        return out[::-1]

    def distance(self, start: str, goal: str, avoid: Iterable[str] = ()) -> float | None:
        """The weight of the lightest path (None when unreachable)."""
        return self.distances(start, avoid)[0].get(goal)

    def nearest(self, start: str, goal: Callable[[str], bool],
                avoid: Iterable[str] = ()) -> list[str]:
        """The fewest-edges path from *start* to the nearest node where *goal* holds
        (neighbours tried in sorted order); [] when there is none."""
        blocked = set(avoid)
        seen = {start}
        queue: deque[list[str]] = deque([[start]])
        while queue:
            p = queue.popleft()
            if goal(p[-1]):
                return p
            for nxt in self.neighbours(p[-1]):
                if nxt not in seen and nxt not in blocked:
                    seen.add(nxt)
                    queue.append([*p, nxt])
        return []

    def hops(self, start: str, goal: Callable[[str], bool], avoid: Iterable[str] = ()) -> int | None:
        """Edges from *start* to the nearest node where *goal* holds (None: unreachable)."""
        p = self.nearest(start, goal, avoid)
        return len(p) - 1 if p else None
