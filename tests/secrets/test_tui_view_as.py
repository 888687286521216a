"""The leak harness in the TUI: the main screen viewed as each side, and a side's export
opened in player mode, show no fact the side's view lacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign_tui.store.paths import places
from campaign_tui.ui.screens.main import MainScreen
from campaign_tui.ui.widgets.dielog import DieLog
from campaign_tui.ui.widgets.oob import OobTree
from tests.secrets.cases import example_folder, open_engine, run_cli
from tests.secrets.leakcheck import SideAudit, states_over_history
from tests.ui.helpers import make_app, screen_text

EXAMPLE = "prefect-holding-the-line"


async def _settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.pause()


def _shown(app: Any) -> str:
    """The screen, with every formation of the order of battle opened and the die log's
    rows as text."""
    text = screen_text(app)
    log = app.screen.query_one(DieLog)
    rows = "\n".join(str(r) for r in log.model.rows)
    return text + "\n" + rows


async def _open_all(app: Any, pilot: Any) -> None:
    tree = app.screen.query_one(OobTree)
    session = app.session
    view = session.view()
    tree.opened.update({("formation", fid) for fid in view.formations})
    app.screen.refresh_campaign()
    await _settle(pilot)


@pytest.mark.slow
async def test_main_screen_as_each_side_and_the_player_copy(campaign_home: Path,
                                                            tmp_path: Path) -> None:
    path = example_folder(EXAMPLE, tmp_path / "campaign")
    engine = open_engine(path)
    states = states_over_history(engine)
    home = places(campaign_home).ensure()
    # the GM's campaign, viewed as each side
    app = make_app(home, path, read_only=True)
    async with app.run_test(size=(160, 60)) as pilot:
        await _settle(pilot)
        assert isinstance(app.screen, MainScreen)
        for side in engine.state.sides:
            audit = SideAudit(engine, side, states)
            app.session.viewer = side
            app.screen.viewer_changed()
            await _open_all(app, pilot)
            shown = _shown(app)
            assert f"as {app.session.viewer_name()}" in shown
            assert not audit.overall.found_in(shown), side
    # a side's export, opened as it is: player mode
    for side in engine.state.sides:
        out = tmp_path / f"{side}.toml"
        assert run_cli("export", str(path), "--side", side, "-o", str(out))[0] == 0
        audit = SideAudit(engine, side, states)
        app = make_app(home, out)
        async with app.run_test(size=(160, 60)) as pilot:
            await _settle(pilot)
            assert app.session.viewer == side and app.session.read_only
            await _open_all(app, pilot)
            assert not audit.overall.found_in(_shown(app)), side
            before = len(app.session.engine.history)
            await pilot.press("n")            # advance: refused, nothing changes
            await _settle(pilot)
            assert len(app.session.engine.history) == before
