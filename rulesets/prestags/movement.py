"""Movement: allowances, path costs, fire zones, stacking and control [5.0]-[5.6], [10.2],
[11.3], [11.4], [16.1].

A path is a list of hex ids in the order entered. ``HEX+road`` marks a hex entered from a
road hex through a road hexside (1 MP whatever the terrain [5.51]). ``off`` or ``off:E``
as the last entry leaves the map (1 MP must remain [11.42]); ``from:W`` as the first entry
brings a unit waiting off the map on by that edge.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State
from campaign_tui.core.records import record
from rulesets.prestags import carriers, exclusive, hexmap, panic
from rulesets.prestags.common import (
    Info,
    at,
    frac,
    fstore,
    ftext,
    info,
    leader_values,
    other,
    side_data,
    stamp,
    tec_table_id,
    units_at,
    units_of,
)


@record
class Step:
    hex: str
    road: bool = False


@record
class Path:
    start: str | None = None  # None when entering from an edge
    enter_edge: str = ""
    steps: list[Step] = field(default_factory=list)
    exit_edge: str | None = None  # None = stays on the map; "" = off, edge not named


def parse_path(raw: list[Any] | str) -> Path:
    items = raw if isinstance(raw, list) else [x for x in str(raw).replace(",", " ").split() if x]
    p = Path()
    for n, item in enumerate(str(x).strip() for x in items):
        low = item.lower()
        if low.startswith("from:"):
            if n != 0:
                raise ActionRejected("from:EDGE may only open a path")
            p.enter_edge = item[5:].upper() or "?"
            continue
        if low == "off" or low.startswith("off:"):
            if n != len(items) - 1:
                raise ActionRejected("off may only end a path")
            p.exit_edge = item[4:].upper() if ":" in item else ""
            continue
        if low in ("pause", "wait", "-", "stay") or low.startswith("pause:"):
            raise ActionRejected(f"{item!r}: movement cannot pause [22.11]")
        road = item.endswith("+road")
        p.steps.append(Step(hexmap.norm(item[:-5] if road else item), road))
    return p


# -- Movement Allowance [10.0], [10.2] -----------------------------------------------------------
def ma_now(state: State, uid: str) -> Fraction:
    """This phase's MA from the start-of-phase snapshot (printed MA if none)."""
    snap = state.vars.get("ma", {})
    if uid in snap:
        return frac(snap[uid])
    return info(state, _rs(state), uid).ma


def _rs(state: State) -> Any:
    from rulesets.prestags import plugin

    return plugin


def snapshot(ctx: Ctx, side: str) -> dict[str, str]:
    """At the start of the Movement Phase: units beyond every friendly leader's Movement
    Control Radius have half MA, fractions kept [10.23]; mounted units are exempt where the
    scenario says Mt.Ex. [10.0]; leaders are not halved (G-11)."""
    data = side_data(ctx.state, side)
    mtex = bool(data.get("mounted_exempt"))
    free = bool(ctx.var("no_leader_radius"))
    leaders = []
    movers: list[Info] = []
    for u in sorted(units_of(ctx.state, side), key=lambda x: x.id):
        i = info(ctx.state, ctx.ruleset, u)
        if i.hex is None:
            continue
        if i.is_leader:
            leaders.append((i, int(leader_values(ctx.state, ctx.ruleset, i.grade)["radius"])))
        movers.append(i)
    out: dict[str, str] = {}
    unknown: list[Info] = []
    for i in movers:
        out[i.id] = fstore(i.ma)
        if free or (i.is_leader and not ctx.options.get("leaders_halved")) or (mtex and i.mounted):
            continue
        inside: bool | None = False
        for ldr, radius in leaders:
            if ldr.id == i.id:
                continue
            d = hexmap.known_distance(ctx.state, str(i.hex), str(ldr.hex))
            if d is None:
                inside = None
            elif d <= radius:
                inside = True
                break
        if inside is None:
            unknown.append(i)
        elif not inside:
            out[i.id] = fstore(i.ma / 2)
    if unknown:
        where = "; ".join(f"{ldr.label} at {ldr.hex} radius {r}" for ldr, r in leaders) or "no leaders"
        answer = ctx.ruling(
            f"radius:{side}",
            "Which of these units begin the Movement Phase "
            "outside every friendly leader's Movement Control Radius?",
            answer_kind="multi",
            options=tuple(f"{i.id}" for i in unknown),
            default=[],
            info=(
                f"leaders: {where}",
                "within = at most the radius in hexes; radius 0 = same hex",
                "units: " + ", ".join(f"{i.id} at {i.hex}" for i in unknown),
            ),
            aliases=(f"radius:{side}:{stamp(ctx.state)}",),
        )
        for i in unknown:
            if i.id in list(answer):
                out[i.id] = fstore(i.ma / 2)
    halved = [k for k in sorted(out) if frac(out[k]) != info(ctx.state, ctx.ruleset, k).ma]
    if halved:
        ctx.explain(
            "half MA (outside every leader's radius) [10.23]: "
            + ", ".join(f"{ctx.state.unit(k).label} {out[k]}" for k in halved)
        )
    return out


# -- terrain costs ----------------------------------------------------------------------------------
def tec(ctx: Ctx, terrain: str, effect: str) -> str:
    return str(ctx.tables.get(tec_table_id(ctx.options)).lookup(terrain=terrain, effect=effect).cell)


def prohibited_for(ctx: Ctx, klass: str, terrain: str, elevation: str) -> str:
    """Why a class may not enter this terrain ('' if it may)."""
    if tec(ctx, terrain, "mp") == "X":
        return f"{terrain} may not be entered (TEC)"
    if hexmap.prohibited_by_scenario(ctx.state, terrain, elevation):
        return f"the scenario forbids {elevation if elevation != 'ground' else terrain} hexes"
    game = str(ctx.var("game", "") or "")
    if game:
        cell = str(ctx.tables.get("prohibitions").lookup(game=game, klass=klass).cell)
        banned = [t.strip() for t in cell.split(",") if t.strip() and t.strip() != "-"]
        if terrain in banned:
            return f"Class {klass} may not enter {terrain} in this game (exclusive rules)"
    return ""


def entry_cost(ctx: Ctx, prev: str | None, step: Step, klass: str) -> tuple[Fraction | None, str]:
    """MP to enter a hex (None = may not enter), with the reason [5.11], [5.51], [5.61], [5.62]."""
    t = hexmap.terrain(ctx, step.hex, "movement")
    e = hexmap.elevation(ctx, step.hex, "movement")
    if step.road and prev is not None:
        return Fraction(1), "road to road through a road hexside [5.51]"
    why = prohibited_for(ctx, klass, t, e)
    if why:
        return None, why
    if e == "slope":
        return frac(tec(ctx, "slope", "mp")), "slope hex [5.61]"
    base = frac(tec(ctx, t, "mp"))
    if e == "hilltop" and prev is not None and hexmap.elevation(ctx, prev, "movement") == "slope":
        extra = tec(ctx, "hilltop", "mp")
        add = frac(extra[1:]) if extra.startswith("+") else Fraction(0)
        return base + add, f"{t} hilltop from a slope, +{ftext(add)} [5.62]"
    return base, t


# -- fire zones [6.41], [6.44], [16.32], [21.1] ----------------------------------------------------
def zone_units(ctx: Ctx, side: str) -> list[Info]:
    """The enemy fire units whose Defensive Fire Zone stops units of *side*."""
    out = []
    plots: dict[str, Any] = {}
    if ctx.options.get("simultaneous"):
        for s in ("A", "B"):
            plots.update(ctx.state.secrets.get(s, {}).get("plot", {}).get("orders", {}))
    for u in sorted(units_of(ctx.state, other(side)), key=lambda x: x.id):
        i = info(ctx.state, ctx.ruleset, u)
        fire_unit = i.is_fire or exclusive.francisca_ready(ctx.state, u)  # [V1.1]
        if not fire_unit or i.hex is None or u.status.get("disrupted"):
            continue
        order = plots.get(u.id)
        if order and order.get("valid") and order.get("task") in ("MV", "ML"):
            continue
        out.append(i)
    return out


def zone_stop(ctx: Ctx, mover: Info, hexes: list[str], key: str) -> str | None:
    """The first of *hexes* next to an enemy fire unit's zone (None if none)."""
    zones = zone_units(ctx, mover.side)
    if not zones or not hexes:
        return None
    facing = bool(ctx.options.get("facing"))
    unknown = False
    for h in hexes:
        for z in zones:
            d = hexmap.known_distance(ctx.state, h, str(z.hex))
            if d is None:
                unknown = True
            elif d == 1:
                if facing:
                    f = int(ctx.state.unit(z.id).status.get("facing", -1))
                    if f >= 0 and not hexmap.in_front(ctx, str(z.hex), f, h, "fire zone [16.32]"):
                        continue
                return h
    if not unknown:
        return None
    answer = ctx.ruling(
        f"zone:{key}",
        f"Moving {mover.label} along {' '.join(hexes)}: which is the first of these "
        "hexes next to an undisrupted enemy fire unit" + (" (through its front)" if facing else "") + "?",
        answer_kind="choice",
        options=(*hexes, "none"),
        info=(
            "enemy fire units: " + ", ".join(f"{z.label} at {z.hex}" for z in zones),
            "a unit must stop on entering such a hex [6.41], [6.44]",
        ),
    )
    return None if answer == "none" else str(answer)


# -- stacking [5.3], [5.4] -------------------------------------------------------------------------------
def stack_limit(state: State, side: str, codes: list[str]) -> int:
    data = side_data(state, side)
    limit = int(data.get("stacking", 1))
    special = data.get("type_stacking", {})
    if codes and all(c in special for c in codes):
        limit = max(limit, min(int(special[c]) for c in codes))
    return limit


def classes_compatible(ctx_tables: Any, classes: list[str]) -> str:
    """'' when every pair of classes may share a hex (table stacking), else the clash."""
    table = ctx_tables.get("stacking")
    uniq = sorted(set(classes))
    for n, a in enumerate(uniq):
        for b in uniq[n:]:
            if str(table.lookup(first=a, second=b).cell).lower() != "yes":
                return f"Class {a} and Class {b} may not share a hex [5.32]-[5.35]"
    return ""


def hex_problem(ctx: Ctx, side: str, h: str, extra: list[Info] | None = None) -> str:
    riders = carriers.riding(ctx.state)
    units = [info(ctx.state, ctx.ruleset, u) for u in units_at(ctx.state, h)
             if u.side == side and u.id not in riders]
    units += extra or []
    troops = [i for i in units if not i.is_leader]
    limit = stack_limit(ctx.state, side, [i.code for i in troops])
    if len(troops) > limit:
        return f"{h}: {len(troops)} units, limit {limit} (leaders not counted) [5.4]"
    clash = classes_compatible(ctx.tables, [i.klass for i in troops])
    return f"{h}: {clash}" if clash else ""


def stacking_problems(state: State, ruleset: Any, side: str) -> list[str]:
    """Every hex of *side* over its stacking limit or mixing incompatible classes; a unit
    aboard a chariot or fleet is not counted apart (``carriers``)."""
    tables = ruleset.tables().with_overrides(state.table_overrides)
    by_hex: dict[str, list[Info]] = {}
    riders = carriers.riding(state)
    for u in units_of(state, side):
        if u.id in riders:
            continue
        i = info(state, ruleset, u)
        if i.hex is not None and not i.is_leader:
            by_hex.setdefault(i.hex, []).append(i)
    out = []
    for h in sorted(by_hex):
        troops = by_hex[h]
        limit = stack_limit(state, side, [i.code for i in troops])
        if len(troops) > limit:
            out.append(f"{h}: {len(troops)} units, limit {limit} [5.4]")
        clash = classes_compatible(tables, [i.klass for i in troops])
        if clash:
            out.append(f"{h}: {clash}")
    return out


# -- control [11.3] ---------------------------------------------------------------------------------
def mark_control(ctx: Ctx, hexes: list[str], passing: str | None = None) -> None:
    """A hex belongs to the side whose unit is in it, else to the last side that was [11.3].
    Control changes after every change of position (digest 5.11), so the hexes a unit only
    moved through count too: *passing* names the side that moved through *hexes* (no enemy
    unit can be in a hex entered [5.23])."""
    panic.darius_check(ctx, list(hexes), passing)
    for h in dict.fromkeys(hexes):
        sides = sorted({u.side for u in units_at(ctx.state, h)} | ({passing} if passing else set()))
        if len(sides) == 1:
            rec = ctx.state.records("control").get(h, {})
            if rec.get("side") != sides[0]:
                ctx.put_record("control", h, {"side": sides[0], "stamp": stamp(ctx.state)})


def controller(state: State, h: str) -> str | None:
    h = hexmap.canon(state, h)
    sides = sorted({u.side for u in units_at(state, h)})
    if len(sides) == 1:
        return sides[0]
    rec = state.records("control").get(h)
    return str(rec["side"]) if rec else None


# -- moving -------------------------------------------------------------------------------------------
def on_edge(ctx: Ctx, h: str, edge: str) -> bool:
    rec = hexmap.known_hex(ctx.state, h)
    edges = [e.upper() for e in rec.get("edges", [])]
    if edge and edge in edges:
        return True
    answer = bool(
        ctx.ruling(
            f"edge:{h}:{edge or 'any'}",
            f"Is hex {h} on the " + (f"{edge} " if edge else "") + "edge of the map?",
        )
    )
    if answer and edge and hexmap.may_cache(ctx):
        rec["edges"] = sorted({*edges, edge})
        ctx.put_record("hexes", hexmap.canon(ctx.state, h), rec)
    return answer


def is_road(ctx: Ctx, h: str) -> bool:
    rec = hexmap.known_hex(ctx.state, h)
    if "road" in rec:
        return bool(rec["road"])
    value = bool(ctx.ruling(f"road:{h}", f"Is hex {h} a road hex?"))
    rec["road"] = value
    if hexmap.may_cache(ctx):
        ctx.put_record("hexes", hexmap.canon(ctx.state, h), rec)
    return value


@record
class Planned:
    hexes: list[str]
    spent: Fraction
    ma: Fraction
    one_hex: bool
    exit_edge: str | None
    lines: list[str]


def chariot_stream_stop(ctx: Ctx, movers: list[Info], hexes: list[str]) -> str | None:
    """Chariot exclusive rules (digest 4.5, EXT-SCAN): a chariot (CH) must stop on entering a
    stream hex; ford and bridge hexes are not stream hexes. The first stream hex passed through
    (None when the move ends at the first one or there is none)."""
    if not exclusive.in_game(ctx.state, "C") or not any(m.code == "CH" for m in movers):
        return None
    for h in hexes[:-1]:
        if hexmap.terrain(ctx, h, "movement") == "stream":
            return h
    return None


def plan(
    ctx: Ctx, movers: list[Info], p: Path, key: str, *, allow_zone_pass: bool = False, plotting: bool = False,
    ma: Fraction | None = None,
) -> Planned:
    """Check a path for a unit or stack and work out its cost (*ma*: the Movement Allowance
    left when it is not this phase's, e.g. a chariot's after its Chariot Phase). Raises
    ActionRejected."""
    side = movers[0].side
    if ma is None:
        ma = min(ma_now(ctx.state, m.id) for m in movers)
    if len(movers) > 1:
        ctx.explain(f"the stack moves at its slowest MA, {ftext(ma)} [5.43]")
    klasses = [m.klass for m in movers]
    prev = p.start
    spent = Fraction(0)
    hexes: list[str] = []
    lines: list[str] = []
    enemy = {
        hexmap.canon(ctx.state, str(u.location)[4:]) for u in units_of(ctx.state, other(side)) if u.location
    }
    for step in p.steps:
        h = hexmap.canon(ctx.state, step.hex)
        if prev is None:
            if not on_edge(ctx, h, p.enter_edge if p.enter_edge != "?" else ""):
                raise ActionRejected(f"{h} is not on the {p.enter_edge} edge")
        elif h == prev:
            raise ActionRejected(f"{h} is entered twice in a row: a path cannot pause [22.11]")
        elif not hexmap.adjacent(ctx, prev, h, "movement path"):
            raise ActionRejected(f"{h} is not next to {prev}: the path must be continuous")
        if h in enemy and not plotting:
            raise ActionRejected(f"{h} holds enemy units: it may never be entered [5.23]")
        worst: Fraction | None = Fraction(0)
        reason = ""
        for k in sorted(set(klasses)):
            cost, why = entry_cost(ctx, prev, Step(h, step.road), k)
            if cost is None:
                raise ActionRejected(f"{h}: {why}")
            if worst is not None and cost > worst:
                worst, reason = cost, why
        assert worst is not None
        spent += worst
        lines.append(f"{h}: {ftext(worst)} MP ({reason}), {ftext(spent)} of {ftext(ma)}")
        hexes.append(h)
        prev = h
    one_hex = False
    if spent > ma:
        if len(hexes) == 1 and p.exit_edge is None:
            one_hex = True
            lines.append(
                "one hex whatever the cost: an undisrupted unit may always move one hex [5.15], [10.24]"
            )
        else:
            raise ActionRejected(
                f"the path costs {ftext(spent)} MP; the MA is {ftext(ma)} [5.13], [5.27]: " + "; ".join(lines)
            )
    if p.exit_edge is not None:
        last = hexes[-1] if hexes else p.start
        if last is None:
            raise ActionRejected("a unit off the map cannot exit")
        if ma - spent < 1:
            raise ActionRejected(f"leaving the map needs 1 MP left; {ftext(ma - spent)} remain [11.42]")
        if not on_edge(ctx, last, p.exit_edge):
            raise ActionRejected(f"{last} is not on the {p.exit_edge or 'map'} edge")
        if side_data(ctx.state, side).get("conceded") and not is_road(ctx, last):
            raise ActionRejected("under a tactical concession units leave by road hexes [15.0]")
    stream = chariot_stream_stop(ctx, movers, hexes)
    if stream:
        raise ActionRejected(
            f"{stream} is a stream hex: a chariot must stop on entering it (Chariot [1.0]-[1.9])"
        )
    if not allow_zone_pass and len(hexes) > 1:
        stop = zone_stop(ctx, movers[0], hexes[:-1], key)
        if stop is not None:
            raise ActionRejected(
                f"{stop} is next to an enemy fire unit: the move must end there [6.41], [6.44]"
            )
    if p.exit_edge is not None and hexes:
        stop = zone_stop(ctx, movers[0], hexes[-1:], key + ":exit")
        if stop is not None:
            raise ActionRejected(
                f"{stop} is next to an enemy fire unit: the unit must stop there "
                "and cannot leave the map [6.41]"
            )
    return Planned(hexes, spent, ma, one_hex, p.exit_edge, lines)


def place(ctx: Ctx, uid: str, h: str | None) -> None:
    u = ctx.unit(uid)
    u.location = at(h) if h else None


def facing_walk(
    ctx: Ctx,
    start: str | None,
    facings: list[int],
    hexes: list[str],
    turn_to: int = -1,
    auto_turn: bool = False,
) -> tuple[Fraction, int]:
    """With Facing [16.0], [16.11]: every hex entered must be one of the three to the front
    (entering it turns the unit toward it, free); a turn in place of up to 180 degrees costs
    1 MP. *facings*: the current facing of each moving unit. Returns the MP for turns and
    the facing after the last step."""
    cost = Fraction(0)
    current = [f for f in facings if f >= 0]
    if turn_to >= 0 and any(f != turn_to for f in facings):
        cost += 1
        current = [turn_to]
        ctx.explain(f"turn to face hexside {turn_to}: 1 MP [16.11]")
    prev = start
    facing = current[0] if current else -1
    for n, h in enumerate(hexes):
        if prev is not None:
            d = hexmap.direction(ctx, prev, h)
            if n == 0 and current and any((d - f) % 6 not in (0, 1, 5) for f in current):
                if not auto_turn:
                    raise ActionRejected(
                        f"{h} is not one of the three hexes to the front; turn first "
                        "(start_facing, 1 MP) [16.0], [16.11]"
                    )
                cost += 1
                ctx.explain(f"turn toward {h}: 1 MP [16.11]")
            elif n > 0 and (d - facing) % 6 not in (0, 1, 5):
                raise ActionRejected(f"{h} is not one of the three hexes to the front [16.0]")
            facing = d
        prev = h
    return cost, facing
