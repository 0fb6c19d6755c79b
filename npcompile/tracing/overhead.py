"""Per-call overhead of ``npcompile.compile`` vs ``torch.compile`` on a tiny NumPy function (the one
implementation behind both commands below).

    python -m npcompile.tracing.overhead [--backend inductor] [--n 16] [--rounds 15] [--calls 2000]
    python -m benchmarks.overhead [--repeat 7]

``k3(a, b) = np.sin(a) * b + 1.0`` on 16 float64 elements (also with ``b`` a module-level array), so the time is nearly all per-call overhead (guards,
ndarray <-> tensor conversion, launching the kernel).  Each compiler wraps its own copy of ``k3`` (Dynamo caches
per code object) and is warmed up first, so no compile time is included; each result is checked against NumPy.
Batches of the contenders are interleaved and the minimum per-call CPU time of this process over the rounds is
reported (robust to other load on the machine).
"""

from __future__ import annotations

import argparse
import time
import types

import numpy as np


def k3(a, b):
    return np.sin(a) * b + 1.0


B = np.random.default_rng(1).random(16)  # a module-level array (resized by ``measure`` to ``n``)


def k3_global(a):
    return np.sin(a) * B + 1.0


def _copy(fn):
    return types.FunctionType(fn.__code__.replace(), fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


def _batch(f, args, n):
    t = time.process_time()
    for _ in range(n):
        f(*args)
    return (time.process_time() - t) / n * 1e6


def measure(backend: str = "inductor", n: int = 16, rounds: int = 15, calls: int = 2000) -> dict:
    """Contender name -> minimum CPU µs per call."""
    import torch

    from npcompile._compile import compile as np_compile

    global B
    rng = np.random.default_rng(0)
    a, b = rng.random(n), rng.random(n)
    B = b
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)

    def kt(x, y):
        return torch.sin(x) * y + 1.0

    contenders = {
        "numpy": (k3, (a, b)),
        "npcompile.compile": (np_compile(_copy(k3), backend=backend), (a, b)),
        "npcompile.compile (b a module global)": (np_compile(k3_global, backend=backend), (a,)),
        "torch.compile (numpy code)": (torch.compile(_copy(k3), backend=backend), (a, b)),
        "torch.compile (torch code, tensors)": (torch.compile(kt, backend=backend), (ta, tb)),
    }
    expected = k3(a, b)
    for name, (f, xs) in contenders.items():
        for _ in range(5):
            out = f(*xs)  # (the same answer from k3_global: B is b)
        out = out.numpy() if isinstance(out, torch.Tensor) else out
        if not np.allclose(out, expected):
            raise AssertionError(f"{name}: result differs from NumPy")
    best = {k: float("inf") for k in contenders}
    for _ in range(rounds):
        for name, (f, xs) in contenders.items():
            best[name] = min(best[name], _batch(f, xs, calls))
    return best


def report(best: dict, backend: str, n: int, rounds: int) -> None:
    print(f"def k3(a, b): return np.sin(a) * b + 1.0   on {n} float64 elements, backend={backend}, warmed up\n"
          f"per-call CPU time, minimum over {rounds} rounds\n")
    print(f"  {'':38s} {'µs/call':>8s} {'vs numpy':>9s}")
    for name, us in best.items():
        print(f"  {name:38s} {us:8.1f} {us / best['numpy']:8.1f}x")
    r = best["torch.compile (numpy code)"] / best["npcompile.compile"]
    print(f"\n  torch.compile / npcompile.compile on the same NumPy code: {r:.2f}x (>1: npcompile has less overhead)")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", default="inductor")
    p.add_argument("--n", type=int, default=16)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--calls", type=int, default=2000)
    args = p.parse_args(argv)
    best = measure(args.backend, args.n, args.rounds, args.calls)
    report(best, args.backend, args.n, args.rounds)
    return best


if __name__ == "__main__":
    main()
