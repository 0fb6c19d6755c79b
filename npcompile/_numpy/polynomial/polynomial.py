"""Power series (coefficients in increasing powers): the ``polyval``/``polyfit``/... functions and the
``Polynomial`` class, made from the power basis' table by the machinery shared with the other bases.

As in NumPy, coefficient sequences are trimmed of trailing zeros by arithmetic (a data-dependent length), and
``Polynomial.roots`` are sorted eigenvalues of the companion matrix (real when none is complex).
"""

from __future__ import annotations

import torch

from .._ndarray import ndarray, wrap
from .._normalize import as_tensor
from ._basis import Basis
from ._class import ABCPolyBase
from ._functions import _coef_1d, functions

POWER = Basis("poly", "Polynomial", lambda k: (0, 1, 0, 1), maxpower=None)


def _convolve(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    from .._math import convolve

    return convolve(wrap(a), wrap(b)).tensor


def _synthetic_division(a: torch.Tensor, b: torch.Tensor):
    """Quotient and remainder of ``a / b`` rounded as NumPy's, in its arithmetic (complex products and quotients
    as its ufuncs round them): the divisor made monic first, each step removing the remainder's leading term,
    the quotient (the leading terms removed) divided by ``b``'s leading coefficient at the end.  (Dividing by
    the leading coefficient at each step left an exact 0 where NumPy's remainder of a series by itself keeps a
    rounding error, so the trimmed remainders differed in length.)"""
    rem, divisor = wrap(a.clone()), wrap(b)
    lead, n = divisor[-1], b.shape[0] - 1
    monic = divisor[:-1] / lead
    for top in range(a.shape[0] - 1, n - 1, -1):
        rem[top - n:top] -= monic * rem[top]
    return (rem[n:] / lead).tensor, rem.tensor[:n]


def _repeated_convolution(a: torch.Tensor, n: int) -> torch.Tensor:
    prd = a
    for _ in range(n - 1):
        prd = _convolve(prd, a)
    return prd


_F = functions(POWER, mul=_convolve, divide=_synthetic_division, power=_repeated_convolution)
globals().update(_F)


def polyvalfromroots(x, r, tensor=True):
    """``prod(x - r)`` over the roots ``r`` (axis 0); with ``tensor`` each root column gets x's shape."""
    rt = _coef_1d(r)
    if isinstance(x, (tuple, list)):
        x = wrap(as_tensor(x))
    if isinstance(x, ndarray):
        if tensor:
            rt = rt.reshape(tuple(rt.shape) + (1,) * x.ndim)
        elif x.ndim >= rt.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return (x - wrap(rt)).prod(axis=0)


class Polynomial(ABCPolyBase, basis=POWER, functions=_F):
    """A power series ``coef[0] + coef[1]*x + ...`` evaluated on ``window`` after mapping ``domain`` onto it."""


__all__ = ["Polynomial", "polyvalfromroots", *_F]
