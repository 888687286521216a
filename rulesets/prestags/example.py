"""The bundled example campaign: two Game-Turns of the synthetic training battle, standard
sequence, with Panic on and real rolls (with this seed Blue's army panics in Red's second
melee phase and a panicked unit flees in Blue's next Movement Phase).
``python tools/make_examples.py prestags`` writes it to saves/prestags-training.toml.

The battle is fought on an open field numbered as column-row hexes (option hex_grid odd-q),
so the program works out adjacency and range itself; the GM still rules each line of sight.
Orders that the rules refuse in the position reached (a unit already destroyed, a hex out of
reach) are skipped, so the script plays on whatever the dice decided.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, NeedDecision

SCENARIO = "training"
SEED = 35
NAME = "PRESTAGS training battle"
FILE = "prestags-training.toml"
OPTIONS = {"hex_grid": "odd-q", "panic": True}


def _answer(decision: Any) -> Any:
    """How the example's players and GM answer: every line of sight is clear; every other
    choice takes its default (the weakest units for a 1/2E, no advance)."""
    if decision.kind == "ruling":
        return True if decision.answer_kind == "bool" else decision.default
    return decision.default


def _do(engine: Engine, kind: str, params: dict[str, Any] | None = None) -> bool:
    answers: dict[str, Any] = {}
    for _ in range(20):
        try:
            engine.perform(kind, params or {}, answers)
            return True
        except NeedDecision as exc:
            answers[exc.decision.id] = _answer(exc.decision)
        except ActionRejected:
            return False
    return False


def _advance(engine: Engine) -> None:
    answers: dict[str, Any] = {}
    for _ in range(20):
        try:
            engine.advance(answers)
            return
        except NeedDecision as exc:
            answers[exc.decision.id] = _answer(exc.decision)
    raise RuntimeError("the example could not advance")


def _until(engine: Engine, step: str) -> None:
    for _ in range(12):
        if engine.state.step == step:
            return
        _advance(engine)


def _flee_path(engine: Engine, uid: str) -> list[str]:
    """A flight for a panicked unit on the open field: each step to a neighbouring hex
    farther from every enemy unit and not next to an enemy fire unit, as far as its MA goes."""
    from rulesets.prestags import hexmap, turns
    from rulesets.prestags.common import hex_of, info

    GRID = hexmap.GRIDS["odd-q"]

    state = engine.state
    unit = state.unit(uid)
    enemies = [x for x in state.units.values() if x.side != unit.side and hex_of(x)]
    fire = [str(hex_of(x)) for x in enemies if info(state, engine.ruleset, x).is_fire]
    here, path = str(hex_of(unit)), []
    for _ in range(int(turns.movement.ma_now(state, uid))):
        best = None
        for d in range(6):
            n = GRID.neighbour(here, d)
            if not n or any(GRID.distance(n, f) == 1 for f in fire):
                continue
            if all(
                GRID.distance(n, str(hex_of(x)))
                > GRID.distance(here, str(hex_of(x)))
                for x in enemies
            ):
                best = n
                break
        if best is None:
            break
        path.append(best)
        here = best
    return path


def _fits(engine: Engine, units: list[str], hex_id: str) -> bool:
    """Would the units end their move in *hex_id* within the stacking rules [5.3], [5.4]?"""
    from rulesets.prestags import movement
    from rulesets.prestags.common import info, units_at

    state = engine.state
    if any(uid not in state.units or state.unit(uid).status.get("state") != "active" for uid in units):
        return False
    side = state.unit(units[0]).side
    here = [info(state, engine.ruleset, u) for u in units_at(state, hex_id) if u.side == side]
    movers = [info(state, engine.ruleset, uid) for uid in units]
    troops = [i for i in [*here, *movers] if not i.is_leader]
    tables = engine.ruleset.tables()
    limit = movement.stack_limit(state, side, [i.code for i in troops])
    return len(troops) <= limit and not movement.classes_compatible(tables, [i.klass for i in troops])


def _player_turn(
    engine: Engine,
    fires: list[tuple[list[str], str]],
    moves: list[tuple[list[str], list[str]]],
    df: list[tuple[list[str], str]],
    melees: list[tuple[list[str], list[str]]],
) -> None:
    _until(engine, "FIRE")
    for firers, target in fires:
        _do(engine, "fire", {"firers": firers, "target": target})
    _advance(engine)
    if engine.state.step == "PANIC_MOVE":
        from rulesets.prestags.turns import panicked_to_flee

        for uid in panicked_to_flee(engine.state):
            _do(engine, "flee", {"unit": uid, "path": _flee_path(engine, uid)})
    _until(engine, "MOVE")
    for units, path in moves:
        if _fits(engine, units, path[-1]):
            _do(engine, "move", {"units": units, "path": path})
    _until(engine, "DEF_FIRE")
    for firers, target in df:
        _do(engine, "defensive_fire", {"firers": firers, "target": target})
    _until(engine, "MELEE")
    for attackers, targets in melees:
        _do(engine, "melee", {"attackers": attackers, "targets": targets})
    _advance(engine)


def play(engine: Engine) -> None:
    _do(engine, "map_hexes", {"facts": "A=0505; B=0509; C=0507"})
    _advance(engine)
    _do(
        engine,
        "deploy",
        {
            "placements": "0506: a-sd-01, a-sd-02, a-bw-01, a-ldr-01; "
            "0406: a-sd-03, a-sd-04, a-bw-02; 0605: a-hc-01, a-hc-02"
        },
    )
    _advance(engine)
    _do(
        engine,
        "deploy",
        {
            "placements": "0508: b-sd-01, b-sd-02, b-sd-03, b-ldr-01; "
            "0408: b-ax-01, b-ax-02, b-sk-01; 0608: b-sk-02; 0609: b-lc-01"
        },
    )
    _advance(engine)
    # Game-Turn 1, Red
    _player_turn(
        engine,
        fires=[(["a-bw-01"], "0508"), (["a-bw-02"], "0408")],
        moves=[
            (["a-hc-01", "a-hc-02"], ["0606", "0607"]),
            (["a-sd-01", "a-sd-02", "a-ldr-01"], ["0507"]),
            (["a-sd-03", "a-sd-04"], ["0407"]),
        ],
        df=[(["b-sk-01", "b-sk-02"], "0507"), (["b-sk-02"], "0607"), (["b-sk-01"], "0407")],
        melees=[(["a-sd-01", "a-sd-02", "a-hc-01", "a-hc-02"], ["0608"]), (["a-sd-03", "a-sd-04"], ["0408"])],
    )
    # Game-Turn 1, Blue
    _player_turn(
        engine,
        fires=[(["b-sk-01"], "0407"), (["b-sk-02"], "0607")],
        moves=[(["b-lc-01"], ["0608"])],
        df=[(["a-bw-01"], "0608"), (["a-bw-02"], "0408")],
        melees=[
            (["b-sd-01", "b-sd-02", "b-sd-03"], ["0507"]),
            (["b-ax-01", "b-ax-02"], ["0407"]),
            (["b-lc-01"], ["0607"]),
        ],
    )
    # Game-Turn 2, Red
    _player_turn(
        engine,
        fires=[(["a-bw-01"], "0508"), (["a-bw-02"], "0408")],
        moves=[(["a-hc-01", "a-hc-02"], ["0608"])],
        df=[(["b-sk-01"], "0407"), (["b-sk-02"], "0608")],
        melees=[
            (["a-sd-01", "a-sd-02"], ["0508"]),
            (["a-hc-01", "a-hc-02"], ["0609"]),
            (["a-sd-03", "a-sd-04"], ["0408"]),
        ],
    )
    # Game-Turn 2, Blue
    _player_turn(
        engine,
        fires=[(["b-sk-01"], "0407"), (["b-sk-02"], "0607")],
        moves=[],
        df=[(["a-bw-01"], "0507"), (["a-bw-02"], "0407")],
        melees=[(["b-sd-01", "b-sd-02", "b-sd-03"], ["0507"]), (["b-ax-01", "b-ax-02"], ["0407"])],
    )
    _until(engine, "FIRE")
