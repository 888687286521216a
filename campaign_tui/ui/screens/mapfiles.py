"""Map files from the map screen, as `campaign-tui map --import/--export/--library` does them:
import a file (or a map of the user's library) with the engine's logged, undoable
``gm.map_import``, export the campaign's map as a file, keep it in the library.

A bad file gets the same message as on the command line (file, line, problem) and changes
nothing."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from campaign_tui.core.board.mapexport import map_file_of
from campaign_tui.store import maplib
from campaign_tui.store.atomic import atomic_write
from campaign_tui.ui.session import describe_error

if TYPE_CHECKING:
    from textual.screen import Screen

    from campaign_tui.ui.session import Session

TYPE_PATH = "\x00path"  # the library list's "type a file name" row
KEEP = "\x00keep"       # the library list's "keep this campaign's map" row


def refused(screen: Screen[Any], session: Session) -> bool:
    """Only the GM changes the map, and never in a read-only campaign."""
    if session.read_only:
        screen.notify("Read-only: nothing can be changed.", severity="warning")
        return True
    if session.viewer != "gm":
        screen.notify("Only the GM imports maps (F7: view as GM).", severity="warning")
        return True
    return False


def import_map(screen: Screen[Any], session: Session, where: str) -> bool:
    """Read the map file *where* (a path, or the name of a library map) into the campaign
    and keep it in the library. Returns whether it was imported."""
    places = session.places
    try:
        mf = maplib.load(places, where)
        text = maplib.find(places, where).read_text(encoding="utf-8")
        outcome = session.perform("gm.map_import", {"text": text, "name": mf.name})
    except Exception as exc:  # the file's own problem, said as the command line says it
        screen.notify(describe_error(exc), title="Map not imported", severity="error",
                      timeout=12)
        return False
    kept = maplib.keep(places, mf)
    screen.app.acted(outcome)  # type: ignore[attr-defined]
    screen.notify(f"Kept in your map library: {kept.name}", timeout=4)
    return True


def export_map(screen: Screen[Any], session: Session, where: str) -> Path | None:
    """Write the campaign's map (as the GM knows it) as a map file at *where*."""
    path = Path(where).expanduser()
    try:
        atomic_write(path, map_file_of(session.engine).dumps())
    except Exception as exc:  # a folder that does not exist, no permission...
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else describe_error(exc)
        screen.notify(f"{path}: {why}", title="Map not written",
                      severity="error", timeout=8)
        return None
    screen.notify(f"Map file written: {path}", timeout=4)
    return path


def keep_map(screen: Screen[Any], session: Session) -> Path:
    kept = maplib.keep(session.places, map_file_of(session.engine), session.name)
    screen.notify(f"Kept in your map library: {kept}", timeout=5)
    return kept


def library_items(session: Session) -> list[tuple[str, str | Text]]:
    """The library's maps (each readable one with its title, a broken one with its
    problem), then typing a file name and keeping this campaign's map."""
    items: list[tuple[str, str | Text]] = []
    for path in maplib.entries(session.places):
        try:
            label = Text(maplib.load_map(path).title, style="bold")
            label.append(f"  {path.name}", style="dim")
        except Exception as exc:  # a broken file in the library is shown, not fatal
            label = Text(f"{path.name}: unreadable ({describe_error(exc)})", style="dim")
        items.append((str(path), label))
    items.append((TYPE_PATH, Text("Type a map file's name…", style="italic")))
    items.append((KEEP, Text("Keep this campaign's map in the library", style="italic")))
    return items


def open_library(screen: Screen[Any], session: Session, done: Any = None) -> None:
    """The map library: Enter on a map imports it; or type a file; or keep this map."""
    from campaign_tui.ui.screens.dialogs import ChoiceDialog

    if refused(screen, session):
        return

    def chosen(value: str | None) -> None:
        if value == TYPE_PATH:
            ask_import(screen, session, done)
        elif value == KEEP:
            keep_map(screen, session)
        elif value and import_map(screen, session, value) and done is not None:
            done()

    screen.app.push_screen(ChoiceDialog(
        "Map library", library_items(session),
        f"Maps kept in {maplib.folder(session.places)}: Enter imports one into this campaign "
        "(logged; ^z undoes it)."), chosen)


def ask_import(screen: Screen[Any], session: Session, done: Any = None) -> None:
    from campaign_tui.ui.screens.dialogs import InputDialog

    if refused(screen, session):
        return

    def entered(value: str | None) -> None:
        if value and value.strip() and import_map(screen, session, value.strip()) \
                and done is not None:
            done()

    screen.app.push_screen(InputDialog(
        "Import a map file", "A map file's path, or the name of a map in your library. "
        "A bad file is refused with its line and problem, and nothing changes.",
        placeholder="maps/planet.toml"), entered)


def ask_export(screen: Screen[Any], session: Session) -> None:
    from campaign_tui.ui.screens.dialogs import InputDialog

    default = f"{maplib.slug(session.name)}-map.toml"

    def entered(value: str | None) -> None:
        if value and value.strip():
            export_map(screen, session, value.strip())

    screen.app.push_screen(InputDialog(
        "Export the map", "Write this campaign's map (every known fact) as a map file.",
        value=default), entered)
