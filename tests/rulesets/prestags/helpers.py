"""Shared set-ups for the PRESTAGS tests: a training battle on a column-row grid, deployed."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.engine import Engine, Outcome
from campaign_tui.core.errors import NeedDecision
from rulesets.prestags import plugin

RED = "0506: a-sd-01, a-sd-02, a-bw-01, a-ldr-01; 0406: a-sd-03, a-sd-04, a-bw-02; 0605: a-hc-01, a-hc-02"
BLUE = (
    "0508: b-sd-01, b-sd-02, b-sd-03, b-ldr-01; 0408: b-ax-01, b-ax-02, b-sk-01; 0608: b-sk-02; 0609: b-lc-01"
)


def new(options: dict[str, Any] | None = None, seed: int = 7, scenario: str = "training") -> Engine:
    return Engine.create(plugin, scenario, {"hex_grid": "odd-q", **(options or {})}, seed=seed)


def deployed(options: dict[str, Any] | None = None, seed: int = 7) -> Engine:
    """Training battle, both sides deployed, at the first Fire Combat Phase (or plot)."""
    e = new(options, seed)
    e.perform("map_hexes", {"facts": "A=0505; B=0509; C=0507"})
    e.advance()
    facing = bool((options or {}).get("facing"))
    e.perform("deploy", {"placements": RED, **({"facing": 3} if facing else {})})
    e.advance()
    e.perform("deploy", {"placements": BLUE, **({"facing": 0} if facing else {})})
    e.advance()
    return e


def act(
    e: Engine,
    kind: str,
    params: dict[str, Any] | None = None,
    answers: dict[str, Any] | None = None,
    by: str = "gm",
) -> Outcome:
    return e.perform(kind, params or {}, answers or {}, by=by)


def act_all(
    e: Engine, kind: str, params: dict[str, Any] | None = None, answers: dict[str, Any] | None = None
) -> Outcome:
    """Perform, answering every decision with its default (rulings: yes)."""
    given = dict(answers or {})
    for _ in range(30):
        try:
            return e.perform(kind, params or {}, given)
        except NeedDecision as exc:
            d = exc.decision
            given[d.id] = True if d.kind == "ruling" and d.answer_kind == "bool" else d.default
    raise AssertionError("too many decisions")


def place(e: Engine, uid: str, h: str | None) -> None:
    e.perform("gm.place", {"id": uid, "location": f"hex:{h}" if h else "-"})


def status(e: Engine, uid: str, field: str, value: Any) -> None:
    import json

    e.perform("gm.set_status", {"unit": uid, "field": field, "value": json.dumps(value)})


def until(e: Engine, step: str, answers: dict[str, Any] | None = None) -> None:
    for _ in range(20):
        if e.state.step == step:
            return
        e.advance(answers or {})
    raise AssertionError(f"never reached {step}; at {e.state.step}")


def u(e: Engine, uid: str) -> Any:
    return e.state.unit(uid)


def force(result: str, n: int = 1) -> dict[str, str]:
    """GM override of the n-th table lookup of an action (forces a CRT result)."""
    return {f"override:lookup{n}": result}


def blue_turn(e: Engine, step: str = "FIRE", answers: dict[str, Any] | None = None) -> None:
    """Advance to *step* of the next Player-Turn."""
    pt = e.state.clock["pt"]
    for _ in range(20):
        if e.state.clock["pt"] == pt + 1 and e.state.step == step:
            return
        e.advance(answers or {})
    raise AssertionError(f"never reached {step} of Player-Turn {pt + 1}")


RESOLVE = {
    "FIRE_RES": "resolve_fire",
    "MELEE_RES": "resolve_melee",
    "MOVE_RES": "resolve_movement",
    "DF_RES": "resolve_df",
}


def sim_to(e: Engine, step: str) -> None:
    """Simultaneous game: advance to *step*, resolving the phases passed on the way (their
    decisions answered with defaults, rulings yes)."""
    for _ in range(20):
        if e.state.step == step:
            return
        kind = RESOLVE.get(e.state.step)
        if kind and kind not in [c.kind for c in e.status().choices if not c.available]:
            act_all(e, kind)
        e.advance()
    raise AssertionError(f"never reached {step}")
