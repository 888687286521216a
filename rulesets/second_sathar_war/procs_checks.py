"""Procedures for rules campaign play applies by itself (issue 16, "every rule reachable"):
who may declare an attack (5.6), automatic station destruction (5.7), militia breaking off in
their home system (5.8), rearming (5.10) and the damage docked ships and stations do to each other
(5.14k, EXT).
Inputs are the table's own words: station types, ship classes, yes/no facts of the day."""

from __future__ import annotations

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver

# Sathar classes carrying an EB or PB (T1): DD (EB), LC and HC (EB, PB), AC (PB)
LONG_RANGE = {"DD": "EB", "LC": "EB, PB", "HC": "EB, PB", "AC": "PB"}
STATION_WORDS = {
    "armed": "ARMED", "armed station": "ARMED",
    "fortified": "FORTIFIED", "fortified station": "FORTIFIED",
    "fortress": "FORTRESS",
}


def _station_type(text: str) -> str:
    key = " ".join(str(text).lower().replace("_", " ").split())
    if key not in STATION_WORDS:
        raise InvalidInput(f"station {text!r}: armed, fortified or fortress")
    return STATION_WORDS[key]


def station_autodestroy(
    r: Resolver, station: str, sathar: list[str], broken: list[str] | None = None,
    house_rule: bool | None = None,
) -> Calc:
    """5.7 (house rule, option station_autodestroy): an armed or fortified station is destroyed
    after the ship fight when a surviving Sathar ship there has a working EB or PB (range 12,
    beyond the stations' laser batteries, range 9). Fortresses are always fought."""
    kind = _station_type(station)
    on = bool(r.options.get("station_autodestroy", False)) if house_rule is None else house_rule
    if not on:
        r.explain("option station_autodestroy is off: the station is fought on the tactical map")
        return Calc(False, "fought normally (house rule off)")
    if kind == "FORTRESS":
        r.explain("a fortress carries EB and PB itself: it is always fought")
        return Calc(False, "fought normally (fortress)")
    classes = [c.strip().upper() for c in sathar if c.strip()]
    out = {c.strip().upper() for c in broken or []}
    armed = [c for c in classes if c in LONG_RANGE and c not in out]
    if not armed:
        r.explain(f"no surviving Sathar ship with a working EB or PB among {', '.join(classes) or 'none'}"
                  " (FF and fighters carry neither)")
        return Calc(False, "fought normally")
    r.explain(f"{armed[0]} ({LONG_RANGE[armed[0]]}, range 12) outranges the station's laser batteries "
              "(range 9): it is destroyed after the ship fight; a kill for victory and retreat condition 4")
    return Calc(True, f"the {kind.lower()} station is destroyed automatically")


def militia_flee(
    r: Resolver, home_system: bool, fired: bool = False, group_fired: bool = False,
    deputized: bool = False,
) -> Calc:
    """5.8: militia in their home system must attack (fire one weapon at an enemy ship) before
    breaking off: each ship (rules) or any one of the group (house rule, option
    militia_attack_rule). Deputized militia and Spacefleet ships never must."""
    if deputized or not home_system:
        r.explain("deputized, or not in its home system: it may flee freely")
        return Calc(True, "may flee")
    rule = str(r.options.get("militia_attack_rule", "each_ship"))
    if fired or (rule == "any_one_ship" and group_fired):
        r.explain("it (or, by the house rule, one of its militia) fired at an enemy ship: it may flee")
        return Calc(True, "may flee")
    need = "one of its militia ships" if rule == "any_one_ship" else "it"
    r.explain(f"in its home system {need} must first fire one weapon at an enemy ship ({rule})")
    return Calc(False, "may not flee yet")


def rearm(
    r: Resolver, whole_day_at_planet: bool, in_supply: bool, moved: bool = False,
    attacked: bool = False, fought: bool = False,
) -> Calc:
    """5.10: a ship rearms if it spent the whole day at a planet in a system in supply, did not
    move, did not attack, and did not fight back when attacked. Expended limited-supply items,
    masking screens and ICMs of intact systems are restored; destroyed systems are not."""
    reasons = [
        (not whole_day_at_planet, "it was not at a planet the whole day"),
        (not in_supply, "its system is out of supply (5.9)"),
        (moved, "it moved"),
        (attacked, "it attacked"),
        (fought, "it fought back when attacked"),
    ]
    bad = [why for cond, why in reasons if cond]
    for why in bad:
        r.explain(why)
    if bad:
        return Calc(False, "no rearm today")
    also = " (mines and seekers too)" if r.options.get("rearm_mines_seekers", True) else ""
    r.explain("restores spent T, AR, RB, masking screens and ICMs of intact systems" + also)
    return Calc(True, "rearms at the end of the day")


def docked_damage(r: Resolver, destroyed: str, original_hp: int) -> Calc:
    """5.14k (EXT, Knight Hawks docking): a destroyed station deals half its original hull points
    to each docked ship (so every docked fighter dies, G-41); a destroyed docked ship deals half
    its original hull points to the station."""
    if destroyed not in ("station", "ship"):
        raise InvalidInput("destroyed: station or ship")
    dmg = int(original_hp) // 2
    who = "each docked ship" if destroyed == "station" else "the station"
    odd = " (rounded down; the rule gives no rounding)" if int(original_hp) % 2 else ""
    r.explain(f"half of {original_hp} original hull points = {dmg}{odd} to {who}")
    if destroyed == "station":
        r.explain("a docked fighter (8 hull points) cannot survive it")
    return Calc(dmg, f"{dmg} hull points to {who}")


def attack_eligibility(
    r: Resolver, side: str, sathar_ships: int, upf_ships: int = 0, militia_ships: int = 0,
    station: bool = False, attacked_today: int = 0, planet_attacked_today: bool = False,
    sathar_declared: bool = True,
) -> Calc:
    """5.6: a fight needs Sathar ships and UPF ships, militia ships or a surviving station at the
    same starburst. The Sathar declare first, each ship or fleet against one planet per day; the
    UPF declare second and may attack only Sathar ships that did not attack UPF or militia ships
    today. The value is the number of Sathar ships open to a UPF attack (Sathar: 1 or 0)."""
    who = str(side).strip().upper()
    if who not in ("SATHAR", "UPF"):
        raise InvalidInput(f"side {side!r}: sathar or upf")
    sathar, attacked = int(sathar_ships), int(attacked_today)
    if sathar < 0 or not 0 <= attacked <= sathar:
        raise InvalidInput(f"attacked_today {attacked}: between 0 and the {sathar} Sathar ships present")
    upf_present = int(upf_ships) + int(militia_ships) > 0 or station
    if sathar <= 0 or not upf_present:
        r.explain("no fight: the starburst needs Sathar ships and UPF ships, militia ships or a "
                  "surviving station")
        return Calc(0, "no attack possible here")
    if who == "SATHAR":
        if planet_attacked_today:
            r.explain("each Sathar ship or fleet may attack one planet per day")
            return Calc(0, "this Sathar force already attacked a planet today")
        r.explain("the Sathar announce every attack (naming the planet in a two-planet system) before "
                  "any battle is resolved; the attacker moves first in the tactical game")
        return Calc(1, "the Sathar may attack")
    if not sathar_declared:
        r.explain("the Sathar declare all their attacks first")
        return Calc(0, "wait for the Sathar declarations")
    open_ = sathar - attacked
    r.explain(f"{sathar} Sathar ship(s), {attacked} attacked UPF or militia ships today: "
              f"{open_} may be attacked")
    if not open_:
        return Calc(0, "the UPF may not attack: every Sathar ship here attacked today")
    r.explain("the UPF, as attacker, moves first in the tactical game")
    return Calc(open_, f"the UPF may attack {open_} Sathar ship(s)")


PROCEDURES: list[ProcedureDef] = [
    ProcedureDef(
        "attack_eligibility", "May this side declare an attack here?", attack_eligibility,
        (
            Param("side", "choice", help="sathar or upf", choices=("sathar", "upf")),
            Param("sathar_ships", "int", help="Sathar ships at the starburst", min=0),
            Param.optional("upf_ships", "int", 0, help="UPF Spacefleet ships at the starburst"),
            Param.optional("militia_ships", "int", 0),
            Param.optional("station", "bool", False, help="a surviving UPF station is there"),
            Param.optional("attacked_today", "int", 0,
                help="of the Sathar ships, those that attacked UPF or militia today"),
            Param.optional("planet_attacked_today", "bool", False,
                help="(Sathar) this ship or fleet already attacked a planet today"),
            Param.optional("sathar_declared", "bool", True,
                help="(UPF) the Sathar have announced all their attacks"),
        ),
        ("5.6", "declare"), reference="5.6",
    ),
    ProcedureDef(
        "station_autodestroy", "Automatic station destruction (house rule)", station_autodestroy,
        (
            Param("station", "choice", help="armed, fortified or fortress",
                  choices=("armed", "fortified", "fortress")),
            Param("sathar", "list", help="classes of the surviving Sathar ships, e.g. FF,DD,F"),
            Param.optional("broken", "list", [], help="classes whose EB/PB is destroyed"),
            Param.optional("house_rule", "bool", None, help="the house rule is in use (default: the option)"),
        ),
        ("5.7", "B4"), reference="5.7",
    ),
    ProcedureDef(
        "militia_flee", "May a militia ship break off?", militia_flee,
        (
            Param("home_system", "bool", help="the battle is in its home system"),
            Param.optional("fired", "bool", False, help="it fired at an enemy ship"),
            Param.optional("group_fired", "bool", False, help="another militia ship of its planet fired"),
            Param.optional("deputized", "bool", False),
        ),
        ("5.8",), reference="5.8",
    ),
    ProcedureDef(
        "rearm", "Rearming at the end of the day", rearm,
        (
            Param("whole_day_at_planet", "bool"),
            Param("in_supply", "bool"),
            Param.optional("moved", "bool", False),
            Param.optional("attacked", "bool", False),
            Param.optional("fought", "bool", False, help="it was attacked and fought back"),
        ),
        ("5.10r",), reference="5.10",
    ),
    ProcedureDef(
        "docked_damage", "Damage between a station and its docked ships", docked_damage,
        (Param("destroyed", "choice", help="station or ship", choices=("station", "ship")),
         Param("original_hp", "int", min=1)),
        ("G-41", "docking"), reference="5.14k",
    ),
]
