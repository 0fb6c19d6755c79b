"""Sorting and searching: sort, argsort, lexsort, partition, searchsorted, argmax/argmin and their nan forms.

One ordering throughout, NumPy's: NaNs last (all NaNs equal), ``-0.0 == 0.0``, complex numbers by real part then
imaginary part, those with NaNs last in the classes ``R+nanj``, ``nan+Rj``, ``nan+nanj``.

On the CPU, ``sort``, ``argsort`` and the sorts of medians and quantiles run NumPy's own sort kernels (a
``npcompile::numpy_sort`` op when traced), with the ``kind`` asked for, and so give NumPy's very answer: torch's
CPU sort took ten times as long (1M float64: 90-104 ms against NumPy's 5.2; 1000x1000 along rows 26 ms against
2.5).  Elsewhere (other devices, arrays that need a gradient, dtypes NumPy lacks) sorts are torch's stable ones, a
valid answer for every ``kind``.  Partitions are full sorts, which satisfy the partition property.
"""

from __future__ import annotations

import builtins
import operator

import numpy as _np
import torch

from . import _dtypes, _library
from ._indexing import _eager, _moved, _to_out
from ._ndarray import ndarray, wrap
from ._normalize import as_tensor, normalize_axis_index
from ._trace import check, is_tracing

__all__ = ["sort", "argsort", "lexsort", "partition", "argpartition", "searchsorted", "sort_complex", "argmax",
           "argmin", "nanargmax", "nanargmin"]

_SIGN = {torch.int16: -(2**15), torch.int32: -(2**31), torch.int64: -(2**63)}
_FLOAT_BITS = {torch.float16: torch.int16, torch.float32: torch.int32, torch.float64: torch.int64}


# ---------------------------------------------------------------- order keys


def _sortable(t: torch.Tensor) -> torch.Tensor:
    """``t`` in a dtype whose torch ordering is NumPy's (bool and the wide unsigned types have no kernels)."""
    if t.dtype == torch.bool:
        return t.to(torch.uint8)
    if t.dtype == torch.uint64:
        return t.view(torch.int64) ^ _SIGN[torch.int64]  # order-preserving: flip the sign bit
    return t.to(_dtypes.compute_dtype(t.dtype))


def _int_key(t: torch.Tensor) -> torch.Tensor:
    """Integers ordered as NumPy orders ``t``, for comparisons torch does not make NaN-aware (searchsorted): a
    float's bits, made monotonic, with every NaN one value above +inf and ``-0.0`` equal to ``0.0``."""
    if not t.is_floating_point():
        return _sortable(t)
    t = torch.where(torch.isnan(t), torch.full_like(t, float("nan")).abs(), t + 0.0)
    i = t.view(_FLOAT_BITS[t.dtype])
    bits = i.element_size() * 8
    return i ^ ((i >> (bits - 1)) & ~_SIGN[i.dtype])


# ---------------------------------------------------------------- NumPy's own sort kernels


def sorted_along(t: torch.Tensor, dim: int, kind=None, indices=False) -> torch.Tensor | None:
    """NumPy's sort (or argsort, with ``indices``) of ``t`` along ``dim`` by the ``kind`` given (None: NumPy's
    default), run by NumPy on a CPU array; None where that does not apply (another device, a dtype NumPy lacks, an
    array needing a gradient)."""
    return _numpy_sort(t, dim, kind or "quicksort", indices) if _library.numpy_kernel_applies(t) else None


_numpy_sort = _library.numpy_op(
    "numpy_sort(Tensor x, int dim, str kind, bool indices) -> Tensor",
    lambda x, dim, kind, indices: _library.from_numpy((_np.argsort if indices else _np.sort)(
        _library.as_numpy(x), axis=dim, kind=kind)),
    lambda x, dim, kind, indices: x.new_empty(x.shape, dtype=torch.int64 if indices else x.dtype))


def _argsort(t: torch.Tensor, dim: int) -> torch.Tensor:
    """Stable argsort along ``dim`` in NumPy's order.  Complex numbers sort by three stable passes: imaginary
    part, real part, then NaN class (none, in the imaginary part, in the real part, in both)."""
    if not t.is_complex():
        return torch.argsort(t, dim=dim, stable=True)
    re, im = t.real, t.imag
    cls = torch.isnan(re).to(torch.uint8) * 2 + torch.isnan(im).to(torch.uint8)
    order = torch.argsort(im, dim=dim, stable=True)
    for key in (re, cls):
        order = order.gather(dim, torch.argsort(key.gather(dim, order), dim=dim, stable=True))
    return order


def _axis_and_tensor(a, axis, lift=False):
    """The array (flattened for ``axis=None``; a 0-d one as 1-d when ``lift``, as NumPy's arg-sorts do) and
    the normalized axis."""
    t = as_tensor(a)
    if axis is None or lift and t.ndim == 0:
        return t.reshape(-1), 0
    return t, normalize_axis_index(axis, t.ndim)


def _check_kind(kind, order, stable):
    """NumPy's checks of a sort's ``kind``, ``order`` and ``stable``; the kind they ask for (None: the default)."""
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if kind is not None:
        if stable is not None:
            raise ValueError("`kind` and keyword parameters can't be provided at the same time. Use only one of "
                             "them.")
        if not isinstance(kind, str) or kind[:1].lower() not in ("q", "m", "h", "s"):
            raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    return kind or ("stable" if stable else None)


# ---------------------------------------------------------------- sort and friends


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """``numpy.sort``: NumPy's own on the CPU (``sorted_along``), else stable."""
    kind = _check_kind(kind, order, stable)
    t, axis = _axis_and_tensor(a, axis)
    r = sorted_along(t, axis, kind)
    if r is not None:
        return wrap(r)
    if t.is_complex():
        return wrap(t.gather(axis, _argsort(t, axis)))
    return wrap(torch.sort(t, dim=axis, stable=True).values)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """``numpy.argsort``: NumPy's own on the CPU (``sorted_along``), else stable (ties keep their order, one of
    the answers every kind may give)."""
    kind = _check_kind(kind, order, stable)
    t, axis = _axis_and_tensor(a, axis, lift=True)
    r = sorted_along(t, axis, kind, indices=True)
    return wrap(r if r is not None else _argsort(t, axis))


def lexsort(keys, axis=-1):
    """``numpy.lexsort``: indices sorting by the last key, ties broken by the one before, and so on."""
    ks = [as_tensor(k) for k in (keys if isinstance(keys, (list, tuple)) else wrap(as_tensor(keys)))]
    if not ks:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(k.shape != ks[0].shape for k in ks):
        raise ValueError("all keys need to be the same shape")
    if ks[0].ndim == 0:
        return wrap(torch.zeros((), dtype=torch.int64))
    axis = normalize_axis_index(operator.index(axis), ks[0].ndim)
    order = None
    for k in ks:
        if order is None:
            order = _argsort(k, axis)
        else:
            order = order.gather(axis, _argsort(_moved(k, lambda m: m.gather(axis, order)), axis))
    return wrap(order)


def _check_kth(kth, t, axis, kind):
    """NumPy's checks of ``kth`` (bounds only for a non-empty array: NumPy checks per partitioned row)."""
    n = t.shape[axis] if t.numel() else builtins.float("inf")
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    k = as_tensor(kth)
    if k.dtype == torch.bool:
        raise ValueError("Booleans unacceptable as partition index")
    if k.is_floating_point() or k.is_complex():
        raise TypeError("Partition index must be integer")
    for v in k.reshape(-1).tolist():  # kth is a small parameter (data-dependent only if given as an array)
        if not -n <= v < n:
            raise ValueError(f"kth(={v}) out of bounds ({n})")


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """``numpy.partition``, as a full sort (which has the partition property for every ``kth``)."""
    t, ax = _axis_and_tensor(a, axis)
    _check_kth(kth, t, ax, kind)
    return sort(wrap(t), ax, order=order)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """``numpy.argpartition``, as a full stable argsort."""
    t, ax = _axis_and_tensor(a, axis, lift=True)
    _check_kth(kth, t, ax, kind)
    return argsort(wrap(t), ax, order=order)


def sort_complex(a):
    """``numpy.sort_complex``: sorted along the last axis, as complex64 for small integers, else complex128."""
    t = as_tensor(a)
    if not t.is_complex():
        small = t.dtype in (torch.int8, torch.uint8, torch.int16, torch.uint16)
        t = t.to(torch.complex64 if small else torch.complex128)
    return sort(wrap(t))


# ---------------------------------------------------------------- searching


def search(boundaries, values, right=False):
    """``torch.searchsorted`` on contiguous operands: torch copies strided ones itself, but with a UserWarning
    that NumPy code never sees."""
    return torch.searchsorted(boundaries.contiguous(), values.contiguous(), right=right)


def searchsorted(a, v, side="left", sorter=None):
    """``numpy.searchsorted``: compared in a dtype holding both (Python scalars at their default dtype)."""
    ta, tv = as_tensor(a), as_tensor(v)
    if ta.ndim != 1:
        raise ValueError("object too deep for desired array" if ta.ndim > 1 else
                         "object of too small depth for desired array")
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    if sorter is not None:
        s = as_tensor(sorter)
        if s.is_floating_point() or s.is_complex() or s.dtype == torch.bool:
            raise TypeError("sorter must only contain integers")
        if s.shape != ta.shape:
            raise ValueError("sorter.size must equal a.size")
        try:
            ta = ta[s.to(torch.int64)]
        except IndexError:  # (eager: torch checks the indices; NumPy checks those its search reads)
            raise ValueError("Sorter index out of range.") from None
    td = _dtypes.to_torch(_dtypes.promote_types(_dtypes.from_torch(ta.dtype), _dtypes.from_torch(tv.dtype)))
    ta, tv = ta.to(td), tv.to(td)
    ka, kv = _complex_ranks(ta, tv) if td.is_complex else (_int_key(ta), _int_key(tv))
    return wrap(search(ka, kv.reshape(-1), right=side == "right").reshape(tv.shape))


def _complex_ranks(a, v):
    """Integers ordered as NumPy orders the complex values of ``a`` and ``v`` together (their dense ranks in one
    sort: equal numbers, NaN classes included, share a rank), for torch's searchsorted, which orders no complex."""
    u = torch.cat([a.reshape(-1), v.reshape(-1)])
    order = _argsort(u, 0)
    s = u[order]
    keys = torch.stack([_int_key(s.real), _int_key(s.imag)])  # (NaNs equal, -0.0 == 0.0)
    new = torch.cat([keys.new_ones(min(u.numel(), 1), dtype=torch.bool), (keys[:, 1:] != keys[:, :-1]).any(0)])
    ranks = torch.empty_like(order).scatter_(0, order, torch.cumsum(new, 0))
    return ranks[:a.numel()], ranks[a.numel():]


def _arg(t: torch.Tensor, axis, keepdims, largest: bool, name: str):
    """Index of the first largest (smallest) element, NaN counting as both; complex by real then imaginary."""
    if axis is None:
        _nonempty(t.numel(), name)
        r = _arg_along(t.reshape(-1), 0, largest)
        return r.reshape((1,) * t.ndim) if keepdims else r
    if t.ndim == 0:  # NumPy: as a 1-d array, and a 0-d result even with keepdims
        normalize_axis_index(axis, 1)
        return _arg(t, None, False, largest, name)
    axis = normalize_axis_index(axis, t.ndim)
    _nonempty(t.shape[axis], name)
    r = _arg_along(t, axis, largest)
    return r.unsqueeze(axis) if keepdims else r


def _nonempty(n, name):
    """NumPy's ValueError for an arg of nothing: now, or for a count read from the data (``np.unique``'s) when
    the compiled code runs."""
    if type(n) is not int:
        check(n > 0, ValueError, f"attempt to get {name} of an empty sequence")
    elif not n:
        raise ValueError(f"attempt to get {name} of an empty sequence")


# Traced, argmax/argmin of 8-bit values is taken on int16: Inductor's vectorized CPU code for them (torch 2.11 to
# 2.13) compares value lanes it never loaded, whose index lanes do not exist, and returns a wrong or negative index.
_ARG_WIDEN = (torch.int8, torch.uint8)


def _arg_key(t: torch.Tensor) -> torch.Tensor:
    s = _sortable(t)
    return s.to(torch.int16) if s.dtype in _ARG_WIDEN and is_tracing(s) else s


def first_true(m: torch.Tensor, dim: int, keepdim: bool = False) -> torch.Tensor:
    """Index of the first True of the bool tensor ``m`` along ``dim`` (0 where there is none)."""
    return torch.argmax(_arg_key(m), dim, keepdim=keepdim)


def _arg_along(t, dim, largest):
    if not t.is_complex():
        s = _arg_key(t)
        return torch.argmax(s, dim) if largest else torch.argmin(s, dim)
    re, im = (t.real, t.imag) if largest else (-t.real, -t.imag)
    nan = torch.isnan(re) | torch.isnan(im)
    inf = torch.full_like(re, -float("inf"))
    key = torch.where(nan, inf, re)
    best = key == key.amax(dim, keepdim=True)
    key2 = torch.where(best & ~nan, im, inf)
    pick = best & (key2 == key2.amax(dim, keepdim=True))
    return torch.where(nan.any(dim), first_true(nan, dim), first_true(pick, dim))


# dtypes whose flat argmax/argmin is torch's own call on the array as it is (see _arg_along and _sortable)
_ARG_DIRECT = _dtypes.DIRECT - {torch.bool, torch.complex64, torch.complex128}


def _arg_function(name, largest, skip_nan):
    pick = torch.argmax if largest else torch.argmin

    def f(a, axis=None, out=None, *, keepdims=_np._NoValue):
        if axis is None and out is None and keepdims is _np._NoValue and not skip_nan and type(a) is ndarray:
            t = a.tensor
            if t.dtype in _ARG_DIRECT and not (t.dtype in _ARG_WIDEN and is_tracing(t)):
                _nonempty(t.numel(), name)
                return wrap(pick(t))  # the common case: what _arg computes, without its conversions
        t = as_tensor(a)
        if axis is not None:
            normalize_axis_index(axis, max(t.ndim, 1))
        if skip_nan and (t.is_floating_point() or t.is_complex()):
            t = _without_nan(t, axis, largest)
        r = _arg(t, axis, keepdims is True, largest, name.replace("nan", ""))
        if out is not None and tuple(out.shape) != tuple(r.shape):
            raise ValueError(f"output array does not match result of np.{name}.")
        return _to_out(r, out, torch.int64)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``numpy.{name}``: " + ("NaNs skipped (ValueError for an all-NaN slice)" if skip_nan else
                                           "the first NaN wins, as in NumPy"))
    return f


def _without_nan(t, axis, largest):
    """``t`` with NaNs replaced by the value never chosen; an all-NaN slice is NumPy's ValueError."""
    nan = torch.isnan(t)
    if _eager(t) and t.numel() and bool((nan.all() if axis is None else nan.all(axis)).any()):  # data-dependent
        raise ValueError("All-NaN slice encountered")
    return torch.where(nan, torch.full_like(t, -float("inf") if largest else float("inf")), t)


argmax = _arg_function("argmax", True, False)
argmin = _arg_function("argmin", False, False)
nanargmax = _arg_function("nanargmax", True, True)
nanargmin = _arg_function("nanargmin", False, True)
