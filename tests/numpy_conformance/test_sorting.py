"""Differential tests for sorting and searching."""

from __future__ import annotations

import numpy
import pytest
from hypothesis import given, strategies as st

import npcompile._numpy as shim
from npcompile._numpy import _library
from tests.numpy_conformance.harness import assert_matches, to_shim
from tests.numpy_conformance.strategies import ALL, arrays, dtypes, shapes

NONCOMPLEX = [d for d in ALL if d.kind != "c"]


def small_values(dtype=dtypes(ALL), shape=shapes(max_dims=3, max_side=5)):
    """Arrays with many ties (stable order matters) and, for floats, NaNs, infinities and signed zeros."""
    @st.composite
    def draw(draw):
        a = draw(arrays(dtype, shape))
        if a.dtype.kind in "iu":  # signed ones also negative
            return a % 4 - (2 if a.dtype.kind == "i" else 0) if a.size else a
        if a.dtype.kind in "fc" and a.size and draw(st.booleans()):
            pool = numpy.array([0.0, -0.0, 1.0, numpy.nan, numpy.inf, -numpy.inf, 2.5])
            picks = draw(st.lists(st.integers(0, 6), min_size=a.size, max_size=a.size))
            vals = pool[picks].reshape(a.shape)
            if a.dtype.kind == "c":  # parts set separately: R+nanj stays what it says
                imag = pool[draw(st.lists(st.integers(0, 6), min_size=a.size, max_size=a.size))].reshape(a.shape)
                c = numpy.empty(a.shape, a.dtype)
                c.real, c.imag = vals, imag
                return c
            return vals.astype(a.dtype)
        return a
    return draw()


@given(data=st.data(), a=small_values())
def test_sort_argsort(data, a):
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    assert_matches(lambda xp, a: xp.sort(a, axis=axis), a)
    assert_matches(lambda xp, a: xp.sort(a, axis=axis, kind="stable"), a)
    assert_matches(lambda xp, a: xp.argsort(a, axis=axis, kind="stable"), a)
    assert_matches(lambda xp, a: xp.argsort(a, axis=axis, stable=True), a)
    # NumPy's own kernels on the CPU: the unstable kinds' very order of ties
    assert_matches(lambda xp, a: xp.argsort(a, axis=axis), a)
    assert_matches(lambda xp, a: xp.argsort(a, axis=axis, kind="heapsort"), a)


@given(data=st.data(), a=small_values())
def test_sort_argsort_by_torch(data, a):
    """Where NumPy's kernels do not run (another device, bfloat16, an array needing a gradient), torch's stable
    sort: NumPy's values, and indices that sort the array (the default kind may order ties differently)."""
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_library, "NUMPY_KERNELS", False)
        assert_matches(lambda xp, a: xp.sort(a, axis=axis), a)
        assert_matches(lambda xp, a: xp.argsort(a, axis=axis, kind="stable"), a)
        r = assert_matches(lambda xp, a: xp.argsort(a, axis=axis).shape, a)
        if r is not None and a.ndim:
            got = numpy.asarray(shim.argsort(shim.asarray(a), axis=axis))
            src = a.reshape(-1) if axis is None else a
            numpy.testing.assert_array_equal(numpy.take_along_axis(src, got, axis=0 if axis is None else axis),
                                             numpy.sort(a, axis=axis))


@given(a=small_values(shape=shapes(min_dims=1, max_dims=3, max_side=5)))
def test_sort_method_in_place(a):
    assert_matches(lambda xp, a: (a.sort(), a)[1], a)
    assert_matches(lambda xp, a: (a.sort(axis=0), a)[1], a)


@pytest.mark.parametrize("kw", [{"kind": "q"}, {"kind": "QUICK"}, {"kind": "x"}, {"kind": "quicksort", "stable": True},
                                {"stable": False}, {"order": "x"}, {"kind": "heapsort"}, {"kind": "mergesort"}])
def test_sort_arguments(kw):
    a = numpy.array([3, 1, 2])
    assert_matches(lambda xp, a: xp.sort(a, **kw), a)
    assert_matches(lambda xp, a: xp.argsort(a, **kw), a)
    assert_matches(lambda xp, a: xp.sort(a), numpy.array(1))
    assert_matches(lambda xp, a: xp.sort(a, axis=None), numpy.array(1))
    assert_matches(lambda xp, a: xp.argsort(a), numpy.array(1))


@given(data=st.data(), shape=shapes(min_dims=1, max_dims=2, max_side=5))
def test_lexsort(data, shape):
    n = data.draw(st.integers(1, 3))
    keys = [data.draw(small_values(dtypes(ALL), st.just(shape))) for _ in range(n)]
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    assert_matches(lambda xp, *k: xp.lexsort(k, axis=axis), *keys)


def test_lexsort_forms():
    for keys in [[], [[1, 2], [1, 2, 3]], [numpy.array(1)], numpy.array([[1, 2, 1], [3, 2, 1]]), numpy.array([1, 2])]:
        assert_matches(lambda xp: xp.lexsort(to_shim(keys) if xp is shim else keys))
    assert_matches(lambda xp, a: xp.lexsort([a], axis=0), numpy.array([[1, 2], [0, 1]]))
    assert_matches(lambda xp, a: xp.lexsort([a], axis=None), numpy.array([[1, 2], [0, 1]]))


@given(data=st.data(), a=small_values(dtypes(NONCOMPLEX + list(numpy.dtype(c) for c in "FD"))))
def test_partition(data, a):
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    n = a.size if axis is None else a.shape[axis] if -a.ndim <= axis < a.ndim else 1
    kth = data.draw(st.one_of(st.integers(-n - 1, n), st.lists(st.integers(-n, max(n - 1, -n)), min_size=1,
                                                                max_size=3)))
    expected = assert_matches(lambda xp, a: xp.sort(xp.partition(a, kth, axis=axis), axis=axis), a)
    if expected is None or a.size == 0:
        return
    got = numpy.asarray(shim.partition(shim.asarray(a), kth, axis=axis))
    srt = numpy.sort(a, axis=axis)
    ax = 0 if axis is None else axis
    for k in numpy.atleast_1d(kth):  # the partition property: the kth element is in its sorted place
        numpy.testing.assert_array_equal(numpy.take(got, k, axis=ax), numpy.take(srt, k, axis=ax))
    idx = numpy.asarray(shim.argpartition(shim.asarray(a), kth, axis=axis))
    src = a.reshape(-1) if axis is None else a
    for k in numpy.atleast_1d(kth):
        numpy.testing.assert_array_equal(numpy.take(numpy.take_along_axis(src, idx, ax), k, axis=ax),
                                         numpy.take(srt, k, axis=ax))


@pytest.mark.parametrize("kth,kw", [(3, {}), (-1, {}), (True, {}), (1, {"kind": "x"}), (1.0, {}), ([0, 2], {}),
                                    (0, {"axis": None})])
def test_partition_arguments(kth, kw):
    a = numpy.array([3, 1, 2])
    assert_matches(lambda xp, a: xp.sort(xp.partition(a, kth, **kw)), a)
    assert_matches(lambda xp, a: xp.sort(a[xp.argpartition(a, kth, **kw)]), a)
    assert_matches(lambda xp, a: xp.partition(a, 0), numpy.array(1))
    assert_matches(lambda xp, a: xp.partition(a, 0), numpy.zeros(0))


@given(data=st.data(), a=small_values(dtypes(ALL), shapes(min_dims=1, max_dims=1, max_side=8)))
def test_searchsorted(data, a):
    """Complex values too, in NumPy's order (real part, then imaginary, NaNs last by class)."""
    srt = numpy.sort(a)
    v = data.draw(st.one_of(small_values(dtypes(ALL), shapes(max_dims=2, max_side=4)), st.integers(-5, 300),
                            st.floats(allow_nan=True), st.complex_numbers(allow_nan=True), st.booleans()))
    side = data.draw(st.sampled_from(["left", "right"]))
    assert_matches(lambda xp, s, v: xp.searchsorted(s, v, side=side), srt, v)
    sorter = numpy.argsort(a, kind="stable")
    assert_matches(lambda xp, a, v, o: xp.searchsorted(a, v, side=side, sorter=o), a, v, sorter)


def test_searchsorted_arguments():
    a = numpy.array([1, 2, 3])
    for kw in [{"side": "L"}, {"side": "x"}, {"sorter": [0, 1]}, {"sorter": [0.0, 1, 2]}, {"sorter": [9, 9, 9]}]:
        assert_matches(lambda xp, a: xp.searchsorted(a, 1, **kw), a)
    assert_matches(lambda xp, a: xp.searchsorted(a, 1), numpy.zeros((2, 2)))
    assert_matches(lambda xp, a: xp.searchsorted(a, 1), numpy.array(1))
    assert_matches(lambda xp, a: xp.searchsorted(a, 300), numpy.array([1, 2, 200], numpy.uint8))
    assert_matches(lambda xp, a: xp.searchsorted(a, 1.5), numpy.array([1, 2, 3], numpy.int8))


def test_searchsorted_of_complex_orders_nan_classes_and_signed_zeros_as_numpy():
    parts = (-numpy.inf, -1.0, -0.0, 0.0, 2.0, numpy.inf, numpy.nan)
    values = numpy.array([complex(r, i) for r in parts for i in parts])
    for side in ("left", "right"):
        assert_matches(lambda xp, a, v: xp.searchsorted(a, v, side=side), numpy.sort(values), values)
        assert_matches(lambda xp, a, v: xp.searchsorted(a, v, side=side), numpy.sort(values[::3]).astype("F"),
                       values[::2].reshape(5, 5))
        assert_matches(lambda xp, a, v, o: xp.searchsorted(a, v, side=side, sorter=o), values,
                       numpy.array([1.5, 0, -0.0]), numpy.argsort(values))
    assert_matches(lambda xp, a: xp.searchsorted(a, 1 + 2j), numpy.array([1, 2, 3]))
    assert_matches(lambda xp, a: xp.searchsorted(a, numpy.zeros(0, complex)), numpy.zeros(0))


@given(a=small_values(dtypes(ALL), shapes(max_dims=2, max_side=4)))
def test_sort_complex(a):
    assert_matches(lambda xp, a: xp.sort_complex(a), a)


@given(data=st.data(), a=small_values())
def test_argmax_argmin(data, a):
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    keepdims = data.draw(st.sampled_from([numpy._NoValue, False, True]))
    for name in ("argmax", "argmin", "nanargmax", "nanargmin"):
        assert_matches(lambda xp, a: getattr(xp, name)(a, axis=axis, keepdims=keepdims), a)
    assert_matches(lambda xp, a: a.argmax(axis), a)


def test_argmax_argmin_flat_direct(monkeypatch):
    """argmax/argmin of the whole array (torch's own call directly) against NumPy for every dtype: ties (the
    first wins), NaNs (the first NaN wins), signed zeros, infinities, views, 0-D, and empty arrays' ValueError."""
    import npcompile._numpy._sorting as sorting

    floats = [[1.0, 3.0, 3.0, -1.0], [0.0, -0.0, -0.0, 0.0], [1.0, numpy.nan, 5.0, numpy.nan], [-numpy.inf] * 2 + [2.0],
              [numpy.inf, 1.0, numpy.inf], [2.5], [[1.0, 7.0], [7.0, -3.0]]]
    for dt in ALL:
        for v in floats + [[[4, 1, 9], [9, 0, 1]]]:
            with numpy.errstate(all="ignore"):
                a = numpy.array(v).astype(dt)
            for x in (a, a.T, a[..., ::-1], numpy.array(a.reshape(-1)[0])):
                for name in ("argmax", "argmin"):
                    assert_matches(lambda xp, x: getattr(xp, name)(x), x)
                    assert_matches(lambda xp, x: getattr(x, name)(), x)
        assert_matches(lambda xp, x: xp.argmax(x), numpy.zeros((0, 2), dt))
    monkeypatch.setattr(sorting, "_arg", None)  # the common case computes nothing else
    assert int(sorting.argmax(shim.asarray([1.0, 4.0, 4.0]))) == 1 and int(sorting.argmin(shim.arange(3))) == 0


def test_argmax_out():
    a = numpy.arange(6.0).reshape(2, 3)
    for out in [numpy.zeros(2, numpy.int32), numpy.zeros(2), numpy.zeros(3, numpy.int64), numpy.zeros(2, numpy.int64)]:
        assert_matches(lambda xp, a, o: (xp.argmax(a, axis=1, out=o), o)[1], a, out)
        assert_matches(lambda xp, a, o: (xp.nanargmin(a, axis=1, out=o), o)[1], a, out)
    assert_matches(lambda xp, a: xp.argmax(a), numpy.zeros(0))
    assert_matches(lambda xp, a: xp.argmax(a, axis=1), numpy.zeros((0, 3)))
    assert_matches(lambda xp, a: xp.argmax(a, axis=0), numpy.zeros((0, 3)))
    assert_matches(lambda xp, a: xp.nanargmax(a, axis=1), numpy.array([[numpy.nan, numpy.nan], [1, numpy.nan]]))
