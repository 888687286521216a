"""A large demo campaign (thousands of units, tens of thousands of log entries) for the
paging tests and the startup benchmark. Built through engine actions, like a real one."""

from __future__ import annotations

import time
from pathlib import Path

from campaign_tui.core.engine import Engine
from campaign_tui.store.files import create_campaign


def make_big(path: Path, units: int = 2000, entries: int = 20000, seed: int = 7,
             save_every: int = 1000, per_formation: int = 100) -> Path:
    """Create a folder campaign at *path* with *units* extra units and about *entries*
    log entries (half of them combats with two rolls each)."""
    import campaign_tui.core.engine as engine_module
    from tests.demo_ruleset import plugin

    strict, engine_module.STRICT = engine_module.STRICT, False   # speed: no full-state checks
    try:
        return _make(plugin, path, units, entries, seed, save_every, per_formation)
    finally:
        engine_module.STRICT = strict


def _make(plugin: object, path: Path, units: int, entries: int, seed: int, save_every: int,
          per_formation: int) -> Path:

    engine = Engine.create(plugin, "skirmish", {"turns": 20}, seed, "auto",  # type: ignore[arg-type]
                           "Big campaign")
    store = create_campaign(engine, path)
    try:
        for f in range(max(1, -(-units // per_formation))):
            side = "A" if f % 2 == 0 else "B"
            engine.perform("gm.add_formation", {"side": side, "name": f"Brigade {f + 1}",
                                                "id": f"bde{f + 1}"})
        n = 0
        while n < units:
            f = n // per_formation
            side = "A" if f % 2 == 0 else "B"
            engine.perform("gm.add_unit", {"type": "infantry" if n % 3 else "tank",
                                           "side": side, "formation": f"bde{f + 1}",
                                           "name": f"{side} unit {n + 1}", "id": f"u{n + 1}"})
            n += 1
            if len(engine.history) % save_every == 0:
                store.save(engine)
        engine.perform("gm.goto", {"step": "combat_start"})
        while len(engine.history) < entries:
            engine.perform("gm.set_var", {"name": "attacks", "value": [
                {"attackers": ["a-tank"], "target": "b-inf"}]})
            engine.perform("resolve", {}, {"shift": "0"})
            if len(engine.history) % save_every < 2:
                store.save(engine)
        store.save(engine)
    finally:
        store.close()
    return path


if __name__ == "__main__":
    import sys
    import tempfile

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "big"
    t0 = time.perf_counter()
    make_big(out, int(sys.argv[2]) if len(sys.argv) > 2 else 2000,
             int(sys.argv[3]) if len(sys.argv) > 3 else 20000)
    print(out, f"{time.perf_counter() - t0:.1f}s")
