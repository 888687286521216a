"""Every fault of the audit ends in a clear message, exit status 1, the last save intact
(from ../shared/repro: readonly, full disk, deep nesting, header datetime, nan ledger, seed
out of range, cli tracebacks, broken pipe)."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_tui.cli import main
from campaign_tui.core.engine import Engine
from campaign_tui.examples_index import find_example
from campaign_tui.store import atomic
from tests.store.faults_kit import cli, fill, imported, read_only_view, small_filesystem
from tests.store.helpers import new_folder, reopen
from tests.store.test_files import tree_bytes

ROOT = Path(__file__).resolve().parents[2]


def entries(path: Path) -> int:
    return len(reopen(path, read_only=True).engine.history)


def test_saving_into_a_read_only_folder(capsys, tmp_path, demo):
    new_folder(demo, tmp_path / "d" / "camp").close()
    before = tree_bytes(tmp_path / "d")
    with read_only_view(tmp_path / "d") as ro:
        code, _, err = cli(capsys, "act", str(ro / "camp"), "note", "text=x")
        assert code == 1 and "read-only" in err and str(ro / "camp") in err
        code, _, err = cli(capsys, "export", str(ro / "camp"), "-o", str(ro / "x.toml"))
        assert code == 1 and "x.toml" in err and "read-only" in err
        code, out, _ = cli(capsys, "status", str(ro / "camp"))   # reading still works
        assert code == 0 and "Store test" in out
    assert tree_bytes(tmp_path / "d") == before


def test_a_full_disk_stops_the_save_and_keeps_the_last_one(capsys, demo):
    with small_filesystem("3m") as disk:
        path = disk / "camp"
        new_folder(demo, path).close()
        n = entries(path)
        before = tree_bytes(path)
        filler = fill(disk)
        code, _, err = cli(capsys, "act", str(path), "note", "text=" + "long note " * 2000)
        assert code == 1 and "No space left on device" in err and "free some disk space" in err
        assert entries(path) == n
        filler.unlink()
        assert tree_bytes(path) == before or entries(path) == n
        code, _, _ = cli(capsys, "act", str(path), "note", "text=after")
        assert code == 0 and entries(path) == n + 1


@pytest.mark.parametrize("fail_on", ["segment", "header"])
def test_a_write_error_at_any_step_keeps_the_last_save(capsys, demo, tmp_path, monkeypatch,
                                                       fail_on):
    path = tmp_path / "c"
    new_folder(demo, path).close()
    n = entries(path)

    def no_space(*_args, **_kw):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    target = "append_at" if fail_on == "segment" else "atomic_write"
    import campaign_tui.store.files as files
    monkeypatch.setattr(files, target, no_space)
    code, _, err = cli(capsys, "act", str(path), "note", "text=x")
    assert code == 1 and "could not save (No space left on device)" in err
    monkeypatch.undo()
    assert entries(path) == n
    assert cli(capsys, "check", str(path))[0] == 0


def test_deep_nesting_and_huge_integers_in_a_bundle(capsys, tmp_path):
    example = find_example("prestags-training").read_text()
    deep = tmp_path / "b.toml"
    deep.write_text(example + "\nzz = " + "[" * 1000 + "]" * 1000 + "\n")
    huge = tmp_path / "c.toml"
    huge.write_text(re.sub(r"^seq = 1$", "seq = " + "9" * 5000, example, count=1, flags=re.M))
    for bundle, message in ((deep, "nested too deeply"), (huge, "cannot read")):
        for argv in (("import", str(bundle)), ("status", str(bundle)), ("check", str(bundle))):
            code, _, err = cli(capsys, *argv)
            assert code == 1 and message in err and str(bundle) in err
    assert not any(p.name.startswith(".") for p in (tmp_path / "home" / "campaigns").iterdir())


def test_a_datetime_in_a_bookmark_is_refused_before_anything_is_written(capsys):
    path = imported(capsys, "second_sathar_war-seed_start", "dt")
    cli(capsys, "act", str(path), "note", "text=x")
    header = path / "campaign.toml"
    header.write_text(re.sub(r"clock = \{day = \d+\}", "clock = {day = 1979-05-27T07:32:00Z}",
                             header.read_text(), count=1))
    before = tree_bytes(path)
    for argv in (("check", str(path)), ("status", str(path)), ("act", str(path), "note", "text=y")):
        code, _, err = cli(capsys, *argv)
        assert code == 1 and "campaign.toml" in err and "bookmark" in err
    assert tree_bytes(path) == before


@pytest.mark.parametrize(("argv", "message"), [
    (("calc", "prefect", "5.7", "defense=8", "fatigue=1", "--dice", "abc"), "'abc' is not a die value"),
    (("roll", "2d6+" + "9" * 5000), "not a dice expression"),
    (("new", "prestags", "--scenario", "training", "--seed", "-1"), "seed -1 is out of range"),
    (("new", "prestags", "--scenario", "training", "--seed", str(2**63)), "out of range"),
    (("new", "prestags", "--scenario", "training", "--path", "/proc/nope"), "/proc/nope"),
    (("report", "prestags-training", "-o", "/etc/hostname/sub"), "/etc/hostname/sub"),
    (("import", "/dev/null"), "/dev/null"),
])
def test_bad_input_is_a_message_not_a_traceback(capsys, argv, message):
    code, _, err = cli(capsys, *argv)
    assert code == 1 and err.startswith("error: ") and message in err


def test_a_long_name_makes_a_short_folder(capsys):
    code, out, _ = cli(capsys, "new", "prestags", "--scenario", "training", "--name", "a" * 300)
    assert code == 0 and len(Path(out.strip()).name) <= 60


def test_export_into_a_missing_folder_and_invalid_utf8(capsys):
    path = imported(capsys, "prestags-training", "t")
    before = tree_bytes(path)
    code, _, err = cli(capsys, "export", str(path), "-o", "/nonexistent/dir/x.toml")
    assert code == 1 and "/nonexistent/dir does not exist" in err
    bad = os.fsdecode(b"text=\xff\xfe")
    code, _, err = cli(capsys, "act", str(path), "note", bad)
    assert code == 1 and "not valid UTF-8" in err
    assert tree_bytes(path) == before


def test_nan_is_refused_and_the_campaign_still_checks(capsys):
    path = imported(capsys, "prefect-liberation", "nan")
    for value in ("nan", "inf", "-inf"):
        code, _, err = cli(capsys, "act", str(path), "gm.set_ledger", "holder=TOG",
                           "resource=vp", f"value={value}")
        assert code == 1 and "not a finite number" in err
    code, _, err = cli(capsys, "act", str(path), "gm.set_var", "name=x", "value=NaN")
    assert code == 1 and "finite number" in err
    assert cli(capsys, "check", "--replay", str(path))[0] == 0


def test_seed_out_of_range_is_refused_by_the_engine(demo):
    with pytest.raises(Exception, match="out of range"):
        Engine.create(demo, seed=-1)


def test_a_closed_pipe_keeps_the_exit_status_and_the_action_is_saved_once(capsys, tmp_path):
    path = imported(capsys, "prestags-training", "pipe")
    n = entries(path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = f"{sys.executable} -m campaign_tui act {path} note text=once | true; " \
          "echo ${PIPESTATUS[0]}"
    run = subprocess.run(["bash", "-c", "sleep 0; " + cmd], capture_output=True, text=True,
                         env=env)
    assert run.stdout.strip() == "0" and "Traceback" not in run.stderr and not run.stderr
    assert entries(path) == n + 1
    cmd = f"{sys.executable} -m campaign_tui phases prefect | head -1 >/dev/null; " \
          "echo ${PIPESTATUS[0]}"
    run = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, env=env)
    assert run.stdout.strip() == "0" and not run.stderr


def test_temporaries_of_dead_processes_are_cleaned_by_the_next_write(tmp_path):
    target = tmp_path / "x.toml"
    dead = tmp_path / ".x.toml.999999999.tmp"
    dead.write_text("half")
    other = tmp_path / ".y.toml.999999999.tmp"
    other.write_text("half")
    atomic.atomic_write(target, "a = 1\n")
    assert target.read_text() == "a = 1\n" and not dead.exists() and other.exists()


def test_control_characters_are_shown_escaped(capsys):
    """r_terminal_escapes: a name and a note with ESC and BEL reach no terminal raw."""
    name = "Camp\x1b]0;title\x07\x1b[2J"
    code, out, _ = cli(capsys, "new", "prestags", "--scenario", "training", "--name", name)
    path = out.strip()
    assert cli(capsys, "act", path, "note", "text=hello\x1b[31m RED")[0] == 0
    for argv in (("list", "--mine"), ("status", path), ("log", path), ("list", "--json")):
        code, out, _ = cli(capsys, *argv)
        assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert "Camp\\u001b]0;title\\u0007" in cli(capsys, "list", "--mine")[1]
    import json
    rows = json.loads(cli(capsys, "list", "--json", "--mine")[1])
    assert rows[0]["name"] == name                     # JSON keeps the real value


def test_value_files_are_read_with_a_bound_and_limit_is_positive(capsys, tmp_path):
    path = imported(capsys, "prestags-training", "t")
    n = entries(path)
    with pytest.raises(SystemExit) as exc:              # a bad argument: exit status 2
        main(["act", str(path), "note", "text=@/dev/zero"])
    assert exc.value.code == 2 and "larger than 1024 KiB" in capsys.readouterr().err
    assert entries(path) == n
    note = tmp_path / "orders.txt"
    note.write_text("from a file")
    assert cli(capsys, "act", str(path), "note", f"text=@{note}")[0] == 0
    with pytest.raises(SystemExit) as exc:
        main(["log", str(path), "--limit", "-5"])
    assert exc.value.code == 2 and "must be 1 or more" in capsys.readouterr().err
    code, out, _ = cli(capsys, "log", str(path), "--limit", "2")
    assert code == 0 and len([x for x in out.splitlines() if x.startswith("#")]) == 2


def test_a_side_export_is_readable_but_not_importable(capsys, tmp_path):
    """r_export_import: the per-side export is refused by import with a message, and
    nothing is left in the campaigns folder."""
    path = imported(capsys, "prefect-holding-the-line", "hl")
    out = tmp_path / "cw.toml"
    assert cli(capsys, "export", str(path), "--side", "CW", "-o", str(out))[0] == 0
    code, _, err = cli(capsys, "import", str(out))
    assert code == 1 and "view of" in err and "a side's export" in err
    assert sorted(p.name for p in (tmp_path / "home" / "campaigns").iterdir()) == ["hl"]
    assert cli(capsys, "status", str(out))[0] == 0
