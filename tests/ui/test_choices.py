"""Choice fields show their choices: several rows at once, a filter when there are many,
space and enter take the highlighted one and go on."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.resolve import ResolveDialog
from campaign_tui.ui.widgets.choices import ChoiceList
from campaign_tui.ui.widgets.forms import ParamField
from tests.ui.helpers import keys, make_app, screen_text

HEXES = [(f"{n:04d}", f"hex {n:04d}") for n in range(101, 113)]


class ChoicesApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.picked: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield ChoiceList(HEXES, allow_blank=True, id="hexes")
        yield Input(id="after")

    def on_choice_list_picked(self, event: ChoiceList.Picked) -> None:
        self.picked.append(event.choices.value)
        self.query_one("#after").focus()


async def test_several_rows_a_filter_and_space_or_enter_picks() -> None:
    app = ChoicesApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        choices = app.query_one(ChoiceList)
        text = screen_text(app)
        assert "(none)" in text and "hex 0101" in text and "hex 0103" in text  # rows shown
        assert choices.value is None                    # may stay empty
        choices.focus()
        await pilot.press(*keys("0107"))                # typed on the list: the filter
        await pilot.pause()
        text = screen_text(app)
        assert "hex 0107" in text and "hex 0101" not in text
        await pilot.press("enter", "space")             # into the list; space takes it
        await pilot.pause()
        assert app.picked == ["0107"] and choices.value == "0107"
        assert app.focused is app.query_one("#after")
        choices.focus()
        await pilot.press(*keys("01"))                  # typed in the filter again
        await pilot.press("backspace", "backspace")   # all rows again, 0107 still taken
        await pilot.pause()
        assert choices.value == "0107"
        await pilot.press("down", "down", "enter")      # into the list, one down
        await pilot.pause()
        assert app.picked[-1] == "0108"


async def test_a_resolve_form_choice_shows_its_rows(home_places: Places) -> None:
    """Prefect's "Place a task force": the terrains are rows on the screen, picked by keys."""
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Ch", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session: Any = app.session
        defn = session.engine.action_def("place_tf")
        dialog = ResolveDialog(session, "place_tf", defn.title, defn.params, focus="terrain")
        app.push_screen(dialog)
        await pilot.pause()
        field = next(f for f in dialog.query(ParamField) if f.param.name == "terrain")
        choices = field.widget
        assert isinstance(choices, ChoiceList)
        await pilot.pause()
        shown = [v for v, _ in choices.options[1:] if v in screen_text(app)]
        assert len(shown) >= 3                        # several rows, not one line
        assert field.value() is None                  # optional: "(none)" first
        await pilot.press("down", "space")
        await pilot.pause()
        assert field.value() == choices.options[1][0]
