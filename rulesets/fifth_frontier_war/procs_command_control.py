"""Procedures for rules campaign play applies by itself (issue 16, "every rule reachable"):
who moves and who disengages first (2A, SC4), the overall space-combat commander (5.5, 5.18),
vacuum-world surrender and gain of control (5.17). Inputs are what a GM sees at the table."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.fifth_frontier_war import formulas as F

SIDES = ("imperial", "zhodani")
NAVIES = ("imperial", "zhodani", "sword_worlds", "vargr")


def _roll_off(r: Resolver, purpose: str, rule: str) -> str:
    """Both players roll 1d6; the lower roll goes first; ties roll again (G-08, G-09)."""
    if rule in ("imperial_first", "zhodani_first"):
        first = rule.removesuffix("_first")
        r.explain(f"tie: option says the {first} side goes first")
        return first
    for _ in range(100):
        a = r.roll("1d6", f"{purpose}: Imperial", side="imperial").natural
        z = r.roll("1d6", f"{purpose}: Zhodani", side="zhodani").natural
        if a != z:
            first = "imperial" if a < z else "zhodani"
            r.explain(f"Imperial {a}, Zhodani {z}: the lower roll, {first}, goes first")
            return first
        r.explain(f"both rolled {a}: roll again")
    raise InvalidInput(f"{purpose}: a hundred ties in a row; check the dice")


def p_movement_order(r: Resolver) -> Calc:
    """2A: both players roll 1d6; the lower roll moves first in steps 2B-2D (G-08: ties reroll)."""
    first = _roll_off(r, "movement order", "reroll")
    return Calc(first, f"the {first} player moves first this turn")


def p_disengage_order(r: Resolver, imperial_tf: int, zhodani_tf: int) -> Calc:
    """SC4: the side with the lower tactical factor decides first whether to disengage; equal
    factors: a roll-off (G-09, option disengage_tie)."""
    a, z = int(imperial_tf), int(zhodani_tf)
    if a != z:
        first = "imperial" if a < z else "zhodani"
        r.explain(f"tactical factors Imperial {a}, Zhodani {z}: the lower decides first")
    else:
        r.explain(f"equal tactical factors ({a})")
        first = _roll_off(r, "disengagement order", str(r.options.get("disengage_tie", "reroll")))
    return Calc(first, f"{first} decides first whether to disengage")


def _admiral(text: str) -> dict[str, Any]:
    parts = [p.strip() for p in str(text).split(":")]
    if len(parts) not in (4, 5) or parts[1] not in NAVIES:
        raise InvalidInput(
            f"admiral {text!r}: write name:navy:precedence:tactical[:world], navy one of "
            f"{', '.join(NAVIES)} (e.g. Vasilyev:imperial:3:+1 or Duke:imperial:1:0:world)"
        )
    try:
        prec, tac = int(parts[2]), int(parts[3])
    except ValueError:
        raise InvalidInput(f"admiral {text!r}: precedence and tactical factor are whole numbers") from None
    return {"name": parts[0], "navy": parts[1], "precedence": prec, "tactical": tac,
            "world": len(parts) == 5 and parts[4].lower() in ("world", "w", "on_world", "yes")}


def p_space_commander(r: Resolver, admirals: list[str], squadrons: list[str]) -> Calc:
    """5.5 / 5.18 / G-21: the most senior eligible admiral present commands; an admiral may not
    take command where other allied navies have more squadrons than his own; on the world he
    gets -1 tactical. Nobody eligible: tactical factor 0."""
    counts: dict[str, int] = {}
    for item in squadrons:
        navy, _, n = str(item).partition(":")
        navy = navy.strip()
        if navy not in NAVIES:
            raise InvalidInput(f"squadrons {item!r}: write navy:count, navy one of {', '.join(NAVIES)}")
        counts[navy] = counts.get(navy, 0) + int(n or 1)
    total = sum(counts.values())
    eligible = []
    for adm in (_admiral(a) for a in admirals):
        own = counts.get(adm["navy"], 0)
        if total - own > own:
            r.explain(f"{adm['name']} ({adm['navy']}): {total - own} squadrons of other navies against "
                      f"{own} of his own: may not command")
            continue
        eligible.append(adm)
    if not eligible:
        r.explain("no eligible admiral: tactical factor 0")
        return Calc(0, "no commander: tactical factor 0")
    eligible.sort(key=lambda a: a["precedence"])
    best = eligible[0]
    tied = [a["name"] for a in eligible if a["precedence"] == best["precedence"]]
    if len(tied) > 1:
        r.explain(f"equal precedence ({', '.join(tied)}): the owning player chooses; the first is shown")
    tf = best["tactical"] - (1 if best["world"] else 0)
    r.explain(f"{best['name']} (precedence {best['precedence']}) commands: tactical factor "
              f"{best['tactical']:+d}" + (" -1 on the world" if best["world"] else "") + f" = {tf:+d}")
    return Calc(tf, f"{best['name']} commands, tactical factor {tf:+d}")


def p_surrender(
    r: Resolver, vacuum: Any, armed_enemy_squadrons: int, friendly_squadrons: int = 0,
    active_sdbs: Any = False,
) -> Calc:
    """5.17: a vacuum world surrenders when an enemy squadron with attack > 0 is in the system
    and it has no friendly squadrons and no active SDBs there."""
    if not F.truthy(vacuum):
        r.explain("only vacuum worlds surrender")
        return Calc(False, "no surrender (not a vacuum world)")
    reasons = []
    if int(armed_enemy_squadrons) <= 0:
        reasons.append("no enemy squadron with an attack factor above 0 in the system")
    if int(friendly_squadrons) > 0:
        reasons.append(f"{friendly_squadrons} friendly squadron(s) in the system")
    if F.truthy(active_sdbs):
        reasons.append("active SDBs")
    for why in reasons:
        r.explain(why)
    if reasons:
        return Calc(False, "no surrender")
    r.explain("the world surrenders: its defense battalions and every friendly troop on it take 100% "
              "losses; the enemy must garrison it with troops or an armed squadron that stays")
    if r.options.get("surrender_disarms_sdbs", True):
        r.explain("its SDBs are lost too (option surrender_disarms_sdbs, G-19)")
    return Calc(True, "the world surrenders")


def p_gain_control(
    r: Resolver, enemy_squadrons: int = 0, enemy_sdb: str = "0", enemy_troops: int = 0,
    enemy_battalions: str = "0", garrison: str = "0", units: int = 0, db_full: str = "0",
) -> Calc:
    """5.17: a player gains a world by destroying every enemy squadron and SDB in the system and
    every overt enemy troop unit and defense battalion on the world (covert guerrillas do not
    count), and keeps it with a garrison of at least 1% of the world's full battalions."""
    left = [
        (int(enemy_squadrons), "enemy squadrons in the system"),
        (F.frac(enemy_sdb), "enemy SDB strength"),
        (int(enemy_troops), "overt enemy troop units on the world"),
        (F.frac(enemy_battalions), "enemy defense-battalion strength"),
    ]
    standing = [f"{F.fmt(n)} {what}" for n, what in left if n > 0]
    if standing:
        r.explain("still there: " + "; ".join(standing))
        return Calc(False, "no change of control")
    r.explain("every enemy squadron, SDB, overt troop unit and battalion is gone (covert guerrillas "
              "do not count)")
    holds = F.garrison_holds(F.frac(garrison), F.frac(db_full), int(units))
    need = F.garrison_needed(F.frac(db_full))
    r.explain(f"garrison {garrison} against 1% of {db_full} = {F.fmt(need)}" if F.frac(db_full)
              else f"no battalion factor: any troop unit holds it ({units} present)")
    if not holds:
        return Calc(False, "no troops enough to hold it: no change of control")
    return Calc(True, "control passes to the attacker")


def _p(name: str, kind: str = "str", help: str = "", default: Any = None) -> Param:
    return Param(name, kind, help=help, required=default is None, default=default)


PROCEDURES: list[ProcedureDef] = [
    ProcedureDef("movement_order", "Movement order roll", p_movement_order, (), ("2A", "G-08"),
                 reference="2A"),
    ProcedureDef(
        "disengage_order", "Who decides first to disengage", p_disengage_order,
        (_p("imperial_tf", "int"), _p("zhodani_tf", "int")), ("SC4", "G-09"), reference="SC4",
    ),
    ProcedureDef(
        "space_commander", "Overall space-combat commander", p_space_commander,
        (
            _p("admirals", "list", "name:navy:precedence:tactical[:world], e.g. Ashluda:imperial:2:+1"),
            _p("squadrons", "list", "navy:count of the side's squadrons in the hex, e.g. zhodani:3,vargr:4"),
        ),
        ("5.18", "SC0", "G-21"), reference="5.5, 5.18",
    ),
    ProcedureDef(
        "surrender", "Vacuum-world surrender", p_surrender,
        (
            _p("vacuum", "bool"),
            _p("armed_enemy_squadrons", "int", "enemy squadrons with attack > 0 in the system"),
            _p("friendly_squadrons", "int", default=0),
            _p("active_sdbs", "bool", "the world's SDBs are active (not passive or gone)", False),
        ),
        ("5.17s", "G-19"), reference="5.17",
    ),
    ProcedureDef(
        "gain_control", "Gain of control of a world", p_gain_control,
        (
            _p("enemy_squadrons", "int", default=0),
            _p("enemy_sdb", "str", "enemy SDB current strength", "0"),
            _p("enemy_troops", "int", "overt enemy troop units", 0),
            _p("enemy_battalions", "str", "enemy defense-battalion current strength", "0"),
            _p("garrison", "str", "the attacker's troop current strength on the world", "0"),
            _p("units", "int", "the attacker's troop units on the world", 0),
            _p("db_full", "str", "the world's full defense-battalion factor", "0"),
        ),
        ("5.17c", "3E"), reference="5.17",
    ),
]
