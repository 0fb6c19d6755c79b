"""Compiled-path defects found in session 12 and left then: each compared with real NumPy."""

import warnings

import numpy as np
import pytest

from npcompile import _compile as C

from .conftest import same

BACKENDS = ["eager", "aot_eager"]


def _outcome(fn, *args):
    """``fn(*args)``'s result, or its exception's (type, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # (NumPy warns for an empty median; compiled code not)
            return fn(*args)
    except Exception as e:
        return type(e), str(e)


def _nan_to_num_in_place(x):
    return np.nan_to_num(x, copy=False)


@pytest.mark.parametrize("backend", BACKENDS)
def test_nan_to_num_in_place_of_a_0d_array_gives_a_new_scalar(backend):
    """NumPy writes into the 0-d array and returns ``x[()]``, a scalar of its own (compiled, the 0-d argument
    itself came back; eager, a scalar sharing the array's memory)."""
    want_x, got_x = np.array(np.nan), np.array(np.nan)
    want = _nan_to_num_in_place(want_x)
    got = C.compile(_nan_to_num_in_place, backend=backend, fullgraph=True)(got_x)
    assert same(got, want) and same(got_x, want_x), (got, want)
    got_x[()] = 5.0
    assert got == 0.0


def _last_below_half(r):
    return np.sort(r[r < 0.5])[-1]


def _fourth_below_half(r):
    return r[r < 0.5][3]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [_last_below_half, _fourth_below_half], ids=lambda f: f.__name__)
def test_an_index_out_of_a_length_read_from_the_data_names_its_value(fn, backend):
    """The IndexError's message names the selection's length in the failed run (it named the trace's ``u0``)."""
    f = C.compile(fn, backend=backend, fullgraph=True)
    f(np.array([0.1, 0.2, 0.3, 0.4, 0.9]))  # (one length throughout: the graph checks the selection's when it runs)
    for r in (np.array([0.7, 0.8, 0.9, 0.6, 0.9]), np.array([0.1, 0.2, 0.9, 0.8, 0.7]),
              np.array([0.1, 0.2, 0.3, 0.4, 0.9])):
        want = _outcome(fn, r)
        assert _outcome(f, r) == want if isinstance(want, tuple) else same(f(r), want)


def _seeded_walk(x):
    rng = np.random.default_rng(0)
    for i in range(50):
        x = np.maximum(x, -1.0) + rng.standard_normal(x.shape)
    return x


def _seeded_long_walk(x):
    rng = np.random.default_rng(0)
    for i in range(200):
        x = np.maximum(x, -1.0) + rng.standard_normal(x.shape)
    return x


def test_a_loop_drawing_from_a_constant_seeded_generator_stays_one_graph():
    """A short loop drawing from a generator seeded with a constant is left to Dynamo, which folds each draw:
    NumPy's exact values in one graph (outlined, the body got the generator as an argument: a fallback per
    draw)."""
    report = C.explain(_seeded_walk)(np.zeros(3))
    assert report.graph_count == 1 and not report.graph_breaks, report
    assert same(report.result, _seeded_walk(np.zeros(3)))
    assert same(report.compiled(np.zeros(5)), _seeded_walk(np.zeros(5)))


def test_a_long_loop_drawing_from_a_seeded_generator_is_still_outlined():
    """Past _UNROLL_DRAWS iterations the loop is outlined (its draws run in NumPy): the same values."""
    report = C.explain(_seeded_long_walk)(np.zeros(3))
    assert report.fallbacks, report
    assert same(report.result, _seeded_long_walk(np.zeros(3)))


SELECTION_STATISTICS = {
    "median": lambda x: np.median(x[x > 0]),
    "nanmedian": lambda x: np.nanmedian(x[x > 0]),
    "median_of_ints": lambda x: np.median((x[x > 0] * 10).astype(np.int64)),
    "median_axis0": lambda x: np.median(x[x > 0].reshape(-1, 1), axis=0),
    "percentile": lambda x: np.percentile(x[x > 0], 30),
    "quantiles": lambda x: np.quantile(x[x > 0], [0.2, 0.9]),
    "quantile_lower": lambda x: np.quantile(x[x > 0], 0.3, method="lower"),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", list(SELECTION_STATISTICS))
def test_median_and_quantiles_of_a_selection_trace(name, backend):
    """Of a selection whose length is read from the data (possibly empty when the code runs): traced, no
    fallback; an empty one gives NumPy's NaN (median) or IndexError (quantile)."""
    fn = SELECTION_STATISTICS[name]
    report = C.explain(fn, backend=backend)(np.array([3.0, -1, 2, 5, 0.5]))
    assert not report.graph_breaks, report
    for x in (np.array([3.0, -1, 2, 5, 0.5]), np.array([-1.0, -2]), np.array([4.0]), np.array([1, np.nan, 3]),
              np.array([2.0, 1, 7, 3])):
        want, got = _outcome(fn, x), _outcome(report.compiled, x)
        assert got == want if isinstance(want, tuple) else same(got, want), (x, got, want)


def _unseeded_draws(x):
    rng = np.random.default_rng()
    return x + rng.standard_normal(x.shape), rng.integers(0, 10, size=1000), rng.random(), rng.normal(x, 0.5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unseeded_generator_traces_with_fresh_entropy_per_call(backend):
    """``default_rng()`` inside compiled code is one graph (it was a graph break, its draws NumPy's); each call
    draws anew, whatever NumPy's global seed, and leaves NumPy's global state alone, as NumPy does."""
    x = np.arange(4.0)
    report = C.explain(_unseeded_draws, backend=backend)(x)
    assert report.graph_count == 1 and not report.graph_breaks, report
    f = report.compiled
    np.random.seed(1)
    first = f(x)
    after_first = np.random.random()
    np.random.seed(1)
    second = f(x)
    assert np.random.random() == after_first == np.random.RandomState(1).random_sample()
    assert not np.array_equal(first[0], second[0]) and not np.array_equal(first[3], second[3])
    want = _unseeded_draws(x)
    for got, ref in zip(first, want):
        assert type(got) is type(ref) and np.asarray(got).dtype == np.asarray(ref).dtype
        assert np.shape(got) == np.shape(ref)
    assert first[1].min() >= 0 and first[1].max() <= 9 and len(np.unique(first[1])) == 10
    assert 0 <= first[2] < 1


def _many_normals_and_the_generator():
    rng = np.random.default_rng()
    return rng.standard_normal(100_000), rng


def test_an_unseeded_generators_draws_have_their_distribution_and_it_returns_as_numpys():
    z, rng = C.compile(_many_normals_and_the_generator, backend="eager", fullgraph=True)()
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02  # (over 5 standard errors each)
    assert abs(np.mean(z < -1.0) - 0.15865525) < 0.006
    assert type(rng) is np.random.Generator
