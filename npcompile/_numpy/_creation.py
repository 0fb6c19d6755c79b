"""Array creation from data and from shapes."""

from __future__ import annotations

import operator

import numpy as _np
import torch

from .._errors import UnsupportedFeature
from . import _dtypes
from ._ndarray import ndarray, view_of, wrap
from ._normalize import as_tensor

__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "empty", "zeros", "ones",
           "full", "empty_like", "zeros_like", "ones_like", "full_like", "copy"]


def _device(like=None, device=None):
    if device is not None:
        if device == "cpu" or isinstance(device, (torch.device, str)):
            return torch.device(device)
        raise ValueError(f"Device not understood: {device!r}")
    return None


def _check_order(order, allowed="KACF"):
    if order is None:
        return
    if not isinstance(order, str) or order.upper() not in allowed:
        raise ValueError(f"order must be one of {', '.join(repr(c) for c in allowed)} (got {order!r})")


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None, device=None):
    """``numpy.array``: copies by default; ``copy=False`` raises where a copy cannot be avoided."""
    _check_order(order)
    if like is not None:
        raise UnsupportedFeature("array(like=...)")
    t = as_tensor(object)
    shared = _shares_memory_with(object, t)
    if dtype is not None:
        td = _dtypes.to_torch(_dtypes.to_dtype(dtype))
        if t.dtype != td:
            t, shared = t.to(td), False
    if device is not None:
        dev = _device(device=device)
        if t.device != dev:
            t, shared = t.to(dev), False
    if ndmin > t.ndim:
        t = t.reshape((1,) * (ndmin - t.ndim) + tuple(t.shape))
    if copy is False and not shared:
        raise ValueError("Unable to avoid copy while creating an array as requested.\nIf using "
                         "`np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when "
                         "needed (no behavior change in NumPy 1.x).")
    if not shared:
        return wrap(t)
    if copy is True:
        return wrap(t.clone(memory_format=torch.contiguous_format))
    if isinstance(object, ndarray):
        return object if t is object.tensor else view_of(object, t)
    return wrap(t)


def _shares_memory_with(src, t):
    if isinstance(src, ndarray):
        return t is src.tensor
    if isinstance(src, torch.Tensor):
        return t is src
    if isinstance(src, _np.ndarray):
        return t.numel() == 0 or t.data_ptr() == src.__array_interface__["data"][0]
    return False


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """``numpy.asarray``: no copy when the input already is an array of the right dtype."""
    if type(a) is ndarray and dtype is None and copy is None and device is None:
        return a
    return array(a, dtype, copy=copy, order=order or "K", device=device, like=like)


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    return asarray(a, dtype, order, device=device, copy=copy, like=like)


def ascontiguousarray(a, dtype=None, *, like=None):
    r = asarray(a, dtype, like=like)
    if r.ndim == 0:
        r = r.reshape(1)
    if not r.tensor.is_contiguous():
        r = wrap(r.tensor.contiguous())
    return r


def asfortranarray(a, dtype=None, *, like=None):
    r = asarray(a, dtype, like=like)
    if r.ndim == 0:
        r = r.reshape(1)
    if not r.flags.f_contiguous:
        t = r.tensor
        r = wrap(t.permute(*range(t.ndim - 1, -1, -1)).contiguous().permute(*range(t.ndim - 1, -1, -1)))
    return r


def copy(a, order="K", subok=False):
    return array(a, copy=True, order=order)


def _shape(shape):
    if isinstance(shape, (list, tuple)):
        return tuple(operator.index(s) for s in shape)
    if isinstance(shape, ndarray):
        return tuple(int(s) for s in shape.tolist()) if shape.ndim else (int(shape),)
    try:
        return (operator.index(shape),)
    except TypeError:
        raise TypeError(f"'{type(shape).__name__}' object cannot be interpreted as an integer") from None


def _new(shape, dtype, device, factory, *args):
    shape = _shape(shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    d = _dtypes.default_float if dtype is None else _dtypes.to_dtype(dtype)
    return wrap(factory(shape, *args, dtype=_dtypes.to_torch(d), device=_device(device=device)))


def empty(shape, dtype=float, order="C", *, device=None, like=None):
    _check_order(order, "CF")
    return _new(shape, dtype, device, torch.empty)


def zeros(shape, dtype=float, order="C", *, device=None, like=None):
    _check_order(order, "CF")
    return _new(shape, dtype, device, torch.zeros)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    _check_order(order, "CF")
    return _new(shape, dtype, device, torch.ones)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    _check_order(order, "CF")
    v = as_tensor(fill_value)
    d = _dtypes.from_torch(v.dtype) if dtype is None else _dtypes.to_dtype(dtype)
    shape = _shape(shape)
    r = _new(shape, d, device if device is not None else (v.device if v.device.type != "cpu" else None),
             torch.empty)
    r.tensor.copy_(v.expand(shape) if v.ndim else v)
    return r


def _like(a, dtype, shape, device):
    t = as_tensor(a)
    d = _dtypes.from_torch(t.dtype) if dtype is None else _dtypes.to_dtype(dtype)
    shape = tuple(t.shape) if shape is None else _shape(shape)
    return shape, d, device if device is not None else t.device


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, dev = _like(prototype, dtype, shape, device)
    return _new(s, d, dev, torch.empty)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, dev = _like(a, dtype, shape, device)
    return _new(s, d, dev, torch.zeros)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, dev = _like(a, dtype, shape, device)
    return _new(s, d, dev, torch.ones)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, dev = _like(a, dtype, shape, device)
    return full(s, fill_value, d, device=dev)
