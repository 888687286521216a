"""The one text input the interface uses: an :class:`~textual.widgets.Input` whose cursor
blink follows the app (frozen for snapshot tests and for people who dislike blinking)."""

from __future__ import annotations

import re

from textual import events
from textual.widgets import Input

ALLOWED = {"integer": re.compile(r"[0-9+-]"), "number": re.compile(r"[0-9.eE+-]")}


class Entry(Input):
    def on_mount(self) -> None:
        if not getattr(self.app, "blink", True):
            self.cursor_blink = False

    def on_key(self, event: events.Key) -> None:
        """A number field refuses letters, and says so (not a silent nothing)."""
        allowed = ALLOWED.get(str(self.type))
        ch = event.character
        if allowed is None or not ch or len(ch) != 1 or not ch.isprintable():
            return
        if not allowed.fullmatch(ch):
            event.prevent_default()
            event.stop()
            what = "a whole number" if self.type == "integer" else "a number"
            self.app.bell()
            self.notify(f"{ch!r} refused: this field takes {what}.", severity="warning",
                        timeout=3)
