"""Compiled (Inductor) numerics against NumPy where Inductor's code generation differs from eager ATen, as found
by ``python -m tests.tracing.compiled_sweep``.  Kept to a few compiles, each checking several ops at once."""

import warnings

import numpy as np
import pytest

from npcompile import _compile as C


def _bits_equal(got, want):
    """Same dtype, shape and values, zero signs included (any NaN equals any NaN)."""
    nan = np.isnan(want)
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(nan, np.isnan(got)) and \
        np.array_equal(got[~nan].view(f"u{got.itemsize}"), want[~nan].view(f"u{want.itemsize}"))


@pytest.mark.inductor
def test_compiled_float16_steps_float_floor_division_and_exact_casts():
    """float16 nextafter/spacing step the bit pattern (Inductor computes float16 in float32, where one float32
    step rounded back to float16 is no step: spacing gave 0); float floor division is NumPy's (Inductor's floor
    of the quotient gave -0.0 for -0.5 // 3 and inf for inf // 1); float-to-integer casts of values in range are
    exact, also 2**31 to uint32 and 2**63 to uint64; expm1 and arctanh keep their accuracy near 0 (Inductor's
    vectorized code wrote them as exp(x) - 1 and a log of a quotient: expm1(1e-10) gave 0 in float32)."""
    @C.compile
    def f(h, i8, x, q, s):
        return (np.nextafter(h[:, None], h[None, :]), np.spacing(h), np.spacing(i8),
                np.expm1(s), np.arctanh(s), np.expm1(s.astype(np.float64)), np.arctanh(s.astype(np.float64)),
                q[:, None] // q[None, :], np.divmod(q[:, None], 3)[0], q.astype(np.float32) // np.float32(3),
                x.astype(np.uint32), x.astype(np.uint64), x.astype(np.int64), x.astype(np.uint8), x.astype(np.int8))

    h = np.array([0.0, -0.0, 1.0, -1.0, 65504.0, -65504.0, 6e-8, -6e-8, 0.5, np.inf, -np.inf, np.nan, 2.5,
                  -0.0009765625], np.float16)
    i8 = np.array([0, 1, -1, 7, -128, 127, 100, -3] * 2, np.int8)
    x = np.array([0.0, 1.0, 2.0 ** 31, 2.0 ** 32 - 1, 3e9, 2.0 ** 63, 255.0, 127.0, -0.0, 0.99] * 2)
    q = np.array([0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 3.0, -7.0, 2.5, 1e300, -1e300, 1e-300, np.inf, -np.inf, np.nan,
                  0.1, 0.3])
    s = np.array([1e-10, -0.0, 0.0, 1.2e-38, 1e-5, -1e-7, 0.5, -0.75, 1.0, -1.0, 2.0, np.inf, np.nan] * 2, np.float32)
    got = f(h, i8, x, q, s)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        near = (np.expm1(s), np.arctanh(s), np.expm1(s.astype(np.float64)), np.arctanh(s.astype(np.float64)))
        want = (np.nextafter(h[:, None], h[None, :]), np.spacing(h), np.spacing(i8), q[:, None] // q[None, :],
                np.divmod(q[:, None], 3)[0], q.astype(np.float32) // np.float32(3))
        casts = [x.astype(np.uint32), x.astype(np.uint64), x[x < 2 ** 63].astype(np.int64),
                 x[x < 256].astype(np.uint8), x[x < 128].astype(np.int8)]
    for g, w in zip(got[:3] + got[7:10], want):
        assert _bits_equal(g, w)
    for g, w in zip(got[3:7], near):  # within one unit in the last place, zero signs kept
        assert g.dtype == w.dtype and np.array_equal(np.isnan(g), np.isnan(w))
        ok = ~np.isnan(w)
        assert np.array_equal(np.signbit(g[ok]), np.signbit(w[ok]))
        with np.errstate(invalid="ignore"):  # inf - inf
            assert np.all((g[ok] == w[ok]) | (np.abs(g[ok] - w[ok]) <= np.spacing(np.abs(w[ok]))))
    got = got[10:]
    # (2**63 is out of uint32's range: the C cast's value, which differs between Inductor's versions; see README)
    assert np.array_equal(got[0][x < 2 ** 32], casts[0][x < 2 ** 32]) and np.array_equal(got[1], casts[1])
    assert np.array_equal(got[2][x < 2 ** 63], casts[2])
    assert np.array_equal(got[3][x < 256], casts[3]) and np.array_equal(got[4][x < 128], casts[4])



def test_float_remainder_of_overflowing_quotient_is_a_readme_deviation():
    """README deviation: torch's vectorized fmod gives NaN where the quotient overflows (NumPy: the exact
    remainder, 0.0 here); floor division of the same values is NumPy's (inf), eager and traced."""
    f = C.compile(lambda a, b: (a % b, a // b, np.divmod(a, b)), backend="aot_eager")
    a, b = np.tile([1.0, -3.0, 7.5, 0.25], 8), np.tile([5e-324, 5e-324, 2.0, -5e-324], 8)
    rem, quot, (dq, dr) = f(a, b)
    with np.errstate(all="ignore"):
        assert np.array_equal(quot, a // b) and np.array_equal(dq, a // b)
        want = np.remainder(a, b)
        overflow = np.isinf(a / b)
    for r in (rem, dr):
        assert np.array_equal(r[~overflow], want[~overflow])
        assert np.all((r[overflow] == want[overflow]) | np.isnan(r[overflow])) and np.isnan(r).any()


@pytest.mark.inductor
def test_compiled_frexp_and_median_of_empty_complex_build():
    """Compiled float64 frexp (and frexp of integers, computed in float64) builds: Inductor's vectorized frexp
    declared the int32 exponent with the double vector's width and its C++ failed to compile; subnormals keep
    their exponent (torch.frexp flushes them to zero).  The median of complex values over no slices builds
    (Inductor's complex add of the empty middle values failed to lower), and over none is NumPy's nan+nanj."""
    f = C.compile(lambda d, s, i, z: (np.frexp(d), np.frexp(s), np.frexp(i), np.median(z, axis=1), np.median(z)),
                  fullgraph=True)
    d = np.array([0.0, -0.0, 1.0, -3.0, 0.75, 5e-324, -2.5e-310, 2.2250738585072014e-308, 1.7976931348623157e308,
                  np.inf, -np.inf, np.nan, 1e-300, 123456.789] * 2)
    s = d[np.abs(d) < 1e30].astype(np.float32)
    i = np.array([0, 1, -1, 3, -7, 2**31 - 1, -2**31, 1 << 20, 1000, -1000] * 2, np.int32)
    z = np.zeros((0, 3), np.complex128)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = f(d, s, i, z)
        for (gm, ge), x in zip(got[:3], (d, s, i)):
            wm, we = np.frexp(x)
            assert _bits_equal(gm, wm) and ge.dtype == we.dtype and np.array_equal(ge, we)
        for g, w in zip(got[3:], (np.median(z, axis=1), np.median(z))):
            g, w = np.asarray(g), np.asarray(w)
            assert g.dtype == w.dtype and g.shape == w.shape
            assert np.array_equal(np.isnan(g.real), np.isnan(w.real)) and np.array_equal(np.isnan(g.imag),
                                                                                          np.isnan(w.imag))


def _ipow(a, b):
    c = a.copy()
    c **= b
    return c


@pytest.mark.parametrize("fn, varies", [(lambda a, b: a ** b, True), (lambda a, b: np.power(a, b[:, None]), True),
                                        (_ipow, True), (lambda a, b: np.power.outer(a, b), True),
                                        (lambda a, b: a ** -2, False)])
def test_compiled_integer_power_of_a_negative_exponent_raises_numpys_value_error(fn, varies):
    """NumPy raises ValueError for an integer to a negative integer power; traced, the check was skipped and the
    compiled call returned torch's values (2 ** -1 gave 0).  It is an assertion in the graph now, raised as
    ValueError by the compiled call; the same compiled code still serves good exponents."""
    f = C.compile(fn, backend="aot_eager")
    a, bad = np.array([2, 3, -1, 1, 0] * 3), np.array([1, 2, 0, -3, 5] * 3)
    with pytest.raises(ValueError) as numpy_raised:
        fn(a, bad)
    with pytest.raises(ValueError) as compiled_raised:
        f(a, bad)
    assert str(compiled_raised.value) == str(numpy_raised.value)
    if varies:
        g, w = f(a, np.abs(bad)), fn(a, np.abs(bad))
        assert g.dtype == w.dtype and np.array_equal(g, w)


@pytest.mark.inductor
def test_compiled_int64_to_float32_rounds_once_and_negative_integer_powers_raise():
    """int64 -> float32 rounds once, as NumPy: Inductor's vectorized conversion went through float64 on AVX2 and
    rounded twice (2**60 + 2**36 + 1 gave 2**60, NumPy 2**60 + 2**37), in astype and in an unsafe out= cast alike.
    A negative integer exponent raises NumPy's ValueError from Inductor's code too."""
    @C.compile
    def f(i, e):
        out = np.zeros(i.shape, np.float32)
        np.add(i, 0, out=out, casting="unsafe")
        return i.astype(np.float32), out, i ** e

    i = np.array([2**60 + 2**36 + 1, -(2**60 + 2**36 + 1), 2**53 + 1, 2**24 + 1, 2**63 - 1, -2**63, 2**62 + 2**38 + 3,
                  2**40 + 2**16 + 1, 0, -1, 3] * 3)
    e = np.array([0, 1, 2, 3, 63] * 6 + [5, 7, 1])
    got = f(i, e)
    with np.errstate(all="ignore"):
        want = (i.astype(np.float32), i.astype(np.float32), i ** e)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and np.array_equal(g, w)
    e[4] = -1
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        f(i, e)


def _complex_products(a, b):
    return (np.prod(a), np.cumprod(a), np.prod(b, axis=1), np.cumprod(b, axis=0), np.multiply.reduce(b, axis=0),
            np.prod(b, axis=0, where=b.real != 1, initial=2 - 1j))


def _complex_product_cases():
    """Parts drawn from zeros, small powers of two, infinities and NaN (exact finite products: any order rounds
    alike), and finite values whose products overflow."""
    rng = np.random.default_rng(0)
    parts = np.array([0.0, -0.0, 1.0, -2.0, 0.5, np.inf, -np.inf, np.nan])
    for _ in range(6):
        a = rng.choice(parts, 12) + 0j
        a.imag = rng.choice(parts, 12)
        yield a
    yield np.array([1e200 + 1e200j, 1e200 - 1j, 2 + 0j, -1 + 1j] * 3)
    yield rng.choice([1.0, -2.0, 0.5], 12) + 1j * rng.choice([1.0, -0.5, 2.0], 12)


def _check_complex_products(f):
    for a in _complex_product_cases():
        with np.errstate(all="ignore"):
            want = _complex_products(a, a.reshape(3, 4))
        for g, w in zip(f(a, a.reshape(3, 4)), want):
            g, w = np.asarray(g), np.asarray(w)
            assert _bits_equal(g.real, w.real) and _bits_equal(g.imag, w.imag), (a, g, w)


def test_traced_complex_products_with_infinities_and_nans_are_numpys():
    """Traced complex prod/cumprod took torch's products, whose infinities and NaNs are not NumPy's (NumPy
    multiplies left to right, a reduction from 1+0j, a scan from the first element: inf+1j stays, torch gave
    nan+1j; where= and initial= are no neutral factors then); now a non-finite torch result is replaced by
    NumPy's (``_ufunc_methods._complex_products``)."""
    _check_complex_products(C.compile(_complex_products, backend="aot_eager"))


@pytest.mark.inductor
def test_compiled_complex_products_with_infinities_and_nans_are_numpys():
    """The same under Inductor (the op that runs NumPy's loops builds there; one that wrote into its complex
    argument did not: "auto_functionalized_v2 was not removed")."""
    _check_complex_products(C.compile(_complex_products))


def test_traced_singular_values_of_infinities_complex_searchsorted_and_reduceat_are_numpys():
    """Traced: singular values of a matrix with infinities are NaN (rank 0, cond inf) as NumPy's, and a NaN raises
    NumPy's LinAlgError (torch's own error escaped compiled code); complex searchsorted is NumPy's order (was
    UnsupportedFeature); reduceat with indices that decrease, repeat or end on the last element, and none."""
    def f(m, a, v, x, idx):
        return (np.linalg.svd(m, compute_uv=False), np.linalg.matrix_rank(m), np.linalg.cond(m),
                np.searchsorted(a, v), np.searchsorted(a, v, side="right"), np.add.reduceat(x, idx),
                np.maximum.reduceat(x, idx), np.subtract.reduceat(x, idx))

    g = C.compile(f, backend="aot_eager")
    m = np.array([[[1.0, np.inf], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
    parts = (-np.inf, -1.0, -0.0, 0.0, 2.0, np.inf, np.nan)
    v = np.array([complex(r, i) for r in parts for i in parts])
    x = np.arange(1.0, 9.0)
    for idx in ([0, 4, 1, 5], [7, 7, 0], np.zeros(0, np.int64)):
        args = (m, np.sort(v[::2]), v.reshape(7, 7), x, np.asarray(idx))
        with np.errstate(all="ignore"):
            want = f(*args)
        got = g(*args)
        for k, w in enumerate(want):  # (singular values: torch's LAPACK call rounds apart from NumPy's)
            assert got[k].dtype == w.dtype and (np.allclose if k < 3 else np.array_equal)(got[k], w, equal_nan=True)
    with pytest.raises(np.linalg.LinAlgError):
        g(np.where(np.isinf(m), np.nan, m), *args[1:])
