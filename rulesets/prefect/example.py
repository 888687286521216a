"""The bundled example campaign: Liberation, played a few turns with real rolls.

``python tools/make_examples.py prefect`` writes ``saves/prefect-liberation.toml`` from
``play(engine)``. The map is not in the rulebook (G2), so the example first imports a small
demonstration map (clearly not Ku Crassus: a grid of clear hexes with some forest, urban
and water, areas three columns wide) and answers the GM rulings a real table would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign_tui.core.decisions import Decision
from campaign_tui.core.engine import Engine, Outcome
from campaign_tui.core.errors import NeedDecision

SCENARIO = "liberation"
SEED = 6830
NAME = "Liberation (example)"
FILE = "prefect-liberation.toml"

# --- a demonstration map (NOT the Ku Crassus map, which the rulebook does not contain) -------
FOREST = {"0910", "1112", "2004", "1206"}
URBAN = {"2905": "Brake", "2613": "Fisherton", "1104": "Nambika Landing (demo)", "0713": "Crater City (demo)"}
WATER = {f"{c:02d}20" for c in range(1, 31)}
CITY_HOLDER = {"2905": "CW", "1104": "CW", "2613": "TOG", "0713": "TOG"}


def demo_map() -> str:
    """TOML text for import_map: columns 01-30, rows 01-20, area = 1 + (column - 1) // 3,
    clear unless listed."""
    lines = ['grid = "ccrr"', 'default_terrain = "clear"', "", "[area_columns]"]
    lines += [f'"{a}" = [{3 * a - 2}, {3 * a}]' for a in range(1, 11)]
    for h in sorted(FOREST | set(URBAN) | WATER):
        t = "forest" if h in FOREST else "urban" if h in URBAN else "water"
        lines.append(f'[hexes."{h}"]\nterrain = ["{t}"]')
    for h, name in URBAN.items():
        lines.append(f'[cities."{name}"]\nhex = "{h}"\ncontroller = "{CITY_HOLDER[h]}"')
    return "\n".join(lines)


BASE_HEXES = {
    "cw-gl2-1": "2002",
    "cw-gl2-2": "1102",
    "cw-gl3-3": "2102",
    "cw-gl4-4": "2902",
    "cw-gl4-5": "1902",
    "tog-gl2-1": "2614",
}
TF_HEXES = {
    "cw199": ["1903", "1905", "1907", "2003", "2005", "2007", "2103"],
    "cw3099": ["1010", "1110", "1210", "1008", "1108", "1208", "1006"],
    "cw543": ["1106", "1204", "1004"],
    "cw2acr": ["0405", "0505"],
    "cw212": ["2805", "2807"],
    "tog786": ["1011", "1111", "1211", "1013", "1113", "1213", "1015"],
    "tog4245": ["0711", "0811", "0911", "0715", "0813", "0913", "0815"],
    "tog609": ["2211", "2311", "2411"],
    "tog3914": ["2511", "2611", "2711", "2513"],
}
MILITIA_HEXES = [f"{c:02d}{r:02d}" for c in (1, 2, 4, 5, 14, 16, 17, 20, 21, 28, 29, 30) for r in (15, 17)]
GARRISON_HEXES = ["2515", "2615", "2715", "2517"]


def answer(d: Decision) -> Any:
    """How the example table answers: GM rulings in favour of the move asked about, players
    take the offered default."""
    if d.kind == "ruling":
        if d.id.startswith(("cutoff:", "nextto:")):
            return []
        return not d.id.startswith(("wdzoc:", "dropzoc:", "noretreat:"))
    if d.default is not None:
        return d.default
    if d.options:
        return d.options[0].value
    return 0


def act(
    engine: Engine,
    kind: str,
    params: dict[str, Any] | None = None,
    by: str = "gm",
    policy: Callable[[Decision], Any] = answer,
    answers: dict[str, Any] | None = None,
) -> Outcome:
    """Perform an action, answering each decision it asks for as a player would (*answers*
    may fix some beforehand, typed dice among them)."""
    answers = dict(answers or {})
    for _ in range(200):
        try:
            if kind == "advance":
                return engine.advance(answers, by=by)
            return engine.perform(kind, params or {}, answers, by=by)
        except NeedDecision as exc:
            answers[exc.decision.id] = policy(exc.decision)
    raise RuntimeError(f"{kind}: too many decisions")


def setup(engine: Engine) -> None:
    """Liberation set-up on the demonstration map."""
    act(
        engine,
        "note",
        {
            "text": "Example campaign on a DEMONSTRATION map: the Ku Crassus map is not in the "
            "rulebook (G2). Hexes, areas and cities here are invented for the example."
        },
    )
    act(engine, "import_map", {"map": demo_map()})
    for base, hex_ in BASE_HEXES.items():
        act(engine, "place_base", {"base": base, "hex": hex_})
    act(engine, "advance")
    queues: dict[str, list[tuple[str, str]]] = {"CW": [], "TOG": []}
    for org, hexes in TF_HEXES.items():
        tfs = sorted(
            (f for f in engine.state.formations.values() if f.parent == org and f.kind == "tf"),
            key=lambda f: int(f.status.get("number", 0)),
        )
        for f, h in zip(tfs, hexes):
            queues[f.side].append((f.id, h))
    militia = sorted(
        f.id for f in engine.state.formations.values() if f.kind == "independent" and f.side == "CW"
    )
    garrison = sorted(
        f.id for f in engine.state.formations.values() if f.kind == "independent" and f.side == "TOG"
    )
    queues["CW"] += list(zip(militia, MILITIA_HEXES))
    queues["TOG"] += list(zip(garrison, GARRISON_HEXES))
    while queues["CW"] or queues["TOG"]:
        side = engine.state.vars["roles"]["placer"]
        fid, h = queues[side].pop(0)
        act(engine, "place_tf", {"tf": fid, "hex": h}, by=side)
    act(engine, "advance")


def play(engine: Engine) -> None:
    setup(engine)
    # Turn 1: the Commonwealth attacks.
    act(engine, "move_tf", {"tf": "cw3099-tf4", "mode": "combat"}, by="CW")
    act(engine, "enter_hex", {"hex": "1009"}, by="CW")
    act(engine, "enter_hex", {"hex": "0909"}, by="CW")
    act(engine, "enter_hex", {"hex": "0810"}, by="CW")
    if engine.state.step == "P_MOVE.zoc":
        act(engine, "zoc_detect", {"tf": "tog4245-tf2"}, by="TOG")
        act(engine, "advance", by="TOG")
    if engine.state.step == "P_MOVE.moving":
        act(engine, "stop_move", by="CW")
    act(engine, "move_tf", {"tf": "cw543-tf1", "mode": "laf"}, by="CW")
    act(engine, "enter_hex", {"hex": "1107"}, by="CW")
    act(engine, "stop_move", by="CW")
    act(engine, "counter_move", {"tf": "tog786-tf4", "path": ["1012"]}, by="TOG")
    act(engine, "advance", by="CW")  # the Attacker ends movement
    act(engine, "advance", by="TOG")  # no more counteractions
    act(engine, "detect", {"tf": "cw3099-tf1", "target": "tog786-tf1"}, by="CW")
    act(engine, "detect", {"tf": "cw3099-tf2", "target": "tog786-tf2"}, by="CW")
    act(engine, "advance", by="CW")
    act(engine, "detect", {"tf": "tog786-tf2", "target": "cw3099-tf2"}, by="TOG")
    act(engine, "advance", by="TOG")
    act(
        engine, "declare_attack", {"attackers": ["cw3099-tf1", "cw3099-tf2"], "target": "tog786-tf1"}, by="CW"
    )
    act(engine, "declare_attack", {"attackers": ["cw3099-tf3"], "target": "tog786-tf3"}, by="CW")
    act(engine, "advance", by="CW")
    resolve_all(engine)
    supply_turn(engine)
    # Turn 2: whoever the Tempo Phase made Attacker moves one task force and attacks.
    attacker = engine.state.vars["roles"]["attacker"]
    move_into_zoc(engine, attacker, finish=True)
    combat_phase(engine, attacker)
    supply_turn(engine)
    # Turn 3: the Attacker's first move runs into a zone of control: the Defender decides.
    move_into_zoc(engine, engine.state.vars["roles"]["attacker"], finish=False)


def _board(engine: Engine) -> Any:
    from rulesets.prefect.board import Board

    return Board(engine.state, engine.catalog)


def _search_order(grid: Any) -> Any:
    """The neighbours of a hex in the order the example table tries them: north, south,
    then the upper and the lower pair, west before east."""

    def order(h: str) -> list[str]:
        c, r = int(h[:2]), int(h[2:])
        return sorted(grid.neighbours(h), key=lambda n: (int(n[:2]) != c, int(n[2:]) - r, int(n[:2]) - c))

    return order


def move_into_zoc(engine: Engine, side: str, finish: bool) -> None:
    """Move one of *side*'s task forces to a clear hex next to an enemy task force; when it
    enters the zone of control the Defender is asked; with *finish* the move is completed."""
    from rulesets.prefect.board import hex_grid, loc_hex, other

    grid_neighbours = _search_order(hex_grid(engine.state))

    board = _board(engine)
    enemy = other(side)
    taken = {loc_hex(f.location) for f in board.ground_forces()}
    enemy_hexes = {loc_hex(f.location) for f in board.ground_forces(enemy) if f.kind == "tf"}
    for f in sorted(board.ground_forces(side), key=lambda x: x.id):
        if f.kind != "tf" or not board.combat_units(f.id) or board.fatigue(f.id) >= 2:
            continue
        start = loc_hex(f.location) or ""
        for step1 in grid_neighbours(start):
            if step1 in taken or board.loose_at(step1) or step1 in FOREST | set(URBAN) | WATER:
                continue
            if any(n in enemy_hexes for n in grid_neighbours(step1)) and not any(
                n in enemy_hexes for n in grid_neighbours(start)
            ):
                act(engine, "move_tf", {"tf": f.id, "mode": "combat"}, by=side)
                act(engine, "enter_hex", {"hex": step1}, by=side)
                if not finish:
                    return
                if engine.state.step == "P_MOVE.zoc":
                    defender = engine.status().actor
                    for tf in engine.state.vars["zoc"]["tfs"]:
                        act(engine, "zoc_detect", {"tf": tf}, by=defender)
                    act(engine, "advance", by=defender)
                if engine.state.step == "P_MOVE.moving":
                    act(engine, "stop_move", by=side)
                act(engine, "advance", by=side)
                act(engine, "advance", by=enemy)
                return
    act(engine, "advance", by=side)
    act(engine, "advance", by=enemy)


def combat_phase(engine: Engine, side: str) -> None:
    """Detection attempts by both sides, then up to two attacks on adjacent task forces."""
    from rulesets.prefect.board import hex_grid, loc_hex, other

    grid_neighbours = _search_order(hex_grid(engine.state))

    enemy = other(side)
    for who in (side, enemy):
        board = _board(engine)
        for f in sorted(board.ground_forces(who), key=lambda x: x.id):
            if f.kind != "tf" or f.status.get("moved_laf") or f.status.get("counter_detect"):
                continue
            near = [
                g
                for g in board.ground_forces(other(who))
                if g.kind == "tf"
                and not board.detected(g.id)
                and loc_hex(g.location) in grid_neighbours(loc_hex(f.location) or "")
            ]
            if near:
                act(engine, "detect", {"tf": f.id, "target": near[0].id}, by=who)
                break
        act(engine, "advance", by=who)
    board = _board(engine)
    used: set[str] = set()
    declared = 0
    for g in sorted(board.ground_forces(enemy), key=lambda x: x.id):
        if g.kind != "tf" or declared >= 2:
            continue
        near = [
            f.id
            for f in board.ground_forces(side)
            if f.kind == "tf"
            and f.id not in used
            and board.fatigue(f.id) < 3
            and board.combat_units(f.id)
            and loc_hex(f.location) in grid_neighbours(loc_hex(g.location) or "")
        ]
        if near:
            act(engine, "declare_attack", {"attackers": near[:2], "target": g.id}, by=side)
            used.update(near[:2])
            declared += 1
    act(engine, "advance", by=side)
    resolve_all(engine)


def resolve_all(engine: Engine) -> None:
    while engine.state.vars.get("attacks"):
        side = engine.state.vars["roles"]["attacker"]
        act(engine, "resolve_attack", {"attack": engine.state.vars["attacks"][0]["id"]}, by=side)
        finish_combat(engine)
    act(engine, "advance", by=engine.state.vars["roles"]["attacker"])
    if engine.state.step == "P_COMBAT.bombard":
        act(engine, "orbital_bombardment", by="TOG")
        act(engine, "advance", by="TOG")


def finish_combat(engine: Engine) -> None:
    """Take a combat through its steps: shift (the undetected side shifts in its favour),
    roll, retreats to a free neighbouring hex, no advance."""
    from rulesets.prefect.board import Board, hex_grid

    for _ in range(20):
        step = engine.state.step
        if not step.startswith("G_"):
            return
        c = engine.state.vars.get("combat") or {}
        if step == "G_SHIFT":
            who = c["shifter"]
            want = "right" if who == c["att_side"] else "left"
            opts = {-1: "left", 0: "none", 1: "right"}
            choice = want if {"left": -1, "right": 1}[want] in c.get("shift_options", []) else "none"
            act(engine, "choose_shift", {"shift": choice if choice in opts.values() else "none"}, by=who)
        elif step == "G_ROLL":
            act(engine, "roll_combat", by=c["att_side"])
        elif step == "G_RETREAT" and c.get("retreats"):
            entry = c["retreats"][0]
            board = Board(engine.state, engine.catalog)
            left = set(c.get("att_hexes", {}).values())
            for h in _search_order(hex_grid(engine.state))(entry["from"]):
                if board.forces_at(h, "CW" if entry["side"] == "TOG" else "TOG") or h in left:
                    continue
                if board.loose_at(h, "CW" if entry["side"] == "TOG" else "TOG") or h.endswith("20"):
                    continue
                act(engine, "retreat", {"tf": entry["id"], "hex": h}, by=entry["side"])
                break
            else:
                act(engine, "retreat", {"tf": entry["id"], "hex": "none"}, by=entry["side"])
        else:
            act(engine, "advance")


def supply_turn(engine: Engine) -> None:
    """Supply, withdrawal and adjustment with a few real choices, then the Tempo Phase."""
    att = engine.state.vars["roles"]["attacker"]
    dfn = engine.state.vars["roles"]["defender"]
    for side in (att, dfn):
        tired = [
            f
            for f in engine.state.formations.values()
            if f.side == side and f.kind == "tf" and f.status.get("fatigue", 0) > 0 and f.location
        ]
        if tired:
            act(engine, "rearm", {"tf": tired[0].id, "levels": 1}, by=side)
        act(engine, "advance", by=side)
    if engine.state.step == "P_SUPPLY.income":
        act(engine, "scenario_supply")
        act(engine, "advance")
    if engine.state.step == "P_WITHDRAW.loc":
        if engine.state.vars.get("lines_checked") != engine.state.clock.get("turn"):
            act(engine, "check_lines")
        act(engine, "advance")
    act(engine, "advance")  # withdrawal moves
    act(engine, "advance")  # adjustment, then tempo and the next turn
