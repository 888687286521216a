"""The plugin, its scenario and the phase machine driven through set-up and whole weekly turns
with combat; plots hidden from the other side; the example save replays."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from rulesets.fifth_frontier_war import example, plugin
from tests.rulesets.fifth_frontier_war.helpers import new_engine


def set_up_to(step: str, **options: Any) -> Engine:
    """A campaign advanced through set-up until *step*."""
    e = new_engine(**options)
    order = [
        "SETUP_OPTIONS",
        "SETUP_SECRET_BASE",
        "SETUP_GUERRILLAS",
        "SETUP_IMPERIAL_DEPLOY",
        "SETUP_ZHODANI_DEPLOY",
    ]
    for current in order:
        if e.state.step == step:
            return e
        if current == "SETUP_SECRET_BASE":
            e.perform("choose_secret_base", {"world": "3017"}, by="zhodani")
        elif current == "SETUP_GUERRILLAS":
            e.perform("place_guerrillas", {"placements": "2109:3,2213:1,2314:2,2409:2,1510:2"}, by="zhodani")
        elif current == "SETUP_IMPERIAL_DEPLOY":
            e.perform("deploy_rest", {"side": "imperial"}, by="imperial")
        elif current == "SETUP_ZHODANI_DEPLOY":
            e.perform("deploy_rest", {"side": "zhodani"}, by="zhodani")
        e.advance()
    assert e.state.step == step
    return e


@pytest.fixture(scope="module")
def played() -> Engine:
    e = Engine.create(plugin, example.SCENARIO, example.OPTIONS, example.SEED, name=example.NAME)
    example.play(e)
    return e


def test_plugin_check() -> None:
    plugin.check()
    assert plugin.id == "fifth_frontier_war"
    assert {p.id for p in plugin.procedures().values()} >= {
        "space_fire",
        "squadrons_vs_sdb",
        "current_strength",
    }
    assert plugin.procedure("5.7").id == "squadrons_vs_sdb"
    assert plugin.procedure("T6").id == "current_strength"


def test_scenarios_open_on_their_first_prompt() -> None:
    for s in plugin.scenarios():
        e = Engine.create(plugin, s.id, seed=3)
        st = e.status()
        assert st.step == "SETUP_OPTIONS" and st.prompt
        assert len(e.state.records("worlds")) == 146
    e = Engine.create(plugin, "optional", seed=3)
    assert e.state.options["black_globes"] and e.state.options["squadron_quality"]


def test_requirements_refuse_an_early_advance() -> None:
    e = set_up_to("SETUP_SECRET_BASE")
    with pytest.raises(AdvanceRefused, match="secret base"):
        e.advance()
    with pytest.raises(ActionRejected):
        e.perform("choose_secret_base", {"world": "2314"}, by="zhodani")


def test_secret_base_and_plots_are_hidden_from_the_imperial_side(played: Engine) -> None:
    imperial = played.view("imperial")
    zhodani = played.view("zhodani")
    assert "plots" in zhodani.secrets.get("zhodani", {})
    assert zhodani.secrets["zhodani"]["secret_base"] == "3017"
    assert "zhodani" not in imperial.secrets
    plot_entries = [e for e in played.entries() if e.kind in ("plot", "choose_secret_base")]
    assert plot_entries and all(not e.visible_to("imperial") for e in plot_entries if e.by == "zhodani")
    assert all(e.visible_to("zhodani") for e in plot_entries if e.by == "zhodani")
    report = plugin.reports(imperial, "imperial")["Plots"]
    assert "40th Fleet" not in report
    assert "40th Fleet" in plugin.reports(zhodani, "zhodani")["Plots"]


def test_revealed_orders_become_public_turn_by_turn(played: Engine) -> None:
    orders = played.state.records("orders")
    assert orders["001-zho-40th"]["order"] == "J1608"
    assert orders["001-zho-40th"]["result"].startswith("jumps")
    view = played.view("imperial")
    assert "001-zho-40th" in view.records("orders")


def test_a_weekly_turn_with_a_combat_hex(played: Engine) -> None:
    """The example's turn 1: plotted jumps, refuelling, space combat at Mongo with bombing,
    the surrender of Ruby, then reorganization, plotting and the end of the turn."""
    steps = [e.step for e in played.entries()]
    for step in (
        "T_REINF",
        "T_REPL",
        "M_PLOTTED",
        "M_REFUEL",
        "SC3",
        "SB",
        "P_FLEET_ADJ",
        "P_PLOTTING",
        "END_OF_TURN",
    ):
        assert step in steps
    rolls = [r for e in played.entries() for r in e.rolls]
    assert any("space fire" in r.purpose for r in rolls)
    assert any("surface bombing" in r.purpose for r in rolls)
    assert played.state.records("worlds")["1409"]["controller"] == "zhodani"
    assert played.state.clock["turn"] == 4 and played.state.step == "T_REINF"
    assert played.state.vars["vp"]["zhodani"] == "11"


def test_the_example_replays_identically(played: Engine) -> None:
    replayed = Engine.replay(plugin, played.initial, played.info, played.entries())  # type: ignore[arg-type]
    assert replayed.state == played.state


def test_undo_restores_a_plotted_movement_step() -> None:
    e = Engine.create(plugin, example.SCENARIO, example.OPTIONS, example.SEED)
    example.setup(e)
    while e.state.step != "M_PLOTTED":
        e.advance()
    assert e.state.formations["zho-40th"].location == "1608"
    e.undo(confirm=True)
    assert e.state.formations["zho-40th"].location == "1507"


def test_reports_and_headline(played: Engine) -> None:
    heads = plugin.headline(played.state)
    assert set(heads) == {"imperial", "zhodani"}
    reports = plugin.reports(played.state, "gm")
    assert {"Victory points", "Situation", "Fuel", "Plots", "Changes of control", "Referee's view"} <= set(
        reports
    )
    assert "Ruby" in reports["Changes of control"]
    unit = played.state.units["zho-adm-11"]
    assert "precedence 11" in plugin.unit_stats(played.state, unit)
