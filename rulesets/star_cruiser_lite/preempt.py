"""The pre-emptive attack sub-machine (digest W.5, PRE.1-PRE.4, F-10)."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from rulesets.star_cruiser_lite import news
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_combat import preemptive_check


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def _side(g: Game, ships: list[str]) -> dict[str, Any]:
    units = [g.state.units[s] for s in ships if s in g.state.units and g.alive(g.state.units[s])]
    kafer = any(g.kafer(u.side) for u in units)
    return {
        "cqs": [g.cq(u) for u in units],
        "sns": [g.cur(u, "sn") for u in units],
        "mvs": [g.cur(u, "mv") for u in units],
        "stac": g.best_stac(units),
        "kafer": kafer,
        "aroused": False,
    }


def check(ctx: Ctx) -> None:
    """PRE.1-PRE.2: an engagement-range check between the two task forces as wholes; if the
    intruder wins and its orders say so, it avoids combat and must leave; otherwise PRE.3 is a
    pre-emptive battle (one group a side, first round long, no intruder fighters in round 1)."""
    ctx.secret_to("gm")
    g = game(ctx)
    queue = ctx.edit_var("preempt_queue", [])
    cand = queue.pop(0)
    patrol = [s for s in cand["patrol_ships"] if s in g.state.units and g.alive(g.state.units[s])]
    intruder = (
        [u.id for u in g.hulls(cand["intruder_tf"])] if cand["intruder_tf"] in g.state.formations else []
    )
    if not patrol or not intruder:
        ctx.set_var("pre", {"avoided": True, "note": "nothing left to fight", **cand})
        return
    winner = preemptive_check(
        ctx,
        _side(g, patrol),
        _side(g, intruder),
        cand["defender_detected"],
        cand["intruder_detected"],
        cand["defender_roll"],
        cand["intruder_roll"],
    ).value
    avoid = bool(g.tf_order(cand["intruder_tf"]).get("avoid_preemptive", True))
    if winner == "intruder" and avoid:
        ctx.set_var("pre", {"avoided": True, **cand})
        return
    if winner == "intruder":
        ctx.explain(f"{cand['intruder_tf']} could avoid the attack but its orders accept combat")
    ctx.set_var("pre", {"avoided": False, **cand})
    ctx.set_var(
        "pending_battle",
        {
            "id": f"P{g.t}-{cand['intruder_tf']}",
            "system": cand["system"],
            "kind": "preemptive",
            "a": {"tfs": [], "ships": patrol, "facilities": []},
            "b": {"tfs": [cand["intruder_tf"]], "ships": [], "facilities": []},
            "surprise": False,
        },
    )
    news.event(
        ctx,
        f"patrols of {cand['defender_tf']} launch a pre-emptive attack on {cand['intruder_tf']} at "
        f"{cand['system']}",
        [cand["nation"], cand["intruder_nation"]],
        "battle",
        system=cand["system"],
    )


def avoided(ctx: Ctx) -> None:
    """PRE.2: the intruder avoids combat and must leave the system in the action phase."""
    pre = ctx.var("pre", {}) or {}
    tf = pre.get("intruder_tf")
    if tf and tf in ctx.state.formations:
        ctx.formation(tf).data["must_leave"] = True
        news.event(
            ctx,
            f"{tf} evades the pre-emptive attack at {pre.get('system')} and must leave the system",
            [pre.get("intruder_nation", ""), pre.get("nation", "")],
            "battle",
            system=pre.get("system"),
        )
    ctx.set_var("pre", None)
