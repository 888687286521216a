"""Hidden information (digest 1.2, 9.1): each side's record sheets are secret; the other
side sees task-force counters, map markers and what was detected or announced."""

from __future__ import annotations

from rulesets.prefect.board import Board
from tests.rulesets.prefect.helpers import act, dice, holding_the_line, liberation


def test_task_force_contents_are_hidden_from_the_other_side() -> None:
    e = liberation()
    tog = e.view("TOG")
    cw_tf = tog.formations["cw3099-tf1"]
    assert cw_tf.location == "hex:1010"  # the counter and its place are public
    assert cw_tf.status == {}  # fatigue and the like are on the sheet
    assert not [u for u in tog.units.values() if u.formation == "cw3099-tf1"]
    assert [u for u in tog.units.values() if u.formation == "tog786-tf1"]  # own sheet visible
    assert "cw3099-hql1" not in tog.units  # HQ and its supply hidden
    gm = e.view("gm")
    assert [u for u in gm.units.values() if u.formation == "cw3099-tf1"]


def test_bases_show_their_counter_but_not_their_supply() -> None:
    e = liberation()
    cw_view = e.view("CW")
    base = cw_view.units["tog-gl2-1"]
    assert base.location == "hex:2614" and "supply" not in base.status
    assert cw_view.units["cw-gl2-1"].status["supply"] == 50


def test_markers_and_detection_are_public() -> None:
    e = liberation()
    act(e, "move_tf", {"tf": "cw3099-tf4", "mode": "laf"}, by="CW")
    for h in ("1009", "0909", "0910"):
        act(e, "enter_hex", {"hex": h}, by="CW")
    act(e, "zoc_detect", {"tf": "tog4245-tf3"}, by="TOG", answers=dice(1))
    tog = e.view("TOG")
    assert "LAF@cw3099-tf4" in tog.markers and "DETECTED@cw3099-tf4" in tog.markers
    assert not [u for u in tog.units.values() if u.formation == "cw3099-tf4"]  # still secret inside
    board = Board(tog)
    assert board.laf("cw3099-tf4") and board.detected("cw3099-tf4")


def test_secret_actions_are_hidden_in_the_other_sides_log() -> None:
    e = liberation()
    e.state.step  # noqa: B018 - at the Movement Phase
    out = act(e, "move_tf", {"tf": "cw199-tf1", "mode": "combat"}, by="CW")
    assert out.entry.visible_to("TOG")  # moves are seen on the map
    from campaign_tui.core.engine import Engine
    from rulesets.prefect import plugin

    e2 = Engine.create(plugin, "liberation", seed=1)
    out = act(e2, "assign_unit", {"unit": "cw199-med1", "tf": "cw199-tf2"}, by="CW")
    assert out.entry.visible_to("CW") and not out.entry.visible_to("TOG")


def test_space_record_sheets_missions_track_and_secret_placement() -> None:
    e = holding_the_line()
    cw = e.view("CW")
    assert "tog-ntf3" not in cw.formations  # on the TOG T-space track: not on the map
    assert "tog-ntf1" in cw.formations and cw.formations["tog-ntf1"].status == {}
    act(e, "set_mission", {"tf": "tog-ntf1", "mission": "attack"}, by="TOG")
    assert "mission" not in e.view("CW").formations["tog-ntf1"].status
    assert e.view("TOG").formations["tog-ntf1"].status["mission"] == "attack"
    for tf, m in (
        ("cw-ntf1", "sector_defense"),
        ("cw-ntf2", "sector_defense"),
        ("cw-ntf3", "sector_defense"),
        ("cw-ntf4", "supply"),
        ("tog-ntf2", "attack"),
        ("tog-ntf9", "supply"),
        ("tog-ntf10", "supply"),
        ("tog-ntf11", "supply"),
    ):
        act(e, "set_mission", {"tf": tf, "mission": m}, by=e.state.formations[tf].side)
    act(e, "advance")
    act(e, "exit_tspace", {"tf": "tog-ntf5", "sector": "5,12"}, by="TOG", answers=dice(10))
    assert e.state.secrets["TOG"]["emerge:tog-ntf5"] == "5,12"
    cw = e.view("CW")
    assert "TOG" not in cw.secrets and not cw.vars.get("emerging")
    assert e.view("TOG").vars["emerging"][0]["sector"] == "5,12"
