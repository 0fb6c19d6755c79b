"""``numpy.polynomial.Polynomial`` objects made inside a compiled function trace into one graph (construction,
fit, call, deriv, integ, attributes); what has no graph node (arithmetic, roots...) graph-breaks with the object
rebuilt as NumPy's Polynomial (trace-level: eager/aot_eager backends)."""

import numpy as np
import pytest
from numpy.polynomial import Polynomial

from npcompile import _compile as C
from npcompile.tracing._dynamo_patch import NESTED_GRAPH_BREAKS


def fit_and_use(x, y):
    p = Polynomial.fit(x, y, 3)
    return p(x), p.deriv()(x), p.integ(2, k=[1, 2]).coef, p.domain, p.window, p.coef


def construct_and_use(c, x):
    p = np.polynomial.Polynomial(c, domain=[0, 2], symbol="t")
    q = p.deriv(2)
    return p(x), q.coef, p.integ(lbnd=1).coef


def returned(c):
    return Polynomial(c).integ(), Polynomial.fit(np.arange(4.0), c[:4], 1)


def arithmetic(c, x):
    p = Polynomial(c)
    q = p * p + 1  # trimming makes the length a value: runs in NumPy, as roots (its dtype is a value)
    return q(x), p.deriv()(x), p.roots()


def _assert_same(got, exp):
    assert type(got) is type(exp)
    if isinstance(exp, tuple):
        for g, e in zip(got, exp):
            _assert_same(g, e)
    elif isinstance(exp, Polynomial):
        assert got.symbol == exp.symbol
        for g, e in ((got.coef, exp.coef), (got.domain, exp.domain), (got.window, exp.window)):
            _assert_same(g, e)
    else:
        assert got.dtype == exp.dtype and got.shape == exp.shape
        np.testing.assert_allclose(got, exp, rtol=1e-10, atol=1e-12)


CASES = [(fit_and_use, lambda: (np.linspace(-1, 3, 20), np.cos(np.linspace(-1, 3, 20))), 1),
         (construct_and_use, lambda: (np.array([2.0, -3.0, 1.0]), np.linspace(0, 1, 7)), 1),
         (returned, lambda: (np.array([1, 2, 3, 4, 5]),), 1),
         (arithmetic, lambda: (np.array([1.0, 2.0, 3.0]), np.linspace(0, 1, 5)),
          2 if NESTED_GRAPH_BREAKS else 3)]  # (2.11, no nested graph breaks: the entry function splits too)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("fn,make,graphs", CASES, ids=[c[0].__name__ for c in CASES])
def test_polynomial_traces_with_numpys_results(fn, make, graphs, backend):
    compiled = C.compile(fn, backend=backend)
    for _ in range(2):
        args = make()
        _assert_same(compiled(*args), fn(*args))
    report = C.explain(fn, backend="eager")(*make())
    assert report.graph_count == graphs and (graphs > 1 or not report.fallbacks), str(report)


def test_break_inside_an_argument_of_a_call_keeps_the_callers_values():
    def inner(c, x):
        p = Polynomial(c)
        return (p * p)(x)  # a graph break at an operator, inside a call inside an argument of a call

    def outer(c, x):
        y = x * 3
        return np.sin(inner(c, x)) + y, y

    args = np.array([1.0, 2.0, 3.0]), np.linspace(0, 1, 5)
    _assert_same(C.compile(outer, backend="eager")(*args), outer(*args))


def test_disallowed_polynomial_and_default_rng_run_in_numpy():
    def fn(c, x):
        return Polynomial(c)(x) + np.random.default_rng(3).random(x.shape)

    c, x = np.array([1.0, 2.0]), np.linspace(0, 1, 4)
    for disallowed in (Polynomial, np.random.default_rng):
        C.disallow_in_graph(disallowed)
        try:
            report = C.explain(fn, backend="eager")(c, x)
        finally:
            C.allow_in_graph(disallowed)
        assert report.graph_count > 1
        _assert_same(report.result, fn(c, x))
    assert C.explain(fn, backend="eager")(c, x).graph_count == 1


P_GLOBAL = Polynomial([1.0, -2.0, 0.5], domain=[-1, 3])


def _passed_in(p, x):
    return p(x) + p.deriv()(x), p.integ().coef, P_GLOBAL(x), p


@pytest.mark.parametrize("p", [Polynomial([1.0, 2.0, 3.0]), Polynomial(np.array([1, 2], np.float32), symbol="t"),
                               Polynomial([1j, 2.0], window=[0, 2])], ids=["float64", "float32", "complex"])
def test_polynomial_argument_and_global_trace_in_one_graph(p):
    x = np.linspace(-1, 1, 6)
    got = C.compile(_passed_in, backend="eager")(p, x)
    _assert_same(got, _passed_in(p, x))
    assert got[-1] is p  # the caller's object
    report = C.explain(_passed_in, backend="eager")(p, x)
    assert report.graph_count == 1 and not report.graph_breaks, str(report)


def test_polynomial_argument_read_per_call():
    f = C.compile(lambda p, x: p(x), backend="eager")
    p, x = Polynomial([1.0, 2.0]), np.arange(3.0)
    _assert_same(f(p, x), p(x))
    p.coef[0] = 5.0  # updated in place
    _assert_same(f(p, x), p(x))
    q = Polynomial([1.0, 2.0, 3.0], symbol="s")  # other length and symbol
    _assert_same(f(q, x), q(x))
    arith = C.explain(lambda p, x: (p * p)(x), backend="eager")(p, x)  # arithmetic runs in NumPy, named so
    _assert_same(arith.result, (p * p)(x))
    assert [e.feature for e in arith.fallbacks] == ["Polynomial arithmetic"]
