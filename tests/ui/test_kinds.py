"""Every parameter type and every kind of decision, through the generic forms, by keyboard.

A ``json`` parameter reaches the action as the text typed, as from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import PrivacyScreen
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import keys, make_app, ruleset_campaign, static_text
from tests.ui.kinds_ruleset import plugin


@pytest.fixture
def kinds_path(home_places: Places, monkeypatch: pytest.MonkeyPatch) -> Path:
    return ruleset_campaign(home_places, monkeypatch, plugin, "k", "Kinds")


async def press(pilot: Pilot[Any], *names: str) -> None:
    for name in names:
        await pilot.press(name)
        await pilot.pause()


async def test_every_parameter_type(home_places: Places, kinds_path: Path) -> None:
    app = make_app(home_places, kinds_path)
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        await press(pilot, "1")
        assert isinstance(app.screen, ResolveDialog)
        await press(pilot, *keys("3"), "tab", *keys("2.5"), "tab", "space", "tab")
        await press(pilot, "tab")                                  # colour: red (first)
        await press(pilot, "tab")                                  # side: A (first)
        await press(pilot, "f2")                                   # pick formations
        await press(pilot, "down", "space", "down", "space", "ctrl+n")
        await press(pilot, "tab", "enter")                         # tags: a list editor
        await press(pilot, "a", "x", "enter", "a", "y", "enter", "ctrl+n")
        await press(pilot, "tab", "enter", "5", "ctrl+n")          # data: a value, 5
        await press(pilot, "ctrl+r")
        assert "params n=3 x=2.5 flag=True colour=red side=A" in static_text(
            app, "#resolve-review")
        await press(pilot, "ctrl+e")
        assert app.session is not None
        got = app.session.engine.state.vars["params"]
        assert got == {"n": 3, "x": 2.5, "flag": True, "colour": "red", "side": "A",
                       "groups": ["a1", "b1"], "tags": ["x", "y"], "data": 5,
                       "note": "none"}


async def test_every_kind_of_decision(home_places: Places, kinds_path: Path) -> None:
    app = make_app(home_places, kinds_path)
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        await press(pilot, "2")
        assert "Pick one" in static_text(app, ".decision-head")
        await press(pilot, "2")                                    # choice: Bravo by number
        assert "Pick two" in static_text(app, ".decision-head")
        await press(pilot, "space", "down", "space", "ctrl+r")     # multi: a, b
        await press(pilot, *keys("4"), "enter")                    # number
        await press(pilot, "n")                                    # bool: no
        await press(pilot, *keys("hello"), "enter")                # text
        await press(pilot, *keys("2"), "enter", *keys("1"), "enter")  # allocate 2 + 1
        await press(pilot, "down", "d", "ctrl+r")                  # order: a, c, b
        assert "GM ruling" in static_text(app, ".decision-head")
        await press(pilot, *keys("7"), "enter")                    # ruling (a number)
        assert isinstance(app.screen, PrivacyScreen)               # B's secret decision
        await press(pilot, "enter")
        assert "B's secret plan" in static_text(app, ".decision-head")
        await press(pilot, "down", "enter")                        # Bravo
        assert isinstance(app.screen, PrivacyScreen)               # hand the keyboard back
        await press(pilot, "enter")
        assert "asked everything" in static_text(app, "#resolve-review")
        await press(pilot, "enter")
        assert app.session is not None
        asked = app.session.engine.state.vars["asked"]
        assert asked == {"choice": "b", "multi": ["a", "b"], "number": 4, "bool": False,
                         "text": "hello", "allocate": {"a": 2, "b": 1},
                         "order": ["a", "c", "b"], "ruling": 7, "secret": "b"}
