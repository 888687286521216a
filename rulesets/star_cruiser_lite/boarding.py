"""Boarding actions inside a combat round (digest BRD.1-BRD.4, F-23, T-25, T-23).

A boarding is declared at CMB.DECLARE (``cmb_board``): a ship launches troop units it carries
at an enemy ship at Mv 0 (or a facility). The target has one section per point of its current
Df, each held by a defender: its own military troops first, then crew. Attackers fight
section by section; the state of the fight lives in ``vars["brd"]`` and the per-target
sections stay in the battle, so a boarding can go on in later rounds.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.model import State
from rulesets.star_cruiser_lite import news
from rulesets.star_cruiser_lite.classes import WARSHIPS
from rulesets.star_cruiser_lite.combat import capture_ship, game, is_facility, label, stat
from rulesets.star_cruiser_lite.rules_ground import boarding_fire, boarding_section


def brd(state: State) -> dict[str, Any]:
    return state.vars.get("brd") or {}


def more_passes(state: State) -> bool:
    s = brd(state)
    return any(a.get("again") for a in s.get("attackers", {}).values()) and any(
        sec["holder"] == "D" for sec in s.get("sections", [])
    )


def must_retreat(state: State) -> bool:
    return bool(brd(state).get("retreat"))


def more_boardings(state: State) -> bool:
    return bool((state.vars.get("battle") or {}).get("boardings"))


def declare(ctx: Ctx, ship: str, target: str, units: list[str]) -> None:
    """Queue a boarding for this round (checked: Mv 0 target, troops aboard the ship)."""
    g = game(ctx)
    b = ctx.state.vars.get("battle") or {}
    if ship not in b.get("units", {}) or target not in b.get("units", {}):
        raise ActionRejected("both the launching ship and the target must be in this battle")
    if b["units"][ship]["side"] == b["units"][target]["side"]:
        raise ActionRejected("the target must be an enemy")
    if not is_facility(b, target) and stat(g, b, target, "mv") > 0:
        raise ActionRejected(
            f"{label(g, b, target)} is moving (Mv {stat(g, b, target, 'mv')}): only a ship at "
            "All Stop (Mv 0) can be boarded"
        )
    for uid in units:
        u = g.state.units.get(uid)
        if (
            u is None
            or u.status.get("carried_by") != ship
            or not g.is_troop(u)
            or not int(u.status.get("bf") or 0)
        ):
            raise ActionRejected(f"{uid} is not a troop unit with boarding factors aboard {ship}")
    bb = ctx.edit_var("battle", {})
    bb["boardings"].append({"ship": ship, "target": target, "units": list(units)})
    ctx.summary(f"{label(g, b, ship)} will board {label(g, b, target)} with {', '.join(units)}")


def _crew(g: Any, b: dict[str, Any], target: str) -> tuple[str, int]:
    side = b["sides"][b["units"][target]["side"]]
    if side.get("kafer"):
        code = "Crew, Kafer"
    elif not is_facility(b, target) and g.code(g.state.units[target]) in WARSHIPS:
        code = "Crew, Warship"
    else:
        code = "Crew, Other"
    return code, int(g.tables.get("T-20").lookup(troop=code, factor="bf").value)


def launch(ctx: Ctx) -> None:
    """BRD.1: the target's sections, then the defensive fire (1D10 BF per Bm + Sb point)."""
    ctx.secret_to("gm")
    g = game(ctx)
    bb = ctx.edit_var("battle", {})
    order = bb["boardings"].pop(0)
    target, ship = order["target"], order["ship"]
    bb["no_fire"] = sorted({*bb.get("no_fire", []), target})
    bb["allstop"] = sorted({*bb.get("allstop", []), ship})
    boarded = bb.setdefault("boarded", {})
    if target not in boarded:
        df = stat(g, bb, target, "df")
        defenders = [
            u
            for u in g.state.units.values()
            if g.alive(u)
            and g.is_troop(u)
            and int(u.status.get("bf") or 0) > 0
            and (u.status.get("carried_by") == target or (is_facility(bb, target) and u.formation == target))
        ]
        code, crew_bf = _crew(g, bb, target)
        sections = []
        for i in range(df):
            if i < len(defenders):
                d = defenders[i]
                sections.append(
                    {
                        "holder": "D",
                        "unit": d.id,
                        "bf": int(d.status["bf"]),
                        "crew": False,
                        "level": d.status.get("exp") or "Regular",
                    }
                )
            else:
                sections.append(
                    {
                        "holder": "D",
                        "unit": None,
                        "bf": crew_bf,
                        "crew": True,
                        "level": "Regular",
                        "code": code,
                    }
                )
        boarded[target] = sections
    units = [u for u in order["units"] if g.state.units.get(u) and g.alive(g.state.units[u])]
    fire = boarding_fire(
        ctx,
        stat(g, bb, target, "bm") + stat(g, bb, target, "sb"),
        units,
        f"boarding of {label(g, bb, target)}",
    ).value
    attackers = {}
    for uid in units:
        bf = max(0, int(g.state.units[uid].status.get("bf") or 0) - int(fire.get(uid, 0)))
        _set_bf(ctx, uid, bf)
        if bf > 0:
            attackers[uid] = {
                "bf": bf,
                "again": True,
                "level": g.state.units[uid].status.get("exp") or "Regular",
            }
    ctx.set_var(
        "brd",
        {
            "target": target,
            "ship": ship,
            "side": bb["units"][ship]["side"],
            "attackers": attackers,
            "sections": boarded[target],
            "retreat": [],
        },
    )


def _set_bf(ctx: Ctx, uid: str, bf: int) -> None:
    u = ctx.unit(uid)
    u.status["bf"] = max(0, bf)
    if bf <= 0:
        u.status["fate"] = "destroyed"
        u.formation = None


def section_pass(ctx: Ctx) -> None:
    """BRD.2 / F-23: each attacking unit still going fights the next defender-held section
    (T-25), both lose 1D10 BF, morale checks, and 1D10 + (A - D) > 5 lets it fight on - after a
    win, a draw or a defender win alike, unless it was thrown off the ship."""
    g = game(ctx)
    s = ctx.edit_var("brd", {})
    for uid, a in sorted(s["attackers"].items()):
        if not a.get("again") or a["bf"] <= 0:
            continue
        a["again"] = False
        free = [sec for sec in s["sections"] if sec["holder"] == "D"]
        if not free:
            break
        sec = free[0]
        res = boarding_section(
            ctx,
            a["bf"],
            sec["bf"],
            a["level"],
            sec["level"],
            sec["crew"],
            f"{uid} vs section {s['sections'].index(sec) + 1}",
        ).value
        a["bf"] = res["a_bf"]
        _set_bf(ctx, uid, res["a_bf"])
        if sec.get("unit"):
            _set_bf(ctx, sec.get("unit"), res["d_bf"])
        sec["bf"] = res["d_bf"]
        if res["section_taken"]:
            sec["holder"] = "A"
            moved = sec.get("unit") if (sec.get("unit") and res["d_bf"] > 0 and res["d_holds"]) else None
            if moved:
                rest = [x for x in s["sections"] if x["holder"] == "D"]
                if rest:
                    rest[0].update(
                        {
                            "unit": moved,
                            "bf": res["d_bf"],
                            "crew": False,
                            "level": g.state.units[moved].status.get("exp") or "Regular",
                        }
                    )
                else:
                    u = ctx.unit(moved)
                    u.status["fate"] = "surrendered"
                    u.formation = None
            sec.update({"unit": uid, "bf": res["a_bf"], "crew": False})
            a["again"] = bool(res["continue"])
        elif (
            res["attacker_falls_back"] and not any(x["holder"] == "A" for x in s["sections"]) and a["bf"] > 0
        ):
            s["retreat"].append(uid)  # no section to fall back to: back to its ship (F-23)
            a["bf"] = 0
        else:
            a["again"] = bool(res["continue"])  # a draw, or fell back to a section it holds


def retreat(ctx: Ctx) -> None:
    """BRD.3: attackers thrown back off the ship take the defensive fire again."""
    g = game(ctx)
    s = ctx.edit_var("brd", {})
    b = ctx.state.vars.get("battle") or {}
    units = [u for u in s.get("retreat", []) if g.state.units.get(u) and g.alive(g.state.units[u])]
    if units:
        fire = boarding_fire(
            ctx, stat(g, b, s["target"], "bm") + stat(g, b, s["target"], "sb"), units, "withdrawal"
        ).value
        for uid in units:
            _set_bf(ctx, uid, int(g.state.units[uid].status.get("bf") or 0) - int(fire.get(uid, 0)))
    s["retreat"] = []


def done(ctx: Ctx) -> None:
    """BRD.4: the target is captured when every section is held by the attacker."""
    g = game(ctx)
    s = dict(ctx.var("brd") or {})
    bb = ctx.edit_var("battle", {})
    target = s["target"]
    bb.setdefault("boarded", {})[target] = s["sections"]
    if s["sections"] and all(sec["holder"] == "A" for sec in s["sections"]):
        captor_side = s["side"]
        if is_facility(bb, target):
            captor = bb["sides"][captor_side]["nations"][0]
            f = ctx.formation(target)
            old = f.side
            cross = g.kafer(old) != g.kafer(captor)
            f.side = captor
            f.data.update({"captured": True, "working_modules": 0, "captured_from": old})
            if cross:
                f.data["sp"] = 0
            bb["units"][target]["role"] = "lost"
            news.event(
                ctx,
                f"{target} captured by {captor} at {bb['system']}"
                + (" (enemy supply points destroyed)" if cross else ""),
                [old, captor],
                "loss",
            )
        else:
            capture_ship(ctx, g, bb, target, captor_side)
        for uid, a in s["attackers"].items():
            if a["bf"] > 0 and g.state.units.get(uid):
                ctx.unit(uid).status["carried_by"] = target if not is_facility(bb, target) else ""
        bb["boarded"].pop(target, None)
    ctx.set_var("brd", None)
