"""Timing shared by the PyTorch benchmark scripts: medians of wall and process CPU time after warm-up calls."""
import statistics
import time


def timed(fn, repeats, warmup):
    """Medians (wall s, process CPU s, all threads) of `repeats` calls of fn after `warmup` calls."""
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)
