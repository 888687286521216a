"""The resolve dialog: every action runs through it, and every rule set's combat with it.

1. **Form**: the action's parameters (units and formations are picked from the order of
   battle; marked units fill unit lists).
2. **Decide**: the engine's decision requests, rendered generically (with the totals and
   modifiers computed so far); each answer re-runs the action with all answers given.
3. **Ready to roll**: the action runs as a preview held at its first die, so the totals,
   odds, columns, shifts and modifiers are shown before any die is seen.
4. **Roll and review** (``^r``): the program rolls (or the dice typed in are used) and the
   preview shows exactly the dice a real run will use, changing nothing: dice, results and
   the changes to the campaign. The GM may override a roll or a table result (``^o``).
5. **Apply** (``^e``, or enter on Apply): the action is carried out, logged and undoable.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from campaign_tui.core.errors import InvalidInput, NeedDecision
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.dialogs import (
    ChoiceDialog,
    EntityPicker,
    InputDialog,
    PickEntry,
    PrivacyScreen,
)
from campaign_tui.ui.session import describe_error
from campaign_tui.ui.text import describe_changes, unit_label
from campaign_tui.ui.widgets.forms import ENTITY_TYPES, DecisionField, ParamField

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


class ResolveDialog(ModalScreen["Outcome | None"]):
    """The resolve dialog: parameters, decisions, roll, review, apply."""

    DROPDOWN_MAX = 60  # more candidates than this stay a typed field

    CMDS: ClassVar = (C.ROLL, C.APPLY, C.OVERRIDE, PICK, C.CANCEL, C.HELP)
    BINDINGS: ClassVar = [*bindings(*CMDS), Binding("ctrl+q", "app.quit", show=False,
                                                    priority=True)]

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
        self.view: State = session.view()
        self.candidates = self._candidates()
        self._fill_entities(marks or [], cursor)
        self._choices_from_view()

    def _candidates(self) -> dict[str, list[str]]:
        """What the rule set says fits each parameter now, for the side acting (the
        viewer, or for the GM the step's actor)."""
        session = self.session
        engine = session.engine
        actor = session.viewer
        if actor == "gm":
            actor = engine.resolve_actor(engine.state, engine.step.actor)
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
            with VerticalScroll(id="resolve-body"):
                if self.help:
                    yield Static(Text(self.help, style="dim"), id="resolve-help")
                if st.rolls and self.kind in self.session.engine.step.actions:
                    yield Static(Text("Rolls in this step: " + "; ".join(st.rolls),
                                      style="italic"), id="resolve-rolls")
                with Vertical(id="resolve-form"):
                    for p in self.params:
                        yield ParamField(p, self.prefill.get(p.name), self.hints.get(p.name),
                                         self._describe_ids)
                yield Static("", id="resolve-sofar")
                yield Vertical(id="resolve-decision")
                yield Static("", id="resolve-review")
            yield Static("", id="resolve-error")
            with Horizontal(classes="buttons"):
                yield Button("Roll ^r", id="btn-roll", variant="primary", compact=True)
                yield Button("Apply ^e", id="btn-apply", variant="success", compact=True)
                yield Button("Override ^o", id="btn-override", compact=True)
                yield Button("Cancel esc", id="btn-cancel", variant="error", compact=True)
        yield Footer(compact=True)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _set_ready(self) -> None:
        self._ready = True

    def _fit(self, height: int) -> None:
        # title, buttons, error line, borders and footer stay visible; the body scrolls
        self.query_one("#resolve-body").styles.max_height = max(4, height - 10)

    def on_mount(self) -> None:
        self.call_after_refresh(self._set_ready)
        self._fit(self.app.size.height)
        self.query_one("#btn-apply", Button).display = False
        self.query_one("#btn-override", Button).display = False
        if self.session.dice_mode() == "manual":
            self.query_one("#btn-roll", Button).label = "Go on ^r"
        fields = list(self.query(ParamField))
        own = getattr(self.session, "own_side", None)
        chosen = [f for f in fields if f.param.name == self.focus_field] or [
            f for f in fields if not (own and f.param.type == "side")] or fields
        if chosen:
            chosen[0].widget.focus()
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
        if field is None or field.param.type not in ENTITY_TYPES:
            self.notify("Move to a unit or formation field first (tab).", timeout=3)
            return
        self._open_picker(field)

    def _pick_on_map(self, field: ParamField) -> None:
        from campaign_tui.ui.screens.map import open_map

        def done(place: str | None) -> None:
            if place is not None:
                try:
                    field.widget.value = place
                except Exception:  # a field with a fixed list of hexes refuses others
                    self.notify(f"{place} is not one of this field's choices.",
                                severity="warning", timeout=4)
            field.widget.focus()

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
        self.query_one("#resolve-sofar", Static).update("")
        self._set_stage("form")

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
            field.widget.focus()

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
        if self.stage == "decide" and self.decision is not None:
            field = self.query(DecisionField).first()
            if field is not None:
                self._answer(field.value())
            return
        self._compute()

    def _missing_field(self) -> ParamField | None:
        return next((f for f in self.query(ParamField)
                     if f.param.required and f.value() is None), None)

    def _compute(self) -> None:
        self._error("")
        empty = self._missing_field()
        if empty is not None:
            # said in the table's words, with the field to fill focused
            what = empty.param.help or empty.param.name.replace("_", " ")
            self._error(f"{self.title_text}: choose {what}.")
            empty.widget.focus()
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

    def _set_stage(self, stage: str) -> None:
        self.stage = stage
        review = stage == "review"
        self.query_one("#btn-apply", Button).display = review
        self.query_one("#btn-override", Button).display = review and self.session.viewer == "gm"
        if stage != "decide":
            self.query_one("#resolve-decision", Vertical).remove_children()
        if stage != "review":
            self.query_one("#resolve-review", Static).update("")
            self.preview = None

    def _show_decision(self, decision: Decision, so_far: list[str]) -> None:
        self._set_stage("decide")
        # shown to whoever decides: the viewer, or the side a secret decision is for
        who = decision.side
        seer = who if decision.secret and who in self.session.engine.viewers() else None
        seat = self.session.engine.side_view(seer) if seer else self.session.seat()
        decision, so_far = seat.decision(decision, so_far)
        self.decision = decision
        sofar = Text()
        if so_far:
            sofar.append("So far:\n", style="bold")
            for line in so_far:
                sofar.append(f"  {line}\n")
        self.query_one("#resolve-sofar", Static).update(sofar)
        box = self.query_one("#resolve-decision", Vertical)
        box.remove_children()
        head = Text()
        who = decision.side
        if _held(decision):
            head.append("Ready to roll. ", style="bold green")
            head.append(decision.prompt, style="bold")
            head.append("\n  ^r lets the program roll (leave 'auto'), or type the dice you "
                        "rolled.", style="italic")
        elif who:
            head.append(f"{self.session.viewer_name(who)} decides: ", style="bold magenta")
            head.append(decision.prompt, style="bold")
        else:
            head.append(decision.prompt, style="bold")
        if decision.kind == "ruling":
            head.append("  (GM ruling, logged)", style="italic")
        for line in decision.info:
            head.append(f"\n  {line}", style="")
        field = DecisionField(decision)

        def show(_: Any = None) -> None:
            box.mount(Static(head, classes="decision-head"))
            box.mount(field)
            self.call_after_refresh(lambda: self.query_one("#resolve-body").scroll_end(
                animate=False))

        viewer = self.session.viewer
        if decision.secret and who and who not in (viewer, "gm"):
            self.app.push_screen(PrivacyScreen(
                f"A secret decision for {self.session.viewer_name(who)}. Pass the keyboard "
                f"to {self.session.viewer_name(who)}."), show)
        else:
            show()

    def on_decision_field_answered(self, event: DecisionField.Answered) -> None:
        event.stop()
        self._answer(event.value)

    def _answer(self, value: Any) -> None:
        d = self.decision
        if d is None:
            return
        if _held(d):
            self.rolled = True
            if value in (None, "", []):
                value = "auto"
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
            self.app.push_screen(PrivacyScreen(
                f"Answer recorded. Pass the keyboard back to {self.session.viewer_name()}."),
                lambda _: self._compute())
            return
        self._compute()

    def _show_review(self, outcome: Outcome) -> None:
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
        changes = describe_changes(e.changes, self.session.view(), self.session.viewer)
        if changes:
            out.append("Changes:\n", style="bold")
            for line in changes:
                out.append(f"  {line}\n")
        elif not e.changes:
            out.append("Nothing changes.\n", style="dim")
        out.append("Enter (or ^e) applies; esc cancels: nothing is changed until then.",
                   style="italic")
        self.query_one("#resolve-review", Static).update(out)
        self.query_one("#btn-apply", Button).focus()
        self.call_after_refresh(lambda: self.query_one("#resolve-review").scroll_visible(
            top=True, animate=False))

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
        elif bid == "btn-apply":
            self.action_apply()
        elif bid == "btn-override":
            self.action_override()
        elif bid == "btn-cancel":
            self.action_cancel()

    def on_input_submitted(self, event: Any) -> None:
        """Enter in a form field goes to the next field; in the last one it rolls."""
        event.stop()
        fields = list(self.query(ParamField))
        node = event.input
        for i, f in enumerate(fields):
            if node in f.query("Input") and i + 1 < len(fields):
                fields[i + 1].widget.focus()
                return
        self.action_roll()
