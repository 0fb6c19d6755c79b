"""Legendre series (P_k, orthogonal on [-1, 1] for the weight 1): NumPy's ``legval``/``legfit``/... and the
``Legendre`` class, from the basis' table."""

from ._basis import Basis
from ._class import ABCPolyBase
from ._functions import functions

LEGENDRE = Basis("leg", "Legendre", lambda k: (0, 2 * k + 1, k, k + 1), basis_name="P",
                 weight=lambda x: x * 0.0 + 1.0, mu0=2.0, symmetric=True, float64_promotion=True)

_F = functions(LEGENDRE)
globals().update(_F)


class Legendre(ABCPolyBase, basis=LEGENDRE, functions=_F):
    """A Legendre series on ``window`` after mapping ``domain`` onto it."""


__all__ = ["Legendre", *_F]
