"""The map view: opened with `g` (and "Map" in the palette), cursor moves that scroll, two
zoom levels, `/` finds a hex, world or unit, Enter shows what is there, and an action's hex
field picks its value on the map (F2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.mapmodel import MapModel, moved
from campaign_tui.ui.screens.map import MapScreen
from campaign_tui.ui.widgets.mapview import MapView
from tests.ui.helpers import keys, make_app, screen_text


def _prestags(home: Places) -> Path:
    return campaigns.new_campaign(home, "prestags", "chariot-rome", "Rome", 4, "auto", {},
                                  quick_setup=True)


def _ffw(home: Places) -> Path:
    return campaigns.new_campaign(home, "fifth_frontier_war", None, "FFW", 4, "auto", {},
                                  quick_setup=True)


async def _open(app: Any, pilot: Any) -> MapScreen:
    await pilot.pause()
    await pilot.press("g")
    await pilot.pause()
    assert isinstance(app.screen, MapScreen)
    return app.screen


async def test_g_opens_the_map_and_arrows_move_the_cursor(home_places: Places) -> None:
    app = make_app(home_places, _prestags(home_places))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(app, pilot)
        view = screen.query_one(MapView)
        start = view.cursor
        grid = screen.model.board.grid
        assert grid is not None
        c, r = grid.parse(start)  # type: ignore[misc]
        await pilot.press("down", "right")
        await pilot.pause()
        assert grid.parse(view.cursor) == (c + 1, r + 1)
        assert view.cursor in screen_text(app)            # hex numbers are on and the details say it
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, MapScreen)


async def test_the_view_scrolls_with_the_cursor_and_zooms(home_places: Places) -> None:
    app = make_app(home_places, _ffw(home_places))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(app, pilot)
        view = screen.query_one(MapView)
        for _ in range(30):
            await pilot.press("down")
        await pilot.pause()
        grid = screen.model.board.grid
        assert grid is not None
        row = grid.parse(view.cursor)[1]  # type: ignore[index]
        assert view.first_row > screen.model.extent[2]     # scrolled
        assert view.first_row <= row
        assert view.cursor in screen_text(app)
        near = screen_text(app)
        await pilot.press("minus")
        await pilot.pause()
        assert view.zoom == 0 and screen_text(app) != near


async def test_find_goes_to_a_world_a_hex_and_a_unit(home_places: Places) -> None:
    app = make_app(home_places, _ffw(home_places))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(app, pilot)
        view = screen.query_one(MapView)
        await pilot.press("slash", *keys("regina"), "enter")
        await pilot.pause()
        assert screen.model.name(view.cursor) == "Regina"
        assert "Regina" in screen_text(app)
        await pilot.press("slash", *keys("1910"), "enter")
        await pilot.pause()
        assert view.cursor == "1910"
        unit_place, items = next((p, i) for p, i in sorted(screen.model.located.items())
                                 if screen.model.is_place(p))
        await pilot.press("slash", *keys(items[0][1].lower()), "enter")
        await pilot.pause()
        assert unit_place in screen.found
        await pilot.press("slash", *keys("nowhere at all"), "enter")
        await pilot.pause()
        assert any("Nothing on the map" in str(n.message) for n in app._notifications)


async def test_enter_shows_everything_there(home_places: Places) -> None:
    app = make_app(home_places, _prestags(home_places))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(app, pilot)
        place, items = next(iter(sorted(screen.model.located.items())))
        screen.query_one(MapView).go(place)
        await pilot.press("enter")
        await pilot.pause()
        assert items[0][1] in screen_text(app)
        assert isinstance(app.screen, MapScreen)       # Enter shows, does not close


def test_graph_maps_are_a_list_of_places_with_routes(home_places: Places) -> None:
    from campaign_tui.ui.session import Session

    path = campaigns.new_campaign(home_places, "star_cruiser_lite", None, "SCL", 4, "auto", {})
    session = Session(home_places, path, campaigns.open_path(path))
    model = MapModel.of(session)
    assert not model.is_hex and len(model.places) >= 9
    first = model.places[0]
    assert moved(model, first, 0, 1) == model.places[1]
    row = "".join(t for t, _ in model.list_lines(first, 0, 1)[0])
    assert model.name(first) in row and "→" in row


async def test_f2_on_a_hex_field_picks_on_the_map(home_places: Places) -> None:
    from campaign_tui.core.actions import Param
    from campaign_tui.ui.screens.resolve import ResolveDialog

    app = make_app(home_places, _prestags(home_places))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = ResolveDialog(app.session, "gm.map_fact", "Where",  # type: ignore[arg-type]
                               (Param("hex", "hex", help="the hex"),), focus="hex")
        app.push_screen(dialog)
        await pilot.pause()
        dialog.query_one("#f-hex").focus()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, MapScreen) and app.screen.pick == "hex"
        assert "pick the hex" in screen_text(app)
        view = app.screen.query_one(MapView)
        await pilot.press("right", "down")
        await pilot.pause()
        chosen = view.cursor
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        assert dialog.query_one("#f-hex").value == chosen      # type: ignore[attr-defined]
        await pilot.press("f2")                                 # Escape picks nothing
        await pilot.pause()
        await pilot.press("left", "escape")
        await pilot.pause()
        assert dialog.query_one("#f-hex").value == chosen      # type: ignore[attr-defined]


def test_the_map_shows_only_what_the_seat_may_see(home_places: Places) -> None:
    """Star Cruiser Lite hides other nations' ships: each seat's map has fewer than the GM's,
    and its own ships are on it."""
    from campaign_tui.ui.session import Session

    path = campaigns.new_campaign(home_places, "star_cruiser_lite", None, "SCL", 7, "auto", {},
                                  quick_setup=True)
    session = Session(home_places, path, campaigns.open_path(path))
    session.viewer = "gm"
    everything = MapModel.of(session).located
    for side in session.engine.state.sides:
        session.viewer = side
        seen = MapModel.of(session).located
        assert sum(map(len, seen.values())) < sum(map(len, everything.values()))
        for place, items in seen.items():
            assert set(items) <= set(everything.get(place, []))
