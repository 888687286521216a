"""Shared helpers for the Star Cruiser Lite tests."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from campaign_tui.core.engine import Engine
from campaign_tui.core.procedures import FreeResolver
from rulesets.star_cruiser_lite import plugin
from rulesets.star_cruiser_lite.game import Game


def resolver(*dice: int, **options: Any) -> FreeResolver:
    """A calc-style resolver with the campaign defaults, optional typed dice and option changes."""
    opts = {o.id: o.default for o in plugin.options()}
    opts.update(options)
    return FreeResolver(plugin.tables(), opts, dice=list(dice) or None, seed=1)


def engine(seed: int = 3, scenario: str = "demo", **options: Any) -> Engine:
    return Engine.create(plugin, scenario, options, seed=seed)


def game(e: Engine) -> Game:
    return Game(e.state, e.catalog, e.tables)


def orders_text(name: str) -> str:
    return (resources.files("rulesets.star_cruiser_lite") / "data" / "orders" / name).read_text(
        encoding="utf-8"
    )


def set_var(e: Engine, name: str, value: Any) -> None:
    e.perform("gm.set_var", {"name": name, "value": json.dumps(value)})


def to_step(e: Engine, step: str, limit: int = 60) -> None:
    """Advance (standing orders where needed) until the machine stands at *step*."""
    for _ in range(limit):
        if e.state.step == step:
            return
        if e.state.step in ("M0.ORDERS", "W.ORDERS") and e.missing():
            e.perform("default_orders")
        e.advance()
    raise AssertionError(f"never reached {step}; at {e.state.step}")


def battle(e: Engine, a: list[str], b: list[str], system: str, **extra: Any) -> None:
    """Put one engagement in the week's list and enter the combat sub-machine from W.ACTIONS."""
    to_step(e, "W.ACTIONS")
    set_var(
        e,
        "engagements",
        [
            {
                "id": "T1",
                "system": system,
                "kind": "attack",
                "attack": "tf",
                "a": {"tfs": a, "ships": [], "facilities": []},
                "b": {"tfs": b, "ships": [], "facilities": extra.pop("facilities", [])},
                "surprise": False,
                **extra,
            }
        ],
    )
    set_var(e, "colony_attacks", [])
    e.advance()
    assert e.state.step == "CMB.SETUP"


def place(e: Engine, fid: str, system: str) -> None:
    e.perform("gm.place", {"id": fid, "location": system})
