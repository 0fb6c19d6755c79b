"""Probabilists' Hermite series (He_k, orthogonal on the real line for ``exp(-x**2/2)``): NumPy's
``hermeval``/``hermefit``/... and the ``HermiteE`` class, from the basis' table."""

import math

from .. import _ufuncs as U
from ._basis import Basis
from ._class import ABCPolyBase
from ._functions import functions

HERMITE_E = Basis("herme", "HermiteE", lambda k: (0, 1, k, 1), basis_name="He",
                  weight=lambda x: U.exp(-0.5 * x ** 2), mu0=math.sqrt(2 * math.pi), symmetric=True,
                  float64_promotion=True)

_F = functions(HERMITE_E)
globals().update(_F)


class HermiteE(ABCPolyBase, basis=HERMITE_E, functions=_F):
    """A HermiteE series on ``window`` after mapping ``domain`` onto it."""


__all__ = ["HermiteE", *_F]
