"""Differential tests of ufunc.reduce / accumulate / reduceat / at against NumPy."""

import numpy
import pytest
from hypothesis import assume, given, strategies as st

import npcompile._numpy as shim
from tests.numpy_conformance.harness import assert_matches, to_shim
from tests.numpy_conformance.strategies import ALL, FLOAT, INTEGER, REAL, arrays, axes, dtypes, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")

SMALL = shapes(max_dims=3, max_side=4)
# Reorderable ones take the fast or tree paths; the rest fold left along one axis.
BINARY = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "hypot", "logaddexp", "gcd", "subtract", "divide",
          "floor_divide", "remainder", "power", "arctan2", "equal", "less"]


def loose(a):
    return {"rtol": 2e-2, "atol": 2e-2} if a.dtype.kind in "fc" else {}


def small_values(a):
    """Keep products and powers of random integers inside exact ranges (signed ones also negative)."""
    return a % 4 - (a.dtype.kind == "i") if a.dtype.kind in "iu" else a


@given(st.sampled_from(BINARY), arrays(dtypes(ALL), SMALL, finite=True), st.data())
def test_reduce(name, a, data):
    a = small_values(a)
    axis = data.draw(st.one_of(st.just(0), axes(a.ndim)))
    keepdims = data.draw(st.booleans())
    assume(not (name == "arctan2" and _simd_arctan2(a)))  # (NumPy's bug: README, and the test below)
    assert_matches(lambda xp, a: getattr(xp, name).reduce(a, axis=axis, keepdims=keepdims), a, **loose(a))


def _simd_arctan2(a) -> bool:
    """Whether NumPy computes ``arctan2`` of ``a``'s dtype in float32 or float64 (its vector loops)."""
    return a.dtype.kind in "biuf" and numpy.arctan2(numpy.zeros((), a.dtype), 0).dtype in (numpy.float32,
                                                                                          numpy.float64)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "float16"])
def test_arctan2_reduces_in_order(dtype):
    """A deliberate deviation (README): NumPy 2.4's float32 and float64 ``arctan2.reduce`` (its vector loop, not
    written for a reduction) gives ``arctan2(a[0], a[-1])`` for up to about 16 elements; the shim folds in order,
    ``arctan2(arctan2(a[0], a[1]), a[2])``..., as NumPy's float16 loop and its ``accumulate`` do."""
    a = numpy.random.default_rng(0).standard_normal((3, 5)) * 4
    a = a.astype(dtype)
    for axis in (0, 1):
        want = numpy.take(numpy.arctan2.accumulate(a, axis=axis), -1, axis=axis)
        got = shim.arctan2.reduce(to_shim(a), axis=axis)
        tol = 1e-3 if dtype == "float16" else 1e-6
        assert got.dtype == want.dtype and numpy.allclose(numpy.asarray(got), want, rtol=tol)


@pytest.mark.parametrize("name, a", [("hypot", [-3.0]), ("hypot", [[-3.0, 4.0]]), ("gcd", [[-4, 6]]), ("gcd", -4),
                                     ("add", -0.0), ("add", [[-0.0]]), ("logaddexp", [-2.0])])
def test_reduce_starts_from_the_identity(name, a):
    """NumPy reduces from the identity, which shows on a single element: hypot, gcd of -3 give 3 and a sum of -0.0
    gives 0.0 (found by hand probing: the shim returned the element); reduceat's single elements stay as they are."""
    a = numpy.array(a)
    for kw in ({}, {"axis": None}, {"axis": ()}, {"keepdims": True}, {"where": a != 1}):
        r = assert_matches(lambda xp, a: getattr(xp, name).reduce(a, **kw), a)
        assert numpy.array_equal(numpy.signbit(r), numpy.signbit(getattr(numpy, name).reduce(a, **kw)))
    if a.ndim:
        assert_matches(lambda xp, a: getattr(xp, name).reduceat(a, [0, 0], axis=-1), a)


@given(st.sampled_from(["add", "multiply", "maximum", "bitwise_or", "subtract"]),
       arrays(dtypes(INTEGER + FLOAT), SMALL, finite=True), st.data())
def test_reduce_where_initial(name, a, data):
    a = small_values(a)
    axis = data.draw(axes(a.ndim, allow_tuple=False))
    initial = data.draw(st.sampled_from([numpy._NoValue, 1, 2]))
    assert_matches(lambda xp, a, w: getattr(xp, name).reduce(a, axis=axis, initial=initial, where=w), a, a > 0,
                   **loose(a))


@given(arrays(dtypes(REAL), SMALL), st.sampled_from([None, "int8", "float32", "complex64"]))
def test_reduce_dtype(a, dtype):
    a = small_values(a)
    assert_matches(lambda xp, a: xp.add.reduce(a, axis=None, dtype=dtype), a, **loose(a))
    assert_matches(lambda xp, a: xp.multiply.reduce(a, axis=-1 if a.ndim else None, dtype=dtype), a, **loose(a))


def test_reduce_errors():
    a = numpy.arange(6.0).reshape(2, 3)
    assert_matches(lambda xp, a: xp.sin.reduce(a), a)
    assert_matches(lambda xp, a: xp.divmod.reduce(a), a)
    assert_matches(lambda xp, a: xp.matmul.reduce(a), a)
    assert_matches(lambda xp, a: xp.subtract.reduce(a, axis=(0, 1)), a)
    assert_matches(lambda xp, a: xp.subtract.reduce(a, axis=None), a)
    assert_matches(lambda xp, a: xp.maximum.reduce(a, where=a > 2), a)
    assert_matches(lambda xp, a: xp.add.reduce(a, where=[[True], [False], [True]]), a)
    assert_matches(lambda xp, a: xp.add.reduce(a, where=numpy.array([1, 0, 1])), a)
    assert_matches(lambda xp, a: xp.add.reduce(a, initial=[1, 2]), a)
    assert_matches(lambda xp, a: xp.add.reduce(a.astype(numpy.int8), dtype=numpy.int8, initial=1000), a)
    assert_matches(lambda xp, a: xp.add.reduce(a, axis=0, out=xp.zeros((1, 3))), a)
    assert_matches(lambda xp, a: xp.add.reduce(a, axis=0, out=(xp.zeros(3),)), a)
    assert_matches(lambda xp, a: xp.subtract.reduce(a[:0], axis=0), a)
    assert_matches(lambda xp, a: xp.logaddexp.reduce(a[:0], axis=0), a)
    assert_matches(lambda xp, a: xp.bitwise_and.reduce(a, axis=0), a)
    assert_matches(lambda xp, a: xp.add.reduce(a[0, 0], axis=0), a)
    assert_matches(lambda xp, a: xp.add.reduce(a[0, 0], axis=(0,)), a)


@given(st.sampled_from(BINARY), arrays(dtypes(ALL), shapes(min_dims=0, max_dims=3, max_side=5), finite=True),
       st.data())
def test_accumulate(name, a, data):
    a = small_values(a)
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1)) if a.ndim else 0
    assert_matches(lambda xp, a: getattr(xp, name).accumulate(a, axis=axis), a, **loose(a))


def test_accumulate_forms():
    a = numpy.arange(1, 7, dtype=numpy.int8).reshape(2, 3)
    assert_matches(lambda xp, a: xp.add.accumulate(a, axis=None), a)
    assert_matches(lambda xp, a: xp.add.accumulate(a[0], axis=None), a)
    assert_matches(lambda xp, a: xp.add.accumulate(a, axis=(1,)), a)
    assert_matches(lambda xp, a: xp.add.accumulate(a, axis=(0, 1)), a)
    assert_matches(lambda xp, a: xp.add.accumulate(a, dtype=numpy.float32), a)
    assert_matches(lambda xp, a: xp.add.accumulate(a, out=xp.zeros((2, 3), numpy.int8)), a)
    assert_matches(lambda xp, a: xp.add.accumulate(a, out=xp.zeros((1, 3))), a)
    assert_matches(lambda xp, a: xp.sin.accumulate(a), a)
    assert_matches(lambda xp, a: xp.maximum.accumulate(numpy.array([1.0, numpy.nan, 3.0])), a)
    assert_matches(lambda xp, a: xp.multiply.accumulate(numpy.array([16, 4096, 0], numpy.float16)), a)


@st.composite
def reduceat_case(draw):
    a = small_values(draw(arrays(dtypes(ALL), shapes(min_dims=1, max_dims=3, min_side=1, max_side=6),
                                 finite=True)))
    axis = draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    idx = draw(st.lists(st.integers(0, n - 1), min_size=0, max_size=6))
    return a, idx, axis


@given(reduceat_case(), st.sampled_from(["add", "multiply", "maximum", "minimum", "bitwise_xor", "subtract",
                                         "logical_and", "hypot", "divide"]))
def test_reduceat(case, name):
    a, idx, axis = case
    assert_matches(lambda xp, a: getattr(xp, name).reduceat(a, idx, axis=axis), a, **loose(a))


def test_reduceat_errors():
    a = numpy.arange(8)
    assert_matches(lambda xp, a: xp.add.reduceat(a, [0, 8]), a)
    assert_matches(lambda xp, a: xp.add.reduceat(a, [-1]), a)
    assert_matches(lambda xp, a: xp.add.reduceat(a, [[0, 1]]), a)
    assert_matches(lambda xp, a: xp.add.reduceat(a[0], [0]), a)
    assert_matches(lambda xp, a: xp.add.reduceat(a.reshape(2, 4), [0], axis=None), a)
    assert_matches(lambda xp, a: xp.add.reduceat(a, [0, 4], out=xp.zeros(2, int)), a)
    # an index array is cast safely (a sequence's values convert as in np.array(seq, dtype=intp)); 0-d refused
    for idx in (numpy.array([0, 4], numpy.uint64), numpy.array([], float), numpy.array([0.0, 4.0]), [0.0, 4],
                numpy.array([0, 4], numpy.uint32), numpy.array([True, False]), 3, numpy.array(3)):
        assert_matches(lambda xp, a: xp.add.reduceat(a, idx), a)


@pytest.mark.parametrize("name", ["add", "multiply", "less", "maximum"])
@pytest.mark.parametrize("a, b", [(numpy.array([1, 2], numpy.int8), 1), (numpy.array([1, 2], numpy.uint8), -1),
                                  (numpy.array([1, 2], numpy.float32), 1.5), (numpy.float32(2), 1.5),
                                  (numpy.array([1, 2], numpy.float32), 1j), (1, numpy.array([1, 2], numpy.int8))])
def test_outer_python_scalars(name, a, b):
    """outer makes both operands arrays before the call: a Python number is no weak scalar there (NEP 50 does
    not apply: add.outer(int8 array, 1) is int64)."""
    assert_matches(lambda xp, a: getattr(xp, name).outer(a, b), a)


@given(arrays(dtypes(REAL), shapes(min_dims=1, max_dims=2, min_side=1, max_side=5), finite=True), st.data(),
       st.sampled_from(["add", "multiply", "maximum", "minimum", "subtract", "bitwise_or", "divide"]))
def test_at(a, data, name):
    a = small_values(a)
    idx = data.draw(st.lists(st.integers(-a.shape[0], a.shape[0] - 1), max_size=6))
    b = data.draw(st.sampled_from([2, 1.5, True]))

    def call(xp, a):
        getattr(xp, name).at(a, idx, b)
        return a
    assert_matches(call, a, **loose(a))


def test_at_forms():
    def at(name, idx, *b):
        def call(xp, a):
            getattr(xp, name).at(a, idx, *b)
            return a
        return call
    a = numpy.arange(6.0).reshape(2, 3)
    assert_matches(at("add", (slice(None), [0, 0]), 1), a)
    assert_matches(at("add", ([0, 1, 1], [2, 2, 2]), numpy.array([1.0, 2.0, 3.0])), a)
    assert_matches(at("add", [0, 0], [1, 2, 3]), a)
    assert_matches(at("add", [0, 0], [1, 2]), a)
    assert_matches(at("negative", [0, 0, 1]), a)
    assert_matches(at("negative", [0], 3), a)
    assert_matches(at("add", [0]), a)
    assert_matches(at("add", [5], 1), a)
    assert_matches(at("add", [0], 300), numpy.arange(5, dtype=numpy.int8))
    assert_matches(at("add", [0, 0, 1], 1.5), numpy.arange(5))
    assert_matches(at("divmod", [0], 1), a)
    assert_matches(lambda xp, a: xp.add.at([1, 2], [0], 1), a)
    assert_matches(at("maximum", [0, 0, 1], numpy.array([7, 9, 2**64 - 1], numpy.uint64)), numpy.arange(3, dtype="u8"))
