"""The new-campaign wizard: rule set, scenario, options, then name, seed and dice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import (
    Button,
    Checkbox,
    ContentSwitcher,
    Footer,
    OptionList,
    RadioButton,
    RadioSet,
    Static,
)
from textual.widgets.option_list import Option

from campaign_tui.core.errors import CampaignError
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.screens.base import AppScreen
from campaign_tui.ui.text import fmt_value
from campaign_tui.ui.widgets.choices import ChoiceList
from campaign_tui.ui.widgets.entry import Entry
from campaign_tui.ui.widgets.marks import MarkedCheckbox, MarkedRadioButton

if TYPE_CHECKING:
    from campaign_tui.core.options import OptionDef
    from campaign_tui.core.ruleset import RuleSet
    from campaign_tui.core.scenario import Scenario

STEPS = ("ruleset", "scenario", "options", "start")
STEP_TITLES = {"ruleset": "1 Rule set", "scenario": "2 Scenario", "options": "3 Options",
               "start": "4 Name, seed and dice"}


class WizardScreen(AppScreen):
    """Create a campaign: rule set, scenario, options, seed or physical dice."""

    CMDS: ClassVar = (C.NEXT, C.BACK, C.HELP)
    BINDINGS: ClassVar = bindings(*CMDS)

    def __init__(self) -> None:
        super().__init__(id="wizard")
        self.step = "ruleset"
        self.ruleset: RuleSet | None = None
        self.scenario: Scenario | None = None
        self.rulesets: list[tuple[str, str, str]] = []
        self._options_for: tuple[str, str] | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="topbar")
        with ContentSwitcher(initial="step-ruleset", id="wizard-steps"):
            with Vertical(id="step-ruleset", classes="wizard-step"):
                yield Static(Text("Choose the rule set.", style="bold"))
                yield OptionList(id="ruleset-list")
                yield Static("", id="ruleset-detail", classes="wizard-detail")
            with Vertical(id="step-scenario", classes="wizard-step"):
                yield Static(Text("Choose the scenario.", style="bold"))
                yield OptionList(id="scenario-list")
                yield Static("", id="scenario-detail", classes="wizard-detail")
            with Vertical(id="step-options", classes="wizard-step"):
                yield Static(Text("Options: each starts at its default; tab moves, ^n goes "
                                  "on.", style="bold"))
                yield VerticalScroll(id="options-form")
            with Vertical(id="step-start", classes="wizard-step"):
                yield Static(Text("Name", style="bold"), classes="field-label")
                yield Entry("", id="campaign-name", compact=True)
                yield Static(Text("Dice", style="bold"), classes="field-label")
                with RadioSet(id="dice"):
                    yield MarkedRadioButton("The program rolls (seeded, repeatable)", value=True,
                                      id="dice-auto")
                    yield MarkedRadioButton("Physical dice: type in what you roll", id="dice-manual")
                yield Static(Text("Seed (blank: a random one; the same seed gives the same "
                                  "dice)", style="bold"), classes="field-label")
                yield Entry("", id="seed", type="integer", compact=True,
                            placeholder="random")
                yield Static("", id="start-summary", classes="wizard-detail")
        yield Static("", id="wizard-error")
        with Horizontal(classes="buttons"):
            yield Button("Back esc", id="btn-back", compact=True)
            yield Button("Next ^n", id="btn-next", variant="primary", compact=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        from campaign_tui.registry import registry

        reg = registry()
        self.rulesets = [(i.id, i.name, i.description) for i in reg.infos.values()]
        ol = self.query_one("#ruleset-list", OptionList)
        ol.set_options([Option(Text(name, style="bold") + Text(
            f"  {rid}" if rid != name.lower() else "", style="dim"), id=rid)
            for rid, name, _ in self.rulesets])
        if self.rulesets:
            ol.highlighted = 0
        for problem in reg.problems:
            self.notify(problem, severity="warning", timeout=8)
        self._go("ruleset")

    # -- steps ---------------------------------------------------------------------------------
    def _go(self, step: str) -> None:
        self.step = step
        self.query_one(ContentSwitcher).current = f"step-{step}"
        bar = Text(" New campaign ", style="bold reverse")
        for s in STEPS:
            bar.append("  ")
            bar.append(STEP_TITLES[s], style="bold underline" if s == step else "dim")
        self.query_one("#topbar", Static).update(bar)
        self.query_one("#btn-next", Button).label = "Create ^n" if step == "start" else "Next ^n"
        self._error("")
        focus = {"ruleset": "#ruleset-list", "scenario": "#scenario-list",
                 "start": "#campaign-name"}.get(step)
        if focus:
            self.query_one(focus).focus()
        elif step == "options":
            first = self.query("#options-form Checkbox, #options-form ChoiceList, "
                               "#options-form Entry").first()
            if first is not None:
                first.focus()

    def _error(self, message: str) -> None:
        self.query_one("#wizard-error", Static).update(Text(message, style="bold red"))

    def action_back(self) -> None:
        i = STEPS.index(self.step)
        if i == 0:
            self.dismiss(None)
        else:
            self._go(STEPS[i - 1])

    async def action_next(self) -> None:
        if self.step == "ruleset":
            ol = self.query_one("#ruleset-list", OptionList)
            if ol.highlighted is None:
                return
            self._choose_ruleset(str(ol.get_option_at_index(ol.highlighted).id))
        elif self.step == "scenario":
            ol = self.query_one("#scenario-list", OptionList)
            if ol.highlighted is None or self.ruleset is None:
                return
            sid = ol.get_option_at_index(ol.highlighted).id
            chosen = next(s for s in self.ruleset.scenarios() if s.id == sid)
            if (self.ruleset.id, chosen.id) != self._options_for:
                # the same rule set and scenario again keep the options as the GM left them
                self.scenario = chosen
                await self._build_options()
            self._go("options")
        elif self.step == "options":
            if self._check_options():
                self._prepare_start()
                self._go("start")
        else:
            self._create()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        await self.action_next()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option_list.id == "ruleset-list":
            rid = event.option.id
            info = next((r for r in self.rulesets if r[0] == rid), None)
            if info:
                self.query_one("#ruleset-detail", Static).update(
                    Text(info[2] or "", style="dim"))
        elif event.option_list.id == "scenario-list" and self.ruleset is not None:
            s = next((s for s in self.ruleset.scenarios() if s.id == event.option.id), None)
            if s is not None:
                text = Text(s.title, style="bold")
                text.append(f"\n{s.description}\n")
                text.append(f"Sides: {' vs '.join(s.sides)} · Length: {s.length}", style="dim")
                if s.options:
                    text.append("\nPresets: " + ", ".join(f"{k}={fmt_value(v)}"
                                                          for k, v in s.options.items()),
                                style="dim")
                self.query_one("#scenario-detail", Static).update(text)

    def _choose_ruleset(self, rid: str) -> None:
        from campaign_tui.registry import load_ruleset

        try:
            self.ruleset = load_ruleset(rid)
            scenarios = self.ruleset.scenarios()
        except Exception as exc:  # a plugin being developed must not take the app down
            self._error(f"{rid}: {exc}")
            return
        ol = self.query_one("#scenario-list", OptionList)
        ol.set_options([Option(Text(s.title, style="bold") + Text(f"  {s.length}", style="dim"),
                               id=s.id) for s in scenarios])
        if scenarios:
            ol.highlighted = 0
        self._go("scenario")

    # -- options ---------------------------------------------------------------------------
    def _option_defs(self) -> list[OptionDef]:
        return list(self.ruleset.options()) if self.ruleset is not None else []

    async def _build_options(self) -> None:
        form = self.query_one("#options-form", VerticalScroll)
        # the old fields must be gone before the new ones (same ids) are mounted
        await form.remove_children()
        defs = self._option_defs()
        preset = self.scenario.options if self.scenario is not None else {}
        widgets: list[Any] = []
        if not defs:
            widgets.append(Static(Text("This rule set has no options.", style="italic")))
        group = None
        for o in defs:
            if o.group != group:
                group = o.group
                widgets.append(Static(Text(group, style="bold underline"), classes="group"))
            value = preset.get(o.id, o.default)
            label = Text(o.label, style="bold")
            if o.reference:
                label.append(f" ({o.reference})", style="dim")
            label.append(f"  default {fmt_value(o.default)}", style="dim")
            if o.id in preset:
                label.append(f", scenario sets {fmt_value(preset[o.id])}", style="italic")
            if o.provenance.grade not in ("rulebook", "default"):
                label.append(f"  [{o.provenance.badge()}]", style="yellow")
            widgets.append(Static(label, classes="field-label"))
            wid = f"opt-{o.id}"
            if o.type == "bool":
                widgets.append(MarkedCheckbox("on", bool(value), compact=True, id=wid))
            elif o.type == "choice":
                items = []
                for i, c in enumerate(o.choices):
                    help_text = o.choice_help[i] if i < len(o.choice_help) else ""
                    items.append((f"{c} — {help_text}" if help_text else c, c))
                widgets.append(ChoiceList([(v, lbl) for lbl, v in items],
                                          str(value) if str(value) in o.choices else None,
                                          id=wid))
            else:
                typ = {"int": "integer", "float": "number"}.get(o.type, "text")
                widgets.append(Entry(str(value), type=typ, compact=True, id=wid))  # type: ignore[arg-type]
            widgets.append(Static(Text(o.help, style="dim"), classes="field-help"))
        await form.mount_all(widgets)
        if self.ruleset is not None and self.scenario is not None:
            self._options_for = (self.ruleset.id, self.scenario.id)

    def option_values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for o in self._option_defs():
            w = self.query_one(f"#opt-{o.id}")
            if isinstance(w, Checkbox):
                out[o.id] = w.value
            elif isinstance(w, ChoiceList):
                out[o.id] = w.value if w.value is not None else o.default
            else:
                out[o.id] = w.value  # type: ignore[attr-defined]
        return out

    def _check_options(self) -> bool:
        from campaign_tui.core.options import resolve_options

        try:
            resolve_options(self._option_defs(), self.option_values())
        except CampaignError as exc:
            self._error(str(exc))
            return False
        return True

    def _taken_names(self) -> set[str]:
        from campaign_tui import campaigns

        return {s.name.strip().lower() for s in campaigns.list_campaigns(
            self.capp.places.ensure(), include_examples=False)}

    def _prepare_start(self) -> None:
        name = self.query_one("#campaign-name", Entry)
        if not name.value and self.scenario is not None:
            # a suggestion the GM sees and may change, unique among their campaigns
            taken = self._taken_names()
            suggestion, n = self.scenario.title, 2
            while suggestion.lower() in taken:
                suggestion, n = f"{self.scenario.title} {n}", n + 1
            name.value = suggestion
        if self.ruleset is not None and self.scenario is not None:
            self.query_one("#start-summary", Static).update(Text(
                f"{self.ruleset.name} · {self.scenario.title} ({self.scenario.length})",
                style="dim"))

    # -- creating --------------------------------------------------------------------------------
    def _create(self) -> None:
        from campaign_tui import campaigns

        if self.ruleset is None or self.scenario is None:
            return
        name = self.query_one("#campaign-name", Entry).value.strip()
        if not name:
            self._error("Give the campaign a name.")
            self.query_one("#campaign-name").focus()
            return
        if name.lower() in self._taken_names():
            self._error(f"You already have a campaign named {name!r}; choose another name.")
            self.query_one("#campaign-name").focus()
            return
        seed_text = self.query_one("#seed", Entry).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self._error("The seed must be a whole number (or blank).")
            return
        manual = self.query_one("#dice-manual", RadioButton).value
        options = self.option_values()
        try:
            path = campaigns.new_campaign(self.capp.places.ensure(), self.ruleset.id,
                                          self.scenario.id, name, seed,
                                          "manual" if manual else "auto", options)
        except (CampaignError, OSError) as exc:
            self._error(str(exc))
            return
        self.notify(f"Created {name}.", timeout=3)
        self.capp.open_campaign(path)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "btn-next":
            await self.action_next()
        else:
            self.action_back()

    def on_input_submitted(self, event: Any) -> None:
        event.stop()
        if self.step == "start" and event.input.id == "seed":
            self._create()
        else:
            self.focus_next()
