"""One space combat (5.13.5-5.13.8): totals, column and shift, the CRT roll, every ship's,
fighter's and base's saving roll, retreats and the BT/CA credit.

Used by deep space interceptions, segment combats of every mission, opposing sector
defenses, withdrawal interceptions, ground-support attacks on ground bases and the
campaign's independent and anti-drop attacks.
"""

from __future__ import annotations

from dataclasses import field

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import Unit
from campaign_tui.core.records import record
from rulesets.prefect import external, ops
from rulesets.prefect.board import Board
from rulesets.prefect.checks import roll_check
from rulesets.prefect.crt import COLUMNS, column_index, parse_cell
from rulesets.prefect.saves import (
    DESTROYED,
    DISRUPTED,
    UNHARMED,
    orbital_base_save,
    space_mission_mods,
    space_outcome,
)

# how bases in a combat save
BASE_ORBITAL = "orbital"  # segment combat vs Attack/HS Attack, opposing sector defenses (5.13.7)
BASE_FREE = "free"  # bases joining an attack on a mission force, ground bases vs SD: no save
BASE_TARGET = "target"  # a ground base attacked by a Ground Support force: saves normally
BASE_LETTERS_IGNORED = "ignored"  # independent attack on a base: saves with the modifiers only


@record
class Force:
    """One side of a space combat."""

    side: str
    units: list[str]
    bases: list[str] = field(default_factory=list)
    mission: str | None = None
    base_rule: str = BASE_ORBITAL
    saves: bool = True
    extra_mods: list[tuple[str, int]] = field(default_factory=list)
    free_bases: list[str] = field(default_factory=list)  # add their values, never save
    fighter_mods: list[tuple[str, int]] = field(default_factory=list)  # fighters only (air defense)


@record
class Result:
    attack: int = 0
    defense: int = 0
    column: int = 0
    shift: int = 0
    roll: int = 0
    cell: str = ""
    outcomes: dict[str, str] = field(default_factory=dict)
    retreat: str | None = None
    btca: str | None = None


def _fat(board: Board, u: Unit) -> int:
    if u.formation and u.formation in board.state.formations and board.kind(u) != "base":
        return board.fatigue(u.formation)
    return 0


def total(board: Board, force: Force, value: str, floor: bool, lines: list[str]) -> int:
    """Sum of attack (or defense) less fatigue for ships, fighters and bases (5.4); a
    disrupted base has attack 0 but full defense."""
    out = 0
    groups: dict[tuple[str, int, int], list[str]] = {}
    for uid in force.units:
        u = board.state.unit(uid)
        fat = _fat(board, u)
        groups.setdefault((board.catalog.type(u.type).name, board.n(u, value), fat), []).append(u.id)
    for (name, base, fat), ids in groups.items():
        v = base - fat
        v = max(0, v) if floor else v
        out += v * len(ids)
        each = f"{base}" + (f" - {fat} fatigue" if fat else "")
        lines.append(f"  {force.side} {value}: {len(ids)} x {name} at {each} = {v * len(ids)}")
    for bid in [*force.bases, *force.free_bases]:
        b = board.state.unit(bid)
        v = 0 if (value == "attack" and b.status.get("disrupted")) else board.n(b, value)
        out += v
        lines.append(
            f"  {force.side} {value}: {b.label} {v}"
            + (" (disrupted: attack 0)" if value == "attack" and b.status.get("disrupted") else "")
        )
    return out


def battle(
    ctx: Ctx, att: Force, dfn: Force, purpose: str, *, shift_right: bool = False, letters: bool = True
) -> Result:
    """Resolve one space combat; *att* is the combat attacker. *shift_right*: the combat
    attacker was not detected and may move one column right (asked before the roll)."""
    board = Board.of(ctx)
    floor = bool(ctx.options.get("attack_floor_zero", True))
    lines: list[str] = []
    res = Result()
    res.attack = total(board, att, "attack", floor, lines)
    res.defense = total(board, dfn, "defense", floor, lines)
    ctx.explain(f"{purpose}: {att.side} attacks {dfn.side}")
    for line in lines:
        ctx.explain(line)
    res.column = column_index(res.attack, res.defense)
    ctx.explain(f"odds {res.attack}:{res.defense} -> column {COLUMNS[res.column]}")
    if external.resolve(ctx, att, dfn, purpose, res, letters):
        return res
    if shift_right and res.column < len(COLUMNS) - 1:
        take = ctx.confirm(
            f"shift:{purpose}:{att.side}",
            f"{att.side} was not detected: shift one column right "
            f"(from {COLUMNS[res.column]} to {COLUMNS[res.column + 1]})?",
            side=att.side,
            default=True,
        )
        res.shift = 1 if take else 0
    elif shift_right:
        ctx.explain("no shift possible: already on the last column")
    roll = ctx.roll("1d10", f"{purpose} (T4)", table="T4", side=att.side)
    look = ctx.lookup(
        "T4",
        roll=roll.natural,
        odds=(res.attack, res.defense),
        shifts={"odds": res.shift} if res.shift else None,
    )
    ctx.result(roll, str(look.value), look.explanation)
    res.roll, res.cell = roll.natural, str(look.value)
    cell = parse_cell(res.cell)
    att_broken = letters and cell.att_flag == "CA"
    def_broken = letters and cell.def_flag == "BT"
    enemy_disrupted_att = any(board.state.unit(x).status.get("disrupted") for x in [*dfn.units, *dfn.bases])
    enemy_disrupted_def = any(board.state.unit(x).status.get("disrupted") for x in [*att.units, *att.bases])
    _saves(ctx, att, dfn.mission, True, cell.att_mod, att_broken, enemy_disrupted_att, res)
    _saves(ctx, dfn, att.mission, False, cell.def_mod, def_broken, enemy_disrupted_def, res)
    for uid, outcome in res.outcomes.items():
        if outcome == DISRUPTED:
            ops.disrupt_unit(ctx, uid, purpose)
        elif outcome == DESTROYED:
            ops.destroy_unit(ctx, uid, purpose)
    for uid in [*att.units, *dfn.units]:
        u = ctx.state.unit(uid)
        if (
            u.formation
            and u.formation in ctx.state.formations
            and ctx.state.formation(u.formation).kind == "naval_tf"
        ):
            ctx.formation(u.formation).status["fought"] = True
    if letters:
        if cell.att_flag == "AR":
            res.retreat = att.side
        elif cell.def_flag == "DR":
            res.retreat = dfn.side
        if cell.def_flag == "BT":
            res.btca = "BT"
            ops.credit_btca(ctx, "BT", att.side, dfn.side)
            res.retreat = dfn.side
        elif cell.att_flag == "CA":
            res.btca = "CA"
            ops.credit_btca(ctx, "CA", att.side, dfn.side)
            res.retreat = att.side
    if res.retreat:
        ctx.explain(f"{res.retreat}'s ships and fighters go back to their task-force boxes")
    return res


def _saves(
    ctx: Ctx,
    force: Force,
    enemy_mission: str | None,
    combat_attacker: bool,
    crt_mod: int,
    broken: bool,
    enemy_disrupted: bool,
    res: Result,
) -> None:
    board = Board.of(ctx)
    mods = space_mission_mods(force.mission, enemy_mission, combat_attacker, enemy_disrupted)
    mods += force.extra_mods
    if force.saves:
        for uid in force.units:
            u = ctx.state.unit(uid)
            if u.status.get("destroyed"):
                continue
            was = bool(u.status.get("disrupted"))
            fat = _fat(board, u)
            parts = (
                [("defense", board.n(u, "defense"))]
                + ([("fatigue", -fat)] if fat else [])
                + [("CRT", crt_mod)]
                + mods
                + (force.fighter_mods if board.kind(u) == "fighter" else [])
            )
            what = "against destruction" if (broken or was) else "against disruption"
            check = roll_check(ctx, f"save {what}: {u.label}", parts, side=force.side)
            res.outcomes[uid] = space_outcome(check.passed, broken, was)
    else:
        ctx.explain(f"{force.side}'s attacking units do not save")
    for bid in force.free_bases:
        ctx.explain(f"{ctx.state.unit(bid).label}: fires without saving")
    friendly_naval = bool(force.units)
    for bid in force.bases:
        b = ctx.state.unit(bid)
        was = bool(b.status.get("disrupted"))
        rule = force.base_rule
        if rule == BASE_FREE:
            ctx.explain(f"{b.label}: no save")
            continue
        if rule in (BASE_TARGET, BASE_LETTERS_IGNORED):
            on_pass, on_fail = UNHARMED, (DESTROYED if was else DISRUPTED)
            rolls, reason = True, "a base under attack saves"
        else:
            bs = orbital_base_save(friendly_naval, broken, was)
            rolls, on_pass, on_fail, reason = bs.rolls, bs.on_pass, bs.on_fail, bs.reason
        if not rolls:
            ctx.explain(f"{b.label}: {reason}")
            continue
        parts = [("defense", board.n(b, "defense")), ("CRT", crt_mod), *mods]
        check = roll_check(ctx, f"base save: {b.label} ({reason})", parts, side=force.side)
        outcome = on_pass if check.passed else on_fail
        if outcome != UNHARMED:
            res.outcomes[bid] = outcome


def describe(res: Result) -> str:
    text = f"A {res.attack} : D {res.defense} -> {COLUMNS[res.column]}"
    if res.shift:
        text += f", shifted to {COLUMNS[res.column + res.shift]}"
    if not res.roll:  # fought in another game: no CRT roll, the outcome was entered
        lost = [k for k, v in res.outcomes.items() if v != UNHARMED]
        return text + f"; {res.cell}, {len(lost)} unit(s) hit"
    return text + f"; roll {res.roll} -> {res.cell}"


def apply_space_fatigue(ctx: Ctx, sides: tuple[str, ...]) -> None:
    """+1 fatigue once per turn to each naval TF that fought or performed Attack, HS Attack,
    Recon, Ground Support or Orbital Drop (aborted missions included); a TF at 3 that would
    gain more has its units disrupted (5.9, G24, G45)."""
    board = Board.of(ctx)
    turn = board.turn
    per_phase = ctx.options.get("space_fatigue", "per_turn") == "per_phase"
    for f in list(board.naval_tfs()):
        if f.side not in sides:
            continue
        st = f.status
        if not (st.get("fought") or st.get("performed")):
            continue
        if not per_phase and st.get("fatigued_turn") == turn:
            continue
        fm = ctx.formation(f.id)
        fm.status["fatigued_turn"] = turn
        fm.status.pop("fought", None)
        fm.status.pop("performed", None)
        if int(st.get("fatigue", 0)) >= 3:
            for u in board.units(f.id):
                if board.active(u):
                    ops.disrupt_unit(ctx, u.id, "fatigue beyond 3")
            ctx.explain(f"{f.name} is at fatigue 3: its units are disrupted")
        else:
            ops.add_fatigue(ctx, f.id, 1, "space operations this turn")
