"""Naval Task Force Adjustment (S8) and the naval Supply Phase (S9, 5.13.11-5.13.15):
regrouping, transports set down as bases, rearming, reorganizing, transfers within a
segment, cargo (supply, Marines, troops, base parts) and rebuilding."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import Formation, State, Unit
from rulesets.prefect import ops
from rulesets.prefect.actions_supply import stage
from rulesets.prefect.board import KU_CRASSUS, Board, sector_of
from rulesets.prefect.common import actor_side, allocate_payment
from rulesets.prefect.naval import has_naval_base, naval_tf, sector_param, tf_sector
from rulesets.prefect.supply import base_may_pay, manufacturing, rearm_cost
from rulesets.prefect.values import cargo_load, displacement, naval_reorg_cost, storage_cap


def _side(ctx: Ctx, hint: str | None = None) -> str:
    owner = None
    if hint:
        owner = ctx.state.unit(hint).side if hint in ctx.state.units else ctx.state.formation(hint).side
    return actor_side(ctx, owner)


def _where(f: Formation) -> str:
    return f.location or ""


# -- adjustment ---------------------------------------------------------------------------------
def _next_naval_number(state: State, side: str) -> int:
    used = {
        int(f.status.get("number", 0))
        for f in state.formations.values()
        if f.kind == "naval_tf" and f.side == side
    }
    n = 1
    while n in used:
        n += 1
    if n > 20:
        raise ActionRejected(f"{side} already has its 20 naval task forces")
    return n


@action(
    "naval_transfer",
    "Move naval units to another task force",
    Param("units", "units"),
    Param("to_tf", "formation"),
    reference="2.4 S8",
    visibility="actor",
    key="t",
)
def naval_transfer(ctx: Ctx, units: list[str], to_tf: str) -> None:
    """Units pass between task forces in the same sector or within the outsystem area;
    fighter flights may go to any friendly task force on the system map. Task forces on the
    T-space track may not change. The joined task force takes the highest fatigue."""
    board = Board.of(ctx)
    side = _side(ctx, to_tf)
    dst = naval_tf(ctx, to_tf, side)
    if dst.location in ("tspace", None):
        raise ActionRejected(f"{dst.name} is on the T-space track (or not deployed)")
    sources = set()
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side:
            raise ActionRejected(f"{u.label} is not yours")
        src = ctx.state.formations.get(u.formation or "")
        if src is None:
            raise ActionRejected(f"{u.label} is not in a task force or box")
        if src.location == "tspace":
            raise ActionRejected(f"{src.name} is on the T-space track")
        same = _where(src) == _where(dst) or (
            src.kind == "box" and src.id == f"{side}-functional" and dst.location == "outsystem"
        )
        fighter_hop = board.kind(u) == "fighter" and sector_of(src.location) and sector_of(dst.location)
        if not (same or fighter_hop):
            raise ActionRejected(f"{u.label} is not in {dst.name}'s sector (only fighters may be shuttled)")
        if src.kind == "naval_tf":
            sources.add(src.id)
    fat = max([board.fatigue(to_tf), *(board.fatigue(s) for s in sources)])
    for uid in units:
        mu = ctx.unit(uid)
        mu.formation = to_tf
        if board.mission(to_tf) != "sector_defense":
            mu.data.pop("segment", None)
    ops.set_fatigue(ctx, to_tf, fat)
    ctx.summary(f"{len(units)} unit(s) join {dst.name} (fatigue {fat})")


@action(
    "form_naval_tf",
    "Form a naval task force",
    Param("units", "units"),
    Param("where", help="a sector with a friendly naval base, or outsystem"),
    reference="2.4 S8",
    visibility="actor",
    key="n",
)
def form_naval_tf(ctx: Ctx, units: list[str], where: str) -> None:
    """A new task force forms at a friendly naval base, or in the outsystem area from the
    Functional box only (it then gets a mission and goes to box 0 of the T-space track)."""
    board = Board.of(ctx)
    side = actor_side(ctx, ctx.state.unit(units[0]).side if units else None)
    outsystem = where.strip().lower() == "outsystem"
    sector = None if outsystem else sector_param(where)
    if sector and not has_naval_base(board, sector, side):
        raise ActionRejected(f"({sector}) has no friendly undisrupted naval base")
    sources = set()
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side or u.status.get("destroyed"):
            raise ActionRejected(f"{u.label} cannot join")
        src = ctx.state.formations.get(u.formation or "")
        if outsystem:
            if src is None or src.id != f"{side}-functional":
                raise ActionRejected(f"{u.label} is not in the Functional box")
        else:
            if src is None or src.kind != "naval_tf" or tf_sector(src) != sector:
                raise ActionRejected(f"{u.label} is not in a task force in ({sector})")
            sources.add(src.id)
    n = _next_naval_number(ctx.state, side)
    fid = f"{side.lower()}-ntf{n}"
    while fid in ctx.state.formations:
        fid += "b"
    ctx.add_formation(
        Formation(
            fid,
            side,
            f"Naval TF {n} ({side})",
            "naval_tf",
            f"{side}-fleet",
            "outsystem" if outsystem else f"sector:{sector}",
            {"fatigue": max([0, *(board.fatigue(s) for s in sources)]), "number": n},
            {},
            "counter",
        )
    )
    for uid in units:
        mu = ctx.unit(uid)
        mu.formation = fid
        mu.data.pop("segment", None)
    ctx.summary(
        f"Naval TF {n} formed {'outsystem' if outsystem else f'in ({sector})'} with {len(units)} unit(s)"
    )


@action(
    "disband_naval_tf",
    "Disband an outsystem task force",
    Param("tf", "formation"),
    reference="5.13.11",
    visibility="actor",
)
def disband_naval_tf(ctx: Ctx, tf: str) -> None:
    """A task force in the outsystem area breaks up into the Functional box; the secure
    bases there clear all its fatigue at no cost."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, _side(ctx, tf))
    if f.location != "outsystem":
        raise ActionRejected(f"{f.name} is not in the outsystem area")
    for u in board.units(tf):
        ctx.unit(u.id).formation = f"{f.side}-functional"
    ops.remove_force(ctx, tf)
    ctx.summary(f"{f.name} disbanded into the Functional box, fatigue cleared")


@action(
    "transport_as_base",
    "Set a transport down as a base",
    Param("unit", "unit"),
    Param("segment", "int", min=1, max=10),
    reference="5.13.14",
    visibility="public",
)
def transport_as_base(ctx: Ctx, unit: str, segment: int) -> None:
    """A Transport Squadron leaves its task force and works as a naval base in a segment of
    its sector until a later Adjustment Phase picks it up; the opponent is told where."""
    board = Board.of(ctx)
    u = ctx.state.unit(unit)
    if board.kind(u) != "transport" or not board.active(u):
        raise ActionRejected(f"{u.label} is not an undisrupted transport")
    f = ctx.state.formations.get(u.formation or "")
    sector = tf_sector(f) if f else None
    if not sector:
        raise ActionRejected(f"{u.label} is not with a task force in a sector")
    if not 1 <= segment <= board.segments_of(sector):
        raise ActionRejected(f"({sector}) has segments 1-{board.segments_of(sector)}")
    mu = ctx.unit(unit)
    mu.formation = None
    mu.location = f"orbit:{sector}/{segment}"
    mu.data.update({"as_base": True, "segment": segment, "sector": sector})
    for side in ("TOG", "CW"):
        if side != u.side:
            ctx.reveal(mu, side)
    ctx.summary(f"{u.label} set down as a base in segment {segment} of ({sector})")


@action(
    "pickup_transport",
    "Pick up a transport serving as a base",
    Param("unit", "unit"),
    Param("tf", "formation"),
    reference="5.13.14",
    visibility="actor",
)
def pickup_transport(ctx: Ctx, unit: str, tf: str) -> None:
    """Put a transport that served as a base back into a task force in its sector."""
    u = ctx.state.unit(unit)
    if not u.data.get("as_base"):
        raise ActionRejected(f"{u.label} is not serving as a base")
    f = naval_tf(ctx, tf, u.side)
    if tf_sector(f) != u.data.get("sector"):
        raise ActionRejected(f"{f.name} is not in ({u.data.get('sector')})")
    mu = ctx.unit(unit)
    for k in ("as_base", "segment", "sector"):
        mu.data.pop(k, None)
    mu.location = None
    mu.formation = tf
    ctx.summary(f"{u.label} rejoins {f.name}")


@action(
    "disrupt_voluntarily",
    "Disrupt units on purpose",
    Param("units", "units"),
    reference="2.4 S8",
    visibility="actor",
)
def disrupt_voluntarily(ctx: Ctx, units: list[str]) -> None:
    """A player may disrupt more of his own ships so that stranded flights can be carried
    away with the disrupted units' withdrawal task force."""
    side = _side(ctx, units[0] if units else None)
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side or Board.of(ctx).kind(u) not in ("starship", "fighter", "transport"):
            raise ActionRejected(f"{u.label} is not one of your naval units")
        ops.disrupt_unit(ctx, uid, "on purpose, to carry stranded flights")
    ctx.summary(f"{len(units)} unit(s) disrupted on purpose")


def disrupted_grouped(s: State) -> str | None:
    """All disrupted naval units of a side in a sector must be in one task force of their
    own, which takes Withdrawal next turn (S8)."""
    board = Board(s)
    seen: dict[tuple[str, str], set[str]] = {}
    for f in board.naval_tfs():
        sector = tf_sector(f)
        if not sector:
            continue
        units = board.units(f.id)
        if any(u.status.get("disrupted") for u in units):
            seen.setdefault((f.side, sector), set()).add(f.id)
    for (side, sector), tfs in seen.items():
        if len(tfs) > 1:
            return f"{side}'s disrupted units in ({sector}) must be combined into one task force"
    return None


# -- supply ---------------------------------------------------------------------------------------
def _payers(
    board: Board,
    sector: str,
    side: str,
    purpose: str,
    units: list[Unit],
    allow_transports: bool,
    exclude: set[str],
) -> list[Unit]:
    out = []
    kinds = {board.kind(u) if board.special(u) != "marine" else "marine" for u in units}
    campaign = board.game == "campaign"
    for b in board.bases_in_sector(sector, side):
        if b.status.get("disrupted") or int(b.status.get("supply", 0)) <= 0:
            continue
        ok = all(base_may_pay(board.base_class(b), board.rating(b), purpose, k, campaign)[0] for k in kinds)
        if ok:
            out.append(b)
    for t in board.state.units.values():
        if t.side != side or t.id in exclude or int(t.status.get("supply", 0)) <= 0 or not board.active(t):
            continue
        if (t.data.get("as_base") and sector_of(t.location) == sector) or (
            allow_transports
            and board.kind(t) == "transport"
            and t.formation in board.state.formations
            and tf_sector(board.state.formation(t.formation)) == sector
        ):
            out.append(t)
    return out


@action(
    "naval_rearm",
    "Rearm a naval task force",
    Param("tf", "formation"),
    Param("levels", "int", min=1, max=3),
    reference="2.4 S9.1, 5.13.11",
    visibility="actor",
    key="f",
)
def naval_rearm(ctx: Ctx, tf: str, levels: int) -> None:
    """1 SP per starship, squadron or flight per level, in a sector with a friendly
    undisrupted naval base (several bases there may pay). Outsystem supply is unlimited."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, _side(ctx, tf))
    fat = board.fatigue(tf)
    if levels > fat:
        raise ActionRejected(f"{f.name} has only {fat} level(s) of fatigue")
    stage(ctx, f.side, "rearm")
    units = board.units(tf)
    cost = rearm_cost(len(units), levels)
    if f.location == "outsystem":
        ops.set_fatigue(ctx, tf, fat - levels)
        ctx.summary(f"{f.name} rearmed outsystem (unlimited supply)")
        return
    sector = tf_sector(f) or ""
    if not has_naval_base(board, sector, f.side) and not (
        board.game == "campaign" and _payers(board, sector, f.side, "rearm", units, False, set())
    ):
        raise ActionRejected(f"({sector}) has no friendly undisrupted naval base")
    payers = _payers(
        board,
        sector,
        f.side,
        "rearm",
        units,
        bool(ctx.options.get("transports_supply_ships")),
        {u.id for u in units},
    )
    ctx.explain(f"{len(units)} units x {levels} level(s) = {cost} SP")
    shares = allocate_payment(ctx, f"nrearm:{tf}", f.side, cost, payers, f"rearming {f.name}")
    ops.pay(ctx, shares, f"rearming {f.name}")
    ops.set_fatigue(ctx, tf, fat - levels)
    ctx.summary(f"{f.name} rearmed: fatigue {fat} -> {fat - levels} for {cost} SP")


@action(
    "naval_reorganize",
    "Reorganize a task force's disrupted units",
    Param("tf", "formation"),
    reference="2.4 S9.2, 5.13.11, T9",
    visibility="actor",
    key="o",
)
def naval_reorganize(ctx: Ctx, tf: str) -> None:
    """Every disrupted unit of the task force is reorganized at once (T9 costs), in a sector
    with a friendly undisrupted naval base that pays (split the task force first to
    reorganize only part of it). Outsystem it is free."""
    board = Board.of(ctx)
    f = naval_tf(ctx, tf, _side(ctx, tf))
    dis = [u for u in board.units(tf) if u.status.get("disrupted")]
    if not dis:
        raise ActionRejected(f"{f.name} has no disrupted unit")
    stage(ctx, f.side, "reorganize")
    cost = sum(naval_reorg_cost(ctx.tables, str(board.a(u, "cost_key"))) for u in dis)
    if f.location != "outsystem":
        sector = tf_sector(f) or ""
        payers = _payers(
            board,
            sector,
            f.side,
            "reorganize",
            dis,
            bool(ctx.options.get("transports_supply_ships")),
            {u.id for u in board.units(tf)},
        )
        if not payers:
            raise ActionRejected(f"no friendly base in ({sector}) may pay for this")
        shares = allocate_payment(ctx, f"nreorg:{tf}", f.side, cost, payers, f"reorganizing {f.name}")
        ops.pay(ctx, shares, f"reorganizing {f.name}")
    for u in dis:
        ctx.unit(u.id).status["disrupted"] = False
    ctx.summary(f"{f.name}: {len(dis)} unit(s) reorganized for {cost if f.location != 'outsystem' else 0} SP")


@action(
    "reorganize_base",
    "Reorganize a disrupted base",
    Param("base", "unit"),
    reference="5.13.11, 5.14.11, T9",
    visibility="actor",
)
def reorganize_base(ctx: Ctx, base: str) -> None:
    """A disrupted base may spend its own supply only on reorganizing itself (T9 cost)."""
    board = Board.of(ctx)
    b = ctx.state.unit(base)
    if not board.is_base(b) or not b.status.get("disrupted"):
        raise ActionRejected(f"{b.label} is not a disrupted base")
    if b.side != _side(ctx, base):
        raise ActionRejected(f"{b.label} is not yours")
    stage(ctx, b.side, "reorganize")
    cost = naval_reorg_cost(ctx.tables, str(board.a(b, "cost_key")))
    ops.take_supply(ctx, base, cost)
    ctx.unit(base).status["disrupted"] = False
    ctx.summary(f"{b.label} reorganized for {cost} SP")


def _segment_of(board: Board, u: Unit) -> tuple[str | None, int | None]:
    if board.is_base(u):
        return board.base_sector(u), board.base_segment(u)
    if u.data.get("as_base"):
        return str(u.data.get("sector")), int(u.data.get("segment", 0))
    seg = u.data.get("supply_segment")
    if seg and int(seg[2]) == board.turn:
        return str(seg[0]), int(seg[1])
    return None, None


@action(
    "transfer_naval_supply",
    "Transfer supply within a segment",
    Param("source", "unit"),
    Param("dest", "unit"),
    Param("amount", "int", min=1),
    reference="2.4 S9.3, 5.13.15",
    visibility="actor",
    key="s",
)
def transfer_naval_supply(ctx: Ctx, source: str, dest: str, amount: int) -> None:
    """Bases in the same segment trade freely; a transport gives or takes only in the
    segment its Supply mission entered this turn. Disrupted transports may not transfer;
    disrupted bases may receive but not give. The receiver's cap applies."""
    board = Board.of(ctx)
    src, dst = ctx.state.unit(source), ctx.state.unit(dest)
    side = _side(ctx, source)
    if src.side != side or dst.side != side:
        raise ActionRejected("both holders must be yours")
    stage(ctx, side, "transfer")
    a, b = _segment_of(board, src), _segment_of(board, dst)
    if a[0] is None or b[0] is None or a != b:
        raise ActionRejected(
            "the two must be in the same orbital segment (a transport only where its Supply mission "
            "took it this turn)"
        )
    if src.status.get("disrupted"):
        raise ActionRejected(f"{src.label} is disrupted and may not give supply")
    if board.kind(dst) == "transport" and dst.status.get("disrupted"):
        raise ActionRejected(f"{dst.label} is disrupted")
    ops.take_supply(ctx, source, amount)
    credited = amount
    if (
        ctx.options.get("gl4_manufacturing")
        and board.kind(src) == "transport"
        and src.data.get("from_outsystem")
        and board.base_class(dst) == "GL"
        and board.rating(dst) == 4
    ):
        credited = manufacturing(amount)
        ctx.explain(f"GL4 manufacturing: {amount} SP count as {credited}")
    rule = ctx.var("delivery") or {}
    if (
        ctx.var("scenario") == "holding_the_line"
        and side == "TOG"
        and board.is_base(dst)
        and board.base_sector(dst) == KU_CRASSUS
    ):
        delivered = ctx.edit_var("delivered", {"base": 0, "field": 0})
        room = int(rule.get("base_cap", 30)) - int(delivered.get("base", 0))
        if amount > room:
            raise ActionRejected(f"the GL2 can accept only {room} more SP this turn (6.2)")
        delivered["base"] = int(delivered.get("base", 0)) + amount
    ops.give_supply(ctx, dest, credited)
    ctx.summary(f"{amount} SP from {src.label} to {dst.label}")


@action(
    "load_transport",
    "Load a transport",
    Param("transport", "unit"),
    Param("units", "units", required=False, help="ground units, Marines or base counters to carry"),
    Param("sp", "int", required=False, min=0, default=0, help="supply points to load"),
    Param(
        "with_transports",
        "units",
        required=False,
        help="a base too big for one transport: the other transports of the task force sharing it",
    ),
    reference="5.13.12, 5.13.13, 5.14.4, T10",
    visibility="actor",
    key="l",
)
def load_transport(
    ctx: Ctx,
    transport: str,
    units: list[str] | None = None,
    sp: int = 0,
    with_transports: list[str] | None = None,
) -> None:
    """Load cargo: outsystem, supply without limit and the forces waiting there; insystem,
    units at a friendly base in the transport's segment. Cargo takes transport space (T10;
    a base 20 SP per class, which may be split over several transports of one task force);
    ships may throw supply away to make room for troops, never the reverse."""
    board = Board.of(ctx)
    t = ctx.state.unit(transport)
    side = _side(ctx, transport)
    if t.side != side or board.kind(t) != "transport" or not board.active(t):
        raise ActionRejected(f"{t.label} is not one of your undisrupted transports")
    f = ctx.state.formations.get(t.formation or "")
    outsystem = f is not None and (f.location == "outsystem" or f.id == f"{side}-functional")
    partners = list(with_transports or [])
    for p in partners:
        pu = ctx.state.unit(p)
        if (
            p == transport
            or pu.side != side
            or board.kind(pu) != "transport"
            or pu.formation != t.formation
            or not board.active(pu)
        ):
            raise ActionRejected(f"{pu.label} is not an undisrupted transport of the same task force")
    adding = 0
    for uid in units or []:
        c = ctx.state.unit(uid)
        if c.side != side or c.status.get("destroyed") or c.data.get("carried_by"):
            raise ActionRejected(f"{c.label} cannot be loaded")
        if board.kind(c) == "base":
            if c.location or c.data.get("placed"):
                raise ActionRejected(f"{c.label} is in place and cannot be dismantled")
            if not outsystem:
                raise ActionRejected("base parts are loaded in the outsystem area")
            adding += -(-displacement(board, ctx.tables, c) // (1 + len(partners)))
            continue
        waiting_out = c.data.get("outsystem") or (
            c.formation
            and ctx.state.formations.get(c.formation)
            and ctx.state.formation(c.formation).data.get("start") == "outsystem"
        )
        if outsystem and not waiting_out:
            raise ActionRejected(f"{c.label} is not waiting in the outsystem area")
        if not outsystem:
            seg = _segment_of(board, t) if t.data.get("supply_segment") else (None, None)
            at = c.data.get("at_base")
            if not at or _segment_of(board, ctx.state.unit(at)) != seg:
                raise ActionRejected(f"{c.label} is not at a base in the transport's segment")
        adding += displacement(board, ctx.tables, c)
    if not outsystem and sp:
        raise ActionRejected("insystem, supply comes aboard by transfer_naval_supply")
    cap = storage_cap(board, ctx.tables, t)
    used = cargo_load(board, ctx.tables, transport)
    if used + adding > cap:
        raise ActionRejected(f"{t.label} carries {cap} SP of cargo; this load needs {used + adding}")
    for p in partners:
        pu = ctx.state.unit(p)
        share = sum(
            -(-displacement(board, ctx.tables, ctx.state.unit(x)) // (1 + len(partners)))
            for x in units or []
            if board.kind(ctx.state.unit(x)) == "base"
        )
        room = storage_cap(board, ctx.tables, pu) - cargo_load(board, ctx.tables, p)
        if share > room:
            raise ActionRejected(f"{pu.label} has room for {room} SP, its share is {share}")
        if share + int(pu.status.get("supply", 0)) > room:
            ctx.unit(p).status["supply"] = max(0, room - share)
    stock = int(t.status.get("supply", 0)) + sp
    if used + adding + stock > cap:
        dumped = used + adding + stock - cap
        ctx.explain(f"{dumped} SP thrown away to make room")
        stock -= dumped
    mt = ctx.unit(transport)
    mt.status["supply"] = stock
    if outsystem:
        mt.data["from_outsystem"] = True
    for uid in units or []:
        mc = ctx.unit(uid)
        mc.data["carried_by"] = transport
        if board.kind(mc) == "base" and partners:
            mc.data["shared_with"] = partners
        mc.data.pop("at_base", None)
        mc.formation = None
        mc.location = None
    ctx.summary(f"{t.label} loaded: {len(units or [])} unit(s), {stock} SP aboard")


@action(
    "unload_transport",
    "Unload cargo at a base",
    Param("transport", "unit"),
    Param("units", "units"),
    Param("base", "unit"),
    Param("tf", "formation", required=False, help="ground units: the task force to join"),
    reference="5.13.12, 5.14.4",
    visibility="actor",
    key="u",
)
def unload_transport(ctx: Ctx, transport: str, units: list[str], base: str, tf: str | None = None) -> None:
    """A transport on a Supply mission in a segment with an undisrupted friendly base
    unloads Marines (to the base) or ground forces (campaign, to a ground base, where grav
    units join or form a task force). A disrupted transport unloads nothing."""
    board = Board.of(ctx)
    t = ctx.state.unit(transport)
    b = ctx.state.unit(base)
    side = _side(ctx, transport)
    if t.side != side or b.side != side:
        raise ActionRejected("transport and base must be yours")
    if not board.active(t):
        raise ActionRejected(f"{t.label} is disrupted: it cannot unload until reorganized")
    stage(ctx, side, "unload")
    if _segment_of(board, t) != _segment_of(board, b) or _segment_of(board, t)[0] is None:
        raise ActionRejected(f"{t.label} did not reach {b.label}'s segment on a Supply mission this turn")
    if b.status.get("disrupted"):
        raise ActionRejected(f"{b.label} is disrupted")
    for uid in units:
        c = ctx.state.unit(uid)
        if c.data.get("carried_by") != transport:
            raise ActionRejected(f"{c.label} is not aboard {t.label}")
        mc = ctx.unit(uid)
        mc.data.pop("carried_by", None)
        if board.special(c) == "marine" and board.base_class(b) in ("ON", "GN"):
            mc.data["at_base"] = base
            mc.location = b.location
        elif board.kind(c) == "ground":
            from rulesets.prefect.actions_supply import _independent_at, _join_or_form
            from rulesets.prefect.board import loc_hex

            hex_ = loc_hex(b.location)
            if not hex_:
                mc.data["at_base"] = base
                mc.location = b.location
            elif board.nongrav(c) and not tf:
                _independent_at(ctx, mc, hex_)
            else:
                _join_or_form(ctx, mc, hex_, tf, f"landed at {b.label}")
        else:
            raise ActionRejected(f"{c.label} cannot be unloaded here (bases: unload_base)")
    ctx.summary(f"{len(units)} unit(s) unloaded at {b.label}")


@action(
    "unload_base",
    "Assemble a carried base",
    Param("base", "unit"),
    Param("segment", "int", min=1, max=10),
    reference="5.13.13",
    visibility="public",
    key="b",
)
def unload_base(ctx: Ctx, base: str, segment: int) -> None:
    """The parts of an orbital base carried by a Supply task force are assembled in a segment
    (or an empty sector) holding no enemy base; it arrives disrupted and its place is told
    to the opponent."""
    board = Board.of(ctx)
    b = ctx.state.unit(base)
    carrier = b.data.get("carried_by")
    if not carrier:
        raise ActionRejected(f"{b.label} is not aboard a transport")
    t = ctx.state.unit(carrier)
    stage(ctx, b.side, "unload")
    sector, seg = _segment_of(board, t)
    if sector is None:
        raise ActionRejected(f"{t.label} did not reach a segment on a Supply mission this turn")
    if seg != segment:
        raise ActionRejected(f"the transport is in segment {seg}")
    if any(board.base_segment(x) == segment for x in board.bases_in_sector(sector) if x.side != b.side):
        raise ActionRejected("an enemy base is in that segment")
    if any(
        not board.active(ctx.state.unit(x))
        for x in [carrier, *b.data.get("shared_with", [])]
        if x in ctx.state.units
    ):
        raise ActionRejected("a carrier is disrupted: the base cannot be assembled")
    mb = ctx.unit(base)
    mb.data.pop("carried_by", None)
    mb.data.pop("shared_with", None)
    mb.data.update({"sector": sector, "segment": segment, "placed": True})
    mb.location = f"orbit:{sector}/{segment}"
    mb.formation = None
    mb.status["disrupted"] = True
    for side in ("TOG", "CW"):
        if side != b.side:
            ctx.reveal(mb, side)
    ctx.summary(f"{b.label} assembled in segment {segment} of ({sector}), disrupted")


def rebuilds_left(state: State, side: str) -> int:
    limit = int((state.vars.get("rebuild_limit") or {}).get(side, 3))
    done = int(
        (state.vars.get("naval_rebuilds") or {}).get(side, {}).get("turn_" + str(state.clock.get("turn")), 0)
    )
    return limit - done


def _rebuild_phase(s: State) -> str | None:
    in_adjust = s.step.startswith(("S_ADJUST", "C_ADJUST"))
    wants_adjust = s.options.get("naval_rebuild_phase", "supply") == "adjust"
    if in_adjust != wants_adjust:
        return (
            f"naval units are rebuilt in the {'Adjustment' if wants_adjust else 'Supply'} Phase (option, G21)"
        )
    return None


@action(
    "rebuild_naval",
    "Rebuild destroyed naval units",
    Param("units", "units"),
    reference="5.13.15, G21",
    visibility="actor",
    key="r",
    available=_rebuild_phase,
)
def rebuild_naval(ctx: Ctx, units: list[str]) -> None:
    """Move destroyed ships, flights or bases from the Destroyed box to the Functional box,
    up to the scenario's Outsystem Replacement Rate per turn; unused rebuilds are lost."""
    side = _side(ctx, units[0] if units else None)
    left = rebuilds_left(ctx.state, side)
    if len(units) > left:
        raise ActionRejected(f"{side} may rebuild {left} more unit(s) this turn")
    if ctx.state.step.startswith(("S_SUPPLY", "C_SUPPLY")):
        stage(ctx, side, "rebuild")
    for uid in units:
        u = ctx.state.unit(uid)
        if u.side != side or not u.status.get("destroyed") or u.formation != f"{side}-destroyed":
            raise ActionRejected(f"{u.label} is not in the {side} Destroyed box")
        mu = ctx.unit(uid)
        mu.status["destroyed"] = False
        mu.status["disrupted"] = False
        mu.formation = f"{side}-functional"
    book = ctx.edit_var("naval_rebuilds", {})
    per = book.setdefault(side, {})
    key = "turn_" + str(ctx.clock.get("turn"))
    per[key] = int(per.get(key, 0)) + len(units)
    ctx.summary(f"{len(units)} unit(s) rebuilt into the {side} Functional box")
