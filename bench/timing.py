"""Timing shared by the benchmarks.

On a loaded machine a single run can take ten times the usual (another process got the
core), so every figure is a median, and a ratio's two sides are measured interleaved
(subject, baseline, subject, baseline, ...) so that a busy moment slows both alike.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable


def best(fn: Callable[[], object], repeat: int = 5) -> float:
    """The median time of *repeat* runs of *fn*."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def paired(subject: Callable[[], float | None], baseline: Callable[[], float | None],
           repeat: int = 7) -> tuple[float, float]:
    """Median times of *subject* and *baseline*, run alternately *repeat* times each,
    garbage collected before each run (timeit's practice: one run's garbage is not the
    next one's cost). A callable that returns a number reports its own time (it leaves
    its set-up out); otherwise the call is timed."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for fn, out in ((subject, times[0]), (baseline, times[1])):
            gc.collect()
            t = time.perf_counter()
            own = fn()
            out.append(own if isinstance(own, float) else time.perf_counter() - t)
    return statistics.median(times[0]), statistics.median(times[1])
