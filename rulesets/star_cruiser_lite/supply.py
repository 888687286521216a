"""The resupply waterfall (digest M0.5, F-36, T-32) and SP movements.

Each unit pays from the source its orders name, then from the automatic order of T-32:
the Core stockpile (only at QAS), facility SP (CFR, ASB, SD, FB), merchants attached to its
task force, its own carried SP, sympathetic colonies (troops first use the colony's
troop-support SP, F-32), independent merchants of its nation, merchants of its nation's other
task forces. All SP are exact fractions (see :mod:`sp`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import Unit
from campaign_tui.core.records import record
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.classes import SUPPLY_CARRIERS, WARSHIPS
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_logistics import monthly_need, ordnance_cost

FACILITY_ORDER = ("CFR", "ASB", "SD", "FB")


@record
class Source:
    kind: str  # core | facility | ship | colony | troop_support
    ref: str  # nation, facility id, unit id or colony id
    label: str


def available(g: Game, src: Source) -> Fraction:
    if src.kind == "core":
        return spm.sp(g.nation(src.ref).get("qas_stock", 0))
    if src.kind == "facility":
        return g.fac_sp(g.state.formations[src.ref])
    if src.kind == "ship":
        return g.cargo(g.state.units[src.ref])
    if src.kind == "colony":
        return spm.sp(g.colonies()[src.ref].get("psd_sp", 0))
    if src.kind == "troop_support":
        return spm.sp(g.state.vars.get("troop_support", {}).get(src.ref, 0))
    return Fraction(0)


def take(ctx: Ctx, src: Source, amount: Fraction) -> None:
    """Remove *amount* SP from a source (recorded through the context)."""
    g = game(ctx)
    left = spm.store(available(g, src) - amount)
    if src.kind == "core":
        ctx.record("nations", src.ref)["qas_stock"] = left
    elif src.kind == "facility":
        ctx.formation(src.ref).data["sp"] = left
    elif src.kind == "ship":
        ctx.unit(src.ref).status["cargo_sp"] = str(left)
    elif src.kind == "colony":
        ctx.record("colonies", src.ref)["psd_sp"] = left
    elif src.kind == "troop_support":
        ctx.edit_var("troop_support", {})[src.ref] = left


def give(ctx: Ctx, src: Source, amount: Fraction) -> None:
    take(ctx, src, -amount)


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def _merchants(g: Game, fid: str, exclude: str) -> list[Unit]:
    return [u for u in g.ships(fid) if g.code(u) in SUPPLY_CARRIERS and u.id != exclude]


def sources(g: Game, unit: Unit, named: str = "auto") -> list[Source]:
    """The sources a unit may draw on, the named one first, then T-32's order."""
    nation = unit.side
    system = g.unit_system(unit)
    out: list[Source] = []
    tf = unit.formation or ""
    tf_f = g.state.formations.get(tf)
    carrier = g.state.units.get(unit.status.get("carried_by") or "")
    if carrier is not None and carrier.formation:
        tf = carrier.formation
    if system and system == g.qas():
        out.append(Source("core", nation, "Core stockpile at QAS"))
    facs = (
        [
            f
            for f in g.facilities(nation, system)
            if g.fac_type(f) in FACILITY_ORDER and f.data.get("state", "deployed") == "deployed"
        ]
        if system
        else []
    )
    facs.sort(key=lambda f: (FACILITY_ORDER.index(g.fac_type(f)), f.id))
    if tf_f is not None and tf_f.kind == "facility" and tf_f in facs:
        facs.remove(tf_f)
        facs.insert(0, tf_f)
    out += [Source("facility", f.id, f"{g.fac_type(f)} {f.id}") for f in facs]
    if tf and tf in g.state.formations and g.state.formations[tf].kind == "task_force":
        out += [Source("ship", m.id, f"merchant {g.label(m)}") for m in _merchants(g, tf, unit.id)]
    if g.is_ship(unit) and g.cargo_capacity(unit) > 0:
        out.append(Source("ship", unit.id, "own carried SP"))
    if system:
        cols = [
            cid
            for cid, c in g.colonies(system).items()
            if c.get("owner") == nation and not c.get("destroyed")
        ]
        if g.is_troop(unit):
            out += [Source("troop_support", cid, f"troop support of {cid}") for cid in cols]
        out += [Source("colony", cid, f"colony depot {cid}") for cid in cols]
        others = [f for f in g.tfs(nation, system) if f.id != tf]
        indep = [f for f in others if not any(g.code(u) in WARSHIPS for u in g.ships(f.id))]
        attached = [f for f in others if f not in indep]
        for group in (indep, attached):
            for f in group:
                out += [
                    Source("ship", m.id, f"merchant {g.label(m)} of {f.id}") for m in _merchants(g, f.id, "")
                ]
    if named and named != "auto":
        kind, _, ref = named.partition(":")
        wanted = [s for s in out if _matches(g, s, kind, ref)]
        out = wanted + [s for s in out if s not in wanted]
    seen: list[Source] = []
    for s in out:
        if s not in seen:
            seen.append(s)
    return seen


def _matches(g: Game, s: Source, kind: str, ref: str) -> bool:
    if kind == "core":
        return s.kind == "core"
    if kind == "facility":
        return s.kind == "facility" and (not ref or s.ref == ref)
    if kind == "colony":
        return s.kind in ("colony", "troop_support") and (not ref or s.ref == ref)
    if kind == "self":
        return s.label == "own carried SP"
    if kind == "merchants":
        return s.kind == "ship" and s.label.startswith("merchant") and " of " not in s.label
    if kind in ("independent", "other_tf"):
        return s.kind == "ship" and " of " in s.label
    return False


def ordnance_owed(g: Game, unit: Unit) -> tuple[int, int]:
    """Salvoes and submunition points spent or lost (restored as ordnance)."""
    return int(unit.status.get("lost_sv", 0)), int(unit.status.get("lost_sb", 0))


def pay(ctx: Ctx, unit: Unit, need: Fraction, srcs: list[Source]) -> tuple[Fraction, list[str]]:
    """Draw up to *need* from the sources in order; returns what was paid and how."""
    g = game(ctx)
    paid = Fraction(0)
    lines = []
    for src in srcs:
        if paid >= need:
            break
        have = available(g, src)
        if have <= 0:
            continue
        part = min(have, need - paid)
        take(ctx, src, part)
        paid += part
        lines.append(f"{spm.text(part)} from {src.label}")
    return paid, lines


def resupply_unit(ctx: Ctx, unit_id: str, named: str = "auto", late: bool = False) -> dict[str, Any]:
    """Resupply one unit (Week 0, or a late resupply): requirement, arrears, ordnance."""
    g = game(ctx)
    unit = g.state.units[unit_id]
    fresh = bool(unit.status.get("fresh"))
    req = g.req_sp(unit)
    arrears = int(unit.status.get("arrears", 0))
    if late and not unit.status.get("unsupplied"):
        return {"unit": unit_id, "ok": True, "paid": "0", "note": "already supplied"}
    need = spm.sp(monthly_need(ctx, spm.store(req), arrears, fresh, 0, late).value)
    if cargo_only(g, unit):
        need = Fraction(0)
    srcs = sources(g, unit, named)
    paid, lines = pay(ctx, unit, need, srcs)
    u = ctx.unit(unit_id)
    u.status["fresh"] = False
    ok = paid >= need
    if ok:
        u.status.update(
            {"unsupplied": False, "arrears": 0, "weeks_unsupplied": 0, "partial_sp": "0", "retreating": False}
        )
        sv, sb = ordnance_owed(g, unit)
        if sv or sb:
            cost = spm.sp(ordnance_cost(ctx, sv, sb).value)
            extra, more = pay(ctx, unit, cost, sources(g, unit, named))
            lines += more
            quarters = int(extra * 4)
            restore_sv = min(sv, quarters)
            restore_sb = min(sb, quarters - restore_sv)
            u.status["lost_sv"] = sv - restore_sv
            u.status["lost_sb"] = sb - restore_sb
            paid += extra
            if restore_sv or restore_sb:
                lines.append(f"ordnance: {restore_sv} salvoes, {restore_sb} submunitions restored")
    else:
        u.status["unsupplied"] = True
        if not late:
            u.status["arrears"] = arrears + 1
        u.status["partial_sp"] = str(spm.store(spm.sp(u.status.get("partial_sp", "0")) + paid))
    text = (
        f"{g.label(unit)}: needs {spm.text(need)}, paid {spm.text(paid)}"
        + (f" ({'; '.join(lines)})" if lines else "")
        + ("" if ok else " - NOT fully resupplied")
    )
    ctx.explain(text)
    return {"unit": unit_id, "ok": ok, "paid": spm.store(paid), "need": spm.store(need), "text": text}


def cargo_only(g: Game, unit: Unit) -> bool:
    """Small craft carried as cargo need no resupply (L696)."""
    return bool(unit.status.get("cargo_only"))


def supply_order(g: Game, nation: str) -> list[Unit]:
    """Units of a nation in resupply order: ships by task force, then troops, best first."""
    units = [
        u
        for u in g.state.units.values()
        if u.side == nation and g.alive(u) and (g.is_ship(u) or g.code(u) == "FTR" or g.is_troop(u))
    ]
    rank = {"Elite": 0, "Veteran": 1, "Regular": 2, "Green": 3, "": 4}
    ships = sorted((u for u in units if not g.is_troop(u)), key=lambda u: (u.formation or "", u.id))
    troops = sorted(
        (u for u in units if g.is_troop(u)), key=lambda u: (rank.get(u.status.get("exp", ""), 4), u.id)
    )
    return ships + [t for t in troops if g.req_sp(t) > 0 or t.status.get("unsupplied")]


def named_source(g: Game, unit: Unit) -> str:
    """The source the nation's orders name for this unit (by unit, task force or contingent)."""
    orders = g.orders(unit.side)
    res = orders.get("resupply", {})
    for key in (
        unit.id,
        unit.formation or "",
        (g.state.units.get(unit.status.get("carried_by") or "") or unit).formation or "",
    ):
        if key and key in res:
            return str(res[key])
    for section in ("tf", "facility", "ground"):
        o = orders.get(section, {}).get(unit.formation or "")
        if o and o.get("resupply"):
            return str(o["resupply"])
    return "auto"
