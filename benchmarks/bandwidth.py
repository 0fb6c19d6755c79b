"""STREAM-like triad a = b + s*c, the machine's practical memory bandwidth, measured in the same run so
memory-bound kernels can be reported as a percentage of it. Bytes are counted as STREAM does: 3 arrays
of 8-byte elements per pass (no write-allocate traffic). Both the best (minimum) and the median time of several
passes are kept: the best is the machine's figure, the median is what a kernel's median is compared with.
This machine's bandwidth drifts during a run (a shared host: 9 to 37 GB/s between runs), and its last-level cache
(480 MB reported) holds a kernel's whole working set, so a figure depends on footprint and timing protocol too.
The runner therefore compares each memory-bound kernel with `matched_triad`: a triad moving the kernel's own
byte count, sampled in the same interleaved rounds as the kernel's columns."""
import statistics
import time

import numpy as np

ARRAY_BYTES = 100_000_000  # per array, well beyond any cache
PASSES = 10


def _times(fn, passes, sync=None):
    fn()
    times = []
    for _ in range(passes):
        t0 = time.perf_counter()
        fn()
        if sync:
            sync()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def triad(device="cpu", array_bytes=ARRAY_BYTES, passes=PASSES):
    """GB/s of the triad for NumPy (CPU only; two passes through out=, so it undercounts its own
    traffic) and for torch.add(b, c, alpha=s, out=a) (one fused, multi-threaded pass), from the best and
    from the median pass. 'best_gbps' and 'median_gbps' are the larger of the two, the figures for `device`."""
    n = array_bytes // 8
    s = 3.0
    moved = 3 * n * 8
    res = {"array_mb": array_bytes / 1e6, "bytes_per_pass": moved}
    if device == "cpu":
        b = np.random.default_rng(0).random(n)
        c = np.random.default_rng(1).random(n)
        a = np.empty(n)

        def np_triad():
            np.multiply(c, s, out=a)
            np.add(a, b, out=a)

        best, med = _times(np_triad, passes)
        res["numpy_gbps"], res["numpy_median_gbps"] = moved / best / 1e9, moved / med / 1e9
        del a, b, c
    try:
        import torch

        tb = torch.rand(n, dtype=torch.float64, device=device)
        tc = torch.rand(n, dtype=torch.float64, device=device)
        ta = torch.empty(n, dtype=torch.float64, device=device)
        sync = torch.cuda.synchronize if device != "cpu" else None
        best, med = _times(lambda: torch.add(tb, tc, alpha=s, out=ta), passes, sync)
        res["torch_gbps"], res["torch_median_gbps"] = moved / best / 1e9, moved / med / 1e9
        del ta, tb, tc
    except Exception as e:  # noqa: BLE001
        res["torch_error"] = f"{type(e).__name__}: {e}"
    res["median_gbps"] = max(v for k, v in res.items() if k.endswith("_median_gbps"))
    res["best_gbps"] = max(v for k, v in res.items() if k.endswith("_gbps") and "median" not in k)
    return res


def matched_triad(total_bytes, device="cpu"):
    """One triad pass over three float64 arrays of `total_bytes` together, as a callable taking (and ignoring)
    a kernel's arguments, so it can be timed alongside the kernel: the yardstick of the same footprint and the
    same protocol (sleeps between samples, the thread pool waking, the cache state) as the kernel's own calls."""
    import torch

    n = max(1, total_bytes // 24)
    a, b, c = (torch.rand(n, dtype=torch.float64, device=device) for _ in range(3))
    sync = torch.cuda.synchronize if device != "cpu" else (lambda: None)

    def run(*_):
        torch.add(b, c, alpha=3.0, out=a)
        sync()

    return run
