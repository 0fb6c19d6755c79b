"""How much of NumPy's public API the shim covers: ``python -m npcompile._numpy.coverage``.

Lists every public callable (function, class, ufunc) of the installed NumPy's ``numpy``, ``numpy.linalg``,
``numpy.fft``, ``numpy.random``, ``numpy.polynomial`` (with its basis modules and ``polyutils``) and
``numpy.lib`` (with its numeric submodules) as ``implemented``, ``unsupported`` (by design, with the reason
from ``_unsupported.REASONS``) or ``missing``, then one line of counts.  ``--missing`` prints only what is
missing.

A name counts as implemented only if the shim's object does more than refuse: a function (or a class's
``__new__``/``__init__``) whose whole body is ``raise UnsupportedFeature(...)`` is reported unsupported, with
its message as the reason, however it got into the namespace.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
import types

import numpy

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from npcompile._numpy._unsupported import REASONS

MODULES = (("", numpy, shim), ("linalg", numpy.linalg, shim.linalg), ("fft", numpy.fft, shim.fft),
           ("random", numpy.random, shim.random), ("polynomial", numpy.polynomial, shim.polynomial),
           ("lib", numpy.lib, shim.lib), ("lib.stride_tricks", numpy.lib.stride_tricks, shim.lib.stride_tricks),
           ("lib.scimath", numpy.lib.scimath, shim.lib.scimath),
           ("lib.array_utils", numpy.lib.array_utils, shim.lib.array_utils),
           *((f"polynomial.{m}", getattr(numpy.polynomial, m), getattr(shim.polynomial, m))
             for m in ("polynomial", "chebyshev", "legendre", "laguerre", "hermite", "hermite_e", "polyutils")))


def public_callables(module):
    """NumPy's public callables of ``module`` (submodules and constants excluded)."""
    return sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))
                  and not isinstance(getattr(module, n), type(numpy)))


def refusal(obj):
    """The message of ``obj`` if all it does is ``raise UnsupportedFeature(message)`` (for a class: in its own
    ``__new__`` or ``__init__``), else None."""
    candidates = [vars(obj).get(n) for n in ("__new__", "__init__")] if isinstance(obj, type) else [obj]
    for fn in candidates:
        fn = getattr(fn, "__func__", fn)  # bound methods, staticmethod __new__
        if not isinstance(fn, types.FunctionType):
            continue
        try:
            node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
        except (OSError, TypeError, SyntaxError, IndexError):
            continue
        statements = getattr(node, "body", [])
        imported = {a.asname or a.name: a.name for s in statements if isinstance(s, (ast.Import, ast.ImportFrom))
                    for a in s.names}
        body = [s for s in statements if not isinstance(s, (ast.Import, ast.ImportFrom))
                and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]  # imports, docstring
        if len(body) == 1 and isinstance(body[0], ast.Raise) and isinstance(body[0].exc, ast.Call) \
                and _is_unsupported_feature(ast.unparse(body[0].exc.func).split(".")[-1], imported, fn):
            args = body[0].exc.args
            return args[0].value if args and isinstance(args[0], ast.Constant) else \
                ast.unparse(args[0]) if args else "UnsupportedFeature"
    return None


def _is_unsupported_feature(name, imported, fn):
    return imported.get(name, name) == "UnsupportedFeature" or fn.__globals__.get(name) is UnsupportedFeature


def classify():
    """``[(qualified name, status, reason)]`` for every public callable; status is 'implemented',
    'unsupported' or 'missing'."""
    rows = []
    for prefix, np_mod, shim_mod in MODULES:
        for name in public_callables(np_mod):
            key = f"{prefix}.{name}" if prefix else name
            ours = getattr(shim_mod, name, None)
            reason = REASONS.get(key) or (refusal(ours) if ours is not None else None)
            if reason:
                rows.append((key, "unsupported", reason))
            elif ours is not None:
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
