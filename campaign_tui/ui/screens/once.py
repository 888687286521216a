"""Screens that close once.

Textual's ``dismiss`` pops whatever screen is on top. When keys come fast (two enters while
a pick list closes), a dialog can be asked to close twice: the second call popped the screen
below it, then the main screen, leaving the terminal blank (and at worst stopping the program
with an empty screen stack). A dialog dismissed when it is no longer the top screen now does
nothing.
"""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen


class ClosesOnce(ModalScreen[Any]):
    """A modal screen whose ``dismiss`` acts only while it is the screen on top."""

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_attached or self.app.screen is not self:
            return AwaitComplete.nothing()
        return super().dismiss(result)
