"""Campaign folders and bundles: save/load, layout, locks, bad files, migrations, recovery."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import CampaignLocked, SaveError
from campaign_tui.store import files, migrations, recovery
from campaign_tui.store.files import BundleStore, FolderStore, bundle_text, export_bundle
from campaign_tui.store.paths import places
from tests.store.helpers import loader, new_folder, played, reopen


def tree_bytes(path: Path) -> dict[str, bytes]:
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file()}


def test_folder_save_and_open_round_trip(demo, tmp_path):
    store = new_folder(demo, tmp_path / "c", rounds=3)
    store.close()
    opened = reopen(tmp_path / "c")
    e = opened.engine
    assert e.info.name == "Store test" and len(e.history) > 10
    live = Engine.create(demo, seed=5, name="Store test")
    played(live, 3)
    assert e.state == live.state
    assert e.stream.position == live.stream.position
    assert [x.to_dict() for x in e.entries()] == [
        {**x.to_dict(), "at": y.at} for x, y in zip(live.entries(), e.entries())]
    opened.store.close()


def test_layout_header_snapshots_and_segments(demo, tmp_path):
    store = new_folder(demo, tmp_path / "c", rounds=2)
    store.close()
    root = tmp_path / "c"
    assert (root / "campaign.toml").is_file()
    assert (root / "log" / "l00000001.toml").is_file()
    assert (root / "snapshots" / "s00000000.toml").is_file()
    header = (root / "campaign.toml").read_text()
    assert "schema_version = 2" in header and 'format = "campaign-tui/folder"' in header
    snap = sorted((root / "snapshots").glob("*.toml"))[-1].read_text()
    assert "\n[state.units]\na-inf = {" in snap                     # one line per unit


def test_segments_roll_over_and_open_reads_only_the_tail(demo, tmp_path, monkeypatch):
    engine = Engine.create(demo, seed=2, name="long")
    store = FolderStore.create(engine, tmp_path / "c")
    engine.advance()
    for i in range(250):
        engine.perform("note", {"text": f"note {i}"})
        if i % 40 == 0:
            store.save(engine)
    store.save(engine)
    store.close()
    segs = sorted(p.name for p in (tmp_path / "c" / "log").glob("*.toml"))
    assert segs == ["l00000001.toml", "l00000101.toml", "l00000201.toml"]
    parsed = []
    real = FolderStore._segment

    def spy(self, start):
        parsed.append(start)
        return real(self, start)

    monkeypatch.setattr(FolderStore, "_segment", spy)
    opened = reopen(tmp_path / "c")
    assert set(parsed) <= {201}                        # history is not read at open
    assert len(opened.engine.history) == 252
    assert opened.engine.history.get(5).summary == "Note: note 2"   # loaded on demand
    assert 1 in parsed
    opened.store.close()


def test_a_second_writer_gets_a_clear_choice(demo, tmp_path):
    store = new_folder(demo, tmp_path / "c")
    with pytest.raises(CampaignLocked, match="already open for writing by process") as exc:
        reopen(tmp_path / "c")
    assert "read-only" in str(exc.value) and "copy" in str(exc.value)
    ro = reopen(tmp_path / "c", read_only=True)
    assert ro.engine.read_only
    store.close()
    reopen(tmp_path / "c").store.close()


def test_a_stale_lock_from_a_dead_process_is_taken_over(demo, tmp_path):
    store = new_folder(demo, tmp_path / "c")
    store.close()
    import socket

    (tmp_path / "c" / "campaign.lock").write_text(json.dumps(
        {"pid": 2**22 + 12345, "host": socket.gethostname(), "since": "x"}))
    reopen(tmp_path / "c").store.close()


def test_bundle_round_trip_and_export_for_one_side(demo, tmp_path):
    engine = played(Engine.create(demo, seed=9, name="B"), 2)
    export_bundle(engine, tmp_path / "b.toml")
    opened = BundleStore.open(tmp_path / "b.toml", loader)
    assert opened.engine.state == engine.state
    assert opened.engine.state_at(0) == engine.initial
    opened.engine.perform("note", {"text": "more"})
    opened.store.save(opened.engine)
    assert (tmp_path / "b.toml.bak1").is_file()
    opened.store.close()
    again = BundleStore.open(tmp_path / "b.toml", loader, read_only=True)
    assert again.engine.history.get(len(again.engine.history)).summary == "Note: more"
    export_bundle(engine, tmp_path / "a.toml", side="A")
    side = BundleStore.open(tmp_path / "a.toml", loader)
    assert side.store is None and side.engine.read_only
    assert "b-tank" not in side.engine.state.units
    text = (tmp_path / "a.toml").read_text()
    assert "b-tank" not in text and 'export_side = "A"' in text and "[initial" not in text


def test_import_a_bundle_into_a_folder(demo, tmp_path):
    engine = played(Engine.create(demo, seed=9, name="B"), 2)
    export_bundle(engine, tmp_path / "b.toml")
    files.import_bundle(tmp_path / "b.toml", tmp_path / "f", loader).close()
    opened = reopen(tmp_path / "f")
    assert opened.engine.state == engine.state and len(opened.engine.history) == len(
        engine.history)
    assert opened.engine.state_at(0) == engine.initial
    opened.store.close()


@pytest.mark.parametrize(("mutate", "where", "message"), [
    (lambda t: t.replace("schema_version = 2", "schema_version = 99"), "campaign.toml",
     "written by a newer campaign-tui (save format 99)"),
    (lambda t: t.replace("schema_version = 2", 'schema_version = "one"'), "campaign.toml",
     "schema_version is missing or not a whole number"),
    (lambda t: t.replace("seed = 5", "seed = "), "campaign.toml", "not valid TOML"),
    (lambda t: t.replace("[campaign.ruleset]", "[campaign.rulez]"), "campaign.toml",
     "[campaign] lacks 'ruleset'"),
])
def test_a_damaged_header_names_file_line_and_problem(demo, tmp_path, mutate, where, message):
    new_folder(demo, tmp_path / "c").close()
    target = tmp_path / "c" / where
    target.write_text(mutate(target.read_text()))
    before = tree_bytes(tmp_path / "c")
    with pytest.raises(SaveError) as exc:
        reopen(tmp_path / "c")
    assert message in str(exc.value) and str(target) in str(exc.value)
    assert exc.value.line is not None
    assert tree_bytes(tmp_path / "c") == before


@pytest.mark.parametrize(("old", "new", "message"), [
    ('type = "tank"', 'type = "dragon"', "unknown unit type 'dragon'"),
    ("fatigue = 0", "fatigue = 9", "fatigue must be at most 3, not 9"),
    ('side = "B"', 'side = "Z"', "unknown side 'Z'"),
    ('formation = "b1"', 'formation = "zz"', "unknown formation 'zz'"),
    ('fatigue = 0', 'fatigue = "tired"', "fatigue must be a whole number"),
])
def test_a_hand_edited_snapshot_gets_a_clear_message(demo, tmp_path, old, new, message):
    new_folder(demo, tmp_path / "c").close()
    snap = sorted((tmp_path / "c" / "snapshots").glob("*.toml"))[-1]
    lines = snap.read_text().splitlines()
    idx = next(i for i, line in enumerate(lines) if line.startswith("b-tank =") and old in line)
    lines[idx] = lines[idx].replace(old, new, 1)
    snap.write_text("\n".join(lines) + "\n")
    with pytest.raises(SaveError) as exc:
        reopen(tmp_path / "c")
    assert message in str(exc.value)
    assert exc.value.path == str(snap) and exc.value.line == idx + 1


def test_a_truncated_log_segment_is_reported(demo, tmp_path):
    new_folder(demo, tmp_path / "c", rounds=2).close()
    seg = tmp_path / "c" / "log" / "l00000001.toml"
    seg.write_bytes(seg.read_bytes()[:40])
    with pytest.raises(SaveError, match="shorter"):
        opened = reopen(tmp_path / "c", read_only=True)
        opened.engine.entries()


def test_bytes_after_the_committed_length_are_ignored_and_then_dropped(demo, tmp_path):
    store = new_folder(demo, tmp_path / "c")
    seg = tmp_path / "c" / "log" / "l00000001.toml"
    with seg.open("ab") as fh:
        fh.write(b"\n[[entry]]\nseq = 9999\nhalf a wri")    # an interrupted save
    store.close()
    opened = reopen(tmp_path / "c")
    n = len(opened.engine.history)
    opened.engine.perform("note", {"text": "after crash"})
    opened.store.save(opened.engine)
    opened.store.close()
    again = reopen(tmp_path / "c", read_only=True)
    assert len(again.engine.entries()) == n + 1
    assert b"half a wri" not in seg.read_bytes()


def test_backups_rotate(demo, tmp_path):
    new_folder(demo, tmp_path / "c").close()
    opened = reopen(tmp_path / "c")
    for i in range(7):
        opened.engine.perform("note", {"text": str(i)})
        opened.store.save(opened.engine)
    opened.store.close()
    names = sorted(p.name for p in (tmp_path / "c" / "backups").iterdir())
    assert names == [f"campaign.{n}.toml" for n in range(1, 6)]


def test_migrations_run_as_a_chain_and_keep_a_backup(demo, tmp_path, monkeypatch):
    new_folder(demo, tmp_path / "c").close()
    header = tmp_path / "c" / "campaign.toml"
    header.write_text(header.read_text().replace("schema_version = 2", "schema_version = 0"))

    def v0_to_v1(docs):
        docs.header["campaign"]["name"] = "Migrated"
        for doc in docs.snapshots.values():
            doc["schema_version"] = 1
        return docs

    monkeypatch.setitem(migrations.MIGRATIONS, 0, v0_to_v1)
    opened = reopen(tmp_path / "c")
    assert opened.engine.info.name == "Migrated"
    opened.store.close()
    backup = tmp_path / "c" / "backups" / "before-format-2"
    assert "schema_version = 0" in (backup / "campaign.toml").read_text()
    assert "schema_version = 2" in header.read_text()


def test_no_migration_path_is_a_clear_error(demo, tmp_path):
    new_folder(demo, tmp_path / "c").close()
    header = tmp_path / "c" / "campaign.toml"
    header.write_text(header.read_text().replace("schema_version = 2", "schema_version = 0"))
    with pytest.raises(SaveError, match="save format 0 is not one this version can read or migrate"):
        reopen(tmp_path / "c")


def test_recovery_journal_restores_unsaved_actions(demo, tmp_path):
    home = places(tmp_path / "home").ensure()
    new_folder(demo, tmp_path / "c").close()
    opened = reopen(tmp_path / "c")
    rec = recovery.Recorder(home, tmp_path / "c", opened.engine)
    opened.engine.perform("note", {"text": "unsaved 1"})
    rec.update()
    opened.engine.perform("note", {"text": "unsaved 2"})
    rec.update()
    expected = opened.engine.state.to_dict()
    n = len(opened.engine.history)
    opened.store.close()                       # "crash": never saved
    again = reopen(tmp_path / "c")
    journal = recovery.find(home, again.engine.info.id)
    assert journal is not None and journal.count == 2
    assert recovery.restore(again.engine, journal) == 2
    assert len(again.engine.history) == n and again.engine.state.to_dict() == expected
    again.store.save(again.engine)
    recovery.discard(journal)
    assert recovery.find(home, again.engine.info.id) is None
    again.store.close()


def test_a_stale_journal_is_not_applied(demo, tmp_path):
    home = places(tmp_path / "home").ensure()
    new_folder(demo, tmp_path / "c").close()
    opened = reopen(tmp_path / "c")
    rec = recovery.Recorder(home, tmp_path / "c", opened.engine)
    opened.engine.perform("note", {"text": "x"})
    rec.update()
    opened.store.save(opened.engine)         # saved elsewhere without clearing the journal
    opened.store.close()
    again = reopen(tmp_path / "c")
    journal = recovery.find(home, again.engine.info.id)
    from campaign_tui.core.errors import CampaignError

    with pytest.raises(CampaignError, match="saved again since"):
        recovery.restore(again.engine, journal)
    again.store.close()


def test_bundle_text_is_stable_toml(demo, tmp_path):
    import tomllib

    engine = played(Engine.create(demo, seed=9), 1)
    doc = tomllib.loads(bundle_text(engine))
    assert doc["format"] == "campaign-tui/bundle" and len(doc["entry"]) == len(engine.history)


def test_bundles_migrate_too(demo, tmp_path, monkeypatch):
    engine = played(Engine.create(demo, seed=9, name="Old"), 1)
    export_bundle(engine, tmp_path / "b.toml")
    path = tmp_path / "b.toml"
    path.write_text(path.read_text().replace("schema_version = 2", "schema_version = 0", 1))

    def v0_to_v1(docs):
        docs.header["campaign"]["name"] = "Migrated bundle"
        return docs

    monkeypatch.setitem(migrations.MIGRATIONS, 0, v0_to_v1)
    opened = BundleStore.open(path, loader)
    assert opened.engine.info.name == "Migrated bundle"
    opened.store.close()
    assert "schema_version = 0" in (tmp_path / "b.toml.before-format-2").read_text()
    assert "schema_version = 2" in path.read_text()


def _journalled_round(demo, tmp_path):
    """A saved campaign at set-up, and a crashed session's journal of one round of play
    (moves, an attack with dice) that was never saved."""
    home = places(tmp_path / "home").ensure()
    new_folder(demo, tmp_path / "c", rounds=0).close()
    opened = reopen(tmp_path / "c")
    rec = recovery.Recorder(home, tmp_path / "c", opened.engine)
    played(opened.engine, 1)
    rec.update()
    expected = opened.engine.state.to_dict()
    opened.store.close()                                 # a crash: never saved
    return home, expected


def test_a_journal_applies_on_top_of_a_campaign_changed_meanwhile(demo, tmp_path):
    home, expected = _journalled_round(demo, tmp_path)
    other = reopen(tmp_path / "c")                       # another writer saves a note
    other.engine.perform("note", {"text": "from elsewhere"})
    other.store.save(other.engine)
    other.store.close()
    again = reopen(tmp_path / "c")
    journal = recovery.find(home, again.engine.info.id)
    assert recovery.is_stale(again.engine, journal)
    report = recovery.apply_on_top(again.engine, journal)
    assert report.skipped == [] and len(report.applied) == journal.count
    assert again.engine.state.to_dict() == expected      # the same dice, typed in
    rolled = [r for e in again.engine.entries() for r in e.rolls]
    assert rolled and all(r.manual for r in rolled)      # marked as typed
    assert "from elsewhere" in [e.summary.removeprefix("Note: ") for e in again.engine.entries()]
    again.store.save(again.engine)
    again.store.close()


def test_journalled_actions_that_no_longer_apply_are_skipped_and_reported(demo, tmp_path):
    home, _ = _journalled_round(demo, tmp_path)
    other = reopen(tmp_path / "c")                       # the attack's target is gone
    other.engine.perform("gm.remove_unit", {"unit": "b-inf"})
    other.store.save(other.engine)
    other.store.close()
    again = reopen(tmp_path / "c")
    journal = recovery.find(home, again.engine.info.id)
    report = recovery.apply_on_top(again.engine, journal)
    assert report.applied and report.skipped
    assert any("b-inf" in s for s in report.skipped)
    assert "b-inf" not in again.engine.state.units
