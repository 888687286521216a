"""The phase prompt: where the campaign stands, what to do now, the actions allowed now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from campaign_tui.core.engine import ActionChoice, Status


def numbered(choices: list[ActionChoice]) -> list[ActionChoice]:
    """The choices that get a number (advance has its own key, n)."""
    return [c for c in choices if c.kind != "advance"]


def choice_text(number: str, c: ActionChoice) -> Text:
    text = Text()
    text.append(f"{number:>2} ", style="bold")
    text.append(c.title, style="" if c.available else "dim")
    if c.params:
        text.append(" (" + ", ".join(p.name for p in c.params) + ")", style="dim")
    if c.scope == "anytime":
        text.append("  any time", style="italic dim")
    if not c.available and c.reason:
        text.append(f"  — not now: {c.reason}", style="italic")
    return text


class PhasePrompt(Vertical):
    class Choose(Message):
        """The user picked an action of the prompt (by number, click or enter)."""

        def __init__(self, kind: str) -> None:
            super().__init__()
            self.kind = kind

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.choices: list[ActionChoice] = []
        self._shown: tuple[Any, ...] | None = None   # what is on screen (skip repeats)

    def compose(self) -> ComposeResult:
        yield Static("", id="prompt-where")
        yield Static("", id="prompt-text")
        yield OptionList(id="prompt-choices")
        yield Static("", id="prompt-foot", classes="panel-status")

    def show_status(self, st: Status, viewer: str, viewer_name: str, read_only: bool,
                    dice: str, quick_setup: bool = False, hosted: bool = False) -> None:
        shown = (st, viewer, viewer_name, read_only, dice, quick_setup, hosted)
        if shown == self._shown:    # an action that changed nothing here: no new layout
            return
        self._shown = shown
        where = Text()
        if st.clock_text:
            where.append(st.clock_text, style="bold reverse")
            where.append(" ")
        where.append(st.phase_title or "", style="bold")
        if st.step_title and st.step_title != st.phase_title:
            where.append(f" · {st.step_title}")
        if st.reference:
            where.append(f" ({st.reference})", style="dim")
        where.append("\n")
        where.append("Acting: ", style="dim")
        where.append(st.actor_name, style="bold magenta")
        if viewer != "gm" and st.actor not in (viewer, "all", "both"):
            where.append(f"   (you are {viewer_name}: waiting)", style="italic")
        self.query_one("#prompt-where", Static).update(where)

        text = Text()
        if st.final:
            text.append("The campaign is over.", style="bold")
            if st.outcome:
                text.append(" " + ", ".join(f"{k}: {v}" for k, v in st.outcome.items()))
        else:
            text.append(st.prompt or "Carry on.")
        if quick_setup:
            text.append("\nq: quick set-up, the whole set-up at once (one undo removes it).",
                        style="bold green")
        if st.rolls:
            text.append("\nRolls: " + "; ".join(st.rolls), style="dim")
        if st.hidden_input and hosted:
            text.append("\nSecret input: each side enters its orders at its own seat, then "
                        "seals them (palette: Table: seal my orders).", style="italic")
        elif st.hidden_input:
            text.append("\nSecret input: each side enters its orders behind the privacy "
                        "screen (F7 view as, F8 privacy).", style="italic")
        if read_only:
            text.append("\nRead-only: nothing can be changed here.", style="italic")
        self.query_one("#prompt-text", Static).update(text)

        self.choices = list(st.choices)
        options: list[Option] = []
        for i, c in enumerate(numbered(self.choices), 1):
            options.append(Option(choice_text(str(i) if i < 10 else "0", c), id=c.kind,
                                  disabled=not c.available or read_only))
        adv = next((c for c in self.choices if c.kind == "advance"), None)
        if adv is not None:
            options.append(Option(choice_text("n", adv), id="advance",
                                  disabled=not adv.available or read_only))
        ol = self.query_one("#prompt-choices", OptionList)
        highlighted = ol.highlighted
        ol.set_options(options)
        if options:
            first_enabled = next((i for i, o in enumerate(options) if not o.disabled), None)
            keep = highlighted if highlighted is not None and highlighted < len(options) \
                and not options[highlighted].disabled else first_enabled
            ol.highlighted = keep

        foot = Text()
        if st.missing and not st.final:
            foot.append("Before advancing: " + "; ".join(st.missing), style="bold yellow")
        elif not st.final:
            foot.append("n advances to the next step.", style="dim")
        foot.append(f"   dice: {'typed in' if dice == 'manual' else 'the program rolls'}",
                    style="dim")
        self.query_one("#prompt-foot", Static).update(foot)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Choose(event.option.id))

    def kind_for_number(self, number: int) -> ActionChoice | None:
        items = numbered(self.choices)
        return items[number - 1] if 1 <= number <= len(items) else None
