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
from .polyutils import mapdomain

CHEBYSHEV = Basis("cheb", "Chebyshev", lambda k: (0, 1, 0, 1) if k == 0 else (0, 2, 1, 1), basis_name="T",
                  weight=lambda x: 1.0 / (U.sqrt(1.0 + x) * U.sqrt(1.0 - x)), mu0=math.pi, symmetric=True)

_F = functions(CHEBYSHEV)
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
