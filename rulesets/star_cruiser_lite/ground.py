"""Attack Colony: securing orbit, bombardment, landing, ground combat, capture
(digest GRD.1-GRD.6, F-24 to F-29)."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import Formation, State, Unit
from rulesets.star_cruiser_lite import ids, news
from rulesets.star_cruiser_lite.chores_month import colony_contingent
from rulesets.star_cruiser_lite.classes import BOMBARD_CLASSES
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_ground import (
    MILITIA,
    bombardment,
    ground_round,
    landing_fire,
    militia,
)


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def grd(state: State) -> dict[str, Any]:
    return state.vars.get("grd") or {}


def orbit_battle_pending(state: State) -> bool:
    return bool(state.vars.get("pending_battle"))


def secured(state: State) -> bool:
    g = grd(state)
    if g.get("secured") is None:
        last = state.vars.get("last_battle") or {}
        return last.get("winner") == "A"
    return bool(g.get("secured"))


def landing(state: State) -> bool:
    return secured(state) and bool(grd(state).get("land"))


def outer_won(state: State) -> bool:
    return grd(state).get("outer") == "attacker"


def inner_won(state: State) -> bool:
    return grd(state).get("inner") == "attacker"


def _defending_troops(g: Game, cid: str, attacker: str) -> list[Unit]:
    col = g.colonies()[cid]
    out = []
    for u in g.state.units.values():
        if (
            not g.alive(u)
            or not g.is_troop(u)
            or u.status.get("carried_by")
            or not g.enemies(u.side, attacker)
        ):
            continue
        f = g.state.formations.get(u.formation or "")
        if (
            f is not None
            and f.location == col["system"]
            and (f.data.get("colony") in (cid, None) or u.data.get("colony") == cid)
        ):
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def _attacking_troops(g: Game, cid: str, attacker: str) -> list[Unit]:
    col = g.colonies()[cid]
    out = []
    for u in g.state.units.values():
        if not g.alive(u) or not g.is_troop(u) or u.side != attacker or u.status.get("carried_by"):
            continue
        f = g.state.formations.get(u.formation or "")
        if f is not None and f.location == col["system"] and f.data.get("colony") == cid:
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def orbit(ctx: Ctx) -> None:
    """GRD.1: unless the world is friendly, the attackers fight the space defenders: task
    forces there, the colony's repair facility and PD sites (F-15), its fighters."""
    ctx.secret_to("gm")
    g = game(ctx)
    queue = ctx.edit_var("colony_attacks", [])
    attack = queue.pop(0)
    cid = attack.get("colony")
    col = g.colonies().get(cid or "")
    state: dict[str, Any] = {**attack, "secured": None}
    if col is None:
        state["secured"] = False
        news.event(ctx, f"attack on colony {cid}: no such colony", [attack["nation"]], "orders")
        ctx.set_var("grd", state)
        return
    owner = str(col["owner"])
    if not g.enemies(owner, attack["nation"]):
        state["secured"] = True
        ctx.set_var("grd", state)
        return
    sid = col["system"]
    defenders = [
        t.id
        for t in g.tfs(system=sid)
        if g.enemies(t.side, attack["nation"])
        and g.tf_order(t.id).get("movement") in ("defend", "hold", "attack")
    ]
    facs = [
        f.id
        for f in g.facilities(system=sid)
        if g.enemies(f.side, attack["nation"]) and g.fac_type(f) == "CFR" and f.data.get("colony") == cid
    ]
    pds = [u.id for u in _defending_troops(g, cid, attack["nation"]) if g.code(u) == "PD"]
    if not defenders and not facs and not pds:
        state["secured"] = True
        ctx.explain(f"no defenders in orbit of {col.get('name', cid)}: orbit secured")
    else:
        ctx.set_var(
            "pending_battle",
            {
                "id": f"O{g.t}-{cid}",
                "system": sid,
                "kind": "orbit",
                "colony": cid,
                "a": {"tfs": attack["tfs"], "ships": [], "facilities": []},
                "b": {"tfs": defenders, "ships": [], "facilities": facs, "pd": pds},
            },
        )
    ctx.set_var("grd", state)


def bombard(ctx: Ctx) -> None:
    """GRD.2 / F-24, F-25: CG, BC and BB beams hit on pct(10); colony hits cost population,
    troop hits 1D10 GF; each point may instead destroy the planetary depot (pct(10))."""
    ctx.secret_to("gm")
    g = game(ctx)
    s = ctx.edit_var("grd", {})
    s["secured"] = secured(ctx.state)
    if not s["secured"]:
        news.event(ctx, f"the attack on {s.get('colony')} fails to secure orbit", [s["nation"]], "ground")
        return
    target = s.get("bombard", "none")
    if target == "none":
        return
    cid = s["colony"]
    col = g.colonies()[cid]
    beams = sum(
        g.cur(u, "bm")
        for t in s["tfs"]
        if t in g.state.formations
        for u in g.ships(t)
        if g.code(u) in BOMBARD_CLASSES
    )
    res = bombardment(
        ctx, beams, target, 1 if col.get("psd") else 0, f"bombardment of {col.get('name', cid)}"
    ).value
    if res["depots"]:
        rec = ctx.record("colonies", cid)
        rec["psd_sp"] = 0
        rec["psd"] = False
    if target == "colony" and res["points"]:
        rec = ctx.record("colonies", cid)
        rec["pop"] = max(0, int(rec["pop"]) - int(res["points"]))
        if rec["pop"] <= 0:
            rec["destroyed"] = True
        ctx.explain(
            f"{cid}: population {int(rec['pop']) + int(res['points'])} -> {rec['pop']}; output now "
            f"{g.colony_output(cid)} SP (F-25)"
        )
    elif target == "troops":
        for i in range(int(res["points"])):
            pool = _defending_troops(g, cid, s["nation"])
            if not pool:
                break
            victim = ctx.draw(pool, 1, f"bombardment hit {i + 1}")[0]
            loss = ctx.roll("1d10", f"bombardment losses of {g.label(victim)}").natural
            _hurt(ctx, victim.id, loss)
    news.event(
        ctx,
        f"{col.get('name', cid)} bombarded: {res['hits']} hit(s)"
        + (", its supply depot destroyed" if res["depots"] else ""),
        sorted({s["nation"], str(col["owner"])}),
        "ground",
    )


def _hurt(ctx: Ctx, uid: str, loss: int) -> None:
    u = ctx.unit(uid)
    u.status["gf"] = max(0, int(u.status.get("gf") or 0) - int(loss))
    if u.status["gf"] <= 0:
        u.status["fate"] = "destroyed"
        u.formation = None


def land(ctx: Ctx) -> None:
    """GRD.3 / F-26: troops aboard the attacking ships land; jump battalions unharmed, the
    others under fire from each surviving PD site and brigade."""
    ctx.secret_to("gm")
    g = game(ctx)
    s = ctx.edit_var("grd", {})
    cid = s["colony"]
    col = g.colonies()[cid]
    ships = {u.id for t in s["tfs"] if t in g.state.formations for u in g.ships(t)}
    landers = [
        u
        for u in g.state.units.values()
        if g.alive(u) and g.is_troop(u) and u.side == s["nation"] and u.status.get("carried_by") in ships
    ]
    if not landers:
        s["land"] = False
        return
    defenders = [g.code(u) for u in _defending_troops(g, cid, s["nation"])]
    fire = landing_fire(
        ctx, defenders, {u.id: g.code(u) for u in landers}, f"landing on {col.get('name', cid)}"
    ).value
    gid = None
    for f in g.contingents(s["nation"], str(col["system"])):
        if f.data.get("colony") == cid:
            gid = f.id
    if gid is None:
        gid = ids.next_free(list(ctx.state.formations), s["nation"], "contingent")
        ctx.add_formation(
            Formation(
                gid, s["nation"], gid, "contingent", None, str(col["system"]), {}, {"colony": cid}, "owner"
            )
        )
    for u in landers:
        unit = ctx.unit(u.id)
        unit.status["carried_by"] = ""
        unit.formation = gid
        if fire.get(u.id):
            _hurt(ctx, u.id, int(fire[u.id]))
    news.event(
        ctx,
        f"{len(landers)} troop unit(s) land on {col.get('name', cid)}",
        sorted({s["nation"], str(col["owner"])}),
        "ground",
    )


def _rows(g: Game, units: list[Unit]) -> list[dict[str, Any]]:
    return [
        {"id": u.id, "code": g.code(u), "gf": int(u.status.get("gf") or 0), "exp": u.status.get("exp") or ""}
        for u in units
    ]


def _settle(ctx: Ctx, rows: list[dict[str, Any]], militia_removed: bool) -> None:
    for r in rows:
        u = ctx.unit(r["id"])
        u.status["gf"] = r["gf"]
        if r.get("exp"):
            u.status["exp"] = r["exp"]
        if r["destroyed"]:
            u.status["fate"] = "destroyed"
            u.formation = None
        elif r.get("holds") is False:
            if r["code"] in MILITIA and militia_removed:
                u.status["fate"] = "removed"
                u.formation = None
            else:
                u.status["dispersed"] = True


def outer(ctx: Ctx) -> None:
    """GRD.4 / F-27: the outer line: troop units other than PD sites and militia."""
    ctx.secret_to("gm")
    g = game(ctx)
    s = ctx.edit_var("grd", {})
    cid = s["colony"]
    att = [u for u in _attacking_troops(g, cid, s["nation"]) if not u.status.get("dispersed")]
    dfn = [
        u
        for u in _defending_troops(g, cid, s["nation"])
        if g.code(u) not in ("PD", *MILITIA) and not u.status.get("dispersed")
    ]
    if not att:
        s["outer"] = "defender"
        return
    if not dfn:
        s["outer"] = "attacker"
        ctx.explain("no troops hold the outer line")
        return
    res = ground_round(ctx, _rows(g, att), _rows(g, dfn), False, 0, "outer line").value
    removed = ctx.options.get("militia_failed_morale", "removed") == "removed"
    _settle(ctx, res["attackers"] + res["defenders"], removed)
    s["outer"] = res["result"]
    news.event(
        ctx,
        f"ground combat at {g.colonies()[cid].get('name', cid)} (outer line): {res['result']} "
        f"{'wins' if res['result'] != 'draw' else ''}",
        sorted({s["nation"], str(g.colonies()[cid]["owner"])}),
        "ground",
    )


def inner(ctx: Ctx) -> None:
    """GRD.5 / F-27, F-28: the militia (one unit per population factor, one in five of the
    better grade) defends; the colony loses ceil(pop x 1D10 x 10%) population."""
    ctx.secret_to("gm")
    g = game(ctx)
    s = ctx.edit_var("grd", {})
    cid = s["colony"]
    col = g.colonies()[cid]
    owner = str(col["owner"])
    kafer = g.kafer(owner)
    gid = colony_contingent(ctx, cid)
    g = game(ctx)
    existing = [u for u in g.troops(gid) if g.code(u) in MILITIA]
    if not existing and not col.get("militia_raised"):
        mix = militia(ctx, int(col.get("pop", 0)), kafer).value
        type_id = "militia_kafer" if kafer else "militia"
        code = "Militia, Kafer" if kafer else "Militia"
        for level, n in mix.items():
            mod = int(g.tables.get("T-22").lookup(level=level).value)
            gf = int(g.tables.get("T-20").lookup(troop=code, factor="gf").value) + mod
            for _ in range(int(n)):
                uid = ctx.new_id(f"{owner.lower()}-mil-")
                ctx.add_unit(
                    Unit(
                        uid,
                        owner,
                        type_id,
                        f"Militia of {col.get('name', cid)}",
                        gid,
                        None,
                        {"exp": level, "gf": gf, "bf": 0},
                        {},
                        {"colony": cid},
                        "owner",
                    )
                )
        ctx.record("colonies", cid)["militia_raised"] = True
    g = game(ctx)
    att = [u for u in _attacking_troops(g, cid, s["nation"]) if not u.status.get("dispersed")]
    dfn = [u for u in g.troops(gid) if g.code(u) in MILITIA]
    if not dfn:
        s["inner"] = "attacker"
        return
    res = ground_round(ctx, _rows(g, att), _rows(g, dfn), True, int(col.get("pop", 0)), "inner line").value
    removed = ctx.options.get("militia_failed_morale", "removed") == "removed"
    _settle(ctx, res["attackers"] + res["defenders"], removed)
    rec = ctx.record("colonies", cid)
    rec["pop"] = max(0, int(rec["pop"]) - int(res["pop_loss"]))
    if rec["pop"] <= 0:
        rec["destroyed"] = True
    s["inner"] = res["result"]
    news.event(
        ctx,
        f"ground combat at {col.get('name', cid)} (inner line): {res['result']}; population -"
        f"{res['pop_loss']}",
        sorted({s["nation"], owner}),
        "ground",
    )


def capture(ctx: Ctx) -> None:
    """GRD.6: the colony changes hands; its SP serve the captor's resupply only (E-16)."""
    g = game(ctx)
    s = grd(ctx.state)
    cid = s["colony"]
    col = g.colonies()[cid]
    old = str(col["owner"])
    rec = ctx.record("colonies", cid)
    rec["owner"] = s["nation"]
    rec["captured"] = True
    rec["resupply_only"] = rec.get("original_owner") != s["nation"]
    rec["militia_raised"] = False
    sysrec = ctx.record("systems", str(col["system"]))
    if g.kafer(s["nation"]):
        sysrec["held_by"] = s["nation"]
    elif sysrec.get("held_by") and g.enemies(str(sysrec["held_by"]), s["nation"]):
        others = [
            c for k, c in g.colonies(str(col["system"])).items() if k != cid and g.kafer(str(c.get("owner")))
        ]
        if not others:
            sysrec["held_by"] = None
            sysrec.pop("held_by", None)
    news.event(ctx, f"{col.get('name', cid)} captured by {s['nation']} from {old}", ["*"], "ground")


def finish(ctx: Ctx) -> None:
    s = grd(ctx.state)
    if s:
        ctx.summary(
            f"Attack on {s.get('colony')}: orbit {'secured' if secured(ctx.state) else 'not secured'}"
            + (f", outer line {s.get('outer')}" if s.get("outer") else "")
            + (f", inner line {s.get('inner')}" if s.get("inner") else "")
        )
    ctx.set_var("grd", None)
    ctx.set_var("last_battle", None)
