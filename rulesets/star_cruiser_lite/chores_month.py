"""Week 0 chores: production, colony initiatives, construction, resupply (digest M0.2-M0.5).

Each function runs when its step is entered and is logged with the advance that entered it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import Formation, Unit, plain
from rulesets.star_cruiser_lite import ids, news
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.classes import BUILD_ROW, FLAG_OFFICER_CLASSES, ITEMS, TACTICS_CLASSES
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_command import initial_tactics
from rulesets.star_cruiser_lite.rules_ground import troop_unsupplied
from rulesets.star_cruiser_lite.rules_logistics import (
    colony_initiative,
    colony_mines,
    directive_penalty,
    split_withheld,
)
from rulesets.star_cruiser_lite.setup_data import troop_factors
from rulesets.star_cruiser_lite.supply import named_source, resupply_unit, supply_order


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def enemy_held(g: Game, sid: str, nation: str) -> bool:
    """A system held by an enemy: marked so, or holding an enemy colony."""
    if g.held_by_enemy_of(sid, nation):
        return True
    return any(
        g.enemies(str(c.get("owner")), nation) and not c.get("destroyed") for c in g.colonies(sid).values()
    )


def distance_to_enemy(g: Game, sid: str, nation: str) -> int:
    d = g.stars.hops(sid, lambda s: enemy_held(g, s, nation))
    return 4 if d is None else min(d, 4)


def distance_to_kafer(g: Game, sid: str) -> int:
    d = g.stars.hops(
        sid, lambda s: g.kafer_held(s) or any(g.kafer(str(c.get("owner"))) for c in g.colonies(s).values())
    )
    return 4 if d is None else min(d, 4)


# -- M0.2 production -----------------------------------------------------------------------
def core_production(ctx: Ctx, nation: str, output: int | None = None) -> int:
    """Core output this month with last month's political modifiers (F-41a/b)."""
    g = game(ctx)
    mods = (ctx.var("production_mods", {}) or {}).get(nation, {})
    out = int(g.nation(nation).get("core_output", 0) if output is None else output)
    if mods.get("penalty"):
        new = int(directive_penalty(ctx, out).value)
        ctx.explain(f"{nation}: directive for fleet action ignored last month: Core {out} -> {new}")
        out = new
    if int(mods.get("bonus", 0)):
        ctx.explain(f"{nation}: colony-protection bonus +{mods['bonus']}")
        out += int(mods["bonus"])
    return out


def production(ctx: Ctx) -> None:
    """M0.2: this month's production pools per nation and location, and troop-support SP."""
    ctx.secret_to("gm")
    g = game(ctx)
    pools: dict[str, dict[str, Any]] = {}
    support: dict[str, Any] = {}
    mods: dict[str, Any] = {}
    for nation in g.nations():
        if not g.at_war(nation) or not g.logistics_tracked(nation):
            continue
        rec = g.nation(nation)
        mods[nation] = {"penalty": bool(rec.get("penalty_next")), "bonus": int(rec.get("bonus_next", 0))}
        if rec.get("penalty_next") or rec.get("bonus_next"):
            edit = ctx.record("nations", nation)
            edit["penalty_next"] = False
            edit["bonus_next"] = 0
    ctx.set_var("production_mods", mods)
    for nation in mods:
        pools[nation] = {"core": core_production(ctx, nation)}
    for cid, c in sorted(g.colonies().items()):
        owner = str(c.get("owner"))
        if c.get("destroyed") or owner not in pools:
            continue
        out = g.colony_output(cid)
        pools[owner][cid] = out
        support[cid] = 2 * int(c.get("pop", 0))
        ctx.explain(
            f"{cid} ({owner}): output {out} SP"
            + (" (resupply only: captured)" if c.get("resupply_only") else "")
            + f"; troop support {support[cid]} SP"
        )
    ctx.set_var("production", {n: {k: spm.store(v) for k, v in p.items()} for n, p in pools.items()})
    ctx.set_var("troop_support", support)
    for nation, p in pools.items():
        ctx.explain(f"{nation}: Core production {p['core']} SP")
    ctx.summary("Production of the month computed")


def set_core_output(ctx: Ctx, nation: str, output: int) -> None:
    """The GM sets a nation's Core output; during M0.2 the month's pool follows."""
    old = game(ctx).nation(nation).get("core_output", 0)
    ctx.record("nations", nation)["core_output"] = int(output)
    if ctx.state.step == "M0.PRODUCTION" and nation in (ctx.var("production", {}) or {}):
        ctx.edit_var("production", {})[nation]["core"] = core_production(ctx, nation, int(output))
    ctx.summary(f"{nation} Core output {old} -> {output} SP a month")


# -- M0.3 colony initiatives ---------------------------------------------------------------
def colony_defence(ctx: Ctx) -> None:
    """M0.3 (F-41c, F-39e): colony defence initiatives and colony mines, each withholding
    max(1, 1D6-2) SP of the month's output. Mines are laid at once; the GM may split the
    initiative's SP (PD sites / mines) before leaving the step."""
    ctx.secret_to("gm")
    g = game(ctx)
    pending: dict[str, int] = {}
    pools = ctx.edit_var("production", {})
    for cid, c in sorted(g.colonies().items()):
        owner = str(c.get("owner"))
        if c.get("destroyed") or g.kafer(owner) or owner not in pools:
            continue
        label = f"{c.get('name', cid)}"
        if ctx.options.get("colony_initiatives", True):
            dist = distance_to_enemy(g, str(c["system"]), owner)
            withheld = int(colony_initiative(ctx, str(c.get("paranoia", "Low")), dist, label).value)
            if withheld:
                pending[cid] = withheld
                _reduce_pool(pools, owner, cid, withheld)
                news.event(ctx, f"{label} withholds {withheld} SP for its own defence", [owner], "colony")
        if ctx.options.get("colony_mines", True):
            dist = distance_to_kafer(g, str(c["system"]))
            res = colony_mines(ctx, dist, label).value
            if res["withheld"]:
                _reduce_pool(pools, owner, cid, int(res["withheld"]))
                add_mines(ctx, str(c["system"]), owner, int(res["mines"]))
                news.event(
                    ctx,
                    f"{label} withholds {res['withheld']} SP and lays {res['mines']} mines",
                    [owner],
                    "colony",
                )
    ctx.set_var("withheld", pending)
    ctx.set_var("withheld_split", {})
    ctx.summary(f"Colony defence: {len(pending)} initiative(s)")


def _reduce_pool(pools: dict[str, Any], owner: str, cid: str, amount: int) -> None:
    have = spm.sp(pools[owner].get(cid, 0))
    pools[owner][cid] = spm.store(max(Fraction(0), have - amount))


def add_mines(ctx: Ctx, system: str, nation: str, mines: int) -> None:
    rec = ctx.record("systems", system)
    fields = dict(rec.get("minefields", {}))
    fields[nation] = int(fields.get(nation, 0)) + int(mines)
    rec["minefields"] = fields


def apply_withheld(ctx: Ctx) -> None:
    """Leaving M0.3: turn withheld SP into PD sites and mines (GM split or DEFAULT-04)."""
    g = game(ctx)
    splits = ctx.var("withheld_split", {}) or {}
    for cid, amount in sorted((ctx.var("withheld", {}) or {}).items()):
        c = g.colonies()[cid]
        split = splits.get(cid) or split_withheld(ctx, int(amount)).value
        for _ in range(int(split.get("pd", 0))):
            add_pd_site(ctx, cid)
        if int(split.get("mines", 0)):
            add_mines(ctx, str(c["system"]), str(c["owner"]), int(split["mines"]))
        ctx.explain(f"{cid}: {split.get('pd', 0)} PD site(s), {split.get('mines', 0)} mines")
    ctx.set_var("withheld", None)
    ctx.set_var("withheld_split", None)


def colony_contingent(ctx: Ctx, cid: str) -> str:
    """The owner's contingent at a colony (created when missing)."""
    g = game(ctx)
    c = g.colonies()[cid]
    owner = str(c["owner"])
    for f in g.contingents(owner, str(c["system"])):
        if f.data.get("colony") == cid:
            return f.id
    gid = ids.next_free(list(ctx.state.formations), owner, "contingent")
    ctx.add_formation(
        Formation(gid, owner, gid, "contingent", None, str(c["system"]), {}, {"colony": cid}, "owner")
    )
    return gid


def add_troop(
    ctx: Ctx, nation: str, gid: str, type_id: str, name: str, exp: str = "Regular", fresh: bool = True
) -> Unit:
    code = str(ctx.catalog.type(type_id).attrs.get("code", ""))
    bf, gf = troop_factors(ctx.tables, code, exp)
    uid = ctx.new_id(f"{nation.lower()}-{type_id}-")
    return ctx.add_unit(
        Unit(
            uid,
            nation,
            type_id,
            name,
            gid,
            None,
            {"exp": exp, "bf": bf, "gf": gf, "fresh": fresh},
            {},
            {},
            "owner",
        )
    )


def add_pd_site(ctx: Ctx, cid: str) -> None:
    c = game(ctx).colonies()[cid]
    gid = colony_contingent(ctx, cid)
    add_troop(ctx, str(c["owner"]), gid, "pd_site", f"PD site at {c.get('name', cid)}")


# -- M0.4 construction ---------------------------------------------------------------------
def build_terms(g: Game, item: str) -> tuple[Fraction, int, str]:
    """T-30 / F-37: (cost per month, months, T-30 row) of a catalog type or an item."""
    t = g.tables.get("T-30")
    if item in ITEMS or item == "PD":
        row = item
        base = Fraction(1)
    else:
        utype = g.catalog.type(item)
        code = str(utype.attrs.get("code", ""))
        row = BUILD_ROW.get(code, "")
        base = spm.sp(utype.attrs.get("req_sp", 0) or 0)
    if not row:
        return Fraction(0), 0, ""
    cost = t.lookup(type=row, column="cost").value
    months = int(t.lookup(type=row, column="months").value)
    if cost == "req":
        per = base
    elif cost == "2req":
        per = 2 * base
    else:
        per = spm.sp(cost)
    return per, months, row


def construction(ctx: Ctx) -> None:
    """M0.4 / F-37: installments off the top of this month's production, new jobs, lost jobs,
    deliveries, leftovers to the QAS stockpile (Core) or the colony depot."""
    ctx.secret_to("gm")
    g = game(ctx)
    pools = ctx.edit_var("production", {})
    month = g.month
    jobs = ctx.state.records("construction")
    # lost locations
    for jid, job in sorted(jobs.items()):
        if job.get("status") != "building" or job["location"] == "core":
            continue
        col = g.colonies().get(job["location"])
        if col is None or col.get("owner") != job["nation"] or col.get("destroyed"):
            ctx.record("construction", jid)["status"] = "lost"
            news.event(
                ctx,
                f"construction of {job['name']} at {job['location']} is lost with the colony",
                [job["nation"]],
                "construction",
            )
    # new jobs from the orders
    for nation in sorted(pools):
        for order in g.orders(nation).get("construction", []):
            start_job(ctx, nation, order)
    # installments
    for jid, job in sorted(ctx.state.records("construction").items()):
        if job.get("status") != "building" or int(job.get("first_month", month)) > month:
            continue
        if int(job.get("paid_month", 0)) == month:
            continue
        pool = pools.get(job["nation"], {})
        loc = job["location"]
        have = spm.sp(pool.get(loc, 0))
        per = spm.sp(job["per_month"])
        rec = ctx.record("construction", jid)
        if have < per:
            rec["stalled"] = int(rec.get("stalled", 0)) + 1
            ctx.explain(f"{job['name']}: {spm.text(per)} needed at {loc}, only {spm.text(have)}: no progress")
            news.event(
                ctx,
                f"construction of {job['name']} stalls: {spm.text(per)} SP needed at {loc}, "
                f"{spm.text(have)} available",
                [job["nation"]],
                "construction",
            )
            continue
        pool[loc] = spm.store(have - per)
        rec["months_paid"] = int(rec.get("months_paid", 0)) + 1
        rec["paid_month"] = month
        ctx.explain(
            f"{job['name']}: installment {rec['months_paid']}/{rec['months']} ({spm.text(per)} SP at {loc})"
        )
        if rec["months_paid"] >= int(rec["months"]):
            rec["status"] = "complete"
            rec["complete_month"] = month
    # deliveries (completed in an earlier month: delivered at Week 0 of month M + T)
    for jid, job in sorted(ctx.state.records("construction").items()):
        if job.get("status") == "complete" and int(job.get("complete_month", month)) < month:
            deliver(ctx, jid)
    # leftovers
    for nation, pool in sorted(pools.items()):
        for loc, amount in sorted(pool.items()):
            left = spm.sp(amount)
            if left <= 0:
                continue
            if loc == "core":
                rec = ctx.record("nations", nation)
                rec["qas_stock"] = spm.store(spm.sp(rec.get("qas_stock", 0)) + left)
                ctx.explain(f"{nation}: {spm.text(left)} SP of Core production left moves to QAS (F-47)")
            else:
                col = ctx.record("colonies", loc)
                col["psd_sp"] = spm.store(spm.sp(col.get("psd_sp", 0)) + left)
                col["psd"] = True
                ctx.explain(f"{loc}: {spm.text(left)} SP left go to its planetary supply depot")
            pool[loc] = 0
    ctx.summary("Construction and production settled")


def start_job(ctx: Ctx, nation: str, order: dict[str, Any]) -> None:
    g = game(ctx)
    per, months, row = build_terms(g, order["item"])
    count = int(order.get("count", 1))
    if order["item"] == "mines":
        per, count = Fraction(int(order.get("sp") or count)), 1
    first = g.month + (1 if ctx.options.get("construction_start", "same_month") == "next_month" else 0)
    for i in range(count):
        jid = f"j{len(ctx.state.records('construction')) + 1:04d}"
        name = order.get("name") or f"{order['item']}"
        if count > 1 and order["item"] != "mines":
            name = f"{name} #{i + 1}"
        ctx.put_record(
            "construction",
            jid,
            {
                "nation": nation,
                "item": order["item"],
                "row": row,
                "location": order["location"],
                "name": name,
                "per_month": spm.store(per),
                "months": months,
                "months_paid": 0,
                "first_month": first,
                "ordered_month": g.month,
                "status": "building",
                "mines_sp": int(order.get("sp") or 0),
            },
        )
        ctx.explain(
            f"{nation}: new job {jid} {name} at {order['location']}: {spm.text(per)} SP x {months} months"
        )


def deliver(ctx: Ctx, jid: str) -> None:
    """Deliver a finished job: ships in the Core sail under their own power; other Core items
    reach QAS after the option's delay (DEFAULT-07); colony-built items appear there."""
    g = game(ctx)
    job = g.state.records("construction")[jid]
    nation, item, loc = job["nation"], job["item"], job["location"]
    rec = ctx.record("construction", jid)
    rec["status"] = "delivered"
    core = g.core() or g.qas()
    system = core if loc == "core" else str(g.colonies()[loc]["system"])
    if (
        item in g.catalog.types
        and str(g.catalog.types[item].attrs.get("code", ""))
        not in ("JBn", "Bde(L)", "Bde(M)", "Bde(H)", "PD")
        and g.catalog.types[item].category != "troop"
    ):
        fid = ids.next_free(list(ctx.state.formations), nation, "task_force")
        ctx.add_formation(
            Formation(
                fid,
                nation,
                fid,
                "task_force",
                None,
                system,
                {},
                {"present_since": g.t, "newly_arrived": False, "detected_by": {}, "survey": {}},
                "owner",
            )
        )
        add_ship(ctx, nation, fid, item, job["name"])
        news.event(ctx, f"{job['name']} completed at {system} as {fid}", [nation], "construction")
        return
    if loc == "core":
        delay = int(ctx.options.get("core_items_delay_weeks", 1))
        arrivals = ctx.edit_var("arrivals", [])
        arrivals.append(
            {
                "t": g.t + delay,
                "nation": nation,
                "item": item,
                "name": job["name"],
                "system": g.qas(),
                "mines_sp": job.get("mines_sp", 0),
                "job": jid,
            }
        )
        ctx.explain(f"{job['name']} will reach QAS in {delay} week(s)")
        return
    place_item(ctx, nation, item, job["name"], system, loc, int(job.get("mines_sp", 0)))


def place_item(
    ctx: Ctx, nation: str, item: str, name: str, system: str, colony: str | None, mines_sp: int = 0
) -> None:
    """Put a finished non-ship item where it was built (or at QAS for Core items)."""
    g = game(ctx)
    if item == "mines":
        add_mines(ctx, system, nation, 5 * max(1, mines_sp))
        news.event(ctx, f"{5 * max(1, mines_sp)} mines laid at {system}", [nation], "construction")
    elif item in ("ASB", "SD", "FB", "LP"):
        fid = ids.next_free(list(ctx.state.formations), nation, "facility")
        ctx.add_formation(
            Formation(
                fid,
                nation,
                f"{item} {fid}",
                "facility",
                None,
                system,
                {},
                plain(
                    {
                        "type": item,
                        "modules": 1,
                        "damage": {},
                        "sp": 0,
                        "state": "packed",
                        "colony": colony,
                        "detected_by": [],
                    }
                ),
                "owner",
            )
        )
        news.event(ctx, f"{item} module ready (packed) at {system} as {fid}", [nation], "construction")
    elif item in ("sDrn", "mPak", "SubD"):
        rec = ctx.record("nations", nation)
        stores = dict(rec.get("stores", {}))
        key = f"{item}@{system}"
        stores[key] = int(stores.get(key, 0)) + 1
        rec["stores"] = stores
        news.event(ctx, f"{item} ready at {system}", [nation], "construction")
    elif item == "PD" and colony:
        add_pd_site(ctx, colony)
        news.event(ctx, f"PD site completed at {colony}", [nation], "construction")
    elif item in g.catalog.types:
        gid = (
            colony_contingent(ctx, colony) if colony and g.colonies()[colony].get("owner") == nation else None
        )
        if gid is None:
            gid = ids.next_free(list(ctx.state.formations), nation, "contingent")
            ctx.add_formation(
                Formation(
                    gid, nation, gid, "contingent", None, system, {}, plain({"colony": colony}), "owner"
                )
            )
        levels = list(g.catalog.types[item].attrs.get("levels", ["Regular"]))
        exp = "Veteran" if "Veteran" in levels else levels[0]
        add_troop(ctx, nation, gid, item, name, exp)
        news.event(ctx, f"{name} raised at {system} ({gid})", [nation], "construction")


def add_ship(ctx: Ctx, nation: str, fid: str, type_id: str, name: str) -> Unit:
    utype = ctx.catalog.type(type_id)
    code = str(utype.attrs.get("code", ""))
    uid = ctx.new_id(f"{nation.lower()}-{code.lower()}-")
    status: dict[str, Any] = {"fresh": True, "cargo_sp": str(spm.store(utype.attrs.get("cy_sp", 0) or 0))}
    if code in TACTICS_CLASSES:
        cid = f"cpt-{uid}"
        status["captain"] = cid
        kafer = game(ctx).kafer(nation)
        stac = int(initial_tactics(ctx, kafer, f"captain of {name}").value)
        flag = code in FLAG_OFFICER_CLASSES
        ftac = int(initial_tactics(ctx, kafer, f"captain of {name} (fleet)").value) if flag else None
        ctx.put_record(
            "commanders",
            cid,
            {
                "name": f"Captain of {name}",
                "rank": "Captain",
                "nation": nation,
                "flag": flag,
                "ship": uid,
                "alive": True,
                "stac": stac,
                "ftac": ftac,
                "initial_stac": stac,
                "k": 0,
                "rolled": True,
                "captain": True,
                "kafer": kafer,
            },
        )
    return ctx.add_unit(Unit(uid, nation, type_id, name, fid, None, status, {}, {}, "owner"))


def deliver_arrivals(ctx: Ctx) -> None:
    """Core-built items due this week appear at QAS (DEFAULT-07)."""
    g = game(ctx)
    due = [a for a in ctx.var("arrivals", []) or [] if int(a["t"]) <= g.t]
    if not due:
        return
    rest = [a for a in ctx.var("arrivals", []) if int(a["t"]) > g.t]
    ctx.set_var("arrivals", rest)
    for a in due:
        place_item(ctx, a["nation"], a["item"], a["name"], a["system"], None, int(a.get("mines_sp", 0)))


# -- M0.5 resupply ---------------------------------------------------------------------------
def resupply(ctx: Ctx) -> None:
    """M0.5 / F-36: every unit pays its month from its named source, then T-32's order."""
    ctx.secret_to("gm")
    g = game(ctx)
    short = 0
    for nation in g.nations():
        if not g.logistics_tracked(nation):
            continue
        for unit in supply_order(g, nation):
            res = resupply_unit(ctx, unit.id, named_source(g, unit))
            if not res["ok"]:
                short += 1
                news.event(
                    ctx,
                    f"{g.label(unit)} could not be fully resupplied "
                    f"({spm.text(res['paid'])} of {spm.text(res['need'])} SP)",
                    [nation],
                    "supply",
                )
        if ctx.options.get("troop_supply_losses", "monthly") == "monthly":
            unsupplied_troops(ctx, nation)
    ctx.set_var("troop_support", None)
    ctx.summary(f"Monthly resupply: {short} unit(s) short")


def unsupplied_troops(ctx: Ctx, nation: str) -> None:
    """F-31: unsupplied troop units lose 1D10 BF and 1D10 GF and check morale (failure removes)."""
    g = game(ctx)
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        if u.side != nation or not g.alive(u) or not g.is_troop(u) or not u.status.get("unsupplied"):
            continue
        res = troop_unsupplied(
            ctx,
            int(u.status.get("bf") or 0),
            int(u.status.get("gf") or 0),
            str(u.status.get("exp") or "Regular"),
            g.label(u),
        ).value
        unit = ctx.unit(u.id)
        unit.status["bf"] = res["bf"]
        unit.status["gf"] = res["gf"]
        if res["removed"]:
            unit.status["fate"] = "removed"
            news.event(
                ctx, f"{g.label(u)} is removed from play (unsupplied, failed morale)", [nation], "supply"
            )
