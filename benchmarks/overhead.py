"""Per-call overhead of a compiled function on tiny inputs: NumPy, ``npcompile.compile`` and ``torch.compile``
on ``np.sin(a) * b + 1.0`` with 16-element arrays, warmed up.  The measurement is
``npcompile.tracing.overhead`` (one implementation; see its docstring for the method).  Two more rows: a
function with an outlined loop (``stepped``, see below) run for 0 and 10 iterations, whose fixed cost is the
calls around the loop's graph break.

    python -m benchmarks.overhead [--repeat 7] [--backend inductor]
"""
import argparse
import os
import sys

if __package__ in (None, ""):  # allow `python benchmarks/overhead.py`
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def stepped(x, n):
    y = x * 2
    for i in range(n):
        y = y + x[i]
    return y + 3


def _loop_rows(backend: str, rounds: int, calls: int = 1000) -> dict:
    """``stepped`` for n = 0 and 10, NumPy and compiled: minimum CPU µs per call (batches interleaved)."""
    import numpy as np

    from npcompile._compile import compile as np_compile
    from npcompile.tracing.overhead import _batch

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


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=7, help="interleaved timing rounds (the minimum is reported)")
    p.add_argument("--backend", default="inductor")
    a = p.parse_args(argv)
    from npcompile.tracing import overhead

    overhead.report(overhead.measure(a.backend, rounds=a.repeat), a.backend, 16, a.repeat)
    print()
    for name, us in _loop_rows(a.backend, a.repeat).items():
        print(f"  {name:40s} {us:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
