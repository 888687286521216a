"""Map files from the map screen: `i` imports (the engine's gm.map_import, logged and undone
by ^z), `x` exports, `l` lists the map library (Enter imports one, or keeps this campaign's
map); a bad file shows the command line's message (file, line, problem) and changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from campaign_tui import campaigns
from campaign_tui.core.board.mapfile import load_map
from campaign_tui.store import maplib
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import ChoiceDialog, InputDialog
from campaign_tui.ui.screens.map import MapScreen
from tests.ui.helpers import keys, make_app, screen_text

ROOT = Path(__file__).resolve().parent.parent.parent
DEMO = ROOT / "rulesets" / "prestags" / "data" / "maps" / "demo_mapsheet.toml"


def _rome(home: Places) -> Path:
    return campaigns.new_campaign(home, "prestags", "chariot-rome", "Rome", 4, "auto", {})


async def _press(pilot: Pilot[Any], *names: str) -> None:
    for name in names:
        await pilot.press(name)
        await pilot.pause()
    await pilot.pause()


async def _type(pilot: Pilot[Any], app: Any, text: str) -> None:
    """Type into the open input dialog (its value set at once: paths are long)."""
    dialog = app.screen
    assert isinstance(dialog, InputDialog)
    entry = dialog.query_one("#answer")
    entry.value = text  # type: ignore[attr-defined]
    await _press(pilot, "enter")


def _letters(app: Any) -> int:
    return sum(1 for f in app.screen.model.facts.values() if f.get("letter"))


async def test_import_export_undo_and_the_library(home_places: Places, tmp_path: Path) -> None:
    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=(100, 30)) as pilot:
        await _press(pilot, "g")
        assert isinstance(app.screen, MapScreen)
        assert _letters(app) == 0
        await _press(pilot, "i")
        await _type(pilot, app, str(DEMO))
        assert isinstance(app.screen, MapScreen)
        engine = app.session.engine
        assert engine.entries()[-1].kind == "gm.map_import"          # the engine's action
        assert _letters(app) >= 10                                   # drawn at once
        kept = maplib.entries(home_places)
        assert len(kept) == 1                                        # and kept in the library

        out = tmp_path / "exported.toml"
        await _press(pilot, "x")
        await _type(pilot, app, str(out))
        mine, shipped = load_map(out), load_map(DEMO)
        for h, facts in shipped.hexes.items():
            assert {k: mine.hexes[h][k] for k in facts} == facts

        await _press(pilot, "ctrl+z")                                # undone from the map
        assert engine.entries()[-1].kind != "gm.map_import"
        assert _letters(app) == 0

        await _press(pilot, "l")                                     # the library: Enter imports
        assert isinstance(app.screen, ChoiceDialog)
        assert "PRESTAGS demonstration mapsheet" in screen_text(app)
        await _press(pilot, "enter")
        assert isinstance(app.screen, MapScreen)
        assert engine.entries()[-1].kind == "gm.map_import" and _letters(app) >= 10


async def test_a_bad_map_file_is_refused_with_file_line_and_problem(home_places: Places,
                                                                    tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\ntitle = "x"\n\n[hexes."0101"]\nterrain = "woods"\n\n'
                   '[hexes."banana"]\nterrain = "clear"\n')
    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await _press(pilot, "g")
        engine = app.session.engine
        before = len(engine.history)
        await _press(pilot, "i")
        await _type(pilot, app, str(bad))
        messages = [str(n.message) for n in app._notifications]
        assert any(f"{bad}, line 7: hex 'banana' is not a hex" in m for m in messages)
        assert len(engine.history) == before and not maplib.entries(home_places)
        assert isinstance(app.screen, MapScreen)


async def test_keep_this_map_and_only_the_gm_imports(home_places: Places) -> None:
    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=(100, 30)) as pilot:
        await _press(pilot, "g", "l")
        assert isinstance(app.screen, ChoiceDialog)
        await _press(pilot, "end", "enter")                          # keep this campaign's map
        assert [p.name for p in maplib.entries(home_places)] == ["rome.toml"]
        await _press(pilot, "escape")
        app.session.viewer = "A"
        await _press(pilot, "g", "i")
        assert isinstance(app.screen, MapScreen)                     # refused: no dialog
        assert any("Only the GM" in str(n.message) for n in app._notifications)


async def test_picking_offers_no_map_files(home_places: Places) -> None:
    from campaign_tui.ui.mapmodel import MapModel

    app = make_app(home_places, _rome(home_places))
    async with app.run_test(size=(100, 30)) as pilot:
        await _press(pilot)
        app.push_screen(MapScreen(MapModel.of(app.session), pick="hex"))
        await _press(pilot, *keys("i"))
        assert isinstance(app.screen, MapScreen)
