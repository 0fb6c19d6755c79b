"""``numpy.polynomial``: the power series and the Chebyshev, Legendre, Laguerre, Hermite and HermiteE bases,
their classes and their modules' functions, on torch tensors.

Every basis is a table (``_basis.Basis``: its three-term recurrence, domain, weight) fed to one set of
functions (``_functions``) and one class (``_class.ABCPolyBase``).  Under ``npcompile.compile`` a
``Polynomial`` made inside the compiled function traces into the graph (see ``npcompile.tracing._dynamo_patch``).
"""

import numpy as _np

from . import chebyshev, hermite, hermite_e, laguerre, legendre, polynomial, polyutils
from .chebyshev import Chebyshev
from .hermite import Hermite
from .hermite_e import HermiteE
from .laguerre import Laguerre
from .legendre import Legendre
from .polynomial import Polynomial

__all__ = ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite", "HermiteE", "polynomial", "chebyshev",
           "legendre", "laguerre", "hermite", "hermite_e", "polyutils", "set_default_printstyle"]

set_default_printstyle = _np.polynomial.set_default_printstyle

from .. import _unsupported  # noqa: E402

globals().update(_unsupported.stand_ins("polynomial"))  # numpy.polynomial.test
