"""The stylesheets parsed at one start are read back at the next (ui/css_cache.py): the
second start parses nothing, styles the screen the same, and a damaged cache file or
another theme parses again."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.css.stylesheet import Stylesheet

from campaign_tui.store.paths import Places
from campaign_tui.ui.app import CampaignApp


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every stylesheet Textual really parses (the cache's misses)."""
    seen: list[object] = []
    real = Stylesheet._parse_rules

    def counting(self: Stylesheet, css: str, read_from: object, *args: object,
                 **kwargs: object) -> object:
        seen.append(read_from)
        return real(self, css, read_from, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Stylesheet, "_parse_rules", counting)
    monkeypatch.delenv("CAMPAIGN_TUI_NO_CACHE", raising=False)
    return seen


async def _start(places: Places, path: Path, theme: str = "textual-dark") -> dict[str, str]:
    """Start the app on *path*; each widget's resolved colours, by its place in the DOM."""
    app = CampaignApp(places, path, blink=False, theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.painted is not None
        look = {f"{i}:{type(w).__name__}": f"{w.styles.background} {w.styles.color} "
                f"{w.styles.height} {w.styles.display}"
                for i, w in enumerate(app.screen.walk_children(with_self=True))}
        await pilot.press("ctrl+q")
    return look


def _pickles(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle"))


def _cache_files(places: Places) -> list[Path]:
    return _pickles(places.cache / "css")


async def test_the_second_start_parses_no_stylesheet_and_looks_the_same(
        parsed: list[object], home_places: Places, demo_path: Path) -> None:
    first = await _start(home_places, demo_path)
    assert parsed, "the first start parses its stylesheets"
    assert len(_cache_files(home_places)) == 1
    parsed.clear()
    second = await _start(home_places, demo_path)
    assert parsed == []
    assert second == first


async def test_a_damaged_cache_file_is_parsed_again_and_rewritten(
        parsed: list[object], home_places: Places, demo_path: Path) -> None:
    first = await _start(home_places, demo_path)
    (cache,) = _cache_files(home_places)
    cache.write_bytes(b"not a pickle")
    parsed.clear()
    assert await _start(home_places, demo_path) == first
    assert parsed, "nothing could be read: everything is parsed"
    assert cache.read_bytes() != b"not a pickle"


async def test_another_theme_has_its_own_cache(
        parsed: list[object], home_places: Places, demo_path: Path) -> None:
    await _start(home_places, demo_path)
    parsed.clear()
    await _start(home_places, demo_path, theme="textual-light")
    assert parsed, "the light theme's colours are not the dark one's"
    assert len(_cache_files(home_places)) == 2


async def test_no_cache_when_caches_are_turned_off(
        parsed: list[object], home_places: Places, demo_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAMPAIGN_TUI_NO_CACHE", "1")
    await _start(home_places, demo_path)
    assert _cache_files(home_places) == []



def test_what_one_theme_parsed_is_kept_when_the_theme_changes(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    from campaign_tui.ui.css_cache import use_cache

    monkeypatch.delenv("CAMPAIGN_TUI_NO_CACHE", raising=False)
    sheet = use_cache(Stylesheet(variables={"accent": "red"}), tmp_path)
    assert sheet is not None
    sheet.add_source("Static { color: $accent; }", ("test", "CSS"))
    sheet.parse()                                   # parsed for the red theme, not yet kept
    sheet.set_variables({"accent": "blue"})         # another theme: the red one's is kept
    assert len(_pickles(tmp_path)) == 1
    again = use_cache(Stylesheet(variables={"accent": "red"}), tmp_path)
    assert again is not None
    assert [key[0] for key in again._kept] == ["Static { color: $accent; }"]
