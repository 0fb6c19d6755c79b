"""Tests for ``npcompile._numpy.random``: streams are statistically equivalent to NumPy's, not identical, so
values are compared by distribution (a two-sample Kolmogorov-Smirnov test against NumPy's own samples, and
moments), while dtypes, shapes and exception types are compared exactly."""

import math
import warnings

import numpy
import pytest
import torch
from hypothesis import given, settings, strategies as st

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from npcompile._numpy._ndarray import is_array0d

N = 4000
KS_C = 2.8  # two-sample KS critical value factor for alpha ~ 1e-6: loose, and the tests are seeded


def ks_distance(x, y):
    """The two-sample Kolmogorov-Smirnov statistic: the largest gap between the empirical CDFs."""
    x, y = numpy.sort(numpy.ravel(x)), numpy.sort(numpy.ravel(y))
    grid = numpy.concatenate([x, y])
    fx = numpy.searchsorted(x, grid, side="right") / x.size
    fy = numpy.searchsorted(y, grid, side="right") / y.size
    return numpy.abs(fx - fy).max()


def assert_same_distribution(ours, theirs):
    ours = numpy.asarray(ours, dtype=float)
    theirs = numpy.asarray(theirs, dtype=float)
    limit = KS_C * math.sqrt((ours.size + theirs.size) / (ours.size * theirs.size))
    d = ks_distance(ours, theirs)
    assert d < limit, f"KS distance {d:.4f} >= {limit:.4f}"


# (method, args) drawn with size=N from NumPy's and our generators, legacy and new API
DISTRIBUTIONS = [
    ("random_sample", ()), ("standard_normal", ()), ("standard_exponential", ()), ("standard_cauchy", ()),
    ("uniform", (-2.0, 3.0)), ("uniform", (3.0, -2.0)), ("normal", (1.5, 0.5)), ("exponential", (2.5,)),
    ("gamma", (0.3, 2.0)), ("gamma", (7.0, 0.5)), ("standard_gamma", (2.5,)), ("beta", (0.5, 0.5)),
    ("beta", (0.01, 0.02)), ("beta", (3.0, 9.0)), ("chisquare", (3.0,)), ("noncentral_chisquare", (3.0, 2.0)),
    ("noncentral_chisquare", (0.5, 0.0)), ("f", (4.0, 7.0)), ("noncentral_f", (4.0, 7.0, 3.0)),
    ("standard_t", (2.5,)), ("lognormal", (0.3, 0.7)), ("laplace", (1.0, 2.0)), ("logistic", (1.0, 2.0)),
    ("gumbel", (1.0, 2.0)), ("rayleigh", (2.0,)), ("weibull", (1.5,)), ("weibull", (0.0,)), ("pareto", (3.0,)),
    ("power", (0.5,)), ("wald", (2.0, 3.0)), ("triangular", (-1.0, 2.0, 3.0)), ("triangular", (0.0, 0.0, 1.0)),
    ("vonmises", (1.0, 0.5)), ("vonmises", (-2.0, 50.0)), ("vonmises", (0.0, 1e-9)), ("vonmises", (0.5, 1e7)),
    ("poisson", (3.5,)), ("poisson", (250.0,)), ("poisson", (0.0,)), ("binomial", (20, 0.3)),
    ("binomial", (1000, 0.99)), ("negative_binomial", (3.5, 0.4)), ("geometric", (0.2,)), ("geometric", (1.0,)),
    ("hypergeometric", (5, 5, 3)), ("hypergeometric", (120, 60, 77)), ("hypergeometric", (10**8, 3 * 10**8, 10**6)),
    ("hypergeometric", (1, 10**8, 10**7)), ("hypergeometric", (7, 0, 7)), ("zipf", (2.0,)), ("zipf", (1.1,)),
    ("zipf", (6.5,)), ("logseries", (0.5,)), ("logseries", (0.9999,)), ("logseries", (1e-6,)), ("logseries", (0.0,)),
]


@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("name,args", DISTRIBUTIONS, ids=[f"{n}{a}" for n, a in DISTRIBUTIONS])
def test_distribution_matches_numpy(api, name, args):
    if api == "legacy":
        ours, theirs = shim.random.RandomState(7), numpy.random.RandomState(7)
    else:
        if name == "random_sample":
            name = "random"
        ours, theirs = shim.random.default_rng(7), numpy.random.default_rng(7)
    try:
        b = getattr(theirs, name)(*args, size=N)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(ours, name)(*args, size=N)
        return
    a = getattr(ours, name)(*args, size=N)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert_same_distribution(a, b)


def test_moments():
    """Means within 6 standard errors of the exact ones (large samples, fixed seed)."""
    g = shim.random.default_rng(123)
    n = 200_000
    cases = [(g.normal(2.0, 3.0, n), 2.0, 9.0), (g.exponential(0.5, n), 0.5, 0.25),
             (g.gamma(2.0, 3.0, n), 6.0, 18.0), (g.poisson(4.0, n), 4.0, 4.0),
             (g.binomial(10, 0.25, n), 2.5, 1.875), (g.uniform(1, 5, n), 3.0, 16 / 12),
             (g.beta(2.0, 5.0, n), 2 / 7, 10 / (49 * 8)), (g.geometric(0.25, n), 4.0, 0.75 / 0.0625),
             (g.integers(0, 10, n), 4.5, 99 / 12), (g.chisquare(4.0, n), 4.0, 8.0)]
    for x, mean, var in cases:
        x = numpy.asarray(x, dtype=float)
        assert abs(x.mean() - mean) < 6 * math.sqrt(var / n), (mean, x.mean())
        assert abs(x.var() - var) < 0.05 * var, (var, x.var())


def assert_matches_pmf(samples, pmf):
    """A chi-square goodness-of-fit test of integer samples against the exact pmf ``pmf(k)`` (cells with an
    expected count below 5 are pooled; the critical value is the chi-square quantile at p ~ 1e-6)."""
    samples = numpy.asarray(samples).ravel()
    n = samples.size
    values, counts = numpy.unique(samples, return_counts=True)
    observed = dict(zip(values.tolist(), counts.tolist()))
    cells, rest_obs, rest_exp = [], n, n
    for k in range(int(values.min()), int(values.max()) + 1):
        e = n * pmf(k)
        if e >= 5:
            cells.append((observed.get(k, 0), e))
            rest_obs -= observed.get(k, 0)
            rest_exp -= e
    cells.append((rest_obs, max(rest_exp, 1e-9)))
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    critical = df * (1 - 2 / (9 * df) + 4.75 * math.sqrt(2 / (9 * df))) ** 3  # Wilson-Hilferty, z = 4.75
    assert stat < critical, f"chi-square {stat:.1f} >= {critical:.1f} with {df} degrees of freedom"


@pytest.mark.parametrize("api", ["legacy", "generator"])
def test_discrete_samplers_match_exact_pmfs(api):
    r = shim.random.RandomState(1) if api == "legacy" else shim.random.default_rng(1)
    n = 20_000
    assert_matches_pmf(r.hypergeometric(25, 35, 20, n),
                       lambda k: math.comb(25, k) * math.comb(35, 20 - k) / math.comb(60, 20))
    zeta2 = math.pi ** 2 / 6
    assert_matches_pmf(r.zipf(2.0, n), lambda k: k ** -2.0 / zeta2)
    zeta3 = 1.2020569031595942
    assert_matches_pmf(r.zipf(3.0, n), lambda k: k ** -3.0 / zeta3)
    for p in (0.3, 0.95):
        assert_matches_pmf(r.logseries(p, n), lambda k: -p ** k / (k * math.log1p(-p)))


def test_multivariate_hypergeometric():
    g, h = shim.random.default_rng(2), numpy.random.default_rng(2)
    colors = [30, 40, 50, 0]
    for method in ("marginals", "count"):
        x = numpy.asarray(g.multivariate_hypergeometric(colors, 60, size=N, method=method))
        y = h.multivariate_hypergeometric(colors, 60, size=N, method=method)
        assert x.dtype == y.dtype and x.shape == y.shape and (x.sum(1) == 60).all() and (x[:, 3] == 0).all()
        for i in range(3):
            assert_same_distribution(x[:, i], y[:, i])
    assert_matches_pmf(numpy.asarray(g.multivariate_hypergeometric([6, 9, 5], 8, size=20_000))[:, 1],
                       lambda k: math.comb(9, k) * math.comb(11, 8 - k) / math.comb(20, 8))
    for call in (lambda g: g.multivariate_hypergeometric([3, 4, 5], 4), lambda g: g.multivariate_hypergeometric(
            [3, 4], numpy.int32(1), (2, 3)), lambda g: g.multivariate_hypergeometric([], 0, 2),
                 lambda g: g.multivariate_hypergeometric([0, 0], 0), lambda g: g.multivariate_hypergeometric(
            numpy.array([3, 4], dtype=numpy.uint8), 7, 0)):
        assert_like(call, _generator_pair)


def test_per_sample_parameters():
    """Parameters that differ per sample: the rejection samplers redraw only their pending samples, each with its
    own parameters; hypergeometric searches each sample's own pmf row (large counts: wide rows)."""
    r = shim.random.RandomState(4)
    z = numpy.asarray(r.zipf([1.5, 3.0], size=(20_000, 2)))
    for col, a in ((0, 1.5), (1, 3.0)):
        zeta = sum(k ** -a for k in range(1, 200_000)) + 200_000 ** (1 - a) / (a - 1)
        assert_matches_pmf(numpy.minimum(z[:, col], 10**4), lambda k, a=a, zeta=zeta: k ** -a / zeta)
    v = numpy.asarray(r.vonmises([0.0, 2.0], [0.5, 40.0], size=(N, 2)))
    h = numpy.random.RandomState(4).vonmises([0.0, 2.0], [0.5, 40.0], size=(N, 2))
    for col in range(2):
        assert_same_distribution(v[:, col], h[:, col])
    good, bad, n = [25, 3, 40], [35, 9, 0], [20, 5, 17]
    x = numpy.asarray(r.hypergeometric(good, bad, n, size=(20_000, 3)))
    for col in range(3):
        g, b, m = good[col], bad[col], n[col]
        assert_matches_pmf(x[:, col], lambda k, g=g, b=b, m=m: math.comb(g, k) * math.comb(b, m - k)
                           / math.comb(g + b, m))
    colors = [10**4, 2 * 10**4, 3 * 10**4, 10**4]
    x = numpy.asarray(shim.random.default_rng(4).multivariate_hypergeometric(colors, 5000, size=N))
    y = numpy.random.default_rng(4).multivariate_hypergeometric(colors, 5000, size=N)
    assert (x.sum(1) == 5000).all()
    for col in range(4):
        assert_same_distribution(x[:, col], y[:, col])


def test_choice_without_replacement_from_a_large_population():
    """A few items of many come from deduplicated iid draws: distinct, in range, every position uniform."""
    g = shim.random.default_rng(6)
    x = numpy.array([numpy.asarray(g.choice(40, 10, replace=False)) for _ in range(3000)])
    assert x.dtype == numpy.int64 and all(len(set(row)) == 10 for row in x.tolist())
    for col in (0, 5, 9):
        assert_matches_pmf(x[:, col], lambda k: 1 / 40)
    big = numpy.asarray(g.choice(10**12, 5, replace=False))
    assert big.shape == (5,) and len(set(big.tolist())) == 5 and big.min() >= 0 and big.max() < 10**12
    assert_like(lambda g: g.choice(10**9, (2, 3), replace=False), _generator_pair)


def test_integers_and_randint_distribution():
    ours = numpy.asarray(shim.random.default_rng(3).integers(-3, 4, size=N))
    assert set(ours.tolist()) == set(range(-3, 4))
    assert_same_distribution(ours, numpy.random.default_rng(3).integers(-3, 4, size=N))
    ours = numpy.asarray(shim.random.RandomState(3).randint([0, 10], [5, 12], size=(N, 2)))
    assert ours[:, 0].min() == 0 and ours[:, 0].max() == 4 and set(ours[:, 1].tolist()) == {10, 11}
    ours = numpy.asarray(shim.random.default_rng(3).integers(250, 255, size=N, dtype=numpy.uint8, endpoint=True))
    assert ours.dtype == numpy.uint8 and set(ours.tolist()) == set(range(250, 256))


def test_choice_and_multinomial_distributions():
    g, h = shim.random.default_rng(5), numpy.random.default_rng(5)
    p = [0.1, 0.2, 0.3, 0.4]
    assert_same_distribution(g.choice(4, size=N, p=p), h.choice(4, size=N, p=p))
    counts = numpy.asarray(g.multinomial(100, p, size=N))
    assert counts.shape == (N, 4) and (counts.sum(1) == 100).all()
    assert numpy.allclose(counts.mean(0), numpy.multiply(p, 100), atol=0.5)
    d = numpy.asarray(g.dirichlet([0.5, 1.0, 2.5], size=N))
    assert numpy.allclose(d.sum(1), 1) and numpy.allclose(d.mean(0), [0.125, 0.25, 0.625], atol=0.02)
    tiny = numpy.asarray(g.dirichlet([1e-3, 1e-3], size=100))
    assert numpy.isfinite(tiny).all() and numpy.allclose(tiny.sum(1), 1)
    mv = numpy.asarray(g.multivariate_normal([1.0, -1.0], [[2.0, 0.6], [0.6, 1.0]], size=50_000))
    assert numpy.allclose(mv.mean(0), [1, -1], atol=0.05)
    assert numpy.allclose(numpy.cov(mv.T), [[2.0, 0.6], [0.6, 1.0]], atol=0.06)


def test_permutations():
    g = shim.random.default_rng(0)
    p = numpy.asarray(g.permutation(10))
    assert sorted(p.tolist()) == list(range(10)) and p.dtype == numpy.int64
    x = shim.arange(12).reshape(3, 4)
    r = g.permutation(x, axis=1)
    assert sorted(numpy.asarray(r)[0].tolist()) == [0, 1, 2, 3] and numpy.asarray(x)[0].tolist() == [0, 1, 2, 3]
    q = g.permuted(x, axis=1)
    assert all(sorted(row) == sorted(orig) for row, orig in zip(numpy.asarray(q).tolist(), numpy.asarray(x).tolist()))
    out = shim.empty((3, 4), dtype=int)
    assert g.permuted(x, out=out) is out and sorted(numpy.asarray(out).ravel().tolist()) == list(range(12))
    y = shim.arange(10)
    assert g.shuffle(y) is None and sorted(numpy.asarray(y).tolist()) == list(range(10))
    rows = shim.arange(6).reshape(3, 2)
    shim.random.shuffle(rows)
    assert sorted(numpy.asarray(rows).tolist()) == [[0, 1], [2, 3], [4, 5]]
    lst = [1, 2, 3, 4]
    shim.random.shuffle(lst)
    assert sorted(lst) == [1, 2, 3, 4]
    firsts = {builtins_tuple(numpy.asarray(g.permutation(3))) for _ in range(60)}
    assert len(firsts) == 6  # all orders appear


def builtins_tuple(a):
    return tuple(a.tolist())


# ------------------------------------------------------------------------------ dtypes and shapes


def _legacy_pair(seed=0):
    return shim.random.RandomState(seed), numpy.random.RandomState(seed)


def _generator_pair(seed=0):
    return shim.random.default_rng(seed), numpy.random.default_rng(seed)


def _module_pair(seed=0):
    """The legacy module functions (``np.random.gamma``...): methods of the seeded module state."""
    shim.random.seed(seed)
    numpy.random.seed(seed)
    return shim.random, numpy.random


def _result_type(x):
    """What a draw returns: a Python number (weak in promotion), a NumPy scalar, or an array (0-D too).  The shim's
    NumPy scalars are its 0-D arrays that are not ``is_array0d``."""
    if type(x) in (float, int):
        return type(x).__name__
    if isinstance(x, numpy.generic) or isinstance(x, shim.ndarray) and x.ndim == 0 and not is_array0d(x):
        return "NumPy scalar"
    return "array"


def assert_like(call, pair=_legacy_pair):
    """Same exception type as NumPy, or a result of NumPy's dtype and shape (values are random)."""
    ours, theirs = pair()
    try:
        expected = call(theirs)
    except Exception as e:
        with pytest.raises(type(e)):
            call(ours)
        return None
    got = call(ours)
    if isinstance(expected, bytes):
        assert isinstance(got, bytes) and len(got) == len(expected)
        return got
    assert _result_type(got) == _result_type(expected)
    e = numpy.asarray(expected)
    g = numpy.asarray(got)
    assert g.dtype == e.dtype, f"dtype {g.dtype} != NumPy's {e.dtype}"
    assert g.shape == e.shape, f"shape {g.shape} != NumPy's {e.shape}"
    return got


SIZES = st.one_of(st.none(), st.integers(0, 4), st.tuples(st.integers(0, 3), st.integers(1, 3)))

PARAMETRIC = {  # name -> valid positional parameters (scalars), for broadcasting checks
    "uniform": (0.0, 2.0), "normal": (0.0, 2.0), "exponential": (1.0,), "gamma": (2.0, 1.0), "beta": (1.0, 2.0),
    "chisquare": (2.0,), "noncentral_chisquare": (2.0, 1.0), "f": (2.0, 3.0), "noncentral_f": (2.0, 3.0, 1.0),
    "standard_t": (3.0,), "lognormal": (0.0, 1.0), "laplace": (0.0, 1.0), "logistic": (0.0, 1.0),
    "gumbel": (0.0, 1.0), "rayleigh": (1.0,), "weibull": (2.0,), "pareto": (2.0,), "power": (2.0,),
    "wald": (1.0, 1.0), "triangular": (0.0, 1.0, 2.0), "vonmises": (0.0, 1.0), "poisson": (2.0,),
    "binomial": (5, 0.5), "negative_binomial": (2.0, 0.5), "geometric": (0.5,), "standard_gamma": (2.0,),
    "hypergeometric": (5, 6, 3), "zipf": (2.0,), "logseries": (0.5,),
}


@pytest.mark.parametrize("name", sorted(PARAMETRIC))
@settings(max_examples=12)
@given(size=SIZES, shaped=st.integers(-1, 1), generator=st.booleans())
def test_dtype_and_shape(name, size, shaped, generator):
    params = list(PARAMETRIC[name])
    if shaped >= 0:  # one parameter as an array of shape (2,) or (3, 1)
        params[shaped % len(params)] = numpy.full((2,) if size is None else (3, 1), params[shaped % len(params)])
    assert_like(lambda r: getattr(r, name)(*params, size=size), _generator_pair if generator else _legacy_pair)


@given(size=SIZES)
def test_simple_draws_dtype_and_shape(size):
    for call in (lambda r: r.random_sample(size), lambda r: r.standard_normal(size), lambda r: r.rand(2, 3),
                 lambda r: r.randn(), lambda r: r.randn(4), lambda r: r.standard_exponential(size),
                 lambda r: r.standard_cauchy(size), lambda r: r.randint(5, size=size), lambda r: r.tomaxint(size),
                 lambda r: r.randint(-5, 5, size=size, dtype=numpy.int8), lambda r: r.bytes(5),
                 lambda r: r.choice(5, size), lambda r: r.choice([1.5, 2.5], size),
                 lambda r: r.multinomial(10, [0.5, 0.5], size), lambda r: r.dirichlet([1.0, 2.0], size),
                 lambda r: r.multivariate_normal([0.0, 1.0], numpy.eye(2), size)):
        assert_like(call)
    for call in (lambda g: g.random(size), lambda g: g.random(size, dtype=numpy.float32),
                 lambda g: g.standard_normal(size, dtype="f4"), lambda g: g.standard_exponential(size, numpy.float32),
                 lambda g: g.standard_gamma(2.0, size, numpy.float32), lambda g: g.standard_gamma([1.0, 2.0]),
                 lambda g: g.integers(9, size=size),
                 lambda g: g.integers(0, 2, size=size, dtype=bool), lambda g: g.integers(0, 5, size, numpy.uint16),
                 lambda g: g.choice(numpy.arange(12.0).reshape(3, 4), size, axis=1),
                 lambda g: g.choice(numpy.arange(6), size, replace=False) if (size or 0) != (0, 0) else g.random(),
                 lambda g: g.permutation(numpy.arange(6).reshape(2, 3), axis=-1), lambda g: g.bytes(3)):
        assert_like(call, _generator_pair)


@pytest.mark.parametrize("name", sorted(PARAMETRIC))
def test_module_functions(name):
    params = PARAMETRIC[name]
    assert_like(lambda r: getattr(r, name)(*params, size=(2, 3)), _module_pair)
    assert_like(lambda r: getattr(r, name)(*params), _module_pair)
    ours, theirs = _module_pair(11)
    assert_same_distribution(getattr(ours, name)(*params, size=N), getattr(theirs, name)(*params, size=N))


def test_module_simple_draws():
    for pair in (_module_pair, _legacy_pair):
        for call in (lambda r: r.random(4), lambda r: r.ranf((2, 2)), lambda r: r.sample(3), lambda r: r.random(),
                     lambda r: r.randn(2, 3), lambda r: r.standard_normal(3), lambda r: r.standard_exponential(2),
                     lambda r: r.standard_cauchy(), lambda r: r.bytes(4), lambda r: r.permutation(5),
                     lambda r: r.choice([1.5, 2.5], 4), lambda r: r.multinomial(5, [0.5, 0.5], 2),
                     lambda r: r.dirichlet([1.0, 2.0], 3), lambda r: r.multivariate_normal([0.0], [[1.0]], 2),
                     lambda r: r.standard_t(3.0, 2), lambda r: r.random(-1), lambda r: r.randn(-1)):
            assert_like(call, pair)
        with pytest.warns(DeprecationWarning):
            assert_like(lambda r: r.random_integers(1, 6, size=(2, 3)), pair)
        ours, theirs = pair(3)
        a, b = numpy.arange(10.0), shim.arange(10.0)
        assert ours.shuffle(b) is None and theirs.shuffle(a) is None
        assert sorted(numpy.asarray(b).tolist()) == list(range(10))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            x = numpy.asarray(ours.random_integers(1, 6, size=N))
            assert_same_distribution(x, theirs.random_integers(1, 6, size=N))
    assert_same_distribution(shim.random.ranf(N), numpy.random.ranf(N))


def test_randint_dtypes():
    for dt in (bool, numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8, numpy.uint16, numpy.uint32,
               numpy.uint64, int, "i2", float, numpy.float32):
        hi = 2 if dt is bool else 100
        assert_like(lambda r: r.randint(0, hi, size=7, dtype=dt))
        assert_like(lambda g: g.integers(0, hi, size=7, dtype=dt), _generator_pair)
    assert numpy.asarray(shim.random.randint(5)).dtype == numpy.int64


def test_out_arguments():
    g = shim.random.default_rng(0)
    out = shim.zeros((2, 3))
    assert g.random(out=out) is out and float(numpy.asarray(out).min()) >= 0 and numpy.asarray(out).any()
    assert g.standard_normal(out=out) is out
    assert g.standard_gamma(2.0, out=out) is out
    out32 = shim.zeros(4, dtype=numpy.float32)
    assert g.random(dtype=numpy.float32, out=out32) is out32
    for call in (lambda g, o: g.random(out=o, dtype=numpy.float32), lambda g, o: g.random(5, out=o)):
        with pytest.raises(type(_numpy_error(call))):
            call(g, out)


def _numpy_error(call):
    try:
        call(numpy.random.default_rng(0), numpy.zeros((2, 3)))
    except Exception as e:
        return e
    raise AssertionError("NumPy did not raise")


# ------------------------------------------------------------------------------ bad arguments


BAD_LEGACY = [
    lambda r: r.normal(0, -1), lambda r: r.normal(0, -0.0), lambda r: r.normal(0, [1, -1]),
    lambda r: r.normal(0, numpy.nan),
    lambda r: r.normal([0, 1], 1, size=3), lambda r: r.uniform(0, numpy.inf), lambda r: r.exponential(-1),
    lambda r: r.gamma(-1), lambda r: r.gamma(1, -1), lambda r: r.beta(0, 1), lambda r: r.beta(1, [1, -1]),
    lambda r: r.chisquare(0), lambda r: r.noncentral_chisquare(0, 1), lambda r: r.noncentral_chisquare(1, -1),
    lambda r: r.f(1, 0), lambda r: r.noncentral_f(1, 1, -1), lambda r: r.standard_t(0), lambda r: r.lognormal(0, -1),
    lambda r: r.laplace(0, -1), lambda r: r.logistic(0, -1), lambda r: r.gumbel(0, -1), lambda r: r.rayleigh(-1),
    lambda r: r.weibull(-1), lambda r: r.pareto(0), lambda r: r.power(0), lambda r: r.wald(0, 1),
    lambda r: r.wald(1, 0), lambda r: r.triangular(1, 0, 2), lambda r: r.triangular(0, 3, 2),
    lambda r: r.triangular(1, 1, 1), lambda r: r.vonmises(0, -1), lambda r: r.poisson(-1),
    lambda r: r.poisson(numpy.nan),
    lambda r: r.poisson(1e19), lambda r: r.binomial(-1, 0.5), lambda r: r.binomial(5, 1.5),
    lambda r: r.binomial(5, numpy.nan), lambda r: r.binomial(5, [0.5, -0.1]), lambda r: r.negative_binomial(0, 0.5),
    lambda r: r.geometric(0), lambda r: r.geometric(1.5),
    lambda r: r.multinomial(-1, [0.5, 0.5]), lambda r: r.multinomial(5, [0.8, 0.8, 0.1]),
    lambda r: r.multinomial(5, [-0.5, 1.5]), lambda r: r.dirichlet([0, 1.0]), lambda r: r.dirichlet([[1.0, 1.0]]),
    lambda r: r.multivariate_normal([0, 0], [[1, 0]]), lambda r: r.multivariate_normal([[0, 0]], numpy.eye(2)),
    lambda r: r.multivariate_normal([0], numpy.eye(2)),
    lambda r: r.multivariate_normal([0, 0], numpy.eye(2), check_valid="x"),
    lambda r: r.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise"),
    lambda r: r.randint(0), lambda r: r.randint(-3), lambda r: r.randint(5, 5),
    lambda r: r.randint(0, 300, dtype=numpy.uint8),
    lambda r: r.randint(-1, 3, dtype=numpy.uint8), lambda r: r.randint(0, 3, dtype=float),
    lambda r: r.randint(0, 3, size=-1),
    lambda r: r.rand(-1), lambda r: r.choice(0), lambda r: r.choice([[1, 2]]), lambda r: r.choice([]),
    lambda r: r.choice(3, p=[0.5, 0.5, 0.1]), lambda r: r.choice(3, p=[0.5, 0.5]),
    lambda r: r.choice(3, p=[1.5, -0.5, 0]),
    lambda r: r.choice(3, p=[numpy.nan, 0.5, 0.5]), lambda r: r.choice(3, 5, replace=False),
    lambda r: r.choice(3, 2, replace=False, p=[1, 0, 0]), lambda r: r.choice(3, 0, replace=False),
    lambda r: r.permutation(numpy.array(5)) if False else r.permutation(numpy.zeros(0)), lambda r: r.seed(-1),
    lambda r: r.seed(2**32), lambda r: r.seed(1.5), lambda r: r.seed([1, 2, 3]),
    lambda r: r.hypergeometric(-1, 5, 3), lambda r: r.hypergeometric(5, -1, 3), lambda r: r.hypergeometric(5, 5, 0),
    lambda r: r.hypergeometric(5, 5, 11), lambda r: r.hypergeometric(5, [1, 2], [3, 4, 5]),
    lambda r: r.hypergeometric(numpy.array([5.0, 6.5]), 1, 1), lambda r: r.hypergeometric(5, [5, -1], 1),
    lambda r: r.hypergeometric(5.5, 5, 3), lambda r: r.hypergeometric(2**40, 1, 3),
    lambda r: r.zipf(1.0), lambda r: r.zipf(0.5), lambda r: r.zipf(numpy.nan), lambda r: r.zipf([2.0, 1.0]),
    lambda r: r.logseries(1.0), lambda r: r.logseries(-0.1), lambda r: r.logseries(numpy.nan),
    lambda r: r.logseries([0.5, 1.0]), lambda r: r.logseries(-0.0), lambda r: r.binomial(numpy.array([5.0]), 0.5),
]


@pytest.mark.parametrize("pair", [_legacy_pair, _module_pair], ids=["RandomState", "module"])
@pytest.mark.parametrize("i", range(len(BAD_LEGACY)))
def test_bad_arguments_legacy(i, pair):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_like(BAD_LEGACY[i], pair)


@pytest.mark.parametrize("make", [lambda m: m.random.default_rng(0), lambda m: m.random.RandomState(0),
                                  lambda m: m.random], ids=["Generator", "RandomState", "module"])
@pytest.mark.parametrize("call", [lambda m, r: r.permutation(m.array(5)), lambda m, r: r.permutation(m.int8(5)),
                                  lambda m, r: r.permutation(m.array(5.0)), lambda m, r: r.choice(5.5),
                                  lambda m, r: r.choice(m.float64(5)), lambda m, r: r.choice(m.array(5)),
                                  lambda m, r: r.choice(m.array(5.5))])
def test_zero_d_arrays_and_float_scalars_as_population(make, call):
    """A 0-D array is no integer to permutation (NumPy: IndexError, Generator's AxisError), while a NumPy integer
    scalar is; a float is neither a population nor a size to choice (ValueError, not TypeError)."""
    try:
        expected = call(numpy, make(numpy))
    except Exception as e:
        with pytest.raises(type(e)):
            call(shim, make(shim))
        return
    got = call(shim, make(shim))
    assert numpy.asarray(got).shape == numpy.asarray(expected).shape
    assert numpy.asarray(got).dtype == numpy.asarray(expected).dtype


BAD_GENERATOR = [
    lambda g: g.random(dtype=numpy.int32), lambda g: g.standard_normal(dtype=numpy.float16),
    lambda g: g.integers(1, 0, endpoint=True), lambda g: g.integers(1, 1), lambda g: g.integers(0, 2, dtype=bool),
    lambda g: g.integers(0, 257, dtype=numpy.uint8), lambda g: g.integers([0, 5], [3, 2]),
    lambda g: g.integers(0, 3, dtype=float),
    lambda g: g.choice(0), lambda g: g.choice(0, 0), lambda g: g.choice(3, 5, replace=False),
    lambda g: g.choice(numpy.ones((2, 3)), axis=2),
    lambda g: g.dirichlet([0.0, 1.0]), lambda g: g.dirichlet([-1.0, 1.0]), lambda g: g.negative_binomial(1, 0),
    lambda g: g.multivariate_normal([0, 0], numpy.eye(2), method="qr"), lambda g: g.normal(0, -1),
    lambda g: g.permutation(numpy.ones((2, 2)), axis=2),
    lambda g: g.hypergeometric(5, 5, 0), lambda g: g.hypergeometric(5, 5, -1), lambda g: g.hypergeometric(10**9, 1, 1),
    lambda g: g.hypergeometric(1, [5, 10**9], 1), lambda g: g.hypergeometric(5, 5, 2.5), lambda g: g.zipf(numpy.inf),
    lambda g: g.zipf(1e300, 3), lambda g: g.logseries(0.0, 2),
    lambda g: g.multivariate_hypergeometric([3, 4, 5], 13), lambda g: g.multivariate_hypergeometric([3, -4], 1),
    lambda g: g.multivariate_hypergeometric([3.5, 4], 1), lambda g: g.multivariate_hypergeometric([[3, 4]], 1),
    lambda g: g.multivariate_hypergeometric(3, 1), lambda g: g.multivariate_hypergeometric([True, False], 1),
    lambda g: g.multivariate_hypergeometric([3, 4], -1), lambda g: g.multivariate_hypergeometric([3, 4], 2.5),
    lambda g: g.multivariate_hypergeometric([3, 4], [2]), lambda g: g.multivariate_hypergeometric([3, 4], 1, 2.5),
    lambda g: g.multivariate_hypergeometric([3, 4], 1, method="x"),
    lambda g: g.multivariate_hypergeometric([10**9, 1], 1), lambda g: g.multivariate_hypergeometric([2**63 - 1, 1], 1),
]


@pytest.mark.parametrize("i", range(len(BAD_GENERATOR)))
def test_bad_arguments_generator(i):
    assert_like(BAD_GENERATOR[i], _generator_pair)


def test_seeds():
    for bad in (-1, 1.5, "x"):
        with pytest.raises(type(_seed_error(bad))):
            shim.random.default_rng(bad)
    assert shim.random.default_rng([1, 2, 3]).random() is not None
    assert shim.random.default_rng(2**80).random() is not None
    g = shim.random.default_rng(3)
    assert shim.random.default_rng(g) is g


def test_seeds_use_all_their_bits():
    """torch's CPU manual_seed keeps 32 bits: default_rng(1) and default_rng(1 + 2**32) drew the same numbers."""
    first = numpy.asarray(shim.random.default_rng(1).random(4))
    for other in (1 + 2**32, 1 + 2**62, [1, 0]):
        assert not numpy.array_equal(first, numpy.asarray(shim.random.default_rng(other).random(4)))
    numpy.testing.assert_array_equal(first, numpy.asarray(shim.random.default_rng(1).random(4)))


def test_numpy_seed_material():
    """NumPy's SeedSequence and bit generators seed ours: the same seed material gives the same draws; a bit
    generator advances (two Generators made from one draw differently, as they share it in NumPy)."""
    assert shim.random.SeedSequence is numpy.random.SeedSequence and shim.random.PCG64 is numpy.random.PCG64
    same = [numpy.asarray(shim.random.default_rng(numpy.random.SeedSequence(7)).random(3)) for _ in range(2)]
    numpy.testing.assert_array_equal(*same)
    bg = numpy.random.PCG64(3)
    a, b = (numpy.asarray(shim.random.Generator(bg).random(3)) for _ in range(2))
    assert not numpy.array_equal(a, b)
    assert type(shim.random.default_rng(numpy.random.default_rng(5)).integers(9)) is not int
    children = shim.random.default_rng(0).spawn(3)
    assert len({c.random() for c in children}) == 3
    assert_same_distribution(numpy.asarray(shim.random.default_rng(numpy.random.Philox(1)).random(N)),
                             numpy.random.default_rng(1).random(N))
    with pytest.raises(AttributeError):
        shim.random.Generator(5)


def _seed_error(seed):
    try:
        numpy.random.default_rng(seed)
    except Exception as e:
        return e
    raise AssertionError("NumPy accepted the seed")


# ------------------------------------------------------------------------------ reproducibility and state


def test_reproducible_with_seed():
    def draws(r):
        return numpy.concatenate([numpy.ravel(numpy.asarray(x, dtype=float)) for x in (
            r.random_sample(5), r.normal(size=3), r.randint(0, 100, 4), r.gamma(0.5, size=3), r.poisson(3.0, 3),
            r.binomial(10, 0.5, 3), r.choice(10, 3, replace=False), r.permutation(5), r.vonmises(0, 1, 3),
            r.beta(0.5, 0.5, 2), r.multinomial(10, [0.3, 0.7]), r.dirichlet([1, 2]), r.hypergeometric(9, 8, 7, 3),
            r.zipf(2.0, 3), r.logseries(0.7, 3))])

    assert numpy.array_equal(draws(shim.random.RandomState(42)), draws(shim.random.RandomState(42)))
    assert not numpy.array_equal(draws(shim.random.RandomState(42)), draws(shim.random.RandomState(43)))
    shim.random.seed(11)
    a = draws(shim.random)
    shim.random.seed(11)
    assert numpy.array_equal(a, draws(shim.random))
    g1, g2 = shim.random.default_rng(5), shim.random.default_rng(5)
    assert numpy.array_equal(numpy.asarray(g1.normal(size=10)), numpy.asarray(g2.normal(size=10)))
    shim.random.seed(None)  # back to torch's global generator
    torch.manual_seed(9)
    x = numpy.asarray(shim.random.rand(4))
    torch.manual_seed(9)
    assert numpy.array_equal(x, numpy.asarray(shim.random.rand(4)))


def test_get_set_state():
    r = shim.random.RandomState(1)
    state = r.get_state()
    a = numpy.asarray(r.normal(size=5))
    r.set_state(state)
    assert numpy.array_equal(a, numpy.asarray(r.normal(size=5)))
    shim.random.seed(3)
    s = shim.random.get_state()
    b = numpy.asarray(shim.random.rand(3))
    shim.random.set_state(s)
    assert numpy.array_equal(b, numpy.asarray(shim.random.rand(3)))
    with pytest.raises(UnsupportedFeature):
        r.set_state(numpy.random.RandomState(0).get_state())
    shim.random.seed(None)


def test_not_modelled():
    g = shim.random.default_rng(0)
    for call in (lambda: g.bit_generator, lambda: shim.random.get_bit_generator()):
        with pytest.raises(UnsupportedFeature):
            call()


def test_module_surface():
    legacy = [n for n in dir(numpy.random.RandomState) if not n.startswith("_")]
    for name in legacy:
        if name not in ("get_bit_generator", "set_bit_generator"):
            assert hasattr(shim.random.RandomState, name), name
    for name in dir(numpy.random.Generator):
        if not name.startswith("_"):
            assert hasattr(shim.random.Generator, name), name
    for name in ("rand", "randn", "randint", "random", "random_sample", "ranf", "sample", "seed", "choice",
                 "shuffle", "permutation", "bytes", "get_state", "set_state", "default_rng", "RandomState"):
        assert hasattr(shim.random, name), name
    assert type(shim.random.rand()) is float and type(shim.random.normal()) is float


def test_float64_normals_from_pairs_of_uniforms():
    """CPU float64 normals come in Box-Muller pairs: odd and empty sizes keep their shape, the two members of a
    pair are uncorrelated (also in squares: a shared radius would correlate them), moments are the normal's."""
    g = shim.random.default_rng(5)
    assert type(g.standard_normal()) is float and g.standard_normal((3, 0)).shape == (3, 0)
    assert g.standard_normal((3, 5)).shape == (3, 5) and numpy.isfinite(numpy.asarray(g.normal(size=7))).all()
    n = 400_000
    z = numpy.asarray(g.standard_normal(n))
    first, second = z[: n // 2], z[n // 2:]  # pair members
    se = 1 / math.sqrt(n / 2)
    assert abs(numpy.corrcoef(first, second)[0, 1]) < 5 * se
    assert abs(numpy.corrcoef(first**2, second**2)[0, 1]) < 5 * se
    assert abs(z.mean()) < 5 / math.sqrt(n) and abs(z.var() - 1) < 5 * math.sqrt(2 / n)
    assert abs((z**4).mean() - 3) < 5 * math.sqrt(96 / n)
