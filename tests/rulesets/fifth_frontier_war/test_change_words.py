"""A plot's changes are worded in the table's language (issue 13): the fleet's name, the turn,
the order and the world's name, never the ledger's stored fields."""

from __future__ import annotations

from campaign_tui.core.changes import Change
from tests.rulesets.fifth_frontier_war.helpers import new_engine

EMERALD = "1410"


def _secret_lines(e, out) -> list[str]:  # type: ignore[no-untyped-def]
    view = e.view("gm")
    lines: list[str] = []
    for ch in out.entry.changes:
        if ch.coll == "secrets":
            worded = e.ruleset.describe_change(view, ch)
            assert worded is not None
            lines += worded
    return lines


def test_a_written_plot_is_worded_from_the_fleet_and_world_names() -> None:
    e = new_engine()
    e.perform("gm.quick_setup")
    out = e.perform("plot", {"fleet": "zho-65th", "orders": f"J{EMERALD}"}, by="zhodani")
    lines = _secret_lines(e, out)
    assert lines == ["65th Fleet: turn 1 order written: jump to Emerald (1410)"]
    out = e.perform("plot", {"fleet": "zho-65th", "orders": "R, R, R"}, by="zhodani")
    lines = _secret_lines(e, out)
    assert lines == [f"65th Fleet: turn {t} order written: refuel or hold at Emerald (1410)"
                     for t in (2, 3, 4)]
    assert not any("order J" in line or "hex" in line for line in lines)


def test_orders_changed_erased_and_other_changes_left_to_the_program() -> None:
    e = new_engine()
    e.perform("gm.quick_setup")
    view = e.view("gm")
    before = {"plots": {"zho-65th": {"1": {"order": "J", "hex": EMERALD}},
                        "zho-68th": {"2": {"order": "R", "hex": "box:zho_reinf"}}}}
    after = {"plots": {"zho-65th": {"1": {"order": "R", "hex": "0708"}}}}
    lines = e.ruleset.describe_change(view, Change("secrets", "zhodani", before, after))
    assert lines is not None and len(lines) == 2
    assert lines[0] == ("65th Fleet: turn 1 order now refuel or hold at Chronor (0708) "
                        "(was jump to Emerald (1410))")
    assert lines[1] == ("68th Fleet: turn 2 order erased (was refuel or hold at Zhodani "
                        "reinforcements box)")
    base = e.ruleset.describe_change(view, Change("secrets", "zhodani", {}, {"secret_base": EMERALD}))
    assert base == ["Zhodani secret base: Emerald (1410)"]
    assert e.ruleset.describe_change(view, Change("units", "zho-65th", {}, {})) is None

