"""``numpy.lib`` (and ``numpy.emath``): the shim's numeric submodules against the installed NumPy."""

import warnings

import numpy
import pytest
from numpy.exceptions import AxisError

import npcompile._numpy as shim
from npcompile._errors import UnsupportedFeature
from tests.numpy_conformance.harness import assert_matches

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128"]


@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10", "arcsin", "arccos", "arctanh"])
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("values", [[-1, 4, 0], [1, 4, 0], [0.5, 3, 1]])
def test_scimath_goes_complex_outside_the_real_domain(name, dt, values):
    """Any element outside the domain turns the whole array complex (complex64 from small ints and float32)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # casting negatives to unsigned; log(0)
        x = numpy.array(values).astype(dt)
    assert_matches(lambda xp, a: getattr(xp.emath, name)(a), x)
    assert_matches(lambda xp, a: getattr(xp.lib.scimath, name)(a), x)


@pytest.mark.parametrize("x", [-1, 4.0, -2.5, 0])
def test_scimath_of_python_scalars(x):
    assert_matches(lambda xp: xp.emath.sqrt(x))
    assert_matches(lambda xp: xp.emath.log(x))


@pytest.mark.parametrize("dt", ["float32", "float64", "int16"])
@pytest.mark.parametrize("p", [2, -1, 2.5, -2])
def test_scimath_power_and_logn(dt, p):
    """The exponent becomes an array (not a weak scalar); negative integer exponents turn float64."""
    x = numpy.array([1, -2, 3]).astype(dt)
    assert_matches(lambda xp, a: xp.emath.power(a, p), x)
    assert_matches(lambda xp, a: xp.emath.power(numpy.abs(a) if xp is numpy else xp.abs(a), p), x)
    assert_matches(lambda xp, a: xp.emath.logn(numpy.float32(2) if xp is numpy else xp.float32(2), a), x)


def test_as_strided():
    x = numpy.arange(12.0)
    assert_matches(lambda xp, a: xp.lib.stride_tricks.as_strided(a, (3, 4), (16, 8)), x)
    assert_matches(lambda xp, a: xp.lib.stride_tricks.as_strided(a[2:], (2, 2), (8, 8)), x)
    assert_matches(lambda xp, a: xp.lib.stride_tricks.as_strided(a, (4, 3), (0, 8)), x)
    assert_matches(lambda xp, a: xp.lib.stride_tricks.as_strided(a), x.reshape(3, 4)[:, ::2])
    v = shim.lib.stride_tricks.as_strided(shim.asarray(x), (3, 4), (16, 8))
    assert v.flags.writeable and v.base is not None
    assert not shim.lib.stride_tricks.as_strided(shim.asarray(x), writeable=False).flags.writeable
    assert_matches(lambda xp, a: xp.lib.stride_tricks.as_strided(a, (2,), (8, 8)), x)  # ValueError
    for shape, strides in [((3,), (-8,)), ((3,), (4,)), ((20,), (8,))]:
        with pytest.raises(UnsupportedFeature):
            shim.lib.stride_tricks.as_strided(shim.asarray(x), shape, strides)


@pytest.mark.parametrize("call", [
    lambda m: m.normalize_axis_index(1, 3), lambda m: m.normalize_axis_index(-1, 3),
    lambda m: m.normalize_axis_index(5, 3), lambda m: m.normalize_axis_index(5, 3, "foo"),
    lambda m: m.normalize_axis_index(1.0, 3), lambda m: m.normalize_axis_tuple(1, 3),
    lambda m: m.normalize_axis_tuple([0, -1], 3), lambda m: m.normalize_axis_tuple((0, 0), 3),
    lambda m: m.normalize_axis_tuple((0, 0), 3, "bar"), lambda m: m.normalize_axis_tuple((0, 0), 3, None, True),
])
def test_array_utils_axes(call):
    try:
        want = call(numpy.lib.array_utils)
    except (AxisError, TypeError, ValueError) as e:
        with pytest.raises(type(e), match=None if isinstance(e, TypeError) else str(e).replace("`", ".")):
            call(shim.lib.array_utils)
        return
    assert call(shim.lib.array_utils) == want


@pytest.mark.parametrize("index", [numpy.s_[:], numpy.s_[::2], numpy.s_[:, 1:3], numpy.s_[1:1]])
def test_byte_bounds_span(index):
    """(The shim's reversed views are copies: torch has no negative strides.)"""
    a = numpy.arange(12.0).reshape(3, 4)
    lo, hi = numpy.lib.array_utils.byte_bounds(a[index])
    slo, shi = shim.lib.array_utils.byte_bounds(shim.asarray(a)[index])
    assert shi - slo == hi - lo


def test_numpy_version_and_refusals():
    assert shim.lib.NumpyVersion("1.2.0") < "1.10.0"
    for name in ("format", "npyio", "mixins", "introspect"):
        with pytest.raises(UnsupportedFeature, match=f"numpy.lib.{name}"):
            getattr(shim.lib, name)
    with pytest.raises(UnsupportedFeature, match="numpy.lib."):
        shim.lib.add_newdoc("a", "b", "c")
    with pytest.raises(AttributeError):
        shim.lib.no_such_name  # noqa: B018


def test_arrayterator_blocks_of_our_arrays():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    ours = list(shim.lib.Arrayterator(shim.asarray(a), buf_size=5))
    theirs = list(numpy.lib.Arrayterator(a, buf_size=5))
    assert all(isinstance(x, shim.ndarray) for x in ours) and len(ours) == len(theirs)
    for x, y in zip(ours, theirs):
        numpy.testing.assert_array_equal(numpy.asarray(x), y)
