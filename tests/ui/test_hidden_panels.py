"""A narrow main screen shows one panel: the order of battle and the die log, hidden, are
mounted once the screen has painted (start-up time), and work as before when shown. A
wide screen shows all three, composed before its first paint."""

from __future__ import annotations

from pathlib import Path

from campaign_tui.store.paths import Places
from campaign_tui.ui.app import CampaignApp
from campaign_tui.ui.widgets.dielog import DieLog, DieLogPanel
from campaign_tui.ui.widgets.oob import OobPanel, OobTree


def _app(places: Places, path: Path, seen: dict[str, int]) -> CampaignApp:
    app = CampaignApp(places, path, blink=False, theme="textual-dark")
    painted = app.mark_painted

    def mark_painted() -> None:  # what the screen holds at its first paint
        if not seen:
            seen.update(oob=len(app.screen.query(OobPanel)), log=len(app.screen.query(DieLogPanel)))
        painted()

    app.mark_painted = mark_painted  # type: ignore[method-assign]
    return app


async def test_a_narrow_screen_mounts_its_hidden_panels_after_the_first_paint(
        home_places: Places, ffw_quick_path: Path) -> None:
    seen: dict[str, int] = {}
    app = _app(home_places, ffw_quick_path, seen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert seen == {"oob": 0, "log": 0}
        assert len(app.screen.query(OobPanel)) == 1 and len(app.screen.query(DieLogPanel)) == 1
        await pilot.press("f3")
        await pilot.pause()
        tree = app.screen.query_one(OobTree)
        assert app.focused is tree
        assert [str(n.label).split()[0] for n in tree.root.children] == ["Third", "Zhodani"]  # Third Imperium
        await pilot.press("f4")
        await pilot.pause(0.2)
        assert isinstance(app.focused, DieLog)
        assert app.screen.query_one(DieLogPanel).started
        await pilot.resize_terminal(130, 40)   # grown wide: all three panels side by side
        await pilot.pause()
        assert app.screen.query_one("#panel-oob").display and tree.root.children


async def test_a_wide_screen_composes_every_panel_before_its_first_paint(
        home_places: Places, ffw_quick_path: Path) -> None:
    seen: dict[str, int] = {}
    app = _app(home_places, ffw_quick_path, seen)
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        assert seen == {"oob": 1, "log": 1}
        assert app.screen.query_one(OobTree).root.children


async def test_an_action_before_the_hidden_panels_are_built_is_shown_once_they_are(
        home_places: Places, ffw_quick_path: Path) -> None:
    app = CampaignApp(home_places, ffw_quick_path, blink=False, theme="textual-dark")
    painted = app.mark_painted
    acted: list[int] = []

    def mark_painted() -> None:   # (the screen's panels are built right after this)
        if not acted:
            assert not app.screen.query(DieLogPanel)
            outcome = app.session.perform("note", {"text": "before the panels"})
            acted.append(outcome.entry.seq)     # every listener ran: nothing failed
        painted()

    app.mark_painted = mark_painted  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert acted and len(app.screen.query(DieLogPanel)) == 1
        await pilot.press("f4")
        await pilot.pause(0.2)
        assert isinstance(app.focused, DieLog)
        assert app.session.engine.history.get(acted[0]).summary.endswith("before the panels")
