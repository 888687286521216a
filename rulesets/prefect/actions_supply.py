"""Ground supply (P3, 5.11): transfers, rearming, reorganizing, rebuilding and building
bases, in the order each game prescribes (G10); scenario deliveries come at the end."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import Formation, Unit
from rulesets.prefect import ops
from rulesets.prefect.board import Board, loc_hex
from rulesets.prefect.common import actor_side, allocate_payment, holders, own_force, own_unit
from rulesets.prefect.rulings import line_of_communication, terrain_of
from rulesets.prefect.supply import rearm_cost
from rulesets.prefect.values import ground_rebuild_cost, ground_reorg_cost, naval_reorg_cost

# the order of the Supply Phase's parts, per game (G10)
STAGES = {
    "planetary": {"transfer": 1, "rearm": 2, "reorganize": 3, "rebuild": 4, "build": 5},
    "space": {"rearm": 1, "reorganize": 2, "transfer": 3, "unload": 4, "rebuild": 5},
    "campaign": {
        "rearm": 1,
        "reorganize": 1,
        "rebuild": 2,
        "transfer": 3,
        "unload": 3,
        "build": 3,
        "drop": 4,
    },
}


def stage(ctx: Ctx, side: str, part: str) -> None:
    order = STAGES[Board.of(ctx).game]
    stages = ctx.edit_var("supply_stage", {})
    now = int(stages.get(side, 0))
    mine = order[part]
    if mine < now:
        done = [k for k, v in order.items() if v == now]
        raise ActionRejected(
            f"{part} comes before {', '.join(done)} in the Supply Phase; it is too late for it"
        )
    stages[side] = mine


def _usable(board: Board, u: Unit, giving: bool = True) -> None:
    if int(u.status.get("knocked_out", 0)) == board.turn:
        raise ActionRejected(f"{u.label} is knocked out by the orbital bombardment this Supply Phase")
    if giving and u.status.get("disrupted"):
        raise ActionRejected(f"{u.label} is disrupted: it may receive SP but not give or spend them")


def _holder(ctx: Ctx, uid: str, side: str) -> Unit:
    board = Board.of(ctx)
    u = own_unit(ctx, uid, side)
    ok = (board.is_base(u) and board.base_class(u) == "GL") or board.hq(u) in ("legion", "auxilia")
    if not ok:
        raise ActionRejected(f"{u.label} cannot hold supply (Legion bases and Legion/Auxilia HQs can)")
    return u


def _where(board: Board, u: Unit) -> str:
    if u.formation and u.formation in board.state.formations:
        return loc_hex(board.state.formation(u.formation).location) or "?"
    return loc_hex(u.location) or "?"


@action(
    "transfer_supply",
    "Transfer supply",
    Param("source", "unit", help="base or HQ that gives"),
    Param("dest", "unit", help="base or HQ that receives"),
    Param("amount", "int", min=1),
    reference="P3.1, 5.11.2",
    visibility="actor",
    key="t",
)
def transfer_supply(ctx: Ctx, source: str, dest: str, amount: int) -> None:
    """Move SP between a Legion base and an HQ (or another facility) along a valid line of
    communication; the receiver's cap applies and the excess is lost."""
    board = Board.of(ctx)
    side = actor_side(ctx)
    src = _holder(ctx, source, side)
    dst = _holder(ctx, dest, side)
    if board.hq(src) and board.hq(dst):
        raise ActionRejected("5.11.2: an HQ passes SP only to a base, not to another HQ")
    _usable(board, src)
    _usable(board, dst, giving=False)
    stage(ctx, side, "transfer")
    if not line_of_communication(
        ctx,
        f"{source}:{dest}:t{board.turn}",
        f"Can {src.label} (hex {_where(board, src)}) trace a line of communication to "
        f"{dst.label} (hex {_where(board, dst)})?",
    ):
        raise ActionRejected("no valid line of communication (GM ruling)")
    ops.take_supply(ctx, source, amount)
    ops.give_supply(ctx, dest, amount)
    ctx.summary(f"{amount} SP from {src.label} to {dst.label}")


@action(
    "rearm",
    "Rearm a task force",
    Param("tf", "formation"),
    Param("levels", "int", min=1, max=3),
    reference="P3.2, 5.11.3",
    visibility="actor",
    key="f",
)
def rearm(ctx: Ctx, tf: str, levels: int) -> None:
    """Remove fatigue: 1 SP per unit in the task force per level (every unit is paid for;
    fatigue belongs to the task force). Any friendly base or HQ may pay, several together;
    the task force needs a line of communication to a Legion HQ or Legion base."""
    board = Board.of(ctx)
    side = actor_side(ctx)
    f = own_force(ctx, tf, side)
    fat = board.fatigue(tf)
    if levels > fat:
        raise ActionRejected(f"{f.name} has only {fat} level(s) of fatigue")
    stage(ctx, side, "rearm")
    units = board.units(tf)
    cost = rearm_cost(len(units), levels)
    ctx.explain(f"{len(units)} units x {levels} level(s) = {cost} SP")
    here = loc_hex(f.location) or ""
    own_hq = any(board.hq(u) == "legion" for u in board.active_units(tf))
    at_base = any(board.base_class(b) == "GL" for b in board.bases_at(here, side))
    if not (own_hq or at_base) and not line_of_communication(
        ctx,
        f"rearm:{tf}:t{board.turn}",
        f"Can {f.name} (hex {here}) trace a line of communication to a {side} Legion HQ or Legion base?",
    ):
        raise ActionRejected("no line of communication to a Legion HQ or base (GM ruling)")
    payers = [
        u
        for u in holders(board, side, board.turn)
        if not u.status.get("disrupted") and int(u.status.get("supply", 0)) > 0
    ]
    shares = allocate_payment(ctx, f"rearm:{tf}", side, cost, payers, f"rearming {f.name}")
    ops.pay(ctx, shares, f"rearming {f.name}")
    ops.set_fatigue(ctx, tf, fat - levels)
    ctx.summary(f"{f.name} rearmed: fatigue {fat} -> {fat - levels} for {cost} SP")


def _reorg_cost(ctx: Ctx, u: Unit, at_naval: bool) -> int:
    board = Board.of(ctx)
    key = str(board.a(u, "cost_key", ""))
    if board.special(u) == "marine":
        mode = ctx.options.get("marine_reorg_table", "payer")
        if mode == "naval" or (mode == "payer" and at_naval):
            return naval_reorg_cost(ctx.tables, "Marine Cohort")
    cost = ground_reorg_cost(ctx.tables, key)
    if cost is None:
        raise ActionRejected(f"{u.label} cannot be reorganized (T6)")
    return cost


def _join_or_form(ctx: Ctx, u: Unit, hex_: str, tf: str | None, why: str) -> str:
    """Put a unit back into a friendly TF in *hex_*, or a new TF there (within the limit)."""
    board = Board.of(ctx)
    if tf:
        f = own_force(ctx, tf, u.side)
        if loc_hex(f.location) != hex_:
            raise ActionRejected(f"{f.name} is not in hex {hex_}")
        target = tf
    else:
        here = [f for f in board.forces_at(hex_, u.side) if f.kind == "tf"]
        target = here[0].id if here else new_tf(ctx, str(u.data.get("org", "")), u.side, hex_).id
    mu = ctx.unit(u.id)
    mu.formation = target
    mu.location = None
    mu.data.pop("held_by", None)
    mu.data.pop("from_tf", None)
    ctx.explain(f"{u.label} joins {ctx.state.formation(target).name} ({why})")
    return target


def new_tf(ctx: Ctx, org_id: str, side: str, hex_: str | None) -> Formation:
    """Open a new task-force counter for an organization, within its limit (3.2, G3)."""
    from rulesets.prefect.scenario_build import next_tf_number

    board = Board.of(ctx)
    org = ctx.state.formations.get(org_id)
    if org is None or org.side != side:
        orgs = [
            f
            for f in ctx.state.formations.values()
            if f.side == side and f.kind in ("legion", "auxilia", "regiment")
        ]
        if not orgs:
            raise ActionRejected("no parent organization to open a task force for")
        org = orgs[0]
    limit = board.tf_limit(org)
    if len(board.tfs_of_org(org.id)) >= limit:
        raise ActionRejected(f"{org.name} already has its {limit} task forces")
    number = next_tf_number(ctx.state, org.id)
    fid = f"{org.id}-tf{number}"
    f = Formation(
        fid,
        side,
        f"TF {number} ({org.name})",
        "tf",
        org.id,
        f"hex:{hex_}" if hex_ else None,
        {"fatigue": 0, "number": number},
        {},
        "counter",
    )
    ctx.add_formation(f)
    return f


@action(
    "reorganize",
    "Reorganize a disrupted unit",
    Param("unit", "unit"),
    Param("payer", "unit", help="the Legion base, or the HQ in whose hex the unit is"),
    Param("tf", "formation", required=False, help="the friendly task force it joins in that hex"),
    reference="P3.3, 5.11.4",
    visibility="actor",
    key="o",
)
def reorganize(ctx: Ctx, unit: str, payer: str, tf: str | None = None) -> None:
    """A disrupted unit in the same hex as a task force with a Legion, Auxilia or Manus HQ,
    or at a Legion base, returns to a task force for its T6 cost. A disrupted HQ reorganizes
    nothing; HQs in full Water cannot; a disrupted Manus HQ needs its Legion HQ or a base of
    rating 2+, a disrupted Legion HQ a base of rating 3+. A Manus HQ pays from any friendly
    base or HQ with a line of communication (G41b)."""
    board = Board.of(ctx)
    side = actor_side(ctx)
    u = own_unit(ctx, unit, side)
    if not u.status.get("disrupted") or board.kind(u) != "ground":
        raise ActionRejected(f"{u.label} is not a disrupted ground unit")
    hex_ = loc_hex(u.location)
    if hex_ is None:
        raise ActionRejected(f"{u.label} is not on the map")
    p = own_unit(ctx, payer, side)
    stage(ctx, side, "reorganize")
    cost = _reorg_cost(ctx, u, False)
    uhq = board.hq(u)
    if board.is_base(p):
        if board.base_class(p) != "GL" or loc_hex(p.location) != hex_:
            raise ActionRejected(f"{p.label} is not a Legion base in hex {hex_}")
        _usable(board, p)
        if uhq in ("manus", "manus_primus") and board.rating(p) < 2:
            raise ActionRejected("a disrupted Manus HQ needs a Legion base of rating 2 or more")
        if uhq == "legion" and board.rating(p) < 3:
            raise ActionRejected("a disrupted Legion HQ needs a Legion base of rating 3 or more")
        shares = {p.id: cost}
    else:
        hq = board.hq(p)
        if hq not in ("legion", "auxilia", "manus", "manus_primus") or not board.active(p):
            raise ActionRejected(f"{p.label} is not an undisrupted Legion, Auxilia or Manus HQ")
        host = ctx.state.formations.get(p.formation or "")
        if host is None or loc_hex(host.location) != hex_:
            raise ActionRejected(f"{p.label} is not with a task force in hex {hex_}")
        if uhq == "legion":
            raise ActionRejected(
                "a disrupted Legion HQ can be reorganized only at a Legion base of rating 3+"
            )
        if uhq in ("manus", "manus_primus") and not (
            hq == "legion" and p.data.get("org") == u.data.get("org")
        ):
            raise ActionRejected(
                "a disrupted Manus HQ can be reorganized only by its own Legion HQ or a Legion base"
            )
        if terrain_of(ctx, hex_, chooser=side) == "water":
            raise ActionRejected("HQs in a full Water hex cannot reorganize units")
        if hq in ("manus", "manus_primus"):
            payers = [
                h
                for h in holders(board, side, board.turn)
                if not h.status.get("disrupted") and int(h.status.get("supply", 0)) > 0
            ]
            shares = allocate_payment(ctx, f"reorg:{unit}", side, cost, payers, f"reorganizing {u.label}")
            for hid in shares:
                if not line_of_communication(
                    ctx,
                    f"{hid}:{p.id}:t{board.turn}",
                    f"Can {ctx.state.unit(hid).label} trace a line of communication to "
                    f"{p.label} (hex {hex_})?",
                ):
                    raise ActionRejected(
                        f"{ctx.state.unit(hid).label} has no line of communication (GM ruling)"
                    )
        else:
            shares = {p.id: cost}
    ops.pay(ctx, shares, f"reorganizing {u.label}")
    ctx.unit(unit).status["disrupted"] = False
    _join_or_form(ctx, ctx.state.unit(unit), hex_, tf, f"reorganized for {cost} SP")
    ctx.summary(f"{u.label} reorganized ({cost} SP)")


@action(
    "rebuild",
    "Rebuild a destroyed unit",
    Param("unit", "unit"),
    Param("base", "unit", help="a friendly Legion base"),
    Param("tf", "formation", required=False, help="a friendly task force at the base to join"),
    reference="P3.4, 5.11.5",
    visibility="actor",
    key="b",
)
def rebuild(ctx: Ctx, unit: str, base: str, tf: str | None = None) -> None:
    """A destroyed unit comes back at a friendly Legion base for twice its T6 cost (Militia
    1, Garrison 4), paid from that base alone; a base rebuilds at most its rating in units
    per turn. It joins a task force at the base or forms a new one (no free slot: no rebuild)."""
    board = Board.of(ctx)
    side = actor_side(ctx)
    u = ctx.state.unit(unit)
    if u.side != side or not u.status.get("destroyed") or board.kind(u) != "ground":
        raise ActionRejected(f"{u.label} is not one of your destroyed ground units")
    b = own_unit(ctx, base, side)
    if not board.is_base(b) or board.base_class(b) != "GL" or not loc_hex(b.location):
        raise ActionRejected(f"{b.label} is not a Legion base on the map")
    _usable(board, b)
    stage(ctx, side, "rebuild")
    done = ctx.edit_var("rebuilds", {})
    if int(done.get(base, 0)) >= board.rating(b):
        raise ActionRejected(f"{b.label} (rating {board.rating(b)}) has rebuilt all it may this turn")
    cost = ground_rebuild_cost(ctx.tables, str(board.a(u, "cost_key", "")))
    if cost is None:
        raise ActionRejected(f"{u.label} cannot be rebuilt")
    hex_ = loc_hex(b.location) or ""
    mu = ctx.unit(unit)
    mu.status["destroyed"] = False
    mu.status["disrupted"] = False
    if board.nongrav(u) and board.special(u) in ("militia", "garrison") and not tf:
        _independent_at(ctx, mu, hex_)
    else:
        _join_or_form(ctx, mu, hex_, tf, "rebuilt")
    ops.take_supply(ctx, base, cost)
    done[base] = int(done.get(base, 0)) + 1
    ctx.summary(f"{u.label} rebuilt at {b.label} for {cost} SP")


def _independent_at(ctx: Ctx, u: Unit, hex_: str) -> None:
    fid = f"ind-{u.id}"
    if fid in ctx.state.formations:
        f = ctx.formation(fid)
        f.location = f"hex:{hex_}"
    else:
        ctx.add_formation(
            Formation(fid, u.side, u.label, "independent", None, f"hex:{hex_}", {"fatigue": 0}, {}, "public")
        )
    u.formation = fid
    u.location = None


@action(
    "build_base",
    "Build a ground base",
    Param("base", "unit", help="a base assigned to a task force last turn"),
    reference="P3.5, 5.11.8, T7",
    visibility="actor",
    key="c",
)
def build_base(ctx: Ctx, base: str) -> None:
    """The assigned task force builds the base in its own hex, if it has the Construction
    Engineer Centuries and the SP of T7 (from any friendly bases and HQs with a line of
    communication). One base per hex; ratings 1-3 (G43)."""
    board = Board.of(ctx)
    side = actor_side(ctx)
    b = own_unit(ctx, base, side)
    job = b.data.get("assigned") or {}
    if not job:
        raise ActionRejected(f"{b.label} has not been assigned to a task force")
    if int(job.get("turn", 0)) >= board.turn:
        raise ActionRejected("a base is built in the Supply Phase after the turn it was assigned")
    tf = str(job["tf"])
    if tf not in ctx.state.formations:
        raise ActionRejected("the assigned task force no longer exists")
    f = own_force(ctx, tf, side)
    rating = board.rating(b)
    if rating >= 4 and not ctx.options.get("gl4_buildable", False):
        raise ActionRejected("only bases of rating 1-3 may be built (G43)")
    stage(ctx, side, "build")
    label = f"GL{rating}"
    need = int(ctx.tables.get("construction").lookup(base=label, field="centuries").value)
    cost = int(ctx.tables.get("construction").lookup(base=label, field="sp").value)
    have = board.count_special(tf, "construction_engineer")
    if have < need:
        raise ActionRejected(f"{f.name} has {have} Construction Engineer Centuries; {need} are needed")
    hex_ = loc_hex(f.location) or ""
    if board.bases_at(hex_):
        raise ActionRejected(f"hex {hex_} already holds a base")
    payers = [
        h
        for h in holders(board, side, board.turn)
        if not h.status.get("disrupted") and int(h.status.get("supply", 0)) > 0
    ]
    shares = allocate_payment(ctx, f"build:{base}", side, cost, payers, f"building {b.label}")
    for hid in shares:
        if not line_of_communication(
            ctx,
            f"{hid}:{tf}:t{board.turn}",
            f"Can {ctx.state.unit(hid).label} trace a line of communication to {f.name}?",
        ):
            raise ActionRejected(f"{ctx.state.unit(hid).label} has no line of communication (GM ruling)")
    ops.pay(ctx, shares, f"building {b.label}")
    mb = ctx.unit(base)
    mb.location = f"hex:{hex_}"
    mb.data.pop("assigned", None)
    mb.data["placed"] = True
    area = board.area_of(hex_)
    if area is not None:
        mb.data["area"] = area
    if board.game == "campaign":
        mb.status["disrupted"] = True
        mb.data["sector"] = mb.data.get("sector") or "3,2"
        mb.data["segment"] = area
        ctx.explain("a new base starts disrupted and is reorganized in the next Supply Phase")
    for enemy in ("TOG", "CW"):
        if enemy != side:
            ctx.reveal(mb, enemy)
    ctx.summary(f"{b.label} built in hex {hex_} for {cost} SP")


@action(
    "assign_construction",
    "Assign a base to a task force",
    Param("base", "unit"),
    Param("tf", "formation"),
    reference="5.11.8",
    visibility="actor",
)
def assign_construction(ctx: Ctx, base: str, tf: str) -> None:
    """Give a base the scenario has made available to a task force with a line of
    communication to a friendly base or HQ; it builds it in the next Supply Phase."""
    board = Board.of(ctx)
    side = actor_side(ctx, ctx.state.unit(base).side)
    b = own_unit(ctx, base, side)
    if not board.is_base(b) or b.location or b.data.get("carried_by"):
        raise ActionRejected(f"{b.label} is not an available, unplaced base")
    if not b.data.get("buildable"):
        raise ActionRejected(f"{b.label} has not been made available for construction")
    f = own_force(ctx, tf, side)
    if not line_of_communication(
        ctx,
        f"assign:{tf}:t{board.turn}",
        f"Can {f.name} trace a line of communication to a friendly base or HQ?",
    ):
        raise ActionRejected("no line of communication (GM ruling)")
    ctx.unit(base).data["assigned"] = {"tf": tf, "turn": board.turn}
    ctx.summary(f"{b.label} assigned to {f.name}")
