"""The leak harness's yardstick: the facts a side's view lacks, found by comparing the full
state with the view (never a hand list), and the search for them in an output.

A *fact* is an identifying string of the full state — an id or a name of a unit,
formation or marker, a record key, a coded value (with a digit: a hex, a sector, an id) of
another side's secrets, of the variables or of a record — that the side's view does not
hold anywhere. Facts are gathered over a stretch of history: what the side never saw at
any point of it must not appear in what the side receives."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from campaign_tui.core.changes import apply_changes
from campaign_tui.core.engine import Engine
from campaign_tui.core.log import LogEntry
from campaign_tui.core.model import State


def _all_strings(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _all_strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _all_strings(v, out)
    elif isinstance(value, str):
        out.add(value)


def _coded(value: Any) -> set[str]:
    found: set[str] = set()
    _all_strings(value, found)
    return {s for s in found if re.search(r"\d", s)}


def candidate_facts(full: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for coll in ("units", "formations", "markers"):
        for key, item in full.get(coll, {}).items():
            out.add(key)
            for field in ("name", "label"):
                if item.get(field):
                    out.add(str(item[field]))
    for bucket in full.get("records", {}).values():
        out.update(bucket)
        out |= _coded(bucket)
    out |= _coded(full.get("secrets", {}))
    out |= _coded(full.get("vars", {}))
    return {s for s in out if len(s.strip()) >= 3}


def shown_in(candidates: set[str], view: dict[str, Any]) -> set[str]:
    """The candidates the view holds, as a value or inside one (a name in a combat line)."""
    text = json.dumps(view, ensure_ascii=False)
    exact: set[str] = set()
    _all_strings(view, exact)
    return (candidates & exact) | {c for c in candidates - exact if c in text}


class Facts:
    """Facts hidden from one side over a stretch of history."""

    def __init__(self, facts: Iterable[str]) -> None:
        self.facts = set(facts)
        alts = "|".join(re.escape(f) for f in sorted(self.facts, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])") if self.facts else None

    def matched(self, text: str) -> set[str]:
        if self.pattern is None:
            return set()
        return {m.group(0) for m in self.pattern.finditer(text)}

    def found_in(self, text: str) -> list[str]:
        if self.pattern is None:
            return []
        return sorted({m.group(0) for m in self.pattern.finditer(text)})

    def found_in_data(self, data: Any) -> list[str]:
        return self.found_in(json.dumps(data, ensure_ascii=False, default=str))


def states_over_history(engine: Engine) -> list[State]:
    """The full state after every log entry (from the initial state on)."""
    state = engine.state_at(0)
    out = [state.copy()]
    for e in engine.entries():
        apply_changes(state, e.changes)
        out.append(state.copy())
    return out


class SideAudit:
    """The facts hidden from one side: over the whole history (for outputs about the
    present) and around each log entry (for that entry as the side receives it)."""

    def __init__(self, engine: Engine, side: str, states: list[State]) -> None:
        self.side = side
        self._cands = [candidate_facts(st.to_dict()) for st in states]
        every = set().union(*self._cands)
        views = [engine.view(side, st).to_dict() for st in states]
        self._texts = [json.dumps(v, ensure_ascii=False) for v in views]
        self._shown = [shown_in(every, v) for v in views]
        self.overall = Facts(every - set().union(*self._shown))

    def around(self, entry: LogEntry) -> Facts:
        """Facts hidden just before and just after a log entry (the full one): besides the
        identifying strings, every value of the slots it changed that neither view holds
        (a counter's status, a redacted field)."""
        i = entry.seq - 1
        values: set[str] = set()
        for ch in entry.changes:
            _all_strings(ch.before, values)
            _all_strings(ch.after, values)
        values = {v for v in values if len(v.strip()) >= 3
                  and v not in self._texts[i] and v not in self._texts[i + 1]}
        return Facts(((self._cands[i] | self._cands[i + 1]) - self._shown[i]
                      - self._shown[i + 1]) | values)
