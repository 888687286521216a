"""Reinforcements and replacements (rule 6, digest 5.20-5.21, T18-T20).

Counters not yet in play sit in groups (``pool:<group>``). Random draws by type go through
``ctx.draw`` and are logged like dice; a short group gives what is left (G-26).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign_tui.core.errors import ActionRejected
from rulesets.fifth_frontier_war.formulas import troop_rebuild_cost, troop_replace_cost
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ARRIVED, BOX, POOL, is_hex

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import Unit


def pool(
    g: Game,
    group: str,
    sq_type: str | None = None,
    factor: int | None = None,
    black_globe: bool | None = None,
) -> list[str]:
    key = POOL + group
    out = []
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        if u.location != key:
            continue
        if sq_type is not None and g.a(u, "sq_type") != sq_type:
            continue
        if factor is not None and int(g.a(u, "factor", 0)) != factor:
            continue
        if black_globe is not None and bool(g.a(u, "black_globe", False)) != black_globe:
            continue
        out.append(u.id)
    return out


def draw(ctx: Ctx, ids: list[str], k: int, purpose: str, side: str) -> list[str]:
    if k <= 0:
        return []
    if len(ids) < k:
        ctx.explain(f"{purpose}: only {len(ids)} left of the {k} due; all of them come (G-26)")
        k = len(ids)
        if k == 0:
            return []
    if len(ids) == k:
        ctx.explain(f"{purpose}: all {k} remaining counters")
        return list(ids)
    return [str(x) for x in ctx.draw(ids, k, purpose, side=side)]


def place(ctx: Ctx, ids: list[str], where: str) -> None:
    for uid in ids:
        ctx.unit(uid).location = where


def markers(g: Game, navy: str, status: str) -> list[str]:
    return [
        k for k, m in g.state.records("fleet_markers").items() if m["navy"] == navy and m["status"] == status
    ]


def release_markers(ctx: Ctx, ids: list[str]) -> None:
    for mid in ids:
        ctx.record("fleet_markers", mid)["status"] = "available"
        ctx.explain(f"fleet marker {ctx.state.records('fleet_markers')[mid]['name']} becomes available")


def imperial_fleet_draws(ctx: Ctx, g: Game, fleets: int, where: str, purpose: str) -> list[str]:
    """Each fleet brings one random admiral and one random special-group counter."""
    got = draw(ctx, markers(g, "imperial", "group"), fleets, f"{purpose}: fleet markers", "imperial")
    release_markers(ctx, got)
    adm = draw(ctx, pool(g, "imp_admirals"), len(got), f"{purpose}: admirals", "imperial")
    spec = draw(ctx, pool(g, "imp_special"), len(got), f"{purpose}: special group", "imperial")
    place(ctx, adm + spec, where)
    return adm + spec


def arrive(ctx: Ctx) -> None:
    """Step 1A: everything due this turn arrives by itself."""
    g = Game.of(ctx)
    turn = g.turn
    if turn == 2:
        got = imperial_fleet_draws(ctx, g, 3, ARRIVED, "turn-2 Imperial reinforcements")
        ctx.explain(f"turn 2: {len(got)} counters wait for the Imperial player to put them in a box")
    if turn == 6:
        ids = pool(g, "imp_colonial")
        place(ctx, ids, BOX + "imp_rimward")
        ctx.explain(
            f"turn 6: the Imperial colonial forces ({len(ids)} counters) enter the rimward forces box"
        )
    if turn == 10:
        ids = pool(g, "imp_troops")
        place(ctx, ids, BOX + "imp_reinf")
        ctx.explain(f"turn 10: the Imperial troops group ({len(ids)} units) enters the reinforcements box")
    if turn >= 10:
        imperial_roll(ctx, g)
    if turn in (10, 20):
        zhodani_list(ctx, g, turn)


def imperial_roll(ctx: Ctx, g: Game) -> None:
    """T18 every turn from turn 10, with the Black Globes substitution on the first 6."""
    roll = ctx.roll("1d6", "Imperial reinforcements (T18)", table="T18", side="imperial")
    n = roll.natural
    t18 = ctx.tables.get("T18")
    battle = int(t18.lookup(roll=n, item="battle").value)
    cruiser = int(t18.lookup(roll=n, item="cruiser").value)
    fleets = int(t18.lookup(roll=n, item="fleets").value)
    box = BOX + "imp_reinf"
    bg_on = bool(ctx.options.get("black_globes"))
    if bg_on and n == 6 and not ctx.var("black_globes_arrived"):
        bgs = pool(g, "imp_battle", black_globe=True)
        place(ctx, bgs, box)
        ctx.set_var("black_globes_arrived", True)
        imperial_fleet_draws(ctx, g, 1, box, "T18 (black globes)")
        ctx.result(
            roll,
            "the four black-globe squadrons and one fleet, instead of the normal 6",
            [f"{', '.join(bgs)} to the Imperial reinforcements box"],
        )
        return
    b = draw(
        ctx,
        pool(g, "imp_battle", black_globe=False if bg_on else None),
        battle,
        "T18: battle squadrons",
        "imperial",
    )
    c = draw(ctx, pool(g, "imp_cruiser"), cruiser, "T18: cruiser squadrons", "imperial")
    place(ctx, b + c, box)
    extra = imperial_fleet_draws(ctx, g, fleets, box, "T18") if fleets else []
    ctx.result(
        roll,
        f"{battle} battle, {cruiser} cruiser squadrons, {fleets} fleet(s)",
        [f"arrive in the Imperial reinforcements box: {', '.join(b + c + extra) or 'nothing left'}"],
    )


ZHODANI_LISTS = {
    10: {
        "box": "zho_reinf",
        "battle": 13,
        "cruiser": 7,
        "assault": 1,
        "t500": 1,
        "t100": 1,
        "t20": 1,
        "t10": 1,
        "t5": 1,
        "fleets": 4,
        "admirals": 4,
    },
    20: {
        "box": "zho_additional",
        "battle": 10,
        "cruiser": 7,
        "assault": 1,
        "t500": 1,
        "t100": 1,
        "t20": 1,
        "t10": 1,
        "t5": 0,
        "fleets": 3,
        "admirals": 3,
    },
}


def zhodani_list(ctx: Ctx, g: Game, turn: int) -> None:
    spec = ZHODANI_LISTS[turn]
    where = BOX + spec["box"]
    got: list[str] = []
    for group, key in (
        ("zho_battle", "battle"),
        ("zho_cruiser", "cruiser"),
        ("zho_assault", "assault"),
        ("zho_5c", "t500"),
        ("zho_1c", "t100"),
        ("zho_20", "t20"),
        ("zho_10", "t10"),
        ("zho_5", "t5"),
        ("zho_admirals", "admirals"),
    ):
        got += draw(ctx, pool(g, group), int(spec[key]), f"Zhodani turn-{turn} list: {key}", "zhodani")
    place(ctx, got, where)
    release_markers(
        ctx,
        draw(
            ctx,
            markers(g, "zhodani", "group"),
            int(spec["fleets"]),
            f"Zhodani turn-{turn} list: fleet markers",
            "zhodani",
        ),
    )
    ctx.explain(f"turn {turn}: {len(got)} Zhodani counters enter the {spec['box'].replace('_', ' ')} box")


def income(ctx: Ctx) -> None:
    """Step 1B: this turn's replacement points (T19 Imperial, T20 Zhodani)."""
    turn = int(ctx.clock.get("turn", 1))
    for side, table in (("imperial", "T19"), ("zhodani", "T20")):
        t = ctx.tables.get(table)
        for kind in ("squadron", "troop"):
            n = int(t.lookup(turn=turn, type=kind).value)
            if n:
                ctx.credit(side, f"{kind}_rp", n, f"{table}, turn {turn}")


# -- purchases (5.20) -----------------------------------------------------------------------------
def own_navy(side: str) -> str:
    return "imperial" if side == "imperial" else "zhodani"


def replacement_box(g: Game, u: Unit) -> str:
    if u.side == "imperial":
        return BOX + ("imp_rimward" if str(g.a(u, "category", "")).startswith("colonial") else "imp_reinf")
    return BOX + "zho_reinf"


def spend(ctx: Ctx, side: str, kind: str, cost: int, what: str) -> None:
    have = ctx.state.ledger(side, f"{kind}_rp")
    if cost > have:
        raise ActionRejected(f"{what} costs {cost} {kind} RPs; {side} has {have}")
    ctx.credit(side, f"{kind}_rp", -cost, what)


def check_squadron_rebuild(g: Game, sq: Unit) -> None:
    if g.navy(sq) != own_navy(sq.side):
        raise ActionRejected(f"{g.label(sq)}: Sword Worlds and Vargr units get no replacements")
    if not sq.status.get("reduced") or sq.status.get("eliminated"):
        raise ActionRejected(f"{g.label(sq)} is not a reduced squadron in play")
    place = g.place_of(sq)
    w = g.world(place)
    if not w or w.get("controller") != sq.side or w.get("region") != own_navy(sq.side):
        raise ActionRejected(f"{g.label(sq)} must be at a friendly base inside its own state's borders")
    scout = g.face(sq).type == "S"
    if sq.side == "imperial":
        ok = w.get("naval_base") or (scout and w.get("scout_base"))
        if not ok:
            raise ActionRejected(
                f"{w['name']} has no Imperial naval base"
                + ("" if not w.get("scout_base") else " (a scout base rebuilds only scout squadrons)")
            )
    elif not w.get("military_base"):
        raise ActionRejected(f"{w['name']} has no Zhodani military base")


def check_troop(g: Game, u: Unit) -> None:
    if g.kind(u) != "troop":
        raise ActionRejected(f"{g.label(u)}: guerrillas recover only in the guerrilla step, never with RPs")
    if g.navy(u) != own_navy(u.side):
        raise ActionRejected(f"{g.label(u)}: Sword Worlds and Vargr units get no replacements")
    if g.elite(u):
        raise ActionRejected(f"{g.label(u)} is elite: elite units are never replaced or rebuilt")


def troop_rebuild(ctx: Ctx, g: Game, u: Unit, to_loss: int) -> int:
    check_troop(g, u)
    loss = int(u.status.get("loss", 0))
    if u.status.get("eliminated") or loss == 0:
        raise ActionRejected(f"{g.label(u)} is not a damaged unit in play")
    place = u.location or ""
    w = g.world(place) if is_hex(place) else None
    if not w or w.get("controller") != u.side:
        raise ActionRejected(f"{g.label(u)} must be on a friendly-controlled world")
    from rulesets.fifth_frontier_war.formulas import other

    if g.troops(place, other(u.side)):
        raise ActionRejected(f"enemy troops are on {w['name']}")
    if to_loss and not ctx.options.get("partial_troop_rebuild"):
        raise ActionRejected("a rebuild brings the unit to full strength (G-25 option off)")
    if to_loss % 10 or not 0 <= to_loss < loss:
        raise ActionRejected(f"rebuild to a loss below {loss}% in steps of 10")
    return troop_rebuild_cost(g.a(u, "factor", 0), loss, g.armor(u), to_loss)


def troop_replace_cost_of(g: Game, u: Unit) -> int:
    check_troop(g, u)
    if not u.status.get("eliminated"):
        raise ActionRejected(f"{g.label(u)} is not eliminated")
    return troop_replace_cost(g.a(u, "factor", 0), g.armor(u))


def restore(ctx: Ctx, uid: str, where: str) -> None:
    u = ctx.unit(uid)
    u.status.update(
        {
            "eliminated": False,
            "reduced": False,
            "loss": 0,
            "needs_fuel": False,
            "tanker_spent": False,
            "stood_aside": False,
            "disengaged": False,
        }
    )
    u.location = where
    u.formation = None
