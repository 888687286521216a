"""Commanders, task-force limits and organisation (digest F-02 to F-06, F-43 to F-45, T-02)."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, Resolver
from rulesets.star_cruiser_lite.classes import (
    FLAGSHIP_CLASSES,
    MERCHANTS,
    PRECEDENCE,
    TACTICS_CLASSES,
    WARSHIPS,
)
from rulesets.star_cruiser_lite.rules_common import as_list, opt, pct


def initial_tactics(r: Resolver, kafer: bool = False, label: str = "commander") -> Calc:
    """F-02: a human's tactics start at 1D6-1 (0-5), a Kafer's at 1D6 (1-6)."""
    roll = r.roll("1d6", f"tactics of {label}")
    value = roll.natural if kafer else roll.natural - 1
    roll.result = f"tactics {value}"
    r.explain(f"{label}: 1D6 {roll.natural}" + ("" if kafer else " - 1") + f" = {value}")
    return Calc(value, f"{label} starts at tactics {value}")


def command_precedence(r: Resolver, ships: Any) -> Calc:
    """T-02 / F-02: who commands a task force.

    *ships*: a list of ``{"id", "code", "stac", "ftac"}`` (``ftac`` only for flag officers).
    The highest Fleet Tactics present commands; else the highest Squadron Tactics on a CG
    (with CA, LSA, CVL, CVE), then DD (with DE, FE), then FF or SDB, then SCT. Ties go to the
    first listed.
    """
    rows = [s for s in as_list(ships, "ships") if isinstance(s, dict)]
    flags = [s for s in rows if s.get("ftac") is not None]
    if flags:
        best = max(flags, key=lambda s: int(s["ftac"]))
        r.explain(f"rule 1: highest Fleet Tactics present is {best['ftac']} ({best['id']})")
        return Calc(best["id"], f"{best['id']} commands (fTac {best['ftac']})")
    for rule, (name, codes) in enumerate(PRECEDENCE, start=2):
        group = [s for s in rows if s.get("code") in codes and s.get("stac") is not None]
        if group:
            best = max(group, key=lambda s: int(s["stac"]))
            r.explain(f"rule {rule}: highest Squadron Tactics on a {name} is {best['stac']} ({best['id']})")
            return Calc(best["id"], f"{best['id']} commands (sTac {best['stac']} on a {name})")
    r.explain("no ship of a ranked class with a rated commander: no commander")
    return Calc(None, "no commander found")


def tactics_ceiling(r: Resolver, ship_class: str) -> int:
    code = ship_class if ship_class in TACTICS_CLASSES else ship_class.upper()
    if code not in TACTICS_CLASSES:
        return 0
    return int(r.lookup("T-03", skill=code).value)


def tactics_improvement(
    r: Resolver,
    stac: int,
    ftac: int,
    initial_stac: int,
    k: int,
    ship_class: str,
    flag: bool = False,
    label: str = "commander",
) -> Calc:
    """F-03: after an engagement, pct(10 x (1 + k)) raises one skill by 1.

    k counts the earlier engagements since the last increase (DEFAULT-31). Squadron Tactics
    rises first, up to the class ceiling (T-03), unless it started above the ceiling (then it
    is frozen); otherwise Fleet Tactics rises, up to 8. The option "skill raised first" lets a
    flag officer take Fleet Tactics first (DEFAULT-32).
    """
    chance = 10 * (1 + int(k))
    ceiling = tactics_ceiling(r, ship_class)
    ok, _roll, _x = pct(r, chance, f"tactics improvement of {label}")
    new = {"stac": int(stac), "ftac": int(ftac), "k": int(k), "raised": None}
    r.explain(f"{label}: chance 10 x (1 + {k}) = {chance}%")
    if not ok:
        new["k"] = int(k) + 1
        r.explain(f"no increase; engagements since the last increase {k} -> {new['k']}")
        return Calc(new, f"{label}: no increase")
    new["k"] = 0
    stac_open = int(stac) < ceiling and int(initial_stac) <= ceiling
    ftac_open = int(ftac) < 8
    prefer_ftac = flag and opt(r, "tactics_first", "stac") == "ftac"
    if prefer_ftac and ftac_open:
        new["ftac"] += 1
        new["raised"] = "ftac"
    elif stac_open:
        new["stac"] += 1
        new["raised"] = "stac"
    elif ftac_open:
        new["ftac"] += 1
        new["raised"] = "ftac"
    if new["raised"] is None:
        r.explain(f"both skills at their ceilings (sTac ceiling {ceiling} for a {ship_class}, fTac 8)")
        return Calc(new, f"{label}: success but already at the ceilings")
    why = (
        ""
        if new["raised"] == "stac" or prefer_ftac
        else (
            f" (sTac {'frozen: it started above' if int(initial_stac) > ceiling else 'at'} "
            f"the {ship_class} ceiling {ceiling})"
        )
    )
    r.explain(f"{new['raised']} rises by 1{why}")
    return Calc(new, f"{label}: {new['raised']} +1")


def promotion_ftac(r: Resolver, stac: int, ship_class: str = "CG") -> Calc:
    """F-04: a CG captain promoted to flag rank gets fTac = max(2, sTac - 2) and keeps sTac."""
    if ship_class not in ("CG",):
        raise InvalidInput(f"only CG captains may be promoted to flag rank, not a {ship_class} captain")
    value = max(2, int(stac) - 2)
    r.explain(f"fTac = max(2, sTac {stac} - 2) = {value}; sTac stays {stac}")
    return Calc(value, f"new flag officer: fTac {value}")


def ftac_limits(
    r: Resolver,
    ftac: int,
    ships: int = 0,
    kafer: bool = False,
    has_warship: bool = True,
    all_scouts: bool = False,
) -> Calc:
    """F-05 / T-04: what a commander's Fleet Tactics allows."""
    f = int(ftac)
    out = {
        "max_elements": max(1, 2 * f),
        "max_foreign": f,
        "covert_max_ships": 2 * f,
        "max_patrols": f,
        "auto_covert": bool(all_scouts),
    }
    covert = (all_scouts or int(ships) <= 2 * f) and not kafer and bool(has_warship)
    out["covert_allowed"] = covert
    r.explain(
        f"elements max(1, 2 x {f}) = {out['max_elements']}; foreign task forces {f}; "
        f"patrols {f}; covert entry up to 2 x {f} = {2 * f} ships"
    )
    if kafer:
        r.explain("Kafers never enter covertly")
    elif not has_warship:
        r.explain("non-combatants and survey ships enter covertly only with a warship task force")
    elif all_scouts:
        r.explain("a task force of scouts only enters covertly by itself")
    else:
        r.explain(
            f"{ships} ships {'<=' if covert else '>'} {2 * f}: covert entry "
            f"{'allowed' if covert else 'not allowed'}"
        )
    return Calc(out, f"up to {out['max_elements']} elements, covert up to {2 * f} ships")


def subordination(r: Resolver, relations: int, forbidden: bool = False, label: str = "task force") -> Calc:
    """F-06: a foreign task force subordinates itself on 1D10 <= the relations level."""
    if forbidden:
        r.explain(f"{label}: its orders forbid coordination; no roll")
        return Calc(False, f"{label} stays independent (orders)")
    roll = r.roll("1d10", f"subordination of {label}", target=int(relations))
    ok = roll.natural <= int(relations)
    roll.result = "subordinates" if ok else "stays independent"
    r.explain(f"{label}: 1D10 {roll.natural} {'<=' if ok else '>'} relations {relations}")
    return Calc(ok, f"{label} {'subordinates' if ok else 'stays independent'}")


def class_rank(r: Resolver, code: str) -> int:
    try:
        return int(r.lookup("T-38", code=code).value)
    except InvalidInput:
        return 0


def convoy_owner(r: Resolver, ships: Any) -> Calc:
    """F-43 / T-38: the owning nation of a mixed convoy.

    *ships*: ``[{"nation", "code"}]``. Criteria in order: greatest escorting warship class
    (DEFAULT-26 ranking), then the most warships of that class, then the most merchants.
    """
    rows = [s for s in as_list(ships, "ships") if isinstance(s, dict)]
    keys: dict[str, tuple[int, int, int]] = {}
    for nation in dict.fromkeys(str(s["nation"]) for s in rows):
        mine = [s for s in rows if s["nation"] == nation]
        ranks = [class_rank(r, s["code"]) for s in mine if class_rank(r, s["code"]) > 0]
        top = max(ranks, default=0)
        count_top = sum(1 for x in ranks if x == top) if top else 0
        merchants = sum(1 for s in mine if s["code"] in MERCHANTS)
        keys[nation] = (top, count_top, merchants)
        r.explain(f"{nation}: top escort rank {top}, {count_top} of that class, {merchants} merchants")
    if not keys:
        return Calc(None, "empty convoy")
    best = max(keys.values())
    winners = [n for n, k in keys.items() if k == best]
    owner = winners[0]
    if len(winners) > 1:
        r.explain(f"tie between {', '.join(winners)}: the GM decides (first listed shown)")
    return Calc(owner, f"the convoy belongs to {owner}")


def tf_composition(r: Resolver, ships: Any, fighters_count: bool | None = None) -> Calc:
    """F-44: a task force without a flagship holds at most 3 warships (fighters excluded,
    DEFAULT-59); with a flagship (CV, BB, BC, or a designated CG/CA) it may hold any number.

    *ships*: ``[{"code", "flagship": bool?}]``.
    """
    rows = [s for s in as_list(ships, "ships") if isinstance(s, dict)]
    if fighters_count is None:
        fighters_count = bool(opt(r, "fighters_count_in_tf_limit", False))
    flag = any(s.get("code") in FLAGSHIP_CLASSES or s.get("flagship") for s in rows)
    warships = [s for s in rows if s.get("code") in WARSHIPS and (fighters_count or s.get("code") != "FTR")]
    ok = flag or len(warships) <= 3
    if flag:
        r.explain("a flagship is present: any number of ships")
    else:
        r.explain(
            f"no flagship: {len(warships)} warships "
            f"({'fighters counted' if fighters_count else 'fighters not counted'}), at most 3"
        )
    return Calc(ok, "valid" if ok else f"too many warships without a flagship ({len(warships)} > 3)")


def weeks_per_link(r: Resolver, codes: Any) -> Calc:
    """F-45: a task force moves at its slowest ship: 2 weeks a link with an MS, else 1."""
    items = [str(c) for c in as_list(codes, "codes")]
    if items and all(c == "FTR" for c in items):
        r.explain("fighters cannot move between systems on their own")
        return Calc(None, "cannot move (fighters only)")
    weeks = 2 if "MS" in items else 1
    r.explain("a slow merchant sets the pace: 2 weeks per link" if weeks == 2 else "1 week per link")
    return Calc(weeks, f"{weeks} week{'s' if weeks > 1 else ''} per link")
