"""The resolve dialog: every action runs through it, and every rule set's combat with it.

1. **Form**: the action's parameters (units and formations are picked from the order of
   battle; marked units fill unit lists).
2. **Decide**: the engine's decision requests, rendered generically (with the totals and
   modifiers computed so far); each answer re-runs the action with all answers given.
3. **Ready to roll**: the action runs as a preview held at its first die, so the totals,
   odds, columns, shifts and modifiers are shown before any die is seen. A long battle
   whose rule set marks its rounds is played a round at a time (``^n``): the program rolls
   the rest of the round and holds at the next round's first die, the rounds so far
   summed up; dice typed from the table answer any die, in any round.
4. **Roll and review** (``^r``): the program rolls (or the dice typed in are used) and the
   preview shows exactly the dice a real run will use, changing nothing: dice, results and
   the changes to the campaign. The GM may override a roll or a table result (``^o``).
5. **Apply** (``^e``, or enter on Apply): the action is carried out, logged and undoable.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Static

from campaign_tui.core import param_words
from campaign_tui.core.dice import DiceExpr
from campaign_tui.core.errors import InvalidInput, NeedDecision
from campaign_tui.core.rounds import split_rounds
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.dialogs import (
    ChoiceDialog,
    EntityPicker,
    InputDialog,
    PickEntry,
    PrivacyScreen,
)
from campaign_tui.ui.screens.editor import StructuredEditor
from campaign_tui.ui.screens.once import ClosesOnce
from campaign_tui.ui.session import describe_error
from campaign_tui.ui.text import describe_changes, unit_label
from campaign_tui.ui.widgets.choices import ChoiceList
from campaign_tui.ui.widgets.forms import ENTITY_TYPES, DecisionField, ParamField
from campaign_tui.ui.widgets.shapes import shape_for

if TYPE_CHECKING:
    from campaign_tui.core.actions import Param
    from campaign_tui.core.decisions import Decision
    from campaign_tui.core.engine import Outcome
    from campaign_tui.core.model import State
    from campaign_tui.ui.session import Session

def _held(decision: Decision) -> bool:
    """A die (or random draw) the preview stopped before: "auto" lets the program roll it."""
    return decision.kind in ("dice", "multi") and decision.default == "auto"


PICK = C.Cmd("pick", "f2", "Pick", "Pick units or formations for the focused field from the "
             "order of battle", "pick")
ONE_DIE = C.Cmd("one-die", "ctrl+t", "One die", "The program rolls the held die only and stops "
                "at the next one, with the explanation so far", "roll_one")
NEXT_ROUND = C.Cmd("next-round", "ctrl+n", "Next round", "The program rolls the rest of this "
                   "round and stops at the first die of the next one, the rounds so far summed "
                   "up (a long battle round by round)", "next_round")


class ResolveDialog(ClosesOnce):
    """The resolve dialog: parameters, decisions, roll, review, apply."""

    DROPDOWN_MAX = 60  # more candidates than this stay a typed field

    CMDS: ClassVar = (C.ROLL, NEXT_ROUND, ONE_DIE, C.APPLY, C.OVERRIDE, PICK, C.CANCEL, C.HELP)
    BINDINGS: ClassVar = [*bindings(*CMDS), Binding("ctrl+q", "app.quit", show=False,
                                                    priority=True),
                          Binding("pageup", "scroll_body(-1)", "Scroll up", show=False),
                          Binding("pagedown", "scroll_body(1)", "Scroll down", show=False)]

    def __init__(self, session: Session, kind: str, title: str,
                 params: tuple[Param, ...] = (), help: str = "",
                 prefill: dict[str, Any] | None = None,
                 hints: dict[str, list[tuple[str, str]]] | None = None,
                 marks: list[str] | None = None, cursor: str | None = None,
                 answers: dict[str, Any] | None = None, focus: str | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self.focus_field = focus
        self._ready = False
        self.session = session
        self.kind = kind
        self.title_text = title
        self.params = params
        self.help = " ".join(help.split())
        self.prefill = dict(prefill or {})
        self.hints = dict(hints or {})
        self.answers: dict[str, Any] = dict(answers or {})
        self.stage = "form"
        self.decision: Decision | None = None
        self.preview: Outcome | None = None
        self.rolled = False  # the first die was released: later dice roll without stopping
        self.typed_ahead: list[str] = []  # faces typed for the dice after the held one
        self.round_starts: dict[str, int] = {}  # round:N -> the number of its first roll
        self.view: State = session.view()
        self.candidates = self._candidates()
        self._fill_entities(marks or [], cursor)
        self._choices_from_view()

    def _candidates(self) -> dict[str, list[str]]:
        """What the rule set says fits each parameter now, for the side acting (the
        viewer, or for the GM the step's actor)."""
        session = self.session
        actor = self._actor()
        out: dict[str, list[str]] = {}
        own = getattr(session, "own_side", None)
        for p in self.params:
            if own is not None and p.type == "side":
                out[p.name] = [own]      # a side's seat acts for its own side alone
                continue
            found = p.candidates_for(self.view, actor)
            if found is not None:
                out[p.name] = found
        return out

    def _actor(self) -> str:
        engine = self.session.engine
        actor = self.session.viewer
        return engine.resolve_actor(engine.state, engine.step.actor) if actor == "gm" else actor

    def _choices_from_view(self) -> None:
        """Sides and records are chosen from what the viewer sees, places and the like from
        the rule set's candidates (a short list becomes a dropdown)."""
        for p in self.params:
            if p.name in self.hints:
                continue
            found = self.candidates.get(p.name)
            if found is not None and p.type not in ENTITY_TYPES and p.type not in (
                    "list", "json", "bool") and 0 < len(found) <= self.DROPDOWN_MAX:
                self.hints[p.name] = [(c, self._candidate_label(p.type, c)) for c in found]
            elif p.type == "side":
                self.hints[p.name] = [(sid, f"{s.name} ({sid})")
                                      for sid, s in self.view.sides.items()]
            elif p.type == "record" and self.view.records(p.record):
                self.hints[p.name] = [(key, key) for key in self.view.records(p.record)]

    def _candidate_label(self, type_: str, value: str) -> str:
        if type_ == "side" and value in self.view.sides:
            return f"{self.view.sides[value].name} ({value})"
        if value in self.view.units:
            return f"{self.view.units[value].label} ({value})"
        if value in self.view.formations:
            return f"{self.view.formations[value].name} ({value})"
        return value

    def _fill_entities(self, marks: list[str], cursor: str | None) -> None:
        used_cursor = False
        for p in self.params:
            if p.name in self.prefill:
                continue
            found = self.candidates.get(p.name)
            if found is not None and len(found) == 1 and (p.required or (
                    p.type == "side" and getattr(self.session, "own_side", None))):
                # the only one that fits is filled in
                self.prefill[p.name] = found if p.type in ("units", "formations") else found[0]
                continue
            if found is not None and p.type in ("units", "formations") and marks:
                self.prefill[p.name] = [m for m in marks if m in found] or None
                continue
            if p.type == "units" and marks:
                self.prefill[p.name] = list(marks)
            elif p.type == "unit" and cursor and not used_cursor:
                self.prefill[p.name] = cursor
                used_cursor = True

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        st = self.session.status()
        with Vertical(classes="dialog resolve"):
            head = Text(self.title_text, style="bold")
            head.append(f"   {st.clock_text} · {st.phase_title} · as "
                        f"{self.session.viewer_name()}", style="dim")
            yield Static(head, classes="dialog-title")
            # pinned: the rest scrolls under it
            yield Static("", id="resolve-question", classes="decision-head")
            with VerticalScroll(id="resolve-body"):
                if self.help:
                    yield Static(Text(self.help, style="dim"), id="resolve-help")
                if st.rolls and self.kind in self.session.engine.step.actions:
                    yield Static(Text("Rolls in this step: " + "; ".join(st.rolls),
                                      style="italic"), id="resolve-rolls")
                with Vertical(id="resolve-form"):
                    for p in self.params:
                        shape = shape_for(self.kind, p, self.candidates.get(p.name))
                        yield ParamField(p, self.prefill.get(p.name), self.hints.get(p.name),
                                         self._describe_ids, shape, self._name_of)
                yield Static("", id="resolve-sofar")
                yield Vertical(id="resolve-decision")
                yield Static("", id="resolve-review")
            yield Static("", id="resolve-error")
            with Horizontal(classes="buttons"):
                yield Button("Roll ^r", id="btn-roll", variant="primary", compact=True)
                yield Button("Next round ^n", id="btn-round", compact=True)
                yield Button("Apply ^e", id="btn-apply", variant="success", compact=True)
                yield Button("Override ^o", id="btn-override", compact=True)
                yield Button("Cancel esc", id="btn-cancel", variant="error", compact=True)
        yield Footer(compact=True)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _set_ready(self) -> None:
        self._ready = True

    def _fit(self, height: int) -> None:
        # title, the pinned question, buttons, error line, borders and footer stay visible;
        # the body scrolls. Called after a refresh: the dialog may be gone by then.
        for question in self.query("#resolve-question"):
            pinned = question.virtual_size.height if question.display else 0
            for body in self.query("#resolve-body"):
                body.styles.max_height = max(4, height - 10 - pinned)

    def _pin(self, question: Text | None) -> None:
        """The question of the stage (the decision asked, or the result and its first
        roll) stays in sight above the scrolling body, whatever the terminal's height."""
        pinned = self.query_one("#resolve-question", Static)
        pinned.display = question is not None
        pinned.update(question or "")
        self.call_after_refresh(self._fit, self.app.size.height)

    def action_scroll_body(self, pages: int) -> None:
        body = self.query_one("#resolve-body", VerticalScroll)
        body.scroll_to(y=body.scroll_y + pages * max(1, body.size.height - 1), animate=False)

    # Work asked for "after the next refresh" may come after the dialog closed (keys typed
    # fast): it then finds nothing and does nothing, instead of stopping the program.
    def _scroll_to_end(self) -> None:
        for body in self.query("#resolve-body"):
            body.scroll_end(animate=False)

    def _scroll_to_review(self) -> None:
        for review in self.query("#resolve-review"):
            review.scroll_visible(top=True, animate=False)

    def on_mount(self) -> None:
        self.call_after_refresh(self._set_ready)
        self._fit(self.app.size.height)
        self.query_one("#btn-apply", Button).display = False
        self.query_one("#btn-override", Button).display = False
        self.query_one("#btn-round", Button).display = False
        if self.session.dice_mode() == "manual":
            self.query_one("#btn-roll", Button).label = "Go on ^r"
        if not self._rolls_when_computed():
            self.query_one("#btn-roll", Button).label = "Review ^r"
        fields = list(self.query(ParamField))
        own = getattr(self.session, "own_side", None)
        chosen = [f for f in fields if f.param.name == self.focus_field] or [
            f for f in fields if not (own and f.param.type == "side")] or fields
        if chosen:
            chosen[0].focus_widget()
        else:
            self.call_after_refresh(self.action_roll)

    # -- entity fields ----------------------------------------------------------------------
    def _describe_ids(self, ids: list[str]) -> str:
        names = []
        for i in ids:
            if i in self.view.units:
                names.append(self.view.units[i].label)
            elif i in self.view.formations:
                names.append(self.view.formations[i].name)
            else:
                names.append(f"{i}?")
        return ("= " + ", ".join(names)) if names else ""

    def action_pick(self) -> None:
        field = self._focused_field()
        if field is not None and field.param.type == "hex":
            self._pick_on_map(field)
            return
        if field is not None and field.param.suggest is not None:
            self._offer(field)
            return
        if field is None or field.param.type not in ENTITY_TYPES:
            self.notify("Move to a unit or formation field first (tab).", timeout=3)
            return
        self._open_picker(field)

    def _offer(self, field: ParamField) -> None:
        """Typed text with offers (a fleet's legal orders): the one picked is added to what
        is typed; typing stays free."""
        offers = field.param.suggestions_for(self.view, self._actor(), self._params())
        if not offers:
            self.notify("Nothing to offer yet: fill in the fields above first.", timeout=3)
            return
        entries = [PickEntry(text, Text(f"{text:<8}", style="bold cyan").append(meaning),
                             f"{text} {meaning}".lower()) for text, meaning in offers]

        def done(ids: list[str] | None) -> None:
            if ids:
                field.add_text(ids[0])
            field.focus_widget()

        self.app.push_screen(EntityPicker(f"Add to {field.param.name}", entries), done)

    def _pick_on_map(self, field: ParamField) -> None:
        from campaign_tui.ui.screens.map import open_map

        def done(place: str | None) -> None:
            if place is not None:
                try:
                    field.widget.value = place
                except Exception:  # a field with a fixed list of hexes refuses others
                    self.notify(f"{place} is not one of this field's choices.",
                                severity="warning", timeout=4)
            field.focus_widget()

        open_map(self, pick=field.param.name, current=field.value(), done=done)

    def _focused_field(self) -> ParamField | None:
        node = self.focused
        while node is not None and not isinstance(node, ParamField):
            node = node.parent  # type: ignore[assignment]
        return node

    def on_param_field_edited(self, event: ParamField.Edited) -> None:
        """New parameters: the decisions are asked again (their answers were for the old
        ones) and any result shown is stale."""
        event.stop()
        if not self._ready or (self.stage == "form" and not self.answers):
            return
        self.answers.clear()
        self.decision = None
        self.rolled = False
        self.typed_ahead = []
        self.round_starts = {}
        self.query_one("#resolve-sofar", Static).update("")
        self._set_stage("form")

    def _name_of(self, ident: str) -> str:
        """An id in words (a unit's label, a formation's or a side's name)."""
        view = self.view
        if ident in view.units:
            return view.units[ident].label
        if ident in view.formations:
            return view.formations[ident].name
        if ident in view.sides:
            return view.sides[ident].name
        return ident

    def on_param_field_edit_request(self, event: ParamField.EditRequest) -> None:
        event.stop()
        field = event.field
        assert field.shape is not None

        def done(value: Any) -> None:
            if value is not None:
                field.set_structured(value)
            field.focus_widget()

        title = field.param.name.replace("_", " ").capitalize()
        self.app.push_screen(StructuredEditor(title, field.shape, field.structured, self.view,
                                              self._params(), self._name_of), done)

    def on_param_field_pick_request(self, event: ParamField.PickRequest) -> None:
        event.stop()
        self._open_picker(event.field)

    def _open_picker(self, field: ParamField) -> None:
        p = field.param
        entries: list[PickEntry] = []
        view = self.view
        fits = self.candidates.get(p.name)
        if p.type in ("unit", "units"):
            ruleset = self.session.engine.ruleset
            units = [view.units[i] for i in fits if i in view.units] if fits is not None \
                else list(view.units.values())
            for u in units:
                # the id first, in full: names repeat and long labels are cut at 80 columns
                label = Text(f"{u.id}  ", style="bold cyan")
                label.append_text(unit_label(ruleset, view, u))
                side = view.sides.get(u.side)
                label.append(f"  ({side.name if side else u.side})", style="dim")
                entries.append(PickEntry(u.id, label, f"{label.plain} {u.type}".lower()))
        else:
            forms = [view.formations[i] for i in fits if i in view.formations] \
                if fits is not None else list(view.formations.values())
            for f in forms:
                label = Text(f"{f.id}  ", style="bold cyan")
                label.append(f.name, style="bold")
                label.append(f" ({f.kind}, {f.side})", style="dim")
                entries.append(PickEntry(f.id, label, label.plain.lower()))
        multi = p.type in ("units", "formations")

        def done(ids: list[str] | None) -> None:
            if ids is not None:
                field.set_ids(ids)
            field.focus_widget()

        self.app.push_screen(EntityPicker(f"Pick {p.name}", entries, multi, field.ids()), done)

    # -- running ----------------------------------------------------------------------------
    def _params(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in self.query(ParamField):
            v = f.value()
            if v is not None:
                out[f.param.name] = v
        return out

    def _error(self, message: str) -> None:
        self.query_one("#resolve-error", Static).update(Text(message, style="bold red"))

    def action_roll(self) -> None:
        """Run the action as a preview: a decision to take, or the result to review."""
        if not self.is_attached or not self.query("#resolve-error"):
            return  # closed (or not drawn yet) when a fast key or a refresh asked
        if self.stage == "decide" and self.decision is not None:
            field = self.query(DecisionField).first()
            if field is not None:
                self._answer(field.value())
            return
        self._compute()

    def action_roll_one(self) -> None:
        """The program rolls the held die; the next die is held again."""
        self._release(lambda d: d.id)

    def action_next_round(self) -> None:
        """The program rolls the rest of the held die's round; the first die of the next
        round is held again, with the rounds so far summed up."""
        self._release(lambda d: d.round if d.round_label else "")

    def _release(self, answer_key: Callable[[Decision], str]) -> None:
        d = self.decision
        if self.stage != "decide" or d is None or not _held(d) or not answer_key(d):
            self.notify("No die is held now (^r computes the action).", timeout=3)
            return
        self.answers[answer_key(d)] = "auto"
        self.decision = None
        self._compute()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """^n is offered (in the footer too) while a die of a marked round is held."""
        if action == "next_round":
            d = self.decision
            return (self.stage == "decide" and d is not None and _held(d)
                    and bool(d.round and d.round_label))
        return True

    def _rolls_when_computed(self) -> bool:
        """False when the action, as filled in, is known to roll nothing (a preview that
        holds the first die finishes without one); True when it rolls or cannot tell yet
        (fields to fill, a question to answer, a refusal). A hosted seat does not ask the
        host on opening: it keeps "Roll"."""
        if self.session.hosted or self._missing_field() is not None:
            return True
        try:
            outcome = self.session.perform(self.kind, self._params(), self.answers,
                                           preview=True, hold_rolls=True)
        except Exception:  # a held die, a question or a refusal: ^r will say which
            return True
        return bool(outcome.entry.rolls)

    def _missing_field(self) -> ParamField | None:
        return next((f for f in self.query(ParamField)
                     if f.param.required and f.value() is None), None)

    def _compute(self) -> None:
        self._error("")
        empty = self._missing_field()
        if empty is not None:
            # said in the table's words, with the field to fill focused
            self._error(f"{self.title_text}: {param_words.verb(empty.param)} "
                        f"{param_words.what(empty.param)}.")
            empty.focus_widget()
            self._set_stage("form")
            return
        try:
            outcome = self.session.perform(self.kind, self._params(), self.answers,
                                           preview=True, hold_rolls=not self.rolled)
        except NeedDecision as exc:
            self._show_decision(exc.decision, exc.preview)
            return
        except Exception as exc:  # engine refusals, and rule-set faults (rolled back)
            self._error(describe_error(exc))
            self._set_stage("form")
            return
        self._show_review(outcome)

    def _round_offered(self) -> None:
        """^n and its button while a die of a round is held."""
        self.refresh_bindings()
        self.query_one("#btn-round", Button).display = bool(self.check_action("next_round", ()))

    def _set_stage(self, stage: str) -> None:
        self.stage = stage
        self._round_offered()
        review = stage == "review"
        self.query_one("#btn-apply", Button).display = review
        self.query_one("#btn-override", Button).display = review and self.session.viewer == "gm"
        if stage != "decide":
            self.query_one("#resolve-decision", Vertical).remove_children()
        if stage != "review":
            self.query_one("#resolve-review", Static).update("")
            self.preview = None
        if stage == "form":
            self._pin(None)

    def _show_decision(self, decision: Decision, so_far: list[str]) -> None:
        if decision.round and decision.id[4:].isdigit():  # rollN, drawN: N rolls so far
            self.round_starts.setdefault(decision.round, int(decision.id[4:]))
        if _held(decision) and self.typed_ahead:
            # a handful of dice thrown at once: the next faces answer this die
            need = DiceExpr.parse(decision.expr or "1d6").count
            if len(self.typed_ahead) >= need:
                faces, self.typed_ahead = self.typed_ahead[:need], self.typed_ahead[need:]
                self.decision = decision
                self._answer(",".join(faces))
                return
        self._set_stage("decide")
        # shown to whoever decides: the viewer, or the side a secret decision is for
        who = decision.side
        seer = who if decision.secret and who in self.session.engine.viewers() else None
        seat = self.session.engine.side_view(seer) if seer else self.session.seat()
        decision, so_far = seat.decision(decision, so_far)
        self.decision = decision
        self._round_offered()
        self.query_one("#resolve-sofar", Static).update(self._so_far(decision, so_far))
        box = self.query_one("#resolve-decision", Vertical)
        box.remove_children()
        head = Text()
        who = decision.side
        if _held(decision):
            head.append("Ready to roll. ", style="bold green")
            if decision.round_label:
                head.append(f"{decision.round_label}\n  ", style="bold cyan")
            head.append(decision.prompt, style="bold")
            head.append(f"\n  {self._release_keys(decision)}", style="italic")
        elif who:
            head.append(f"{self.session.viewer_name(who)} decides: ", style="bold magenta")
            head.append(decision.prompt, style="bold")
        else:
            head.append(decision.prompt, style="bold")
        if decision.kind == "ruling":
            head.append("  (GM ruling, logged)", style="italic")
        info = Text("\n".join(f"  {line}" for line in decision.info))
        field = DecisionField(decision)

        def show(_: Any = None) -> None:
            self._pin(head)
            if decision.info:
                box.mount(Static(info, classes="decision-info"))
            box.mount(field)
            self.call_after_refresh(self._scroll_to_end)

        viewer = self.session.viewer
        if decision.secret and who and who not in (viewer, "gm"):
            self.app.push_screen(PrivacyScreen(
                f"A secret decision for {self.session.viewer_name(who)}. Pass the keyboard "
                f"to {self.session.viewer_name(who)}."), show)
        else:
            show()

    def _so_far(self, decision: Decision, lines: list[str]) -> Text:
        """The explanation so far. Cut into rounds when the action marks them: the last
        round played in full; every round played, one line each with its number of rolls;
        then the round now held, with its lines before this die (the whole explanation
        comes with the result)."""
        out = Text()
        parts = split_rounds(lines)
        if not any(p.label for p in parts):
            if lines:
                out.append("So far:\n", style="bold")
                for line in lines:
                    out.append(f"  {line}\n")
            return out
        rolls = self._rolls_per_round(decision, sum(1 for p in parts if p.label))
        if not parts[0].label:
            rolls.insert(0, None)
        now = parts[-1] if parts[-1].label == decision.round_label else None
        played = parts[:-1] if now else parts
        if played:
            last = played[-1]
            out.append(f"{last.label or 'Before the first round'}, as played:\n", style="bold")
            for line in last.lines:
                out.append(f"  {line}\n")
            out.append(f"Played so far ({len(played)}):\n", style="bold")
            for i, part in enumerate(played):
                out.append(f"  {part.label or 'Before the first round'}")
                took = rolls[i] if i < len(rolls) else None
                if took is not None:
                    out.append(f" · {took} roll{'s' * (took != 1)}", style="dim")
                out.append("\n")
        if now is not None:
            out.append(f"Now: {now.label}\n", style="bold cyan")
            for line in now.lines:
                out.append(f"  {line}\n")
        return out

    def _release_keys(self, decision: Decision) -> str:
        """The keys that let the program roll (for a round ^n too, with the round's number
        of rolls), and typing."""
        if not decision.round_label:
            return ("^r: the program rolls it and the rest; or type your dice (several at "
                    "once: 4 2 6); ^t: one die, then stop.")
        size = self._round_size(decision)
        rolls = f" ({size} roll{'s' * (size != 1)})" if size else ""
        return (f"^n: the rest of this round{rolls} · ^r: all the rest\n  ^t: this die only "
                "· or type your dice (several at once: 4 2 6)")

    def _round_size(self, decision: Decision) -> int | None:
        """At a round's first die, for the GM: how many rolls the round takes with the
        program's dice (a preview of the round released; typed dice may change it)."""
        first = self.round_starts.get(decision.round)
        if self.session.viewer != "gm" or first is None or decision.id != f"roll{first}":
            return None
        try:
            outcome = self.session.perform(self.kind, self._params(),
                                           {**self.answers, decision.round: "auto"},
                                           preview=True, hold_rolls=True)
        except NeedDecision as exc:
            after = exc.decision.id[4:]
            return int(after) - first if exc.decision.round and after.isdigit() else None
        except Exception:  # only a hint: the dialog goes on without it
            return None
        return len(outcome.entry.rolls) - first + 1

    def _rolls_per_round(self, decision: Decision, count: int) -> list[int | None]:
        """How many rolls each of the *count* rounds shown took, from the first roll of each
        round held so far (known when every round's heading is shown: the held die's
        round is then ``round:<count>``). For the GM only."""
        if self.session.viewer != "gm" or decision.round != f"round:{count}":
            return []  # a side may not count the dice of what it cannot see
        starts = [self.round_starts.get(f"round:{n}") for n in range(1, count + 1)]
        return [None if a is None or b is None else b - a for a, b in pairwise(starts)]

    def on_decision_field_answered(self, event: DecisionField.Answered) -> None:
        event.stop()
        self._answer(event.value)

    def _answer(self, value: Any) -> None:
        d = self.decision
        if d is None:
            return
        if _held(d):
            if value in (None, "", []):
                value = "auto"
            elif value != "auto":
                value = self._take_faces(d, value)
            # the program's dice: every later die is rolled without stopping; dice typed
            # from the table: the next die is asked for too (physical dice all the way)
            self.rolled = value == "auto"
        if value != "auto" or not _held(d):
            try:
                d.coerce(value)
            except InvalidInput as exc:
                self._error(str(exc))
                return
        self.answers[d.id] = value
        who = d.side
        secret_handoff = d.secret and who and who not in (self.session.viewer, "gm")
        self.decision = None
        if secret_handoff:
            self.query_one("#resolve-decision", Vertical).remove_children()
            self._pin(None)
            self.app.push_screen(PrivacyScreen(
                f"Answer recorded. Pass the keyboard back to {self.session.viewer_name()}."),
                lambda _: self._compute())
            return
        self._compute()

    def _take_faces(self, d: Decision, value: Any) -> Any:
        """The faces this die needs; any typed beyond them wait for the next dice."""
        faces = [v for v in re.split(r"[,\s]+", str(value).strip()) if v]
        need = DiceExpr.parse(d.expr or "1d6").count
        if len(faces) <= need:
            return value
        self.typed_ahead = faces[need:]
        return ",".join(faces[:need])

    def _show_review(self, outcome: Outcome) -> None:
        if self.typed_ahead:
            self._error(f"{len(self.typed_ahead)} typed dice were not needed: "
                        f"{' '.join(self.typed_ahead)}")
            self.typed_ahead = []
        self._set_stage("review")
        self.preview = outcome
        self.query_one("#resolve-sofar", Static).update("")
        e = self.session.seat().entry(outcome.entry) or dataclasses.replace(
            outcome.entry, summary="(hidden from you)", rolls=[], lines=[], changes=[])
        out = Text()
        out.append("Result: ", style="bold")
        out.append(e.summary + "\n")
        if e.rolls:
            out.append("Dice:\n", style="bold")
            for r in e.rolls:
                out.append(f"  roll {r.n} · {r.purpose}: ", style="bold")
                out.append(r.describe())
                if r.table:
                    out.append(f"  (table {r.table})", style="dim")
                out.append("\n")
                for d in r.detail:
                    out.append(f"      {d}\n", style="dim")
        if e.lines:
            out.append("Explanation:\n", style="bold")
            for line in e.lines:
                out.append(f"  {line}\n")
        changes = describe_changes(e.changes, self.session.view(), self.session.viewer,
                                   ruleset=self.session.engine.ruleset)
        if changes:
            out.append("Changes:\n", style="bold")
            for line in changes:
                out.append(f"  {line}\n")
        elif not e.changes:
            out.append("Nothing changes.\n", style="dim")
        out.append("Enter (or ^e) applies; esc cancels: nothing is changed until then.",
                   style="italic")
        pinned = Text("Result: ", style="bold")
        pinned.append(e.summary)
        if e.rolls:
            first = e.rolls[0]
            pinned.append(f"\nroll {first.n} · {first.purpose}: ", style="bold")
            pinned.append(first.describe())
        self._pin(pinned)
        self.query_one("#resolve-review", Static).update(out)
        self.query_one("#btn-apply", Button).focus()
        self.call_after_refresh(self._scroll_to_review)

    def action_apply(self) -> None:
        if self.stage != "review":
            self._compute()
            return
        try:
            outcome = self.session.perform(self.kind, self._params(), self.answers)
        except NeedDecision as exc:
            self._show_decision(exc.decision, exc.preview)
            return
        except Exception as exc:
            self._error(describe_error(exc))
            return
        self.dismiss(outcome)

    def action_override(self) -> None:
        if self.stage != "review" or self.preview is None:
            return
        if self.session.viewer != "gm":
            self._error("Only the GM may override a roll or a table result.")
            return
        rolls = self.preview.entry.rolls
        items: list[tuple[str, str | Text]] = []
        for r in rolls:
            if r.kind == "draw":
                continue
            items.append((f"roll{r.n}", Text(f"roll {r.n} · {r.purpose}: {r.describe()}")))
        tables = self.session.engine.tables
        for key, look in self.preview.lookups:
            title = tables.get(look.table).title if look.table in tables else look.table
            items.append((key, Text(f"{title}: {look.cell}  ({look.summary})")))

        def chosen(target: str | None) -> None:
            if not target:
                return
            what = ("the dice faces, e.g. 4 or 3,5" if target.startswith("roll")
                    else "the replacement result, as written in the table")

            def entered(value: str | None) -> None:
                if value:
                    self.answers[f"override:{target}"] = value
                    self._compute()

            self.app.push_screen(InputDialog(f"Override {target}", f"Type {what}. The "
                                             "override is logged.", placeholder=what), entered)

        self.app.push_screen(ChoiceDialog("GM override", items,
                                          "Replace a roll or a table result (logged)."),
                             chosen)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.show_help()  # type: ignore[attr-defined]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = event.button.id
        if bid == "btn-roll":
            self.action_roll()
        elif bid == "btn-round":
            self.action_next_round()
        elif bid == "btn-apply":
            self.action_apply()
        elif bid == "btn-override":
            self.action_override()
        elif bid == "btn-cancel":
            self.action_cancel()

    def on_input_submitted(self, event: Any) -> None:
        """Enter in a form field goes to the next field; in the last one it rolls."""
        event.stop()
        self._next_field(event.input)

    def on_choice_list_picked(self, event: ChoiceList.Picked) -> None:
        """Enter or space on a choice takes it and goes to the next field."""
        event.stop()
        self._next_field(event.choices)

    def _next_field(self, node: Any) -> None:
        fields = list(self.query(ParamField))
        for i, f in enumerate(fields):
            if (node is f.widget or node in f.query("Input")) and i + 1 < len(fields):
                fields[i + 1].focus_widget()
                return
        self.action_roll()
