"""^r's button says what it does: "Roll" when the action rolls, "Review" when it is known to
roll nothing (no fields to fill and no die in its preview), issue 13."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Button

from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import make_app


def _verb(app: Any) -> str:
    return str(app.screen.query_one("#btn-roll", Button).label)


async def _open(app: Any, pilot: Any, kind: str, prefill: dict[str, Any] | None = None) -> None:
    session = app.session
    defn = session.engine.action_def(kind)
    app.push_screen(ResolveDialog(session, kind, defn.title, defn.params, prefill=prefill))
    await pilot.pause()
    assert isinstance(app.screen, ResolveDialog)


async def test_an_action_without_dice_or_fields_is_reviewed_not_rolled(
        home_places: Places, ffw_quick_path: Path) -> None:
    app = make_app(home_places, ffw_quick_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await _open(app, pilot, "hold_unplotted")          # no fields, no dice
        assert _verb(app) == "Review ^r"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen.stage == "review"                 # ^r still computes the review
        await pilot.press("escape")
        await pilot.pause()
        await _open(app, pilot, "plot")                     # fields to fill: cannot tell yet
        assert _verb(app) == "Roll ^r"
        assert app.session.engine.state.step == "SETUP_INITIAL_PLOT"


async def test_actions_that_roll_keep_roll(home_places: Places, rolling_path: Path) -> None:
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await _open(app, pilot, "battle")                   # a default filled in: it rolls
        assert _verb(app) == "Roll ^r"
        await pilot.press("escape")
        await pilot.pause()
        await _open(app, pilot, "advance")                  # the storm rolls when advancing
        assert _verb(app) == "Roll ^r"
        assert app.session.engine.state.step == "calm"      # the previews changed nothing
