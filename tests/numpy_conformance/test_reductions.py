"""Differential tests of the reductions (sum ... nancumprod) against NumPy."""

import itertools
import warnings

import numpy
import pytest
from hypothesis import example, given, strategies as st

import npcompile._numpy as shim
from tests.numpy_conformance.harness import assert_matches
from tests.numpy_conformance.strategies import (
    ALL, BOOL, COMPLEX, FLOAT, INTEGER, REAL, arrays, axes, dtypes, shapes,
)

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

SMALL = shapes(max_dims=3, max_side=4)


def tol(a, scale=1.0, dtype=None):
    """Absolute tolerance for sums over ``a``: rounding grows with the magnitudes summed, not the result, in the
    coarser of ``a``'s precision and that of a ``dtype=`` the sum runs in."""
    if a.dtype.kind not in "fc":
        return {}
    mag = float(numpy.nansum(numpy.abs(a[numpy.isfinite(a)].astype(numpy.complex128)))) if a.size else 0.0
    eps = max(numpy.finfo(d).eps for d in (a.dtype, dtype) if d is not None and numpy.dtype(d).kind in "fc")
    return {"atol": 8 * eps * (mag + 1) * scale, "rtol": 4 * eps * scale + 1e-12}


@st.composite
def array_and_axis(draw, kinds=ALL, finite=False, shape=SMALL):
    a = draw(arrays(dtypes(kinds), shape, finite=finite))
    return a, draw(axes(a.ndim))


@given(array_and_axis(), st.booleans(), st.sampled_from([None, "int64", "float32", "complex128"]))
def test_sum(aa, keepdims, dtype):
    a, axis = aa
    assert_matches(lambda xp, a: xp.sum(a, axis=axis, keepdims=keepdims, dtype=dtype), a, **tol(a, 1, dtype))


@given(array_and_axis(finite=True), st.sampled_from([None, "int8", "uint64", "float64"]))
def test_prod(aa, dtype):
    a, axis = aa
    assert_matches(lambda xp, a: xp.prod(a, axis=axis, dtype=dtype), a, rtol=1e-2 if a.dtype == "f2" else 1e-4)


@pytest.mark.parametrize("kw", [{"where": True}, {"initial": 2 - 1j}, {"initial": 1j, "axis": (0, 1)},
                                {"axis": 1, "keepdims": True}, {"axis": 0}])
def test_complex_prod_with_where_and_initial_multiplies_only_the_chosen_elements(kw):
    """NumPy multiplies from initial= (else 1+0j) through the elements where= picks; neither a masked element taken
    as 1+0j nor initial= multiplied in afterwards is neutral to a product that is not finite (1+1j, inf+1j, then a
    masked 5: NumPy's inf+infj, the shim's was nan+nanj)."""
    a = numpy.array([[1 + 1j, complex(numpy.inf, 1), 5], [complex(1, numpy.inf), 2, -0.0], [1, 2j, complex(0, -1)]])
    where = numpy.array([[True, True, False], [True, False, True], [True, True, True]])
    kw = {**kw, "where": where} if kw.get("where") is True else kw
    assert_matches(lambda xp, a: xp.prod(a, **kw), a)
    assert_matches(lambda xp, a: xp.prod(a, where=xp.asarray(where), **{k: v for k, v in kw.items() if k != "where"}),
                   a.astype(numpy.complex64))


@given(array_and_axis(), st.booleans())
def test_max_min(aa, keepdims):
    a, axis = aa
    for f in ("max", "min", "amax", "amin"):
        assert_matches(lambda xp, a: getattr(xp, f)(a, axis=axis, keepdims=keepdims), a)


@given(array_and_axis(REAL, finite=True), st.integers(-3, 3), st.booleans())
def test_max_initial_where(aa, initial, use_where):
    a, axis = aa
    where = (a > 0) if use_where else True
    assert_matches(lambda xp, a, w: xp.max(a, axis=axis, initial=initial, where=w), a, where)
    assert_matches(lambda xp, a, w: xp.sum(a, axis=axis, initial=initial, where=w), a, where, **tol(a, 4))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int64", "uint64", "float32", "bool"])
@pytest.mark.parametrize("initial", [numpy.nan, numpy.inf, -numpy.inf, 1e30, numpy.float64(numpy.nan), 300.0, -1.0,
                                     255.5, numpy.float32(300), 1.5, 2.0**63, 2.0**64, 1j, numpy.complex64(1),
                                     numpy.array([2]), numpy.array([[2]]), [2], (2,), numpy.array(2.5)])
def test_initial_is_set_as_one_element(dt, initial):
    """initial= goes into the loop as NumPy sets one element: a float into an integer loop through int() (NaN:
    ValueError, infinities and out-of-range values: OverflowError), a 1-element array or a sequence is no
    scalar (ValueError; TypeError into an integer loop), a complex into a real loop is a TypeError."""
    a = numpy.ones((2, 3), dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_matches(lambda xp, a: xp.max(a, initial=initial), a)
        assert_matches(lambda xp, a: xp.add.reduce(a, axis=None, initial=initial), a)


@given(array_and_axis(), st.booleans())
def test_all_any(aa, keepdims):
    a, axis = aa
    assert_matches(lambda xp, a: xp.all(a, axis=axis, keepdims=keepdims), a)
    assert_matches(lambda xp, a: xp.any(a, axis=axis, keepdims=keepdims), a)


@given(array_and_axis(INTEGER + FLOAT, finite=True))
def test_ptp_count_nonzero(aa):
    a, axis = aa
    assert_matches(lambda xp, a: xp.ptp(a, axis=axis), a)
    assert_matches(lambda xp, a: xp.count_nonzero(a, axis=axis), a)
    assert_matches(lambda xp, a: xp.count_nonzero(a, axis=axis, keepdims=True), a)


@given(array_and_axis(finite=True), st.sampled_from([None, "float32", "float64", "complex128"]))
@example((numpy.array([[0, 0, 0], [1, 6144, 2047.04162]], complex), None), "float32")  # rounds in float32 (explore)
def test_mean(aa, dtype):
    a, axis = aa
    assert_matches(lambda xp, a: xp.mean(a, axis=axis, dtype=dtype), a, **tol(a, 2, dtype))


@given(array_and_axis(INTEGER + FLOAT + COMPLEX, finite=True, shape=shapes(max_dims=3, max_side=4)),
       st.integers(0, 2), st.booleans())
def test_var_std(aa, ddof, keepdims):
    a, axis = aa
    a = a / 64 if a.dtype.kind in "fc" else a  # keep squares representable in float16
    r = {"rtol": 3e-2, "atol": 3e-2} if a.dtype in ("f2",) else {"rtol": 1e-4, "atol": 1e-3}
    assert_matches(lambda xp, a: xp.var(a, axis=axis, ddof=ddof, keepdims=keepdims), a, **r)
    assert_matches(lambda xp, a: xp.std(a, axis=axis, correction=ddof), a, **r)


def test_var_of_huge_integers_differs_by_the_sum_order_only():
    """README deviation: sums round in torch's order, not NumPy's pairwise blocks (a last-bit difference); var's
    ``a - mean`` amplifies a mean one ulp off (2048 near 2**63) into up to that squared.  The bound pinned here."""
    rng = numpy.random.default_rng(0)
    eps = numpy.finfo(numpy.float64).eps
    for n in (2, 3, 9, 13, 34, 200):
        for bits in (4, 20, 40, 61):
            a = (2**63 - 1 - rng.integers(0, 2**bits, n)).astype(numpy.int64) * rng.choice([-1, 1])
            spacing = numpy.spacing(abs(numpy.mean(a)))
            var, std = numpy.var(a), numpy.std(a)
            assert abs(float(shim.var(a)) - var) <= 16 * (spacing**2 + eps * var)
            assert abs(float(shim.std(a)) - std) <= 2 * (spacing + eps * std)


@pytest.mark.parametrize("dt", ["int32", "int64", "uint16", "uint32", "uint64"])
def test_mean_var_with_integer_dtype_divide_in_float64(dt):
    """An integer ``dtype=`` sum is divided as NumPy's true_divide of integers, in float64, then cast back:
    torch's int / int is float32 (mean(2**40 + [1, 2, 7], dtype=int64) gave 2**40, NumPy 2**40 + 3), and uint16
    by a where= count raised RuntimeError (torch has no uint16 / int64)."""
    a = numpy.array([[2**24 + 1, 2**24 + 2, 2**24 + 8], [2**40 + 1, 2**40 + 2, 2**40 + 7]])[:, :, None] + [0, 5]
    a = a % 2**16 if dt == "uint16" else a % 2**31 if dt in ("int32", "uint32") else a
    w = numpy.array([True, False])
    for kw in ({}, {"axis": 1}, {"axis": 1, "where": w}, {"axis": 1, "ddof": 1}, {"where": numpy.zeros(2, bool)}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mkw = {k: v for k, v in kw.items() if k != "ddof"}
            assert_matches(lambda xp, a: xp.mean(a, dtype=dt, **mkw), a)
            assert_matches(lambda xp, a: xp.var(a, dtype=dt, **kw), a)


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64"])
def test_var_std_with_wide_unsigned_dtype_wrap(dt):
    """var/std with dtype=uint16/32/64 subtract the (truncated) mean and square with NumPy's wrapping ufuncs
    (torch has no such arithmetic: NotImplementedError); std roots an array variance in place (TypeError)."""
    a = numpy.array([[1, 2, 3], [4, 5, 6]], numpy.uint16)
    for kw in ({}, {"axis": 0}, {"axis": 1, "ddof": 1}, {"where": numpy.array([True, False, True])}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_matches(lambda xp, a: xp.var(a, dtype=dt, **kw), a)
            assert_matches(lambda xp, a: xp.std(a, dtype=dt, **kw), a)
            assert_matches(lambda xp, a: xp.var(a.astype(dt), **kw), a)


@pytest.mark.parametrize("make", [lambda xp: xp.int64(1), lambda xp: xp.float32(1.5), lambda xp: xp.array(1),
                                  lambda xp: xp.int8(0)])
def test_ddof_as_numpy_scalar(make):
    """ddof/correction given as a NumPy scalar or 0-D array are numbers (ours reached torch arithmetic:
    AttributeError or TypeError)."""
    a = numpy.arange(6.0).reshape(2, 3)
    for f in (lambda xp, a: xp.var(a, ddof=make(xp)), lambda xp, a: xp.std(a, axis=1, ddof=make(xp)),
              lambda xp, a: xp.std(a, correction=make(xp)), lambda xp, a: xp.nanvar(a, ddof=make(xp)),
              lambda xp, a: xp.var(a, ddof=make(numpy))):
        assert_matches(f, a)


@pytest.mark.parametrize("dt", ["int8", "int64", "uint64", "bool"])
def test_std_of_integer_dtype_roots_the_cast_variance(dt):
    """A 0-D std with an integer dtype= is NumPy's sqrt of the variance already cast to it: an empty array's NaN
    variance casts first (to 2**63 for uint64, whose root NumPy returns), then roots."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a in (numpy.array([], numpy.int32), numpy.array([1, 5], numpy.int32), numpy.array([[1, 5, 9]])):
            assert_matches(lambda xp, a: xp.std(a, dtype=dt), a)
            assert_matches(lambda xp, a: xp.std(a, dtype=dt, ddof=3), a)


@given(array_and_axis(FLOAT, finite=True))
def test_mean_var_where(aa):
    a, axis = aa
    w = a > 0
    assert_matches(lambda xp, a, w: xp.mean(a, axis=axis, where=w), a, w, rtol=2e-3, atol=2e-3)
    assert_matches(lambda xp, a, w: xp.var(a / 64, axis=axis, where=w), a, w, rtol=3e-2, atol=3e-2)


def test_var_mean_keyword_and_errors():
    a = numpy.arange(12.0).reshape(3, 4)
    assert_matches(lambda xp, a: xp.var(a, axis=1, mean=xp.mean(a, axis=1, keepdims=True)), a)
    assert_matches(lambda xp, a: xp.std(a, axis=1, mean=xp.mean(a, axis=1, keepdims=True), keepdims=True), a)
    assert_matches(lambda xp, a: xp.var(a, ddof=1, correction=1), a)
    assert_matches(lambda xp, a: xp.var(a, ddof=20), a)
    assert_matches(lambda xp, a: xp.var(a, dtype=numpy.int64), a.astype(int))
    assert_matches(lambda xp, a: xp.mean(a, dtype=int), a + 0.5)
    assert_matches(lambda xp, a: xp.mean(a), numpy.zeros((0, 3)))
    assert_matches(lambda xp, a: xp.mean(a, axis=0), numpy.zeros((0, 3)))
    # std roots in out= as sqrt(out, out=out): an integer or bool out is NumPy's casting error (found by hand)
    for dt in ("i4", "?", "f4", "c16"):
        for name in ("std", "var", "nanstd"):
            assert_matches(lambda xp, a: getattr(xp, name)(a, axis=0, out=xp.zeros(4, dt)), a)
    for dt in ("i1", "u1", "i2", int):  # likewise an integer dtype= for an array result; a 0-D one is cast back
        for kw in ({"axis": 0}, {"axis": 1, "keepdims": True}, {}, {"axis": (0, 1)}, {"keepdims": True}):
            assert_matches(lambda xp, a: xp.std(a, dtype=dt, **kw), a)
    # squares are summed in dtype= (int8 wraps as NumPy's; torch.sum widened it) from a - mean promoted (a complex
    # a keeps its imaginary part with a real dtype=)
    for x in (a, a + 1j, a.astype("i1"), a.astype("f2")):
        for dt in ("i1", "i2", "f4", "c8", None):
            assert_matches(lambda xp, x: xp.var(x, dtype=dt), x, rtol=1e-3)
            assert_matches(lambda xp, x: xp.var(x, axis=0, dtype=dt), x, rtol=1e-3)


@given(arrays(dtypes(ALL), SMALL, finite=True), st.sampled_from([None, "int64", "float64"]))
def test_cumsum_cumprod(a, dtype):
    axis = None if a.ndim == 0 else a.ndim - 1
    assert_matches(lambda xp, a: xp.cumsum(a, dtype=dtype), a, **tol(a, 2, dtype))
    assert_matches(lambda xp, a: xp.cumsum(a, axis=axis), a, **tol(a, 2))
    assert_matches(lambda xp, a: xp.cumprod(a, axis=axis), a, rtol=1e-2 if a.dtype.kind in "fc" else None)



@given(arrays(dtypes([numpy.dtype("float32"), numpy.dtype("complex64")]), shapes(max_dims=2, max_side=60),
              finite=True))
def test_single_precision_scans_are_numpys_bit_for_bit(a):
    """NumPy rounds every partial sum (product) to single precision; torch's CPU cumsum and float32 cumprod work in
    double and round once, and 60-80% of the shim's float32/complex64 results differed from NumPy's by an ulp or
    more (on the CPU the shim now runs NumPy's loops)."""
    for axis in [None, *range(a.ndim)]:
        assert_matches(lambda xp, a: xp.cumsum(a, axis=axis), a, rtol=0, atol=0)
    for axis in range(a.ndim):
        assert_matches(lambda xp, a: xp.add.accumulate(a, axis=axis), a, rtol=0, atol=0)
        assert_matches(lambda xp, a: xp.cumprod(1 + a / 64, axis=axis), a, rtol=0, atol=0)

@given(arrays(dtypes(REAL), SMALL, finite=True), st.booleans())
def test_cumulative(a, include_initial):
    axis = None if a.ndim <= 1 else 0
    assert_matches(lambda xp, a: xp.cumulative_sum(a, axis=axis, include_initial=include_initial), a, **tol(a, 2))
    assert_matches(lambda xp, a: xp.cumulative_prod(a, axis=axis, include_initial=include_initial), a,
                   rtol=1e-2 if a.dtype.kind in "fc" else None)
    assert_matches(lambda xp, a: xp.cumulative_sum(a), a, **tol(a, 2))  # ValueError beyond 1-D


@given(array_and_axis(INTEGER + FLOAT, finite=True), st.booleans(), st.booleans())
def test_average(aa, weighted, keepdims):
    a, axis = aa
    w = numpy.arange(1, a.size + 1, dtype=numpy.float64).reshape(a.shape) if weighted else None
    assert_matches(lambda xp, a: xp.average(a, axis=axis, weights=w, returned=True, keepdims=keepdims), a,
                   rtol=2e-3, atol=2e-3)


def test_average_errors():
    a = numpy.arange(6.0).reshape(2, 3)
    assert_matches(lambda xp, a: xp.average(a, axis=1, weights=[1, 2, 3]), a)
    assert_matches(lambda xp, a: xp.average(a, weights=[1, 2, 3]), a)  # TypeError: axis required
    assert_matches(lambda xp, a: xp.average(a, axis=0, weights=[1, 2, 3]), a)  # ValueError
    assert_matches(lambda xp, a: xp.average(a, axis=1, weights=[1, -1, 0]), a)  # ZeroDivisionError
    assert_matches(lambda xp, a: xp.average(a, axis=(0, 1), weights=numpy.ones((2, 3))), a)


def with_nans(draw, kinds=FLOAT):
    a = draw(arrays(dtypes(kinds), SMALL, finite=True)).copy()
    if a.size:
        mask = draw(arrays(numpy.bool_, a.shape, views=False))
        a[mask] = numpy.nan
    return a


@given(st.data())
def test_nan_reductions(data):
    a = with_nans(data.draw)
    axis = data.draw(axes(a.ndim))
    for f in ("nansum", "nanmean", "nanmax", "nanmin"):
        assert_matches(lambda xp, a: getattr(xp, f)(a, axis=axis), a, **tol(a, 4))
    assert_matches(lambda xp, a: xp.nanprod(a, axis=axis), a, rtol=1e-2)
    assert_matches(lambda xp, a: xp.nanvar(a / 64, axis=axis, ddof=1), a, rtol=3e-2, atol=3e-2)
    assert_matches(lambda xp, a: xp.nanstd(a / 64, axis=axis), a, rtol=3e-2, atol=3e-2)
    ax = None if a.ndim == 0 else 0
    assert_matches(lambda xp, a: xp.nancumsum(a, axis=ax), a, **tol(a, 4))
    assert_matches(lambda xp, a: xp.nancumprod(a, axis=ax), a, rtol=1e-2)


@given(array_and_axis(INTEGER + BOOL))
def test_nan_reductions_of_integers(aa):
    a, axis = aa
    for f in ("nansum", "nanmean", "nanmax", "nanvar"):
        assert_matches(lambda xp, a: getattr(xp, f)(a, axis=axis), a)


@pytest.mark.filterwarnings("ignore:Degrees of freedom", "ignore:divide by zero", "ignore:invalid value")
def test_nanvar_of_integers_without_degrees_of_freedom_is_var():
    """NumPy's nanvar/nanstd of data that cannot hold NaN is var/std: ddof >= n divides by zero (inf), where
    nanvar of floats gives NaN."""
    for a in (numpy.array([[1, 2, 3], [2, 2, 2]]), numpy.array([True, False]), numpy.array([200, 1], numpy.uint8)):
        for kw in ({"ddof": 5}, {"ddof": 2, "axis": -1}, {"ddof": 3, "axis": 0, "keepdims": True}):
            assert_matches(lambda xp, a: (xp.nanvar(a, **kw), xp.nanstd(a, **kw)), a)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_variance_of_complex_sums_real_squares(name):
    """|x - mean|**2 is summed as a real number (NumPy's .real first): no torch warning about a discarded
    imaginary part, and dtype=complex still gives a complex result."""
    a = numpy.array([[1 + 2j, 3 - 1j, 0j], [2j, 1, -1]], numpy.complex64)
    for kw in ({}, {"axis": 0}, {"dtype": numpy.complex128}, {"axis": 1, "ddof": 1, "keepdims": True}):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert_matches(lambda xp, a, **k: getattr(xp, name)(a, **k), a, **kw)


def test_nanmean_of_float16_sums_in_float16():
    """Unlike mean, NumPy's nanmean sums float16 in float16: 12 x 5460 overflows to inf (found by
    HYPOTHESIS_PROFILE=thorough); with dtype= it sums there."""
    for a in (numpy.full((3, 4), 5460, numpy.float16), numpy.array([1e-4, 3.3, 1000.1, numpy.nan], numpy.float16)):
        for kw in ({}, {"axis": 0}, {"dtype": numpy.float32}, {"axis": -1, "keepdims": True}):
            assert_matches(lambda xp, a: xp.nanmean(a, **kw), a, rtol=0, atol=0)
            assert_matches(lambda xp, a: xp.mean(a, **kw), a)


def test_nan_dtype_errors():
    a = numpy.array([1.0, numpy.nan])
    assert_matches(lambda xp, a: xp.nanmean(a, dtype=int), a)
    assert_matches(lambda xp, a: xp.nanstd(a, out=xp.zeros((), int)), a)
    assert_matches(lambda xp, a: xp.nanmax(a), numpy.array([numpy.nan, numpy.nan]))
    assert_matches(lambda xp, a: xp.nanmax(a), numpy.zeros(0))


@given(arrays(dtypes(ALL), SMALL), st.sampled_from([0, 3, -4, (0, 0), [0], 1.5]))
def test_bad_axis(a, axis):
    for f in ("sum", "max", "all", "mean", "var"):
        assert_matches(lambda xp, a: getattr(xp, f)(a, axis=axis), a)


def test_empty_max_needs_identity():
    e = numpy.zeros((0, 3))
    assert_matches(lambda xp, a: xp.max(a), e)
    assert_matches(lambda xp, a: xp.max(a, axis=0), e)
    assert_matches(lambda xp, a: xp.max(a, axis=1), e)
    assert_matches(lambda xp, a: xp.max(a, initial=-1.0), e)
    assert_matches(lambda xp, a: xp.max(a, where=a > 0), numpy.ones(3))


def test_uint_exact():
    u = numpy.array([2**64 - 1, 2**63 + 5, 7], dtype=numpy.uint64)
    for f in ("sum", "prod", "max", "min", "cumsum", "cumprod", "ptp"):
        assert_matches(lambda xp, a: getattr(xp, f)(a), u)
    u32 = numpy.array([2**32 - 1] * 3, dtype=numpy.uint32)
    assert_matches(lambda xp, a: xp.sum(a), u32)
    assert_matches(lambda xp, a: xp.sum(a, dtype=numpy.uint32), u32)


_F32 = numpy.array([1.1, 2.3, 1e8], numpy.float32)


@pytest.mark.parametrize("name, a, out", [
    ("sum", _F32, "float64"), ("sum", _F32, "complex128"), ("sum", numpy.array([1.5, 2.5, 0.25]), "int64"),
    ("sum", numpy.array([2**60, 1, -2**60, 3]), "float32"), ("prod", numpy.array([1e30, 1e30, 1e-30]), "float32"),
    ("prod", _F32, "float64"), ("max", numpy.array([2**60 + 1, 3]), "float64"), ("sum", _F32 * 1e-4, "float16"),
    ("mean", _F32, "float64"), ("mean", numpy.array([1.5, 2.5, 1e8]), "float32"),
    ("mean", numpy.array([0.1, 0.7, 1e4], numpy.float16), "float64"), ("mean", numpy.array([7, 8, 9, 4]), "int8"),
    ("mean", numpy.array([1.5, 2.5, 3.9]), "int64"),
    ("all", numpy.array([0.5, 2.0]), "int64"), ("any", numpy.array([0, 3, -4], numpy.int8), "float32")])
def test_reductions_into_an_out_of_another_dtype_run_in_numpys_dtype(name, a, out):
    """With ``out`` and no ``dtype``, NumPy resolves the loop with out's dtype: the input's promoted with out's.
    float32 data summed into a float64 out adds up in float64 (it was summed in float32, then cast: 3.4000001
    where NumPy has 3.39999998); floats summed into an int64 out are truncated once, at the end; float64
    products into a float32 out do not overflow midway; a mean is that sum in out, divided there.  Bit for bit."""
    got, want = (getattr(xp, name)(xp.asarray(a), out=xp.zeros((), out)) for xp in (shim, numpy))
    assert got.dtype == want.dtype and numpy.asarray(got).tobytes() == want.tobytes()


def test_out_and_methods():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    assert_matches(lambda xp, a: xp.sum(a, axis=1, out=xp.zeros((2, 4), dtype=int)), a)
    assert_matches(lambda xp, a: xp.sum(a, axis=1, out=xp.zeros((2, 1, 4)), keepdims=True), a)
    assert_matches(lambda xp, a: xp.sum(a, axis=1, out=xp.zeros((2, 4, 1))), a)
    assert_matches(lambda xp, a: xp.sum(a, axis=1, out=xp.zeros(4)), a)
    assert_matches(lambda xp, a: xp.mean(a, axis=(0, 2), out=xp.zeros(3, dtype=numpy.float32)), a)
    assert_matches(lambda xp, a: xp.cumsum(a, axis=2, out=xp.zeros((2, 3, 4))), a)
    assert_matches(lambda xp, a: xp.cumsum(a, out=xp.zeros(5)), a)
    assert_matches(lambda xp, a: (a.sum(axis=0), a.mean(1), a.std(), a.max(2), a.min(), a.prod(0), a.all(),
                                  a.any(1), a.cumsum(1), a.var(ddof=1)), a)
    r = shim.sum(shim.asarray(a))
    assert isinstance(r, shim.ndarray) and r.ndim == 0


def test_reductions_do_not_alias_input():
    a = shim.asarray(numpy.arange(4.0))
    r = shim.sum(a, axis=())
    r[0] = 100
    assert a[0] == 0


def test_mean_of_empty_warns():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        shim.mean(shim.zeros(0))
    assert any(issubclass(x.category, RuntimeWarning) for x in w)


def _fast_path_operands(dt):
    """A (3, 8) array of ``dt`` with its corners (NaN, signed zeros, infinities, wrapping extremes)."""
    d = numpy.dtype(dt)
    if d.kind == "b":
        return numpy.resize(numpy.array([True, False, False, True, True]), (3, 8))
    if d.kind in "iu":
        info = numpy.iinfo(d)
        return numpy.resize(numpy.array([info.max, 3, info.min, -1 if d.kind == "i" else 7, 0, 2, info.max], d),
                            (3, 8))
    return numpy.resize(numpy.array([numpy.nan, -0.0, 0.0, 1e308, 1e308, -numpy.inf, 2.5, -1.5, 0.0, -0.0, 3.0], d),
                        (3, 8))


def _same(got, expected, zero_signs=True):
    got = numpy.asarray(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if expected.dtype.kind in "fc":
        keep = ~numpy.isnan(expected)
        assert (numpy.isnan(got) == ~keep).all() and (got[keep] == expected[keep]).all()
        if zero_signs:
            assert got[keep].tobytes() == expected[keep].tobytes()
    else:
        assert numpy.array_equal(got, expected)


@pytest.mark.parametrize("dt", ["?", "i1", "i2", "i4", "i8", "u1", "u8", "f2", "f8"])
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scan_fast_path(name, dt):
    """cumsum/cumprod of bool, signed ints and float64 (one torch scan: sequential like NumPy's accumulate, small
    ints and bools in int64, wrapping) give NumPy's results bit for bit for axis None and every int axis, on
    contiguous, strided, transposed, empty and 0-D arrays (but a cumsum's zero signs: see the xfail below); bad
    axes raise NumPy's errors."""
    from npcompile._numpy import _reductions

    x = _fast_path_operands(dt)
    fast = numpy.dtype(dt).char in "?bhilqd"
    assert (shim.asarray(x).tensor.dtype in _reductions._PLAIN_SCAN_TYPES) == fast
    for v in (x, x[:, ::3], x.T, x[:0], x[1, 2:3].reshape(()), x[0]):
        for axis in [None] + list(range(-v.ndim, v.ndim)):
            _same(getattr(shim, name)(shim.asarray(v), axis=axis), getattr(numpy, name)(v, axis=axis),
                  zero_signs=name == "cumprod")
    for axis in (2, -3, 1.0, (0,)):
        with pytest.raises(Exception) as e:
            getattr(numpy, name)(x, axis=axis)
        with pytest.raises(e.type):
            getattr(shim, name)(shim.asarray(x), axis=axis)


@pytest.mark.parametrize("dt", ["?", "i1", "i4", "i8", "u1", "f4", "f8", "c16", "u8", "f2"])
@pytest.mark.parametrize("name", ["sum", "max", "min", "prod", "all", "any"])
def test_reduce_int_axis_fast_path(name, dt):
    """An int axis (negative too) reaches torch as it is: NumPy's dtype, shape and value for every axis and
    keepdims, NaN propagating through max/min, zero-size slices and 0-D arrays left to the general path."""
    x = _fast_path_operands(dt)
    if name in ("sum", "prod") and dt in "f4c16":  # no rounding to compare: small integers only
        x = numpy.resize(numpy.array([1.0, -2.0, 0.5, 3.0], dt), (3, 8))
    if name in ("max", "min") and dt == "c16":
        x = x.real.astype(dt)  # NumPy's complex order is the general path's (lexicographic)
    f = lambda xp, a, axis, keepdims: getattr(xp, name)(a, axis=axis, keepdims=keepdims)  # noqa: E731
    for v in (x, x.T, x[:, ::2], x[1]):
        for axis in list(range(-v.ndim, v.ndim)) + [None]:
            for keepdims in (False, True):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    # max/min: which of -0.0 and 0.0 NumPy keeps depends on its code path (SIMD or not)
                    _same(f(shim, shim.asarray(v), axis, keepdims), f(numpy, v, axis, keepdims),
                          zero_signs=name not in ("max", "min"))
    assert_matches(f, x[:0], 0, False)
    assert_matches(f, x[:0], -1, True)
    assert_matches(f, x[0, 0], None, False)
    assert_matches(f, x[0, 0], 0, False)


def test_cumsum_of_negative_zeros():
    """torch's scans start from +0.0, NumPy's accumulate from the first element: a prefix of -0.0 sums to -0.0."""
    x = numpy.array([-0.0, -0.0, 1.0])
    assert numpy.signbit(numpy.asarray(shim.cumsum(shim.asarray(x)))).tolist() == [True, True, False]


_A34 = numpy.arange(12.0).reshape(3, 4)
_A34N = numpy.where(_A34 == 1, numpy.nan, _A34)
_W34 = numpy.array([[True, False, True, True]] * 3)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("kw", [
    {"ddof": numpy.array([1])}, {"ddof": numpy.array([[1]])}, {"ddof": [1]}, {"ddof": numpy.array([1.5])},
    {"correction": numpy.array([1])}, {"ddof": numpy.array([True])}, {"ddof": True},
    {"ddof": numpy.array([1]), "axis": 0}, {"ddof": numpy.array([1]), "axis": 0, "keepdims": True},
    {"ddof": numpy.array([1, 2])}, {"ddof": numpy.array([1, 2, 3, 4]), "axis": 0},
    {"ddof": numpy.array([[1], [2], [3]]), "axis": 1, "keepdims": True}, {"ddof": numpy.array([[1, 2]]), "axis": 0},
    {"ddof": numpy.array([1, 2, 3]), "axis": 1}, {"ddof": numpy.array([1, 2, 3, 4]), "axis": 0, "where": _W34},
    {"ddof": numpy.array([2, 3]), "where": _W34}, {"ddof": numpy.array([1]), "out": numpy.zeros(())},
    {"ddof": numpy.array([1]), "axis": 0, "out": numpy.zeros(4)}, {"ddof": numpy.array([1.5]), "dtype": "float32"},
    {"ddof": numpy.array([14]), "dtype": "complex128"}, {"ddof": numpy.array([1]), "axis": 0, "dtype": "int64"},
])
@pytest.mark.parametrize("a", [_A34, _A34N, _A34.astype(numpy.int16)], ids=["float", "nan", "int16"])
def test_array_ddof(name, kw, a):
    """An array ddof divides the reduced sum by max(n - ddof, 0) with NumPy's broadcasting: into the result when
    that is an array, to ddof's shape when it is a scalar; var/std's own check ``ddof >= n`` needs one element
    (ValueError otherwise), nanvar's does not (ours reached torch with an ndarray: AttributeError/TypeError)."""
    if "out" in kw and name.startswith("nan") and a.dtype.kind != "f":
        pytest.skip("NumPy's nanvar of integers forwards out= to var (covered by 'var')")
    assert_matches(lambda xp, a, **k: getattr(xp, name)(a, **k), a, **kw)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("src", [numpy.array([1.0, 2.0, 3.0]), numpy.array([1.0, 1.0, 1.0]),
                                 numpy.array([1 + 1j, 2, 3j]), numpy.array([[0.5j, 1], [2, 3]]),
                                 numpy.array([1, 2, 4])])
@pytest.mark.parametrize("kw", [{"ddof": 3}, {"ddof": 5}, {"ddof": 1}, {"axis": 0, "ddof": 2}])
def test_complex_dtype_var_without_dof(name, dt, src, kw):
    """var/std with a complex dtype= divide a complex sum by the degrees of freedom: none left gives NumPy's
    complex x/0, (inf, nan) or (nan, nan), and std's complex sqrt of that; nanvar gives (nan, 0) and nanstd its
    sqrt (nan, nan).  Ours divided the real sum and cast: the imaginary part was 0."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = numpy.asarray(getattr(numpy, name)(src, dtype=dt, **kw))
        got = numpy.asarray(getattr(shim, name)(shim.asarray(src), dtype=dt, **kw))
    assert got.dtype == exp.dtype and got.shape == exp.shape
    for part in ("real", "imag"):
        numpy.testing.assert_allclose(getattr(got, part), getattr(exp, part), rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("ddof", [1, 6, 7])
def test_complex_out_var_without_dof(name, dt, ddof):
    """A complex out= (no dtype=) is where NumPy sums and divides: no degrees of freedom left give (inf, nan)
    there too (ours divided in the real variance's dtype and stored (inf, 0))."""
    z = numpy.array([[1 + 2j, 3 - 1j, 0.5j], [2, -1 + 1j, 4 - 4j]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = getattr(numpy, name)(z, ddof=ddof, out=numpy.zeros((), dt))
        got = numpy.asarray(getattr(shim, name)(shim.asarray(z), ddof=ddof, out=shim.zeros((), dt)))
    assert got.dtype == exp.dtype and got.shape == exp.shape
    for part in ("real", "imag"):
        numpy.testing.assert_allclose(getattr(got, part), getattr(exp, part), rtol=1e-6, equal_nan=True)


def _half_layouts():
    """float16 arrays in the layouts that decide where NumPy rounds: C and F order, permuted, and sliced views
    whose inner axes do not coalesce (above and below NumPy's 8192-element buffer)."""
    rng = numpy.random.default_rng(7)
    y = rng.random((20, 30, 7)).astype(numpy.float16)
    big = rng.random((12, 300, 70)).astype(numpy.float16)
    return {"C": y, "F": numpy.asfortranarray(y), "permuted": y.transpose(2, 0, 1), "sliced": y[:, ::2],
            "sliced inner": y[:, :, 1:], "big sliced": big[:, ::2], "ones": numpy.ones((5000, 3), numpy.float16)}


@pytest.mark.parametrize("layout", list(_half_layouts()))
@pytest.mark.parametrize("fn", ["sum", "prod"])
def test_float16_sum_and_prod_round_where_numpy_does(layout, fn):
    """NumPy adds each outer step of a float16 reduction into a float16 accumulator (a column sum of 5000 ones is
    2048), and its own buffering decides the rest: every axis combination, with initial=, where= and keepdims, equal
    to NumPy's bit for bit."""
    a = _half_layouts()[layout]
    if fn == "prod":
        a = a * numpy.float16(0.3) + numpy.float16(0.85)
    for k in range(a.ndim + 1):
        for axis in itertools.combinations(range(a.ndim), k):
            for kw in ({}, {"initial": numpy.float16(2.5)}, {"where": a > 0.9}, {"keepdims": True}):
                assert_matches(lambda xp, a: getattr(xp, fn)(a, axis, **kw), a, rtol=0, atol=0)


@pytest.mark.parametrize("kind", ["float32", "int8"])
def test_sum_into_float16_rounds_as_numpy(kind):
    """dtype=float16 on another input: NumPy casts each element, then rounds as for a float16 input."""
    a = (numpy.random.default_rng(3).random((300, 4)) * 100).astype(kind)
    for axis in (0, 1, None):
        assert_matches(lambda xp, a: xp.sum(a, axis, dtype=xp.float16), a, rtol=0, atol=0)
