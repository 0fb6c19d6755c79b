"""How much of NumPy's public API the shim covers: ``python -m npcompile._numpy.coverage``.

Lists every public callable (function, class, ufunc) of the installed NumPy's ``numpy``, ``numpy.linalg``,
``numpy.fft`` and ``numpy.random`` as ``implemented``, ``unsupported`` (by design, with the reason from
``_unsupported.REASONS``) or ``missing``, then one line of counts.  ``--missing`` prints only what is missing.
"""

from __future__ import annotations

import sys

import numpy

import npcompile._numpy as shim
from npcompile._numpy._unsupported import REASONS

MODULES = (("", numpy, shim), ("linalg", numpy.linalg, shim.linalg), ("fft", numpy.fft, shim.fft),
           ("random", numpy.random, shim.random))


def public_callables(module):
    """NumPy's public callables of ``module`` (submodules and constants excluded)."""
    return sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))
                  and not isinstance(getattr(module, n), type(numpy)))


def classify():
    """``[(qualified name, status, reason)]`` for every public callable; status is 'implemented',
    'unsupported' or 'missing'."""
    rows = []
    for prefix, np_mod, shim_mod in MODULES:
        for name in public_callables(np_mod):
            key = f"{prefix}.{name}" if prefix else name
            if key in REASONS:
                rows.append((key, "unsupported", REASONS[key]))
            elif hasattr(shim_mod, name):
                rows.append((key, "implemented", ""))
            else:
                rows.append((key, "missing", ""))
    return rows


def summary(rows):
    counts = {s: sum(1 for r in rows if r[1] == s) for s in ("implemented", "unsupported", "missing")}
    return (f"implemented: {counts['implemented']}, unsupported by design: {counts['unsupported']}, "
            f"missing: {counts['missing']} (of {len(rows)} public callables of numpy {numpy.__version__})")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    rows = classify()
    width = max(len(r[0]) for r in rows) + 7
    for key, status, reason in rows:
        if "--missing" in argv and status != "missing":
            continue
        line = f"{'numpy.' + key:<{width}} {status}"
        print(f"{line}  ({reason})" if reason else line)
    print(summary(rows))


if __name__ == "__main__":
    main()
