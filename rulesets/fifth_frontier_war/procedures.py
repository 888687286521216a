"""The digest's section-5 procedures, for ``campaign-tui calc fifth_frontier_war <proc>`` and the
resolve dialog. Each is addressable by its digest identifier (``5.7``, ``T2``, ``WE-23``...)."""

from __future__ import annotations

import json
from typing import Any

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.fifth_frontier_war import combat_procs as CP
from rulesets.fifth_frontier_war import formulas as F
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war import procs_command_control as CC
from rulesets.fifth_frontier_war import procs_logistics as LG
from rulesets.fifth_frontier_war import procs_map_rules as MR
from rulesets.fifth_frontier_war.hexes import jump_distance


def _json(value: Any, what: str) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{what}: not valid JSON ({exc.msg})") from None


# -- combat ----------------------------------------------------------------------------------------
def p_split(r: Resolver, total: str, top: int = 48) -> Calc:
    parts = F.split(F.frac(total), int(top))
    cols = [F.column(p, F.SPACE_COLUMNS if int(top) == 48 else F.SDB_COLUMNS) for p in parts]
    r.explain(f"{total} -> " + " + ".join(F.fmt(p) for p in parts) if parts else f"{total}: no attack")
    for p, c in zip(parts, cols):
        r.explain(
            f"{F.fmt(p)} factors fire on the {c} column" if c else f"{F.fmt(p)}: below the first column"
        )
    return Calc(
        [F.fmt(p) for p in parts],
        f"{len(parts)} attack(s): "
        + ", ".join(f"{F.fmt(p)} on {c or 'no column'}" for p, c in zip(parts, cols)),
    )


def p_space_fire(
    r: Resolver, attack: str, tactical_mod: int = 0, quality_shift: int = 0, shift_part: int = 1
) -> Calc:
    return CP.space_fire(r, F.frac(attack), int(tactical_mod), int(quality_shift), int(shift_part) - 1)


def p_tactical(r: Resolver, tf_a: int, tf_b: int) -> Calc:
    a, b = F.tactical_modifiers(int(tf_a), int(tf_b))
    r.explain(f"tactical factors {tf_a} and {tf_b}: modifiers {a:+d} and {b:+d}")
    return Calc([a, b], f"{a:+d} / {b:+d}")


def p_quality(r: Resolver, regular_attack: str, total_attack: str, zero_attack: str = "") -> Calc:
    q = F.side_quality(
        F.frac(regular_attack),
        F.frac(total_attack),
        zero_attack or str(r.options.get("zero_attack_quality", "standard")),
    )
    r.explain(
        f"regular {regular_attack} against half of {total_attack} = {F.fmt(F.frac(total_attack) / 2)}: {q}"
    )
    return Calc(q, q)


def p_quality_shift(r: Resolver, firing: str, target: str) -> Calc:
    look = CP.lookup(r, "T9", firing=firing, target=target)
    return Calc(int(look.value), f"column shift {int(look.value):+d}")


def p_allocate(r: Resolver, result: int, squadrons: Any) -> Calc:
    """squadrons: JSON list of {"id", "defense", "reduced_defense" (null: no back), "reduced"}."""
    data = _json(squadrons, "squadrons")
    hulls = [
        CP.Hull(
            str(d["id"]),
            int(d["defense"]),
            None if d.get("reduced_defense") is None else int(d["reduced_defense"]),
            bool(d.get("reduced", False)),
        )
        for d in data
    ]
    choice = CP.minimal_allocation(int(result), hulls)
    lost = CP.allocation_loss(hulls, choice) if choice else 0
    r.explain(f"smallest loss covering {result}: {lost} defense factors")
    return Calc(choice, ", ".join(f"{k} {v}" for k, v in choice.items()) or "nothing to take")


def p_squadrons_vs_sdb(r: Resolver, bombard: str, sdb_full: int, sdb_tl: int, passive: Any = False) -> Calc:
    return CP.squadrons_vs_sdb(r, F.frac(bombard), int(sdb_full), int(sdb_tl), F.truthy(passive))


def p_sdb_fire(r: Resolver, sdb_current: int, sdb_tl: int) -> Calc:
    return CP.sdb_fire(r, int(sdb_current), int(sdb_tl))


def p_bomb(r: Resolver, bombard: str, target_tl: int) -> Calc:
    return CP.bomb_target(r, F.frac(bombard), int(target_tl))


def p_sdb_bombardment(r: Resolver, sdb_current: int) -> Calc:
    value = CP.sdb_bombardment(int(sdb_current), str(r.options.get("sdb_bombard_fraction", "keep")))
    r.explain(f"current {sdb_current} / 10 = {F.fmt(value)}")
    return Calc(F.fmt(value), f"bombardment {F.fmt(value)}")


def p_surface(
    r: Resolver, firing: str, defending: str, firer_tl: int, target_tl: int, atmosphere: str = "breathable"
) -> Calc:
    return CP.surface_attack(r, F.frac(firing), F.frac(defending), int(firer_tl), int(target_tl), atmosphere)


def p_odds(r: Resolver, firing: str, defending: str, shift: int = 0) -> Calc:
    look = CP.lookup(
        r,
        "T5",
        roll=7,
        odds=(F.frac(firing), F.frac(defending)),
        shifts={"odds": int(shift)} if shift else None,
    )
    return Calc(look.labels["odds"], f"{firing}:{defending} -> {look.labels['odds']}")


def p_strength_modifiers(
    r: Resolver,
    current: str,
    armor: Any = False,
    elite: Any = False,
    mercenary: Any = False,
    loss: int = 0,
    firing: Any = True,
) -> Calc:
    value = F.combat_strength(
        F.frac(current),
        F.truthy(armor),
        F.truthy(elite),
        F.truthy(mercenary),
        int(loss),
        F.truthy(firing),
        str(r.options.get("doubling", "fire_and_defend")),
        str(r.options.get("mercenary_halving", "fire_exact")),
    )
    r.explain(
        f"current {current}"
        + (" x2 armor" if F.truthy(armor) else "")
        + (" x2 elite" if F.truthy(elite) else "")
        + (
            " halved (mercenary over 50% losses, firing)"
            if F.truthy(mercenary) and int(loss) > 50 and F.truthy(firing)
            else ""
        )
    )
    return Calc(F.fmt(value), f"surface-combat strength {F.fmt(value)}")


def p_strength(r: Resolver, full: str, loss: int) -> Calc:
    return CP.strength(r, F.frac(full), int(loss))


def p_add_loss(r: Resolver, loss: int, result: int) -> Calc:
    new = F.add_loss(int(loss), int(result))
    r.explain(f"{loss}% + {result}% = {new}%" + (": eliminated" if new >= 100 else ""))
    return Calc(new, f"losses {new}%" + (" (eliminated)" if new >= 100 else ""))


# -- movement and supply ---------------------------------------------------------------------------
def p_capacity(r: Resolver, sq_type: str, reduced: Any = False, defense: int = 0) -> Calc:
    cap = F.capacity(sq_type.upper(), F.truthy(reduced), int(defense))
    return Calc(cap, f"capacity {cap} troop factors")


def p_cut(r: Resolver, capacity: int, troops: Any) -> Calc:
    """troops: JSON list of [id, full, loss]."""
    data = _json(troops, "troops")
    cut = F.cut_to_capacity([(str(i), F.frac(f), int(lo)) for i, f, lo in data], int(capacity))
    return Calc(cut, ", ".join(f"{k} to {v}%" for k, v in cut.items()) or "fits as it is")


def p_distance(r: Resolver, a: str, b: str) -> Calc:
    d = jump_distance(a, b, str(r.options.get("distance_corrections", "")))
    return Calc(d, f"{a} to {b}: {d} hexes")


def p_box_cost(r: Resolver, entry: str, dest: str) -> Calc:
    d = jump_distance(entry, dest, str(r.options.get("distance_corrections", "")))
    cost = F.box_jump_cost(entry, dest, d)
    r.explain(f"1 + {d} hexes from the entry hex {entry}")
    return Calc(cost, f"jump {cost}")


def p_fleet_jump(r: Resolver, jumps: Any) -> Calc:
    values = [
        int(x) for x in (_json(jumps, "jumps") if str(jumps).startswith("[") else str(jumps).split(","))
    ]
    return Calc(min(values), f"fleet jump {min(values)} (its slowest squadron)")


def p_refuel_time(r: Resolver, source: str, code: str) -> Calc:
    look = CP.lookup(r, "T10", source=source, code=code)
    return Calc(look.value, f"{source}, {code}: {look.value}")


def p_starport(r: Resolver, starport: str, squadrons: int) -> Calc:
    zero = int(CP.lookup(r, "T11", starport=starport.upper(), item="zero_time").value)
    fuel = bool(CP.lookup(r, "T11", starport=starport.upper(), item="fuel").value)
    if not fuel:
        return Calc([0, 0], f"starport {starport}: no fuel")
    now = min(zero, int(squadrons))
    return Calc(
        [now, int(squadrons) - now], f"{now} refuel in zero time, {int(squadrons) - now} need a full phase"
    )


def p_tanker(r: Resolver, tanker_defense: int, serves: str = "squadrons", spent: Any = False) -> Calc:
    """5.15: a tanker refuels its defense factor of non-tanker squadrons, or (owner's choice)
    itself or another tanker with its whole capacity; once used, nobody until it has been
    refuelled at a non-tanker source."""
    if F.truthy(spent):
        r.explain("its capacity is used: it refuels nobody, itself included, until refuelled at a "
                  "non-tanker source")
        return Calc(0, "refuels nobody (capacity used)")
    if serves in ("itself", "tanker"):
        whom = "itself" if serves == "itself" else "one other tanker"
        r.explain(f"refuelling {whom} takes the whole capacity; the refuelled tanker may jump again "
                  "but cannot refuel others until refuelled at a non-tanker source")
        return Calc(1, f"refuels {whom} in zero time, its whole capacity")
    if serves != "squadrons":
        raise InvalidInput(f"serves: {serves!r} is not squadrons, itself or tanker")
    r.explain(f"defense factor {tanker_defense}: that many non-tanker squadrons, whatever their "
              "refuelling codes; capacity not used this turn is lost")
    return Calc(int(tanker_defense), f"refuels {tanker_defense} non-tanker squadrons in zero time, once")


def p_plot_step(r: Resolver, turn: int, pf: int, plotted: str = "") -> Calc:
    turns = {int(x) for x in str(plotted).replace(" ", "").split(",") if x}
    plot = {u: {"order": "R", "hex": "0000"} for u in turns}
    need = P.missing_turns(plot, int(turn), int(pf))
    excess = P.excess_turns(plot, int(turn), int(pf))
    r.explain(
        f"horizon turn {int(turn) + int(pf)}; to plot: {need or 'none'}; beyond the horizon (may be erased): "
        f"{excess or 'none'}"
    )
    return Calc({"plot": need, "excess": excess}, f"plot turns {need}" if need else "nothing to plot")


def _plot_arg(plot: Any) -> P.Plot:
    data = _json(plot, "plot")
    out: P.Plot = {}
    for k, v in data.items():
        out[int(k)] = P.parse_order(v) if isinstance(v, str) else dict(v)
    return out


def p_abort(r: Resolver, turn: int, here: str, plot: Any) -> Calc:
    new = P.abort(_plot_arg(plot), int(turn), here)
    return Calc(
        {str(k): P.order_text(v) for k, v in sorted(new.items())},
        ", ".join(f"t{k} {P.order_text(v)}" for k, v in sorted(new.items())),
    )


def p_insert_hold(r: Resolver, turn: int, here: str, plot: Any) -> Calc:
    new = P.insert_hold(_plot_arg(plot), int(turn), here)
    return Calc(
        {str(k): P.order_text(v) for k, v in sorted(new.items())},
        ", ".join(f"t{k} {P.order_text(v)}" for k, v in sorted(new.items())),
    )


# -- campaign -------------------------------------------------------------------------------------
def p_garrison(r: Resolver, db_full: str, garrison: str, units: int = 1) -> Calc:
    need = F.garrison_needed(F.frac(db_full))
    ok = F.garrison_holds(F.frac(garrison), F.frac(db_full), int(units))
    r.explain(
        f"1% of {db_full} = {F.fmt(need)}" if F.frac(db_full) else "no battalions: any troop unit holds it"
    )
    return Calc(ok, f"garrison {garrison}: {'holds' if ok else 'too weak, control reverts'}")


def p_guerrilla(r: Resolver, db_full: str, loss: int = 0) -> Calc:
    mode = str(r.options.get("guerrilla_fraction", "exact"))
    full = F.guerrilla_full(F.frac(db_full), mode)
    cur = F.guerrilla_current(F.frac(db_full), int(loss), mode)
    r.explain(f"full strength 10% of {db_full} = {F.fmt(full)}; at {loss}% losses {F.fmt(cur)}")
    return Calc(F.fmt(cur), f"guerrilla strength {F.fmt(cur)}")


def p_guerrilla_recovery(r: Resolver, loss: int, covert: Any = True) -> Calc:
    new = F.guerrilla_recovery(int(loss), F.truthy(covert))
    return Calc(new, f"losses {loss}% -> {new}%")


def p_rebuild_cost(r: Resolver, full: int, loss: int, armor: Any = False, to_loss: int = 0) -> Calc:
    cost = F.troop_rebuild_cost(int(full), int(loss), F.truthy(armor), int(to_loss))
    r.explain(
        f"({F.current_strength(int(full), int(to_loss))} - {F.current_strength(int(full), int(loss))})"
        + (" x 2 (armor)" if F.truthy(armor) else "")
    )
    return Calc(cost, f"{cost} troop RPs")


def p_replace_cost(r: Resolver, full: int, armor: Any = False) -> Calc:
    cost = F.troop_replace_cost(int(full), F.truthy(armor))
    return Calc(cost, f"{cost} troop RPs")


def p_rp(r: Resolver, side: str, turn: int) -> Calc:
    table = {"imperial": "T19", "zhodani": "T20"}[side]
    sq = int(CP.lookup(r, table, turn=int(turn), type="squadron").value)
    tr = int(CP.lookup(r, table, turn=int(turn), type="troop").value)
    return Calc({"squadron": sq, "troop": tr}, f"{side} turn {turn}: {sq} squadron RPs, {tr} troop RPs")


def p_reinforcements(r: Resolver) -> Calc:
    roll = r.roll("1d6", "Imperial reinforcements", table="T18")
    vals = {
        k: int(CP.lookup(r, "T18", roll=roll.natural, item=k).value) for k in ("battle", "cruiser", "fleets")
    }
    extra = " (each fleet brings an admiral and a special draw)" if vals["fleets"] else ""
    return Calc(
        vals,
        f"roll {roll.natural}: {vals['battle']} battle, {vals['cruiser']} cruiser, "
        f"{vals['fleets']} fleet(s){extra}",
    )


def p_world_vp(r: Resolver, tl: int, capital: Any = False, relation: str = "enemy") -> Calc:
    vp = F.vp_for_world(int(tl), F.truthy(capital), relation)
    return Calc(F.fmt(vp), f"{F.fmt(vp)} VP")


def p_victory(r: Resolver, d: str) -> Calc:
    mode = str(r.options.get("half_points", "truncate"))
    used = F.victory_d(F.frac(d), mode)
    look = CP.lookup(r, "T21", d=used)
    if F.frac(d) != used:
        r.explain(f"D {d} read as {used} (G-28, {mode})")
    return Calc(look.value, str(look.value))


def p_armistice(r: Resolver, d: str, turn: int, unilateral: Any = True) -> Calc:
    level = p_victory(r, d).value
    if F.truthy(unilateral) and int(turn) < 26:
        r.explain(f"turn {turn}: a Zhodani armistice is not yet allowed; play goes on")
        return Calc("not allowed", "not allowed before the end of turn 26")
    final = F.armistice_level(str(level), int(turn), F.truthy(unilateral))
    r.explain(f"{level} -> {final}")
    return Calc(final, final)


def p_tl(r: Resolver, tl: int) -> Calc:
    return Calc(CP.tl_modifier(r, int(tl)), f"TL {tl}: {CP.tl_modifier(r, int(tl)):+d}")


def p_atmosphere(r: Resolver, atmosphere: str) -> Calc:
    dm = CP.atmosphere_modifier(r, atmosphere)
    return Calc(dm, f"{atmosphere}: {dm:+d}")


def p_discovery(r: Resolver) -> Calc:
    roll = r.roll("1d6", "discovery of the build-up at 871-438", table="T24")
    look = CP.lookup(r, "T24", roll=roll.natural)
    return Calc(look.value, f"roll {roll.natural}: {look.value}")


def _p(name: str, kind: str = "str", help: str = "", required: bool = True, default: Any = None,
       choices: tuple[str, ...] = ()) -> Param:
    return Param(name, kind, help=help, required=required, default=default, choices=choices)


def _choice(name: str, choices: tuple[str, ...], help: str = "", default: Any = None) -> Param:
    """A named choice: matched without regard to case; anything else is refused."""
    return _p(name, "choice", help, default is None, default, choices)


PROCEDURES: list[ProcedureDef] = [
    ProcedureDef(
        "split_attack",
        "Column and multiple attacks",
        p_split,
        (_p("total"), _p("top", "int", "48 (T1, T2, T4) or 480 (T3)", False, 48)),
        ("5.2", "WE-20"),
        reference="5.2",
    ),
    ProcedureDef(
        "space_fire",
        "Space combat fire (one side, one round)",
        p_space_fire,
        (
            _p("attack"),
            _p("tactical_mod", "int", "+1, 0 or -1", False, 0),
            _p("quality_shift", "int", "0, 1 or 2", False, 0),
            _p("shift_part", "int", "which attack gets the shift (1 = first)", False, 1),
        ),
        ("5.3", "T1", "SC2", "WE-21", "WE-65"),
        reference="5.2-5.3",
    ),
    ProcedureDef(
        "tactical_modifiers",
        "Tactical modifiers",
        p_tactical,
        (_p("tf_a", "int"), _p("tf_b", "int")),
        ("5.5",),
        reference="5.5",
    ),
    ProcedureDef(
        "damage_allocation",
        "Smallest battle-damage allocation",
        p_allocate,
        (
            _p("result", "int"),
            _p("squadrons", "json", 'e.g. [{"id": "a", "defense": 6, "reduced_defense": 3}]'),
        ),
        ("5.4", "WE-22"),
        reference="5.4",
    ),
    ProcedureDef(
        "quality",
        "Squadron quality of a side",
        p_quality,
        (
            _p("regular_attack"),
            _p("total_attack"),
            _choice("zero_attack", ("", "standard", "low"), "standard or low (G-48)", ""),
        ),
        ("5.6", "WE-42", "WE-43"),
        reference="5.6",
    ),
    ProcedureDef(
        "quality_shift",
        "Quality column shift",
        p_quality_shift,
        (_p("firing", help="imperial_standard, imperial_low, zhodani_standard, zhodani_low"), _p("target")),
        ("T9",),
        reference="T9",
    ),
    ProcedureDef(
        "squadrons_vs_sdb",
        "Squadrons attack SDBs",
        p_squadrons_vs_sdb,
        (
            _p("bombard"),
            _p("sdb_full", "int"),
            _p("sdb_tl", "int"),
            _p("passive", "bool", required=False, default=False),
        ),
        ("5.7", "T2", "WE-23"),
        reference="5.7",
    ),
    ProcedureDef(
        "sdb_fire",
        "SDBs fire on squadrons",
        p_sdb_fire,
        (_p("sdb_current", "int"), _p("sdb_tl", "int")),
        ("5.8", "T3"),
        reference="5.8",
    ),
    ProcedureDef(
        "surface_bombing",
        "Surface bombing of one target",
        p_bomb,
        (_p("bombard"), _p("target_tl", "int")),
        ("5.9", "T4"),
        reference="5.9",
    ),
    ProcedureDef(
        "sdb_bombardment",
        "An SDB unit's bombardment",
        p_sdb_bombardment,
        (_p("sdb_current", "int"),),
        ("G-15",),
        reference="5.9",
    ),
    ProcedureDef(
        "surface_attack",
        "Surface combat attack",
        p_surface,
        (
            _p("firing"),
            _p("defending"),
            _p("firer_tl", "int", "lowest TL among the firers"),
            _p("target_tl", "int"),
            _p("atmosphere", help="breathable, tainted or vacuum", required=False, default="breathable"),
        ),
        ("5.10", "T5"),
        reference="5.10",
    ),
    ProcedureDef(
        "odds",
        "Troop combat odds column",
        p_odds,
        (_p("firing"), _p("defending"), _p("shift", "int", required=False, default=0)),
        ("WE-24",),
        reference="5.10",
    ),
    ProcedureDef(
        "combat_strength",
        "Surface-combat strength of a unit",
        p_strength_modifiers,
        (
            _p("current"),
            _p("armor", "bool", required=False, default=False),
            _p("elite", "bool", required=False, default=False),
            _p("mercenary", "bool", required=False, default=False),
            _p("loss", "int", required=False, default=0),
            _p("firing", "bool", required=False, default=True),
        ),
        ("WE-33", "WE-52"),
        reference="5.10",
    ),
    ProcedureDef(
        "current_strength",
        "Current strength",
        p_strength,
        (_p("full"), _p("loss", "int")),
        ("5.11", "T6", "WE-18", "WE-62"),
        reference="5.11",
    ),
    ProcedureDef(
        "add_losses",
        "Add percentage losses",
        p_add_loss,
        (_p("loss", "int"), _p("result", "int")),
        ("WE-16", "WE-17"),
        reference="5.11",
    ),
    ProcedureDef(
        "capacity",
        "Troop capacity of a squadron",
        p_capacity,
        (
            _choice("sq_type", ("A", "B", "C", "S", "T"), "A, B, C, S or T"),
            _p("reduced", "bool", required=False, default=False),
            _p("defense", "int", "the current defense factor (cruisers)", False, 0),
        ),
        ("5.12", "T13", "WE-14"),
        reference="5.12",
    ),
    ProcedureDef(
        "cut_to_capacity",
        "Cut carried troops to a reduced carrier",
        p_cut,
        (_p("capacity", "int"), _p("troops", "json", "[[id, full, loss], ...]")),
        ("G-36",),
        reference="5.12",
    ),
    ProcedureDef(
        "hex_distance",
        "Hex distance",
        p_distance,
        (_p("a"), _p("b")),
        ("5.13", "G-32", "WE-15"),
        reference="5.13",
    ),
    ProcedureDef(
        "box_jump_cost",
        "Jump cost from a reinforcement box",
        p_box_cost,
        (_p("entry"), _p("dest")),
        ("T22", "WE-44"),
        reference="5.13",
    ),
    ProcedureDef(
        "fleet_jump",
        "A fleet's jump",
        p_fleet_jump,
        (_p("jumps", help="e.g. 3,3,1"),),
        ("WE-01",),
        reference="5.13",
    ),
    ProcedureDef(
        "refuel_time",
        "Refuelling time",
        p_refuel_time,
        (
            _p("source", help="gas_giant, ocean, starport, base"),
            _p("code", help="streamlined, partial, unstreamlined"),
        ),
        ("5.14", "T10"),
        reference="5.14",
    ),
    ProcedureDef(
        "starport_refuel",
        "Starport zero-time refuels",
        p_starport,
        (_p("starport"), _p("squadrons", "int")),
        ("T11", "WE-12", "WE-45"),
        reference="5.14",
    ),
    ProcedureDef(
        "tanker_capacity",
        "Tanker capacity",
        p_tanker,
        (
            _p("tanker_defense", "int"),
            _choice("serves", ("squadrons", "itself", "tanker"), "squadrons (default), itself or tanker",
                    "squadrons"),
            _p("spent", "bool", "capacity already used since its last non-tanker refuel", False, False),
        ),
        ("5.15", "WE-13"),
        reference="5.15",
    ),
    ProcedureDef(
        "plot_horizon",
        "Plotting step: turns to plot",
        p_plot_step,
        (
            _p("turn", "int"),
            _p("pf", "int"),
            _p("plotted", help="turns already plotted, e.g. 4,5,6", required=False, default=""),
        ),
        ("5.16", "WE-03", "WE-09", "WE-11"),
        reference="5.16",
    ),
    ProcedureDef(
        "abort_plot",
        "Abort a plot",
        p_abort,
        (_p("turn", "int"), _p("here"), _p("plot", "json", '{"11": "R2314", "12": "J2213"}')),
        ("WE-07",),
        reference="5.16",
    ),
    ProcedureDef(
        "insert_hold",
        "Insert a hold",
        p_insert_hold,
        (_p("turn", "int"), _p("here"), _p("plot", "json", '{"7": "J2411", "8": "R2411"}')),
        ("WE-08",),
        reference="5.16",
    ),
    ProcedureDef(
        "garrison",
        "Garrison check",
        p_garrison,
        (_p("db_full"), _p("garrison"), _p("units", "int", required=False, default=1)),
        ("5.17", "WE-30", "WE-66"),
        reference="5.17",
    ),
    ProcedureDef(
        "guerrilla_strength",
        "Guerrilla strength",
        p_guerrilla,
        (_p("db_full"), _p("loss", "int", required=False, default=0)),
        ("5.19", "WE-34"),
        reference="5.19",
    ),
    ProcedureDef(
        "guerrilla_recovery",
        "Guerrilla recovery",
        p_guerrilla_recovery,
        (_p("loss", "int"), _p("covert", "bool", required=False, default=True)),
        ("WE-35",),
        reference="5.19",
    ),
    ProcedureDef(
        "troop_rebuild_cost",
        "Troop rebuild cost",
        p_rebuild_cost,
        (
            _p("full", "int"),
            _p("loss", "int"),
            _p("armor", "bool", required=False, default=False),
            _p("to_loss", "int", required=False, default=0),
        ),
        ("5.20",),
        reference="5.20",
    ),
    ProcedureDef(
        "troop_replace_cost",
        "Troop replacement cost",
        p_replace_cost,
        (_p("full", "int"), _p("armor", "bool", required=False, default=False)),
        (),
        reference="5.20",
    ),
    ProcedureDef(
        "replacement_points",
        "Replacement points received",
        p_rp,
        (_choice("side", ("imperial", "zhodani"), "imperial or zhodani"), _p("turn", "int")),
        ("T19", "T20"),
        reference="5.20",
    ),
    ProcedureDef(
        "imperial_reinforcements",
        "Imperial reinforcements roll",
        p_reinforcements,
        (),
        ("5.21", "T18", "WE-36"),
        reference="5.21",
    ),
    ProcedureDef(
        "world_vp",
        "Victory points of a world",
        p_world_vp,
        (
            _p("tl", "int"),
            _p("capital", "bool", required=False, default=False),
            _choice("relation", ("enemy", "independent", "own"), "enemy, independent or own", "enemy"),
        ),
        ("5.22", "WE-38", "WE-39"),
        reference="5.22",
    ),
    ProcedureDef(
        "victory_level", "Level of victory", p_victory, (_p("d"),), ("T21", "WE-53"), reference="5.22"
    ),
    ProcedureDef(
        "armistice",
        "Armistice level",
        p_armistice,
        (_p("d"), _p("turn", "int"), _p("unilateral", "bool", required=False, default=True)),
        ("WE-40", "WE-46"),
        reference="5.22",
    ),
    ProcedureDef("tl_modifier", "Tech-level modifier", p_tl, (_p("tl", "int"),), ("T7",), reference="T7"),
    ProcedureDef(
        "atmosphere_modifier",
        "Atmosphere modifier",
        p_atmosphere,
        (_p("atmosphere"),),
        ("T8",),
        reference="T8",
    ),
    ProcedureDef(
        "surprise_discovery", "Surprise Attack discovery roll", p_discovery, (), ("T24",), reference="5.25"
    ),
    *CC.PROCEDURES,
    *LG.PROCEDURES,
    *MR.PROCEDURES,
]
