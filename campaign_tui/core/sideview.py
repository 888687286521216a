"""What one side receives: its view of the state, and the log, prompts and texts seen
through it.

Everything a side is shown (status and prompts, decisions, log entries with their
parameters, rolls and change sets, reports, exports, the TUI when viewing as a side) is
computed here from :func:`campaign_tui.core.views.project`, the one projection:

* a log entry's change set is the change *in the side's view*: each touched slot's value
  in the view before and after the entry (a slot the side cannot see disappears, a record
  it sees in part shows only that part);
* texts made from the full state (summaries, explanation lines, roll purposes, prompts,
  reasons) are withheld when they name something hidden from the side: an id or name of a
  unit, formation or marker it cannot see, a record it does not have, a value of another
  side's secrets (:class:`HiddenTerms`);
* an action's parameters and answers are the actor's own: another side sees them only
  when none is declared secret (``ActionDef.secret_params``) and none names a hidden thing;
* no generator position: a side's entries carry the rolls' results only.

:class:`SideView` is the door: built from an engine and a side, it hands out only
projected things and keeps no public handle on the full state.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from campaign_tui.core.changes import Change, apply_changes
from campaign_tui.core.decisions import Decision
from campaign_tui.core.dice import Roll
from campaign_tui.core.log import LogEntry
from campaign_tui.core.model import RECORDS_PREFIX, State
from campaign_tui.core.records import record

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine, Status

WITHHELD = "(withheld: it concerns something hidden from you)"
MIN_TERM = 2


def _strings(value: Any, out: set[str]) -> None:
    """Every string leaf and dict key of plain data (a leaf is taken without a call)."""
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            if isinstance(v, str):
                out.add(v)
            elif isinstance(v, (dict, list)):
                _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            if isinstance(v, str):
                out.add(v)
            elif isinstance(v, (dict, list)):
                _strings(v, out)
    elif isinstance(value, str):
        out.add(value)


def _with_digit(value: Any, out: set[str]) -> None:
    """String leaves and keys that carry a digit (ids, hexes, sectors, codes)."""
    found: set[str] = set()
    _strings(value, found)
    out.update(s for s in found if any(c.isdigit() for c in s))


_ENTITY_FIELDS = ("id", "side", "type", "name", "label", "kind", "parent", "formation",
                  "location", "target", "status", "attrs", "data", "known_to")


def state_strings(state: State) -> set[str]:
    """Every string a state holds (read in place, without serialising it)."""
    out: set[str] = set()
    for coll in state.collections():
        bucket = state._c[coll]
        if coll in ("sides", "formations", "units", "markers"):
            out.update(bucket)
            for item in bucket.values():
                for name in _ENTITY_FIELDS:
                    value = getattr(item, name, None)
                    if isinstance(value, str):
                        out.add(value)
                    elif isinstance(value, (dict, list)):
                        _strings(value, out)
        else:
            _strings(bucket, out)
    return out


def identity_strings(state: State) -> set[str]:
    """The strings that identify things in a state: ids and names of units, formations and
    markers, record keys, and the coded values (with a digit) of secrets, vars and records."""
    out: set[str] = set()
    for coll in (state.units, state.formations, state.markers):
        for key, item in coll.items():
            out.add(key)
            name = getattr(item, "name", "") or getattr(item, "label", "")
            if name:
                out.add(name)
    for coll in state.collections():
        if coll.startswith(RECORDS_PREFIX):
            out.update(state.keys(coll))
            _with_digit(state._c[coll], out)
    _with_digit(state.secrets, out)
    _with_digit(state.vars, out)
    return out


class HiddenTerms:
    """The identifying strings of a full state that a side's view does not hold; a text
    naming one of them is hidden from that side."""

    def __init__(self, terms: Iterable[str]) -> None:
        self.terms = frozenset(t for t in terms if len(t.strip()) >= MIN_TERM)
        self._pattern: re.Pattern[str] | None = None
        if self.terms:
            alternatives = "|".join(re.escape(t) for t in sorted(self.terms, key=len,
                                                                 reverse=True))
            self._pattern = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")

    @classmethod
    def between(cls, fulls: Iterable[State], views: Iterable[State]) -> HiddenTerms:
        shown: set[str] = set()
        for v in views:
            shown |= state_strings(v)
        found: set[str] = set()
        for f in fulls:
            found |= identity_strings(f)
        return cls(found - shown)

    def with_values(self, values: set[str]) -> HiddenTerms:
        """These terms and *values* besides (the hidden values of one entry's slots)."""
        return HiddenTerms(self.terms | values) if values - self.terms else self

    def hides(self, text: str) -> bool:
        return self._pattern is not None and self._pattern.search(text) is not None

    def hides_value(self, value: Any) -> bool:
        if self._pattern is None:
            return False
        return self.hides(json.dumps(value, ensure_ascii=False, default=str))

    def text(self, text: str, fallback: str = WITHHELD) -> str:
        return fallback if self.hides(text) else text

    def lines(self, lines: Iterable[str]) -> list[str]:
        return [line for line in lines if not self.hides(line)]


def _project_changes(changes: list[Change], before: State, after: State) -> list[Change]:
    out = []
    seen: set[tuple[str, str]] = set()
    for ch in changes:
        slot = (ch.coll, ch.key)
        if slot in seen:
            continue
        seen.add(slot)
        b, a = before.dump_slot(*slot), after.dump_slot(*slot)
        if b != a:
            out.append(Change(ch.coll, ch.key, b, a))
    return out


def _hidden_values(full: list[Change], seen: list[Change], before: State,
                   after: State, shown_in_views: tuple[set[str], ...] | None) -> set[str]:
    """The strings of the slots an entry changed that the side's view of those slots lacks
    (a status value of a counter, a field a rule set redacts)."""
    found: set[str] = set()
    for ch in full:
        _strings(ch.before, found)
        _strings(ch.after, found)
    if not found:
        return found
    shown: set[str] = set()
    for ch in seen:
        _strings(ch.before, shown)
        _strings(ch.after, shown)
    candidates = {s for s in found - shown if len(s) >= 3}
    if not candidates:
        return candidates
    if shown_in_views is None:
        shown_in_views = (state_strings(before), state_strings(after))
    return {c for c in candidates if not any(c in shown for shown in shown_in_views)}


def _project_roll(roll: Roll, terms: HiddenTerms) -> Roll | None:
    return None if terms.hides_value(roll.to_dict()) else roll


def project_entry(entry: LogEntry, viewer: str, before_view: State, after_view: State,
                  terms: HiddenTerms, secret_params: tuple[str, ...] = (),
                  shown: tuple[set[str], ...] | None = None) -> LogEntry | None:
    """*entry* as *viewer* may see it (None when the whole entry is hidden from it)."""
    if viewer == "gm":
        return entry
    if not entry.visible_to(viewer):
        return None
    changes = _project_changes(entry.changes, before_view, after_view)
    terms = terms.with_values(_hidden_values(entry.changes, changes, before_view, after_view,
                                             shown))
    own = entry.by == viewer
    params: dict[str, Any] = dict(entry.params)
    if not own and (any(p in params for p in secret_params) or terms.hides_value(params)):
        params = {}
    answers = dict(entry.answers) if own and not terms.hides_value(entry.answers) else {}
    rolls = [r for r in (_project_roll(r, terms) for r in entry.rolls) if r is not None]
    tags = {k: v for k, v in entry.tags.items() if not terms.hides_value(v)}
    lines = terms.lines(entry.lines)
    if len(lines) < len(entry.lines):
        lines.append(f"({len(entry.lines) - len(lines)} line(s) withheld)")
    if len(rolls) < len(entry.rolls):
        lines.append(f"({len(entry.rolls) - len(rolls)} roll(s) withheld)")
    return dataclasses.replace(
        entry, params=params, answers=answers, rolls=rolls, tags=tags, lines=lines,
        summary=terms.text(entry.summary, f"{entry.kind} {WITHHELD}"),
        changes=changes, rng=(0, 0))


def _current(engine: Engine) -> dict[Any, Any]:
    """What :func:`current_terms` keeps for the engine's current state: emptied at each
    logged change (as the engine's views are), but for the slot-by-slot counts, which the
    next change brings up to date."""
    cache = engine._terms
    key = (len(engine.history), engine.info.head, id(engine.state))
    if cache.get("key") != key:
        counts = cache.get("counts")
        cache.clear()
        cache["key"] = key
        if counts is not None:
            cache["counts"] = counts
    return cache


class _LiveCounts:
    """The strings of an engine's current state, and of each side's view of it, counted
    slot by slot and brought up to date by the entries logged since: a logged change
    reads again only the slots it changed, not the whole state (the entries' changes are
    the whole story of the state: :func:`walk_entries` rebuilds it from them). Counted
    again from the whole state when the state object was replaced, or the log did not
    grow by appending."""

    def __init__(self, engine: Engine) -> None:
        self.state = engine.state
        self.length = len(engine.history)
        self.identity = _Tally(engine.state, slot_identity)
        self.views: dict[str, tuple[State, _Tally]] = {}

    def follow(self, engine: Engine) -> bool:
        """Bring the counts up to date with *engine* (False: they cannot be)."""
        n = len(engine.history)
        if engine.state is not self.state or n < self.length:
            return False
        if n > self.length:
            self.identity.update(engine.state, {
                (ch.coll, ch.key) for entry in engine.history.range(self.length + 1, n)
                for ch in entry.changes})
            self.length = n
        return True

    def shown(self, viewer: str, view: State) -> set[str]:
        """The strings of *viewer*'s *view* of the current state."""
        kept = self.views.get(viewer)
        if kept is None or view is self.state:   # a view that is the state: count it all
            tally = _Tally(view, slot_strings)
        else:
            tally = kept[1]
            if kept[0] is not view:
                tally.update(view, _changed_slots(kept[0], view))
        self.views[viewer] = (view, tally)
        return tally.strings()


def current_strings(engine: Engine, viewer: str) -> tuple[State, set[str], set[str]]:
    """*viewer*'s view of the current state, the identity strings of the full state and
    the strings of the view, each made once per logged change (the identity strings once
    for every side) from counts kept slot by slot. The sets are shared: read them, never
    change them."""
    cache = _current(engine)
    counts = cache.get("counts")
    if counts is None or not counts.follow(engine):
        counts = cache["counts"] = _LiveCounts(engine)
    if "identity" not in cache:
        cache["identity"] = counts.identity.strings()
    view = engine.view(viewer)
    shown = cache.get(("shown", viewer))
    if shown is None or shown[0] is not view:
        shown = cache[("shown", viewer)] = (view, counts.shown(viewer, view))
    return view, cache["identity"], shown[1]


def current_terms(engine: Engine, viewer: str) -> HiddenTerms:
    """The hidden terms of *viewer* at the current state (``HiddenTerms.between`` the
    full state and its view), made once per logged change."""
    cache = _current(engine)
    terms = cache.get(("terms", viewer))
    if terms is None:
        _view, identity, shown = current_strings(engine, viewer)
        terms = cache[("terms", viewer)] = HiddenTerms(identity - shown)
    return terms


@record
class _Point:
    """The full state at one point of the walk as a side sees it."""

    view: State
    identity: set[str]
    shown: set[str]


class _TermsCache:
    def __init__(self) -> None:
        self._last: tuple[frozenset[str], HiddenTerms] | None = None

    def between(self, points: tuple[_Point, ...]) -> HiddenTerms:
        found = set().union(*(p.identity for p in points))
        shown = set().union(*(p.shown for p in points))
        key = frozenset(found - shown)
        if self._last is None or self._last[0] != key:
            self._last = (key, HiddenTerms(key))
        return self._last[1]


Slot = tuple[str, str]


def _slots(state: State) -> Iterator[Slot]:
    for coll in state.collections():
        for key in state._c[coll]:
            yield coll, key


def slot_strings(state: State, slot: Slot) -> frozenset[str]:
    """The strings :func:`state_strings` finds in one slot (the union over every slot is
    ``state_strings(state)``)."""
    coll, key = slot
    item = state._c[coll][key]
    out: set[str] = {str(key)}
    if coll in ("sides", "formations", "units", "markers"):
        for name in _ENTITY_FIELDS:
            _strings(getattr(item, name, None), out)
    else:
        _strings(item, out)
    return frozenset(out)


def slot_identity(state: State, slot: Slot) -> frozenset[str]:
    """The strings :func:`identity_strings` finds in one slot (the union over every slot
    is ``identity_strings(state)``)."""
    coll, key = slot
    item = state._c[coll][key]
    if coll in ("units", "formations", "markers"):
        name = getattr(item, "name", "") or getattr(item, "label", "")
        return frozenset((key, name) if name else (key,))
    if coll.startswith(RECORDS_PREFIX) or coll in ("secrets", "vars"):
        out: set[str] = {key} if coll.startswith(RECORDS_PREFIX) else set()
        _with_digit({key: item}, out)
        return frozenset(out)
    return frozenset()


class _Tally:
    """The strings of a state counted slot by slot, so that a change reads again only the
    slots it touched, not the whole state."""

    def __init__(self, state: State, of_slot: Callable[[State, Slot], frozenset[str]]) -> None:
        self.of_slot = of_slot
        self.parts: dict[Slot, frozenset[str]] = {}
        self.count: Counter[str] = Counter()
        for slot in _slots(state):
            self._put(state, slot)

    def _put(self, state: State, slot: Slot) -> None:
        part = self.parts[slot] = self.of_slot(state, slot)
        self.count.update(part)

    def _drop(self, slot: Slot) -> None:
        count = self.count
        for s in self.parts.pop(slot, ()):
            count[s] -= 1
            if not count[s]:
                del count[s]

    def update(self, state: State, slots: Iterable[Slot]) -> None:
        for slot in slots:
            self._drop(slot)
            bucket = state._c.get(slot[0])
            if bucket is not None and slot[1] in bucket:
                self._put(state, slot)

    def strings(self) -> set[str]:
        return set(self.count)


def _changed_slots(old: State, new: State) -> list[Slot]:
    """The slots whose value differs between two states (present in one only included)."""
    out: list[Slot] = []
    for coll in {*old.collections(), *new.collections()}:
        a, b = old._c.get(coll, {}), new._c.get(coll, {})
        for key, value in b.items():
            if key not in a or a[key] != value:
                out.append((coll, key))
        out += [(coll, key) for key in a if key not in b]
    return out


def walk_entries(engine: Engine, viewer: str, first: int, last: int) -> Iterator[LogEntry]:
    """Entries first..last as *viewer* sees them, walking the full state forward once and
    projecting it once per entry that changes something. The strings of the state and of
    the view (what the hidden terms are made of) are kept up to date slot by slot, not read
    again from the whole state at each entry."""
    n = len(engine.history)
    first, last = max(first, 1), min(last, n)
    if first > last:
        return
    state = engine.state_at(first - 1)
    cache = _TermsCache()
    view = engine.view(viewer, state)
    identity = _Tally(state, slot_identity)
    shown = _Tally(view, slot_strings)

    def here() -> _Point:
        nonlocal view, shown
        new = engine.view(viewer, state)
        if new is state:  # a view that is the state itself changed in place: count again
            shown = _Tally(new, slot_strings)
        else:
            shown.update(new, _changed_slots(view, new))
        view = new
        return _Point(view, identity.strings(), shown.strings())

    point: _Point | None = _Point(view, identity.strings(), shown.strings())
    for entry in engine.history.range(first, last):
        slots = {(ch.coll, ch.key) for ch in entry.changes}
        if not entry.visible_to(viewer):
            if entry.changes:
                apply_changes(state, entry.changes)
                identity.update(state, slots)
                point = None
            continue
        before = point if point is not None else here()
        if entry.changes:
            apply_changes(state, entry.changes)
            identity.update(state, slots)
            point = here()
        else:
            point = before
        projected = project_entry(entry, viewer, before.view, point.view,
                                  cache.between((before, point)),
                                  engine.secret_params(entry.kind),
                                  (before.shown, point.shown))
        if projected is not None:
            yield projected


class LiveTail:
    """*viewer*'s projection of the entries an engine commits, as they are committed (a
    hosted table's feed): the point after the last entry is kept, so the next one is
    projected from it and the live state, without going back into the log. Anything else
    (several entries at once, the first call) walks the log as :func:`walk_entries`."""

    def __init__(self, engine: Engine, viewer: str) -> None:
        engine.check_viewer(viewer)
        self._engine = engine
        self.viewer = viewer
        self._after: tuple[int, _Point] | None = None   # (log length, the point after it)
        self._cache = _TermsCache()

    def _live_point(self) -> _Point:
        return _Point(*current_strings(self._engine, self.viewer))

    def entries(self, first: int, last: int) -> list[LogEntry]:
        e = self._engine
        n = len(e.history)
        kept = self._after
        if first == last == n and kept is not None and kept[0] == n - 1:
            entry = e.history.get(n)
            before = kept[1]
            after = self._live_point() if entry.changes else before
            self._after = (n, after)
            projected = project_entry(entry, self.viewer, before.view, after.view,
                                      self._cache.between((before, after)),
                                      e.secret_params(entry.kind), (before.shown, after.shown))
            return [projected] if projected is not None else []
        got = list(walk_entries(e, self.viewer, first, last))
        if last >= n:
            self._after = (n, self._live_point())
        return got


class SideView:
    """The campaign as one side receives it. Every method returns projected data; the full
    state is reachable only through the engine this was made from, which it keeps private."""

    def __init__(self, engine: Engine, side: str) -> None:
        engine.check_viewer(side)
        self.__engine = engine
        self.side = side

    @property
    def name(self) -> str:
        return self.__engine.actor_name(self.side)

    @property
    def state(self) -> State:
        return self.__engine.view(self.side)

    def terms(self) -> HiddenTerms:
        if self.side == "gm":
            return HiddenTerms(())
        return current_terms(self.__engine, self.side)

    def text(self, text: str) -> str:
        """A text made from the full state (a refusal, a reason), as this side may read it."""
        return text if self.side == "gm" else self.terms().text(text)

    def status(self) -> Status:
        return self.__engine.status(self.side)

    def headline(self) -> dict[str, list[str]]:
        return self.__engine.ruleset.headline(self.state)

    def reports(self) -> dict[str, str]:
        return self.__engine.ruleset.reports(self.state, self.side)

    def entries(self, first: int = 1, last: int | None = None) -> list[LogEntry]:
        e = self.__engine
        end = len(e.history) if last is None else last
        if self.side == "gm" or e.info.export_side == self.side:
            return e.entries(first, end)
        return list(walk_entries(e, self.side, first, end))

    def last(self, count: int) -> list[LogEntry]:
        """The last *count* entries this side sees, projecting no more of the log than
        needed."""
        n = len(self.__engine.history)
        span = count
        while True:
            first = max(1, n - span + 1)
            got = self.entries(first, n)
            if len(got) >= count or first == 1:
                return got[-count:] if count else []
            span *= 4

    def entry(self, entry: LogEntry) -> LogEntry | None:
        """One entry just made (logged, or a preview not logged) as this side sees it."""
        e = self.__engine
        if self.side == "gm":
            return entry
        if 1 <= entry.seq <= len(e.history) and e.history.get(entry.seq) is entry:
            got = self.entries(entry.seq, entry.seq)
            return got[0] if got else None
        before = e.state
        after = before.copy()
        apply_changes(after, entry.changes)
        before_view, after_view = e.view(self.side, before), e.view(self.side, after)
        terms = HiddenTerms.between((before, after), (before_view, after_view))
        return project_entry(entry, self.side, before_view, after_view, terms,
                             e.secret_params(entry.kind))

    def decision(self, decision: Decision, preview: list[str] | None = None) -> tuple[
            Decision, list[str]]:
        """A decision (and the lines so far) with what names hidden things withheld."""
        if self.side == "gm":
            return decision, list(preview or [])
        terms = self.terms()
        options = tuple(o for o in decision.options if not terms.hides_value(o.to_dict()))
        d = dataclasses.replace(decision, prompt=terms.text(decision.prompt),
                                info=tuple(terms.lines(decision.info)), options=options,
                                round_label=decision.round_label and terms.text(
                                    decision.round_label))
        return d, terms.lines(preview or [])
