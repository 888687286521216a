"""Planetary Combat Phase (P2) and the steps of one ground combat (2.3)."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.prefect import candidates as C
from rulesets.prefect import ops
from rulesets.prefect.board import TERRAINS, Board, hexid, loc_hex, map_board, other
from rulesets.prefect.common import actor_side, own_force
from rulesets.prefect.rulings import adjacent, area_of

# rule modules: imported at the first call of one of their functions
ground_combat = later("rulesets.prefect.ground_combat")
ground_detection = later("rulesets.prefect.ground_detection")
attempt = ground_detection.attempt


# -- P2.1 detection ----------------------------------------------------------------------------
@action(
    "detect",
    "Detection attempt",
    Param("tf", "formation", help="your detecting task force", candidates=C.own_forces),
    Param("target", "formation", help="an adjacent enemy task force", candidates=C.enemy_forces),
    Param("esm", "int", required=False, help="ESM to announce (default: the full value)"),
    reference="P2.1, 5.3",
    key="d",
)
def detect(ctx: Ctx, tf: str, target: str, esm: int | None = None) -> None:
    """One attempt per task force, against one adjacent enemy task force. Not allowed to
    task forces that moved in LAF this turn, nor to Defender task forces that tried to
    detect during counteractions. A detection from the Movement Phase still stands if
    neither task force has moved since."""
    board = Board.of(ctx)
    side = actor_side(ctx)
    f = own_force(ctx, tf, side)
    t = own_force(ctx, target, other(side))
    if f.status.get("moved_laf"):
        raise ActionRejected(f"{f.name} moved in LAF this turn and may not detect")
    if f.status.get("counter_detect") and side == board.defender:
        raise ActionRejected(f"{f.name} tried to detect during counteractions and may not detect now")
    if f.status.get("combat_detect"):
        raise ActionRejected(f"{f.name} has already made its detection attempt this phase")
    if board.detected(target):
        raise ActionRejected(f"{t.name} is already detected")
    if not adjacent(ctx, loc_hex(f.location) or "", loc_hex(t.location) or ""):
        raise ActionRejected(f"{t.name} is not next to {f.name}")
    ctx.formation(tf).status["combat_detect"] = True
    ok = attempt(ctx, tf, target, esm, "detection")
    ctx.summary(f"{f.name} {'detects' if ok else 'fails to detect'} {t.name}")


# -- P2.2 declaring attacks ------------------------------------------------------------------------
@action(
    "declare_attack",
    "Declare an attack",
    Param("attackers", "formations", help="your adjacent task forces",
          candidates=C.attackers_in_contact),
    Param("target", "formation", required=False, help="the enemy task force attacked",
          candidates=C.attack_targets),
    Param("hex", "hex", required=False, board=map_board,
          help="or: an adjacent hex holding only disrupted enemy units"),
    side="attacker",
    reference="P2.2",
    key="a",
)
def declare_attack(ctx: Ctx, attackers: list[str], target: str | None = None, hex: str | None = None) -> None:
    """Each attacking task force must be next to its target, attacks once, and may not be
    at fatigue 3; each defending task force is attacked at most once."""
    board = Board.of(ctx)
    if bool(target) == bool(hex):
        raise ActionRejected("name either a target task force or a hex of disrupted units")
    attacks = list(ctx.var("attacks", []))
    busy = {a for x in attacks for a in x["attackers"]}
    if target:
        t = own_force(ctx, target, board.defender)
        if any(x.get("target") == target for x in attacks):
            raise ActionRejected(f"{t.name} is already attacked this phase")
        where = loc_hex(t.location) or ""
        name = t.name
    else:
        where = hexid(hex, ctx.state)
        if board.forces_at(where, board.defender):
            raise ActionRejected(f"hex {where} holds an enemy task force: attack it instead")
        if not board.loose_at(where, board.defender):
            raise ActionRejected(f"hex {where} holds no disrupted enemy units")
        if any(x.get("hex") == where for x in attacks):
            raise ActionRejected(f"hex {where} is already attacked")
        name = f"disrupted units in hex {where}"
    for a in attackers:
        f = own_force(ctx, a, board.attacker)
        if a in busy:
            raise ActionRejected(f"{f.name} already attacks this phase")
        if board.fatigue(a) >= 3:
            raise ActionRejected(f"{f.name} is at fatigue 3 and may not attack")
        if not adjacent(ctx, loc_hex(f.location) or "", where):
            raise ActionRejected(f"{f.name} is not next to {name}")
    n = int(ctx.var("attack_seq", 0)) + 1
    ctx.set_var("attack_seq", n)
    entry: dict[str, Any] = {"id": f"a{n}", "attackers": list(attackers)}
    if target:
        entry["target"] = target
    else:
        entry["hex"] = where
    attacks.append(entry)
    ctx.set_var("attacks", attacks)
    ctx.summary(f"attack a{n}: {', '.join(ctx.state.formation(a).name for a in attackers)} on {name}")


@action(
    "cancel_attack",
    "Withdraw a declared attack",
    Param("attack", help="attack id, e.g. a1"),
    side="attacker",
    reference="P2.2",
)
def cancel_attack(ctx: Ctx, attack: str) -> None:
    """Take back an attack declared in error, before the resolution begins."""
    attacks = list(ctx.var("attacks", []))
    if not any(a["id"] == attack for a in attacks):
        raise ActionRejected(f"no declared attack {attack}")
    ctx.set_var("attacks", [a for a in attacks if a["id"] != attack])
    ctx.summary(f"attack {attack} withdrawn")


def _attacks_left(s: State) -> str | None:
    return None if s.vars.get("attacks") else "no declared attack is left"


@action(
    "resolve_attack",
    "Resolve a declared attack",
    Param("attack", required=False, help="attack id (default: the first)"),
    side="attacker",
    reference="P2.3, 2.3",
    key="r",
    available=_attacks_left,
)
def resolve_attack(ctx: Ctx, attack: str | None = None) -> None:
    """Resolve the declared attacks one at a time, in the order you choose; all retreats
    of one attack are finished before the next."""
    attacks = list(ctx.var("attacks", []))
    entry = next((a for a in attacks if attack in (None, a["id"])), None)
    if entry is None:
        raise ActionRejected(f"no declared attack {attack}; declared: {', '.join(a['id'] for a in attacks)}")
    ctx.set_var("attacks", [a for a in attacks if a["id"] != entry["id"]])
    live = [a for a in entry["attackers"] if a in ctx.state.formations]
    if not live:
        ctx.summary(f"attack {entry['id']}: no attacking task force is left")
        return
    target = entry.get("target")
    if target and target not in ctx.state.formations:
        ctx.summary(f"attack {entry['id']}: the target is gone")
        return
    how = ground_combat.begin(
        ctx, "phase", live, target, entry["id"], entry.get("hex"), entry.get("newcomers", [])
    )
    ctx.summary(f"attack {entry['id']} " + ("resolved" if how == "done" else "begins"))


# -- the combat sub-machine --------------------------------------------------------------------------
def _counter_combat(s: State) -> str | None:
    c = s.vars.get("combat") or {}
    if c.get("kind") != "counter" or not c.get("mover_may_detect"):
        return "only the task force counterattacked while moving may try this"
    return None


@action(
    "detect_counterattacker",
    "Detect a counterattacking task force",
    Param("tf", "formation", help="one of the counterattacking task forces"),
    Param("esm", "int", required=False),
    side="combat_defender",
    reference="P1.4, 5.3",
    key="d",
    available=_counter_combat,
)
def detect_counterattacker(ctx: Ctx, tf: str, esm: int | None = None) -> None:
    """The task force counterattacked while moving gets one detection attempt against one
    counterattacking task force of its owner's choice."""
    c = ctx.edit_var("combat", {})
    if tf not in c["attackers"]:
        raise ActionRejected(f"{tf} is not counterattacking")
    c["mover_may_detect"] = False
    ok = attempt(ctx, c["defender"], tf, esm, "detection before a counterattack")
    ctx.summary(f"{ctx.state.formation(tf).name} {'detected' if ok else 'not detected'}")
    ctx.advance(check=False)


def _support_open(s: State) -> str | None:
    c = s.vars.get("combat") or {}
    if not c:
        return "no combat in progress"
    if s.vars.get("game") != "campaign":
        return "naval ground support exists only in the campaign game"
    return None


@action(
    "add_ground_support",
    "Add naval ground support",
    Param("units", "units", help="naval units in the area's Ground Support box"),
    Param("side", "side", help="the side they support"),
    reference="5.14.1",
    key="g",
    available=_support_open,
)
def add_ground_support(ctx: Ctx, units: list[str], side: str) -> None:
    """Commit naval units from the area's Ground Support Holding Box to this combat: only
    their attack value is added, to the attack total or to the defense total."""
    board = Board.of(ctx)
    c = ctx.edit_var("combat", {})
    area = area_of(ctx, c["hex"])
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side:
            raise ActionRejected(f"{u.label} belongs to {u.side}")
        if int(u.data.get("gs_area", 0)) != area:
            raise ActionRejected(f"{u.label} is not in the Ground Support box of area {area}")
        if board.kind(u) not in ("starship", "fighter", "transport") or not board.active(u):
            raise ActionRejected(f"{u.label} cannot support")
        if uid in c["support"].get(side, []):
            raise ActionRejected(f"{u.label} already supports this combat")
    c["support"].setdefault(side, []).extend(units)
    ctx.summary(f"{side} naval support: {', '.join(ctx.state.unit(u).label for u in units)}")


@action(
    "choose_shift",
    "Choose the column shift",
    Param("shift", "choice", choices=("left", "none", "right")),
    side="shifter",
    reference="5.5, G12",
    key="s",
)
def choose_shift(ctx: Ctx, shift: str) -> None:
    """The one undetected side may move the odds one column left or right, or leave them,
    before the die is rolled. A shift past the table's end is not available."""
    ground_combat.compute(ctx)
    ground_combat.choose_shift(ctx, {"left": -1, "none": 0, "right": 1}[shift])
    ctx.summary(ground_combat.odds_text(ground_combat.combat(ctx)))
    ctx.advance(check=False)


@action("roll_combat", "Roll the combat", side="combat_attacker", reference="2.3 C4-C7, 5.7", key="r")
def roll_combat(ctx: Ctx) -> None:
    """Roll on the Combat Results Table, then every unit's saving roll with its own target;
    disruptions, destructions, BT/CA and fatigue follow automatically."""
    c = ground_combat.combat(ctx)
    if c.get("rolled"):
        raise ActionRejected("this combat has been rolled")
    ground_combat.resolve(ctx)
    c = ground_combat.combat(ctx)
    ctx.summary(f"{ground_combat.odds_text(c)}: roll {c.get('roll')} -> {c.get('cell')}")
    ctx.advance(check=False)


@action(
    "retreat",
    "Retreat",
    Param("tf", help="the task force (or scatter:TF for broken ones) that retreats"),
    Param("hex", help="a neighbouring hex without an enemy task force, or none"),
    Param("terrain", "choice", choices=TERRAINS, required=False),
    side="retreating",
    reference="5.8",
    key="t",
)
def retreat(ctx: Ctx, tf: str, hex: str, terrain: str | None = None) -> None:
    """Move a retreating task force (with its disrupted units) one hex. Entering a
    friendly task force's hex merges the two. With no hex free of enemy task forces it is
    destroyed (answer hex=none)."""
    ground_combat.retreat(ctx, tf, hex, terrain)
    ctx.summary(f"{tf} retreats to {hex}")
    if not ground_combat.pending_retreats(ctx.state):
        ctx.advance(check=False)


def _advance_open(s: State) -> str | None:
    c = s.vars.get("combat") or {}
    if c.get("advance") or s.vars.get("special_advance"):
        return None
    return "no task force may advance now"


@action(
    "advance_after_combat",
    "Advance into the vacated hex",
    Param("tf", "formation"),
    Param("hex", required=False, help="which vacated hex (when there are several)"),
    reference="2.3 C6, 5.11.9",
    key="v",
    available=_advance_open,
)
def advance_after_combat(ctx: Ctx, tf: str, hex: str | None = None) -> None:
    """The winner may move one task force that took part into the vacated hex; enemy bases
    and urban areas there are captured."""
    ground_combat.advance_into(ctx, tf, hex)
    ctx.summary(f"{ctx.state.formation(tf).name} advances")
    if ctx.state.step == "G_ADVANCE":
        ctx.advance(check=False)


# -- Liberation: orbital bombardment ----------------------------------------------------------------
@action(
    "orbital_bombardment",
    "Roll the orbital bombardment",
    side="TOG",
    reference="6.3, G40",
    key="b",
    available=lambda s: (
        "already rolled this turn" if s.vars.get("bombarded") == s.clock.get("turn") else None
    ),
)
def orbital_bombardment(ctx: Ctx) -> None:
    """TOG rolls a d10 at the end of the Combat Phase; on a 1 a Commonwealth base of TOG's
    choice cannot be used for supply in the coming Supply Phase."""
    board = Board.of(ctx)
    roll = ctx.roll("1d10", "orbital bombardment (1 knocks out a base)", side="TOG")
    ctx.set_var("bombarded", board.turn)
    if roll.natural != 1:
        ctx.result(roll, "no effect")
        ctx.summary(f"orbital bombardment: {roll.natural}, no effect")
        return
    targets = [b for b in board.bases("CW") if b.location]
    if not targets:
        ctx.result(roll, "success, but no Commonwealth base to hit")
        ctx.summary("orbital bombardment succeeds but finds no base")
        return
    pick = ctx.choose(
        "bombard",
        "Which Commonwealth base is knocked out?",
        [(b.id, b.label) for b in targets],
        side="TOG",
        default=targets[0].id,
    )
    ctx.unit(pick).status["knocked_out"] = board.turn
    ctx.result(roll, f"{ctx.state.unit(pick).label} knocked out")
    ctx.summary(f"orbital bombardment knocks out {ctx.state.unit(pick).label} for this Supply Phase")


# -- Renegade Legion integration (Appendix A) ---------------------------------------------------------
@action(
    "resolve_externally",
    "Enter the result of a battle fought in Centurion",
    Param("results", "json", help="{unit id: unharmed|disrupted|destroyed} for every unit that fought"),
    Param(
        "letter",
        "choice",
        choices=("none", "AR", "DR", "BT", "CA"),
        required=False,
        default="none",
        help="the retreat or breakthrough result",
    ),
    Param("note", required=False, default="", help="where and how it was fought"),
    reference="Appendix A",
    key="x",
)
def resolve_externally(ctx: Ctx, results: Any, letter: str = "none", note: str = "") -> None:
    """Mark this combat as resolved in Centurion and enter its outcome per unit. Every task
    force involved gains one level of fatigue (A.5); retreats and advances then go on as
    usual."""
    import json

    c = ground_combat.combat(ctx)
    if not c or c.get("rolled"):
        raise ActionRejected("no combat is waiting to be resolved")
    if isinstance(results, str):
        try:
            results = json.loads(results)
        except json.JSONDecodeError as exc:
            raise ActionRejected(f"results must be a table of unit: result ({exc})") from None
    involved = {
        u.id
        for f in [*c["attackers"], c["defender"]]
        if f in ctx.state.formations
        for u in Board.of(ctx).units(f)
    }
    for uid, outcome in dict(results).items():
        if uid not in involved:
            raise ActionRejected(f"{uid} did not take part in this combat")
        if outcome not in ("unharmed", "disrupted", "destroyed"):
            raise ActionRejected(f"{uid}: the result must be unharmed, disrupted or destroyed")
    c = ctx.edit_var("combat", {})
    c["rolled"], c["cell"], c["external"] = True, f"Centurion: {letter}", "Centurion"
    ctx.tags["external"] = "Centurion"
    if note:
        ctx.explain(f"fought in Centurion: {note}")
    for uid, outcome in dict(results).items():
        if outcome == "disrupted":
            ops.disrupt_unit(ctx, uid, "Centurion result")
        elif outcome == "destroyed":
            ops.destroy_unit(ctx, uid, "Centurion result")
    from rulesets.prefect.crt import Cell

    cell = Cell(0, letter if letter in ("AR", "CA") else None, 0, letter if letter in ("DR", "BT") else None)
    ground_combat._fatigue(ctx, ground_combat.combat(ctx))
    ground_combat._results(ctx, ctx.edit_var("combat", {}), cell)
    ctx.summary(f"combat resolved in Centurion: {letter}")
    ctx.advance(check=False)
