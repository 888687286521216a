"""Check boxes, radio buttons and selection lists whose state shows as a character.

Textual draws an ``X`` in every box and tells on from off by shade alone, which NO_COLOR
and a monochrome terminal lose. These draw ``x``/``*`` when on and a blank when off.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.content import Content
from textual.strip import Strip
from textual.widgets import Checkbox, RadioButton, SelectionList
from textual.widgets._toggle_button import ToggleButton


class _Marked:
    ON = "x"

    @property
    def _button(self) -> Content:
        inner = self.ON if self.value else " "  # type: ignore[attr-defined]
        return Content.assemble((self.BUTTON_LEFT, ""), (inner, "bold"),  # type: ignore[attr-defined]
                                (self.BUTTON_RIGHT, ""))  # type: ignore[attr-defined]


class MarkedCheckbox(_Marked, Checkbox):
    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"


class MarkedRadioButton(_Marked, RadioButton):
    ON = "*"
    BUTTON_LEFT = "("
    BUTTON_RIGHT = ")"


class MarkedSelectionList(SelectionList[Any]):
    """A selection list whose marks read ``[x]`` and ``[ ]``."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        for i, seg in enumerate(segments[:-2]):
            if not i:
                continue
            if seg.text != ToggleButton.BUTTON_INNER or seg.style is None:
                continue
            index = seg.style.meta.get("option")
            if index is None:
                continue
            on = self.get_option_at_index(index).value in self.selected
            style = seg.style
            segments[i - 1:i + 2] = [Segment("[", style), Segment("x" if on else " ", style),
                                     Segment("]", style)]
            break
        return Strip(segments, strip.cell_length)
