"""The write lock is exclusive by the operating system: never two holders, never stale."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from campaign_tui.core.errors import CampaignLocked
from campaign_tui.store.lock import Lock
from tests.store.helpers import new_folder, reopen

ROOT = Path(__file__).resolve().parents[2]

WORKER = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, {root!r})
    from pathlib import Path
    from campaign_tui.core.errors import CampaignLocked
    from campaign_tui.store.lock import Lock
    folder = Path({folder!r})
    inside = folder / "inside"
    taken = overlaps = 0
    lock = Lock(folder / "campaign.lock", folder)
    while taken < {rounds}:
        try:
            lock.acquire()
        except CampaignLocked:
            time.sleep(0.0005)
            continue
        try:
            fd = os.open(inside, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            overlaps += 1        # someone else is inside too
        else:
            os.close(fd)
            time.sleep(0.0002)
            os.unlink(inside)
        lock.release()
        taken += 1
    print(taken, overlaps)
""")


@pytest.mark.slow
@pytest.mark.parametrize(("workers", "rounds"), [(2, 1000), (4, 500)])
def test_lock_stress_no_two_holders(tmp_path, workers, rounds):
    """N processes taking the lock thousands of times in all: never two inside at once."""
    code = WORKER.format(root=str(ROOT), folder=str(tmp_path), rounds=rounds)
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
             for _ in range(workers)]
    results = [p.communicate(timeout=240)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sum(int(r[0]) for r in results) == workers * rounds
    assert sum(int(r[1]) for r in results) == 0


def test_a_second_lock_in_the_same_process_is_refused_and_names_the_holder(tmp_path):
    first = Lock(tmp_path / "campaign.lock", tmp_path)
    first.acquire()
    with pytest.raises(CampaignLocked, match=f"process {os.getpid()} on .* since "):
        Lock(tmp_path / "campaign.lock", tmp_path).acquire()
    first.release()
    second = Lock(tmp_path / "campaign.lock", tmp_path)
    second.acquire()
    second.release()


def test_a_killed_holder_leaves_no_lock(demo, tmp_path):
    path = tmp_path / "c"
    new_folder(demo, path).close()
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from campaign_tui.store.files import open_campaign
        from tests.store.helpers import loader
        opened = open_campaign({str(path)!r}, loader)
        print("holding", flush=True)
        time.sleep(60)
    """)
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert holder.stdout.readline().strip() == "holding"
    with pytest.raises(CampaignLocked, match=f"process {holder.pid} "):
        reopen(path)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    opened = reopen(path)            # the kernel released it with the process
    opened.store.close()


def test_an_old_style_lock_file_means_nothing(demo, tmp_path):
    path = tmp_path / "c"
    new_folder(demo, path).close()
    (path / "campaign.lock").write_text('{"pid": 1, "host": "elsewhere", "since": "x"}')
    opened = reopen(path)
    assert (path / "campaign.holder").is_file()
    opened.store.close()
    assert not (path / "campaign.holder").exists()


def test_the_lock_and_the_filelock_library_exclude_each_other(tmp_path):
    """Taken with flock directly, the lock is the one filelock takes: a program (or an
    older campaign-tui) locking through filelock and this one never both hold it."""
    from filelock import FileLock, Timeout

    path = tmp_path / "campaign.lock"
    mine = Lock(path, tmp_path)
    mine.acquire()
    with pytest.raises(Timeout):
        FileLock(path, timeout=0).acquire()
    mine.release()
    theirs = FileLock(path, timeout=0)
    theirs.acquire()
    with pytest.raises(CampaignLocked):
        Lock(path, tmp_path).acquire()
    theirs.release()
    again = Lock(path, tmp_path)
    again.acquire()
    assert again.held
    again.release()


def test_without_flock_the_lock_is_taken_through_filelock(tmp_path, monkeypatch):
    import campaign_tui.store.lock as lock_module

    def no_flock(self):
        raise lock_module._NoFlock

    monkeypatch.setattr(lock_module._Flock, "acquire", no_flock)
    path = tmp_path / "campaign.lock"
    first = Lock(path, tmp_path)
    first.acquire()
    assert isinstance(first._os_lock, lock_module._PortableLock)
    with pytest.raises(CampaignLocked):
        Lock(path, tmp_path).acquire()
    first.release()
    Lock(path, tmp_path).acquire()


def test_a_lock_in_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path):
    from campaign_tui.core.errors import SaveError

    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who may write anywhere")
        with pytest.raises(SaveError, match="cannot take the write lock"):
            Lock(folder / "campaign.lock", folder).acquire()
    finally:
        folder.chmod(0o700)
