"""Writes that rebind an array rather than its elements (``a.flat = v``, ``a.shape = s``, ``a.real = v``,
``a.resize(...)``) in compiled code: NumPy's answers (Dynamo would record them on the graph's tensor and drop them)."""

import numpy as np
import pytest

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


@pytest.mark.parametrize("fn", [_set_attributes, _set_shape, _resize_local, _resize_argument, _numpy_resize],
                         ids=lambda f: f.__name__)
def test_attribute_writes_and_resize_match_numpy(fn):
    a, b = np.arange(4.0), np.arange(4.0)
    want = fn(a)
    got = C.compile(fn, backend="eager")(b)
    assert same(got, want) and same(a, b) and a.shape == b.shape


def test_explain_names_resize_as_a_fallback_and_np_resize_compiles():
    report = C.explain(_resize_argument)(np.arange(4.0))
    assert [e.feature for e in report.fallbacks] == ["ndarray.resize"]
    assert not C.explain(_numpy_resize)(np.arange(4.0)).graph_breaks
