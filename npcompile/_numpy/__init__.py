"""NumPy 2.x on torch tensors: ``import npcompile._numpy as np``.

Same names, results, dtypes (NEP 50) and errors as NumPy; NumPy scalars are 0-D arrays.  Runs eagerly (a debug
mode, and NumPy on any torch device) and is what ``npcompile.compile`` traces into torch ops.
"""

import math as _pymath

import numpy as _np
from numpy.exceptions import AxisError, ComplexWarning, DTypePromotionError, VisibleDeprecationWarning

from .._errors import UnsupportedFeature
from . import _dtypes
from ._dtypes import (
    ABSTRACT_TYPES as _ABSTRACT, SCALAR_TYPE_NAMES as _SCALARS, can_cast, common_type, dtype, finfo, iinfo,
    isdtype, issubdtype, min_scalar_type, mintypecode, promote_types, result_type, typecodes, typename,
)
from ._ndarray import flatiter, ndarray
from ._ufuncs import *  # noqa: F403
from ._ufuncs import ufunc
from ._creation import *  # noqa: F403
from ._manipulation import *  # noqa: F403
from ._indexing import *  # noqa: F403
from ._reductions import *  # noqa: F403
from ._statistics import *  # noqa: F403
from ._sorting import *  # noqa: F403
from ._sets import *  # noqa: F403
from ._math import *  # noqa: F403
from ._products import *  # noqa: F403
from ._polynomial import *  # noqa: F403
from ._unsupported import *  # noqa: F403
from ._unsupported import char, ma, rec, strings  # noqa: F401  (NumPy's modules left out whole)
from . import fft, lib, linalg, polynomial, random, testing  # noqa: E402
from .lib import scimath as emath  # noqa: E402

globals().update(_SCALARS)
globals().update(_ABSTRACT)
bool = _SCALARS["bool"]  # noqa: A001  (numpy.bool is the boolean scalar type)

e, pi, euler_gamma = _pymath.e, _pymath.pi, 0.5772156649015329
inf, nan = _pymath.inf, _pymath.nan
newaxis = None
little_endian = _np.little_endian
False_, True_ = False, True
__version__ = _np.__version__

from ._methods import bind_methods as _bind  # noqa: E402

_bind(globals())
from . import _dispatch  # noqa: E402,F401  (NEP 13/18 protocols)
del _bind
