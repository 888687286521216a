"""The review step words an action's changes from names: no marker ids, no internal fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from campaign_tui import campaigns
from campaign_tui.core.changes import Change
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.resolve import ResolveDialog
from campaign_tui.ui.text import describe_changes
from tests.ui.helpers import make_app, static_text


async def test_changes_are_worded_from_names(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Words", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        session: Any = app.session
        engine = session.engine
        engine.perform("gm.quick_setup", {})
        where = engine.state.units["cw-gl2-1"].location
        engine.undo(confirm=True)
        assert where and not engine.state.units["cw-gl2-1"].location
        label = engine.state.units["cw-gl2-1"].label
        kind = "place_base"
        defn = engine.action_def(kind)
        app.push_screen(ResolveDialog(session, kind, defn.title, defn.params,
                                      prefill={"base": "cw-gl2-1",
                                               "hex": where.removeprefix("hex:")}))
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("7", "ctrl+r")          # the GM says which area the hex is in
        await pilot.pause()
        review = static_text(app, "#resolve-review")
        assert f"{label} moves to hex {where.removeprefix('hex:')}" in review
        changes = review.split("Changes:")[1]
        assert "needs_hex" not in changes and "data" not in changes and "->" not in changes

        # a marker on a task force is named from the task force and the marker's label
        view = session.view()
        fid = next(iter(view.formations))
        tf = view.formations[fid].name
        marker = {"kind": "DETECTED", "label": "Detected", "side": "cw", "target": fid}
        lines = describe_changes([Change("markers", f"DETECTED@{fid}", None, marker)], view,
                                 "gm")
        assert lines == [f"{tf}: now Detected"]
        lines = describe_changes([Change("markers", f"DETECTED@{fid}", marker, None)], view,
                                 "gm")
        assert lines == [f"{tf}: no longer Detected"]


async def test_a_plot_is_worded_for_its_side_and_hidden_from_the_other(
        home_places: Places, ffw_quick_path: Path) -> None:
    app = make_app(home_places, ffw_quick_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        session: Any = app.session
        engine = session.engine
        defn = engine.action_def("plot")
        app.push_screen(ResolveDialog(session, "plot", defn.title, defn.params,
                                      prefill={"fleet": "zho-40th", "orders": "J1510"}))
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        changes = static_text(app, "#resolve-review").split("Changes:")[1]
        assert "40th Fleet: turn 1 order written: jump to Jewell (1510)" in changes
        assert "secret" not in changes and "order J" not in changes
        await pilot.press("enter")
        await pilot.pause()
        entry = engine.entries()[-1]
        assert entry.kind == "plot"
        imperial = describe_changes(entry.changes, engine.view("imperial"), "imperial",
                                    ruleset=engine.ruleset)
        assert not any("Fleet" in line or "1510" in line for line in imperial)
        assert imperial[-1].endswith("you may not see)")


def test_a_sides_secret_books_are_worded_with_names_not_ids() -> None:
    """A rule set that words nothing itself: a side's secret orders name the task force
    it concerns, fields spaced, and a side whose name ends in s takes a bare apostrophe."""
    from campaign_tui.core.engine import Engine
    from campaign_tui.registry import load_ruleset

    engine = Engine.create(load_ruleset("star_cruiser_lite"), "demo", None, 1, "auto", "W")
    view = engine.state
    tf = next(f for f in view.formations.values() if f.id.startswith("FRA"))
    change = Change("secrets", "FRA", {"orders": {}},
                    {"orders": {"tf": {tf.id: {"special_order": "none"}}}})
    lines = describe_changes([change], view, "gm")
    assert lines == [f"France's secret: tf › {tf.name} › special order none"]
    kafers = next(s for s in view.sides.values() if s.name.endswith("s"))
    lines = describe_changes([Change("secrets", kafers.id, {"x": 1}, {"x": 2})], view, "gm")
    assert lines == [f"{kafers.name}' secret: x now 2 (was 1)"]
