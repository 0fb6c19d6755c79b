"""Per-call overhead of a compiled function on tiny inputs: NumPy, ``npcompile.compile`` and ``torch.compile``
on ``np.sin(a) * b + 1.0`` with 16-element arrays, warmed up.  The measurement is
``npcompile.tracing.overhead`` (one implementation; see its docstring for the method).

    python -m benchmarks.overhead [--repeat 7] [--backend inductor]
"""
import argparse
import os
import sys

if __package__ in (None, ""):  # allow `python benchmarks/overhead.py`
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=7, help="interleaved timing rounds (the minimum is reported)")
    p.add_argument("--backend", default="inductor")
    a = p.parse_args(argv)
    from npcompile.tracing import overhead

    overhead.report(overhead.measure(a.backend, rounds=a.repeat), a.backend, 16, a.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
