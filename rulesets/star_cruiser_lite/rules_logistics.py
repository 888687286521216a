"""Supply, repairs, construction, mines, fees and colony economics (digest F-32 to F-47)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, Resolver
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.rules_common import as_dict, as_list, opt, pct

FACILITY_STATS = ("bm", "sb", "mi", "sv", "df", "sc", "sn", "repair", "troops", "fighters", "sp")


def facility_stat(r: Resolver, facility: str, stat: str, modules: int, damage: int = 0) -> Calc:
    """F-33 / T-08: min(per-module value x modules, maximum) minus damage taken to that stat."""
    fac = facility.upper()
    per = int(r.lookup("T-08", facility=fac, stat=stat).value)
    cap = int(r.lookup("T-08max", facility=fac, stat=stat).value)
    raw = per * int(modules)
    full = raw if cap < 0 else min(raw, cap)
    value = max(0, full - int(damage))
    r.explain(
        f"{fac} {stat}: min({per} x {modules}, {'no maximum' if cap < 0 else cap}) = {full}"
        + (f" - damage {damage} = {value}" if int(damage) else "")
    )
    return Calc(value, f"{stat} {value}")


def facility_stats(r: Resolver, facility: str, modules: int, damage: Any = None) -> dict[str, int]:
    dmg = as_dict(damage, "damage")
    return {s: facility_stat(r, facility, s, modules, int(dmg.get(s, 0))).value for s in FACILITY_STATS}


def dock_repair(r: Resolver, damage: int, dock_left: int = 5, supplied: bool = True) -> Calc:
    """F-34 / T-40: a ship in a CFR or ASB dock repairs up to 5 points a week, within the dock's
    5-point weekly budget, at 1 SP per point; none while unsupplied (T-31)."""
    if not supplied:
        r.explain("unsupplied: no repairs (T-31)")
        return Calc({"points": 0, "cost": 0, "weeks": 0}, "no repairs while unsupplied")
    pts = max(0, min(5, int(damage), int(dock_left)))
    weeks = math.ceil(int(damage) / 5)
    r.explain(
        f"repair min(5, damage {damage}, dock budget {dock_left}) = {pts} points, {pts} SP; "
        f"{damage} points need {weeks} week(s) in all"
    )
    return Calc({"points": pts, "cost": pts, "weeks": weeks}, f"{pts} points for {pts} SP")


def facility_self_repair(r: Resolver, damage: int, modules: int, sp_available: Any = None) -> Calc:
    """F-34: a facility repairs up to its modules in points each week at 2 SP a point."""
    pts = min(int(damage), int(modules))
    if sp_available not in (None, ""):
        pts = min(pts, int(spm.sp(sp_available) // 2))
    r.explain(f"self-repair min(damage {damage}, modules {modules}) = {pts} points, {2 * pts} SP")
    return Calc({"points": pts, "cost": 2 * pts}, f"{pts} points for {2 * pts} SP")


def ordnance_cost(r: Resolver, salvoes: int = 0, submunitions: int = 0) -> Calc:
    """F-35: each missile salvo or submunition point restored costs 1/4 SP (exact)."""
    cost = Fraction(int(salvoes) + int(submunitions), 4)
    r.explain(f"({salvoes} salvoes + {submunitions} submunitions) x 1/4 = {spm.text(cost)} SP")
    return Calc(spm.store(cost), f"{spm.text(cost)} SP")


def monthly_need(
    r: Resolver, req_sp: Any, arrears: int = 0, fresh: bool = False, ordnance: Any = 0, late: bool = False
) -> Calc:
    """F-36a/d: what a unit pays when it is resupplied.

    At Week 0 a unit pays its Req SP (T-24 for troops) for this month plus every monthly
    resupply it missed; a late resupply in weeks 1-4 pays for the months missed, the current
    one included (N as in DEFAULT-54). Ordnance (1/4 SP per salvo or submunition) comes on
    top. A unit new this month needs nothing. With the arrears option off, only one month is
    paid.
    """
    if fresh:
        r.explain("new this month: no requirement")
        return Calc(0, "0 SP")
    req = spm.sp(req_sp)
    owed = int(arrears) if late else int(arrears) + 1
    months = max(1, owed) if opt(r, "arrears_include_current", True) else 1
    total = req * months + spm.sp(ordnance)
    r.explain(
        f"{spm.text(req)} x {months} month(s)"
        + (f" + ordnance {spm.text(ordnance)}" if spm.sp(ordnance) else "")
        + f" = {spm.text(total)} SP"
    )
    return Calc(spm.store(total), f"{spm.text(total)} SP")


def arrears_cost(r: Resolver, req_sp: Any, missed: int) -> Calc:
    """F-36d: when finally resupplied, a unit pays Req SP x N, N = monthly resupplies missed
    including the one now made good (DEFAULT-54)."""
    n = int(missed)
    total = spm.sp(req_sp) * n
    r.explain(f"{spm.text(req_sp)} x {n} = {spm.text(total)} SP")
    return Calc(spm.store(total), f"{spm.text(total)} SP")


def supply_penalties(r: Resolver, weeks: int) -> Calc:
    """T-31: the penalties for a number of weeks since full resupply."""
    if int(weeks) < 0:
        raise InvalidInput("weeks cannot be negative")
    row = {
        c: r.lookup("T-31", weeks=int(weeks), column=c).value
        for c in ("cq", "target", "retreat_below", "other")
    }
    r.explain(
        f"{weeks} week(s): crew quality {row['cq']}, target modifier {row['target']}, "
        + (
            f"retreat on 1D10 + tactics < {row['retreat_below']}"
            if row["retreat_below"]
            else "no retreat check"
        )
    )
    return Calc(row, str(row["other"]))


def supply_retreat(
    r: Resolver, weeks: int, stac: int = 0, ftac: int = 0, label: str = "unit", side: str | None = None
) -> Calc:
    """F-36c (DEFAULT-09): from 2 weeks unsupplied, the unit retreats to the nearest friendly base
    when 1D10 + sTac + fTac is below 5 (2 weeks), 7 (3) or 9 (4+)."""
    need = int(r.lookup("T-31", weeks=int(weeks), column="retreat_below").value)
    if not need:
        return Calc(False, f"{label}: no retreat check at {weeks} week(s)")
    mode = opt(r, "retreat_tactics_modifier", "add")
    sign = {"add": 1, "subtract": -1, "none": 0}[mode]
    mods = [("sTac", sign * int(stac)), ("fTac", sign * int(ftac))] if sign else []
    roll = r.roll("1d10", f"supply retreat check of {label}", modifiers=mods, target=need, side=side)
    total = roll.modified
    retreat = total < need
    roll.result = "retreats" if retreat else "stays"
    r.explain(
        f"{label}: 1D10 {roll.natural}"
        + "".join(f" {v:+d} {n}" for n, v in mods)
        + f" = {total} {'<' if retreat else '>='} {need}"
    )
    return Calc(retreat, f"{label} {'retreats to the nearest friendly base' if retreat else 'holds on'}")


def construction_plan(
    r: Resolver,
    cost_per_month: Any,
    months: int,
    production: Any = 0,
    installments: Any = None,
    ordered_month: int = 1,
) -> Calc:
    """F-37: installments come off the top of this month's production at the build location
    (stockpiles cannot pay). Paid from the Week 0 of ordering (DEFAULT-06, or from the next
    month by option) for *months* months; the unit arrives at Week 0 after the last payment."""
    per = spm.sp(cost_per_month)
    total = per * int(months)
    prod = spm.sp(production)
    inst = spm.sp(installments) if installments not in (None, "") else per
    left = prod - inst
    first = int(ordered_month) + (1 if opt(r, "construction_start", "same_month") == "next_month" else 0)
    last = first + int(months) - 1
    r.explain(
        f"total {spm.text(per)} x {months} = {spm.text(total)} SP; paid months {first} to {last}; "
        f"delivered at Week 0 of month {last + 1}"
    )
    if prod:
        r.explain(f"production {spm.text(prod)} - installments {spm.text(inst)} = {spm.text(left)} left")
    return Calc(
        {
            "total": spm.store(total),
            "first_month": first,
            "last_month": last,
            "delivery_month": last + 1,
            "left": spm.store(left),
        },
        f"{spm.text(left)} SP left after construction"
        if prod
        else f"{spm.text(total)} SP over {months} months",
    )


def mines_laid(r: Resolver, ratings: Any) -> Calc:
    """F-39a: Mining (deploy) lays mines equal to the summed rating (Mi by DEFAULT-14, or Bm by
    option) of the CV, BB, BC, CG and CA ships involved."""
    vals = [int(v) for v in as_list(ratings, "ratings")]
    r.explain(" + ".join(str(v) for v in vals) + f" = {sum(vals)} mines" if vals else "no mine layers")
    return Calc(sum(vals), f"{sum(vals)} mines laid")


def mines_cleared(r: Resolver, beams: Any, mines: int) -> Calc:
    """F-39b: Mining (clear) removes mines equal to the summed beam rating of the ships."""
    total = sum(int(v) for v in as_list(beams, "beams"))
    left = max(0, int(mines) - total)
    r.explain(f"{mines} - {total} cleared = {left} mines left")
    return Calc(left, f"{left} mines left")


def mine_bands(r: Resolver) -> tuple[int, int]:
    return (100, 500) if opt(r, "minefield_bands", "99_499") == "99_499" else (101, 501)


def mine_attack_chance(r: Resolver, mines: int) -> Calc:
    """F-39c: a minefield attacks a task force on pct(floor(mines / 10)) (34 mines: 3%)."""
    chance = int(mines) // 10
    r.explain(f"floor({mines} / 10) = {chance}%")
    return Calc(chance, f"{chance}%")


def mine_attack(r: Resolver, mines: int, label: str = "task force", side: str | None = None) -> Calc:
    """F-39c: roll the attack; on a hit the damage comes from the band of T-34 (DEFAULT-15):
    ceil(1D6/2) below 100 mines, 1D6 from 100, 1D10 from 500. The field loses that many mines."""
    chance = mine_attack_chance(r, mines).value
    if chance <= 0:  # below 10 mines no d100 can come under the chance: nothing to roll
        r.explain(f"{mines} mines: a 0% chance, no attack and no die")
        return Calc({"hit": False, "damage": 0, "mines": int(mines)}, "no attack (0%)")
    hit, _roll, _x = pct(r, chance, f"minefield attack on {label}", side=side)
    if not hit:
        return Calc({"hit": False, "damage": 0, "mines": int(mines)}, "no attack")
    low, high = mine_bands(r)
    n = int(mines)
    if n < low:
        roll = r.roll("1d6", f"minefield damage on {label}", side=side)
        dmg = math.ceil(roll.natural / 2)
        r.explain(f"{n} mines (below {low}): ceil(1D6 {roll.natural} / 2) = {dmg}")
    elif n < high:
        dmg = r.roll("1d6", f"minefield damage on {label}", side=side).natural
        r.explain(f"{n} mines: 1D6 = {dmg}")
    else:
        dmg = r.roll("1d10", f"minefield damage on {label}", side=side).natural
        r.explain(f"{n} mines: 1D10 = {dmg}")
    left = max(0, n - dmg)
    return Calc({"hit": True, "damage": dmg, "mines": left}, f"{dmg} damage points; {left} mines left")


def withheld_sp(r: Resolver, label: str = "colony") -> int:
    roll = r.roll("1d6", f"SP withheld by {label}")
    value = max(1, roll.natural - 2)
    roll.result = f"{value} SP"
    r.explain(f"max(1, 1D6 {roll.natural} - 2) = {value} SP")
    return value


def colony_mines(r: Resolver, distance: int, label: str = "colony") -> Calc:
    """F-39e / T-35: at Week 0 a colony near Kafer-held worlds lays mines on pct(T-35 by
    distance): it withholds max(1, 1D6-2) SP and buys 5 mines per SP (DEFAULT-05)."""
    chance = int(r.lookup("T-35", distance=max(0, int(distance))).value)
    ok, _roll, _x = pct(r, chance, f"colony mines at {label}")
    if not ok:
        return Calc({"withheld": 0, "mines": 0}, "no mines")
    spent = withheld_sp(r, label)
    per = int(opt(r, "mines_per_colony_sp", 5))
    r.explain(f"{spent} SP x {per} = {spent * per} mines")
    return Calc({"withheld": spent, "mines": spent * per}, f"{spent} SP withheld, {spent * per} mines")


def colony_initiative(r: Resolver, paranoia: str, distance: int, label: str = "colony") -> Calc:
    """F-41c / T-36 + T-37: a colony withholds max(1, 1D6-2) SP for PD sites and mines on
    pct(paranoia base + distance modifier)."""
    base = int(r.lookup("T-36", paranoia=paranoia).value)
    near = int(r.lookup("T-37", distance=max(0, int(distance))).value)
    r.explain(f"{paranoia} {base}% + distance {distance}: {near:+d}% = {base + near}%")
    ok, _roll, _x = pct(r, base + near, f"defence initiative of {label}")
    if not ok:
        return Calc(0, "no initiative")
    return Calc(withheld_sp(r, label), "SP withheld")


def split_withheld(r: Resolver, withheld: int, mode: str | None = None) -> Calc:
    """DEFAULT-04: without a GM split, PD sites at 2 SP each and an odd SP into mines."""
    if mode is None:
        mode = opt(r, "colony_withheld_split", "pd_then_mines")
    w = int(withheld)
    per = int(opt(r, "mines_per_colony_sp", 5))
    if mode == "mines_only":
        out = {"pd": 0, "mines": w * per}
    elif mode == "pd_only":
        out = {"pd": w // 2, "mines": 0}
    else:
        out = {"pd": w // 2, "mines": (w % 2) * per}
    r.explain(f"{w} SP -> {out['pd']} PD sites, {out['mines']} mines")
    return Calc(out, f"{out['pd']} PD sites, {out['mines']} mines")


def escort_fees(r: Resolver, volume: int, units: Any) -> Calc:
    """F-40: the week's shipping volume is shared by escorting units (not task forces); each
    nation earns 10% of its share, rounded up per nation (DEFAULT-56). Paid next week."""
    per_nation = {str(k): int(v) for k, v in as_dict(units, "units").items() if int(v) > 0}
    total = sum(per_nation.values())
    fees: dict[str, int] = {}
    if not total or int(volume) <= 0:
        return Calc(fees, "no escort fees")
    if opt(r, "escort_fee_rounding", "per_nation") == "per_system":
        pot = math.ceil(Fraction(int(volume), 10))
        for n, u in per_nation.items():
            fees[n] = math.floor(Fraction(pot * u, total))
        r.explain(f"ceil(10% x {volume}) = {pot} shared by {total} units")
    else:
        for n, u in per_nation.items():
            share = Fraction(int(volume) * u, total)
            fees[n] = math.ceil(share / 10)
            r.explain(f"{n}: share {volume} x {u}/{total} = {float(share):g}; 10% rounded up = {fees[n]}")
    return Calc(fees, ", ".join(f"{n} {v} SP" for n, v in fees.items()))


def protection_bonus(r: Resolver, output: int) -> Calc:
    """F-41a: dispatching units to protect a colony earns 10% of its output next month, at
    least 1 SP (rounded down, DEFAULT-57)."""
    tenth = Fraction(int(output), 10)
    value = max(
        1, math.floor(tenth) if opt(r, "protection_bonus_rounding", "down") == "down" else math.ceil(tenth)
    )
    r.explain(f"max(1, 10% of {output}) = {value} SP next month")
    return Calc(value, f"{value} SP")


def directive_penalty(r: Resolver, output: int) -> Calc:
    """F-41b: an ignored directive for fleet action costs 10% of next month's Core output, the
    loss rounded up (DEFAULT-58)."""
    tenth = Fraction(int(output), 10)
    loss = math.ceil(tenth) if opt(r, "directive_penalty_rounding", "up") == "up" else math.floor(tenth)
    r.explain(f"Core output {output} - {loss} = {int(output) - loss}")
    return Calc(int(output) - loss, f"Core output {int(output) - loss}")


def conversion(r: Resolver, facility: str, modules: int) -> Calc:
    """F-42 / T-33: a captured facility converts one module a week at the T-33 cost per module."""
    per = int(r.lookup("T-33", facility=facility.upper()).value)
    r.explain(f"{modules} modules x {per} SP, one week each")
    return Calc(
        {"weeks": int(modules), "cost": per * int(modules)}, f"{modules} weeks, {per * int(modules)} SP"
    )


def psd_discovery(r: Resolver, enemy_ground: bool, label: str = "supply depot") -> Calc:
    """F-46: with enemy ground forces on the planet, a planetary supply depot is found and
    destroyed on pct(20) each week."""
    if not enemy_ground:
        return Calc(False, "no enemy ground forces: safe")
    ok, _roll, _x = pct(r, 20, f"discovery of {label}")
    return Calc(ok, f"{label} {'found and destroyed' if ok else 'stays hidden'}")


def core_shipping(r: Resolver, leftover: Any) -> Calc:
    """F-47: Core production left after construction moves to QAS at the start of the month
    (unlimited shipping); beyond QAS it travels by MF (10 SP, 1 week a link) or MS (50 SP,
    2 weeks a link)."""
    amount = spm.sp(leftover)
    mf = math.ceil(amount / 10) if amount > 0 else 0
    ms = math.ceil(amount / 50) if amount > 0 else 0
    r.explain(f"{spm.text(amount)} SP to QAS; onward needs {mf} fast or {ms} slow merchant loads")
    return Calc(spm.store(amount), f"{spm.text(amount)} SP to the QAS stockpile")


RESUPPLY_WORDS = ("core", "CFR", "ASB", "SD", "FB", "merchants", "self", "colony", "independent", "other_tf")


def facility_sp_loss(have: Fraction, rounding: str = "up") -> int:
    """T-16 "Supply Points -10%": the SP a facility loses, a tenth of what it holds, rounded per
    the option ``facility_sp_loss_rounding`` (DEFAULT-21: up)."""
    tenth = Fraction(have) / 10
    return math.ceil(tenth) if rounding == "up" else math.floor(tenth)


def resupply_order(r: Resolver, available: Any = (), at_qas: bool = False, named: str = "") -> Calc:
    """T-32 (M0.5, F-36): the order a unit draws its month's SP in when its orders name no source
    (a named source comes first): the Core stockpile (only at QAS), the facilities CFR, ASB, SD,
    FB, the task force's merchants, the ship's own SP, sympathetic colonies, independent
    merchants of the nation, then merchants of its other task forces. *available*: the sources
    present, in the table's words."""
    have = [str(x).strip() for x in as_list(available, "available") if str(x).strip()]
    canon = {w.lower(): w for w in RESUPPLY_WORDS}
    bad = [x for x in have if x.lower() not in canon]
    if bad:
        words = ", ".join(RESUPPLY_WORDS)
        raise InvalidInput(f"available: {', '.join(bad)} not a T-32 source; one of {words}")
    present = {canon[x.lower()] for x in have}
    if "core" in present and not at_qas:
        r.explain("the Core stockpile pays only at QAS (T-32 1)")
        present.discard("core")
    order = [w for w in RESUPPLY_WORDS if w in present]
    if named:
        first = canon.get(named.lower())
        if first is None:
            raise InvalidInput(f"named: {named!r} is not a T-32 source; one of {', '.join(RESUPPLY_WORDS)}")
        if first in order:
            order.remove(first)
            order.insert(0, first)
            r.explain(f"the orders name {first}: it pays first")
    for w in order:
        r.lookup("T-32", priority=str(RESUPPLY_WORDS.index(w) + 1))
    return Calc(order, " > ".join(order) or "no source: the unit goes unsupplied (T-31)")
