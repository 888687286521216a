"""Simultaneous movement: writing the secret plots [20.0]-[21.1].

Each Game-Turn both players give every unit one task, or none [20.0], [21.1]: OF (fire at a
hex), DF (defensive fire), ML (melee a hex) or MV (a hex-by-hex path, with the MP of any
hex above 1). A plot is checked when written: what the unit can do, range, continuity with
no pause [22.11], Movement Points; one that cannot be carried out counts as "no plot" and
the unit stays [20.4]. Plots live in each side's secrets, hidden from the other side until
the end of the game [20.1], and are frozen when the plot phase closes.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.prestags import carriers, exclusive, hexmap, movement
from rulesets.prestags.common import SIDES, frac, ftext, info, units_of
from rulesets.prestags.turns import arriving

# rule modules: imported at the first call of one of their functions
combat = later("rulesets.prestags.combat")

TASKS = ("OF", "DF", "ML", "MV", "SL")  # SL: a Viking fleet sails (Viking [3.1])


def parse_orders(text: str) -> dict[str, dict[str, Any]]:
    """Orders as lines ('a-sd01 MV 0405 0406:2 0407', 'a-bw01 OF 0609', 'a-bw02 DF',
    'a-sd02 ML 0506', 'a-sd03 -') or as a JSON object {unit: {task, target, path}}."""
    text = text.strip()
    if text.startswith("{"):
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"orders: not valid JSON: {exc}") from None
        return {str(k): dict(v) for k, v in raw.items()}
    out: dict[str, dict[str, Any]] = {}
    for n, line in enumerate(re.split(r"[;\n]", text), 1):
        words = line.split()
        if not words:
            continue
        if len(words) < 2:
            raise InvalidInput(f"orders line {n}: write UNIT TASK [target or path]")
        uid, task = words[0], words[1].upper()
        if task in ("-", "NONE"):
            out[uid] = {"task": "none"}
        elif task in ("OF", "ML"):
            if len(words) != 3:
                raise InvalidInput(f"orders line {n}: {task} needs exactly one target hex")
            out[uid] = {"task": task, "target": words[2]}
        elif task == "DF":
            out[uid] = {"task": "DF"}
        elif task in ("MV", "SL"):
            out[uid] = {"task": task, "path": words[2:]}
        else:
            raise InvalidInput(f"orders line {n}: task {task!r} is not OF, DF, ML, MV, SL or -")
    return out


def _check_order(ctx: Ctx, side: str, uid: str, order: dict[str, Any]) -> str:
    """'' when the order can be carried out, else why it is 'no plot' [20.4], [21.0]."""
    if uid not in ctx.state.units:
        return "no such unit"
    u = ctx.state.unit(uid)
    if u.side != side:
        return "not a unit of this side"
    i = info(ctx.state, ctx.ruleset, u)
    task = str(order.get("task", "none")).upper()
    entering = uid in arriving(ctx.state, side)
    if task == "NONE":
        return ""
    if task not in TASKS:
        return f"unknown task {task}"
    if not (i.active and i.hex) and not (task == "MV" and entering):
        return "not on the map"
    if (task == "SL") != (u.type == carriers.FLEET):
        return "a fleet sails (SL) and does nothing else; only fleets sail [V3.1]"
    if task == "SL":
        return _sail_problem(ctx, u, str(i.hex), order)
    if u.status.get("disrupted"):
        return "disrupted: it may do nothing [8.2]"
    if task in ("OF", "DF"):
        why = combat.fire_block(ctx.state, ctx.ruleset, uid)
        if why:
            return f"cannot fire: {why}"
    if task == "ML":
        why = combat.melee_block(ctx.state, ctx.ruleset, uid)
        if why:
            return f"cannot melee: {why}"
    if task in ("OF", "ML"):
        target = hexmap.canon(ctx.state, str(order.get("target", "")))
        if not combat.defenders_in(ctx.state, side, target):
            return f"{target} holds no enemy unit [21.1]"
    if task == "OF":
        target = hexmap.canon(ctx.state, str(order.get("target", "")))
        if not hexmap.within(ctx, str(i.hex), target, int(i.range or 0), f"plotted fire of {i.label}"):
            return f"{target} is beyond its range of {i.range} [6.13]"
    if task == "ML":
        target = hexmap.canon(ctx.state, str(order.get("target", "")))
        if not hexmap.adjacent(ctx, str(i.hex), target, f"plotted melee of {i.label}"):
            return f"{target} is not adjacent [7.0]"
    if task == "MV":
        if int(u.status.get("contact", 0) or 0):
            return "in contact: it may not leave its hex [18.2]"
        try:
            p = mv_path(order)
            p.start = None if p.enter_edge else i.hex
            if p.enter_edge and not entering:
                return "it is not waiting to enter the map"
            planned = movement.plan(ctx, [i], p, f"plot:{uid}", allow_zone_pass=True, plotting=True)
        except (ActionRejected, InvalidInput) as exc:
            return str(exc)
        if ctx.options.get("facing") and not p.enter_edge:
            turns, _f = movement.facing_walk(
                ctx, i.hex, [int(u.status.get("facing", -1))], planned.hexes, auto_turn=True
            )
            if planned.spent + turns > planned.ma and not planned.one_hex:
                return (
                    f"with its turn the path costs {ftext(planned.spent + turns)} MP of {ftext(planned.ma)}"
                )
        written = _written_costs(order)
        for h, cost in written.items():
            line = next((x for x in planned.lines if x.startswith(f"{h}:")), "")
            if line and frac(line.split(":")[1].split("MP")[0].strip()) > cost:
                return f"{h} costs more than the {ftext(cost)} MP written [20.0]"
    return ""


def sl_path(ctx: Ctx, order: dict[str, Any]) -> list[str]:
    raw = order.get("path", [])
    return [hexmap.canon(ctx.state, str(h)) for h in (raw if isinstance(raw, list) else str(raw).split())]


def _sail_problem(ctx: Ctx, u: Any, start: str, order: dict[str, Any]) -> str:
    """A plotted sail [V3.1]-[V3.2]: the Viking game, a fleet under sail (mooring, unmooring,
    boarding and landing are not plotted), a course it can sail on its 15 MP, 7 disrupted
    [V3.23]; it is never stopped next to enemy fire units [V3.26]."""
    from rulesets.prestags.act_fleet import course_problem

    if not exclusive.in_game(ctx.state, "V"):
        return "fleets sail only in the Viking game with its exclusive rules on"
    if u.status.get("moored"):
        return "moored: a moored fleet does not sail in the simultaneous game"
    hexes = sl_path(ctx, order)
    if not hexes:
        return "SL needs the hexes sailed, in order"
    ma = carriers.fleet_ma(bool(u.status.get("disrupted")))
    if len(hexes) > ma:
        return f"{len(hexes)} hexes at 1 MP: more than its MA of {ma} [V3.11], [V3.23]"
    return course_problem(ctx, u.side, start, hexes, u.label)


def mv_path(order: dict[str, Any]) -> movement.Path:
    raw = order.get("path", [])
    items = raw if isinstance(raw, list) else str(raw).split()
    cleaned = []
    for item in items:
        text = str(item)
        if ":" in text and not text.lower().startswith(("from:", "off")):
            hx, cost = text.rsplit(":", 1)
            if not cost.strip().isdigit():
                raise ActionRejected(f"{text!r}: write HEX:MP")
            text = hx
        cleaned.append(text)
    return movement.parse_path(cleaned)


def _written_costs(order: dict[str, Any]) -> dict[str, Fraction]:
    out = {}
    raw = order.get("path", [])
    for item in raw if isinstance(raw, list) else str(raw).split():
        text = str(item)
        if ":" in text and not text.lower().startswith(("from:", "off")):
            hx, cost = text.rsplit(":", 1)
            out[hexmap.norm(hx.replace("+road", ""))] = frac(cost)
    return out


def _plotting(state: State) -> str | None:
    return None if state.step == "PLOT" else "plots are written in the Operations Plot Phase"


@action(
    "plot",
    "Write a secret plot",
    Param("side", "side", help="the side plotting"),
    Param(
        "orders",
        help="one line per unit: UNIT OF HEX | UNIT DF | UNIT ML HEX | UNIT MV HEX HEX:2 ... "
        "| FLEET SL HEX HEX ... | UNIT - (or a JSON object)",
    ),
    visibility="actor",
    key="o",
    reference="20.0",
    available=_plotting,
)
def plot(ctx: Ctx, side: str, orders: str) -> None:
    """Write this Game-Turn's task for each unit, in secret [20.1]. A side may rewrite its
    plot until the phase closes; an impossible order counts as no plot [20.4]."""
    if ctx.by not in ("gm", side):
        raise ActionRejected(f"only {ctx.state.sides[side].name} (or the GM) may write their plot")
    ctx.secret_to(side)
    gt = int(ctx.clock.get("gt", 1))
    parsed = parse_orders(orders)
    checked: dict[str, dict[str, Any]] = {}
    bad = []
    for uid in sorted(parsed):
        order = dict(parsed[uid])
        task = str(order.get("task", "none")).upper()
        order["task"] = "none" if task == "NONE" else task
        why = _check_order(ctx, side, uid, order)
        if why == "no such unit" or why == "not a unit of this side":
            raise ActionRejected(f"orders: {uid}: {why}")
        order["valid"] = not why
        if why:
            order["problem"] = why
            bad.append(f"{uid}: {why}")
        if "target" in order:
            order["target"] = hexmap.canon(ctx.state, str(order["target"]))
        checked[uid] = order
    for u in sorted(units_of(ctx.state, side, ("active", "reserve")), key=lambda x: x.id):
        checked.setdefault(u.id, {"task": "none", "valid": True})
    ctx.set_secret(side, "plot", {"gt": gt, "orders": checked})
    archive = dict(ctx.secret(side, "archive", {}))
    archive[str(gt)] = {"orders": checked}
    ctx.set_secret(side, "archive", archive)
    for line in bad:
        ctx.explain(f"no plot (the unit stays) [20.4]: {line}")
    tasks = [o["task"] for o in checked.values() if o.get("valid")]
    ctx.summary(
        f"{ctx.state.sides[side].name} plotted Game-Turn {gt}: "
        + (", ".join(f"{tasks.count(t)} {t}" for t in TASKS if t in tasks) or "no tasks")
        + (f"; {len(bad)} impossible" if bad else "")
    )


def plotted(state: State) -> str | None:
    gt = int(state.clock.get("gt", 1))
    waiting = [s for s in SIDES if state.secrets.get(s, {}).get("plot", {}).get("gt") != gt]
    return ("waiting for the plot of " + ", ".join(state.sides[s].name for s in waiting)) if waiting else None


def orders(state: State, side: str) -> dict[str, dict[str, Any]]:
    return dict(state.secrets.get(side, {}).get("plot", {}).get("orders", {}))


def start_plot(ctx: Ctx) -> None:
    """Entering the plot phase: a new Game-Turn's flags and the Movement Allowance of every
    unit, fixed at the start of the turn (leader radius [10.23])."""
    ctx.set_var("sim_done", None)
    ctx.set_var("sim_moved", None)
    for name in ("fled", "moved", "entered"):
        ctx.set_var(name, None)
    snap: dict[str, str] = {}
    for side in SIDES:
        snap.update(movement.snapshot(ctx, side))
    ctx.set_var("ma", snap)


def close_plots(ctx: Ctx) -> None:
    ctx.set_var("plots_closed", int(ctx.clock.get("gt", 1)))
    ctx.explain("plots are sealed for this Game-Turn [20.4]")
