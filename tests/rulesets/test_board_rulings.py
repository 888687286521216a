"""Issue 12: the board answers what it can. Each rule set's example plays through its
movement and combat steps; no ruling asks for adjacency, distance, direction, facing or line
of sight between hexes whose positions and terrain are known, and a map fact the GM gives is
asked once."""

from __future__ import annotations

import importlib
from collections import Counter

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.registry import registry

GEOMETRY = ("adj", "nextto", "dist", "dir", "front", "los", "letter")
# rule set -> (a movement step, a combat step) the example must pass through
STEPS = {
    "prestags": ("MOVE", "FIRE"),
    "prefect": ("P_MOVE.moving", "G_ROLL"),
    "fifth_frontier_war": ("M_PLOTTED", "SC3"),
    "star_cruiser_lite": ("W.ORDERS", "W.REPORT"),
    "second_sathar_war": ("UPF_MOVE", "B2"),
}


def played(rid: str) -> Engine:
    plugin = registry().load(rid)
    example = importlib.import_module(f"{plugin.package}.example")
    e = Engine.create(plugin, example.SCENARIO, getattr(example, "OPTIONS", {}), example.SEED, "auto",
                      example.NAME)
    example.play(e)
    return e


@pytest.mark.slow
@pytest.mark.parametrize("rid", sorted(STEPS))
def test_no_map_ruling_where_the_map_knows(rid):
    e = played(rid)
    visited = {en.step for en in e.entries()}
    assert set(STEPS[rid]) <= visited, sorted(visited)
    rulings = [r for en in e.entries() for r in en.tags.get("rulings", [])]
    assert not [r for r in rulings if r.split(":")[0] in GEOMETRY]
    facts_asked = Counter(r for r in rulings if r.startswith("map:"))
    assert all(n == 1 for n in facts_asked.values()), facts_asked


def test_prefect_start_line_is_a_map_fact_asked_once():
    from rulesets.prefect import plugin
    from rulesets.prefect.example import BASE_HEXES, demo_map

    e = Engine.create(plugin, "liberation", seed=3)
    e.perform("import_map", {"map": demo_map()})
    for base, hex_ in BASE_HEXES.items():
        e.perform("place_base", {"base": base, "hex": hex_})
    e.advance()
    e.perform("gm.map_fact", {"place": "1903", "fact": "west of the start line", "value": "true"})
    out = e.perform("place_tf", {"tf": "cw199-tf1", "hex": "1903"}, by="CW")
    assert "rulings" not in out.entry.tags
    e.undo()
    e.undo()  # the GM's fact is undone too: the question comes back, once, and is remembered
    out = e.perform("place_tf", {"tf": "cw199-tf1", "hex": "1903"},
                    {"map:west of the start line:1903": True}, by="CW")
    assert out.entry.tags["rulings"] == ["map:west of the start line:1903"]
    assert e.state.records("map")["1903"]["west of the start line"] is True


def test_prestags_with_the_demo_mapsheet_deploys_without_a_map_question():
    """Rome (4.0) ignores slope and hilltop hexes: applied, not asked. With the demonstration
    mapsheet imported, lettered hexes, range and terrain come from the map."""
    from pathlib import Path

    from rulesets.prestags import hexmap, plugin

    demo = Path(plugin.data_root() / "maps" / "demo_mapsheet.toml").read_text(encoding="utf-8")
    e = Engine.create(plugin, "chariot-rome", {}, seed=5)
    e.perform("gm.map_import", {"text": demo, "name": "demo_mapsheet.toml"})
    e.advance()
    side = e.status().actor
    grid = hexmap.GRIDS["odd-q"]
    zone_hex = hexmap.canon(e.state, "D" if side == "A" else "H")
    spots = iter(grid.within(zone_hex, 3))
    units = sorted(u.id for u in e.state.units.values() if u.side == side)
    out = e.perform("deploy", {"placements": "; ".join(f"{next(spots)}: {u}" for u in units)})
    assert "rulings" not in out.entry.tags
    assert all(e.state.units[u].location for u in units)
    ctx_state = e.state
    assert hexmap.line_of_sight(ctx_state, "2005", "2008", set()) is True  # slope 2006 ignored
    assert hexmap.line_of_sight(ctx_state, "0907", "0910", set()) is False  # woods 0908, 0909
    assert hexmap._elevations_ignored(ctx_state)
