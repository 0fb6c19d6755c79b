"""Complex results at the edges (infinities, NaNs, signed zeros, overflow) against the installed NumPy.

The harness compares complex values by magnitude, so ``assert_parts`` also pins what it lets through: each part's
NaNs, infinities and zero signs, bit for bit.
"""

import itertools
import warnings

import numpy
import pytest
from numpy.exceptions import ComplexWarning

import npcompile._numpy as shim
from tests.numpy_conformance.harness import assert_matches

M = numpy.finfo(numpy.float64).max
PARTS = [0.0, -0.0, 1.0, -2.5, numpy.inf, -numpy.inf, numpy.nan, M, 1e-300]
CDT = [numpy.complex64, numpy.complex128]


def grid(dt, parts=PARTS):
    """Every complex number whose parts are in ``parts``."""
    with numpy.errstate(over="ignore"):
        re, im = numpy.array(list(itertools.product(parts, parts)), dtype=numpy.dtype(dt).char.lower()).T
    z = numpy.empty(re.shape, dt)
    z.real, z.imag = re, im
    return z


def assert_parts(fn, *args, exact=True):
    """``assert_matches``, then NaNs, infinities and zero signs of every part as NumPy's (with ``exact`` every
    finite value too)."""
    got = assert_matches(fn, *args)
    if got is None:  # NumPy raised (and so did the shim)
        return
    got = numpy.asarray(got)
    with numpy.errstate(all="ignore"):
        want = numpy.asarray(fn(numpy, *args))
    for part in ("real", "imag"):
        g, w = getattr(got, part), getattr(want, part)
        assert numpy.array_equal(numpy.isnan(g), numpy.isnan(w)), part
        ok = numpy.isnan(w) | (g == w) & (numpy.signbit(g) == numpy.signbit(w)) if exact else \
            numpy.isnan(w) | ~numpy.isfinite(w) & (g == w) | numpy.isfinite(w) & numpy.isfinite(g)
        zero = (w == 0) & (g == 0)
        ok &= ~zero | (numpy.signbit(g) == numpy.signbit(w))
        assert ok.all(), (part, args[0].ravel()[~ok.ravel()][:3] if args[0].shape == w.shape else "", g[~ok][:3],
                          w[~ok][:3])


@pytest.mark.parametrize("dt", CDT)
def test_sign(dt):
    """z/|z|; a |z| that overflows with finite parts gives (0, sign(im)); an infinite part its direction."""
    assert_parts(lambda xp, z: xp.sign(z), grid(dt))


@pytest.mark.parametrize("dt", CDT)
def test_multiply_square_and_powers_near_overflow(dt):
    """NumPy's multiply fuses a multiply-add per part (its power multiplies plainly).  Known deviation: a
    complex128 part that cancels keeps no trace of the fused product's rounding error (1e-300*M - M*1e-300 is
    about 1e-8 in NumPy, 0 here), so that grid leaves out 1e-300; complex64 is exact."""
    z = grid(dt)
    assert_parts(lambda xp, z: xp.square(z), z)
    assert_parts(lambda xp, z: z ** 2, z)
    pairs = z if dt == numpy.complex64 else grid(dt, PARTS[:-1])
    assert_parts(lambda xp, a, b: a * b, pairs[:, None], pairs[None, :], exact=dt == numpy.complex64)
    assert_parts(lambda xp, a, b: xp.power(a, b), z[:, None], numpy.array([[2, 3, -1, 5]], dtype=dt), exact=False)


@pytest.mark.parametrize("dt", CDT)
def test_log1p(dt):
    """log|1+z| + i arg(1+z), as NumPy computes it (|1+z| overflows in float32 for complex64)."""
    assert_parts(lambda xp, z: xp.log1p(z), grid(dt), exact=False)


@pytest.mark.parametrize("dt", CDT)
def test_arccos(dt):
    """Zero signs (arccos(0) is pi/2 - 0j) and the tiny real part of arccos(1e308 + 1j), to the last bits."""
    z = grid(dt, PARTS[:-2] + [1e308 if dt == numpy.complex128 else 1e38, 1e-30, 0.5, -1.0])
    assert_parts(lambda xp, a: xp.arccos(a), z, exact=False)
    big = numpy.array([1e308 + 1j, 1 + 1e-300j] if dt == numpy.complex128 else [1e38 + 1j, 1 + 1e-30j], dt)
    assert_matches(lambda xp, a: xp.arccos(a), big, rtol=1e-6 if dt == numpy.complex64 else 1e-14, atol=0)


@pytest.mark.parametrize("dt", CDT)
def test_expm1_near_zero(dt):
    """Each part to its own precision, also a real part that cancels (e**x cos y near 1: torch's complex expm1
    was 4e-14 off there, relatively)."""
    z = [1e-10 + 1e-10j, 1e-5 - 2e-5j]
    if dt == numpy.complex128:  # (complex64's NumPy cancels in float32, the shim in float64: not comparable)
        z += [0.18027174277665647 + 0.5835340293432044j, 1.076536353216408 - 1.2225316549174423j,
              0.7397169333609636 - 1.0730480045799375j]
    z = numpy.array(z, dtype=dt)
    tol = {"rtol": 1e-6, "atol": 0} if dt == numpy.complex64 else {"rtol": 2e-16, "atol": 0}
    assert_matches(lambda xp, a: xp.expm1(a).real, z, **tol)
    assert_matches(lambda xp, a: xp.expm1(a).imag, z, **tol)


@pytest.mark.parametrize("dt", CDT)
def test_clip_with_nan_and_equal_bounds(dt):
    """NumPy's complex clip: a NaN element stays; NaN parts of a bound compare false, so a NaN bound wins unless
    the element lies beyond it; ties give the bound (zero signs)."""
    z = grid(dt, [0.0, -0.0, 1.0, numpy.nan, -numpy.inf, 3.0])
    assert_parts(lambda xp, a, lo: xp.clip(a, lo, 3), z[:, None], z[None, :])
    assert_parts(lambda xp, a, hi: xp.clip(a, 0j, hi), z[:, None], z[None, :])
    assert_parts(lambda xp, a: xp.clip(a, None, complex(0, numpy.nan)), z)


@pytest.mark.parametrize("dt", CDT)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_median_and_nanmedian_with_nan(dt, axis):
    """A slice holding NaN gives its last value in NumPy's sort order (R+nanj, nan+Rj, nan+nanj last), not
    nan+nanj; nanmedian drops any number with a NaN part; a -0 median is 0."""
    z = grid(dt, [0.0, -0.0, 1.0, numpy.nan, -numpy.inf, 2.5])
    rows = numpy.stack([z[:6], z[6:12], z[12:18], numpy.full(6, z[7]), numpy.full(6, z[1]), z[30:]])
    assert_parts(lambda xp, a: xp.median(a, axis=axis), rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices: checked in test_statistics
        assert_parts(lambda xp, a: xp.nanmedian(a, axis=axis), rows)


def test_quantiles_of_complex_raise():
    z = grid(numpy.complex128)
    for f in ("quantile", "nanquantile"):
        assert_matches(lambda xp, a: getattr(xp, f)(a, 0.5), z)
    for f in ("percentile", "nanpercentile"):
        assert_matches(lambda xp, a: getattr(xp, f)(a, 50), z)


@pytest.mark.parametrize("dt", CDT)
def test_prod_and_cumprod_with_infinities(dt):
    """NumPy multiplies left to right: a reduction from 1+0j, a scan from the first element; textbook products,
    fused ones where its loop runs along a kept dim (an outer axis; a scan of two)."""
    z = grid(dt, [0.0, -0.0, 1.0, -2.5, numpy.inf, numpy.nan, 3e38 if dt == numpy.complex64 else M])
    rng = numpy.random.default_rng(0)
    for shape in [(3, 4), (2, 5), (5, 2), (1, 3)]:
        x = rng.choice(z, size=shape)
        for axis in (None, 0, 1):
            assert_parts(lambda xp, a: xp.prod(a, axis=axis), x, exact=False)
            assert_parts(lambda xp, a: xp.cumprod(a, axis=axis), x, exact=False)
    x = numpy.full(3, z[z.size // 2 + 10])
    assert_parts(lambda xp, a: xp.multiply.reduce(a), x, exact=False)
    assert_parts(lambda xp, a: xp.multiply.accumulate(a), x, exact=False)


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("a", [
    [[numpy.nan, 0], [0, 1.0]], [[4.0, numpy.nan], [numpy.nan, 9]], [[4.0, 2], [2, numpy.nan]],
    [[4.0, numpy.nan], [1, 9]], [[4, 0, 0], [0, numpy.nan, 0], [0, 0, -1]], [[4, 0, 0], [0, -1, 0], [0, 0, numpy.nan]],
    [[[4.0, 1], [1, numpy.nan]], [[1.0, 2], [2, 1]]], [[[4.0, 1], [1, numpy.nan]], [[1.0, 0.5], [0.5, 1]]],
])
@pytest.mark.parametrize("dt", [numpy.float64, numpy.float32, numpy.complex128])
def test_cholesky_with_nan(a, upper, dt):
    """NumPy's LAPACK fails only on a pivot <= 0; a NaN pivot goes on, spreading NaN (torch's stops there)."""
    x = numpy.array(a, dtype=dt)
    if dt == numpy.complex128:
        x = x + 1j * numpy.triu(numpy.tril(x, -1).T * 0 + 0.5, 1) * (x.shape[-1] > 2)
        x = (x + numpy.conj(numpy.swapaxes(x, -1, -2))) / 2
    assert_parts(lambda xp, m: xp.linalg.cholesky(m, upper=upper), x, exact=False)


@pytest.mark.parametrize("a", [[[1, 2], [3, numpy.nan]], [[numpy.nan] * 2] * 2, [[1, numpy.nan], [0, 1]],
                               [[1, 2], [3, numpy.inf]], [[0, 0], [0, 0]], [[0, 1], [1, 0]], [[-1, 0], [0, 2]]])
def test_slogdet_sign_with_nan(a):
    """NumPy's sign multiplies the LU pivots' signs (a NaN pivot counts as +1) and the permutation's parity.
    (Which row LAPACK picks as pivot beside a NaN differs between LAPACK builds: these cases do not depend on it.)"""
    x = numpy.array(a, dtype=float)
    assert_matches(lambda xp, m: xp.linalg.slogdet(m), x)
    assert_matches(lambda xp, m: xp.linalg.slogdet(m), x.astype(numpy.float32))


@pytest.mark.parametrize("dtype", [float, numpy.float32, numpy.float16])
def test_cov_of_complex_as_real_warns_as_numpy(dtype):
    x = numpy.array([[1 + 2j, 3 - 1j, 2], [0.5j, 1, 2]])
    with pytest.warns(ComplexWarning):
        numpy.cov(x, dtype=dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert_matches(lambda xp, m: xp.cov(m, dtype=dtype), x, rtol=2e-3, atol=2e-3)
    assert {w.category for w in caught} == {ComplexWarning}


@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_of_complex_nans(equal_nan):
    """NumPy's values-only unique of complex numbers uses a hash table: of the NaNs (one value) the first met
    stays; with indices or counts it sorts, and the first sorted NaN stays.  (Without ``equal_nan`` NumPy's
    unstable sort orders NaNs that tie, such as 0+nanj and -0+nanj, as it happens: zero signs unchecked.)"""
    z = grid(numpy.complex128, [0.0, -0.0, 1.0, numpy.nan, -numpy.inf])
    for order in (z, z[::-1], numpy.roll(z, 7)):
        (assert_parts if equal_nan else assert_matches)(lambda xp, a: xp.unique(a, equal_nan=equal_nan), order)
        assert_matches(lambda xp, a: xp.unique(a, return_counts=True, equal_nan=equal_nan), order)


@pytest.mark.parametrize("dt", CDT)
@pytest.mark.parametrize("name", ["divide", "power", "reciprocal", "exp", "expm1", "sqrt", "absolute", "angle",
                                  "isclose", "around", "nan_to_num", "mean", "var", "std", "argsort"])
def test_other_complex_paths_at_the_edges(dt, name):
    """Probed edges that already matched, pinned (transcendental ones to the last bits)."""
    z = grid(dt)
    calls = {"divide": lambda xp, a: a[:, None] / a[None, :], "power": lambda xp, a: xp.power(a[:, None], a[None, :]),
             "isclose": lambda xp, a: xp.isclose(a[:, None], a[None, :], equal_nan=True),
             "around": lambda xp, a: xp.around(a, 1), "mean": lambda xp, a: xp.mean(a.reshape(9, 9), axis=1),
             "var": lambda xp, a: xp.var(a.reshape(9, 9), axis=0), "std": lambda xp, a: xp.std(a.reshape(9, 9), axis=1),
             "argsort": lambda xp, a: xp.argsort(a, stable=True)}
    # (angle: NumPy's float32 arctan2 takes a SIMD loop on CPUs that have one, 1 ulp from the correctly rounded one)
    exact = name not in ("power", "exp", "expm1", "sqrt", "absolute", "angle", "var", "std")
    assert_parts(calls.get(name, lambda xp, a: getattr(xp, name)(a)), z, exact=exact)


@pytest.mark.parametrize("dt", CDT)
def test_traced_multiply_formula(dt):
    """Eager CPU multiplies borrow NumPy's loop; traced code takes the fused formula (``_ufuncs._fused``): the
    same infinities, NaNs and zero signs (complex64 exactly; complex128 values but cancelling parts)."""
    import npcompile

    z = grid(dt)
    a, b = numpy.repeat(z, z.size), numpy.tile(z, z.size)
    got = npcompile.compile(lambda x, y: (x * y, numpy.square(x)), backend="aot_eager", fullgraph=True)(a, b)
    with numpy.errstate(all="ignore"):
        wants = (a * b, numpy.square(a))
    for g, w in zip(got, wants):
        for part in ("real", "imag"):
            gp, wp = getattr(g, part), getattr(w, part)
            assert numpy.array_equal(numpy.isnan(gp), numpy.isnan(wp))
            same = numpy.isnan(wp) | (gp == wp) & (numpy.signbit(gp) == numpy.signbit(wp))
            if dt == numpy.complex128:  # (cancelling parts: within rounding of the product's size)
                with numpy.errstate(invalid="ignore"):
                    same |= numpy.isfinite(wp) & (wp != 0) & (numpy.abs(gp - wp) <= 4e-16 * numpy.abs(w))
            assert same.all(), (a[~same][:3], b[~same][:3], gp[~same][:3], wp[~same][:3])
