"""Generate the large benchmark campaign: 2,000 units in a deep order of battle, 20,000
logged actions with rolls, a year of turns, saved as a campaign folder.

Generic over rule sets: units come from the rule set's own catalog, the actions roll dice
and change a declared status field, and the outer clock advances 52 times (a year of
weekly turns, with a bookmark and a snapshot at each).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.context import Ctx
from campaign_tui.core.engine import Engine
from campaign_tui.core.model import Formation
from campaign_tui.registry import load_ruleset
from campaign_tui.store.files import FolderStore

SEED = 20261121


@dataclass
class Large:
    path: Path
    ruleset: str
    units: int
    actions: int
    seconds: float


def _status_field(engine: Engine) -> tuple[str, Any, Any]:
    """An integer status field to change, with its bounds (or a bool)."""
    for name, f in engine.catalog.status.items():
        if f.type == "int" and f.max is not None:
            return name, int(f.min or 0), int(f.max)
    for name, f in engine.catalog.status.items():
        if f.type == "bool":
            return name, False, True
    raise RuntimeError("the rule set declares no int or bool status field")


def _skirmish(field: tuple[str, Any, Any]) -> ActionDef:
    name, low, high = field

    def handler(ctx: Ctx, unit: str) -> None:
        u = ctx.unit(unit)
        r = ctx.roll("1d10", f"benchmark fire at {u.label}", table="bench", side=u.side,
                     modifiers=[("cover", -1)], target=6)
        r2 = ctx.roll("2d6", "benchmark saving roll", side=u.side)
        if isinstance(low, bool):
            u.status[name] = r.natural > 5
        else:
            u.status[name] = max(low, min(high, (r.natural + r2.natural) % (high + 1)))
        ctx.result(r, "hit" if r.modified >= 6 else "miss", ["target 6, cover -1"])
        ctx.summary(f"{u.label}: fire {r.natural}, save {r2.natural}")

    return ActionDef("bench.skirmish", "Benchmark skirmish", handler)


def generate(folder: Path, ruleset: str, units: int = 2000, actions: int = 20000,
             turns: int = 52, save_every: int = 100) -> Large:
    start = time.perf_counter()
    rs = load_ruleset(ruleset)
    engine = Engine.create(rs, seed=SEED, name=f"Large {rs.name}")
    store = FolderStore.create(engine, folder)
    rnd = random.Random(SEED)
    types = list(engine.catalog.types)
    sides = list(engine.state.sides)
    clock_level = engine.machine.clock[0].name if engine.machine.clock else None
    done = 0

    def add_formation(f: Formation) -> None:
        engine.perform("gm.add_formation", {"side": f.side, "name": f.name, "kind": f.kind,
                                            "parent": f.parent or "", "id": f.id,
                                            "location": f.location or ""})

    # a deep order of battle: side > army > corps > division > brigade > units
    created = 0
    per_side = units // len(sides)
    for side in sides:
        army = f"bench-{side}-army"
        add_formation(Formation(army, side, f"{side} Army", "army"))
        brigades: list[str] = []
        for c in range(4):
            corps = f"{army}-c{c}"
            add_formation(Formation(corps, side, f"{side} Corps {c + 1}", "corps", army))
            for d in range(5):
                div = f"{corps}-d{d}"
                add_formation(Formation(div, side, f"Division {d + 1}", "division", corps))
                for b in range(5):
                    brig = f"{div}-b{b}"
                    add_formation(Formation(brig, side, f"Brigade {b + 1}", "brigade", div,
                                            f"hex:{rnd.randrange(1, 40):02d}{rnd.randrange(1, 40):02d}"))
                    brigades.append(brig)
        for i in range(per_side):
            uid = f"bench-{side}-{i:04d}"
            engine.perform("gm.add_unit", {"type": rnd.choice(types), "side": side, "id": uid,
                                           "name": f"{side} unit {i + 1}",
                                           "formation": brigades[i % len(brigades)]})
            created += 1
            done += 1
            if done % save_every == 0:
                store.save(engine)
    store.save(engine)
    field = _status_field(engine)
    skirmish = _skirmish(field)
    unit_ids = [u for u in engine.state.units if u.startswith("bench-")]
    per_turn = max(1, (actions - done) // turns)
    while done < actions:
        if clock_level and done % per_turn == 0:
            engine.perform("gm.set_clock", {"level": clock_level,
                                            "value": engine.state.clock[clock_level] + 1})
        else:
            engine._run(skirmish, {"unit": rnd.choice(unit_ids)}, {}, "gm", False, False)
        done += 1
        if done % save_every == 0:
            store.save(engine)
    store.save(engine)
    store.close()
    return Large(folder, ruleset, created, len(engine.history), time.perf_counter() - start)
