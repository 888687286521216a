"""Geometry: the engine's hex distance and neighbours against the same formulas written
inline (issue 12: ratio <= 2)."""

from __future__ import annotations

import random

from bench.timing import paired
from campaign_tui.core.board import HexGrid

GRID = HexGrid("odd-q")


def _inline_distance(pairs: list[tuple[int, int, int, int]]) -> int:
    total = 0
    for c1, r1, c2, r2 in pairs:
        z1 = r1 - (c1 - (c1 & 1)) // 2
        z2 = r2 - (c2 - (c2 & 1)) // 2
        dx, dz = c2 - c1, z2 - z1
        total += (abs(dx) + abs(dz) + abs(dx + dz)) // 2
    return total


def _engine_distance(pairs: list[tuple[int, int, int, int]]) -> int:
    d = GRID.distance_cr
    return sum(d(c1, r1, c2, r2) for c1, r1, c2, r2 in pairs)


_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))


def _inline_neighbours(hexes: list[str]) -> int:
    n = 0
    for h in hexes:
        c, r = int(h[:2]), int(h[2:])
        for dc, dr in _ODD if c & 1 else _EVEN:
            cc, rr = c + dc, r + dr
            if cc >= 0 and rr >= 0:
                n += len(f"{cc:02d}{rr:02d}")
    return n


def _engine_neighbours(hexes: list[str]) -> int:
    return sum(len(x) for h in hexes for x in GRID.neighbours(h))


def run(_path: object = None, quick: bool = False,
        only: set[str] | None = None) -> list[tuple[str, float, float, str]]:
    rnd = random.Random(12)
    n = 20000 if quick else 100000
    pairs = [(rnd.randint(1, 60), rnd.randint(1, 60), rnd.randint(1, 60), rnd.randint(1, 60))
             for _ in range(n)]
    hexes = [f"{c:02d}{r:02d}" for c, r, _, _ in pairs[: n // 10]]
    assert _inline_distance(pairs) == _engine_distance(pairs)
    out = []
    mine, base = paired(lambda: _engine_distance(pairs), lambda: _inline_distance(pairs))
    out.append(("geometry_distance", mine / base, 2.0,
                f"{n} distances: engine {mine * 1000:.1f} ms, inline {base * 1000:.1f} ms"))
    mine, base = paired(lambda: _engine_neighbours(hexes), lambda: _inline_neighbours(hexes))
    out.append(("geometry_neighbours", mine / base, 2.0,
                f"{len(hexes)} neighbour lists: engine {mine * 1000:.1f} ms, inline {base * 1000:.1f} ms"))
    return out
