"""Victory points, the victory table and the armistice (digest 5.22, T21, T25).

A player scores for the worlds he controls outside his own state: an enemy world (held by
the other player at the start; Esalin counts as enemy for both) gives its tech level, twice
for a subsector capital; an independent world gives half its tech level. The Imperial player
gains 15 for holding all three Vargr worlds and 15 for all four Sword Worlds worlds.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from typing import Any

from campaign_tui.core.records import record
from rulesets.fifth_frontier_war.formulas import fmt, other, victory_d, vp_for_world


@record
class Score:
    side: str
    total: Fraction = Fraction(0)
    lines: list[str] = field(default_factory=list)


def relation(world: dict[str, Any], side: str) -> str:
    """How a world held by *side* counts for it: enemy, independent or own."""
    if world.get("region") == "codominium":
        return "enemy"
    start = world.get("initial_controller") or ""
    if start == other(side):
        return "enemy"
    if not start:
        return "independent"
    return "own"


def score(worlds: dict[str, dict[str, Any]], side: str) -> Score:
    out = Score(side)
    for hexid, w in sorted(worlds.items()):
        if (w.get("controller") or "") != side:
            continue
        rel = relation(w, side)
        vp = vp_for_world(int(w.get("tech_level", 0)), bool(w.get("subsector_capital")), rel)
        if vp:
            out.total += vp
            why = (
                "enemy subsector capital, 2 x TL"
                if rel == "enemy" and w.get("subsector_capital")
                else "enemy world, TL"
                if rel == "enemy"
                else "independent world, TL / 2"
            )
            out.lines.append(f"{w['name']} ({hexid}): {fmt(vp)} ({why} {w.get('tech_level')})")
    if side == "imperial":
        for region, count in (("vargr", 3), ("sword_worlds", 4)):
            held = [w for w in worlds.values() if w.get("region") == region]
            if len(held) == count and all(w.get("controller") == "imperial" for w in held):
                out.total += 15
                out.lines.append(f"all {count} {region.replace('_', ' ').title()} worlds: 15")
    return out


def difference(worlds: dict[str, dict[str, Any]]) -> tuple[Fraction, Score, Score]:
    z, i = score(worlds, "zhodani"), score(worlds, "imperial")
    return z.total - i.total, z, i


def level(tables: Any, d: Fraction, mode: str = "truncate") -> tuple[int, str]:
    """T21 after G-28's treatment of half points: (the D used, the level of victory)."""
    used = victory_d(d, mode)
    return used, str(tables.get("T21").lookup(d=used).value)
