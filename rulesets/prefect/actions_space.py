"""Space game (2.4-2.6): set-up, mission assignment, T-space and insystem movement, and the
space combat phases with their missions, interceptions and opposing sector defenses."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.prefect import candidates as C
from rulesets.prefect import ops
from rulesets.prefect.board import KU_CRASSUS, MISSIONS, Board, other
from rulesets.prefect.common import actor_side
from rulesets.prefect.naval import (
    FATIGUE_MISSIONS,
    allocated,
    bases_in_segment,
    capacity_problem,
    deploy_problem,
    has_any_base,
    must_withdraw,
    naval_tf,
    on_chart,
    opponent,
    phasing,
    remove_from_chart,
    sector_param,
    tf_sector,
)
from rulesets.prefect.space import even_fill_ok, interceptor_eligible, marine_base_defense

# rule modules: imported at the first call of one of their functions
checks = later("rulesets.prefect.checks")
detection = later("rulesets.prefect.detection")
space_combat = later("rulesets.prefect.space_combat")
roll_check = checks.roll_check
interceptor_target, nspace_target = detection.interceptor_target, detection.nspace_target
recon_target, tspace_target = detection.recon_target, detection.tspace_target
withdrawal_target = detection.withdrawal_target
Force, battle, describe = space_combat.Force, space_combat.battle, space_combat.describe


def _side(ctx: Ctx, hint: str | None = None) -> str:
    return actor_side(ctx, hint)


def _parse_allocation(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in str(text).split(","):
        if not part.strip():
            continue
        if ":" not in part:
            raise ActionRejected("write the allocation as unit:segment,unit:segment or all:SEGMENT")
        k, v = part.split(":", 1)
        out[k.strip()] = int(v)
    return out


# -- set-up ------------------------------------------------------------------------------------
@action(
    "deploy_tf",
    "Deploy a naval task force",
    Param("tf", "formation", candidates=C.own_naval_tfs),
    Param("where", help="a sector such as 3,2, or outsystem"),
    reference="2.1 S_SETUP",
    visibility="actor",
    key="p",
)
def deploy_tf(ctx: Ctx, tf: str, where: str) -> None:
    """Place one of your naval task forces in a sector or in the outsystem area, within the
    scenario's limits."""
    side = _side(ctx)
    f = naval_tf(ctx, tf, side)
    if f.location == "tspace":
        raise ActionRejected(f"{f.name} is on the T-space track as the scenario says")
    location = "outsystem" if where.strip().lower() == "outsystem" else sector_param(where)
    problem = deploy_problem(ctx.state, f, location)
    if problem:
        raise ActionRejected(problem)
    ctx.formation(tf).location = "outsystem" if location == "outsystem" else f"sector:{location}"
    ctx.summary(f"{f.name} deployed {'outsystem' if location == 'outsystem' else f'in ({location})'}")


@action(
    "place_naval_base",
    "Place a base in an orbital segment",
    Param("base", "unit"),
    Param("segment", "int", min=1, max=10),
    reference="2.1 S_SETUP.2, 5.13.13",
    visibility="actor",
)
def place_naval_base(ctx: Ctx, base: str, segment: int) -> None:
    """Put a base into a segment of its sector's body; orbital bases fill segments evenly
    (no segment takes a k+1-th base while another has fewer than k); ground bases anywhere."""
    board = Board.of(ctx)
    side = _side(ctx)
    b = ctx.state.unit(base)
    if b.side != side or not board.is_base(b):
        raise ActionRejected(f"{b.label} is not one of your bases")
    sector = str(b.data.get("sector") or "")
    if not sector:
        raise ActionRejected(f"{b.label} has no sector yet")
    n = board.segments_of(sector)
    if not 1 <= segment <= n:
        raise ActionRejected(f"({sector}) has segments 1-{n}")
    if board.base_class(b) == "ON":
        counts = [0] * n
        for other_b in board.bases_in_sector(sector):
            if board.base_class(other_b) == "ON" and other_b.id != base and board.base_segment(other_b):
                counts[int(board.base_segment(other_b) or 1) - 1] += 1
        if not even_fill_ok(counts, segment - 1):
            raise ActionRejected(
                f"segment {segment} may not take another orbital base while another segment has "
                f"fewer (counts {counts})"
            )
    mb = ctx.unit(base)
    mb.data["segment"] = segment
    mb.data["placed"] = True
    mb.data.pop("needs_segment", None)
    mb.location = f"orbit:{sector}/{segment}"
    ctx.summary(f"{b.label} placed in segment {segment} of ({sector})")


@action(
    "station_marines",
    "Station a Marine Cohort at a base",
    Param("unit", "unit"),
    Param("base", "unit"),
    reference="6.4, 5.13.12",
    visibility="actor",
)
def station_marines(ctx: Ctx, unit: str, base: str) -> None:
    """Marines go under a friendly naval base (Invasion: the six Cohorts at naval bases)."""
    board = Board.of(ctx)
    side = _side(ctx)
    u = ctx.state.unit(unit)
    b = ctx.state.unit(base)
    if u.side != side or board.special(u) != "marine":
        raise ActionRejected(f"{u.label} is not one of your Marine Cohorts")
    if b.side != side or board.base_class(b) not in ("ON", "GN") or not b.data.get("placed"):
        raise ActionRejected(f"{b.label} is not one of your naval bases in play")
    mu = ctx.unit(unit)
    mu.data["at_base"] = base
    mu.data.pop("needs_base", None)
    mu.location = b.location
    ctx.summary(f"{u.label} stationed at {b.label}")


# -- missions -----------------------------------------------------------------------------------
@action(
    "set_mission",
    "Assign a mission",
    Param("tf", "formation", candidates=C.own_naval_tfs),
    Param("mission", "choice", choices=MISSIONS),
    Param("segment", "int", required=False, min=1, max=10, help="Sector Defense: segment for all its units"),
    reference="2.4 S1, T12",
    visibility="actor",
    key="m",
)
def set_mission(ctx: Ctx, tf: str, mission: str, segment: int | None = None) -> None:
    """Give a task force its mission chit for the turn. Sector Defense is for insystem task
    forces only, one per side per sector, never with a Transport Squadron; a task force of
    disrupted units must withdraw; task forces on the T-space track keep their mission."""
    board = Board.of(ctx)
    side = ctx.state.formation(tf).side
    if _side(ctx, side) != side:
        raise ActionRejected(f"only {side} assigns this mission")
    f = naval_tf(ctx, tf, side)
    in_setup = ctx.state.step.startswith("S_SETUP")
    if f.location == "tspace" and not in_setup:
        raise ActionRejected(f"{f.name} is on the T-space track and keeps its mission")
    if not f.location:
        raise ActionRejected(f"{f.name} is not deployed")
    units = board.units(tf)
    if not units:
        raise ActionRejected(f"{f.name} is empty")
    if mission == "sector_defense":
        sector = tf_sector(f)
        if not sector:
            raise ActionRejected("Sector Defense is for task forces insystem")
        if any(board.kind(u) == "transport" for u in units):
            raise ActionRejected("a task force with a Transport Squadron may not take Sector Defense")
        rival = board.sector_defense_tf(sector, side)
        if rival is not None and rival.id != tf and rival.status.get("mission_turn") == board.turn:
            raise ActionRejected(f"{rival.name} already defends ({sector})")
        if segment is not None and not 1 <= segment <= board.segments_of(sector):
            raise ActionRejected(f"({sector}) has segments 1-{board.segments_of(sector)}")
    if any(u.status.get("disrupted") for u in units) and mission != "withdrawal" and tf_sector(f):
        raise ActionRejected(f"{f.name} holds the sector's disrupted units: it must take Withdrawal")
    if must_withdraw(ctx.state, f) and mission != "withdrawal":
        raise ActionRejected(f"{f.name} carries battleship-squadron elements that must withdraw now (G29)")
    if (
        in_setup
        and f.location == "tspace"
        and ctx.var("scenario") == "holding_the_line"
        and mission not in ("orbital_drop", "supply")
    ):
        raise ActionRejected("task forces on the T-space track take Orbital Drop or Supply (6.2)")
    fm = ctx.formation(tf)
    fm.status["mission"] = mission
    fm.status["mission_turn"] = board.turn
    fm.status.pop("withdraw_to", None)
    for u in units:
        if mission == "sector_defense":
            ctx.unit(u.id).data["segment"] = int(segment or u.data.get("segment") or 1)
        elif "segment" in u.data:
            ctx.unit(u.id).data.pop("segment", None)
    ctx.summary(f"{f.name}: mission {mission.replace('_', ' ')}")


@action(
    "allocate_segments",
    "Allocate Sector Defense units",
    Param("tf", "formation"),
    Param("allocation", help="unit:segment,... or all:SEGMENT"),
    reference="2.4 S1",
    visibility="actor",
    key="g",
)
def allocate_segments(ctx: Ctx, tf: str, allocation: str) -> None:
    """Spread a Sector Defense task force's ships and fighters over the orbital segments
    of its sector's body (hidden from the opponent)."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, ctx.state.formation(tf).side)
    if board.mission(tf) != "sector_defense":
        raise ActionRejected(f"{f.name} is not on Sector Defense")
    sector = tf_sector(f) or ""
    n = board.segments_of(sector)
    plan = _parse_allocation(allocation)
    units = {u.id for u in board.units(tf)}
    if "all" in plan:
        plan = {uid: plan["all"] for uid in units}
    for uid, seg in plan.items():
        if uid not in units:
            raise ActionRejected(f"{uid} is not in {f.name}")
        if not 1 <= seg <= n:
            raise ActionRejected(f"({sector}) has segments 1-{n}")
        ctx.unit(uid).data["segment"] = seg
    ctx.summary(f"{f.name}: {len(plan)} unit(s) allocated")


def missions_missing(s: State) -> str | None:
    board = Board(s)
    left = [
        f.name
        for f in board.naval_tfs()
        if f.location in ("outsystem",) or (f.location or "").startswith("sector:")
        if board.units(f.id) and f.status.get("mission_turn") != board.turn
    ]
    return (
        f"missions still to assign: {', '.join(left[:6])}" + (" ..." if len(left) > 6 else "")
        if left
        else None
    )


# -- T-space ------------------------------------------------------------------------------------
@action(
    "enter_tspace",
    "Put a task force on the T-space track",
    Param("tf", "formation"),
    side="phasing",
    reference="2.4 S2.2, 5.13.1",
    visibility="actor",
    key="t",
)
def enter_tspace(ctx: Ctx, tf: str) -> None:
    """A task force in the outsystem area goes onto box 0 of the T-space Travel Time Track
    (its carried fighter flights must fit in its starships)."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, phasing(ctx.state))
    if f.location != "outsystem":
        raise ActionRejected(f"{f.name} is not in the outsystem area")
    if f.status.get("mission_turn") != board.turn:
        raise ActionRejected(f"{f.name} has no mission this turn")
    problem = capacity_problem(board, board.units(tf))
    if problem:
        raise ActionRejected(problem)
    fm = ctx.formation(tf)
    fm.location = "tspace"
    fm.status["tspace_box"] = 0
    ctx.summary(f"{f.name} enters T-space (box 0)")


@action(
    "exit_tspace",
    "Bring a task force out of T-space",
    Param("tf", "formation"),
    Param("sector", help="where it appears (zone,sector)"),
    side="phasing",
    reference="2.4 S2.3-S2.6, 5.13.2",
    key="x",
    secret_params=("sector",),  # an undetected exit is placed in secret (5.13.2)
)
def exit_tspace(ctx: Ctx, tf: str, sector: str) -> None:
    """The opponent rolls T-space detection against the Sig total (starships + Independent
    flights + the T8 modifier for the box). A detected task force is placed at once; an
    undetected one is placed after the opponent's reaction."""
    board = Board.of(ctx)
    side = phasing(ctx.state)
    f = naval_tf(ctx, tf, side)
    if f.location != "tspace" or f.status.get("exiting"):
        raise ActionRejected(f"{f.name} is not on the T-space track")
    units = board.units(tf)
    problem = capacity_problem(board, units)
    if problem:
        raise ActionRejected(problem)
    where = sector_param(sector)
    box = int(f.status.get("tspace_box", 0))
    look = ctx.lookup("T8", turns=box)
    target = tspace_target(
        [board.n(u, "sig") for u in units if board.kind(u) in ("starship", "transport")],
        [board.n(u, "sig") for u in units if board.kind(u) == "fighter" and board.independent(u)],
        int(look.value),
    )
    check = roll_check(
        ctx,
        f"T-space detection of {f.name}",
        target.parts,
        side=other(side),
        success="detected",
        failure="not detected",
    )
    exits = list(ctx.var("exits", []) or [])
    exits.append(tf)
    ctx.set_var("exits", exits)
    groups = {u.data.get("group") for u in units}
    if "tog12299" in groups and ctx.var("bb_arrival") is None:
        ctx.set_var("bb_arrival", board.turn)
    fm = ctx.formation(tf)
    if check.passed:
        fm.location = f"sector:{where}"
        fm.status.pop("tspace_box", None)
        fm.status["arrived_turn"] = board.turn
        if "tog12299" in groups:
            ctx.set_var("bb_detected", True)
        ctx.summary(f"{f.name} detected coming out of T-space: placed in ({where})")
    else:
        fm.status["exiting"] = True
        emerging = list(ctx.var("emerging", []) or [])
        emerging.append({"tf": tf, "side": side, "sector": where})
        ctx.set_var("emerging", emerging)
        ctx.set_secret(side, f"emerge:{tf}", where)
        ctx.summary(f"{f.name} leaves T-space undetected (placed after the reaction)")


def bb_exit_rule(s: State) -> str | None:
    """Invasion: every 12299th task force leaves T-space on the same turn."""
    if s.vars.get("bb_arrival") != s.clock.get("turn"):
        return None
    board = Board(s)
    left = [
        f.name
        for f in board.naval_tfs("TOG")
        if f.location == "tspace"
        and not f.status.get("exiting")
        and any(u.data.get("group") == "tog12299" for u in board.units(f.id))
    ]
    return f"every 12299th task force must leave T-space this turn: {', '.join(left)}" if left else None


@action(
    "react_transfer",
    "Detection reaction: move units between Sector Defense task forces",
    Param("units", "units"),
    Param("to_tf", "formation"),
    Param("segment", "int", min=1, max=10, required=False, default=1),
    side="opponent",
    reference="2.4 S2.5, 5.13.1",
    visibility="actor",
    key="r",
)
def react_transfer(ctx: Ctx, units: list[str], to_tf: str, segment: int = 1) -> None:
    """After the detected task forces are placed, move ships and fighters between your
    Sector Defense task forces; fighters must travel with starships that can carry them."""
    board = Board.of(ctx)
    side = opponent(ctx.state)
    dst = naval_tf(ctx, to_tf, side)
    if board.mission(to_tf) != "sector_defense":
        raise ActionRejected(f"{dst.name} is not on Sector Defense")
    moving = []
    released = ctx.var("bb_detected") and ctx.var("scenario") == "invasion"
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side or not board.active(u):
            raise ActionRejected(f"{u.label} cannot move")
        src = ctx.state.formations.get(u.formation or "")
        from_reserve = (
            released and src is not None and src.id == f"{side}-held" and u.data.get("group") == "cw49007"
        )
        if not from_reserve and (
            src is None or src.kind != "naval_tf" or board.mission(src.id) != "sector_defense"
        ):
            raise ActionRejected(f"{u.label} is not in one of your Sector Defense task forces")
        moving.append(u)
    problem = capacity_problem(board, moving)
    if problem:
        raise ActionRejected(problem)
    n = board.segments_of(tf_sector(dst) or "")
    if not 1 <= segment <= n:
        raise ActionRejected(f"the sector has segments 1-{n}")
    for u in moving:
        mu = ctx.unit(u.id)
        mu.formation = to_tf
        mu.data["segment"] = segment
    ctx.summary(f"{len(moving)} unit(s) join {dst.name}")


# -- insystem movement ------------------------------------------------------------------------------
@action(
    "move_naval",
    "Move a task force to another sector",
    Param("tf", "formation"),
    Param("sector"),
    side="phasing",
    reference="2.4 S3, 5.13.1",
    visibility="actor",
    key="v",
)
def move_naval(ctx: Ctx, tf: str, sector: str) -> None:
    """A task force that began the turn insystem, not on Sector Defense or Withdrawal,
    moves to any sector; its carried flights must fit in its starships. No reaction."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, phasing(ctx.state))
    if f.status.get("began_insystem") != board.turn:
        raise ActionRejected(f"{f.name} did not begin the turn insystem")
    if board.mission(tf) in ("sector_defense", "withdrawal"):
        raise ActionRejected(f"{f.name} is on {board.mission(tf).replace('_', ' ')}")
    if f.status.get("moved_turn") == board.turn:
        raise ActionRejected(f"{f.name} has already moved")
    problem = capacity_problem(board, board.units(tf))
    if problem:
        raise ActionRejected(problem)
    where = sector_param(sector)
    fm = ctx.formation(tf)
    fm.location = f"sector:{where}"
    fm.status["moved_turn"] = board.turn
    ctx.summary(f"{f.name} moves to ({where})")


@action(
    "scuttle_flights",
    "Destroy surplus fighter flights",
    Param("units", "units"),
    reference="5.13.1",
    visibility="actor",
)
def scuttle_flights(ctx: Ctx, units: list[str]) -> None:
    """Flights a task force cannot carry may be destroyed on purpose (they can be rebuilt)."""
    board = Board.of(ctx)
    side = _side(ctx)
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side or board.kind(u) != "fighter" or board.independent(u):
            raise ActionRejected(f"{u.label} is not one of your carried flights")
        ops.destroy_unit(ctx, uid, "destroyed for lack of transport", scorer=None)
    ctx.summary(f"{len(units)} flight(s) destroyed for lack of transport")


@action(
    "declare_withdrawal",
    "Set a withdrawal destination",
    Param("tf", "formation"),
    Param("destination", help="outsystem, or a sector with a friendly base"),
    side="phasing",
    reference="5.13.10, G20",
    visibility="actor",
    key="w",
)
def declare_withdrawal(ctx: Ctx, tf: str, destination: str) -> None:
    """A Withdrawal task force heads outsystem or to an insystem sector with a friendly base
    (not a task force that came in from outsystem this turn); it leaves at the end of this
    side's space combat phase, after the opponent's chance to intercept."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, phasing(ctx.state))
    if board.mission(tf) != "withdrawal":
        raise ActionRejected(f"{f.name} is not on Withdrawal")
    if not tf_sector(f):
        raise ActionRejected(f"{f.name} is not insystem")
    if destination.strip().lower() == "outsystem":
        dest = "outsystem"
    else:
        dest = sector_param(destination)
        if not has_any_base(board, dest, f.side):
            raise ActionRejected(f"({dest}) holds no friendly base")
        if f.status.get("arrived_turn") == board.turn:
            raise ActionRejected(
                "a task force that came in from outsystem may not withdraw to an insystem base"
            )
    problem = capacity_problem(board, board.units(tf))
    if problem and not any(u.data.get("group") == "tog12299" for u in board.units(tf)):
        raise ActionRejected(problem)
    ctx.formation(tf).status["withdraw_to"] = dest
    ctx.summary(f"{f.name} will withdraw to {dest}")


# -- space combat phase: opposing sector defenses ---------------------------------------------------
def contested(state: State) -> list[tuple[str, int]]:
    """Segments where both sides' Sector Defense forces (or bases) would fight (2.6)."""
    board = Board(state)
    out = []
    sectors = {tf_sector(f) for f in board.naval_tfs() if board.mission(f.id) == "sector_defense"}
    for sector in sorted(s for s in sectors if s):
        if not (board.sector_defense_tf(sector, "TOG") and board.sector_defense_tf(sector, "CW")):
            continue
        for seg in range(1, board.segments_of(sector) + 1):
            mob = {s: allocated(state, sector, seg, s) for s in ("TOG", "CW")}
            bases = {
                s: [
                    b
                    for b in bases_in_segment(state, sector, seg, s)
                    if not state.unit(b).status.get("disrupted")
                ]
                for s in ("TOG", "CW")
            }
            if (mob["TOG"] and (mob["CW"] or bases["CW"])) or (mob["CW"] and bases["TOG"]):
                out.append((sector, seg))
    return out


def osd_open(s: State) -> str | None:
    if s.step != "S_ATK_COMBAT":
        return "opposing sector defenses fight in the Attacker's space combat phase"
    return None if contested(s) else "no segment holds both sides' sector defenses"


@action(
    "osd_round",
    "Fight a round of opposing sector defenses",
    Param("sector"),
    Param("segment", "int", min=1, max=10),
    side="attacker",
    reference="2.6, 5.13.5",
    key="o",
    available=osd_open,
)
def osd_round(ctx: Ctx, sector: str, segment: int) -> None:
    """One combat round in a segment held by both sides: the higher attack total is the
    combat attacker (a tie goes to the turn's Attacker, G30). Ground naval bases cannot be
    hurt by sector defenses and fire without saving."""
    from rulesets.prefect.space_combat import BASE_ORBITAL

    board = Board.of(ctx)
    sec = sector_param(sector)
    if (sec, segment) not in contested(ctx.state):
        raise ActionRejected(f"segment {segment} of ({sec}) is not contested")
    forces: dict[str, tuple[list[str], list[str], list[str]]] = {}
    totals = {}
    for side in ("TOG", "CW"):
        units = allocated(ctx.state, sec, segment, side)
        live = [
            b
            for b in bases_in_segment(ctx.state, sec, segment, side)
            if not ctx.state.unit(b).status.get("disrupted")
        ]
        ground = [b for b in live if board.base_class(ctx.state.unit(b)) == "GN"]
        orbital = [b for b in live if b not in ground]
        forces[side] = (units, orbital, ground)
        totals[side] = sum(
            max(0, board.n(u, "attack") - board.fatigue(ctx.state.unit(u).formation or "")) for u in units
        ) + sum(board.n(b, "attack") for b in live)
    if totals["TOG"] != totals["CW"]:
        att_side = max(totals, key=lambda s: totals[s])
    else:
        att_side = (
            board.attacker
            if ctx.options.get("osd_tie", "turn_attacker") == "turn_attacker"
            else board.defender
        )
    ctx.explain(f"attack totals: TOG {totals['TOG']}, CW {totals['CW']}: {att_side} is the combat attacker")
    dfn_side = other(att_side)
    a_units, a_orb, a_ground = forces[att_side]
    d_units, d_orb, d_ground = forces[dfn_side]
    if a_ground:
        ctx.explain("ground naval bases fire for free: sector defenses cannot harm them")
    if d_ground:
        ctx.explain(
            "the defending side's ground naval bases cannot be harmed and take no part in its defense"
        )
    res = battle(
        ctx,
        Force(att_side, a_units, a_orb, "sector_defense", BASE_ORBITAL, free_bases=a_ground),
        Force(dfn_side, d_units, d_orb, "sector_defense", BASE_ORBITAL),
        f"opposing sector defenses, ({sec}) segment {segment}",
    )
    if res.retreat:
        for uid in allocated(ctx.state, sec, segment, res.retreat):
            ctx.unit(uid).data.pop("segment", None)
    ctx.summary(f"opposing sector defenses in ({sec}) segment {segment}: {describe(res)}")


@action(
    "osd_pull_back",
    "Pull units back from a contested segment",
    Param("units", "units"),
    reference="2.6.3",
    visibility="actor",
    available=osd_open,
)
def osd_pull_back(ctx: Ctx, units: list[str]) -> None:
    """After a round, either player may pull ships and fighters back to their task-force box."""
    side = actor_side(ctx, ctx.state.unit(units[0]).side if units else None)
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side:
            raise ActionRejected(f"{u.label} is not yours")
        ctx.unit(uid).data.pop("segment", None)
    ctx.summary(f"{len(units)} unit(s) pulled back to their task-force box")


# -- missions ---------------------------------------------------------------------------------------
def _mission(s: Any) -> dict[str, Any]:
    state = getattr(s, "state", s)
    return dict(state.vars.get("mission") or {})


def mission_pending(s: State) -> bool:
    m = s.vars.get("mission") or {}
    return bool(m) and not m.get("entered")


def missions_left(s: State) -> list[str]:
    board = Board(s)
    side = phasing(s)
    return [
        f.id
        for f in board.naval_tfs(side)
        if tf_sector(f)
        and board.mission(f.id) not in ("sector_defense", "withdrawal", "")
        and f.status.get("resolved_turn") != board.turn
        and board.units(f.id)
    ]


@action(
    "start_mission",
    "Resolve a task force's mission",
    Param("tf", "formation"),
    side="phasing",
    reference="2.4 S4.2, 2.5",
    key="m",
)
def start_mission(ctx: Ctx, tf: str) -> None:
    """Pick one of your task forces in a sector and resolve its mission (sector by sector,
    in the order you choose)."""
    board = Board.of(ctx)
    side = phasing(ctx.state)
    f = naval_tf(ctx, tf, side)
    if tf not in missions_left(ctx.state):
        raise ActionRejected(f"{f.name} has no mission to resolve now")
    held = ctx.var("mission_sector")
    # the sector being worked through belongs to this segment only (turn and phasing side)
    current = held.get("sector") if isinstance(held, dict) and held.get("at") == [board.turn, side] else None
    sector = tf_sector(f) or ""
    if (
        current
        and current != sector
        and any(tf_sector(ctx.state.formation(x)) == current for x in missions_left(ctx.state))
    ):
        raise ActionRejected(f"finish the missions in ({current}) first")
    ctx.set_var("mission_sector", {"sector": sector, "at": [board.turn, side]})
    ctx.set_var(
        "mission",
        {
            "tf": tf,
            "side": side,
            "opponent": other(side),
            "sector": sector,
            "mission": board.mission(tf),
            "committed": [],
            "detected": None,
        },
    )
    ctx.summary(f"{f.name}: {board.mission(tf).replace('_', ' ')} mission in ({sector})")
    ctx.advance(check=False)


def _finish_mission(ctx: Ctx) -> None:
    m = _mission(ctx)
    if not m:
        return
    board = Board.of(ctx)
    f = ctx.formation(m["tf"]) if m["tf"] in ctx.state.formations else None
    if f is not None:
        f.status["resolved_turn"] = board.turn
        if m["mission"] in FATIGUE_MISSIONS:
            f.status["performed"] = True
    for uid in m.get("committed", []):
        if uid in ctx.state.units:
            ctx.unit(uid).data.pop("committed", None)
    for u in list(ctx.state.units.values()):
        if u.data.get("chart_seg") is not None and u.status.get("disrupted") and not board.is_base(u):
            ctx.unit(u.id).data.pop("chart_seg", None)
    if ctx.var("external_space"):  # a mark for an external battle does not outlive its mission
        ctx.set_var("external_space", None)
    ctx.set_var("mission", None)


def finish_mission(ctx: Any) -> None:
    _finish_mission(ctx)


@action("abort_mission", "Abort the mission", side="phasing", reference="2.5 M0", key="a")
def abort_mission(ctx: Ctx) -> None:
    """Before committing, any mission but Withdrawal or Sector Defense may be aborted; the
    task force does nothing more but still gains its level of fatigue."""
    m = _mission(ctx)
    if m.get("committed"):
        raise ActionRejected("units are committed: the mission must go on")
    ctx.summary(f"{ctx.state.formation(m['tf']).name} aborts its mission (fatigue still applies)")
    m2 = ctx.edit_var("mission", {})
    m2["aborted"] = True
    ctx.advance(check=False)


@action(
    "commit_units",
    "Commit units to the mission",
    Param("units", "units", required=False, help="Attack, HS Attack, Recon: the units that go"),
    side="phasing",
    reference="2.5 M1-M2, 5.13.3",
    key="c",
)
def commit_units(ctx: Ctx, units: list[str] | None = None) -> None:
    """Attack, HS Attack and Recon commit any part of the task force; other missions the
    whole of it. Committed units enter the Deep Space Interception box, and if an enemy
    Sector Defense task force is in the sector the opponent rolls N-space detection."""
    board = Board.of(ctx)
    m = ctx.edit_var("mission", {})
    tf = m["tf"]
    ready = [u.id for u in board.active_units(tf)]
    if m["mission"] in ("attack", "hs_attack", "recon"):
        chosen = list(units or [])
        for uid in chosen:
            if uid not in ready:
                raise ActionRejected(f"{uid} is not an undisrupted unit of this task force")
    else:
        if units and set(units) != set(ready):
            raise ActionRejected("this mission commits the whole task force")
        chosen = ready
    m["committed"] = chosen
    m["entered"] = True
    for uid in chosen:
        ctx.unit(uid).data["committed"] = True
    sector = m["sector"]
    opp = m["opponent"]
    sd = board.sector_defense_tf(sector, opp)
    ctx.explain(f"{len(chosen)} unit(s) committed")
    if not chosen:
        m["done"] = True
        ctx.summary("no unit committed")
        ctx.advance(check=False)
        return
    if sd is None:
        m["detected"] = False
        ctx.explain("no enemy Sector Defense task force in the sector: the force goes on undetected")
    else:
        esms = [
            board.n(u, "esm")
            for u in board.units(sd.id)
            if board.active(u) and u.data.get("intercepted") != board.turn
        ]
        bases = [
            board.n(b, "esm")
            for b in board.bases_in_sector(sector, opp)
            if board.base_class(b) == "ON" and not b.status.get("disrupted")
        ]
        target = nspace_target(esms, bases, [board.n(ctx.state.unit(u), "sig") for u in chosen], m["mission"])
        check = roll_check(
            ctx,
            f"N-space detection of {ctx.state.formation(tf).name}",
            target.parts,
            side=opp,
            success="detected",
            failure="not detected",
        )
        m["detected"] = check.passed
    ctx.summary(
        f"{len(chosen)} unit(s) committed; {'detected' if m['detected'] else 'undetected'} in N-space"
    )
    ctx.advance(check=False)


def intercept_candidates(state: State) -> list[str]:
    board = Board(state)
    m = _mission(state)
    if not m:
        return []
    sd = board.sector_defense_tf(m["sector"], m["opponent"])
    if sd is None:
        return []
    thrusts = [board.n(state.unit(u), "thrust") for u in m.get("committed", []) if u in state.units]
    return [
        u.id
        for u in board.units(sd.id)
        if board.active(u)
        and u.data.get("chart_seg") is None
        and u.data.get("frozen") != board.turn
        and u.data.get("intercepted") != board.turn
        and interceptor_eligible(board.n(u, "thrust"), thrusts)
    ]


@action(
    "intercept",
    "Deep space interception",
    Param("units", "units"),
    side="opponent",
    reference="2.5 M3, 5.13.4-5.13.5",
    key="i",
)
def intercept(ctx: Ctx, units: list[str]) -> None:
    """Send Sector Defense units with thrust at least the lowest thrust among the committed
    force (not frozen by recon, not already on the chart). The phasing player tries to
    detect them; an undetected interceptor may shift one column right."""
    board = Board.of(ctx)
    m = ctx.edit_var("mission", {})
    ok = set(intercept_candidates(ctx.state))
    for uid in units:
        if uid not in ok:
            raise ActionRejected(
                f"{ctx.state.unit(uid).label} may not intercept (thrust too low, frozen, used "
                "or not in the Sector Defense task force)"
            )
    if not units:
        raise ActionRejected("name the intercepting units")
    target = interceptor_target(
        [board.n(ctx.state.unit(u), "esm") for u in m["committed"]],
        [board.n(ctx.state.unit(u), "sig") for u in units],
    )
    check = roll_check(
        ctx,
        "detecting the interceptors",
        target.parts,
        side=m["side"],
        success="detected",
        failure="not detected",
    )
    res = battle(
        ctx,
        Force(m["opponent"], list(units), [], "sector_defense"),
        Force(m["side"], list(m["committed"]), [], m["mission"]),
        "deep space interception",
        shift_right=not check.passed,
    )
    for uid in units:
        if uid in ctx.state.units:
            ctx.unit(uid).data["intercepted"] = board.turn
    m = ctx.edit_var("mission", {})
    survivors = [u for u in m["committed"] if u in ctx.state.units and board.active(ctx.state.unit(u))]
    if res.retreat == m["side"]:
        survivors = []
        ctx.explain("the phasing force retreats: it cannot go on with its mission")
    for uid in m["committed"]:
        if uid not in survivors and uid in ctx.state.units:
            ctx.unit(uid).data.pop("committed", None)
    m["committed"] = survivors
    m["intercepted"] = True
    ctx.summary(f"deep space interception: {describe(res)}")
    ctx.advance(check=False)


def _segment_units(ctx: Ctx, sector: str, segment: int, side: str, freeze: bool = False) -> None:
    board = Board.of(ctx)
    sd = board.sector_defense_tf(sector, side)
    if sd is not None:
        for u in board.units(sd.id):
            if (
                int(u.data.get("segment", 0) or 0) == segment
                and board.active(u)
                and u.data.get("intercepted") != board.turn
            ):
                mu = ctx.unit(u.id)
                mu.data["chart_seg"] = segment
                if freeze:
                    mu.data["frozen"] = board.turn


@action(
    "choose_segment",
    "Choose the target segment",
    Param("segment", "int", min=1, max=10),
    side="phasing",
    reference="2.5 M4",
    key="s",
)
def choose_segment(ctx: Ctx, segment: int) -> None:
    """Move the surviving force to an orbital segment (planetoids 1-4, empty sectors 1);
    the opponent places all units and bases allocated there on the Sector Combat Chart."""
    board = Board.of(ctx)
    m = ctx.edit_var("mission", {})
    n = board.segments_of(m["sector"])
    if not 1 <= segment <= n:
        raise ActionRejected(f"({m['sector']}) has segments 1-{n}")
    m["segment"] = segment
    _segment_units(ctx, m["sector"], segment, m["opponent"])
    ctx.summary(f"the force moves to segment {segment}")
    ctx.advance(check=False)


def _survivors(ctx: Ctx) -> list[str]:
    board = Board.of(ctx)
    m = _mission(ctx)
    return [u for u in m.get("committed", []) if u in ctx.state.units and board.active(ctx.state.unit(u))]


@action(
    "resolve_mission",
    "Resolve the mission in the segment",
    Param("segment", "int", required=False, min=1, max=10, help="Recon: the segment to try to detect"),
    side="phasing",
    reference="2.5 M5",
    key="r",
)
def resolve_mission(ctx: Ctx, segment: int | None = None) -> None:
    """Attack and HS Attack fight everything in the segment (orbital bases count in the
    defense; ground bases do not). Recon learns each segment's Sig and tries to detect one.
    Against Supply, Ground Support and Orbital Drop the opponent chooses what attacks."""
    from rulesets.prefect.space_combat import BASE_ORBITAL

    board = Board.of(ctx)
    m = ctx.edit_var("mission", {})
    mission = m["mission"]
    side, opp, sector = m["side"], m["opponent"], m["sector"]
    seg = int(m.get("segment") or 0)
    survivors = _survivors(ctx)
    if mission in ("attack", "hs_attack"):
        enemies = on_chart(ctx.state, sector, seg, opp)
        orbital = bases_in_segment(ctx.state, sector, seg, opp, ("ON",))
        if not enemies and not orbital:
            ctx.summary("the segment is empty: no combat (the task force still tires)")
        elif not survivors:
            ctx.summary("no committed unit is left to attack")
        else:
            res = battle(
                ctx,
                Force(side, survivors, [], mission),
                Force(opp, enemies, orbital, None, BASE_ORBITAL),
                f"{mission.replace('_', ' ')} on ({sector}) segment {seg}",
                shift_right=m.get("detected") is False,
            )
            ctx.summary(f"{mission.replace('_', ' ')}: {describe(res)}")
            for uid in on_chart(ctx.state, sector, seg, opp):
                if not board.active(ctx.state.unit(uid)):
                    remove_from_chart(ctx, [uid])
            if res.retreat == opp:
                remove_from_chart(ctx, on_chart(ctx.state, sector, seg, opp))
            if res.retreat == side:
                for uid in _survivors(ctx):
                    ctx.unit(uid).data.pop("committed", None)
                ctx.edit_var("mission", {})["committed"] = []
    elif mission == "recon":
        if not survivors:
            ctx.summary("no recon unit survived: nothing learnt")
        else:
            sigs = {}
            for s in range(1, board.segments_of(sector) + 1):
                units = allocated(ctx.state, sector, s, opp)
                bases = bases_in_segment(ctx.state, sector, s, opp)
                sigs[s] = sum(board.n(ctx.state.unit(u), "sig") for u in [*units, *bases])
            ctx.explain(
                "the opponent states the Sig in each segment: "
                + ", ".join(f"{k}: {v}" for k, v in sigs.items())
            )
            m["sigs"] = sigs
            if segment is None:
                raise ActionRejected("name the segment to try to detect (segment=N)")
            if segment not in sigs:
                raise ActionRejected(f"({sector}) has segments 1-{len(sigs)}")
            target = recon_target([board.n(ctx.state.unit(u), "esm") for u in survivors], sigs[segment])
            check = roll_check(
                ctx,
                f"recon detection of segment {segment}",
                target.parts,
                side=side,
                success="detected: its forces are frozen on the chart",
                failure="not detected",
            )
            if check.passed:
                _segment_units(ctx, sector, segment, opp, freeze=True)
            ctx.summary(f"recon of segment {segment}: {'success' if check.passed else 'failure'}")
    else:
        candidates = on_chart(ctx.state, sector, seg, opp)
        bases = [
            b
            for b in bases_in_segment(ctx.state, sector, seg, opp)
            if not ctx.state.unit(b).status.get("disrupted")
        ]
        if (candidates or bases) and survivors:
            from campaign_tui.core.decisions import Decision, Option

            pool = candidates + bases
            chosen = ctx.decide(
                Decision(
                    id=f"attackers:{m['tf']}:{seg}",
                    kind="multi",
                    side=opp,
                    prompt=f"{opp}: which units and bases in segment {seg} attack the "
                    f"{mission.replace('_', ' ')} force?",
                    options=tuple(Option(x, ctx.state.unit(x).label) for x in pool),
                    min=0,
                    default=pool,
                )
            )
            units = [x for x in chosen if x in candidates]
            chosen_bases = [x for x in chosen if x in bases]
            if units or chosen_bases:
                res = battle(
                    ctx,
                    Force(opp, units, [], "sector_defense", free_bases=chosen_bases),
                    Force(side, survivors, [], mission),
                    f"attack on the {mission.replace('_', ' ')} force in segment {seg}",
                    shift_right=bool(ctx.options.get("segment_defender_shift", False)),
                )
                ctx.explain(describe(res))
                if res.retreat == side:
                    for uid in _survivors(ctx):
                        ctx.unit(uid).data.pop("committed", None)
                    m = ctx.edit_var("mission", {})
                    m["committed"] = []
        survivors = _survivors(ctx)
        _mission_job(ctx, mission, survivors, sector, seg)
        ctx.summary(f"{mission.replace('_', ' ')} in segment {seg}: {len(survivors)} unit(s) get through")
    m = ctx.edit_var("mission", {})
    m["resolved"] = True
    ctx.advance(check=False)


def _mission_job(ctx: Ctx, mission: str, survivors: list[str], sector: str, seg: int) -> None:
    board = Board.of(ctx)
    campaign = board.game == "campaign"
    detected = bool(_mission(ctx).get("detected"))
    for uid in survivors:
        u = ctx.unit(uid)
        if mission == "supply":
            u.data["supply_segment"] = [sector, seg, board.turn]
        elif mission == "ground_support" and campaign and sector == "3,2":
            u.data["gs_area"] = seg
            u.data["gs_detected"] = detected
        elif mission == "orbital_drop" and campaign and sector == "3,2" and board.kind(u) == "transport":
            u.data["drop_area"] = seg
            for c in [x for x in ctx.state.units.values() if x.data.get("carried_by") == uid]:
                if board.kind(c) == "ground" and (not board.nongrav(c) or board.special(c) == "marine"):
                    mc = ctx.unit(c.id)
                    mc.data.pop("carried_by", None)
                    mc.data["drop_area"] = seg
                    ctx.explain(f"{c.label} drops toward area {seg}")
    if not survivors:
        return
    if mission == "ground_support" and campaign and sector == "3,2":
        ctx.explain(f"the survivors go to the Ground Support box of area {seg}")
    if mission == "orbital_drop" and campaign and sector == "3,2":
        ctx.explain(f"the transports go to the Orbital Drop box of area {seg}; they land in the Supply Phase")


def after_open(s: State) -> bool:
    m = _mission(s)
    if not m or not m.get("resolved"):
        return False
    board = Board(s)
    survivors = [u for u in m.get("committed", []) if u in s.units and board.active(s.units[u])]
    if not survivors:
        return False
    if m["mission"] == "attack":
        return any(
            board.special(c) == "marine" for c in s.units.values() if c.data.get("carried_by") in survivors
        )
    if m["mission"] == "ground_support":
        return board.game == "space"
    if m["mission"] == "orbital_drop":
        return s.vars.get("scenario") == "holding_the_line"
    return False


@action(
    "marine_assault",
    "Marine assault on a disrupted orbital base",
    Param("base", "unit"),
    side="phasing",
    reference="5.13.12, G22",
    key="k",
)
def marine_assault(ctx: Ctx, base: str) -> None:
    """Marines carried on transports of an Attack mission land on an enemy orbital base that
    is disrupted now, with no other enemy forces or bases in its segment. Defense = base
    class + 1 per defending Marine Cohort; the base saves with the CRT modifier (G22)."""
    board = Board.of(ctx)
    m = _mission(ctx)
    if m.get("mission") != "attack":
        raise ActionRejected("Marines assault only from an Attack mission (not HS Attack)")
    b = ctx.state.unit(base)
    seg = int(m.get("segment") or 0)
    if (
        b.side != m["opponent"]
        or board.base_class(b) != "ON"
        or board.base_segment(b) != seg
        or board.base_sector(b) != m["sector"]
    ):
        raise ActionRejected(f"{b.label} is not an enemy orbital base in segment {seg}")
    if not b.status.get("disrupted"):
        raise ActionRejected(f"{b.label} is not disrupted")
    others = [x for x in on_chart(ctx.state, m["sector"], seg, m["opponent"])] + [
        x for x in bases_in_segment(ctx.state, m["sector"], seg, m["opponent"]) if x != base
    ]
    if others:
        raise ActionRejected("other enemy forces or bases are in the segment")
    survivors = _survivors(ctx)
    marines = [
        c
        for c in ctx.state.units.values()
        if c.data.get("carried_by") in survivors and board.special(c) == "marine"
    ]
    if not marines:
        raise ActionRejected("no Marine Cohort aboard a surviving transport")
    defenders = [
        c for c in ctx.state.units.values() if c.data.get("at_base") == base and not c.status.get("destroyed")
    ]
    att = len(marines) * int(ctx.options.get("marine_attack", 2))
    dfn = marine_base_defense(board.rating(b), len(defenders))
    ctx.explain(
        f"Marine assault: {len(marines)} Cohort(s) x {ctx.options.get('marine_attack', 2)} = {att} against "
        f"class {board.rating(b)} + {len(defenders)} Marines = {dfn}"
    )
    roll = ctx.roll("1d10", "Marine assault (T4)", table="T4", side=m["side"])
    look = ctx.lookup("T4", roll=roll.natural, odds=(att, dfn))
    ctx.result(roll, str(look.value), look.explanation)
    from rulesets.prefect.crt import parse_cell

    cell = parse_cell(str(look.value))
    check = roll_check(
        ctx,
        f"{b.label} resists the assault",
        [("class + Marines", dfn), ("CRT", cell.def_mod)],
        side=b.side,
        success="holds",
        failure="falls",
    )
    if not check.passed:
        from rulesets.prefect.values import vp_value

        mb = ctx.unit(base)
        mb.side = m["side"]
        for d in defenders:
            ops.destroy_unit(ctx, d.id, "defending a captured base")
        for c in marines:
            mc = ctx.unit(c.id)
            mc.data.pop("carried_by", None)
            mc.data["at_base"] = base
            mc.location = b.location
        ops.vp(ctx, m["side"], vp_value(board, ctx.tables, mb, ctx.options), f"{b.label} captured")
        ctx.summary(f"{b.label} captured with its supply (still disrupted)")
    else:
        carriers = {c.data.get("carried_by") for c in marines}
        for c in marines:
            ops.destroy_unit(ctx, c.id, "failed assault")
        for t in carriers:
            if t:
                ops.disrupt_unit(ctx, t, "failed Marine assault")
        ctx.summary(f"{b.label} holds: the Marines are lost and their transport disrupted")


@action(
    "gs_attack_base",
    "Ground support attack on a ground base",
    Param("base", "unit"),
    side="phasing",
    reference="2.5 M5, 5.13.7",
    key="b",
)
def gs_attack_base(ctx: Ctx, base: str) -> None:
    """(Space game) The surviving Ground Support force attacks a ground base in its segment:
    its attack against the base's defense only; the base saves."""
    from rulesets.prefect.space_combat import BASE_TARGET

    board = Board.of(ctx)
    m = _mission(ctx)
    b = ctx.state.unit(base)
    seg = int(m.get("segment") or 0)
    if m.get("mission") != "ground_support" or board.game != "space":
        raise ActionRejected("only a Ground Support mission in the space game attacks ground bases this way")
    if b.side != m["opponent"] or board.base_class(b) not in ("GN", "GL") or board.base_segment(b) != seg:
        raise ActionRejected(f"{b.label} is not an enemy ground base in segment {seg}")
    if m.get("base_attacked"):
        raise ActionRejected("the force has made its attack")
    res = battle(
        ctx,
        Force(m["side"], _survivors(ctx), [], "ground_support"),
        Force(b.side, [], [base], None, BASE_TARGET),
        f"ground support attack on {b.label}",
        shift_right=m.get("detected") is False,
    )
    ctx.edit_var("mission", {})["base_attacked"] = True
    ctx.summary(f"ground support attack: {describe(res)}")


@action(
    "deliver_field_supply",
    "Drop supply to the Legions in the field",
    Param("transport", "unit"),
    Param("amount", "int", min=1),
    side="phasing",
    reference="6.2 (Holding the Line)",
    key="d",
)
def deliver_field_supply(ctx: Ctx, transport: str, amount: int) -> None:
    """Holding the Line: a transport that reaches segment 3, 4, 8 or 9 of Ku Crassus
    undisrupted may drop up to 30 SP a turn to the TOG Legions (counted for T13)."""
    board = Board.of(ctx)
    m = _mission(ctx)
    rule = ctx.var("delivery", {})
    seg = int(m.get("segment") or 0)
    if (
        ctx.var("scenario") != "holding_the_line"
        or m.get("sector") != KU_CRASSUS
        or seg not in rule.get("field_segments", [])
    ):
        raise ActionRejected("field drops are made in segments 3, 4, 8 or 9 of Ku Crassus")
    if transport not in _survivors(ctx) or board.kind(ctx.state.unit(transport)) != "transport":
        raise ActionRejected("the transport did not get through undisrupted")
    delivered = ctx.edit_var("delivered", {"base": 0, "field": 0})
    cap = int(rule.get("field_cap", 30))
    if ctx.options.get("htl_field_caps"):
        cap = min(cap, 15)
    room = cap - int(delivered.get("field", 0))
    if amount > room:
        raise ActionRejected(f"the Legions can take only {room} more SP this turn")
    ops.take_supply(ctx, transport, amount)
    delivered["field"] = int(delivered.get("field", 0)) + amount
    ctx.summary(f"{amount} SP dropped to the Legions in the field ({delivered['field']} this turn)")


# -- withdrawal interceptions ----------------------------------------------------------------------
def withdrawing(s: State) -> list[str]:
    board = Board(s)
    return [
        f.id
        for f in board.naval_tfs(phasing(s))
        if board.mission(f.id) == "withdrawal" and f.status.get("withdraw_to") and f.location
    ]


@action(
    "intercept_withdrawal",
    "Intercept a withdrawing task force",
    Param("tf", "formation"),
    Param("units", "units", help="Sector Defense units not on the chart, thrust high enough"),
    side="opponent",
    reference="5.13.10, G20",
    key="i",
)
def intercept_withdrawal(ctx: Ctx, tf: str, units: list[str]) -> None:
    """After the phasing missions in a sector, the opponent may detect a withdrawing task
    force (Sector Defense and base ESM + its Sig) and attack it with Sector Defense units
    not on the chart whose thrust reaches its lowest thrust; they save at +2 (+2 more
    against disrupted units)."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, phasing(ctx.state))
    if tf not in withdrawing(ctx.state):
        raise ActionRejected(f"{f.name} is not withdrawing")
    if f.status.get("intercept_tried"):
        raise ActionRejected(f"{f.name} has already been the target of an interception attempt")
    dest = f.status.get("withdraw_to")
    sector = tf_sector(f) if dest == "outsystem" else dest
    opp = opponent(ctx.state)
    sd = board.sector_defense_tf(str(sector), opp)
    if sd is None:
        raise ActionRejected(f"no {opp} Sector Defense task force in ({sector})")
    ctx.formation(tf).status["intercept_tried"] = True
    wunits = board.units(tf)
    esms = [
        board.n(u, "esm")
        for u in board.units(sd.id)
        if board.active(u) and u.data.get("intercepted") != board.turn
    ]
    bases = [
        board.n(b, "esm") for b in board.bases_in_sector(str(sector), opp) if not b.status.get("disrupted")
    ]
    target = withdrawal_target(esms, bases, [board.n(u, "sig") for u in wunits])
    check = roll_check(
        ctx,
        f"detecting the withdrawing {f.name}",
        target.parts,
        side=opp,
        success="detected",
        failure="not detected",
    )
    if not check.passed:
        ctx.summary(f"{f.name} slips away undetected")
        return
    thrusts = [board.n(u, "thrust") for u in wunits]
    for uid in units:
        u = ctx.state.unit(uid)
        if (
            u.formation != sd.id
            or not board.active(u)
            or u.data.get("chart_seg") is not None
            or not interceptor_eligible(board.n(u, "thrust"), thrusts)
        ):
            raise ActionRejected(f"{u.label} may not attack it")
    if not units:
        ctx.summary(f"{f.name} detected but not attacked")
        return
    res = battle(
        ctx,
        Force(opp, list(units), [], "sector_defense"),
        Force(f.side, [u.id for u in wunits], [], "withdrawal"),
        f"interception of the withdrawing {f.name}",
    )
    ctx.summary(f"withdrawal interception: {describe(res)}")
