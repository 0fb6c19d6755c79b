"""Differential tests for array creation (``npcompile._numpy._creation``) against NumPy."""

from __future__ import annotations

import warnings

import numpy
import pytest
from hypothesis import assume, given, strategies as st

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature

from .harness import COMPILED, assert_matches, assert_same, to_shim
from .strategies import ALL, COMPLEX, FLOAT, INTEGER, REAL, arrays, array_likes, dtypes, python_scalars, shapes

ORDERS = st.sampled_from(["K", "A", "C", "F", None])
SMALL = shapes(max_dims=3, max_side=4)


def quiet(fn):
    """``fn`` with NumPy's cast warnings silenced on both sides (the harness compares values, not warnings)."""
    def run(xp, *args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(xp, *args)
    return run


# ---------------------------------------------------------------- array, asarray and friends


# Casts use finite arrays: float-to-int casts out of the integer range are undefined in C (NumPy and torch differ).
@given(arrays(finite=True), st.one_of(st.none(), dtypes()), st.sampled_from([True, None, False]), st.integers(0, 4),
       st.sampled_from(["K", "A", "C", "F"]))
def test_array_from_arrays(a, dtype, copy, ndmin, order):
    assert_matches(quiet(lambda xp, a: xp.array(a, dtype=dtype, copy=copy, ndmin=ndmin, order=order)), a)


@given(array_likes(dtype=dtypes(ALL)), st.one_of(st.none(), dtypes()))
def test_array_from_lists_and_scalars(x, dtype):
    assert_matches(quiet(lambda xp, x: xp.array(x, dtype=dtype)), x)
    assert_matches(quiet(lambda xp, x: xp.asarray(x, dtype=dtype)), x)


@given(st.lists(st.integers(-400, 400), min_size=1, max_size=4), dtypes(INTEGER + REAL[:1]))
def test_array_python_ints_out_of_range(values, dtype):
    assert_matches(lambda xp, v: xp.array(v, dtype=dtype), values)


@given(arrays(shape=shapes(max_dims=2, max_side=3), finite=True), dtypes(REAL))
def test_array_nested_arrays_and_scalars(a, dtype):
    """Lists mixing arrays and Python scalars promote as NumPy (the scalars are not weak here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = a.astype(dtype)
    assert_matches(lambda xp, a, b: xp.array([a, b]), a, b)
    assert_matches(lambda xp, a, b: xp.array([[a, b], [b, a]]), a, b)
    if a.ndim == 0:
        assert_matches(lambda xp, a: xp.array([a, 1, 2.5]), a)


@pytest.mark.parametrize("r", [range(4), range(0), range(9, 2, -3), range(126, 130)])
@pytest.mark.parametrize("dtype", [None, "f4", "i1"])
def test_array_from_range(r, dtype):
    """A range is a sequence of Python ints (it was refused as an object array)."""
    assert_matches(lambda xp: xp.array(r, dtype=dtype))
    assert_matches(lambda xp: xp.asarray(r, dtype=dtype))
    assert_matches(lambda xp: xp.add(r, 1))


def test_array_errors():
    assert_matches(lambda xp: xp.array([1, 2], copy=False))
    assert_matches(lambda xp: xp.array([[1, 2], [3]]))
    assert_matches(lambda xp: xp.array([1], order="X"))
    assert_matches(lambda xp: xp.array([[1, 2]], ndmax=1))
    assert_matches(lambda xp: xp.array(1, ndmin=65))
    assert_matches(lambda xp: xp.array([1.5, 1j], dtype=float))
    with pytest.raises(TypeError):
        shim.array([1], device="cpu")  # numpy.array has no device= (asarray does)
    with pytest.raises(UnsupportedFeature):
        shim.array(["a"])


def test_array_copy_and_view_semantics():
    a = shim.arange(6)
    assert shim.asarray(a) is a
    assert shim.array(a, copy=None) is a
    assert shim.asarray(a, dtype=numpy.int64) is not None
    v = shim.array(a, copy=None, ndmin=2)
    assert v.base is a and v.shape == (1, 6)
    shim.copyto(v, 7)
    assert a.tolist() == [7] * 6
    c = shim.array(a)
    shim.copyto(c, 1)
    assert a.tolist() == [7] * 6 and c.base is None
    n = numpy.arange(3.0)
    s = shim.asarray(n)  # zero-copy from NumPy, as numpy.asarray
    shim.copyto(s, 5.0)
    assert n.tolist() == [5.0] * 3
    with pytest.raises(ValueError):
        shim.array(a, dtype=numpy.float32, copy=False)
    assert shim.array(a, dtype=numpy.float32, copy=None).dtype == numpy.float32


def test_asarray_of_numpy_arrays():
    """asarray of a NumPy array (the direct path: no dtype, copy, device or layout asked) against NumPy: dtype,
    shape, values, and NumPy's memory shared wherever torch can (not negative strides or read-only memory)."""
    base = numpy.arange(24.0).reshape(2, 3, 4)
    ro = base.copy()
    ro.flags.writeable = False
    unaligned = numpy.frombuffer(b"\0" + numpy.arange(3.0).tobytes(), numpy.float64, 3, 1)
    cases = [base, base[:, ::2], base.T, base[::-1], ro, base.astype(">f8"), numpy.array(2**63, numpy.uint64),
             numpy.array(5), numpy.zeros((0, 3)), unaligned] + [base.astype(d) for d in ALL]
    for x in cases:
        for kwargs in ({}, {"order": "K"}, {"order": "A"}, {"like": numpy.zeros(1)}):
            r = shim.asarray(x, **kwargs)
            assert_same(x.astype(x.dtype.newbyteorder("=")), r)  # native byte order: torch has no other
            shared = x.flags.writeable and min(x.strides, default=0) >= 0 and x.flags.aligned and x.dtype.isnative
            assert numpy.shares_memory(numpy.asarray(r), x) == (shared and x.size > 0)
    with pytest.raises(UnsupportedFeature):
        shim.asarray(numpy.asmatrix(base[0]))


@given(arrays(finite=True), st.one_of(st.none(), dtypes()))
def test_contiguous_and_fortran(a, dtype):
    for name in ("ascontiguousarray", "asfortranarray"):
        r = assert_matches(quiet(lambda xp, a: getattr(xp, name)(a, dtype=dtype)), a)
        exp = getattr(numpy, name)(a)
        assert r.flags.c_contiguous == exp.flags.c_contiguous
        assert r.flags.f_contiguous == exp.flags.f_contiguous


@given(arrays(), st.sampled_from(["K", "A", "C", "F"]))
def test_copy(a, order):
    r = assert_matches(lambda xp, a: xp.copy(a, order=order), a)
    exp = numpy.copy(a, order=order)
    assert r.flags.c_contiguous == exp.flags.c_contiguous and r.flags.f_contiguous == exp.flags.f_contiguous
    assert r.base is None or COMPILED  # compiled: base is the tensor holding its memory (README deviation)


# ---------------------------------------------------------------- from shapes


@given(SMALL, st.one_of(st.none(), dtypes()), st.sampled_from(["C", "F"]))
def test_zeros_ones_empty(shape, dtype, order):
    assert_matches(lambda xp: xp.zeros(shape, dtype, order))
    assert_matches(lambda xp: xp.ones(shape, dtype=dtype, order=order))
    r = shim.empty(shape, dtype, order)
    exp = numpy.empty(shape, dtype, order)
    assert (r.shape, r.dtype) == (exp.shape, exp.dtype)
    assert r.strides == exp.strides or exp.size == 0


@pytest.mark.parametrize("shape", [-1, (2, -1), 2.0, [2, 3.0], None, "a"])
@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_bad_shapes(name, shape):
    assert_matches(lambda xp: getattr(xp, name)(shape))


def test_bad_order():
    for order in ("K", "A", "X"):
        assert_matches(lambda xp: xp.zeros(2, order=order))
    assert_matches(lambda xp: xp.ones(2, order="f"))


@given(SMALL, st.one_of(python_scalars(), st.integers(-2**70, 2**70)), st.one_of(st.none(), dtypes()))
def test_full_scalars(shape, value, dtype):
    """Python fill values are written as ``copyto(casting='unsafe')`` does: out-of-range ints raise."""
    assume(dtype is not None or numpy.array(value).dtype != object)
    assert_matches(quiet(lambda xp: xp.full(shape, value, dtype)))


@given(arrays(shape=shapes(max_dims=2, max_side=3), finite=True), shapes(max_dims=3, max_side=3),
       st.one_of(st.none(), dtypes()))
def test_full_arrays(v, shape, dtype):
    assert_matches(quiet(lambda xp, v: xp.full(shape, v, dtype=dtype)), v)


@given(arrays(), st.one_of(st.none(), dtypes()), st.sampled_from(["K", "A", "C", "F"]),
       st.one_of(st.none(), shapes(max_dims=3, max_side=3)))
def test_like(a, dtype, order, shape):
    for name in ("zeros_like", "ones_like"):
        assert_matches(lambda xp, a: getattr(xp, name)(a, dtype=dtype, order=order, shape=shape), a)
    assert_matches(quiet(lambda xp, a: xp.full_like(a, 3, dtype=dtype, order=order, shape=shape)), a)
    r = shim.empty_like(to_shim(a), dtype=dtype, order=order, shape=shape)
    exp = numpy.empty_like(a, dtype=dtype, order=order, shape=shape)
    assert (r.shape, r.dtype) == (exp.shape, exp.dtype)
    assert r.flags.c_contiguous == exp.flags.c_contiguous and r.flags.f_contiguous == exp.flags.f_contiguous


def test_like_from_lists():
    assert_matches(lambda xp: xp.zeros_like([[1, 2]], dtype=float))
    assert_matches(lambda xp: xp.full_like([1, 2], 2.5))
    assert_matches(lambda xp: xp.full_like(xp.zeros(3, xp.int8), 300))
    assert_matches(lambda xp: xp.ones_like([1, 2], order="X"))


# ---------------------------------------------------------------- numerical ranges


@given(st.integers(-30, 30), st.one_of(st.none(), st.integers(-30, 30)), st.integers(-7, 7),
       st.one_of(st.none(), dtypes(REAL)))
def test_arange_ints(start, stop, step, dtype):
    assert_matches(lambda xp: xp.arange(start, stop, step, dtype=dtype))


@given(st.floats(-20, 20), st.floats(-20, 20), st.floats(-5, 5).filter(lambda x: abs(x) > 0.05),
       st.one_of(st.none(), dtypes(FLOAT + COMPLEX + INTEGER)))
def test_arange_floats(start, stop, step, dtype):
    assert_matches(lambda xp: xp.arange(start, stop, step, dtype=dtype))


@pytest.mark.parametrize("args, kwargs", [
    ((0,), {}), ((5,), {}), ((True,), {}), ((2, 8), {}), ((0, 5, 0), {}), ((0.0, 5, 0.0), {}), ((5, 0), {}),
    ((0, 5, 0.5), {"dtype": int}), ((0.5, 3), {"dtype": numpy.int8}), ((3,), {"dtype": bool}),
    ((2,), {"dtype": bool}), ((300,), {"dtype": numpy.int8}), ((300, 302), {"dtype": numpy.int8}),
    ((-1, 2), {"dtype": numpy.uint8}), ((2**64 - 2, 2**64), {"dtype": numpy.uint64}), ((2**63 - 2, 2**63 + 1), {}),
    ((0, 1e300, 1e-300), {}), ((float("nan"),), {}), ((1, float("inf")), {}), ((0, 1, 0.1), {"dtype": "f4"}),
    ((0, 3), {"dtype": numpy.complex64}), ((0.5, 2, 0.3), {"dtype": numpy.float16}), ((3, None), {}),
    ((0, 5, 2, numpy.float32), {}), ((0, 5, 2, "i1"), {}), ((0, 5, 2, None, 1), {}),  # dtype is positional too
])
def test_arange_cases(args, kwargs):
    assert_matches(lambda xp: xp.arange(*args, **kwargs))


def test_arange_array_bounds():
    assert_matches(lambda xp: xp.arange(xp.asarray(3.0)))
    assert_matches(lambda xp: xp.arange(xp.asarray(2, dtype=xp.int8), 5))
    assert_matches(lambda xp: xp.arange(xp.asarray([3])))
    assert_matches(lambda xp: xp.arange(stop=3))
    with pytest.raises(UnsupportedFeature):
        shim.arange(1j)


@pytest.mark.parametrize("bounds", [
    (numpy.float32(0.1), 3), (numpy.float32(0.1), 1, numpy.float32(0.2)), (numpy.float32(2.1), 4, numpy.float32(0.1)),
    (numpy.float16(0.1), 3), (numpy.float32(0.5), 10, 1.5), (numpy.int8(-100), 100, 50),
    (numpy.int8(100), 300, 30), (numpy.uint8(5), 1000, 300),
])
def test_arange_scalar_bounds(bounds):
    """NumPy computes the length and the second value in the bounds' own scalar arithmetic (NEP 50): a float32
    start steps by float32(start + step) - start, float32 bounds can give one value fewer than float64 would,
    int8 bounds wrap (an empty range) or reject a Python int out of their range (ValueError)."""
    assert_matches(lambda xp: xp.arange(*bounds))
    assert_matches(lambda xp: xp.arange(*(xp.asarray(b) if isinstance(b, numpy.generic) else b for b in bounds)))


@given(st.sampled_from([numpy.float16, numpy.float32, numpy.int8, numpy.uint8]), st.integers(-20, 60),
       st.integers(-20, 60), st.integers(-7, 7).filter(bool))
def test_arange_typed_bounds(t, start, stop, step):
    assert_matches(lambda xp: xp.arange(t(start / 10 if t in (numpy.float16, numpy.float32) else start),
                                        stop / 10, t(step / 10 if t in (numpy.float16, numpy.float32) else step)))


def _bounds():
    return st.one_of(st.floats(-100, 100), st.integers(-100, 100), st.complex_numbers(max_magnitude=50),
                     arrays(dtypes(REAL + COMPLEX), shapes(max_dims=2, max_side=3), finite=True))


@given(_bounds(), _bounds(), st.integers(0, 7), st.booleans(), st.booleans(),
       st.one_of(st.none(), dtypes(FLOAT + COMPLEX + INTEGER[:4])), st.integers(-3, 2))
def test_linspace(start, stop, num, endpoint, retstep, dtype, axis):
    assert_matches(quiet(lambda xp, s, e: xp.linspace(s, e, num, endpoint, retstep, dtype, axis)), start, stop,
                   rtol=1e-9 if dtype is None else None, atol=1e-9 if dtype is None else None)


def test_linspace_cases():
    assert_matches(lambda xp: xp.linspace(0, 10, 5, dtype=int))
    assert_matches(lambda xp: xp.linspace(-5, 0, 4, dtype=int))
    assert_matches(lambda xp: xp.linspace(0, 1, 4, dtype=bool))
    assert_matches(lambda xp: xp.linspace(0, 1, -1))
    assert_matches(lambda xp: xp.linspace(0, 1, 3.0))
    assert_matches(lambda xp: xp.linspace(1, 2, 3, axis=1))
    assert_matches(lambda xp: xp.linspace(0, 1, 1, retstep=True))
    assert_matches(lambda xp: xp.linspace(0, 1e-320, 3))  # the step underflows: NumPy's i/div*delta path
    assert_matches(lambda xp: xp.linspace(0.0, float("inf"), 3))


@given(_bounds(), _bounds(), st.integers(0, 6), st.booleans(),
       st.one_of(st.just(10.0), st.just(2), st.floats(0.5, 4), arrays(dtypes(FLOAT), (2,), finite=True)),
       st.one_of(st.none(), dtypes(FLOAT + COMPLEX)), st.integers(-2, 1))
def test_logspace(start, stop, num, endpoint, base, dtype, axis):
    if isinstance(start, complex) or isinstance(stop, complex) or isinstance(base, numpy.ndarray):
        assume(all(abs(x) < 5 for x in (start, stop) if not isinstance(x, numpy.ndarray)))
    assert_matches(quiet(lambda xp, s, e, b: xp.logspace(s, e, num, endpoint, b, dtype, axis)),
                   numpy.asarray(start) / 20 if isinstance(start, numpy.ndarray) else start,
                   numpy.asarray(stop) / 20 if isinstance(stop, numpy.ndarray) else stop, base,
                   rtol=1e-6, atol=1e-12)


@given(st.one_of(st.floats(-1e3, 1e3).filter(lambda x: abs(x) > 1e-3), st.integers(-50, 50).filter(bool),
                 st.complex_numbers(min_magnitude=0.1, max_magnitude=100),
                 arrays(dtypes(REAL + COMPLEX), (2,), finite=True)),
       st.one_of(st.floats(-1e3, 1e3).filter(lambda x: abs(x) > 1e-3), st.integers(1, 50)),
       st.integers(0, 6), st.booleans(), st.one_of(st.none(), dtypes(FLOAT + COMPLEX + [numpy.dtype(int)])),
       st.integers(-2, 1))
def test_geomspace(start, stop, num, endpoint, dtype, axis):
    assert_matches(quiet(lambda xp, s, e: xp.geomspace(s, e, num, endpoint, dtype, axis)), start, stop,
                   rtol=1e-5 if dtype is None or numpy.dtype(dtype).itemsize >= 8 else 2e-3, atol=1e-9)


def test_geomspace_cases():
    assert_matches(lambda xp: xp.geomspace(1, 1000, 4, dtype=int))
    assert_matches(lambda xp: xp.geomspace(0, 10, 3))
    assert_matches(lambda xp: xp.geomspace([1, 0], 10, 3))
    assert_matches(quiet(lambda xp: xp.geomspace(-1, 1, 3)))
    assert_matches(lambda xp: xp.geomspace(1j, 1000j, 4))
    # num as NumPy reads it: any integer (a NumPy integer scalar raised TypeError in torch.arange), >= 0
    for num in (numpy.int8(3), numpy.array(3), -1, 0, 2.0):
        assert_matches(lambda xp: xp.geomspace(1, 100, num))


# ---------------------------------------------------------------- matrices


@given(st.integers(0, 5), st.one_of(st.none(), st.integers(0, 5)), st.integers(-6, 6),
       st.one_of(st.just(float), dtypes()), st.sampled_from(["C", "F"]))
def test_eye_identity_tri(n, m, k, dtype, order):
    assert_matches(lambda xp: xp.eye(n, m, k, dtype, order))
    assert_matches(lambda xp: xp.identity(n, dtype=dtype))
    assert_matches(lambda xp: xp.tri(n, m, k, dtype))


@pytest.mark.parametrize("k", [1.0, -1.5, 0.5, -0.5, 2.7, -2.7, 0.0, numpy.float64(1.5), numpy.float32(-0.25),
                               numpy.inf, numpy.nan])
def test_float_diagonal_offsets(k):
    """NumPy's tri/tril/triu (and the triangle indices) take a float k: row i is compared with arange(-k, M - k)
    in an integer dtype, so k acts as trunc'd except for 0 < k < 1, where every column starts at row 0; the
    shim raised TypeError."""
    a = numpy.arange(1.0, 13).reshape(3, 4)
    for f in (lambda xp, a: xp.tril(a, k), lambda xp, a: xp.triu(a, k), lambda xp, a: xp.tri(3, 4, k),
              lambda xp, a: xp.triu(a[None], k), lambda xp, a: xp.tril_indices(3, k, 4),
              lambda xp, a: xp.triu_indices(3, k), lambda xp, a: xp.triu_indices_from(a[:, :3], k)):
        assert_matches(f, a)
    assert_matches(lambda xp: xp.tril_indices(3.0))


def test_matrix_errors():
    assert_matches(lambda xp: xp.eye(-1))
    assert_matches(lambda xp: xp.eye(2, k=1.0))
    assert_matches(lambda xp: xp.tri(-1))
    assert_matches(lambda xp: xp.tri(2, -1))
    assert_matches(lambda xp: xp.tri(2.5))
    assert_matches(lambda xp: xp.tril(5))
    assert_matches(lambda xp: xp.diag(5))
    assert_matches(lambda xp: xp.diag(xp.ones((2, 2, 2))))
    assert_matches(lambda xp: xp.vander([[1]]))
    assert_matches(lambda xp: xp.vander([1, 2], -1))


@given(arrays(shape=shapes(max_dims=4, max_side=4)), st.integers(-5, 5))
def test_tril_triu(a, k):
    assert_matches(lambda xp, a: xp.tril(a, k), a)
    assert_matches(lambda xp, a: xp.triu(a, k=k), a)


@given(arrays(shape=shapes(min_dims=1, max_dims=2, max_side=4)), st.integers(-5, 5))
def test_diag(a, k):
    r = assert_matches(lambda xp, a: xp.diag(a, k), a)
    assert_matches(lambda xp, a: xp.diagflat(a, k), a)
    if a.ndim == 2:  # NumPy: a read-only view
        assert r.flags.writeable is False and r.base is not None


def test_diag_is_view():
    a = shim.arange(9).reshape(3, 3)
    d = shim.diag(a, 1)
    a.tensor[0, 1] = 100
    assert d.tolist() == [100, 5]


@given(arrays(dtype=dtypes(REAL + COMPLEX), shape=shapes(min_dims=1, max_dims=1, max_side=5), finite=True),
       st.one_of(st.none(), st.integers(0, 5)), st.booleans())
def test_vander(x, n, increasing):
    x = numpy.clip(x, -50, 50) if x.dtype.kind in "iuf" else x / 200
    assert_matches(quiet(lambda xp, x: xp.vander(x, n, increasing)), x, rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------------- grids and other sources


@given(st.lists(arrays(shape=shapes(max_dims=2, max_side=3)), max_size=3), st.booleans(), st.booleans(),
       st.sampled_from(["xy", "ij", "xx"]))
def test_meshgrid(xs, copy, sparse, indexing):
    assert_matches(lambda xp, *xs: xp.meshgrid(*xs, copy=copy, sparse=sparse, indexing=indexing), *xs)


def test_meshgrid_views():
    x, y = shim.arange(3), shim.arange(2)
    gx, gy = shim.meshgrid(x, y, copy=False)
    assert gx.base is x and gx.shape == (2, 3)
    gx2, _ = shim.meshgrid(x, y)
    assert gx2.base is None


@given(shapes(max_dims=3, max_side=3), st.sampled_from([int, float, numpy.int8, numpy.uint16, bool]),
       st.booleans())
def test_indices(dims, dtype, sparse):
    assert_matches(lambda xp: xp.indices(dims, dtype, sparse))


def test_indices_errors():
    assert_matches(lambda xp: xp.indices(3))
    assert_matches(lambda xp: xp.indices(()))


@given(shapes(max_dims=3, max_side=3), st.sampled_from([float, int, numpy.float32]))
def test_fromfunction(shape, dtype):
    assert_matches(lambda xp: xp.fromfunction(lambda *ix: sum(i * (k + 1) for k, i in enumerate(ix)) + 0 * ix[0]
                                              if ix else 0, shape, dtype=dtype))
    assert_matches(lambda xp: xp.fromfunction(lambda i, j, c: i * c + j, (2, 3), dtype=dtype, c=3))


@given(dtypes(), st.integers(0, 4), st.integers(-1, 4), st.integers(0, 16))
def test_frombuffer(dtype, n, count, offset):
    data = bytes(range(32))
    assert_matches(lambda xp: xp.frombuffer(data, dtype, count, offset))
    assert_matches(lambda xp: xp.frombuffer(bytearray(data[:n * 8]), dtype=dtype))


def test_frombuffer_memory():
    buf = bytearray(16)
    a = shim.frombuffer(buf, dtype=numpy.uint8)
    assert a.flags.writeable
    shim.copyto(a, 3)
    assert buf == bytearray([3] * 16)
    assert not shim.frombuffer(bytes(8)).flags.writeable
    assert_matches(lambda xp: xp.frombuffer(b"abc", dtype=numpy.int16))


@given(st.lists(st.integers(-100, 100), max_size=6), st.one_of(st.none(), dtypes(REAL)), st.integers(-1, 8))
def test_fromiter(values, dtype, count):
    assert_matches(lambda xp: xp.fromiter(iter(values), dtype, count))


def test_fromiter_errors():
    assert_matches(lambda xp: xp.fromiter([[1, 2]], int))
    assert_matches(lambda xp: xp.fromiter((float(i) for i in range(3)), numpy.float32))
