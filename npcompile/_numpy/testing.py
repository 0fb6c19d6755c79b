"""``numpy.testing`` for shim arrays: the assertions accept our arrays and NumPy's alike.

Our arrays (also inside lists, tuples and dicts) are converted to NumPy arrays and the call is delegated to
``numpy.testing``, so messages and tolerances are NumPy's own.  Helpers that take no arrays are NumPy's.
"""

from __future__ import annotations

import functools

import numpy.testing as _nt
from numpy.testing import (  # noqa: F401  (re-exported: they take no arrays)
    IS_PYPY, HAS_REFCOUNT, SkipTest, KnownFailureException, assert_, assert_no_gc_cycles, assert_no_warnings,
    assert_raises, assert_raises_regex, assert_string_equal, assert_warns, break_cycles,
    clear_and_catch_warnings, suppress_warnings, verbose,
)

from ._ndarray import ndarray


def _to_numpy(x):
    if isinstance(x, ndarray):
        return x.__array__()
    if type(x) in (list, tuple):
        return type(x)(_to_numpy(e) for e in x)
    if type(x) is dict:
        return {k: _to_numpy(v) for k, v in x.items()}
    return x


def _accepting_shim_arrays(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        __tracebackhide__ = True  # pytest shows the caller's line
        return f(*(_to_numpy(a) for a in args), **{k: _to_numpy(v) for k, v in kwargs.items()})
    wrapper.__module__ = __name__
    return wrapper


_ARRAY_ASSERTIONS = [
    "assert_allclose", "assert_almost_equal", "assert_approx_equal", "assert_array_almost_equal",
    "assert_array_almost_equal_nulp", "assert_array_compare", "assert_array_equal", "assert_array_less",
    "assert_array_max_ulp", "assert_equal", "print_assert_equal",
]
globals().update({name: _accepting_shim_arrays(getattr(_nt, name)) for name in _ARRAY_ASSERTIONS})

__all__ = _ARRAY_ASSERTIONS + [
    "IS_PYPY", "HAS_REFCOUNT", "SkipTest", "KnownFailureException", "assert_", "assert_no_gc_cycles",
    "assert_no_warnings", "assert_raises", "assert_raises_regex", "assert_string_equal", "assert_warns",
    "break_cycles", "clear_and_catch_warnings", "suppress_warnings", "verbose",
]
