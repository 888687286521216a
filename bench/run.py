"""Benchmarks, printed as ratios against a baseline measured in the same run.

    python bench/run.py [--quick] [--ruleset ID] [--keep DIR] [--only NAME,...]

For each benchmark one line ``BENCH <name> ratio=<r> target=<t> PASS|FAIL`` and, on the
next line, the absolute figures; the last line counts the passes. A ratio at or below its
target passes. Each figure is a median, the subject's and the baseline's runs interleaved
(bench/timing.py). The large campaign (2,000 units in a deep order of battle, 20,000
logged actions with rolls, a year of turns) is generated with a fixed seed; --quick makes
a smaller one; --keep reuses it between runs; --only runs a subset (``--list`` names them).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.large import _skirmish, _status_field, generate  # noqa: E402
from bench.timing import paired  # noqa: E402
from campaign_tui.registry import load_ruleset, registry  # noqa: E402
from campaign_tui.store.atomic import atomic_write  # noqa: E402
from campaign_tui.store.files import open_campaign  # noqa: E402

RESULTS: list[tuple[str, float, float]] = []


def line(name: str, ratio: float, target: float, detail: str) -> None:
    RESULTS.append((name, ratio, target))
    verdict = "PASS" if ratio <= target else "FAIL"
    print(f"BENCH {name} ratio={ratio:.2f} target={target:g} {verdict}")
    print(f"  {detail}", flush=True)


def report(name: str, value: float, baseline: float, target: float, detail: str) -> None:
    line(name, value / baseline if baseline > 0 else float("inf"), target, detail)


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

    t, base = paired(ready, lambda: json.loads(doc), repeat=5)
    report("open", t, base, 2.0, f"open to a ready state {t * 1000:.0f} ms; json.loads of the "
           f"whole campaign ({len(doc) / 1e6:.1f} MB) {base * 1000:.0f} ms")


def bench_save_after_action(path: Path, doc: str) -> None:
    opened = open_campaign(path, load_ruleset)
    e, store = opened.engine, opened.store
    skirmish = _skirmish(_status_field(e))
    unit = next(u for u in e.state.units if u.startswith("bench-"))
    target = path.parent / "whole.json"

    def save() -> float:
        e._run(skirmish, {"unit": unit}, {}, "gm", False, False)
        t = time.perf_counter()
        store.save(e)
        return time.perf_counter() - t

    try:
        t, base = paired(save, lambda: atomic_write(target, doc), repeat=5)
    finally:
        store.close()
        target.unlink(missing_ok=True)
    report("save_after_action", t, base, 1.0, f"save after one more action {t * 1000:.1f} ms; "
           f"rewrite the whole campaign as JSON with fsync {base * 1000:.1f} ms")


def bench_undo(path: Path) -> None:
    opened = open_campaign(path, load_ruleset)
    e = opened.engine
    skirmish = _skirmish(_status_field(e))
    unit = next(u for u in e.state.units if u.startswith("bench-"))
    applies, undos = [], []
    for _ in range(9):
        gc.collect()
        t = time.perf_counter()
        e._run(skirmish, {"unit": unit}, {}, "gm", False, False)
        applies.append(time.perf_counter() - t)
        gc.collect()
        t = time.perf_counter()
        e.undo(confirm=True)
        undos.append(time.perf_counter() - t)
    opened.store.close()
    u, a = statistics.median(undos), statistics.median(applies)
    report("undo", u, a, 5.0, f"undo the last action {u * 1e6:.0f} µs; apply one action "
           f"{a * 1e6:.0f} µs ({len(e.history)} entries in the log)")


def bench_dielog_filter(path: Path) -> None:
    """Every roll on one table over all history, as the die log's filter asks for it:
    the filter set on the die log's model (the total over all history, the undo marks,
    the unsealed tail) and the first 50 matches from the log index, each time from a
    freshly opened campaign. The time to read the rows of those matches (their log
    segments) is shown beside it, not counted: it is a screenful's cost, not the filter's."""
    from campaign_tui.store.files import SEGMENT_SIZE
    from campaign_tui.ui.widgets.dielog import DieLogModel

    writer = open_campaign(path, load_ruleset)
    built = writer.engine.log_index.ensure()        # an older campaign: indexed once
    writer.store.close()
    opened = open_campaign(path, load_ruleset, read_only=True)
    segment = json.dumps([e.to_dict() for e in opened.engine.entries(1, SEGMENT_SIZE)])
    found: dict[str, Any] = {}
    rows: list[float] = []

    def one() -> float:
        engine = open_campaign(path, load_ruleset, read_only=True).engine
        gc.collect()        # the open's garbage is not the filter's
        t = time.perf_counter()
        model = DieLogModel(engine)
        model.set_filter("table:bench")
        first = engine.log_index.newest(50, table="bench")
        took = time.perf_counter() - t
        found.update(first=first, total=model.total)
        t = time.perf_counter()
        model.fill(50)
        rows.append(time.perf_counter() - t)
        return took

    t, base = paired(one, lambda: json.loads(segment), repeat=9)
    report("dielog_filter", t, base, 2.0, f"table:bench over {len(opened.engine.history)} "
           f"entries, {found['total']} matches in all and the first {len(found['first'])} "
           f"{t * 1000:.2f} ms (reading the rows of the first screenful: "
           f"{statistics.median(rows) * 1000:.1f} ms); json.loads of one {SEGMENT_SIZE}-action "
           f"segment ({len(segment) / 1e3:.0f} kB) {base * 1000:.2f} ms"
           + (f" ({built} segments indexed first)" if built else ""))


def bench_history_step(path: Path) -> None:
    """The state at a position in the middle of a turn about 10,000 actions back."""
    engine = open_campaign(path, load_ruleset, read_only=True).engine
    n = len(engine.history)
    starts = sorted(b.seq for b in engine.info.bookmarks if b.turn_start)
    before = max((s for s in starts if s <= n - 10_000), default=0)
    after = min((s for s in starts if s > before), default=n)
    seq = (before + after) // 2
    replayed: list[int] = []

    def step() -> float:
        fresh = open_campaign(path, load_ruleset, read_only=True).engine
        gc.collect()
        t = time.perf_counter()
        fresh.state_at(seq)
        took = time.perf_counter() - t
        replayed.append(fresh.replayed)
        return took

    t, base = paired(step, lambda: open_campaign(path, load_ruleset,
                                                 read_only=True).engine.status())
    report("history_step", t, base, 2.0, f"state at entry {seq} of {n} (mid-turn, "
           f"{n - seq} back; {max(replayed)} entries replayed) {t * 1000:.0f} ms; open the "
           f"campaign {base * 1000:.0f} ms")


# Benchmarks on the large campaign, in the order they run.
CAMPAIGN_BENCHES: dict[str, Callable[[Path, str], None]] = {
    "open": bench_open,
    "save_after_action": bench_save_after_action,
    "undo": lambda path, _doc: bench_undo(path),
    "dielog_filter": lambda path, _doc: bench_dielog_filter(path),
    "history_step": lambda path, _doc: bench_history_step(path),
}

# Benchmarks in other modules: (module, the names it reports). Each module has
# ``run(path, quick, only) -> [(name, ratio, target, detail)]``.
SUITES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bench.geometry", ("geometry_distance", "geometry_neighbours")),
    ("bench.ui", ("startup", "keypress", "memory")),
    ("bench.mapview", ("map_first_paint", "map_cursor")),
    ("bench.hosted", ("hosted_repaint", "hosted_repaint_worst")),
)


def all_names() -> list[str]:
    return [*CAMPAIGN_BENCHES, *(n for _module, names in SUITES for n in names)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller campaign, fewer runs")
    parser.add_argument("--ruleset", help="rule set to use (default: the heaviest)")
    parser.add_argument("--keep", help="generate into (or reuse) this folder")
    parser.add_argument("--only", help="comma-separated benchmark names (see --list)")
    parser.add_argument("--list", action="store_true", help="name the benchmarks and stop")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(all_names()))
        return 0
    only = set(args.only.split(",")) if args.only else set(all_names())
    if only - set(all_names()):
        parser.error(f"no benchmark {', '.join(sorted(only - set(all_names())))} "
                     f"(there are: {', '.join(all_names())})")
    started = time.perf_counter()
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
        doc = campaign_json(path) if only & set(CAMPAIGN_BENCHES) else ""
        for name, fn in CAMPAIGN_BENCHES.items():
            if name in only:
                fn(path, doc)
        for module, names in SUITES:
            if only & set(names):
                suite = importlib.import_module(module)
                for name, ratio, target, detail in suite.run(path, quick=args.quick,
                                                             only=only):
                    line(name, ratio, target, detail)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    missed = [n for n, r, t in RESULTS if r > t]
    print(f"# {len(RESULTS) - len(missed)}/{len(RESULTS)} within target"
          + (f"; missed: {', '.join(missed)}" if missed else "")
          + f" ({time.perf_counter() - started:.0f} s; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
