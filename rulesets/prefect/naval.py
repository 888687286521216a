"""Shared naval helpers: locations, fighter capacity, segments, scenario set-up limits,
withdrawals and the per-phase bookkeeping of the space game."""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import Formation, State, Unit
from rulesets.prefect import ops
from rulesets.prefect.board import KU_CRASSUS, Board, other, sector_of
from rulesets.prefect.space import fighter_capacity, parse_sector

FATIGUE_MISSIONS = ("attack", "hs_attack", "recon", "ground_support", "orbital_drop")


def sector_param(text: str) -> str:
    try:
        z, s = parse_sector(text)
    except ValueError as exc:
        raise ActionRejected(str(exc)) from None
    return f"{z},{s}"


def naval_tf(ctx: Ctx, fid: str, side: str | None = None) -> Formation:
    f = ctx.state.formation(fid)
    if f.kind != "naval_tf":
        raise ActionRejected(f"{f.name} is not a naval task force")
    if side and f.side != side:
        raise ActionRejected(f"{f.name} belongs to {f.side}, not {side}")
    return f


def tf_sector(f: Formation) -> str | None:
    return sector_of(f.location)


def capacity_problem(board: Board, units: list[Unit]) -> str | None:
    """Non-Independent fighter flights must fit in the starships' FTR (5.13.1)."""
    ships = [board.n(u, "ftr") for u in units if board.kind(u) == "starship"]
    flights = [u for u in units if board.kind(u) == "fighter" and not board.independent(u)]
    cap, surplus = fighter_capacity(ships, len(flights))
    if surplus:
        return (
            f"{len(flights)} carried flights but the starships lift only {cap}: destroy {surplus} "
            "(scuttle_flights)"
        )
    return None


def phasing(state: State) -> str:
    return str(state.vars.get("roles", {}).get("phasing", ""))


def opponent(state: State) -> str:
    return other(phasing(state)) if phasing(state) else ""


def has_naval_base(board: Board, sector: str, side: str) -> bool:
    return any(
        board.base_class(b) in ("ON", "GN") and not b.status.get("disrupted")
        for b in board.bases_in_sector(sector, side)
    ) or any(
        u.data.get("as_base") and sector_of(u.location) == sector and u.side == side and board.active(u)
        for u in board.state.units.values()
    )


def has_any_base(board: Board, sector: str, side: str) -> bool:
    return bool(board.bases_in_sector(sector, side))


def set_phasing(ctx: Ctx, role: str) -> None:
    roles = dict(ctx.var("roles", {}))
    roles["phasing"] = roles[role]
    roles["opponent"] = other(roles[role])
    ctx.set_var("roles", roles)


def advance_tspace(ctx: Ctx) -> None:
    """At the start of a T-space phase every task force of the phasing side on the track
    moves forward one box (2.4 S2.1)."""
    board = Board.of(ctx)
    side = phasing(ctx.state)
    moved = []
    for f in board.naval_tfs(side):
        if f.location == "tspace" and not f.status.get("exiting"):
            fm = ctx.formation(f.id)
            fm.status["tspace_box"] = int(f.status.get("tspace_box", 0)) + 1
            moved.append(f"{f.name} to box {fm.status['tspace_box']}")
    ctx.set_var("exits", [])
    if moved:
        ctx.explain("T-space track: " + "; ".join(moved))


def place_emerging(ctx: Ctx) -> None:
    """After the detection reaction the undetected incoming task forces are placed (S2.6)."""
    for e in list(ctx.var("emerging", []) or []):
        f = ctx.formation(e["tf"])
        f.location = f"sector:{e['sector']}"
        f.status.pop("exiting", None)
        f.status.pop("tspace_box", None)
        f.status["arrived_turn"] = int(ctx.clock.get("turn", 1))
        ctx.set_secret(e["side"], f"emerge:{e['tf']}", None)
        ctx.explain(f"{f.name} appears in sector ({e['sector']})")
    ctx.set_var("emerging", None)


def start_turn_naval(ctx: Ctx) -> None:
    """Mission Assignment begins the turn: note who began it insystem, clear last turn's
    chart marks, and apply scenario clocks (Invasion's battleship squadrons)."""
    board = Board.of(ctx)
    turn = board.turn
    for f in board.naval_tfs():
        if f.location and f.location.startswith("sector:"):
            ctx.formation(f.id).status["began_insystem"] = turn
    for u in list(ctx.state.units.values()):
        if any(k in u.data for k in ("chart_seg", "frozen", "intercepted", "committed", "supply_segment")):
            mu = ctx.unit(u.id)
            for k in ("chart_seg", "frozen", "intercepted", "committed", "supply_segment"):
                mu.data.pop(k, None)
    ctx.set_var("delivered", {"base": 0, "field": 0})
    arrivals(ctx)
    battleship_clock(ctx)


def arrivals(ctx: Ctx) -> None:
    """Naval units and bases due this turn arrive in the outsystem Functional box; ground
    formations due this turn are ready outsystem (6.4 reinforcements)."""
    board = Board.of(ctx)
    for u in list(ctx.state.units.values()):
        due = u.data.get("arrives")
        if due is None or int(due) > board.turn or u.data.get("place"):
            continue
        mu = ctx.unit(u.id)
        if board.kind(u) in ("starship", "fighter", "transport") or (
            board.is_base(u) and board.base_class(u) != "GL"
        ):
            mu.formation = f"{u.side}-functional"
        mu.data.pop("arrives", None)
        mu.data["outsystem"] = True
        ctx.explain(f"{u.label} arrives in the {u.side} outsystem area")
    for f in list(ctx.state.formations.values()):
        if f.data.get("start") == "reserve" and not any(
            x.data.get("arrives") for x in ctx.state.units.values() if x.formation == f.id
        ):
            ctx.formation(f.id).data["start"] = "outsystem"


def battleship_clock(ctx: Ctx) -> None:
    """Invasion: the 12299th (and the 49007th with it) must withdraw at arrival + N (G29);
    elements outsystem or on the T-space track then leave the game."""
    arrived = ctx.var("bb_arrival")
    if arrived is None or ctx.var("bb_gone"):
        return
    due = int(arrived) + int(ctx.options.get("bb_squadron_turns", 8))
    if int(ctx.clock.get("turn", 1)) < due:
        return
    board = Board.of(ctx)
    ctx.set_var("bb_must_withdraw", True)
    for u in list(ctx.state.units.values()):
        if u.data.get("group") not in ("tog12299", "cw49007"):
            continue
        f = ctx.state.formations.get(u.formation or "")
        outside = f is None or f.kind == "box" or f.location in ("outsystem", "tspace")
        if outside and not u.data.get("departed"):
            mu = ctx.unit(u.id)
            mu.formation = None
            mu.location = None
            mu.data["departed"] = True
            ctx.explain(f"{u.label} leaves the theatre")
    ops.remove_empty_forces(ctx)
    del board


def must_withdraw(state: State, f: Formation) -> bool:
    if not state.vars.get("bb_must_withdraw"):
        return False
    return any(
        u.data.get("group") in ("tog12299", "cw49007") for u in state.units.values() if u.formation == f.id
    )


def deploy_problem(state: State, f: Formation, location: str) -> str | None:
    """Scenario set-up limits (6.2, 6.4)."""
    board = Board(state)
    scen = state.vars.get("scenario")
    units = [u for u in state.units.values() if u.formation == f.id]
    groups = {u.data.get("group") for u in units}
    side = f.side
    if scen == "holding_the_line":
        if location == "outsystem":
            if side == "TOG" and f.data.get("group") != "convoy" and groups != {"tog45309"}:
                return "only elements of the 45309th may start in the TOG Functional box"
            return None
        sector = location
        if sector == KU_CRASSUS:
            allowed = "cw44454" if side == "CW" else "tog45309"
            if groups != {allowed}:
                name = "44454th" if side == "CW" else "45309th"
                return f"only elements of the {name} may start in the Ku Crassus sector"
            return None
        enemy_bases = board.bases_in_sector(sector, other(side))
        if side == "CW" and enemy_bases:
            return f"({sector}) holds a TOG base"
        if side == "TOG" and any(board.base_class(b) in ("ON", "GN") for b in enemy_bases):
            return f"({sector}) holds a Commonwealth naval base"
        return None
    if scen == "invasion":
        if side == "TOG":
            return "every TOG force starts in the outsystem area" if location != "outsystem" else None
        if location == "outsystem":
            return None
        if not any(board.base_class(b) in ("ON", "GN") for b in board.bases_in_sector(location, side)):
            return f"Commonwealth task forces start at a naval base; ({location}) has none"
    return None


def remove_from_chart(ctx: Ctx, uids: list[str]) -> None:
    for uid in uids:
        u = ctx.state.unit(uid)
        if "chart_seg" in u.data:
            ctx.unit(uid).data.pop("chart_seg", None)


def on_chart(state: State, sector: str, segment: int, side: str) -> list[str]:
    board = Board(state)
    out = []
    for u in state.units.values():
        if u.side != side or board.is_base(u) or u.status.get("destroyed"):
            continue
        f = state.formations.get(u.formation or "")
        if f is None or sector_of(f.location) != sector:
            continue
        if u.data.get("chart_seg") == segment:
            out.append(u.id)
    return out


def allocated(state: State, sector: str, segment: int, side: str) -> list[str]:
    """Sector Defense units a side has allocated to a segment (undisrupted, not yet used)."""
    board = Board(state)
    sd = board.sector_defense_tf(sector, side)
    if sd is None:
        return []
    return [
        u.id
        for u in board.units(sd.id)
        if board.active(u)
        and int(u.data.get("segment", 0) or 0) == segment
        and u.data.get("intercepted") != board.turn
    ]


def bases_in_segment(
    state: State, sector: str, segment: int, side: str, classes: tuple[str, ...] = ("ON", "GN", "GL")
) -> list[str]:
    board = Board(state)
    return [
        b.id
        for b in board.bases_in_sector(sector, side)
        if board.base_segment(b) == segment and board.base_class(b) in classes
    ] + [
        u.id
        for u in state.units.values()
        if u.data.get("as_base")
        and u.side == side
        and sector_of(u.location) == sector
        and int(u.data.get("segment", 0) or 0) == segment
    ]


def execute_withdrawals(ctx: Ctx, side: str) -> None:
    """Withdrawing task forces leave now (G20): outsystem, where their units go to the
    Functional box with all fatigue cleared, or to a sector with a friendly base."""
    board = Board.of(ctx)
    for f in list(board.naval_tfs(side)):
        dest = f.status.get("withdraw_to")
        if f.status.get("mission") != "withdrawal" or not dest or not f.location:
            continue
        units = board.units(f.id)
        if not units:
            ops.remove_force(ctx, f.id)
            continue
        problem = capacity_problem(board, units)
        if problem and any(u.data.get("group") == "tog12299" for u in units):
            flights = [u for u in units if board.kind(u) == "fighter" and not board.independent(u)]
            cap = sum(board.n(u, "ftr") for u in units if board.kind(u) == "starship")
            for u in flights[cap:]:
                ops.destroy_unit(ctx, u.id, "cannot be withdrawn for lack of transport", scorer="CW")
        if dest == "outsystem":
            for u in board.units(f.id):
                mu = ctx.unit(u.id)
                mu.formation = f"{side}-functional"
                mu.data.pop("segment", None)
                if u.data.get("group") in ("tog12299", "cw49007") and ctx.var("bb_must_withdraw"):
                    mu.formation = None
                    mu.data["departed"] = True
            ctx.explain(f"{f.name} withdraws outsystem: its units go to the Functional box, fatigue cleared")
            ops.remove_force(ctx, f.id)
        else:
            ctx.formation(f.id).location = f"sector:{dest}"
            ctx.formation(f.id).status.pop("withdraw_to", None)
            ctx.explain(f"{f.name} withdraws to sector ({dest})")


def end_space_phase(ctx: Ctx) -> None:
    """End of a space combat phase: withdrawals are carried out, fatigue is applied once
    per turn (5.9) and the Sector Combat Chart is cleared."""
    from rulesets.prefect.space_combat import apply_space_fatigue

    execute_withdrawals(ctx, phasing(ctx.state))
    apply_space_fatigue(ctx, ("TOG", "CW"))
    for u in list(ctx.state.units.values()):
        if "chart_seg" in u.data:
            ctx.unit(u.id).data.pop("chart_seg", None)
    ctx.set_var("mission", None)


def withdrawals_pending(state: State) -> bool:
    board = Board(state)
    return any(
        f.status.get("mission") == "withdrawal" and f.status.get("withdraw_to") and f.location
        for f in board.naval_tfs(phasing(state))
    )
