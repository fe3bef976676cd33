"""Shared timing helper of the benchmark scripts."""

import time


def best_time(function, repeats=5):
    """Smallest wall time of ``repeats`` calls of ``function()``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)
