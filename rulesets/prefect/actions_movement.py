"""Planetary Movement Phase (P1): the Attacker's task-force moves, the zone-of-control
interrupts, and the Defender's counteractions (moves and counterattacks) interleaved."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.prefect import candidates as C
from rulesets.prefect import ops
from rulesets.prefect.board import TERRAINS, Board, hexid, map_board, other
from rulesets.prefect.common import hex_of, own_force
from rulesets.prefect.movement import movement_allowance, zoc_covers
from rulesets.prefect.rulings import adjacent, adjacent_forces, terrain_of
from rulesets.prefect.values import terrain_effect

# rule modules: imported at the first call of one of their functions
capture = later("rulesets.prefect.capture")
ground_combat = later("rulesets.prefect.ground_combat")
ground_detection = later("rulesets.prefect.ground_detection")
attempt = ground_detection.attempt
capture_hex = capture.capture_hex

MOVE_STEPS = ("P_MOVE.select_tf", "P_MOVE.moving", "P_MOVE.zoc", "P_MOVE.cleanup")


def allowance(board: Board, fid: str, mode: str, role: str, options: dict[str, Any]) -> tuple[int, list[str]]:
    f = board.formation(fid)
    return movement_allowance(
        len(board.combat_units(fid)),
        board.has_hq(fid),
        mode,
        role,
        board.force_nongrav(fid),
        f.side,
        any(board.hq(u) == "manus_primus" for u in board.active_units(fid)),
        str(options.get("movement_clamp", "after")),
        int(options.get("counter_move_zero", 3)),
    )


def budget(state: State) -> tuple[int, int]:
    track = state.vars.get("track", {})
    return int(track.get("moved", 0)), int(track.get("counter", 0))


def _track(ctx: Ctx, key: str, by: int = 1) -> None:
    track = ctx.edit_var("track", {"moved": 0, "counter": 0})
    track[key] = int(track.get(key, 0)) + by
    if int(track.get("counter", 0)) > int(track.get("moved", 0)):
        raise ActionRejected(
            "the Defender's counteractions may never exceed the task forces the Attacker has moved"
        )


def _moving_not_started(s: State) -> str | None:
    return "a task force is already moving; end its move first" if s.vars.get("moving") else None


@action(
    "move_tf",
    "Move a task force",
    Param("tf", "formation", help="the Attacker's task force", candidates=C.attacker_forces),
    Param("mode", "choice", choices=("combat", "laf"), help="Combat or Low-Altitude Flight"),
    side="attacker",
    reference="P1.1, 5.1",
    key="m",
    available=_moving_not_started,
)
def move_tf(ctx: Ctx, tf: str, mode: str) -> None:
    """Pick one of your task forces and its movement mode; the allowance is shown and the
    Task Force Movement Track goes up by one. Then enter hexes one at a time."""
    board = Board.of(ctx)
    f = own_force(ctx, tf, board.attacker)
    if f.status.get("moved"):
        raise ActionRejected(f"{f.name} has already moved this phase")
    if mode == "laf" and board.force_nongrav(tf):
        raise ActionRejected(f"{f.name} holds non-grav units and cannot fly LAF")
    if not board.active_units(tf):
        raise ActionRejected(f"{f.name} holds no active units")
    ma, lines = allowance(board, tf, mode, "attacker", ctx.options)
    for line in lines:
        ctx.explain(line)
    fm = ctx.formation(tf)
    fm.status["moved"] = True
    fm.status["mode"] = mode
    if mode == "laf":
        fm.status["moved_laf"] = True
    ops.set_flag(ctx, tf, "LAF", mode == "laf")
    _track(ctx, "moved")
    ctx.set_var(
        "moving",
        {"tf": tf, "mode": mode, "allowance": ma, "spent": 0, "path": [], "start": hex_of(f), "checks": 0},
    )
    ctx.advance(check=False)
    ctx.summary(f"{f.name} moves in {'LAF' if mode == 'laf' else 'Combat'} mode: {ma} hexes")


def _overrun(ctx: Ctx, fid: str, hex_: str, wanted: int | None, mp_left: int) -> tuple[int, int]:
    """Destroy disrupted enemy units in a hex at 1 MP each, victims drawn at random (5.10).
    Returns (destroyed, remaining)."""
    board = Board.of(ctx)
    side = ctx.state.formation(fid).side
    victims = board.loose_at(hex_, other(side))
    if not victims:
        return 0, 0
    can = bool(board.combat_units(fid)) and board.fatigue(fid) < 3
    if not can:
        if wanted:
            raise ActionRejected("overrunning needs a combat unit and fatigue below 3")
        return 0, len(victims)
    n = min(len(victims), mp_left) if wanted is None else int(wanted)
    if n < 0 or n > len(victims):
        raise ActionRejected(f"hex {hex_} holds {len(victims)} disrupted enemy units")
    if n > mp_left:
        raise ActionRejected(f"destroying {n} units needs {n} MP; {mp_left} left")
    if n:
        chosen = ctx.draw([u.id for u in victims], n, f"overrun in hex {hex_}", side=side)
        for uid in chosen:
            ops.destroy_unit(ctx, uid, "overrun")
    return n, len(victims) - n


def _overrun_check(ctx: Ctx, fid: str) -> None:
    ground_combat._lowest_defense_save(ctx, [fid], "overrun check")


@action(
    "enter_hex",
    "Enter the next hex",
    Param("hex", "hex", help="the hex entered, next to the current one", board=map_board),
    Param(
        "terrain",
        "choice",
        choices=TERRAINS,
        required=False,
        help="terrain that applies in that hex (asked when the map does not say)",
    ),
    Param(
        "overrun",
        "int",
        required=False,
        min=0,
        help="disrupted enemy units to destroy there (default: as many as the MP allow)",
    ),
    side="attacker",
    reference="P1.2-P1.3, 5.2, 5.10",
    key="h",
)
def enter_hex(ctx: Ctx, hex: str, terrain: str | None = None, overrun: int | None = None) -> None:
    """Move the selected task force one hex. Entering a Defender's active zone of control
    lets the Defender try to detect it (and counterattack)."""
    board = Board.of(ctx)
    m = dict(ctx.var("moving") or {})
    if not m:
        raise ActionRejected("no task force is moving")
    fid = m["tf"]
    f = ctx.state.formation(fid)
    side = f.side
    here = hex_of(f)
    dest = hexid(hex, ctx.state)
    if dest == here:
        raise ActionRejected("that is the hex the task force is in")
    if board.forces_at(dest, other(side)):
        raise ActionRejected(f"hex {dest} holds an enemy task force: it may not be entered")
    left = int(m["allowance"]) - int(m["spent"])
    if left < 1:
        raise ActionRejected("no movement points left: end this move")
    if not adjacent(ctx, here, dest):
        raise ActionRejected(f"hex {dest} is not next to {here}")
    if board.force_nongrav(fid) and terrain_of(ctx, dest, terrain, chooser=side) == "water":
        raise ActionRejected("non-grav units never enter Water")
    spent = 1
    destroyed, remaining = _overrun(ctx, fid, dest, overrun, left - 1)
    spent += destroyed
    if destroyed:
        per_move = ctx.options.get("overrun_check", "per_hex") == "per_move"
        if not per_move or not m.get("checks"):
            _overrun_check(ctx, fid)
            m["checks"] = int(m.get("checks", 0)) + 1
    if remaining and left - spent < 1:
        raise ActionRejected(
            f"{remaining} disrupted enemy units would remain in hex {dest} and no MP would be "
            "left to move on; a task force may not end its move there"
        )
    old_pairs = [p for p in ctx.var("detections", []) if p[1] == fid]
    ops.relocate(ctx, fid, dest)
    m["spent"] = int(m["spent"]) + spent
    m["path"] = [*m["path"], dest]
    m["blocked_end"] = bool(remaining)
    ctx.set_var("moving", m)
    if not remaining:
        capture_hex(ctx, fid, dest, "captured")
    covering = _zoc_covering(ctx, fid, dest, m["mode"], terrain)
    kept = [p for p in old_pairs if p[0] in covering]
    if kept:
        ctx.set_var("detections", [*ctx.var("detections", []), *kept])
        ops.set_flag(ctx, fid, "DETECTED", True)
        ctx.explain(
            "still detected by "
            + ", ".join(ctx.state.formation(p[0]).name for p in kept)
            + " (it stays in their zone of control)"
        )
    ctx.summary(f"{f.name} enters hex {dest} ({m['spent']}/{m['allowance']} MP)")
    if covering:
        ctx.set_var("zoc", {"hex": dest, "tfs": covering, "tried": []})
        ctx.explain(
            "in the active zone of control of " + ", ".join(ctx.state.formation(x).name for x in covering)
        )
        ctx.advance(check=False)


def _zoc_covering(ctx: Ctx, fid: str, hex_: str, mode: str, terrain: str | None) -> list[str]:
    """Defending task forces whose active ZOC reaches *hex_* against this mover (5.2)."""
    board = Board.of(ctx)
    side = ctx.state.formation(fid).side
    defender = board.defender
    if side == defender:
        return []
    candidates = [
        f
        for f in board.ground_forces(defender)
        if f.kind == "tf" and not board.laf(f.id) and board.has_zoc(f.id)
    ]
    if not candidates:
        return []
    near = adjacent_forces(ctx, hex_, candidates, f"{ctx.state.formation(fid).name} enters hex {hex_}")
    if not near:
        return []
    blocked = False
    if mode == "combat":
        t = terrain_of(ctx, hex_, terrain, chooser=side)
        blocked = bool(terrain_effect(ctx.tables, t, "zoc_blocked")) or bool(board.bases_at(hex_))
        if blocked:
            ctx.explain(
                f"hex {hex_} ({t}{', base' if board.bases_at(hex_) else ''}) blocks zones of control "
                "against a Combat-mode mover"
            )
    return [x for x in near if zoc_covers(True, True, True, mode, blocked)]


def _end_move(ctx: Ctx) -> None:
    ctx.set_var("moving", None)
    ctx.set_var("zoc", None)


@action("stop_move", "End this task force's move", side="attacker", reference="P1.2, 5.1", key="e")
def stop_move(ctx: Ctx) -> None:
    """Stop the moving task force where it is."""
    board = Board.of(ctx)
    m = ctx.var("moving") or {}
    if not m:
        raise ActionRejected("no task force is moving")
    f = ctx.state.formation(m["tf"])
    here = hex_of(f)
    if board.loose_at(here, other(f.side)):
        raise ActionRejected(f"a task force may not end its move in hex {here}: enemy units are there")
    if [x for x in board.forces_at(here, f.side) if x.id != f.id]:
        raise ActionRejected(
            f"another friendly task force is in hex {here}: only one may end the Movement Phase in a hex"
        )
    _end_move(ctx)
    ctx.advance(check=False)
    ctx.summary(f"{f.name} ends its move in hex {here}")


# -- ZOC interrupt --------------------------------------------------------------------------------
def _zoc_pending(s: State) -> str | None:
    z = s.vars.get("zoc") or {}
    return None if z else "no zone-of-control interrupt is pending"


@action(
    "zoc_detect",
    "Detect the moving task force",
    Param("tf", "formation", help="your task force whose ZOC it entered"),
    Param("esm", "int", required=False, help="ESM to announce (default: the full value)"),
    side="defender",
    reference="P1.3, 5.3",
    key="d",
    available=_zoc_pending,
)
def zoc_detect(ctx: Ctx, tf: str, esm: int | None = None) -> None:
    """One detection attempt per defending task force per hex the mover enters in its
    zone of control. A detection is not a counteraction."""
    z = dict(ctx.var("zoc") or {})
    if tf not in z.get("tfs", []):
        raise ActionRejected(f"{tf} does not have the moving task force in its zone of control")
    if tf in z.get("tried", []):
        raise ActionRejected(f"{ctx.state.formation(tf).name} has already tried in this hex")
    mover = ctx.var("moving")["tf"]
    ok = attempt(ctx, tf, mover, esm, "ZOC detection")
    z["tried"] = [*z.get("tried", []), tf]
    ctx.set_var("zoc", z)
    ctx.formation(tf).status["counter_detect"] = True
    ctx.summary(
        f"{ctx.state.formation(tf).name} {'detects' if ok else 'fails to detect'} "
        f"{ctx.state.formation(mover).name}"
    )


def _counter_budget(s: State) -> str | None:
    moved, counter = budget(s)
    if counter >= moved:
        return f"no counteraction available ({counter} used, the Attacker has moved {moved})"
    return None


@action(
    "counterattack",
    "Counterattack (counteraction)",
    Param("tfs", "formations", help="your task forces that attack together"),
    Param("target", "formation", required=False, help="the Attacker's task force (default: the one moving)"),
    side="defender",
    reference="P1.4, 5.3",
    key="a",
    available=_counter_budget,
)
def counterattack(ctx: Ctx, tfs: list[str], target: str | None = None) -> None:
    """Attack an Attacker task force that each of these task forces detected this
    Movement Phase and has in its active zone of control. Each uses a counteraction."""
    board = Board.of(ctx)
    moving = ctx.var("moving") or {}
    target = target or moving.get("tf")
    if not target:
        raise ActionRejected("name the target task force")
    tgt = ctx.state.formation(target)
    if tgt.side != board.attacker:
        raise ActionRejected(f"{tgt.name} is not the Attacker's")
    pairs = ctx.var("detections", [])
    for fid in tfs:
        f = own_force(ctx, fid, board.defender)
        if board.flag(fid, "MOVED"):
            raise ActionRejected(f"{f.name} has already counteracted this turn")
        if board.fatigue(fid) >= 3:
            raise ActionRejected(f"{f.name} is at fatigue 3 and may not attack")
        if [fid, target] not in pairs:
            raise ActionRejected(f"{f.name} has not detected {tgt.name} (in its zone of control) this phase")
    for fid in tfs:
        ops.set_flag(ctx, fid, "MOVED", True)
        _track(ctx, "counter")
    ctx.summary(f"counterattack on {tgt.name} by {', '.join(ctx.state.formation(x).name for x in tfs)}")
    if ctx.state.step == "P_MOVE.zoc":
        ctx.set_var("zoc", None)
    ground_combat.begin(
        ctx, "counter", list(tfs), target, mover=target if target == moving.get("tf") else None
    )


@action(
    "counter_move",
    "Move a task force (counteraction)",
    Param("tf", "formation"),
    Param("path", "list", help="hexes entered, in order"),
    Param("terrain", "choice", choices=TERRAINS, required=False, help="terrain of the last hex, if asked"),
    Param(
        "overrun",
        "bool",
        required=False,
        default=True,
        help="destroy disrupted enemy units met on the way (as the MP allow)",
    ),
    side="defender",
    reference="P1.5, 5.1",
    key="c",
    available=_counter_budget,
)
def counter_move(
    ctx: Ctx, tf: str, path: list[str], terrain: str | None = None, overrun: bool = True
) -> None:
    """Move one of your task forces in one go, in Combat mode (an LAF task force switches
    to Combat mode): 3 hexes with up to 2 combat units, 2 with more. It may not attack
    afterwards, and no detection comes of this move."""
    board = Board.of(ctx)
    f = own_force(ctx, tf, board.defender)
    if board.flag(tf, "MOVED"):
        raise ActionRejected(f"{f.name} has already counteracted this turn")
    if not path:
        raise ActionRejected("give the hexes entered, in order")
    ma, lines = allowance(board, tf, "combat", "counteraction", ctx.options)
    for line in lines:
        ctx.explain(line)
    here = hex_of(f)
    spent = 0
    hexes = [hexid(h, ctx.state) for h in path]
    for i, dest in enumerate(hexes):
        if board.forces_at(dest, other(f.side)):
            raise ActionRejected(f"hex {dest} holds an enemy task force")
        if not adjacent(ctx, here, dest):
            raise ActionRejected(f"hex {dest} is not next to {here}")
        spent += 1
        if spent > ma:
            raise ActionRejected(f"the path needs more than the {ma} hexes allowed")
        last = i == len(hexes) - 1
        if (
            board.force_nongrav(tf)
            and terrain_of(ctx, dest, terrain if last else None, chooser=f.side) == "water"
        ):
            raise ActionRejected("non-grav units never enter Water")
        destroyed, remaining = _overrun(ctx, tf, dest, None if overrun else 0, ma - spent)
        spent += destroyed
        if destroyed:
            _overrun_check(ctx, tf)
        if remaining and last:
            raise ActionRejected(f"disrupted enemy units remain in hex {dest}: the move may not end there")
        ops.relocate(ctx, tf, dest)
        if not remaining:
            capture_hex(ctx, tf, dest, "captured")
        here = dest
    if [x for x in board.forces_at(here, f.side) if x.id != tf]:
        raise ActionRejected(f"another friendly task force is in hex {here}")
    fm = ctx.formation(tf)
    fm.status["mode"] = "combat"
    ops.set_flag(ctx, tf, "LAF", False)
    ops.set_flag(ctx, tf, "MOVED", True)
    _track(ctx, "counter")
    ctx.summary(f"{f.name} counteracts: moves to hex {here} ({spent}/{ma})")


def mover_done(s: State) -> bool:
    """After a counterattack on the mover: its move ends if it retreated (DR/BT), is gone,
    or has no movement points left."""
    m = s.vars.get("moving") or {}
    last = s.vars.get("last_combat") or {}
    if not m or m.get("tf") not in s.formations:
        return True
    if last.get("mover") == m.get("tf") and last.get("mover_stopped"):
        return True
    return int(m.get("spent", 0)) >= int(m.get("allowance", 0)) and not m.get("blocked_end")


def end_move_after_counter(ctx: Ctx) -> None:
    m = ctx.var("moving") or {}
    name = (
        ctx.state.formations[m["tf"]].name if m.get("tf") in ctx.state.formations else "the moving task force"
    )
    ctx.explain(f"{name} can move no further this phase")
    _end_move(ctx)


# -- shared by the ZOC step prompt ----------------------------------------------------------------
def zoc_prompt(s: State) -> str:
    z = s.vars.get("zoc") or {}
    m = s.vars.get("moving") or {}
    mover = s.formations[m["tf"]].name if m.get("tf") in s.formations else "the moving task force"
    left = [
        s.formations[x].name for x in z.get("tfs", []) if x not in z.get("tried", []) and x in s.formations
    ]
    moved, counter = budget(s)
    text = (
        f"{mover} entered hex {z.get('hex', '?')} in the zone of control of "
        f"{', '.join(s.formations[x].name for x in z.get('tfs', []) if x in s.formations)}. "
    )
    if left:
        text += f"Defender: detection attempts open for {', '.join(left)}. "
    text += (
        f"A task force that has detected it may counterattack ({moved - counter} counteraction(s) "
        "available). Advance to let the move go on."
    )
    return text
