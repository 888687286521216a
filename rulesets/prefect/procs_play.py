"""Procedures for rules that campaign play applies inside its actions and that ``calc`` could
not reach before (the audit of digest sections 3 to 5): overruns and attacks on disrupted
units (5.10), planetary retreats (5.8, 5.12), lines of communication (5.11.1), who may
reorganize a disrupted unit (5.11.4), capture (5.11.9), who is the combat attacker in space
(5.13.5), space retreats (5.13.8), orbital drops (5.14.5) and what a base may spend supply on
(5.14.8, 5.14.11). Each takes the
situation in the GM's words and explains the ruling; the actions use the same functions or
the same rules (``actions_movement``, ``ground_combat``, ``supply``).
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.prefect.movement import overrun_cost
from rulesets.prefect.supply import base_may_pay

RESULTS = ("AR", "DR", "BT", "CA")


def p_overrun(
    r: Resolver,
    combat_units: int,
    fatigue: int,
    disrupted: int,
    destroy: int | None = None,
    mp_left: int = 99,
    combat_phase: bool = False,
) -> Calc:
    """5.10: a moving task force with a combat unit and fatigue below 3 destroys disrupted enemy
    units at 1 MP each (picked at random), and stays in the hex only if it destroys all of
    them; then its lowest-defense combat unit saves (a failure: +1 fatigue). Attacked in the
    Combat Phase, a hex holding only disrupted units loses them all at once, with the same
    save. Value: the MP the overrun costs."""
    if disrupted < 0 or combat_units < 0 or not 0 <= fatigue <= 3:
        raise InvalidInput("combat_units and disrupted are 0 or more; fatigue is 0 to 3")
    if combat_phase:
        r.explain(f"attack on a hex holding only disrupted units: all {disrupted} destroyed, no roll (5.10)")
        r.explain("then the attackers' lowest-defense combat unit saves; a failure adds 1 fatigue (5.10)")
        return Calc(0, f"{disrupted} disrupted unit(s) destroyed automatically")
    if combat_units < 1 or fatigue >= 3:
        r.explain("an overrun needs a combat unit in the task force and fatigue below 3 (5.10, 5.9)")
        return Calc(0, "no overrun")
    n = disrupted if destroy is None else destroy
    if not 0 <= n <= disrupted:
        raise InvalidInput(f"destroy {n}: between 0 and the {disrupted} disrupted unit(s) in the hex")
    cost = overrun_cost(n)
    if cost > mp_left:
        return Calc(cost, f"{cost} MP to destroy {n}: only {mp_left} MP left")
    r.explain(f"{n} disrupted unit(s) destroyed at 1 MP each = {cost} MP, picked at random (5.10)")
    stays = n == disrupted
    r.explain(
        "it may stay in the hex: it destroyed them all"
        if stays
        else "it may not stay in the hex: disrupted enemy units remain; it never ends a move with enemy units"
    )
    if n:
        r.explain("its lowest-defense combat unit saves (with fatigue); a failure adds 1 fatigue (5.10, G50)")
    return Calc(cost, f"{cost} MP; {'may' if stays else 'may not'} stay in the hex")


def p_retreat(
    r: Resolver,
    result: str,
    side: str,
    free_hexes: int,
    water_hexes: int = 0,
    nongrav: bool = False,
    friendly_tf: bool = False,
) -> Calc:
    """5.8, 5.12: after the saves, AR retreats the attackers and DR the defenders one hex to a
    neighbour without an enemy task force; BT (defender) or CA (attacker) removes that side's
    task force counter and its survivors, all disrupted, retreat; the other side scores +1
    tempo. With no hex to go to the task force is destroyed; non-grav units never retreat into
    Water. Entering a friendly task force's hex merges the two."""
    result = result.upper()
    loser = {"AR": "attacker", "CA": "attacker", "DR": "defender", "BT": "defender"}[result]
    if side != loser:
        r.explain(f"{result} makes the {loser} retreat, not the {side}")
        return Calc("stays", "does not retreat")
    if not 0 <= water_hexes <= free_hexes:
        raise InvalidInput("water_hexes counts among free_hexes (0 to free_hexes)")
    usable = free_hexes - (water_hexes if nongrav else 0)
    if result in ("BT", "CA"):
        r.explain(
            f"{result}: the {side}'s task force counter is removed; its survivors are disrupted "
            "and retreat one hex (5.8)"
        )
        r.explain("the other side adds +1 to its tempo score (5.15)")
    if usable <= 0:
        why = (
            "no neighbour free of enemy task forces"
            if free_hexes == 0
            else "only Water, and non-grav units may not enter it (5.12)"
        )
        r.explain(f"{why}: destroyed (5.8)")
        return Calc("destroyed", "destroyed: nowhere to retreat")
    r.explain(
        f"{usable} hex(es) to choose from, one hex away, never one another attacking TF of this combat "
        "left (5.8)"
    )
    if friendly_tf:
        r.explain("into a friendly task force's hex: they merge at once, at the higher fatigue (5.8, 5.9)")
        return Calc("merges", "retreats one hex and merges")
    return Calc("retreats", "retreats one hex")


ATTACKER_BY_SITUATION = {
    "dsi": ("the interceptors", "Defensive Sector Interception"),
    "attack": ("the phasing player", "segment combat against an Attack or HS Attack mission"),
    "supply": ("the opponent", "segment combat against a Supply mission"),
    "ground_support": ("the opponent", "segment combat against a Ground Support mission"),
    "orbital_drop": ("the opponent", "segment combat against an Orbital Drop mission"),
    "sector_defenses": ("the side with the higher attack total", "opposing Sector Defenses"),
    "base_attack": ("the phasing player", "a Ground Support attack on a ground base"),
}


def p_space_attacker(r: Resolver, situation: str, a_attack: int = 0, b_attack: int = 0) -> Calc:
    """5.13.5: who is the combat attacker of a space combat (the side whose attack total is
    divided by the other's defence, 5.4)."""
    who, what = ATTACKER_BY_SITUATION[situation]
    if situation == "sector_defenses":
        if a_attack == b_attack:
            r.explain(f"{what}: attack totals tied at {a_attack}; the digest gives no tie rule: GM's call")
            return Calc("tie", "attack totals tied: GM's call")
        who = "side A" if a_attack > b_attack else "side B"
        r.explain(
            f"{what}: {who} has the higher attack total ({max(a_attack, b_attack)} vs "
            f"{min(a_attack, b_attack)})"
        )
    else:
        r.explain(f"{what}: the combat attacker is {who}")
    r.explain("then the column (5.4), any shift (5.5) and the natural d10 on T4")
    return Calc(who, f"combat attacker: {who}")


SPACE_RETREATS = {
    "AR": "the attacker's naval units go back to their TF holding box, take no further part in the "
    "mission this turn, and its transports cannot unload",
    "DR": "the defender's naval units go back to their TF holding box and take no further part this turn",
    "BT": "the defender's screen is broken: its mobile units are destroyed or disrupted and retreat, the "
    "segment's bases are exposed; the attacker adds +1 to its tempo score",
    "CA": "the attacker's naval units are disrupted and save against destruction, its facilities in the "
    "segment save against disruption; the defender adds +1 to its tempo score",
}


def p_space_retreat(r: Resolver, result: str) -> Calc:
    """5.13.8: what an AR, DR, BT or CA does to the naval forces of a space combat."""
    result = result.upper()
    r.explain(f"{result}: {SPACE_RETREATS[result]} (5.13.8)")
    return Calc(result, SPACE_RETREATS[result])


BASES = ("GL1", "GL2", "GL3", "GL4", "ON", "GN", "TR")


def p_base_spend(
    r: Resolver,
    base: str,
    purpose: str,
    unit_kind: str,
    disrupted: bool = False,
    campaign: bool = True,
    itself: bool = False,
) -> Calc:
    """5.14.8 (T-BaseLim), 5.14.11: may this base spend supply points on this? A disrupted base
    may receive supply but spends it only to reorganize itself; it never transfers."""
    if disrupted:
        ok = purpose == "reorganize" and itself
        r.explain(
            "a disrupted base may receive SP but spends it only to reorganize itself; it never "
            "transfers, rearms, or rebuilds (5.14.11)"
        )
        return Calc(ok, "yes: it reorganizes itself" if ok else "no: the base is disrupted")
    if purpose == "transfer":
        r.explain("an undisrupted base may transfer within its segment (5.13.15)")
        return Calc(True, "yes")
    rating = int(base[2]) if base.startswith("GL") else 0
    klass = "GL" if base.startswith("GL") else base
    ok, why = base_may_pay(klass, rating, purpose, unit_kind, campaign)
    r.explain(f"{base}: {why} (5.14.8, T-BaseLim)")
    return Calc(ok, ("yes: " if ok else "no: ") + why)


LOC_BLOCKS = ("enemy_tf", "enemy_disrupted", "enemy_base", "enemy_zoc", "water")


def p_loc(r: Resolver, crosses: Any = (), independent_nongrav: bool = False) -> Calc:
    """5.11.1, 5.12: a line of communication is a connected chain of hexes from source to receiver
    that never enters a hex holding an enemy task force, an enemy disrupted unit, an enemy base or
    an enemy active ZOC; distance and terrain do not matter, except that a LOC to an independent
    non-grav unit may not cross Water. *crosses*: what the chain enters, in those words."""
    raw = crosses if isinstance(crosses, (list, tuple)) else str(crosses or "").split(",")
    items = [str(x).strip().lower() for x in raw]
    items = [x for x in items if x]
    bad = [x for x in items if x not in LOC_BLOCKS]
    if bad:
        raise InvalidInput(f"crosses: {', '.join(bad)}; say any of {', '.join(LOC_BLOCKS)}")
    blocks = [x for x in items if x != "water"]
    if "water" in items:
        if independent_nongrav:
            blocks.append("water")
            r.explain("a LOC to an independent non-grav unit may not cross Water (5.11.1, 5.12)")
        else:
            r.explain("Water does not matter to this LOC (5.11.1)")
    if blocks:
        r.explain("the chain enters " + ", ".join(b.replace("_", " ") for b in blocks) + ": no LOC (5.11.1)")
        return Calc(False, "no line of communication")
    r.explain("nothing in the way: distance and terrain do not matter (5.11.1)")
    return Calc(True, "line of communication")


REORGANIZERS = ("legion_hq", "auxilia_hq", "manus_hq", "legion_base")


def p_reorganizer(
    r: Resolver,
    unit: str,
    by: str,
    rating: int = 0,
    by_disrupted: bool = False,
    water: bool = False,
    own_legion: bool = False,
) -> Calc:
    """5.11.4: who may reorganize a disrupted unit. An undisrupted Legion, Auxilia or Manus HQ
    with a task force in its hex, or a Legion base; never a disrupted HQ, nor an HQ in full
    Water. A disrupted Manus HQ only by its own Legion HQ or a Legion base of rating 2+; a
    disrupted Legion HQ only by a Legion base of rating 3+. *unit*: "manus hq", "legion hq"
    or any other unit."""
    kind = unit.strip().lower().replace("_", " ")
    if by != "legion_base" and by_disrupted:
        r.explain("a disrupted HQ cannot reorganize anything (5.11.4)")
        return Calc(False, "no: the HQ is disrupted")
    if by != "legion_base" and water:
        r.explain("HQs in a full Water hex cannot reorganize (5.11.4)")
        return Calc(False, "no: the HQ is in Water")
    if kind in ("manus hq", "manus"):
        ok = (by == "legion_hq" and own_legion) or (by == "legion_base" and rating >= 2)
        r.explain("a disrupted Manus HQ: only its own Legion HQ or a Legion base of rating 2+ (5.11.4)")
    elif kind in ("legion hq", "legion"):
        ok = by == "legion_base" and rating >= 3
        r.explain("a disrupted Legion HQ: only a Legion base of rating 3+ (5.11.4)")
    else:
        ok = True
        r.explain(f"a {by.replace('_', ' ')} reorganizes disrupted units in its hex, at the T6 cost (5.11.4)")
    return Calc(ok, "yes" if ok else "no")


CAPTURE_HOW = ("no_attack", "BT", "disrupted_only", "support_only", "DR")


def p_capture(r: Resolver, how: str, base: str = "GL", ground_capture_gn: bool | None = None) -> Calc:
    """5.11.9, G37: a unit entering a hex with an enemy base or urban area takes it; the supplies
    inside are captured if the hex was entered without an attack, after a BT, or when it held only
    disrupted units or a support-only task force, and destroyed if entered after a DR. Orbital
    naval bases (ON) are not taken from the ground; ground naval bases (GN) per the option
    ``ground_capture_gn``. The captor scores the base's VP (5.16)."""
    if base == "ON":
        r.explain("an orbital naval base is not captured from the planet (G37)")
        return Calc("none", "not captured")
    gn = r.options.get("ground_capture_gn", True) if ground_capture_gn is None else ground_capture_gn
    if base == "GN" and not gn:
        r.explain("ground naval bases are not captured with ground_capture_gn off (G37)")
        return Calc("none", "not captured")
    fate = "destroyed" if how == "DR" else "captured"
    r.explain(f"entered {how.replace('_', ' ')}: the base changes hands, its supplies are {fate} (5.11.9)")
    r.explain("enemy disrupted units left in the hex are destroyed; the captor scores the base's VP (5.16)")
    return Calc(fate, f"base captured, supplies {fate}")


DROPPERS = ("grav", "marine", "garrison", "militia", "legion_hq", "auxilia_hq")


def p_orbital_drop(
    r: Resolver, unit: str, transport_disrupted: bool = False, survived_dsi: bool = True
) -> Calc:
    """5.14.5: only grav units and Marine Cohorts drop from orbit; Garrison Legions and Militia
    Regiments go down by a Supply mission to a friendly base. The transports must survive the
    Sector Defense; a disrupted transport goes back to its task force and drops nothing. A
    Legion or Auxilia HQ lands full (T5) whatever the cargo (5.14.6)."""
    if unit in ("garrison", "militia"):
        r.explain(f"a {unit} unit is non-grav: it lands by a Supply mission to a friendly base (5.14.5)")
        return Calc(False, "no: not by orbital drop")
    if not survived_dsi or transport_disrupted:
        r.explain(
            "the transport did not get through undisrupted: it returns to its task force, no drop (5.14.5)"
        )
        return Calc(False, "no: the transport drops nothing")
    r.explain("it goes to the area's Orbital Drop Holding Box; enemy fighters may attack it there (5.14.6)")
    if unit in ("legion_hq", "auxilia_hq"):
        r.explain("an HQ lands full (T5), independent of the transport's cargo (5.14.6)")
    return Calc(True, "yes: it drops")


PROCEDURES = [
    ProcedureDef(
        "overrun",
        "Overrun and attacks on disrupted units",
        p_overrun,
        (
            Param("combat_units", "int", help="combat units in the moving task force", min=0),
            Param("fatigue", "int", help="its fatigue", min=0, max=3),
            Param("disrupted", "int", help="disrupted enemy units in the hex", min=0),
            Param.optional("destroy", "int", None, help="how many it destroys (all by default)", min=0),
            Param.optional("mp_left", "int", 99, help="MP the task force has left", min=0),
            Param.optional("combat_phase", "bool", False,
                help="an attack in the Combat Phase, not an overrun"),
        ),
        ("5.10",),
        p_overrun.__doc__ or "",
        "5.10",
    ),
    ProcedureDef(
        "retreat",
        "Planetary retreat",
        p_retreat,
        (
            Param("result", "choice", choices=RESULTS, help="the CRT letter"),
            Param("side", "choice", choices=("attacker", "defender"), help="the task force's side"),
            Param("free_hexes", "int", min=0, help="neighbouring hexes without an enemy task force"),
            Param.optional("water_hexes", "int", 0, help="how many of them are full Water", min=0),
            Param.optional("nongrav", "bool", False, help="the task force holds a non-grav unit"),
            Param.optional("friendly_tf", "bool", False, help="it retreats into a friendly task force's hex"),
        ),
        ("5.8",),
        p_retreat.__doc__ or "",
        "5.8",
    ),
    ProcedureDef(
        "loc",
        "Line of communication",
        p_loc,
        (
            Param.optional("crosses", "list", [], help="what the chain enters: " + ", ".join(LOC_BLOCKS)),
            Param.optional("independent_nongrav", "bool", False,
                help="the receiver is an independent non-grav unit"),
        ),
        ("5.11.1",),
        p_loc.__doc__ or "",
        "5.11.1",
    ),
    ProcedureDef(
        "reorganizer",
        "Who may reorganize a disrupted unit",
        p_reorganizer,
        (
            Param("unit", "str", help="the disrupted unit: Manus HQ, Legion HQ or any other"),
            Param("by", "choice", choices=REORGANIZERS, help="who pays"),
            Param.optional("rating", "int", 0, help="the Legion base's rating", min=0, max=4),
            Param.optional("by_disrupted", "bool", False, help="the HQ is disrupted"),
            Param.optional("water", "bool", False, help="the HQ is in a full Water hex"),
            Param.optional("own_legion", "bool", False, help="the Legion HQ is the Manus HQ's own"),
        ),
        ("5.11.4r",),
        p_reorganizer.__doc__ or "",
        "5.11.4",
    ),
    ProcedureDef(
        "capture",
        "Capturing a base",
        p_capture,
        (
            Param("how", "choice", choices=CAPTURE_HOW, help="how the hex was entered"),
            Param.optional("base", "choice", "GL",
                help="GL Legion base, GN ground naval base, ON orbital", choices=("GL", "GN", "ON")),
            Param.optional("ground_capture_gn", "bool", None, help="overrides the option"),
        ),
        ("5.11.9", "G37"),
        p_capture.__doc__ or "",
        "5.11.9",
    ),
    ProcedureDef(
        "orbital_drop",
        "May this unit drop from orbit",
        p_orbital_drop,
        (
            Param("unit", "choice", choices=DROPPERS, help="what drops"),
            Param.optional("transport_disrupted", "bool", False, help="its transport was disrupted"),
            Param.optional("survived_dsi", "bool", True, help="its transport got through the Sector Defense"),
        ),
        ("5.14.5",),
        p_orbital_drop.__doc__ or "",
        "5.14.5",
    ),
    ProcedureDef(
        "space_attacker",
        "Who is the combat attacker in space",
        p_space_attacker,
        (
            Param("situation", "choice", choices=tuple(ATTACKER_BY_SITUATION), help="what the combat is"),
            Param.optional("a_attack", "int", 0,
                help="opposing Sector Defenses: side A's attack total", min=0),
            Param.optional("b_attack", "int", 0,
                help="opposing Sector Defenses: side B's attack total", min=0),
        ),
        ("5.13.5",),
        p_space_attacker.__doc__ or "",
        "5.13.5",
    ),
    ProcedureDef(
        "space_retreat",
        "Retreats in space",
        p_space_retreat,
        (Param("result", "choice", choices=RESULTS, help="the CRT letter"),),
        ("5.13.8",),
        p_space_retreat.__doc__ or "",
        "5.13.8",
    ),
    ProcedureDef(
        "base_spend",
        "What a base may spend supply on",
        p_base_spend,
        (
            Param(
                "base",
                "choice",
                choices=BASES,
                help="GL1-GL4 Legion bases; ON, GN naval bases; TR transport-base",
            ),
            Param("purpose", "choice", choices=("rearm", "reorganize", "rebuild", "transfer")),
            Param("unit_kind", "choice", choices=("ground", "marine", "fighter", "starship", "transport")),
            Param.optional("disrupted", "bool", False, help="the base is disrupted"),
            Param.optional("campaign", "bool", True, help="the campaign game (off: the space game alone)"),
            Param.optional("itself", "bool", False, help="the base reorganizes itself"),
        ),
        ("5.14.8", "5.14.11", "T-BaseLim"),
        p_base_spend.__doc__ or "",
        "5.14.8",
    ),
]
