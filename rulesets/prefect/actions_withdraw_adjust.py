"""Ground Withdrawal (P4) and Task Force Adjustment (P5), plus scenario supply deliveries
at the end of the Supply Phase."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State
from rulesets.prefect import ops
from rulesets.prefect.actions_supply import new_tf
from rulesets.prefect.board import TERRAINS, Board, hexid, loc_hex, map_board, other
from rulesets.prefect.common import actor_side, own_force, own_unit
from rulesets.prefect.rulings import adjacent, line_of_communication, terrain_of
from rulesets.prefect.values import storage_cap


def loose_disrupted(state: State, side: str | None = None) -> list[str]:
    board = Board(state)
    return [
        u.id
        for u in state.units.values()
        if u.status.get("disrupted")
        and u.formation is None
        and board.kind(u) == "ground"
        and u.location
        and (side is None or u.side == side)
    ]


def lines_checked(s: State) -> str | None:
    if loose_disrupted(s) and s.vars.get("lines_checked") != s.clock.get("turn"):
        return "check the disrupted units' lines of communication first"
    return None


@action(
    "check_lines",
    "Check disrupted units' lines of communication",
    reference="P4.1, 5.10",
    key="l",
    available=lambda s: (
        "already checked this turn" if s.vars.get("lines_checked") == s.clock.get("turn") else None
    ),
)
def check_lines(ctx: Ctx) -> None:
    """Every disrupted unit on the map must trace a line of communication to a friendly HQ
    or base, or it is destroyed (a GM ruling for each side, listing the units)."""
    board = Board.of(ctx)
    lost = 0
    for side in ("TOG", "CW"):
        cands = []
        for uid in loose_disrupted(ctx.state, side):
            u = ctx.state.unit(uid)
            hex_ = loc_hex(u.location) or ""
            sheltered = any(board.base_class(b) == "GL" for b in board.bases_at(hex_, side)) or any(
                board.has_hq(f.id) for f in board.forces_at(hex_, side)
            )
            if not sheltered:
                cands.append(u)
        if not cands:
            continue
        cut = ctx.ruling(
            f"cutoff:{side}:t{board.turn}",
            f"Which of these {side} disrupted units can NOT trace a line of communication to a "
            f"friendly HQ or base? (leave empty if all can)",
            answer_kind="multi",
            options=[u.id for u in cands],
            info=[f"{u.id}: {u.label} in hex {loc_hex(u.location)}" for u in cands],
        )
        for uid in cut or []:
            ops.destroy_unit(ctx, str(uid), "no line of communication in the Withdrawal Phase")
            lost += 1
    ctx.set_var("lines_checked", board.turn)
    ctx.summary(f"lines of communication checked: {lost} disrupted unit(s) destroyed")


@action(
    "withdraw_unit",
    "Withdraw a disrupted unit",
    Param("unit", "unit"),
    Param("path", "list", help="hexes entered, in order (at most 9; non-grav 1)"),
    Param("terrain", "choice", choices=TERRAINS, required=False, help="terrain of the last hex (non-grav)"),
    reference="P4.2, T11",
    key="w",
    available=lines_checked,
)
def withdraw_unit(ctx: Ctx, unit: str, path: list[str], terrain: str | None = None) -> None:
    """Move a disrupted unit up to 9 hexes in Combat mode (non-grav: 1, never into Water),
    never through enemy task forces, bases or active zones of control. Reaching a Legion base
    or an HQ task force puts it under that counter, still disrupted."""
    board = Board.of(ctx)
    u = ctx.state.unit(unit)
    if not (u.status.get("disrupted") and u.formation is None and u.location):
        raise ActionRejected(f"{u.label} is not a disrupted unit on the map")
    side = u.side
    if u.data.get("withdrawn") == board.turn:
        raise ActionRejected(f"{u.label} has already withdrawn this turn")
    hexes = [hexid(h, ctx.state) for h in path]
    limit = 1 if board.nongrav(u) else 9
    if not hexes or len(hexes) > limit:
        raise ActionRejected(f"{u.label} may move 1 to {limit} hexes")
    here = loc_hex(u.location) or ""
    for dest in hexes:
        if board.forces_at(dest, other(side)) or board.bases_at(dest, other(side)):
            raise ActionRejected(f"hex {dest} holds an enemy task force or base")
        if board.loose_at(dest, other(side)):
            raise ActionRejected(f"disrupted units may not enter hex {dest}: it holds enemy units")
        if not adjacent(ctx, here, dest):
            raise ActionRejected(f"hex {dest} is not next to {here}")
        here = dest
    if board.nongrav(u) and terrain_of(ctx, here, terrain, chooser=side) == "water":
        raise ActionRejected("non-grav units never enter Water")
    zoc_owner = board.defender
    zocs = side != zoc_owner and any(
        f.kind == "tf" and not board.laf(f.id) for f in board.ground_forces(zoc_owner)
    )
    if zocs and ctx.ruling(
        f"wdzoc:{unit}:t{board.turn}",
        f"Does the path {' '.join(hexes)} of {u.label} cross an enemy active zone of control?",
    ):
        raise ActionRejected("the path crosses an enemy active zone of control (GM ruling)")
    mu = ctx.unit(unit)
    mu.location = f"hex:{here}"
    mu.data["withdrawn"] = board.turn
    shelter = [b for b in board.bases_at(here, side) if board.base_class(b) == "GL"]
    hqtf = [f for f in board.forces_at(here, side) if board.has_hq(f.id)]
    if shelter:
        mu.data["held_by"] = shelter[0].id
    elif hqtf:
        mu.data["held_by"] = hqtf[0].id
    else:
        mu.data.pop("held_by", None)
    ctx.summary(
        f"{u.label} withdraws to hex {here}" + (" (under a base or HQ)" if mu.data.get("held_by") else "")
    )


# -- Task Force Adjustment ------------------------------------------------------------------------
@action(
    "transfer_units",
    "Move units between task forces",
    Param("units", "units"),
    Param("to_tf", "formation", help="the task force they join (same or next hex)"),
    reference="P5.1, 5.9",
    visibility="actor",
    key="t",
)
def transfer_units(ctx: Ctx, units: list[str], to_tf: str) -> None:
    """Units pass between adjacent friendly task forces; the joined task force takes the
    highest fatigue involved and the LAF status of units that join it."""
    board = Board.of(ctx)
    side = actor_side(ctx, ctx.state.formation(to_tf).side)
    dst = own_force(ctx, to_tf, side)
    dhex = loc_hex(dst.location) or ""
    sources = set()
    for uid in units:
        u = own_unit(ctx, uid, side)
        if not u.formation or u.formation == to_tf:
            raise ActionRejected(f"{u.label} is not in another task force")
        src = own_force(ctx, u.formation, side)
        shex = loc_hex(src.location) or ""
        if shex != dhex and not adjacent(ctx, shex, dhex):
            raise ActionRejected(f"{src.name} is not next to {dst.name}")
        sources.add(src.id)
    fat = max([board.fatigue(to_tf), *(board.fatigue(s) for s in sources)])
    for uid in units:
        ctx.unit(uid).formation = to_tf
    ops.set_fatigue(ctx, to_tf, fat)
    if any(board.laf(s) for s in sources):
        ops.set_flag(ctx, to_tf, "LAF", True)
    ctx.summary(f"{len(units)} unit(s) join {dst.name} (fatigue {fat})")


@action(
    "form_tf",
    "Form a new task force",
    Param("org", "formation", help="the parent Legion/Auxilia/Regiment"),
    Param("hex", "hex", help="next to a task force holding an HQ, or at a friendly base", board=map_board),
    Param("units", "units", help="units taken from task forces in or next to that hex"),
    reference="P5.2",
    visibility="actor",
    key="n",
)
def form_tf(ctx: Ctx, org: str, hex: str, units: list[str]) -> None:
    """Open a new task force next to a task force that holds an HQ, or at a friendly base,
    within the organization's task-force limit."""
    board = Board.of(ctx)
    side = actor_side(ctx, ctx.state.formation(org).side)
    h = hexid(hex, ctx.state)
    at_base = bool(board.bases_at(h, side))
    if not at_base:
        hq_tfs = [f for f in board.ground_forces(side) if board.has_hq(f.id)]
        near = [f for f in hq_tfs if loc_hex(f.location) != h and adjacent(ctx, loc_hex(f.location) or "", h)]
        if not near:
            raise ActionRejected(
                f"hex {h} is neither next to a task force holding an HQ nor at a friendly base"
            )
    if board.forces_at(h, other(side)):
        raise ActionRejected(f"hex {h} holds an enemy task force")
    sources = set()
    for uid in units:
        u = own_unit(ctx, uid, side)
        if not u.formation or u.formation not in ctx.state.formations:
            raise ActionRejected(f"{u.label} is not in a task force")
        src = own_force(ctx, u.formation, side)
        shex = loc_hex(src.location) or ""
        if shex != h and not adjacent(ctx, shex, h):
            raise ActionRejected(f"{src.name} is not in or next to hex {h}")
        sources.add(src.id)
    f = new_tf(ctx, org, side, h)
    for uid in units:
        ctx.unit(uid).formation = f.id
    fat = max([0, *(board.fatigue(s) for s in sources)])
    ops.set_fatigue(ctx, f.id, fat)
    if any(board.laf(s) for s in sources):
        ops.set_flag(ctx, f.id, "LAF", True)
    ctx.summary(f"{f.name} formed in hex {h}")


@action(
    "place_reinforcement",
    "Place a reinforcement",
    Param("unit", "unit"),
    Param("hex", "hex", board=map_board),
    Param("tf", "formation", required=False, help="a friendly task force there to join"),
    reference="P5.3, 6.4",
    visibility="actor",
    key="p",
)
def place_reinforcement(ctx: Ctx, unit: str, hex: str, tf: str | None = None) -> None:
    """A reinforcement due this turn comes onto the map where the scenario allows (Invasion
    Militia: any city or Legion base the Commonwealth controls)."""
    from rulesets.prefect.actions_supply import _independent_at, _join_or_form

    board = Board.of(ctx)
    u = own_unit(ctx, unit, actor_side(ctx, ctx.state.unit(unit).side))
    due = u.data.get("arrives")
    if (
        due is None
        or int(due) > board.turn
        or u.location
        or (u.formation and ctx.state.formation(u.formation).kind == "tf")
    ):
        raise ActionRejected(f"{u.label} is not a reinforcement waiting to be placed")
    h = hexid(hex, ctx.state)
    where = u.data.get("place", "")
    if where == "city_or_base":
        city = board.city_at(h)
        ok_city = city is not None and city[1].get("controller") == u.side
        ok_base = any(board.base_class(b) == "GL" for b in board.bases_at(h, u.side))
        if not (ok_city or ok_base):
            raise ActionRejected(f"hex {h} is neither a city nor a Legion base controlled by {u.side}")
    if board.nongrav(u) and terrain_of(ctx, h, chooser=u.side) == "water":
        raise ActionRejected("non-grav units may not be placed on Water")
    mu = ctx.unit(unit)
    mu.data.pop("arrives", None)
    mu.data.pop("place", None)
    if board.nongrav(u) and not tf:
        _independent_at(ctx, mu, h)
    else:
        _join_or_form(ctx, mu, h, tf, "reinforcement")
    ctx.summary(f"{u.label} arrives in hex {h}")


# -- scenario deliveries ------------------------------------------------------------------------
def city_supply(ctx: Ctx, side: str, per_city: int = 2) -> None:
    """2 SP per city the side controls, each city's SP to a friendly base with a valid grav
    line of communication to it; above the cap is lost (Liberation, Invasion)."""
    board = Board.of(ctx)
    cities = [(cid, c) for cid, c in board.cities().items() if c.get("controller") == side]
    bases = [
        b
        for b in board.bases(side)
        if board.base_class(b) == "GL" and b.location and int(b.status.get("knocked_out", 0)) != board.turn
    ]
    if not cities:
        ctx.explain(f"{side} controls no city: no city supply")
        return
    for cid, c in cities:
        if not bases:
            ctx.explain(f"{c.get('name', cid)}: no {side} base can receive its {per_city} SP")
            continue
        pick = ctx.choose(
            f"city:{cid}:t{board.turn}",
            f"Which {side} base receives the {per_city} SP of {c.get('name', cid)}?",
            [(b.id, b.label) for b in bases] + [("none", "no base can")],
            side=side,
            default=max(
                bases, key=lambda b: storage_cap(board, ctx.tables, b) - int(b.status.get("supply", 0))
            ).id,
        )
        if pick == "none":
            ctx.explain(f"{c.get('name', cid)}: its SP are lost")
            continue
        if not line_of_communication(
            ctx,
            f"city:{cid}:{pick}:t{board.turn}",
            f"Is there a valid grav line of communication from {c.get('name', cid)} "
            f"(hex {c.get('hex')}) to {ctx.state.unit(pick).label}?",
        ):
            ctx.explain(f"{c.get('name', cid)}: no line of communication, its SP are lost")
            continue
        ops.give_supply(ctx, pick, per_city)


def liberation_tog_supply(ctx: Ctx) -> None:
    """15 SP to the TOG GL2 or another TOG base, then the orbital drop roll (T15, G41)."""
    board = Board.of(ctx)
    bases = [b for b in board.bases("TOG") if board.base_class(b) == "GL" and b.location]
    if bases:
        pick = ctx.choose(
            f"tog15:t{board.turn}",
            "Which TOG base receives the 15 SP?",
            [(b.id, b.label) for b in bases],
            side="TOG",
            default=bases[0].id,
        )
        ops.give_supply(ctx, pick, 15)
    else:
        ctx.explain("TOG controls no base: the 15 SP are lost")
    hqs = [
        u
        for u in ctx.state.units.values()
        if u.side == "TOG"
        and board.hq(u) in ("legion", "auxilia")
        and u.formation
        and u.formation in ctx.state.formations
        and ctx.state.formation(u.formation).kind == "tf"
        and board.active(u)
    ]
    roll = ctx.roll("1d10", "orbital drop supply (T15)", table="T15", side="TOG")
    look = ctx.lookup("T15", roll=roll.natural)
    ctx.result(roll, str(look.value), look.explanation)
    result = str(look.value)
    if not hqs:
        ctx.explain("no TOG Legion or Auxilia HQ in the field to receive it")
        return
    if result == "fill":
        for h in hqs:
            from rulesets.prefect.values import storage_cap

            need = storage_cap(board, ctx.tables, h) - int(h.status.get("supply", 0))
            if need > 0:
                ops.give_supply(ctx, h.id, need)
    elif result.startswith("each"):
        amount = int(result.split("+")[1])
        for h in hqs:
            ops.give_supply(ctx, h.id, amount)
    elif result.startswith("one"):
        amount = int(result.split("+")[1])
        pick = ctx.choose(
            f"t15hq:t{board.turn}",
            f"Which TOG headquarters receives the {amount} SP?",
            [(h.id, h.label) for h in hqs],
            side="TOG",
            default=hqs[0].id,
        )
        ops.give_supply(ctx, pick, amount)


def income_done(s: State) -> str | None:
    if s.vars.get("income_done") != s.clock.get("turn"):
        return "deliver this Supply Phase's scenario supply first"
    return None


@action(
    "scenario_supply",
    "Deliver the scenario's supply",
    reference="P3.6, 6.3, 6.4, T15",
    key="s",
    available=lambda s: (
        "already delivered this turn" if s.vars.get("income_done") == s.clock.get("turn") else None
    ),
)
def scenario_supply(ctx: Ctx) -> None:
    """The supply the scenario sends at the end of the Supply Phase (it cannot be moved on
    this turn): city supply, Liberation's 15 SP and orbital drop roll."""
    board = Board.of(ctx)
    rule = ctx.var("income", {})
    for side, kind in sorted(rule.items()):
        if kind == "cities":
            city_supply(ctx, side)
        elif kind == "liberation_tog":
            liberation_tog_supply(ctx)
    ctx.set_var("income_done", board.turn)
    ctx.summary("scenario supply delivered")
