"""One ground combat (digest 2.3), used by the Combat Phase, by defender counteractions
and by the campaign's ground phases.

The combat in progress is kept in vars ``combat``; the sub-machine steps (G_*) call the
functions here: special cases (C0), totals and odds (C1-C2), the detection shift (C3),
the roll and every unit's saving roll (C4-C5), retreats (5.8), the advance (C6) and
fatigue (C7).
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.model import Unit
from rulesets.prefect import ops
from rulesets.prefect.board import Board, hexid, loc_hex, other
from rulesets.prefect.checks import roll_check
from rulesets.prefect.crt import COLUMNS, column_index, parse_cell, planetary_shifter, shift_choices
from rulesets.prefect.rulings import adjacent, terrain_of
from rulesets.prefect.saves import (
    DESTROYED,
    DISRUPTED,
    ground_must_save,
    ground_outcome,
    ground_target,
    laf_modifier,
    support_starship_save,
)
from rulesets.prefect.values import terrain_effect

ENTRY = "G_START"


def combat(state_or_ctx: Any) -> dict[str, Any]:
    state = getattr(state_or_ctx, "state", state_or_ctx)
    return dict(state.vars.get("combat") or {})


def _set_roles(ctx: Ctx, **roles: str | None) -> None:
    r = dict(ctx.var("roles", {}))
    for k, v in roles.items():
        if v is None:
            r.pop(k, None)
        else:
            r[k] = v
    ctx.set_var("roles", r)


# -- C0: start, special cases ------------------------------------------------------------------
def pending(s: Any) -> bool:
    """A combat has been set up and waits for the sub-machine (transitions that call it)."""
    return bool(s.vars.get("combat"))


def begin(
    ctx: Ctx,
    kind: str,
    attackers: list[str],
    target: str | None,
    attack_id: str | None = None,
    target_hex: str | None = None,
    newcomers: list[str] | None = None,
    mover: str | None = None,
) -> str:
    """Start a combat. Special cases (2.3 C0) are resolved at once and return "done";
    otherwise the current step's transition into the combat sub-machine is taken (it
    returns to the step the machine names) and "called" is returned."""
    board = Board.of(ctx)
    att_side = ctx.state.formation(attackers[0]).side
    def_side = other(att_side)
    if target is None:
        if target_hex is None:
            raise InvalidInput("name the target task force or the hex of disrupted units")
        _disrupted_only(ctx, attackers, hexid(target_hex, ctx.state), def_side)
        return "done"
    tf = ctx.state.formation(target)
    hex_ = loc_hex(tf.location) or ""
    if not board.active_units(target):
        raise ActionRejected(f"{tf.name} holds no active units")
    if all(board.is_support(u) for u in board.active_units(target)):
        _support_only(ctx, attackers, target)
        return "done"
    record: dict[str, Any] = {
        "kind": kind,
        "attack": attack_id,
        "att_side": att_side,
        "def_side": def_side,
        "attackers": list(attackers),
        "defender": target,
        "hex": hex_,
        "att_hexes": {a: loc_hex(ctx.state.formation(a).location) for a in attackers},
        "newcomers": list(newcomers or []),
        "support": {att_side: [], def_side: []},
        "shift": 0,
        "shift_chosen": False,
        "rolled": False,
        "retreats": [],
    }
    if mover:
        record["mover"] = mover
        record["mover_may_detect"] = True
    ctx.set_var("combat", record)
    _set_roles(
        ctx, combat_attacker=att_side, combat_defender=def_side, shifter=None, retreating=None, advancing=None
    )
    names = ", ".join(ctx.state.formation(a).name for a in attackers)
    ctx.explain(f"Combat: {names} ({att_side}) attack {tf.name} ({def_side}) in hex {hex_}")
    ctx.advance(check=False)
    return "called"


def begin_naval(ctx: Ctx, side: str, units: list[str], target: str) -> None:
    """An independent naval attack on a ground task force (5.14.3): the naval units alone
    make the attack total; they count as detected and the task force makes no detection."""
    tf = ctx.state.formation(target)
    hex_ = loc_hex(tf.location) or ""
    record: dict[str, Any] = {
        "kind": "independent",
        "attack": None,
        "att_side": side,
        "def_side": tf.side,
        "attackers": [],
        "defender": target,
        "hex": hex_,
        "att_hexes": {},
        "newcomers": [],
        "support": {side: list(units), tf.side: []},
        "naval_attack": True,
        "shift": 0,
        "shift_chosen": False,
        "rolled": False,
        "retreats": [],
    }
    ctx.set_var("combat", record)
    _set_roles(
        ctx, combat_attacker=side, combat_defender=tf.side, shifter=None, retreating=None, advancing=None
    )
    ctx.explain(f"Independent naval attack by {side} on {tf.name} in hex {hex_}")
    ctx.advance(check=False)


def _lowest_defense_save(ctx: Ctx, attackers: list[str], purpose: str) -> None:
    """The attacking combat unit with the lowest defense saves; a failure costs its TF one
    level of fatigue (5.10)."""
    board = Board.of(ctx)
    pool = [(board.n(u, "defense"), u.id, fid) for fid in attackers for u in board.combat_units(fid)]
    if not pool:
        ctx.explain("no attacking combat unit to make the check")
        return
    _, uid, fid = min(pool)
    u = ctx.state.unit(uid)
    fat = board.fatigue(fid)
    parts = [("defense", board.n(u, "defense"))] + ([("fatigue", -fat)] if fat else [])
    check = roll_check(
        ctx,
        f"{purpose}: {u.label} (lowest defense)",
        parts,
        side=u.side,
        success="no fatigue",
        failure="+1 fatigue",
    )
    if not check.passed:
        ops.add_fatigue(ctx, fid, 1, purpose)


def _disrupted_only(ctx: Ctx, attackers: list[str], hex_: str, def_side: str) -> None:
    board = Board.of(ctx)
    victims = board.loose_at(hex_, def_side)
    if board.forces_at(hex_, def_side):
        raise ActionRejected(f"hex {hex_} holds an enemy task force: attack the task force")
    if not victims:
        raise ActionRejected(f"hex {hex_} holds no disrupted enemy units")
    for u in victims:
        ops.destroy_unit(ctx, u.id, "attacked while disrupted")
    _lowest_defense_save(ctx, attackers, "attack on disrupted units")
    ctx.explain(f"the attack on hex {hex_} succeeds automatically")
    _offer_special_advance(ctx, attackers, hex_, "disrupted")


def _support_only(ctx: Ctx, attackers: list[str], target: str) -> None:
    board = Board.of(ctx)
    tf = ctx.state.formation(target)
    hex_ = loc_hex(tf.location) or ""
    for u in board.units(target):
        ops.destroy_unit(ctx, u.id, "support units attacked alone")
    for u in board.loose_at(hex_, tf.side):
        ops.destroy_unit(ctx, u.id, "disrupted, beside the destroyed task force")
    ctx.explain(f"{tf.name} held only support units: all destroyed, its counter removed (not a breakthrough)")
    ops.remove_force(ctx, target)
    _offer_special_advance(ctx, attackers, hex_, "support")


def _offer_special_advance(ctx: Ctx, attackers: list[str], hex_: str, why: str) -> None:
    live = [a for a in attackers if a in ctx.state.formations]
    ctx.set_var("special_advance", {"hex": hex_, "candidates": live, "why": why} if live else None)


# -- C1-C3: totals, odds, shift --------------------------------------------------------------
def _value(board: Board, u: Unit, name: str, fatigue: int, floor: bool) -> int:
    v = board.n(u, name) - fatigue
    return max(0, v) if floor else v


def compute(ctx: Ctx) -> dict[str, Any]:
    """Attack and defense totals (5.4), the odds column and who may shift (5.5)."""
    board = Board.of(ctx)
    c = ctx.edit_var("combat", {})
    floor = bool(ctx.options.get("attack_floor_zero", True))
    lines: list[str] = []
    att = 0
    for fid in c["attackers"]:
        if fid not in ctx.state.formations:
            continue
        fat = board.fatigue(fid)
        for u in board.combat_units(fid):
            v = _value(board, u, "attack", fat, floor)
            att += v
            lines.append(
                f"  A: {u.label} {board.n(u, 'attack')}" + (f" - {fat} fatigue" if fat else "") + f" = {v}"
            )
    for uid in c["support"].get(c["att_side"], []):
        u = ctx.state.unit(uid)
        v = _naval_support_value(board, u)
        att += v
        lines.append(f"  A: {u.label} (naval support) attack {v}")
    dfn = 0
    target = c["defender"]
    tf = ctx.state.formations.get(target)
    newcomers = set(c.get("newcomers", []))
    if tf is not None:
        fat = board.fatigue(target)
        for u in board.combat_units(target):
            if u.id in newcomers:
                lines.append(f"  D: {u.label} retreated in after the attack was declared: adds nothing")
                continue
            v = _value(board, u, "defense", fat, floor)
            dfn += v
            lines.append(
                f"  D: {u.label} {board.n(u, 'defense')}" + (f" - {fat} fatigue" if fat else "") + f" = {v}"
            )
        terrain = c.get("terrain") or terrain_of(ctx, c["hex"], chooser=c["def_side"])
        c["terrain"] = terrain
        df = int(terrain_effect(ctx.tables, terrain, "defense"))
        if board.laf(target) and not ctx.options.get("laf_terrain_defense", False):
            lines.append(f"  D: terrain {terrain} gives nothing: the task force is in LAF (G11)")
        else:
            dfn += df
            lines.append(f"  D: terrain {terrain} +{df}")
        for b in board.bases_at(c["hex"], c["def_side"]):
            dfn += board.rating(b)
            lines.append(f"  D: {b.label} rating +{board.rating(b)}")
    for uid in c["support"].get(c["def_side"], []):
        u = ctx.state.unit(uid)
        v = _naval_support_value(board, u)
        dfn += v
        lines.append(f"  D: {u.label} (naval support) adds its attack {v}")
    col = column_index(att, dfn)
    c["A"], c["D"], c["column"], c["lines"] = att, dfn, col, lines
    att_detected = bool(c.get("naval_attack")) or any(
        board.detected(a) for a in c["attackers"] if a in ctx.state.formations
    )
    def_detected = board.detected(target) if tf is not None else True
    who = planetary_shifter(att_detected, def_detected)
    c["att_detected"], c["def_detected"] = att_detected, def_detected
    c["shifter"] = None if who is None else (c["att_side"] if who == "attacker" else c["def_side"])
    c["shift_options"] = shift_choices(col) if who else [0]
    if not c["shifter"]:
        c["shift"], c["shift_chosen"] = 0, True
    _set_roles(ctx, shifter=c["shifter"])
    return c


def _naval_support_value(board: Board, u: Unit) -> int:
    """A supporting naval unit adds its attack (less its TF's fatigue) to either total (5.14.1)."""
    fat = board.fatigue(u.formation) if u.formation and u.formation in board.state.formations else 0
    return max(0, board.n(u, "attack") - fat)


def odds_text(c: dict[str, Any]) -> str:
    if "A" not in c:
        return ""
    col = c["column"] + int(c.get("shift", 0))
    text = f"A {c['A']} : D {c['D']} -> {COLUMNS[c['column']]}"
    if c.get("shift"):
        text += f", shifted to {COLUMNS[col]}"
    return text


def choose_shift(ctx: Ctx, shift: int) -> None:
    c = ctx.edit_var("combat", {})
    if not c.get("shifter"):
        raise ActionRejected("no side may shift: both or neither side is detected")
    if shift not in c.get("shift_options", [0]):
        raise ActionRejected(
            f"a shift of {shift:+d} column(s) is not possible from "
            f"{COLUMNS[c['column']]}: there is no column beyond the table's end (G12)"
        )
    c["shift"], c["shift_chosen"] = shift, True
    label = {-1: "one column left", 0: "no shift", 1: "one column right"}[shift]
    ctx.explain(f"{c['shifter']} (undetected) chooses {label} before the roll")


# -- C4-C5: the roll and saving rolls ------------------------------------------------------------
def _laf_bonus(ctx: Ctx, fid: str, side: str, combat_attacker: str) -> int:
    board = Board.of(ctx)
    f = ctx.state.formations.get(fid)
    if f is None or not f.status.get("moved_laf"):
        return 0
    who = ctx.options.get("laf_bonus_side", "turn_attacker")
    owner = board.attacker if who == "turn_attacker" else combat_attacker
    if side != owner:
        return 0
    return laf_modifier(str(ctx.options.get("laf_save_mod", "+2")))


def _engineer_bonus(ctx: Ctx, fid: str, savers: list[tuple[Unit, int]]) -> dict[str, int]:
    """Combat Engineer Centuries (5.7, G7): each gives one combat unit of its TF a 1-point
    modifier, at most 1 per unit. 'help' (default): +1 to the target, placed where it can
    change the outcome; 'literal': -1, applied only to units the owner names."""
    board = Board.of(ctx)
    n = board.count_special(fid, "combat_engineer")
    if n <= 0 or not savers:
        return {}
    mode = ctx.options.get("engineer_mode", "help")
    if mode == "help":
        useful = [u for u, t in savers if 1 <= t <= 8] + [u for u, t in savers if not 1 <= t <= 8]
        chosen = useful[:n]
        return {u.id: 1 for u in chosen}
    f = ctx.state.formation(fid)
    picks = ctx.decide(_engineer_decision(fid, f.side, f.name, n, savers))
    return {uid: -1 for uid in picks}


def _engineer_decision(fid: str, side: str, name: str, n: int, savers: list[tuple[Unit, int]]) -> Any:
    from campaign_tui.core.decisions import Decision, Option

    return Decision(
        id=f"engineer:{fid}",
        kind="multi",
        prompt=f"{name}: which combat units take the Combat Engineer -1 (literal reading)?",
        options=tuple(Option(u.id, u.label) for u, _ in savers),
        min=0,
        max=n,
        side=side,
        default=[],
    )


def _save_side(
    ctx: Ctx,
    c: dict[str, Any],
    fids: list[str],
    side: str,
    crt_mod: int,
    broken: bool,
    results: dict[str, str],
) -> None:
    board = Board.of(ctx)
    for fid in fids:
        if fid not in ctx.state.formations:
            continue
        fat = board.fatigue(fid)
        units = board.active_units(fid)
        combat_units = [u for u in units if board.is_combat(u)]
        laf = _laf_bonus(ctx, fid, side, c["att_side"])
        savers: list[tuple[Unit, int]] = []
        for u in units:
            only = len(combat_units) == 1 and combat_units[0].id == u.id
            role = "combat" if board.is_combat(u) else "support"
            if not ground_must_save(role, board.special(u), only, broken):
                if board.special(u) == "artillery":
                    ctx.explain(f"{u.label} (artillery) does not roll: no BT/CA against its side")
                continue
            base = sum(v for _, v in ground_target(board.n(u, "defense"), fat, crt_mod, laf))
            savers.append((u, base))
        eng = _engineer_bonus(ctx, fid, [(u, t) for u, t in savers if board.is_combat(u)])
        for u, _ in savers:
            parts = ground_target(board.n(u, "defense"), fat, crt_mod, laf, eng.get(u.id, 0))
            what = "against destruction" if broken else "against disruption"
            check = roll_check(
                ctx, f"save {what}: {u.label}", parts, side=side, success="passes", failure="fails"
            )
            results[u.id] = ground_outcome(check.passed, broken, board.nongrav(u), False)


def _support_saves(ctx: Ctx, c: dict[str, Any], side: str, crt_mod: int, results: dict[str, str]) -> None:
    """Naval units supporting either side save (5.14.1, 5.14.2)."""
    board = Board.of(ctx)
    enemy = other(side)
    enemy_fids = c["attackers"] if enemy == c["att_side"] else [c["defender"]]
    ad = 0
    if ctx.options.get("air_defense", True):
        ad = sum(board.count_special(f, "air_defense") for f in enemy_fids if f in ctx.state.formations)
        if enemy == c["def_side"]:
            ad += sum(
                board.rating(b) for b in board.bases_at(c["hex"], enemy) if not b.status.get("disrupted")
            )
    base_target = side == c["att_side"] and any(
        not b.status.get("disrupted") for b in board.bases_at(c["hex"], c["def_side"])
    )
    for uid in c["support"].get(side, []):
        u = ctx.state.unit(uid)
        fat = board.fatigue(u.formation) if u.formation in ctx.state.formations else 0
        if board.kind(u) == "fighter":
            parts: list[tuple[str, int]] = [("defense", board.n(u, "defense"))]
            if fat:
                parts.append(("fatigue", -fat))
            parts.append(("CRT", crt_mod))
            if ad:
                parts.append(("enemy Air/Space Defense", -ad))
            if base_target:
                mode = ctx.options.get("supported_fighter_mod", "minus_rating")
                rating = max(board.rating(b) for b in board.bases_at(c["hex"], c["def_side"]))
                if mode == "minus_rating":
                    parts.append(("attacking a base (G23)", -rating))
                elif mode == "minus_defense":
                    parts.append(("attacking a base (G23, literal)", -board.n(u, "defense")))
            check = roll_check(ctx, f"support save: {u.label}", parts, side=side)
            results[uid] = (
                "unharmed" if check.passed else (DESTROYED if u.status.get("disrupted") else DISRUPTED)
            )
        else:
            if base_target:
                parts = [("defense", board.n(u, "defense"))] + ([("fatigue", -fat)] if fat else [])
                check = roll_check(
                    ctx, f"support save (unmodified, attacking a base): {u.label}", parts, side=side
                )
                results[uid] = "unharmed" if check.passed else DISRUPTED
                continue
            if ad <= 0:
                ctx.explain(f"{u.label}: starship, no enemy air defense: no save")
                continue
            roll = ctx.roll("1d10", f"support save: {u.label} (fails only on a 10)", side=side)
            _, passed = support_starship_save(ad, roll.natural)
            ctx.result(roll, "passes" if passed else "fails (natural 10)")
            results[uid] = "unharmed" if passed else DISRUPTED


def resolve(ctx: Ctx) -> None:
    """Roll on the CRT and make every saving roll, then apply the results (C4, C5, C7)."""
    board = Board.of(ctx)
    c = compute(ctx)
    if not c.get("shift_chosen"):
        raise ActionRejected(f"{c['shifter']} must first choose the column shift")
    for line in c["lines"]:
        ctx.explain(line)
    shift = int(c.get("shift", 0))
    roll = ctx.roll("1d10", "combat result (T4)", table="T4", side=c["att_side"])
    look = ctx.lookup(
        "T4", roll=roll.natural, odds=(c["A"], c["D"]), shifts={"odds": shift} if shift else None
    )
    ctx.result(roll, str(look.value), look.explanation)
    cell = parse_cell(str(look.value))
    c = ctx.edit_var("combat", {})
    c["rolled"], c["cell"], c["roll"] = True, str(look.value), roll.natural
    att_broken, def_broken = cell.att_flag == "CA", cell.def_flag == "BT"
    # G14: disrupted units beside a TF whose support units must save
    for side, broken, fids in (
        (c["att_side"], att_broken, c["attackers"]),
        (c["def_side"], def_broken, [c["defender"]]),
    ):
        if not broken:
            continue
        for fid in fids:
            f = ctx.state.formations.get(fid)
            if f is None:
                continue
            for u in board.loose_at(loc_hex(f.location) or "", side):
                _g14(ctx, u, cell.att_mod if side == c["att_side"] else cell.def_mod)
    results: dict[str, str] = {}
    _save_side(ctx, c, c["attackers"], c["att_side"], cell.att_mod, att_broken, results)
    _save_side(ctx, c, [c["defender"]], c["def_side"], cell.def_mod, def_broken, results)
    _support_saves(ctx, c, c["att_side"], cell.att_mod, results)
    _support_saves(ctx, c, c["def_side"], cell.def_mod, results)
    _base_saves(ctx, c, cell.def_mod, results)
    newly: dict[str, list[str]] = {}
    for uid, outcome in results.items():
        u = ctx.state.unit(uid)
        home = u.formation
        if outcome == DISRUPTED:
            ops.disrupt_unit(ctx, uid, "saving roll")
            if home:
                newly.setdefault(home, []).append(uid)
        elif outcome == DESTROYED:
            ops.destroy_unit(ctx, uid, "saving roll")
    for uid in [*c["support"].get(c["att_side"], []), *c["support"].get(c["def_side"], [])]:
        su = ctx.unit(uid)
        su.data.pop("gs_area", None)
        su.data["gs_used"] = board.turn
    c = ctx.edit_var("combat", {})
    c["newly"] = newly
    _fatigue(ctx, c)
    _results(ctx, c, cell)


def _g14(ctx: Ctx, u: Unit, crt_mod: int) -> None:
    board = Board.of(ctx)
    if ctx.options.get("disrupted_with_tf", "destroyed") == "destroyed":
        ops.destroy_unit(ctx, u.id, "disrupted, beside a task force whose support units had to save (G14)")
        return
    parts = ground_target(board.n(u, "defense"), 0, crt_mod)
    check = roll_check(ctx, f"save (disrupted, G14): {u.label}", parts, side=u.side)
    if not check.passed:
        ops.destroy_unit(ctx, u.id, "failed its save while disrupted")


def _base_saves(ctx: Ctx, c: dict[str, Any], crt_mod: int, results: dict[str, str]) -> None:
    """A ground base in the defender's hex saves when naval units support the attack on it
    (5.14.2); a failure disrupts it, or destroys it with its supply if already disrupted."""
    if not c["support"].get(c["att_side"]):
        return
    board = Board.of(ctx)
    for b in board.bases_at(c["hex"], c["def_side"]):
        parts = [("defense", board.n(b, "defense")), ("CRT", crt_mod)]
        check = roll_check(ctx, f"base save: {b.label}", parts, side=b.side)
        if not check.passed:
            results[b.id] = DESTROYED if b.status.get("disrupted") else DISRUPTED


def _fatigue(ctx: Ctx, c: dict[str, Any]) -> None:
    """C7: every TF that took part gains a level of fatigue (max 3), at once (5.9)."""
    for fid in [*c["attackers"], c["defender"]]:
        if fid in ctx.state.formations:
            ops.add_fatigue(ctx, fid, 1, "combat")


def _results(ctx: Ctx, c: dict[str, Any], cell: Any) -> None:
    """AR/DR retreats, BT/CA counters removed and scattered units, the track credit."""
    board = Board.of(ctx)
    retreats: list[dict[str, Any]] = []
    summary = []

    def tf_retreat(fid: str, side: str) -> None:
        f = ctx.state.formations.get(fid)
        if f is None:
            return
        hex_ = loc_hex(f.location) or ""
        loose = [u.id for u in board.loose_at(hex_, side)]
        if board.units(fid):
            retreats.append(
                {"id": fid, "fid": fid, "units": loose, "from": hex_, "side": side, "kind": "retreat"}
            )
        elif loose:
            ops.remove_force(ctx, fid)
            retreats.append(
                {
                    "id": f"scatter:{fid}",
                    "fid": None,
                    "units": loose,
                    "from": hex_,
                    "side": side,
                    "kind": "scatter",
                }
            )
        else:
            ops.remove_force(ctx, fid)

    def scatter(fid: str, side: str) -> None:
        f = ctx.state.formations.get(fid)
        if f is None:
            return
        hex_ = loc_hex(f.location) or ""
        for u in board.units(fid):
            if board.active(u):
                ops.disrupt_unit(ctx, u.id, "breakthrough")
        ops.remove_force(ctx, fid)
        loose = [u.id for u in board.loose_at(hex_, side)]
        if loose:
            retreats.append(
                {
                    "id": f"scatter:{fid}",
                    "fid": None,
                    "units": loose,
                    "from": hex_,
                    "side": side,
                    "kind": "scatter",
                }
            )

    if cell.att_flag == "AR":
        summary.append("the attackers retreat")
        for fid in c["attackers"]:
            tf_retreat(fid, c["att_side"])
    if cell.att_flag == "CA":
        summary.append("counterattack: the attacking task forces break up")
        ops.credit_btca(ctx, "CA", c["att_side"], c["def_side"])
        for fid in c["attackers"]:
            scatter(fid, c["att_side"])
    if cell.def_flag == "DR":
        summary.append("the defender retreats")
        tf_retreat(c["defender"], c["def_side"])
    if cell.def_flag == "BT":
        summary.append("breakthrough: the defending task force breaks up")
        ops.credit_btca(ctx, "BT", c["att_side"], c["def_side"])
        scatter(c["defender"], c["def_side"])
    if not cell.att_flag and not cell.def_flag:
        ops.remove_empty_forces(ctx)
    mover = c.get("mover")
    if mover and (cell.def_flag in ("DR", "BT") or mover not in ctx.state.formations):
        c["mover_stopped"] = True
    c["retreats"] = retreats
    c["vacated"] = []
    c["advance_side"] = None
    if cell.def_flag in ("DR", "BT"):
        c["advance_side"] = c["att_side"]
    elif cell.att_flag in ("AR", "CA"):
        c["advance_side"] = c["def_side"]
    c["capture_mode"] = "destroyed" if (cell.def_flag == "DR" or cell.att_flag == "AR") else "captured"
    ctx.set_var("combat", c)
    _set_roles(ctx, retreating=retreats[0]["side"] if retreats else None, advancing=c["advance_side"])
    if summary:
        ctx.explain("; ".join(summary))
    if not retreats:
        _prepare_advance(ctx)


def pending_retreats(state: Any) -> list[dict[str, Any]]:
    return list(combat(state).get("retreats", []))


def retreat(ctx: Ctx, entry_id: str, to_hex: str, terrain: str | None = None) -> None:
    """Retreat one task force (or the scattered units of a broken one) one hex (5.8)."""
    board = Board.of(ctx)
    c = ctx.edit_var("combat", {})
    entries = c.get("retreats", [])
    entry = next((e for e in entries if e["id"] == entry_id or e.get("fid") == entry_id), None)
    if entry is None:
        raise ActionRejected(
            f"{entry_id} has no retreat to make; pending: {', '.join(e['id'] for e in entries) or 'none'}"
        )
    side = entry["side"]
    units = [
        uid
        for uid in entry["units"]
        if uid in ctx.state.units and not ctx.state.unit(uid).status.get("destroyed")
    ]
    members = board.units(entry["fid"]) if entry.get("fid") else []
    if to_hex in ("none", "-", ""):
        ok = ctx.ruling(
            f"noretreat:{entry['id']}:{entry['from']}",
            f"Is there truly no hex next to {entry['from']} free of enemy task forces "
            f"for {entry['id']} to retreat into?",
        )
        if not ok:
            raise ActionRejected("the GM rules that a retreat hex exists: name it")
        for u in [*members, *[ctx.state.unit(x) for x in units]]:
            ops.destroy_unit(ctx, u.id, "no hex to retreat into")
        if entry.get("fid"):
            ops.remove_force(ctx, entry["fid"])
        ctx.explain(f"{entry['id']} cannot retreat and is destroyed")
    else:
        dest = hexid(to_hex, ctx.state)
        if dest == entry["from"]:
            raise ActionRejected("a retreat must leave the hex")
        if board.forces_at(dest, other(side)):
            raise ActionRejected(f"hex {dest} holds an enemy task force")
        if entry["kind"] == "scatter" and board.loose_at(dest, other(side)):
            raise ActionRejected(f"disrupted units may not enter hex {dest}: it holds enemy units")
        if side == c["att_side"]:
            left = {h for f, h in c.get("att_hexes", {}).items() if f != entry.get("fid") and h}
            if dest in left:
                raise ActionRejected(f"hex {dest} was left by another attacking task force of this combat")
        if not adjacent(ctx, entry["from"], dest):
            raise ActionRejected(f"hex {dest} is not next to {entry['from']}")
        carriers = [*members, *[ctx.state.unit(x) for x in units]]
        wet = (
            any(board.nongrav(u) for u in carriers)
            and terrain_of(ctx, dest, terrain, chooser=side) == "water"
        )
        if wet:
            raise ActionRejected(
                "non-grav units may not retreat into Water (if it is the only hex, retreat to 'none': "
                "they are destroyed)"
            )
        for uid in units:
            ctx.unit(uid).location = f"hex:{dest}"
        if entry.get("fid"):
            ops.relocate(ctx, entry["fid"], dest)
            friends = [f for f in board.forces_at(dest, side) if f.id != entry["fid"] and f.kind == "tf"]
            if friends:
                newcomers = [u.id for u in board.units(entry["fid"])]
                ops.merge(ctx, entry["fid"], friends[0].id)
                _note_newcomers(ctx, friends[0].id, newcomers)
        ctx.explain(f"{entry['id']} retreats from {entry['from']} to {dest}")
        c = ctx.edit_var("combat", {})
        c.setdefault("vacated", [])
        if not board.forces_at(entry["from"], side) and entry["from"] not in c["vacated"]:
            c["vacated"].append(entry["from"])
    c = ctx.edit_var("combat", {})
    c["retreats"] = [e for e in c.get("retreats", []) if e["id"] != entry["id"]]
    if c.get("mover") and c["mover"] not in ctx.state.formations:
        c["mover_stopped"] = True
    nxt = c["retreats"][0]["side"] if c["retreats"] else None
    _set_roles(ctx, retreating=nxt)
    if not c["retreats"]:
        _prepare_advance(ctx)


def _note_newcomers(ctx: Ctx, target: str, units: list[str]) -> None:
    """Units that retreat into a TF with an attack still pending save with it but add
    nothing to its defense (5.8, W11)."""
    attacks = ctx.var("attacks", [])
    if any(a.get("target") == target for a in attacks):
        new = []
        for a in attacks:
            a = dict(a)
            if a.get("target") == target:
                a["newcomers"] = list(dict.fromkeys([*a.get("newcomers", []), *units]))
            new.append(a)
        ctx.set_var("attacks", new)


def _prepare_advance(ctx: Ctx) -> None:
    board = Board.of(ctx)
    c = ctx.edit_var("combat", {})
    side = c.get("advance_side")
    if not side:
        c["advance"] = None
        return
    if side == c["att_side"]:
        hexes = [c["hex"]] if not board.forces_at(c["hex"], c["def_side"]) else []
        cands = [a for a in c["attackers"] if a in ctx.state.formations]
    else:
        hexes = [h for h in c.get("vacated", []) if h != c["hex"]]
        cands = [c["defender"]] if c["defender"] in ctx.state.formations else []
    hexes = [h for h in hexes if not board.forces_at(h, other(side))]
    c["advance"] = {"side": side, "hexes": hexes, "candidates": cands} if hexes and cands else None
    _set_roles(ctx, advancing=side if c["advance"] else None)


def advance_into(ctx: Ctx, fid: str, hex_: str | None) -> None:
    """C6: the winner moves one task force that took part into a vacated hex; capture
    follows if an enemy base or urban area is there (5.11.9)."""
    from rulesets.prefect.capture import capture_hex

    c = ctx.edit_var("combat", {})
    special = ctx.var("special_advance")
    if special and not c.get("advance"):
        adv = {
            "side": ctx.state.formation(special["candidates"][0]).side,
            "hexes": [special["hex"]],
            "candidates": special["candidates"],
        }
        mode = "captured"
    else:
        adv = c.get("advance")
        mode = c.get("capture_mode", "captured")
    if not adv:
        raise ActionRejected("no task force may advance after this combat")
    if fid not in adv["candidates"]:
        raise ActionRejected(
            f"{fid} did not take part, or cannot advance; candidates: {', '.join(adv['candidates'])}"
        )
    dest = hexid(hex_, ctx.state) if hex_ else adv["hexes"][0]
    if dest not in adv["hexes"]:
        raise ActionRejected(f"hex {dest} was not vacated; vacated: {', '.join(adv['hexes'])}")
    f = ctx.state.formation(fid)
    ops.relocate(ctx, fid, dest)
    ctx.explain(f"{f.name} advances into hex {dest} (no counteraction may answer this move)")
    capture_hex(ctx, fid, dest, mode)
    if special:
        ctx.set_var("special_advance", None)
    c = ctx.edit_var("combat", {})
    c["advance"] = None


def finish(ctx: Ctx) -> dict[str, Any]:
    """Close the combat record (kept as ``last_combat``) and clear the combat roles."""
    c = combat(ctx)
    if c:
        ctx.set_var(
            "last_combat",
            {
                k: c.get(k)
                for k in ("attackers", "defender", "A", "D", "cell", "roll", "mover_stopped", "mover", "kind")
            },
        )
    ctx.set_var("combat", None)
    _set_roles(ctx, combat_attacker=None, combat_defender=None, shifter=None, retreating=None, advancing=None)
    ops.remove_empty_forces(ctx)
    return c
