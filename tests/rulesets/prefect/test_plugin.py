"""The plugin as a whole: its declarations check, scenarios open on their first prompt,
options and catalog carry their provenance, the example save replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign_tui.core.engine import Engine
from rulesets.prefect import plugin

ROOT = Path(__file__).resolve().parents[3]


def test_plugin_check() -> None:
    plugin.check()


@pytest.mark.parametrize(
    ("sid", "machine", "step"),
    [
        ("liberation", "prefect.planetary", "P_SETUP.arrange"),
        ("holding_the_line", "prefect.space", "S_SETUP.first"),
        ("invasion", "prefect.campaign", "P_SETUP.arrange"),
    ],
)
def test_scenarios_open_on_their_first_prompt(sid: str, machine: str, step: str) -> None:
    e = Engine.create(plugin, sid, seed=5)
    assert e.state.machine == machine and e.state.step == step
    st = e.status()
    assert st.prompt and not st.final
    assert plugin.scenario(sid).aliases


def test_scenario_orders_of_battle() -> None:
    e = Engine.create(plugin, "liberation", seed=5)
    s = e.state
    cw199 = [u for u in s.units.values() if u.data.get("org") == "cw199"]
    assert len([u for u in cw199 if u.type == "medium_cohort"]) == 9
    assert not [u for u in cw199 if u.type == "air_defense"]  # not used in Liberation
    assert len([f for f in s.formations.values() if f.kind == "independent" and f.side == "CW"]) == 24
    assert len([f for f in s.formations.values() if f.kind == "independent" and f.side == "TOG"]) == 4
    assert s.vars["roles"] == {"attacker": "CW", "defender": "TOG", "setup": "CW"}
    hq = next(u for u in s.units.values() if u.type == "legion_hq" and u.side == "TOG")
    assert hq.status["supply"] == 15  # starts full
    inv = Engine.create(plugin, "invasion", seed=5).state
    militia = [u for u in inv.units.values() if u.type == "militia_regiment"]
    assert sorted(u.data["arrives"] for u in militia) == list(range(1, 25))  # to turn 24 inclusive (G29)
    assert inv.vars["rebuild_limit"] == {"CW": 3, "TOG": 4}
    htl = Engine.create(plugin, "holding_the_line", seed=5).state
    convoy = [f for f in htl.formations.values() if f.data.get("group") == "convoy"]
    assert len(convoy) == 9
    assert sorted(f.status.get("tspace_box") for f in convoy if f.location == "tspace") == [1, 2, 3, 4, 5, 6]
    for f in convoy:
        assert len([u for u in htl.units.values() if u.formation == f.id and u.type in ("trl", "trm")]) == 1


def test_options_come_with_defaults_and_explanations() -> None:
    opts = {o.id: o for o in plugin.options()}
    for o in opts.values():
        assert o.help and o.reference and o.label
    assert opts["legion_tf_limit"].default == 18
    assert opts["laf_save_mod"].default == "+2"
    assert opts["engineer_mode"].default == "help"
    assert opts["space_tempo"].default == "btca"
    assert opts["naval_vp_factor"].default == "2"


def test_catalog_marks_unverified_values() -> None:
    cat = plugin.catalog()
    med = cat.type("medium_cohort")
    assert med.attrs["attack"] == 3 and med.provenance_of("attack").grade == "rulebook"
    assert med.provenance_of("sig").grade == "default" and not med.verified
    assert cat.type("p_sqd").attrs["ftr"] == 4  # G19
    assert cat.type("on1").attrs["esm"] == 2 and cat.type("gn2").attrs["defense"] == 6
    e = Engine.create(plugin, "liberation", seed=5)
    u = e.state.units["cw3099-med1"]
    assert "values unverified" in plugin.badges(e.state, u)
    assert "*" in plugin.unit_stats(e.state, u)


def test_every_machine_step_names_a_reference_and_an_outline_exists() -> None:
    for m in plugin.machines().values():
        assert m.outline()
        for step in m.steps.values():
            assert step.reference or step.final, step.id


@pytest.mark.parametrize("name", ["prefect-liberation.toml", "prefect-holding-the-line.toml"])
def test_example_save_opens_and_replays(name: str) -> None:
    from campaign_tui.campaigns import open_path

    path = ROOT / "saves" / name
    if not path.exists():
        pytest.skip("run python tools/make_examples.py prefect / python -m rulesets.prefect.example_space")
    opened = open_path(path, read_only=True)
    engine = opened.engine
    entries = engine.entries()
    replayed = Engine.replay(engine.ruleset, engine.state_at(0), engine.info, entries)
    assert replayed.state == engine.state
    assert any(r for e in entries for r in e.rolls)
    assert engine.status().prompt


def test_reports_are_built_from_the_viewers_view() -> None:
    from tests.rulesets.prefect.helpers import liberation

    e = liberation()
    tog = plugin.reports(e.view("TOG"), "TOG")
    assert "TOG record sheet" in tog and "CW record sheet" not in tog
    assert "cw3099-med1" not in tog["TOG record sheet"]
    assert "Unverified values" in tog
