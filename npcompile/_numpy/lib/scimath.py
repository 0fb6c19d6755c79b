"""``numpy.lib.scimath`` (``numpy.emath``): square root, logarithms, power and the inverse sine, cosine and
hyperbolic tangent that answer in complex numbers where a real input lies outside the real domain.  The input
(and power's exponent) becomes an array first, as NumPy's (so a Python exponent is not weak: float32 ** 2 gives
float64); if any element is outside, the whole array turns complex (complex64 from the small integers and
float32, complex128 otherwise).  The values choose the result's dtype, which a trace cannot know: traced, these
are unsupported and NumPy runs them."""

from __future__ import annotations

import numpy as _np

from ..._errors import UnsupportedFeature
from .. import _ufuncs as U
from .._creation import asarray
from .._trace import is_tracing

__all__ = ["arccos", "arcsin", "arctanh", "log", "log10", "log2", "logn", "power", "sqrt"]

_TO_COMPLEX64 = frozenset(_np.dtype(c) for c in "bBhHfF")


def _complex_if(x, outside):
    """``x`` as an array, complex if any of its elements is ``outside`` the real domain."""
    a = asarray(x)
    if a.dtype.kind == "c":
        return a
    if is_tracing(a.tensor):
        raise UnsupportedFeature("numpy.emath (numpy.lib.scimath) under tracing: the values choose the dtype")
    if bool(outside(a).tensor.any()):
        return a.astype(_np.complex64 if a.dtype in _TO_COMPLEX64 else _np.complex128)
    return a


def _negative(a):
    return U.less(a, 0)


def _beyond_one(a):
    return U.greater(U.absolute(a), 1)


def sqrt(x):
    return U.sqrt(_complex_if(x, _negative))


def log(x):
    return U.log(_complex_if(x, _negative))


def log10(x):
    return U.log10(_complex_if(x, _negative))


def log2(x):
    return U.log2(_complex_if(x, _negative))


def logn(n, x):
    """The logarithm of ``x`` to base ``n``: log(x) / log(n)."""
    return U.divide(log(x), log(n))


def power(x, p):
    """x ** p; a negative integer exponent turns float64 (NumPy refuses integers to negative powers)."""
    p = asarray(p)
    if p.dtype.kind in "iu":
        if is_tracing(p.tensor):
            raise UnsupportedFeature("numpy.emath.power under tracing: the values choose the dtype")
        if bool(_negative(p).tensor.any()):
            p = p.astype(_np.float64)
    return U.power(_complex_if(x, _negative), p)


def arccos(x):
    return U.arccos(_complex_if(x, _beyond_one))


def arcsin(x):
    return U.arcsin(_complex_if(x, _beyond_one))


def arctanh(x):
    return U.arctanh(_complex_if(x, _beyond_one))
