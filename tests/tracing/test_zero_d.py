"""Scalars and 0-d arrays in compiled code: an in-place operator writes into a 0-d array but makes a new scalar,
as in NumPy, and a 0-d array result comes back as a 0-d array, a scalar result as a NumPy scalar."""

import numpy as np
import pytest

from npcompile import _compile as C

from .conftest import RecordingBackend, same


def _int_accumulator_takes_a_float(a):
    s = a.sum()
    s += 0.5  # an int64 scalar: becomes a float64 scalar (an array would raise)
    return s


def _old_binding_keeps_its_value(a):
    b = a.max()
    old = b
    b *= 2
    x = a[1]
    x += 10
    return old, b, x, a


def _arrays_are_written(a, z):
    w = z
    z += a.sum()  # the caller's 0-d array
    y = np.zeros(())
    y2 = y
    y += 1
    v = a[..., 0]  # a 0-d view of the argument
    v += 5
    return w, y2, np.asarray(a.sum()), a


def _in_a_loop(a):
    total = a[0]
    seen = []
    for v in a[:3]:
        seen.append(total)
        total += v
    return total, seen


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("fn,make", [
    (_int_accumulator_takes_a_float, lambda: (np.arange(4),)),
    (_old_binding_keeps_its_value, lambda: (np.arange(4.0),)),
    (_arrays_are_written, lambda: (np.arange(4.0), np.array(1.0))),
    (_in_a_loop, lambda: (np.arange(1.0, 5.0),)),
], ids=lambda x: getattr(x, "__name__", ""))
def test_inplace_operators_on_scalars_and_0d_arrays_match_numpy(fn, make, backend):
    want_args, got_args = make(), make()
    want = fn(*want_args)
    got = C.compile(fn, backend=backend)(*got_args)
    assert same(got, want), (got, want)
    assert same(got_args, want_args)


def _builtin_abs(a):
    s = 0.0
    for v in a[:3]:
        s += abs(v)
    return abs(a[0]), abs(a), abs(a[1:3].sum()) + 1.0, s, abs(np.int8(-5) * a.astype(np.int8)[:2])


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_builtin_abs_gives_numpy_values(backend):
    """``abs(a)`` goes through Python's number protocol (torch 2.13's object_protocol), not the operator path."""
    a = np.array([-1.5, 2.0, -3.25, 4.0])
    want = _builtin_abs(a.copy())
    got = C.compile(_builtin_abs, backend=backend)(a.copy())
    assert same(got, want), (got, want)


def _rounded(a):
    i = a.astype(np.int64)
    return round(a[0]), round(a[1]), round(np.floor(a[2] * 3)) + 1, round(i[3] + 2**60), np.zeros(round(a[0])), \
        round(a[2], 1)


def test_builtin_round_of_a_scalar_is_one_graph():
    """``round(x)`` of a NumPy scalar is a Python int, half to even, computed in the graph."""
    a = np.array([2.5, -0.5, 1.7, 3.0])
    want = _rounded(a)
    rec = RecordingBackend()
    got = C.compile(_rounded, backend=rec)(a)
    assert same(got, want), (got, want)
    assert len(rec.graphs) == 1


@pytest.mark.parametrize("value", [np.array([np.nan]), np.array([np.inf]), np.array([True]), np.array([1 + 2j])],
                         ids=["nan", "inf", "bool", "complex"])
def test_builtin_round_errors_are_numpys(value):
    with pytest.raises(Exception) as want:
        round(value[0])
    with pytest.raises(want.type):
        C.compile(lambda v: round(v[0]), backend="aot_eager")(value)
    with pytest.raises(TypeError):
        C.compile(lambda v: round(v), backend="aot_eager")(value)


def _types(x, z):
    s = x[0]
    return (isinstance(s, np.floating), isinstance(s, np.ndarray), isinstance(s, (int, float)), type(s).__name__,
            type(x.sum()) == np.float64, isinstance(x.astype(np.int32)[1], np.signedinteger),  # (2.11: `is` False)
            isinstance(np.float32(2), np.float32), isinstance(z, np.ndarray), isinstance(z, np.generic),
            isinstance(np.zeros(()), np.ndarray), isinstance(x[..., 0], np.ndarray), isinstance(x, np.number))


def test_type_and_isinstance_tell_scalars_from_0d_arrays():
    x, z = np.arange(3.0), np.array(5.0)
    want = _types(x, z)
    rec = RecordingBackend()
    assert C.compile(_types, backend=rec)(x, z) == want
    assert len(rec.graphs) <= 1  # (everything here is a constant: there may be no graph at all)


def _products(x):
    import math

    return math.prod(x), math.prod(x[:2], start=2), math.prod([x[0], x[1], 3]), math.prod(x.astype(np.int8)), \
        math.prod(x.shape) * x


def test_math_prod_of_arrays_gives_numpy_scalars():
    x = np.arange(1.0, 5.0)
    rec = RecordingBackend()
    got = C.compile(_products, backend=rec)(x)
    assert same(got, _products(x)), got
    assert len(rec.graphs) == 1
