"""Per-call overhead of a compiled function on tiny inputs: a 3-op NumPy function on 16-element arrays,
where the work is nothing and the time is guard checks, NumPy<->tensor conversion and dispatch. Both
compilers are warmed up first, so no compile time is included.

    python -m benchmarks.overhead [--repeat 7]
"""
import argparse
import os
import sys

import numpy as np

if __package__ in (None, ""):  # allow `python benchmarks/overhead.py`
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "benchmarks"

from .timing import per_call  # noqa: E402


def f(a, b):
    return np.sin(a) * b + 1.0


def _err(e):
    return f"ERR: {type(e).__name__}: {str(e).strip().splitlines()[0][:100] if str(e).strip() else ''}"


def candidates():
    """label -> callable (or an error string); each compiled one wraps its own copy of f."""
    from .columns import fresh_function

    out = {"numpy": f}
    try:
        import npcompile
        out["npcompile.compile"] = npcompile.compile(fresh_function(f))
    except Exception as e:  # noqa: BLE001 - npcompile.compile may not exist yet
        out["npcompile.compile"] = _err(e)
    try:
        import torch
        out["torch.compile"] = torch.compile(fresh_function(f))
    except Exception as e:  # noqa: BLE001
        out["torch.compile"] = _err(e)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=7)
    a = p.parse_args(argv)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(16), rng.standard_normal(16)
    ref = f(x, y)
    times, notes = {}, []
    for label, fn in candidates().items():
        if isinstance(fn, str):
            times[label] = fn
            continue
        try:
            for _ in range(3):  # compile, then settle
                out = fn(x, y)
            if not np.allclose(np.asarray(out), ref):
                notes.append(f"{label}: result differs from NumPy")
            times[label] = per_call("fn(x, y)", {"fn": fn, "x": x, "y": y}, repeat=a.repeat) * 1e6
        except Exception as e:  # noqa: BLE001
            times[label] = _err(e)
    base = times.get("numpy")
    print("def f(a, b): return np.sin(a) * b + 1.0   on 16-element float64 arrays, warmed up; "
          f"median of {a.repeat} timeit repeats\n")
    print(f"{'':18s} {'us/call':>9s} {'vs numpy':>9s}")
    for label, t in times.items():
        if isinstance(t, float):
            print(f"{label:18s} {t:9.2f} {t / base:8.1f}x")
        else:
            print(f"{label:18s} {t}")
    a_, b_ = times.get("npcompile.compile"), times.get("torch.compile")
    if isinstance(a_, float) and isinstance(b_, float):
        print(f"\ntorch.compile / npcompile.compile: {b_ / a_:.2f} (>1: npcompile has less overhead)")
    for n in notes:
        print(f"note: {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
