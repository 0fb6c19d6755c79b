"""Laguerre series (L_k, orthogonal on [0, inf) for ``exp(-x)``): NumPy's ``lagval``/``lagfit``/... and the
``Laguerre`` class (domain and window [0, 1]), from the basis' table."""

from .. import _ufuncs as U
from ._basis import Basis
from ._class import ABCPolyBase
from ._functions import functions

LAGUERRE = Basis("lag", "Laguerre", lambda k: (2 * k + 1, -1, k, k + 1), domain=(0.0, 1.0), basis_name="L",
                 weight=lambda x: U.exp(-x), mu0=1.0, float64_promotion=True)

_F = functions(LAGUERRE)
globals().update(_F)


class Laguerre(ABCPolyBase, basis=LAGUERRE, functions=_F):
    """A Laguerre series on ``window`` after mapping ``domain`` onto it."""


__all__ = ["Laguerre", *_F]
