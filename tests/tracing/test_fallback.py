"""What npcompile cannot compile runs in real NumPy, with NumPy's answer, never a crash."""

import io
import warnings

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile import config, fallback
from npcompile.tracing import _dynamo_patch as P

from .conftest import RecordingBackend, same

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")


def _check(fn, *args):
    expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    got = C.compile(fn, backend="eager")(*args)
    assert type(got) is type(expected)
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype
        assert np.array_equal(np.asarray(got), np.asarray(expected)) or np.allclose(got, expected)
    else:
        assert same(got, expected) or got == expected
    return got


def test_non_numeric_dtypes():
    _check(lambda d: d + np.timedelta64(1, "D"), np.array(["2020-01-01", "2021-03-04"], dtype="datetime64[D]"))
    _check(lambda s: np.char.upper(s), np.array(["ab", "cd"]))
    _check(lambda o: o * 2, np.array([1, "x", None], dtype=object)[:2])
    rec = np.zeros(3, dtype=[("x", "f8"), ("n", "i4")])
    rec["x"] = [1, 2, 3]
    _check(lambda r: r["x"] * 2 + r["n"], rec)


def test_longdouble():
    x = np.array([1.0, 2.5], dtype=np.longdouble)
    got = _check(lambda a: a * 3 + 1, x)
    assert got.dtype == np.longdouble


def test_negative_stride_arguments_compile_unless_they_share_memory_with_another():
    """(tests/tracing/test_negative_strides.py has the rest.)"""
    a = np.arange(10.0)[::-1]
    _check(lambda x: np.sin(x) * 2 + x[0], a)
    report = C.explain(lambda x: np.sin(x) * 2)(a)
    assert report.fallbacks == [] and report.graph_count == 1, report
    report = C.explain(lambda x, y: np.sin(x) * y)(a.base, a)
    assert [e.feature for e in report.fallbacks] == ["arrays with negative strides"], report


def test_ndarray_subclasses_and_masked_arrays():
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    got = _check(lambda a: a * a, m)  # matrix product, as np.matrix defines
    assert isinstance(got, np.matrix)

    class Tagged(np.ndarray):
        pass

    t = np.arange(4.0).view(Tagged)
    assert isinstance(_check(lambda a: np.sin(a) + 1, t), Tagged)
    ma = np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    got = _check(lambda a: (a * 2).sum(), ma)
    assert got == 8.0

    def inside(a):
        mm = np.matrix(a)
        return mm * mm, np.asarray(mm) + 1

    _check(inside, np.arange(4.0).reshape(2, 2))


def test_array_function_objects():
    class Duck:
        def __array_function__(self, func, types, args, kwargs):
            return ("duck", func.__name__)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return ("duck-ufunc", ufunc.__name__)

    f = C.compile(lambda d: (np.mean(d), np.sin(d)), backend="eager")
    assert f(Duck()) == (("duck", "mean"), ("duck-ufunc", "sin"))


def test_file_io(tmp_path):
    path = tmp_path / "a.npy"

    def f(a, p):
        np.save(p, a * 2)
        b = np.load(p)
        buf = io.StringIO()
        np.savetxt(buf, b)
        return b + 1, buf.getvalue().count("\n")

    x = np.random.rand(3)
    got = C.compile(f, backend="eager")(x, str(path))
    assert same(got[0], x * 2 + 1) and got[1] == 3


def test_function_missing_from_shim_and_disallow_in_graph():
    rec = RecordingBackend()

    def f(a):
        b = np.sin(a)
        c = np.linalg.eigvalsh(np.outer(b, b) + np.eye(3))  # whatever the shim has, the answer is NumPy's
        return b + 1, c

    x = np.random.rand(3)
    got = C.compile(f, backend=rec)(x)
    exp = f(x)
    assert same(got[0], exp[0]) and np.allclose(got[1], exp[1])

    C.disallow_in_graph(np.cos)
    try:
        assert np.cos not in P.np_to_shim_map()
        rec2 = RecordingBackend()
        g = C.compile(lambda a: np.cos(a) * 2 + np.sin(a), backend=rec2)
        assert same(g(x), np.cos(x) * 2 + np.sin(x))
        import npcompile._numpy as shim
        called = [n.target.f for gm in rec2.graphs for n in gm.graph.nodes
                  if isinstance(n.target, P.ShimCall)]
        assert shim.cos not in called and shim.sin in called
    finally:
        C.allow_in_graph(np.cos)
    assert P.np_to_shim_map().get(np.cos) is not None


def test_shim_unsupported_feature_graph_breaks(monkeypatch):
    """The shim raising UnsupportedFeature for a call while tracing: that call runs in real NumPy."""
    import npcompile._numpy as shim
    from npcompile._errors import UnsupportedFeature

    def refuse(*args, **kwargs):
        raise UnsupportedFeature("refusing arctan in this test")

    monkeypatch.setattr(shim, "arctan", refuse)
    P._np_to_shim_map.cache_clear()
    try:
        r = C.explain(lambda a: np.arctan(a) + np.sin(a))(np.ones(3))
        assert same(r.result, np.arctan(np.ones(3)) + np.sin(np.ones(3)))
        assert any("refusing arctan" in e.feature or "refusing arctan" in e.reason for e in r.fallbacks)
    finally:
        monkeypatch.undo()
        P._np_to_shim_map.cache_clear()


def test_fallback_warning_once_per_feature():
    old = config.warn_on_fallback
    config.warn_on_fallback = True
    try:
        d = np.array(["2020-01-01"], dtype="datetime64[D]")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f = C.compile(lambda a: a + np.timedelta64(1, "D"), backend="eager")
            f(d)
            f(d)
            C.compile(lambda a: a + np.timedelta64(2, "D"), backend="eager")(d)
        fw = [x for x in w if issubclass(x.category, fallback.FallbackWarning)]
        features = [str(x.message) for x in fw]
        assert fw, "expected a FallbackWarning"
        assert len(features) == len(set(features))
        assert any("datetime64" in s for s in features)
    finally:
        config.warn_on_fallback = old
    with warnings.catch_warnings():
        warnings.simplefilter("error", fallback.FallbackWarning)
        fallback.reset_warnings()
        C.compile(lambda a: a + np.timedelta64(1, "D"), backend="eager")(d)  # warn_on_fallback off: silent


def test_explain_reports_graphs_breaks_and_fallbacks():
    def f(a):
        b = np.sin(a) + 1
        C.graph_break()
        c = b * 2
        d = np.array(["2020-01-01"], dtype="datetime64[D]") + np.timedelta64(1, "D")
        return c, d

    r = C.explain(f)(np.ones(4))
    assert r.graph_count >= 2
    assert r.graph_break_count >= 2
    text = str(r)
    assert "graph_break()" in text
    assert "test_fallback.py:" in text  # file:line of the break in user code
    assert any("timedelta64" in e.feature or "datetime64" in e.feature for e in r.fallbacks)
    assert r.hints
    assert same(r.result[0], (np.sin(np.ones(4)) + 1) * 2)


def test_disable_runs_uncompiled():
    calls = []

    @C.disable
    def helper(a):
        calls.append(type(a))
        return a.copy()

    rec = RecordingBackend()
    f = C.compile(lambda a: helper(np.sin(a)) + 1, backend=rec)
    x = np.random.rand(3)
    assert same(f(x), np.sin(x) + 1)
    assert calls == [np.ndarray]


def test_explain_names_print_only_for_print():
    def printing(a):
        b = a * 2
        print(end="")
        return b

    def polynomial_product(c):
        p = np.polynomial.Polynomial(c)
        return (p * p).coef  # (torch 2.11's message for this break hints at print too)

    x = np.arange(3.0)
    assert [e.feature for e in C.explain(printing)(x).graph_breaks] == ["print"]
    assert "print" not in [e.feature for e in C.explain(polynomial_product)(x).graph_breaks]


def test_explain_names_dtypes_and_branches_in_numpy_terms():
    def f(x):
        s = np.array(["a", "bb"])
        o = np.zeros(2, dtype=object)
        return x * 2, s, o

    r = C.explain(f)(np.ones(3))
    assert {e.feature for e in r.events} == {"dtype <U2", "object dtype"}, r
    assert "dtype(" not in str(r)
    assert same(C.compile(f, backend="eager")(np.ones(3)), f(np.ones(3)))
    assert fallback.classify("generic_jump NumpyNdarrayVariable()")[1] == "if/while on an array"


@pytest.mark.parametrize("scale", [1.0, -1.0], ids=["some positive", "none"])
def test_the_truth_of_a_size_from_the_data_breaks_the_graph_there(scale):
    """``if pos.size:`` tests an int read from the data: a graph break at the jump, compiled around it (the frame
    used to fail as a whole, run in NumPy, and log Dynamo's traceback)."""
    def mean_of_positive(x):
        pos = x[x > 0]
        return pos.mean() if pos.size else 0.0

    x = scale * np.abs(np.random.default_rng(0).standard_normal(50))
    r = C.explain(mean_of_positive)(x)
    # (torch 2.11 also breaks at the boolean index)
    assert [e.feature for e in r.graph_breaks][-1:] == ["if/while on an array"] and not r.fallbacks, r
    assert r.result == mean_of_positive(x) and type(r.result) is type(mean_of_positive(x))
