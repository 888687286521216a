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
