"""Differential tests of median, quantiles, histograms, bincount, digitize, cov and corrcoef against NumPy."""

import contextlib
import warnings

import numpy
import pytest
from hypothesis import example, given, strategies as st

import npcompile
import npcompile._numpy as shim
from tests.numpy_conformance.harness import assert_matches
from tests.numpy_conformance.strategies import ALL, BOOL, FLOAT, INTEGER, REAL, arrays, axes, dtypes, near_ends, shapes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

METHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]
NONEMPTY = shapes(min_dims=1, max_dims=3, min_side=1, max_side=5)
WIDE = [numpy.dtype(t) for t in ("uint16", "uint32", "uint64")]  # torch has few kernels for these
NUMERIC = [d for d in ALL if d.kind != "b"]


@given(arrays(dtypes(NUMERIC), shapes(max_dims=3, max_side=5)), st.data(), st.booleans())
def test_median(a, data, keepdims):
    axis = data.draw(axes(a.ndim))
    assert_matches(lambda xp, a: xp.median(a, axis=axis, keepdims=keepdims), a)


@pytest.mark.parametrize("shape", [(2, 3, 4), (0, 0, 1), (1, 1, 0)])
def test_reducing_leading_axes_that_are_not_last(shape):
    """Found by HYPOTHESIS_PROFILE=explore: median and prod over two axes other than the last ones raised torch's
    RuntimeError (a reshape to the wrong sizes)."""
    a = numpy.arange(numpy.prod(shape, dtype=int), dtype=numpy.int8).reshape(shape)
    for name in ("median", "prod", "quantile"):
        kw = {"q": 0.5} if name == "quantile" else {}
        assert_matches(lambda xp, a: getattr(xp, name)(a, axis=(0, -2), **kw), a)


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_of_one_middle_value_near_the_maximum(name):
    """One middle value is the median itself, not (x + x) / 2, which overflows (found by HYPOTHESIS_PROFILE=explore);
    two middle values are averaged, overflowing as NumPy's do."""
    for a in (numpy.array(8.98846567e307), numpy.array([1e308, 1.5e308, -1e308]), numpy.array([1e308, 1.7e308]),
              numpy.array([3e38, 3.2e38, 1], numpy.float32), numpy.array([numpy.nan, 1e308, 1.7e308, 1.6e308]),
              numpy.array(complex(0, numpy.inf), numpy.complex64)):  # nan+infj (thorough profile)
        assert_matches(lambda xp, a: getattr(xp, name)(a), a)


@pytest.mark.parametrize("axis", [[0, 2], numpy.array([0, 1]), range(2), [1], [], [0, 0], [5]])
def test_axis_sequences(axis):
    """median, the quantiles and average take any sequence of axes, as NumPy (lists raised TypeError; found by
    hand probing); the other reductions take tuples only."""
    a = numpy.arange(24.0).reshape(2, 3, 4)
    for call in (lambda xp, a: xp.median(a, axis=axis), lambda xp, a: xp.nanmedian(a, axis=axis, keepdims=True),
                 lambda xp, a: xp.quantile(a, [0.5, 0.2], axis=axis), lambda xp, a: xp.nanpercentile(a, 5, axis=axis),
                 lambda xp, a: xp.average(a, axis=axis), lambda xp, a: xp.average(a, axis=axis, weights=a),
                 lambda xp, a: xp.quantile(a, 0.5, axis=axis, weights=a, method="inverted_cdf"),
                 lambda xp, a: xp.mean(a, axis=axis), lambda xp, a: xp.sum(a, axis=axis)):
        assert_matches(call, a)


@pytest.mark.parametrize("method", METHODS)
def test_interpolating_quantiles_into_an_integer_out(method):
    """NumPy interpolates into out= with 'same_kind' casting: an integer or bool out is its casting error where it
    interpolates (the shim truncated into it; found by hand probing)."""
    a = numpy.arange(12.0).reshape(3, 4)
    for dt in ("i4", "?", "f4"):
        for q in ([0.5, 0.3], 0.5):
            assert_matches(lambda xp, a: xp.quantile(a, q, axis=0, method=method,
                                                     out=xp.zeros((2, 4) if isinstance(q, list) else 4, dt)), a)
        assert_matches(lambda xp, a: xp.percentile(a, 30, axis=0, method=method, out=xp.zeros(4, dt)), a)
        assert_matches(lambda xp, a: xp.median(a, axis=0, out=xp.zeros(4, dt)), a)  # a mean: unsafe


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_weights_of_a_slice_summing_to_zero_nan_or_inf(name):
    """NumPy's ValueError (the shim returned a value; found by hand probing); an all-NaN slice of the nan form is
    NaN, not an error."""
    n = numpy.nan
    for x, w in [([[n, n], [1, 2]], [[1, 1], [1, 1]]), ([[1, 2], [1, 2]], [[1, n], [1, 1]]),
                 ([[1, 2], [1, 2]], [[1, numpy.inf], [1, 1]]), ([[1, n], [1, 2]], [[0, 1], [1, 1]]),
                 ([[1, 2], [1, 2]], [[0, 0], [1, 1]]), ([[1, 2], [1, 2]], [[0, 1], [1, 0]])]:
        assert_matches(lambda xp, x, w: getattr(xp, name)(x, 0.5, axis=1, weights=w, method="inverted_cdf"),
                       numpy.array(x), numpy.array(w))


@given(arrays(dtypes(REAL), NONEMPTY), st.data(), st.sampled_from(METHODS))
def test_quantile_methods(a, data, method):
    axis = data.draw(axes(a.ndim))
    q = data.draw(st.one_of(st.floats(0, 1), st.lists(st.floats(0, 1), min_size=1, max_size=3)))
    keepdims = data.draw(st.booleans())
    assert_matches(lambda xp, a: xp.quantile(a, q, axis=axis, method=method, keepdims=keepdims), a)
    # Python floats: with a NumPy q, NumPy's dtype of a 0-d result depends on whether the data holds a NaN
    pq = [x * 100 for x in q] if isinstance(q, list) else q * 100
    assert_matches(lambda xp, a: xp.percentile(a, pq, axis=axis, method=method), a)


@given(st.sampled_from(METHODS), st.data())
def test_nan_quantiles(method, data):
    a = data.draw(arrays(dtypes(FLOAT), NONEMPTY, finite=True)).copy()
    a[data.draw(arrays(numpy.bool_, a.shape, views=False))] = numpy.nan
    axis = data.draw(axes(a.ndim))
    # a Python float q: with a float64 array q, NumPy's dtype for all-NaN input depends on the values
    assert_matches(lambda xp, a: xp.nanquantile(a, 0.25, axis=axis, method=method), a)
    assert_matches(lambda xp, a: xp.nanpercentile(a, 30, axis=axis, method=method, keepdims=True), a)
    assert_matches(lambda xp, a: xp.nanmedian(a, axis=axis), a)


@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:invalid value")
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nan_quantiles_of_empty_arrays_are_nanmean(axis, keepdims):
    """NumPy's nanquantile/nanpercentile answer an empty array with nanmean, whatever the shape of q."""
    a = numpy.zeros((0, 3))
    for q in (0.5, numpy.array([[0.25], [1.0]])):
        assert_matches(lambda xp, a: xp.nanquantile(a, q, axis=axis, keepdims=keepdims), a)
        assert_matches(lambda xp, a: xp.nanpercentile(a, q * 100, axis=axis, keepdims=keepdims), a)
    assert_matches(lambda xp, a: xp.nanquantile(a, 0.5, axis=axis, weights=numpy.ones(a.shape),
                                                method="inverted_cdf"), a)


@given(arrays(dtypes(FLOAT + INTEGER), shapes(min_dims=1, max_dims=2, min_side=1, max_side=6), finite=True),
       st.data())
def test_weighted_inverted_cdf(a, data):
    w = data.draw(arrays(numpy.dtype("int8"), a.shape, views=False)) % 4
    if a.ndim == 2:
        w[:, 0] = 1  # every slice has positive weight
    else:
        w[0] = 1
    q = data.draw(st.lists(st.sampled_from([0, 0.1, 0.25, 1 / 3, 0.5, 0.75, 1.0]), min_size=1, max_size=3))
    axis = a.ndim - 1
    assert_matches(lambda xp, a, w: xp.quantile(a, q, axis=axis, method="inverted_cdf", weights=w), a, w)


@given(near_ends(dtypes(WIDE + INTEGER[:1] + INTEGER[3:4])), st.sampled_from(METHODS), st.booleans())
def test_order_statistics_near_the_integer_ends(a, method, nan):
    """Sorting, picking and interpolating stay exact at the ends of the wide unsigned ranges (torch sorts and
    gathers them through order keys and bit views); the nan forms of integer data are the plain ones."""
    pre = "nan" if nan else ""
    assert_matches(lambda xp, a: getattr(xp, pre + "quantile")(a, [0, 0.3, 0.5, 1], method=method, axis=-1), a)
    assert_matches(lambda xp, a: getattr(xp, pre + "percentile")(a, 40, method=method), a)
    assert_matches(lambda xp, a: getattr(xp, pre + "median")(a, axis=0), a)


# every kind of q: Python scalars (weak), integer and bool arrays (an integer virtual index), float16/32 arrays
Q_KINDS = [1, 0, True, 0.5, numpy.array(1), numpy.array([0, 1], numpy.int8), numpy.array([True]),
           numpy.array(0.5, numpy.float32), numpy.array([0.5, 1], numpy.float16), numpy.float64(0.5)]


@given(dtypes(REAL), st.sampled_from(METHODS), st.sampled_from(range(len(Q_KINDS))), st.booleans())
def test_quantile_result_dtypes(dt, method, k, nan):
    """NumPy's result dtype comes from its virtual-index arithmetic: the observations' dtype, or the input promoted
    with the weight (whose dtype follows q's; a Python q is weak).  Percentiles divide q by 100 first."""
    a = numpy.array([3, 1, 2, 5, 0, 1]).astype(dt)
    q = Q_KINDS[k]
    pre = "nan" if nan else ""
    assert_matches(lambda xp, a: getattr(xp, pre + "quantile")(a, q, method=method), a)
    assert_matches(lambda xp, a: getattr(xp, pre + "percentile")(a, q * 100 if k != 2 else q, method=method), a)


@pytest.mark.parametrize("method", METHODS)
def test_quantile_index_arithmetic_in_the_q_dtype(method):
    """NumPy computes virtual indices in q's float type and interpolates its own way (inf * 0 is NaN): float16
    and float32 q on infinite data, float16 q over 3000 values (indices past the end: NumPy's ValueError or
    clip)."""
    a = numpy.array([65504, -65504, numpy.inf, -numpy.inf, 1, 3.5], numpy.float16)
    for q in (0.3, numpy.array(0.7, numpy.float16), numpy.array([0.7001, 0.123], numpy.float32)):
        assert_matches(lambda xp, a: xp.quantile(a, q, method=method), a)
        assert_matches(lambda xp, a: xp.nanpercentile(a, numpy.multiply(q, 100), method=method), a)
    b = numpy.arange(3000.0) % 17
    assert_matches(lambda xp, b: xp.quantile(b, numpy.linspace(0, 1, 7).astype(numpy.float16), method=method), b)


def test_quantile_errors_and_dtypes():
    a = numpy.arange(6.0).reshape(2, 3)
    assert_matches(lambda xp, a: xp.quantile(a, 1.5), a)
    assert_matches(lambda xp, a: xp.quantile(a, [0.5, -0.1]), a)
    assert_matches(lambda xp, a: xp.percentile(a, 101), a)
    assert_matches(lambda xp, a: xp.quantile(a, 0.5, method="foo"), a)
    assert_matches(lambda xp, a: xp.quantile(a, 0.5, weights=numpy.ones(6).reshape(2, 3)), a)
    assert_matches(lambda xp, a: xp.quantile(a, 0.5, method="inverted_cdf", weights=-numpy.ones((2, 3))), a)
    assert_matches(lambda xp, a: xp.quantile(a + 1j, 0.5), a)
    assert_matches(lambda xp, a: xp.quantile(a > 2, 0.5), a)
    assert_matches(lambda xp, a: xp.quantile(a, 0.5, axis=2), a)
    assert_matches(lambda xp, a: xp.quantile(a[0, 0], 0.5, axis=0), a)
    assert_matches(lambda xp, a: xp.quantile(a, [[0.1], [0.5]], axis=1, keepdims=True), a)
    assert_matches(lambda xp, a: xp.quantile(a, 0.5, axis=1, out=xp.zeros(2, numpy.float32)), a)
    for q in (1, numpy.float32(0.5), numpy.array([0.5], numpy.float16), numpy.array([1], numpy.int8)):
        for m in ("linear", "midpoint", "weibull", "nearest"):
            assert_matches(lambda xp, a: xp.quantile(a, q, method=m), a.astype(numpy.int8))
    assert_matches(lambda xp, a: xp.median(a), numpy.zeros(0))
    assert_matches(lambda xp, a: xp.median(a), numpy.array([1 + 1j, 2, 3, 4j]))
    assert_matches(lambda xp, a: xp.median(a, axis=0), numpy.array(3.0))


HIST_BINS = [10, 1, 3, "auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


@given(arrays(dtypes(REAL), shapes(max_dims=2, max_side=8), finite=True),
       st.sampled_from(HIST_BINS), st.sampled_from([None, (-1.0, 2.0), (0, 0)]), st.booleans())
@example(a=numpy.array([0, 0, 310, 0, 0, 0, 983135914700, 0]), bins="fd", rng=None, density=False)
def test_histogram(a, bins, rng, density):
    if a.dtype.kind == "f":  # no subnormal spreads: NumPy's estimators then ask for astronomically many bins
        a = numpy.round(a, 1)
    elif isinstance(bins, str) and a.dtype.kind in "iu":  # nor wide integer spreads with a narrow IQR ('fd' asked
        a = (a.astype(numpy.int64) % 1000).astype(a.dtype)  # for 12.7e9 bins: MemoryError, found by 'thorough')
    assert_matches(lambda xp, a: xp.histogram(a, bins=bins, range=rng, density=density), a)
    assert_matches(lambda xp, a: xp.histogram_bin_edges(a, bins=bins, range=rng), a)



@given(st.sampled_from(["f2", "f4", "f8", "i8", "u1"]), st.integers(1, 300),
       st.sampled_from([(-4.0, 4.0), (0.0, 1.0), (-1e-3, 2.5e-3), (0.1, 0.7), (-1e300, 1e300), (3, 3)]))
def test_histogram_uniform_bins_on_the_edges(dt, bins, rng):
    """Uniform bins are found arithmetically: values on, and one ulp either side of, every edge (plus NaN, inf
    and outliers) must land in NumPy's bins."""
    if rng[1] == 1e300 and dt in ("f2", "f4"):
        return  # NumPy itself fails there (its bin estimate overflows: IndexError)
    edges = numpy.histogram_bin_edges(numpy.zeros(1), bins=bins, range=rng)
    with numpy.errstate(all="ignore"):
        near = numpy.concatenate([edges, numpy.nextafter(edges, -numpy.inf), numpy.nextafter(edges, numpy.inf),
                                  [numpy.nan, numpy.inf, -numpy.inf, rng[0] - 1, rng[1] + 1]])
        a = near.astype(dt) if dt[0] == "f" else numpy.clip(numpy.nan_to_num(near), -100, 100).astype(dt)
    assert_matches(lambda xp, a: xp.histogram(a, bins=bins, range=rng), a)
    assert_matches(lambda xp, a: xp.histogram(a, bins=bins, range=rng, weights=xp.ones(a.shape) / 3), a)

@given(arrays(dtypes(FLOAT[1:]), shapes(min_dims=1, max_dims=1, max_side=10), finite=True), st.booleans())
def test_histogram_edges_and_weights(a, density):
    w = numpy.linspace(0.0, 1.0, a.size)
    assert_matches(lambda xp, a: xp.histogram(a, bins=[-100.0, 0.0, 0.5, 100.0], weights=w, density=density), a)
    assert_matches(lambda xp, a: xp.histogram(a, bins=4, weights=w.astype(numpy.float32)), a)


@pytest.mark.parametrize("make", [lambda xp: xp.int64(1), lambda xp: xp.array(1), lambda xp: xp.int8(-2),
                                  lambda xp: xp.array([0, 1])])
def test_statistics_axis_as_numpy_integer(make):
    """An axis given as a NumPy integer scalar or 0-D array is one axis (median and quantiles iterated it as a
    sequence: TypeError 'iteration over a 0-d array')."""
    a = numpy.arange(6.0).reshape(2, 3)
    for xp_axis in (False, True):
        def axis(xp):
            return make(xp if xp_axis else numpy)
        for f in (lambda xp, a: xp.median(a, axis=axis(xp)), lambda xp, a: xp.percentile(a, 50, axis=axis(xp)),
                  lambda xp, a: xp.nanquantile(a, [0.5], axis=axis(xp), keepdims=True),
                  lambda xp, a: xp.average(a, axis=axis(xp))):
            assert_matches(f, a)


@pytest.mark.parametrize("rng", [(numpy.float32(1), numpy.float32(3)), (numpy.uint8(1), numpy.uint8(3)),
                                 (numpy.float16(0.5), 3), (numpy.array(1.0, numpy.float32), 3.0), (1, 3)])
def test_histogram_range_of_numpy_scalars(rng):
    """A range of NumPy scalars works (the shim's scalars lacked torch's methods: AttributeError) and sets the
    dtype NumPy computes the edges in: float32 ends give float32-rounded edges."""
    for a in (numpy.array([1, 2, 3]), numpy.array([1.5, 2.25, 2.9], numpy.float32)):
        assert_matches(lambda xp, a: xp.histogram(a, bins=3, range=rng), a)
        assert_matches(lambda xp, a: xp.histogram(a, bins="sturges", range=rng), a)
        assert_matches(lambda xp, a: xp.histogram_bin_edges(a, bins=4, range=rng), a)


@given(near_ends(dtypes(INTEGER)), st.sampled_from([10, 3, "auto", "sqrt", "stone"]), st.booleans())
@example(numpy.array([-2**63 + 3, -2**63 + 2]), "stone", False)  # one float64 apart: Stone's bins collapse
def test_histograms_of_integers_near_their_ends(a, bins, same_dtype_edges):
    """Extents, estimators and bin searches of every integer dtype, also against edges of the data's own dtype
    (compared through order keys: torch cannot compare the wide unsigned types)."""
    a = a.reshape(-1)
    assert_matches(lambda xp, a: xp.histogram(a, bins=bins), a)
    edges = numpy.unique(a)[:3] if same_dtype_edges else numpy.array([0, 3.5, 2.0**63, 2.0**64])
    assert_matches(lambda xp, a: xp.histogram(a, bins=edges), a)
    assert_matches(lambda xp, a: xp.histogram_bin_edges(a, bins=4, range=(0, 9)), a)
    assert_matches(lambda xp, a: xp.histogram2d(a, a[::-1], bins=[3, edges]), a)
    assert_matches(lambda xp, a: xp.histogramdd(a.reshape(-1, 1), bins=[edges]), a)
    assert_matches(lambda xp, a: xp.digitize(a, edges, right=same_dtype_edges), a)
    assert_matches(lambda xp, a: xp.digitize(a, edges[::-1]), a)
    assert_matches(lambda xp, a: xp.bincount(a % 7), a)


@pytest.mark.parametrize("dt", ["float16", "float32", "int8", "uint64"])
@pytest.mark.parametrize("vals", [[1.5, -2, 3, 0, 7.25, 600], [0.1, 0.2, 0.35, 0.3, 0.9, 0.25, 0.6], [5, 5],
                                  [1.5, -2, 3, 0, 7.25, 30000]])
def test_histogram_estimators_round_as_numpy(dt, vals):
    """Estimated widths come out of NumPy's formulas in the data's float type: float16 rounds (and its std
    overflows to inf: zero bins, NumPy's ValueError); integer spans subtract unsigned."""
    a = numpy.array(vals)
    a = (numpy.abs(a) if dt[0] == "u" else a).astype(dt)
    for est in HIST_BINS[3:]:
        assert_matches(lambda xp, a: xp.histogram(a, bins=est), a)
        assert_matches(lambda xp, a: xp.histogram_bin_edges(a, bins=est, range=(0, 10)), a)
        assert_matches(lambda xp, a: xp.histogram(a, bins=est, range=(-1, 8)), a)  # (a signed span, unsigned)


def test_wide_unsigned_statistics_trace_as_one_graph():
    """Order keys and bit views are plain torch ops: uint64 quantiles, histograms and digitize compile whole."""
    def f(a):
        return (numpy.quantile(a, [0.25, 0.5], axis=1), numpy.percentile(a, 40, method="lower"),
                numpy.histogram(a, bins=3, range=(0, 2.0**64))[0], numpy.digitize(a[0], numpy.sort(a[1])))

    a = numpy.array([[2**64 - 1, 3, 7], [0, 2**63 + 5, 9], [1, 1, 2]], dtype=numpy.uint64)
    for got, exp in zip(npcompile.compile(f, backend="aot_eager", fullgraph=True)(a), f(a)):
        numpy.testing.assert_array_equal(got, exp, strict=True)


def test_histogram_of_bools():
    a = numpy.array([True, False, True, True])
    for bins in (10, 3, "auto", numpy.array([False, True])):
        assert_matches(lambda xp, a: xp.histogram(a, bins=bins), a)
        assert_matches(lambda xp, a: xp.histogram_bin_edges(a, bins=bins), a)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        shim.histogram(shim.asarray(a))


def test_histogram_errors():
    a = numpy.array([0.0, 1.0, 2.0, 3.0])
    for kw in ({"bins": 0}, {"bins": 2.5}, {"bins": "foo"}, {"bins": [1, 0]}, {"range": (1, 0)},
               {"range": (0, numpy.inf)}, {"bins": "auto", "weights": a}, {"weights": a[:2]},
               {"bins": [[1, 2]]}):
        assert_matches(lambda xp, a: xp.histogram(a, **kw), a)
    assert_matches(lambda xp, a: xp.histogram(a), numpy.array([1.0, numpy.nan]))
    assert_matches(lambda xp, a: xp.histogram(a), numpy.zeros(0))
    for bins in (8, "sqrt", "auto", "fd", "rice"):  # bins too fine for float64 at 1e16, by count or estimator
        assert_matches(lambda xp, a: xp.histogram(a, bins=bins), numpy.array([1e16, 1e16 + 2]))


@given(arrays(dtypes(REAL), (12, 2), finite=True), st.sampled_from([3, [2, 4], [numpy.array([-1.0, 0, 1.0]), 2]]),
       st.booleans())
def test_histogram2d_dd(xy, bins, density):
    w = numpy.arange(12.0)
    assert_matches(lambda xp, xy: xp.histogram2d(xy[:, 0], xy[:, 1], bins=bins, density=density, weights=w), xy)
    assert_matches(lambda xp, xy: xp.histogramdd(xy, bins=bins, range=[(-1, 1), None]), xy)
    assert_matches(lambda xp, xy: xp.histogramdd([xy[:, 0], xy[:, 1], xy[:, 0]], bins=2), xy)


def test_histogram2d_dd_bins_by_length():
    """NumPy's rules: histogram2d takes bins of length 1 or 2 as per-axis (else as edges for both axes);
    histogramdd wants one entry per dimension from anything with a length, a string too."""
    xy = numpy.random.default_rng(0).standard_normal((20, 2))
    for bins in ([2], numpy.array([2, 3]), numpy.array([0, 1]), numpy.array([-1.0, 0, 1]), numpy.array(3)):
        assert_matches(lambda xp, xy: xp.histogram2d(xy[:, 0], xy[:, 1], bins=bins), xy)
    for bins in ("fd", "auto", "sqrt", numpy.array([2, 3]), numpy.array(4), (2, 3, 4)):
        assert_matches(lambda xp, xy: xp.histogramdd(xy, bins=bins), xy)
    assert_matches(lambda xp, xy: xp.histogram2d(xy[:, 0], xy[:5, 1]), xy)
    assert_matches(lambda xp, xy: xp.histogramdd([xy[:, 0], xy[:5, 1]]), xy)


@pytest.mark.parametrize("dt", ["complex128", "complex64", "bool", "uint64", "float16", "int8"])
def test_histogramdd_weights_cast_safely(dt):
    """histogram2d/dd count with bincount, whose weights cast safely to float64: complex weights are a TypeError
    (ours summed them as complex); 1-D histogram takes them."""
    xy = numpy.random.default_rng(0).standard_normal((20, 2))
    w = (numpy.arange(20) % 3 + 1j * (dt.startswith("complex"))).astype(dt)
    assert_matches(lambda xp, xy, w: xp.histogramdd(xy, bins=3, weights=w), xy, w)
    assert_matches(lambda xp, xy, w: xp.histogram2d(xy[:, 0], xy[:, 1], bins=2, weights=w, density=True), xy, w)
    assert_matches(lambda xp, xy, w: xp.histogram(xy[:, 0], bins=2, weights=w), xy, w)


@given(arrays(dtypes(BOOL + INTEGER + FLOAT[2:]), shapes(min_dims=1, max_dims=1, max_side=8)), st.integers(0, 4),
       st.booleans())
def test_bincount(x, minlength, weighted):
    x = numpy.abs(x) % 6 if x.dtype.kind in "iu" else x
    w = numpy.linspace(-1, 1, x.size) if weighted else None
    assert_matches(lambda xp, x: xp.bincount(x, weights=w, minlength=minlength), x)


@pytest.mark.parametrize("n", [1 << 16, 1_000_003])  # chunked counting: a multiple of the chunks, and a tail
@pytest.mark.parametrize("minlength", [0, 40, 5000])
def test_long_inputs_count_in_chunks(n, minlength):
    from npcompile._numpy import _statistics

    assert n >= _statistics._CHUNKED_MIN
    rng = numpy.random.default_rng(n + minlength)
    x = rng.integers(0, 37, n)
    w = rng.standard_normal(n)
    assert_matches(lambda xp, x: xp.bincount(x, minlength=minlength), x)
    # weighted sums cancel: rounding differences of summing in chunks are relative to the terms, not the sum
    assert_matches(lambda xp, x: xp.bincount(x, weights=w, minlength=minlength), x, rtol=1e-12, atol=1e-9)
    data = rng.standard_normal(n)
    assert_matches(lambda xp, d: xp.histogram(d, bins=64, range=(-4, 4)), data)
    assert_matches(lambda xp, d: xp.histogram(d, bins=64, range=(-3, 3), weights=w), data, rtol=1e-12, atol=1e-9)
    assert_matches(lambda xp, d: xp.histogram(d, bins=[-5, -1, 0, 0.5, 3]), data)
    assert_matches(lambda xp, d: xp.histogramdd(d.reshape(-1, 1)[: n - n % 2].reshape(-1, 2), bins=7), data)


def test_traced_long_bincount_has_a_data_dependent_length():
    xs = [numpy.random.default_rng(1).integers(0, 37, 1 << 16), numpy.arange(1 << 16) % 70000 * 2]
    f = npcompile.compile(lambda x, w: (numpy.bincount(x, minlength=50), numpy.bincount(x, w)), backend="aot_eager",
                          fullgraph=True)
    for x in xs:
        w = numpy.linspace(0, 1, x.size)
        for got, want in zip(f(x, w), (numpy.bincount(x, minlength=50), numpy.bincount(x, w))):
            assert got.dtype == want.dtype and got.shape == want.shape
            numpy.testing.assert_allclose(got, want, rtol=1e-12)


def test_bincount_errors():
    x = numpy.array([1, 2])
    assert_matches(lambda xp, x: xp.bincount(x - 3), x)
    assert_matches(lambda xp, x: xp.bincount(x, minlength=-1), x)
    assert_matches(lambda xp, x: xp.bincount(x.reshape(1, 2)), x)
    assert_matches(lambda xp, x: xp.bincount(x, weights=[1.0]), x)
    assert_matches(lambda xp, x: xp.bincount(x.astype(numpy.uint64)), x)
    for w in ([1j, 2], numpy.array([1, 2], numpy.uint64), numpy.array([1, 2], numpy.float16), [True, False]):
        assert_matches(lambda xp, x: xp.bincount(x, weights=w), x)  # cast to float64 'safe': complex refused


@given(arrays(dtypes(REAL), shapes(max_dims=2, max_side=5), finite=True),
       st.lists(st.integers(-5, 5), max_size=5), st.booleans(), st.booleans())
def test_digitize(x, bins, decreasing, right):
    bins = sorted(bins, reverse=decreasing)
    assert_matches(lambda xp, x: xp.digitize(x, numpy.array(bins, dtype=numpy.float64), right=right), x)
    assert_matches(lambda xp, x: xp.digitize(x, [1, 0, 2]), x)


@pytest.mark.parametrize("bins", [[0, 1, 2, numpy.nan], [3, 2, numpy.nan], [numpy.nan, 1], [-0.0, 0.0, 1],
                                  [1, 1, 1], [2.0**63, 2.0**63 + 4096, 1]])
def test_digitize_in_numpys_order(bins):
    """NaN sorts last and -0.0 equals 0.0 (NumPy's searchsorted order); the direction is judged in float64 from the
    first value differing from the first."""
    x = numpy.array([0.5, 1.5, numpy.nan, 3, -0.0, 0.0, numpy.inf])
    for right in (False, True):
        assert_matches(lambda xp, x: xp.digitize(x, numpy.array(bins), right=right), x)
        assert_matches(lambda xp, x: xp.digitize(x.astype(numpy.uint64), numpy.array(bins), right=right), x)


@given(arrays(dtypes(REAL + [numpy.dtype("complex128")]), shapes(min_dims=1, max_dims=2,
              min_side=1, max_side=6), finite=True), st.booleans(), st.booleans(), st.sampled_from([None, 0, 2]))
@example(numpy.array([[0, 0]] * 5 + [[0, 1 + 1j]]), True, False, 2)
def test_cov_corrcoef(m, rowvar, bias, ddof):
    m = m / 100 if m.dtype.kind in "fc" else m % 100  # big integers: cancellation noise (see below)
    tol = {"rtol": 1e-3, "atol": 1e-4}

    def check(fn):
        # No degrees of freedom: NumPy multiplies by 1/0 = inf.  Complex products then differ where a part is 0
        # exactly: NumPy's BLAS rounds the imaginary part of x * conj(x) with a fused multiply-add to about
        # 1e-22 (inf), where ours is 0 (nan).
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with numpy.errstate(all="ignore"), contextlib.suppress(Exception):
                fn(numpy, m)
        if m.dtype.kind != "c" or not any("Degrees of freedom" in str(w.message) for w in caught):
            assert_matches(fn, m, **tol)

    check(lambda xp, m: xp.cov(m, rowvar=rowvar, bias=bias, ddof=ddof))
    check(lambda xp, m: xp.corrcoef(m, rowvar=rowvar))
    n = m.shape[-1] if rowvar or m.ndim == 1 else m.shape[0]
    fw, aw = numpy.arange(n) % 3, numpy.linspace(0.5, 1, n)
    check(lambda xp, m: xp.cov(m, rowvar=rowvar, fweights=fw, aweights=aw))
    check(lambda xp, m: xp.cov(m, m, rowvar=rowvar, dtype=numpy.float32))


@given(near_ends(dtypes(INTEGER), shapes(min_dims=2, max_dims=2, min_side=2, max_side=5)))
def test_cov_near_the_integer_ends(m):
    """Integers become float64 exactly as NumPy converts them; the sums then cancel, so the tolerance is relative
    to the largest entry."""
    scale = numpy.abs(numpy.cov(m)).max() + numpy.abs(m.astype(float)).max()
    assert_matches(lambda xp, m: xp.cov(m), m, rtol=1e-6, atol=1e-9 * scale)
    assert_matches(lambda xp, m: xp.cov(m, fweights=numpy.arange(m.shape[1]) % 3 + 1), m, rtol=1e-6,
                   atol=1e-9 * scale * m.shape[1])


def test_cov_errors():
    m = numpy.arange(12.0).reshape(3, 4)
    assert_matches(lambda xp, m: xp.cov(m.reshape(2, 2, 3)), m)
    assert_matches(lambda xp, m: xp.cov(m, fweights=[1.5, 1, 1, 1]), m)
    assert_matches(lambda xp, m: xp.cov(m, fweights=[1, 1, 1]), m)
    assert_matches(lambda xp, m: xp.cov(m, fweights=[-1, 1, 1, 1]), m)
    assert_matches(lambda xp, m: xp.cov(m, aweights=[[1, 1, 1, 1]]), m)
    assert_matches(lambda xp, m: xp.cov(m[:, :1]), m)
    assert_matches(lambda xp, m: xp.cov(m[:0]), m)
    assert_matches(lambda xp, m: xp.corrcoef(m[0]), m)


@pytest.mark.parametrize("call", [lambda xp, a: xp.histogram(a[::2], bins=[0, 1, 2]),
                                  lambda xp, a: xp.histogram(a, bins=a[::3]),
                                  lambda xp, a: xp.histogramdd(a.reshape(5, 2), bins=2),
                                  lambda xp, a: xp.digitize(a[::2], a[::3]),
                                  lambda xp, a: xp.searchsorted(a[::3], a[::2]),
                                  lambda xp, a: xp.interp(a[::2], a[::3], a[1::3])])
def test_strided_searches_do_not_warn(call):
    """torch.searchsorted warns about strided operands (NumPy never does): the shim hands it contiguous ones."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_matches(call, numpy.arange(10.0))


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("shape, axis", [((0, 0), 0), ((0, 3), 0), ((3, 0), 1), ((0,), None), ((2, 0, 0), 1), ((0, 2), 1)])
@pytest.mark.parametrize("dt", ["float64", "int32"])
def test_median_of_empty_warns_as_numpy(name, shape, axis, dt):
    """median warns 'Mean of empty slice' whenever the reduced axis is empty (NumPy's mean does); nanmedian of
    floats only when some slice is empty, not for an empty result (NumPy's nanmean: ours warned for nanmedian of
    (0, 0) on axis 0), of integers as median."""
    caught = []
    for xp in (numpy, shim):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            with numpy.errstate(invalid="ignore"):
                getattr(xp, name)(xp.zeros(shape, dt), axis=axis)
        caught.append({str(w.message).rstrip(".") for w in ws if "empty slice" in str(w.message)})
    assert caught[0] == caught[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_matches(lambda xp, a: getattr(xp, name)(a, axis=axis), numpy.zeros(shape, dt))
