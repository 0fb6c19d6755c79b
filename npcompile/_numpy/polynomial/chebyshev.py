"""Chebyshev series (T_k, orthogonal on [-1, 1] for ``1/sqrt(1 - x**2)``): NumPy's ``chebval``/``chebfit``/...
and the ``Chebyshev`` class, from the basis' table, plus the Chebyshev points and interpolation."""

from __future__ import annotations

import math

import numpy as _np
import torch

from .. import _ufuncs as U
from .._ndarray import wrap
from ._basis import Basis
from ._class import ABCPolyBase
from ._functions import _as_int, functions
from .polynomial import _convolve, _repeated_convolution
from .polyutils import mapdomain, trimmed

CHEBYSHEV = Basis("cheb", "Chebyshev", lambda k: (0, 1, 0, 1) if k == 0 else (0, 2, 1, 1), basis_name="T",
                  weight=lambda x: 1.0 / (U.sqrt(1.0 + x) * U.sqrt(1.0 - x)), mu0=math.pi, symmetric=True)

# NumPy multiplies, divides and raises Chebyshev series as z-series: with z = exp(i theta), T_k is
# (z**k + z**-k) / 2, so a series of n coefficients is a symmetric Laurent series of 2n - 1 and a product is
# a convolution.  Doing the same gives NumPy's rounding, and with it NumPy's trimmed lengths.


def _to_z(c: torch.Tensor) -> torch.Tensor:
    """``c[0]`` at z**0 and ``c[k] / 2`` at z**k and z**-k, each half added to a zero as NumPy adds it
    (a -0.0 half becomes +0.0)."""
    half = (wrap(c) / 2).tensor
    side = half[1:] + 0.0
    return torch.cat([side.flip(0), (half[0] + half[0]).reshape(1), side])


def _from_z(z: torch.Tensor) -> torch.Tensor:
    """The Chebyshev series of a z-series: the coefficients from z**0 up, those past the first doubled."""
    c = z[(z.shape[0] - 1) // 2:].clone()
    c[1:] *= 2
    return c


def _z_product(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _from_z(_convolve(_to_z(a), _to_z(b)))


def _z_power(a: torch.Tensor, n: int) -> torch.Tensor:
    return _from_z(_repeated_convolution(_to_z(a), n))


def _z_division(a: torch.Tensor, b: torch.Tensor):
    """Quotient (trimmed, as NumPy trims it) and remainder of ``a / b`` by long division of their z-series,
    in NumPy's arithmetic (complex products and quotients as its ufuncs round them).

    The divisor is scaled to a unit end coefficient.  As both series are symmetric, each step takes one
    quotient term from the dividend's low end and removes it at both ends (low end first), meeting at the
    middle term; the quotient is scaled back at the end."""
    za, zb = wrap(_to_z(a)), wrap(_to_z(b))
    width, span = zb.shape[0], za.shape[0] - zb.shape[0]  # span is even: both lengths are odd
    scale = zb[0]
    unit = zb / scale
    rem, quo = za.copy(), wrap(za.tensor.new_empty(span + 1))
    mid = span // 2
    for i in range(mid + 1):
        term = rem[i]
        quo[i] = quo[span - i] = term
        step = term * unit
        rem[i:i + width] -= step
        if i < mid:
            rem[span - i:span - i + width] -= step
    return trimmed(_from_z((quo / scale).tensor)), _from_z(rem.tensor[mid + 1:mid + width - 1])


_F = functions(CHEBYSHEV, mul=_z_product, divide=_z_division, power=_z_power)
globals().update(_F)


def _npts(npts, least):
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    if n < least:
        raise ValueError(f"npts must be >= {least}")
    return n


def chebpts1(npts):
    """Chebyshev points of the first kind: ``sin(pi/2 * k/npts)`` for k = -npts+1, -npts+3, ..., npts-1."""
    n = _npts(npts, 1)
    return wrap(torch.sin(0.5 * math.pi / n * torch.arange(-n + 1, n + 1, 2, dtype=torch.float64)))


def chebpts2(npts):
    """Chebyshev points of the second kind: ``cos(linspace(-pi, 0, npts))``."""
    from .._creation import linspace

    return U.cos(linspace(-math.pi, 0, _npts(npts, 2)))


def chebgauss(deg):
    """Gauss-Chebyshev nodes (descending, as NumPy's) and weights, in closed form."""
    ideg = _as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    x = torch.cos(math.pi * torch.arange(1, 2 * ideg, 2, dtype=torch.float64) / (2.0 * ideg))
    return wrap(x), wrap(torch.ones(ideg, dtype=torch.float64) * (math.pi / ideg))


def chebinterpolate(func, deg, args=()):
    """Coefficients of the degree-``deg`` Chebyshev interpolant of ``func`` at the Chebyshev points of the
    first kind."""
    d = _np.asarray(deg)
    if d.ndim > 0 or d.dtype.kind not in "iu":
        raise TypeError("deg must be an int")
    if d < 0:
        raise ValueError("expected deg >= 0")
    order = int(d) + 1
    xcheb = chebpts1(order)
    m = chebvander(xcheb, int(d))  # noqa: F821  (made by functions())
    c = (m.T @ func(xcheb, *args)).tensor.clone()
    c[0] /= order
    c[1:] /= 0.5 * order
    return wrap(c)


_F["chebgauss"] = chebgauss


class Chebyshev(ABCPolyBase, basis=CHEBYSHEV, functions=_F):
    """A Chebyshev series on ``window`` after mapping ``domain`` onto it."""

    @classmethod
    def interpolate(cls, func, deg, domain=None, args=()):
        """The Chebyshev interpolant of ``func`` over ``domain`` (default the class'), of degree ``deg``."""
        domain = list(CHEBYSHEV.domain) if domain is None else domain
        coef = chebinterpolate(lambda x, *a: func(mapdomain(x, cls.window, domain), *a), deg, args)
        return cls(coef, domain=domain)


__all__ = ["Chebyshev", "chebpts1", "chebpts2", "chebinterpolate", *_F]
