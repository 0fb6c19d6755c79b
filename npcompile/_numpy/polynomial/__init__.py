"""``numpy.polynomial``: the power series (``Polynomial``) and its functions in ``polynomial.polynomial``.

The other bases (Chebyshev, Legendre, Laguerre, Hermite, HermiteE) are not modelled (``UnsupportedFeature``).
"""

import numpy as _np

from ..._errors import UnsupportedFeature
from . import polynomial
from .polynomial import Polynomial

__all__ = ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE", "polynomial",
           "set_default_printstyle"]

set_default_printstyle = _np.polynomial.set_default_printstyle


def _not_modelled(name):
    class Basis:
        def __init__(self, *args, **kwargs):
            raise UnsupportedFeature(f"numpy.polynomial.{name}")

    Basis.__name__ = Basis.__qualname__ = name
    return Basis


Chebyshev, Legendre, Laguerre, Hermite, HermiteE = (_not_modelled(n) for n in (
    "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE"))
