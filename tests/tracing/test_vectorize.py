"""np.vectorize (tracing/_with_callables.vectorize_plan): traced as one call on the whole arrays where that gives
NumPy's answer (an elementwise Python function, a math function that raises on no float), in the graph; every
other form runs in real NumPy, with NumPy's values and errors."""

import math

import numpy as np
import pytest

from npcompile import _compile as C

from .conftest import same

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

X = np.array([-1.5, -0.0, 0.3, np.inf, -np.inf, np.nan, 2.0, 1e300])
I = np.array([-3, 0, 7, 2**62 + 1])


def _one_graph(fn, *args):
    rep = C.explain(fn, backend="aot_eager")(*args)
    assert same(rep.result, fn(*args)), (rep.result, fn(*args))
    assert rep.graph_count == 1 and not rep.graph_breaks and not rep.fallbacks, rep


def _in_numpy(fn, *args):
    rep = C.explain(fn, backend="aot_eager")(*args)
    assert same(rep.result, fn(*args)), (rep.result, fn(*args))
    assert rep.fallbacks, rep


def _made_here(x, i):
    erf = np.vectorize(math.erf, otypes=[np.float64])
    affine = np.vectorize(lambda v: 3 * v - 1 / 3 + np.sin(v))
    return (erf(x), erf(i), erf(i.astype(np.uint8)), erf(x > 0), erf(0.5), erf(np.array(-0.25)),
            affine(x), affine(x.astype(np.float32)), affine(x.astype(np.float16)),
            np.vectorize(lambda a, b: a * b - a)(x, x[:3, None]),  # broadcast
            np.vectorize(math.atan2)(i[:, None], x), np.vectorize(math.copysign)(1.0, x),
            np.vectorize(lambda v: 0)(x), np.vectorize(lambda a, b: a)(x, x[:2, None]),  # as broadcast
            np.vectorize(math.erfc, otypes="f")(x), np.vectorize(math.isnan)(x), np.vectorize(math.degrees)(i),
            np.vectorize(lambda v: np.isinf(v), otypes=[np.float16])(x), np.vectorize(math.tanh, "D")(x))


@np.vectorize
def _decorated(x, y):
    return 0.5 * x - y / 4 + np.hypot(x, y)


_erf = np.vectorize(math.erf)
_tenth = np.vectorize(lambda v: v * 0.1)


def _found(x, i):
    return _decorated(x, x[:3, None]), _decorated(x.astype(np.float32), 2.0), _erf(i), _tenth(x)


def test_traced_forms_are_one_graph():
    """They ran in real NumPy (the function could not be a graph node's argument): made in the traced code or
    found (``@np.vectorize`` on a module function), called on arrays, 0-d arrays and numbers."""
    _one_graph(_made_here, X, I)
    _one_graph(_found, X, I)


def test_black_scholes_with_math_erf_is_one_graph():
    def prices(s, t):
        erf = np.vectorize(math.erf, otypes=[np.float64])
        d = np.log(s) / np.sqrt(t)
        return s * 0.5 * (1.0 + erf(d / math.sqrt(2.0))) - np.exp(-t) * erf(d)

    _one_graph(prices, np.linspace(0.5, 2.0, 7), np.linspace(0.1, 1.0, 7))


def test_float32_elements_compute_as_python_floats():
    """NumPy calls the function on Python floats (float64) and casts the results to the type of its result on
    the first element (float32 here): computed in float32 the products differ in the last bit."""
    x = np.random.default_rng(0).uniform(-10, 10, 1000).astype(np.float32)
    f = C.compile(_tenth, backend="aot_eager")
    expected = _tenth(x)
    assert expected.dtype == np.float32 and not np.array_equal(x * 0.1, expected)  # (what a float32 call gives)
    assert np.array_equal(f(x), expected)


def _not_traced(x, i):
    return (np.vectorize(math.exp)(x[:3]), np.vectorize(math.sqrt)(np.abs(x)), np.vectorize(math.floor)(x[:3]),
            np.vectorize(lambda v: v ** 2)(x[:3]), np.vectorize(lambda v: 1 / v)(x + 1),
            np.vectorize(lambda v: v if v > 0 else -v)(x), np.vectorize(lambda v: math.erf(v))(x),
            np.vectorize(lambda v: v * 3)(i),  # Python ints: exact
            np.vectorize(lambda a, b: a + b, excluded={1})(x, 2.0), np.vectorize(math.erf, cache=True)(x),
            np.vectorize(lambda v: v.sum(), signature="(n)->()")(x), np.vectorize(math.atan, otypes="l")(x[:3]),
            np.vectorize(lambda v: v * 2)(x + 1j), np.vectorize(lambda a, b=1: a * b)(x, b=3.0),
            np.vectorize(lambda a, b=2: a * b)(x), np.vectorize(np.isnan)(x))


def test_other_forms_give_numpys_answer():
    _in_numpy(_not_traced, X, np.array([2**61, -5]))
    _in_numpy(lambda x: _tenth(x), np.array([1, 2]))  # a traced vectorize called on ints: in NumPy


def test_numpys_errors():
    def erf(x):
        return np.vectorize(math.erf)(x)

    f = C.compile(erf, backend="aot_eager")
    with pytest.raises(ValueError, match="size 0 inputs unless `otypes`"):
        f(np.ones((0, 3)))
    empty = C.compile(lambda x: np.vectorize(math.erf, otypes="f")(x), backend="aot_eager")(np.ones((0, 3)))
    assert empty.dtype == np.float32 and empty.shape == (0, 3)
    with pytest.raises(ValueError):
        C.compile(lambda x, y: np.vectorize(math.atan2)(x, y), backend="aot_eager")(np.ones(3), np.ones(4))
    with pytest.raises(TypeError):
        C.compile(lambda x: np.vectorize(math.erf)(x, x), backend="aot_eager")(np.ones(3))
    for fn, error in ((math.sqrt, ValueError), (math.log, ValueError), (math.exp, OverflowError),
                      (lambda v: 1 / v, ZeroDivisionError), (lambda v: v ** 2, OverflowError)):
        g = C.compile(lambda x: np.vectorize(fn)(x), backend="aot_eager")
        with pytest.raises(error):
            g(np.array([1.0, -1.0, 0.0, 1e300, -1e300]))
    g = C.compile(lambda i: np.vectorize(lambda v: v * 4)(i), backend="aot_eager")
    with pytest.raises(OverflowError):  # (on Python ints: 2**64 is no int64, where an int64 product wraps)
        g(np.array([2**62]))


def test_a_vectorize_object_is_numpys():
    """Made in the traced code, returned or kept past a graph break it is NumPy's, and one found is guarded on
    what it is traced as."""
    f = C.compile(lambda x: (np.vectorize(lambda v: v + 1, otypes="f"), x * 2), backend="aot_eager")
    v, _ = f(np.ones(2))
    assert type(v) is np.vectorize and v.otypes == "f" and same(v(np.ones(2)), np.full(2, 2, np.float32))
    g = C.compile(lambda x: _erf(x), backend="aot_eager")
    assert g(X).dtype == np.float64
    _erf.otypes = "f"
    try:
        assert same(g(X), _erf(X)) and g(X).dtype == np.float32
    finally:
        _erf.otypes = None


def test_which_functions_are_vectorizable():
    from npcompile.tracing._with_callables import vectorizable

    def no_return(v):
        v * 2

    yes = [lambda v: 0.5 * v - 1, lambda x, y: x * y + np.sin(x), lambda v: v / 2, lambda v: 0,
           lambda v: np.isnan(v), math.erf, math.atan2, math.isfinite]
    no = [lambda v: v ** 2, lambda v: 1 / v, lambda v: v / 0, lambda v: v // 2, lambda v: v % 2, lambda v: ~v,
          lambda v: np.modf(v), lambda v: np.left_shift(v, 1), lambda v: v if v > 0 else 0, lambda v: math.erf(v),
          no_return, abs, np.isnan, math.exp, math.sqrt, math.log, math.floor, math.gamma, math.sin]
    assert [vectorizable(f) for f in yes] == [True] * len(yes)
    assert [vectorizable(f) for f in no] == [False] * len(no)
