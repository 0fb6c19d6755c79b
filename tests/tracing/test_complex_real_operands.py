"""A complex array times or divided by a real one: the shim's kernels take the real operand as such (NumPy's cast
would add a +0 imaginary part, which the kernels know), in both operand orders, bit for bit as NumPy's fused
complex multiply and its complex division do (zero signs, an underflowing product, inf and NaN parts, zero
divisors)."""

import itertools
import warnings

import numpy as np
import pytest
import torch

import npcompile
from npcompile import _compile as C
from npcompile import _numpy as shim
from npcompile._numpy import _ufuncs

def _operands(cdt):
    """Every pair of edge parts: signed zeros, a tiny and a huge value (their products underflow and overflow),
    infinities and NaN."""
    tiny, huge = (1e-30, 1e30) if cdt == np.complex64 else (1e-200, 1e200)
    parts = [0.0, -0.0, 1.0, -1.0, tiny, -tiny, huge, -3.5, np.inf, -np.inf, np.nan]
    z = np.array([complex(r, i) for r, i in itertools.product(parts, parts)], cdt)
    return z[:, None], np.array(parts, z.real.dtype)[None, :]


def _same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = got.view(got.real.dtype), want.view(want.real.dtype)
    nan = np.isnan(w)
    assert np.array_equal(nan, np.isnan(g))
    assert np.array_equal(np.signbit(g[~nan]), np.signbit(w[~nan])) and np.array_equal(g[~nan], w[~nan])


def _numpy(f, *args):
    with np.errstate(all="ignore"):
        return f(*args)


@pytest.mark.parametrize("cdt", [np.complex64, np.complex128])
def test_torch_formulas_match_numpy_in_both_orders(cdt):
    """The kernel's formula in eager torch arithmetic (the path traced code and other devices take)."""
    z, u = _operands(cdt)
    tz, tu = torch.from_numpy(z), torch.from_numpy(u)
    _same_bits(_ufuncs._times_real(tz, tu, real_first=False), _numpy(np.multiply, z, u))
    _same_bits(_ufuncs._times_real(tz, tu), _numpy(np.multiply, u, z))
    _same_bits(_ufuncs._complex_divide(tz, tu), _numpy(np.divide, z, u))
    _same_bits(_ufuncs._complex_divide(tu, tz), _numpy(np.divide, u, z))


def _products(z, u, i, z32):
    return (z * u, u * z, z * i, 2.5 * z, z * -0.0, z32 * u, z32 * 3,
            z / u, u / z, z / i, z / 2.5, 1 / z, z / -0.0, z32 / u, z32 / 3)


def test_dispatch_keeps_numpy_dtypes_and_values():
    """A real operand of any dtype and a Python number reach the kernel uncast, on the first call and on the
    ufunc's remembered casts after it: eagerly (the CPU path hands them to NumPy's own loop), then traced."""
    z, u = _operands(np.complex128)
    args = (z, u, np.array([0, -3, 7], np.int64), _operands(np.complex64)[0])
    want = _numpy(_products, *args)
    for _ in range(2):
        for g, w in zip(_products(*map(shim.asarray, args)), want):
            _same_bits(g, w)
    for g, w in zip(npcompile.compile(_products, backend="aot_eager")(*args), want):
        _same_bits(g, w)


@pytest.mark.inductor
def test_inductor_keeps_the_zero_products():
    """Inductor must not fold x * 0.0 or 0.0 / u away (inf * 0 is NaN, -1 * 0 is -0)."""
    z, u = _operands(np.complex128)
    f = C.compile(lambda z, u: (z * u, u * z, z / u))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = f(z, u)
    for g, w in zip(got, _numpy(lambda: (z * u, u * z, z / u))):
        _same_bits(g, w)
