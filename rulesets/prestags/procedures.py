"""The formulas of digest section 5 as procedures, for ``campaign-tui calc prestags ...`` and
the resolve dialog. Each wraps the same function the phase machine uses and explains itself.
Names and the seed's case numbers both work: ``calc prestags odds`` = ``calc prestags 7.32``.

Strengths are written as numbers or fractions (5/2, 2½); a melee value may be bracketed
([4]) or a dot (•, or "dot").
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.prestags import crt, hexmap, procs_exclusive, strength, victory
from rulesets.prestags.common import (
    OCR_ALIASES,
    Info,
    frac,
    ftext,
    leader_table_id,
    tec_table_id,
    vp_value,
)


def _type_attrs(code: str) -> dict[str, Any] | None:
    """A unit type's printed values ([3.4], units.toml), or None for an unknown code."""
    from rulesets.prestags import plugin

    t = plugin.catalog().types.get(OCR_ALIASES.get(code.upper(), code.upper()))
    return dict(t.attrs) if t is not None else None


def _melee_value(text: str) -> tuple[int | None, str]:
    """A melee value as printed (4, [4], •) or a unit type's code (SD, BW)."""
    t = str(text).strip()
    if t in ("•", "dot", ".", "*"):
        return None, "dot"
    if t.startswith("[") and t.endswith("]"):
        return int(t[1:-1]), "bracket"
    attrs = _type_attrs(t) if t.isalpha() else None
    if attrs is not None:
        kind = str(attrs.get("melee_kind", "normal"))
        return (None if kind == "dot" else int(attrs.get("melee") or 0)), kind
    try:
        return int(t), "normal"
    except ValueError:
        raise InvalidInput(f"{t!r} is neither a melee value (4, [4], •) nor a unit type code") from None


def _rule_on(r: Resolver, option: str, what: str, rule: str) -> bool:
    """Whether an optional rule is in play (``calc --option NAME=VALUE``); explains when
    an input that belongs to that rule is ignored."""
    if r.options.get(option):
        return True
    r.explain(f"{what}: ignored, {_off(rule, option)}")
    return False


def _off(rule: str, option: str) -> str:
    return f"the {rule} rule is off (--option {option}=true)"


def _leader_bonus(r: Resolver, text: str) -> Fraction:
    """A leader's combat bonus: the number, or its grade as L1..L6 (leader table [10.4])."""
    t = text.strip().upper()
    if len(t) == 2 and t[0] == "L" and t[1].isdigit():
        return frac(r.tables.get(leader_table_id(r.options)).lookup(grade=t[1], value="bonus").cell)
    return frac(text)


def _terrain_mult(r: Resolver, terrain: str, effect: str) -> tuple[Fraction, str]:
    """[7.6]: a terrain multiplier, given as a number or by the terrain's name (the TEC)."""
    t = str(terrain).strip().lower()
    if not t or not t[0].isalpha():
        return frac(t or "1"), "terrain"
    table = r.tables.get(tec_table_id(r.options))
    if t not in table.axis("terrain").labels:
        raise InvalidInput(f"no terrain {t!r} on the TEC: {', '.join(table.axis('terrain').labels)}")
    cell = str(table.lookup(terrain=t, effect=effect).cell)
    mult = frac(cell[1:]) if cell.startswith("x") else Fraction(1)
    r.explain(f"TEC {t}: {effect} {cell if cell != '-' else 'no effect'} [7.6]")
    return mult, t


def _list(text: Any) -> list[str]:
    if isinstance(text, list):
        return [str(x).strip() for x in text if str(x).strip()]
    return [x.strip() for x in str(text or "").split(",") if x.strip()]


def _dfn(defence: str | None, defense: str | None) -> Fraction:
    value = defence if defence not in (None, "") else defense
    if value in (None, ""):
        raise InvalidInput("give the defence strength (defence=...)")
    return frac(value)


def odds(r: Resolver, attack: str, defence: str | None = None, defense: str | None = None) -> Calc:
    """[7.32], [8.1]: the CRT column, rounded in the defender's favour."""
    a, d = frac(attack), _dfn(defence, defense)
    try:
        column, notes = crt.odds_column(r.tables, r.options, a, d)
    except Exception as exc:
        return Calc(None, str(exc), [str(exc)])
    return Calc(column, f"{ftext(a)}:{ftext(d)} -> {column}", notes)


def combat(
    r: Resolver,
    attack: str,
    defence: str | None = None,
    disrupted: bool = False,
    shift: int = 0,
    defense: str | None = None,
    ferocity: int = 0,
) -> Calc:
    """[8.0]-[8.2]: roll one die and read the CRT (+1 against a disrupted defender). *shift*:
    columns (Alexander [S3.1] +2 / -2, Viking ferocity's first turn +1); *ferocity*: Viking
    [3.7]/[3.8] +1 / -1 on the die, never above 6 or below 1."""
    a, d = frac(attack), _dfn(defence, defense)
    column, readings, roll = crt.resolve(
        r,
        r.options,
        a,
        d,
        [("target", bool(disrupted))],
        "combat",
        shift=int(shift),
        capped_mod=int(ferocity),
    )
    rd = readings[0]
    return Calc(
        rd.result, f"{column}, die {roll.natural}{' +1' if disrupted else ''} -> row {rd.row}: {rd.result}"
    )


def two_hexes(r: Resolver, attack: str, defence: str | None = None, defense: str | None = None) -> Calc:
    """[8.24]: one melee attack on a hex with a disrupted unit and one without: one die, two
    results."""
    column, readings, roll = crt.resolve(
        r, r.options, frac(attack), _dfn(defence, defense), [("H1", True), ("H2", False)], "two-hex melee"
    )
    text = "; ".join(f"{'/'.join(x.hexes)}: row {x.row} -> {x.result}" for x in readings)
    return Calc([x.result for x in readings], f"{column}, die {roll.natural}: {text}")


def melee_defence(
    r: Resolver,
    units: str,
    leaders: str = "",
    terrain: str = "1",
    panicked: bool = False,
    flank: bool = False,
    plotted_mv: bool = False,
    lone_leaders: int = 0,
) -> Calc:
    """[3.36], [3.37], [7.6], [10.11], [13.0], [16.21], [23.11]: one hex's melee defence.
    Units by value (4, [4], •) or type (SD); leaders by bonus (9) or grade (L2); terrain by
    name (woods) or multiplier. Panic, flank and plotted-move halvings need their rules on."""
    troops = []
    for n, raw in enumerate(_list(units)):
        melee, kind = _melee_value(raw)
        troops.append(strength.Troop(f"u{n + 1}", f"unit {n + 1} ({raw})", "", melee, kind))
    reasons = [
        x
        for x, on, option, rule in (
            ("panicked [13.0]", panicked, "panic", "Panic"),
            ("flank [16.21]", flank, "facing", "Facing"),
            ("plotted to move [23.11]", plotted_mv, "simultaneous", "Simultaneous Movement"),
        )
        if on and _rule_on(r, option, x, rule)
    ]
    mult, tname = _terrain_mult(r, terrain, "defender")
    h = strength.DefenceHex(
        "hex",
        troops,
        [_leader_bonus(r, x) for x in _list(leaders)],
        mult,
        tname,
        halvings={t.id: list(reasons) for t in troops},
    )
    value, lines = strength.hex_defence(
        h,
        frac(r.options.get("lone_leader_defence", 1)),
        int(lone_leaders),
        str(r.options.get("halving_stack", "multiply")),
    )
    return Calc(ftext(value), f"defence {ftext(value)}", lines)


def melee_attack(r: Resolver, groups: str, leaders: str = "", flank: bool = False) -> Calc:
    """[7.21], [7.51], [7.52], [10.11], [14.12], [14.13]: the attack total. Hexes are separated
    by '|', units by ',' (values or type codes); a trailing '^' halves a Class A/B unit for
    elevation (with the Elevation rule on); no flank doubling with Facing [16.24]."""
    bonus_parts = str(leaders or "").split("|")
    elevation_on: bool | None = None
    out = []
    for n, part in enumerate(str(groups).split("|")):
        atts = []
        for m, raw in enumerate(_list(part)):
            up = raw.endswith("^")
            if up and elevation_on is None:
                elevation_on = _rule_on(r, "elevation", "'^' elevation halving", "Elevation")
            up = up and bool(elevation_on)
            melee, kind = _melee_value(raw.rstrip("^"))
            if kind == "dot":
                raise InvalidInput("a dot unit cannot attack [3.36]")
            atts.append(
                strength.Attacker(
                    f"a{n}{m}", f"unit {raw}", "A", int(melee or 0), uphill="uphill" if up else ""
                )
            )
        bonus = [_leader_bonus(r, x) for x in _list(bonus_parts[n] if n < len(bonus_parts) else "")]
        out.append(strength.AttackGroup(f"hex {n + 1}", atts, bonus))
    if flank and r.options.get("facing"):
        r.explain("flank attack: no doubling with the Facing rule [16.24]")
        flank = False
    value, lines = strength.attack_total(out, bool(flank))
    return Calc(ftext(value), f"attack {ftext(value)}", lines)


def fire(r: Resolver, strengths: str, fps: str) -> Calc:
    """[6.21], [6.22]: combined fire strength against the hex's Fire Protection Strength."""
    parts = [(f"unit {n + 1}", frac(x)) for n, x in enumerate(_list(strengths))]
    total, lines = strength.fire_total(parts)
    res = odds(r, ftext(total), fps)
    return Calc(res.value, f"fire {ftext(total)} vs {fps}: {res.summary}", lines + res.lines)


def vp(r: Resolver, melee: str, fire: int = 0) -> Calc:
    """[11.2], [13.0]: victory points of a unit."""
    m, kind = _melee_value(melee)
    value = vp_value(m, kind, int(fire) or None)
    base = 1 if kind == "dot" else m
    return Calc(
        value,
        f"{value} VP",
        [f"half of {base} rounded up = {math.ceil(Fraction(base or 1, 2))}, plus fire {fire}"],
    )


def victory_level(r: Resolver, own: int, enemy: int) -> Calc:
    """[11.21]-[11.23]: the level from the ratio of victory points."""
    lv = victory.level(int(own), int(enemy), str(r.options.get("zero_enemy_vp", "decisive")))
    return Calc(lv, f"{own}:{enemy} -> {lv}")


def vp_record(r: Resolver, vp: int) -> Calc:
    """The map's Victory Point Record: which boxes hold the markers."""
    boxes = victory.vp_record(int(vp))
    return Calc(list(boxes), f"{vp} VP: markers in the {boxes[0]}, {boxes[1]} and {boxes[2]} boxes")


def movement_allowance(
    r: Resolver, ma: str, in_radius: bool = True, mounted: bool = False, mt_ex: bool = False
) -> Calc:
    """[10.0], [10.23], [5.27]: half MA outside every leader's radius, fractions kept."""
    value = frac(ma)
    if not in_radius and not (mounted and mt_ex):
        return Calc(ftext(value / 2), f"{ftext(value)} halved: {ftext(value / 2)}")
    return Calc(ftext(value), f"full MA {ftext(value)}")


def flank(r: Resolver, positions: str) -> Calc:
    """[7.51]: attackers in ring positions 0-5 around the defender; a flank attack when every
    one of the six hexes holds an attacker or touches one."""
    pos = [int(x) for x in _list(positions)]
    ok = strength.flank_covered(pos)
    return Calc(ok, "flank attack: strengths doubled" if ok else "not a flank attack")


def facing(r: Resolver, facing: int, hexside: int) -> Calc:
    """[16.0]: is a hexside to the front (the facing one and its two neighbours)?"""
    front = strength.in_front_arc(int(facing), int(hexside))
    return Calc(
        "front" if front else "flank",
        f"hexside {hexside} of a unit facing {facing}: "
        + ("front" if front else "flank (defends at half in melee)"),
    )


def half_elimination(r: Resolver, troops: int) -> Calc:
    """[8.1]: a 1/2E eliminates half the units, the majority when odd, leaders not counted."""
    k = math.ceil(int(troops) / 2)
    return Calc(k, f"{k} of {troops} eliminated (defender's choice), {int(troops) - k} disrupted")


CLASSES = ("A", "B", "C", "Ff", "Mf", "D", "E")


def _stack_classes(r: Resolver, items: list[str]) -> list[str]:
    """Classes (A, Ff...) or unit types with an optional count (SD, 2BW, L) -> one class
    per unit, as the Summary of Unit Types gives them [3.4]."""
    out: list[str] = []
    for raw in items:
        t = raw.strip()
        if t in CLASSES:
            out.append(t)
            continue
        digits = len(t) - len(t.lstrip("0123456789"))
        count, code = (int(t[:digits]) if digits else 1), t[digits:]
        attrs = _type_attrs(code)
        if attrs is None:
            raise InvalidInput(
                f"{t!r} is neither a class ({', '.join(CLASSES)}) nor a unit type such as SD or 2BW"
            )
        r.explain(f"{count} x {code.upper()}: Class {attrs.get('klass')}")
        out.extend([str(attrs.get("klass"))] * count)
    return out


def stacking(r: Resolver, classes: str, limit: int) -> Calc:
    """[5.3], [5.4]: class compatibility and the limit (leaders not counted). Units by class
    (A,Ff,E) or by type with a count (2SD,BW,L)."""
    cls = _stack_classes(r, _list(classes))
    from rulesets.prestags.movement import classes_compatible

    troops = [c for c in cls if c != "E"]
    clash = classes_compatible(r.tables, troops)
    over = len(troops) > int(limit)
    problems = [p for p in (clash, f"{len(troops)} units over the limit of {limit}" if over else "") if p]
    return Calc(not problems, "legal" if not problems else "; ".join(problems))


def retreat(r: Resolver, defender_ma: str, attacker_mas: str) -> Calc:
    """[17.0]: a defender may retreat before combat when its printed MA beats the fastest
    attacker's by 3 or more (with the Retreat Before Combat rule on)."""
    if not r.options.get("retreat_before_combat"):
        off = _off("Retreat Before Combat [17.0]", "retreat_before_combat")
        return Calc(False, off + ": defenders stand")
    fastest = max(frac(x) for x in _list(attacker_mas))
    margin = frac(defender_ma) - fastest
    ok = margin >= 3
    return Calc(ok, f"margin {ftext(margin)}: " + ("may retreat" if ok else "must stand"))


def panic_side(r: Resolver, a_level: int, b_level: int, a_lost: int, b_lost: int, defender: str = "") -> Calc:
    """[13.1]-[13.13]: which army panics when losses (VP scored by the enemy) reach the levels
    (with the Panic rule on)."""
    if not r.options.get("panic"):
        return Calc(None, _off("Panic [13.0]", "panic") + ": no army panics")
    reached = [s for s, lost, pl in (("A", a_lost, a_level), ("B", b_lost, b_level)) if pl and lost >= pl]
    if not reached:
        return Calc(None, "no panic")
    if len(reached) == 1:
        return Calc(reached[0], f"{reached[0]} panics [13.11]")
    sa, sb = a_lost - a_level, b_lost - b_level
    if sa != sb:
        side = "A" if sa > sb else "B"
        return Calc(side, f"both pass; {side} by more panics [13.13]")
    if defender:
        return Calc(defender, f"both reach it together: the defender {defender} panics [13.12]")
    return Calc(None, "both reach it together: the defender of the action panics [13.12]")


def readiness(r: Resolver, now: int, last_fire: int = 0, fired_off: int = 0) -> Calc:
    """[6.11], [6.12], [6.43], [6.51]: can a fire unit fire, and melee, in Player-Turn *now*?"""
    can_fire = not (last_fire > 0 and last_fire == now - 1)
    can_melee = fired_off != now
    return Calc(
        {"fire": can_fire, "melee": can_melee},
        f"fire: {'yes' if can_fire else 'no (fired last Player-Turn)'}; "
        f"melee: {'yes' if can_melee else 'no (fired offensively this Player-Turn)'}",
    )


def recovery(r: Resolver, disrupted_at: int, now: int) -> Calc:
    """[8.23]: disruption comes off at the end of the Player-Turn unless suffered in it."""
    back = int(disrupted_at) != int(now)
    return Calc(back, "recovers" if back else "stays disrupted (disrupted this Player-Turn)")


def hex_entry(r: Resolver, a_strength: int, b_strength: int) -> Calc:
    """[22.21]-[22.23]: enemy forces entering the same hex; a die each on a tie."""
    if a_strength != b_strength:
        first = "A" if a_strength > b_strength else "B"
        return Calc(first, f"{first} enters first ({a_strength} to {b_strength})")
    n = 0
    while True:
        n += 1
        ra = r.roll("1d6", f"A entry (try {n})")
        rb = r.roll("1d6", f"B entry (try {n})")
        if ra.natural != rb.natural:
            first = "A" if ra.natural > rb.natural else "B"
            return Calc(first, f"tie; dice {ra.natural} to {rb.natural}: {first} enters first")


def plot_path(r: Resolver, path: str, ma: str, grid: str = "") -> Calc:
    """[22.11], [20.4]: a movement plot must be continuous with no pause; MP per hex written
    as HEX:MP when above 1."""
    from rulesets.prestags.movement import parse_path

    items = _list(path.replace(" ", ","))
    try:
        p = parse_path(
            [x.split(":")[0] if ":" in x and not x.startswith(("from:", "off")) else x for x in items]
        )
    except Exception as exc:
        return Calc(False, f"no plot: {exc}")
    total = Fraction(0)
    for x in items:
        if x.startswith(("from:", "off")):
            continue
        total += frac(x.split(":")[1]) if ":" in x else 1
    if grid:
        hexes = [s.hex for s in p.steps]
        for a, b in itertools.pairwise(hexes):
            if hexmap.GRIDS[grid].distance(a, b) != 1:
                return Calc(False, f"no plot: {b} is not next to {a} (gap) [22.11]")
    if total > frac(ma):
        return Calc(False, f"no plot: {ftext(total)} MP over the MA of {ma}")
    return Calc(True, f"valid: {len(p.steps)} hexes, {ftext(total)} MP of {ma}")


def elevation(r: Resolver, klass: str, attacker: str, defender: str) -> Calc:
    """[14.11], [14.21]: with the Elevation rule on, Class A/B attacks uphill or slope to
    slope are halved."""
    if not r.options.get("elevation"):
        return Calc(False, "no elevation penalty: " + _off("Elevation [14.0]", "elevation"))
    why = strength.elevation_halves(
        klass, attacker, defender, bool(r.options.get("elevation_ground_hilltop", True))
    )
    return Calc(bool(why), why or "no elevation penalty")


def die_row(r: Resolver, die: int, disrupted: bool = False) -> Calc:
    """[8.2], G-3: the CRT row for a die, +1 against a disrupted defender."""
    row, note = crt.row_for(int(die), 1 if disrupted else 0, r.options)
    return Calc(row, f"row {row}" + (f" ({note})" if note else ""))


def leader_reduction(r: Resolver, grade: int) -> Calc:
    """[10.3], Chariot [2.2]: one grade down; a 4 (or a Chariot 6) is eliminated."""
    g = int(grade)
    if g in (4, 6):
        return Calc("eliminated", f"a grade {g} leader reduced is eliminated")
    return Calc(g + 1, f"grade {g} becomes grade {g + 1}")


def apply_result(r: Resolver, result: str, combat: str, leader: bool = False) -> Calc:
    """Digest 4.7: what a result does, fire or melee, with or without a leader in the hex."""
    case = f"{combat}{' with leader' if leader else ''}"
    cell = r.tables.get("results").lookup(result=result, case=case).cell
    return Calc(str(cell), str(cell))


def control(r: Resolver, occupant: str = "", last_occupant: str = "") -> Calc:
    """[11.3]: the side with a unit in the hex controls it; an empty hex stays with the side
    that occupied it last; a hex never occupied belongs to nobody."""
    side = occupant or last_occupant or None
    why = "occupies it" if occupant else "occupied it last" if last_occupant else "never occupied"
    return Calc(side, f"{side or 'nobody'} ({why})")


def contact(r: Resolver, result: str, leader_cancelled: bool = False) -> Calc:
    """[18.1], [18.5], G-25: a melee that eliminates or disrupts nobody locks both sides in
    contact; a D cancelled by a leader counts as no disruption by default (with the Contact
    rule on)."""
    if not r.options.get("contact"):
        return Calc(False, _off("Contact [18.0]", "contact") + ": no contact")
    none = result == "-" or (
        result == "D" and leader_cancelled and r.options.get("contact_nullified_d", True)
    )
    return Calc(none, "contact: both sides stay locked" if none else "a decision: no contact (any ends)")


def entry_cost(
    r: Resolver,
    terrain: str,
    elevation: str = "ground",
    road: bool = False,
    from_slope: bool = False,
    klass: str = "",
    game: str = "",
) -> Calc:
    """[5.11], [5.51], [5.61], [5.62], TEC, exclusive prohibitions: the Movement Points to
    enter a hex (road = along a road from a road hex; from_slope = a hilltop entered from a
    slope); with a class and a game, the exclusive rules' prohibitions."""
    table = r.tables.get(tec_table_id(r.options))
    t = str(terrain).strip().lower()
    if t not in table.axis("terrain").labels:
        raise InvalidInput(f"no terrain {t!r} on the TEC: {', '.join(table.axis('terrain').labels)}")
    if road:
        return Calc("1", "1 MP: road hex to road hex through a road hexside, whatever else is there [5.51]")
    if klass and game:
        cell = str(r.tables.get("prohibitions").lookup(game=game.upper(), klass=klass).cell)
        if t in [x.strip() for x in cell.split(",")]:
            return Calc(None, f"Class {klass} may not enter {t} in this game (exclusive rules)")
    cost = str(table.lookup(terrain=t, effect="mp").cell)
    if cost == "X":
        return Calc(None, f"{t} may not be entered (TEC)")
    if elevation == "slope":
        mp = frac(table.lookup(terrain="slope", effect="mp").cell)
        return Calc(ftext(mp), f"{ftext(mp)} MP: a slope hex, moving up, down or across [5.61]")
    mp = frac(cost)
    if elevation == "hilltop" and from_slope:
        extra = str(table.lookup(terrain="hilltop", effect="mp").cell)
        add = frac(extra[1:]) if extra.startswith("+") else Fraction(0)
        return Calc(ftext(mp + add), f"{ftext(mp + add)} MP: {t} hilltop from a slope, +{ftext(add)} [5.62]")
    return Calc(ftext(mp), f"{ftext(mp)} MP: {t} (TEC)")


class _CapabilityCtx:
    """What ``combat.capability`` reads, for a calc outside a battle."""

    def __init__(self, r: Resolver, game: str) -> None:
        self.tables = r.tables
        self.options = {**r.options, "unit_capability": True}
        self._game = game.upper()

    def var(self, name: str, default: Any = None) -> Any:
        return self._game if name == "game" else default


def capability(r: Resolver, game: str, defender: str, attackers: str) -> Calc:
    """[5.39], Chariot [3.2], Spartan [3.4], Yeoman [8.2]: the Unit Capability Chart for one
    defending unit type against the attacking types (the attacker gets the best entry)."""
    from rulesets.prestags import combat

    def unit(code: str) -> Info:
        attrs = _type_attrs(code)
        if attrs is None:
            raise InvalidInput(f"{code!r} is not a unit type such as SD or PP")
        c = OCR_ALIASES.get(code.upper(), code.upper())
        return Info(
            c, c, "", c, str(attrs.get("klass")), None, "", None, None, Fraction(0), False, "", None, "", 0
        )

    ctx: Any = _CapabilityCtx(r, game)
    cap = combat.capability(ctx, [unit(a) for a in _list(attackers)], unit(defender))
    if cap is None:
        return Calc("x1", f"no entry for {defender.upper()} in game {game.upper()}: defence unchanged")
    if cap == "P":
        return Calc("P", f"{defender.upper()} may not be attacked by these units [Y8.22]")
    kind, value = cap
    if kind == "=":
        return Calc(ftext(value), f"{defender.upper()} defends at {ftext(value)} [Y8.2]")
    return Calc(f"x{ftext(value)}", f"{defender.upper()}'s defence x{ftext(value)} [5.39]")


def hex_range(r: Resolver, a: str, b: str, grid: str = "odd-q") -> Calc:
    """[3.35], digest 5.15: range in hexes (the target hex counted, the firer's not) on a
    column-row grid."""
    g = hexmap.GRIDS.get(grid, hexmap.GRIDS["odd-q"])
    if not (g.parse(a) and g.parse(b)):
        return Calc(None, "not four-digit column-row hex numbers")
    d = g.distance(a, b)
    return Calc(d, f"{d} hex{'es' if d != 1 else ''} from {a} to {b}" + (" (adjacent)" if d == 1 else ""))


DEFENCE = Param("defence", required=False, help="the defence strength (or Fire Protection Strength)")
DEFENSE = Param("defense", required=False, help="the same, spelled defense")

PROCS: dict[str, ProcedureDef] = {
    p.id: p
    for p in (
        ProcedureDef(
            "odds",
            "Odds column",
            odds,
            (Param("attack"), DEFENCE, DEFENSE),
            aliases=("7.32", "5.1", "8.1"),
            reference="7.32, 8.1",
        ),
        ProcedureDef(
            "combat",
            "Combat roll",
            combat,
            (
                Param("attack"),
                DEFENCE,
                DEFENSE,
                Param("disrupted", "bool", required=False, default=False),
                Param("shift", "int", required=False, default=0),
                Param(
                    "ferocity",
                    "int",
                    required=False,
                    default=0,
                    min=-1,
                    max=1,
                    help="Viking ferocity on the die: 1 (Vikings attack), -1 (attacked), kept in 1-6",
                ),
            ),
            aliases=("8.0", "8.2", "4.1"),
            reference="8.0",
        ),
        ProcedureDef(
            "two_hexes",
            "One die, two hexes",
            two_hexes,
            (Param("attack"), DEFENCE, DEFENSE),
            aliases=("8.24",),
            reference="8.24",
        ),
        ProcedureDef(
            "melee_defence",
            "Melee defence of a hex",
            melee_defence,
            (
                Param("units", help="melee values or unit types: 4,[4],•,SD"),
                Param("leaders", required=False, default="", help="leader bonuses or grades: 9,L2"),
                Param(
                    "terrain",
                    required=False,
                    default="1",
                    help="the hex's terrain (woods, village...) or a multiplier",
                ),
                Param("panicked", "bool", required=False, default=False),
                Param("flank", "bool", required=False, default=False),
                Param("plotted_mv", "bool", required=False, default=False),
                Param("lone_leaders", "int", required=False, default=0),
            ),
            aliases=("3.37", "3.36", "10.11", "5.2"),
            reference="3.36, 3.37, 10.11",
        ),
        ProcedureDef(
            "melee_attack",
            "Melee attack total",
            melee_attack,
            (
                Param("groups", help="5,4|3 (hexes split by |, ^ = elevation halved)"),
                Param("leaders", required=False, default="", help="bonuses per hex: 9|"),
                Param("flank", "bool", required=False, default=False),
            ),
            aliases=("7.51", "14.12", "7.21"),
            reference="7.21, 7.51, 14.12",
        ),
        ProcedureDef(
            "fire",
            "Fire attack odds",
            fire,
            (Param("strengths", help="2,2,3"), Param("fps")),
            aliases=("6.22", "6.21"),
            reference="6.21, 6.22",
        ),
        ProcedureDef(
            "vp",
            "Victory points of a unit",
            vp,
            (Param("melee", help="4, [4] or •"), Param("fire", "int", required=False, default=0)),
            aliases=("11.2",),
            reference="11.2",
        ),
        ProcedureDef(
            "victory_level",
            "Level of victory",
            victory_level,
            (Param("own", "int"), Param("enemy", "int")),
            aliases=("11.21", "11.22", "11.23"),
            reference="11.21-11.23",
        ),
        ProcedureDef(
            "vp_record",
            "Victory Point Record boxes",
            vp_record,
            (Param("vp", "int", min=0),),
            aliases=("track",),
            reference="map note",
        ),
        ProcedureDef(
            "movement_allowance",
            "Movement Allowance this phase",
            movement_allowance,
            (
                Param("ma"),
                Param("in_radius", "bool", required=False, default=True),
                Param("mounted", "bool", required=False, default=False),
                Param("mt_ex", "bool", required=False, default=False),
            ),
            aliases=("10.23", "10.2"),
            reference="10.23",
        ),
        ProcedureDef(
            "flank",
            "Flank attack ring test",
            flank,
            (Param("positions", help="0,3"),),
            aliases=("7.5",),
            reference="7.51",
        ),
        ProcedureDef(
            "facing",
            "Front or flank hexside",
            facing,
            (Param("facing", "int", min=0, max=5), Param("hexside", "int", min=0, max=5)),
            aliases=("16.0", "16.2"),
            reference="16.0",
        ),
        ProcedureDef(
            "half_elimination",
            "Half elimination",
            half_elimination,
            (Param("troops", "int", min=1),),
            aliases=("1/2E",),
            reference="8.1",
        ),
        ProcedureDef(
            "stacking",
            "Stacking check",
            stacking,
            (Param("classes", help="classes A,Ff,E or unit types 2SD,BW,L"), Param("limit", "int", min=0)),
            aliases=("5.3", "5.4"),
            reference="5.3, 5.4",
        ),
        ProcedureDef(
            "retreat",
            "Retreat before combat",
            retreat,
            (Param("defender_ma"), Param("attacker_mas", help="4,7")),
            aliases=("17.0",),
            reference="17.0",
        ),
        ProcedureDef(
            "panic",
            "Who panics",
            panic_side,
            (
                Param("a_level", "int"),
                Param("b_level", "int"),
                Param("a_lost", "int"),
                Param("b_lost", "int"),
                Param("defender", required=False, default=""),
            ),
            aliases=("13.1", "13.12", "13.13"),
            reference="13.1",
        ),
        ProcedureDef(
            "readiness",
            "Fire and melee readiness",
            readiness,
            (
                Param("now", "int", min=1),
                Param("last_fire", "int", required=False, default=0),
                Param("fired_off", "int", required=False, default=0),
            ),
            aliases=("6.12", "6.43", "6.51"),
            reference="6.11, 6.12, 6.43",
        ),
        ProcedureDef(
            "recovery",
            "Disruption recovery",
            recovery,
            (Param("disrupted_at", "int"), Param("now", "int")),
            aliases=("8.23",),
            reference="8.23",
        ),
        ProcedureDef(
            "hex_entry",
            "Hex-entry conflict",
            hex_entry,
            (Param("a_strength", "int"), Param("b_strength", "int")),
            aliases=("22.2", "22.23"),
            reference="22.21-22.23",
        ),
        ProcedureDef(
            "plot_path",
            "Movement plot check",
            plot_path,
            (
                Param("path", help="0405 0406:2 0407"),
                Param("ma"),
                Param("grid", "choice", choices=("", "odd-q", "even-q"), required=False, default=""),
            ),
            aliases=("22.11", "20.4"),
            reference="22.11, 20.4",
        ),
        ProcedureDef(
            "elevation",
            "Elevation penalty",
            elevation,
            (
                Param("klass"),
                Param("attacker", "choice", choices=hexmap.ELEVATIONS),
                Param("defender", "choice", choices=hexmap.ELEVATIONS),
            ),
            aliases=("14.1", "14.11", "14.21"),
            reference="14.11, 14.21",
        ),
        ProcedureDef(
            "die_row",
            "CRT row for a die",
            die_row,
            (Param("die", "int", min=1, max=6), Param("disrupted", "bool", required=False, default=False)),
            aliases=("die7",),
            reference="8.2, G-3",
        ),
        ProcedureDef(
            "leader_reduction",
            "Leader reduction",
            leader_reduction,
            (Param("grade", "int", min=1, max=6),),
            aliases=("10.3",),
            reference="10.3",
        ),
        ProcedureDef(
            "apply_result",
            "Effect of a result",
            apply_result,
            (
                Param("result", "choice", choices=("-", "D", "1/2E", "E")),
                Param("combat", "choice", choices=("fire", "melee")),
                Param("leader", "bool", required=False, default=False),
            ),
            aliases=("4.7", "10.31"),
            reference="8.1, 10.3, 10.31",
        ),
        ProcedureDef(
            "control",
            "Hex control",
            control,
            (
                Param("occupant", "choice", choices=("", "A", "B"), required=False, default=""),
                Param("last_occupant", "choice", choices=("", "A", "B"), required=False, default=""),
            ),
            aliases=("11.3",),
            reference="11.3",
        ),
        ProcedureDef(
            "contact",
            "Contact after a melee",
            contact,
            (
                Param("result", "choice", choices=("-", "D", "1/2E", "E")),
                Param("leader_cancelled", "bool", required=False, default=False),
            ),
            aliases=("18.1", "18.5"),
            reference="18.1, 18.5",
        ),
        ProcedureDef(
            "entry_cost",
            "Movement Points to enter a hex",
            entry_cost,
            (
                Param("terrain", help="clear, woods, village, stream..."),
                Param("elevation", "choice", choices=hexmap.ELEVATIONS, required=False, default="ground"),
                Param("road", "bool", required=False, default=False),
                Param("from_slope", "bool", required=False, default=False),
                Param("klass", required=False, default="", help="the unit's class, for prohibitions"),
                Param("game", "choice", choices=("", "C", "S", "L", "V", "Y"), required=False, default=""),
            ),
            aliases=("5.11", "5.51", "5.61", "5.62", "9.0mp"),
            reference="5.11, 5.51, 5.61, 5.62",
        ),
        ProcedureDef(
            "capability",
            "Unit Capability Chart",
            capability,
            (
                Param("game", "choice", choices=("C", "S", "Y")),
                Param("defender", help="the defending unit's type: PP"),
                Param("attackers", help="the attacking types: MS,SD"),
            ),
            aliases=("5.39", "C3.2", "S3.4", "Y8.2"),
            reference="5.39",
        ),
        ProcedureDef(
            "distance",
            "Range between two hexes",
            hex_range,
            (
                Param("a"),
                Param("b"),
                Param("grid", "choice", choices=("odd-q", "even-q"), required=False, default="odd-q"),
            ),
            aliases=("3.35", "5.15"),
            reference="3.35",
        ),
        *procs_exclusive.PROCEDURES,
    )
}
