"""Indexing: ``a[index]`` and ``a[index] = value`` with NumPy's semantics, and the index functions (take, put,
where, nonzero, index tricks...).

An index is parsed once into a plan: a *basic* torch index (integers, positive-step slices, newaxis, full slices
over the advanced dims), which gives a view, plus the *advanced* indices over dims of that view.  Negative-step
slices become positive ones whose dims are reversed afterwards: ``getitem`` returns that as a copy (torch has no
negative strides: the one documented deviation), ``setitem`` reverses the value instead and writes through.
"""

from __future__ import annotations

import builtins
import operator
import warnings

import numpy as _np
import torch
from numpy.exceptions import ComplexWarning

from .._errors import UnsupportedFeature
from . import _dtypes
from ._ndarray import ndarray, view_of, wrap
from ._normalize import as_tensor

__all__ = []

_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                "arrays are valid indices")
_PY_SCALARS = (builtins.bool, builtins.int, builtins.float, builtins.complex)
_INT, _SLICE, _NEW, _ELL, _BOOL0, _MASK, _ARR = range(7)


# ---------------------------------------------------------------- parsing


def _classify(x):
    """(kind, value) of one index entry; arrays become int64 or bool tensors."""
    tx = type(x)
    if tx is builtins.int or tx is torch.SymInt:
        return _INT, x
    if tx is slice:
        return _SLICE, x
    if x is None:
        return _NEW, None
    if x is Ellipsis:
        return _ELL, None
    if tx is builtins.bool:
        return _BOOL0, torch.tensor([x])
    if isinstance(x, (ndarray, torch.Tensor, _np.ndarray, _np.generic, list, tuple)):
        return _classify_array(x)
    try:
        return _INT, operator.index(x)
    except TypeError:
        raise IndexError(_INDEX_ERROR) from None


def _classify_array(x):
    try:
        t = as_tensor(x)
    except UnsupportedFeature:
        raise IndexError(_INDEX_ERROR) from None
    if t.numel() == 0 and isinstance(x, (list, tuple)):
        t = t.to(torch.int64)  # NumPy: empty sequences index as intp
    if t.dtype == torch.bool:
        return (_BOOL0, t.reshape(1)) if t.ndim == 0 else (_MASK, t)
    if t.is_floating_point() or t.is_complex():
        if isinstance(x, (list, tuple)):
            raise IndexError(_INDEX_ERROR)
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if t.ndim == 0 and _eager(t):
        return _INT, _item(t)  # NumPy treats 0-d integer arrays as integers (a view results)
    return _ARR, t


def _item(t):
    v = t.item()
    return v % 2**64 if t.dtype == torch.uint64 else v


def _int64(t):
    """An index tensor as int64; wide unsigned values beyond int64 stay out of bounds (negative)."""
    if t.dtype == torch.int64:
        return t
    return t.view(torch.int64) if t.dtype == torch.uint64 else t.to(torch.int64)


class _Plan:
    """A parsed index: ``basic`` (a torch index giving a view), ``flips`` (dims of that view to reverse),
    ``adv`` (advanced indices as (first view dim, tensor, dims consumed)), ``adjacent`` (NumPy's rule: adjacent
    advanced indices put their broadcast dims in place, separated ones in front) and ``element`` (integers
    only, one per dim: NumPy's single-element access), ``has_arr`` (an integer array is among the advanced
    indices: writes may repeat a position), ``whole_mask`` (one boolean index of the array's own shape) and
    ``bounds`` (the integer arrays' bounds checks, run by ``check_bounds``: NumPy checks the value first).
    ``basic`` is None when it would select everything."""

    __slots__ = ("basic", "flips", "adv", "adjacent", "element", "has_arr", "whole_mask", "bounds")

    def view(self, t):
        return t if self.basic is None else t[self.basic]

    def check_bounds(self):
        for idx, n, axis in self.bounds:
            _check_bounds(idx, n, axis)


def _plan(t: torch.Tensor, index) -> _Plan:
    entries = [_classify(x) for x in (index if type(index) is tuple else (index,))]
    ndim, shape = t.ndim, t.shape
    consumed, n_ell, fancy = 0, 0, False
    for kind, v in entries:
        if kind in (_INT, _SLICE, _ARR):
            consumed += 1
        elif kind is _MASK:
            consumed += v.ndim
        elif kind is _ELL:
            n_ell += 1
        fancy = fancy or kind in (_BOOL0, _MASK, _ARR)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed")
    p = _Plan()
    basic, flips, adv, adv_pos, bounds = [], [], [], [], []
    dim = vdim = 0  # current dim of t, and of the basic view
    everything = True  # the basic index selects everything
    for pos, (kind, v) in enumerate(entries):
        everything = everything and (kind in (_ELL, _MASK, _ARR) or kind is _SLICE and v == slice(None))
        if kind is _INT:
            basic.append(_check_int(v, shape[dim], dim))
            dim += 1
            if fancy:
                adv_pos.append(pos)
        elif kind is _SLICE:
            s, flip = _positive_slice(v, shape[dim])
            basic.append(s)
            if flip:
                flips.append(vdim)
            dim, vdim = dim + 1, vdim + 1
        elif kind is _NEW:
            basic.append(None)
            vdim += 1
        elif kind is _ELL:
            k = ndim - consumed
            basic.extend([slice(None)] * k)
            dim, vdim = dim + k, vdim + k
        elif kind is _BOOL0:
            basic.append(None)
            adv.append((vdim, v, 1))
            adv_pos.append(pos)
            vdim += 1
        else:
            k = v.ndim if kind is _MASK else 1
            if kind is _MASK:
                _check_mask(v, shape, dim)
            else:
                v = _int64(v)
                bounds.append((v, shape[dim], dim))
            basic.extend([slice(None)] * k)
            adv.append((vdim, v, k))
            adv_pos.append(pos)
            dim, vdim = dim + k, vdim + k
    p.basic, p.flips, p.adv, p.bounds = None if everything else tuple(basic), flips, adv, bounds
    p.adjacent = not adv_pos or adv_pos[-1] - adv_pos[0] == len(adv_pos) - 1
    p.element = not fancy and n_ell == 0 and len(entries) == ndim and all(k is _INT for k, _ in entries)
    p.has_arr = any(k is _ARR for k, _ in entries)
    p.whole_mask = len(entries) == 1 and (entries[0][0] is _MASK and entries[0][1].shape == shape
                                          or entries[0][0] is _BOOL0 and ndim == 0)
    return p


def _simple(t: torch.Tensor, index) -> int:
    """For an index of Python ints and unit-step slices only (the common case, which torch indexes as NumPy
    does): the number of ints, after checking them; else -1."""
    entries = index if type(index) is tuple else (index,)
    if len(entries) > t.ndim:
        return -1
    ints = 0
    for dim, x in enumerate(entries):
        tx = type(x)
        if tx is builtins.int:
            _check_int(x, t.shape[dim], dim)
            ints += 1
        elif tx is not slice or x.step is not None:
            return -1
    return ints


def _check_int(i, n, axis):
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    return i


def _positive_slice(s: slice, n):
    """``s`` as a positive-step slice over a dim of size ``n``, and whether the selection must be reversed."""
    if s.step is None:
        return s, False
    step = operator.index(s.step)
    if step > 0:
        return s, False
    if step == 0:
        raise ValueError("slice step cannot be zero")
    start, stop, step = s.indices(n)
    count = len(range(start, stop, step))
    if count == 0:
        return slice(0, 0), False
    last = start + (count - 1) * step
    return slice(last, start + 1, -step), count > 1


def _check_mask(m, shape, dim):
    for j, size in enumerate(m.shape):
        if size != shape[dim + j]:
            raise IndexError(f"boolean index did not match indexed array along axis {dim + j}; size of axis is "
                             f"{shape[dim + j]} but size of corresponding boolean axis is {size}")


def _check_bounds(idx: torch.Tensor, n, axis):
    """IndexError naming the first out-of-bounds entry, as NumPy (eager only: while tracing, torch's own
    indexing asserts do this)."""
    if idx.numel() == 0 or not _eager(idx):
        return
    lo, hi = torch.aminmax(idx)
    if lo.item() < -n or hi.item() >= n:  # data-dependent: eager only
        v = _item(idx[(idx >= n) | (idx < -n)][0])
        raise IndexError(f"index {v} is out of bounds for axis {axis} with size {n}")


def _eager(t: torch.Tensor) -> bool:
    """Real values are at hand: a plain tensor outside any dispatch mode (fake tensors, tracing)."""
    return type(t) is torch.Tensor and not torch._C._len_torch_dispatch_stack()


# ---------------------------------------------------------------- a[index]


def getitem(a: ndarray, index):
    """``a[index]``: a view for basic indices, a copy for advanced ones and negative-step slices."""
    t = a.tensor
    ints = _simple(t, index)
    if ints >= 0:
        r = t[index]
        return wrap(r.clone()) if ints == t.ndim else view_of(a, r)
    p = _plan(t, index)
    v = p.view(t)
    if p.flips:
        v = _flip(v, p.flips)
    if p.adv:
        if t.device.type != "cpu":
            p.check_bounds()  # elsewhere torch's own check is a device-side assert
        try:
            return wrap(_gather(v, p))
        except IndexError:
            p.check_bounds()  # NumPy's words
            raise
    if p.flips:
        return wrap(v)
    return wrap(v.clone()) if p.element else view_of(a, v)


def _flip(t, dims):
    dims = [d for d in dims if t.shape[d] > 1]
    return _moved(t, lambda m: m.flip(dims)) if dims else t


def _moved(t, f):
    """``f`` (a data-movement op) applied to ``t``, through a signed bit-view for the wide unsigned types."""
    m = _dtypes.movable(t)
    return f(m) if m is t else f(m).view(t.dtype)


def _gather(v: torch.Tensor, p: _Plan) -> torch.Tensor:
    if len(p.adv) == 1 and p.adjacent:  # one advanced index, no integers apart: torch places it as NumPy does
        first, i, _ = p.adv[0]
        return _moved(v, lambda m: m[(slice(None),) * first + (i,)] if first else m[i])
    adv_dims, rest = _split_dims(v, p)
    order = adv_dims + rest
    idx = tuple(i for _, i, _ in p.adv)
    r = _moved(v, lambda m: (m if order == sorted(order) else m.permute(order))[idx])
    nb = r.ndim - len(rest)
    first = p.adv[0][0]
    if p.adjacent and first and nb:
        r = r.movedim(tuple(range(nb)), tuple(range(first, first + nb)))
    return r


def _split_dims(v, p):
    adv_dims = [d for first, _, k in p.adv for d in range(first, first + k)]
    taken = set(adv_dims)
    return adv_dims, [d for d in range(v.ndim) if d not in taken]


# ---------------------------------------------------------------- a[index] = value


def setitem(a: ndarray, index, value):
    """``a[index] = value``: NumPy's value conversion, broadcasting and last-wins for repeated indices; all
    checks run before anything is written."""
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    t = a.tensor
    ints = _simple(t, index)
    if ints >= 0:
        return _assign_basic(t[index], (), value, ints == t.ndim)
    p = _plan(t, index)
    v = p.view(t)
    if p.adv:
        _assign_advanced(v, p, value)
    else:
        _assign_basic(v, p.flips, value, p.element)


def _assign_basic(v, flips, value, element):
    if type(value) in _PY_SCALARS and not flips:
        v.fill_(_python_value(value, _dtypes.from_torch(v.dtype)))
        return
    val = _value_tensor(value, v.dtype, element)
    if val.ndim > v.ndim and isinstance(value, (list, tuple)):  # NumPy coerces the list to at most v.ndim dims
        raise ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                         f"number of dimension of {v.ndim}.")
    val = _fit(val, v.shape, "could not broadcast input array from shape {} into shape {}")
    v.copy_(_flip(_unaliased(val, v), flips))


def _assign_advanced(v, p, value):
    adv_dims, rest = _split_dims(v, p)
    order = adv_dims + rest
    target = _dtypes.movable(v if order == sorted(order) else v.permute(order))
    val = _value_tensor(value, v.dtype, False)
    if p.whole_mask and val.ndim > 1:
        raise TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has "
                        f"{val.ndim} dimensions")
    if val.numel() == 1:  # one value: it fits any result, and repeated positions get the same value
        p.check_bounds()
        target.index_put_(tuple(i for _, i, _ in p.adv), _dtypes.movable(val.reshape(()).to(v.dtype)))
        return
    idx = []
    for _, i, _ in p.adv:
        idx.extend(i.nonzero().unbind(1) if i.dtype == torch.bool else (i,))
    b = _broadcast_indices(idx)
    nb, first = len(b), p.adv[0][0]  # first: the number of rest dims before the advanced ones
    rest_shape = tuple(v.shape[d] for d in rest)
    shape = rest_shape[:first] + tuple(b) + rest_shape[first:] if p.adjacent else tuple(b) + rest_shape
    val = _fit(val, shape, "shape mismatch: value array of shape {} could not be broadcast to indexing result of "
                           "shape {}", lenient_empty=True)
    p.check_bounds()
    if val.numel() == 0:
        return
    if p.adjacent and first and nb:
        val = val.movedim(tuple(range(first, first + nb)), tuple(range(nb)))
    val = _flip(val, [nb + rest.index(f) for f in p.flips])
    if p.has_arr and any(val.stride(d) for d in range(nb)):  # repeated positions may get different values
        idx, val = _last_wins([i.expand(b) for i in idx], [v.shape[d] for d in adv_dims], val)
    target.index_put_(tuple(idx), _dtypes.movable(_unaliased(val.to(v.dtype), v)))


def _broadcast_indices(idx):
    if len(idx) == 1:
        return idx[0].shape
    try:
        return torch.broadcast_shapes(*(i.shape for i in idx))
    except RuntimeError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         + " ".join(str(tuple(i.shape)).replace(" ", "") for i in idx)) from None


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _last_wins(idx, sizes, val):
    """The writes of ``val`` (shaped like the broadcast indices, then the rest) at ``idx``, keeping only the last
    write to each position (NumPy's order), so that torch's unordered writes cannot pick another."""
    n, nb = idx[0].numel(), idx[0].ndim
    if n <= 1:
        return idx, val
    lin = idx[0].remainder(sizes[0])  # bounds were checked: sizes are positive
    for i, size in zip(idx[1:], sizes[1:]):
        lin = lin * size + i.remainder(size)
    s, order = torch.sort(lin.reshape(-1), stable=True)
    repeats = s[1:] == s[:-1]
    if _eager(s) and not repeats.any():  # data-dependent shortcut: eager only
        return idx, val
    last = torch.cat([~repeats, repeats.new_ones(1)])
    keep = order[last]
    return [i.reshape(-1)[keep] for i in idx], val.reshape((n,) + tuple(val.shape[nb:]))[keep]


def _python_value(x, d: _np.dtype):
    """A Python scalar converted for dtype ``d`` as NumPy's assignment does (OverflowError for out-of-range
    integers, ValueError for NaN into integers, TypeError for complex into int/float)."""
    k = d.kind
    if k in "iu":
        if type(x) is builtins.complex:
            raise TypeError("int() argument must be a string, a bytes-like object or a real number, not 'complex'")
        x = builtins.int(x)
        info = _np.iinfo(d)
        if not info.min <= x <= info.max:
            raise OverflowError(f"Python integer {x} out of bounds for {d}")
        return x
    if k == "f":
        if type(x) is builtins.complex:
            raise TypeError("float() argument must be a string or a real number, not 'complex'")
        return builtins.float(x)
    return builtins.bool(x) if k == "b" else builtins.complex(x)


def _value_tensor(value, td: torch.dtype, element: bool) -> torch.Tensor:
    """An assigned value as a tensor; NumPy's conversion rules, the cast itself is left to the write."""
    d = _dtypes.from_torch(td)
    if element and isinstance(value, (list, tuple, ndarray, _np.ndarray, torch.Tensor)):
        value = _element_value(value, d)
    if type(value) in _PY_SCALARS:
        return torch.tensor(_python_value(value, d), dtype=td)
    if isinstance(value, (list, tuple)) and _pure_python(value):
        try:
            return as_tensor(_np.asarray(value, dtype=d))  # NumPy's own per-element conversion and errors
        except (TypeError, ValueError, OverflowError) as e:
            raise type(e)(str(e)) from None
    v = as_tensor(value)
    if v.is_complex() and not td.is_complex and td != torch.bool:
        warnings.warn("Casting complex values to real discards the imaginary part", ComplexWarning, stacklevel=3)
        v = v.real
    return v


def _element_value(value, d):
    """A sequence assigned to a single element: NumPy's errors, or for bool its truth value."""
    if isinstance(value, (list, tuple)):
        if d.kind == "b":
            return builtins.bool(value)
        if d.kind == "f":
            raise ValueError("setting an array element with a sequence.")
        raise TypeError(f"{'int' if d.kind in 'iu' else 'complex'}() argument must be a real number, not "
                        f"'{type(value).__name__}'")
    v = as_tensor(value)
    if v.ndim == 0:
        return value
    if d.kind == "c":
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    if d.kind == "b" and v.numel() == 1:
        return v.reshape(())
    raise ValueError("setting an array element with a sequence.")


def _pure_python(seq) -> bool:
    return all(_pure_python(e) if isinstance(e, (list, tuple)) else type(e) in _PY_SCALARS for e in seq)


def _fit(val: torch.Tensor, shape, message: str, lenient_empty=False) -> torch.Tensor:
    """``val`` broadcast to ``shape``: only the value side broadcasts, extra leading dims must be 1 (any size, for
    advanced indices, when nothing is written)."""
    extra = val.ndim - len(shape)
    if extra > 0 and all(s == 1 for s in val.shape[:extra]):
        val = val.reshape(val.shape[extra:])
    elif extra > 0 and lenient_empty and _numel(shape) == 0:
        val = val.new_empty(val.shape[extra:])
    try:
        return val.expand(shape)
    except RuntimeError:
        raise ValueError(message.format(tuple(val.shape), tuple(shape))) from None


def _unaliased(val: torch.Tensor, dest: torch.Tensor) -> torch.Tensor:
    """``val``, copied if it reads the memory being written (``a[1:] = a[:-1]``)."""
    if val.device == dest.device and val.untyped_storage()._cdata == dest.untyped_storage()._cdata:
        return val.clone()
    return val
