"""An entry read back from the store while actions not yet saved have opened a new log
segment: the store reads only what it has saved (the unsaved entries are in memory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.large import generate
from bench.run import _skirmish, _status_field
from campaign_tui.registry import load_ruleset
from campaign_tui.store.files import SEGMENT_SIZE, open_campaign


def test_an_old_entry_is_read_while_unsaved_ones_start_a_new_segment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAMPAIGN_TUI_HOME", str(tmp_path / "home"))
    path = tmp_path / "c"
    generate(path, "prefect", units=8, actions=60, turns=2)
    opened = open_campaign(path, load_ruleset)
    try:
        e = opened.engine
        skirmish = _skirmish(_status_field(e))
        unit = next(u for u in e.state.units if u.startswith("bench-"))

        def act() -> None:
            e._run(skirmish, {"unit": unit}, {}, "gm", False, False)

        while len(e.history) % SEGMENT_SIZE != SEGMENT_SIZE - 10:   # saved: 10 short
            act()
            opened.store.save(e)
        saved = len(e.history)
        while len(e.history) <= saved + 10:        # not saved: a new segment begun
            act()
        # a saved entry close enough to the end that reading it (the store reads a few
        # dozen at once) reads on into the new segment's numbers, as undoing it does
        old = saved - 5
        e.history._cache.pop(old, None)            # as after a long session: not in memory
        assert e.history.get(old).seq == old
        assert [x.seq for x in e.history.range(old, len(e.history))] == \
            list(range(old, len(e.history) + 1))
        opened.store.save(e)                        # and the new segment saves
    finally:
        opened.store.close()
    again = open_campaign(path, load_ruleset, read_only=True).engine
    assert len(again.history) > (saved // SEGMENT_SIZE + 1) * SEGMENT_SIZE
    assert again.history.get(len(again.history)).seq == len(again.history)
