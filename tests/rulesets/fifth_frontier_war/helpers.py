"""Test helpers: a campaign at a chosen step, direct arrangement of a position, running a rule
function inside an action context (so every change is recorded), fixed dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.context import Ctx
from campaign_tui.core.engine import Engine, Outcome
from campaign_tui.core.model import Formation
from campaign_tui.core.procedures import FreeResolver
from rulesets.fifth_frontier_war import plugin
from rulesets.fifth_frontier_war.game import Game


def resolver(*dice: int, **options: Any) -> FreeResolver:
    opts = {o.id: o.default for o in plugin.options()}
    opts.update(options)
    return FreeResolver(plugin.tables(), opts, dice=list(dice) if dice else None, seed=7)


def new_engine(seed: int = 5, **options: Any) -> Engine:
    return Engine.create(plugin, seed=seed, options=options)


def run(
    engine: Engine, fn: Callable[[Ctx], Any], answers: dict[str, Any] | None = None, by: str = "gm"
) -> Outcome:
    """Run *fn(ctx)* as a logged action (strict mode checks every change goes through ctx)."""
    defn = ActionDef("test.run", "test", lambda ctx: fn(ctx))
    return engine._run(defn, {}, answers or {}, by, False, False)


def game(engine: Engine) -> Game:
    return Game.read(engine.state)


def clear_map(engine: Engine) -> None:
    """Arrangement: every counter back out of play, no fleets (a bare map to stage a case on)."""
    for u in engine.state.units.values():
        if u.location and not u.location.startswith("pool:"):
            u.location = "pool:test"
        u.formation = None
    engine.state.formations.clear()


def place(engine: Engine, uid: str, where: str, **status: Any) -> None:
    u = engine.state.units[uid]
    u.location = where
    u.status.update(status)


def fleet(
    engine: Engine,
    fid: str,
    side: str,
    where: str,
    ships: list[str],
    navy: str | None = None,
    admiral: str | None = None,
) -> None:
    name = engine.state.records("fleet_markers")[fid]["name"]
    engine.state.formations[fid] = Formation(
        fid,
        side,
        name,
        "fleet",
        location=where,
        data={"navy": navy or engine.state.records("fleet_markers")[fid]["navy"]},
        status={"mismatch": False},
    )
    engine.state.records("fleet_markers")[fid]["status"] = "in_play"
    for s in ships:
        place(engine, s, where)
        engine.state.units[s].formation = fid
    if admiral:
        place(engine, admiral, where, on_world=False, command=True)
        engine.state.units[admiral].formation = fid


def world(engine: Engine, hexid: str) -> dict[str, Any]:
    return engine.state.records("worlds")[hexid]


def goto(engine: Engine, step: str, turn: int | None = None) -> None:
    if turn is not None:
        engine.state.clock["turn"] = turn
    engine.state._c["meta"]["position"] = {"step": step, "stack": []}


def of_type(engine: Engine, prefix: str, n: int) -> list[str]:
    return sorted(u for u in engine.state.units if u.startswith(prefix))[:n]
