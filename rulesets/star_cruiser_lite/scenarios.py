"""Scenarios (digest section 6). The seed has no playable order of battle, map or reinforcement
schedule (G-04, G-05): the demonstration campaign is invented and labelled so; the skeleton holds
only the seed's own facts and opens in set-up for the GM to import the real data."""

from __future__ import annotations

from campaign_tui.core.scenario import Scenario

SCENARIOS = [
    Scenario(
        "demo",
        "Demonstration campaign (invented data)",
        "A small French Arm at the outbreak of the Kafer invasion of 2301, with America, Britain and France "
        "against the Kafers. Map, ship classes and forces are made up for demonstration (provenance: demo) - "
        "not the rulebook's. Try the weekly loop here; import the real data for a true campaign.",
        ("AME", "BRI", "FRA", "KAF"),
        "open-ended (months of five weeks)",
        "scl.invasion",
        data={"file": "scenarios/demo.toml"},
        aliases=("demonstration", "6.2-demo"),
        provenance="demo",
    ),
    Scenario(
        "skeleton",
        "Invasion 2301 (skeleton from the seed)",
        "Only what the seed states: the nations (Manchuria not yet at war), the Core, Queen Alice's Star, "
        "BCV with the intelligence agencies, and Japan's flagship CG Agano. The GM imports the map, "
        "classes and orders of battle in set-up.",
        ("AME", "BRI", "FRA", "GER", "JAP", "MAN", "KAF"),
        "open-ended",
        "scl.invasion",
        data={"file": "scenarios/skeleton.toml"},
        aliases=("6.3", "invasion"),
        provenance="rulebook",
    ),
]
