"""Control, objectives and routes on the text map (characters, so NO_COLOR reads them) and
in the SVG picture, made from the seat's projection."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.mapmodel import HOLLOW, OBJECTIVE, MapModel, crossed
from campaign_tui.ui.session import Session
from campaign_tui.ui.widgets.mapview import MapView
from tests.ui.helpers import make_app, screen_text


def _session(home: Places, ruleset: str, **kw: Any) -> Session:
    path = campaigns.new_campaign(home, ruleset, None, "Marks", 4, "auto", {}, **kw)
    return Session(home, path, campaigns.open_path(path))


def _cell(model: MapModel, place: str) -> str:
    return model._cell(place, 1, 1, True)


def test_ffw_worlds_show_who_holds_them_and_routes_cross_hexes(home_places: Places) -> None:
    session = _session(home_places, "fifth_frontier_war", quick_setup=True)
    model = MapModel.of(session)
    held = {p: str(f["owner"]) for p, f in model.facts.items() if f.get("owner")}
    assert {"imperial", "zhodani"} <= set(held.values())
    for place, side in held.items():
        mark = HOLLOW[model.styles[side][1]]
        assert _cell(model, place).startswith(mark), (place, side)
    free = next(p for p, f in model.facts.items() if not f.get("owner"))
    assert _cell(model, free)[0] == " "
    # an xboat route of four jumps (1711-2109) crosses three hexes, drawn as a line
    assert model.routes == crossed(model.board) and len(model.routes) >= 20
    for h in ("1810", "1910", "2009"):
        if h in model.routes and model.symbol(h) == "·":
            assert model.routes[h] in "─│╱╲" and model.routes[h] in _cell(model, h)
    assert "route" in model.legend() and "□" in model.legend()


def test_an_objective_is_marked_and_control_follows_the_facts(home_places: Places) -> None:
    session = _session(home_places, "prestags")
    session.perform("gm.map_fact", {"place": "0507", "fact": "objective", "value": "true"})
    session.perform("gm.map_fact", {"place": "0508", "fact": "owner", "value": "A"})
    model = MapModel.of(session)
    assert OBJECTIVE in _cell(model, "0507") and OBJECTIVE in model.legend()
    assert _cell(model, "0508")[0] == HOLLOW[model.styles["A"][1]]
    assert model._cell("0507", 0, 0, True)[0] == OBJECTIVE         # the far zoom too


def test_graph_maps_list_holders_and_objectives(home_places: Places) -> None:
    session = _session(home_places, "star_cruiser_lite")
    model = MapModel.of(session)
    first = model.places[0]
    session.perform("gm.map_fact", {"place": first, "fact": "objective", "value": "true"})
    model = MapModel.of(session)
    row = "".join(t for t, _ in model.list_lines(first, 0, 1)[0])
    assert OBJECTIVE in row and model.name(first) in row


async def test_no_color_still_shows_holders_and_routes(home_places: Places,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    path = campaigns.new_campaign(home_places, "fifth_frontier_war", None, "NC", 4, "auto", {},
                                  quick_setup=True)
    app = make_app(home_places, path)
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        view = app.screen.query_one(MapView)
        view.go("1410")                                   # Regina's neighbourhood
        await pilot.pause()
        text = screen_text(app)
        assert "□" in text and "○" in text
        assert any(c in text for c in "─│╱╲")


def test_the_svg_draws_control_and_routes(home_places: Places) -> None:
    from campaign_tui.cli.map import picture

    session = _session(home_places, "fifth_frontier_war", quick_setup=True)
    svg = picture(session.engine, "gm")
    owned = sum(1 for f in MapModel.of(session).facts.values() if f.get("owner"))
    assert svg.count('class="control"') == owned
    assert svg.count("<line") >= len(session.engine.ruleset.board(session.engine.state)
                                     .graph.edges)


def test_the_side_map_comes_from_the_seat(home_places: Places,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    session = _session(home_places, "fifth_frontier_war", quick_setup=True)
    session.viewer = "imperial"
    monkeypatch.setattr(session, "view", lambda *a: pytest.fail("not through the seat"))
    model = MapModel.of(session)
    assert model.located == session.engine.ruleset.locate(session.seat().state)
