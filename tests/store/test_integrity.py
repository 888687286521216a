"""What the header names exists and is what was saved; the header's history pointer and
dice position are what the log says (repro: pruned snapshot, snapshot damage propagates)."""

from __future__ import annotations

import itertools
import re
import tomllib
from pathlib import Path

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import SaveError
from campaign_tui.examples_index import find_example
from campaign_tui.registry import load_ruleset
from campaign_tui.store import integrity
from campaign_tui.store.files import FolderStore, import_bundle, open_campaign
from tests.store.faults_kit import cli
from tests.store.helpers import loader, new_folder, reopen
from tests.store.test_files import tree_bytes


def header_of(path: Path) -> dict:
    return tomllib.loads((path / "campaign.toml").read_text())


def assert_named_files_exist(path: Path) -> None:
    files = header_of(path)["files"]
    for s in files["snapshots"]:
        assert (path / "snapshots" / f"s{s['seq']:08d}.toml").is_file()
    for s in files["segments"]:
        assert (path / "log" / f"l{s['first']:08d}.toml").is_file()
    named = {f"s{s['seq']:08d}.toml" for s in files["snapshots"]}
    assert {p.name for p in (path / "snapshots").iterdir()} == named


def test_thirty_advances_every_position_reachable_within_one_segment(tmp_path):
    """r_pruned_snapshot: 30 saves of advances; every position opens, every file named by
    the header exists, and every position is at most MAX_REPLAY entries after a snapshot."""
    path = tmp_path / "prune"
    import_bundle(find_example("second_sathar_war-seed_start"), path, loader).close()
    for _ in range(30):
        opened = open_campaign(path, loader)
        opened.engine.advance()
        opened.store.save(opened.engine)
        opened.store.close()
        assert_named_files_exist(path)
    engine = open_campaign(path, load_ruleset, read_only=True).engine
    seqs = [s["seq"] for s in header_of(path)["files"]["snapshots"]]
    for k in range(len(engine.history) + 1):
        engine.state_at(k)
        assert k - max(s for s in seqs if s <= k) <= integrity.MAX_REPLAY


def test_a_long_unsaved_stretch_gets_snapshots_within_the_bound(demo, tmp_path):
    def play(engine, save=lambda: None):
        engine.advance()
        for i in range(350):
            engine.perform("note", {"text": f"n{i}"})
        save()                                          # one save, 350 new entries
        for i in range(40):                             # then many small ones
            engine.perform("note", {"text": f"m{i}"})
            save()
        return engine

    engine = Engine.create(demo, seed=3, name="long")
    store = FolderStore.create(engine, tmp_path / "c")
    play(engine, lambda: store.save(engine))
    store.close()
    assert_named_files_exist(tmp_path / "c")
    opened = reopen(tmp_path / "c", read_only=True)
    seqs = sorted(s["seq"] for s in opened.store.snapshots)
    assert all(b - a <= integrity.MAX_REPLAY for a, b in itertools.pairwise(seqs))
    assert {101, 201, 301} <= set(seqs)
    reference = play(Engine.create(demo, seed=3, name="long"))
    for k in (0, 57, 101, 250, 351, len(reference.history)):
        assert opened.engine.state_at(k) == reference.state_at(k)


def test_retention_keeps_the_bound():
    rows = [{"seq": s, "turn_start": False, "hash": ""} for s in range(0, 1000, 7)]
    kept = integrity.retained(rows, 1000)
    seqs = [s["seq"] for s in kept]
    assert len(kept) < len(rows) and seqs[0] == 0
    assert all(b - a <= integrity.MAX_REPLAY for a, b in zip(seqs, [*seqs[1:], 1000]))
    assert seqs[-6:] == [s["seq"] for s in rows[-6:]]


def test_a_damaged_snapshot_is_refused_naming_it_and_nothing_is_written(capsys):
    """r_snapshot_damage_propagates: one changed location in the latest snapshot."""
    path = Path(cli(capsys, "import", str(find_example("prestags-training")))[1].strip())
    snap = sorted((path / "snapshots").glob("*.toml"))[-1]
    text = snap.read_text()
    line = re.search(r"^b-sd-01 = .*$", text, flags=re.M).group(0)
    snap.write_text(text.replace(line, re.sub(r'location = "hex:\d+"', 'location = "hex:0101"',
                                              line, count=1)))
    before = tree_bytes(path)
    for argv in (("status", str(path)), ("advance", str(path)), ("check", str(path))):
        code, _, err = cli(capsys, *argv)
        assert code == 1 and snap.name in err and "changed since it was saved" in err
    assert tree_bytes(path) == before


@pytest.mark.parametrize(("key", "value"), [("head", 3), ("redo", [2]), ("seed", 12345),
                                            ("rng_position", 1)])
def test_header_fields_that_disagree_with_the_log_are_refused(demo, tmp_path, key, value):
    path = tmp_path / "c"
    new_folder(demo, path, rounds=2).close()
    header = path / "campaign.toml"
    text = header.read_text()
    header.write_text(re.sub(rf"^{key} = .*$", f"{key} = {value}".replace("'", '"'), text,
                             count=1, flags=re.M))
    before = tree_bytes(path)
    with pytest.raises(SaveError) as exc:
        reopen(path)
    assert key in exc.value.problem and exc.value.path.endswith("campaign.toml")
    assert tree_bytes(path) == before


@pytest.mark.parametrize("key", ["head", "seed", "rng_position"])
def test_bundle_header_fields_are_checked_too(demo, tmp_path, key):
    from campaign_tui.store.files import export_bundle
    from tests.store.helpers import played

    engine = played(Engine.create(demo, seed=4, name="B"), 2)
    path = tmp_path / "b.toml"
    export_bundle(engine, path)
    text = path.read_text()
    path.write_text(re.sub(rf"^{key} = (\d+)$", lambda m: f"{key} = {int(m.group(1)) + 1}",
                           text, count=1, flags=re.M))
    with pytest.raises(SaveError, match=key):
        open_campaign(path, loader, read_only=True)


def test_an_edited_sealed_segment_is_refused_when_read(demo, tmp_path):
    engine = Engine.create(demo, seed=2, name="segs")
    store = FolderStore.create(engine, tmp_path / "c")
    engine.advance()
    for i in range(150):
        engine.perform("note", {"text": f"note {i}"})
    store.save(engine)
    store.close()
    seg = tmp_path / "c" / "log" / "l00000001.toml"
    seg.write_text(seg.read_text().replace("note 7", "note X"))
    opened = reopen(tmp_path / "c", read_only=True)
    with pytest.raises(SaveError, match="changed since it was saved") as exc:
        opened.engine.entries()
    assert exc.value.path == str(seg)


def test_check_names_the_snapshot_and_entry_where_the_log_departs(capsys, demo, tmp_path):
    """A snapshot written wrong (its hash recorded too, as a program bug would): check
    names it and the entry."""
    path = tmp_path / "c"
    new_folder(demo, path, rounds=3).close()
    rows = header_of(path)["files"]["snapshots"]
    middle = sorted(r["seq"] for r in rows)[1]
    snap = path / "snapshots" / f"s{middle:08d}.toml"
    old_hash = integrity.file_hash(snap.read_bytes())
    snap.write_text(snap.read_text().replace("fatigue = 0", "fatigue = 1", 1))
    header = path / "campaign.toml"
    header.write_text(header.read_text().replace(old_hash, integrity.file_hash(snap.read_bytes())))
    code, out, _ = cli(capsys, "check", str(path))
    assert code == 1
    assert f"s{middle:08d}.toml does not match the log replayed up to log/l00000001.toml " \
           f"entry {middle}" in out


def test_an_old_format_folder_is_migrated_once(demo, tmp_path):
    """Format 1 (no hashes; its header may name pruned snapshots) opens after migrating."""
    path = tmp_path / "c"
    new_folder(demo, path, rounds=2).close()
    header = path / "campaign.toml"
    data = header.read_text()
    data = re.sub(r"^\[\[files\.segments\]\]\n(.*\n){3}", "", data, flags=re.M)
    data = re.sub(r'^hash = ".*"\n', "", data, flags=re.M)
    data = data.replace("schema_version = 2", "schema_version = 1")
    data += "\n[[files.snapshots]]\nseq = 3\n"              # named but pruned (the old bug)
    header.write_text(data)
    for snap in (path / "snapshots").glob("*.toml"):
        t = re.sub(r"^\[campaign\]\n(.*\n){4}", "", snap.read_text(), flags=re.M)
        snap.write_text(t.replace("schema_version = 2", "schema_version = 1"))
    opened = reopen(path)
    opened.store.close()
    assert "schema_version = 2" in header.read_text()
    assert (path / "backups" / "before-format-2" / "campaign.toml").is_file()
    assert_named_files_exist(path)
    reopen(path, read_only=True).engine.state_at(0)
