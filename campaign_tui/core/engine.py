"""The engine: one open campaign, driven by actions.

``perform`` runs an action through a transaction and appends it to the log; ``advance``
moves the phase machine (refusing, with the reason, while a requirement is missing);
``undo`` and ``redo`` apply the logged change sets (never replaying history and never
rewinding the dice generator) and are logged themselves. A test, the CLI and the TUI all
use this same API.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from campaign_tui.core.actions import ActionDef, Param
from campaign_tui.core.builtin_actions import ADVANCE_ACTION, BUILTIN_ACTIONS, START_ACTION
from campaign_tui.core.changes import Change, Tx, apply_changes
from campaign_tui.core.context import Ctx
from campaign_tui.core.dice import DiceStream
from campaign_tui.core.errors import ActionRejected, CampaignError, InvalidInput, NeedConfirmation
from campaign_tui.core.history import History
from campaign_tui.core.info import Bookmark, CampaignInfo, now_iso
from campaign_tui.core.log import REDO, UNDO, LogEntry
from campaign_tui.core.machine import Machine, Step
from campaign_tui.core.model import State, plain
from campaign_tui.core.options import resolve_options
from campaign_tui.core.records import record
from campaign_tui.core.views import project

if TYPE_CHECKING:
    from campaign_tui.core.catalog import Catalog
    from campaign_tui.core.ruleset import RuleSet
    from campaign_tui.core.sideview import SideView
    from campaign_tui.core.tables import Lookup, TableSet

STRICT = os.environ.get("CAMPAIGN_TUI_STRICT", "") not in ("", "0")

SnapshotProvider = Callable[[int], tuple[int, State] | None]


@record
class ActionChoice:
    kind: str
    title: str
    available: bool
    reason: str | None
    params: tuple[Param, ...]
    help: str = ""
    key: str = ""
    scope: str = "step"  # "step", "anytime", "gm"
    reference: str = ""


@record
class Status:
    clock: dict[str, int]
    clock_text: str
    machine_title: str
    step: str
    step_title: str
    phase: str
    phase_title: str
    actor: str
    actor_name: str
    prompt: str
    rolls: tuple[str, ...]
    choices: list[ActionChoice]
    missing: list[str]
    final: bool
    outcome: dict[str, Any] | None
    hidden_input: bool
    reference: str = ""

    @property
    def can_advance(self) -> bool:
        return not self.missing and not self.final


@record
class Outcome:
    entry: LogEntry
    preview: bool = False
    events: list[str] = field(default_factory=list)
    bookmark: Bookmark | None = None
    lookups: list[tuple[str, Lookup]] = field(default_factory=list)  # ("lookupN", result)
    unasked: list[str] = field(default_factory=list)  # answers given that nothing asked for


class Engine:
    def __init__(self, ruleset: RuleSet, state: State, info: CampaignInfo,
                 history: History | None = None, read_only: bool = False) -> None:
        self.ruleset = ruleset
        self.state = state
        self.info = info
        self.history = history if history is not None else History()
        self.stream = DiceStream(info.seed, info.rng_position)
        self.read_only = read_only
        self.initial: State | None = None
        self.snapshots: SnapshotProvider | None = None
        self.log_index: Any = None      # the store's index of sealed log segments, if any
        self.replayed = 0               # entries the last state_at replayed (bounded)
        self.listeners: list[Callable[[Outcome], None]] = []
        self._tables_cache: tuple[str, TableSet] | None = None
        self._views: dict[str, tuple[tuple[str, int, int], State]] = {}
        self._terms: dict[Any, Any] = {}   # sideview's memo of the current state's side terms
        self._catalog_cache: tuple[str, Catalog] | None = None
        self.machine: Machine = ruleset.machine(state.machine)

    # -- creation ---------------------------------------------------------------------
    @classmethod
    def create(cls, ruleset: RuleSet, scenario: str | None = None,
               options: dict[str, Any] | None = None, seed: int | None = None,
               dice: str = "auto", name: str | None = None) -> Engine:
        import random

        scen = ruleset.scenario(scenario)
        state = cls.initial_state(ruleset, scen.id, options, dice)
        if seed is None:
            seed = random.randrange(1, 1 << 48)
        if not 0 <= int(seed) < 1 << 63:
            raise InvalidInput(f"seed {seed} is out of range: use a whole number from 0 to "
                               f"{(1 << 63) - 1}")
        info = CampaignInfo(name=name or scen.title, ruleset=ruleset.id,
                            ruleset_version=ruleset.version, data_hash=ruleset.data_hash(),
                            scenario=scen.id, seed=int(seed))
        engine = cls(ruleset, state, info)
        engine.initial = state.copy()
        engine._run(START_ACTION, {}, {}, "gm", preview=False, auto=True)
        return engine

    @staticmethod
    def initial_state(ruleset: RuleSet, scenario: str, options: dict[str, Any] | None = None,
                      dice: str = "auto") -> State:
        """The state a scenario starts from, before any action (the base of replay)."""
        if dice not in ("auto", "manual"):
            raise CampaignError(f"dice must be auto or manual, not {dice!r}")
        scen = ruleset.scenario(scenario)
        opts = resolve_options(ruleset.options(), {**scen.options, **(options or {})})
        state = ruleset.build(scen, opts)
        state._c["meta"]["dice"] = dice
        state._c["meta"]["scenario"] = scen.id
        return state

    # -- rule-set data with the campaign's GM overrides ----------------------------------
    def tables_for(self, state: State) -> TableSet:
        if not state.table_overrides:
            return self.ruleset.tables()
        key = json.dumps(state.table_overrides, sort_keys=True)
        if self._tables_cache is None or self._tables_cache[0] != key:
            self._tables_cache = (key, self.ruleset.tables().with_overrides(state.table_overrides))
        return self._tables_cache[1]

    def catalog_for(self, state: State) -> Catalog:
        return self.ruleset.effective_catalog(state)

    @property
    def tables(self) -> TableSet:
        return self.tables_for(self.state)

    @property
    def catalog(self) -> Catalog:
        return self.catalog_for(self.state)

    def dice_mode(self, state: State) -> str:
        return str(state._c["meta"].get("dice", "auto"))

    # -- where we are ---------------------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.machine.step(self.state.step)

    def resolve_actor(self, state: State, actor: str) -> str:
        return self.ruleset.resolve_actor(state, actor)

    def actor_name(self, actor: str) -> str:
        if actor in self.state.sides:
            return self.state.sides[actor].name
        return {"gm": "GM", "all": "all players", "both": "both players"}.get(actor, actor)

    def missing(self, state: State | None = None) -> list[str]:
        state = state or self.state
        step = self.machine.step(state.step)
        out = []
        for req in step.requires:
            problem = req.check(state)
            if problem:
                out.append(problem)
        return out

    def action_def(self, kind: str) -> ActionDef:
        if kind in BUILTIN_ACTIONS:
            return BUILTIN_ACTIONS[kind]
        actions = self.ruleset.actions()
        if kind not in actions:
            raise ActionRejected(f"unknown action {kind!r}")
        return actions[kind]

    def step_action_kinds(self) -> list[str]:
        return [*self.step.actions, *self.machine.anytime]

    def choices(self, viewer: str = "gm") -> list[ActionChoice]:
        """The actions allowed now, with availability and the reason when unavailable."""
        out: list[ActionChoice] = []
        scopes = [(k, "step") for k in self.step.actions]
        scopes += [(k, "anytime") for k in self.machine.anytime if k not in self.step.actions]
        for kind, scope in scopes:
            defn = self.action_def(kind)
            reason = defn.why_not(self.state) if not self.step.final else "the campaign is over"
            if reason is None:
                reason = self._permission(defn, viewer)
            out.append(ActionChoice(defn.kind, defn.title, reason is None, reason, defn.params,
                                    defn.help, defn.key, scope, defn.reference))
        missing = self.missing()
        adv_reason = ("the campaign is over" if self.step.final
                      else "; ".join(missing) if missing else None)
        out.append(ActionChoice("advance", ADVANCE_ACTION.title, adv_reason is None, adv_reason,
                                (), ADVANCE_ACTION.help, "n", "step"))
        return out

    def gm_choices(self) -> list[ActionChoice]:
        """The GM's tools: the built-in edits and overrides, and the rule set's own GM-only
        actions that are allowed at this step."""
        defs = [d for d in BUILTIN_ACTIONS.values() if d.kind.startswith("gm.") or d.kind == "note"]
        allowed = set(self.step_action_kinds())
        defs += [d for d in self.ruleset.actions().values()
                 if (d.kind.startswith("gm.") or d.side == "gm") and d.kind in allowed]
        out = []
        for d in defs:
            reason = d.why_not(self.state)
            if d.kind == "gm.quick_setup":
                reason = self.ruleset.quick_setup_why_not(self.state)
            out.append(ActionChoice(d.kind, d.title, reason is None, reason, d.params, d.help,
                                    d.key, "gm", d.reference))
        return out

    def status(self, viewer: str = "gm") -> Status:
        """Where the campaign stands, as *viewer* may know it: a side's prompt is made from
        its view, and reasons and requirements naming something hidden from it are
        withheld."""
        viewer = self._seat(viewer)
        step = self.step
        state = self.state
        view = self.view(viewer)
        actor = self.resolve_actor(state, step.actor)
        choices, missing = self.choices(viewer), self.missing()
        if viewer == "gm":
            prompt = step.prompt_text(state, self.ruleset.prompt_context(state))
        else:
            from campaign_tui.core.sideview import current_terms

            terms = current_terms(self, viewer)
            try:
                prompt = terms.text(step.prompt_text(view, self.ruleset.prompt_context(view)))
            except Exception:  # a prompt that needs what the view lacks: say only the step
                prompt = step.title
            choices = [c if c.reason is None or not terms.hides(c.reason) else
                       dataclasses.replace(c, reason="not now") for c in choices]
            missing = [terms.text(m) for m in missing]
        return Status(
            clock=dict(state.clock), clock_text=self.machine.clock_text(state.clock),
            machine_title=self.machine.title, step=step.id, step_title=step.title,
            phase=step.phase, phase_title=self.machine.phase_title(step.phase), actor=actor,
            actor_name=self.actor_name(actor), prompt=prompt,
            rolls=step.rolls, choices=choices, missing=missing,
            final=step.final, outcome=view.vars.get("outcome"),
            hidden_input=step.hidden_input, reference=step.reference,
        )

    # -- who may look -----------------------------------------------------------------------
    def _refuse_on_player_copy(self) -> None:
        side = self.info.export_side
        if side:
            raise ActionRejected(
                f"this file is {self.actor_name(side)}'s view of \"{self.info.name}\", a "
                "player's copy: it has no dice and no other side's secrets, so nothing can be "
                "played in it. Send your orders to the GM, who plays them in the campaign.")

    def _seat(self, viewer: str) -> str:
        """On a side's export, whoever looks (the default "gm" included) is that side."""
        side = self.info.export_side
        return side if side and viewer == "gm" else viewer

    def viewers(self) -> list[str]:
        """Who may look at this campaign: the GM and every side, or on a side's export
        only that side."""
        if self.info.export_side:
            return [self.info.export_side]
        return ["gm", *self.state.sides]

    def check_viewer(self, viewer: str) -> None:
        """An unknown side (or the GM on a side's export) is an error naming the sides."""
        allowed = self.viewers()
        if viewer not in allowed:
            names = ", ".join(f"{s} ({self.actor_name(s)})" for s in allowed)
            what = (f"this file is {self.actor_name(allowed[0])}'s view only"
                    if self.info.export_side else f"the sides are {names}")
            raise InvalidInput(f"unknown side {viewer!r}: {what}")

    def side_view(self, viewer: str) -> SideView:
        """The one door for a side's outputs (see :mod:`campaign_tui.core.sideview`)."""
        from campaign_tui.core.sideview import SideView

        return SideView(self, self._seat(viewer))

    def secret_params(self, kind: str) -> tuple[str, ...]:
        try:
            return self.action_def(kind).secret_params
        except CampaignError:
            return ()

    # -- acting ---------------------------------------------------------------------------
    def _permission(self, defn: ActionDef, by: str) -> str | None:
        if by == "gm":
            return None
        if defn.kind.startswith("gm.") or defn.side == "gm":
            return "only the GM may do this"
        if defn.side:
            side = self.resolve_actor(self.state, defn.side)
            if side not in ("all", "both", "gm", by) and side in self.state.sides:
                return f"it is for {self.actor_name(side)} to do"
        return None

    def perform(self, kind: str, params: dict[str, Any] | None = None,
                answers: dict[str, Any] | None = None, by: str = "gm",
                preview: bool = False, auto: bool = False,
                hold_rolls: bool = False) -> Outcome:
        """Run one action. Raises NeedDecision (nothing changed) when an answer is missing,
        ActionRejected/InvalidInput with a clear message when it is not allowed.

        ``hold_rolls`` stops at the first die not yet answered, as a dice decision whose
        default ``"auto"`` lets the program roll it: with ``preview`` this shows every total,
        odds, shift and modifier computed before any die is seen."""
        self._refuse_on_player_copy()
        if self.read_only and not preview:
            raise ActionRejected("this campaign is open read-only")
        defn = self.action_def(kind)
        if kind == START_ACTION.kind:
            raise ActionRejected("the campaign has already started")
        if kind not in BUILTIN_ACTIONS and kind not in self.step_action_kinds():
            allowed = ", ".join(self.step_action_kinds()) or "none besides advance"
            raise ActionRejected(f"{defn.title} is not allowed now ({self.step.title}); "
                                 f"allowed: {allowed}")
        if self.step.final and kind not in BUILTIN_ACTIONS:
            raise ActionRejected("the campaign is over")
        reason = defn.why_not(self.state) or self._permission(defn, by)
        if reason:
            raise ActionRejected(f"{defn.title}: {reason}")
        coerced = defn.coerce_params(params or {}, self.state)
        return self._run(defn, coerced, answers or {}, by, preview, auto, hold_rolls)

    def advance(self, answers: dict[str, Any] | None = None, by: str = "gm",
                preview: bool = False) -> Outcome:
        return self.perform("advance", {}, answers, by, preview)

    def _run(self, defn: ActionDef, params: dict[str, Any], answers: dict[str, Any], by: str,
             preview: bool, auto: bool, hold_rolls: bool = False) -> Outcome:
        state = self.state
        tx = Tx(state)
        rng0 = self.stream.position
        step0, phase0, clock0 = state.step, self.step.phase, dict(state.clock)
        strict_before = state.to_dict() if STRICT and not preview else None
        ctx = Ctx(self, tx, answers, by, auto, hold_rolls)
        try:
            defn.handler(ctx, **params)
            changes = tx.changes()
        except BaseException:
            tx.rollback()
            self.stream.position = rng0
            raise
        visibility = ctx.visibility
        if visibility == "public" and defn.visibility == "actor":
            visibility = by
        entry = LogEntry(
            seq=len(self.history) + 1, kind=defn.kind, by=by, at=now_iso(), clock=clock0,
            step=step0, phase=phase0, params=plain(params), answers=plain(ctx.used),
            rolls=ctx.rolls, summary=ctx.summary_text or defn.title, lines=ctx.lines,
            changes=changes, parent=self.info.head, visibility=visibility,
            rng=(rng0, self.stream.position), tags=plain(ctx.tags),
        )
        unasked = sorted(set(answers) - ctx.consulted)
        if preview:
            tx.rollback()
            self.stream.position = rng0
            return Outcome(entry, preview=True, lookups=ctx.lookups, unasked=unasked)
        if strict_before is not None:
            self._verify(strict_before, changes, defn.kind)
        outcome = self._commit(entry, phase0, clock0)
        outcome.lookups = ctx.lookups
        outcome.unasked = unasked
        return outcome

    def _verify(self, before: dict[str, Any], changes: list[Change], kind: str) -> None:
        """Strict mode: the recorded changes must account for every difference."""
        expected = before
        for ch in changes:
            if ch.coll.startswith("records/"):
                bucket = expected["records"].setdefault(ch.coll[len("records/"):], {})
            else:
                bucket = expected[ch.coll]
            if ch.after is None:
                bucket.pop(ch.key, None)
            else:
                bucket[ch.key] = ch.after
        if expected != self.state.to_dict():
            raise CampaignError(f"action {kind} changed state without recording it "
                                "(mutated an object it did not take through the context)")

    def _commit(self, entry: LogEntry, phase0: str, clock0: dict[str, int]) -> Outcome:
        self.history.append(entry)
        info = self.info
        info.log_length = len(self.history)
        info.rng_position = self.stream.position
        events: list[str] = []
        if entry.kind not in (UNDO, REDO) and entry.changes:
            info.redo.clear()
            info.head = entry.seq
        bookmark = None
        new_phase = self.step.phase
        is_start = entry.kind == START_ACTION.kind
        if entry.kind not in (UNDO, REDO) and (
                is_start or new_phase != phase0 or self.state.clock != clock0):
            turn_start = is_start or self.state.clock != clock0
            bookmark = Bookmark(entry.seq, self._bookmark_label(), self.state.step, new_phase,
                                dict(self.state.clock), turn_start)
            info.bookmarks.append(bookmark)
            events.append("phase")
            if turn_start:
                events.append("turn")
        if self.step.final:
            events.append("game_over")
        outcome = Outcome(entry, False, events, bookmark)
        for listener in list(self.listeners):
            listener(outcome)
        return outcome

    def where(self) -> str:
        """Where the campaign stands, in a few words (for listings and titles)."""
        if self.step.final:
            return f"{self.machine.clock_text(self.state.clock)} · over".lstrip(" ·")
        return self._bookmark_label() + f" · {self.step.title}"

    def _bookmark_label(self) -> str:
        clock = self.machine.clock_text(self.state.clock)
        phase = self.machine.phase_title(self.step.phase) or self.step.title
        return f"{clock} · {phase}" if clock else phase

    # -- undo / redo ----------------------------------------------------------------------
    def undo_target(self) -> LogEntry | None:
        return self.history.get(self.info.head) if self.info.head else None

    def redo_target(self) -> LogEntry | None:
        return self.history.get(self.info.redo[-1]) if self.info.redo else None

    def undo(self, by: str = "gm", confirm: bool = False) -> Outcome:
        """Undo the last effective action. Past a die roll this needs ``confirm=True``."""
        self._refuse_on_player_copy()
        if self.read_only:
            raise ActionRejected("this campaign is open read-only")
        target = self.undo_target()
        if target is None:
            raise ActionRejected("nothing to undo")
        if target.kind == START_ACTION.kind:
            raise ActionRejected("nothing to undo: this is the start of the campaign")
        if target.rolls and not confirm:
            rolls = "; ".join(r.describe() for r in target.rolls[:4])
            more = "" if len(target.rolls) <= 4 else f" and {len(target.rolls) - 4} more"
            raise NeedConfirmation(
                f"Undo '{target.summary}'? It discards its die rolls ({rolls}{more}). "
                "Doing it again will roll new dice; the log keeps both.")
        phase0, clock0 = self.step.phase, dict(self.state.clock)
        inverse = [c.inverse() for c in reversed(target.changes)]
        apply_changes(self.state, inverse)
        tags: dict[str, Any] = {}
        if target.rolls:
            tags["discarded_rolls"] = [r.describe() for r in target.rolls]
        entry = LogEntry(seq=len(self.history) + 1, kind=UNDO, by=by, at=now_iso(),
                         clock=clock0, step=target.step, phase=phase0,
                         summary=f"Undo: {target.summary}", changes=inverse,
                         parent=self.info.head, target=target.seq, visibility=target.visibility,
                         rng=(self.stream.position, self.stream.position), tags=tags)
        self.info.head = target.parent
        self.info.redo.append(target.seq)
        self.info.bookmarks = [b for b in self.info.bookmarks if b.seq != target.seq]
        return self._commit(entry, phase0, clock0)

    def redo(self, by: str = "gm") -> Outcome:
        """Re-apply the last undone action with its logged results (no new rolls)."""
        self._refuse_on_player_copy()
        if self.read_only:
            raise ActionRejected("this campaign is open read-only")
        target = self.redo_target()
        if target is None:
            raise ActionRejected("nothing to redo")
        phase0, clock0 = self.step.phase, dict(self.state.clock)
        apply_changes(self.state, target.changes)
        entry = LogEntry(seq=len(self.history) + 1, kind=REDO, by=by, at=now_iso(),
                         clock=clock0, step=self.state.step, phase=phase0,
                         summary=f"Redo: {target.summary}", changes=list(target.changes),
                         parent=self.info.head, target=target.seq, visibility=target.visibility,
                         rng=(self.stream.position, self.stream.position))
        self.info.redo.pop()
        self.info.head = target.seq
        outcome = self._commit(entry, phase0, clock0)
        if phase0 != self.step.phase or clock0 != self.state.clock:
            bm = Bookmark(target.seq, self._bookmark_label(), self.state.step, self.step.phase,
                          dict(self.state.clock), clock0 != self.state.clock)
            self.info.bookmarks.append(bm)
            self.info.bookmarks.sort(key=lambda b: b.seq)
        return outcome

    # -- views and history ---------------------------------------------------------------
    def view(self, viewer: str = "gm", state: State | None = None) -> State:
        """The state as *viewer* may see it (the GM sees everything). The current state's
        views are cached until the next logged change."""
        viewer = self._seat(viewer)
        if viewer != "gm":
            self.check_viewer(viewer)
        if state is not None:
            return self._project(state, viewer)
        if viewer == "gm":
            return self.state
        key = (viewer, len(self.history), self.info.head)
        cached = self._views.get(viewer)
        if cached is None or cached[0] != key:
            cached = (key, self._project(self.state, viewer))
            self._views[viewer] = cached
        return cached[1]

    def _project(self, state: State, viewer: str) -> State:
        try:
            return project(state, viewer, self.ruleset)
        except CampaignError:
            raise
        except Exception as exc:  # a rule set's redact hook meeting damaged data
            raise CampaignError(f"{self.ruleset.name} cannot show the campaign as "
                                f"{self.actor_name(viewer)} sees it ({type(exc).__name__}: "
                                f"{exc})") from exc

    def state_at(self, seq: int) -> State:
        """The campaign as it stood right after log entry *seq* (0 = the initial state)."""
        n = len(self.history)
        if not 0 <= seq <= n:
            raise CampaignError(f"no log position {seq} (the log has {n} entries)")
        base: tuple[int, State] | None = None
        if self.snapshots is not None:
            base = self.snapshots(seq)
        elif self.initial is not None:
            base = (0, self.initial.copy())
        if base is None or (n - seq) < abs(seq - base[0]):
            state = self.state.copy()
            for s in range(n, seq, -1):
                apply_changes(state, self.history.get(s).changes, forward=False)
            self.replayed = n - seq
            return state
        start, state = base
        if start > seq:                 # a snapshot after it, in the same log segment
            for s in range(start, seq, -1):
                apply_changes(state, self.history.get(s).changes, forward=False)
        else:
            for entry in self.history.range(start + 1, seq):
                apply_changes(state, entry.changes)
        self.replayed = abs(seq - start)
        return state

    def entries(self, first: int = 1, last: int | None = None) -> list[LogEntry]:
        return list(self.history.range(first, last if last is not None else len(self.history)))

    # -- replay -------------------------------------------------------------------------
    @classmethod
    def replay(cls, ruleset: RuleSet, initial: State, info: CampaignInfo,
               entries: list[LogEntry], check_changes: bool = True) -> Engine:
        """Re-run a log from its initial state, executing every action again.

        Checks at each step that the dice generator and the changes match the log.
        """
        fresh = CampaignInfo(name=info.name, ruleset=info.ruleset,
                             ruleset_version=info.ruleset_version, data_hash=info.data_hash,
                             scenario=info.scenario, seed=info.seed, id=info.id)
        engine = cls(ruleset, initial.copy(), fresh)
        engine.initial = initial.copy()
        for e in entries:
            if engine.stream.position != e.rng[0]:
                raise CampaignError(f"replay diverged at entry {e.seq}: dice position "
                                    f"{engine.stream.position}, log says {e.rng[0]}")
            if e.kind == UNDO:
                out = engine.undo(by=e.by, confirm=True)
            elif e.kind == REDO:
                out = engine.redo(by=e.by)
            elif e.kind == START_ACTION.kind:
                out = engine._run(START_ACTION, {}, e.answers, e.by, False, True)
            else:
                defn = engine.action_def(e.kind)
                params = defn.coerce_params(e.params, engine.state)
                out = engine._run(defn, params, e.answers, e.by, False, False)
            if check_changes and [c.to_dict() for c in out.entry.changes] != [
                    c.to_dict() for c in e.changes]:
                raise CampaignError(f"replay diverged at entry {e.seq} ({e.kind}): its changes "
                                    "differ from the log")
        return engine
