"""Candidates from the engine in forms, and the pick list behaving as a list."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App
from textual.widgets import SelectionList

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import EntityPicker, PickEntry
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import keys, make_app, screen_text


class PickerApp(App[None]):
    def __init__(self, multi: bool) -> None:
        super().__init__()
        self.multi = multi
        self.result: list[str] | None = None

    def on_mount(self) -> None:
        entries = [PickEntry(f"u-{n}", Text(f"u-{n}  Unit {n} {'red' if n % 2 else 'blue'}"),
                           f"u-{n} unit {n} {'red' if n % 2 else 'blue'}") for n in range(1, 7)]

        def done(ids: list[str] | None) -> None:
            self.result = ids

        self.push_screen(EntityPicker("Pick", entries, self.multi), done)


async def test_marks_survive_the_filter_and_enter_takes_them() -> None:
    app = PickerApp(multi=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press(*keys("red"))
        await pilot.press("down")                 # into the list
        await pilot.press("space")                # mark u-1
        await pilot.pause()
        await pilot.press("shift+tab")            # back to the filter
        await pilot.press(*["backspace"] * 3, *keys("blue"))
        await pilot.pause()
        await pilot.press("down", "space")        # mark u-2
        await pilot.pause()
        await pilot.press("shift+tab", *["backspace"] * 4)
        await pilot.pause()
        sl = app.screen.query_one("#picker-list", SelectionList)
        assert set(sl.selected) == {"u-1", "u-2"}   # both marks still shown
        await pilot.press("down", "enter")        # enter in the list takes the marks
        await pilot.pause()
        assert sorted(app.result or []) == ["u-1", "u-2"]


async def _open(pilot: Any, app: Any, kind: str) -> ResolveDialog:
    choice = next(c for c in app.session.engine.status().choices if c.kind == kind)
    app.screen.run_choice(choice)
    await pilot.pause()
    assert isinstance(app.screen, ResolveDialog)
    return app.screen


async def test_forms_offer_only_the_candidates_and_fill_a_single_one(home_places: Places
                                                                    ) -> None:
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Lib", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        dialog = await _open(pilot, app, "place_base")
        assert dialog.candidates["base"] == ["cw-gl2-1", "cw-gl2-2", "cw-gl3-3", "cw-gl4-4",
                                             "cw-gl4-5", "tog-gl2-1"]
        await pilot.press("f2")                   # the pick list: only bases, ids first
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, EntityPicker)
        assert [e.id for e in picker.entries] == dialog.candidates["base"]
        assert screen_text(app).count("cw-gl") >= 5
        await pilot.press("escape", "escape")
        await pilot.pause()
        # the one base left to place is filled in by itself
        engine = app.session.engine  # type: ignore[union-attr]
        for n, bid in enumerate(dialog.candidates["base"][:-1], 1):
            area = engine.state.units[bid].data["area"]
            engine.perform("place_base", {"base": bid, "hex": f"01{n:02d}"},
                           {f"area:01{n:02d}": area})
        dialog = await _open(pilot, app, "place_base")
        assert dialog.query_one("#f-base").value == "tog-gl2-1"  # type: ignore[attr-defined]
