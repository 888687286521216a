"""The one text input the interface uses: an :class:`~textual.widgets.Input` whose cursor
blink follows the app (frozen for snapshot tests and for people who dislike blinking)."""

from __future__ import annotations

from textual.widgets import Input


class Entry(Input):
    def on_mount(self) -> None:
        if not getattr(self.app, "blink", True):
            self.cursor_blink = False
