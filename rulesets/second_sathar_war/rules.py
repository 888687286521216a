"""The strategic formulas of digest section 5 as plain functions (no campaign state).

Procedures (``procedures.py``) wrap them with dice and explanations for the resolve dialog
and ``campaign-tui calc``; the phase machine and actions call them on values read from the
campaign. Percent checks succeed on roll <= target with a d100 whose 00 reads 100; the
digest's PROPOSED DEFAULT makes a target <= 0 always fail and a target >= 100 always
succeed (Knight Hawks attack rolls have their own automatic results, see ``tactical``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

STATION_TYPES = ("FORTRESS", "FORTIFIED", "ARMED")
BIG_CLASSES = ("FF", "DD", "ML", "LC", "HC", "AC", "BB")  # "larger than an assault scout"
SMALL_CLASSES = ("AS", "F")
SATHAR_CLASSES = ("F", "FF", "DD", "LC", "HC", "AC")
MILITIA_CLASSES = ("AS", "FF", "DD")


# -- percent checks ------------------------------------------------------------------------
def percent_check(target: int, roll: int) -> bool:
    """A d100 check (00 = 100): roll <= target; target <= 0 fails, >= 100 succeeds."""
    if target <= 0:
        return False
    if target >= 100:
        return True
    return roll <= target


# -- 5.1 Time Record -------------------------------------------------------------------------
def tenday_marker(day: int) -> int:
    """0 (blank) on days 1-10, 10 on days 11-20..."""
    return 10 * ((day - 1) // 10)


def day_marker(day: int) -> int:
    return (day - 1) % 10 + 1


def tenday_index(day: int) -> int:
    """1 for days 1-10, 2 for 11-20..."""
    return (day - 1) // 10 + 1


def is_tenday_end(day: int) -> bool:
    return day > 0 and day % 10 == 0


def is_replacement_day(day: int, replacements: bool) -> bool:
    return bool(replacements) and day > 0 and day % 20 == 0


def replacement_window(day: int) -> range:
    """The 20 days before (and including) a replacement phase."""
    return range(day - 19, day + 1)


def day_text(day: int) -> str:
    if day <= 0:
        return "Set-up (before day 1)"
    marker = tenday_marker(day)
    # T20: on days 1-10 the Tenday box of the Time Record is empty; say nothing about it
    tenday = f"Tenday {marker}, " if marker else ""
    return f"Day {day} (Time Record: {tenday}Day {day_marker(day)})"


# -- 5.2 Sathar placement ----------------------------------------------------------------------
def placement_problems(per_circle: Mapping[str, int], initial: bool) -> list[str]:
    """What is wrong with a Sathar placement (non-fighter ships per start circle)."""
    counts = {c: n for c, n in per_circle.items() if n > 0}
    n = sum(counts.values())
    out: list[str] = []
    if initial:
        if n < 20:
            out.append(f"at least 20 ships (fighters not counted) must be placed; {n} are")
        if len(counts) < 2:
            out.append(f"ships must be divided among two or more start circles; {len(counts)} used")
    for circle, k in sorted(counts.items()):
        if 2 * k > n:
            out.append(f"{k} of the {n} ships placed are in {circle}: more than half")
    return out


def carrier_problems(loads: Mapping[str, int], capacity: int) -> list[str]:
    return [
        f"{carrier} carries {k} fighters; capacity {capacity}"
        for carrier, k in sorted(loads.items())
        if k > capacity
    ]


# -- 5.3 strategic movement --------------------------------------------------------------------
def allowed_rate(adf: int, hull_damaged: bool, sathar_on_red: bool, fighter: bool = False) -> int:
    """Boxes per day one ship may move (T19); 0 for a fighter (it must be carried)."""
    if fighter:
        return 0
    if hull_damaged or sathar_on_red:
        return 1
    if adf >= 3:
        return 3
    if adf == 2:
        return 2
    return 1


def stack_rate(rates: Iterable[int]) -> int:
    """A stack moves at its slowest member's rate (fighters are carried and not counted)."""
    values = [r for r in rates if r > 0]
    return min(values) if values else 1


def route_timeline(
    boxes: int, jump: int, rate: int, arrival_costs_step: bool = True, jumped: bool = False
) -> list[list[int]]:
    """Positions entered on each day by a stack travelling a route at *rate*.

    Position 0 is the origin's starburst, 1..boxes the transit boxes, and ``boxes + 1``
    the destination (or ``boxes`` when arrival costs no step). A risk-jumping stack stops on
    entering its jump box; after the jump it keeps the same rate.
    """
    arrive = boxes + 1 if arrival_costs_step else boxes
    pos = 0
    days: list[list[int]] = []
    while pos < arrive and len(days) < 100:
        entered: list[int] = []
        for _ in range(rate):
            pos += 1
            entered.append(pos)
            if pos >= arrive:
                break
            if pos == jump and not jumped:
                jumped = True
                if rate >= 2:
                    break
        days.append(entered)
    return days


# -- 5.4 misjump -------------------------------------------------------------------------------
def misjump_row(
    side: str, cls: str, militia: bool, deputized: bool = False, deputized_row: str = "militia"
) -> str:
    """Which row of T9 a ship uses."""
    if militia and not (deputized and deputized_row == "upf"):
        return "MILITIA"
    if side == "SATHAR":
        return "SATHAR"
    if cls == "BB":
        return "UPF_BB"
    return "UPF"


def parse_groups(text: str, members: Sequence[str]) -> list[list[str]]:
    """A player's partition of a moving stack for the misjump roll.

    ``all`` (one interlocked group), ``each`` (one roll per ship), or groups separated by
    ``;`` or ``/`` with ships joined by ``+`` or ``,`` (``a+b;c``); ships left out form one
    more group.
    """
    text = (text or "all").strip()
    if text in ("", "all", "one", "interlocked"):
        return [list(members)]
    if text in ("each", "single", "individual"):
        return [[m] for m in members]
    groups: list[list[str]] = []
    seen: set[str] = set()
    for part in text.replace("/", ";").split(";"):
        names = [n.strip() for n in part.replace("+", ",").split(",") if n.strip()]
        if not names:
            continue
        for n in names:
            if n not in members:
                raise ValueError(f"{n} is not in the moving stack")
            if n in seen:
                raise ValueError(f"{n} is in two groups")
            seen.add(n)
        groups.append(names)
    rest = [m for m in members if m not in seen]
    if rest:
        groups.append(rest)
    return groups


# -- 5.5 militia ---------------------------------------------------------------------------------
def militia_may_enter(home: str, dest: str, deputized: bool, adjacent: bool, threatened: bool) -> str | None:
    """None if a militia ship based in system *home* may go to *dest*, else why not."""
    if deputized or dest == home:
        return None
    if not adjacent:
        return "militia ships may only go to a system next to their home system (until deputized)"
    if threatened:
        return "the militia's home system is imminently threatened: it may not leave it"
    return None


# -- 5.9 supply ---------------------------------------------------------------------------------
def trace_supply(
    neighbours: Mapping[str, Iterable[str]],
    starts: Iterable[str],
    targets: Iterable[str],
    blocked: Iterable[str],
    target_must_be_passable: bool = False,
) -> list[str] | None:
    """A path from a start system to a target system, or None.

    Intermediate systems must not be blocked. A start never blocks its own supply. A target
    may be blocked (contested) unless *target_must_be_passable* (the Sathar trace through a
    circle's target system to the circle).
    """
    starts = list(dict.fromkeys(starts))
    targets = set(targets)
    blocked = set(blocked)

    def reachable_target(sid: str, is_start: bool) -> bool:
        if sid not in targets:
            return False
        return is_start or not target_must_be_passable or sid not in blocked

    prev: dict[str, str | None] = {}
    frontier: list[str] = []
    for s in starts:
        prev[s] = None
        if reachable_target(s, True):
            return [s]
        frontier.append(s)
    while frontier:
        sid = frontier.pop(0)
        if sid not in starts and sid in blocked:
            continue
        for n in sorted(neighbours.get(sid, ())):
            if n in prev:
                continue
            prev[n] = sid
            if reachable_target(n, False):
                path = [n]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])  # type: ignore[arg-type]
                return list(reversed(path))
            if n not in blocked:
                frontier.append(n)
    return None


# -- 5.10 rearming fighters -------------------------------------------------------------------------
def fighter_rearm(in_supply: bool, used: int) -> tuple[bool, int]:
    """Whether a carrier or station can rearm a fighter, and its new out-of-supply count."""
    if in_supply:
        return True, 0
    if used < 2:
        return True, used + 1
    return False, used


# -- 5.11 repairs -----------------------------------------------------------------------------
def scc_repair_days(hull_damage: int, systems: int, capacity: int) -> int:
    """Days one ship alone needs at an SCC: one per damaged system plus the hull days."""
    hull_days = math.ceil(hull_damage / capacity) if hull_damage > 0 else 0
    return systems + hull_days


def scc_allocate(capacity: int, needs: Sequence[tuple[str, int]]) -> dict[str, int]:
    """Share a day's hull capacity among ships: most damaged first (G-23 default)."""
    out: dict[str, int] = {}
    left = capacity
    for ship, need in sorted(needs, key=lambda x: (-x[1], x[0])):
        pts = min(left, need)
        out[ship] = pts
        left -= pts
    return out


def captured_capacity(capacity: int) -> int:
    """Sathar at a captured SCC repair half its hull capacity (every T12 value is even)."""
    return capacity // 2


def void_return_day(day: int) -> int:
    return day + 6


# -- 5.12 replacements ---------------------------------------------------------------------
def upf_entitlement(fortresses: int, fortified: int) -> dict[str, int]:
    """Ships the UPF may replace: one FF-or-larger per fortress, two AS/F per fortified."""
    return {"big": fortresses, "small": 2 * fortified}


def sathar_replacement(roll: int) -> bool:
    return roll <= 35


# -- 5.13 victory and retreat --------------------------------------------------------------
def sathar_victory(destroyed_types: Iterable[str]) -> bool:
    kinds = list(destroyed_types)
    return len(kinds) >= 12 and sum(1 for k in kinds if k == "FORTRESS") >= 4


def retreat_met(
    condition: int,
    sathar_losses: Sequence[Mapping[str, object]],
    upf_losses: Sequence[Mapping[str, object]],
    station_kills_in_tenday: int,
    tenday_end: bool,
) -> bool:
    """Whether the Sathar retreat condition is met (T13).

    *sathar_losses* are the Sathar loss records that count (shatter drones and, by option,
    misjumps already left out); each has ``cls``, ``fighter`` and ``combat`` (combat or
    break-up). *upf_losses* are the UPF records for condition 5 (militia already left out).
    """
    if condition == 1:
        return sum(1 for x in sathar_losses if x["cls"] == "AC") >= 2
    if condition == 2:
        return sum(1 for x in sathar_losses if x["cls"] == "HC") >= 5
    if condition == 3:
        return len(sathar_losses) >= 40
    if not tenday_end:
        return False
    if condition == 4:
        return station_kills_in_tenday < 2
    if condition == 5:
        sat = sum(1 for x in sathar_losses if x["combat"] and not x["fighter"])
        upf = sum(1 for x in upf_losses if x["combat"] and not x["fighter"])
        return sat > upf
    return False


def retreat_outcome(fortresses_left: int, zero_rule: str = "draw") -> str:
    if fortresses_left >= 2:
        return "upf_victory"
    if fortresses_left == 1:
        return "draw"
    return "draw" if zero_rule == "draw" else "undefined"


# -- T11 ----------------------------------------------------------------------------------------
def battle_size(counts: Mapping[str, int], rule: str = "all") -> int:
    """Ships in a battle for T11: every ship, fighter and station, or ships only (G-08)."""
    if rule == "all":
        return sum(counts.values())
    return sum(n for cls, n in counts.items() if cls != "F" and cls not in STATION_TYPES)


def class_summary(classes: Iterable[str]) -> str:
    """``10 F, 2 AC, 4 AS`` style summary, largest classes last like the seed's tables."""
    order = ["F", "AS", "FF", "DD", "ML", "LC", "HC", "AC", "BB", *STATION_TYPES]
    c = Counter(classes)
    return ", ".join(f"{c[k]} {k}" for k in order if c.get(k)) or "none"
