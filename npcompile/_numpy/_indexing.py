"""Indexing: ``a[index]`` and ``a[index] = value`` with NumPy's semantics, and the index functions (take, put,
where, nonzero, index tricks...).

An index is parsed once into a plan: a *basic* torch index (integers, positive-step slices, newaxis, full slices
over the advanced dims), which gives a view, plus the *advanced* indices over dims of that view.  Negative-step
slices become positive ones whose dims are reversed afterwards: ``getitem`` returns that as a copy (torch has no
negative strides: the one documented deviation), ``setitem`` reverses the value instead and writes through.
"""

from __future__ import annotations

import builtins
import itertools
import math
import operator

import numpy as _np
import torch

from .._errors import VALUE_TAG, UnsupportedFeature
from . import _dtypes
from ._trace import check, guard_or_false, is_tracing, traced_int, zero_count
from ._ndarray import as_array0d, is_array0d, is_scalar, ndarray, view_of, wrap
from ._normalize import (
    ArrayLike, OutArray, as_tensor, broadcast_shape, cast, check_out, copy_to_out, normalize_axis_index, normalizer,
    PY_SCALARS, python_scalar, python_value,
)

__all__ = ["take", "put", "take_along_axis", "put_along_axis", "choose", "compress", "where", "select", "nonzero",
           "argwhere", "flatnonzero", "extract", "place", "putmask", "diagonal", "fill_diagonal", "tril_indices",
           "triu_indices", "tril_indices_from", "triu_indices_from", "diag_indices", "diag_indices_from",
           "mask_indices", "unravel_index", "ravel_multi_index", "ix_", "ndindex", "ndenumerate", "nditer",
           "nested_iters", "iterable", "may_share_memory", "shares_memory", "mgrid", "ogrid", "r_", "c_", "index_exp",
           "s_"]

_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                "arrays are valid indices")
_SIGNED_INTS = (torch.int8, torch.int16, torch.int32, torch.int64)
_WEAK_SCALARS = PY_SCALARS + (torch.SymBool, torch.SymInt, torch.SymFloat)  # with those Dynamo traces
_INT, _SLICE, _NEW, _ELL, _BOOL0, _MASK, _ARR, _INT0 = range(8)  # (_INT0: a 0-d integer array, an _INT that copies)


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
        # NumPy places a 0-d integer array as an integer, but copies what it selects; a NumPy scalar (ours: an
        # unmarked 0-d array) is an integer: ``a[..., np.int64(0)]`` and ``m[i]`` with ``i = v.argmax()`` are views
        scalar = isinstance(x, _np.generic) or isinstance(x, ndarray) and not is_array0d(x)
        return _INT if scalar else _INT0, _item(t)
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
    only, one per dim: NumPy's single-element access), ``copies`` (a 0-d integer array among them: NumPy's
    result is a copy), ``has_arr`` (an integer array is among the advanced indices: writes may repeat a
    position), ``whole_mask`` (one boolean index of the array's own shape) and
    ``bounds`` (the integer arrays' bounds checks, run by ``check_bounds``: NumPy checks the value first).
    ``basic`` is None when it would select everything."""

    __slots__ = ("basic", "flips", "adv", "adjacent", "element", "copies", "has_arr", "whole_mask", "bounds")

    def view(self, t):
        if self.basic is None:
            return t
        if not any(type(b) is torch.SymInt for b in self.basic):
            return t[self.basic]
        # A symbolic int (a dynamic loop index): torch indexing would specialise it, so select() it instead.
        d = 0
        for b in self.basic:
            if type(b) in (builtins.int, torch.SymInt):
                t = t.select(d, b)
            else:
                t = t[(slice(None),) * d + (b,)]
                d += 1
        return t

    def check_bounds(self):
        """NumPy checks the indices it generates: none when an index array (or a mask's hits) is empty."""
        if not self.bounds or any(i.numel() == 0 for _, i, _ in self.adv) or len(self.adv) > len(self.bounds) and any(
                _eager(i) and not i.any() for _, i, _ in self.adv if i.dtype == torch.bool):  # data-dependent
            return
        for idx, n, axis in self.bounds:
            _check_bounds(idx, n, axis)


def _plan(t: torch.Tensor, index) -> _Plan:
    entries = [_classify(x) for x in (index if type(index) is tuple else (index,))]
    ndim, shape = t.ndim, t.shape
    consumed, n_ell, fancy = 0, 0, False
    for kind, v in entries:
        if kind in (_INT, _INT0, _SLICE, _ARR):
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
    p.has_arr = False
    basic, flips, adv, adv_pos, bounds = [], [], [], [], []
    dim = vdim = 0  # current dim of t, and of the basic view
    everything = True  # the basic index selects everything
    for pos, (kind, v) in enumerate(entries):
        everything = everything and (kind in (_ELL, _MASK, _ARR) or kind is _SLICE and v == slice(None))
        if kind is _INT or kind is _INT0:
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
                p.has_arr = True
            basic.extend([slice(None)] * k)
            adv.append((vdim, v, k))
            adv_pos.append(pos)
            dim, vdim = dim + k, vdim + k
    p.basic, p.flips, p.adv, p.bounds = None if everything else tuple(basic), flips, adv, bounds
    p.adjacent = not adv_pos or adv_pos[-1] - adv_pos[0] == len(adv_pos) - 1
    p.element = not fancy and n_ell == 0 and len(entries) == ndim and all(k in (_INT, _INT0) for k, _ in entries)
    p.copies = any(k is _INT0 for k, _ in entries)
    p.whole_mask = len(entries) == 1 and (entries[0][0] is _MASK and entries[0][1].shape == shape
                                          or entries[0][0] is _BOOL0 and ndim == 0)
    return p


def _simple(t: torch.Tensor, index) -> int:
    """For an index of Python ints and unit-step slices only (the common case, which torch indexes as NumPy
    does): the number of dims it leaves (0: one element), after checking the ints; else -1."""
    tx = type(index)
    if tx is slice or tx is builtins.int:  # one index alone, the commonest: no tuple to build and walk
        nd = t.ndim
        if not nd:
            return -1
        if tx is slice:
            return nd if index.step is None else -1
        _check_int(index, t.shape[0], 0)
        return nd - 1
    entries = index if tx is tuple else (index,)
    shape = t.shape
    left = len(shape) - len(entries)
    if left < 0:
        return -1
    for dim, x in enumerate(entries):
        tx = type(x)
        if tx is builtins.int:
            _check_int(x, shape[dim], dim)
        elif tx is not slice or x.step is not None:
            return -1
        else:
            left += 1
    return left


def _check_int(i, n, axis):
    if type(n) is not torch.SymInt and type(i) is not torch.SymInt:
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
        return i
    message = f"index {i} is out of bounds for axis {axis} with size {n}"
    check(-n <= i, IndexError, message)
    check(i < n, IndexError, message)
    return i


def _empty(t: torch.Tensor) -> bool:
    """``t`` holds no elements; a traced size known only when the code runs (``x[np.flatnonzero(m)]``) counts as
    not empty, so the compiled indexing checks the bounds."""
    return zero_count(t.numel())


def _positive_slice(s: slice, n):
    """``s`` as a positive-step slice over a dim of size ``n``, and whether the selection must be reversed."""
    if s.step is None:
        return s, False
    step = operator.index(s.step)
    if type(n) is builtins.int and abs(step) > max(n, 1):
        # a step past the dim's length selects the same one element as a step of that length; torch's length and
        # stride arithmetic overflows on huge steps (a[::2**63] was empty, a[::2**62, 0] of a 2-D array raised)
        step = max(n, 1) if step > 0 else -max(n, 1)
        s = slice(s.start, s.stop, step)
    if step > 0:
        return s, False
    if step == 0:
        raise ValueError("slice step cannot be zero")
    start, stop = _bound(s.start, n, n - 1), _bound(s.stop, n, -1)
    count = (start - stop - step - 1) // -step if start > stop else 0
    if count == 0:
        return slice(0, 0), False
    last = start + (count - 1) * step
    return slice(last, start + 1, -step), count > 1


def _bound(v, n, default):
    """A bound of a negative-step slice over ``n`` elements, clamped to [-1, n - 1] as ``slice.indices`` does, by
    comparisons only: ``slice.indices`` asks a traced bound for its exact value, which compiles the code once per
    value (``r[k:0:-1]`` in a loop over k)."""
    if v is None:
        return default
    v = v if isinstance(v, torch.SymInt) else operator.index(v)
    if v < 0:
        return v + n if v + n >= 0 else -1
    return v if v < n else n - 1


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
    """Real values are at hand (not tracing): data-dependent checks and shortcuts may read them."""
    return not is_tracing(t)


# ---------------------------------------------------------------- a[index]


def getitem(a: ndarray, index):
    """``a[index]``: a view for basic indices, a copy for advanced ones and negative-step slices."""
    t = a.tensor
    if type(index) is ndarray:
        r = _one_array(t, index.tensor)
        if r is not None:
            return wrap(r)
    left = _simple(t, index)
    if left >= 0:
        r = t[index]
        return view_of(a, r) if left else wrap(r.clone())  # NumPy's scalar does not alias a: a copy
    p = _plan(t, index)
    v = p.view(t)
    if p.flips:
        v = _flip(v, p.flips)
    if p.adv:
        if not t.is_cpu or _empty(t):  # (not t.device.type: that builds a device object, ~0.3us per call)
            p.check_bounds()  # elsewhere torch's own check is a device-side assert; on empty data there is none
        try:
            return wrap(_gather(v, p))
        except IndexError:
            p.check_bounds()  # NumPy's words
            raise
    if p.flips:
        return wrap(v)
    return wrap(v.clone()) if p.element or p.copies else view_of(a, v)


def _one_array(t: torch.Tensor, i: torch.Tensor):
    """``t[i]`` for one int64 or boolean index array (a mask over ``t``'s leading dims), which torch places and
    copies as NumPy does, checking bounds on the CPU (elsewhere by device-side asserts); None for any other case
    and on an index error, whose NumPy message the general path gives."""
    if not i.ndim or t.dtype not in _dtypes.DIRECT:
        return None
    if i.dtype is torch.bool:
        if i.shape != t.shape[:i.ndim]:
            return None
        return _masked(t, i)
    elif i.dtype is not torch.int64 or not t.is_cpu or _empty(t):  # (torch checks no bounds on empty data)
        return None
    try:
        return t[i]
    except IndexError:
        return None


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
        return _moved(v, lambda m: _index(m, (None,) * first + (i,)))
    adv_dims, rest = _split_dims(v, p)
    order = adv_dims + rest
    idx = tuple(i for _, i, _ in p.adv)
    r = _moved(v, lambda m: _index(m if order == sorted(order) else m.permute(order), idx))
    nb = r.ndim - len(rest)
    first = p.adv[0][0]
    if p.adjacent and first and nb:
        r = r.movedim(tuple(range(nb)), tuple(range(first, first + nb)))
    return r


def _index(m: torch.Tensor, idx: tuple) -> torch.Tensor:
    """``m[idx]`` for index tensors (None: a whole dim), as aten.index: torch's ``[]`` reads a 0-d index as a
    Python int, which traced (``y[np.argmax(x)]``) asks for its value: a graph break."""
    return torch.ops.aten.index.Tensor(m, list(idx))


def _split_dims(v, p):
    adv_dims = [d for first, _, k in p.adv for d in range(first, first + k)]
    taken = set(adv_dims)
    return adv_dims, [d for d in range(v.ndim) if d not in taken]


# ---------------------------------------------------------------- a[index] = value


def setitem(a: ndarray, index, value):
    """``a[index] = value``: NumPy's value conversion, broadcasting and last-wins for repeated indices; all
    checks run before anything is written."""
    if is_scalar(a):
        raise TypeError(f"'numpy.{a.dtype.name}' object does not support item assignment")
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    t = a.tensor
    value = traced_int(value, _dtypes.from_torch(t.dtype))
    if type(index) is ndarray and _assign_one_array(t, index.tensor, value):
        return
    left = _simple(t, index)
    if left >= 0:
        return _assign_basic(t[index], (), value, not left)
    p = _plan(t, index)
    v = p.view(t)
    if p.adv:
        _assign_advanced(v, p, value)
    else:
        _assign_basic(v, p.flips, value, p.element)


def _assign_basic(v, flips, value, element):
    if v.dtype in _SIGNED_INTS and type(value) not in PY_SCALARS:
        value = python_scalar(value)  # (NumPy's advanced indexing casts its scalars: int8_a[[0]] = int64(300))
    if type(value) in PY_SCALARS and not flips:
        x = _fill_value(value, v.dtype)
        if x is not None:
            v.fill_(x)
            return
    val = _value_tensor(value, v.dtype, element)
    if not flips and _same_view(val, v):
        return  # ``a[k] += x``: Python writes the updated view back onto itself (compiled: a copy of all of a)
    if val.ndim > v.ndim and isinstance(value, (list, tuple)):  # NumPy coerces the list to at most v.ndim dims
        raise ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                         f"number of dimension of {v.ndim}.")
    val = _fit(val, v.shape, "could not broadcast input array from shape {} into shape {}")
    v.copy_(_flip(_unaliased(val, v), flips))


_SMALL_INDEX = 256  # index arrays up to this size are read into Python to check bounds and repeats


def _assign_one_array(t: torch.Tensor, i: torch.Tensor, value) -> bool:
    """``t[i] = value`` written directly for the common cases where torch writes as NumPy does: a boolean mask of
    ``t``'s shape and a Python scalar (``masked_fill_``); eagerly on the CPU, a small 1-D int64 array of indices in
    ``[0, len(t))`` and a Python scalar (``index_fill_``) or an array of ``t``'s dtype and exactly the indexed shape
    (``index_copy_``), the indices read once to check bounds and, for an array, repeats (NumPy's last write wins,
    torch's is any).
    False: not such a case (or an error, which the general path raises), nothing written."""
    if t.dtype not in _dtypes.DIRECT:
        return False
    scalar = type(value) in PY_SCALARS
    if i.dtype is torch.bool:
        if not i.ndim or i.device != t.device:
            return False
        if not scalar:
            return _assign_mask_traced(t, i, value)
        if i.shape != t.shape:
            return False
        x = _fill_value(value, t.dtype)
        if x is None:
            return False
        t.masked_fill_(i, x)
        return True
    if i.dtype is not torch.int64 or i.ndim != 1 or not t.ndim or not 0 < i.numel() <= _SMALL_INDEX \
            or not (t.is_cpu and i.is_cpu) or is_tracing(i):
        return False
    ids = sorted(i.tolist())
    if ids[0] < 0 or ids[-1] >= t.shape[0]:
        return False
    if scalar:
        x = _fill_value(value, t.dtype)
        if x is None:
            return False
        t.index_fill_(0, i, x)
        return True
    if type(value) is not ndarray:
        return False
    v, k = value.tensor, len(ids)
    if v.dtype is not t.dtype or v.ndim != t.ndim or v.shape[0] != k or v.ndim > 1 and v.shape[1:] != t.shape[1:] \
            or len(set(ids)) != k:
        return False
    t.index_copy_(0, i, _unaliased(v, t))
    return True


def _assign_mask_traced(t: torch.Tensor, m: torch.Tensor, value) -> bool:
    """``t[m] = value`` while tracing, for a mask over ``t``'s leading dims and a value with one row per chosen
    position (``z[m] = z[m] ** 2 + c[m]``).  The mask's count is data-dependent: matching the value's length against
    it is a decision the trace cannot make (a graph break, then NumPy).  Instead each position takes the value's
    row at its running count (a ``where`` over ``t``), and the compiled code checks that the value has as many rows
    as the mask picks, or one (raised as NumPy's ValueError, ``_errors.VALUE_TAG``)."""
    rest = t.shape[m.ndim:]
    if not is_tracing(m) or m.shape != t.shape[:m.ndim] or not m.numel():
        return False
    val = _value_tensor(value, t.dtype, False)
    if val.ndim != 1 + len(rest) or guard_or_false(val.shape[0] == 1):
        return False  # (a single value, or a mismatch NumPy reports: the general path)
    try:
        val = val.expand(val.shape[0], *rest)
    except RuntimeError:
        return False
    k = val.shape[0]
    counts = torch.cumsum(m.reshape(-1).to(torch.int64), 0)
    torch._assert_async((counts[-1] - k) * (k - 1) == 0, VALUE_TAG + "NumPy boolean array indexing assignment "
                        "cannot assign the input values: the value has neither one row nor one per True element")
    val = torch.cat([val, val.new_zeros((1, *rest))])  # a row to read where the mask picks nothing (k = 0)
    rows = val.index_select(0, (counts - 1).clamp(min=0) % torch.sym_max(k, 1)).reshape(t.shape)
    t.copy_(torch.where(m.reshape(m.shape + (1,) * len(rest)), rows.to(t.dtype), t))
    return True


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
        target.index_put_(tuple(i for _, i, _ in p.adv), _dtypes.movable(_unaliased(val.reshape(()).to(v.dtype), v)))
        return
    idx = []
    for _, i, _ in p.adv:
        idx.extend(_nonzero(i, as_tuple=True) if i.dtype == torch.bool else (i,))
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
    """The writes of ``val`` (shaped like the broadcast indices, then the rest) at ``idx``, each write to a position
    carrying the value of the last one (NumPy's order), so that torch's unordered writes cannot pick another.
    Every write is kept (no data-dependent count: this traces)."""
    n, nb = idx[0].numel(), idx[0].ndim
    if n <= 1:
        return idx, val
    lin = idx[0].remainder(sizes[0])  # bounds were checked: sizes are positive
    for i, size in zip(idx[1:], sizes[1:]):
        lin = lin * size + i.remainder(size)
    s, order = torch.sort(lin.reshape(-1), stable=True)
    if _eager(s) and not (s[1:] == s[:-1]).any():  # data-dependent shortcut: eager only
        return idx, val
    last = order[torch.searchsorted(s, s, right=True) - 1]  # per sorted write: the last write to its position
    return [i.reshape(-1)[order] for i in idx], val.reshape((n,) + tuple(val.shape[nb:]))[last]


_NARROW_MAX = {torch.float16: float(_np.finfo(_np.float16).max), torch.float32: float(_np.finfo(_np.float32).max),
               torch.complex64: float(_np.finfo(_np.float32).max)}


def _fill_value(x, td: torch.dtype):
    """A Python scalar converted for the fill ops (``fill_``, ``masked_fill_``...) into dtype ``td``, NumPy's
    conversion errors raised; None where their checked conversion refuses what NumPy rounds (a float beyond a
    narrow float's range becomes inf in NumPy: then a tensor of the value is written instead)."""
    x = python_value(x, _dtypes.from_torch(td))
    big = _NARROW_MAX.get(td)
    return x if big is None or abs(x) < big else None


def _value_tensor(value, td: torch.dtype, element: bool) -> torch.Tensor:
    """An assigned value as a tensor; NumPy's conversion rules, the cast itself is left to the write."""
    d = _dtypes.from_torch(td)
    if element and isinstance(value, (list, tuple, ndarray, _np.ndarray, torch.Tensor)):
        value = _element_value(value, d)
    if type(value) in PY_SCALARS:
        return torch.tensor(python_value(value, d), dtype=td)
    if isinstance(value, (list, tuple)) and _pure_python(value):
        try:
            return as_tensor(_np.asarray(value, dtype=d))  # NumPy's own per-element conversion and errors
        except (TypeError, ValueError, OverflowError) as e:
            raise type(e)(str(e)) from None
    v = as_tensor(value)
    return cast(v, td) if v.is_complex() and not td.is_complex else v  # with NumPy's ComplexWarning


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
    return all(_pure_python(e) if isinstance(e, (list, tuple)) else type(e) in PY_SCALARS for e in seq)


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


def _same_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.device == b.device and a.untyped_storage()._cdata == b.untyped_storage()._cdata


def _same_view(val: torch.Tensor, dest: torch.Tensor) -> bool:
    return (val.dtype == dest.dtype and val.shape == dest.shape and _same_storage(val, dest)
            and val.storage_offset() == dest.storage_offset() and val.stride() == dest.stride())


def _unaliased(val: torch.Tensor, dest: torch.Tensor) -> torch.Tensor:
    """``val``, copied if it reads the memory being written (``a[1:] = a[:-1]``)."""
    return val.clone() if _same_storage(val, dest) else val


# ---------------------------------------------------------------- index arrays and modes


def _index_tensor(x, casting="same_kind", force_python=False) -> torch.Tensor:
    """Integer indices as int64: arrays must cast to intp under ``casting``; Python numbers and sequences too,
    unless ``force_python`` (take: floats truncate)."""
    python = type(x) in PY_SCALARS or isinstance(x, (list, tuple)) and _pure_python(x)
    t = as_tensor(x)
    d = _dtypes.from_torch(t.dtype)
    if python and force_python:
        return t.to(torch.int64)
    if python and t.numel() == 0 and t.is_floating_point():
        raise TypeError("indices must be integral: the provided empty sequence was inferred as float. Wrap it "
                        "with 'np.array(indices, dtype=np.intp)'")
    if not _np.can_cast(d, _np.intp, casting):
        raise TypeError(f"Cannot cast array data from {d!r} to dtype('int64') according to the rule {casting!r}")
    return _int64(t)


def _apply_mode(idx: torch.Tensor, n, mode, axis=0, error=None, checked=True, filled=True) -> torch.Tensor:
    """Indices into a dim of size ``n`` under NumPy's clip modes: 'raise' checks (IndexError, or ``error``; take
    checks only where it loops: ``checked``), 'wrap' takes them modulo ``n``, 'clip' clamps them into range
    (negative ones to 0); an empty dim is an error when the result is to be ``filled``."""
    if mode == "raise":
        if error is None:
            if checked:
                _check_bounds(idx, n, axis)
        elif idx.numel() and _eager(idx) and bool(((idx < 0) | (idx >= n)).any()):  # data-dependent: eager only
            raise error
        return idx
    if mode not in ("wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if n == 0:
        if idx.numel() and filled:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        return idx.new_zeros(idx.shape)
    return idx.remainder(n) if mode == "wrap" else idx.clamp(0, n - 1)


def _cycled(v: torch.Tensor, n) -> torch.Tensor:
    """The first ``n`` values of ``v`` (flattened) repeated cyclically, as NumPy's put/place/putmask use them."""
    v = v.reshape(-1)
    return v.repeat(-(-n // v.numel()))[:n] if v.numel() < n else v[:n]


def _write_flat(a: ndarray, idx: torch.Tensor | slice, values) -> None:
    """``a.flat[idx] = values`` through a flat view, or a flat copy written back for non-contiguous ``a``."""
    t = a.tensor
    flat = wrap(t.view(-1) if t.is_contiguous() else t.reshape(-1).clone())
    setitem(flat, idx if isinstance(idx, slice) else wrap(idx), values)
    if not t.is_contiguous():
        t.copy_(flat.tensor.view(t.shape))


def _writable(a, name):
    if not isinstance(a, ndarray):
        raise TypeError(f"{name}() argument 1 must be numpy.ndarray, not {type(a).__name__}")
    if not a._writeable:
        raise ValueError(f"{name}: output array is read-only")
    return a


# ---------------------------------------------------------------- take and put


def take(a, indices, axis=None, out=None, mode="raise"):
    """``numpy.take``: ``out`` must be castable to ``a``'s dtype ('safe'), as NumPy requires."""
    if type(a) is ndarray and type(indices) is ndarray and out is None and mode == "raise":
        r = _take_direct(a.tensor, indices.tensor, axis)
        if r is not None:
            return wrap(r)
    t = as_tensor(a)
    if axis is None or t.ndim == 0:
        t = t.reshape(-1)
    axis = 0 if axis is None else normalize_axis_index(axis, t.ndim)
    idx = _index_tensor(indices, force_python=True)
    outer, inner = math.prod(t.shape[:axis]), math.prod(t.shape[axis + 1:])
    idx = _apply_mode(idx, t.shape[axis], mode, axis, checked=outer > 0, filled=outer * inner > 0)
    if t.shape[axis] == 0 or t.numel() == 0:  # an empty result: nothing to gather (NumPy indexes nothing)
        shape = t.shape[:axis] + tuple(idx.shape) + t.shape[axis + 1:]
        return _to_out(t.new_empty(shape), out, t.dtype)
    return _to_out(_moved(t, lambda m: _taken(m, axis, idx)), out, t.dtype)


def _taken(m: torch.Tensor, axis: int, idx: torch.Tensor) -> torch.Tensor:
    """``m`` indexed by ``idx`` along ``axis``: always new memory, as NumPy's take (torch selects a view of ``m``
    for a 0-d index)."""
    if idx.ndim == 0:
        return m[(slice(None),) * axis + (idx.reshape(1),)].squeeze(axis)
    return m[(slice(None),) * axis + (idx,)]


def _take_direct(t: torch.Tensor, i: torch.Tensor, axis):
    """``take`` by torch's own gather for int64 indices on the CPU (torch checks their bounds there), which is
    NumPy's: ``torch.take`` of the flat array, or indexing along ``axis``; None for any other case and on an error,
    whose NumPy message the general path gives."""
    if i.dtype is not torch.int64 or t.dtype not in _dtypes.DIRECT or not t.is_cpu or not t.numel():
        return None  # (torch checks no bounds on empty data)
    try:
        if axis is None:
            return torch.take(t, i)
        if type(axis) is builtins.int and -t.ndim <= axis < t.ndim:
            return _taken(t, axis % t.ndim, i)
    except IndexError:
        pass
    return None


def _to_out(r, out, td):
    """The result, or written into ``out``, whose dtype must cast safely to the source's (NumPy's rule for
    take and the arg-functions)."""
    out = check_out(out)
    if out is None:
        return wrap(r)
    if not _np.can_cast(out.dtype, _dtypes.from_torch(td)):
        raise TypeError(f"Cannot cast array data from {out.dtype!r} to {_dtypes.from_torch(td)!r} according "
                        "to the rule 'safe'")
    return copy_to_out(r, out, "unsafe", "take")


def put(a, ind, v, mode="raise"):
    """``numpy.put``: ``a.flat[ind] = v``, ``v`` repeated as needed, NumPy's value conversion."""
    _writable(a, "put")
    # NumPy casts an index array safely (a uint64 or float array is a TypeError); scalars and sequences convert
    if isinstance(ind, _np.ndarray) or isinstance(ind, ndarray) and (ind.ndim or is_array0d(ind)):
        idx = _index_tensor(ind, casting="safe").reshape(-1)
    else:
        idx = as_tensor(ind).to(torch.int64).reshape(-1)
    if a.size == 0 and idx.numel():
        raise IndexError("cannot replace elements of an empty array")
    vals = _value_tensor(v, a.tensor.dtype, False)
    if vals.numel():  # NumPy: nothing to put, nothing checked
        _write_flat(a, _apply_mode(idx, a.size, mode), _cycled(vals, idx.numel()))


def _along_axis(shape, idx: torch.Tensor, axis) -> tuple:
    """The advanced index that pairs ``idx`` along ``axis`` with every position of the other dims."""
    nd = len(shape)
    return tuple(idx if d == axis else torch.arange(shape[d], device=idx.device).reshape(
        (1,) * d + (-1,) + (1,) * (nd - d - 1)) for d in range(nd))


def _along_axis_args(arr, indices, axis):
    t, idx = as_tensor(arr), as_tensor(indices)
    ax = None if axis is None else normalize_axis_index(axis, t.ndim)  # NumPy's first check
    if idx.is_floating_point() or idx.is_complex() or idx.dtype == torch.bool:
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return t.reshape(-1), _int64(idx), 0
    if idx.ndim != t.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    return t, _int64(idx), ax


def take_along_axis(arr, indices, axis=-1):
    t, idx, axis = _along_axis_args(arr, indices, axis)
    return getitem(wrap(t), _along_axis(t.shape, idx, axis))


def put_along_axis(arr, indices, values, axis):
    if not isinstance(arr, ndarray):
        raise TypeError(f"put_along_axis() argument 1 must be numpy.ndarray, not {type(arr).__name__}")
    t, idx, ax = _along_axis_args(arr, indices, axis)
    if axis is None:
        return _write_flat(arr, idx, values)
    setitem(arr, _along_axis(t.shape, idx, ax), values)


# ---------------------------------------------------------------- choosing


def choose(a, choices, out=None, mode="raise"):
    """``numpy.choose``: ``choices[a[i]][i]`` with everything broadcast; the dtype promotes the choices (NEP 50)."""
    idx = _index_tensor(a, "safe")
    if isinstance(choices, (ndarray, torch.Tensor, _np.ndarray)):
        choices = tuple(wrap(c) for c in as_tensor(choices))
    if len(choices) == 0:
        raise ValueError("0-length sequence.")
    cs = [as_tensor(c) for c in choices]
    td = _common_dtype(choices, cs)
    shape = broadcast_shape([tuple(idx.shape)] + [tuple(c.shape) for c in cs])
    idx = _apply_mode(idx, len(cs), mode, error=ValueError("invalid entry in choice array"))
    stacked = torch.stack([_moved(c.to(td), lambda m: m.expand(shape)) for c in cs])
    r = _moved(stacked, lambda m: m.gather(0, idx.expand(shape).unsqueeze(0))).squeeze(0)
    out = check_out(out)
    return wrap(r) if out is None else copy_to_out(r, out, "unsafe", "choose")


@normalizer
def compress(condition: ArrayLike, a: ArrayLike, axis=None, out: OutArray = None):
    if condition.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(wrap(a), wrap(_nonzero(condition != 0).reshape(-1)), axis).tensor


def where(condition, x=None, y=None, /):
    """``numpy.where``: with one argument ``nonzero``; with three, ``x`` or ``y`` in their NEP 50 common dtype."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if type(condition) is ndarray and type(x) is ndarray and type(y) is ndarray:
        c, tx, ty = condition.tensor, x.tensor, y.tensor
        if c.dtype is torch.bool and tx.dtype is ty.dtype and tx.dtype in _dtypes.DIRECT:
            try:  # fast path: one dtype, a bool mask, torch's broadcasting is NumPy's
                return _an_array(_where_layout(torch.where(c, tx, ty), (c, tx, ty)))
            except RuntimeError:
                pass  # the general path raises NumPy's error
    x, y = traced_int(x, _dtypes.int64), traced_int(y, _dtypes.int64)
    tx, ty = as_tensor(x), as_tensor(y)
    td = _common_dtype((x, y), (tx, ty))
    c, tx, ty = as_tensor(condition), tx.to(td), ty.to(td)
    shape = broadcast_shape([tuple(c.shape), tuple(tx.shape), tuple(ty.shape)])
    c = c if c.dtype == torch.bool else c != 0
    r = _moved(tx, lambda m: torch.where(c, m, _dtypes.movable(ty))).expand(shape)
    return _an_array(_where_layout(r, (c, tx, ty)))


def _an_array(t):
    """``t`` as what ``where`` and ``select`` give, an array even where it is 0-d (``np.where(s > 0, s, 0)`` of a
    scalar ``s`` came back a scalar)."""
    return as_array0d(wrap(t))


def _where_layout(r, ops):
    """``where``'s result in NumPy's memory layout (its iterator's order='K' over the three operands; torch
    follows the first whose strides differ: ``where(f > 0, f, c)``, f F-ordered and c C-ordered, was F)."""
    if r.ndim < 2 or is_tracing() or r.is_contiguous() and all(o.is_contiguous() for o in ops):
        return r
    from ._ufuncs import _k_layout

    return _k_layout(r, ops, trivial=False)


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [as_tensor(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != torch.bool:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    ts = [as_tensor(c) for c in choicelist] + [as_tensor(default)]
    td = _common_dtype(list(choicelist) + [default], ts)
    d = _dtypes.from_torch(td)
    for t in ts[:-1]:  # NumPy copies each choice in with 'same_kind' (Python scalars as their default dtype)
        if not _np.can_cast(_dtypes.from_torch(t.dtype), d, "same_kind"):
            raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(t.dtype)!r} to {d!r} according to "
                            "the rule 'same_kind'")
    choices = [t.to(td) for t in ts[:-1]]
    r = ts[-1].to(td)
    shape = broadcast_shape([tuple(t.shape) for t in conds + choices + [r]])
    for c, v in zip(reversed(conds), reversed(choices)):
        r = _moved(v, lambda m: torch.where(c, m, _dtypes.movable(r)))
    return _an_array(r.expand(shape))


# ---------------------------------------------------------------- nonzero and masks


@normalizer
def nonzero(a: ArrayLike):
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.")
    return _nonzero(_truth(a), as_tuple=True)


def _common_dtype(values, tensors) -> torch.dtype:
    """The NEP 50 result dtype of ``values`` (converted to ``tensors``; Python scalars stay weak)."""
    return _dtypes.to_torch(_dtypes.result_type(*(v if type(v) in _WEAK_SCALARS else t
                                                  for v, t in zip(values, tensors))))


def _truth(t):
    return t if t.dtype == torch.bool else t != 0


@normalizer
def argwhere(a: ArrayLike):
    if a.ndim == 0:  # NumPy: as a 1-d array, then no columns
        return torch.nonzero(_truth(a).reshape(1))[:, :0]
    return _nonzero(_truth(a))


@normalizer
def flatnonzero(a: ArrayLike):
    return _nonzero(_truth(a).reshape(-1)).reshape(-1)


def extract(condition, arr):
    t, c = as_tensor(arr).reshape(-1), as_tensor(condition).reshape(-1)
    if c.shape == t.shape and t.dtype in _dtypes.DIRECT:
        return wrap(_masked(t, _truth(c)))
    return take(wrap(t), flatnonzero(c))


# Compiled for the CPU, mask indexing and nonzero compact the chosen elements themselves: Inductor's CPU code
# runs the mask and the stores as fused vector loops and calls only the running count (aten.cumsum); as calls,
# aten.index with a mask and aten.nonzero branch on every element (x[x > -1] of 4M float64: 34 -> 18 ms at one
# thread, np.nonzero 30 -> 18 ms).  Eagerly, torch's own ops are the fastest.


def _traced_cpu(t) -> bool:
    return type(t) is not torch.Tensor and t.is_cpu and is_tracing(t)  # (a plain tensor: eager, told quickly)


def _masked(t, m):
    """``t[m]`` for a mask ``m`` over ``t``'s leading dims."""
    if not _traced_cpu(t) or t.is_complex():
        return t[m]
    if m.ndim == t.ndim:
        return _compact(t.reshape(-1), m.reshape(-1))
    # rows: the chosen ones gathered (compacting would move every row)
    return t.reshape(m.numel(), *t.shape[m.ndim:])[_nonzero(m.reshape(-1)).reshape(-1)]


def _nonzero(m, as_tuple=False):
    """``torch.nonzero(m, as_tuple=as_tuple)`` for a mask ``m`` of at least one dim."""
    if not _traced_cpu(m):
        return torch.nonzero(m, as_tuple=as_tuple)
    flat = _compact(torch.arange(m.numel(), device=m.device), m.reshape(-1))
    coords = [flat // math.prod(m.shape[d + 1:]) % m.shape[d] for d in range(m.ndim - 1)] + [flat % m.shape[-1]] \
        if m.ndim > 1 else [flat]
    return tuple(coords) if as_tuple else torch.stack(coords, 1)


def _compact(v, m):
    """``v[m]`` for 1-D ``v`` and ``m``: the running count of ``m`` gives each chosen element its place (the
    count minus one); the others all go to one spare place after the k chosen ones, so the result owns (nearly) just its elements, as
    NumPy's does."""
    n = m.shape[0]
    counts = torch.cumsum(m.to(torch.int64), 0)
    k = _true_count(counts).shape[0]
    torch._check(k <= n)
    places = torch.where(m, counts - 1, k)  # all in [0, k]
    return torch.ops.aten._unsafe_index_put(v.new_empty(k + 1), [places], v)[:k]


@torch.library.custom_op("npcompile::true_count", mutates_args=())
def _true_count(counts: torch.Tensor) -> torch.Tensor:
    """An empty (k, 0) tensor for the last running count k: traced, its size is the data-dependent length."""
    return counts.new_empty((int(counts[-1]) if counts.numel() else 0, 0))


@_true_count.register_fake
def _(counts):
    return counts.new_empty((torch.library.get_ctx().new_dynamic_size(), 0))


def place(arr, mask, vals):
    """``numpy.place``: the positions where ``mask`` is true get ``vals``, repeated as needed."""
    _writable(arr, "place")
    m = as_tensor(mask)
    if m.numel() != arr.size:
        raise ValueError("place: mask and data must be the same size")
    m = _truth(m).reshape(-1)
    v = _safe_values(vals, arr.tensor.dtype).reshape(-1).to(arr.tensor.dtype)
    if v.numel() == 0:
        if bool(m.any()):
            raise ValueError("Cannot insert from an empty array!")
        return
    # the k-th true position gets v[k % len(v)]: k from a running count, no positions gathered (sizes stay fixed)
    t = arr.tensor
    k = (torch.cumsum(m, 0) - 1) % v.numel()
    t.copy_(_dtypes.where(m, v[k], t.reshape(-1)).view(t.shape))


def putmask(a, /, mask, values):
    """``numpy.putmask``: ``a.flat[i] = values.flat[i % values.size]`` where ``mask.flat[i]``."""
    if not isinstance(a, ndarray):
        raise TypeError("argument a of putmask must be a numpy array")
    m = as_tensor(mask)
    if m.numel() != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if not a._writeable:
        raise ValueError("putmask: output array is read-only")
    v = _safe_values(values, a.tensor.dtype)
    if v.numel():
        t = a.tensor
        full = _cycled(v.to(t.dtype), t.numel()).reshape(t.shape)
        t.copy_(_moved(t, lambda x: torch.where(_truth(m).reshape(t.shape), _dtypes.movable(full), x)))


def _safe_values(values, td) -> torch.Tensor:
    """Values for place/putmask: arrays must cast 'safe' to the target; Python values convert as assigned."""
    if not (type(values) in PY_SCALARS or isinstance(values, (list, tuple)) and _pure_python(values)):
        vd, d = _dtypes.from_torch(as_tensor(values).dtype), _dtypes.from_torch(td)
        if not _np.can_cast(vd, d):
            raise TypeError(f"Cannot cast array data from {vd!r} to {d!r} according to the rule 'safe'")
    return _value_tensor(values, td, False)


# ---------------------------------------------------------------- diagonals and triangles


def diagonal(a, offset=0, axis1=0, axis2=1):
    """``numpy.diagonal``: a read-only view, as NumPy returns."""
    src = a if isinstance(a, ndarray) else wrap(as_tensor(a))
    t = src.tensor
    if t.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    ax1, ax2 = normalize_axis_index(axis1, t.ndim), normalize_axis_index(axis2, t.ndim)
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    r = view_of(src, torch.diagonal(t, operator.index(offset), ax1, ax2))
    r._writeable = False
    return r


def fill_diagonal(a, val, wrap=False):
    """``numpy.fill_diagonal``: in place, ``val`` repeated as needed; ``wrap`` continues past a tall matrix's
    square part."""
    if not isinstance(a, ndarray):
        raise TypeError(f"fill_diagonal() argument 1 must be numpy.ndarray, not {type(a).__name__}")
    if not a._writeable:
        raise ValueError("underlying array is read-only")  # (NumPy writes through a.flat)
    shape = a.shape
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) == 2:
        step, end = shape[1] + 1, (a.size if wrap else shape[1] * shape[1])
    else:
        if len(set(shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step, end = sum(shape[0] ** k for k in range(len(shape))), a.size
    diagonal = slice(0, min(end, a.size), step)  # a strided view: no index array, nothing data-dependent
    n = len(range(diagonal.start, diagonal.stop, step))
    v = _value_tensor(val, a.tensor.dtype, False)
    if v.numel() and n:
        _write_flat(a, diagonal, _cycled(v, n))


def _tri(n, k, m, upper):
    if any(isinstance(v, (float, _np.floating)) or isinstance(v, ndarray) and v.dtype.kind == "f"
           for v in (n, k, m)):  # NumPy's tri mask of float sizes or k
        from ._creation import _diagonal_offset, _tri_mask
        k = _diagonal_offset(k)
        mask = _tri_mask(n, m, k - 1, None) if upper else _tri_mask(n, m, k, None)
        t = (~mask if upper else mask).nonzero()
        return wrap(t[:, 0]), wrap(t[:, 1])
    n, k = operator.index(n), operator.index(k)
    m = n if m is None else operator.index(m)
    n, m = max(n, 0), max(m, 0)
    t = torch.triu_indices(n, m, k) if upper else torch.tril_indices(n, m, k)
    return wrap(t[0]), wrap(t[1])


def tril_indices(n, k=0, m=None):
    return _tri(n, k, m, False)


def triu_indices(n, k=0, m=None):
    return _tri(n, k, m, True)


def _square_2d(arr):
    shape = tuple(as_tensor(arr).shape)
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return shape


def tril_indices_from(arr, k=0):
    n, m = _square_2d(arr)
    return _tri(n, k, m, False)


def triu_indices_from(arr, k=0):
    n, m = _square_2d(arr)
    return _tri(n, k, m, True)


def diag_indices(n, ndim=2):
    i = wrap(torch.arange(operator.index(n)))
    return (i,) * ndim


def diag_indices_from(arr):
    shape = tuple(as_tensor(arr).shape)
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))


def mask_indices(n, mask_func, k=0):
    """The indices where ``mask_func(ones((n, n)), k)`` is nonzero (e.g. ``mask_func=triu``)."""
    m = mask_func(wrap(torch.ones((n, n), dtype=torch.int64)), k)
    return nonzero(m)


# ---------------------------------------------------------------- flat and multi-dimensional indices


def _shape_tuple(shape):
    return tuple(operator.index(s) for s in shape) if isinstance(shape, (tuple, list)) else (
        operator.index(shape),)


def _check_order(order):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")


def unravel_index(indices, shape, order="C"):
    """``numpy.unravel_index``: the coordinate arrays of flat ``indices`` in an array of ``shape``."""
    _check_order(order)
    idx = _index_tensor(indices)
    dims = _shape_tuple(shape)
    size = math.prod(dims)
    if idx.numel() and _eager(idx):  # data-dependent check: eager only
        bad = (idx < 0) | (idx >= size)
        if bool(bad.any()):
            raise ValueError(f"index {_item(idx[bad][0])} is out of bounds for array with size {size}")
    coords = []
    for d in (reversed(dims) if order == "C" else dims):
        coords.append(idx.remainder(d) if d else idx)
        idx = idx.div(d, rounding_mode="floor") if d else idx
    return tuple(wrap(c) for c in (reversed(coords) if order == "C" else coords))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """``numpy.ravel_multi_index``: flat indices of coordinate arrays; ``mode`` may differ per dimension."""
    _check_order(order)
    dims = _shape_tuple(dims)
    coords = [_index_tensor(c, "same_kind") for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    if 0 in dims:
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    coords = [_apply_mode(c, d, m, error=ValueError("invalid entry in coordinates array"))
              for c, d, m in zip(coords, dims, modes)]
    shape = broadcast_shape([tuple(c.shape) for c in coords])
    r, stride = torch.zeros(shape, dtype=torch.int64), 1
    for c, d in (zip(reversed(coords), reversed(dims)) if order == "C" else zip(coords, dims)):
        r, stride = r + c * stride, stride * d
    return wrap(r)


def ix_(*args):
    """``numpy.ix_``: 1-D sequences reshaped to index an open mesh (booleans become their nonzero positions)."""
    out = []
    for k, x in enumerate(args):
        t = as_tensor(x)
        if t.numel() == 0 and not isinstance(x, (ndarray, _np.ndarray, torch.Tensor)):
            t = t.to(torch.int64)
        if t.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if t.dtype == torch.bool:
            t = torch.nonzero(t).reshape(-1)
        out.append(wrap(t.reshape((1,) * k + (-1,) + (1,) * (len(args) - k - 1))))
    return tuple(out)


class ndindex:
    """``numpy.ndindex``: the index tuples of an array of the given shape, in C order."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        self._it = itertools.product(*(range(operator.index(s)) for s in shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class ndenumerate:
    """``numpy.ndenumerate``: ``(index, a[index])`` pairs in C order (elements as 0-D arrays)."""

    def __init__(self, arr):
        self._a = arr if isinstance(arr, ndarray) else wrap(as_tensor(arr))
        self._it = ndindex(self._a.shape)

    def __iter__(self):
        return self

    def __next__(self):
        i = next(self._it)
        return i, self._a[i]


def nditer(op, *args, **kwargs):
    """NumPy's own iterator (buffering, operand flags, multi-index, ``with`` blocks), over NumPy's views of our
    arrays' memory: reads see them and ``readwrite``/``writeonly`` operands write into them.  Its operands and
    items are NumPy arrays.  CPU arrays only (elsewhere there is no memory NumPy can view), and not traced."""
    return _np.nditer(_host_views(op, "nditer"), *args, **kwargs)


def nested_iters(op, axes, *args, **kwargs):
    """NumPy's ``nested_iters`` over NumPy's views of our arrays' memory, as ``nditer``."""
    return _np.nested_iters(_host_views(op, "nested_iters"), axes, *args, **kwargs)


def _host_views(op, name):
    """``op`` (an array-like or a sequence of them, None for operands NumPy allocates) with our arrays as NumPy
    arrays on the same memory."""
    if isinstance(op, (list, tuple)):
        return type(op)(_host_views(o, name) for o in op)
    if not isinstance(op, ndarray):
        return op
    if is_tracing(op.tensor):
        raise UnsupportedFeature(f"numpy.{name} in traced code")
    if op.tensor.device.type != "cpu":
        raise UnsupportedFeature(f"numpy.{name} of an array off the CPU")
    return _np.asarray(op)


def iterable(y):
    if isinstance(y, ndarray):
        return y.ndim > 0
    try:
        iter(y)
    except TypeError:
        return False
    return True


# ---------------------------------------------------------------- memory overlap


def may_share_memory(a, b, /, max_work=0):
    """Whether ``a`` and ``b`` use overlapping memory bounds (``max_work=-1``: whether they share an element)."""
    if max_work == -1:
        return shares_memory(a, b)
    ta, tb = _memory_of(a), _memory_of(b)
    return ta is not None and tb is not None and _same_storage(ta, tb) and _overlap(_bounds(ta), _bounds(tb))


def shares_memory(a, b, /, max_work=-1):
    """Whether ``a`` and ``b`` share a byte: bounds first, then the exact sets of bytes they address."""
    if max_work not in (-1, 0):
        raise UnsupportedFeature("shares_memory(max_work=...) other than -1 or 0")
    if max_work == 0:
        return may_share_memory(a, b)
    ta, tb = _memory_of(a), _memory_of(b)
    if ta is None or tb is None or not _same_storage(ta, tb) or not _overlap(_bounds(ta), _bounds(tb)):
        return False
    return bool(torch.isin(_bytes(ta), _bytes(tb)).any())


def _memory_of(x):
    if isinstance(x, ndarray):
        return x.tensor
    return x if isinstance(x, torch.Tensor) else None  # anything else converts to new memory


def _bounds(t):
    """The byte range ``[lo, hi)`` that ``t`` addresses within its storage."""
    if t.numel() == 0:
        return 0, 0
    isz = t.element_size()
    lo = hi = t.storage_offset() * isz
    for n, s in zip(t.shape, t.stride()):
        (lo, hi) = (lo + (n - 1) * s * isz, hi) if s < 0 else (lo, hi + (n - 1) * s * isz)
    return lo, hi + isz


def _overlap(r1, r2):
    return r1[0] < r2[1] and r2[0] < r1[1]


def _bytes(t):
    """Every byte offset that ``t`` addresses in its storage."""
    if t.numel() > 2**22:
        raise UnsupportedFeature("exact shares_memory on large arrays")
    isz = t.element_size()
    off = torch.full((), t.storage_offset() * isz, dtype=torch.int64)
    for n, s in zip(t.shape, t.stride()):
        off = off.unsqueeze(-1) + torch.arange(n) * (s * isz)
    return (off.reshape(-1, 1) + torch.arange(isz)).reshape(-1)


# ---------------------------------------------------------------- index tricks: mgrid, ogrid, r_, c_, s_


def _slice_values(s: slice):
    """The 1-D grid that NumPy's index tricks make of a slice: ``start + i*step``, or with a complex step
    ``n = |step|`` points from start to stop inclusive; float64 unless every part is an integer."""
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if isinstance(step, complex) or isinstance(step, ndarray) and step.dtype.kind == "c":
        n = int(abs(complex(step)))
        delta = (s.stop - start) / (n - 1) if n > 1 else 0.0
        return torch.arange(n, dtype=torch.float64) * delta + start
    n = max(math.ceil((s.stop - start) / step), 0)
    if all(isinstance(x, (int, _np.integer, torch.SymInt)) or isinstance(x, ndarray) and x.dtype.kind in "iub"
           for x in (start, s.stop, step)):
        return torch.arange(n, dtype=torch.int64) * int(step) + int(start)
    return torch.arange(n, dtype=torch.float64) * float(step) + float(start)


class _Grid:
    def __init__(self, sparse):
        self._sparse = sparse

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            return wrap(_slice_values(key))
        axes = [_slice_values(s) for s in key]
        if any(x.is_floating_point() for x in axes):
            axes = [x.to(torch.float64) for x in axes]
        n = len(axes)
        grids = [x.reshape((1,) * k + (-1,) + (1,) * (n - k - 1)) for k, x in enumerate(axes)]
        if self._sparse:
            return tuple(wrap(g) for g in grids)
        shape = tuple(x.numel() for x in axes)
        return wrap(torch.stack([g.expand(shape) for g in grids]) if grids else torch.empty(0))


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class _Concatenator:
    """``r_``/``c_``: concatenate slices (as grids), scalars and arrays along an axis; a leading string
    ``'axis[,ndmin[,trans1d]]'`` sets where 1-D pieces go.  Python scalars are weak in the dtype (NEP 50)."""

    def __init__(self, axis, ndmin, trans1d):
        self._defaults = (axis, ndmin, trans1d)

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self._defaults
        pieces, raw = [], []
        for k, item in enumerate(items):
            if isinstance(item, str):
                if k:
                    raise ValueError("special directives must be the first entry.")
                axis, ndmin, trans1d = _directive(item, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                t = _at_least(_slice_values(item), ndmin)
                if trans1d != -1 and ndmin > 1:
                    t = t.transpose(-1, trans1d)
                raw.append(wrap(t))
            elif type(item) in PY_SCALARS:
                t = _at_least(as_tensor(item), ndmin)
                raw.append(item)
            else:
                t = as_tensor(item)
                t = _lifted(t, ndmin, trans1d) if t.ndim < ndmin else t
                raw.append(wrap(t))
            pieces.append((t, item))
        if not pieces:
            raise ValueError("need at least one array to concatenate")
        d = _dtypes.result_type(*raw)
        td = _dtypes.to_torch(d)
        ts = [torch.full_like(t, python_value(item, d), dtype=td) if type(item) in PY_SCALARS else t.to(td)
              for t, item in pieces]
        return wrap(torch.cat([_dtypes.movable(t) for t in ts], normalize_axis_index(axis, ts[0].ndim)).view(td))

    def __len__(self):
        return 0


def _directive(s, ndmin, trans1d):
    if s in ("r", "c"):
        raise UnsupportedFeature("r_/c_ matrix directives ('r', 'c')")
    try:
        vec = [int(x) for x in s.split(",")]
    except ValueError:
        raise ValueError("unknown special directive") from None
    if not 1 <= len(vec) <= 3:
        raise ValueError("unknown special directive")
    return vec[0], (vec[1] if len(vec) > 1 else ndmin), (vec[2] if len(vec) > 2 else trans1d)


def _at_least(t, ndmin):
    return t.reshape((1,) * (ndmin - t.ndim) + tuple(t.shape)) if t.ndim < ndmin else t


def _lifted(t, ndmin, trans1d):
    """A piece of fewer than ``ndmin`` dims: padded with leading 1s, its own dims moved to ``trans1d``."""
    k2 = ndmin - t.ndim
    t = _at_least(t, ndmin)
    if trans1d == -1:
        return t
    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
    axes = list(range(ndmin))
    return t.permute(axes[:k1] + axes[k2:] + axes[k1:k2])


r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)


class _IndexExpression:
    def __init__(self, maketuple):
        self._maketuple = maketuple

    def __getitem__(self, item):
        return (item,) if self._maketuple and not isinstance(item, tuple) else item


index_exp = _IndexExpression(maketuple=True)
s_ = _IndexExpression(maketuple=False)
