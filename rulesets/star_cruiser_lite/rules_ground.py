"""Boarding and ground combat (digest F-23 to F-31; tables T-20 to T-28)."""

from __future__ import annotations

import math
from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, Resolver
from rulesets.star_cruiser_lite.classes import LEVELS
from rulesets.star_cruiser_lite.rules_common import as_dict, as_list, opt, pct

CREW = ("Crew, Warship", "Crew, Other", "Crew, Kafer")
MILITIA = ("Militia", "Militia, Kafer")


def troop_strength(r: Resolver, troop: str, exp: str) -> Calc:
    """F-30: maximum factors = T-20 base + T-22 experience modifier ('not available' stays 0)."""
    if exp not in LEVELS:
        raise InvalidInput(f"experience must be one of {', '.join(LEVELS)}, not {exp!r}")
    mod = int(r.lookup("T-22", level=exp).value)
    out = {}
    for factor in ("bf", "gf"):
        base = int(r.lookup("T-20", troop=troop, factor=factor).value)
        out[factor] = base + mod if base > 0 else 0
    r.explain(f"{troop} ({exp}): boarding {out['bf']}, ground {out['gf']} (base + {mod:+d})")
    return Calc(out, f"BF {out['bf']}, GF {out['gf']}")


def allowed_levels(r: Resolver, troop: str) -> list[str]:
    text = str(r.lookup("T-21", troop=troop, field="levels").value)
    return [x.strip() for x in text.split(",") if x.strip()]


def experience_change(r: Resolver, troop: str, level: str, direction: str, clamp: bool | None = None) -> Calc:
    """F-29: a raise moves one level up, a drop one down (Green-Regular-Veteran-Elite); the
    result stays within the type's levels (DEFAULT-25)."""
    if clamp is None:
        clamp = bool(opt(r, "experience_clamp", True))
    i = LEVELS.index(level)
    j = min(len(LEVELS) - 1, i + 1) if direction == "raise" else max(0, i - 1)
    new = LEVELS[j]
    if clamp:
        allowed = allowed_levels(r, troop)
        if new not in allowed and allowed:
            new = level if level in allowed else allowed[0]
            r.explain(f"{troop} cannot be {LEVELS[j]}: stays {new}")
    r.explain(f"{level} -> {new} ({direction})")
    return Calc(new, new)


def morale_check(
    r: Resolver, level: str, factors: int, kind: str = "gf", label: str = "unit", side: str | None = None
) -> Calc:
    """T-23 (DEFAULT-24): a unit whose factors fall to (or, by option, below) its breaking
    point checks morale and breaks on pct(chance of breaking). Returns True if it holds."""
    column = "bf_break" if kind == "bf" else "gf_break"
    brk = int(r.lookup("T-23", level=level, column=column).value)
    at_or_below = bool(opt(r, "morale_at_or_below", True))
    must = int(factors) <= brk if at_or_below else int(factors) < brk
    if not must:
        return Calc(True, f"{label}: {factors} above the breaking point {brk}, no check")
    chance = int(r.lookup("T-23", level=level, column="chance").value)
    broke, roll, _x = pct(r, chance, f"morale of {label}", side=side)
    roll.result = "breaks" if broke else "holds"
    r.explain(
        f"{label}: {factors} at or below {brk}: breaks on {chance}% -> {'breaks' if broke else 'holds'}"
    )
    return Calc(not broke, f"{label} {'breaks' if broke else 'holds'}")


def boarding_section(
    r: Resolver,
    a_bf: int,
    d_bf: int,
    a_level: str = "Regular",
    d_level: str = "Regular",
    d_is_crew: bool = True,
    label: str = "boarding",
) -> Calc:
    """F-23 / T-25: one attacking unit fights one section, in the digest's order.

    1. Compare current boarding factors (experience already included, DEFAULT-45): attacker
       wins, draw (defender keeps it) or defender wins (the attacker falls back a section).
    2. Both lose 1D10 BF; a unit at 0 is destroyed.
    3. Morale (T-23 boarding column): the attacker, then the defender, each if at or below its
       breaking point.
    4. If the attacker passed (alive and held), whatever the outcome - a win, a draw or a
       defender win - it rolls to continue: 1D10 + (A - D) > 5 lets it fight again this round,
       with A and D before this fight's losses (DEFAULT-46). After a defender win it fights
       again from the section it fell back to; with none, it has left the ship (the caller).
    """
    a0, d0 = int(a_bf), int(d_bf)
    diff = a0 - d0
    outcome = "attacker" if diff > 0 else "draw" if diff == 0 else "defender"
    r.explain(f"{label}: boarding {a0} vs {d0} -> {r.lookup('T-25', difference=diff).value}")
    a_loss = r.roll("1d10", f"{label}: attacker losses").natural
    d_loss = r.roll("1d10", f"{label}: defender losses").natural
    a1, d1 = max(0, a0 - a_loss), max(0, d0 - d_loss)
    r.explain(f"losses: attacker -{a_loss} -> {a1}, defender -{d_loss} -> {d1}")
    a_holds = a1 > 0 and morale_check(r, a_level, a1, "bf", f"{label} attacker").value
    d_holds = d1 > 0 and morale_check(r, d_level, d1, "bf", f"{label} defender").value
    section_taken = outcome == "attacker" or (d1 <= 0) or not d_holds
    if d_is_crew and section_taken and d1 > 0:
        r.explain("crew never fall back: they surrender")
    cont = False
    if a_holds and a1 > 0:
        use_a, use_d = (a0, d0) if opt(r, "boarding_continuation_before_losses", True) else (a1, d1)
        roll = r.roll("1d10", f"{label}: continuation", modifiers=[("A - D", use_a - use_d)], target=6)
        total = roll.natural + use_a - use_d
        cont = total > 5
        roll.result = "fights on" if cont else "stops"
        r.explain(
            f"continuation 1D10 {roll.natural} + ({use_a} - {use_d}) = {total} {'>' if cont else '<='} 5"
        )
    result = {
        "outcome": outcome,
        "a_bf": a1,
        "d_bf": d1,
        "a_holds": bool(a_holds),
        "d_holds": bool(d_holds),
        "section_taken": bool(section_taken),
        "attacker_falls_back": outcome == "defender" or not a_holds,
        "continue": cont,
    }
    return Calc(result, f"{label}: {'section taken' if section_taken else 'section held'}")


def boarding_fire(r: Resolver, batteries: int, units: Any, label: str = "boarding party") -> Calc:
    """F-23: defensive fire at a boarding party: 1D10 boarding factors lost per functioning
    Bm + Sb point of the target, each to a random attacking unit (also when it withdraws)."""
    pool = [str(u) for u in as_list(units, "units")]
    losses: dict[str, int] = {u: 0 for u in pool}
    for i in range(int(batteries)):
        if not pool:
            break
        who = r.draw(pool, 1, f"{label}: target of defensive fire {i + 1}")[0]
        losses[who] += r.roll("1d10", f"{label}: defensive fire {i + 1} on {who}").natural
    r.explain(f"defensive fire ({batteries} batteries): " + ", ".join(f"{u} -{n}" for u, n in losses.items()))
    return Calc(losses, f"{sum(losses.values())} boarding factors lost")


def bombardment(
    r: Resolver, beams: int, target: str = "colony", depots: int = 0, label: str = "bombardment"
) -> Calc:
    """F-24: each bombarding beam (CG, BC, BB; not Sb or Mi) hits on pct(10). A colony hit is 1
    population lost; a troop hit costs a random troop unit 1D10 GF. Each point then becomes the
    loss of a planetary supply depot on pct(10) when one exists (DEFAULT-47)."""
    hits = 0
    for i in range(int(beams)):
        ok, _roll, _x = pct(r, 10, f"{label}: beam {i + 1}")
        hits += int(ok)
    depot_hits = 0
    left = int(depots)
    points = hits
    for i in range(hits):
        if left <= 0:
            break
        ok, _roll, _x = pct(r, 10, f"{label}: point {i + 1} diverted to a supply depot")
        if ok:
            depot_hits += 1
            left -= 1
            points -= 1
    r.explain(f"{beams} beams: {hits} hits; {depot_hits} destroy a supply depot; {points} on the {target}")
    return Calc(
        {"hits": hits, "points": points, "depots": depot_hits},
        f"{points} on the {target}, {depot_hits} depots lost",
    )


def colony_output(r: Resolver, sp_output_base: int, pop: int, pop_base: int) -> Calc:
    """F-25: output falls in proportion to population, fractions rounded up
    (pop 10 with 6 SP losing 4 pop: ceil(6 x 6/10) = ceil(3.6) = 4)."""
    if int(pop_base) <= 0:
        raise InvalidInput("the colony's original population must be positive")
    if int(pop) <= 0:
        r.explain("population 0: the colony is destroyed and produces nothing")
        return Calc(0, "0 SP")
    num = int(sp_output_base) * int(pop)
    out = -(-num // int(pop_base))
    r.explain(f"ceil({sp_output_base} x {pop} / {pop_base}) = ceil({num}/{pop_base}) = {out}")
    return Calc(out, f"{out} SP")


def landing_fire(r: Resolver, defenders: Any, landing: Any, label: str = "landing") -> Calc:
    """F-26 / T-28: jump battalions land unharmed; each surviving defending PD site and Bde(H)
    costs a random landing conventional unit 1D10 GF, each JBn, Bde(L), Bde(M), Bde(K) 1D6.
    *defenders*: troop codes; *landing*: ``{"id": code}``."""
    land = {str(k): str(v) for k, v in as_dict(landing, "landing").items()}
    targets = [u for u, code in land.items() if code != "JBn"]
    losses = {u: 0 for u in land}
    for i, code in enumerate(str(c) for c in as_list(defenders, "defenders")):
        if not targets:
            break
        try:
            dice = str(r.lookup("T-28", defender=code).value)
        except InvalidInput:
            dice = ""
        if not dice:
            continue
        who = r.draw(targets, 1, f"{label}: target of {code} fire {i + 1}")[0]
        losses[who] += r.roll(dice, f"{label}: {code} fire on {who}").natural
    r.explain(f"{label}: " + ", ".join(f"{u} -{n} GF" for u, n in losses.items()))
    return Calc(losses, f"{sum(losses.values())} ground factors lost")


def ground_outcome(attack: int, defend: int) -> str:
    """T-26: attacker minus defender strength (PD excluded)."""
    return "attacker" if attack > defend else "draw" if attack == defend else "defender"


def ground_round(
    r: Resolver,
    attackers: Any,
    defenders: Any,
    inner_line: bool = False,
    pop: int = 0,
    label: str = "ground combat",
) -> Calc:
    """F-27: one ground battle.

    Totals exclude PD sites; the result follows T-26. Every participant loses 1D10 GF (0 GF:
    destroyed). An inner-line battle costs the colony ceil(pop x 1D10 x 10%) population
    (DEFAULT-48). Survivors roll T-27 for experience, then check morale (T-23 ground column).
    *attackers*/*defenders*: ``[{"id", "code", "gf", "exp"}]``.
    """
    att = [dict(u) for u in as_list(attackers, "attackers") if isinstance(u, dict)]
    dfn = [dict(u) for u in as_list(defenders, "defenders") if isinstance(u, dict)]
    a_total = sum(int(u["gf"]) for u in att if u.get("code") != "PD")
    d_total = sum(int(u["gf"]) for u in dfn if u.get("code") != "PD")
    result = ground_outcome(a_total, d_total)
    outcome = r.lookup("T-26", difference=a_total - d_total).value
    r.explain(f"{label}: attacker {a_total} vs defender {d_total} -> {outcome}")
    for u in att + dfn:
        loss = r.roll("1d10", f"{label}: losses of {u['id']}").natural
        u["gf"] = max(0, int(u["gf"]) - loss)
        u["lost"] = loss
        u["destroyed"] = u["gf"] <= 0
    pop_loss = 0
    if inner_line and int(pop) > 0:
        roll = r.roll("1d10", f"{label}: population loss")
        raw = int(pop) * roll.natural
        pop_loss = -(-raw // 10) if opt(r, "inner_line_loss_rounding", "up") == "up" else raw // 10
        r.explain(f"population loss: {pop} x {roll.natural} x 10% = {raw / 10:g} -> {pop_loss}")
    case_for = {
        "attacker": {
            "att": ("attacker_wins_raise_attacker", "raise"),
            "def": ("attacker_wins_drop_defender", "drop"),
        },
        "draw": {"att": ("draw_raise_attacker", "raise"), "def": ("draw_raise_defender", "raise")},
        "defender": {
            "att": ("defender_wins_drop_attacker", "drop"),
            "def": ("defender_wins_raise_defender", "raise"),
        },
    }[result]
    for group, units in (("att", att), ("def", dfn)):
        column, direction = case_for[group]
        for u in units:
            if u["destroyed"] or not u.get("exp"):
                continue
            chance = int(r.lookup("T-27", level=u["exp"], case=column).value)
            if chance > 0:
                ok, _roll, _x = pct(r, chance, f"{label}: experience of {u['id']}")
                if ok:
                    u["exp"] = experience_change(r, u["code"], u["exp"], direction).value
            u["holds"] = morale_check(r, u["exp"], u["gf"], "gf", u["id"]).value
    return Calc(
        {"result": result, "attackers": att, "defenders": dfn, "pop_loss": pop_loss},
        f"{label}: {result} {'wins' if result != 'draw' else ''}".strip(),
    )


def militia(r: Resolver, pop: int, kafer: bool = False) -> Calc:
    """F-28: one militia unit per population factor; one in five is the better kind (floor,
    DEFAULT-50/51): Regular (GF 10) and Green (GF 5) for humans, Veteran (15) and Regular (10)
    for Kafers."""
    n = max(0, int(pop))
    better = n // 5
    if kafer:
        out = {"Veteran": better, "Regular": n - better}
    else:
        out = {"Regular": better, "Green": n - better}
    r.explain(f"population {n}: " + ", ".join(f"{v} {k}" for k, v in out.items()))
    return Calc(out, ", ".join(f"{v} {k}" for k, v in out.items()))


def rebuild_cost(r: Resolver, bf_deficit: int, gf_deficit: int) -> Calc:
    """F-31: rebuilding costs ceil(BF deficit / 10) + ceil(GF deficit / 10) SP (not from the
    colonies' troop-support SP)."""
    cost = math.ceil(int(bf_deficit) / 10) + math.ceil(int(gf_deficit) / 10)
    r.explain(f"ceil({bf_deficit}/10) + ceil({gf_deficit}/10) = {cost} SP")
    return Calc(cost, f"{cost} SP")


def troop_unsupplied(r: Resolver, bf: int, gf: int, exp: str, label: str = "troop unit") -> Calc:
    """F-31: an unsupplied troop unit loses 1D10 BF and 1D10 GF, then checks morale; failing
    removes it from play."""
    out = {"bf": int(bf), "gf": int(gf)}
    if int(bf) > 0:
        out["bf"] = max(0, int(bf) - r.roll("1d10", f"{label}: unsupplied boarding losses").natural)
    if int(gf) > 0:
        out["gf"] = max(0, int(gf) - r.roll("1d10", f"{label}: unsupplied ground losses").natural)
    kind, value = ("gf", out["gf"]) if int(gf) > 0 else ("bf", out["bf"])
    holds = value > 0 and morale_check(r, exp, value, kind, label).value
    out["removed"] = not holds
    r.explain(f"{label}: BF {bf} -> {out['bf']}, GF {gf} -> {out['gf']}" + ("; removed" if not holds else ""))
    return Calc(out, f"{label} {'removed' if not holds else 'holds'}")


def troop_support_sp(r: Resolver, pop: int) -> Calc:
    """F-32: a colony supports troops with 2 x population SP a month (not stockpiled, shareable
    on the world, not for rebuilding)."""
    v = 2 * int(pop)
    r.explain(f"2 x {pop} = {v} SP for troops this month")
    return Calc(v, f"{v} SP")
