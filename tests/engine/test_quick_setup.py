"""Quick set-up: every scenario of every rule set that has one, as one logged GM action that
one undo removes."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected
from campaign_tui.registry import load_ruleset
from rulesets.prestags import hexmap

RULESETS = ("prestags", "fifth_frontier_war", "prefect", "star_cruiser_lite")


def _plain(state: dict) -> dict:
    """The state without the empty record collections an undo leaves behind."""
    out = dict(state)
    out["records"] = {k: v for k, v in state.get("records", {}).items() if v}
    return out


def _scenarios(rid: str) -> list[str]:
    return [s.id for s in load_ruleset(rid).scenarios()]


@pytest.mark.parametrize("rid", RULESETS)
def test_every_scenario_sets_up_in_one_action_and_one_undo_removes_it(rid: str) -> None:
    ruleset = load_ruleset(rid)
    for sid in _scenarios(rid):
        e = Engine.create(ruleset, sid, None, 11, "auto", "t")
        before = _plain(e.state.to_dict())
        length = len(e.history)
        out = e.perform("gm.quick_setup")
        assert len(e.history) == length + 1, sid
        assert out.entry.tags.get("quick_setup") is True
        assert out.entry.summary.startswith("Quick set-up"), sid
        assert e.state.step != before["meta"]["position"]["step"], sid  # set-up is done
        assert ruleset.quick_setup_why_not(e.state) is not None  # not offered twice
        with pytest.raises(ActionRejected):
            e.perform("gm.quick_setup")
        e.undo(confirm=True)
        assert _plain(e.state.to_dict()) == before, sid


def test_prestags_places_every_unit_inside_its_area_and_starts_play() -> None:
    e = Engine.create(load_ruleset("prestags"), "chariot-rome", None, 1, "auto", "t")
    e.perform("gm.quick_setup")
    assert e.state.clock.get("gt") == 1
    placed = [u for u in e.state.units.values() if u.location]
    assert len(placed) == len(e.state.units)
    grid = hexmap.geometry(e.state)
    assert grid is not None
    centres = {"A": hexmap.canon(e.state, "D"), "B": hexmap.canon(e.state, "H")}
    assert grid.parse(centres["A"]) and grid.parse(centres["B"]), "the demo mapsheet places them"
    for u in placed:  # areas D-3 and H-3 of Chariot's Rome scenario
        assert grid.distance(u.location.removeprefix("hex:"), centres[u.side]) <= 3
    assert e.missing() == []
    assert any("DEMONSTRATION" in line for line in e.entries()[-1].lines)


def test_ffw_quick_start_forms_fleets_on_both_sides() -> None:
    e = Engine.create(load_ruleset("fifth_frontier_war"), "campaign", None, 3, "auto", "t")
    e.perform("gm.quick_setup")
    fleets = [f for f in e.state.formations.values() if f.kind == "fleet"]
    assert {f.side for f in fleets} == {"imperial", "zhodani"}
    assert all(any(u.formation == f.id for u in e.state.units.values()) for f in fleets)
    assert e.state.step == "SETUP_INITIAL_PLOT"


def test_rule_set_without_quick_setup_says_so() -> None:
    from tests.demo_ruleset import plugin

    e = Engine.create(plugin, None, None, 1, "auto", "t")
    with pytest.raises(Exception, match="no quick set-up"):
        e.perform("gm.quick_setup")
    kinds = {c.kind: c for c in e.gm_choices()}
    assert kinds["gm.quick_setup"].available is False


@pytest.mark.parametrize(("sid", "options"), [("standard", {}), ("seed_start", {}),
                                              ("standard", {"shatter_drones": True})])
def test_ssw_quick_setup_after_the_sealed_condition(sid: str, options: dict) -> None:
    ruleset = load_ruleset("second_sathar_war")
    e = Engine.create(ruleset, sid, options, 5, "auto", "t")
    assert "seal their retreat condition" in (ruleset.quick_setup_why_not(e.state) or "")
    e.advance()
    e.perform("choose_retreat_condition", {"condition": 3}, by="SATHAR")
    e.advance()
    before = _plain(e.state.to_dict())
    e.perform("gm.quick_setup")
    assert e.state.step == "SFN_DECISION" and e.missing() == []
    assert e.state.secrets["SATHAR"]["retreat_condition"] == 3  # the secret stays theirs
    circles = {f.location for f in e.state.formations.values()
               if f.side == "SATHAR" and f.kind == "fleet"}
    assert len(circles) >= 2 and all(c.startswith("circle:") for c in circles)
    e.undo(confirm=True)
    assert _plain(e.state.to_dict()) == before


def test_ssw_resumed_campaign_has_nothing_to_set_up() -> None:
    ruleset = load_ruleset("second_sathar_war")
    e = Engine.create(ruleset, "seed_day13", None, 5, "auto", "t")
    assert "mid-war" in (ruleset.quick_setup_why_not(e.state) or "")


def test_prefect_liberation_places_every_base_and_counter_on_a_marked_placeholder_map() -> None:
    e = Engine.create(load_ruleset("prefect"), "liberation", None, 2, "auto", "t")
    out = e.perform("gm.quick_setup")
    assert "placeholder map" in e.state.vars["map_note"]
    assert any("placeholder map" in line for line in out.entry.lines)
    from rulesets.prefect.actions_setup import unplaced, unplaced_bases
    from rulesets.prefect.board import Board

    assert unplaced(e.state) == [] and unplaced_bases(e.state) == []
    board = Board(e.state)
    for f in e.state.formations.values():
        org = e.state.formations.get(f.parent or "")
        if f.location and f.location.startswith("hex:") and org and org.data.get("areas"):
            assert board.area_of(f.location[4:]) in org.data["areas"], f.id
    assert not e.state.step.startswith("P_SETUP")


def test_scl_quick_setup_gives_standing_orders_to_every_nation_at_war() -> None:
    e = Engine.create(load_ruleset("star_cruiser_lite"), "demo", None, 2, "auto", "t")
    e.perform("gm.quick_setup")
    assert e.state.step == "M0.ORDERS" and e.missing() == []
    e.advance()  # the referee can go on straight away
    assert e.state.step != "M0.ORDERS"


def test_cli_new_with_quick_setup(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    home = tmp_path / "home"
    run = [sys.executable, "-m", "campaign_tui", "--home", str(home)]
    made = subprocess.run([*run, "new", "prestags", "--scenario", "chariot-rome", "--seed", "3",
                           "--quick-setup"], capture_output=True, text=True, check=True)
    path = made.stdout.strip()
    status = subprocess.run([*run, "status", path], capture_output=True, text=True, check=True)
    assert "Set-up" not in status.stdout.splitlines()[1]
    undo = subprocess.run([*run, "undo", path], capture_output=True, text=True)
    assert undo.returncode == 0, undo.stderr
    status = subprocess.run([*run, "status", path], capture_output=True, text=True, check=True)
    assert "Set-up" in status.stdout.splitlines()[1]
