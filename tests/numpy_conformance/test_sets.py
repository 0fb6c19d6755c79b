"""Differential tests for the set routines."""

from __future__ import annotations

import numpy
import pytest
from hypothesis import given, strategies as st

import npcompile._numpy as shim
from npcompile._numpy import _library
from tests.numpy_conformance.harness import assert_matches, to_shim
from tests.numpy_conformance.strategies import ALL, dtypes, shapes
from tests.numpy_conformance.test_sorting import small_values

NONCOMPLEX = [d for d in ALL if d.kind != "c"]


@pytest.mark.parametrize("numpy_kernels", [True, False], ids=["numpy's kernel", "torch's"])
@given(data=st.data(), a=small_values(dtypes(ALL), shapes(max_dims=3, max_side=5)))
def test_unique(numpy_kernels, data, a):
    """NumPy's own unique on the CPU, the shim's sort-based one elsewhere (``_library.NUMPY_KERNELS``)."""
    flags = data.draw(st.tuples(st.booleans(), st.booleans(), st.booleans()))
    equal_nan = data.draw(st.booleans())
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_library, "NUMPY_KERNELS", numpy_kernels)
        assert_matches(lambda xp, a: xp.unique(a, *flags, equal_nan=equal_nan), a)
        axis = data.draw(st.integers(-a.ndim - 1, a.ndim))
        assert_matches(lambda xp, a: xp.unique(a, *flags, axis=axis), a)


@pytest.mark.parametrize("dtype", ["f2", "f4", "c8"])
def test_unique_rows_with_nans(dtype):
    """NumPy's float16 rows put NaNs first, its other types last (found by HYPOTHESIS_PROFILE=explore)."""
    a = numpy.array([[1, numpy.nan], [1, 0], [numpy.nan, 2], [-5, 1], [numpy.nan, numpy.nan], [numpy.nan, -numpy.inf],
                     [numpy.nan, 2]], dtype)
    assert_matches(lambda xp, a: xp.unique(a, True, True, True, axis=0), a)
    assert_matches(lambda xp, a: xp.unique(a, axis=1), a)


@given(a=small_values(dtypes(ALL), shapes(max_dims=3, max_side=5)))
def test_unique_array_api(a):
    """NumPy may return these unsorted (hash-based): compare sorted by value, and check the indices' meaning."""
    def by_value(xp, a):
        r = xp.unique_counts(a)
        order = numpy.argsort(numpy.asarray(r.values), kind="stable")
        return numpy.asarray(r.values)[order], numpy.asarray(r.counts)[order]
    exp, got = by_value(numpy, a), by_value(shim, shim.asarray(a))
    for e, g in zip(exp, got):
        numpy.testing.assert_array_equal(g, e, strict=True)
    numpy.testing.assert_array_equal(numpy.asarray(shim.unique_values(shim.asarray(a))),
                                     numpy.sort(numpy.unique_values(a)), strict=True)
    r = shim.unique_all(shim.asarray(a))
    values, idx, inv = (numpy.asarray(x) for x in (r.values, r.indices, r.inverse_indices))
    numpy.testing.assert_array_equal(values, a.reshape(-1)[idx])
    numpy.testing.assert_array_equal(values[inv], a)
    assert inv.shape == a.shape and inv.dtype == numpy.unique_all(a).inverse_indices.dtype
    inv2 = numpy.asarray(shim.unique_inverse(shim.asarray(a)).inverse_indices)
    numpy.testing.assert_array_equal(inv2, inv)
    assert type(r).__name__ == "UniqueAllResult" and r._fields == numpy.unique_all(a)._fields
    assert shim.unique_counts(shim.asarray(a))._fields == numpy.unique_counts(a)._fields
    assert shim.unique_inverse(shim.asarray(a))._fields == numpy.unique_inverse(a)._fields


def test_unique_sorted_false():
    a = numpy.array([3, 1, 3, 2])
    got = shim.unique(shim.asarray(a), sorted=False, return_counts=True)
    exp = numpy.unique(a, sorted=False, return_counts=True)
    assert sorted(zip(numpy.asarray(got[0]).tolist(), numpy.asarray(got[1]).tolist())) == \
        sorted(zip(exp[0].tolist(), exp[1].tolist()))


@given(data=st.data(), e=small_values(dtypes(ALL), shapes(max_dims=2, max_side=4)),
       s=small_values(dtypes(ALL), shapes(max_dims=2, max_side=4)))
def test_isin(data, e, s):
    invert = data.draw(st.booleans())
    kind = data.draw(st.sampled_from([None, "sort", "table"]))
    assert_matches(lambda xp, e, s: xp.isin(e, s, invert=invert, kind=kind), e, s)
    assert_matches(lambda xp, s: xp.isin(2, s), s)


def test_isin_arguments():
    assert_matches(lambda xp: xp.isin(numpy.array([1]) if xp is numpy else shim.asarray([1]), [1], kind="x"))
    assert_matches(lambda xp: xp.isin(5, [5]))
    assert_matches(lambda xp, a, b: xp.isin(a, b), numpy.array([200], numpy.uint8), numpy.array([-56], numpy.int8))
    # 0-d arrays stay 0-d through NumPy's kernels (ascontiguousarray made them 1-d)
    assert_matches(lambda xp, a, b: xp.isin(a, b), numpy.array(3), numpy.array([3]))
    assert_matches(lambda xp, a: xp.unique(a, return_inverse=True, return_counts=True), numpy.array(2.5))


@pytest.mark.parametrize("s", [numpy.array([-128, 127], numpy.int8), numpy.array([-128, 0], numpy.int8),
                               numpy.array([0, 2**31 - 1], numpy.int32), numpy.array([-1, 2**31 - 1], numpy.int32),
                               numpy.array([3, 9], numpy.uint64), numpy.array([True, False]),
                               numpy.array([], numpy.int8)])
@pytest.mark.parametrize("invert", [False, True])
def test_isin_table_range(s, invert):
    """kind='table' indexes a table by test_elements - min in their dtype: a range beyond the dtype's maximum
    is NumPy's RuntimeError (ours answered); within it, the answer."""
    e = numpy.array([0, 1, 127, -1])
    assert_matches(lambda xp, e, s: xp.isin(e, s, kind="table", invert=invert), e, s)


@given(data=st.data(), a=small_values(dtypes(ALL), shapes(max_dims=2, max_side=5)),
       b=small_values(dtypes(ALL), shapes(max_dims=2, max_side=5)))
def test_set_operations(data, a, b):
    assert_matches(lambda xp, a, b: xp.intersect1d(a, b), a, b)
    assert_matches(lambda xp, a, b: xp.intersect1d(a, b, return_indices=True), a, b)
    assert_matches(lambda xp, a, b: xp.union1d(a, b), a, b)
    assert_matches(lambda xp, a, b: xp.setdiff1d(a, b), a, b)
    assert_matches(lambda xp, a, b: xp.setxor1d(a, b), a, b)
    ua, ub = numpy.unique(a), numpy.unique(b)
    if data.draw(st.booleans()):
        ua = ua[::-1].copy()  # unique, but not sorted
    assert_matches(lambda xp, a, b: xp.intersect1d(a, b, assume_unique=True, return_indices=True), ua, ub)
    assert_matches(lambda xp, a, b: xp.setdiff1d(a, b, assume_unique=True), ua, ub)
    assert_matches(lambda xp, a, b: xp.setxor1d(a, b, assume_unique=True), numpy.sort(ua), ub)


@pytest.mark.parametrize("args", [([1, 3, 4, 3], [3, 1, 2, 1]), ([[1, 2]], [2, 0]), ([numpy.nan, 1], [numpy.nan]),
                                  (numpy.array([1], numpy.int8), numpy.array([1.5])),
                                  (numpy.array([1], numpy.int8), numpy.array([1], numpy.uint8))])
def test_set_examples(args):
    for name in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        assert_matches(lambda xp: getattr(xp, name)(*(to_shim(args) if xp is shim else args)))


@given(a=small_values(dtypes(ALL), shapes(max_dims=2, max_side=5)),
       b=small_values(dtypes(ALL), shapes(max_dims=2, max_side=5)))
def test_isin_by_torch(a, b):
    """Where NumPy's kernel does not run (another device, an array needing a gradient), torch's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_library, "NUMPY_KERNELS", False)
        assert_matches(lambda xp, a, b: xp.isin(a, b), a, b)
        assert_matches(lambda xp, a, b: xp.isin(a, b, invert=True), a, b)
