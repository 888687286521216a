"""Procedures for the games' exclusive rules the digest gives as numbers (section 4.5, EXT
sources): the Chariot's passenger and shared movement allowance (Chariot [1.0]-[1.9]), the
Frankish francisca (Viking [1.0]) and the Viking fleets (Viking [3.1]-[3.5]). Campaign play
applies the same numbers (``carriers``, ``act_chariot``, ``act_fleet``); a GM checks a ruling
with these at the table."""

from __future__ import annotations

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.prestags.carriers import (
    CHARIOT_PASSENGERS,
    FLEET_MA,
    FLEET_MA_DISRUPTED,
    LOAD_MP,
    MOOR_MP,
    UNMOOR_MP,
)
from rulesets.prestags.carriers import FLEET_LOAD as FLEET_CAPACITY

CHARIOT_MA = 9


def _codes(items: list[str]) -> list[str]:
    return [str(c).strip().upper() for c in items if str(c).strip()]


def chariot(r: Resolver, carried: list[str] | None = None, chariot_phase_mp: int = 0) -> Calc:
    """Chariot [1.0]-[1.9]: a chariot's single MA of 9 serves both its Chariot Phase (before the
    Fire Combat Phase) and its Movement Phase; it carries one BW, IB or SK, leaders extra and
    free; it must stop on entering a stream hex; chariots count for stacking. The value is the
    MP left for the Movement Phase."""
    codes = _codes(carried or [])
    troops = [c for c in codes if not c.startswith("L")]
    bad = [c for c in troops if c not in CHARIOT_PASSENGERS]
    if bad:
        raise InvalidInput(f"carried {', '.join(bad)}: a chariot carries only a BW, IB or SK (and leaders)")
    if len(troops) > 1:
        raise InvalidInput(f"carried {', '.join(troops)}: a chariot carries one BW, IB or SK")
    spent = int(chariot_phase_mp)
    if not 0 <= spent <= CHARIOT_MA:
        raise InvalidInput(f"chariot_phase_mp {spent}: between 0 and the chariot's MA of {CHARIOT_MA}")
    if codes:
        free = " (leaders ride free)" if len(codes) > len(troops) else ""
        r.explain("carries " + ", ".join(codes) + free)
    left = CHARIOT_MA - spent
    r.explain(f"MA {CHARIOT_MA} - {spent} MP used in the Chariot Phase = {left} MP for the Movement Phase")
    r.explain("it must stop on entering a stream hex, and it counts for stacking")
    return Calc(left, f"{left} MP left for the Movement Phase")


def francisca(r: Resolver, distance: int, used: bool = False) -> Calc:
    """Viking [1.0]: a Frankish AX may make one defensive fire attack per game, strength 3, at an
    adjacent unit only; it counts as a fire unit until it has thrown. Value: the fire strength."""
    if used:
        r.explain("this AX has already thrown its francisca: it is no longer a fire unit")
        return Calc(0, "no francisca left")
    if int(distance) != 1:
        r.explain(f"{distance} hexes away: the francisca reaches adjacent hexes only")
        return Calc(0, "out of range")
    r.explain("one defensive fire attack per game at an adjacent unit, strength 3")
    return Calc(3, "fire strength 3 (once per game)")


def viking_fleet(
    r: Resolver, hexes: int = 0, moor: bool = False, unmoor: bool = False, loads: int = 0,
    carried: int = 0, disrupted: bool = False,
) -> Calc:
    """Viking [3.1]-[3.5]: a fleet has MA 15 (7 disrupted); 1 MP per sea or river hex; mooring
    costs 7 MP, unmooring 5, each loading or unloading 2; it carries up to 3 units; its Fire
    Protection Strength is always 4; moored and empty it defends in melee at 4 and is worth 2 VP.
    The value is the MP the move costs."""
    if not 0 <= int(carried) <= FLEET_CAPACITY:
        raise InvalidInput(f"carried {carried}: a fleet carries 0 to {FLEET_CAPACITY} units")
    ma = FLEET_MA_DISRUPTED if disrupted else FLEET_MA
    parts = [(int(hexes), f"{hexes} sea/river hex(es) at 1"), (UNMOOR_MP if unmoor else 0, "unmooring 5"),
             (LOAD_MP * int(loads), f"{loads} loading/unloading at 2"), (MOOR_MP if moor else 0, "mooring 7")]
    cost = sum(n for n, _ in parts)
    r.explain(" + ".join(why for n, why in parts if n) + f" = {cost} MP" if cost else "no movement: 0 MP")
    r.explain(f"MA {ma}" + (" (disrupted)" if disrupted else "") + "; Fire Protection Strength 4")
    if cost > ma:
        return Calc(cost, f"{cost} MP is more than the fleet's MA of {ma}: not allowed")
    return Calc(cost, f"{cost} MP of {ma}")


PROCEDURES: tuple[ProcedureDef, ...] = (
    ProcedureDef(
        "chariot", "Chariot: passenger and movement left", chariot,
        (Param.optional("carried", "list", [], help="unit types carried, e.g. BW,L2"),
         Param.optional("chariot_phase_mp", "int", 0, help="MP used in the Chariot Phase")),
        aliases=("C1.0",), reference="Chariot [1.0]-[1.9]",
    ),
    ProcedureDef(
        "francisca", "Viking: the Frankish francisca", francisca,
        (Param("distance", "int", min=1, help="hexes to the target"),
         Param.optional("used", "bool", False, help="thrown already this game")),
        aliases=("V1.0",), reference="Viking [1.0]",
    ),
    ProcedureDef(
        "viking_fleet", "Viking fleet movement", viking_fleet,
        (Param.optional("hexes", "int", 0, help="sea or river hexes entered"),
         Param.optional("moor", "bool", False),
         Param.optional("unmoor", "bool", False),
         Param.optional("loads", "int", 0, help="loadings and unloadings"),
         Param.optional("carried", "int", 0, help="units aboard"),
         Param.optional("disrupted", "bool", False)),
        aliases=("V3.1", "V3.5"), reference="Viking [3.1]-[3.5]",
    ),
)
