"""The log index agrees with a full scan of the segments, is rebuilt when missing or
stale, and stepping history replays at most one segment."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench.large import generate
from campaign_tui.core import engine as engine_module
from campaign_tui.registry import load_ruleset
from campaign_tui.store.files import SEGMENT_SIZE, open_campaign
from campaign_tui.store.integrity import MAX_REPLAY


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    mp = pytest.MonkeyPatch()
    mp.setenv("CAMPAIGN_TUI_HOME", str(home))
    path = tmp_path_factory.mktemp("index") / "c"
    generate(path, "prefect", units=24, actions=560, turns=6)
    mp.undo()
    return path


def _copy(campaign: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "c"
    shutil.copytree(campaign, dest, ignore=shutil.ignore_patterns("campaign.lock",
                                                                  "campaign.holder"))
    return dest


def _scan(engine, last: int, key) -> list[tuple[int, int]]:
    """Every roll of entries 1..last whose key matches, newest first (the slow way)."""
    out = [(e.seq, r.n) for e in engine.entries(1, last) for r in e.rolls if key(e, r)]
    return sorted(out, reverse=True)


def test_the_index_agrees_with_a_full_scan(campaign, tmp_path):
    engine = open_campaign(_copy(campaign, tmp_path), load_ruleset, read_only=True).engine
    index = engine.log_index
    assert index.end == (len(engine.history) // SEGMENT_SIZE) * SEGMENT_SIZE >= 400
    tables = {(r.table or "").lower() for e in engine.entries() for r in e.rolls}
    kinds = {e.kind.lower() for e in engine.entries() if e.rolls}
    assert "bench" in tables
    for table in tables | {"ben", "nothing-like-it"}:
        scan = _scan(engine, index.end, lambda e, r, t=table: t in (r.table or "").lower())
        assert index.count(table=table) == len(scan)
        assert index.newest(50, table=table) == scan[:50]
    for kind in kinds:
        scan = _scan(engine, index.end, lambda e, r, k=kind: e.kind.lower() == k)
        assert index.count(kind=kind) == len(scan)
    outer = engine.machine.clock[0].name
    turn = engine.entries(250, 250)[0].clock[outer]
    scan = _scan(engine, index.end, lambda e, r: e.clock.get(outer) == turn
                 and "bench" in (r.table or ""))
    assert index.newest(10_000, table="bench", clock=f"{outer}={turn}".lower()) == scan
    raw = (campaign / "log" / "l00000101.toml").read_bytes()
    assert raw[index.offset(150):].startswith(b"[[entry]]\nseq = 150\n")


def test_a_missing_index_is_built_once_on_open(campaign, tmp_path):
    path = _copy(campaign, tmp_path)
    expected = open_campaign(path, load_ruleset, read_only=True).engine.log_index
    want = expected.newest(50, table="bench"), expected.count(table="bench")
    shutil.rmtree(path / "index")
    opened = open_campaign(path, load_ruleset)
    index = opened.engine.log_index
    assert not index.complete
    assert index.ensure() == len(index.segments) >= 4
    assert (index.newest(50, table="bench"), index.count(table="bench")) == want
    opened.store.close()
    assert (path / "index" / "summary.json").is_file()
    again = open_campaign(path, load_ruleset, read_only=True).engine.log_index
    assert again.complete and again.ensure() == 0
    assert again.count(table="bench") == want[1] and again.rebuilt == []


@pytest.mark.parametrize("damage", ["stale hash", "garbage", "summary lies"])
def test_a_stale_or_damaged_index_is_rebuilt_cleanly(campaign, tmp_path, damage):
    path = _copy(campaign, tmp_path)
    want = open_campaign(path, load_ruleset, read_only=True).engine.log_index.count(table="bench")
    side = path / "index" / "l00000101.json"
    if damage == "stale hash":
        doc = json.loads(side.read_text())
        doc["hash"] = "b2:" + "0" * 32
        doc["postings"]["table"] = {"bench": [[101, 1]]}
        side.write_text(json.dumps(doc))
        summary = json.loads((path / "index" / "summary.json").read_text())
        summary["segments"]["101"]["hash"] = doc["hash"]
        (path / "index" / "summary.json").write_text(json.dumps(summary))
    elif damage == "garbage":
        side.write_bytes(b"\x00not json")
        (path / "index" / "summary.json").write_text("{")
    else:
        summary = json.loads((path / "index" / "summary.json").read_text())
        summary["segments"]["101"]["hash"] = "b2:bad"
        (path / "index" / "summary.json").write_text(json.dumps(summary))
    opened = open_campaign(path, load_ruleset)
    index = opened.engine.log_index
    assert index.count(table="bench") == want
    index.ensure()
    assert index.count(table="bench") == want
    assert (101 in index.rebuilt) == (damage != "summary lies")  # a good sidecar is reused
    assert index.newest(5, table="bench")
    opened.store.close()
    assert json.loads(side.read_text())["hash"] == index.segments[101]
    summary = json.loads((path / "index" / "summary.json").read_text())
    assert summary["segments"]["101"]["hash"] == index.segments[101]


def test_saving_indexes_each_segment_it_seals(campaign, tmp_path):
    path = _copy(campaign, tmp_path)
    opened = open_campaign(path, load_ruleset)
    engine, store = opened.engine, opened.store
    before = set(engine.log_index.segments)
    while len(engine.history) % SEGMENT_SIZE:
        engine.perform("note", {"text": f"filler {len(engine.history)}"})
    store.save(engine)
    sealed = set(engine.log_index.segments) - before
    assert len(sealed) == 1
    first = sealed.pop()
    assert (path / "index" / f"l{first:08d}.json").is_file()
    assert engine.log_index.rebuilt == [first]
    store.close()


def test_stepping_to_any_bookmark_replays_at_most_one_segment(campaign, tmp_path,
                                                              monkeypatch):
    path = _copy(campaign, tmp_path)
    engine = open_campaign(path, load_ruleset, read_only=True).engine
    reference = open_campaign(path, load_ruleset, read_only=True).engine
    reference.snapshots = None          # the slow way: undo back from the current state
    applied: list[int] = []
    real = engine_module.apply_changes

    def counting(state, changes, forward=True):
        applied.append(1)
        return real(state, changes, forward)

    marks = [b.seq for b in engine.info.bookmarks]
    assert len(marks) >= 5
    for seq in [*marks, *(m - 37 for m in marks if m > 37), 1, 99, 101, 250]:
        monkeypatch.setattr(engine_module, "apply_changes", counting)
        applied.clear()
        state = engine.state_at(seq)
        monkeypatch.setattr(engine_module, "apply_changes", real)
        assert len(applied) <= MAX_REPLAY == SEGMENT_SIZE, seq
        assert engine.replayed == len(applied)
        assert state == reference.state_at(seq), seq


def test_the_die_log_filter_reads_only_what_the_index_names(campaign, tmp_path):
    from campaign_tui.ui.widgets.dielog import DieLogModel

    engine = open_campaign(_copy(campaign, tmp_path), load_ruleset, read_only=True).engine
    with_index = DieLogModel(engine)
    with_index.set_filter("table:nothing-like-it")
    with_index.fill(50)
    assert with_index.rows == [] and not with_index.more
    assert with_index.read <= len(engine.history) - engine.log_index.end
    assert with_index.total == 0
    engine.log_index.segments = {}      # no index: the old full read
    rows = {}
    for model in (DieLogModel(engine), with_index):
        model.set_filter("table:bench")
        while model.more:
            model.load_older()
        rows[model is with_index] = [r.key for r in model.rows]
    assert rows[True] == rows[False] and len(rows[True]) > 300


def _with_undos(campaign: Path, tmp_path: Path) -> Path:
    """A copy whose newest sealed segment holds undos and a redo of rolling actions (and
    whose older segments have none)."""
    from bench.large import _skirmish, _status_field

    path = _copy(campaign, tmp_path)
    opened = open_campaign(path, load_ruleset)
    engine, store = opened.engine, opened.store
    skirmish = _skirmish(_status_field(engine))
    unit = next(u for u in engine.state.units if u.startswith("bench-"))
    while len(engine.history) % SEGMENT_SIZE:
        engine.perform("note", {"text": f"filler {len(engine.history)}"})
    for step in range(8):
        engine._run(skirmish, {"unit": unit}, {}, "gm", False, False)
        if step % 2:
            engine.undo(confirm=True)
        if step == 5:
            engine.redo()
    while len(engine.history) % SEGMENT_SIZE:
        engine.perform("note", {"text": f"filler {len(engine.history)}"})
    store.save(engine)
    store.close()
    return path


def test_the_die_log_marks_undone_rows_alike_with_and_without_the_index(campaign, tmp_path):
    from campaign_tui.ui.widgets.dielog import DieLogModel

    path = _with_undos(campaign, tmp_path)
    engine = open_campaign(path, load_ruleset, read_only=True).engine
    assert engine.log_index.complete and len(engine.log_index.undo_marks()) == 5
    slow = open_campaign(path, load_ruleset, read_only=True).engine
    slow.log_index.segments = {}        # no index: the old full read
    side = next(iter(engine.state.sides))
    for viewer in ("gm", side):
        seen = []
        for e in (engine, slow):
            model = DieLogModel(e, viewer)
            model.set_filter("table:bench")
            while model.more:
                model.load_older()
            seen.append([(r.key, model.undone.get(r.entry.seq, False)) for r in model.rows])
        assert seen[0] == seen[1] and sum(u for _k, u in seen[0]) == 3, viewer


def test_totals_are_written_only_when_every_segment_is_indexed(campaign, tmp_path):
    path = _copy(campaign, tmp_path)
    shutil.rmtree(path / "index")
    opened = open_campaign(path, load_ruleset)
    engine, store = opened.engine, opened.store
    while len(engine.history) % SEGMENT_SIZE:
        engine.perform("note", {"text": f"filler {len(engine.history)}"})
    store.save(engine)                  # seals and indexes one segment, the rest unindexed
    assert not (path / "index" / "totals.json").exists()
    assert not engine.log_index.complete
    engine.log_index.ensure()
    assert engine.log_index.complete and (path / "index" / "totals.json").is_file()
    store.close()
