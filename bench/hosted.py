"""The hosted table under load: 12 seats (real seat TUI processes, each in a pty of its
own, 80x24) connected to one table server while actions are applied.

* hosted_repaint: from a keypress in the GM's seat (undo, then redo, of a GM action: each
  a committed action every seat receives) to the moment EVERY seat has repainted it,
  against the same keypress to its own repaint with the GM's seat alone at the table,
  measured in the same run, the two taking turns four times: alone, with the eleven
  others, alone again, with them again... (median of the 40 actions of each; target 1.5);
* hosted_repaint_worst: the slowest of the 12-seat actions against the same baseline
  (target 3);
* memory per seat: the resident memory of each seat process (and of the server).

    python bench/hosted.py [--quick] [--campaign EXAMPLE] [--seats N]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import gc
import json
import os
import pty
import selectors
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

UNDO, REDO = b"\x1a", b"\x19"     # ctrl+z, ctrl+y
REST = 2.0     # seconds: the seats at rest before a round (the seats' start-up done)
TURNS, ACTIONS = 4, 10   # alone and with the others in turn, so many times; actions in each


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Seat:
    """One seat's TUI process in a pty of its own, its output drained."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(argv, env=env, stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True, cwd=ROOT)
        os.close(slave)
        self.master = master

    def press(self, key: bytes) -> None:
        os.write(self.master, key)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        os.close(self.master)


class Drain(threading.Thread):
    """Reads every seat's terminal output (a full pty would stall its seat)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.running = True

    def add(self, fd: int) -> None:
        with self.lock:
            self.selector.register(fd, selectors.EVENT_READ)

    def remove(self, fd: int) -> None:
        with self.lock, contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(fd)

    def run(self) -> None:
        while self.running:
            with self.lock:
                if not self.selector.get_map():
                    events = []
                else:
                    events = self.selector.select(0.05)
            if not events:
                time.sleep(0.01)
            for key, _ in events:
                try:
                    os.read(key.fd, 65536)
                except OSError:
                    with self.lock:
                        self.selector.unregister(key.fd)


class Bench:
    def __init__(self, work: Path, campaign: str) -> None:
        from campaign_tui import campaigns
        from campaign_tui.store.paths import places

        self.work = work
        self.env = {**os.environ, "CAMPAIGN_TUI_HOME": str(work / "home"),
                    "PYTHONPATH": str(ROOT), "CAMPAIGN_TUI_NO_BLINK": "1",
                    "TERM": "xterm-256color"}
        os.environ["CAMPAIGN_TUI_HOME"] = str(work / "home")
        self.places = places(work / "home").ensure()
        self.path = campaigns.resolve(self.places, campaign)
        self.log = work / "paint.log"
        self._log_at = 0                                  # bytes of the log read so far
        self._lines: list[tuple[float, str, int]] = []    # (time, kind, pid) read so far
        self.drain = Drain()
        self.drain.start()

    def serve(self, names: list[str]) -> None:
        self.server = subprocess.Popen(
            [sys.executable, "-m", "campaign_tui.hosted.run_table", str(self.path),
             str(self.work / "run"), *names], stdout=subprocess.PIPE, text=True,
            env=self.env, cwd=ROOT)
        assert self.server.stdout is not None
        data = json.loads(self.server.stdout.readline())
        self.socket, self.tokens = data["socket"], data["tokens"]

    def sides(self) -> list[str]:
        from campaign_tui.campaigns import open_path

        return list(open_path(self.path, read_only=True).engine.state.sides)

    def seat(self, name: str, side: str | None) -> Seat:
        from campaign_tui.hosted.table_server import SEAT_ENV, SIDE_ENV, SOCKET_ENV, TOKEN_ENV

        env = {**self.env, SOCKET_ENV: self.socket, TOKEN_ENV: self.tokens[name],
               SEAT_ENV: name, SIDE_ENV: side or "", "COLUMNS": "80", "LINES": "24",
               "CAMPAIGN_TUI_STARTUP_LOG": str(self.log), "CAMPAIGN_TUI_PAINT_LOG": str(self.log)}
        seat = Seat([sys.executable, "-m", "campaign_tui.hosted.seat_client"], env)
        self.drain.add(seat.master)
        return seat

    def _read_log(self) -> None:
        """Take the log's new lines (the log is read from where the last read stopped: a
        poll every few milliseconds must not itself take the processor the seats need)."""
        if not self.log.exists():
            return
        with self.log.open("rb") as fh:
            fh.seek(self._log_at)
            data = fh.read()
        end = data.rfind(b"\n") + 1          # a line still being written waits
        self._log_at += end
        for line in data[:end].decode().splitlines():
            parts = line.split()
            if len(parts) >= 3:
                # "T update PID"; "T painted ELAPSED PID CPU" (the app's start-up line)
                pid = int(parts[2] if parts[1] == "update" else parts[3])
                self._lines.append((float(parts[0]), parts[1], pid))

    def stamps(self, kind: str, after: float, since: int = 0) -> dict[int, float]:
        """The first stamp of *kind* after *after*, per process (in the lines read from
        line *since* on)."""
        self._read_log()
        out: dict[int, float] = {}
        for t, k, pid in self._lines[since:]:
            if k == kind and t > after:
                out.setdefault(pid, t)
        return out

    def wait_painted(self, seats: list[Seat], kind: str, after: float,
                     timeout: float = 120) -> dict[int, float]:
        pids = {s.proc.pid for s in seats}
        since = len(self._lines)      # what was read before: all of it older than *after*
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.stamps(kind, after, since)
            if pids <= set(got):
                return {p: got[p] for p in pids}
            time.sleep(0.01)    # (the times are the stamps' own: polling less weighs less)
        raise TimeoutError(f"{len(pids - set(self.stamps(kind, after)))} seat(s) never "
                           f"painted ({kind})")

    def round(self, gm: Seat, seats: list[Seat], actions: int) -> list[float]:
        """Seconds from each keypress in the GM's seat to every seat's repaint."""
        times = []
        for i in range(actions):
            time.sleep(0.15)                    # the screens are at rest
            t0 = time.time()
            gm.press(UNDO if i % 2 == 0 else REDO)
            painted = self.wait_painted(seats, "update", t0)
            times.append(max(painted.values()) - t0)
        return times

    def prepare(self) -> None:
        """A GM action without dice to undo and redo (no confirmation asked)."""
        from campaign_tui.hosted.identity import SeatInfo
        from campaign_tui.hosted.link import Link
        from campaign_tui.hosted.remote_session import RemoteSession

        link = Link(self.socket, SeatInfo("driver", None), self.tokens["driver"])
        session = RemoteSession(self.places, link, link.connect())
        session.perform("gm.set_var", {"name": "bench", "value": "1"})
        session.close()

    def stop_server(self) -> None:
        self.server.kill()
        self.server.wait(10)

    def close(self, seats: list[Seat]) -> None:
        """Stop the seats, the drain and the server; remove the work folder."""
        for s in seats:
            self.drain.remove(s.master)
            s.stop()
        self.drain.running = False
        if hasattr(self, "server"):
            self.stop_server()
        shutil.rmtree(self.work, ignore_errors=True)


def run(_path: object = None, quick: bool = False, only: object = None,
        campaign: str = "prestags-training", count: int = 12) -> list[tuple[str, float, float, str]]:
    # this process only watches: what it holds (bench/run.py's large campaign) is set
    # aside from the collector, whose full pass would take a processor from the seats
    gc.collect()
    gc.freeze()
    try:
        return _run(quick, campaign, count)
    finally:
        gc.unfreeze()


def _run(quick: bool, campaign: str, count: int) -> list[tuple[str, float, float, str]]:
    turns, actions = (2, 4) if quick else (TURNS, ACTIONS)
    work = Path(tempfile.mkdtemp(prefix="campaign-hosted-bench-"))
    bench = Bench(work, campaign)
    sides = bench.sides()
    names = ["gm:gm", "driver:gm"] + [f"p{i}:{sides[i % len(sides)]}" for i in range(1, count)]
    seats: list[Seat] = []
    single: list[float] = []
    many: list[float] = []
    try:
        bench.serve(names)
        bench.prepare()
        t = time.time()
        gm = bench.seat("gm", None)
        seats = [gm]
        bench.wait_painted([gm], "painted", t)
        # the GM's seat alone (the baseline), then with the eleven others, and again: the
        # two take turns, so that a busy moment of the machine weighs on both
        for _turn in range(turns):
            time.sleep(REST)
            single += bench.round(gm, [gm], actions)
            t = time.time()
            others = [bench.seat(f"p{i}", sides[i % len(sides)]) for i in range(1, count)]
            seats = [gm, *others]
            bench.wait_painted(others, "painted", t, timeout=300)
            time.sleep(REST)
            memory = [_rss_mib(s.proc.pid) for s in seats]
            server_mib = _rss_mib(bench.server.pid)
            many += bench.round(gm, seats, actions)
            for seat in others:
                bench.drain.remove(seat.master)
                seat.stop()
            seats = [gm]
    finally:
        bench.close(seats)
    base = statistics.median(single)
    med, worst = statistics.median(many), max(many)
    detail = (f"{count} seats ({campaign}, {len(sides)} sides + the GM): keypress to every "
              f"seat's repaint median {med * 1000:.0f} ms, worst {worst * 1000:.0f} ms; one "
              f"seat: median {base * 1000:.0f} ms (worst {max(single) * 1000:.0f} ms); "
              f"{len(many)} actions each")
    mem = (f"memory per seat {statistics.mean(memory):.0f} MiB (min {min(memory):.0f}, max "
           f"{max(memory):.0f}); the server {server_mib:.0f} MiB")
    return [("hosted_repaint", med / base, 1.5, detail),
            ("hosted_repaint_worst", worst / base, 3.0, mem)]


def first_sync(campaign: str = "fifth_frontier_war-campaign") -> tuple[float, float, str]:
    """A side's seat joining a big campaign: from starting its process to its first paint
    (the server already open), and the server's own part (the sync message)."""
    work = Path(tempfile.mkdtemp(prefix="campaign-hosted-sync-"))
    bench = Bench(work, campaign)
    sides = bench.sides()
    seat: Seat | None = None
    try:
        bench.serve([f"p1:{sides[0]}", "driver:gm"])
        from campaign_tui.hosted.identity import SeatInfo
        from campaign_tui.hosted.link import Link

        link = Link(bench.socket, SeatInfo("p1", sides[0]), bench.tokens["p1"])
        t = time.perf_counter()
        link.connect(timeout=120)
        server_part = time.perf_counter() - t     # the first sync of this side, alone
        link.close()
        bench.stop_server()                        # a fresh server: nothing projected yet
        bench.serve([f"p1:{sides[0]}", "driver:gm"])
        t = time.time()
        seat = bench.seat("p1", sides[0])
        painted = bench.wait_painted([seat], "painted", t, timeout=180)
        total = max(painted.values()) - t
    finally:
        bench.close([seat] if seat is not None else [])
    return total, server_part, (f"{campaign}: {sides[0]}'s seat started to painted "
                                f"{total:.2f} s; its first sync alone {server_part:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer actions")
    parser.add_argument("--campaign", default="prestags-training", help="a bundled example")
    parser.add_argument("--seats", type=int, default=12)
    parser.add_argument("--first-sync", action="store_true",
                        help="only: a side's first sync on a big campaign")
    args = parser.parse_args(argv)
    total, alone, detail = first_sync()
    print(f"BENCH hosted_first_sync seconds={total:.2f} sync={alone:.2f}")
    print(f"  {detail}", flush=True)
    if args.first_sync:
        return 0
    for name, ratio, target, detail in run(quick=args.quick, campaign=args.campaign,
                                           count=args.seats):
        print(f"BENCH {name} ratio={ratio:.2f} target={target:g}")
        print(f"  {detail}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
