"""Space combat procedures (digest F-10, F-12 to F-22; tables T-14 to T-19)."""

from __future__ import annotations

import json
import math
from typing import Any

from campaign_tui.core.procedures import Calc, Resolver
from rulesets.star_cruiser_lite.rules_common import as_dict, as_list, ints, mean_up, opt, pct

DAMAGE_STATS = ("sn", "mv", "sc", "mi", "sv", "bm", "sb", "df")


def engagement_value(
    r: Resolver,
    cqs: Any = (),
    sns: Any = (),
    mvs: Any = (),
    stac: int = 0,
    surprise: bool = False,
    kafer: bool = False,
    aroused: bool = False,
    bonus: int = 0,
    label: str = "side",
) -> Calc:
    """F-12 / T-17: a side's engagement range value for one round.

    Surprise (+2 for an undetected intruder), mean crew quality rounded up (Kafers: +2 aroused,
    -2 unaroused), the highest sensor, the mean speed rounded up, the Squadron Tactics (Kafers
    only once aroused), any pre-emptive bonus, and Luck (1D6: odd +1, even -1).
    """
    cq_list = ints(as_list(cqs, "cqs"), "cqs")
    sn_list = ints(as_list(sns, "sns"), "sns")
    mv_list = ints(as_list(mvs, "mvs"), "mvs")
    terms: list[tuple[str, int]] = []
    if surprise:
        terms.append(("surprise", 2))
    if kafer:
        terms.append(
            ("Kafer initiative" + (" (aroused)" if aroused else " (unaroused)"), 2 if aroused else -2)
        )
    else:
        terms.append(("mean crew quality, rounded up", mean_up(cq_list)))
    terms.append(("highest sensor", max(sn_list, default=0)))
    terms.append(("mean speed, rounded up", mean_up(mv_list)))
    if not kafer or aroused:
        terms.append(("squadron tactics", int(stac)))
    if int(bonus):
        terms.append(("pre-emptive detection bonus", int(bonus)))
    roll = r.roll("1d6", f"luck for {label}")
    luck = 1 if roll.natural % 2 == 1 else -1
    roll.result = f"luck {luck:+d}"
    terms.append((f"luck (1D6 {roll.natural})", luck))
    value = sum(v for _, v in terms)
    r.explain(f"{label}: " + " ".join(f"{v:+d} {t}" for t, v in terms) + f" = {value}")
    return Calc(value, f"{label} engagement range value {value}")


def range_winner(a_value: int, b_value: int) -> str | None:
    """F-12: the side with the higher value chooses the range; a tie keeps the last range."""
    if a_value > b_value:
        return "A"
    if b_value > a_value:
        return "B"
    return None


RANGE_CHOICES = ("long", "short")


def engagement_range(
    r: Resolver,
    a_value: int,
    b_value: int,
    previous: str = "long",
    round: int = 2,
    a_wants: str = "long",
    b_wants: str = "long",
) -> Calc:
    """CMB.2 / F-12 / T-17: the range of a round from both sides' engagement range values.
    Round 1 is always long; later the higher value picks the range it wants; a tie keeps the
    previous round's range."""
    if int(round) <= 1:
        r.explain("round 1 is always fought at long range (CMB.2)")
        return Calc("long", "long range (round 1)")
    winner = range_winner(int(a_value), int(b_value))
    if winner is None:
        r.explain(f"tie {a_value}-{b_value}: the previous range ({previous}) stays (F-12)")
        return Calc(previous, f"tie: {previous} range kept")
    choice = a_wants if winner == "A" else b_wants
    r.explain(f"side {winner} has the higher value ({a_value}-{b_value}) and chooses {choice} range")
    return Calc(choice, f"{choice} range (side {winner} chooses)")


def threshold_met(
    cond: dict[str, Any],
    start: int,
    damaged: int,
    destroyed: int,
    flagship_lost: bool,
    round: int,
    salvoes_spent: bool,
) -> str:
    """E-11 / F-20b: the first condition of a side's break-off threshold (from its orders) that
    holds, or ''. *start*: ships at the start; *damaged* counts the destroyed ones too."""
    if cond.get("never"):
        return ""
    start = max(1, int(start))
    if "damaged_pct" in cond and 100 * int(damaged) >= int(cond["damaged_pct"]) * start:
        return f"{damaged} of {start} ships damaged >= {cond['damaged_pct']}%"
    if "destroyed_pct" in cond and 100 * int(destroyed) >= int(cond["destroyed_pct"]) * start:
        return f"{destroyed} of {start} ships destroyed >= {cond['destroyed_pct']}%"
    if cond.get("flagship_lost") and flagship_lost:
        return "the flagship is lost"
    if cond.get("round") and int(round) >= int(cond["round"]):
        return f"round {round} reached (break off from round {cond['round']})"
    if cond.get("salvoes_spent") and salvoes_spent:
        return "every ship in the line has spent its missile salvoes"
    return ""


def breakoff_threshold(
    r: Resolver,
    threshold: Any,
    start: int,
    damaged: int = 0,
    destroyed: int = 0,
    flagship_lost: bool = False,
    round: int = 1,
    salvoes_spent: bool = False,
) -> Calc:
    """E-11 / F-20b: does a side's break-off threshold hold this round? *threshold* as the
    orders give it, e.g. {"damaged_pct": 50, "flagship_lost": true}."""
    cond = as_dict(threshold, "threshold")
    why = threshold_met(cond, start, damaged, destroyed, flagship_lost, round, salvoes_spent)
    r.explain(f"threshold {json.dumps(cond)}: " + (why or "no condition holds"))
    if not why:
        return Calc(False, "no break-off: the threshold is not met")
    return Calc(True, f"breaks off if it wins the range: {why}")


def breakoff_attempt(
    r: Resolver, range: str, own_value: int | None = None, enemy_value: int | None = None
) -> Calc:
    """CMB.3 / F-20b: a side breaking off must have won this round's engagement range (a tie
    is no win, so the attempt fails); then short range goes to long, long leaves the combat.
    Without the values, the side is taken to have won the range."""
    if own_value is not None and enemy_value is not None and int(own_value) <= int(enemy_value):
        why = "a tie" if int(own_value) == int(enemy_value) else "lost"
        r.explain(
            f"engagement range {own_value} vs {enemy_value}: {why}; break-off needs the range won (F-20b)"
        )
        return Calc(range, f"break-off fails ({why}): the pairing stays at {range} range")
    new = breakoff_step(range)
    r.explain(f"breaking off at {range} range -> {new}")
    return Calc(new, "leaves the combat" if new == "out" else "moves to long range")


def screens_now(r: Resolver, screen: int, target_kafer_unaroused: bool, target_docked: bool) -> int:
    """F-16 / T-18: the screens that count against an attack: none for a docked ship or an
    unaroused Kafer ship."""
    if target_kafer_unaroused or target_docked:
        why = "an unaroused Kafer ship" if target_kafer_unaroused else "a docked ship"
        if int(screen):
            r.explain(f"screens {screen} count 0: the target is {why} (T-18, CMB.0)")
        return 0
    return int(screen)


def preemptive_check(
    r: Resolver,
    defender: Any,
    intruder: Any,
    defender_detected: bool = True,
    intruder_detected: bool = False,
    defender_roll: int = 0,
    intruder_roll: int = 0,
    tie_to_defender: bool | None = None,
) -> Calc:
    """F-10: the engagement-range check before a pre-emptive attack.

    *defender*/*intruder*: ``{"cqs", "sns", "mvs", "stac", "kafer", "aroused"}``. The side that
    detected gets +1 (both: the lower detection roll). The intruder may avoid combat only by
    winning; a tie goes to the defender (DEFAULT-35).
    """
    if tie_to_defender is None:
        tie_to_defender = bool(opt(r, "preempt_tie_defender", True))
    dside, iside = as_dict(defender, "defender"), as_dict(intruder, "intruder")
    d_bonus = i_bonus = 0
    if defender_detected and not intruder_detected:
        d_bonus = 1
    elif intruder_detected and not defender_detected:
        i_bonus = 1
    elif defender_detected and intruder_detected:
        if int(defender_roll) < int(intruder_roll):
            d_bonus = 1
        elif int(intruder_roll) < int(defender_roll):
            i_bonus = 1
    values = {}
    for name, side, bonus in (("defender", dside, d_bonus), ("intruder", iside, i_bonus)):
        values[name] = engagement_value(
            r,
            side.get("cqs", []),
            side.get("sns", []),
            side.get("mvs", []),
            int(side.get("stac", 0)),
            False,
            bool(side.get("kafer")),
            bool(side.get("aroused")),
            bonus,
            name,
        ).value
    dv, iv = values["defender"], values["intruder"]
    if iv > dv or (iv == dv and not tie_to_defender):
        r.explain(f"intruder {iv} vs defender {dv}: the intruder may avoid the attack")
        return Calc("intruder", "the intruder wins the range check and may avoid combat")
    r.explain(
        f"defender {dv} vs intruder {iv}"
        + (" (tie: the defender wins)" if iv == dv else "")
        + ": pre-emptive combat, first round at long range"
    )
    return Calc("defender", "the defender wins: pre-emptive combat")


def kafer_arousal(r: Resolver, round: int, label: str = "Kafers") -> Calc:
    """F-13 / T-18: round 1 aroused on 1D6 1-2, round 2 on 1-4, round 3 on automatically."""
    rnd = int(round)
    if rnd >= 3:
        r.explain(f"round {rnd}: {label} aroused automatically")
        return Calc(True, "aroused (automatic)")
    need = int(r.lookup("T-18", round=rnd).value)
    roll = r.roll("1d6", f"arousal of {label} in round {rnd}", target=need)
    ok = roll.natural <= need
    roll.result = "aroused" if ok else "not aroused"
    r.explain(f"round {rnd}: 1D6 {roll.natural} {'<=' if ok else '>'} {need}")
    return Calc(ok, "aroused" if ok else "not aroused")


def halve(value: int, rounding: str = "down") -> int:
    return math.ceil(value / 2) if rounding == "up" else value // 2


def acquisition(
    r: Resolver,
    size: int,
    target_mv: int = 0,
    attacker_sn: int = 0,
    attacker_cq: int = 0,
    target_cq: int = 0,
    supply_modifier: int = 0,
    modules: int | None = None,
    label: str = "attack",
    side: str | None = None,
) -> Calc:
    """F-14 / T-14: 1D10 + size - ceil(Mv/2) + sensors + (CQ attacker - CQ target) + supply
    modifier; 5 or more acquires and a natural 1 always misses. An installation's size is its
    number of modules and it cannot dodge (Mv 0)."""
    roll = r.roll("1d10", f"acquisition: {label}", target=5, side=side)
    agility = math.ceil(int(target_mv) / 2) if int(target_mv) > 0 else 0
    sz = int(modules) if modules is not None else int(size)
    mods = [
        ("size" if modules is None else "modules", sz),
        ("agility", -agility),
        ("sensors", int(attacker_sn)),
        ("crew quality", int(attacker_cq) - int(target_cq)),
    ]
    if int(supply_modifier):
        mods.append(("supply", int(supply_modifier)))
    roll.modifiers.extend(mods)
    total = roll.natural + sum(v for _, v in mods)
    if roll.natural == 1:
        roll.result = "miss (natural 1)"
        r.explain(f"{label}: natural 1 misses")
        return Calc(False, "miss (natural 1)")
    ok = total >= 5
    roll.result = "acquired" if ok else "not acquired"
    r.explain(
        f"{label}: 1D10 {roll.natural} "
        + " ".join(f"{v:+d} {n}" for n, v in mods)
        + f" = {total} {'>=' if ok else '<'} 5"
    )
    return Calc(ok, f"{'acquired' if ok else 'not acquired'} ({total})")


def pd_missile_rating(gf: int) -> int:
    """T-29: 2 missile points per 10 ground factors or fraction."""
    return 2 * math.ceil(int(gf) / 10) if int(gf) > 0 else 0


def pd_sensor(sites: int) -> int:
    """T-29: 1 per 4 sites or fraction, at most 4."""
    return min(4, math.ceil(int(sites) / 4)) if int(sites) > 0 else 0


def pd_acquisition(
    r: Resolver,
    target_size: int,
    sites: int,
    veteran: bool = False,
    label: str = "PD fire",
    side: str | None = None,
) -> Calc:
    """F-15: Planetary Defense acquisition: 1D10 + target size + min(4, ceil(sites/4))
    (+1 Veteran); no agility term (ships securing orbit are at All Stop); natural 1 misses."""
    roll = r.roll("1d10", f"acquisition: {label}", target=5, side=side)
    mods = [("size", int(target_size)), ("PD sensor", pd_sensor(int(sites)))]
    if veteran:
        mods.append(("veteran", 1))
    roll.modifiers.extend(mods)
    total = roll.natural + sum(v for _, v in mods)
    if roll.natural == 1:
        roll.result = "miss (natural 1)"
        r.explain(f"{label}: natural 1 misses")
        return Calc(False, "miss (natural 1)")
    ok = total >= 5
    roll.result = "acquired" if ok else "not acquired"
    r.explain(f"{label}: 1D10 {roll.natural} " + " ".join(f"{v:+d} {n}" for n, v in mods) + f" = {total}")
    return Calc(ok, f"{'acquired' if ok else 'not acquired'} ({total})")


def missile_damage(
    r: Resolver,
    mi: int,
    escort_pd: int = 0,
    own_pd: int = 0,
    screen: int = 0,
    halvings: int | None = None,
    kafer_unaroused: bool = False,
    target_kafer_unaroused: bool = False,
    target_docked: bool = False,
) -> Calc:
    """F-16: Mi - (escort PD halved + own PD + screens), never below 0 (DEFAULT-38).

    Escort PD batteries are halved once, rounded down (DEFAULT-12; the option can halve twice
    as printed, G-09). Unaroused Kafers fire at half rating (rounded per DEFAULT-23); an
    unaroused Kafer or a docked target has no screens.
    """
    screen = screens_now(r, screen, target_kafer_unaroused, target_docked)
    if halvings is None:
        halvings = int(opt(r, "escort_pd_halvings", 1))
    base = int(mi)
    if kafer_unaroused:
        base = halve(base, opt(r, "kafer_halving", "down"))
        r.explain(f"unaroused Kafers: Mi {mi} halved to {base}")
    esc = int(escort_pd)
    for _ in range(int(halvings)):
        esc = esc // 2
    dmg = max(0, base - (esc + int(own_pd) + int(screen)))
    r.explain(
        f"missile damage {base} - (escort PD {escort_pd} -> {esc} + own PD {own_pd} + screens "
        f"{screen}) = {base - (esc + int(own_pd) + int(screen))}" + (" -> 0" if dmg == 0 else "")
    )
    return Calc(dmg, f"{dmg} damage points")


def beam_damage(
    r: Resolver,
    bm: int,
    beams_on_pd: int = 0,
    sb_fired: int = 0,
    screen: int = 0,
    kafer_unaroused: bool = False,
    target_kafer_unaroused: bool = False,
    target_docked: bool = False,
) -> Calc:
    """F-17: beams not on point defence plus submunitions fired, minus screens, at least 0.
    Short range only and only within the pairing (the caller checks). An unaroused Kafer or a
    docked target has no screens."""
    screen = screens_now(r, screen, target_kafer_unaroused, target_docked)
    attacking = max(0, int(bm) - int(beams_on_pd))
    if kafer_unaroused:
        halved = halve(attacking, opt(r, "kafer_halving", "down"))
        r.explain(f"unaroused Kafers: beams {attacking} halved to {halved}")
        attacking = halved
    dmg = max(0, attacking + int(sb_fired) - int(screen))
    r.explain(
        f"beam damage ({bm} - {beams_on_pd} on PD) + submunitions {sb_fired} - screens {screen} "
        f"= {attacking + int(sb_fired) - int(screen)}" + (" -> 0" if dmg == 0 else "")
    )
    return Calc(dmg, f"{dmg} damage points")


def pd_split(r: Resolver, bm: int, range: str) -> Calc:
    """Default beam use when orders are silent: all on PD at long range; at short range half on
    PD, an odd battery going to PD (DEFAULT-10), the rest attacking."""
    b = int(bm)
    if range == "long":
        return Calc({"pd": b, "attack": 0}, f"long range: all {b} beams on point defence")
    pd = math.ceil(b / 2) if opt(r, "short_range_pd", "half_up") == "half_up" else b // 2
    r.explain(f"short range: {pd} of {b} beams on point defence, {b - pd} attack")
    return Calc({"pd": pd, "attack": b - pd}, f"{pd} on PD, {b - pd} attacking")


def damage_location(
    r: Resolver,
    points: int,
    target: str = "ship",
    has: Any = None,
    label: str = "target",
    side: str | None = None,
    docked: bool = False,
    fighters: bool = False,
) -> Calc:
    """F-18 / T-15: one 1D10 per damage point on the ship or facility column. A stat the target
    lacks (or has at 0) is a miss. Results are collected; the caller applies them at the end of
    the round. *has*: current stats ``{"sn": 2, ...}`` (omitted: every stat counts as present).

    T-15 ``*``: a facility hit on its Repair Bay (2) or Fighter Hangar (7) also strikes one
    docked ship or based fighter: 1D6 damage points, each rolled on the Ship column. *docked*
    / *fighters* say whether the facility has one (a campaign applies it to the ship at the end
    of the round)."""
    present = {k: int(v) for k, v in as_dict(has, "has").items()} if has not in (None, "") else None
    tally = dict(present) if present is not None else None
    results: list[str] = []
    for i in range(int(points)):
        roll = r.roll("1d10", f"damage location {i + 1} on {label}", table="T-15", side=side)
        cell = str(r.lookup("T-15", roll=roll.natural, target=target).value)
        stat = cell.rstrip("*")
        if cell.endswith("*"):
            roll.result = cell
            results.append(cell)
            _dock_hit(r, stat, docked if stat == "repair" else fighters, label, side)
            continue
        if stat == "sp10":
            roll.result = cell
            results.append(cell)
            continue
        if tally is not None and tally.get(stat, 0) <= 0:
            roll.result = f"{stat} -1: miss (none left)"
            results.append("miss")
            continue
        if tally is not None:
            tally[stat] -= 1
        roll.result = f"{stat} -1"
        results.append(stat)
    r.explain(f"{label}: " + (", ".join(results) or "no damage"))
    return Calc(results, ", ".join(results) or "no damage")


def _dock_hit(r: Resolver, stat: str, present: bool, label: str, side: str | None) -> None:
    """T-15 ``*``: the docked ship or based fighter under a Repair Bay / Fighter Hangar hit."""
    what = "docked ship" if stat == "repair" else "based fighter"
    bay = "Repair Bay" if stat == "repair" else "Fighter Hangar"
    label = "the facility" if label == "target" else label
    if not present:
        r.explain(f"T-15 *: {bay} hit on {label}; a {what} there would take 1D6 points on the Ship column")
        return
    pts = r.roll("1d6", f"T-15 *: damage points to the {what} at {label}", side=side).natural
    r.explain(f"T-15 *: {bay} hit on {label}: the {what} takes 1D6 = {pts} point(s) on the Ship column")
    damage_location(r, pts, "ship", None, f"the {what} at {label}", side)


def commander_survival(r: Resolver, cq: int, label: str = "commander", side: str | None = None) -> Calc:
    """F-19: the commander of a destroyed ship survives on 1D10 + crew quality >= 5 (no natural-1
    rule, DEFAULT-42, unless the option adds one)."""
    roll = r.roll("1d10", f"survival of {label}", target=5, modifiers=[("crew quality", int(cq))], side=side)
    total = roll.natural + int(cq)
    ok = total >= 5
    if ok and roll.natural == 1 and opt(r, "survival_natural_one", False):
        ok = False
        r.explain("natural 1: the commander is lost (option)")
    roll.result = "survives" if ok else "lost"
    r.explain(f"{label}: 1D10 {roll.natural} {int(cq):+d} = {total} {'>=' if total >= 5 else '<'} 5")
    return Calc(ok, f"{label} {'survives and is rescued' if ok else 'is lost'}")


def pairing(r: Resolver, a: Any, b: Any) -> Calc:
    """F-20a: pair the battle lines one to one, like class against like class, then spread the
    surplus as evenly as possible (nobody takes a third opponent before all have two).

    *a*, *b*: ``[{"id", "rank"}]`` (rank: T-38 class rank, larger = bigger ship).
    Returns pairings ``[{"a": [...], "b": [...]}]``.
    """
    al = sorted((x for x in as_list(a, "a") if isinstance(x, dict)), key=lambda x: -int(x.get("rank", 0)))
    bl = sorted((x for x in as_list(b, "b") if isinstance(x, dict)), key=lambda x: -int(x.get("rank", 0)))
    n = min(len(al), len(bl))
    pairs = [{"a": [al[i]["id"]], "b": [bl[i]["id"]]} for i in range(n)]
    if not pairs:
        return Calc([], "no pairing possible (a side has no ships in line)")
    for extra, side in ((al[n:], "a"), (bl[n:], "b")):
        for ship in extra:
            # the pairing where this side has the fewest ships; among those, the closest rank
            target = min(range(len(pairs)), key=lambda i: (len(pairs[i][side]), i))
            pairs[target][side].append(ship["id"])
    r.explain("pairings: " + "; ".join(f"{'+'.join(p['a'])} vs {'+'.join(p['b'])}" for p in pairs))
    return Calc(pairs, f"{len(pairs)} pairings")


def breakoff_step(range: str) -> str:
    """F-20b: a pairing breaking off moves from short to long, and from long out of combat."""
    return "long" if range == "short" else "out"


def screening(r: Resolver, own_line: int, enemy_line: int) -> Calc:
    """CMB.0 / F-21: a side that outnumbers the enemy's battle line screens its damaged
    warships (and non-combatants, and may use escorts); outnumbered, damaged warships and
    escorts stand in the line and non-combatants may be forced into it (F-21a)."""
    own, enemy = int(own_line), int(enemy_line)
    if own > enemy:
        r.explain(f"line {own} vs {enemy}: outnumbering - damaged warships screened, escorts may escort")
        return Calc("screened", "damaged warships are screened")
    r.explain(
        f"line {own} vs {enemy}: not outnumbering - damaged warships and escorts stand in the line; "
        f"non-combatants checked on pct(10 x {max(0, enemy - own)}) each (F-21a)"
    )
    return Calc("line", "damaged warships stand in the line")


def escorts_allowed(
    r: Resolver, own_line: int, enemy_line: int, kafer: bool = False, aroused: bool = True
) -> Calc:
    """F-20c: escorts act as escorts only while their side outnumbers the enemy; Kafer escorts
    only once aroused."""
    if kafer and not aroused:
        r.explain("unaroused Kafers cannot escort")
        return Calc(False, "no escorts (unaroused Kafers)")
    ok = int(own_line) > int(enemy_line)
    r.explain(f"line {own_line} vs {enemy_line}: escorts {'may screen' if ok else 'must stand in the line'}")
    return Calc(ok, "escorts allowed" if ok else "escorts join the line")


def noncombatants_join(
    r: Resolver, deficit: int, noncombatants: Any, recompute: bool | None = None, side: str | None = None
) -> Calc:
    """F-21a: at the start of combat, each non-combatant (in random order) joins the line on
    pct(10 x deficit), until the lines are equal; the deficit shrinks by one after each join
    (DEFAULT-44)."""
    if recompute is None:
        recompute = bool(opt(r, "nc_recompute", True))
    pool = [str(x) for x in as_list(noncombatants, "noncombatants")]
    order = r.draw(pool, len(pool), "order of non-combatant checks", side=side) if len(pool) > 1 else pool
    joined: list[str] = []
    gap = int(deficit)
    for nc in order:
        if gap <= 0:
            break
        ok, _roll, _x = pct(r, 10 * gap, f"{nc} forced into the line", side=side)
        if ok:
            joined.append(nc)
            if recompute:
                gap -= 1
    r.explain(f"deficit {deficit}: " + (f"{', '.join(joined)} join the line" if joined else "none join"))
    return Calc(joined, f"{len(joined)} join the line")


def noncombatant_breakoff(
    r: Resolver, round: int, freed: int = 0, label: str = "non-combatant", side: str | None = None
) -> Calc:
    """F-21b: a non-combatant out of the line breaks off on 1D10 - freed enemy warships >= round."""
    roll = r.roll(
        "1d10",
        f"break-off of {label}",
        target=int(round),
        modifiers=[("freed enemies", -int(freed))],
        side=side,
    )
    total = roll.natural - int(freed)
    ok = total >= int(round)
    roll.result = "breaks off" if ok else "stays"
    r.explain(f"{label}: 1D10 {roll.natural} - {freed} = {total} {'>=' if ok else '<'} round {round}")
    return Calc(ok, f"{label} {'breaks off' if ok else 'cannot break off'}")


def supply_cq_penalty(weeks: int) -> int:
    """T-31: crew quality -1 at 1-2 weeks since full resupply, -2 at 3 or more."""
    w = int(weeks)
    return 0 if w <= 0 else -1 if w <= 2 else -2


def supply_target_modifier(weeks: int) -> int:
    """T-31: target modifier -1 at 2-3 weeks, -2 at 4 or more."""
    w = int(weeks)
    return 0 if w <= 1 else -1 if w <= 3 else -2


def crew_quality_update(
    r: Resolver, cq: int, fought: bool = True, side_won: bool = False, retreated: bool = False
) -> Calc:
    """F-22 / T-19: after a week with combat, +1 (max +3) if the side won and the ship did not
    retreat; no change if it retreated and its side won; -1 (min -2) if it retreated from a lost
    combat."""
    c = int(cq)
    if not fought:
        return Calc(c, "no combat: no change")
    if side_won and not retreated:
        new = min(3, c + 1)
        why = "side won"
    elif retreated and side_won:
        new, why = c, "retreated but the side won"
    elif retreated:
        new = max(-2, c - 1)
        why = "retreated from a lost combat"
    else:
        new, why = c, "no win and no retreat"
    r.explain(f"crew quality {c} -> {new} ({why})")
    return Calc(new, f"crew quality {new:+d}")


def effective_cq(cq: int, weeks_unsupplied: int) -> int:
    """F-22: crew quality plus the T-31 supply penalty."""
    return int(cq) + supply_cq_penalty(int(weeks_unsupplied))


def ship_damage_points(losses: Any) -> int:
    """F-34 (DEFAULT-52): repairable damage = losses to Sn, Mv, Sc, Mi, Bm and Df."""
    lost = as_dict(losses, "losses")
    return sum(int(lost.get(k, 0)) for k in ("sn", "mv", "sc", "mi", "bm", "df"))


def damage_points_calc(r: Resolver, losses: Any) -> Calc:
    n = ship_damage_points(losses)
    r.explain(f"damage points: Sn, Mv, Sc, Mi, Bm and Df losses add to {n}; Sv and Sb are ordnance")
    return Calc(n, f"{n} damage points ({math.ceil(n / 5)} weeks in a dock)")


def pct_check(r: Resolver, chance: int) -> Calc:
    """F-01: pct(X) = d100 <= X with X clamped to 0..100."""
    ok, roll, x = pct(r, int(chance), "percentage check")
    r.explain(f"d100 {roll.natural} vs {x}%" + (f" (clamped from {chance})" if x != int(chance) else ""))
    return Calc(ok, "success" if ok else "failure")


def apply_damage_stats(stats: dict[str, int], results: list[str]) -> dict[str, int]:
    """Apply collected damage results to current stats (used at the end of a round)."""
    out = dict(stats)
    for res in results:
        if res in DAMAGE_STATS and out.get(res, 0) > 0:
            out[res] -= 1
    return out


DAMAGE_WORDS = {
    "sensor": "sn", "movement": "mv", "screens": "sc", "missile rating": "mi", "missile salvoes": "sv",
    "missile salvoes remaining": "sv", "salvoes": "sv", "beam rating": "bm", "submunitions": "sb",
    "defense": "df", "defence": "df", "repair bay": "repair*", "fighter hanger": "fighters*",
    "fighter hangar": "fighters*", "supply points": "sp10",
}  # T-16's own words


def damage_result_code(text: str) -> str:
    """A T-16 result in the table's words ("Screens -1", "Supply Points -10%") or its code."""
    t = str(text).strip().lower()
    for suffix in ("-10%", "−10%", "-1", "−1"):
        if t.endswith(suffix):
            t = t[: -len(suffix)].strip()
    codes = ("sn", "mv", "sc", "mi", "sv", "bm", "sb", "df", "repair*", "fighters*", "sp10")
    if t in codes or t + "*" in codes:
        return t if t in codes else t + "*"
    if t in DAMAGE_WORDS:
        return DAMAGE_WORDS[t]
    raise ValueError(f"{text!r} is not a T-16 result; give e.g. 'Screens -1', 'Defense -1' or sc, df, sp10")


def damage_result(r: Resolver, result: str, current: int = 0, sp: str = "0", rounding: str = "") -> Calc:
    """T-16: what one damage result does. Screens lower the maximum, the others the current
    value; Defense at 0 destroys the ship or facility; Supply Points -10% takes a tenth of the
    facility's SP, rounded per ``facility_sp_loss_rounding`` (DEFAULT-21); a Repair Bay or
    Fighter Hangar hit also strikes a docked ship or based fighter (T-15 *, see damage_location)."""
    from campaign_tui.core.errors import InvalidInput
    from rulesets.star_cruiser_lite import sp as spm
    from rulesets.star_cruiser_lite.rules_logistics import facility_sp_loss

    try:
        code = damage_result_code(result)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    r.lookup("T-16", result=code)
    if code == "sp10":
        how = rounding or str(r.options.get("facility_sp_loss_rounding", "up"))
        have = spm.sp(sp)
        loss = facility_sp_loss(have, how)
        r.explain(f"{spm.text(have)} SP / 10 rounded {how} = {loss} lost (DEFAULT-21)")
        return Calc(spm.store(have - loss), f"SP {spm.text(have)} -> {spm.text(have - loss)}")
    if code.endswith("*"):
        r.explain("T-15 *: one docked ship or based fighter also takes 1D6 points on the Ship column")
        return Calc(max(0, current - 1), f"{'repair docks' if code == 'repair*' else 'hangars'} {current} -> "
                    f"{max(0, current - 1)}")
    new = max(0, int(current) - 1)
    if int(current) <= 0:
        r.explain(f"{code} is already 0: the hit is a miss (F-18)")
        return Calc(0, "no effect: already 0")
    if code == "df" and new == 0:
        r.explain("Defense 0: destroyed (F-19)")
        return Calc(0, "destroyed")
    return Calc(new, f"{code} {current} -> {new}")
