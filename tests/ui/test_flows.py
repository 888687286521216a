"""Pilot tests of the interface's flows, driven from the keyboard as a player would.

The demo rule set (tests/demo_ruleset) with seed 42 gives known dice: the first combat
rolls a 4 on the CRT (2-1, +1/-2) and a 5 on the saving roll, so B Infantry is destroyed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.app import CampaignApp
from campaign_tui.ui.screens.dialogs import ConfirmDialog, PrivacyScreen
from campaign_tui.ui.screens.help import HelpScreen
from campaign_tui.ui.screens.main import MainScreen
from campaign_tui.ui.screens.picker import PickerScreen
from campaign_tui.ui.screens.resolve import ResolveDialog
from campaign_tui.ui.widgets.dielog import DieLog
from campaign_tui.ui.widgets.oob import OobTree
from tests.ui.helpers import keys, make_app, press, screen_text, static_text


async def type_text(pilot: Pilot[Any], text: str) -> None:
    await press(pilot, *keys(text))


def engine(app: CampaignApp) -> Any:
    assert app.session is not None
    return app.session.engine


async def declare_and_resolve(pilot: Pilot[Any]) -> None:
    """From the set-up step: advance twice, declare a-inf and a-tank against b-inf (GM
    ruling: adjacent), advance into the combat and resolve it (no column shift)."""
    app = pilot.app
    await press(pilot, "n", "n")
    assert engine(app).state.step == "declare"
    await press(pilot, "1")
    assert isinstance(app.screen, ResolveDialog)
    await type_text(pilot, "a-inf,a-tank")
    await press(pilot, "tab")
    await type_text(pilot, "b-inf")
    await press(pilot, "enter")               # last field: roll (preview)
    assert "adjacent" in screen_text(app)    # the GM ruling, rendered generically
    await press(pilot, "y")
    assert "will attack b-inf" in static_text(app, "#resolve-review")
    await press(pilot, "enter")               # apply
    assert not isinstance(app.screen, ResolveDialog)
    await press(pilot, "n")                   # into the combat sub-machine
    assert engine(app).state.step == "combat_start"
    await press(pilot, "1")                   # resolve the next attack
    assert isinstance(app.screen, ResolveDialog)
    text = screen_text(app)
    assert "Army B decides" in text and "Column shift" in text
    await press(pilot, "enter")               # "none" (the default) -> ready to roll
    held = screen_text(app)
    assert "Ready to roll" in held and "Roll 1d6 for combat" in held and "table crt" in held
    assert static_text(app, "#resolve-review") == ""          # no die seen yet
    await press(pilot, "ctrl+r")              # the program rolls -> review
    review = static_text(app, "#resolve-review")
    assert "Result:" in review and "1d6 [4]" in review and "odds 12:6 -> 2-1" in review
    assert "B Infantry: now destroyed" in review and "status.destroyed" not in review
    assert engine(app).state.units["b-inf"].status["destroyed"] is False  # a preview only
    await press(pilot, "enter")               # apply
    assert not isinstance(app.screen, ResolveDialog)


async def test_wizard_creates_a_campaign(home_places: Places) -> None:
    app = make_app(home_places, None)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        await press(pilot, "n")
        text = screen_text(app)
        assert "Choose the rule set" in text and "Demo Skirmish" in text
        ids = [r[0] for r in app.screen.rulesets]  # type: ignore[attr-defined]
        await press(pilot, *(["down"] * ids.index("demo")), "enter")
        text = screen_text(app)
        assert "Long skirmish" in text and "Two small forces." in text
        await press(pilot, "down")                      # the long scenario: 5 turns
        assert "Five turns." in screen_text(app)
        await press(pilot, "enter")
        text = screen_text(app)
        assert "Game length" in text and "How many turns the battle lasts." in text
        assert "default 3" in text and "scenario sets 5" in text
        await press(pilot, "ctrl+n")
        await press(pilot, *(["ctrl+a", "ctrl+k"]), *keys("Test campaign"))
        await press(pilot, "tab", "tab")                 # past the dice choice to the seed
        await type_text(pilot, "1234")
        await press(pilot, "ctrl+n")
        assert isinstance(app.screen, MainScreen)
        e = engine(app)
        assert e.info.name == "Test campaign" and e.info.seed == 1234
        assert e.state.options["turns"] == 5
        assert "Check the set-up." in screen_text(app)   # straight into the first prompt
    made = [p.name for p in home_places.campaigns.iterdir()]
    assert "test-campaign" in made


async def test_play_a_full_turn(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        e = engine(app)
        assert e.state.clock["turn"] == 1
        await press(pilot, "n")                          # set-up -> A moves
        assert "Army A: move your units." in screen_text(app)
        await press(pilot, "f3", "down", "enter", "down")  # highlight A Infantry
        await press(pilot, "1")                          # move: unit prefilled from the OOB
        assert isinstance(app.screen, ResolveDialog)
        assert "= A Infantry" in screen_text(app)
        await press(pilot, "tab")
        await type_text(pilot, "hex:0201")
        await press(pilot, "enter", "enter")             # roll (review), apply
        assert e.state.units["a-inf"].location == "hex:0201"
        await press(pilot, "f2", "n", "n")               # declare nothing; B's player turn
        assert e.state.vars["roles"]["phasing"] == "B"
        await press(pilot, "n", "n")                     # B moves nothing, declares nothing
        assert e.state.clock["turn"] == 2
        assert e.state.step == "move"
        assert "Turn 2" in screen_text(app)


async def test_advance_is_refused_with_the_reason(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test(notifications=True) as pilot:
        await pilot.pause()
        e = engine(app)
        e.perform("advance")
        e.perform("advance")
        e.perform("declare", {"attackers": "a-inf", "target": "b-inf"}, {"adj:b-inf": True})
        e.perform("advance")
        await pilot.pause()
        assert e.state.step == "combat_start"
        app.clear_notifications()
        await pilot.pause()
        assert "Before advancing: resolve the remaining attacks" in screen_text(app)
        await press(pilot, "n")
        assert e.state.step == "combat_start"
        messages = [str(n.message) for n in app._notifications]
        assert any("resolve the remaining attacks" in m for m in messages)


async def test_combat_die_log_undo_save_reopen(home_places: Places, demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await declare_and_resolve(pilot)
        e = engine(app)
        assert e.state.units["b-inf"].status["destroyed"] is True
        assert e.state.units["a-inf"].status["fatigue"] == 1
        assert e.state.ledger("A", "vp") == 1
        # the order of battle shows it
        await press(pilot, "f3")
        tree = app.screen.query_one(OobTree)
        tree.opened.update({("formation", "a1"), ("formation", "b1")})
        app.screen.refresh_campaign()  # type: ignore[attr-defined]
        await pilot.pause()
        text = screen_text(app)
        assert "B Infantry" in text and "[destroyed]" in text and "[fatigued 1]" in text
        # the die log shows both rolls with their context
        await press(pilot, "f4")
        log = app.screen.query_one(DieLog)
        rows = [log.model.row_text(r).plain for r in log.model.rows]
        assert len(rows) == 2
        assert "combat: 1d6 [4] -> +1/-2" in rows[0] and "(crt)" in rows[0]
        assert "saving roll for B Infantry: 1d6 [5] vs 4" in rows[1]
        await press(pilot, "up", "enter")   # expand the combat roll
        text = screen_text(app)
        assert "odds 12:6 -> 2-1" in text and "result: +1/-2" in text
        # undo asks first (it discards rolls), then puts everything back
        await press(pilot, "ctrl+z")
        assert isinstance(app.screen, ConfirmDialog)
        assert "discards its die rolls" in static_text(app, ".dialog-message")
        await press(pilot, "shift+tab", "enter")
        assert e.state.units["b-inf"].status["destroyed"] is False
        assert e.state.units["a-inf"].status["fatigue"] == 0
        assert all("(undone)" in log.model.row_text(r).plain for r in log.model.rows)
        # redo brings back the same dice
        await press(pilot, "ctrl+y")
        assert e.state.units["b-inf"].status["destroyed"] is True
        length = len(e.history)
        await press(pilot, "ctrl+s")
        assert app.session is not None and not app.session.dirty
        await press(pilot, "ctrl+q")
    # reopen: everything as left
    again = make_app(home_places, demo_path)
    async with again.run_test() as pilot:
        await pilot.pause()
        e = engine(again)
        assert len(e.history) == length
        assert e.state.units["b-inf"].status["destroyed"] is True
        assert e.state.step == "combat_start"
        await press(pilot, "f4")
        log = again.screen.query_one(DieLog)
        assert len(log.model.rows) == 2
        await press(pilot, "ctrl+q")


async def test_changing_a_parameter_asks_the_decisions_again(app_factory: Any,
                                                              demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "n", "n", "1")
        await type_text(pilot, "a-inf")
        await press(pilot, "tab")
        await type_text(pilot, "b-inf")
        await press(pilot, "enter", "y")
        assert "will attack b-inf" in static_text(app, "#resolve-review")
        await press(pilot, "shift+tab", "shift+tab")    # back to the target field
        await press(pilot, "ctrl+a", "ctrl+k")
        await type_text(pilot, "b-tank")
        assert static_text(app, "#resolve-review") == ""  # the old result is gone
        await press(pilot, "ctrl+r")
        assert "adjacent to b-tank" in static_text(app, ".decision-head")


async def test_quit_asks_only_when_unsaved(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "n")
        await press(pilot, "ctrl+q")
        assert isinstance(app.screen, ConfirmDialog)
        assert "1 unsaved action" in screen_text(app)
        await press(pilot, "escape")                     # cancel: still running
        assert isinstance(app.screen, MainScreen)
        await press(pilot, "ctrl+q", "enter")            # save and quit
    opened = campaigns.open_path(demo_path, read_only=True)
    assert opened.engine.state.step == "move"


async def test_crash_recovery_offers_the_autosave(home_places: Places, demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "n", "n")
        assert engine(app).state.step == "declare"
        # a crash: the process dies without saving or closing (only the lock goes)
        assert app.session is not None
        app.session.listeners.clear()
        app.session.opened.store.lock.release()  # type: ignore[union-attr]
        app.session.closed = True
        app.session = None
    again = make_app(home_places, demo_path)
    async with again.run_test() as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ConfirmDialog)
        assert "2 unsaved actions" in screen_text(again)
        await press(pilot, "enter")                      # restore
        assert isinstance(again.screen, MainScreen)
        e = engine(again)
        assert e.state.step == "declare"
        assert again.session is not None and again.session.unsaved_count == 2
        await press(pilot, "ctrl+s", "ctrl+q")
    opened = campaigns.open_path(demo_path, read_only=True)
    assert opened.engine.state.step == "declare"


async def test_locked_campaign_opens_read_only(app_factory: Any, demo_path: Path) -> None:
    holder = campaigns.open_path(demo_path)
    try:
        app = app_factory(demo_path)
        async with app.run_test() as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ConfirmDialog)
            assert "already open" in screen_text(app)
            await press(pilot, "enter")                  # open read-only
            assert isinstance(app.screen, MainScreen)
            assert app.session is not None and app.session.read_only
            assert "READ-ONLY" in screen_text(app)
            await press(pilot, "n")
            assert engine(app).state.step == "setup"
            await press(pilot, "ctrl+q")
    finally:
        campaigns.close(holder)


async def test_view_as_a_side_hides_what_it_may_not_see(app_factory: Any,
                                                         demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        tree = app.screen.query_one(OobTree)
        tree.opened.update({("formation", "a1"), ("formation", "b1")})
        await press(pilot, "f3")
        app.screen.refresh_campaign()  # type: ignore[attr-defined]
        await pilot.pause()
        text = screen_text(app)
        assert "B Tank" in text and "B Infantry" in text        # the GM sees all
        await press(pilot, "f7")
        await press(pilot, "down", "enter")                     # Army A
        assert isinstance(app.screen, PrivacyScreen)
        assert "Pass the keyboard to Army A" in screen_text(app)
        assert "B Tank" not in screen_text(app)
        await press(pilot, "enter")
        assert app.session is not None and app.session.viewer == "A"
        text = screen_text(app)
        assert "A Infantry" in text
        assert "B Tank" not in text and "B Infantry" not in text
        assert "[contents hidden]" in text
        # a side may not use the GM's edits
        await press(pilot, "e")
        assert engine(app).state.units["a-inf"].status["fatigue"] == 0


async def test_gm_edits_go_through_the_engine(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        e = engine(app)
        await press(pilot, "f3", "down", "enter", "down")    # A Infantry
        await press(pilot, "e")                               # edit status
        await press(pilot, "ctrl+a", "ctrl+k", "2")           # fatigue 2
        await press(pilot, "tab", "space")                    # disrupted yes
        await press(pilot, "ctrl+e")
        u = e.state.units["a-inf"]
        assert u.status["fatigue"] == 2 and u.status["disrupted"] is True
        assert "[fatigued 2]" in screen_text(app) and "[disrupted]" in screen_text(app)
        kinds = [x.kind for x in e.entries()[-2:]]
        assert kinds == ["gm.set_status", "gm.set_status"]
        # move between formations
        e.perform("gm.add_formation", {"side": "A", "name": "Reserve", "id": "a2"})
        await pilot.pause()
        await press(pilot, "m")
        assert "Move A Infantry to" in screen_text(app)
        await press(pilot, "down", "enter")                   # from A Group to Reserve
        assert e.state.units["a-inf"].formation == "a2"
        # a reinforcement from the catalog
        await press(pilot, "a")
        assert isinstance(app.screen, ResolveDialog)
        await press(pilot, "ctrl+r")
        assert "GM: added Infantry" in static_text(app, "#resolve-review")
        await press(pilot, "enter")
        assert len(e.state.units) == 5
        # every edit is undoable
        await press(pilot, "ctrl+z")
        assert len(e.state.units) == 4


async def test_manual_dice_are_typed_in(app_factory: Any, manual_path: Path) -> None:
    app = app_factory(manual_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        e = engine(app)
        e.perform("advance")
        e.perform("advance")
        e.perform("declare", {"attackers": "a-tank", "target": "b-inf"}, {"adj:b-inf": True})
        e.perform("advance")
        await pilot.pause()
        await press(pilot, "1", "enter")                   # resolve; no shift
        text = screen_text(app)
        assert "Roll 1d6 for combat" in text and "faces of 1d6" in text
        await type_text(pilot, "6")
        await press(pilot, "enter")
        await type_text(pilot, "1")                           # the saving roll
        await press(pilot, "enter")
        assert "[typed]" in screen_text(app)
        await press(pilot, "enter")
        rolls = e.entries()[-1].rolls
        assert [r.dice for r in rolls] == [[6], [1]] and all(r.manual for r in rolls)


async def test_gm_override_of_a_roll_and_a_table_result(app_factory: Any,
                                                        demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        e = engine(app)
        e.perform("advance")
        e.perform("advance")
        e.perform("declare", {"attackers": "a-tank", "target": "b-inf"}, {"adj:b-inf": True})
        e.perform("advance")
        await pilot.pause()
        await press(pilot, "1", "enter")              # no shift -> ready to roll
        await press(pilot, "ctrl+r")                  # roll -> review
        await press(pilot, "ctrl+o")
        await press(pilot, "enter")                   # roll 1
        await type_text(pilot, "1")
        await press(pilot, "enter")
        assert "[GM override: [1]]" in static_text(app, "#resolve-review")
        await press(pilot, "ctrl+o")
        await press(pilot, "end", "enter")            # the table result
        await type_text(pilot, "0/0")
        await press(pilot, "enter")
        assert "GM override: " in static_text(app, "#resolve-review")
        await press(pilot, "ctrl+e")
        entry = e.entries()[-1]
        assert entry.rolls[0].override == {"value": [1]}
        assert entry.answers["override:lookup1"] == "0/0"


async def test_tables_screen_and_house_rule(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "f5")
        text = screen_text(app)
        assert "Demo Combat Results Table" in text
        assert "UNVERIFIED" in text and "RECONSTRUCTED (medium confidence)" in text
        await press(pilot, "enter")                   # into the grid: 1 / 1-2
        await press(pilot, "e")
        assert isinstance(app.screen, ResolveDialog)
        await type_text(pilot, "0/0")
        await press(pilot, "ctrl+r", "ctrl+e")
        e = engine(app)
        assert e.state.table_overrides == {"crt": {"1/1-2": "0/0"}}
        text = screen_text(app)
        assert "0/0 H" in text and "HOUSE RULE" in text
        await press(pilot, "ctrl+z")
        assert e.state.table_overrides == {}
        await press(pilot, "escape")
        assert isinstance(app.screen, MainScreen)


async def test_history_shows_the_past_read_only(home_places: Places, demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await declare_and_resolve(pilot)
        e = engine(app)
        await press(pilot, "f6")
        text = screen_text(app)
        assert "Now" in text and "History (read-only)" in text
        labels = [m[1] for m in app.screen.marks]  # type: ignore[attr-defined]
        target = next(i for i, lbl in enumerate(labels) if "MOVE" in lbl)
        await press(pilot, *(["down"] * target), "enter")
        app.screen.query_one(OobTree).opened.add(("formation", "b1"))
        app.screen.show_index(target)  # type: ignore[attr-defined]
        await pilot.pause()
        text = screen_text(app)
        assert "As it stood after entry" in text and "B Infantry" in text
        assert "[destroyed]" not in text                  # before the combat
        assert e.state.units["b-inf"].status["destroyed"] is True   # nothing changed
        await press(pilot, "ctrl+z", "shift+tab", "enter")  # undo from here
        assert e.state.units["b-inf"].status["destroyed"] is False
        await press(pilot, "escape")
        assert isinstance(app.screen, MainScreen)


async def test_help_lists_every_key_of_the_screen(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.pause()
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for needed in ("Advance", "Save", "Undo", "Redo", "Tables", "History", "View as",
                       "Privacy", "Order of battle panel", "Die log panel", "Quit"):
            assert needed in text, needed
        await press(pilot, "escape")
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)


async def test_command_palette_offers_actions(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert any(t.startswith("Advance") for t in titles)
        assert "Do: Write a secret plot" in titles
        assert any(t.startswith("GM: ") for t in titles)
        assert "Table: Demo Combat Results Table" in titles
        await press(pilot, "ctrl+p")
        await type_text(pilot, "Tables (F5)")
        await pilot.pause(0.5)
        await press(pilot, "enter")
        await pilot.pause(0.2)
        assert type(app.screen).__name__ == "TablesScreen"


async def test_picker_duplicate_and_delete_to_trash(home_places: Places,
                                                    demo_path: Path) -> None:
    app = make_app(home_places, None)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert "Demo" in screen_text(app)
        await press(pilot, "d")
        assert "Demo (copy)" in screen_text(app)
        await press(pilot, "x")
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "shift+tab", "enter")
        await pilot.pause()
        trash = list(home_places.trash.iterdir())
        assert len(trash) == 1
        assert isinstance(app.screen, PickerScreen)
        assert len([s for s in app.screen.rows if not s.example]) == 1
        await press(pilot, "enter")                        # open what is left
        assert isinstance(app.screen, MainScreen)


async def test_picker_opens_a_copy_of_an_example(home_places: Places, example: Path) -> None:
    app = make_app(home_places, None)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        assert "Demo example" in screen_text(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, MainScreen)
        assert engine(app).info.name == "Demo example"
        await press(pilot, "n", "ctrl+s", "f10")
        assert isinstance(app.screen, PickerScreen)
    copies = [p.name for p in home_places.campaigns.iterdir()]
    assert copies == ["demo-skirmish"]
    assert campaigns.open_path(example, read_only=True).engine.state.step == "setup"


async def test_privacy_screen_hides_everything(app_factory: Any, demo_path: Path) -> None:
    app = app_factory(demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "f8")
        text = screen_text(app)
        assert "Privacy screen" in text and "Check the set-up" not in text
        await press(pilot, "enter")
        assert isinstance(app.screen, MainScreen)


def test_no_color_and_sixteen_colours(monkeypatch: Any, home_places: Places) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert CampaignApp(home_places, None).no_color
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "standard")
    assert CampaignApp(home_places, None).theme == "ansi-dark"


async def test_an_autosave_applies_on_top_when_the_campaign_changed(home_places: Places,
                                                                    demo_path: Path) -> None:
    app = make_app(home_places, demo_path)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press(pilot, "n", "n")
        assert app.session is not None                   # a crash, as above
        app.session.listeners.clear()
        app.session.opened.store.lock.release()  # type: ignore[union-attr]
        app.session.closed = True
        app.session = None
    other = campaigns.open_path(demo_path)               # another writer saves meanwhile
    other.engine.perform("note", {"text": "from elsewhere"})
    campaigns.save(other)
    campaigns.close(other)
    again = make_app(home_places, demo_path)
    async with again.run_test() as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ConfirmDialog)
        assert "saved again since" in screen_text(again)
        await press(pilot, "enter")                      # apply on top
        assert isinstance(again.screen, MainScreen)
        assert engine(again).state.step == "declare"
        await press(pilot, "ctrl+s", "ctrl+q")
    opened = campaigns.open_path(demo_path, read_only=True)
    assert opened.engine.state.step == "declare"
    assert any(e.summary == "Note: from elsewhere" for e in opened.engine.entries())
