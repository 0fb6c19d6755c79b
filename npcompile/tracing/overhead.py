"""Per-call overhead of ``npcompile.compile`` vs ``torch.compile`` on a tiny NumPy function (the one
implementation behind both commands below).

    python -m npcompile.tracing.overhead [--backend inductor] [--n 16] [--rounds 15] [--calls 2000]
    python -m benchmarks.overhead [--repeat 7]

``k3(a, b) = np.sin(a) * b + 1.0`` on 16 float64 elements (also with ``b`` a module-level array), so the time is
nearly all per-call overhead (guards, ndarray <-> tensor conversion, launching the kernel).  Each compiler wraps
its own copy of ``k3`` (Dynamo caches per code object) and is warmed up first, so no compile time is included;
each result is checked against NumPy.  Batches of the contenders are interleaved and the minimum per-call CPU
time of this process over the rounds is reported (robust to other load on the machine).

Then a compiled Python loop, ``sweep``: ``npcompile.compile`` runs it in Python and calls its body, compiled
once (``tracing._loops``), per iteration; its time per iteration is that call's overhead.  Last, ``stepped``, a
function with such a loop, for 0 and 10 iterations: its fixed cost is the calls around the loop's graph break.
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


def sweep(x, b):
    for i in range(1, x.shape[0] - 1):
        x[i] = 0.5 * (x[i - 1] + x[i + 1]) + b[i]
    return x


def stepped(x, n):
    y = x * 2
    for i in range(n):
        y = y + x[i]
    return y + 3


_SWEEP_N = 50  # elements: 48 iterations


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
    best.update(_measure_loop(backend, rounds, max(1, calls // 50)))
    best.update(_measure_stepped(backend, rounds, max(1, calls // 2)))
    return best


def _measure_loop(backend: str, rounds: int, calls: int) -> dict:
    """Per iteration of ``sweep`` (see the module doc): NumPy's and the compiled loop's, minimum CPU µs."""
    from npcompile._compile import compile as np_compile

    rng = np.random.default_rng(2)
    x, b = rng.random(_SWEEP_N), rng.random(_SWEEP_N)
    compiled = np_compile(sweep, backend=backend)
    for _ in range(3):
        got = compiled(x.copy(), b)
    if not np.allclose(got, sweep(x.copy(), b)):
        raise AssertionError("compiled sweep: result differs from NumPy")
    per_iteration = calls * (_SWEEP_N - 2)
    best = {"numpy (loop, per iteration)": float("inf"), "npcompile.compile (loop, per iteration)": float("inf")}
    for _ in range(rounds):
        for name, f in zip(best, (sweep, compiled)):
            copies = [x.copy() for _ in range(calls)]
            t = time.process_time()
            for c in copies:
                f(c, b)
            best[name] = min(best[name], (time.process_time() - t) / per_iteration * 1e6)
    return best


def _measure_stepped(backend: str, rounds: int, calls: int) -> dict:
    """``stepped`` for n = 0 and 10 (see the module doc), NumPy and compiled: minimum CPU µs per call."""
    from npcompile._compile import compile as np_compile

    x = np.arange(16.0)
    compiled = np_compile(stepped, backend=backend)
    for n in (0, 10, 0, 10):
        if not np.array_equal(compiled(x, n), stepped(x, n)):
            raise AssertionError("compiled stepped: result differs from NumPy")
    rows = {f"{who} (outlined loop, n={n})": (f, n) for n in (0, 10)
            for who, f in (("numpy", stepped), ("npcompile.compile", compiled))}
    best = dict.fromkeys(rows, float("inf"))
    for _ in range(rounds):
        for name, (f, n) in rows.items():
            best[name] = min(best[name], _batch(f, (x, n), calls))
    return best


def report(best: dict, backend: str, n: int, rounds: int) -> None:
    print(f"def k3(a, b): return np.sin(a) * b + 1.0   on {n} float64 elements, backend={backend}, warmed up\n"
          f"per-call CPU time, minimum over {rounds} rounds\n")
    print(f"  {'':40s} {'µs/call':>8s} {'vs numpy':>9s}")
    for name, us in best.items():
        base = best["numpy " + name[name.index("("):] if "loop" in name else "numpy"]  # (the same loop's)
        print(f"  {name:40s} {us:8.1f} {us / base:8.1f}x")
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
