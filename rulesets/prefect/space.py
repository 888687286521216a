"""Space-game geometry and logistics (5.13): fighter transport, orbital base placement,
Marine assaults, interception eligibility, sector notation."""

from __future__ import annotations

import re
from collections.abc import Sequence

_SECTOR = re.compile(r"^\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*$")


def parse_sector(text: str) -> tuple[int, int]:
    """'(2,10)', '2,10' or 'sector:2,10' -> (2, 10); zones 0-10 (G33)."""
    raw = str(text).strip()
    if raw.startswith("sector:"):
        raw = raw[len("sector:") :]
    m = _SECTOR.match(raw)
    if not m:
        raise ValueError(f"{text!r} is not a sector; write it as zone,sector such as 3,2")
    zone, sector = int(m.group(1)), int(m.group(2))
    if not 0 <= zone <= 10:
        raise ValueError(f"zone {zone} is not one of the system's zones 0-10")
    return zone, sector


def sector_name(zone: int, sector: int) -> str:
    """(2, 10) -> '(2,10)': the tenth sector of the second orbital zone (W33)."""
    return f"({zone},{sector})"


def fighter_capacity(starship_ftrs: Sequence[int], carried_flights: int) -> tuple[int, int]:
    """(capacity, surplus) for a TF that wants to move (5.13.1): non-Independent flights
    must fit in the starships' FTR total; surplus flights must be destroyed to move."""
    capacity = sum(starship_ftrs)
    return capacity, max(0, carried_flights - capacity)


def even_fill_ok(counts: Sequence[int], segment: int) -> bool:
    """May *segment* (0-based) take another orbital base (5.13.13)? Only when no segment
    holds fewer bases than it does."""
    return counts[segment] == min(counts)


def even_fill_valid(counts: Sequence[int]) -> bool:
    """Is a distribution of orbital bases an even fill (no segment two above another)?"""
    return not counts or max(counts) - min(counts) <= 1


def marine_base_defense(base_class_level: int, marines: int) -> int:
    """A base's defense against a Marine assault (5.13.12): class + 1 per defending Cohort."""
    return base_class_level + marines


def interceptor_eligible(unit_thrust: int, committed_thrusts: Sequence[int]) -> bool:
    """May a unit intercept (5.13 M3)? Its thrust must be at least the lowest thrust among
    the committed phasing units."""
    return bool(committed_thrusts) and unit_thrust >= min(committed_thrusts)
