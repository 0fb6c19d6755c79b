"""Differential tests for numpy.fft: every transform over dtypes, n/s, axis/axes, norm and out=, plus the
frequency and shift helpers."""

from __future__ import annotations

import warnings

import numpy
import pytest
from hypothesis import given, strategies as st

import npcompile._numpy as shim
from tests.numpy_conformance.harness import assert_matches
from tests.numpy_conformance.strategies import ALL, arrays, dtypes, shapes

NORMS = [None, "backward", "ortho", "forward"]
SINGLE = (numpy.dtype("float16"), numpy.dtype("float32"), numpy.dtype("complex64"))


def tolerance(a):
    """FFT rounding grows with the input's magnitude: an absolute tolerance scaled by it.  (NumPy applies a
    float16 input's norm factor in float16.)"""
    rel = 2e-3 if a.dtype == numpy.float16 else 1e-5 if a.dtype in SINGLE else 1e-11
    return {"rtol": rel, "atol": rel * (float(numpy.abs(a.astype(complex)).sum()) + 1)}


def fft_inputs(max_dims=3):
    return arrays(dtype=dtypes(ALL), shape=shapes(max_dims=max_dims, max_side=5), finite=True)


ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]


@given(fft_inputs(), st.sampled_from(ONE_AXIS), st.one_of(st.none(), st.integers(-1, 7)), st.integers(-4, 3),
       st.sampled_from(NORMS))
def test_one_axis(a, name, n, axis, norm):
    assert_matches(lambda xp, a: getattr(xp.fft, name)(a, n, axis, norm), a, **tolerance(a))


@given(fft_inputs(), st.sampled_from(ONE_AXIS))
def test_one_axis_defaults_and_bad_norm(a, name):
    assert_matches(lambda xp, a: getattr(xp.fft, name)(a), a, **tolerance(a))
    assert_matches(lambda xp, a: getattr(xp.fft, name)(a, norm="bogus"), a)


N_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


@st.composite
def nd_case(draw):
    a = draw(fft_inputs(max_dims=3))
    nd = a.ndim
    axes = draw(st.one_of(st.none(), st.lists(st.integers(-nd - 1, max(nd - 1, 0)), min_size=0, max_size=3)
                          .map(tuple)))
    s = None
    if draw(st.booleans()):
        k = len(axes) if axes is not None and draw(st.integers(0, 5)) else draw(st.integers(0, 3))
        s = tuple(draw(st.integers(0, 6)) if draw(st.integers(0, 9)) else None for _ in range(k))
    return a, s, axes


@given(nd_case(), st.sampled_from(N_AXES), st.sampled_from(NORMS))
def test_n_axes(case, name, norm):
    a, s, axes = case
    kw = {} if axes is None and name.endswith("2") else {"axes": axes}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_matches(lambda xp, a: getattr(xp.fft, name)(a, s, norm=norm, **kw), a, **tolerance(a))


def test_deprecations_are_numpys():
    a = numpy.ones((3, 4))
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None`"):
        shim.fft.fftn(shim.asarray(a), s=(2, 3))
    with pytest.warns(DeprecationWarning, match="containing `None`"):
        shim.fft.fftn(shim.asarray(a), s=(2, None), axes=(0, 1))


IGNORE_OUT = ("hfft", "ifft2", "irfft2")  # NumPy 2.x drops their out= (the shim does too)


@given(st.sampled_from(ONE_AXIS + N_AXES), st.sampled_from(ALL))
def test_out(name, out_dtype):
    a = numpy.arange(12.0).reshape(3, 4)
    expected = getattr(numpy.fft, name)(a)
    assert_matches(lambda xp, a: getattr(xp.fft, name)(a, out=xp.zeros(expected.shape, out_dtype)), a,
                   rtol=1e-4, atol=1e-9)  # (a fresh out= each side: a shared one would hold NumPy's result)
    assert_matches(lambda xp, a: getattr(xp.fft, name)(a, out=xp.zeros((5, 5), dtype=complex)), a)
    r = shim.zeros(expected.shape, dtype=out_dtype)
    if numpy.can_cast(expected.dtype, out_dtype, "same_kind"):
        assert (getattr(shim.fft, name)(shim.asarray(a), out=r) is r) == (name not in IGNORE_OUT)


def _single_input(name, dtype):
    a = numpy.random.default_rng(0).standard_normal((3, 5)) * [[1], [1e3], [1e-3]]
    if dtype == "complex64":
        if name in ("rfft", "ihfft", "rfftn", "rfft2"):
            pytest.skip("a real transform")
        a = a + 1j * a[::-1]
    return a.astype(dtype)


def _double_out(name, a):
    """A fresh double-precision out= for each side (a shared one would be NumPy's result overwritten)."""
    expected = getattr(numpy.fft, name)(a)
    return expected.shape, numpy.complex128 if expected.dtype.kind == "c" else numpy.float64


@pytest.mark.parametrize("name", [n for n in ONE_AXIS + N_AXES if n not in IGNORE_OUT])
@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64"])
@pytest.mark.parametrize("norm", NORMS)
def test_out_of_higher_precision(name, dtype, norm):
    """A double out= for single-precision input: NumPy picks the loop from input, norm factor and out together
    (double where the factor is 1 or the input is not the loop's own type; the factor rounded to the input's
    precision); each n-D pass goes through out."""
    a = _single_input(name, dtype)
    out = _double_out(name, a)
    assert_matches(lambda xp, a: getattr(xp.fft, name)(a, norm=norm, out=xp.zeros(*out)), a, **tolerance(a))


@pytest.mark.parametrize("name, dtype, norm", [("fft", "float32", None), ("fft", "complex64", "backward"),
                                               ("rfft", "float32", None), ("ifft", "float32", "backward"),
                                               ("ifft", "float16", "ortho"), ("irfft", "float32", None),
                                               ("irfft", "float16", None), ("fftn", "complex64", None),
                                               ("rfft2", "float32", None), ("fft2", "float16", "forward")])
def test_out_of_higher_precision_computes_in_double(name, dtype, norm):
    a = _single_input(name, dtype)
    out = _double_out(name, a)
    assert_matches(lambda xp, a: getattr(xp.fft, name)(a, norm=norm, out=xp.zeros(*out)), a, rtol=1e-13, atol=0)


def test_n_axes_out_takes_every_pass():
    """NumPy writes each pass of fftn/rfftn into out=: a size change on a first pass fails on out's shape."""
    a = numpy.ones((3, 4))
    for name in ("fftn", "rfftn"):
        out = numpy.zeros((5, 4 if name == "fftn" else 3), complex)
        assert_matches(lambda xp, a: getattr(xp.fft, name)(a, s=(5, 4), axes=(0, 1), out=xp.asarray(out)), a)


@pytest.mark.filterwarnings("ignore:divide by zero")
@given(st.integers(-1, 9), st.sampled_from([1.0, 0.5, 3, numpy.float32(0.25), numpy.float64(2.0), 1j]))
def test_frequencies(n, d):
    for name in ("fftfreq", "rfftfreq"):
        assert_matches(lambda xp: getattr(xp.fft, name)(n, d))
        assert_matches(lambda xp: getattr(xp.fft, name)(n))


def test_frequency_arguments():
    assert_matches(lambda xp: xp.fft.fftfreq(4.0))
    assert_matches(lambda xp: xp.fft.fftfreq(0))
    assert_matches(lambda xp: xp.fft.rfftfreq(numpy.int64(5), 0.1))
    assert_matches(lambda xp: xp.fft.fftfreq(numpy.int8(5), xp.asarray(0.1)))


@given(arrays(dtype=dtypes(ALL), shape=shapes(max_dims=3, max_side=5)),
       st.one_of(st.none(), st.integers(-3, 2), st.lists(st.integers(-3, 2), max_size=3).map(tuple)))
def test_shifts(a, axes):
    assert_matches(lambda xp, a: xp.fft.fftshift(a, axes), a)
    assert_matches(lambda xp, a: xp.fft.ifftshift(a, axes), a)
    assert_matches(lambda xp, a: xp.fft.ifftshift(xp.fft.fftshift(a, axes), axes), a)


def test_shift_axes_as_numpy_integers():
    """A NumPy integer scalar is one axis (it was iterated: TypeError); a 0-D array is iterated, as NumPy does."""
    a = numpy.arange(8.0).reshape(2, 4)
    for make in (lambda xp: xp.int64(1), lambda xp: xp.int8(-1), lambda xp: xp.array(0), lambda xp: xp.array([1])):
        for own in (False, True):
            assert_matches(lambda xp, a: xp.fft.fftshift(a, make(xp if own else numpy)), a)
            assert_matches(lambda xp, a: xp.fft.ifftshift(a, axes=make(xp if own else numpy)), a)
