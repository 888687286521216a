"""Shared helpers for the Second Sathar War tests: build campaigns and drive the day loop."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.engine import Engine
from campaign_tui.core.procedures import FreeResolver
from rulesets.second_sathar_war import plugin


def resolver(dice: list[int] | None = None, **options: Any) -> FreeResolver:
    opts = {o.id: o.default for o in plugin.options()}
    opts.update(options)
    return FreeResolver(plugin.tables(), opts, dice=dice, seed=5)


def calc(proc: str, dice: list[int] | None = None, options: dict[str, Any] | None = None, **params: Any):
    r = resolver(dice, **(options or {}))
    result = plugin.procedure(proc).fn(r, **params)
    return result, r


def new(scenario: str = "seed_start", seed: int = 3, **options: Any) -> Engine:
    return Engine.create(plugin, scenario, options=options, seed=seed, name="test")


def to_setup_done(e: Engine, condition: int = 3, place: bool = True, sfn: bool = False) -> Engine:
    """Options -> retreat condition -> UPF set-up -> Sathar set-up -> SFN -> day 1 (Sathar reinforce)."""
    e.advance()
    e.perform("choose_retreat_condition", {"condition": condition}, by="SATHAR")
    e.advance()
    if e.state.step == "SHATTER_DRONES":
        for side in ("UPF", "SATHAR"):
            ffs = [u.id for u in e.state.units.values() if u.side == side and u.type == "FF"][:2]
            for f in ffs:
                e.perform("name_shatter_drone", {"ship": f}, by=side)
        e.advance()
    pool = [u for u in e.state.units.values() if u.formation == "upf-non-attached"]
    e.perform("deploy", {"ships": [u.id for u in pool if u.type != "F"], "to": "upf-tf-prenglar"}, by="UPF")
    fighters = [u.id for u in pool if u.type == "F"]
    if fighters:
        e.perform("base_fighters", {"fighters": fighters, "host": "st-gollwin"}, by="UPF")
    e.advance()
    if place:
        if "sat-devastator" in e.state.formations:
            for fleet, circle in (
                ("sat-devastator", "sc-fromeltar"),
                ("sat-prime-kill", "sc-kizk-kar"),
                ("sat-warbird", "sc-ktsa-kar"),
            ):
                e.perform("place_fleet", {"fleet": fleet, "at": circle}, by="SATHAR")
        e.advance()
        if sfn:
            e.perform("place_sfn", {}, by="UPF")
        e.advance()
    return e


def to_step(e: Engine, step: str, limit: int = 40) -> None:
    for _ in range(limit):
        if e.state.step == step:
            return
        if e.state.step in ("SATHAR_MOVE", "UPF_MOVE"):
            side = "SATHAR" if e.state.step == "SATHAR_MOVE" else "UPF"
            e.perform("move_all", {}, by=side)
        e.advance()
    raise AssertionError(f"never reached {step}; at {e.state.step}")


def run_quiet_day(e: Engine) -> None:
    """From anywhere in a day: move everything, declare nothing, end the day."""
    day = e.state.clock["day"]
    for _ in range(40):
        if e.state.clock["day"] != day or e.step.final:
            return
        step = e.state.step
        if step in ("SATHAR_MOVE", "UPF_MOVE"):
            e.perform("move_all", {}, by="SATHAR" if step == "SATHAR_MOVE" else "UPF")
        e.advance()
    raise AssertionError(f"day {day} did not end (at {e.state.step})")


def put(e: Engine, stack: str, where: str) -> None:
    e.perform("gm.move_stack", {"stack": stack, "location": where, "reason": "test position"})
