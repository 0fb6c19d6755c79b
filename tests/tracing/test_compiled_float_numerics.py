"""float32/float64 numerics where the shim or Inductor's code differed from NumPy beyond an ulp, as found by
``python -m tests.tracing.compiled_sweep -d float64 float32 complex64``.  Compiles are few, each checking several
ops at once; transcendental functions are compared to within one unit in the last place (SLEEF vs libm)."""

import warnings

import numpy as np
import pytest

import npcompile
import npcompile._numpy as shim
from npcompile import _compile as C
from tests.numpy_conformance.harness import assert_matches


def _within_ulp(got, want):
    """Same dtype and shape, NaNs and infinities where NumPy has them, zero signs kept, else one ulp apart."""
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.array_equal(np.signbit(got[ok]), np.signbit(want[ok]))
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf, spacing(inf)
        assert np.all((got[ok] == want[ok]) | (np.abs(got[ok] - want[ok]) <= np.spacing(np.abs(want[ok]))))


def _numpy(f, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args)


_BIG64 = np.array([1.0, 1.5, 100.0, 2.0**28, 3e8, 1e20, 1.4e154, 1e300, 1.7976931348623157e308, np.inf, np.nan,
                   709.7, 709.9, 710.4, -710.4, 711.0, 0.5, -0.0, 5e-324, -7.0] * 2)
_BIG32 = np.array([1.0, 1.5, 100.0, 2.0**28, 3e8, 1e19, 2e19, 1e30, 3.4028235e38, np.inf, np.nan,
                   88.7, 88.8, 89.4, -89.4, 90.0, 0.5, -0.0, 1e-45, -7.0] * 2, np.float32)


def _overflow_edges(np, x, y):
    return (np.arccosh(x), np.arccosh(y), np.cosh(x), np.sinh(x), np.cosh(y), np.sinh(y), np.cbrt(x),
            np.logaddexp2(x, x), np.logaddexp2(y, y), np.logaddexp2(x, -x))


def _exact(np, y, h):
    """float32 remainders of quotients that overflow float32, float16 floor division."""
    a, b = y[:, None], y[None, :12]
    return (np.fmod(a, b), a % b, *np.divmod(a, b), h[:, None] // h[None, :])


_HALF = np.array([-4.98, 0.1871, -13750.0, 5.6e-3, 1.388e-3, -3.35e-5, 0.5825, -5.66e-6, 0.0, -0.0, 3.0, np.inf],
                 np.float16)


@pytest.mark.inductor
def test_compiled_overflow_edges_and_exact_float32_remainders():
    """Compiled arccosh is finite above sqrt(max) (SLEEF's acosh gave inf for arccosh(1.8e308)); cosh/sinh are
    finite where exp(|x|) overflows but the result does not (cosh(710.4) gave inf, eager too); logaddexp2 of
    equal operands is a + 1 exactly (torch's gave -4.8e-17 for (-1, -1)); cbrt of subnormals keeps its accuracy
    (cbrt(5e-324) was 60 ulps off).  float32 fmod/remainder/divmod are exact where |a / b| overflows float32
    (3.4e38 % 0.5 and 1 % 1e-45 gave NaN, eager and compiled); float16 floor division rounds once (0.1871 //
    3.35e-5 gave 5588, NumPy 5584)."""
    got = C.compile(lambda x, y, h: (*_overflow_edges(np, x, y), *_exact(np, y, h)))(_BIG64, _BIG32, _HALF)
    n = len(_overflow_edges(np, _BIG64[:1], _BIG32[:1]))
    for g, w in zip(got[:n], _numpy(_overflow_edges, np, _BIG64, _BIG32)):
        _within_ulp(g, w)
    equal = _numpy(lambda: (np.logaddexp2(_BIG64, _BIG64), np.logaddexp2(_BIG32, _BIG32)))
    assert np.array_equal(got[7], equal[0], equal_nan=True) and np.array_equal(got[8], equal[1], equal_nan=True)
    for g, w in zip(got[n:], _numpy(_exact, np, _BIG32, _HALF)):
        nan = np.isnan(w)
        assert g.dtype == w.dtype and np.array_equal(np.isnan(g), nan) and g[~nan].tobytes() == w[~nan].tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_eager_cosh_sinh_near_overflow_and_logaddexp2_of_equal_operands(dtype):
    x = _numpy((_BIG64 if dtype == np.float64 else _BIG32).astype, dtype)
    assert_matches(lambda xp, a: (xp.cosh(a), xp.sinh(a), xp.logaddexp2(a, a), xp.logaddexp2(a, -a)), x,
                   rtol=4e-16 if dtype == np.float64 else 2e-7, atol=0)
    assert_matches(lambda xp, a: xp.logaddexp2(a, a), x, rtol=0, atol=0)


def test_eager_cbrt_of_subnormals():
    x = np.array([5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 8.0, -27.0, 0.0, -0.0])
    got = np.asarray(shim.cbrt(shim.asarray(x)))
    _within_ulp(got, np.cbrt(x))


def test_cumsum_keeps_a_leading_run_of_negative_zeros():
    """NumPy's scan starts from the first element, torch's cumsum from +0.0: cumsum([-0.0, -0.0]) is -0.0 twice
    (it gave 0.0), eager and traced, also in the parts of a complex and along either axis."""
    x = np.array([[-0.0, -0.0, 1.0], [-0.0, 0.0, -0.0], [-0.0, -0.0, -1.0]])
    z = (x + 1j * x[::-1]).astype(np.complex64)
    f = lambda xp, a, b: (xp.cumsum(a), xp.cumsum(a, axis=0), xp.cumsum(a.astype(xp.float32), axis=1),
                          xp.cumsum(b, axis=0), xp.cumsum(b, axis=1))
    want = f(np, x, z)
    for got in (f(shim, shim.asarray(x), shim.asarray(z)), C.compile(lambda a, b: f(np, a, b), backend="aot_eager")(x, z)):
        for g, w in zip(got, want):
            g = np.asarray(g)
            assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes()  # zero signs too


def test_eager_exact_float32_remainders_and_float16_floor_division():
    for g, w in zip(_exact(shim, shim.asarray(_BIG32), shim.asarray(_HALF)), _numpy(_exact, np, _BIG32, _HALF)):
        g, nan = np.asarray(g), np.isnan(w)
        assert g.dtype == w.dtype and np.array_equal(np.isnan(g), nan) and g[~nan].tobytes() == w[~nan].tobytes()


def _tanh_inputs(dtype):
    """Every binade from the smallest subnormal to where tanh rounds to 1, both signs, both sides of our float32
    code's edges (the clamp at 9.5 for 8 lanes; the table's first interval end and its clamp), and the specials."""
    rng = np.random.default_rng(7)
    tiny = np.log(np.finfo(dtype).smallest_subnormal)
    x = np.exp(rng.uniform(tiny, 3.0, 20000)) * rng.choice([-1.0, 1.0], 20000)
    edge = np.nextafter(np.array([9.5, 0.078125, 15.5], dtype)[:, None], [0.0, 20.0]).ravel()
    return np.concatenate([x.astype(dtype), edge, -edge, [0.0, -0.0, np.inf, -np.inf, np.nan, 9.5, 20.0]]).astype(dtype)


def _within_one_ulp_of_exact(got, x, f):
    """``got`` is f(x) to within one ulp of the exact value (a long double reference), with NaNs where it has them."""
    with np.errstate(invalid="ignore"):  # sin(inf)
        want = f(x.astype(np.longdouble))
    assert got.dtype == x.dtype and np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    ulp = np.spacing(np.abs(want[ok]).astype(x.dtype)).astype(np.longdouble)
    assert np.max(np.abs(got[ok] - want[ok]) / ulp) <= 1.0
    return ok


@pytest.mark.inductor
@pytest.mark.parametrize("simdlen", [None, 256], ids=["native", "avx2"])
def test_compiled_vector_math(simdlen):
    """Our vector code (``npcompile/inductor/_vector_math.py``, where SLEEF's was slower or less accurate), for
    AVX-512 and for 8 lanes (AVX2): float32 tanh within one ulp of the exact value with signs of zero kept
    (float64 keeps SLEEF's); float32 sin and cos within one ulp (ATen's are SLEEF's 3.5-ulp ones: 2.3 ulp seen);
    copysign as bit operations, bit for bit NumPy's, NaNs' signs included."""
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    x32, x64 = _tanh_inputs(np.float32), _tanh_inputs(np.float64)
    y32, y64 = x32[::-1].copy(), x64[::-1].copy()
    w32 = np.concatenate([x32, np.random.default_rng(8).uniform(-1e4, 1e4, 20000).astype(np.float32)])
    with inductor_config.patch({"cpp.simdlen": simdlen}):
        (t32, t64, s32, c32, *signed), codes = run_and_get_code(C.compile(
            lambda a, b, c, d, w: (np.tanh(a), np.tanh(b), np.sin(w), np.cos(w), np.copysign(a, c),
                                   np.copysign(d, b))), x32, x64, y32, y64, w32)
    assert "npc_vec_math::tanh" in "".join(codes) and ".copysign(" not in "".join(codes)
    for got, want in zip(signed, (np.copysign(x32, y32), np.copysign(y64, x64))):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    for got, x in ((t32, x32), (t64, x64)):
        ok = _within_one_ulp_of_exact(got, x, np.tanh)
        assert np.array_equal(np.signbit(got[ok]), np.signbit(x[ok]))
    _within_one_ulp_of_exact(s32, w32, np.sin)
    _within_one_ulp_of_exact(c32, w32, np.cos)


@pytest.mark.inductor
def test_compiled_nan_and_inf_tests_are_vector_compares():
    """``isnan``/``isinf`` in our vector code (lane compares; Inductor's called std::isnan per lane through memory),
    and what the shim builds on them (``fmax``, ``sign``, counting NaNs), as NumPy for both float widths."""
    from torch._inductor.utils import run_and_get_code

    x = np.random.default_rng(4).standard_normal(1003)
    x[::7], x[3::11], x[5::13], x[1], x[2] = np.nan, np.inf, -np.inf, -0.0, 5e-324
    y = x[::-1].copy()

    def f(a, b):
        return np.isnan(a), np.isinf(a), np.isfinite(a), np.isnan(a).sum(), np.fmax(a, b), np.sign(a)

    for dtype in (np.float64, np.float32):
        got, codes = run_and_get_code(C.compile(f), x.astype(dtype), y.astype(dtype))
        assert "std::isnan" not in "".join(codes) and "std::isinf" not in "".join(codes)
        for g, w in zip(got, f(x.astype(dtype), y.astype(dtype))):
            assert np.asarray(g).dtype == w.dtype and np.asarray(g).tobytes() == np.asarray(w).tobytes()


def _math_of_elements(x, k):
    return (x + np.tanh(x[0]) * np.sin(x[1]) - np.cos(x[2]) + np.sinh(x[3]) / np.cosh(x[4]) + np.expm1(x[5]) +
            np.arctanh(x[6] / 4) + np.arccosh(x[7] ** 2 + 1) + np.copysign(x[1], -1.0) + np.isnan(x[2]) +
            np.isinf(x[3]), k + k[0] // k[1])


@pytest.mark.inductor
def test_our_vector_ops_of_single_elements_compile():
    """Our vector ops (``_vector_math``, the AVX2 floor division) applied to elements, not arrays, inside a vector
    loop: Inductor falls back to the scalar op of the same name, and our functions' names were ``<lambda>``, so the
    compile failed and the whole function ran in NumPy."""
    x, k = np.random.default_rng(5).uniform(-2, 2, 37), np.arange(-40, 37)
    report = npcompile.explain(_math_of_elements, backend="inductor")(x, k)
    assert report.graph_count == 1 and not report.fallbacks, report
    for got, want in zip(report.result, _math_of_elements(x, k), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-14)
        assert got.dtype == want.dtype


@pytest.mark.inductor
def test_costly_math_on_strided_data_is_vectorized():
    """Loops calling costly math are vector loops also where Inductor's rule for strided loads would leave them
    scalar (``npcompile/inductor/_costly_math.py``): ``np.abs`` of complex numbers (parts read with stride 2) is no
    scalar ``std::hypot`` per element, within one ulp of the exact value; a strided ``exp`` too."""
    from torch._inductor.utils import run_and_get_code

    rng = np.random.default_rng(9)
    z = (rng.standard_normal(5000) * np.exp(rng.uniform(-300, 300, 5000))
         + 1j * rng.standard_normal(5000) * np.exp(rng.uniform(-300, 300, 5000)))
    z[:6] = [0.0, complex(np.inf, 1.0), complex(1.0, -np.inf), complex(np.nan, 1.0), complex(-0.0, 3e-320),
             1e308 + 1e308j]
    x = rng.uniform(-50, 50, (300, 40))
    (a128, a64, e), codes = run_and_get_code(C.compile(lambda z, w, x: (np.abs(z), np.abs(w), np.exp(x[:, ::3]))),
                                             z, z.astype(np.complex64), x)
    assert "std::hypot" not in "".join(codes) and "std::exp" not in "".join(codes)
    for got, w in ((a128, z), (a64, z.astype(np.complex64))):
        want = np.hypot(w.real.astype(np.longdouble), w.imag.astype(np.longdouble))
        assert got.dtype == w.real.dtype and np.array_equal(np.isnan(got), np.isnan(want))
        ok = np.isfinite(want)
        assert np.array_equal(got[~ok], want[~ok].astype(got.dtype), equal_nan=True)
        assert np.max(np.abs(got[ok] - want[ok]) / np.spacing(want[ok].astype(got.dtype)).astype(np.longdouble)) <= 1
    _within_one_ulp_of_exact(e, np.ascontiguousarray(x[:, ::3]), np.exp)


@pytest.mark.inductor
def test_compiled_float32_sinh_cosh():
    """float32 sinh and cosh in our vector code (``_vector_math``: float64 exp, a division, x + x**3/6 below 2**-9;
    ATen's ran the scalar function lane by lane): within one ulp of the exact values (0.5 seen; NumPy's own 1.4 and
    2.1), zero signs kept, overflow to inf exactly where float32 overflows."""
    x = np.concatenate([_tanh_inputs(np.float32), np.float32([2.0**-9, -2.0**-9, 89.41, -89.41, 89.42, -89.42])])
    s, c = C.compile(lambda a: (np.sinh(a), np.cosh(a)))(x)
    finite = np.abs(x) < 89.415
    _within_one_ulp_of_exact(s[finite], x[finite], np.sinh)
    _within_one_ulp_of_exact(c[finite], x[finite], np.cosh)
    assert np.array_equal(np.signbit(s[finite & ~np.isnan(x)]), np.signbit(x[finite & ~np.isnan(x)]))
    big = ~finite & np.isfinite(x)
    assert np.array_equal(s[big], np.copysign(np.inf, x[big])) and np.all(c[big] == np.inf)


@pytest.mark.inductor
def test_compiled_float32_cbrt():
    """float32 cbrt from a float32 first guess, exp2(log2|x| / 3), and one Newton step in float64 (where a float64
    pow was the guess): within one ulp of the exact root over every binade (0.5 seen; NumPy's own 1.9), signs of
    zero, infinities and NaN kept."""
    rng = np.random.default_rng(10)
    tiny = np.log(np.finfo(np.float32).smallest_subnormal)
    x = (np.exp(rng.uniform(tiny, np.log(3.4e38), 30000)) * rng.choice([-1.0, 1.0], 30000)).astype(np.float32)
    x = np.concatenate([x, np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 27.0, -8.0, 3.4028235e38, 1e-45])])
    got = C.compile(lambda a: np.cbrt(a))(x)
    _within_one_ulp_of_exact(got[np.isfinite(x)], x[np.isfinite(x)], np.cbrt)
    assert np.array_equal(np.signbit(got[~np.isnan(x)]), np.signbit(x[~np.isnan(x)]))
    assert np.array_equal(got[~np.isfinite(x)], x[~np.isfinite(x)], equal_nan=True) and got[-4] == 3 and got[-3] == -2
