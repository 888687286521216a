"""The digest's formulas (section 5) and table procedures as calculators, addressable by the
digest's identifiers: ``campaign-tui calc prefect 5.7 defense=6 crt_mod=1 --dice 7``.

Each takes plain values and a resolver (which rolls and looks tables up), explains every
step, and returns its answer. The phase machine uses the same underlying functions.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.prefect import detection as det
from rulesets.prefect import saves as sv
from rulesets.prefect.board import MISSIONS, TERRAINS
from rulesets.prefect.checks import fmt_mods, roll_check, target_test
from rulesets.prefect.crt import COLUMNS, column_index, parse_cell, planetary_shifter, shift_choices
from rulesets.prefect.movement import movement_allowance, zoc_covers
from rulesets.prefect.space import (
    even_fill_ok,
    even_fill_valid,
    fighter_capacity,
    interceptor_eligible,
    marine_base_defense,
    parse_sector,
    sector_name,
)
from rulesets.prefect.supply import base_displacement, manufacturing, rearm_cost
from rulesets.prefect.victory import next_attacker, parse_award

SIGNAL_ESM, SIGNAL_SIG = 3, -3  # a Signal Century's ESM and Sig, counted once per task force (5.3)


def ints(value: Any) -> list[int]:
    if value in (None, ""):
        return []
    if isinstance(value, list):
        return [int(v) for v in value]
    return [int(v) for v in str(value).split(",") if v.strip()]


def _p(name: str, type_: str = "int", help: str = "", **kw: Any) -> Param:
    return Param(name, type_, help=help, **kw)


def _check(
    r: Resolver, purpose: str, parts: list[tuple[str, int]], side: str | None = None
) -> tuple[bool, str]:
    c = roll_check(r, purpose, parts, side=side)
    return c.passed, c.text()


# -- 5.0 -----------------------------------------------------------------------------------------
def p_target(r: Resolver, target: int, natural: int | None = None) -> Calc:
    if natural is None:
        ok, text = _check(r, "target-number roll", [("target", target)])
        return Calc(ok, f"{'succeeds' if ok else 'fails'}: {text}")
    ok, auto = target_test(natural, target)
    why = {"success": " (a natural 1 always succeeds)", "failure": " (a natural 10 always fails)"}.get(
        auto or "", ""
    )
    r.explain(f"natural {natural} against {target}{why}")
    return Calc(ok, f"{'succeeds' if ok else 'fails'}{why}")


# -- 5.1 / 5.2 -----------------------------------------------------------------------------------
def p_movement(
    r: Resolver,
    combat_units: int,
    hq: bool = False,
    mode: str = "combat",
    role: str = "attacker",
    nongrav: bool = False,
    side: str = "TOG",
    manus_primus: bool = False,
) -> Calc:
    value, lines = movement_allowance(
        combat_units,
        hq,
        mode,
        role,
        nongrav,
        side,
        manus_primus,
        str(r.options.get("movement_clamp", "after")),
        int(r.options.get("counter_move_zero", 3)),
    )
    for line in lines:
        r.explain(line)
    return Calc(value, f"{value} hexes")


def p_zoc(
    r: Resolver,
    terrain: str = "clear",
    mover_mode: str = "combat",
    adjacent: bool = True,
    defender_mode: str = "combat",
    turn_defender: bool = True,
    base_in_hex: bool = False,
) -> Calc:
    blocked_t = bool(r.lookup("T3", terrain=terrain, effect="zoc_blocked").value)
    blocked = blocked_t or base_in_hex
    r.explain(
        f"hex terrain {terrain}: {'blocks' if blocked_t else 'does not block'} ZOC against Combat-mode movers"
        + ("; a base in the hex blocks it" if base_in_hex else "")
    )
    covers = zoc_covers(defender_mode == "combat", turn_defender, adjacent, mover_mode, blocked)
    return Calc(covers, "the zone of control reaches the hex" if covers else "no zone of control there")


# -- 5.3 --------------------------------------------------------------------------------------
def p_detection(
    r: Resolver,
    esm: Any,
    sig: Any,
    announced: int | None = None,
    detector_signal: bool = False,
    target_signal: bool = False,
    terrain: str = "clear",
    target_laf: bool = False,
    base_ratings: Any = None,
) -> Calc:
    esm_max = det.tf_esm(ints(esm), SIGNAL_ESM if detector_signal else None)
    lo, hi = det.announced_range(esm_max)
    said = hi if announced is None else announced
    if not lo <= said <= hi:
        raise InvalidInput(f"the detecting task force may announce {lo}-{hi}, not {said}")
    total_sig = det.tf_sig(ints(sig), SIGNAL_SIG if target_signal else None)
    r.explain(
        f"maximum ESM {esm_max} (Signal counted once: {'+3' if detector_signal else 'none'}); "
        f"announced {said}"
    )
    r.explain(f"target Sig {total_sig}" + (" (Signal -3 once)" if target_signal else ""))
    mod = int(r.lookup("T3", terrain=terrain, effect="detection").value) if not target_laf else 0
    laf_mod = int(r.lookup("T3", terrain="task force at LAF", effect="detection").value)
    t = det.planetary_target(
        said,
        total_sig,
        target_laf,
        mod,
        ints(base_ratings),
        bool(r.options.get("laf_ignores_bases", True)),
        laf_mod,
    )
    r.explain(f"target {fmt_mods(t.parts)} = {t.value}")
    ok, text = _check(r, "detection", t.parts)
    return Calc(
        {"target": t.value, "detected": ok},
        f"target {t.value}: {'detected' if ok else 'not detected'} ({text})",
    )


# -- 5.4 / 5.5 / 5.6 / T4 ---------------------------------------------------------------------
def p_ground_totals(
    r: Resolver,
    attacks: Any = None,
    attack_fatigue: int = 0,
    defenses: Any = None,
    defense_fatigue: int = 0,
    terrain: str = "clear",
    defender_laf: bool = False,
    base_ratings: Any = None,
    attack_support: Any = None,
    defense_support: Any = None,
) -> Calc:
    floor = bool(r.options.get("attack_floor_zero", True))

    def val(v: int, f: int) -> int:
        return max(0, v - f) if floor else v - f

    a = sum(val(v, attack_fatigue) for v in ints(attacks)) + sum(ints(attack_support))
    d = sum(val(v, defense_fatigue) for v in ints(defenses))
    df = int(r.lookup("T3", terrain=terrain, effect="defense").value)
    if defender_laf and not r.options.get("laf_terrain_defense", False):
        r.explain(f"terrain {terrain}: no defense factor for a task force in LAF (G11)")
    else:
        d += df
        r.explain(f"terrain {terrain}: +{df}")
    d += sum(ints(base_ratings)) + sum(ints(defense_support))
    r.explain(
        f"attack total {a} (each unit's attack less {attack_fatigue} fatigue"
        + (", naval support added" if ints(attack_support) else "")
        + ")"
    )
    r.explain(f"defense total {d}")
    col = column_index(a, d)
    return Calc({"attack": a, "defense": d, "column": COLUMNS[col]}, f"{a} : {d} -> {COLUMNS[col]}")


def p_odds(r: Resolver, attack: int, defense: int) -> Calc:
    look = r.lookup("T4", roll=1, odds=(attack, defense))
    r.explain(look.explanation[0])
    return Calc(look.labels["odds"], f"{attack}:{defense} -> {look.labels['odds']}")


def p_shift(
    r: Resolver,
    attack: int,
    defense: int,
    attacker_detected: bool,
    defender_detected: bool,
    game: str = "planetary",
) -> Calc:
    col = column_index(attack, defense)
    if game == "space":
        if attacker_detected:
            return Calc([], "the combat attacker was detected: no shift in space")
        opts = [s for s in (0, 1) if 0 <= col + s < len(COLUMNS)]
        return Calc(
            [COLUMNS[col + s] for s in opts], "the undetected combat attacker may shift one column right"
        )
    who = planetary_shifter(attacker_detected, defender_detected)
    if who is None:
        return Calc([], "both or neither side detected: no shift")
    opts = shift_choices(col)
    cols = [COLUMNS[col + s] for s in opts]
    r.explain(
        f"from {COLUMNS[col]} the {who} may choose {', '.join(cols)} (no column beyond the table's end, G12)"
    )
    return Calc(cols, f"the {who} (undetected) chooses among {', '.join(cols)}")


def p_cell(r: Resolver, cell: str) -> Calc:
    c = parse_cell(cell)
    r.explain(f"combat attacker: modifier {c.att_mod:+d}" + (f", {c.att_flag}" if c.att_flag else ""))
    r.explain(f"combat defender: modifier {c.def_mod:+d}" + (f", {c.def_flag}" if c.def_flag else ""))
    return Calc(
        {"att_mod": c.att_mod, "att_flag": c.att_flag, "def_mod": c.def_mod, "def_flag": c.def_flag},
        f"attacker {c.att_mod:+d}{c.att_flag or ''} / defender {c.def_mod:+d}{c.def_flag or ''}",
    )


def p_combat(r: Resolver, attack: int, defense: int, shift: int = 0, roll: int | None = None) -> Calc:
    if roll is None:
        roll = r.roll("1d10", "combat result (T4)", table="T4").natural
    look = r.lookup("T4", roll=roll, odds=(attack, defense), shifts={"odds": shift} if shift else None)
    for line in look.explanation:
        r.explain(line)
    return Calc(look.value, f"{look.labels.get('odds')}, roll {roll}: {look.value}")


# -- 5.7 -----------------------------------------------------------------------------------------
def p_ground_save(
    r: Resolver,
    defense: int,
    crt_mod: int = 0,
    fatigue: int = 0,
    role: str = "combat",
    artillery: bool = False,
    only_combat_unit: bool = False,
    side_broken: bool = False,
    nongrav: bool = False,
    disrupted: bool = False,
    moved_laf: bool = False,
    engineer: bool = False,
) -> Calc:
    if not sv.ground_must_save(
        role, "artillery" if artillery else "", only_combat_unit, side_broken, disrupted
    ):
        return Calc(
            "no roll",
            "this unit makes no saving roll"
            + (" (support: only on BT/CA)" if role == "support" else " (artillery: only on BT/CA or alone)"),
        )
    laf = sv.laf_modifier(str(r.options.get("laf_save_mod", "+2"))) if moved_laf else 0
    eng = 0
    if engineer and role == "combat":
        eng = 1 if r.options.get("engineer_mode", "help") == "help" else -1
    parts = sv.ground_target(defense, fatigue, crt_mod, laf, eng)
    ok, text = _check(r, "ground saving roll", parts)
    outcome = sv.ground_outcome(ok, side_broken, nongrav, disrupted)
    return Calc(
        {"target": sum(v for _, v in parts), "outcome": outcome},
        f"target {sum(v for _, v in parts)}: {text} -> {outcome}",
    )


# -- 5.9 -----------------------------------------------------------------------------------------
def p_fatigue(r: Resolver, current: int, game: str = "planetary", merged_with: int | None = None) -> Calc:
    if merged_with is not None:
        new = max(current, merged_with)
        r.explain(f"a merged task force takes the higher fatigue: max({current}, {merged_with}) = {new}")
        return Calc(new, f"fatigue {new}")
    if current >= 3:
        if game == "space":
            return Calc(3, "already at 3: its units are disrupted and it stays at 3")
        return Calc(3, "already at 3 (no attacks, no overruns)")
    return Calc(
        current + 1, f"fatigue {current} -> {current + 1} (each level: -1 attack and defense per unit)"
    )


# -- 5.11 ----------------------------------------------------------------------------------------
def p_rearm(r: Resolver, units: int, levels: int) -> Calc:
    cost = rearm_cost(units, levels)
    r.explain(f"{units} units x {levels} level(s): every unit of the task force is paid for")
    return Calc(cost, f"{cost} SP")


def p_reorganize(r: Resolver, unit: str) -> Calc:
    look = r.lookup("T6", unit=unit)
    if not str(look.value).lstrip("-").isdigit() or str(look.value) == "-":
        return Calc(None, f"{unit} cannot be reorganized")
    return Calc(int(look.value), f"{look.value} SP")


def p_rebuild(r: Resolver, unit: str) -> Calc:
    exc = r.tables.get("T6b")
    if unit in exc.axes[0].labels:
        v = int(r.lookup("T6b", unit=unit).value)
        return Calc(v, f"{v} SP (exception)")
    look = r.lookup("T6", unit=unit)
    if str(look.value) == "-":
        return Calc(None, f"{unit} cannot be rebuilt at twice a cost it does not have")
    r.explain(f"twice the T6 cost of {look.value}")
    return Calc(2 * int(look.value), f"{2 * int(look.value)} SP")


def p_construction(r: Resolver, base: str) -> Calc:
    c = int(r.lookup("T7", base=base, field="centuries").value)
    sp = int(r.lookup("T7", base=base, field="sp").value)
    if base == "GL4" and not r.options.get("gl4_buildable", False):
        r.explain("GL4 may be built only if the scenario says so (G43)")
    return Calc({"centuries": c, "sp": sp}, f"{c} Construction Engineer Centuries, {sp} SP")


def p_storage(r: Resolver, holder: str, stored: int = 0, incoming: int = 0) -> Calc:
    cap = int(r.lookup("T5", holder=holder).value)
    new = min(cap, stored + incoming)
    lost = stored + incoming - new
    return Calc({"cap": cap, "stored": new, "lost": lost}, f"cap {cap}: {new} stored, {lost} lost")


# -- 5.13 ---------------------------------------------------------------------------------------
def p_fighters(r: Resolver, ftrs: Any, flights: int) -> Calc:
    cap, surplus = fighter_capacity(ints(ftrs), flights)
    r.explain(f"starships lift {cap} flights; {flights} carried flights (Independent flights need no space)")
    return Calc(
        {"capacity": cap, "surplus": surplus},
        f"capacity {cap}" + (f": destroy {surplus} to move" if surplus else ": the task force may move"),
    )


def p_tspace(r: Resolver, turns: int, starship_sigs: Any = None, independent_sigs: Any = None) -> Calc:
    mod = int(r.lookup("T8", turns=turns).value)
    t = det.tspace_target(ints(starship_sigs), ints(independent_sigs), mod)
    r.explain(f"target {fmt_mods(t.parts)} = {t.value}")
    ok, text = _check(r, "T-space detection", t.parts)
    return Calc(
        {"target": t.value, "detected": ok},
        f"target {t.value}: {'detected' if ok else 'not detected'} ({text})",
    )


def p_nspace(
    r: Resolver,
    defense_esms: Any = None,
    base_esms: Any = None,
    committed_sigs: Any = None,
    mission: str = "attack",
) -> Calc:
    t = det.nspace_target(ints(defense_esms), ints(base_esms), ints(committed_sigs), mission)
    r.explain(f"target {fmt_mods(t.parts)} = {t.value}")
    ok, text = _check(r, "N-space detection", t.parts)
    return Calc(
        {"target": t.value, "detected": ok},
        f"target {t.value}: {'detected' if ok else 'not detected'} ({text})",
    )


def p_interceptors(r: Resolver, committed_esms: Any = None, interceptor_sigs: Any = None) -> Calc:
    t = det.interceptor_target(ints(committed_esms), ints(interceptor_sigs))
    r.explain(f"target {fmt_mods(t.parts)} = {t.value}")
    ok, text = _check(r, "detecting the interceptors", t.parts)
    return Calc(
        {"target": t.value, "detected": ok},
        f"target {t.value}: {'detected' if ok else 'not detected'} ({text})",
    )


def p_eligible(r: Resolver, thrust: int, committed_thrusts: Any) -> Calc:
    ok = interceptor_eligible(thrust, ints(committed_thrusts))
    low = min(ints(committed_thrusts)) if ints(committed_thrusts) else None
    return Calc(
        ok,
        f"thrust {thrust} against the lowest committed thrust {low}: {'may' if ok else 'may not'} intercept",
    )


def p_withdrawal_detection(
    r: Resolver, defense_esms: Any = None, base_esms: Any = None, withdrawing_sigs: Any = None
) -> Calc:
    t = det.withdrawal_target(ints(defense_esms), ints(base_esms), ints(withdrawing_sigs))
    ok, text = _check(r, "detecting a withdrawing task force", t.parts)
    return Calc(
        {"target": t.value, "detected": ok},
        f"target {t.value}: {'detected' if ok else 'not detected'} ({text})",
    )


def p_recon(r: Resolver, recon_esms: Any, segment_sig: int) -> Calc:
    t = det.recon_target(ints(recon_esms), segment_sig)
    ok, text = _check(r, "recon detection", t.parts)
    return Calc(
        {"target": t.value, "detected": ok},
        f"target {t.value}: {'detected' if ok else 'not detected'} ({text})",
    )


def p_space_save(
    r: Resolver,
    defense: int,
    crt_mod: int = 0,
    fatigue: int = 0,
    own_mission: str = "none",
    enemy_mission: str = "none",
    combat_attacker: bool = False,
    enemy_disrupted: bool = False,
    side_broken: bool = False,
    disrupted: bool = False,
) -> Calc:
    mods = sv.space_mission_mods(
        None if own_mission == "none" else own_mission,
        None if enemy_mission == "none" else enemy_mission,
        combat_attacker,
        enemy_disrupted,
    )
    parts = [("defense", defense)] + ([("fatigue", -fatigue)] if fatigue else []) + [("CRT", crt_mod)] + mods
    ok, text = _check(r, "space saving roll", parts)
    outcome = sv.space_outcome(ok, side_broken, disrupted)
    return Calc(
        {"target": sum(v for _, v in parts), "outcome": outcome},
        f"target {sum(v for _, v in parts)}: {text} -> {outcome}",
    )


def p_base_save(
    r: Resolver, friendly_naval: bool, side_broken: bool = False, disrupted: bool = False
) -> Calc:
    b = sv.orbital_base_save(friendly_naval, side_broken, disrupted)
    return Calc({"rolls": b.rolls, "pass": b.on_pass, "fail": b.on_fail}, b.reason)


def p_marines(r: Resolver, base_class: int, marines: int) -> Calc:
    d = marine_base_defense(base_class, marines)
    return Calc(
        d, f"defense {d} (class {base_class} + {marines} Marine Cohorts; the printed defense is not used)"
    )


def p_even_fill(r: Resolver, counts: Any, segment: int | None = None) -> Calc:
    c = ints(counts)
    if segment is None:
        ok = even_fill_valid(c)
        return Calc(ok, f"{c} is {'an even' if ok else 'not an even'} fill")
    ok = even_fill_ok(c, segment - 1)
    return Calc(ok, f"segment {segment} {'may' if ok else 'may not'} take another orbital base ({c})")


def p_displacement(r: Resolver, unit: str = "All other units", base_class: int | None = None) -> Calc:
    if base_class is not None:
        v = base_displacement(base_class)
        return Calc(v, f"{v} SP (20 per class level)")
    look = r.lookup("T10", unit=unit)
    return Calc(int(look.value), f"{look.value} SP")


def p_naval_rearm(r: Resolver, units: int, levels: int = 1) -> Calc:
    cost = rearm_cost(units, levels)
    return Calc(cost, f"{cost} SP (1 per starship, squadron or flight per level)")


def p_sector(r: Resolver, text: str) -> Calc:
    z, s = parse_sector(text)
    return Calc(sector_name(z, s), f"zone {z}, sector {s} = {sector_name(z, s)}")


# -- 5.14 ---------------------------------------------------------------------------------------
def p_support_save(
    r: Resolver,
    kind: str,
    defense: int = 0,
    crt_mod: int = 0,
    fatigue: int = 0,
    enemy_air_defense: int = 0,
    attacking_base_rating: int = 0,
) -> Calc:
    if kind == "starship":
        if attacking_base_rating:
            parts = [("defense", defense)] + ([("fatigue", -fatigue)] if fatigue else [])
            ok, text = _check(r, "starship support save (unmodified, against a base)", parts)
            return Calc(ok, f"{text}")
        if enemy_air_defense <= 0:
            return Calc(True, "no enemy air defense: the starship makes no save")
        roll = r.roll("1d10", "starship support save (fails only on a 10)")
        _, ok = sv.support_starship_save(enemy_air_defense, roll.natural)
        return Calc(ok, f"natural {roll.natural}: {'passes' if ok else 'fails'}")
    parts = sv.ground_target(defense, fatigue, crt_mod, air_defense=enemy_air_defense)
    if attacking_base_rating:
        mode = r.options.get("supported_fighter_mod", "minus_rating")
        if mode == "minus_rating":
            parts.append(("attacking a base (G23)", -attacking_base_rating))
        elif mode == "minus_defense":
            parts.append(("attacking a base (G23, literal)", -defense))
    ok, text = _check(r, "fighter support save", parts)
    return Calc(
        {"target": sum(v for _, v in parts), "passed": ok}, f"target {sum(v for _, v in parts)}: {text}"
    )


def p_naval_esm(r: Resolver, starship_esms: Any = None, fighter_esms: Any = None) -> Calc:
    v = det.naval_esm(ints(starship_esms), ints(fighter_esms))
    return Calc(v, f"naval ESM {v} (starships -2 each, fighters unchanged)")


def p_manufacturing(r: Resolver, sp: int) -> Calc:
    v = manufacturing(sp)
    return Calc(v, f"{sp} SP count as {v} at a GL4 (x1.25, rounded down)")


# -- 5.15 / 5.16 / T13 / T14 ----------------------------------------------------------------------
def p_tempo(r: Resolver, attacker: str, score_attacker: int, score_defender: int) -> Calc:
    defender = "CW" if attacker == "TOG" else "TOG"
    nxt = next_attacker(attacker, defender, {attacker: score_attacker, defender: score_defender})
    r.explain(
        f"{attacker} {score_attacker} against {defender} {score_defender}: the Attacker stays only when "
        "strictly higher"
    )
    return Calc(nxt, f"{nxt} attacks next turn")


def p_vp(r: Resolver, unit: str, kind: str = "ground") -> Calc:
    if kind == "ground":
        calc = p_rebuild(r, unit)
        return Calc(calc.value or 0, f"{calc.value or 0} VP (its rebuild cost)")
    factor = int(r.options.get("naval_vp_factor", "2"))
    cost = int(r.lookup("T9", unit=unit).value)
    return Calc(factor * cost, f"{factor * cost} VP ({factor} x T9 {cost}, G26)")


def p_htl(r: Resolver, sp: int) -> Calc:
    look = r.lookup("T13", sp=sp)
    side, amount = parse_award(str(look.value))
    return Calc({"side": side, "vp": amount}, f"{sp} SP delivered: {look.value}")


def p_outcome(r: Resolver, vp_tog: int, vp_cw: int) -> Calc:
    from rulesets.prefect.chores import outcome

    out = outcome(r, {"TOG": vp_tog, "CW": vp_cw})
    return Calc(
        out,
        f"{out['result']}" + (f" for {out['winner']}" if out.get("winner") else "") + f" ({out['ratio']})",
    )


def p_centurion(r: Resolver, attacker_losses: int, defender_losses: int) -> Calc:
    mode = r.options.get("centurion_ratio", "recommended")
    if mode == "printed":
        look = r.lookup("A.5", ratio=(attacker_losses, defender_losses))
        return Calc(str(look.value), f"printed table: {look.value}")
    if attacker_losses == 0:
        res = "BT" if defender_losses > 0 else "none"
    else:
        ratio = Fraction(defender_losses, attacker_losses)
        res = (
            "BT"
            if ratio >= 3
            else "DR"
            if ratio >= 2
            else "CA"
            if ratio <= Fraction(1, 3)
            else "AR"
            if ratio <= Fraction(1, 2)
            else "none"
        )
    r.explain(
        "recommended reading (G31): defender losses / attacker losses: 3+ BT, 2+ DR, 1/3 or less CA, "
        "1/2 or less AR"
    )
    return Calc(res, f"result {res}")


def _def(
    pid: str,
    title: str,
    fn: Callable[..., Calc],
    params: tuple[Param, ...],
    aliases: tuple[str, ...],
    reference: str = "",
) -> ProcedureDef:
    return ProcedureDef(
        pid, title, fn, params, aliases, (fn.__doc__ or title), reference or (aliases[0] if aliases else "")
    )


TERR = tuple(TERRAINS)
MISS = ("none", *MISSIONS)
PROCEDURES = [
    _def(
        "target_roll",
        "Target-number roll (1 always succeeds, 10 always fails)",
        p_target,
        (_p("target"), Param.optional("natural", "int", None, min=1, max=10)),
        ("5.0",),
    ),
    _def(
        "movement",
        "Movement allowance",
        p_movement,
        (
            _p("combat_units", min=0),
            Param.optional("hq", "bool", False),
            Param.optional("mode", "choice", "combat", choices=("combat", "laf")),
            Param.optional("role", "choice", "attacker", choices=("attacker", "counteraction")),
            Param.optional("nongrav", "bool", False),
            Param.optional("side", "choice", "TOG", choices=("TOG", "CW")),
            Param.optional("manus_primus", "bool", False),
        ),
        ("5.1", "T11"),
    ),
    _def(
        "zoc",
        "Zone of control",
        p_zoc,
        (
            Param.optional("terrain", "choice", "clear", choices=TERR),
            Param.optional("mover_mode", "choice", "combat", choices=("combat", "laf")),
            Param.optional("adjacent", "bool", True),
            Param.optional("defender_mode", "choice", "combat", choices=("combat", "laf")),
            Param.optional("turn_defender", "bool", True),
            Param.optional("base_in_hex", "bool", False),
        ),
        ("5.2",),
    ),
    _def(
        "detection",
        "Planetary detection",
        p_detection,
        (
            _p("esm", "list", "ESM of the detector's non-Signal units"),
            _p("sig", "list", "Sig of the target's non-Signal units"),
            Param.optional("announced", "int", None),
            Param.optional("detector_signal", "bool", False),
            Param.optional("target_signal", "bool", False),
            Param.optional("terrain", "choice", "clear", choices=TERR),
            Param.optional("target_laf", "bool", False),
            Param.optional("base_ratings", "list", None),
        ),
        ("5.3",),
    ),
    _def(
        "ground_totals",
        "Ground combat totals and odds",
        p_ground_totals,
        (
            Param.optional("attacks", "list", None),
            Param.optional("attack_fatigue", "int", 0),
            Param.optional("defenses", "list", None),
            Param.optional("defense_fatigue", "int", 0),
            Param.optional("terrain", "choice", "clear", choices=TERR),
            Param.optional("defender_laf", "bool", False),
            Param.optional("base_ratings", "list", None),
            Param.optional("attack_support", "list", None),
            Param.optional("defense_support", "list", None),
        ),
        ("5.4", "C1"),
    ),
    _def("odds", "Odds column", p_odds, (_p("attack", min=0), _p("defense", min=0)), ("C2",)),
    _def(
        "shift",
        "Detection column shift",
        p_shift,
        (
            _p("attack", min=0),
            _p("defense", min=0),
            _p("attacker_detected", "bool"),
            _p("defender_detected", "bool"),
            Param.optional("game", "choice", "planetary", choices=("planetary", "space")),
        ),
        ("5.5", "C3"),
    ),
    _def("crt_cell", "Read a CRT cell", p_cell, (_p("cell", "str"),), ("5.6",)),
    _def(
        "combat",
        "Combat result",
        p_combat,
        (
            _p("attack", min=0),
            _p("defense", min=0),
            Param.optional("shift", "int", 0, min=-1, max=1),
            Param.optional("roll", "int", None, min=1, max=10),
        ),
        ("T4", "C4", "crt"),
    ),
    _def(
        "ground_save",
        "Ground saving roll",
        p_ground_save,
        (
            _p("defense"),
            Param.optional("crt_mod", "int", 0),
            Param.optional("fatigue", "int", 0),
            Param.optional("role", "choice", "combat", choices=("combat", "support")),
            Param.optional("artillery", "bool", False),
            Param.optional("only_combat_unit", "bool", False),
            Param.optional("side_broken", "bool", False, help="BT/CA against the unit's side"),
            Param.optional("nongrav", "bool", False),
            Param.optional("disrupted", "bool", False),
            Param.optional("moved_laf", "bool", False, help="turn Attacker's unit whose TF moved LAF"),
            Param.optional("engineer", "bool", False),
        ),
        ("5.7", "C5"),
    ),
    _def(
        "fatigue",
        "Fatigue",
        p_fatigue,
        (
            _p("current", min=0, max=3),
            Param.optional("game", "choice", "planetary", choices=("planetary", "space")),
            Param.optional("merged_with", "int", None, min=0, max=3),
        ),
        ("5.9",),
    ),
    _def("rearm", "Rearm cost", p_rearm, (_p("units", min=0), _p("levels", min=1, max=3)), ("5.11.3",)),
    _def("reorganize", "Reorganizing cost", p_reorganize, (_p("unit", "str", "T6 row"),), ("5.11.4", "T6")),
    _def("rebuild", "Rebuild cost", p_rebuild, (_p("unit", "str", "T6 row"),), ("5.11.5",)),
    _def(
        "construction",
        "Base construction",
        p_construction,
        (_p("base", "choice", choices=("GL1", "GL2", "GL3", "GL4")),),
        ("5.11.8", "T7"),
    ),
    _def(
        "storage",
        "Supply storage",
        p_storage,
        (
            _p("holder", "choice", choices=("GL1", "GL2", "GL3", "GL4", "Legion HQ", "Auxilia HQ")),
            Param.optional("stored", "int", 0),
            Param.optional("incoming", "int", 0),
        ),
        ("5.11.6", "T5"),
    ),
    _def(
        "fighter_capacity",
        "Fighter transport",
        p_fighters,
        (_p("ftrs", "list"), _p("flights", min=0)),
        ("5.13.1",),
    ),
    _def(
        "tspace_detection",
        "T-space detection",
        p_tspace,
        (_p("turns", min=0),
         Param.optional("starship_sigs", "list", None),
         Param.optional("independent_sigs", "list", None)),
        ("5.13.2", "T8"),
    ),
    _def(
        "nspace_detection",
        "N-space detection",
        p_nspace,
        (
            Param.optional("defense_esms", "list", None),
            Param.optional("base_esms", "list", None),
            Param.optional("committed_sigs", "list", None),
            Param.optional("mission", "choice", "attack", choices=MISSIONS),
        ),
        ("5.13.3",),
    ),
    _def(
        "interceptor_detection",
        "Detecting the interceptors",
        p_interceptors,
        (Param.optional("committed_esms", "list", None), Param.optional("interceptor_sigs", "list", None)),
        ("5.13.4",),
    ),
    _def(
        "intercept_eligible",
        "Interceptor eligibility",
        p_eligible,
        (_p("thrust"), _p("committed_thrusts", "list")),
        ("M3",),
    ),
    _def(
        "withdrawal_detection",
        "Detecting a withdrawing task force",
        p_withdrawal_detection,
        (Param.optional("defense_esms", "list", None),
         Param.optional("base_esms", "list", None),
         Param.optional("withdrawing_sigs", "list", None)),
        ("5.13.10",),
    ),
    _def("recon", "Recon detection", p_recon, (_p("recon_esms", "list"), _p("segment_sig")), ("G35",)),
    _def(
        "space_save",
        "Space saving roll",
        p_space_save,
        (
            _p("defense"),
            Param.optional("crt_mod", "int", 0),
            Param.optional("fatigue", "int", 0),
            Param.optional("own_mission", "choice", "none", choices=MISS),
            Param.optional("enemy_mission", "choice", "none", choices=MISS),
            Param.optional("combat_attacker", "bool", False),
            Param.optional("enemy_disrupted", "bool", False),
            Param.optional("side_broken", "bool", False),
            Param.optional("disrupted", "bool", False),
        ),
        ("5.13.6", "T12"),
    ),
    _def(
        "base_save",
        "Orbital base saving roll",
        p_base_save,
        (_p("friendly_naval", "bool"),
         Param.optional("side_broken", "bool", False),
         Param.optional("disrupted", "bool", False)),
        ("5.13.7",),
    ),
    _def(
        "marine_defense",
        "Base defense against Marines",
        p_marines,
        (_p("base_class", min=1, max=6), _p("marines", min=0)),
        ("5.13.12",),
    ),
    _def(
        "even_fill",
        "Orbital base placement",
        p_even_fill,
        (_p("counts", "list"), Param.optional("segment", "int", None, min=1, max=10)),
        ("5.13.13", "T16"),
    ),
    _def(
        "displacement",
        "Transport space",
        p_displacement,
        (Param.optional("unit", "str", "All other units"),
         Param.optional("base_class", "int", None, min=1, max=6)),
        ("T10", "5.14.4"),
    ),
    _def(
        "naval_rearm",
        "Naval rearm cost",
        p_naval_rearm,
        (_p("units", min=0), Param.optional("levels", "int", 1)),
        ("5.13.11",),
    ),
    _def("sector", "Sector notation", p_sector, (_p("text", "str"),), ("W33",)),
    _def(
        "support_save",
        "Naval ground-support save",
        p_support_save,
        (
            _p("kind", "choice", choices=("fighter", "starship")),
            Param.optional("defense", "int", 0),
            Param.optional("crt_mod", "int", 0),
            Param.optional("fatigue", "int", 0),
            Param.optional("enemy_air_defense", "int", 0),
            Param.optional("attacking_base_rating", "int", 0),
        ),
        ("5.14.1", "5.14.2"),
    ),
    _def(
        "naval_esm",
        "Naval ESM against a task force",
        p_naval_esm,
        (Param.optional("starship_esms", "list", None), Param.optional("fighter_esms", "list", None)),
        ("5.14.3",),
    ),
    _def("manufacturing", "GL4 manufacturing", p_manufacturing, (_p("sp", min=0),), ("5.14.9",)),
    _def(
        "tempo",
        "Next Attacker",
        p_tempo,
        (
            _p("attacker", "choice", choices=("TOG", "CW")),
            _p("score_attacker", min=0),
            _p("score_defender", min=0),
        ),
        ("5.15",),
    ),
    _def(
        "victory_points",
        "VP for a destroyed unit",
        p_vp,
        (
            _p("unit", "str", "T6 (ground) or T9 (naval) row"),
            Param.optional("kind", "choice", "ground", choices=("ground", "naval")),
        ),
        ("5.16",),
    ),
    _def("htl_supply", "Holding the Line supply VP", p_htl, (_p("sp", min=0),), ("T13",)),
    _def("outcome", "Victory level", p_outcome, (_p("vp_tog", min=0), _p("vp_cw", min=0)), ("T14", "2.8")),
    _def(
        "centurion_result",
        "Centurion battle result",
        p_centurion,
        (_p("attacker_losses", min=0), _p("defender_losses", min=0)),
        ("G31", "A.5"),
    ),
]
