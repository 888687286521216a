"""Every bundled example: it opens, it checks, and replaying its log from the scenario gives
the saved state exactly."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.examples_index import bundled_examples
from campaign_tui.registry import load_ruleset
from campaign_tui.store.files import BundleStore

EXAMPLES = bundled_examples()


def test_there_are_examples():
    assert EXAMPLES, "saves/ holds no example campaign"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_replays_from_its_scenario(path):
    opened = BundleStore.open(path, load_ruleset, read_only=True)
    e = opened.engine
    assert not opened.warnings, opened.warnings             # made with the shipped data
    assert len(e.history) > 5 and any(x.rolls for x in e.entries()), "no real rolls"
    rebuilt = Engine.initial_state(e.ruleset, e.info.scenario, dict(e.initial.options),
                                   e.dice_mode(e.initial))
    assert rebuilt == e.initial, "the scenario no longer builds the example's initial state"
    replayed = Engine.replay(e.ruleset, rebuilt, e.info, e.entries())
    assert replayed.state == e.state
    assert replayed.stream.position == e.stream.position
    st = e.status()
    assert st.prompt and not st.final
