"""The main screen: phase prompt, map, order of battle and die log.

From 120x32 the prompt stands beside the map (the seat's projection, as in the map screen),
with the order of battle and the die log under the map; from 180x45 the prompt keeps a third
of the width. Below 120x32 one panel shows at a time (F2 prompt, F3 forces, F4 dice; `g` the
map screen), so everything fits at 80x24.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Vertical
from textual.css.query import NoMatches
from textual.widgets import Footer, Static

from campaign_tui.core.engine import ActionChoice
from campaign_tui.core.errors import AdvanceRefused, NeedDecision
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import PaletteEntry, bindings
from campaign_tui.ui.screens.base import CampaignScreen, side_seat
from campaign_tui.ui.session import describe_error
from campaign_tui.ui.widgets.dielog import DieLogPanel
from campaign_tui.ui.widgets.notice import NoticeRack
from campaign_tui.ui.widgets.oob import NodeKey, OobPanel, OobTree
from campaign_tui.ui.widgets.prompt import PhasePrompt, numbered

if TYPE_CHECKING:
    from campaign_tui.core.engine import Outcome
    from campaign_tui.ui.widgets.mapview import MapView, SideMap

PANELS = ("prompt", "oob", "log")
PANEL_TITLES = {"prompt": "F2 Prompt", "oob": "F3 Forces", "log": "F4 Dice"}
WIDE = (120, 32)
HUGE = (180, 45)


def _is(size: tuple[int, int], width: int, height: int) -> bool:
    return width >= size[0] and height >= size[1]


TITLES = {"prompt": "Phase prompt", "map": "Map  (g: full screen)", "oob": "Order of battle",
          "log": "Die log"}


def _title(name: str) -> Static:
    return Static(Text(TITLES[name], style="bold"), classes="panel-title")


def _map_panel() -> Vertical:
    from campaign_tui.ui.widgets.mapview import SideMap  # only once a screen is wide

    return Vertical(_title("map"), SideMap(id="side-map"), id="panel-map")


def _side_map(screen: CampaignScreen) -> SideMap:
    """The map beside the prompt (mounted with the wide parts)."""
    from campaign_tui.ui.widgets.mapview import SideMap

    return screen.query_one("#side-map", SideMap)


class MainScreen(CampaignScreen):
    """The main screen: phase prompt, order of battle and die log."""

    CMDS: ClassVar = (C.ADVANCE, C.ADVANCE_UNTIL, C.QUICK_SETUP, C.CHOOSE, C.HELP, C.SAVE,
                      C.UNDO, C.REDO, C.SHOW_PROMPT, C.SHOW_OOB, C.SHOW_LOG, C.TABLES,
                      C.HISTORY, C.VIEW_AS, C.PRIVACY, C.GM_MENU, C.MAP, C.CAMPAIGNS)
    BINDINGS: ClassVar = bindings(*CMDS)

    def __init__(self) -> None:
        super().__init__(id="main")
        self.panel = "prompt"
        self.advance_target = "due"  # the last target of Advance until… (N)
        self._oob_stale = True
        # the layout class is set before the screen is attached: setting it in on_mount
        # would restyle every widget once more before the first paint
        size = self.app.size
        self.wide = _is(WIDE, size.width, size.height)
        self.set_class(self.wide, "wide")
        self.set_class(not self.wide, "narrow")
        self.set_class(_is(HUGE, size.width, size.height), "huge")
        self._wide_parts = self.wide    # the titles and the side map are mounted
        self._wide_mounting = False
        self._panels_built = self.wide  # the order of battle and die log (narrow: later)
        self._topbar_shown: tuple[Any, ...] = ()   # what the top bar says now

    def compose(self) -> ComposeResult:
        yield Static("", id="topbar")
        yield Static("", id="panelbar")
        with Container(id="panels"):
            # the panel titles and the map beside the prompt show only on a wide screen:
            # a narrow one mounts them when it first grows wide (each widget mounted costs
            # time on every key, shown or not)
            with Vertical(id="panel-prompt", classes="panel"):
                yield from self._wide_title("prompt")
                yield PhasePrompt(id="prompt")
            if self.wide:
                yield _map_panel()
            # a narrow screen shows one panel: the hidden two are built once it is up
            with Vertical(id="panel-oob", classes="panel"):
                yield from self._wide_title("oob")
                if self.wide:
                    yield self._oob_panel()
            with Vertical(id="panel-log", classes="panel"):
                yield from self._wide_title("log")
                if self.wide:
                    yield self._log_panel()
        yield Footer(compact=True)

    def _oob_panel(self) -> OobPanel:
        session = self.session
        return OobPanel(session.engine.ruleset, id="oob",
                        read_only=session.read_only or side_seat(session))

    def _log_panel(self) -> DieLogPanel:
        return DieLogPanel(self.session.engine, self.session.viewer, id="log")

    def _build_panels(self) -> None:
        """The order of battle and the die log of a narrow screen, hidden at first, mounted
        once the first screen is painted (their widgets would delay it unseen)."""
        if self._panels_built:
            return
        self._panels_built = True
        self.query_one("#panel-oob").mount(self._oob_panel())
        self.query_one("#panel-log").mount(self._log_panel())
        if self._oob_stale and self._oob_shown():  # grown wide before the first paint
            self.call_after_refresh(self._refresh_oob)

    def _wide_title(self, name: str) -> list[Static]:
        return [_title(name)] if self.wide else []

    async def _mount_wide_parts(self) -> None:
        """The titles and the side map, when a narrow screen first grows wide."""
        await self.query_one("#panels").mount(_map_panel(), after="#panel-prompt")
        for name in PANELS:
            await self.query_one(f"#panel-{name}").mount(_title(name), before=0)
        self._wide_parts = True
        self._layout(self.app.size.width, self.app.size.height)

    def on_mount(self) -> None:
        self._layout(self.app.size.width, self.app.size.height)
        self.refresh_campaign()
        self.query_one("#prompt-choices").focus()
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        self.capp.mark_painted()
        self._build_panels()
        self.mount(NoticeRack())   # the action notice's box, ready before the first action
        # the die log reads its newest page once the screen is up
        self.set_timer(0.05, self.query_one(DieLogPanel).start)

    # -- layout ------------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self._layout(event.size.width, event.size.height)

    def _layout(self, width: int, height: int) -> None:
        wide = _is(WIDE, width, height)
        if wide != self.wide or not (self.has_class("wide") or self.has_class("narrow")):
            self.wide = wide
            self.set_class(wide, "wide")
            self.set_class(not wide, "narrow")
        huge = _is(HUGE, width, height)
        if huge != self.has_class("huge"):
            self.set_class(huge, "huge")
        for name in PANELS:
            # inline display (not a class): switching panels must not restyle the screen
            panel = self.query_one(f"#panel-{name}")
            panel.display = wide or name == self.panel
        if wide and not self._wide_parts:
            if not self._wide_mounting:
                self._wide_mounting = True
                self.call_later(self._mount_wide_parts)   # lays out again once mounted
        elif self._wide_parts:
            self.query_one("#panel-map").display = wide
            if wide:
                _side_map(self).show(self.session)
        if self._oob_stale and self._oob_shown():
            self._refresh_oob()
        self._title_current()
        self._panelbar()

    def _title_current(self) -> None:
        if not (self.wide and self._wide_parts):
            return
        for name in PANELS:
            title = self.query_one(f"#panel-{name} > .panel-title")
            title.set_class(name == self.panel, "current-title")

    def _panelbar(self) -> None:
        bar = Text()
        for name in PANELS:
            title = PANEL_TITLES[name]
            if name == self.panel:
                bar.append(f" {title} ", style="bold reverse")
            else:
                bar.append(f" {title} ", style="dim")
            bar.append(" ")
        keys = "  F5 Tables  F6 History" if side_seat(self.session) else \
            "  F5 Tables  F6 History  F7 View as  F9 GM"
        bar.append(keys, style="dim")
        self.query_one("#panelbar", Static).update(bar)

    def action_show_panel(self, name: str) -> None:
        self.panel = name
        self._layout(self.app.size.width, self.app.size.height)
        target = {"prompt": "#prompt-choices", "oob": "#oob-tree", "log": "#dielog"}[name]
        self.query_one(target).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self._wide_parts:
            from campaign_tui.ui.widgets.mapview import MapView

            self.query_one("#panel-map > .panel-title").set_class(
                self.wide and isinstance(event.widget, MapView), "current-title")
        for name in PANELS:
            panel = self.query_one(f"#panel-{name}")
            if event.widget in panel.query("*"):
                if self.panel != name:
                    self.panel = name
                    if self._oob_stale and self._oob_shown():
                        self._refresh_oob()
                    self._title_current()
                    self._panelbar()
                break

    # -- showing the campaign -----------------------------------------------------------------
    def refresh_campaign(self) -> None:
        session = self.session
        try:
            st = session.status()
            engine = session.engine
            quick = (session.viewer == "gm" and not session.read_only
                     and engine.ruleset.quick_setup_why_not(engine.state) is None)
            self.query_one(PhasePrompt).show_status(st, session.viewer, session.viewer_name(),
                                                    session.read_only, session.dice_mode(),
                                                    quick_setup=quick,
                                                    hosted=session.hosted)
        except Exception as exc:  # a rule-set fault: say so, keep the session
            self.notify(describe_error(exc), title="Display problem", severity="error",
                        timeout=10)
        self._oob_stale = True
        if self._oob_shown():
            self._refresh_oob()
        if self.wide and self._wide_parts:
            _side_map(self).show(session)
        self.update_topbar()

    def _oob_shown(self) -> bool:
        return self.wide or self.panel == "oob"

    def _refresh_oob(self) -> None:
        """The order of battle is filled only while it can be seen (it is the costliest
        panel with thousands of units); a hidden one is marked stale and filled when shown."""
        if not self._panels_built:  # filled once built (after the first paint)
            return
        session = self.session
        self._oob_stale = False
        try:
            self.query_one(OobPanel).show_view(session.view(), session.viewer)
        except Exception as exc:  # a rule-set fault: say so, keep the session
            self.notify(describe_error(exc), title="Display problem", severity="error",
                        timeout=10)

    def update_topbar(self) -> None:
        session = self.session
        e = session.engine
        try:
            topbar = self.query_one("#topbar", Static)   # (cached: a query walks every widget)
        except NoMatches:                                 # none while (un)composing
            return
        shown = (topbar, session.name, session.read_only, session.dirty,
                 session.unsaved_count, session.viewer_name(), e.where(),
                 self.wide and e.ruleset.name)
        if shown == self._topbar_shown:     # the same words (at a hosted table: most actions)
            return
        self._topbar_shown = shown
        bar = Text(no_wrap=True, overflow="ellipsis")
        bar.append(f" {session.name} ", style="bold reverse")
        if session.read_only:
            bar.append(" READ-ONLY", style="bold red")
        elif session.dirty:
            bar.append(f" {session.unsaved_count} unsaved ^s", style="bold yellow")
        else:
            bar.append(" saved", style="green")
        bar.append(f" · as {session.viewer_name()}", style="bold magenta")
        bar.append(f" · {e.where()}")
        if self.wide:
            bar.append(f" · {e.ruleset.name}", style="dim")
        if topbar.content != bar:   # an update lays the screen out again: only a change
            topbar.update(bar)

    def campaign_changed(self, outcome: Outcome) -> None:
        """Called after every committed action (including undo and redo)."""
        self.refresh_campaign()
        if self._panels_built:   # (else it reads the log, as it is then, when it is built)
            self.query_one(DieLogPanel).committed(outcome.entry)

    def viewer_changed(self) -> None:
        if self._panels_built:   # (else it is built for the viewer of that moment)
            self.query_one(DieLogPanel).set_viewer(self.session.viewer)
        self.refresh_campaign()

    # -- acting -------------------------------------------------------------------------------
    def action_advance(self) -> None:
        session = self.session
        if session.read_only:
            self.notify("Read-only: nothing can be changed.", severity="warning")
            return
        try:
            # a preview held at the first die: when advancing rolls (an end-of-phase
            # procedure, an automatic battle), the dialog shows the totals and odds first,
            # then the program's dice or the GM's
            session.perform("advance", preview=True, hold_rolls=True)
            outcome = session.advance()
        except NeedDecision:
            self.open_action("advance", "Advance", (), "Finish this step and go on.")
            return
        except AdvanceRefused as exc:
            self.notify(str(exc), title="Cannot advance", severity="warning", timeout=6)
            return
        except Exception as exc:  # a rule-set fault must not end the session
            self.notify(describe_error(exc), severity="error", timeout=8)
            return
        self.app.acted(outcome)  # type: ignore[attr-defined]

    def action_advance_until(self) -> None:
        from campaign_tui.ui.screens.advance_until import open_dialog

        open_dialog(self)

    def action_quick_setup(self) -> None:
        session = self.session
        if session.read_only:
            self.notify("Read-only: nothing can be changed.", severity="warning")
            return
        reason = session.engine.ruleset.quick_setup_why_not(session.engine.state)
        if reason:
            self.notify(reason, title="No quick set-up now", severity="warning", timeout=5)
            return
        try:
            outcome = session.perform("gm.quick_setup")
        except NeedDecision:
            self.open_action("gm.quick_setup", "Quick set-up", ())
            return
        except Exception as exc:  # a rule-set fault must not end the session
            self.notify(describe_error(exc), title="Quick set-up", severity="error", timeout=8)
            return
        self.app.acted(outcome)  # type: ignore[attr-defined]
        self.refresh_campaign()

    def action_choose(self, number: int) -> None:
        if int(number) == 0:
            self._more_actions()
            return
        choice = self.query_one(PhasePrompt).kind_for_number(int(number))
        if choice is None:
            self.notify(f"There is no action {number} now.", severity="warning", timeout=3)
            return
        self.run_choice(choice)

    def _more_actions(self) -> None:
        """Key 0: the actions past the ninth, in a list."""
        from campaign_tui.ui.screens.dialogs import ChoiceDialog

        prompt = self.query_one(PhasePrompt)
        extra = [c for c in numbered(prompt.choices)][9:]
        if not extra:
            self.notify("There are no more than nine actions now.", timeout=3)
            return
        items: list[tuple[str, str | Text]] = []
        for c in extra:
            label = Text(c.title, style="" if c.available else "dim")
            if not c.available and c.reason:
                label.append(f"  — not now: {c.reason}", style="italic")
            items.append((c.kind, label))

        def chosen(kind: str | None) -> None:
            choice = next((c for c in extra if c.kind == kind), None)
            if choice is not None:
                self.run_choice(choice)

        self.app.push_screen(ChoiceDialog("More actions", items, "The actions past the "
                                          "ninth (0 in the prompt)."), chosen)

    def on_phase_prompt_choose(self, event: PhasePrompt.Choose) -> None:
        event.stop()
        if event.kind == "advance":
            self.action_advance()
            return
        choice = next((c for c in self.query_one(PhasePrompt).choices if c.kind == event.kind),
                      None)
        if choice is not None:
            self.run_choice(choice)

    def run_choice(self, choice: ActionChoice) -> None:
        if self.session.read_only:
            self.notify("Read-only: nothing can be changed.", severity="warning")
            return
        if choice.kind == "advance":
            self.action_advance()
            return
        if not choice.available:
            self.notify(f"{choice.title}: {choice.reason}", title="Not now", severity="warning",
                        timeout=5)
            return
        self.open_action(choice.kind, choice.title, choice.params, choice.help)

    def _cursor_unit(self) -> str | None:
        key = self.query_one(OobTree).current
        return key[1] if key is not None and key[0] == "unit" else None

    def open_action(self, kind: str, title: str, params: tuple[Any, ...], help: str = "",
                    prefill: dict[str, Any] | None = None,
                    hints: dict[str, list[tuple[str, str]]] | None = None) -> None:
        from campaign_tui.ui.screens.resolve import ResolveDialog

        if self.app.screen is not self:
            # a key typed fast reached this screen before the dialog it opened was drawn:
            # it opens nothing more (stacked dialogs left a blank, frozen screen)
            return
        tree = self.query_one(OobTree)
        dialog = ResolveDialog(self.session, kind, title, params, help, prefill, hints,
                               marks=sorted(tree.marks), cursor=self._cursor_unit())

        def done(outcome: Outcome | None) -> None:
            if outcome is not None:
                tree.marks.clear()
                self.app.acted(outcome)  # type: ignore[attr-defined]
                self.refresh_campaign()

        self.app.push_screen(dialog, done)

    # -- GM menu -------------------------------------------------------------------------------
    def action_gm_actions(self) -> None:
        from campaign_tui.ui.screens.dialogs import ChoiceDialog

        choices = self.session.engine.gm_choices()
        items: list[tuple[str, str | Text]] = []
        for c in choices:
            label = Text(c.title, style="" if c.available else "dim")
            label.append(f"  {c.kind}", style="dim")
            if not c.available and c.reason:
                label.append(f"  — not now: {c.reason}", style="italic")
            items.append((c.kind, label))

        def chosen(kind: str | None) -> None:
            c = next((c for c in choices if c.kind == kind), None)
            if c is None:
                return
            if not c.available:
                self.notify(f"{c.title}: {c.reason}", title="Not now", severity="warning")
                return
            self.open_action(c.kind, c.title, c.params, c.help)

        self.app.push_screen(ChoiceDialog("GM actions", items, "Edits and overrides; each is "
                                          "logged and can be undone."), chosen)

    # -- order of battle edits -----------------------------------------------------------------
    def on_oob_panel_request(self, event: OobPanel.Request) -> None:
        event.stop()
        if self.session.read_only:
            self.notify("Read-only: nothing can be changed.", severity="warning")
            return
        if self.session.viewer != "gm":
            self.notify("Only the GM edits the order of battle (F7: view as GM).",
                        severity="warning")
            return
        key = event.key
        if event.what == "add":
            self._add_unit(key)
            return
        if key is None or key[0] != "unit":
            self.notify("Highlight a unit first.", severity="warning", timeout=3)
            return
        if event.what == "move":
            self._move_unit(key[1])
        elif event.what == "status":
            self._edit_status(key[1])

    def _gm(self, kind: str, params: dict[str, Any]) -> None:
        try:
            outcome = self.session.perform(kind, params)
        except Exception as exc:  # a rule-set fault must not end the session
            self.notify(describe_error(exc), severity="error", timeout=8)
            return
        self.app.acted(outcome)  # type: ignore[attr-defined]

    def _move_unit(self, uid: str) -> None:
        from campaign_tui.ui.screens.dialogs import ChoiceDialog

        view = self.session.view()
        unit = view.units[uid]
        items: list[tuple[str, str | Text]] = [("-", Text("(no formation)", style="italic"))]
        for f in view.formations.values():
            if f.side == unit.side:
                items.append((f.id, Text(f.name, style="bold") + Text(f"  {f.kind} [{f.id}]",
                                                                     style="dim")))

        def chosen(fid: str | None) -> None:
            if fid is not None and fid != (unit.formation or "-"):
                self._gm("gm.move_unit", {"unit": uid, "formation": fid})

        self.app.push_screen(ChoiceDialog(f"Move {unit.label} to", items,
                                          current=unit.formation or "-"), chosen)

    def _edit_status(self, uid: str) -> None:
        from campaign_tui.ui.screens.edit import StatusDialog

        engine = self.session.engine
        unit = engine.state.units[uid]
        fields = engine.catalog.status

        def done(result: tuple[dict[str, Any], str] | None) -> None:
            if not result:
                return
            changes, reason = result
            for name, value in changes.items():
                self._gm("gm.set_status", {"unit": uid, "field": name, "value": value,
                                           "reason": reason})

        self.app.push_screen(StatusDialog(unit, fields), done)

    def _add_unit(self, key: NodeKey | None) -> None:
        engine = self.session.engine
        view = self.session.view()
        prefill: dict[str, Any] = {}
        if key is not None:
            if key[0] == "side":
                prefill["side"] = key[1]
            elif key[0] == "formation" and key[1] in view.formations:
                prefill["side"] = view.formations[key[1]].side
                prefill["formation"] = key[1]
            elif key[0] == "unit" and key[1] in view.units:
                u = view.units[key[1]]
                prefill["side"] = u.side
                if u.formation:
                    prefill["formation"] = u.formation
        types = [(t.id, f"{t.name} ({t.category})" if t.category else t.name)
                 for t in engine.catalog.types.values()]
        hints = {
            "type": types,
            "side": [(sid, s.name) for sid, s in view.sides.items()],
            "formation": [("", "(none)")] + [(f.id, f"{f.name} ({f.side})")
                                             for f in view.formations.values()],
        }
        defn = engine.action_def("gm.add_unit")
        self.open_action(defn.kind, "Add a reinforcement", defn.params, defn.help, prefill, hints)

    # -- views ---------------------------------------------------------------------------------
    def action_view_as(self) -> None:
        from campaign_tui.ui.screens.dialogs import ChoiceDialog, PrivacyScreen

        session = self.session
        items: list[tuple[str, str | Text]] = [("gm", Text("GM (sees everything)"))]
        items += [(sid, Text(name)) for sid, name in session.sides()]

        def chosen(viewer: str | None) -> None:
            if viewer is None or viewer == session.viewer:
                return

            def switch(_: Any = None) -> None:
                session.viewer = viewer
                self.query_one(OobTree).marks.clear()
                self.viewer_changed()
                self.notify(f"Viewing as {session.viewer_name()}.", timeout=3)

            self.app.push_screen(PrivacyScreen(
                f"Pass the keyboard to {session.viewer_name(viewer)}. The screen will show "
                "what they may see."), switch)

        self.app.push_screen(ChoiceDialog("View as", items, "Each side sees only what it may; "
                                          "the privacy screen hides the change-over.",
                                          current=session.viewer), chosen)

    def action_privacy(self) -> None:
        from campaign_tui.ui.screens.dialogs import PrivacyScreen

        self.app.push_screen(PrivacyScreen(
            f"The screen is hidden. Viewing as {self.session.viewer_name()}."))

    def action_open_tables(self) -> None:
        from campaign_tui.ui.screens.tables import TablesScreen

        self.app.push_screen(TablesScreen())

    def action_open_history(self) -> None:
        from campaign_tui.ui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen())

    def action_open_map(self) -> None:
        from campaign_tui.ui.screens.map import open_map

        wide = self.wide and self._wide_parts
        open_map(self, current=_side_map(self).cursor() if wide else None)

    def on_map_view_chosen(self, event: MapView.Chosen) -> None:
        """Enter on the map beside the prompt opens the map screen at that place."""
        from campaign_tui.ui.screens.map import open_map

        event.stop()
        open_map(self, current=event.place)

    def action_close_campaign(self) -> None:
        self.app.close_campaign()  # type: ignore[attr-defined]

    # -- command palette ---------------------------------------------------------------------
    def palette_entries(self) -> list[PaletteEntry]:
        out: list[PaletteEntry] = []
        st = self.session.status()
        for _i, c in enumerate(st.choices, 1):
            if c.kind == "advance":
                continue
            note = "" if c.available else f" (not now: {c.reason})"
            out.append((f"Do: {c.title}", " ".join((c.help or c.kind).split()) + note,
                        lambda c=c: self.run_choice(c)))
        for c in self.session.engine.gm_choices():
            out.append((f"GM: {c.title}", " ".join((c.help or c.kind).split()),
                        lambda c=c: self.open_action(c.kind, c.title, c.params, c.help)))
        for t in self.session.engine.tables:
            out.append((f"Table: {t.title}", f"{t.id} · {t.provenance.badge()}",
                        lambda tid=t.id: self._open_table(tid)))
        for sid, name in self.session.sides():
            out.append((f"View as {name}", f"side {sid}",
                        lambda: self.action_view_as()))
        return out

    def _open_table(self, tid: str) -> None:
        from campaign_tui.ui.screens.tables import TablesScreen

        self.app.push_screen(TablesScreen(tid))
