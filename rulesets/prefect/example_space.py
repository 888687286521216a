"""A second bundled example: Holding the Line (the space game), a turn and a half with real
rolls, stopped where the Commonwealth must decide whether to intercept a TOG convoy.

Write it with ``python -m rulesets.prefect.example_space`` (tools/make_examples.py writes
only the rule set's first example, ``example.py``).
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.engine import Engine
from rulesets.prefect.example import act

SCENARIO = "holding_the_line"
SEED = 6830
NAME = "Holding the Line (example)"
FILE = "prefect-holding-the-line.toml"

FIRST_MISSIONS = {
    "cw-ntf1": "sector_defense",
    "cw-ntf2": "sector_defense",
    "cw-ntf3": "sector_defense",
    "cw-ntf4": "supply",
    "tog-ntf1": "attack",
    "tog-ntf2": "hs_attack",
    "tog-ntf9": "supply",
    "tog-ntf10": "supply",
    "tog-ntf11": "supply",
}
SEGMENTS = {"cw-ntf1": 1, "cw-ntf2": 9, "cw-ntf3": 1}


def deploy(e: Engine) -> None:
    for tf, where in (("cw-ntf1", "5,12"), ("cw-ntf2", "3,2"), ("cw-ntf3", "3,11")):
        act(e, "deploy_tf", {"tf": tf, "where": where}, by="CW")
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


def missions(e: Engine, plan: dict[str, str]) -> None:
    from rulesets.prefect.board import Board

    board = Board(e.state, e.catalog)
    for f in board.naval_tfs():
        if not (f.location == "outsystem" or (f.location or "").startswith("sector:")) or not board.units(
            f.id
        ):
            continue
        mission = plan.get(f.id, "supply")
        if any(u.status.get("disrupted") for u in board.units(f.id)) and f.location != "outsystem":
            mission = "withdrawal"
        params: dict[str, Any] = {"tf": f.id, "mission": mission}
        if mission == "sector_defense":
            params["segment"] = SEGMENTS.get(f.id, 1)
        act(e, "set_mission", params, by=f.side)
    act(e, "advance")


def resolve_missions(e: Engine, side: str) -> None:
    from rulesets.prefect.actions_space import intercept_candidates, missions_left

    while missions_left(e.state):
        left = missions_left(e.state)
        here = (e.state.vars.get("mission_sector") or {}).get("sector")
        tf = next((x for x in left if e.state.formations[x].location == f"sector:{here}"), left[0])
        act(e, "start_mission", {"tf": tf}, by=side)
        m = e.state.vars["mission"]
        units = [u.id for u in e.state.units.values() if u.formation == tf and not u.status.get("disrupted")]
        if m["mission"] in ("attack", "hs_attack"):
            act(e, "commit_units", {"units": [u for u in units if "_f" in u]}, by=side)
        else:
            act(e, "commit_units", {}, by=side)
        while e.state.step.startswith("M_"):
            step = e.state.step
            if step == "M_INTERCEPT":
                cands = intercept_candidates(e.state)
                if cands:
                    act(e, "intercept", {"units": cands[:4]}, by=e.status().actor)
                else:
                    act(e, "advance", by=e.status().actor)
            elif step == "M_SEGMENT":
                act(
                    e,
                    "choose_segment",
                    {"segment": 9 if e.state.vars["mission"]["sector"] == "3,2" else 1},
                    by=side,
                )
            elif step == "M_RESOLVE":
                act(e, "resolve_mission", {}, by=side)
            elif step == "M_AFTER":
                m = e.state.vars["mission"]
                if m["mission"] == "orbital_drop":
                    for uid in m["committed"]:
                        if e.state.units[uid].type in ("trl", "trm") and not e.state.units[uid].status.get(
                            "disrupted"
                        ):
                            act(e, "deliver_field_supply", {"transport": uid, "amount": 10}, by=side)
                            break
                act(e, "advance", by=side)
            else:
                act(e, "advance", by=e.status().actor)


def half(e: Engine, side: str, exits: list[tuple[str, str]], moves: list[tuple[str, str]]) -> None:
    for tf, sector in exits:
        if e.state.formations.get(tf) and e.state.formations[tf].location == "tspace":
            act(e, "exit_tspace", {"tf": tf, "sector": sector}, by=side)
    act(e, "advance", by=side)
    if e.state.step.endswith("REACT"):
        act(e, "advance", by=e.status().actor)
    for tf, sector in moves:
        if e.state.formations.get(tf) and (e.state.formations[tf].location or "").startswith("sector:"):
            act(e, "move_naval", {"tf": tf, "sector": sector}, by=side)
    for f in list(e.state.formations.values()):
        if (
            f.side == side
            and f.status.get("mission") == "withdrawal"
            and (f.location or "").startswith("sector:")
            and not f.status.get("withdraw_to")
        ):
            act(e, "declare_withdrawal", {"tf": f.id, "destination": "outsystem"}, by=side)
    act(e, "advance", by=side)
    resolve_missions(e, side)
    act(e, "advance", by=side)
    if e.state.step.endswith("WITHDRAW"):
        act(e, "advance", by=e.status().actor)


def regroup(e: Engine) -> None:
    """Task Force Adjustment: each side's disrupted ships in a sector go into one task force."""
    from rulesets.prefect.board import Board

    board = Board(e.state, e.catalog)
    seen: dict[tuple[str, str], str] = {}
    for f in sorted(board.naval_tfs(), key=lambda x: x.id):
        if not (f.location or "").startswith("sector:"):
            continue
        dis = [u.id for u in board.units(f.id) if u.status.get("disrupted")]
        if not dis:
            continue
        key = (f.side, f.location or "")
        if key not in seen:
            seen[key] = f.id
        else:
            act(e, "naval_transfer", {"units": dis, "to_tf": seen[key]}, by=f.side)
    act(e, "advance")


def play(e: Engine) -> None:
    deploy(e)
    missions(e, FIRST_MISSIONS)
    half(e, "TOG", [("tog-ntf3", "3,2"), ("tog-ntf4", "3,2")], [("tog-ntf1", "3,2")])
    half(e, "CW", [], [])
    regroup(e)
    act(e, "advance", by="TOG")
    act(e, "advance", by="CW")
    # Turn 2: missions, then the Attacker brings the next convoy out of T-space
    missions(
        e,
        {
            **FIRST_MISSIONS,
            "tog-ntf1": "attack",
            "tog-ntf2": "attack",
            "tog-ntf3": "supply",
            "tog-ntf4": "supply",
        },
    )
    if e.state.vars["roles"]["attacker"] == "CW":
        half(e, "CW", [], [])  # the Commonwealth holds its sectors: nothing to bring in or move
    convoy(e)


def convoy(e: Engine) -> None:
    """TOG brings a convoy out of T-space at the planet and starts its mission; the example
    stops where the Commonwealth decides whether to intercept it."""
    act(e, "exit_tspace", {"tf": "tog-ntf5", "sector": "3,2"}, by="TOG")
    act(e, "advance", by="TOG")
    if e.state.step.endswith("REACT"):
        act(e, "advance", by="CW")
    act(e, "advance", by="TOG")
    act(e, "start_mission", {"tf": "tog-ntf5"}, by="TOG")
    act(e, "commit_units", {}, by="TOG")


def main() -> int:
    from pathlib import Path

    from campaign_tui.store.files import export_bundle
    from rulesets.prefect import plugin

    engine = Engine.create(plugin, SCENARIO, {}, SEED, "auto", NAME)
    play(engine)
    out = Path(__file__).resolve().parents[2] / "saves" / FILE
    export_bundle(engine, out)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
