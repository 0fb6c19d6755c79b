"""Wall-clock timing with an adaptive repeat count: medians are robust to the noise of a shared 2-core
machine, the repeat count scales so each measurement costs about the same time whatever the kernel, and
implementations of one kernel are sampled in alternation so a change of load hits them all."""
import gc
import statistics
import time

TARGET_S = 0.5  # time one measurement should take (all repeats together)
MIN_SAMPLE_S = 1e-3  # calls are batched so one sample is at least this long (timer resolution, overhead)
MIN_REPEAT, MAX_REPEAT = 5, 2000
SETTLE_S = 0.01  # pause before each implementation's sample: the previous one's thread pool stops spinning


def first_call(fn, args):
    """Time one call (for compiled columns: tracing + compilation + one run). Returns (seconds, result)."""
    t0 = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - t0, result


def _estimate(fn, args, calls=3, budget_s=0.3):
    """Fastest of up to `calls` single calls (fewer once budget_s is spent): one call alone can land on a
    load spike and shrink the repeat count."""
    best, spent = float("inf"), 0.0
    for _ in range(calls):
        t0 = time.perf_counter()
        fn(*args)
        dt = time.perf_counter() - t0
        best, spent = min(best, dt), spent + dt
        if spent > budget_s:
            break
    return max(best, 1e-9)


def measure(fn, args, repeat=None, target_s=TARGET_S):
    """Median seconds per call of one already warmed-up fn(*args); see measure_interleaved."""
    return measure_interleaved({"fn": fn}, args, repeat, target_s)["fn"]


def measure_interleaved(fns, args, repeat=None, target_s=TARGET_S):
    """Per-call timing of several warmed-up implementations of the same kernel, sampled in rounds
    (one sample of each per round) so that load changes on a shared machine hit all of them alike; the orders of
    the rounds (``_balanced_orders``) have each implementation run right after each other one equally often.
    (Rotating one order had kept its cyclic order: the column after NumPy's was always timed after NumPy had
    filled the caches with its temporaries; a compiled kernel ran 7.5-8 ms there and 5.8-6 ms after a copy of
    itself.)

    One call estimates each cost; calls are batched `number` at a time so a sample lasts at least
    MIN_SAMPLE_S; `repeat` rounds are taken (given, or chosen so the slowest implementation is timed for
    about target_s; rounded up to whole cycles of the orders). Garbage collection is off while timing, as in
    timeit. Returns key -> stats.
    """
    number = {}
    for key, fn in fns.items():
        est = _estimate(fn, args)
        number[key] = max(1, int(MIN_SAMPLE_S / est)) if est < MIN_SAMPLE_S else 1
        number[key] = (number[key], est * number[key])
    if repeat is None:
        slowest = max(sample for _, sample in number.values())
        repeat = min(MAX_REPEAT, max(MIN_REPEAT, int(target_s / slowest)))
    keys = list(fns)
    orders = _balanced_orders(len(keys))
    repeat = -(-repeat // len(orders)) * len(orders)
    samples = {key: [] for key in fns}
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for r in range(repeat):
            for key in (keys[i] for i in orders[r % len(orders)]):
                fn = fns[key]
                n = number[key][0]
                if len(fns) > 1:
                    time.sleep(SETTLE_S)
                t0 = time.perf_counter()
                for _ in range(n):
                    fn(*args)
                samples[key].append((time.perf_counter() - t0) / n)
    finally:
        if gc_was_enabled:
            gc.enable()
    return {
        key: {"median_s": statistics.median(v), "min_s": min(v), "max_s": max(v), "repeat": repeat,
              "number": number[key][0]}
        for key, v in samples.items()
    }


def per_call(stmt, namespace, repeat=7, min_total_s=0.2, clock=time.perf_counter, stat=statistics.median):
    """Median (or `stat`) seconds per execution of a tiny statement (a string, so timeit adds no call layer):
    the loop count is grown until one repeat takes >= min_total_s / repeat, then `repeat` repeats."""
    return per_call_interleaved({0: (stmt, namespace)}, repeat, min_total_s, clock, stat)[0]


def per_call_interleaved(stmts, repeat=7, min_total_s=0.2, clock=time.perf_counter, stat=statistics.median):
    """per_call for several statements {key: (stmt, namespace)}, sampled in rounds (one repeat of each per
    round, in measure_interleaved's orders) so that load changes hit them alike; clock=time.process_time with
    stat=min counts only this process's CPU time, the most robust to other load. Returns key -> seconds per
    execution."""
    import timeit

    timers, number = {}, {}
    for key, (stmt, namespace) in stmts.items():
        timer = timers[key] = timeit.Timer(stmt, globals=namespace, timer=clock)
        timer.timeit(number=10)  # warm-up, and fail early on an error
        n = 1
        while n < 10_000_000 and timer.timeit(number=n) < min_total_s / repeat:
            n *= 4
        number[key] = n
    samples = {key: [] for key in stmts}
    keys = list(stmts)
    orders = _balanced_orders(len(keys))
    for r in range(repeat):
        for key in (keys[i] for i in orders[r % len(orders)]):
            samples[key].append(timers[key].timeit(number=number[key]) / number[key])
    return {key: stat(v) for key, v in samples.items()}


def _balanced_orders(n):
    """Orders of range(n) in which each element comes right after each other one equally often (a Williams
    design: the rows of a Latin square whose first row is 0, 1, n-1, 2, n-2, ...; for odd n with the rows
    reversed too)."""
    first, low, high = [0], 1, n - 1
    for j in range(1, n):
        first.append(low if j % 2 else high)
        low, high = (low + 1, high) if j % 2 else (low, high - 1)
    rows = [[(x + i) % n for x in first] for i in range(n)]
    return rows if n % 2 == 0 or n == 1 else rows + [row[::-1] for row in rows]
