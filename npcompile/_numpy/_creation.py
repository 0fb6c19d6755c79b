"""Array creation: from data, from shapes, numerical ranges, and matrix builders."""

from __future__ import annotations

import itertools
import math
import operator

import numpy as _np
import torch
from numpy.exceptions import AxisError

from .._errors import UnsupportedFeature
from . import _dtypes
from ._ndarray import _is_contiguous, as_array0d, is_array0d, ndarray, view_of, wrap
from ._normalize import (
    PY_SCALARS, _from_numpy, _holds_tensor, as_tensor, as_tensor_dtype, broadcast_shape, cast, normalize_axis_index,
    normalize_shape,
)
from ._trace import check, traced_int

__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "copy", "empty", "zeros",
           "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like", "arange", "linspace", "logspace",
           "geomspace", "eye", "identity", "diag", "diagflat", "tri", "tril", "triu", "meshgrid", "fromfunction",
           "frombuffer", "fromiter", "indices", "vander"]

# ---------------------------------------------------------------- arguments and memory layout


def _device(device):
    if device is None:
        return None
    if isinstance(device, (torch.device, str)):
        return torch.device(device)
    raise ValueError(f"Device not understood: {device!r}")


def _check_like(like):
    if like is not None and not isinstance(like, (ndarray, _np.ndarray)):
        raise UnsupportedFeature(f"like= with {type(like).__name__} (array types other than ndarray)")


def _order(order, allowed="KACF"):
    """``order`` upper-cased (None: 'K'), with NumPy's ValueError for anything not in ``allowed``."""
    if order is None:
        return "K"
    o = order.upper() if isinstance(order, str) else order
    if o not in ("K", "A", "C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if o not in allowed:
        raise ValueError("only 'C' or 'F' order is permitted")
    return o


def _fortran(t: torch.Tensor) -> torch.Tensor:
    """A Fortran-ordered copy of ``t``."""
    rev = tuple(range(t.ndim - 1, -1, -1))
    return t.permute(rev).clone(memory_format=torch.contiguous_format).permute(rev)


def _has_layout(t: torch.Tensor, order: str) -> bool:
    """Whether ``t`` already is laid out as ``order`` asks ('K' and 'A' accept any layout)."""
    return order in "KA" or (t.is_contiguous() if order == "C" else _is_contiguous(t, "F"))


def _copy_in(t: torch.Tensor, order: str) -> torch.Tensor:
    """A copy of ``t`` in memory order ``order``: 'K' keeps ``t``'s layout, 'A' is 'F' for Fortran arrays."""
    if order == "A":
        order = "F" if _is_contiguous(t, "F") and not t.is_contiguous() else "C"
    if order == "F":
        return _fortran(t)
    return t.clone(memory_format=torch.preserve_format if order == "K" else torch.contiguous_format)


# ---------------------------------------------------------------- from existing data


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0, like=None):
    """``numpy.array``.  ``ndmax=0`` (NumPy's shown default) means no limit: an explicit 0 is read the same."""
    _check_like(like)
    return _zero_d_array(_array(object, dtype, copy, order, ndmin, ndmax), object)


def _array(obj, dtype, copy, order, ndmin=0, ndmax=0, device=None):
    """``array``/``asarray``: ``obj`` as an array, a copy only where ``copy``, ``dtype``, ``order`` or
    ``device`` ask for one (``copy=False`` then raises); the same ndarray, or a view of it, otherwise."""
    order = _order(order)
    t = _dims_checked(as_tensor_dtype(obj, None if dtype is None else _dtypes.to_dtype(dtype)), obj, ndmin, ndmax)
    dev = _device(device)
    if dev is not None and t.device != dev:
        t = t.to(dev)
    fresh = not _shares_memory(obj, t)
    if copy is True and not fresh or not _has_layout(t, order):
        t, copied = _copy_in(t, order), True
    else:
        copied = fresh
    if copy is False and copied:
        raise ValueError("Unable to avoid copy while creating an array as requested.\nIf using "
                         "`np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when "
                         "needed (no behavior change in NumPy 1.x).")
    if ndmin > t.ndim:
        t = t.reshape((1,) * (ndmin - t.ndim) + tuple(t.shape))
    if copied or not isinstance(obj, ndarray):
        return wrap(t)
    return obj if t is obj.tensor else view_of(obj, t)


def _zero_d_array(r, src):
    """A 0-d result of array()/asarray()/copy() is an array, not a scalar (``_ndarray.is_array0d``); a scalar
    handed in is copied, as NumPy makes a new array of it."""
    if r.tensor.ndim or is_array0d(r):
        return r
    if r is src or r._base is src:
        r = wrap(r.tensor.clone())
    return as_array0d(r)


def _dims_checked(t, obj, ndmin, ndmax):
    """``t`` after NumPy's checks of ``ndmin`` and ``ndmax`` (which limits the depth read from sequences)."""
    if not 0 <= ndmax <= 64:
        raise ValueError("ndmax must be in the range [0, NPY_MAXDIMS (64)] ")
    if ndmin > (ndmax or 64):
        raise ValueError(f"ndmin must be <= ndmax ({ndmax or 64})")
    if ndmax and t.ndim > ndmax and isinstance(obj, (list, tuple)):
        raise ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                         f"number of dimension of {ndmax}.")
    return t


def _shares_memory(src, t) -> bool:
    if isinstance(src, ndarray):
        src = src.tensor
    if isinstance(src, torch.Tensor):
        return t is src
    if isinstance(src, _np.ndarray):
        return t.numel() == 0 or t.data_ptr() == src.__array_interface__["data"][0]
    return False


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """``numpy.asarray``: ``a`` itself when it already is an array as asked."""
    if dtype is None and copy is None and device is None and order in (None, "K", "A"):
        if type(a) is ndarray:
            return a if a.tensor.ndim else _zero_d_array(a, a)
        if type(a) is _np.ndarray and like is None:
            return _zero_d_array(wrap(_from_numpy(a)), a)  # NumPy's memory wherever torch can share it
    _check_like(like)
    return _zero_d_array(_array(a, dtype, copy, order, device=device), a)


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """``numpy.asanyarray``: there are no ndarray subclasses here, so it is ``asarray``."""
    return asarray(a, dtype, order, device=device, copy=copy, like=like)


def ascontiguousarray(a, dtype=None, *, like=None):
    _check_like(like)
    return _array(a, dtype, None, "C", ndmin=1)


def asfortranarray(a, dtype=None, *, like=None):
    _check_like(like)
    return _array(a, dtype, None, "F", ndmin=1)


def copy(a, order="K", subok=False):
    return _zero_d_array(_array(a, None, True, order), a)


# ---------------------------------------------------------------- from shapes


def _dims(shape) -> tuple:
    shape = normalize_shape(shape)
    for s in shape:
        if type(s) is torch.SymInt:  # traced (``np.zeros(int(y.max()) + 1)``: known only when the code runs)
            check(s >= 0, ValueError, "negative dimensions are not allowed")
        elif s < 0:
            raise ValueError("negative dimensions are not allowed")
    return shape


def _new(factory, shape, dtype, order, device) -> ndarray:
    """``factory`` (torch.empty/zeros/ones) with NumPy's shape, dtype (None: float64) and 'C'/'F' order."""
    shape = _dims(shape)
    td = _dtypes.to_torch(_dtypes.default_float if dtype is None else _dtypes.to_dtype(dtype))
    if _order(order, "CF") == "F" and len(shape) > 1:
        rev = tuple(range(len(shape) - 1, -1, -1))
        return wrap(factory(shape[::-1], dtype=td, device=_device(device)).permute(rev))
    r = wrap(factory(shape, dtype=td, device=_device(device)))
    return as_array0d(r)


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    _check_like(like)
    return _new(torch.empty, shape, dtype, order, device)


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    _check_like(like)
    return _new(torch.zeros, shape, dtype, order, device)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    _check_like(like)
    return _new(torch.ones, shape, dtype, order, device)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """``numpy.full``: ``fill_value`` written with ``copyto(casting='unsafe')`` rules, broadcast to ``shape``."""
    _check_like(like)
    if dtype is None:
        v = as_tensor(fill_value)
        dtype, device = _dtypes.from_torch(v.dtype), device or v.device
    r = _new(torch.empty, shape, dtype, order, device)
    assign(r.tensor, fill_value, "unsafe")
    return r


def assign(dst: torch.Tensor, src, casting="same_kind", where=True):
    """Write array-like ``src`` into ``dst``, broadcast, as ``numpy.copyto`` does: the ``casting`` rule is checked
    (Python scalars are weak, NEP 50: NumPy itself converts them, so an int that does not fit raises
    OverflowError), then the cast is unsafe.  ``where`` (bool array-like) selects the elements written."""
    d = _dtypes.from_torch(dst.dtype)
    src = traced_int(src, d)
    if type(src) in PY_SCALARS:  # a constant: NumPy converts it, with its own checks
        z = _np.empty((), d)
        _np.copyto(z, src, casting=casting)
        v = torch.from_numpy(z).to(dst.device)
    else:
        v = as_tensor(src)
        sd = _dtypes.from_torch(v.dtype)
        if not _np.can_cast(sd, d, casting):
            raise TypeError(f"Cannot cast array data from {sd!r} to {d!r} according to the rule {casting!r}")
    v = broadcast_value(cast(v, dst.dtype), dst.shape)
    if where is not True:
        v = _dtypes.where(_where_mask(where, dst.shape), v, dst)
    if any(s == 0 and n > 1 for n, s in zip(dst.shape, dst.stride())):
        # a broadcast view: NumPy writes each memory element several times, in C order, so the last write stays
        last = tuple(slice(-1, None) if s == 0 and n > 1 else slice(None) for n, s in zip(dst.shape, dst.stride()))
        dst, v = dst[last], v[last]
    dst.copy_(v)


def _where_mask(where, shape) -> torch.Tensor:
    """A ``where=`` argument as a bool tensor broadcast to ``shape`` (strictly: no leading axes dropped).  As in
    NumPy, Python (and NumPy scalar) content is read by truth value; arrays must cast safely to bool."""
    python = type(where) in PY_SCALARS or isinstance(where, _np.generic) or (
        isinstance(where, (list, tuple)) and not _holds_tensor(where))
    w = as_tensor_dtype(where, _dtypes.bool_) if python else as_tensor(where)
    if w.dtype != torch.bool:
        raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(w.dtype)!r} to dtype('bool') according "
                        "to the rule 'safe'")
    if w.ndim > len(shape) or any(a not in (1, b) for a, b in zip(w.shape[::-1], shape[::-1])):
        raise ValueError(f"could not broadcast where mask from shape {tuple(w.shape)} into shape {tuple(shape)}")
    return w


def broadcast_value(v: torch.Tensor, shape) -> torch.Tensor:
    """``v`` broadcast to ``shape`` by NumPy's assignment rule (leading size-1 axes of ``v`` may be dropped)."""
    while v.ndim > len(shape) and v.shape[0] == 1:
        v = v[0]
    if v.ndim > len(shape) or any(a not in (1, b) for a, b in zip(v.shape[::-1], shape[::-1])):
        raise ValueError(f"could not broadcast input array from shape {tuple(v.shape)} into shape {tuple(shape)}")
    return v.expand(shape)


_FACTORIES = {"empty": (torch.empty, torch.empty_like), "zeros": (torch.zeros, torch.zeros_like),
              "ones": (torch.ones, torch.ones_like)}


def _like(kind, proto, dtype, order, shape, device) -> ndarray:
    """``numpy.{kind}_like``: order 'K' keeps the prototype's memory layout."""
    factory, factory_like = _FACTORIES[kind]
    t = as_tensor(proto)
    d = t.dtype if dtype is None else _dtypes.to_torch(_dtypes.to_dtype(dtype))
    dev = t.device if device is None else _device(device)
    o = _order(order)
    if o == "A":
        o = "F" if _is_contiguous(t, "F") and not t.is_contiguous() else "C"
    if shape is None and o == "K":
        r = wrap(factory_like(t, dtype=d, device=dev))
        return as_array0d(r)  # an array, also of a scalar prototype (as _new's)
    shape = tuple(t.shape) if shape is None else shape
    return _new(factory, shape, _dtypes.from_torch(d), "F" if o == "F" else "C", dev)


def empty_like(prototype, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like("empty", prototype, dtype, order, shape, device)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like("zeros", a, dtype, order, shape, device)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like("ones", a, dtype, order, shape, device)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    r = _like("empty", a, dtype, order, shape, device)
    assign(r.tensor, fill_value, "unsafe")
    return r


# ---------------------------------------------------------------- numerical ranges


def arange(start_or_stop=_np._NoValue, /, stop=None, step=1, dtype=None, *, device=None, like=None):
    """``numpy.arange``: length ``ceil((stop - start) / step)``; values ``first + i*delta`` with ``first`` and
    ``delta = second - first`` taken in the result dtype, as NumPy fills (``arange(0, 5, .5, dtype=int)`` is all
    zeros).  The default dtype is that of ``start, stop, step`` promoted with int64.  Bounds given as arrays are
    read as Python numbers (data-dependent: the length depends on them).  As in NumPy, ``arange(stop=n)``
    works (hence the ``<no value>`` default)."""
    _check_like(like)
    if start_or_stop is _np._NoValue:
        if stop is None:
            raise TypeError("arange() requires stop to be specified.")
        start_or_stop = 0
    start, stop = (0, start_or_stop) if stop is None else (start_or_stop, stop)
    if dtype is None and type(start) is int and type(stop) is int and type(step) is int and \
            -2**53 < start < 2**53 and -2**53 < stop < 2**53:  # the common case: one torch op
        n = _arange_length(start, stop, step)
        return wrap(torch.arange(start, start + n * step, step, device=_device(device)))
    if dtype is None and type(step) is int and step and torch.SymInt in (type(start), type(stop)) and \
            type(start) in (int, torch.SymInt) and type(stop) in (int, torch.SymInt):  # a traced size: its range
        end = torch.sym_max(start, stop) if step > 0 else torch.sym_min(start, stop)  # empty, not torch's error
        return wrap(torch.arange(start, end, step, device=_device(device)))
    nums = tuple(_number(x) for x in (start, stop, step))
    if any(isinstance(x, complex) for x in nums):
        raise UnsupportedFeature("arange with complex start, stop or step")
    d = _dtypes.to_dtype(dtype) if dtype is not None else _arange_dtype(start, stop, step)
    start, stop, step = (_typed(x, v) for x, v in zip((start, stop, step), nums))
    with _np.errstate(all="ignore"):
        try:
            n = _arange_length(start, stop, step)
        except OverflowError:  # a Python bound outside a NumPy integer bound's type: NumPy's message
            raise ValueError("Maximum allowed size exceeded") from None
    if d.kind == "b" and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
    if n == 0:
        return wrap(torch.empty(0, dtype=_dtypes.to_torch(d), device=_device(device)))
    first = _np.array(start, dtype=d)
    with _np.errstate(all="ignore"):
        second = _np.array(start + step, dtype=d) if n > 1 else first
    return wrap(_fill_range(n, first, second, _dtypes.to_torch(d), _device(device)))


def _number(x):
    """A range bound as a Python number; arrays must be 0-D (their value is read: data-dependent)."""
    if isinstance(x, (ndarray, _np.ndarray, _np.generic)):
        if x.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return x.item()
    return x


def _typed(x, v):
    """The bound ``x`` (read as the Python number ``v``) as NumPy's arange computes with it: NumPy works out the
    length, ``(stop - start) / step``, and the second value, ``start + step``, in the bounds' own scalar
    arithmetic (NEP 50), so a float32 bound keeps float32 there (``arange(float32(0.1), 3)`` steps by
    ``float32(1.1) - 0.1``, not by 1, and ``arange(float32(2.1), 4, float32(.1))`` has 19 values, not 20)."""
    if isinstance(x, (ndarray, _np.ndarray, _np.generic)) and type(v) in (bool, int, float):
        return _np.dtype(x.dtype).type(v)
    return v


def _arange_dtype(*bounds):
    kinds = [b.dtype if isinstance(b, (ndarray, _np.ndarray, _np.generic)) else _np.asarray(b).dtype for b in bounds]
    return _dtypes.to_dtype(_np.result_type(_dtypes.int64, *kinds))


def _arange_length(start, stop, step) -> int:
    q = float((stop - start) / step)
    if q != q:
        raise ValueError("arange: cannot compute length")
    if not -2.0 ** 63 < q < 2.0 ** 63:
        raise ValueError("Maximum allowed size exceeded")
    return max(math.ceil(q), 0)


def _fill_range(n, first: _np.ndarray, second: _np.ndarray, td, device) -> torch.Tensor:
    """NumPy's arange fill: ``first, second, first + 2*delta, ...`` computed in the result dtype (float16 in
    float32, integers modulo 2**64)."""
    if first.dtype.kind in "biu":
        f, s = (int(v) for v in (first, second))
        delta = s - f
        if delta == 1 and first.dtype == _dtypes.int64:
            return torch.arange(f, f + n, device=device)
        f, delta = ((v + 2**63) % 2**64 - 2**63 for v in (f, delta))
        return torch.arange(n, device=device).mul_(delta).add_(f).to(td)
    ct = torch.float32 if td == torch.float16 else td
    if td == torch.float16:
        first, second = first.astype(_np.float32), second.astype(_np.float32)
    r = torch.arange(n, dtype=torch.float64 if ct.is_complex else ct, device=device).to(ct)
    r = r.mul_((second - first).item()).add_(first.item())
    if n > 1:
        r[1] = second.item()
    return r.to(td)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """``numpy.linspace``, with NumPy's arithmetic: ``start + i*step`` in the inexact result type of
    ``start, stop`` (``i/div*delta`` where a step underflows to 0), the last sample set to ``stop``, integer
    dtypes floored.  ``retstep`` gives the step as a 0-D array, or ``nan`` for fewer than two samples."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if type(start) in (int, float, complex) and type(stop) in (int, float, complex):
        y, step = _linspace_scalars(start, stop, num, endpoint, _device(device))
    else:
        s, e = as_tensor(start), as_tensor(stop)
        if device is not None:
            s, e = s.to(_device(device)), e.to(_device(device))
        y, step = _linspace(s, e, num, endpoint, _dtypes.result_type(_weak(start, s), _weak(stop, e), 1.0))
    y = _finish(y, axis, dtype)
    return (y, step) if retstep else y


def _linspace_scalars(start, stop, num, endpoint, device):
    """``_linspace`` for Python bounds: NumPy's arithmetic done on float64/complex128 scalars, one fill."""
    dt = _dtypes.default_complex if complex in (type(start), type(stop)) else _dtypes.default_float
    s, e = dt.type(start), dt.type(stop)
    delta, div = e - s, (num - 1 if endpoint else num)
    y = torch.arange(num, dtype=torch.float64, device=device).to(_dtypes.to_torch(dt))
    step = delta / div if div > 0 else math.nan
    y = (y / div * delta if step == 0 else y * step) if div > 0 else y * delta
    y += s
    if endpoint and num > 1:
        y[-1] = complex(e) if dt.kind == "c" else float(e)
    return y, wrap(torch.tensor(step, dtype=y.dtype)) if div > 0 else step


def _weak(x, t):
    """For promotion: a Python scalar stays itself (weak, NEP 50), anything else is its tensor."""
    return x if type(x) in PY_SCALARS else t


def _linspace(start, stop, num, endpoint, dt):
    """The samples along a new axis 0 in dtype ``dt``, and the step (an ndarray, or nan)."""
    ct = _dtypes.to_torch(dt)
    broadcast_shape([start.shape, stop.shape])
    start, stop = start.to(ct), stop.to(ct)
    delta = stop - start
    y = torch.arange(num, dtype=torch.float64 if ct.is_complex else ct, device=delta.device).to(ct)
    y = y.reshape((-1,) + (1,) * delta.ndim)
    div = num - 1 if endpoint else num
    if div > 0:
        step = delta / div
        y = torch.where((step == 0).any(), y / div * delta, y * step)
        step = wrap(step)
    else:
        y, step = y * delta, math.nan
    y = y + start
    if endpoint and num > 1:
        y[-1] = stop
    return y, step


def _finish(y: torch.Tensor, axis, dtype, floor=True) -> ndarray:
    """Move the samples' axis 0 to ``axis``; cast to ``dtype`` (integers floored first if ``floor``)."""
    if axis != 0:
        y = torch.movedim(y, 0, _axis_index(axis, y.ndim, "destination"))
    if dtype is not None:
        d = _dtypes.to_dtype(dtype)
        if floor and d.kind in "iu":
            if y.is_complex():
                raise TypeError("ufunc 'floor' not supported for complex inputs")
            y = torch.floor(y)
        y = cast(y, _dtypes.to_torch(d))
    return wrap(y)


def _axis_index(axis, ndim, name):
    """``normalize_axis_index`` with NumPy's argument name in the AxisError message."""
    try:
        return normalize_axis_index(axis, ndim)
    except AxisError:
        raise AxisError(axis, ndim, name) from None


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``numpy.logspace``: ``base ** linspace(start, stop)``, an array ``base`` broadcast along the samples."""
    from ._ufuncs import power

    if not isinstance(base, (int, float)) and as_tensor(base).ndim:
        lead = broadcast_shape([as_tensor(x).shape for x in (start, stop, base)])
        start, stop, base = (array(x, copy=None, ndmin=len(lead)) for x in (start, stop, base))
        base = wrap(as_tensor(base).unsqueeze(_axis_index(axis, len(lead) + 1, "axis")))
    y = power(base, linspace(start, stop, num, endpoint, axis=axis))
    return y if dtype is None else wrap(cast(y.tensor, _dtypes.to_torch(_dtypes.to_dtype(dtype))))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``numpy.geomspace``: samples ``10**linspace(log10(start), log10(stop))`` with exact endpoints, computed
    in at least float64 and cast to ``dtype`` (truncated, unlike linspace's floor); negative and complex bounds
    follow the sign of ``start``.  Zero bounds raise ValueError (a data-dependent check)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    s, e = as_tensor(start), as_tensor(stop)
    if bool((s == 0).any()) or bool((e == 0).any()):  # data-dependent: NumPy's error needs the values
        raise ValueError("Geometric sequence cannot include zero")
    dt = _dtypes.result_type(s, e, float(num), _dtypes.default_float if dtype is None else _dtypes.to_dtype(dtype))
    ct = _dtypes.to_torch(dt)
    s, e = s.to(ct), e.to(ct)
    sign = torch.sgn(s)
    s, e = s / sign, e / sign
    y, _ = _linspace(torch.log10(s), torch.log10(e), num, endpoint, dt)
    y = torch.pow(torch.tensor(10.0, dtype=ct), y)
    if num > 0:
        y[0] = s
        if num > 1 and endpoint:
            y[-1] = e
    return _finish(y * sign, axis, dt if dtype is None else dtype, floor=False)


# ---------------------------------------------------------------- matrices


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    _check_like(like)
    r = _new(torch.zeros, (N, N if M is None else M), dtype, order, device)
    r.tensor.diagonal(operator.index(k)).fill_(1)
    return r


def identity(n, dtype=None, *, like=None):
    _check_like(like)
    return eye(n, dtype=dtype)


def diag(v, k=0):
    """``numpy.diag``: a 2-D array's k-th diagonal (a read-only view), or a matrix with 1-D ``v`` on it."""
    a = asarray(v)
    k = operator.index(k)
    if a.ndim == 2:
        r = view_of(a, a.tensor.diagonal(k))
        r._writeable = False
        return r
    if a.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = a.size + abs(k)
    r = torch.zeros((n, n), dtype=a.tensor.dtype, device=a.tensor.device)
    r.diagonal(k).copy_(a.tensor)
    return wrap(r)


def diagflat(v, k=0):
    return diag(wrap(as_tensor(v).reshape(-1)), k)


def _diagonal_offset(k):
    """A diagonal offset ``k`` of tri/tril/triu: an int, or a float (Python's, NumPy's or our scalar), which
    NumPy accepts there."""
    if isinstance(k, ndarray) and k.ndim == 0 and k.dtype.kind == "f":
        return float(k)
    return float(k) if isinstance(k, (float, _np.floating)) else operator.index(k)


def _tri_mask(N, M=None, k=0, device=None) -> torch.Tensor:
    n = _count(N)
    m = n if M is None else _count(M)
    k = _diagonal_offset(k)
    if type(k) is not float:
        return torch.ones((n, m), dtype=torch.bool, device=device).tril(k)
    # NumPy's tri compares row i with arange(-k, M - k) in an integer dtype: first trunc(-k), step trunc(1 - k)
    # - trunc(-k), which is 1 (k acts as an integer) or, for 0 < k < 1, 0 (every column starts at row 0)
    if not math.isfinite(k):
        raise ValueError("arange: cannot compute length")
    first = math.trunc(-k)
    if math.trunc(1 - k) - first == 1:
        return torch.ones((n, m), dtype=torch.bool, device=device).tril(-first)
    return (torch.arange(n, device=device) >= first)[:, None].expand(n, m).clone()


def _count(n) -> int:
    """A matrix size as ``tri`` reads it: ``len(arange(n))``."""
    return max(math.ceil(n), 0) if isinstance(n, float) else max(operator.index(n), 0)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    _check_like(like)
    return wrap(_tri_mask(N, M, k).to(_dtypes.to_torch(_dtypes.to_dtype(dtype))))


def tril(m, k=0):
    """``numpy.tril``: zero above the k-th diagonal of the last two axes (1-D ``m`` is broadcast to 2-D)."""
    t = as_tensor(m)
    mask = _tri_mask(*t.shape[-2:], k=k, device=t.device)
    return wrap(_dtypes.where(mask, t, torch.zeros((), dtype=t.dtype, device=t.device)))


def triu(m, k=0):
    """``numpy.triu``: zero below the k-th diagonal of the last two axes (1-D ``m`` is broadcast to 2-D)."""
    t = as_tensor(m)
    mask = _tri_mask(*t.shape[-2:], k=_diagonal_offset(k) - 1, device=t.device)
    return wrap(_dtypes.where(mask, torch.zeros((), dtype=t.dtype, device=t.device), t))


def vander(x, N=None, increasing=False):
    """``numpy.vander``: powers by repeated multiplication (as NumPy), in ``x``'s dtype promoted with int64."""
    t = as_tensor(x)
    if t.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = t.shape[0] if N is None else operator.index(N)
    ct = _dtypes.to_torch(_dtypes.promote_types(_dtypes.from_torch(t.dtype), _dtypes.int64))
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    cols = t.to(ct)[:, None].expand(t.shape[0], max(n - 1, 0)).cumprod(1)
    r = torch.cat([torch.ones((t.shape[0], min(n, 1)), dtype=ct, device=t.device), cols], 1)
    return wrap(r if increasing else r.flip(1))  # ct is never a wide unsigned type (promoted with int64)


# ---------------------------------------------------------------- grids and other sources


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """``numpy.meshgrid``: a tuple; with ``copy=False`` the grids are broadcast views of the inputs."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    arrs = [asarray(x) for x in xi]
    n = len(arrs)
    shapes = [[1] * n for _ in arrs]
    for i, s in enumerate(shapes):
        s[i] = -1
    if indexing == "xy" and n > 1:
        shapes[0][:2], shapes[1][:2] = [1, -1], [-1, 1]
    ts = [a.tensor.reshape(s) for a, s in zip(arrs, shapes)]
    if not sparse:
        ts = torch.broadcast_tensors(*ts)
    if copy:
        return tuple(wrap(t.clone(memory_format=torch.contiguous_format)) for t in ts)
    grids = [view_of(a, t) for a, t in zip(arrs, ts)]
    return grids if sparse else tuple(grids)  # NumPy's own quirk: sparse views come as a list


def indices(dimensions, dtype=int, sparse=False):
    """``numpy.indices``: each axis' index grid, stacked (or, ``sparse``, as a tuple of broadcastable arrays)."""
    dims = tuple(dimensions)
    grids = [arange(d, dtype=dtype).tensor.reshape((1,) * i + (d,) + (1,) * (len(dims) - i - 1))
             for i, d in enumerate(dims)]
    if sparse:
        return tuple(wrap(g) for g in grids)
    if not grids:
        return wrap(torch.empty(0, dtype=_dtypes.to_torch(_dtypes.to_dtype(dtype))))
    return wrap(torch.stack([g.expand(dims) for g in grids]))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    _check_like(like)
    return function(*indices(shape, dtype=dtype), **kwargs)


def frombuffer(buffer, dtype=None, count=-1, offset=0, *, like=None):
    """``numpy.frombuffer``: shares a writable buffer's memory; a read-only buffer gives a read-only array."""
    _check_like(like)
    a = _np.frombuffer(buffer, _dtypes.default_float if dtype is None else _dtypes.to_dtype(dtype), count, offset)
    r = wrap(_from_numpy(a))
    r._writeable = a.flags.writeable
    return r


def fromiter(iter, dtype, count=-1, *, like=None):
    _check_like(like)
    d = _dtypes.default_float if dtype is None else _dtypes.to_dtype(dtype)
    items = list(itertools.islice(iter, None if count < 0 else count))
    if any(isinstance(x, (list, tuple)) for x in items):
        raise TypeError("fromiter() items must be scalars")
    r = _array(items, d, None, "K")
    if count >= 0 and len(items) < count:
        raise ValueError(f"iterator too short: Expected {count} but iterator had only {len(items)} items.")
    return r


def asarray_chkfinite(a, dtype=None, order=None):
    """``asarray`` that raises ValueError on inf or NaN (a data-dependent check: eager, or a graph break)."""
    r = asarray(a, dtype, order)
    t = r.tensor
    if (t.is_floating_point() or t.is_complex()) and not bool(torch.isfinite(t).all()):
        raise ValueError("array must not contain infs or NaNs")
    return r


def from_dlpack(x, /, *, device=None, copy=None):
    """An array sharing memory with a DLPack producer (``numpy.from_dlpack``)."""
    t = torch.from_dlpack(x)
    if copy:
        t = t.clone()
    return wrap(t if device is None else t.to(device))


__all__ += ["asarray_chkfinite", "from_dlpack"]
