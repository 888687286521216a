"""Campaign game (2.7, 5.14): independent naval attacks, anti-drop fighter attacks, forming
and landing dropped forces, supply drops to headquarters and bases delivered to engineers."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.prefect import ops
from rulesets.prefect.actions_supply import new_tf
from rulesets.prefect.board import Board, hexid, loc_hex, map_board, other
from rulesets.prefect.common import actor_side, own_force
from rulesets.prefect.rulings import area_of, terrain_of
from rulesets.prefect.values import storage_cap, terrain_effect

# rule modules: imported at the first call of one of their functions
checks = later("rulesets.prefect.checks")
crt = later("rulesets.prefect.crt")
detection = later("rulesets.prefect.detection")
ground_combat = later("rulesets.prefect.ground_combat")
ground_detection = later("rulesets.prefect.ground_detection")
saves = later("rulesets.prefect.saves")
space_combat = later("rulesets.prefect.space_combat")
roll_check = checks.roll_check
column_index, parse_cell = crt.column_index, crt.parse_cell
naval_esm, planetary_target = detection.naval_esm, detection.planetary_target
sig_of = ground_detection.sig_of
ground_outcome = saves.ground_outcome
Force, battle, describe = space_combat.Force, space_combat.battle, space_combat.describe


def gs_units(state: State, side: str, area: int | None = None) -> list[str]:
    """Naval units of a side waiting in a Ground Support Holding Box (of one area)."""
    board = Board(state)
    return [
        u.id
        for u in state.units.values()
        if u.side == side
        and u.data.get("gs_area")
        and (area is None or int(u.data["gs_area"]) == area)
        and board.active(u)
    ]


@action(
    "independent_attack",
    "Independent naval attack",
    Param("units", "units", help="unused ground-support units"),
    Param("target", "formation", required=False, help="an enemy task force in the area"),
    Param("base", "unit", required=False, help="or an enemy ground base in the area"),
    reference="2.7.9, 5.14.3",
    key="i",
)
def independent_attack(
    ctx: Ctx, units: list[str], target: str | None = None, base: str | None = None
) -> None:
    """At the end of the Ground Combat Phase (the Attacker's first), unused Ground Support
    units attack an enemy task force or ground base in their area. An undetected task force
    must first be found with the naval units' ESM (starships -2 each); a base is always
    detected and the attack follows the space combat rules."""
    from rulesets.prefect.space_combat import BASE_LETTERS_IGNORED

    board = Board.of(ctx)
    side = actor_side(ctx)
    if bool(target) == bool(base):
        raise ActionRejected("name a target task force or a base")
    where = (
        loc_hex(ctx.state.formation(target).location)
        if target
        else loc_hex(ctx.state.unit(base or "").location)
    )
    if not where:
        raise ActionRejected("the target is not on the planetary map")
    area = area_of(ctx, where)
    ready = set(gs_units(ctx.state, side, area))
    for uid in units:
        if uid not in ready:
            raise ActionRejected(
                f"{ctx.state.unit(uid).label} is not an unused Ground Support unit of area {area}"
            )
    if target:
        f = own_force(ctx, target, other(side))
        if board.bases_at(where, f.side):
            raise ActionRejected(f"{f.name} is at a base: only the base may be attacked")
        if not board.detected(target):
            starships = [
                board.n(ctx.state.unit(u), "esm") for u in units if board.kind(ctx.state.unit(u)) != "fighter"
            ]
            fighters = [
                board.n(ctx.state.unit(u), "esm") for u in units if board.kind(ctx.state.unit(u)) == "fighter"
            ]
            esm = naval_esm(starships, fighters)
            laf = board.laf(target)
            mod = (
                0
                if laf
                else int(terrain_effect(ctx.tables, terrain_of(ctx, where, chooser=f.side), "detection"))
            )
            t = planetary_target(
                esm,
                sig_of(board, target),
                laf,
                mod,
                [board.rating(b) for b in board.bases_at(where)],
                bool(ctx.options.get("laf_ignores_bases", True)),
            )
            parts = [("naval ESM (starships -2)", esm), *t.parts[1:]]
            check = roll_check(
                ctx,
                f"naval detection of {f.name}",
                parts,
                side=side,
                success="detected",
                failure="not detected",
            )
            if not check.passed:
                for uid in units:
                    mu = ctx.unit(uid)
                    mu.data.pop("gs_area", None)
                    mu.data["gs_used"] = board.turn
                ctx.summary(f"{f.name} not found: the naval units go back")
                return
            ops.set_flag(ctx, target, "DETECTED", True)
        ctx.summary(f"independent naval attack on {f.name}")
        ground_combat.begin_naval(ctx, side, list(units), target)
        return
    b = ctx.state.unit(base or "")
    if b.side == side or board.base_class(b) not in ("GL", "GN"):
        raise ActionRejected(f"{b.label} is not an enemy ground base")
    ad = (
        sum(board.count_special(f.id, "air_defense") for f in board.forces_at(where, b.side))
        if ctx.options.get("air_defense", True)
        else 0
    )
    detected = all(ctx.state.unit(u).data.get("gs_detected", True) for u in units)
    res = battle(
        ctx,
        Force(
            side,
            list(units),
            [],
            "ground_support",
            fighter_mods=[("Air/Space Defense at the base", -ad)] if ad else [],
        ),
        Force(b.side, [], [b.id], None, BASE_LETTERS_IGNORED),
        f"independent attack on {b.label}",
        shift_right=not detected,
        letters=False,
    )
    for uid in units:
        mu = ctx.unit(uid)
        mu.data.pop("gs_area", None)
        mu.data["gs_used"] = board.turn
    if ctx.state.unit(b.id).status.get("destroyed"):
        for f in board.forces_at(where, b.side):
            for u in board.active_units(f.id):
                ops.disrupt_unit(ctx, u.id, f"its base {b.label} was destroyed")
    ctx.summary(f"independent attack on {b.label}: {describe(res)}")


def ground_cargo(state: State, transport: str) -> list[str]:
    return [u.id for u in state.units.values() if u.data.get("carried_by") == transport]


@action(
    "antidrop_attack",
    "Fighters attack a drop",
    Param("units", "units", help="unused Ground Support fighters"),
    Param("area", "int", min=1, max=10),
    reference="5.14.6",
    key="f",
)
def antidrop_attack(ctx: Ctx, units: list[str], area: int) -> None:
    """Unused enemy Ground Support fighters in the area attack the forces in its Orbital
    Drop Holding Box: no shifts, the fighters never save, the dropping units save with the
    CRT modifier only (all letters ignored). Disrupted units still land; disrupted supply
    transports drop nothing."""
    from rulesets.prefect.saves import DESTROYED, DISRUPTED

    board = Board.of(ctx)
    side = actor_side(ctx, ctx.state.unit(units[0]).side if units else None)
    ready = set(gs_units(ctx.state, side, area))
    for uid in units:
        u = ctx.state.unit(uid)
        if uid not in ready or board.kind(u) != "fighter":
            raise ActionRejected(f"{u.label} is not an unused Ground Support fighter of area {area}")
    targets = [
        u
        for u in ctx.state.units.values()
        if u.side == other(side)
        and u.data.get("drop_area") == area
        and not u.status.get("destroyed")
        and not u.data.get("landed")
    ]
    if not targets:
        raise ActionRejected(f"nothing of {other(side)} is dropping into area {area}")
    att = sum(board.n(ctx.state.unit(u), "attack") for u in units)
    dfn = sum(board.n(u, "defense") for u in targets)
    ctx.explain(f"fighters' attack {att} against the dropping forces' defense {dfn} (no shift)")
    roll = ctx.roll("1d10", "attack on a drop (T4)", table="T4", side=side)
    look = ctx.lookup("T4", roll=roll.natural, odds=(att, dfn))
    ctx.result(roll, str(look.value), look.explanation)
    cell = parse_cell(str(look.value))
    for u in targets:
        parts = [("defense", board.n(u, "defense")), ("CRT", cell.def_mod)]
        check = roll_check(ctx, f"save while dropping: {u.label}", parts, side=u.side)
        if board.kind(u) == "ground":
            outcome = ground_outcome(check.passed, False, board.nongrav(u), bool(u.status.get("disrupted")))
        else:
            outcome = "unharmed" if check.passed else (DESTROYED if u.status.get("disrupted") else DISRUPTED)
        if outcome == DISRUPTED:
            ctx.unit(u.id).status["disrupted"] = True
            ctx.explain(
                f"{u.label} disrupted (it still lands)"
                if board.kind(u) == "ground"
                else f"{u.label} disrupted: it returns and drops nothing"
            )
            if board.kind(u) == "transport":
                ctx.unit(u.id).data.pop("drop_area", None)
        elif outcome == DESTROYED:
            ops.destroy_unit(ctx, u.id, "shot down while dropping")
    for uid in units:
        mu = ctx.unit(uid)
        mu.data.pop("gs_area", None)
        mu.data["gs_used"] = board.turn
    ctx.summary(
        f"attack on the drop into area {area}: {att}:{dfn} column {column_index(att, dfn)}, "
        f"roll {roll.natural} -> {look.value}"
    )


@action(
    "form_dropped_tf",
    "Form dropped units into a task force",
    Param("org", "formation"),
    Param("units", "units"),
    reference="5.14.6",
    visibility="actor",
    key="d",
)
def form_dropped_tf(ctx: Ctx, org: str, units: list[str]) -> None:
    """In Task Force Adjustment the units that dropped form task forces (no HQ needed);
    they land at the end of the Supply Phase."""
    side = actor_side(ctx, ctx.state.unit(units[0]).side if units else None)
    areas = set()
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side or not u.data.get("drop_area") or Board.of(ctx).kind(u) != "ground" or u.formation:
            raise ActionRejected(f"{u.label} is not a dropped unit waiting for a task force")
        if u.status.get("disrupted"):
            raise ActionRejected(f"{u.label} is disrupted: it lands on its own (land_disrupted)")
        areas.add(int(u.data["drop_area"]))
    if len(areas) != 1:
        raise ActionRejected("the units must have dropped into the same area")
    f = new_tf(ctx, org, side, None)
    ctx.formation(f.id).status["drop_area"] = areas.pop()
    for uid in units:
        ctx.unit(uid).formation = f.id
    ctx.summary(f"{f.name} formed from dropped units")


def _landing_ok(ctx: Ctx, side: str, hex_: str, area: int) -> None:
    board = Board.of(ctx)
    if area_of(ctx, hex_) != area:
        raise ActionRejected(f"hex {hex_} is not in area {area}")
    if board.forces_at(hex_, other(side)):
        raise ActionRejected(f"hex {hex_} holds an enemy task force")
    if any(not b.status.get("disrupted") for b in board.bases_at(hex_, other(side))):
        raise ActionRejected(f"hex {hex_} holds an active enemy base")
    zocs = side != board.defender and any(
        f.kind == "tf" and not board.laf(f.id) for f in board.ground_forces(board.defender)
    )
    if zocs and ctx.ruling(
        f"dropzoc:{hex_}:t{board.turn}",
        f"Is hex {hex_} in an active zone of control of the {board.defender} task forces?",
    ):
        raise ActionRejected(f"hex {hex_} is in an enemy active zone of control (GM ruling)")


@action(
    "land_tf",
    "Land a dropped task force",
    Param("tf", "formation"),
    Param("hex", "hex", board=map_board),
    reference="5.14.6",
    key="l",
)
def land_tf(ctx: Ctx, tf: str, hex: str) -> None:
    """At the end of the Supply Phase a dropped task force lands in any hex of its area with
    no active enemy base, no enemy task force and no enemy active zone of control; landing
    with a friendly task force merges them. A Legion or Auxilia HQ lands full (T5)."""
    board = Board.of(ctx)
    f = ctx.state.formation(tf)
    area = f.status.get("drop_area")
    if not area or f.location:
        raise ActionRejected(f"{f.name} is not a dropped task force waiting to land")
    h = hexid(hex, ctx.state)
    _landing_ok(ctx, f.side, h, int(area))
    fm = ctx.formation(tf)
    fm.location = f"hex:{h}"
    fm.status.pop("drop_area", None)
    for u in board.units(tf):
        mu = ctx.unit(u.id)
        mu.data.pop("drop_area", None)
        if board.hq(u) in ("legion", "auxilia"):
            mu.status["supply"] = storage_cap(board, ctx.tables, u)
    friends = [x for x in board.forces_at(h, f.side) if x.id != tf and x.kind == "tf"]
    if friends:
        ops.merge(ctx, tf, friends[0].id)
    ctx.summary(f"{f.name} lands in hex {h}")


@action(
    "land_disrupted",
    "Land disrupted dropped units",
    Param("units", "units"),
    Param("hex", "hex", board=map_board),
    reference="5.14.6",
)
def land_disrupted(ctx: Ctx, units: list[str], hex: str) -> None:
    """Units disrupted while dropping still land, loose, in a hex of their area (best where
    a task force with an HQ stands)."""
    h = hexid(hex, ctx.state)
    for uid in units:
        u = ctx.state.unit(uid)
        if not u.data.get("drop_area") or not u.status.get("disrupted") or u.formation:
            raise ActionRejected(f"{u.label} is not a disrupted dropped unit")
        _landing_ok(ctx, u.side, h, int(u.data["drop_area"]))
        mu = ctx.unit(uid)
        mu.data.pop("drop_area", None)
        mu.location = f"hex:{h}"
    ctx.summary(f"{len(units)} disrupted unit(s) land in hex {h}")


@action(
    "drop_supply",
    "Drop supply to a headquarters",
    Param("transport", "unit"),
    Param("hq", "unit"),
    Param("amount", "int", min=1),
    reference="5.14.7",
    key="s",
)
def drop_supply(ctx: Ctx, transport: str, hq: str, amount: int) -> None:
    """An undisrupted transport in an area's Orbital Drop box hands SP to a friendly Legion
    or Auxilia HQ in that area; the HQ's cap applies."""
    board = Board.of(ctx)
    t = ctx.state.unit(transport)
    h = ctx.state.unit(hq)
    if not t.data.get("drop_area") or not board.active(t):
        raise ActionRejected(f"{t.label} is not an undisrupted transport in a drop box")
    if h.side != t.side or board.hq(h) not in ("legion", "auxilia") or not h.formation:
        raise ActionRejected(f"{h.label} is not a friendly Legion or Auxilia HQ on the map")
    tf = ctx.state.formation(h.formation)
    if area_of(ctx, loc_hex(tf.location) or "") != int(t.data["drop_area"]):
        raise ActionRejected(f"{h.label} is not in area {t.data['drop_area']}")
    ops.take_supply(ctx, transport, amount)
    ops.give_supply(ctx, hq, amount)
    ctx.summary(f"{amount} SP dropped to {h.label}")


@action(
    "drop_base",
    "Drop a dismantled base to engineers",
    Param("base", "unit"),
    Param("tf", "formation"),
    reference="5.14.7, 5.14.10",
    key="b",
)
def drop_base(ctx: Ctx, base: str, tf: str) -> None:
    """A base carried by a transport in the drop box goes to a friendly task force with
    Construction Engineer Centuries in that area: placed in its hex, disrupted, revealed."""
    board = Board.of(ctx)
    b = ctx.state.unit(base)
    carrier = ctx.state.unit(str(b.data.get("carried_by", "")) or base)
    if not carrier.data.get("drop_area") or not board.active(carrier):
        raise ActionRejected(f"{b.label} is not aboard an undisrupted transport in a drop box")
    f = own_force(ctx, tf, b.side)
    if not board.has_special(tf, "construction_engineer"):
        raise ActionRejected(f"{f.name} has no Construction Engineer Century")
    h = loc_hex(f.location) or ""
    if area_of(ctx, h) != int(carrier.data["drop_area"]):
        raise ActionRejected(f"{f.name} is not in area {carrier.data['drop_area']}")
    if board.bases_at(h):
        raise ActionRejected(f"hex {h} already holds a base")
    if board.rating(b) > 3:
        raise ActionRejected("only bases of rating 1-3 are placed on the map (G43)")
    mb = ctx.unit(base)
    mb.data.pop("carried_by", None)
    mb.data.update({"placed": True, "sector": "3,2", "segment": area_of(ctx, h), "area": area_of(ctx, h)})
    mb.location = f"hex:{h}"
    mb.formation = None
    mb.status["disrupted"] = True
    ctx.reveal(mb, other(b.side))
    ctx.summary(f"{b.label} placed in hex {h}, disrupted")


def drops_landed(s: State) -> str | None:
    left = [f.name for f in s.formations.values() if f.status.get("drop_area") and not f.location]
    loose = [
        u.label
        for u in s.units.values()
        if u.data.get("drop_area")
        and Board(s).kind(u) == "ground"
        and not u.formation
        and not u.location
        and not u.status.get("destroyed")
    ]
    if left or loose:
        return f"land the dropped forces (land_tf, land_disrupted): {', '.join([*left, *loose][:5])}"
    return None


def end_of_drops(ctx: Ctx) -> None:
    """Transports leave the drop boxes when the Supply Phase ends."""
    for u in list(ctx.state.units.values()):
        if u.data.get("drop_area") and Board.of(ctx).kind(u) == "transport":
            ctx.unit(u.id).data.pop("drop_area", None)


def ground_support_return(ctx: Ctx) -> None:
    """Unused ground-support units go back to their task forces when the phase ends."""
    for u in list(ctx.state.units.values()):
        if u.data.get("gs_area"):
            ctx.unit(u.id).data.pop("gs_area", None)
