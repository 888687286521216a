"""Shared helpers for store tests: a demo campaign with some history."""

from __future__ import annotations

from pathlib import Path

from campaign_tui.core.engine import Engine
from campaign_tui.registry import load_ruleset, reset_registry
from campaign_tui.store.files import FolderStore, Opened, open_campaign

ADJ = {"adj:b-inf": "yes"}


def loader(rid: str):
    reset_registry()
    return load_ruleset(rid)


def played(engine: Engine, rounds: int = 1) -> Engine:
    """Play *rounds* full turns of the demo (moves, an attack with rolls, advances)."""
    for _ in range(rounds):
        if engine.step.final:
            break
        if engine.state.step == "setup":
            engine.advance()
        side = engine.state.vars["roles"]["phasing"]
        mine = [u for u in engine.state.units.values()
                if u.side == side and not u.status["destroyed"]]
        engine.perform("move", {"unit": mine[0].id, "to": f"hex:0{len(engine.history) % 9}01"})
        engine.advance()
        if side == "A" and not engine.state.unit("b-inf").status["destroyed"]:
            engine.perform("declare", {"attackers": ["a-inf", "a-tank"], "target": "b-inf"}, ADJ)
            engine.advance()
            engine.perform("resolve", answers={"shift": "0"})
        engine.advance()
    return engine


def new_folder(demo, path: Path, rounds: int = 1, seed: int = 5) -> FolderStore:
    engine = Engine.create(demo, seed=seed, name="Store test")
    store = FolderStore.create(engine, path)
    played(engine, rounds)
    store.save(engine)
    return store


def reopen(path: Path, read_only: bool = False) -> Opened:
    return open_campaign(path, loader, read_only)
