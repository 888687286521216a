"""Timing shared by the benchmarks: the median of a few runs of a callable."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def best(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)
