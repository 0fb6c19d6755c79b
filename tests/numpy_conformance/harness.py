"""Differential testing against the installed NumPy: run one call in both, compare everything it returns.

    assert_matches(lambda xp, a: xp.sum(a, axis=0), a)

runs the function with ``xp = numpy`` on the NumPy inputs and with ``xp = npcompile._numpy`` on converted
inputs, then compares values (exact for integers and bools, tight tolerance for floats), dtype and shape, and,
when NumPy raises, that the shim raises the same exception type.

With ``NPC_CONFORMANCE_COMPILED=1`` the other side is the compile path instead: ``fn`` written against real NumPy,
compiled (``npcompile.compile(..., backend="eager")``) and called on copies of the NumPy inputs, its NumPy results
compared just as strictly.  Tests that build shim objects themselves (``to_shim``) are skipped there.
"""

from __future__ import annotations

import os

import numpy
import pytest

import npcompile
import npcompile._numpy as shim
from npcompile._numpy import ndarray
from npcompile._numpy._ndarray import is_array0d

FLOAT_TOL = {numpy.dtype("float16"): (2e-3, 2e-3), numpy.dtype("float32"): (2e-5, 1e-5),
             numpy.dtype("complex64"): (2e-5, 1e-5)}
DEFAULT_TOL = (1e-10, 1e-12)
COMPILED = os.environ.get("NPC_CONFORMANCE_COMPILED") == "1"


def to_shim(x):
    """NumPy inputs to shim inputs (arrays, also inside tuples/lists/dicts); other values unchanged."""
    if COMPILED:
        pytest.skip("calls the shim directly: the eager run covers it")
    return _convert(x, lambda a: shim.asarray(_strided_copy(a)), lambda g: getattr(shim, g.dtype.name)(g))


def _convert(x, array, scalar=lambda g: g):
    """``x`` with its arrays and NumPy scalars (also inside tuples/lists/dicts) mapped by ``array``/``scalar``."""
    if isinstance(x, numpy.ndarray):
        return array(x)  # to_shim's: a copy, in-place shim calls must not disturb the NumPy side
    if isinstance(x, numpy.generic):
        return scalar(x)  # to_shim's: a scalar (asarray would make a 0-d array of it)
    if isinstance(x, tuple):
        return tuple(_convert(e, array, scalar) for e in x)
    if isinstance(x, list):
        return [_convert(e, array, scalar) for e in x]
    if isinstance(x, dict):
        return {k: _convert(v, array, scalar) for k, v in x.items()}
    return x


def _strided_copy(x):
    """A copy of ``x`` with the same strides, so non-contiguous inputs stay non-contiguous on the shim side."""
    if x.flags.c_contiguous or x.size == 0 or min(x.strides) < 0 or any(s % x.itemsize for s in x.strides):
        return x.copy()
    span = 1 + sum((n - 1) * s for n, s in zip(x.shape, x.strides)) // x.itemsize
    y = numpy.lib.stride_tricks.as_strided(numpy.empty(span, x.dtype), x.shape, x.strides)
    y[...] = x
    return y


def _kind(x):
    """'array', 'NumPy scalar' or the Python type's name (the shim's NumPy scalars are its 0-d arrays that are
    not is_array0d)."""
    if isinstance(x, ndarray):
        return "NumPy scalar" if x.ndim == 0 and not is_array0d(x) else "array"
    return "array" if isinstance(x, numpy.ndarray) else "NumPy scalar" if isinstance(x, numpy.generic) \
        else type(x).__name__


def assert_same(expected, actual, rtol=None, atol=None, path="result"):
    """``actual`` (from the shim or the compiled function) equals ``expected`` (from NumPy) in kind, dtype, shape
    and value."""
    if isinstance(expected, (numpy.ndarray, numpy.generic)):
        assert _kind(actual) == _kind(expected), f"{path}: a {_kind(actual)}, NumPy gives a {_kind(expected)}"
        got = numpy.asarray(actual)
        exp = numpy.asarray(expected)
        assert got.dtype == exp.dtype, f"{path}: dtype {got.dtype} != NumPy's {exp.dtype}"
        assert got.shape == exp.shape, f"{path}: shape {got.shape} != NumPy's {exp.shape}"
        if exp.dtype.kind in "fc":
            r, a = FLOAT_TOL.get(exp.dtype, DEFAULT_TOL)
            r, a = rtol if rtol is not None else r, atol if atol is not None else a
            if exp.dtype.kind == "c":  # allclose wants complex infinities exact in both parts: compare apart
                inf = (numpy.isinf(exp) | numpy.isinf(got)) & ~(numpy.isnan(exp) & numpy.isnan(got))  # (NaNs: any)
                for part in ("real", "imag"):
                    numpy.testing.assert_allclose(getattr(got[inf], part), getattr(exp[inf], part), rtol=r, atol=a,
                                                  equal_nan=True, err_msg=f"{path} (infinities, .{part})")
                got, exp = numpy.where(inf, 0, got), numpy.where(inf, 0, exp)
            numpy.testing.assert_allclose(got, exp, rtol=r, atol=a, equal_nan=True, err_msg=path)
        else:
            numpy.testing.assert_array_equal(got, exp, err_msg=path, strict=True)
    elif isinstance(expected, (tuple, list)):
        assert type(actual) is type(expected) or (isinstance(actual, tuple) and isinstance(expected, tuple)), \
            f"{path}: {type(actual).__name__} != NumPy's {type(expected).__name__}"
        assert len(actual) == len(expected), f"{path}: length {len(actual)} != {len(expected)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_same(e, a, rtol, atol, f"{path}[{i}]")
    elif isinstance(expected, dict):
        assert set(actual) == set(expected), f"{path}: keys differ"
        for k in expected:
            assert_same(expected[k], actual[k], rtol, atol, f"{path}[{k!r}]")
    elif isinstance(expected, float) and isinstance(actual, float):
        numpy.testing.assert_allclose(actual, expected, rtol=rtol or 1e-12, atol=atol or 0, err_msg=path)
    else:
        assert type(actual) is type(expected), f"{path}: {type(actual).__name__} != {type(expected).__name__}"
        assert actual == expected or (actual != actual and expected != expected), f"{path}: {actual!r} != {expected!r}"


def leaves(x):
    """The values in a result or an argument list, nested tuples, lists and dicts walked through."""
    if isinstance(x, (tuple, list)):
        for v in x:
            yield from leaves(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from leaves(v)
    else:
        yield x


def _same_memory_relations(expected, actual, np_args, other_args):
    """Each result array shares memory with each argument array where NumPy's does (so a write through one
    reaches the other, or not, alike) and is writeable where NumPy's is.  NumPy's results with negative strides
    are copies here (a documented deviation)."""
    for i, (e, a) in enumerate(zip(leaves(expected), leaves(actual))):
        if not isinstance(e, numpy.ndarray) or e.size == 0 or any(s < 0 for s in e.strides):
            continue
        assert bool(a.flags.writeable) == bool(e.flags.writeable), f"result {i}: writeable {a.flags.writeable}"
        shares = shim.shares_memory if isinstance(a, ndarray) else numpy.shares_memory
        for j, (x, y) in enumerate(zip(np_args, other_args)):
            if isinstance(x, numpy.ndarray) and x.size:
                assert shares(a, y) == numpy.shares_memory(e, x), \
                    f"result {i} and argument {j}: shares memory {shares(a, y)}, NumPy's {not shares(a, y)}"


def _other_side(fn):
    """The call compared with NumPy's and its argument conversion: the shim's, or (COMPILED) ``fn`` on real NumPy
    compiled, on copies.  Dynamo's caches are emptied first: the harness's code objects would hit its recompile
    limit, and a fallback to NumPy would compare NumPy with itself."""
    if not COMPILED:
        return lambda *a, **k: fn(shim, *a, **k), to_shim
    npcompile.reset()
    return npcompile.compile(lambda *a, **k: fn(numpy, *a, **k), backend="eager"), \
        lambda x: _convert(x, _strided_copy)


def assert_matches(fn, *args, rtol=None, atol=None, check_inputs=False, **kwargs):
    """Run ``fn(xp, *args, **kwargs)`` with NumPy and with the shim; compare results or exception types.

    ``check_inputs=True`` also compares the (possibly mutated) array arguments afterwards, for in-place calls.
    """
    call, convert = _other_side(fn)
    np_args = [_strided_copy(a) if isinstance(a, numpy.ndarray) else a for a in args]
    sh_args = convert(list(args))
    try:
        with numpy.errstate(all="ignore"):
            expected = fn(numpy, *np_args, **kwargs)
    except Exception as e:  # NumPy's exception type is the oracle
        with pytest.raises(type(e)):
            call(*sh_args, **convert(kwargs))
        return None
    actual = call(*sh_args, **convert(kwargs))
    assert_same(expected, actual, rtol, atol)
    _same_memory_relations(expected, actual, np_args, sh_args)
    if check_inputs:
        for i, (e, a) in enumerate(zip(np_args, sh_args)):
            if isinstance(e, numpy.ndarray):
                assert_same(e, a, rtol, atol, f"argument {i} after the call")
    return actual
