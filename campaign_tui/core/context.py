"""The action context: the only way rule code changes a campaign.

Everything a handler does goes through :class:`Ctx`: reads see the live state, writes are
recorded by the transaction, rolls and draws come from the campaign's generator (or from
dice typed in), table lookups are explained and can be overridden by the GM, and choices
and GM rulings are asked as :class:`~campaign_tui.core.decisions.Decision` data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.dice import DiceExpr, Roll, read_dice
from campaign_tui.core.errors import ActionRejected, AdvanceRefused, InvalidInput, NeedDecision
from campaign_tui.core.machine import END, RETURN, Machine, Step
from campaign_tui.core.model import Formation, Marker, Side, State, Unit, plain
from campaign_tui.core.rounds import heading, round_key
from campaign_tui.core.tables import Lookup

if TYPE_CHECKING:
    from campaign_tui.core.catalog import Catalog
    from campaign_tui.core.changes import Tx
    from campaign_tui.core.engine import Engine
    from campaign_tui.core.tables import TableSet

MAX_AUTO_STEPS = 500


class Ctx:
    def __init__(self, engine: Engine, tx: Tx, answers: dict[str, Any], by: str,
                 auto: bool = False, hold_rolls: bool = False) -> None:
        self.engine = engine
        self.tx = tx
        self.state: State = tx.state
        self.answers = dict(answers)
        self.by = by
        self.auto = auto
        self.hold_rolls = hold_rolls
        self.rolls: list[Roll] = []
        self.lookups: list[tuple[str, Lookup]] = []
        self.lines: list[str] = []
        self.used: dict[str, Any] = {}
        self.consulted: set[str] = set()  # answers some roll, draw or decision asked for
        self.summary_text = ""
        self.tags: dict[str, Any] = {}
        self.visibility = "public"
        self._tables: TableSet | None = None
        self._catalog: Catalog | None = None
        self._roll_no = 0
        self._lookup_no = 0
        self._round_no = 0  # rounds marked so far: the dice now rolled are round N's
        self._round_label = ""

    # -- rule set data (with the campaign's GM overrides) ------------------------------
    @property
    def ruleset(self) -> Any:
        return self.engine.ruleset

    @property
    def machine(self) -> Machine:
        return self.engine.machine

    @property
    def options(self) -> dict[str, Any]:
        return self.state.options

    @property
    def tables(self) -> TableSet:
        if self._tables is None:
            self._tables = self.engine.tables_for(self.state)
        return self._tables

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = self.engine.catalog_for(self.state)
        return self._catalog

    def attr(self, unit: Unit | str, name: str, default: Any = None) -> Any:
        """A unit's attribute: its own override, else its catalog type's value."""
        u = self.state.unit(unit) if isinstance(unit, str) else unit
        if name in u.attrs:
            return u.attrs[name]
        return self.catalog.type(u.type).attrs.get(name, default)

    # -- explanation ----------------------------------------------------------------------
    def explain(self, line: str) -> None:
        self.lines.append(line)

    def summary(self, text: str) -> None:
        self.summary_text = text

    def secret_to(self, side: str) -> None:
        """Mark this action's content as visible only to *side* (and the GM)."""
        self.visibility = side

    # -- reading helpers --------------------------------------------------------------
    def var(self, name: str, default: Any = None) -> Any:
        return self.state.vars.get(name, default)

    @property
    def clock(self) -> dict[str, int]:
        return self.state.clock

    @property
    def step(self) -> Step:
        return self.machine.step(self.state.step)

    def role(self, name: str) -> str:
        return self.engine.resolve_actor(self.state, name)

    # -- writing: vars, clock, options, meta -----------------------------------------------
    def set_var(self, name: str, value: Any) -> None:
        self.tx.touch("vars", name)
        if value is None:
            self.state.vars.pop(name, None)
        else:
            self.state.vars[name] = plain(value)

    def edit_var(self, name: str, default: Any) -> Any:
        """A mutable var (dict or list) registered for change; created from *default*."""
        self.tx.touch("vars", name)
        if name not in self.state.vars:
            self.state.vars[name] = plain(default)
        return self.state.vars[name]

    def set_clock(self, name: str, value: int) -> None:
        self.tx.touch("clock", name)
        self.state.clock[name] = int(value)

    def tick(self, name: str, by: int = 1) -> int:
        """Advance a clock level; the levels below it go back to their start."""
        levels = [lvl.name for lvl in self.machine.clock]
        self.set_clock(name, self.state.clock.get(name, 0) + by)
        if name in levels:
            for lvl in self.machine.clock[levels.index(name) + 1:]:
                self.set_clock(lvl.name, lvl.start)
        return self.state.clock[name]

    def set_option(self, name: str, value: Any) -> None:
        defs = {o.id: o for o in self.ruleset.options()}
        if name not in defs:
            raise InvalidInput(f"unknown option {name!r}; options: {', '.join(defs) or 'none'}")
        self.tx.touch("options", name)
        self.state.options[name] = defs[name].check(value)

    def set_meta(self, name: str, value: Any) -> None:
        self.tx.touch("meta", name)
        self.state._c["meta"][name] = plain(value)

    # -- writing: entities -----------------------------------------------------------------
    def side(self, sid: str) -> Side:
        self.state.side(sid)
        self.tx.touch("sides", sid)
        return self.state.sides[sid]

    def unit(self, uid: str) -> Unit:
        self.state.unit(uid)
        self.tx.touch("units", uid)
        return self.state.units[uid]

    def formation(self, fid: str) -> Formation:
        self.state.formation(fid)
        self.tx.touch("formations", fid)
        return self.state.formations[fid]

    def marker(self, mid: str) -> Marker:
        if mid not in self.state.markers:
            raise InvalidInput(f"no marker {mid!r}")
        self.tx.touch("markers", mid)
        return self.state.markers[mid]

    def add_side(self, side: Side) -> Side:
        if side.id in self.state.sides:
            raise InvalidInput(f"a side {side.id!r} already exists")
        self.tx.touch("sides", side.id)
        self.state.sides[side.id] = side
        return side

    def add_unit(self, unit: Unit) -> Unit:
        if unit.id in self.state.units:
            raise InvalidInput(f"a unit {unit.id!r} already exists")
        self.state.side(unit.side)
        if unit.formation:
            self.state.formation(unit.formation)
        self.catalog.type(unit.type)
        status = self.catalog.default_status()
        for k, v in unit.status.items():
            status[k] = self.catalog.status_def(k).check(v, f"unit {unit.id}")
        unit.status = status
        self.tx.touch("units", unit.id)
        self.state.units[unit.id] = unit
        return unit

    def remove_unit(self, uid: str) -> Unit:
        unit = self.state.unit(uid)
        self.tx.touch("units", uid)
        del self.state.units[uid]
        return unit

    def add_formation(self, formation: Formation) -> Formation:
        if formation.id in self.state.formations:
            raise InvalidInput(f"a formation {formation.id!r} already exists")
        self.state.side(formation.side)
        if formation.parent:
            self.state.formation(formation.parent)
        self.tx.touch("formations", formation.id)
        self.state.formations[formation.id] = formation
        return formation

    def remove_formation(self, fid: str) -> Formation:
        formation = self.state.formation(fid)
        if self.state.units_in(fid) or self.state.children(fid):
            raise ActionRejected(f"formation {formation.name} is not empty")
        self.tx.touch("formations", fid)
        del self.state.formations[fid]
        return formation

    def add_marker(self, marker: Marker) -> Marker:
        if marker.id in self.state.markers:
            raise InvalidInput(f"a marker {marker.id!r} already exists")
        self.tx.touch("markers", marker.id)
        self.state.markers[marker.id] = marker
        return marker

    def remove_marker(self, mid: str) -> None:
        if mid in self.state.markers:
            self.tx.touch("markers", mid)
            del self.state.markers[mid]

    def new_id(self, prefix: str, coll: str = "units") -> str:
        """A fresh id ``prefix1``, ``prefix2``... not used in *coll*."""
        existing = set(self.state.keys(coll))
        n = 1
        while f"{prefix}{n}" in existing:
            n += 1
        return f"{prefix}{n}"

    # -- writing: records, ledgers, secrets ---------------------------------------------
    def record(self, name: str, key: str) -> dict[str, Any]:
        """A record for change (it must exist)."""
        self.state.record(name, key)
        coll = "records/" + name
        self.tx.touch(coll, key)
        return self.state._c[coll][key]

    def put_record(self, name: str, key: str, value: dict[str, Any]) -> dict[str, Any]:
        coll = "records/" + name
        self.state.ensure_collection(coll)
        self.tx.touch(coll, key)
        self.state._c[coll][key] = plain(value)
        return self.state._c[coll][key]

    def delete_record(self, name: str, key: str) -> None:
        coll = "records/" + name
        if key in self.state.records(name):
            self.tx.touch(coll, key)
            del self.state._c[coll][key]

    def credit(self, holder: str, resource: str, amount: int | float, reason: str = "") -> Any:
        """Add *amount* (may be negative) to a ledger; returns the new balance."""
        self.tx.touch("ledgers", holder)
        book = self.state.ledgers.setdefault(holder, {})
        before = book.get(resource, 0)
        after = before + amount
        if isinstance(after, float) and after.is_integer() and isinstance(before, int):
            after = int(after)
        book[resource] = after
        why = f" ({reason})" if reason else ""
        self.explain(f"{holder} {resource} {amount:+g}{why}: {before:g} -> {after:g}")
        return after

    def set_ledger(self, holder: str, resource: str, value: int | float) -> None:
        self.tx.touch("ledgers", holder)
        self.state.ledgers.setdefault(holder, {})[resource] = value

    def secret(self, side: str, key: str, default: Any = None) -> Any:
        return self.state.secrets.get(side, {}).get(key, default)

    def set_secret(self, side: str, key: str, value: Any) -> None:
        self.tx.touch("secrets", side)
        book = self.state.secrets.setdefault(side, {})
        if value is None:
            book.pop(key, None)
        else:
            book[key] = plain(value)

    def edit_catalog(self, type_id: str) -> dict[str, Any]:
        """This campaign's corrections to one unit type (a new id adds a type), for change.
        The catalog shows corrected values as house rules."""
        self.tx.touch("catalog", type_id)
        return self.state.catalog_overrides.setdefault(type_id, {})

    def reveal(self, entity: Unit | Formation, to_side: str) -> None:
        """Let *to_side* see a hidden unit or formation from now on."""
        coll = "units" if isinstance(entity, Unit) else "formations"
        self.tx.touch(coll, entity.id)
        if to_side not in entity.known_to:
            entity.known_to.append(to_side)

    # -- dice, draws, tables -------------------------------------------------------------
    def _answer(self, key: str) -> Any:
        if key in self.answers:
            self.consulted.add(key)
            return self.answers[key]
        return None

    def round(self, label: str) -> None:
        """Mark the start of a round ("Round 2: Sathar fire"): the dice until the next mark
        (or the end of the action) are its dice. A held preview can then be run a round at
        a time (answer ``round:N`` = ``"auto"``: the program rolls the rest of round N and
        holds again at the next round's first die). The label opens the round's lines."""
        self._round_no += 1
        self._round_label = str(label)
        self.explain(heading(self._round_label))

    def _round_released(self) -> bool:
        """The program rolls the rest of the current round (answer ``round:N = auto``)."""
        key = round_key(self._round_no)
        value = self._answer(key)
        if value is None:
            return False
        if str(value).strip().lower() != "auto":
            where = f" ({self._round_label})" if self._round_label else ""
            raise InvalidInput(f"{key}{where}: {value!r} is not an answer for a round; answer "
                               "auto to let the program roll the rest of it (type the dice "
                               "one roll at a time with rollN=...)")
        return True

    def _holding(self) -> bool:
        """Unanswered dice stop the action: manual dice, or a held preview."""
        return self.engine.dice_mode(self.state) == "manual" or self.hold_rolls

    def _held(self, **fields: Any) -> NeedDecision:
        """The stop before a die or draw nobody answered: the GM types it, or lets the
        program roll it ("auto", not offered in manual-dice mode), or its whole round."""
        auto = None if self.engine.dice_mode(self.state) == "manual" else "auto"
        return NeedDecision(Decision(default=auto, round=round_key(self._round_no),
                                     round_label=self._round_label, **fields),
                            list(self.lines))

    def roll(self, expr: str, purpose: str, *, modifiers: Sequence[tuple[str, int]] = (),
             table: str | None = None, target: int | None = None, side: str | None = None,
             tags: dict[str, Any] | None = None) -> Roll:
        """Roll dice: typed in (answer ``rollN``), asked for (manual dice) or generated.

        A GM override (answer ``override:rollN``) replaces the dice and is flagged in the log.
        """
        parsed = DiceExpr.parse(expr)
        self._roll_no += 1
        key = f"roll{self._roll_no}"
        override_key = f"override:{key}"
        manual = False
        override = None
        info = tuple(self._roll_info(parsed, modifiers, target, table))
        if self._answer(override_key) is not None:
            if self._answer(key) == "auto":
                self.engine.stream.roll(parsed)  # the die was rolled; the GM replaces it
            dice = read_dice(parsed, self.answers[override_key])
            override = {"value": dice}
            self.used[override_key] = dice
            if self._answer(key) == "auto":
                self.used[key] = "auto"
        elif self._answer(key) == "auto":
            dice = self.engine.stream.roll(parsed)
        elif self._answer(key) is not None:
            dice = read_dice(parsed, self.answers[key])
            manual = True
            self.used[key] = dice
        elif not self._round_released() and self._holding():
            # manual dice: type them; a held preview: stop before the first die is seen
            raise self._held(id=key, kind="dice", prompt=f"Roll {parsed} for {purpose}",
                             expr=str(parsed), side=side, info=info)
        else:
            dice = self.engine.stream.roll(parsed)
        roll = Roll(n=self._roll_no, expr=str(parsed), dice=dice, purpose=purpose,
                    constant=parsed.constant, modifiers=[(str(a), int(b)) for a, b in modifiers],
                    table=table, target=target, side=side, manual=manual, override=override,
                    tags=dict(tags or {}))
        self.rolls.append(roll)
        return roll

    @staticmethod
    def _roll_info(parsed: DiceExpr, modifiers: Sequence[tuple[str, int]],
                   target: int | None, table: str | None) -> list[str]:
        info = [f"dice: {parsed}"]
        info.extend(f"modifier {v:+d} ({label})" for label, v in modifiers)
        if target is not None:
            info.append(f"target {target}")
        if table:
            info.append(f"table {table}")
        return info

    def draw(self, pool: Sequence[Any], k: int = 1, purpose: str = "random draw",
             side: str | None = None) -> list[Any]:
        """Draw *k* items at random without replacement; logged like a roll.

        Manual entry: answer ``drawN`` with the 1-based positions (or the items) chosen.
        """
        items = list(pool)
        if k > len(items):
            raise ActionRejected(f"{purpose}: cannot draw {k} from {len(items)}")
        self._roll_no += 1
        key = f"draw{self._roll_no}"
        labels = [item_label(x) for x in items]
        legacy = [str(x) for x in items]  # how earlier versions named the items
        manual = False
        if self._answer(key) is not None and self._answer(key) != "auto":
            raw = self.answers[key]
            picks = raw if isinstance(raw, list) else [p for p in str(raw).split(",") if p.strip()]
            if len(picks) != k:
                raise InvalidInput(f"{purpose}: choose exactly {k}")
            chosen_idx: list[int] = []
            for p in picks:
                text = str(p).strip()
                if text in labels:
                    idx = labels.index(text)
                elif text in legacy:
                    idx = legacy.index(text)
                elif text.isdigit() and 1 <= int(text) <= len(items):
                    idx = int(text) - 1
                else:
                    raise InvalidInput(f"{purpose}: {text!r} is not in the pool")
                if idx in chosen_idx:
                    raise InvalidInput(f"{purpose}: {text!r} chosen twice")
                chosen_idx.append(idx)
            manual = True
            self.used[key] = [labels[i] for i in chosen_idx]
        elif self._answer(key) != "auto" and not self._round_released() and self._holding():
            raise self._held(id=key, kind="multi", prompt=f"Draw {k} at random for {purpose}",
                             options=tuple(Option(v) for v in dict.fromkeys(labels)),
                             min=k, max=k, side=side)
        else:
            remaining = list(range(len(items)))
            chosen_idx = []
            for _ in range(k):
                pick = self.engine.stream.randint(0, len(remaining) - 1)
                chosen_idx.append(remaining.pop(pick))
        chosen = [items[i] for i in chosen_idx]
        self.rolls.append(Roll(
            n=self._roll_no, expr=f"draw {k} of {len(items)}", dice=[i + 1 for i in chosen_idx],
            purpose=purpose, side=side, manual=manual, kind="draw",
            result=", ".join(item_text(c) for c in chosen)))
        return chosen

    def lookup(self, table: str, shifts: dict[str, int] | None = None,
               **inputs: Any) -> Lookup:
        """Look a table up; the GM may override the result (answer ``override:lookupN``)."""
        result = self.tables.get(table).lookup(shifts=shifts, **inputs)
        self._lookup_no += 1
        key = f"override:lookup{self._lookup_no}"
        if self._answer(key) is not None:
            new = self.answers[key]
            result.explanation.append(f"GM override: {result.cell} -> {new}")
            result.cell = new
            result.value = self.tables.get(table).value_of(new)
            result.overridden = True
            self.used[key] = new
            self.tags["override"] = True
        self.lookups.append((f"lookup{self._lookup_no}", result))
        self.explain(f"{self.tables.get(table).title}: {result.summary}")
        return result

    def result(self, roll: Roll, text: str, detail: Sequence[str] = ()) -> None:
        """Record the outcome of a roll for the die log."""
        roll.result = text
        roll.detail.extend(detail)

    # -- decisions and rulings -----------------------------------------------------------
    def decide(self, decision: Decision,
               validate: Callable[[Any], str | None] | None = None) -> Any:
        key = decision.answer_key(self.answers)
        if key is not None:
            self.consulted.add(key)
            value = decision.coerce(self.answers[key])
        elif self.auto and decision.default is not None:
            value = decision.default
        else:
            raise NeedDecision(decision, list(self.lines))
        if validate is not None:
            problem = validate(value)
            if problem:
                raise InvalidInput(f"{decision.prompt}: {problem}")
        self.used[decision.id] = value
        return value

    def choose(self, id: str, prompt: str, options: Sequence[str | tuple[str, str]],
               side: str | None = None, default: Any = None, info: Sequence[str] = ()) -> str:
        opts = tuple(Option(o) if isinstance(o, str) else Option(o[0], o[1]) for o in options)
        return str(self.decide(Decision(id=id, kind="choice", prompt=prompt, options=opts,
                                        side=side, default=default, info=tuple(info))))

    def confirm(self, id: str, prompt: str, side: str | None = None,
                default: bool | None = None, info: Sequence[str] = ()) -> bool:
        return bool(self.decide(Decision(id=id, kind="bool", prompt=prompt, side=side,
                                         default=default, info=tuple(info))))

    def ruling(self, id: str, question: str, answer_kind: str = "bool",
               options: Sequence[str] = (), default: Any = None,
               info: Sequence[str] = (), min: float | None = None,
               max: float | None = None, aliases: Sequence[str] = ()) -> Any:
        """Ask the GM about something the program cannot know (adjacency, line of sight,
        line of communication...). The answer is logged as a ruling. Number answers may
        be bounded with min/max."""
        value = self.decide(Decision(id=id, kind="ruling", prompt=question, side="gm",
                                     answer_kind=answer_kind,
                                     options=tuple(Option(o) for o in options),
                                     default=default, info=tuple(info), min=min, max=max,
                                     aliases=tuple(aliases)))
        self.explain(f"GM ruling: {question} -> {_fmt_answer(value)}")
        self.tags.setdefault("rulings", []).append(id)
        return value

    # -- phase machine -------------------------------------------------------------------
    def _set_position(self, step: str, stack: list[str]) -> None:
        self.tx.touch("meta", "position")
        self.state._c["meta"]["position"] = {"step": step, "stack": list(stack)}

    def goto(self, step_id: str) -> None:
        """Move to *step_id* (running its entry chores)."""
        self.machine.step(step_id)
        self._set_position(step_id, self.state.stack)
        self._enter()

    def call(self, entry: str, return_to: str) -> None:
        """Enter a sub-machine at *entry*; ``Go("@return")`` comes back to *return_to*."""
        self.machine.step(entry)
        self.machine.step(return_to)
        self._set_position(entry, [*self.state.stack, return_to])
        self._enter()

    def missing(self) -> list[str]:
        return self.engine.missing(self.state)

    def advance(self, check: bool = True) -> Step:
        """Leave the current step by its first applicable transition."""
        for _ in range(MAX_AUTO_STEPS):
            step = self.step
            if step.final:
                raise ActionRejected("the campaign is over; nothing follows")
            if check:
                missing = self.missing()
                if missing:
                    raise AdvanceRefused(missing)
            go = next((g for g in step.next if g.applies(self.state)), None)
            if go is None:
                raise ActionRejected(f"no way on from {step.id}: none of its conditions hold "
                                     "(a rule-set error; use a GM jump to continue)")
            if go.effect:
                go.effect(self)
            stack = self.state.stack
            if go.call:
                target, stack = go.call, [*stack, go.to]
            elif go.to == RETURN:
                if not stack:
                    raise ActionRejected(f"{step.id} returns but no sub-machine was called")
                target, stack = stack[-1], stack[:-1]
            elif go.to == END:
                target = next(s.id for s in self.machine.steps.values() if s.final)
            else:
                target = go.to
            self._set_position(target, stack)
            new = self._enter()
            if not new.auto or new.final:
                return new
        raise ActionRejected("the phase machine kept advancing automatically (a loop in the "
                             "rule set's automatic steps)")

    def _enter(self) -> Step:
        step = self.step
        if step.enter:
            step.enter(self)
        return self.step

    def end_game(self, outcome: dict[str, Any]) -> None:
        """Record the outcome and go to the machine's final step."""
        self.set_var("outcome", outcome)
        final = next(s.id for s in self.machine.steps.values() if s.final)
        self._set_position(final, [])


def _fmt_answer(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def item_label(item: Any) -> str:
    """How a drawn item is named in a typed answer: an entity by its id, else its text."""
    ident = getattr(item, "id", None)
    return str(ident) if isinstance(ident, str) else str(item)


def item_text(item: Any) -> str:
    """How a drawn item reads in the log: ``Name (id)`` for an entity, else its text."""
    ident, name = getattr(item, "id", None), getattr(item, "name", "")
    if not isinstance(ident, str):
        return str(item)
    return f"{name} ({ident})" if name and name != ident else ident
