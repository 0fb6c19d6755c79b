"""Per-call overhead of ``npcompile.compile`` vs ``torch.compile`` on a tiny NumPy function.

    python -m npcompile.tracing.overhead [--backend inductor] [--n 16] [--rounds 15]

A 3-op function on 16 float64 elements, so the time is nearly all per-call overhead.  Batches of the three
contenders are interleaved and the minimum per-call time over rounds is reported (robust to a busy machine);
CPU time of this process is used, not wall time.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def k3(a, b):
    return np.sin(a) * b + 1.0


def _batch(f, args, n):
    t = time.process_time()
    for _ in range(n):
        f(*args)
    return (time.process_time() - t) / n * 1e6


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--backend", default="inductor")
    p.add_argument("--n", type=int, default=16)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--calls", type=int, default=2000)
    args = p.parse_args(argv)

    import torch

    from npcompile._compile import compile as np_compile

    a, b = np.random.rand(args.n), np.random.rand(args.n)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)

    def kt(x, y):
        return torch.sin(x) * y + 1.0

    contenders = {
        "numpy": (k3, (a, b)),
        "npcompile.compile": (np_compile(k3, backend=args.backend), (a, b)),
        "torch.compile (numpy code)": (torch.compile(k3, backend=args.backend), (a, b)),
        "torch.compile (torch code, tensors)": (torch.compile(kt, backend=args.backend), (ta, tb)),
    }
    for f, xs in contenders.values():
        for _ in range(5):
            f(*xs)
    best = {k: float("inf") for k in contenders}
    for _ in range(args.rounds):
        for name, (f, xs) in contenders.items():
            best[name] = min(best[name], _batch(f, xs, args.calls))
    print(f"per-call time, {args.n} float64 elements, backend={args.backend} (min over {args.rounds} rounds, CPU µs)")
    for name, us in best.items():
        print(f"  {name:38s} {us:8.1f} µs")
    r = best["torch.compile (numpy code)"] / best["npcompile.compile"]
    print(f"  torch.compile / npcompile.compile on the same NumPy code: {r:.2f}x")
    return best


if __name__ == "__main__":
    main()
