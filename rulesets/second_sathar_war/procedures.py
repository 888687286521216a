"""Procedures: the digest's formulas (section 5) as explained calculations.

Each works on plain values through a resolver, so the same function serves the campaign
(rolls logged), the resolve dialog and ``campaign-tui calc second_sathar_war <id|alias>``.
Aliases are the digest's ids (5.4, T9, E8...).
"""

from __future__ import annotations

from functools import cache

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver

from . import procs_checks as PC
from . import rules as R
from . import tactical as T
from .dice_util import percent, roll, tag_table


# -- strategic -----------------------------------------------------------------------------------
def time_record(r: Resolver, day: int) -> Calc:
    """5.1 / T20: the Day and Tenday markers for an absolute day."""
    marker = R.tenday_marker(day)
    r.explain(
        f"Tenday marker 10 x floor(({day} - 1) / 10) = {marker}"
        + ("" if marker else ": the Tenday box stays empty on days 1-10")
    )
    r.explain(f"Day marker (({day} - 1) mod 10) + 1 = {R.day_marker(day)}")
    ends = []
    if R.is_tenday_end(day):
        ends.append("end of a tenday: retreat conditions 4 and 5 are checked")
    if R.is_replacement_day(day, True):
        ends.append("a replacement phase follows (if replacements are used)")
    for e in ends:
        r.explain(e)
    return Calc(
        {"tenday": marker, "day": R.day_marker(day), "tenday_index": R.tenday_index(day)}, R.day_text(day)
    )


def _counts(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        key, _, n = str(item).partition(":")
        out[key.strip()] = out.get(key.strip(), 0) + int(n or 1)
    return out


def sathar_placement(r: Resolver, counts: list[str], initial: bool = True) -> Calc:
    """5.2: at least 20 ships (no fighters), two or more circles, none holding more than half."""
    per = _counts(counts)
    n = sum(per.values())
    r.explain(f"{n} ships in {len(per)} circle(s): " + ", ".join(f"{c} {k}" for c, k in per.items()))
    r.explain("half of the ships placed: " + f"{n}/2 = {n / 2:g}; a circle may hold at most that")
    problems = R.placement_problems(per, initial)
    for p in problems:
        r.explain(p)
    return Calc(not problems, "legal placement" if not problems else "not legal: " + "; ".join(problems))


def carrier_loads(r: Resolver, loads: list[str], capacity: int = 0) -> Calc:
    """5.2: fighters per assault carrier within the capacity (option carrier_capacity, 8)."""
    cap = capacity or int(r.options.get("carrier_capacity", 8))
    per = _counts(loads)
    problems = R.carrier_problems(per, cap)
    for c, k in per.items():
        r.explain(f"{c}: {k} of {cap}")
    return Calc(not problems, "within capacity" if not problems else "; ".join(problems))


def movement_rate(
    r: Resolver, adf: int, hull_damaged: bool = False, sathar_on_red: bool = False, fighter: bool = False
) -> Calc:
    """T19 / 5.3: boxes a day one ship may move."""
    if fighter:
        r.explain("a fighter enters a transit box only aboard an assault carrier")
        return Calc(0, "carried only")
    look = r.lookup("T19", adf=adf)
    rate = R.allowed_rate(adf, hull_damaged, sathar_on_red)
    if hull_damaged:
        r.explain("unrepaired hull damage: 1 box a day")
    if sathar_on_red:
        r.explain("a Sathar ship in a start circle or red box: 1 box a day")
    r.explain(f"ADF {adf}: up to {look.value}")
    return Calc(rate, f"{rate} box(es) a day")


@cache
def _class_adf() -> dict[str, int]:
    from rulesets.second_sathar_war import plugin

    return {tid: int(t.attrs.get("adf", 0)) for tid, t in plugin.catalog().types.items()}


def stack_rate(r: Resolver, classes: list[str], damaged: list[str] | None = None) -> Calc:
    """5.3: a stack moves at its slowest ship's rate; fighters are carried (E16)."""
    adf = _class_adf()
    hurt = set(damaged or [])
    rates = []
    for code in classes:
        code = code.strip().upper()
        if code not in adf:
            raise InvalidInput(f"no ship class {code!r}; classes: {', '.join(adf)}")
        if code == "F":
            continue
        rate = R.allowed_rate(adf[code], code in hurt, False)
        rates.append((rate, code))
    rate = R.stack_rate(x for x, _ in rates)
    slow = sorted({c for x, c in rates if x == rate})
    r.explain(f"{R.class_summary(c.strip().upper() for c in classes)}: slowest {', '.join(slow)} -> {rate}")
    return Calc(rate, f"stack rate {rate}")


def route_timing(r: Resolver, boxes: int, jump: int, rate: int) -> Calc:
    """5.3 / E20: the boxes entered each day along one route, and the arrival day."""
    arrival = bool(r.options.get("arrival_costs_step", True))
    days = R.route_timeline(boxes, jump, rate, arrival)
    end = boxes + 1 if arrival else boxes
    for n, entered in enumerate(days, 1):
        labels = [
            "starburst" if p >= end else (f"box {p} (jump box)" if p == jump else f"box {p}") for p in entered
        ]
        stop = " - stop, misjump roll" if rate >= 2 and jump in entered and entered[-1] == jump else ""
        r.explain(f"day {n}: {', '.join(labels)}{stop}")
    return Calc(len(days), f"arrives on day {len(days)} at {rate} box(es) a day")


def misjump(r: Resolver, rows: list[str], rate: int, interlocked: bool = True) -> Calc:
    """5.4 / T9: one d100 for an interlocked group (best astrogator), else one per ship."""
    if rate not in (2, 3):
        raise InvalidInput("misjump checks are made only at 2 or 3 boxes a day")
    rows = [x.strip().upper() for x in rows]
    targets = {row: int(r.lookup("T9", row=row, rate=str(rate)).value) for row in set(rows)}
    if interlocked:
        best = max(targets[x] for x in rows)
        r.explain(f"interlocked computers: one roll for {len(rows)} ships at {best}% (best row)")
        ok, _ = percent(r, "misjump check (interlocked group)", best, "T9")
        return Calc(ok, f"{'all jump safely' if ok else 'all misjump'} (target {best})")
    safe = 0
    for n, row in enumerate(rows, 1):
        ok, _ = percent(r, f"misjump check ship {n} ({row})", targets[row], "T9")
        safe += ok
    return Calc(safe, f"{safe} of {len(rows)} jump safely")


def misjump_displacement(r: Resolver) -> Calc:
    """T10 (house rule): 1d10 for the boxes past the target, 1d10 for the days lost."""
    out = []
    for what in ("boxes past the target", "days off the map"):
        die = roll(r, "1d10", f"misjump displacement: {what}", table="T10")
        look = r.lookup("T10", roll=die.natural)
        tag_table(die, str(look.value))
        out.append(int(look.value))
    r.explain("the ship may not move on the day it returns")
    return Calc({"boxes": out[0], "days": out[1]}, f"{out[0]} box(es) past the target, lost {out[1]} day(s)")


def _map():  # type: ignore[no-untyped-def]
    from .fdm import Fdm, initial_records

    routes, circles = initial_records("rounded")
    return Fdm(routes, circles)


def militia_move(
    r: Resolver, home: str, dest: str, deputized: bool = False, threatened: bool = False
) -> Calc:
    """5.5: militia may go only next door, and not while home is threatened, until deputized."""
    m = _map()
    hs, ds = m.find_system(home), m.find_system(dest)
    adj = m.adjacent(hs, ds)
    r.explain(f"{m.name(hs)} and {m.name(ds)} are {'' if adj else 'not '}adjacent on the provisional map")
    why = R.militia_may_enter(hs, ds, deputized, adj, threatened)
    return Calc(why is None, "may go" if why is None else why)


NONE_WORDS = ("none", "-", "no")


def _none_left(items: list[str] | None) -> bool:
    """An explicit empty list (``fortresses=`` or ``fortresses=none``): nothing is left."""
    return items is not None and all(str(x).strip().lower() in NONE_WORDS for x in items)


def _fortress_systems(m, names: list[str]) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Fortress names as the GM says them (Kdikit, Fortress Redoubt, pale...) -> their systems."""
    from .scenarios import _oob

    forts = {sid: st for sid, st in _oob()["stations"].items() if st["type"] == "FORTRESS"}
    out: dict[str, str] = {}
    for name in names:
        want = "".join(ch for ch in str(name).lower().removeprefix("fortress") if ch.isalnum())
        hit = [sid for sid, st in forts.items()
               if want in (sid.replace("-", ""), "".join(ch for ch in st["name"].lower() if ch.isalnum())
                           .removeprefix("fortress"))]
        if not hit:
            raise InvalidInput(
                f"no fortress {name!r}; fortresses: {', '.join(st['name'] for st in forts.values())}"
            )
        out[forts[hit[0]]["name"]] = m.planets[forts[hit[0]]["planet"]].system
    return out


def supply(
    r: Resolver,
    start: str,
    side: str = "UPF",
    blocked: list[str] | None = None,
    targets: list[str] | None = None,
    fortresses: list[str] | None = None,
) -> Calc:
    """5.9: trace supply over the provisional map (blocked = systems the enemy holds).

    UPF supply runs to a system with a surviving fortress: *fortresses* names those still
    standing (all four when not given; ``fortresses=none`` when none is left). *targets* gives
    the end systems directly instead (``targets=none``: no end at all)."""
    m = _map()
    side = side.upper()
    s = m.find_system(start)
    blk = {m.find_system(x) for x in blocked or []}
    if targets is not None and not _none_left(targets):
        tgt = {m.find_system(x) for x in targets}
    elif targets is not None:
        tgt = set()
        r.explain("targets=none: no system to trace supply to")
    elif side == "UPF":
        standing = None if fortresses is None else [x for x in fortresses if not _none_left([x])]
        if standing is None:
            r.explain("all four fortresses standing (give fortresses= the ones left, or none)")
            standing = ["Kdikit", "Redoubt", "Gollwin", "Pale"]
        forts = _fortress_systems(m, standing)
        if forts:
            r.explain("surviving fortresses: " + ", ".join(f"{k} ({m.name(v)})" for k, v in forts.items()))
        else:
            r.explain("no fortress is left: no UPF ship can trace supply (5.9)")
        tgt = set(forts.values())
    else:
        tgt = {c.target for c in m.circles.values()}
    if not tgt:
        return Calc(False, "out of supply (nowhere to trace to)")
    nb = {sid: [o for _, o in m.routes_from(sid)] for sid in m.systems}
    path = R.trace_supply(nb, [s], tgt, blk, side == "SATHAR")
    if path is None:
        r.explain("no path avoids the blocked systems")
        return Calc(False, "out of supply")
    r.explain("path: " + " - ".join(m.name(x) for x in path))
    return Calc(True, "in supply")


def fighter_rearm(r: Resolver, in_supply: bool, used: int = 0) -> Calc:
    """5.10: fighters rearm from a carrier or station twice while it is out of supply."""
    ok, new = R.fighter_rearm(in_supply, used)
    r.explain("in supply: rearm and reset the count" if in_supply else f"out of supply: {used} of 2 used")
    return Calc(ok, f"{'rearm' if ok else 'no rearm'} (out-of-supply count {new})")


def scc_repair_days(
    r: Resolver, hull_damage: int, systems: int = 0, scc: str = "", capacity: int = 0
) -> Calc:
    """5.11b / E6: days at a construction centre, alone: one per system plus the hull days."""
    if not capacity:
        if not scc:
            raise InvalidInput("give the construction centre (scc=triad) or its capacity")
        capacity = int(r.lookup("T12", scc=scc, side="UPF").value)
    days = R.scc_repair_days(hull_damage, systems, capacity)
    r.explain(f"{systems} system day(s) + ceil({hull_damage} / {capacity}) hull day(s) = {days}")
    return Calc(days, f"{days} day(s)")


def captured_repair(r: Resolver, scc: str) -> Calc:
    """5.11d: the Sathar repair half the hull capacity at a captured construction centre."""
    cap = int(r.lookup("T12", scc=scc, side="UPF").value)
    half = R.captured_capacity(cap)
    r.explain(f"{cap} / 2 = {half} hull points a day")
    return Calc(half, f"{half} hull points a day")


def void_return(r: Resolver, day: int) -> Calc:
    """5.11c: a Sathar ship entering the Void on day d is back, fully repaired, on day d + 6."""
    r.explain(f"enters the Void on day {day}; placed in any start circle on day {day} + 6, fully repaired")
    return Calc(R.void_return_day(day), f"back on day {R.void_return_day(day)}")


def sathar_replacement(r: Resolver, ships: int = 1) -> Calc:
    """5.12 / T14: d100 per Sathar ship destroyed in combat; 35 or less returns next turn."""
    back = 0
    for n in range(1, ships + 1):
        die = roll(r, "1d100", f"Sathar replacement roll {n}", target=35, table="T14")
        look = r.lookup("T14", roll=die.natural)
        tag_table(die, str(look.cell))
        back += look.value == "returns"
    return Calc(back, f"{back} of {ships} return")


def upf_replacements(r: Resolver, fortresses: int, fortified: int) -> Calc:
    """5.12 / T14: the UPF entitlement from surviving fortresses and fortified stations."""
    ent = R.upf_entitlement(fortresses, fortified)
    r.explain(f"{fortresses} fortress(es): {ent['big']} ship(s) of frigate class or larger")
    r.explain(f"{fortified} fortified station(s): {ent['small']} assault scouts or fighters")
    return Calc(ent, f"{ent['big']} large, {ent['small']} small")


def victory(r: Resolver, stations_destroyed: int, fortresses_destroyed: int) -> Calc:
    """5.13 / T15: 12 stations destroyed, all four fortresses among them."""
    kinds = ["FORTRESS"] * fortresses_destroyed + ["ARMED"] * max(
        0, stations_destroyed - fortresses_destroyed
    )
    won = R.sathar_victory(kinds)
    r.explain(f"{stations_destroyed} of 12 stations, {fortresses_destroyed} of 4 fortresses")
    return Calc(won, "Sathar victory" if won else "not yet")


def retreat(
    r: Resolver,
    condition: int,
    ac_lost: int = 0,
    hc_lost: int = 0,
    ships_lost: int = 0,
    kills_this_tenday: int = 0,
    sathar_combat: int = 0,
    upf_combat: int = 0,
    tenday_end: bool = False,
) -> Calc:
    """5.13 / T13: whether a retreat condition is met from the loss counters."""
    sat = [{"cls": "AC", "fighter": False, "combat": True}] * ac_lost
    sat += [{"cls": "HC", "fighter": False, "combat": True}] * hc_lost
    sat += [{"cls": "F", "fighter": True, "combat": True}] * max(0, ships_lost - ac_lost - hc_lost)
    cond5 = [{"cls": "DD", "fighter": False, "combat": True}] * sathar_combat
    upf = [{"cls": "DD", "fighter": False, "combat": True}] * upf_combat
    if condition == 5:
        sat = cond5
    met = R.retreat_met(condition, sat, upf, kills_this_tenday, tenday_end)
    text = r.lookup("T13", condition=str(condition), column="The Sathar retreat when").value
    r.explain(f"condition {condition}: {text}")
    return Calc(met, "met: the Sathar retreat" if met else "not met")


def retreat_outcome(r: Resolver, fortresses: int) -> Calc:
    """T15: the result fixed when the Sathar retreat (0 fortresses: option, G-30)."""
    result = R.retreat_outcome(fortresses, str(r.options.get("retreat_zero_fortresses", "draw")))
    r.explain(
        f"{fortresses} fortress(es) left: 2 or more = UPF victory, 1 = draw, 0 = option "
        f"retreat_zero_fortresses ({r.options.get('retreat_zero_fortresses', 'draw')})"
    )
    return Calc(result, result.replace("_", " "))


def sfn_placement(r: Resolver) -> Calc:
    """T8: 1d10 for where Strike Force NOVA enters the map (0 = 10)."""
    die = roll(r, "1d10", "Strike Force NOVA placement", side="UPF", table="T8")
    look = r.lookup("T8", roll=die.natural)
    tag_table(die, str(look.cell))
    return Calc(str(look.value), f"d10 {die.natural}: {look.cell}")


def which_rules(r: Resolver, ships: int) -> Calc:
    """T11: the suggested tactical rules for a battle of this many ships."""
    look = r.lookup("T11", ships=max(ships, 2))  # the resolver explains the lookup itself
    if look.value == "advanced_npc" and not r.options.get("skills", True):
        r.explain("skills are off in this campaign: Advanced rules without skill modifiers")
    return Calc(str(look.value), str(look.cell))


# -- registry --------------------------------------------------------------------------------------
def _p(name: str, type: str = "str", **kw: object) -> Param:
    return Param(name, type, **kw)  # type: ignore[arg-type]


RULES = Param("rules", "choice", required=False, default="advanced",
              help="advanced or basic (T11; in a campaign: the battle's)",
              choices=("advanced", "basic"))


PROCEDURES: list[ProcedureDef] = [
    ProcedureDef(
        "time_record",
        "Time Record (Day and Tenday markers)",
        time_record,
        (_p("day", "int", min=1),),
        ("5.1", "T20", "E3"),
        reference="5.1",
    ),
    ProcedureDef(
        "sathar_placement",
        "Sathar placement check",
        sathar_placement,
        (
            _p("counts", "list", help="circle:ships, e.g. sc-a:10,sc-b:10"),
            Param.optional("initial", "bool", True, help="the first placement (20 ships, 2 circles)"),
        ),
        ("5.2", "E18"),
        reference="5.2",
    ),
    ProcedureDef(
        "carrier_loads",
        "Fighters aboard carriers",
        carrier_loads,
        (_p("loads", "list", help="carrier:fighters"), Param.optional("capacity", "int", 0)),
        ("5.2c",),
        reference="5.2",
    ),
    ProcedureDef(
        "movement_rate",
        "Boxes a day for one ship",
        movement_rate,
        (
            _p("adf", "int", min=0),
            Param.optional("hull_damaged", "bool", False),
            Param.optional("sathar_on_red", "bool", False),
            Param.optional("fighter", "bool", False),
        ),
        ("T19", "5.3"),
        reference="5.3, T19",
    ),
    ProcedureDef(
        "stack_rate",
        "Rate of a stack",
        stack_rate,
        (
            _p("classes", "list", help="class codes, e.g. BB,ML,AS"),
            Param.optional("damaged", "list", [], help="classes with hull damage"),
        ),
        ("E16", "5.3s"),
        reference="5.3",
    ),
    ProcedureDef(
        "route_timing",
        "Days along a route",
        route_timing,
        (_p("boxes", "int", min=1), _p("jump", "int", min=1), _p("rate", "int", min=1, max=3)),
        ("E20", "5.3t"),
        reference="5.3, 6.2",
    ),
    ProcedureDef(
        "misjump",
        "Misjump check",
        misjump,
        (
            _p("rows", "list", help="T9 rows: UPF_BB, UPF, SATHAR, MILITIA"),
            _p("rate", "int", min=2, max=3),
            Param.optional("interlocked", "bool", True),
        ),
        ("5.4", "T9", "E4", "E5"),
        reference="5.4",
    ),
    ProcedureDef(
        "misjump_displacement",
        "Misjump displacement (house rule)",
        misjump_displacement,
        (),
        ("T10",),
        reference="T10",
    ),
    ProcedureDef(
        "militia_move",
        "May militia enter a system?",
        militia_move,
        (
            _p("home", help="home system"),
            _p("dest", help="destination system"),
            Param.optional("deputized", "bool", False),
            Param.optional("threatened", "bool", False),
        ),
        ("5.5",),
        reference="5.5",
    ),
    ProcedureDef(
        "supply",
        "Supply trace",
        supply,
        (
            _p("start", help="system"),
            Param("side", "choice", required=False, default="UPF", choices=("UPF", "SATHAR")),
            Param.optional("blocked", "list", []),
            Param.optional("targets", "list", None,
                help="end systems instead of the fortresses; none: no end"),
            Param.optional("fortresses", "list", None,
                help="UPF fortresses still standing (default all four; none)"),
        ),
        ("5.9",),
        reference="5.9",
    ),
    ProcedureDef(
        "fighter_rearm",
        "Fighter rearm from a carrier or station",
        fighter_rearm,
        (_p("in_supply", "bool"), Param.optional("used", "int", 0)),
        ("5.10",),
        reference="5.10",
    ),
    ProcedureDef(
        "scc_repair_days",
        "Days of repair at a construction centre",
        scc_repair_days,
        (
            _p("hull_damage", "int", min=0),
            Param.optional("systems", "int", 0),
            Param.optional("scc", "str", ""),
            Param.optional("capacity", "int", 0),
        ),
        ("5.11", "E6", "T12"),
        reference="5.11b",
    ),
    ProcedureDef(
        "captured_repair",
        "Sathar repair at a captured construction centre",
        captured_repair,
        (_p("scc"),),
        ("5.11d",),
        reference="5.11d",
    ),
    ProcedureDef(
        "void_return",
        "Return from the Void",
        void_return,
        (_p("day", "int", min=1),),
        ("5.11c",),
        reference="5.11c",
    ),
    ProcedureDef(
        "sathar_replacement",
        "Sathar replacement rolls",
        sathar_replacement,
        (Param.optional("ships", "int", 1),),
        ("5.12", "T14"),
        reference="5.12",
    ),
    ProcedureDef(
        "upf_replacements",
        "UPF replacement entitlement",
        upf_replacements,
        (_p("fortresses", "int", min=0), _p("fortified", "int", min=0)),
        ("T14u", "5.12u"),
        reference="5.12",
    ),
    ProcedureDef(
        "victory",
        "Sathar victory check",
        victory,
        (_p("stations_destroyed", "int", min=0), _p("fortresses_destroyed", "int", min=0)),
        ("5.13", "T15"),
        reference="5.13",
    ),
    ProcedureDef(
        "retreat",
        "Retreat condition check",
        retreat,
        (
            _p("condition", "int", min=1, max=5),
            Param.optional("ac_lost", "int", 0),
            Param.optional("hc_lost", "int", 0),
            Param.optional("ships_lost", "int", 0),
            Param.optional("kills_this_tenday", "int", 0),
            Param.optional("sathar_combat", "int", 0),
            Param.optional("upf_combat", "int", 0),
            Param.optional("tenday_end", "bool", False),
        ),
        ("T13", "5.13r"),
        reference="5.13",
    ),
    ProcedureDef(
        "retreat_outcome",
        "Result when the Sathar retreat",
        retreat_outcome,
        (_p("fortresses", "int", min=0),),
        ("G-30",),
        reference="T15",
    ),
    ProcedureDef(
        "sfn_placement", "Strike Force NOVA placement", sfn_placement, (), ("T8", "E15"), reference="T8"
    ),
    ProcedureDef(
        "which_rules",
        "Suggested tactical rules",
        which_rules,
        (_p("ships", "int", min=1),),
        ("T11",),
        reference="T11",
    ),
    # tactical helper (5.14)
    ProcedureDef(
        "attack",
        "Attack roll (to-hit)",
        T.attack_proc,
        (
            _p("weapon", help="LC, LB, PB, EB, DC, T, AR, RB, M, S"),
            Param.optional("defences", "str", "RH", help="defences in use: RH, MS, PS/ES/SS, None"),
            Param.optional("range_hexes", "int", 0),
            Param.optional("attacker_masked", "bool", False),
            Param.optional("target_masked", "bool", False),
            Param.optional("icms", "int", 0),
            Param.optional("ccs_hit", "bool", False),
            Param.optional("disastrous_fire", "bool", False),
            Param.optional("head_on", "bool", False),
            Param.optional("evading_mr", "int", 0),
            Param.optional("power_short", "bool", False),
            Param.optional("shaded", "bool", False),
            Param.optional("base_override", "int", 0, help="use this base chance instead of the table's"),
            Param.optional("roll", "bool", True, help="roll the d100 (no: only the chance)"),
        ),
        ("5.14a", "T5", "E7", "E21"),
        reference="5.14a",
    ),
    ProcedureDef(
        "damage",
        "Damage Table roll",
        T.damage_proc,
        (_p("weapon"), Param.optional("extra_modifier", "int", 0), RULES),
        ("5.14b", "T7", "T6"),
        reference="5.14b",
    ),
    ProcedureDef(
        "hull",
        "Hull damage",
        T.hull_proc,
        (_p("weapon"), Param.optional("double", "bool", False), Param.optional("halve", "bool", False)),
        ("5.14c",),
        reference="5.14c",
    ),
    ProcedureDef(
        "system_hit",
        "What a Damage Table result destroys",
        T.system_hit_proc,
        (
            _p("result", help="a T7 result, e.g. weapon:DC,LC,AR,T,LB or drive:half"),
            Param.optional("weapons", "str", ""),
            Param.optional("defences", "str", ""),
            Param.optional("adf", "int", 0),
            Param.optional("adf_original", "int", 0),
            Param.optional("mr", "int", 0),
            Param.optional("mr_original", "int", 0),
            Param.optional("flags", "str", ""),
            Param.optional("dcr", "int", 0, help="the ship's current DCR (shows the halved value)"),
            RULES,
        ),
        ("5.14d", "E9", "E10", "E11", "E12"),
        reference="5.14d",
    ),
    ProcedureDef(
        "breakup",
        "Break-up check",
        T.breakup_proc,
        (
            _p("hp_orig", "int", min=1),
            _p("hp_now", "int"),
            _p("adf_used", "int", min=0),
            _p("mr_used", "int", min=0),
        ),
        ("5.14e", "E8"),
        reference="5.14e",
    ),
    ProcedureDef("navigation", "Navigation hit", T.navigation_proc, (), ("T18",), reference="T18"),
    ProcedureDef("fire", "Fire damage roll", T.fire_proc, (RULES,), (), reference="5.14d"),
    ProcedureDef(
        "masking_screen",
        "Masking screen duration",
        T.masking_screen_proc,
        (Param.optional("orbiting", "bool", False), Param.optional("turns_so_far", "int", 0)),
        ("5.14f",),
        reference="5.14f",
    ),
    ProcedureDef(
        "mine",
        "Mine or seeker attack",
        T.mine_proc,
        (
            Param.optional("weapon", "str", "M"),
            Param.optional("defences", "str", "RH"),
            Param.optional("icms", "int", 0),
            Param.optional("target_masked", "bool", False),
            RULES,
        ),
        ("5.14g", "5.14h"),
        reference="5.14g-h",
    ),
    ProcedureDef(
        "shatter_drone", "Shatter-drone hit", T.shatter_proc, (RULES,), ("5.14i",), reference="5.14i"
    ),
    ProcedureDef(
        "defensive_fire",
        "When defensive hits apply",
        T.defensive_fire_proc,
        (Param.optional("effect", "str", "MR"),),
        ("5.14j", "E13", "E14"),
        reference="5.14j",
    ),
    ProcedureDef(
        "basic_damage",
        "Basic Game damage",
        T.basic_damage_proc,
        (_p("weapon"), Param.optional("halve", "bool", False)),
        ("G-38", "5.14k"),
        reference="5.14k",
    ),
    ProcedureDef(
        "dcr_repair",
        "In-space repair roll",
        T.dcr_repair_proc,
        (_p("points", "int", min=0), Param.optional("item", "str", "hull")),
        ("5.11a", "dcr"),
        reference="5.14k",
    ),
    *PC.PROCEDURES,
]


def registry() -> dict[str, ProcedureDef]:
    return {p.id: p for p in PROCEDURES}
