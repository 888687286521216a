"""Enter in a field never applies a reviewed result; undo says what it undoes and did."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import ConfirmDialog
from campaign_tui.ui.screens.resolve import ResolveDialog
from campaign_tui.ui.widgets.notice import NoticeRack
from tests.ui.helpers import action_notice, make_app, static_text
from tests.ui.test_flows import engine, press, type_text


async def test_enter_in_a_field_does_not_apply(home_places: Places, demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "n", "n", "1")
        dialog = app.screen
        assert isinstance(dialog, ResolveDialog)
        await type_text(pilot, "a-inf,a-tank")
        await press(pilot, "tab")
        await type_text(pilot, "b-inf")
        await press(pilot, "enter", "y")
        assert "will attack b-inf" in static_text(app, "#resolve-review")
        length = len(engine(app).history)
        for field in dialog.query(Input):           # every field, Enter pressed in it
            field.focus()
            await press(pilot, "enter")
            assert app.screen is dialog and len(engine(app).history) == length
        await press(pilot, "ctrl+e")                # applied only when asked
        assert app.screen is not dialog and len(engine(app).history) == length + 1
        summary = engine(app).undo_target().summary
        # undo: the confirmation (here past a GM ruling, none) or the notice names it
        await press(pilot, "ctrl+z")
        if isinstance(app.screen, ConfirmDialog):
            assert summary in static_text(app, ".dialog-message")
            await press(pilot, "shift+tab", "enter")
        notice = action_notice(app)
        assert notice.startswith("Undone:") and summary in notice, notice


async def test_undo_and_redo_in_a_row_leave_one_notice(home_places: Places,
                                                       demo_path: Path) -> None:
    """Each undo or redo says what it did, replacing the notice before it: keys pressed
    in a row leave the last notice, not a stack of them."""
    app = make_app(home_places, demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "n", "n")                # two steps to undo, no dice
        app.clear_notifications()
        await press(pilot, "ctrl+z", "ctrl+z", "ctrl+y")
        racks = app.screen.query(NoticeRack)
        assert len(racks) == 1 and not app._notifications   # one box, no toasts
        notice = action_notice(app)
        assert notice and not notice.startswith("Undone:")  # the redo's, the last key's
        app.notify("Saved.")                        # other notices are toasts, kept
        await press(pilot, "ctrl+z")
        assert [str(n.message) for n in app._notifications] == ["Saved."]
        assert action_notice(app).startswith("Undone:")


async def test_the_action_notice_goes_after_its_time(home_places: Places,
                                                     demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.action_notice("Done: a test", timeout=0.2)
        await pilot.pause()
        assert action_notice(app) == "Done: a test"
        app.action_notice("Done: the next", timeout=0.5)   # the time starts again
        await pilot.pause(0.3)
        assert action_notice(app) == "Done: the next"
        await pilot.pause(0.4)
        assert action_notice(app) == ""


async def test_the_action_notice_grows_for_longer_words(home_places: Places,
                                                        demo_path: Path) -> None:
    """The box keeps its width; longer words get the lines they need, shorter ones give
    them back (the screen is laid out again only then)."""
    app = make_app(home_places, demo_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_notice("Done: short")
        await pilot.pause()
        rack = app.screen.query_one(NoticeRack)
        assert rack.notice.content_region.height == 1
        long = "Done: " + " ".join(["a long summary of what was done"] * 3)
        app.action_notice(long)
        await pilot.pause()
        width = rack.notice.content_region.width
        assert 0 < width < len(long) and rack.notice.content_region.height >= 3
        assert action_notice(app) == long
        app.action_notice("Done: short again")
        await pilot.pause()
        assert rack.notice.content_region.height == 1
        assert rack.notice.content_region.width == width
