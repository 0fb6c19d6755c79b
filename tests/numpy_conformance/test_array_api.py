"""The array API standard's entry point: ``array_api_compat.array_namespace`` finds npcompile._numpy for our
arrays, and generic array-API code written against ``xp`` runs on them with NumPy's results."""

import numpy
import pytest

import npcompile._numpy as shim

array_api_compat = pytest.importorskip("array_api_compat")

NEEDED = ["mean", "std", "exp", "max", "sum", "matmul", "reshape", "astype", "concat", "sqrt", "maximum",
          "asarray", "float64"]


def _need(*names):
    missing = [n for n in names if not hasattr(shim, n)]
    if missing:
        pytest.skip(f"not yet in the shim: {missing}")


def test_namespace_is_ours():
    x = shim.asarray([1.0, 2.0])
    assert x.__array_namespace__() is shim
    assert array_api_compat.array_namespace(x) is shim
    assert array_api_compat.array_namespace(x, shim.asarray([3])) is shim
    assert array_api_compat.is_array_api_obj(x)


def standardize(x):
    xp = array_api_compat.array_namespace(x)
    return (x - xp.mean(x, axis=0)) / xp.std(x, axis=0)


def softmax(x):
    xp = array_api_compat.array_namespace(x)
    e = xp.exp(x - xp.max(x, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


def pairwise_distances(x, y):
    xp = array_api_compat.array_namespace(x, y)
    xx = xp.sum(x * x, axis=1)
    yy = xp.sum(y * y, axis=1)
    d2 = xp.reshape(xx, (-1, 1)) + xp.reshape(yy, (1, -1)) - 2 * xp.matmul(x, y.T)
    return xp.sqrt(xp.maximum(d2, 0))


def features(x):
    xp = array_api_compat.array_namespace(x)
    ints = xp.astype(x > 0, xp.int64)
    return xp.concat([xp.astype(ints, xp.float64), softmax(x)], axis=1)


@pytest.mark.parametrize("fn", [standardize, softmax, features])
def test_generic_functions_match_numpy(fn):
    _need(*NEEDED)
    x = numpy.random.default_rng(0).standard_normal((5, 3))
    expected = fn(x)
    actual = fn(shim.asarray(x))
    assert isinstance(actual, shim.ndarray) and actual.dtype == expected.dtype
    numpy.testing.assert_allclose(numpy.asarray(actual), expected, rtol=1e-12, atol=1e-12)


def test_pairwise_distances_match_numpy():
    _need(*NEEDED)
    rng = numpy.random.default_rng(1)
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((6, 3))
    numpy.testing.assert_allclose(numpy.asarray(pairwise_distances(shim.asarray(x), shim.asarray(y))),
                                  pairwise_distances(x, y), rtol=1e-10, atol=1e-12)
