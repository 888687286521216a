"""Fire and melee combat as the actions resolve them: eligibility, map checks, strengths,
the roll and the results. Shared by the standard and the simultaneous sequences.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State
from campaign_tui.core.records import record
from rulesets.prestags import carriers, crt, exclusive, hexmap, movement, strength
from rulesets.prestags.common import Info, frac, ftext, info, leader_values, stamp, units_at

# -- readiness (digest section 9, item 1) ---------------------------------------------------------


def fire_block(state: State, ruleset: Any, uid: str) -> str | None:
    """Why a unit cannot fire now (None when it can) [6.12], [6.43], [6.51], [8.2], [13.0]."""
    u = state.unit(uid)
    i = info(state, ruleset, u)
    if not i.is_fire:
        return "not a fire unit"
    if not i.active or i.hex is None:
        return "not on the map"
    if u.status.get("disrupted"):
        return "disrupted [8.2]"
    if u.status.get("panicked"):
        return "panicked [13.0]"
    last = int(u.status.get("last_fire", 0) or 0)
    now = stamp(state)
    rest = not state.options.get("simultaneous") or state.options.get("sim_fire_rest", True)
    if rest and last > 0 and last == now - 1:
        when = "Game-Turn" if state.options.get("simultaneous") else "Player-Turn"
        return f"fired in the previous {when} ({last}) [6.12]"
    return None


def melee_block(state: State, ruleset: Any, uid: str) -> str | None:
    """Why a unit cannot make a melee attack now [3.36], [6.11], [8.2], [13.0], [17.4]."""
    u = state.unit(uid)
    i = info(state, ruleset, u)
    if i.is_leader:
        return "a leader does not attack by itself [10.12]"
    if i.kind == "dot" or not i.melee:
        return "dot value: no melee attack [3.36]"
    if not i.active or i.hex is None:
        return "not on the map"
    if u.status.get("disrupted"):
        return "disrupted [8.2]"
    if u.status.get("panicked"):
        return "panicked [13.0]"
    now = stamp(state)
    if not state.options.get("simultaneous"):
        if int(u.status.get("fired_off", 0) or 0) == now and not exclusive.fires_and_melees(state, i.code):
            return "fired offensively this Player-Turn [6.11]"
        if int(u.status.get("rbc_adv", 0) or 0) == now:
            return "advanced after a retreat before combat this Player-Turn [17.4]"
    return None


# -- fire ------------------------------------------------------------------------------------------
def fire_protection(ctx: Ctx, target: str) -> tuple[Fraction, str]:
    """The target hex's Fire Protection Strength [6.22]; roads have no effect [5.53] unless
    the road_fps option says otherwise."""
    fleets = [u for u in units_at(ctx.state, target) if u.type == carriers.FLEET]
    if fleets and exclusive.in_game(ctx.state, "V"):
        return Fraction(carriers.FLEET_FPS), "a Viking fleet's, always 4 [V3.25]"
    t = hexmap.terrain(ctx, target, "fire protection")
    if ctx.options.get("road_fps") == "chart" and hexmap.known_hex(ctx.state, target).get("road"):
        t = "road"
    cell = movement.tec(ctx, t, "fps")
    if cell in ("-", "other", ""):
        value = ctx.ruling(
            f"fps:{target}",
            f"What is the Fire Protection Strength of hex {target} ({t})?",
            answer_kind="number",
        )
        return frac(value), f"{t} (GM)"
    return frac(cell), t


def fire_strength(ctx: Ctx, f: Info, target: str) -> Fraction:
    """Fire Attack Strength, reduced by range with the Range Effects option."""
    base = Fraction(f.fire or 0)
    if not ctx.options.get("range_effects"):
        return base
    table = ctx.tables.get("range_effects")
    if f.code not in table.axis("unit").labels:
        return base
    d = hexmap.hex_range(ctx, str(f.hex), target, f"range of {f.label}")
    cell = str(table.lookup(unit=f.code, range=str(d)).cell) if d <= 7 else "-"
    if cell in ("-", "•"):
        raise ActionRejected(f"{f.label}: {target} is out of range ({d} hexes)")
    ctx.explain(f"{f.label}: range {d} -> fire strength {cell} (range effects)")
    return frac(cell)


def check_firer(ctx: Ctx, f: Info, target: str, defensive: bool) -> None:
    """Per-firer checks that need the map: terrain of its hex, range, line of sight, facing."""
    t = hexmap.terrain(ctx, str(f.hex), "firing hex")
    rule = movement.tec(ctx, t, "fire_from")
    if rule == f"no {f.klass}":
        raise ActionRejected(f"{f.label}: Class {f.klass} units may not fire from {t} [6.33]")
    if defensive:
        if not hexmap.adjacent(ctx, str(f.hex), target, f"defensive fire by {f.label}"):
            raise ActionRejected(f"{f.label}: defensive fire reaches adjacent hexes only [6.42]")
    else:
        if not hexmap.within(ctx, str(f.hex), target, int(f.range or 0), f"range of {f.label}") and not (
            _range_increment(ctx, f, target)
        ):
            raise ActionRejected(
                f"{f.label}: {target} is beyond its range of {f.range} (its counter reads fire "
                f"{f.fire}, range {f.range}: the Range Allowance counts the target hex, not the "
                "firer's) [3.35], [6.13]"
            )
        if not hexmap.adjacent(ctx, str(f.hex), target) and not _line_of_sight(ctx, f, target):
            raise ActionRejected(f"{f.label}: no line of sight to {target} [6.34]")
    if ctx.options.get("facing"):
        facing = int(ctx.state.unit(f.id).status.get("facing", -1))
        if facing >= 0 and not hexmap.in_front(ctx, str(f.hex), facing, target, f"fire by {f.label}"):
            raise ActionRejected(f"{f.label}: {target} is not through its front hexsides [16.31]")


def _range_increment(ctx: Ctx, f: Info, target: str) -> bool:
    """Spartan [3.3]: from a hilltop at a slope or ground-level hex the range is one more."""
    if not exclusive.in_game(ctx.state, "S"):
        return False
    extra = exclusive.range_increment(
        hexmap.elevation(ctx, str(f.hex), "range increment [S3.3]"),
        hexmap.elevation(ctx, target, "range increment [S3.3]"),
    )
    reach = int(f.range or 0) + extra
    if extra and hexmap.within(ctx, str(f.hex), target, reach, f"range of {f.label}"):
        ctx.explain(f"{f.label}: from a hilltop at a lower hex the range is {reach} [S3.3]")
        return True
    return False


def _line_of_sight(ctx: Ctx, f: Info, target: str) -> bool:
    """From the map when it knows the hexes between; otherwise a GM ruling."""
    occupied = {hexmap.canon(ctx.state, str(u.location)[4:]) for u in ctx.state.units.values()
                if str(u.location or "").startswith("hex:") and not u.status.get("destroyed")}
    known = hexmap.line_of_sight(ctx.state, str(f.hex), target, occupied)
    if known is not None:
        ctx.explain(f"{f.label}: line of sight to {target} {'clear' if known else 'blocked'} (map)")
        return known
    return bool(ctx.ruling(
            f"los:{f.id}:{target}",
            f"Has {f.label} in {f.hex} a clear line of sight to {target}?",
            info=_los_info(ctx, str(f.hex)),
        ))


def _los_info(ctx: Ctx, firer_hex: str) -> tuple[str, ...]:
    table = ctx.tables.get("los")
    try:
        e = hexmap.known_hex(ctx.state, firer_hex).get("elevation", "ground")
        rows = [e, "any"]
        return tuple(
            f"{r}: {table.lookup(firer=r, blocking=b).cell}"
            for r in rows
            for b in ("occupied hexes", "terrain")
        )
    except Exception:
        return ()


def defenders_in(state: State, side: str, h: str) -> list[str]:
    return [u.id for u in units_at(state, h) if u.side != side]


def has_disrupted(state: State, side: str, h: str) -> bool:
    return any(u.status.get("disrupted") for u in units_at(state, h) if u.side != side)


@record
class FirePlan:
    firers: list[Info]
    target: str
    attack: Fraction
    fps: Fraction
    lines: list[str] = field(default_factory=list)


def plan_fire(ctx: Ctx, firers: list[Info], target: str, defensive: bool, checked: bool = False) -> FirePlan:
    if not checked:
        for f in firers:
            check_firer(ctx, f, target, defensive)
    parts = [
        (f.label, fire_strength(ctx, f, target) if not defensive else Fraction(f.fire or 0)) for f in firers
    ]
    total, lines = strength.fire_total(parts)
    dfn, what = fire_protection(ctx, target)
    lines.append(f"Fire Protection Strength of {target} ({what}): {ftext(dfn)} [6.22]")
    return FirePlan(firers, target, total, dfn, lines)


def roll_fire(ctx: Ctx, p: FirePlan, side: str, purpose: str) -> crt.Reading:
    for line in p.lines:
        ctx.explain(line)
    _col, readings, _roll = crt.resolve(
        ctx,
        ctx.options,
        p.attack,
        p.fps,
        [(p.target, has_disrupted(ctx.state, side, p.target))],
        purpose,
        side=side,
    )
    return readings[0]


def mark_fired(ctx: Ctx, firers: list[Info], offensive: bool) -> None:
    now = stamp(ctx.state)
    for f in firers:
        u = ctx.unit(f.id)
        u.status["last_fire"] = now
        if offensive:
            u.status["fired_off"] = now


# -- melee -----------------------------------------------------------------------------------------
def capability(ctx: Ctx, attackers: list[Info], d: Info) -> tuple[str, Fraction] | str | None:
    """The game's unit capability chart for one defender [5.39] (EXT): ("x", multiplier),
    ("=", defence strength), "P" (attack prohibited) or None."""
    if not ctx.options.get("unit_capability"):
        return None
    game = ctx.var("game", "")
    if game == "C":
        rows = {"MS": "MS,MI", "MI": "MS,MI", "AX": "AX,SD", "SD": "AX,SD"}
        cols = {"MS": "MS,MI", "MI": "MS,MI", "AX": "AX,SD", "SD": "AX,SD", "MC": "MC"}
        if d.code not in rows:
            return None
        table = ctx.tables.get("ucc_chariot")
        vals = [
            frac(table.lookup(defender=rows[d.code], attacker=cols[a.code]).cell)
            if a.code in cols
            else Fraction(1)
            for a in attackers
        ]
        return ("x", min(vals))
    if game == "S":
        row = "SD" if d.code == "SD" else "class A" if d.klass == "A" else None
        if row is None:
            return None
        table = ctx.tables.get("ucc_spartan")
        vals = []
        for a in attackers:
            col = "class C" if a.klass == "C" else "SD" if a.code == "SD" else None
            vals.append(frac(table.lookup(defender=row, attacker=col).cell) if col else Fraction(1))
        return ("x", min(vals))
    if game == "Y":
        if d.code not in ("MS", "PS", "PP", "SD"):
            return None
        cols = {"MS": "MS,PS", "PS": "MS,PS", "SD": "SD", "LC": "LC,MC", "MC": "LC,MC", "HC": "HC"}
        table = ctx.tables.get("ucc_yeoman")
        vals = []
        for a in attackers:
            if a.code not in cols:
                continue
            cell = str(table.lookup(defender=d.code, attacker=cols[a.code]).cell)
            if cell == "P":
                return "P"
            vals.append(frac(cell))
        return ("=", min(vals)) if vals else None
    return None


def ring_positions(ctx: Ctx, target: str, attacker_hexes: list[str]) -> list[int] | None:
    g = hexmap.geometry(ctx.state)
    if g is None:
        return None
    out = []
    for h in attacker_hexes:
        a, b = hexmap.canon(ctx.state, target), hexmap.canon(ctx.state, h)
        d = g.direction(a, b) if g.parse(a) and g.parse(b) else None
        if d is None:
            return None
        out.append(d)
    return out


def is_flank_attack(ctx: Ctx, targets: list[str], attacker_hexes: list[str], given: str) -> bool:
    """Flank attack [7.51]-[7.55] (never with Facing [16.24])."""
    if ctx.options.get("facing"):
        return False
    if len(set(attacker_hexes)) < 2:
        # One ring hex covers itself and its two neighbours, three of the six: a flank
        # attack needs attackers in two hexes at least (digest 5.5), so nothing to ask.
        if given == "yes":
            raise ActionRejected(
                "a flank attack needs attackers in at least two of the hexes around the defender "
                "(one hex covers only three of the six) [7.51]"
            )
        return False
    if given in ("yes", "no"):
        if given == "yes":
            ctx.explain("flank attack declared (GM) [7.51]")
        return given == "yes"
    flags = []
    for t in targets:
        pos = ring_positions(ctx, t, attacker_hexes)
        if pos is not None:
            flags.append(strength.flank_covered(pos))
        else:
            flags.append(
                bool(
                    ctx.ruling(
                        f"flank:{t}:{','.join(sorted(attacker_hexes))}",
                        f"Do the attacking units in {', '.join(sorted(attacker_hexes))} occupy or stand next "
                        f"to every one of the six hexes around {t}? (flank attack [7.51])",
                        info=(
                            "only attacking units count [7.53]; map edges and impassable hexes do not "
                            "help [7.54]",
                        ),
                    )
                )
            )
    rule = ctx.options.get("flank_multi_hex", "every")
    return all(flags) if rule == "every" else any(flags)


def flank_defence(ctx: Ctx, d: Info, attacker_hexes: list[str]) -> bool:
    """With Facing: is this defender attacked (in part) through a flank hexside [16.21]?"""
    facing = int(ctx.state.unit(d.id).status.get("facing", -1))
    if facing < 0:
        return False
    for h in attacker_hexes:
        if not hexmap.in_front(ctx, str(d.hex), facing, h, f"defence of {d.label}"):
            return True
    return False


def _terrain_mult(ctx: Ctx, h: str, effect: str) -> tuple[Fraction, str]:
    t = hexmap.terrain(ctx, h, "melee strength [7.6]")
    cell = movement.tec(ctx, t, effect)
    if cell.startswith("x"):
        return frac(cell[1:]), t
    return Fraction(1), t


@record
class MeleePlan:
    attackers: list[Info]
    targets: list[str]
    attack: Fraction
    defence: Fraction
    lines: list[str]
    disrupted: dict[str, bool]


def plan_melee(
    ctx: Ctx,
    attackers: list[Info],
    targets: list[str],
    side: str,
    *,
    flank: str = "auto",
    cap_mult: Fraction = Fraction(1),
    moving: set[str] | None = None,
) -> MeleePlan:
    """Strengths and odds inputs for one melee attack (digest 5.2)."""
    halving = str(ctx.options.get("halving_stack", "multiply"))
    att_hexes = sorted({str(a.hex) for a in attackers})
    lines: list[str] = []
    defence = Fraction(0)
    disrupted: dict[str, bool] = {}
    for t in targets:
        defenders = [info(ctx.state, ctx.ruleset, u) for u in units_at(ctx.state, t) if u.side != side]
        troops = [x for x in defenders if not x.is_leader]
        leaders = [x for x in defenders if x.is_leader]
        mult, tname = _terrain_mult(ctx, t, "defender")
        h = strength.DefenceHex(
            hex=t,
            troops=[strength.Troop(x.id, x.label, x.klass, x.melee, x.kind, x.code) for x in troops],
            leader_bonuses=[leader_values(ctx.state, ctx.ruleset, x.grade)["bonus"] for x in leaders],
            terrain_mult=mult,
            terrain_name=tname,
        )
        for x in troops:
            cap = capability(ctx, attackers, x)
            if cap == "P":
                raise ActionRejected(
                    f"{x.label} may not be attacked by these units (unit capability chart) [Y8.22]"
                )
            if cap is not None:
                assert not isinstance(cap, str)
                h.capability[x.id] = cap
            if cap_mult != 1:
                kind, value = h.capability.get(x.id, ("x", Fraction(1)))
                h.capability[x.id] = (kind, value * cap_mult)
            reasons = []
            if ctx.options.get("panic") and ctx.state.unit(x.id).status.get("panicked"):
                reasons.append("panicked [13.0]")
            if ctx.options.get("facing") and flank_defence(ctx, x, att_hexes):
                reasons.append("attacked through a flank hexside [16.21]")
            if moving and x.id in moving:
                reasons.append("plotted to move [23.11]")
            if reasons:
                h.halvings[x.id] = reasons
        if halving == "multiply" and any(len(r) > 1 for r in h.halvings.values()):
            lines.append("note: several halvings on one unit multiply (G-24)")
        v, more = strength.hex_defence(
            h, frac(ctx.options.get("lone_leader_defence", 1)), len(leaders), halving
        )
        lines.extend(more)
        defence += v
        disrupted[t] = any(ctx.state.unit(x.id).status.get("disrupted") for x in defenders)
    groups = []
    for ah in att_hexes:
        here = [a for a in attackers if a.hex == ah]
        atts = []
        for a in here:
            mult, tname = _terrain_mult(ctx, ah, "attacker")
            up = ""
            if ctx.options.get("elevation") and a.klass in ("A", "B"):
                mine = hexmap.elevation(ctx, ah, "elevation [14.1]")
                for t in targets:
                    up = strength.elevation_halves(
                        a.klass,
                        mine,
                        hexmap.elevation(ctx, t, "elevation [14.1]"),
                        bool(ctx.options.get("elevation_ground_hilltop", True)),
                    )
                    if up:
                        break
            atts.append(
                strength.Attacker(
                    a.id, a.label, a.klass, a.melee_attack, a.code, mult, tname, Fraction(1), up
                )
            )
        bonuses = [
            leader_values(ctx.state, ctx.ruleset, x.grade)["bonus"]
            for x in (info(ctx.state, ctx.ruleset, u) for u in units_at(ctx.state, ah) if u.side == side)
            if x.is_leader
        ]
        groups.append(strength.AttackGroup(ah, atts, bonuses))
    is_flank = is_flank_attack(ctx, targets, att_hexes, flank)
    attack, more = strength.attack_total(groups, is_flank)
    lines = more + lines
    lines.append(f"defence total {ftext(defence)}")
    return MeleePlan(attackers, targets, attack, defence, lines, disrupted)


def roll_melee(
    ctx: Ctx, p: MeleePlan, side: str, purpose: str, shift: int = 0, die_mod: int = 0, capped_mod: int = 0
) -> list[crt.Reading]:
    for line in p.lines:
        ctx.explain(line)
    _col, readings, _roll = crt.resolve(
        ctx,
        ctx.options,
        p.attack,
        p.defence,
        [(t, p.disrupted[t]) for t in p.targets],
        purpose,
        shift=shift,
        die_mod=die_mod,
        side=side,
        capped_mod=capped_mod,
    )
    return readings


def offer_advance(ctx: Ctx, candidates: list[Info], h: str, side: str, key: str,
                  old_key: str = "") -> list[str]:
    """Advance after combat into a vacated hex, at once and within stacking limits [8.4].
    The decision is ``advance:<key>``; ``advance:<old_key>`` (the id with the Player-Turn
    that earlier versions used) still answers it."""
    able = [
        c
        for c in candidates
        if ctx.state.unit(c.id).status.get("state") == "active"
        and not ctx.state.unit(c.id).status.get("disrupted")
        and not int(ctx.state.unit(c.id).status.get("contact", 0) or 0)
    ]
    if not able:
        return []
    answer = ctx.decide(
        Decision(
            id=f"advance:{key}",
            aliases=(f"advance:{old_key}",) if old_key else (),
            kind="multi",
            prompt=f"{h} is empty: which attackers advance into it?",
            options=tuple(Option(c.id, f"{c.label} ({c.hex})") for c in able),
            min=0,
            max=len(able),
            side=side,
            default=[],
            info=("advance now or not at all; stacking limits apply [8.4]",),
        )
    )
    chosen = [str(x) for x in answer]
    if chosen:
        extra = [c for c in able if c.id in chosen]
        problem = movement.hex_problem(ctx, side, h, extra)
        if problem:
            raise ActionRejected(f"advance: {problem}")
        for c in extra:
            movement.place(ctx, c.id, h)
        movement.mark_control(ctx, [h])
        ctx.explain(f"advance after combat into {h}: {', '.join(c.label for c in extra)} [8.4]")
    return chosen
