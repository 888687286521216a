"""The FFW plot form offers the fleet's legal orders (issue 13: choose, do not type codes):
F2 in the orders field lists holding where the fleet will be and the jumps within its range,
named by their worlds; the one picked is added to what is typed, and typing still works."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import EntityPicker
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import keys, make_app, press, screen_text


def orders_field(app: Any) -> Any:
    return app.screen.query_one("#f-orders")


async def test_f2_offers_the_fleets_legal_orders_and_typing_still_works(
        home_places: Places, ffw_quick_path: Path) -> None:
    app = make_app(home_places, ffw_quick_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        e = app.session.engine
        await press(pilot, "1", "f2", *keys("40"), "enter", "tab")   # the 40th Fleet at Clan
        assert isinstance(app.screen, ResolveDialog)
        assert "F2 offers what fits" in screen_text(app)
        await press(pilot, "f2")
        assert isinstance(app.screen, EntityPicker)
        offered = [entry.id for entry in app.screen.entries]
        assert offered[0] == "R" and "J1510" in offered             # Jewell, three hexes away
        assert "J1810" not in offered                                 # beyond the fleet's jump
        text = screen_text(app)
        assert "turn 1: refuel or hold at Clan (1507)" in text
        await press(pilot, *keys("jewell"), "enter")
        assert orders_field(app).value == "J1510"
        await press(pilot, "f2")                                     # the next turn: from Jewell
        assert "turn 2: refuel or hold at Jewell (1510)" in screen_text(app)
        await press(pilot, *keys("emerald"), "enter")
        assert orders_field(app).value == "J1510, J1410"
        await press(pilot, *keys(", R"), "ctrl+r", "enter")         # typed as before
        plot = e.state.secrets["zhodani"]["plots"]["zho-40th"]
        assert plot == {"1": {"order": "J", "hex": "1510"}, "2": {"order": "J", "hex": "1410"},
                        "3": {"order": "R", "hex": "1410"}}


async def test_nothing_offered_before_the_fleet_is_chosen(home_places: Places,
                                                        ffw_quick_path: Path) -> None:
    app = make_app(home_places, ffw_quick_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        session: Any = app.session
        defn = session.engine.action_def("plot")
        app.push_screen(ResolveDialog(session, "plot", defn.title, defn.params,
                                      focus="orders"))
        await press(pilot, "f2")
        assert isinstance(app.screen, ResolveDialog)                 # no picker: nothing known
        assert orders_field(app).value == ""
