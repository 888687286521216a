"""Turn orders: import a nation's orders file, or enter and change orders one at a time.

Orders are kept in the nation's secrets (``orders``), so no other nation ever sees them; the log
entry of an orders action is visible only to that nation and the GM. Sample files:
``rulesets/star_cruiser_lite/data/orders/``.
"""

from __future__ import annotations

import json
from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from rulesets.star_cruiser_lite import candidates as C
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.orders import (
    MOVEMENTS,
    RANGES,
    Problems,
    _construction,
    _reorg,
    _source,
    _tf_order,
    blank_orders,
)
from rulesets.star_cruiser_lite.orders import parse_orders as _parse

# rule modules: imported at the first call of one of their functions
chores_week = later("rulesets.star_cruiser_lite.chores_week")


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def _current(ctx: Ctx, nation: str) -> dict[str, Any]:
    g = game(ctx)
    existing = g.orders(nation)
    if existing:
        return json.loads(json.dumps(existing))
    return blank_orders(g, nation)


def _store(ctx: Ctx, nation: str, orders: dict[str, Any]) -> None:
    if ctx.by not in ("gm", nation) and ctx.by in ctx.state.sides:
        raise ActionRejected(f"{ctx.by} cannot give orders to {nation}")
    ctx.set_secret(nation, "orders", orders)
    ctx.secret_to(nation)


@action(
    "import_orders",
    "Import a nation's orders",
    Param("text", help="the orders file: text=@orders-ame.toml"),
    Param("nation", "side", required=False, default="", help="checked against [turn] nation"),
    reference="M0.1, W.1",
    key="o",
)
def import_orders(ctx: Ctx, text: str, nation: str) -> None:
    """Read a nation's TOML orders for this week, check every order against the rules and keep them
    (replacing any earlier orders of that nation this week). Problems are listed with their line."""
    g = game(ctx)
    orders = _parse(g, text, nation or None, "orders file")
    who = orders["nation"]
    replaced = g.has_orders(who)
    _store(ctx, who, orders)
    n = len(orders["tf"]) + len(orders["facility"]) + len(orders["ground"])
    ctx.summary(
        f"{who}: orders for month {g.month}, week {g.week} taken ({n} formation order(s), "
        f"{len(orders['construction'])} construction, {len(orders['resupply'])} resupply)"
        + (" - replacing earlier orders" if replaced else "")
    )


@action(
    "set_tf_order",
    "Give a task force its orders",
    Param("tf", "formation", candidates=C.own_task_forces),
    Param(
        "movement",
        "choice",
        choices=MOVEMENTS,
        required=False,
        default="hold",
        help="weeks 1-4 only; Week 0 has no movement",
    ),
    Param("detection", "choice", choices=("no_attack", "attack"), required=False, default="no_attack"),
    Param(
        "attack",
        "choice",
        choices=("tf", "facility", "colony", "convoys", "recon"),
        required=False,
        default="tf",
    ),
    Param("target", required=False, default="", candidates=C.attack_targets,
          help="empty: any enemy task force known in the system"),
    Param("destination", required=False, default="", candidates=C.destinations),
    Param("entry", "choice", choices=("overt", "covert"), required=False, default="overt"),
    Param("special", "list", required=False, default=[]),
    Param("patrols", "json", required=False, default=[], help='e.g. [["ame-dd-1"], ["ame-dd-2"]]'),
    Param("range", "choice", choices=RANGES, required=False, default="long_until_salvoes"),
    Param("breakoff", "json", required=False, default={}, help='e.g. {"damaged_pct": 50}'),
    Param("contingency", required=False, default=""),
    Param("comments", required=False, default=""),
    Param("facility", required=False, default="", help="facility to deploy or pack (special order)",
          candidates=C.own_facilities),
    Param(
        "resupply",
        required=False,
        default="",
        help="supply source: facility:ID or colony:ID (Week 0: the month's source)",
    ),
    reference="M0.1, W.1",
)
def set_tf_order(
    ctx: Ctx,
    tf: str,
    movement: str,
    detection: str,
    attack: str,
    target: str,
    destination: str,
    entry: str,
    special: list[str],
    patrols: Any,
    range: str,
    breakoff: Any,
    contingency: str,
    comments: str,
    facility: str,
    resupply: str,
) -> None:
    """Enter one task force's orders (checked like an orders file): in weeks 1-4 its detection
    and movement actions; in Week 0 only its resupply source and comments (M0.1)."""
    g = game(ctx)
    f = g.state.formation(tf)
    if g.week == 0:
        given = [
            name
            for name, value, default in (
                ("movement", movement, "hold"),
                ("detection", detection, "no_attack"),
                ("target", target, ""),
                ("destination", destination, ""),
                ("special", special, []),
                ("patrols", patrols, []),
                ("facility", facility, ""),
            )
            if value not in (default, None, "")
        ]
        if given:
            raise ActionRejected(
                f"{tf}: Week 0 has no detection or movement actions ({', '.join(given)}); give only "
                "resupply=SOURCE and comments= now, movement in the Week 1 orders"
            )
        raw0: dict[str, Any] = {"comments": comments}
        if resupply:
            raw0["resupply"] = resupply
        _keep_tf_order(ctx, g, f.side, tf, raw0)
        ctx.summary(f"{tf}: Week 0 orders" + (f", resupply from {resupply}" if resupply else ""))
        return
    raw: dict[str, Any] = {"movement": movement, "detection": detection, "range": range, "comments": comments}
    if resupply:
        raw["resupply"] = resupply
    if movement == "attack":
        raw["attack"] = attack
    for k, v in (
        ("target", target),
        ("destination", destination),
        ("contingency", contingency),
        ("facility", facility),
    ):
        if v:
            raw[k] = v
    if movement in ("move", "convoy"):
        raw["entry"] = entry
    if special:
        raw["special"] = list(special)
    p = json.loads(patrols) if isinstance(patrols, str) and patrols else patrols
    if p:
        raw["patrols"] = p
    bo = json.loads(breakoff) if isinstance(breakoff, str) and breakoff else breakoff
    if bo:
        raw["breakoff"] = bo
    _keep_tf_order(ctx, g, f.side, tf, raw)
    ctx.summary(
        f"{tf}: {movement}"
        + (f" ({attack})" if movement == "attack" else "")
        + (f" to {destination}" if destination else "")
    )


def _keep_tf_order(ctx: Ctx, g: Game, nation: str, tf: str, raw: dict[str, Any]) -> None:
    problems = Problems("")
    order = _tf_order(g, nation, tf, raw, g.week == 0, problems)
    if problems.items:
        msgs = dict.fromkeys(m if m.startswith(f"{tf}:") else f"{tf}: {m}" for _, m in problems.items)
        raise ActionRejected("; ".join(msgs))
    orders = _current(ctx, nation)
    orders["tf"][tf] = order
    _store(ctx, nation, orders)


@action("clear_orders", "Withdraw a nation's orders", Param("nation", "side"))
def clear_orders(ctx: Ctx, nation: str) -> None:
    """Drop the nation's orders for this week (to import a corrected file)."""
    if ctx.by not in ("gm", nation) and ctx.by in ctx.state.sides:
        raise ActionRejected(f"{ctx.by} cannot withdraw {nation}'s orders")
    ctx.set_secret(nation, "orders", None)
    ctx.secret_to(nation)
    ctx.summary(f"{nation}: orders withdrawn")


@action(
    "default_orders",
    "Standing orders for the silent",
    reference="W.1",
    help="Every nation at war that sent nothing this week holds where it is (detection: no attack).",
)
def default_orders(ctx: Ctx) -> None:
    g = game(ctx)
    done = []
    for nation in g.nations():
        if g.at_war(nation) and not g.has_orders(nation):
            ctx.set_secret(
                nation,
                "orders",
                {**blank_orders(g, nation), "standing": True},
            )
            done.append(nation)
    ctx.summary("Standing orders (hold) for " + (", ".join(done) or "nobody"))


@action(
    "order_construction",
    "Order construction",
    Param("nation", "side"),
    Param("item", help="ship class or troop type id, or ASB, LP, SD, FB, PD, mines, sDrn, mPak, SubD"),
    Param("location", required=False, default="core", help="core or a colony id"),
    Param("count", "int", required=False, default=1, min=1),
    Param("name", required=False, default=""),
    Param("sp", "int", required=False, default=0, help="for mines: SP to spend (5 mines per SP)"),
    reference="M0.1, M0.4, T-30",
    available=lambda s: None if s.clock.get("week") == 0 else "construction is ordered in Week 0",
)
def order_construction(
    ctx: Ctx, nation: str, item: str, location: str, count: int, name: str, sp: int
) -> None:
    """Add a construction job to the nation's Week 0 orders."""
    g = game(ctx)
    problems = Problems("")
    job = _construction(
        g, nation, 0, {"item": item, "location": location, "count": count, "name": name, "sp": sp}, problems
    )
    if problems.items or job is None:
        raise ActionRejected("; ".join(msg for _, msg in problems.items) or "not a valid construction order")
    orders = _current(ctx, nation)
    orders["construction"].append(job)
    _store(ctx, nation, orders)
    ctx.summary(f"{nation}: build {count} x {item} at {location}")


@action(
    "reorganize",
    "Move ships between task forces",
    Param("ships", "units"),
    Param("from_tf", "formation"),
    Param("to_tf", help="an existing task force in the same system or a new id like AME-9"),
    reference="W.1, W.7",
    available=lambda s: None if s.clock.get("week", 0) != 0 else "task forces cannot be recombined in Week 0",
)
def reorganize(ctx: Ctx, ships: list[str], from_tf: str, to_tf: str) -> None:
    """Detach or transfer ships. Ordered during the orders it takes effect after detection (W.7);
    during reorganisation itself it happens at once."""
    g = game(ctx)
    nation = g.state.formation(from_tf).side
    problems = Problems("")
    item = _reorg(g, nation, 0, {"ships": ships, "from": from_tf, "to": to_tf}, problems)
    if problems.items or item is None:
        raise ActionRejected("; ".join(msg for _, msg in problems.items))
    if ctx.state.step == "W.REORG":
        chores_week.transfer_ships(ctx, item["ships"], item["from"], item["to"])
        ctx.summary(f"{', '.join(ships)}: {from_tf} -> {to_tf}")
        return
    orders = _current(ctx, nation)
    orders["reorganize"].append(item)
    _store(ctx, nation, orders)
    ctx.summary(f"{nation}: {', '.join(ships)} to move from {from_tf} to {to_tf} after detection")


@action(
    "late_resupply",
    "Order a late resupply",
    Param("id", help="unit, task force or contingent"),
    Param(
        "source",
        required=False,
        default="auto",
        help="auto, core, facility:ID, merchants, self, colony:ID...",
    ),
    reference="W.1, F-36b",
)
def late_resupply(ctx: Ctx, id: str, source: str) -> None:
    """A unit not resupplied at Week 0 asks for its SP this week (done at the start of the week)."""
    g = game(ctx)
    owner = g.state.formations.get(id) or g.state.units.get(id)
    if owner is None:
        raise ActionRejected(f"no unit or formation {id!r}")
    problems = Problems("")
    src = _source(g, owner.side, id, source, problems)
    if problems.items:
        raise ActionRejected("; ".join(msg for _, msg in problems.items))
    orders = _current(ctx, owner.side)
    orders["resupply"][id] = src
    _store(ctx, owner.side, orders)
    ctx.summary(f"{id}: resupply from {src}")


ORDER_ACTIONS = (
    import_orders,
    set_tf_order,
    clear_orders,
    default_orders,
    order_construction,
    reorganize,
    late_resupply,
)
