"""npcompile._numpy.testing: NumPy's assertions on shim arrays, NumPy arrays and mixtures."""

import warnings

import numpy
import pytest

import npcompile._numpy as shim
from npcompile._numpy import testing as t


def test_assertions_accept_shim_and_numpy_arrays():
    a = shim.asarray([1.0, 2.0, 3.0])
    t.assert_allclose(a, numpy.array([1.0, 2.0, 3.0 + 1e-9]))
    t.assert_allclose(a, a, rtol=0)
    t.assert_array_equal(a, [1, 2, 3])
    t.assert_array_equal(shim.asarray([1, 2]), numpy.array([1, 2]), strict=False)
    t.assert_array_almost_equal(a, a + 1e-8)
    t.assert_almost_equal(shim.asarray(1.0), 1.0 + 1e-9)
    t.assert_approx_equal(shim.asarray(1.0), 1.0000001)
    t.assert_array_less(a, a + 1)
    t.assert_equal({"x": a, "y": [a, 1]}, {"x": numpy.array([1.0, 2.0, 3.0]), "y": [a, 1]})
    t.assert_array_max_ulp(a, numpy.nextafter(numpy.array([1.0, 2.0, 3.0]), 4), maxulp=1)
    t.assert_array_almost_equal_nulp(a, a, nulp=1)


def test_failures_are_numpys():
    a = shim.asarray([1.0, 2.0])
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        t.assert_allclose(a, [1.0, 2.1])
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        t.assert_array_equal(a, shim.asarray([1.0, 3.0]))
    with pytest.raises(AssertionError):
        t.assert_array_less(a, a)
    with pytest.raises(AssertionError):
        t.assert_equal(shim.asarray([1, 2]), [1, 3])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # NumPy 2.4 deprecates assert_warns
def test_helpers():
    t.assert_raises(ValueError, shim.zeros, -1)
    t.assert_raises_regex(ValueError, "negative", shim.zeros, -1)
    with t.assert_warns(UserWarning):
        warnings.warn("x", UserWarning)
    t.assert_no_warnings(shim.add, 1, 2)
    t.assert_string_equal("abc", "abc")
    with pytest.raises(AssertionError):
        t.assert_(False)
