"""The timing method of gather's benchmark peers (torch, numpy; ORT's
bench.mjs does the same): warm up, pick a batch of n calls lasting at least
`batch_seconds`, time `repetitions` batches and return the median time per
call, in seconds."""
import statistics
import time


def median_per_call(fn, repetitions=10, batch_seconds=0.05):
    start = time.perf_counter()
    warmups = 0
    while warmups < 3 or time.perf_counter() - start < batch_seconds:
        fn()
        warmups += 1
    estimate = (time.perf_counter() - start) / warmups
    n = max(1, int(batch_seconds / max(estimate, 1e-9)))
    samples = []
    for _ in range(repetitions):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)
