"""Physicists' Hermite series (H_k, orthogonal on the real line for ``exp(-x**2)``): NumPy's
``hermval``/``hermfit``/... and the ``Hermite`` class, from the basis' table."""

import math

from .. import _ufuncs as U
from ._basis import Basis
from ._class import ABCPolyBase
from ._functions import functions

HERMITE = Basis("herm", "Hermite", lambda k: (0, 2, 2 * k, 1), basis_name="H",
                weight=lambda x: U.exp(-(x ** 2)), mu0=math.sqrt(math.pi), symmetric=True, float64_promotion=True)

_F = functions(HERMITE)
globals().update(_F)


class Hermite(ABCPolyBase, basis=HERMITE, functions=_F):
    """A Hermite series on ``window`` after mapping ``domain`` onto it."""


__all__ = ["Hermite", *_F]
