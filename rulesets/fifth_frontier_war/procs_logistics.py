"""Procedures for the logistics campaign play applies by itself (issue 16, "every rule
reachable"): whether one squadron is fueled at the end of a movement phase (5.14, T10, T11,
5.23) and whether troops and admirals may load or unload (5.12, 5.23, 5.25)."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.fifth_frontier_war import formulas as F

CODES = ("streamlined", "partial", "unstreamlined")


def p_refuel(
    r: Resolver, code: str, jumped: Any, gas_giant: Any = False, ocean: Any = False,
    starport: str = "X", base: Any = False, controlled: Any = True, red_zone_closed: Any = False,
    starport_slot: Any = True, tanker: Any = False,
) -> Calc:
    """5.14: a squadron that jumped in is fueled at the end of the phase only from a zero-time
    source (T10), a free zero-time starport slot (T11) or a tanker; one that spent the whole
    phase at any usable source is fueled. An ocean, starport or base serves only on a world the
    side controls, and an Imperial squadron uses no starport or ocean at a closed red-zone world
    (5.23); a gas giant always serves; a reinforcement box counts as a base."""
    if code not in CODES:
        raise InvalidInput(f"code: {code!r} is not one of {', '.join(CODES)}")
    usable = {"gas_giant": F.truthy(gas_giant)}
    own = F.truthy(controlled)
    closed = F.truthy(red_zone_closed)
    if not own and (F.truthy(ocean) or F.truthy(base) or starport.upper() != "X"):
        r.explain("the world is not controlled by the squadron's side: only a gas giant serves")
    if closed and (F.truthy(ocean) or starport.upper() != "X"):
        r.explain("a closed red-zone world: no starport or ocean for Imperial squadrons (5.23)")
    usable["ocean"] = F.truthy(ocean) and own and not closed
    usable["base"] = F.truthy(base) and own
    port = starport.upper()
    zero_slots, has_fuel = 0, False
    if port != "X":
        zero_slots = int(r.lookup("T11", starport=port, item="zero_time").value)
        has_fuel = bool(r.lookup("T11", starport=port, item="fuel").value)
    port_ok = has_fuel and own and not closed
    zero = [s for s, ok in usable.items() if ok and int(r.lookup("T10", source=s, code=code).value) == 0]
    if not F.truthy(jumped):
        if any(usable.values()) or port_ok or F.truthy(tanker):
            r.explain("a whole movement phase at a usable source: fueled")
            return Calc(True, "fueled (a full phase at a source)")
        r.explain("no usable fuel source here")
        return Calc(False, "not fueled (no usable source)")
    if zero:
        r.explain(f"{zero[0].replace('_', ' ')} refuels a {code} squadron in zero time (T10)")
        return Calc(True, f"fueled ({zero[0].replace('_', ' ')}, zero time)")
    if port_ok and zero_slots and F.truthy(starport_slot):
        r.explain(f"starport {port}: a zero-time slot ({zero_slots} a turn, T11)")
        return Calc(True, "fueled (starport, zero time)")
    if F.truthy(tanker):
        r.explain("a tanker in the hex refuels it in zero time (5.15)")
        return Calc(True, "fueled (tanker)")
    r.explain("it jumped in this phase and no zero-time source serves it: it needs one full "
              "movement phase at a source" if any(usable.values()) or port_ok else
              "it jumped in and nothing here can fuel it")
    return Calc(False, "not fueled")


def p_transfer(
    r: Resolver, when: str, enemy_squadrons: Any = False, active_enemy_sdbs: Any = False,
    jump_troops: Any = False, black_globe: Any = False, stood_aside: Any = False,
    imperial: Any = False, red_zone_closed: Any = False, warrant: Any = False,
) -> Calc:
    """5.12 / 5.23 / 5.25: troops and admirals load or unload during movement where no enemy
    squadron and no enemy SDB is; in combat only at 3Cc, never with active enemy SDBs (except
    jump troops under the optional rule and the black-globe transfer), and not by squadrons that
    declined or broke off the SDB fight. Imperial troops and admirals land on a closed red-zone
    world only with the warrant holder."""
    if when not in ("movement", "combat"):
        raise InvalidInput("when: movement or combat")
    if F.truthy(imperial) and F.truthy(red_zone_closed) and not F.truthy(warrant):
        r.explain("a red-zone world not yet opened: no Imperial landing without the warrant (5.23)")
        return Calc(False, "not allowed (red zone)")
    if when == "movement":
        if F.truthy(enemy_squadrons) or F.truthy(active_enemy_sdbs):
            r.explain("enemy squadrons or SDBs in the system: transfers wait for step 3Cc")
            return Calc(False, "not during movement")
        return Calc(True, "allowed (movement phase)")
    if F.truthy(stood_aside):
        r.explain("the squadrons declined or broke off the SDB fight: no transfers this phase")
        return Calc(False, "not allowed (stood aside)")
    if F.truthy(active_enemy_sdbs):
        if F.truthy(black_globe):
            r.explain("black-globe surprise transfer (3A): the SDBs cannot hinder it")
            return Calc(True, "allowed (black globe)")
        if F.truthy(jump_troops) and r.options.get("jump_troops", False):
            r.explain("jump troops land even with active enemy SDBs (optional rule)")
            return Calc(True, "allowed (jump troops)")
        if F.truthy(jump_troops):
            r.explain("jump troops pass active SDBs only under the optional Jump Troops rule (off)")
        r.explain("active enemy SDBs remain: no loading or unloading")
        return Calc(False, "not allowed (active SDBs)")
    return Calc(True, "allowed (step 3Cc)")


PROCEDURES: list[ProcedureDef] = [
    ProcedureDef(
        "refuel", "Is a squadron fueled at the end of the movement phase?", p_refuel,
        (
            Param("code", "choice", help="streamlined, partial or unstreamlined", choices=CODES),
            Param("jumped", "bool", help="it jumped in this movement phase"),
            Param.optional("gas_giant", "bool", False), Param.optional("ocean", "bool", False),
            Param("starport", "choice", help="A-E or X", required=False, default="X",
                  choices=("A", "B", "C", "D", "E", "X")),
            Param.optional("base", "bool", False, help="a base (or a reinforcement box)"),
            Param.optional("controlled", "bool", True, help="the world is controlled by the squadron's side"),
            Param.optional("red_zone_closed", "bool", False,
                help="an Imperial squadron at a red-zone world not yet opened"),
            Param.optional("starport_slot", "bool", True,
                help="a zero-time starport slot is still free this turn"),
            Param.optional("tanker", "bool", False, help="a tanker with capacity left serves it"),
        ),
        ("5.14r", "2-end"), reference="5.14",
    ),
    ProcedureDef(
        "transfer", "May troops and admirals load or unload?", p_transfer,
        (
            Param("when", "choice", help="movement or combat", choices=("movement", "combat")),
            Param.optional("enemy_squadrons", "bool", False),
            Param.optional("active_enemy_sdbs", "bool", False),
            Param.optional("jump_troops", "bool", False),
            Param.optional("black_globe", "bool", False),
            Param.optional("stood_aside", "bool", False,
                help="the squadrons declined or broke off the SDB fight"),
            Param.optional("imperial", "bool", False),
            Param.optional("red_zone_closed", "bool", False),
            Param.optional("warrant", "bool", False),
        ),
        ("5.12t", "3Cc", "ST"), reference="5.12, 5.23",
    ),
]
