"""Wall-clock timing with an adaptive repeat count: medians are robust to the noise of a shared 2-core
machine, and the repeat count scales so each measurement costs about the same time whatever the kernel."""
import gc
import statistics
import time

TARGET_S = 0.5  # time one measurement should take (all repeats together)
MIN_SAMPLE_S = 1e-3  # calls are batched so one sample is at least this long (timer resolution, overhead)
MIN_REPEAT, MAX_REPEAT = 5, 2000


def first_call(fn, args):
    """Time one call (for compiled columns: tracing + compilation + one run). Returns (seconds, result)."""
    t0 = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - t0, result


def measure(fn, args, repeat=None, target_s=TARGET_S):
    """Median seconds per call of an already warmed-up fn(*args).

    One call estimates the cost; calls are batched `number` at a time so each sample lasts at least
    MIN_SAMPLE_S, and `repeat` samples are taken (given, or chosen so the total is about target_s).
    Garbage collection is off while timing, as in timeit.
    """
    t0 = time.perf_counter()
    fn(*args)
    est = max(time.perf_counter() - t0, 1e-9)
    number = max(1, int(MIN_SAMPLE_S / est)) if est < MIN_SAMPLE_S else 1
    if repeat is None:
        repeat = min(MAX_REPEAT, max(MIN_REPEAT, int(target_s / (est * number))))
    samples = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = time.perf_counter()
            for _ in range(number):
                fn(*args)
            samples.append((time.perf_counter() - t0) / number)
    finally:
        if gc_was_enabled:
            gc.enable()
    return {
        "median_s": statistics.median(samples),
        "min_s": min(samples),
        "max_s": max(samples),
        "repeat": repeat,
        "number": number,
    }


def per_call(stmt, namespace, repeat=7, min_total_s=0.2):
    """Median seconds per execution of a tiny statement (a string, so timeit adds no call layer):
    the loop count is grown until one repeat takes >= min_total_s / repeat, then `repeat` repeats."""
    import timeit

    timer = timeit.Timer(stmt, globals=namespace)
    timer.timeit(number=10)  # warm-up, and fail early on an error
    number = 1
    while True:
        if timer.timeit(number=number) >= min_total_s / repeat:
            break
        number *= 4 if number < 10_000_000 else 1
        if number >= 10_000_000:
            break
    return statistics.median(t / number for t in timer.repeat(repeat=repeat, number=number))
