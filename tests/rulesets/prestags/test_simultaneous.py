"""The simultaneous sequence: secret plots, their checks, strict phase order, hex-entry
conflicts and the opening of the plots at the end of the game."""

from __future__ import annotations

import pytest

from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from campaign_tui.store.files import bundle_text
from tests.rulesets.prestags.helpers import act, deployed, force, place, sim_to, u

SIM = {"simultaneous": True}


def test_plots_are_secret_per_side_until_the_game_ends():
    e = deployed({**SIM})
    e.perform("gm.set_var", {"name": "game_length", "value": "1"})
    st = e.status()
    assert st.step == "PLOT" and st.hidden_input and st.actor == "both"
    with pytest.raises(AdvanceRefused, match="Red, Blue"):
        e.advance()
    with pytest.raises(ActionRejected, match="only Red"):
        act(e, "plot", {"side": "A", "orders": "a-hc-01 DF"}, by="B")
    out = act(e, "plot", {"side": "A", "orders": "a-bw-01 OF 0508; a-hc-01 MV 0606 0607"}, by="A")
    assert out.entry.visibility == "A" and not out.entry.visible_to("B")
    assert "A" not in e.view("B").secrets and "orders" in str(e.view("A").secrets["A"])
    exported = bundle_text(e, "B")
    assert "0606 0607" not in exported and "0606" not in str(e.view("B").to_dict()["secrets"])
    with pytest.raises(AdvanceRefused, match="Blue"):
        e.advance()
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0610"}, by="B")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0610 0611"}, by="B")  # rewritten before closing
    e.advance()
    assert e.state.step == "FIRE_RES"
    with pytest.raises(ActionRejected, match="not allowed now"):
        act(e, "plot", {"side": "B", "orders": "b-lc-01 DF"}, by="B")
    sim_to(e, "VICTORY_CHECK")
    assert "A" not in e.view("B").secrets and not e.view("B").records("plots")
    act(e, "judge_victory")
    e.advance()
    opened = e.view("B").records("plots")
    assert opened["A-01"]["orders"]["a-hc-01"]["path"] == ["0606", "0607"]
    assert opened["B-01"]["orders"]["b-lc-01"]["path"] == ["0610", "0611"]


def test_plot_checks_capability_continuity_movement_points_and_range():
    """[20.4], [21.0], [22.11]: impossible orders become 'no plot'."""
    e = deployed({**SIM})
    act(
        e,
        "plot",
        {
            "side": "A",
            "orders": "\n".join(
                [
                    "a-sd-01 DF",  # a melee unit cannot use defensive fire
                    "a-bw-02 ML 0407",  # a dot unit cannot melee
                    "a-sd-03 MV 0407 0409",  # a gap in the path
                    "a-sd-04 MV 0405 0404 0403 0402 0401",  # 5 MP for an MA of 4
                    "a-bw-01 OF 0609",  # 3 hexes: beyond a range of 2
                    "a-hc-01 MV 0606 0607",  # fine
                ]
            ),
        },
        by="A",
    )
    orders = e.state.secrets["A"]["plot"]["orders"]
    problems = {k: o.get("problem", "") for k, o in orders.items()}
    assert "cannot fire: not a fire unit" in problems["a-sd-01"]
    assert "dot value" in problems["a-bw-02"]
    assert "not next to 0407" in problems["a-sd-03"]
    assert "the MA is 4" in problems["a-sd-04"]
    assert "beyond its range of 2" in problems["a-bw-01"]
    assert orders["a-hc-01"]["valid"] and orders["a-ldr-01"]["task"] == "none"
    with pytest.raises(ActionRejected, match="not a unit of this side"):
        act(e, "plot", {"side": "A", "orders": "b-sd-01 DF"}, by="A")


def test_phases_resolve_in_strict_order_and_cannot_be_skipped():
    e = deployed({**SIM})
    act(e, "plot", {"side": "A", "orders": "a-hc-01 MV 0606"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0610"}, by="B")
    e.advance()
    assert e.state.step == "FIRE_RES"
    with pytest.raises(AdvanceRefused, match="resolve the fire phase"):
        e.advance()
    with pytest.raises(ActionRejected, match="not allowed now"):
        act(e, "resolve_movement")
    sim_to(e, "PLOT")
    assert e.state.clock == {"gt": 2}
    assert u(e, "a-hc-01").location == "hex:0606" and u(e, "b-lc-01").location == "hex:0610"
    steps = [x.step for x in e.entries() if x.kind.startswith("resolve")]
    assert steps == ["FIRE_RES", "MELEE_RES", "MOVE_RES", "DF_RES"]


def test_the_stronger_force_enters_a_contested_hex_first():
    """[22.21], [22.22]: melee attack strength decides, brackets at face value; the other
    force stops."""
    e = deployed({**SIM}, seed=3)
    act(e, "plot", {"side": "A", "orders": "a-sd-03 MV 0407"}, by="A")  # SD 4 into 0407
    act(e, "plot", {"side": "B", "orders": "b-sk-01 MV 0407"}, by="B")  # SK [2] into 0407
    sim_to(e, "MOVE_RES")
    out = act(e, "resolve_movement")
    assert "melee attack strength 4 to 2" in "\n".join(out.entry.lines)  # brackets at face value [22.22]
    assert u(e, "a-sd-03").location == "hex:0407" and u(e, "b-sk-01").location == "hex:0408"


def test_tie_for_a_hex_is_rolled_and_logged():
    """[22.23]: equal strength: each side rolls a die, the higher enters first."""
    e = deployed({**SIM}, seed=3)
    place(e, "b-sd-03", "0408")
    place(e, "b-ax-01", "0100")
    place(e, "b-ax-02", "0100")
    place(e, "b-sk-01", "0100")
    act(e, "plot", {"side": "A", "orders": "a-sd-03 MV 0407"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-sd-03 MV 0407"}, by="B")
    sim_to(e, "MOVE_RES")
    out = act(e, "resolve_movement", {}, {"roll1": 2, "roll2": 5})
    assert [r.purpose for r in out.entry.rolls] == [
        "entry into 0407: Red (try 1)",
        "entry into 0407: Blue (try 1)",
    ]
    assert u(e, "b-sd-03").location == "hex:0407" and u(e, "a-sd-03").location == "hex:0406"


def test_forces_swapping_hexes_stop():
    """[22.3]: crossing the same hexside: both stop, no combat."""
    e = deployed({**SIM})
    place(e, "b-lc-01", "0407")
    place(e, "a-hc-01", "0406")
    for uid in ("a-sd-03", "a-sd-04", "a-bw-02"):
        place(e, uid, "0305")
    act(e, "plot", {"side": "A", "orders": "a-hc-01 MV 0407"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0406"}, by="B")
    sim_to(e, "MOVE_RES")
    out = act(e, "resolve_movement")
    assert "meet on a hexside and stop [22.3]" in "\n".join(out.entry.lines)
    assert u(e, "a-hc-01").location == "hex:0406" and u(e, "b-lc-01").location == "hex:0407"


def test_unit_plotted_to_move_defends_at_half():
    """[23.11]."""
    e = deployed({**SIM})
    place(e, "a-sd-03", "0407")
    act(e, "plot", {"side": "A", "orders": "a-sd-03 ML 0408"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-ax-01 MV 0409; b-ax-02 MV 0409"}, by="B")
    sim_to(e, "MELEE_RES")
    out = act(e, "resolve_melee", {}, force("-"))
    text = "\n".join(out.entry.lines)
    assert "Blue AX 1: x1/2 (plotted to move [23.11])" in text


def test_defensive_fire_only_at_units_that_moved_next_to_it():
    e = deployed({**SIM})
    act(e, "plot", {"side": "A", "orders": "a-bw-02 DF"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-ax-01 MV 0407"}, by="B")
    sim_to(e, "DF_RES")
    out = act(e, "resolve_df", {}, {"df:a-bw-02": "0407", **force("D")})
    assert u(e, "b-ax-01").status["disrupted"]
    assert u(e, "a-bw-02").status["last_fire"] == 1
    assert "Defensive fire resolution" in out.entry.summary


def test_fire_units_rest_a_game_turn_after_firing():
    """G-15: no fire in consecutive Game-Turns; the plot is 'no plot'."""
    e = deployed({**SIM})
    act(e, "plot", {"side": "A", "orders": "a-bw-02 DF"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-ax-01 MV 0407"}, by="B")
    sim_to(e, "DF_RES")
    act(e, "resolve_df", {}, {"df:a-bw-02": "0407", **force("-")})
    sim_to(e, "PLOT")
    act(e, "plot", {"side": "A", "orders": "a-bw-02 OF 0407"}, by="A")
    assert "fired in the previous Game-Turn" in e.state.secrets["A"]["plot"]["orders"]["a-bw-02"]["problem"]


def test_zone_of_an_unmoving_fire_unit_stops_movers():
    """[6.41], [21.1]: a fire unit plotted DF keeps its zone; one plotted MV loses it."""
    e = deployed({**SIM})
    place(e, "b-lc-01", "0403")
    act(e, "plot", {"side": "A", "orders": "a-bw-02 DF"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0404 0405 0505"}, by="B")
    sim_to(e, "MOVE_RES")
    act(e, "resolve_movement")
    assert u(e, "b-lc-01").location == "hex:0405"


def test_what_the_gm_rules_during_a_plot_stays_out_of_the_public_records():
    """Without a grid the GM answers adjacency for a plotted path; the answers must not
    appear in the records the other side sees [20.1]."""
    from campaign_tui.core.engine import Engine
    from rulesets.prestags import plugin
    from tests.rulesets.prestags.helpers import RED

    e = Engine.create(plugin, "training", {"simultaneous": True, "hex_grid": "gm"}, seed=2)
    act(e, "map_hexes", {"facts": "A=0505; 0505-0506 1; 0505-0406 1; 0505-0605 1"})
    e.advance()
    act(e, "deploy", {"placements": RED})
    e.perform("gm.goto", {"step": "PLOT"}, {"radius:A:1": ""})
    before = dict(e.state.records("pairs"))
    out = act(e, "plot", {"side": "A", "orders": "a-hc-01 MV 0606"}, {"adj:0605/0606": True}, by="A")
    assert out.entry.tags["rulings"] == ["adj:0605/0606"] and not out.entry.visible_to("B")
    assert e.state.secrets["A"]["plot"]["orders"]["a-hc-01"]["valid"]
    assert dict(e.state.records("pairs")) == before
