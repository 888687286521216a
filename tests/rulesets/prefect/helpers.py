"""Shared helpers for the Prefect tests: campaigns set up the way the example does, and a
driver that answers decisions like a player."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.engine import Engine
from campaign_tui.core.info import CampaignInfo
from campaign_tui.core.model import State
from rulesets.prefect import plugin
from rulesets.prefect.example import act, setup

__all__ = ["act", "dice", "liberation", "plugin", "procedure"]


_SETUP: dict[tuple[Any, ...], State] = {}


def liberation(seed: int = 1, **options: Any) -> Engine:
    """Liberation on the demonstration map, set up and at the first Movement Phase.

    The set-up (a hundred placements) is played once per option set; each test gets a fresh
    engine on a copy of that position, with a log that starts there."""
    key = tuple(sorted(options.items()))
    if key not in _SETUP:
        engine = Engine.create(plugin, "liberation", options, seed=seed)
        setup(engine)
        _SETUP[key] = engine.state.copy()
    state = _SETUP[key].copy()
    info = CampaignInfo(
        name="test",
        ruleset=plugin.id,
        ruleset_version=plugin.version,
        data_hash=plugin.data_hash(),
        scenario="liberation",
        seed=seed,
    )
    engine = Engine(plugin, state, info)
    engine.initial = state.copy()
    return engine


def dice(*values: int, start: int = 1) -> dict[str, int]:
    """Typed dice for an action: the first roll, the second..."""
    return {f"roll{start + i}": v for i, v in enumerate(values)}


def procedure(name: str, dice_: list[int] | None = None, **params: Any) -> Any:
    """Run a calc procedure with fixed dice and the default options."""
    from campaign_tui.core.procedures import FreeResolver

    proc = plugin.procedure(name)
    options = {o.id: o.default for o in plugin.options()}
    r = FreeResolver(plugin.tables(), options, dice=list(dice_ or []))
    return proc.fn(r, **params), r


def holding_the_line(seed: int = 3) -> Engine:
    """Holding the Line deployed (CW around New Mandella, (3,11) and Ku Crassus; TOG at
    Traverse and Ku Crassus, the convoy on the T-space track) and at Mission Assignment."""
    e = Engine.create(plugin, "holding_the_line", seed=seed)
    act(e, "deploy_tf", {"tf": "cw-ntf1", "where": "5,12"}, by="CW")
    act(e, "deploy_tf", {"tf": "cw-ntf2", "where": "3,2"}, by="CW")
    act(e, "deploy_tf", {"tf": "cw-ntf3", "where": "3,11"}, by="CW")
    act(e, "place_naval_base", {"base": "cw-on4-1", "segment": 1}, by="CW")
    act(e, "advance", by="CW")
    for tf, where in (("tog-ntf1", "7,12"), ("tog-ntf2", "3,2"), ("tog-ntf9", "7,12"), ("tog-ntf10", "7,12")):
        act(e, "deploy_tf", {"tf": tf, "where": where}, by="TOG")
    for base, seg in (("tog-gn2-3", 1), ("tog-gn2-4", 2)):
        act(e, "place_naval_base", {"base": base, "segment": seg}, by="TOG")
    for n in range(3, 9):
        act(
            e,
            "set_mission",
            {"tf": f"tog-ntf{n}", "mission": "orbital_drop" if n % 2 else "supply"},
            by="TOG",
        )
    act(e, "advance", by="TOG")
    return e


def assign_missions(e: Engine, missions: dict[str, str], segments: dict[str, int] | None = None) -> None:
    for tf, mission in missions.items():
        params: dict[str, Any] = {"tf": tf, "mission": mission}
        if segments and tf in segments:
            params["segment"] = segments[tf]
        act(e, "set_mission", params, by=e.state.formations[tf].side)


def invasion(seed: int = 11) -> Engine:
    """Invasion set up (demonstration map; CW grav forces on the map, naval forces at
    their bases, Marines at the GN3; six TOG Cohorts loaded on a Medium Transport) and at
    the first Naval Mission Assignment."""
    key = ("invasion", seed)
    if key not in _SETUP:
        from rulesets.prefect.actions_setup import unplaced
        from rulesets.prefect.example import demo_map

        e = Engine.create(plugin, "invasion", seed=seed)
        act(e, "import_map", {"map": demo_map()})
        spots = {7: ["2002", "2102", "1902", "2104"], 4: ["1102"], 10: ["2902"]}
        for b in [u for u in e.state.units.values() if u.data.get("needs_hex")]:
            act(e, "place_base", {"base": b.id, "hex": spots[b.data["area"]].pop(0)})
        act(e, "advance")
        hexes = iter(f"{c:02d}{r:02d}" for c in range(10, 22) for r in (3, 5, 7))
        while unplaced(e.state, "CW"):
            act(e, "place_tf", {"tf": unplaced(e.state, "CW")[0], "hex": next(hexes)}, by="CW")
        act(e, "advance")
        for b, seg in (("cw-on4-6", 1), ("cw-gn2-9", 1), ("cw-gn2-10", 2)):
            act(e, "place_naval_base", {"base": b, "segment": seg}, by="CW")
        for tf, where in (("cw-ntf1", "3,2"), ("cw-ntf2", "3,2"), ("cw-ntf3", "3,11"), ("cw-ntf4", "3,2")):
            act(e, "deploy_tf", {"tf": tf, "where": where}, by="CW")
        for n in range(1, 7):
            act(e, "station_marines", {"unit": f"cw-mar{n}", "base": "cw-gn3-7"}, by="CW")
        act(e, "advance", by="CW")
        trm = sorted(u.id for u in e.state.units.values() if u.type == "trm" and u.side == "TOG")[0]
        cargo = sorted(
            u.id
            for u in e.state.units.values()
            if u.data.get("org") == "tog786" and u.type in ("medium_cohort", "legion_hq")
        )[:6]
        act(e, "load_transport", {"transport": trm, "units": cargo, "sp": 0}, by="TOG")
        act(e, "advance", by="TOG")
        _SETUP[key] = e.state.copy()
    state = _SETUP[key].copy()
    info = CampaignInfo(
        name="test",
        ruleset=plugin.id,
        ruleset_version=plugin.version,
        data_hash=plugin.data_hash(),
        scenario="invasion",
        seed=seed,
    )
    engine = Engine(plugin, state, info)
    engine.initial = state.copy()
    return engine
