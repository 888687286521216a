"""core/later.py: a rule module reached through a stand-in is imported at the first call."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from campaign_tui.core.later import later

RULES = '''
LIMIT = 3
CALLS = []

def over(state, extra=0):
    CALLS.append(state)
    return state + extra > LIMIT

class Plan:
    def __init__(self, n):
        self.n = n
'''


@pytest.fixture
def rules_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "later_rules_demo.py").write_text(RULES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "later_rules_demo", raising=False)
    return "later_rules_demo"


def test_the_module_is_imported_at_the_first_call_not_before(rules_module: str) -> None:
    R = later(rules_module)
    when = R.over  # what a phase machine keeps (a Go's condition)
    plan = R.Plan
    assert rules_module not in sys.modules
    assert when(2) is False and when(2, extra=5) is True
    assert rules_module in sys.modules
    module = sys.modules[rules_module]
    assert module.CALLS == [2, 2]
    # afterwards the stand-in hands out the real function; the kept reference still works
    assert R.over is module.over and when(9) is True
    assert plan(4).n == 4 and isinstance(plan(1), module.Plan)
    assert repr(when) == f"<later {rules_module}.over>"


def test_a_missing_function_fails_at_its_call_with_the_names(rules_module: str) -> None:
    R = later(rules_module)
    missing = R.no_such_rule
    with pytest.raises(AttributeError, match="no_such_rule"):
        missing(1)


def test_a_constant_is_not_reachable_through_it(rules_module: str) -> None:
    R = later(rules_module)
    with pytest.raises(TypeError):
        R.LIMIT + 1  # a stand-in, not the value: constants are imported the ordinary way
    with pytest.raises(AttributeError):
        R.__wrapped__  # noqa: B018  (dunder probes such as copy's or inspect's see no attribute)
