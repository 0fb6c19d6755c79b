"""``numpy.polynomial``: the power series (``Polynomial``) and its functions in ``polynomial.polynomial``.

The other bases (Chebyshev, Legendre, Laguerre, Hermite, HermiteE) are not modelled (``UnsupportedFeature``).
Under ``npcompile.compile`` a ``Polynomial`` made inside the compiled function traces into the graph (see
``npcompile.tracing._dynamo_patch``).
"""

import numpy as _np

from .. import _unsupported
from . import polynomial
from .polynomial import Polynomial

__all__ = ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE", "polynomial",
           "set_default_printstyle"]

set_default_printstyle = _np.polynomial.set_default_printstyle

globals().update(_unsupported.stand_ins("polynomial"))  # the other bases: not modelled
