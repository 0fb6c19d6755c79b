"""NumPy's dispatch protocols (NEP 13 ``__array_ufunc__``, NEP 18 ``__array_function__``) for our ndarray.

Real NumPy functions called on shim arrays run the shim's implementation of the same name, so code written
against ``import numpy as np`` keeps its arrays on their torch device and in the autograd graph.  A function the
shim lacks runs in real NumPy on host copies and its array results come back as shim arrays.
"""

from __future__ import annotations

import numpy as _np

from ._ndarray import ndarray

_MODULES = {"numpy": "", "numpy.linalg": "linalg", "numpy.fft": "fft", "numpy.random": "random"}


def _shim_module(np_module: str):
    import npcompile._numpy as shim

    sub = _MODULES.get(np_module)
    if sub is None:
        return None
    return getattr(shim, sub) if sub else shim


def _lookup(func):
    mod = _shim_module(getattr(func, "__module__", "") or "")
    if mod is None:
        mod = _shim_module("numpy")
    impl = getattr(mod, func.__name__, None)
    return impl if callable(impl) and impl is not func else None


def _to_numpy(x):
    if isinstance(x, ndarray):
        return x.__array__()
    if isinstance(x, (list, tuple)):
        return type(x)(_to_numpy(e) for e in x)
    if isinstance(x, dict):
        return {k: _to_numpy(v) for k, v in x.items()}
    return x


def _from_numpy(x):
    from ._creation import asarray
    from ._dtypes import SUPPORTED

    if isinstance(x, _np.ndarray) and type(x) is _np.ndarray and x.dtype in SUPPORTED:
        return asarray(x)
    if isinstance(x, tuple):
        return type(x)(*(_from_numpy(e) for e in x)) if hasattr(x, "_fields") else tuple(_from_numpy(e) for e in x)
    if isinstance(x, list):
        return [_from_numpy(e) for e in x]
    return x


def __array_function__(self, func, types, args, kwargs):
    impl = _lookup(func)
    if impl is not None:
        return impl(*args, **kwargs)
    return _from_numpy(func(*_to_numpy(args), **_to_numpy(kwargs)))


def __array_ufunc__(self, uf, method, *inputs, **kwargs):
    import npcompile._numpy as shim

    ours = getattr(shim, uf.__name__, None)
    if ours is None or not hasattr(ours, method):
        return NotImplemented
    return getattr(ours, method)(*inputs, **kwargs)


ndarray.__array_function__ = __array_function__
ndarray.__array_ufunc__ = __array_ufunc__
