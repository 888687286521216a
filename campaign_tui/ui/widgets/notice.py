"""The notice of the last action, undo or redo: a box at the bottom right of the screen,
over what is there, whose words the next action replaces, gone after its time.

One box is kept per screen and its words changed in place: a Textual toast for each action
(mounted, laid out three times, unmounted when the next replaced it) cost the acting seat
about 25 ms of processor at every action, more than the action's own update."""

from __future__ import annotations

from typing import Any

from textual.containers import Container
from textual.screen import Screen
from textual.widgets import Static


class ActionNotice(Static):
    """The words (styled in app.tcss, with the rack: a widget's own CSS, read at its first
    mount, would have the whole stylesheet applied again in the middle of an action)."""


class NoticeRack(Container):
    """Where the notice sits: docked at the bottom, above the keys line, on a layer of
    its own (so the screen's own layout does not move), shown only while it says
    something."""

    def __init__(self) -> None:
        self.notice = ActionNotice()
        super().__init__(self.notice, id="action-notice-rack")
        self._timer: Any = None

    def say(self, message: str, timeout: float) -> None:
        notice = self.notice
        width, height = notice.content_region.size
        if self.display and width:
            # the box keeps its width: the screen is laid out again only when the new
            # words need another number of lines (a layout costs more than the action)
            notice.update(message, layout=False)
            size = self.screen.size
            if notice.get_content_height(size, size, width) != height:
                notice.refresh(layout=True)
        else:
            notice.update(message)
            self.display = True
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(timeout, self._done)

    def _done(self) -> None:
        self._timer = None
        self.display = False

    @property
    def message(self) -> str:
        """What the notice says now ("" when it is not shown)."""
        return str(self.notice.content) if self.display else ""


def show_action_notice(screen: Screen[Any], message: str, timeout: float) -> None:
    """Say *message* on *screen* for *timeout* seconds, in place of what its notice said."""
    racks = screen.query(NoticeRack)
    rack = racks.first() if racks else NoticeRack()
    if not racks:
        screen.mount(rack)
    rack.say(message, timeout)
