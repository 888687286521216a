"""Benchmarks, printed as ratios against a baseline measured in the same run.

    python bench/run.py [--quick] [--ruleset ID] [--keep DIR]

For each benchmark one line ``BENCH <name> ratio=<r> target=<t>`` and, on the next line,
the absolute figures. A ratio at or below its target passes. The large campaign (2,000
units in a deep order of battle, 20,000 logged actions with rolls, a year of turns) is
generated with a fixed seed; --quick makes a smaller one.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.large import _skirmish, _status_field, generate  # noqa: E402
from bench.timing import best  # noqa: E402
from campaign_tui.registry import load_ruleset, registry  # noqa: E402
from campaign_tui.store.atomic import atomic_write  # noqa: E402
from campaign_tui.store.files import open_campaign  # noqa: E402

RESULTS: list[tuple[str, float, float]] = []


def report(name: str, value: float, baseline: float, target: float, detail: str) -> None:
    ratio = value / baseline if baseline > 0 else float("inf")
    RESULTS.append((name, ratio, target))
    print(f"BENCH {name} ratio={ratio:.2f} target={target:g}")
    print(f"  {detail}", flush=True)


def heaviest_ruleset() -> str:
    """The installed rule set whose fresh campaign state is largest."""
    from campaign_tui.core.engine import Engine

    sizes = {}
    for rid in registry().ids():
        try:
            rs = load_ruleset(rid)
            sizes[rid] = len(json.dumps(Engine.create(rs, seed=1).state.to_dict()))
        except Exception as exc:  # a plugin that cannot start is skipped, and said
            print(f"  (skipping {rid}: {exc})", file=sys.stderr)
    return max(sizes, key=sizes.get)


def campaign_json(path: Path) -> str:
    opened = open_campaign(path, load_ruleset, read_only=True)
    e = opened.engine
    return json.dumps({"info": e.info.to_dict(), "state": e.state.to_dict(),
                       "log": [x.to_dict() for x in e.entries()]})


def bench_open(path: Path, doc: str) -> None:
    def ready() -> None:
        opened = open_campaign(path, load_ruleset, read_only=True)
        opened.engine.status()

    t = best(ready)
    base = best(lambda: json.loads(doc))
    report("open", t, base, 2.0, f"open to a ready state {t * 1000:.0f} ms; json.loads of the "
           f"whole campaign ({len(doc) / 1e6:.1f} MB) {base * 1000:.0f} ms")


def bench_save_after_action(path: Path, doc: str) -> None:
    opened = open_campaign(path, load_ruleset)
    e, store = opened.engine, opened.store
    skirmish = _skirmish(_status_field(e))
    unit = next(u for u in e.state.units if u.startswith("bench-"))
    times = []
    for _ in range(5):
        e._run(skirmish, {"unit": unit}, {}, "gm", False, False)
        t = time.perf_counter()
        store.save(e)
        times.append(time.perf_counter() - t)
    store.close()
    t = statistics.median(times)
    target = path.parent / "whole.json"
    base = best(lambda: atomic_write(target, doc))
    report("save_after_action", t, base, 1.0, f"save after one more action {t * 1000:.1f} ms; "
           f"rewrite the whole campaign as JSON with fsync {base * 1000:.1f} ms")


def bench_undo(path: Path) -> None:
    opened = open_campaign(path, load_ruleset)
    e = opened.engine
    skirmish = _skirmish(_status_field(e))
    unit = next(u for u in e.state.units if u.startswith("bench-"))
    applies, undos = [], []
    for _ in range(7):
        t = time.perf_counter()
        e._run(skirmish, {"unit": unit}, {}, "gm", False, False)
        applies.append(time.perf_counter() - t)
        t = time.perf_counter()
        e.undo(confirm=True)
        undos.append(time.perf_counter() - t)
    opened.store.close()
    u, a = statistics.median(undos), statistics.median(applies)
    report("undo", u, a, 5.0, f"undo the last action {u * 1e6:.0f} µs; apply one action "
           f"{a * 1e6:.0f} µs ({len(e.history)} entries in the log)")


def bench_dielog_filter(path: Path) -> None:
    """Every roll on one table over all history: the first 50 matches and the total, as
    the die log asks the log index for them (each run from a freshly opened campaign)."""
    from campaign_tui.store.files import SEGMENT_SIZE

    writer = open_campaign(path, load_ruleset)
    built = writer.engine.log_index.ensure()        # an older campaign: indexed once
    writer.store.close()
    opened = open_campaign(path, load_ruleset, read_only=True)
    table = "bench"

    def one() -> tuple[list[tuple[int, int]], int]:
        engine = open_campaign(path, load_ruleset, read_only=True).engine
        gc.collect()        # the open's garbage is not the filter's (timeit's practice)
        t = time.perf_counter()
        index = engine.log_index
        newer = [(e.seq, r.n) for e in engine.entries(index.end + 1)
                 for r in e.rolls if table in (r.table or "").lower()]
        first = (newer[::-1] + index.newest(50, table=table))[:50]
        total = len(newer) + (index.count(table=table) or 0)
        times.append(time.perf_counter() - t)
        return first, total

    times: list[float] = []
    for _ in range(7):
        first, total = one()
    t = statistics.median(times)
    segment = json.dumps([e.to_dict() for e in opened.engine.entries(1, SEGMENT_SIZE)])
    gc.collect()
    base = best(lambda: json.loads(segment), repeat=7)
    report("dielog_filter", t, base, 2.0, f"table:{table} over {len(opened.engine.history)} "
           f"entries, the first {len(first)} of {total} matches {t * 1000:.2f} ms; json.loads "
           f"of one {SEGMENT_SIZE}-action segment ({len(segment) / 1e3:.0f} kB) "
           f"{base * 1000:.2f} ms" + (f" ({built} segments indexed first)" if built else ""))


def bench_history_step(path: Path) -> None:
    """The state at a position in the middle of a turn about 10,000 actions back."""
    engine = open_campaign(path, load_ruleset, read_only=True).engine
    n = len(engine.history)
    starts = sorted(b.seq for b in engine.info.bookmarks if b.turn_start)
    before = max((s for s in starts if s <= n - 10_000), default=0)
    after = min((s for s in starts if s > before), default=n)
    seq = (before + after) // 2
    times, replayed = [], []
    for _ in range(5):
        fresh = open_campaign(path, load_ruleset, read_only=True).engine
        gc.collect()
        t = time.perf_counter()
        fresh.state_at(seq)
        times.append(time.perf_counter() - t)
        replayed.append(fresh.replayed)
    t = statistics.median(times)
    base = best(lambda: open_campaign(path, load_ruleset, read_only=True).engine.status())
    report("history_step", t, base, 2.0, f"state at entry {seq} of {n} (mid-turn, "
           f"{n - seq} back; {max(replayed)} entries replayed) {t * 1000:.0f} ms; open the "
           f"campaign {base * 1000:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller campaign, fewer runs")
    parser.add_argument("--ruleset", help="rule set to use (default: the heaviest)")
    parser.add_argument("--keep", help="generate into (or reuse) this folder")
    parser.add_argument("--only", help="comma-separated benchmark names")
    args = parser.parse_args(argv)
    # An installed package has its bytecode compiled by pip, as Textual's is; a checkout
    # (editable install) may not, when PYTHONDONTWRITEBYTECODE is set. Compile it so both
    # sides of every comparison start alike.
    import compileall

    for package in ("campaign_tui", "rulesets", "bench"):
        compileall.compile_dir(str(ROOT / package), quiet=1)
    ruleset = args.ruleset or heaviest_ruleset()
    units, actions = (400, 3000) if args.quick else (2000, 20000)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="campaign-bench-"))
    path = work / "large"
    os.environ.setdefault("CAMPAIGN_TUI_HOME", str(work / "home"))
    try:
        if not (path / "campaign.toml").exists():
            large = generate(path, ruleset, units, actions)
            print(f"# generated {large.units} units, {large.actions} actions ({ruleset}) in "
                  f"{large.seconds:.1f} s", flush=True)
        doc = campaign_json(path)
        only = set(args.only.split(",")) if args.only else None
        for name, fn in (("open", lambda: bench_open(path, doc)),
                         ("save_after_action", lambda: bench_save_after_action(path, doc)),
                         ("undo", lambda: bench_undo(path)),
                         ("dielog_filter", lambda: bench_dielog_filter(path)),
                         ("history_step", lambda: bench_history_step(path))):
            if only is None or name in only:
                fn()
        if only is None or only & {"geometry_distance", "geometry_neighbours"}:
            from bench import geometry

            for name, ratio, target, detail in geometry.run(quick=args.quick):
                RESULTS.append((name, ratio, target))
                print(f"BENCH {name} ratio={ratio:.2f} target={target:g}")
                print(f"  {detail}", flush=True)
        if only is None or only & {"map_first_paint", "map_cursor"}:
            from bench import mapview

            for name, ratio, target, detail in mapview.run(quick=args.quick, only=only):
                RESULTS.append((name, ratio, target))
                print(f"BENCH {name} ratio={ratio:.2f} target={target:g}\n  {detail}", flush=True)
        ui = ROOT / "bench" / "ui.py"
        if ui.exists() and (only is None or only & {"startup", "keypress", "memory"}):
            from bench import ui as ui_bench

            for name, ratio, target, detail in ui_bench.run(path, quick=args.quick, only=only):
                RESULTS.append((name, ratio, target))
                print(f"BENCH {name} ratio={ratio:.2f} target={target:g}")
                print(f"  {detail}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    missed = [n for n, r, t in RESULTS if r > t]
    print(f"# {len(RESULTS) - len(missed)}/{len(RESULTS)} within target"
          + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
