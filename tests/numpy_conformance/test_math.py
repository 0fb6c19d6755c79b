"""Differential tests for ``_math``: the shim against the installed NumPy."""

import math

import numpy
import pytest
from hypothesis import example, given, strategies as st

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from tests.numpy_conformance.harness import assert_matches
from tests.numpy_conformance.strategies import (
    ALL, COMPLEX, FLOAT, INTEGER, REAL, SIGNED, arrays, axes, dtypes, near_ends, shapes,
)

small = shapes(max_dims=3, max_side=4)


def tight(a, tol=1e-9):
    """Tolerances for results that cancel: tighter than the harness's for double precision, its own otherwise
    (complex64 is single precision in 8 bytes: its 1-ulp differences failed 1e-9 under the 'thorough' profile)."""
    return {"rtol": tol, "atol": tol} if a.dtype in (numpy.float64, numpy.complex128) or a.dtype.kind in "biu" else {}


def finite(dt=dtypes(ALL), shape=small, views=True):
    return arrays(dtype=dt, shape=shape, finite=True, views=views)


# ------------------------------------------------------------------------------ clip and rounding

@given(finite(dtypes(REAL)), st.integers(-5, 5), st.integers(-5, 10),
       st.sampled_from(["pos", "kw", "min_only", "max_only", "array"]))
def test_clip(a, lo, hi, form):
    calls = {"pos": lambda xp, a: xp.clip(a, lo, hi), "kw": lambda xp, a: xp.clip(a, min=lo, max=hi),
             "min_only": lambda xp, a: xp.clip(a, lo, None), "max_only": lambda xp, a: xp.clip(a, max=hi),
             "array": lambda xp, a: xp.clip(a, xp.asarray(lo), hi)}
    assert_matches(calls[form], a)


@given(near_ends(dtypes(INTEGER)), st.data())
def test_near_the_integer_ends(a, data):
    """At the ends of every integer range (uint16/32/64 run in wider or bit-view types): NumPy's values, dtypes
    and exceptions (Python ints out of range are OverflowError, never a wrapped value)."""
    info = numpy.iinfo(a.dtype)
    lo, hi = sorted(data.draw(st.integers(info.min, info.max)) for _ in range(2))
    assert_matches(lambda xp, a: xp.clip(a, lo, hi), a)
    assert_matches(lambda xp, a: xp.clip(a, a[::-1], None), a)
    assert_matches(lambda xp, a: xp.clip(a, a.dtype.type(lo), a[..., :1]), a)
    assert_matches(lambda xp, a: xp.diff(a, axis=-1), a)
    assert_matches(lambda xp, a: xp.ediff1d(a, to_begin=[1]), a)
    assert_matches(lambda xp, a: xp.round(a, -1), a)
    assert_matches(lambda xp, a: xp.fix(a), a)
    assert_matches(lambda xp, a: xp.piecewise(a, [a > hi, a < lo], [lambda v: v // 3, info.max, lambda v: v]), a)
    assert_matches(lambda xp, a: xp.piecewise(a, [a > hi], [-1, 0]), a)
    assert_matches(lambda xp, a: xp.unwrap(a, period=7), a)
    assert_matches(lambda xp, a: xp.unwrap(a), a, rtol=1e-12)
    assert_matches(lambda xp, a: xp.gradient(a, axis=-1), a, rtol=1e-12) if a.shape[-1] > 1 else None
    assert_matches(lambda xp, a: xp.isclose(a, a[::-1], atol=1), a)
    assert_matches(lambda xp, a: xp.array_equal(a, a[::-1]), a)
    assert_matches(lambda xp, a: xp.convolve(a.reshape(-1), a.reshape(-1)[:2]), a)
    assert_matches(lambda xp, a: xp.interp(a, [0, 2.0**40], [0, 1]), a)
    assert_matches(lambda xp, a: xp.vectorize(lambda v: v + 1)(a), a)
    assert_matches(lambda xp, a: xp.vectorize(lambda v: (v - 1, v > 0), cache=True)(a), a)


def test_vectorize_passes_python_scalars():
    """As NumPy's object loop: the otypes probe gets a NumPy scalar, every call after it a Python scalar."""
    for xp in (numpy, shim):
        seen = []
        xp.vectorize(lambda v: seen.append(type(v)) or v)(xp.asarray([1, 2]))
        assert seen[1:] == [int, int] and seen[0] is not int
        cached = []
        xp.vectorize(lambda v: cached.append(v) or v, cache=True)(xp.asarray([1, 2]))
        assert len(cached) == 2
    a = numpy.arange(3)
    assert_matches(lambda xp, a: xp.vectorize(lambda v: v, otypes="dd")(a), a)  # not a tuple: NaN outputs
    assert_matches(lambda xp, a: xp.vectorize(lambda v: (v, v) if v else v)(a[::-1]), a)
    assert_matches(lambda xp, a: xp.vectorize(lambda v: xp.array([v]))(a), a)


def test_clip_errors_and_out():
    a = numpy.arange(6.0)
    assert_matches(lambda xp, a: xp.clip(a, 1), a)
    assert_matches(lambda xp, a: xp.clip(a, 1, 2, min=1), a)
    assert_matches(lambda xp, a: xp.clip(a, numpy.nan, 3), a)
    i8 = numpy.arange(-3, 3, dtype=numpy.int8)
    assert_matches(lambda xp, a: xp.clip(a, -300, 1), i8)
    assert_matches(lambda xp, a: xp.clip(a, 1, 400), i8)
    out = numpy.zeros(6)
    r = assert_matches(lambda xp, a, o: xp.clip(a, 1, 3, out=o), a, out, check_inputs=True)
    assert shim.asarray(a).clip(1, 3).tolist() == [1, 1, 2, 3, 3, 3]
    assert r is not None


@given(finite(dtypes([d for d in ALL if d.kind != "b"])), st.integers(-3, 3))
def test_round(a, decimals):
    assert_matches(lambda xp, a: xp.round(a, decimals), a)
    assert_matches(lambda xp, a: xp.around(a, decimals), a)


def test_round_details():
    halves = numpy.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375])
    assert_matches(lambda xp, a: xp.round(a), halves)
    assert_matches(lambda xp, a: xp.round(a, 2), halves)
    assert_matches(lambda xp, a: xp.round(a, -1), numpy.array([15, 25, -15, 5], numpy.int8))
    assert_matches(lambda xp, a: xp.round(a, 5), numpy.array([0.5, 1.25], numpy.float16))
    assert_matches(lambda xp, a: xp.round(a), numpy.array([True]))
    assert_matches(lambda xp, a: xp.round(a, 1.5), halves)
    out = numpy.empty(7)
    assert_matches(lambda xp, a, o: xp.round(a, 1, out=o), halves, out, check_inputs=True)
    assert shim.asarray(halves).round(1).tolist() == numpy.round(halves, 1).tolist()


@pytest.mark.parametrize("dt", ["int8", "uint16", "uint64", "bool", "float16"])
@pytest.mark.parametrize("out_dt", ["int8", "uint64", "float64", "float16", "bool", None])
def test_round_into_out(dt, out_dt):
    """Integers with negative decimals and booleans go through NumPy's float path into ``out`` (a casting error
    where ``out`` cannot hold a float)."""
    a = numpy.array([15, 250, 7, 0]).astype(dt)
    for d in (-3, -1, 0, 1):
        assert_matches(lambda xp, a: xp.round(a, d, out=None if out_dt is None else xp.zeros(4, out_dt)), a)


@pytest.mark.parametrize("src", ["f2", "f4", "f8"])
@pytest.mark.parametrize("out_dt", ["f2", "f4", "f8", "c8", "c16"])
def test_round_of_floats_into_a_wider_out(src, out_dt):
    """NumPy scales into ``out`` and rounds there: float16 1234.5678 to 1 place into float32 is 1235.2, not float16's
    1235 (found by hand probing); a complex out gives NumPy's complex products (inf+nanj)."""
    a = numpy.array([-2.5, -1.55, 0.05, 1234.5678, numpy.nan, numpy.inf, 65000, 3.14159]).astype(src)
    for d in (-2, -1, 1, 2, 4):
        assert_matches(lambda xp, a: xp.round(a, d, out=xp.zeros(8, out_dt)), a)


@given(finite(dtypes(REAL)))
def test_fix(a):
    assert_matches(lambda xp, a: xp.fix(a), a)


# ------------------------------------------------------------------------------ interp, gradient, diff...

@given(arrays(dtype=dtypes(REAL), shape=small, finite=False),
       st.lists(st.floats(-10, 10), min_size=1, max_size=6, unique=True),
       st.sampled_from([None, -1.0]), st.sampled_from([None, 99.0]), st.booleans())
def test_interp(x, xp_, left, right, complex_fp):
    xs = numpy.sort(numpy.array(xp_))
    fp = numpy.cos(xs) * 3 + (1j * xs if complex_fp else 0)
    assert_matches(lambda xp, x: xp.interp(x, xs, fp, left=left, right=right), x)


def test_interp_details():
    x = numpy.array([-1.0, 0.0, 0.5, 1.0, 2.0, 2.5, numpy.nan, numpy.inf])
    assert_matches(lambda xp, x: xp.interp(x, [0, 1, 2], [0, numpy.inf, 3]), x)
    assert_matches(lambda xp, x: xp.interp(x, [0, 1, 1, 2], [0, 1, 5, 3]), x)
    assert_matches(lambda xp, x: xp.interp(x, [0.0, 1.0, 3.0], [1, 2, 0], period=2.5), x)
    assert_matches(lambda xp, x: xp.interp(x, [1.0], [7.0]), x)
    assert_matches(lambda xp, x: xp.interp(3, [1.0, 4], [7.0, 8]), x)
    for bad in ([[0, 1], [1]], [[], []], [[[0, 1]], [[1, 2]]]):
        assert_matches(lambda xp, x: xp.interp(x, *bad), x)
    assert_matches(lambda xp, x: xp.interp(x, [0, 1], [0, 1], period=0), x)
    for period in (numpy.float32(2.5), numpy.int8(2), numpy.array(2.5), numpy.float64(0), numpy.array([2.5])):
        assert_matches(lambda xp, x: xp.interp(x, [0.0, 1.0, 3.0], [1, 2, 0], period=period), x)  # (TypeError)
    assert_matches(lambda xp, x: xp.interp(x + 1j, [0, 1], [0, 1]), x)


@given(finite(dtypes(ALL), shapes(min_dims=1, max_dims=3, min_side=3, max_side=5)),
       st.sampled_from([1, 2]), st.sampled_from(["none", "scalar", "coords", "uniform"]), st.data())
def test_gradient(f, edge_order, spacing, data):
    ax = data.draw(st.integers(-f.ndim, f.ndim - 1))
    n = f.shape[ax]
    args = {"none": (), "scalar": (0.5,), "coords": (numpy.cumsum(numpy.arange(1, n + 1) ** 1.5),),
            "uniform": (numpy.arange(n) * 2,)}[spacing]
    assert_matches(lambda xp, f: xp.gradient(f, *args, axis=ax, edge_order=edge_order), f, **tight(f))


def test_gradient_all_axes_and_errors():
    f = numpy.arange(12.0).reshape(3, 4) ** 2
    assert_matches(lambda xp, f: xp.gradient(f), f)
    assert_matches(lambda xp, f: xp.gradient(f, 1.0, 2.0), f)
    assert_matches(lambda xp, f: xp.gradient(f, 1.0, 2.0, 3.0), f)
    assert_matches(lambda xp, f: xp.gradient(f, axis=2), f)
    assert_matches(lambda xp, f: xp.gradient(f, edge_order=3), f)
    assert_matches(lambda xp, f: xp.gradient(f[:2], edge_order=2, axis=0), f)
    assert_matches(lambda xp, f: xp.gradient(f, [1, 2, 3], axis=1), f)
    assert_matches(lambda xp, f: xp.gradient(f, numpy.ones((3, 4)), axis=1), f)
    assert_matches(lambda xp, f: xp.gradient(f), numpy.array([True, False, True]))
    y = numpy.array([1.0, 4.0, 2.0, 8.0, 3.0, 5.0])
    for c in ([True] * 6, [False, True] * 3, [False] * 3 + [True] * 3, numpy.arange(6) ** 2):  # NumPy's branches
        for eo in (1, 2):
            assert_matches(lambda xp, y: xp.gradient(y, numpy.array(c), edge_order=eo), y)
            assert_matches(lambda xp, y: xp.gradient(y > 3, numpy.array(c), edge_order=eo), y)
    assert_matches(lambda xp, f: xp.gradient(f, numpy.array([0, 1, 3, 4], numpy.float32), axis=1),
                   f.astype(numpy.float16))


@given(finite(dtypes(ALL), shapes(min_dims=0, max_dims=3)), st.integers(0, 3), st.data())
def test_diff(a, n, data):
    ax = data.draw(st.integers(-a.ndim - 1, a.ndim)) if a.ndim else -1
    assert_matches(lambda xp, a: xp.diff(a, n=n, axis=ax), a)


def test_diff_prepend_append():
    a = numpy.arange(6, dtype=numpy.int8).reshape(2, 3)
    assert_matches(lambda xp, a: xp.diff(a, prepend=0, append=[[1], [2]]), a)
    assert_matches(lambda xp, a: xp.diff(a, axis=0, prepend=1.5), a)
    assert_matches(lambda xp, a: xp.diff(a, n=-1), a)
    assert_matches(lambda xp, a: xp.diff(a, append=numpy.zeros((3, 1))), a)


@given(finite(dtypes(ALL)), st.sampled_from([None, [7], [1, 2]]), st.sampled_from([None, 0, [3.5]]))
def test_ediff1d(a, to_end, to_begin):
    assert_matches(lambda xp, a: xp.ediff1d(a, to_end=to_end, to_begin=to_begin), a)


@given(finite(dtypes(ALL), shapes(min_dims=1, max_dims=3)), st.sampled_from(["dx", "x1d", "xnd"]), st.data())
def test_trapezoid(y, form, data):
    ax = data.draw(st.integers(-y.ndim, y.ndim - 1))
    x1 = numpy.linspace(0, 2, y.shape[ax]) ** 2
    xn = numpy.broadcast_to(numpy.arange(y.size, dtype=float).reshape(y.shape), y.shape)
    kw = {"dx": {"dx": 0.5}, "x1d": {"x": x1}, "xnd": {"x": xn}}[form]
    assert_matches(lambda xp, y: xp.trapezoid(y, axis=ax, **kw), y, **tight(y))


@given(finite(dtypes(REAL), shapes(min_dims=1, max_dims=2, max_side=6)), st.sampled_from([None, 1.0, 5.0]),
       st.sampled_from([2 * math.pi, 360, 4, 7]))
def test_unwrap(p, discont, period):
    assert_matches(lambda xp, p: xp.unwrap(p, discont=discont, axis=-1, period=period), p, **tight(p))


@given(finite(dtypes(ALL)))
@example(a=numpy.array([0, 0.75 + 1j], numpy.complex64))
def test_sinc_i0(a):
    assert_matches(lambda xp, a: xp.sinc(a), a, **tight(a))
    rtol = {numpy.float16: 1e-3, numpy.float32: 1e-5, numpy.complex64: 1e-5}.get(a.dtype.type, 1e-9)
    assert_matches(lambda xp, a: xp.i0(a), a, rtol=rtol)


@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 8, 0.5, 3.5, True, numpy.uint64(5), numpy.array(6, numpy.uint16),
                               numpy.float16(4), numpy.int8(3)])
def test_windows(M):
    """NumPy reads M through a float64 array: NumPy integers, 0-D arrays and floats are lengths too."""
    assert_matches(lambda xp: [xp.bartlett(M), xp.blackman(M), xp.hamming(M), xp.hanning(M), xp.kaiser(M, 14.0),
                               xp.kaiser(M, 0)])


@given(arrays(dtype=dtypes(ALL), shape=small))
def test_isposinf_isneginf(x):
    assert_matches(lambda xp, x: (xp.isposinf(x), xp.isneginf(x)), x)
    out = numpy.zeros(x.shape, dtype=bool)
    assert_matches(lambda xp, x, o: xp.isposinf(x, out=o), x, out, check_inputs=True)


# ------------------------------------------------------------------------------ complex parts, NaN

@given(arrays(dtype=dtypes(ALL), shape=small), st.booleans())
def test_nan_to_num(a, copy):
    assert_matches(lambda xp, a: xp.nan_to_num(a, copy=copy), a, check_inputs=True)
    assert_matches(lambda xp, a: xp.nan_to_num(a, nan=-1.5, posinf=7, neginf=-7.0), a)


@pytest.mark.parametrize("dt", ["float16", "float32", "complex64"])
def test_nan_to_num_replacements_that_overflow(dt):
    """Which entries are replaced is read from the input: a NaN replacement that overflows to inf in the dtype is
    not replaced again by posinf's default (nan=1e300 gave float32's max, NumPy inf)."""
    a = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 1.0], dt)
    assert_matches(lambda xp, a: xp.nan_to_num(a, nan=1e300), a)
    assert_matches(lambda xp, a: xp.nan_to_num(a, nan=-1e300, posinf=numpy.nan, neginf=numpy.inf), a)


def test_nan_to_num_in_place():
    x = shim.array([numpy.nan, 1.0])
    assert shim.nan_to_num(x, copy=False) is x and x.tolist() == [0.0, 1.0]


@given(finite(dtypes(ALL)))
def test_complex_parts(a):
    for f in (lambda xp, a: xp.real(a), lambda xp, a: xp.imag(a), lambda xp, a: xp.angle(a),
              lambda xp, a: xp.angle(a, deg=True), lambda xp, a: xp.iscomplex(a), lambda xp, a: xp.isreal(a),
              lambda xp, a: xp.iscomplexobj(a), lambda xp, a: xp.isrealobj(a), lambda xp, a: xp.real_if_close(a)):
        assert_matches(f, a)


def test_complex_parts_details():
    z = numpy.array([1 + 1e-15j, 2 - 1e-15j])
    assert_matches(lambda xp, z: xp.real_if_close(z), z)
    assert_matches(lambda xp, z: xp.real_if_close(z, tol=1e-20), z)
    for v in (1 + 2j, 3.0, 4, [1, 2j]):
        assert_matches(lambda xp: (xp.real(v), xp.imag(v)))
        assert_matches(lambda xp: (xp.iscomplexobj(v), xp.isrealobj(v), xp.isscalar(v)))
    assert shim.isscalar(3.0) and shim.isscalar("s") and not shim.isscalar([1]) and not shim.isscalar(shim.zeros(2))
    x = shim.ones(3)
    assert shim.real_if_close(x) is x


# ------------------------------------------------------------------------------ closeness and equality

@given(finite(dtypes(ALL), shapes(max_dims=2)), finite(dtypes(ALL), shapes(max_dims=2)),
       st.booleans(), st.sampled_from([(1e-5, 1e-8), (0.1, 0), (0, 1.0)]))
def test_isclose_family(a, b, equal_nan, tols):
    rtol, atol = tols
    assert_matches(lambda xp, a, b: xp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan), a, b)
    assert_matches(lambda xp, a, b: xp.allclose(a, b, rtol, atol, equal_nan), a, b)
    assert_matches(lambda xp, a, b: (xp.array_equal(a, b), xp.array_equal(a, a, equal_nan=True),
                                     xp.array_equiv(a, b)), a, b)


def test_isclose_special():
    a = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 1.0, 0.0])
    b = numpy.array([numpy.nan, numpy.inf, numpy.inf, 1.0 + 1e-9, 1e-9])
    assert_matches(lambda xp, a, b: (xp.isclose(a, b), xp.isclose(a, b, equal_nan=True),
                                     xp.array_equal(a, b, equal_nan=True), xp.array_equal(a, a)), a, b)
    assert_matches(lambda xp: (xp.isclose(1, 1.0000001), xp.isclose(1.0, 2), xp.allclose([1, 2], 1)))
    assert_matches(lambda xp: (xp.array_equal([1, 2], [1, 2, 3]), xp.array_equiv([1, 2], [[1, 2], [1, 2]]),
                               xp.array_equiv([1, 2], [1, 2, 3])))


# ------------------------------------------------------------------------------ convolution

NO_F16 = [d for d in ALL if d != numpy.float16]  # float16 sums overflow differently (accumulation order)


@given(finite(dtypes(NO_F16), shapes(min_dims=1, max_dims=1, min_side=1, max_side=6)),
       finite(dtypes(NO_F16), shapes(min_dims=1, max_dims=1, min_side=1, max_side=6)),
       st.sampled_from(["full", "same", "valid"]))
def test_convolve_correlate(a, v, mode):
    assert_matches(lambda xp, a, v: xp.convolve(a, v, mode), a, v, rtol=1e-5, atol=1e-3)
    assert_matches(lambda xp, a, v: xp.correlate(a, v, mode), a, v, rtol=1e-5, atol=1e-3)


def test_convolve_errors():
    for args in (([], [1]), ([1], []), ([[1]], [1]), ([1, 2], [1], "bogus"), ([1, 2], [1], 3), ([1, 2], [1], 1.0),
                 ([1, 2], [1], None)):
        assert_matches(lambda xp: xp.convolve(*args))
        assert_matches(lambda xp: xp.correlate(*args))
    assert_matches(lambda xp: (xp.convolve(2, [1, 2]), xp.correlate([1j, 2], [1, 2j, 3], "full")))
    for mode in (0, 1, 2, numpy.int8(2)):  # NumPy's legacy integer modes: valid, same, full
        assert_matches(lambda xp: (xp.convolve([1, 2, 3], [1, 1, 2], mode), xp.correlate([1, 2], [1, 1j, 2], mode)))
    h = numpy.array([0.5, 1.5, -2.0], numpy.float16)
    assert_matches(lambda xp, h: (xp.convolve(h, h), xp.correlate(h, h[:2], "same")), h)


# ------------------------------------------------------------------------------ bit packing

@given(arrays(dtype=dtypes([d for d in REAL if d.kind in "biu"]), shape=shapes(max_dims=3, max_side=11)),
       st.data(), st.sampled_from(["big", "little"]))
def test_packbits(a, data, bitorder):
    ax = data.draw(axes(a.ndim, allow_tuple=False))
    assert_matches(lambda xp, a: xp.packbits(a, axis=ax, bitorder=bitorder), a)


@given(arrays(dtype=numpy.uint8, shape=shapes(max_dims=3, max_side=4)), st.data(),
       st.sampled_from(["big", "little"]), st.sampled_from([None, 0, 3, 8, 20, -3, -100]))
def test_unpackbits(a, data, bitorder, count):
    if a.size == 0 and count is not None and count > 0:
        return  # NumPy pads empty input with uninitialized memory
    ax = data.draw(axes(a.ndim, allow_tuple=False))
    assert_matches(lambda xp, a: xp.unpackbits(a, axis=ax, count=count, bitorder=bitorder), a)


def test_packbits_errors():
    assert_matches(lambda xp, a: xp.packbits(a), numpy.array([1.5]))
    assert_matches(lambda xp, a: xp.unpackbits(a), numpy.array([1, 2]))
    assert_matches(lambda xp, a: xp.packbits(a, axis=1), numpy.array([1, 0]))
    assert_matches(lambda xp, a: xp.packbits(a, bitorder="middle"), numpy.array([1, 0]))


@pytest.mark.parametrize("order", ["b", "l", "lit", "bigger", "littlest", "x", "", "B", None, 1])
def test_bitorder_as_numpy_reads_it(order):
    """packbits wants a word starting 'big' or 'little', unpackbits reads the first letter; checked first."""
    assert_matches(lambda xp, a: xp.packbits(a, bitorder=order), numpy.array([1, 0, 1]))
    assert_matches(lambda xp, a: xp.packbits(a, bitorder=order), numpy.array([1.5]))
    assert_matches(lambda xp, a: xp.unpackbits(a, bitorder=order), numpy.array([5, 200], numpy.uint8))
    assert_matches(lambda xp, a: xp.unpackbits(a, bitorder=order), numpy.array([5], numpy.int8))


@pytest.mark.parametrize("axis", [None, 0, -1, 1])
def test_bits_of_0d_arrays_are_1d(axis):
    assert_matches(lambda xp, a: xp.packbits(a, axis=axis), numpy.array(5))
    assert_matches(lambda xp, a: xp.unpackbits(a, axis=axis, count=3), numpy.array(5, numpy.uint8))


# ------------------------------------------------------------------------------ Python functions over arrays

def test_vectorize():
    a, b = numpy.arange(6).reshape(2, 3), numpy.array([1.5, -2.0, 0.25])
    assert_matches(lambda xp, a, b: xp.vectorize(lambda x, y: x * y if x > 2 else x - y)(a, b), a, b)
    assert_matches(lambda xp, a: xp.vectorize(lambda x: (x, x * 0.5))(a), a)
    assert_matches(lambda xp, a: xp.vectorize(lambda x: x * 0.5, otypes=[int])(a), a)
    assert_matches(lambda xp, a: xp.vectorize(lambda x: x * 0.5, otypes="f")(a[:0]), a)
    assert_matches(lambda xp, a: xp.vectorize(lambda x: x)(a[:0]), a)
    assert_matches(lambda xp, a, b: xp.vectorize(lambda x, k: x ** k, excluded={"k"})(b, k=2), a, b)
    assert_matches(lambda xp, a, b: xp.vectorize(lambda p, x: xp.polyval(p, x) if hasattr(xp, "polyval") else x,
                                                 excluded=[0])([1, 2], b), a, b)
    assert_matches(lambda xp, a: xp.vectorize(lambda r: r.sum(), signature="(n)->()")(a), a)
    assert_matches(lambda xp, a: xp.vectorize(lambda r, s: (r * s, r.sum()), signature="(n),()->(n),()")(a, 2), a)
    assert_matches(lambda xp, a, b: xp.vectorize(lambda r, s: r @ s, signature="(n),(n)->()")(a, b[:2]), a, b)
    f = shim.vectorize(otypes=[float])(lambda x: x + 1)
    assert f([1, 2]).tolist() == [2.0, 3.0]

    @shim.vectorize
    def g(x):
        """doc"""
        return x * 2
    assert g.__doc__ == "doc" and g(shim.arange(3)).tolist() == [0, 2, 4]


@given(finite(dtypes(REAL), shapes(max_dims=2)))
def test_piecewise(x):
    assert_matches(lambda xp, x: xp.piecewise(x, [x < 0, x > 1], [lambda v: -v, lambda v: v * 2, 7]), x)
    assert_matches(lambda xp, x: xp.piecewise(x, [x < 0], [-1, 1]), x)
    assert_matches(lambda xp, x: xp.piecewise(x, x > 0, [lambda v: v + 1]), x)
    assert_matches(lambda xp, x: xp.piecewise(x, [x < 0, x > 1], [1]), x)


@given(finite(dtypes(REAL), shapes(min_dims=1, max_dims=3, min_side=1)), st.data())
def test_apply_along_over_axes(a, data):
    ax = data.draw(st.integers(-a.ndim, a.ndim - 1))
    assert_matches(lambda xp, a: xp.apply_along_axis(lambda r: r * 2, ax, a), a)
    assert_matches(lambda xp, a: xp.apply_along_axis(lambda r: (r[0], r[-1]), ax, a), a)
    assert_matches(lambda xp, a: xp.apply_along_axis(lambda r, k: r[:1] + k, ax, a, 3), a)
    assert_matches(lambda xp, a: xp.apply_over_axes(lambda v, i: v * 2 + i, a, [ax]), a)


def test_apply_over_axes_reducing():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    sum_ = lambda xp: (lambda v, i: xp.asarray(v.tensor.sum(i)) if hasattr(v, "tensor") else v.sum(i))  # noqa: E731
    assert_matches(lambda xp, a: xp.apply_over_axes(sum_(xp), a, [0, 2]), a)
    assert_matches(lambda xp, a: xp.apply_along_axis(len, 0, a[:, :0]), a)


def test_frompyfunc_unsupported():
    with pytest.raises(UnsupportedFeature):
        shim.frompyfunc(abs, 1, 1)


# ------------------------------------------------------------------------------ error state

def test_errstate_state_round_trip():
    before = shim.geterr()
    assert before == numpy.geterr()
    with shim.errstate(all="ignore", over="raise"):
        assert shim.geterr()["over"] == "raise" and shim.geterr()["divide"] == "ignore"
    assert shim.geterr() == before
    old = shim.seterr(divide="ignore")
    assert shim.seterr(**old)["divide"] == "ignore" and shim.geterr() == before
    with pytest.raises(ValueError):
        shim.seterr(divide="bogus")


def test_errstate_raise_detection():
    one, zero = shim.array([1.0, 0.0]), shim.array([0.0, 0.0])
    with shim.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero"):
            shim.divide(one[:1], zero[:1])
        with pytest.raises(FloatingPointError):
            shim.log(zero)
        with pytest.raises(FloatingPointError):
            shim.floor_divide(shim.array([1, 2]), shim.array([1, 0]))
        shim.divide(zero, zero)  # invalid, not divide
    with shim.errstate(invalid="raise"):
        with pytest.raises(FloatingPointError, match="invalid"):
            shim.divide(zero, zero)
        with pytest.raises(FloatingPointError):
            shim.sqrt(shim.array([-1.0]))
        shim.sqrt(shim.array([numpy.nan]))
    with shim.errstate(over="raise"):
        with pytest.raises(FloatingPointError, match="overflow"):
            shim.multiply(shim.array([1e300]), 1e300)
        shim.multiply(shim.array([numpy.inf]), 2.0)
    assert shim.divide(one, zero).tolist()[0] == numpy.inf  # default: no checks


@pytest.mark.parametrize("dt", ["int8", "int64", "uint16", "uint64"])
@pytest.mark.parametrize("name", ["floor_divide", "divmod", "remainder", "fmod"])
def test_errstate_integer_division(dt, name):
    """Integer divisions report divide by zero, and floor_divide/divmod the one overflowing quotient min // -1."""
    info = numpy.iinfo(dt)
    a = numpy.array([info.min, info.max, 7], dt)
    b = numpy.array([-1 if info.min else 1, 0, 2]).astype(dt)
    for kind in ("divide", "over"):
        assert_matches(lambda xp, a, b: _under_errstate(xp, kind, lambda: getattr(xp, name)(a, b)), a, b)
        assert_matches(lambda xp, a, b: _under_errstate(xp, kind, lambda: getattr(xp, name)(a[::2], b[::2])), a, b)


def _under_errstate(xp, kind, f):
    with xp.errstate(**{kind: "raise"}):
        return f()


def test_errstate_call_and_decorator():
    seen = []
    with shim.errstate(call=lambda kind, flag: seen.append((kind, flag)), divide="call"):
        shim.divide(shim.array([1.0]), 0.0)
    assert seen == [("divide by zero", 1)]

    @shim.errstate(over="raise")
    def f():
        return shim.exp(shim.array([1000.0]))
    with pytest.raises(FloatingPointError):
        f()
    shim.exp(shim.array([1000.0]))


# ------------------------------------------------------------------------------ printing and array API

def test_printing():
    a = numpy.array([[1.123456789, 2.0], [numpy.nan, -1e-9]])
    assert_matches(lambda xp, a: (xp.array_repr(a), xp.array_str(a, precision=3), xp.array2string(a, separator=",",
                                  suppress_small=True)), a)
    assert_matches(lambda xp: (xp.format_float_positional(xp.float32(0.1)), xp.format_float_scientific(1.5e-7, 3),
                               xp.base_repr(255, 16, 2), xp.binary_repr(-5, width=8), xp.binary_repr(xp.asarray(6))))
    for v in (3.7, True, numpy.float16(-5.5), numpy.uint64(2**64 - 1), "3"):  # base_repr takes int(v), as NumPy
        assert_matches(lambda xp, v: xp.base_repr(v, 5, 1), v)
    with shim.printoptions(precision=2):
        assert repr(shim.asarray([1.23456])) == "array([1.23])"
        assert shim.get_printoptions()["precision"] == 2


def test_array_namespace_info_and_astype():
    info = shim.__array_namespace_info__()
    assert info.dtypes() == numpy.__array_namespace_info__().dtypes()
    assert info.dtypes(kind="integral") == numpy.__array_namespace_info__().dtypes(kind="integral")
    assert info.default_dtypes() == numpy.__array_namespace_info__().default_dtypes()
    assert info.capabilities()["boolean indexing"] and str(info.default_device()) == "cpu"
    a = numpy.arange(4, dtype=numpy.int16)
    assert_matches(lambda xp, a: xp.astype(a, xp.float32), a)
    assert_matches(lambda xp, a: xp.astype(a, "u1", copy=False), a)
    assert_matches(lambda xp: xp.astype([1, 2], "f8"))
    x = shim.asarray(a)
    assert shim.astype(x, "int16", copy=False) is x and shim.astype(x, "int16") is not x


def test_trapezoid_axis_as_numpy_integer():
    """A NumPy integer axis is an index (it reached torch's sum as an array: RuntimeError)."""
    a = numpy.arange(6.0).reshape(2, 3)
    for make in (lambda xp: xp.int64(0), lambda xp: xp.int8(-1), lambda xp: xp.asarray(1)):
        assert_matches(lambda xp, a: xp.trapezoid(a, axis=make(xp)), a)
        assert_matches(lambda xp, a: xp.trapezoid(a, x=xp.asarray([0.0, 1.0, 3.0]), axis=make(xp)), a)
