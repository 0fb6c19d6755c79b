"""Writes that rebind an array rather than its elements (``a.flat = v``, ``a.shape = s``, ``a.real = v``,
``a.resize(...)``, ``a.flags.writeable = False``) in compiled code, also inside the functions it calls: NumPy's
answers (Dynamo would record them on the graph's tensor and drop them)."""

import numpy as np
import pytest

import npcompile
from npcompile import _compile as C

from .conftest import same


def _set_attributes(x):
    y = x * 2
    y.real = 1.5
    x.flat = 7.0
    return y, x.sum()


def _set_shape(x):
    y = x * 2
    y.shape = (2, 2)
    return y


def _resize_local(x):
    z = x * 2
    z.resize(2, 2)
    return z


def _resize_argument(x):
    x.resize(6, refcheck=False)
    return x.sum(), x


def _numpy_resize(x):
    return np.resize(x, (3, 3)).sum()


def _resize_in_callee(x):
    z = _resize_local(x)
    _resize_argument(x)
    return z, x * 1


def _shape_in_callee(x):
    return _set_shape(x * 1), _reshape_in_place(x)


def _reshape_in_place(a):
    a.shape = (2, 2)
    return a.sum(axis=0)


def _write_protect(a):
    a.flags.writeable = False


def _protect_in_callee(x):
    _write_protect(x)
    return x * 2


def _protect_by_key(x):
    y = x * 2
    x.flags["W"] = False
    return y


def _setflags(x):
    y = x + 1
    x.setflags(write=False)
    return y


@pytest.mark.parametrize("fn", [_set_attributes, _set_shape, _resize_local, _resize_argument, _numpy_resize,
                                _resize_in_callee, _shape_in_callee, _protect_in_callee, _protect_by_key, _setflags],
                         ids=lambda f: f.__name__)
def test_attribute_writes_and_resize_match_numpy(fn):
    a, b = np.arange(4.0), np.arange(4.0)
    want = fn(a)
    got = C.compile(fn, backend="eager")(b)
    assert same(got, want) and same(a, b) and a.shape == b.shape
    assert a.flags.writeable == b.flags.writeable


def test_resize_found_while_tracing_runs_the_call_in_numpy():
    # The callee is an argument: only the trace finds its resize, before anything of the call ran.
    def f(x, helper):
        return helper(x * 2), x.sum()

    a = np.arange(4.0)
    compiled = C.compile(f, backend="eager")
    for _ in range(2):
        assert same(compiled(a, _resize_local), f(a, _resize_local))
    report = C.explain(f)(a, _resize_local)
    assert [e.feature for e in report.fallbacks] == ["ndarray.resize"]


def test_resize_reached_after_a_graph_break_raises_then_runs_in_numpy():
    def f(x, helper):
        y = x * 2
        npcompile.graph_break()
        helper(y)
        return y

    compiled = C.compile(f, backend="eager")
    with pytest.raises(npcompile.UnsupportedFeature, match="ndarray.resize reached after a graph break"):
        compiled(np.arange(4.0), _resize_local)
    assert same(compiled(np.arange(4.0), _resize_local), f(np.arange(4.0), _resize_local))


def test_resize_with_fullgraph_is_a_compile_error():
    with pytest.raises(C.CompileError, match="ndarray.resize"):
        C.compile(_resize_in_callee, backend="eager", fullgraph=True)(np.arange(4.0))


def test_explain_names_resize_as_a_fallback_and_np_resize_compiles():
    report = C.explain(_resize_argument)(np.arange(4.0))
    assert [e.feature for e in report.fallbacks] == ["ndarray.resize"]
    assert not C.explain(_numpy_resize)(np.arange(4.0)).graph_breaks
