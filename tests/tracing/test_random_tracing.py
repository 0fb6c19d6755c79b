"""``numpy.random.default_rng(seed)`` made inside a compiled function: with a constant seed its draws with
constant arguments are folded (real NumPy at trace time), so one graph gives NumPy's exact stream; other draws
graph-break with the generator rebuilt in its state (trace-level: eager/aot_eager backends)."""

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile.tracing._dynamo_patch import NESTED_GRAPH_BREAKS


def projection(x):
    rng = np.random.default_rng(42)
    w = rng.standard_normal((x.shape[1], 3))
    idx = rng.integers(0, x.shape[0], size=4)
    return x @ w, x[idx], rng.random(), rng.integers(9), rng.choice(5, 2, replace=False), rng.gamma(2.0, size=2)


def array_parameter(x):
    rng = np.random.default_rng([3, 4])
    a = rng.random(2)
    b = rng.normal(x, 1.0)  # array parameter: not a constant, runs in NumPy from this generator's state
    return a, b, rng.random(2)


def returned_generator(x):
    rng = np.random.default_rng(5)
    return x + rng.random(x.shape), rng


def unseeded(x):
    return x + np.random.default_rng().random(x.shape)


def _assert_same(got, exp):
    assert type(got) is type(exp)
    if isinstance(exp, tuple):
        for g, e in zip(got, exp):
            _assert_same(g, e)
    elif isinstance(exp, np.random.Generator):
        assert got.bit_generator.state == exp.bit_generator.state
    else:
        assert np.asarray(got).dtype == np.asarray(exp).dtype
        np.testing.assert_allclose(got, exp, rtol=1e-13, atol=0)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
# (array_parameter: 3 graphs without nested graph breaks, torch 2.11, as the entry function splits too)
@pytest.mark.parametrize("fn,graphs", [(projection, 1), (returned_generator, 1),
                                       (array_parameter, 2 if NESTED_GRAPH_BREAKS else 3)])
def test_seeded_generator_gives_numpys_stream(fn, graphs, backend):
    x = np.arange(12.0).reshape(4, 3) if fn is projection else np.arange(3.0)
    compiled = C.compile(fn, backend=backend)
    for _ in range(2):  # the same draws on every call, as NumPy's fresh generator gives
        _assert_same(compiled(x), fn(x))
    report = C.explain(fn, backend="eager")(x)
    assert report.graph_count == graphs
    if graphs > 1:  # after the break, the rebuilt generator's draws run in real NumPy
        assert "npcompile: seeded generator draw" in report.graph_breaks[0].reason
        assert {e.feature for e in report.fallbacks} == {"numpy.random.Generator.random"}
    else:
        assert not report.graph_breaks


def test_unseeded_generator_is_not_folded():
    x = np.zeros(3)
    compiled = C.compile(unseeded, backend="eager")
    assert not np.array_equal(compiled(x), compiled(x))  # fresh entropy on every call


RNG_GLOBAL = np.random.default_rng(11)


def _draws(g, r, x):
    return x + g.standard_normal(x.shape), g.integers(0, 9, size=3), r.rand(2), RNG_GLOBAL.random(2)


def test_generators_passed_in_draw_numpys_stream_and_advance():
    # real NumPy runs the draws of a generator from outside the function: NumPy's exact stream, and the caller's
    # generator (and a module-level one) advances, so two calls give different draws
    global RNG_GLOBAL
    x = np.arange(4.0)
    f = C.compile(_draws, backend="eager")
    try:
        RNG_GLOBAL = np.random.default_rng(11)
        g, r = np.random.default_rng(1), np.random.RandomState(2)
        got = [f(g, r, x) for _ in range(2)]
        RNG_GLOBAL = np.random.default_rng(11)
        g, r = np.random.default_rng(1), np.random.RandomState(2)
        exp = [_draws(g, r, x) for _ in range(2)]
        _assert_same(tuple(got), tuple(exp))
        assert not np.array_equal(got[0][0], got[1][0])
        report = C.explain(_draws, backend="eager")(g, r, x)
        assert {e.feature for e in report.fallbacks} >= {"numpy.random.Generator.standard_normal",
                                                        "numpy.random.RandomState.rand"}, str(report)
    finally:
        RNG_GLOBAL = np.random.default_rng(11)


def _single_draws(a):
    r, k = np.random.random(), np.random.randint(3)
    return (a * r, a + k, a * np.random.normal(), a * np.random.default_rng(0).random(), r, k,
            np.random.normal(size=()), np.random.standard_normal(()), np.random.default_rng(0).random(size=()),
            np.random.default_rng(0).integers(5), np.random.choice(4), np.random.poisson(2.0))


@pytest.mark.parametrize("backend", ["aot_eager", pytest.param("inductor", marks=pytest.mark.inductor)])
def test_single_draws_have_numpys_types(backend):
    """One draw without ``size`` is a Python float or int, so it is weak in promotion (``float32_a *
    np.random.random()`` stays float32, it was float64); ``size=()`` gives a 0-d array; ``integers`` a NumPy
    scalar.  One graph: the Python numbers are symbols read from the graph's draws."""
    a = np.ones(3, np.float32)
    want = _single_draws(a)
    got = C.compile(_single_draws, backend=backend, fullgraph=True)(a)
    assert [type(g) for g in got] == [type(w) for w in want]
    assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want]
    assert [np.shape(g) for g in got] == [np.shape(w) for w in want]
