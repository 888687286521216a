"""The simultaneous movement sequence (optional [19.0]-[23.3]): resolving the plots.

After the secret plots (module ``plots``) the phases resolve in strict order: fire, melee,
movement, defensive fire. All combat within a phase is simultaneous: every attack is worked
out from the phase's starting position and the results are applied together [20.2], so a
unit hit in the same phase still completes its attack [20.21]; a unit disrupted in an
earlier phase cannot carry out its task [20.22]. Movement goes one hex per step for
everyone [22.12]; enemy forces trying to enter the same hex are settled by melee attack
strength, then by a die [22.2]; forces crossing the same hexside, or walking into a stopped
enemy, halt [22.3].
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import action
from campaign_tui.core.context import Ctx
from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.prestags import carriers, exclusive, hexmap, movement, turns
from rulesets.prestags.act_fleet import sink_stuck_fleets
from rulesets.prestags.common import SIDES, Info, info, other, side_data, units_at
from rulesets.prestags.plots import mv_path, orders, sl_path

# rule modules: imported at the first call of one of their functions
combat = later("rulesets.prestags.combat")
crt = later("rulesets.prestags.crt")
panic = later("rulesets.prestags.panic")
results = later("rulesets.prestags.results")


def _valid(state: State, task: str) -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for side in SIDES:
        for uid, o in sorted(orders(state, side).items()):
            if o.get("valid") and o.get("task") == task:
                out.append((side, uid, o))
    return out


def _can_act(ctx: Ctx, uid: str) -> str:
    u = ctx.state.unit(uid)
    if u.status.get("state") != "active" or not u.location:
        return "no longer on the map"
    if u.status.get("disrupted"):
        return "disrupted in an earlier phase [20.22]"
    return ""


def _done(state: State, phase: str) -> bool:
    return phase in state.vars.get("sim_done", [])


def need(phase: str) -> Any:
    return lambda s: None if _done(s, phase) else f"resolve the {phase} phase first"


def _mark_done(ctx: Ctx, phase: str) -> None:
    ctx.edit_var("sim_done", []).append(phase)


def _not_done(phase: str) -> Any:
    return lambda s: f"the {phase} phase is already resolved" if _done(s, phase) else None


# -- (B) fire -----------------------------------------------------------------------------------------
def _group(entries: list[tuple[str, str, dict[str, Any]]]) -> dict[tuple[str, str], list[str]]:
    groups: dict[tuple[str, str], list[str]] = {}
    for side, uid, o in entries:
        groups.setdefault((side, str(o.get("target"))), []).append(uid)
    return dict(sorted(groups.items()))


@action("resolve_fire", "Resolve the fire phase", available=_not_done("fire"), key="r", reference="19.1")
def resolve_fire(ctx: Ctx) -> None:
    """(B) Every unit plotted OF fires at its target; fire at one hex is combined; all
    results land together [19.1], [20.2]."""
    plans = []
    for (side, target), ids in _group(_valid(ctx.state, "OF")).items():
        firers = []
        for uid in ids:
            why = _can_act(ctx, uid) or (combat.fire_block(ctx.state, ctx.ruleset, uid) or "")
            if why:
                ctx.explain(f"{ctx.state.unit(uid).label} does not fire: {why}")
                continue
            firers.append(info(ctx.state, ctx.ruleset, uid))
        if not combat.defenders_in(ctx.state, side, target):
            ctx.explain(f"{target}: no enemy there any more; the fire is lost [21.2]")
            continue
        ok = []
        for f in firers:
            try:
                combat.check_firer(ctx, f, target, False)
                ok.append(f)
            except ActionRejected as exc:
                ctx.explain(f"no fire: {exc}")
        if ok:
            plans.append((side, combat.plan_fire(ctx, ok, target, False, checked=True)))
    _fire_plans(ctx, plans, "fire")
    _mark_done(ctx, "fire")


def _fire_plans(ctx: Ctx, plans: list[tuple[str, combat.FirePlan]], kind: str) -> None:
    readings = []
    for side, p in plans:
        try:
            r = combat.roll_fire(
                ctx, p, side, f"{kind}: {', '.join(f.label for f in p.firers)} -> {p.target}"
            )
        except ActionRejected as exc:
            ctx.explain(f"{p.target}: {exc}")
            continue
        readings.append((side, p, r))
    for side, p, r in readings:
        results.apply(ctx, r.result, [p.target], "fire", other(side))
        combat.mark_fired(ctx, p.firers, offensive=kind == "fire")
    panic.check(ctx, None)
    shown = "; ".join(f"{p.target} {r.column} -> {r.result}" for _s, p, r in readings)
    ctx.summary(f"{'Fire' if kind == 'fire' else 'Defensive fire'} resolution: {shown or 'no fire'}")


# -- (C) melee ----------------------------------------------------------------------------------------
@action("resolve_melee", "Resolve the melee phase", available=_not_done("melee"), key="r", reference="19.1")
def resolve_melee(ctx: Ctx) -> None:
    """(C) Every unit plotted ML attacks its target hex, together with the others plotted
    on it. Units plotted to move defend at half [23.11]; the others at full [23.2], [23.3]."""
    moving = {uid for _s, uid, _o in _valid(ctx.state, "MV")}
    attacks = []
    for (side, target), ids in _group(_valid(ctx.state, "ML")).items():
        units: list[Info] = []
        for uid in ids:
            why = _can_act(ctx, uid) or (combat.melee_block(ctx.state, ctx.ruleset, uid) or "")
            if why:
                ctx.explain(f"{ctx.state.unit(uid).label} does not attack: {why}")
                continue
            units.append(info(ctx.state, ctx.ruleset, uid))
        if not units or not combat.defenders_in(ctx.state, side, target):
            if units:
                ctx.explain(f"{target}: no enemy there any more; the attack is off [21.2]")
            continue
        attacks.append((side, target, units))
    if ctx.options.get("retreat_before_combat"):
        from rulesets.prestags.act_combat import retreats

        kept = []
        for side, target, units in attacks:
            retreats(ctx, units, [target], side)
            if combat.defenders_in(ctx.state, side, target):
                kept.append((side, target, units))
            else:
                ctx.explain(f"{target}: the defenders retreated before combat; no melee [17.0]")
        attacks = kept
    plans = []
    for side, target, units in attacks:
        try:
            p = combat.plan_melee(ctx, units, [target], side, moving=moving)
            ex = exclusive.melee_adjust(ctx, units, [target], side)  # Alexander, Viking ferocity
            crt.odds_column(ctx.tables, ctx.options, p.attack, p.defence, ex.shift)
        except ActionRejected as exc:
            ctx.explain(f"melee on {target} not made: {exc}")
            continue
        plans.append((side, p, ex))
    rolled = []
    for side, p, ex in plans:
        readings = combat.roll_melee(
            ctx,
            p,
            side,
            f"melee: {', '.join(a.label for a in p.attackers)} -> {p.targets[0]}",
            ex.shift,
            0,
            ex.die,
        )
        rolled.append((side, p, readings))
    shown = []
    for side, p, readings in rolled:
        eff = results.Effects()
        for r in readings:
            eff.merge(results.apply(ctx, r.result, r.hexes, "melee", other(side)))
            shown.append(f"{'/'.join(r.hexes)} {r.column} -> {r.result}")
        from rulesets.prestags.act_combat import after_melee

        after_melee(ctx, p.attackers, p.targets, eff, side)
    panic.check(ctx, None)
    _mark_done(ctx, "melee")
    ctx.summary("Melee resolution: " + ("; ".join(shown) or "no melee"))


# -- (D) movement -------------------------------------------------------------------------------------
def _strength(state: State, ruleset: Any, ids: list[str]) -> int:
    """Melee Attack Strength of an entering force; brackets at face value [22.22]."""
    return sum(info(state, ruleset, uid).melee_attack for uid in ids)


@action(
    "resolve_movement",
    "Resolve the movement phase",
    available=_not_done("movement"),
    key="r",
    reference="22.0",
)
def resolve_movement(ctx: Ctx) -> None:
    """(D) Every unit plotted MV moves, one hex per step for all together [22.12]. Panicked
    units flee first (flee) and their plots are void [13.0]."""
    left = turns.panicked_to_flee(ctx.state) if ctx.options.get("panic") else []
    if left:
        raise ActionRejected(
            "panicked units must flee first (flee, with an empty path if they cannot) [13.0]: "
            + ", ".join(ctx.state.unit(x).label for x in left)
        )
    movers: dict[str, dict[str, Any]] = {}
    for side, uid, o in _valid(ctx.state, "SL"):
        if ctx.state.unit(uid).status.get("state") == "active" and ctx.state.unit(uid).location:
            movers[uid] = _sailer(ctx, side, uid, o)  # a fleet sails disrupted too [V3.23]
    for side, uid, o in _valid(ctx.state, "MV"):
        u = ctx.state.unit(uid)
        if u.status.get("panicked") or uid in ctx.var("fled", []):
            ctx.explain(f"{u.label} is panicked: its flight replaces its plot [13.0]")
            continue
        entering = u.status.get("state") == "reserve"
        if not entering:
            why = _can_act(ctx, uid)
            if why:
                ctx.explain(f"{u.label} does not move: {why}")
                continue
        elif u.status.get("disrupted"):
            continue
        p = mv_path(o)
        hexes = [hexmap.canon(ctx.state, s.hex) for s in p.steps]
        movers[uid] = {
            "side": side,
            "pos": None if entering else str(u.location)[4:],
            "path": hexes,
            "exit": p.exit_edge,
            "idx": 0,
            "stopped": False,
            "entered": [],
            "fleet": False,
        }
    step = 0
    while True:
        wants = {
            uid: m["path"][m["idx"]]
            for uid, m in sorted(movers.items())
            if not m["stopped"] and m["idx"] < len(m["path"])
        }
        if not wants:
            break
        step += 1
        stop: set[str] = set()
        for a, ha in wants.items():
            for b, hb in wants.items():
                ma, mb = movers[a], movers[b]
                if ma["side"] != mb["side"] and ma["pos"] == hb and mb["pos"] == ha:
                    stop |= {a, b}
        if stop:
            ctx.explain(f"step {step}: " + ", ".join(sorted(stop)) + " meet on a hexside and stop [22.3]")
        _same_hex(ctx, movers, wants, stop, step)
        changed = True
        while changed:
            changed = False
            for uid, h in wants.items():
                if uid in stop:
                    continue
                side = movers[uid]["side"]
                if movers[uid]["fleet"] and hexmap.known_hex(ctx.state, h).get("terrain") in (
                    "ford",
                    "bridge",
                ):
                    continue  # a fleet sails through an enemy-held ford or bridge [V3.28]
                for e in units_at(ctx.state, h):
                    if e.side == side:
                        continue
                    leaving = e.id in wants and e.id not in stop and wants[e.id] != h
                    if not leaving:
                        stop.add(uid)
                        changed = True
                        ctx.explain(
                            f"step {step}: {ctx.state.unit(uid).label} stops short of {h}, held by "
                            f"the enemy [22.3], [5.23]"
                        )
                        break
        for uid in sorted(wants):
            m = movers[uid]
            if uid in stop:
                m["stopped"] = True
                continue
            h = wants[uid]
            if ctx.options.get("facing") and m["pos"] is not None:
                ctx.unit(uid).status["facing"] = hexmap.direction(ctx, m["pos"], h)
            riders = carriers.aboard(ctx.state, uid)  # a chariot's or fleet's riders go with it
            for x in [uid, *(r.id for r in riders)]:
                movement.place(ctx, x, h)
            if m["pos"] is None:
                ctx.unit(uid).status["state"] = "active"
            m["pos"] = h
            m["idx"] += 1
            m["entered"].append(h)
        # control changes after every change of position, each step of the move [11.3]
        movement.mark_control(ctx, [wants[uid] for uid in sorted(wants) if uid not in stop])
        for uid in sorted(wants):
            m = movers[uid]
            if m["stopped"] or not m["entered"] or m["entered"][-1] != wants[uid] or m["fleet"]:
                continue  # a fleet is not stopped next to enemy fire units [V3.26]
            i = info(ctx.state, ctx.ruleset, uid)
            if m["idx"] < len(m["path"]) or m["exit"] is not None:
                z = movement.zone_stop(ctx, i, [wants[uid]], f"sim:{uid}:{ctx.clock.get('gt')}:{step}")
                if z:
                    m["stopped"] = True
                    ctx.explain(
                        f"step {step}: {i.label} stops in {z}, next to an enemy fire unit [6.41], [21.1]"
                    )
    moved: dict[str, list[str]] = {
        uid: [str(ctx.state.unit(uid).location)[4:]]
        for uid in ctx.var("fled", [])
        if ctx.state.unit(uid).status.get("state") == "active" and ctx.state.unit(uid).location
    }
    for uid, m in sorted(movers.items()):
        if m["exit"] is not None and not m["stopped"] and m["idx"] >= len(m["path"]):
            conceded = side_data(ctx.state, m["side"]).get("conceded")
            reason = (
                "panic"
                if ctx.state.unit(uid).status.get("panicked")
                else ("concession" if conceded else "victory")
            )
            results.exit_unit(ctx, uid, reason, m["exit"])
        if m["entered"]:
            moved[uid] = m["entered"]
    ctx.set_var("sim_moved", moved)
    for side in SIDES:
        sink_stuck_fleets(ctx, side)  # Viking [3.28]
        problems = movement.stacking_problems(ctx.state, ctx.ruleset, side)
        for line in problems:
            ctx.explain(f"stacking to put right ({ctx.state.sides[side].name}): {line} [5.4]")
        if ctx.options.get("panic"):
            panic.rally(ctx, side)
    panic.check(ctx, None)
    _mark_done(ctx, "movement")
    ctx.summary(f"Movement resolution: {len(moved)} unit(s) moved in {step} step(s)")


def _sailer(ctx: Ctx, side: str, uid: str, order: dict[str, Any]) -> dict[str, Any]:
    """A fleet's plotted course as a mover: 1 MP a hex, in step with the others [22.12]."""
    return {
        "side": side,
        "pos": str(ctx.state.unit(uid).location)[4:],
        "path": sl_path(ctx, order),
        "exit": None,
        "idx": 0,
        "stopped": False,
        "entered": [],
        "fleet": True,
    }


def _same_hex(
    ctx: Ctx, movers: dict[str, dict[str, Any]], wants: dict[str, str], stop: set[str], step: int
) -> None:
    """Enemy forces entering the same hex: the larger Melee Attack Strength goes first; on a
    tie each side rolls a die, the higher first [22.21]-[22.23]. The other force is then
    facing an occupied hex and stops."""
    by_hex: dict[str, dict[str, list[str]]] = {}
    for uid, h in wants.items():
        if uid not in stop:
            by_hex.setdefault(h, {}).setdefault(movers[uid]["side"], []).append(uid)
    for h, forces in sorted(by_hex.items()):
        if len(forces) < 2:
            continue
        sa = _strength(ctx.state, ctx.ruleset, forces["A"])
        sb = _strength(ctx.state, ctx.ruleset, forces["B"])
        if sa != sb:
            first = "A" if sa > sb else "B"
            ctx.explain(
                f"step {step}: both sides enter {h}; melee attack strength {sa} to {sb}: "
                f"{ctx.state.sides[first].name} enter first [22.21]"
            )
        else:
            first = ""
            n = 0
            while not first:
                n += 1
                ra = ctx.roll("1d6", f"entry into {h}: {ctx.state.sides['A'].name} (try {n})", side="A")
                rb = ctx.roll("1d6", f"entry into {h}: {ctx.state.sides['B'].name} (try {n})", side="B")
                if ra.natural != rb.natural:
                    first = "A" if ra.natural > rb.natural else "B"
                ctx.result(ra, f"{ra.natural} vs {rb.natural}")
                ctx.result(
                    rb, f"{rb.natural} vs {ra.natural}" + (f": {first} first" if first else ": tie, again")
                )
            ctx.explain(
                f"step {step}: equal strength ({sa}) into {h}; the die puts "
                f"{ctx.state.sides[first].name} first [22.23]"
            )
        loser = other(first)
        for uid in forces[loser]:
            stop.add(uid)


# -- (E) defensive fire -------------------------------------------------------------------------------
@action(
    "resolve_df", "Resolve defensive fire", available=_not_done("defensive fire"), key="r", reference="19.1"
)
def resolve_df(ctx: Ctx) -> None:
    """(E) Each unit plotted DF may fire at an enemy unit of its choice that moved next to
    it; fire at one hex is combined and each hex is fired on once (DEFAULT); all results
    land together."""
    moved = ctx.var("sim_moved", {})
    choices: dict[tuple[str, str], list[str]] = {}
    for side, uid, _o in _valid(ctx.state, "DF"):
        why = _can_act(ctx, uid) or (combat.fire_block(ctx.state, ctx.ruleset, uid) or "")
        if why:
            ctx.explain(f"{ctx.state.unit(uid).label} does not fire: {why}")
            continue
        i = info(ctx.state, ctx.ruleset, uid)
        targets = []
        for e in sorted(moved):
            eu = ctx.state.unit(e)
            if eu.side == side or eu.status.get("state") != "active" or not eu.location:
                continue
            h = str(eu.location)[4:]
            if h not in targets and hexmap.adjacent(ctx, str(i.hex), h, f"defensive fire of {i.label}"):
                targets.append(h)
        if not targets:
            continue
        pick = ctx.decide(
            Decision(
                id=f"df:{uid}",
                kind="choice",
                prompt=f"{i.label} ({i.hex}): defensive fire at which hex?",
                options=(*[Option(h, h) for h in targets], Option("hold", "do not fire")),
                side=side,
                default=targets[0],
            )
        )
        if pick != "hold":
            choices.setdefault((side, str(pick)), []).append(uid)
    plans = []
    for (side, target), ids in sorted(choices.items()):
        units = [info(ctx.state, ctx.ruleset, uid) for uid in ids]
        plans.append((side, combat.plan_fire(ctx, units, target, True)))
    _fire_plans(ctx, plans, "defensive fire")
    _mark_done(ctx, "defensive fire")
