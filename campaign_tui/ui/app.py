"""The Textual application: campaign picker, wizard, main screen and their dialogs.

The app holds the open :class:`~campaign_tui.ui.session.Session` (the engine handle and the
viewer) and the operations every screen shares: open, save, undo, redo, close, quit. It
never changes game state itself: it sends actions to the engine and redraws from it.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from campaign_tui.core.errors import CampaignError, CampaignLocked, NeedConfirmation
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import Cmd, bindings
from campaign_tui.ui.warm import keep_warm

if TYPE_CHECKING:
    from campaign_tui.core.engine import Outcome
    from campaign_tui.store.files import Opened
    from campaign_tui.store.paths import Places
    from campaign_tui.ui.session import Session

THEME_ENV = "CAMPAIGN_TUI_THEME"
STARTUP_LOG_ENV = "CAMPAIGN_TUI_STARTUP_LOG"
STARTUP_GC_PAUSE = 3.0  # seconds at most without the cyclic garbage collector at start-up


def _sixteen_colours(console_system: str | None) -> bool:
    forced = os.environ.get("TEXTUAL_COLOR_SYSTEM", "")
    if forced in ("standard", "windows"):
        return True
    return console_system in ("standard", "windows")


class CampaignApp(App[int]):
    CSS_PATH: ClassVar = ["app.tcss"]
    TITLE = "campaign-tui"
    CMDS: ClassVar = (C.QUIT,)
    BINDINGS: ClassVar = [
        *bindings(C.QUIT),
        # focus moves are priority bindings so that keys typed (or pasted over SSH) in a
        # burst keep their order: "a-inf<tab>hex:0201" fills two fields, not one
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False,
                priority=True),
    ]

    def __init__(self, places: Places, campaign: Path | None = None, read_only: bool = False,
                 *, blink: bool | None = None, theme: str | None = None,
                 paused_gc: bool = False) -> None:
        super().__init__()
        # the collector was paused for the start-up (ui.launch): on again at the first paint
        self.paused_gc = paused_gc
        self.places = places
        self.campaign_path = Path(campaign) if campaign is not None else None
        self.start_read_only = read_only
        self.session: Session | None = None
        self.main_screen: Screen[Any] | None = None
        if blink is None:
            blink = os.environ.get("CAMPAIGN_TUI_NO_BLINK", "") in ("", "0")
        self.blink = blink
        self.started = time.perf_counter()
        self.painted: float | None = None
        wanted = theme or os.environ.get(THEME_ENV, "")
        if wanted:
            self.theme = wanted
        elif _sixteen_colours(self.console.color_system):
            # a 16-colour terminal: the terminal's own colours, not approximations
            self.theme = "ansi-dark"
        from campaign_tui.ui.css_cache import use_cache

        self.css_cache = use_cache(self.stylesheet, places.cached("css"))

    # -- start -------------------------------------------------------------------------------
    def on_mount(self) -> None:
        try:
            self.places.ensure()
        except OSError as exc:
            self.notify(f"Cannot create the campaign folders: {exc}", severity="error")
        if self.paused_gc:  # whatever comes first (a picker, a dialog), not for long
            self.set_timer(STARTUP_GC_PAUSE, self.startup_done)
        if self.campaign_path is not None:
            self.open_campaign(self.campaign_path, self.start_read_only)
        else:
            self.show_picker()
            self.call_after_refresh(self.startup_done)

    def startup_done(self) -> None:
        """The first screen is up: the garbage collector paused for the start-up runs
        again. What start-up made is frozen first (``gc.freeze``): it lives as long as the
        app, and the collector's first pass would otherwise scan all of it at the first
        keys (0.1 s with a large campaign); the little cyclic garbage among it is kept."""
        if self.paused_gc:
            self.paused_gc = False
            gc.freeze()
            gc.enable()
        self.keep_caches()

    def keep_caches(self) -> None:
        """The stylesheets parsed and the record methods compiled so far, kept for the next
        start (ui/css_cache.py, core/records.py)."""
        if self.css_cache is not None:
            self.css_cache.keep()
        keep_warm(self.places)

    def exit(self, *args: Any, **kwargs: Any) -> None:
        self.keep_caches()  # what the screens opened since the start made
        super().exit(*args, **kwargs)

    def mark_painted(self) -> None:
        """The main screen is on the terminal (startup timing: bench/ui.py)."""
        if self.painted is not None:
            return
        self.painted = time.perf_counter()
        log = os.environ.get(STARTUP_LOG_ENV)
        if log:
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(f"{time.time():.6f} painted {self.painted - self.started:.6f} "
                         f"{os.getpid()} {time.process_time():.6f}\n")
        self.startup_done()

    # -- screens -------------------------------------------------------------------------------
    def _reset_to(self, screen: Screen[Any]) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    def show_picker(self) -> None:
        from campaign_tui.ui.screens.picker import PickerScreen

        self._reset_to(PickerScreen())

    def show_main(self) -> None:
        from campaign_tui.ui.screens.main import MainScreen

        self.main_screen = MainScreen()
        self._reset_to(self.main_screen)

    def show_help(self) -> None:
        from campaign_tui.ui.screens.help import HelpScreen, help_rows

        screen = self.screen
        if isinstance(screen, HelpScreen):
            screen.dismiss(None)
            return
        self.push_screen(HelpScreen(help_rows(screen), self._screen_title(screen)))

    @staticmethod
    def _screen_title(screen: Screen[Any]) -> str:
        doc = (type(screen).__doc__ or "").strip().splitlines()
        return doc[0].rstrip(".") if doc else type(screen).__name__

    # -- opening ---------------------------------------------------------------------------
    def open_campaign(self, path: Path, read_only: bool = False) -> None:
        from campaign_tui import campaigns

        try:
            opened = campaigns.open_path(path, read_only)
        except CampaignLocked as exc:
            self._locked(path, exc)
            return
        except (CampaignError, OSError) as exc:
            self.notify(str(exc), title="Cannot open", severity="error", timeout=10)
            self.show_picker()
            return
        for warning in opened.warnings:
            self.notify(warning, title="Rule set changed", severity="warning", timeout=12)
        if read_only or opened.store is None:
            self._start(path, opened, True)
            return
        self._offer_recovery(path, opened)

    def _locked(self, path: Path, exc: CampaignLocked) -> None:
        from campaign_tui import campaigns
        from campaign_tui.ui.screens.dialogs import ConfirmDialog

        def chosen(what: str | None) -> None:
            if what == "ro":
                self.open_campaign(path, True)
            elif what == "copy":
                try:
                    copy = campaigns.duplicate(self.places, path)
                except (CampaignError, OSError) as err:
                    self.notify(str(err), severity="error")
                    self.show_picker()
                    return
                self.open_campaign(copy)
            else:
                self.show_picker()

        self.push_screen(ConfirmDialog("Campaign in use", str(exc), (
            ("ro", "Open read-only", "primary"), ("copy", "Open a copy", "default"),
            ("cancel", "Cancel", "default"))), chosen)

    def _offer_recovery(self, path: Path, opened: Opened) -> None:
        from campaign_tui.store import recovery

        engine = opened.engine
        try:
            journal = recovery.find(self.places, engine.info.id)
        except (CampaignError, OSError) as exc:
            self.notify(f"The autosave could not be read: {exc}", severity="error", timeout=10)
            journal = None
        if journal is None or not journal.count:
            self._start(path, opened, False)
            return
        # only now: the dialogs are not needed for the first screen (start-up time)
        from campaign_tui import campaigns
        from campaign_tui.ui.screens.dialogs import ConfirmDialog
        from campaign_tui.ui.text import fmt_saved

        stale = recovery.is_stale(engine, journal)

        def chosen(what: str | None) -> None:
            if what == "ontop":
                report = recovery.apply_on_top(engine, journal)
                lines = [f"Applied {len(report.applied)} of the unsaved actions on top, with "
                         "their dice typed in; ^s saves them."]
                lines += [f"Skipped: {s}" for s in report.skipped]
                self.notify("\n".join(lines), title="Autosave applied on top", timeout=15,
                            severity="warning" if report.skipped else "information")
                self._start(path, opened, False, restored=bool(report.applied))
            elif what == "restore":
                try:
                    n = recovery.restore(engine, journal)
                except CampaignError as exc:
                    self.notify(f"Not restored: {exc}", severity="error", timeout=10)
                    self._start(path, opened, False)
                    return
                self.notify(f"Restored {n} unsaved action{'s' if n != 1 else ''}; "
                            "^s saves them.", title="Autosave restored", timeout=8)
                self._start(path, opened, False, restored=True)
            elif what == "discard":
                recovery.discard(journal)
                self._start(path, opened, False)
            else:
                campaigns.close(opened)
                self.show_picker()

        actions = f"{journal.count} unsaved action{'s' if journal.count != 1 else ''}"
        if stale:
            msg = (f"{engine.info.name} was not closed cleanly, and it was saved again since "
                   f"(by another window or command). The autosave holds {actions} (written "
                   f"{fmt_saved(journal.written)}). Apply them on top of the saved campaign? "
                   "Their dice are re-used as typed dice; any that no longer apply are "
                   "skipped and listed.")
            self.push_screen(ConfirmDialog("Apply the autosave on top?", msg, (
                ("ontop", "Apply on top", "primary"), ("discard", "Discard", "error"),
                ("cancel", "Cancel", "default"))), chosen)
            return
        msg = (f"{engine.info.name} was not closed cleanly. The autosave holds {actions} "
               f"(written {fmt_saved(journal.written)}). Restore them?")
        self.push_screen(ConfirmDialog("Restore the autosave?", msg, (
            ("restore", "Restore", "primary"), ("discard", "Discard", "error"),
            ("cancel", "Cancel", "default"))), chosen)

    def _start(self, path: Path, opened: Opened, read_only: bool, restored: bool = False) -> None:
        from campaign_tui.ui.session import Session

        self.session = Session(self.places, path, opened, read_only)
        self.session.listeners.append(self._committed)
        if restored and self.session.recorder is not None:
            try:
                self.session.recorder.update()
            except (OSError, CampaignError) as exc:
                self.notify(f"The autosave could not be written: {exc}", severity="error")
        self.title = f"campaign-tui · {self.session.name}"
        self.show_main()
        index = opened.engine.log_index
        if index is not None and not index.complete:
            # an older campaign: index its sealed log segments once, off the UI thread
            self.run_worker(index.ensure, thread=True, group="log-index")

    # -- after every action ----------------------------------------------------------------
    def _committed(self, outcome: Outcome) -> None:
        session = self.session
        for screen in self.screen_stack:
            hook = getattr(screen, "campaign_changed", None)
            if hook is not None:
                hook(outcome)
        if session is not None:
            while session.problems:
                self.notify(session.problems.pop(0).message, severity="error", timeout=10)
        if "phase" in outcome.events and outcome.bookmark is not None and session is not None \
                and session.recorder is not None:
            self.notify(f"{outcome.bookmark.label} (crash recovery; ^s saves)",
                        title="Autosaved", timeout=3)
        if "game_over" in outcome.events:
            self.notify("The campaign is over.", title="Game over", timeout=8)

    def acted(self, outcome: Outcome) -> None:
        seen = self.session.seat().entry(outcome.entry) if self.session else None
        self.action_notice(seen.summary if seen else "Done.", timeout=3)

    def action_notice(self, message: str, timeout: float = 3) -> None:
        """Say what the last action, undo or redo did, in the screen's notice box: the
        notice replaces the one before it (ten undos in a row leave the last one's)."""
        from campaign_tui.ui.widgets.notice import show_action_notice

        show_action_notice(self.screen, message, timeout)

    # -- shared commands ---------------------------------------------------------------------
    def save(self) -> bool:
        session = self.session
        if session is None:
            return False
        if session.read_only:
            self.notify("Read-only: this campaign cannot be saved here.", severity="warning")
            return False
        try:
            session.save()
        except (CampaignError, OSError) as exc:
            self.notify(str(exc), title="Not saved", severity="error", timeout=10)
            return False
        self.notify(f"Saved {session.name}.", timeout=3)
        self._refresh_bars()
        return True

    def _refresh_bars(self) -> None:
        for screen in self.screen_stack:
            update = getattr(screen, "update_topbar", None)
            if update is not None:
                update()

    def undo(self) -> None:
        from campaign_tui.ui.screens.dialogs import ConfirmDialog

        session = self.session
        if session is None:
            return

        def undone(outcome: Outcome) -> None:
            seen = session.seat().entry(outcome.entry)
            what = seen.summary.removeprefix("Undo: ") if seen else "the last action"
            self.action_notice(f"Undone: {what}", timeout=4)

        try:
            outcome = session.undo()
        except NeedConfirmation as exc:
            def chosen(what: str | None) -> None:
                if what == "undo":
                    try:
                        undone(session.undo(confirm=True))
                    except CampaignError as err:
                        self.notify(str(err), severity="error")

            target = session.engine.undo_target()
            title = f"Undo '{target.summary}'?" if target else "Undo past a die roll?"
            self.push_screen(ConfirmDialog(title, str(exc), (
                ("undo", "Undo it", "error"), ("keep", "Keep it", "primary")), focus="keep"),
                chosen)
            return
        except CampaignError as exc:
            self.notify(str(exc), severity="warning", timeout=4)
            return
        undone(outcome)

    def redo(self) -> None:
        session = self.session
        if session is None:
            return
        try:
            self.acted(session.redo())
        except CampaignError as exc:
            self.notify(str(exc), severity="warning", timeout=4)

    def close_campaign(self, then: Any = None) -> None:
        """Close the open campaign (asking about unsaved work), then *then* or the picker."""
        from campaign_tui.ui.screens.dialogs import ConfirmDialog

        session = self.session
        after = then or self.show_picker
        if session is None:
            after()
            return

        def finish(keep_journal: bool = False) -> None:
            session.close(keep_journal=keep_journal)
            self.session = None
            self.main_screen = None
            gc.unfreeze()  # what start-up froze (the closed campaign too) can be collected
            self.title = "campaign-tui"
            after()

        if not session.dirty or session.read_only:
            finish()
            return

        def chosen(what: str | None) -> None:
            if what == "save":
                if self.save():
                    finish()
            elif what == "discard":
                finish()

        n = session.unsaved_count
        self.push_screen(ConfirmDialog("Unsaved changes", f"{session.name} has {n} unsaved "
                                       f"action{'s' if n != 1 else ''}.", (
                                           ("save", "Save", "primary"),
                                           ("discard", "Don't save", "error"),
                                           ("cancel", "Cancel", "default"))), chosen)

    async def action_quit(self) -> None:
        self.close_campaign(then=lambda: self.exit(0))

    # -- command palette ------------------------------------------------------------------
    def _command_nodes(self, screen: Screen[Any]) -> Iterator[DOMNode]:
        seen: set[int] = set()
        focused = screen.focused
        chain: list[DOMNode] = list(focused.ancestors_with_self) if focused else [screen, self]
        for node in [*chain, *screen.query("*"), screen, self]:
            if id(node) in seen or not getattr(node, "CMDS", None):
                continue
            seen.add(id(node))
            yield node

    def declared_commands(self, screen: Screen[Any]) -> Iterator[tuple[DOMNode, Cmd]]:
        seen: set[str] = set()
        for node in self._command_nodes(screen):
            for cmd in node.CMDS:  # type: ignore[attr-defined]
                if cmd.id in seen:
                    continue
                seen.add(cmd.id)
                yield node, cmd

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for node, cmd in self.declared_commands(screen):
            if not cmd.palette:
                continue
            action = cmd.action
            name = action.split("(")[0]
            if node.check_action(name, ()) is False:
                continue
            if not hasattr(node, f"action_{name}") and name != "quit":
                continue
            yield SystemCommand(f"{cmd.title} ({cmd.keys})", cmd.help,
                                partial(self.run_action, action, node))
        extras = getattr(screen, "palette_entries", None)
        if extras is not None:
            for title, help_text, callback in extras():
                yield SystemCommand(title, help_text, callback)
        for command in super().get_system_commands(screen):
            if command.title in ("Theme", "Screenshot"):
                yield command
