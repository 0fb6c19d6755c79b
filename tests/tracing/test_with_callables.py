"""NumPy functions given a Python function (tracing/_with_callables): traced through, the function inlined where
NumPy calls it, in one graph; NumPy's values, dtypes, shapes and errors."""

import numpy as np
import pytest

from npcompile import _compile as C

from .conftest import same


def _grid(k):
    return np.fromfunction(lambda i, j: i * 10 + j + k[0], (3, 4)), np.fromfunction(np.maximum, (2, 3), dtype=int)


def _along(a, axis):
    return (np.apply_along_axis(lambda r: r[:2] * r.sum(), axis, a),
            np.apply_along_axis(lambda r: r.max() > 12, axis, a),  # a scalar per slice: bool
            np.apply_along_axis(np.cumsum, axis, a),
            np.apply_along_axis(lambda r, s: (r * s).astype(np.float32), axis, a, 0.5))  # extra arguments


def _over(a):
    return np.apply_over_axes(np.sum, a, [0, 2]), np.apply_over_axes(np.mean, a, -1), \
        np.apply_over_axes(lambda v, ax: v.max(axis=ax, keepdims=True), a, (1,))


def _one_graph(fn, *args):
    rep = C.explain(fn, backend="aot_eager")(*args)
    assert same(rep.result, fn(*args)), (rep.result, fn(*args))
    assert rep.graph_count == 1 and not rep.graph_breaks and not rep.fallbacks, rep


def test_a_function_given_to_numpy_is_traced_into_the_graph():
    """These calls ran wholly in real NumPy: the lambda could not be a graph node's argument."""
    _one_graph(_grid, np.arange(3.0))
    a = np.arange(24.0).reshape(2, 3, 4)
    for axis in (0, 1, -1):
        _one_graph(_along, a, axis)
    _one_graph(_over, a)


def test_numpys_errors():
    f = C.compile(_along, backend="aot_eager")
    with pytest.raises(np.exceptions.AxisError):
        f(np.ones((2, 3)), 2)
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        np.apply_along_axis(np.sum, 1, np.ones((0, 3)))  # the oracle
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        f(np.ones((0, 3)), 1)
    g = C.compile(lambda a: np.apply_over_axes(lambda v, ax: v.sum(axis=ax).sum(), a, [0, 1]), backend="aot_eager")
    with pytest.raises(ValueError, match="correct shape"):
        g(np.ones((2, 3, 4)))


def test_many_slices_run_in_numpy():
    """Over more than MAX_CALLS slices the trace would grow with the array: the call runs in real NumPy."""
    a = np.random.default_rng(0).random((100, 3))
    rep = C.explain(lambda a: np.apply_along_axis(lambda r: r.sum() * 2, 1, a), backend="aot_eager")(a)
    assert same(rep.result, np.apply_along_axis(lambda r: r.sum() * 2, 1, a))
    assert rep.fallbacks


def _tiers(k):
    return (np.piecewise(k, [k < 100, k >= 100], [lambda v: 0.1 * v, lambda v: 10 + 0.15 * (v - 100)]) + 1,
            np.piecewise(k, [k < 0, k > 1e9], [lambda v: np.sin(v) ** 2, 7]),  # nothing selected; an "otherwise"
            np.piecewise(k.astype(np.int64), [k < 300], [lambda v: v / 2, lambda v: -v]),  # cast into int64
            np.piecewise(k, [k.astype(np.int64) % 3, k * 0.5 - 150], [lambda v: -v, 1, 2]))  # nonzero selects


def _peaks(k):
    return np.piecewise(k, [k < 100], [lambda v: v.max(), 0])


def test_piecewise_with_elementwise_functions_is_traced_through():
    """piecewise calls a function only where its condition selects something (a test on the data): traced
    through only when every function is arithmetic on its argument and NumPy ufuncs, which called on nothing
    change nothing; other functions run with the call in real NumPy, and explain says so (it said "non-array
    argument (ndarray subclass...)")."""
    k = np.random.default_rng(0).uniform(0, 600, 25)
    _one_graph(_tiers, k)
    rep = C.explain(_peaks, backend="aot_eager")(k)
    assert same(rep.result, _peaks(k))
    assert [e.feature for e in rep.fallbacks] == ["numpy.piecewise given a Python function"], rep
    with pytest.raises(ValueError):
        C.compile(lambda k: np.piecewise(k, [k < 1, k < 2], [lambda v: v]), backend="aot_eager")(k)


def _scaled_rows(a):
    return np.apply_along_axis(lambda r: r * r.sum(), 1, a)


def test_a_shape_dynamo_made_dynamic_is_specialized():
    """After calls with other shapes Dynamo traces sizes symbolically; apply_along_axis needs them to unroll its
    calls, so it fixes them (a guard) instead of running in NumPy."""
    for n in (3, 4, 5, 6):
        a = np.arange(n * 2.0).reshape(n, 2)
        rep = C.explain(_scaled_rows, backend="aot_eager")(a)
        assert same(rep.result, _scaled_rows(a))
    assert not rep.fallbacks, rep


def test_which_functions_count_as_elementwise():
    from npcompile.tracing._with_callables import elementwise

    w = np.ones(3)
    yes = [lambda v: 0.1 * v, lambda v: 10 + 0.15 * (v - 100), lambda v: np.sin(v) ** 2 - np.exp(-v), lambda v: 0,
           lambda v: -v]
    no = [lambda v: v.max(), lambda v: v @ v, lambda v: v * w, lambda v: np.float64(v), lambda v: print(v),
          lambda v, s=2: v * s, lambda v: np.add.reduce(v), lambda v: np.sum(v), lambda v: "a", lambda v: np]
    assert [elementwise(f.__code__, f.__globals__) for f in yes] == [True] * len(yes)
    assert [elementwise(f.__code__, f.__globals__) for f in no] == [False] * len(no)
