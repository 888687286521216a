"""One open campaign as the interface deals with it.

The session holds no game state: it keeps the handle on the opened campaign (engine, store,
recovery journal) and who is looking (the viewer). Everything the screens show is read from
the engine; everything they change is sent to it as an action. No Textual import here, so
the flow can be tested on its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import CampaignError
from campaign_tui.core.records import record

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine, Outcome, Status
    from campaign_tui.core.model import State
    from campaign_tui.core.sideview import SideView
    from campaign_tui.store.files import Opened
    from campaign_tui.store.paths import Places
    from campaign_tui.store.recovery import Recorder

Listener = Callable[["Outcome"], None]


def describe_error(exc: BaseException) -> str:
    """A message for the person at the table. Engine errors are written for them already;
    anything else is a fault in a rule set (the engine rolled the action back)."""
    if isinstance(exc, CampaignError):
        return str(exc)
    return (f"The rule set failed ({type(exc).__name__}: {exc}). Nothing was changed; "
            "please report it.")


@record
class JournalProblem:
    """The recovery journal could not be written (the game goes on; the user is told)."""

    message: str


class Session:
    def __init__(self, places: Places, path: Path, opened: Opened,
                 read_only: bool = False) -> None:
        self.places = places
        self.path = Path(path)
        self.opened = opened
        self.engine: Engine = opened.engine
        # a per-side export shows that side's view; everything else starts as the GM
        self.viewer = self.engine.info.export_side or "gm"
        self.read_only = bool(read_only or self.engine.read_only or opened.store is None)
        self.recorder: Recorder | None = None
        if not self.read_only:
            from campaign_tui.store.recovery import Recorder

            self.recorder = Recorder(places, self.path, self.engine)
        self.listeners: list[Listener] = []
        self.problems: list[JournalProblem] = []
        self.closed = False
        self.engine.listeners.append(self._committed)

    # -- facts -----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.engine.info.name

    @property
    def dirty(self) -> bool:
        """True when something was done since the last save."""
        return bool(self.engine.history.pending)

    @property
    def unsaved_count(self) -> int:
        return len(self.engine.history.pending)

    def sides(self) -> list[tuple[str, str]]:
        return [(sid, s.name) for sid, s in self.engine.state.sides.items()]

    hosted = False   # one screen of one's own (a hosted table's seat: True)

    @property
    def own_side(self) -> str | None:
        """The one side this screen acts for, when it is bound to one (a hosted side's
        seat); None at one screen of one's own, where the GM may act for any side."""
        return None

    def viewer_name(self, viewer: str | None = None) -> str:
        v = self.viewer if viewer is None else viewer
        if v == "gm":
            return "GM"
        side = self.engine.state.sides.get(v)
        return side.name if side else v

    def dice_mode(self) -> str:
        return self.engine.dice_mode(self.engine.state)

    def seat(self) -> SideView:
        """What the current viewer receives: the one door for what the screens show."""
        return self.engine.side_view(self.viewer)

    def status(self) -> Status:
        return self.seat().status()

    def view(self, state: State | None = None) -> State:
        return self.engine.view(self.viewer, state)

    # -- acting -----------------------------------------------------------------------------
    def perform(self, kind: str, params: dict[str, Any] | None = None,
                answers: dict[str, Any] | None = None, preview: bool = False,
                hold_rolls: bool = False) -> Outcome:
        if kind == "advance" and not hold_rolls:
            return self.engine.advance(answers or {}, by=self.viewer, preview=preview)
        return self.engine.perform(kind, params or {}, answers or {}, by=self.viewer,
                                   preview=preview, hold_rolls=hold_rolls)

    def advance(self, answers: dict[str, Any] | None = None) -> Outcome:
        return self.engine.advance(answers or {}, by=self.viewer)

    def undo(self, confirm: bool = False) -> Outcome:
        return self.engine.undo(by=self.viewer, confirm=confirm)

    def redo(self) -> Outcome:
        return self.engine.redo(by=self.viewer)

    def _committed(self, outcome: Outcome) -> None:
        if self.recorder is not None:
            try:
                self.recorder.update()
            except (OSError, CampaignError) as exc:
                self.problems.append(JournalProblem(f"the recovery journal could not be "
                                                    f"written: {exc}"))
        for listener in list(self.listeners):
            listener(outcome)

    # -- saving and closing -------------------------------------------------------------
    def save(self) -> None:
        from campaign_tui import campaigns

        if self.read_only:
            raise CampaignError("this campaign is open read-only; it cannot be saved")
        campaigns.save(self.opened)
        if self.recorder is not None:
            self.recorder.saved()

    def close(self, keep_journal: bool = False) -> None:
        """Release the campaign. The journal is dropped unless *keep_journal* (a clean quit
        leaves nothing to recover)."""
        if self.closed:
            return
        from campaign_tui import campaigns

        self.closed = True
        with contextlib.suppress(ValueError):
            self.engine.listeners.remove(self._committed)
        if self.recorder is not None and not keep_journal:
            self.recorder.clear()
        campaigns.close(self.opened)
