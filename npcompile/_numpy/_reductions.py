"""Reductions: sum, prod, min/max, all/any, the mean/var/std family, cumulative sums, average and the nan*
variants.

They are ufunc reductions (``sum`` is ``add.reduce``), so they share ``_ufunc_methods``' single engine for axis,
keepdims, where=, initial=, out= and NumPy's accumulator dtypes.  The statistical moments add NumPy's rules on
top: integer input averages in float64, float16 accumulates in float32 and returns float16.
"""

from __future__ import annotations

import builtins
import math
import warnings

import numpy as _np
import torch

from . import _dtypes
from . import _ufuncs as U
from ._ndarray import ndarray, wrap
from ._normalize import as_tensor, check_out, normalize_axis_index
from ._ufunc_methods import (
    _NoValue, _reduce_dtype, _tracing, accumulate_tensor, finish, plain_dims, reduce, reduce_loop, reduce_tensor,
    reduction_axes, running_sum, to_out, where_mask,
)
from ._trace import guard_or_false

_F8 = _np.dtype(_np.float64)

__all__ = [
    "sum", "prod", "amax", "amin", "max", "min", "all", "any", "ptp", "mean", "var", "std", "cumsum", "cumprod",
    "cumulative_sum", "cumulative_prod", "count_nonzero", "average", "nansum", "nanprod", "nanmin", "nanmax",
    "nanmean", "nanvar", "nanstd", "nancumsum", "nancumprod",
]

def _kd(keepdims):
    return keepdims is not _NoValue and bool(keepdims)


# ---------------------------------------------------------------- ufunc reductions


def sum(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    """``add.reduce``: small integers and bools accumulate in int64 (uint64 for unsigned), as NumPy."""
    return reduce(U.add, a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return reduce(U.multiply, a, axis, dtype, out, keepdims, initial, where)


def amax(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return reduce(U.maximum, a, axis, None, out, keepdims, initial, where)


def amin(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return reduce(U.minimum, a, axis, None, out, keepdims, initial, where)


max = amax  # noqa: A001  (NumPy 2 exports both names for one function)
min = amin  # noqa: A001


def all(a, axis=None, out=None, keepdims=_NoValue, *, where=_NoValue):  # noqa: A001
    """``logical_and.reduce``: a bool result for any input dtype (NumPy 2)."""
    return reduce(U.logical_and, a, axis, None, out, keepdims, _NoValue, where)


def any(a, axis=None, out=None, keepdims=_NoValue, *, where=_NoValue):  # noqa: A001
    return reduce(U.logical_or, a, axis, None, out, keepdims, _NoValue, where)


def ptp(a, axis=None, out=None, keepdims=_NoValue):
    """max - min in the input dtype (integers wrap, bools raise, as NumPy's subtract)."""
    a = wrap(as_tensor(a))
    return U.subtract(amax(a, axis, None, keepdims), amin(a, axis, None, keepdims), out=out)


def count_nonzero(a, axis=None, *, keepdims=False):
    t = as_tensor(a)
    axes = reduction_axes(axis, t.ndim)
    r = torch.sum(t != 0, axes, keepdim=True, dtype=torch.int64) if axes else (t != 0).to(torch.int64)
    return finish(r, axes, keepdims, None, "add")


# ---------------------------------------------------------------- cumulative


# torch's scans that are NumPy's accumulate loop exactly (sequential, wrapping) on these input dtypes, with NumPy's
# result dtype (small signed ints and bools accumulate in int64, as torch promotes them); float32/complex scans
# accumulate in double in torch, so they take the general path.
_PLAIN_SCANS = {"add": running_sum, "multiply": torch.cumprod}
_PLAIN_SCAN_TYPES = frozenset({torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.float64})


def _cumulative(uf, a, axis, dtype, out):
    if type(a) is ndarray and dtype is None and out is None and a.tensor.dtype in _PLAIN_SCAN_TYPES:
        t = a.tensor
        if axis is None:  # the common call: one torch scan
            return wrap(_PLAIN_SCANS[uf.__name__](t if t.ndim == 1 else t.reshape(-1), 0))
        if type(axis) is int and -t.ndim <= axis < t.ndim:
            scan = _PLAIN_SCANS[uf.__name__]
            if t.ndim < 2 or t.is_contiguous() or _tracing(t):
                return wrap(scan(t, axis))
            # NumPy's result follows t's layout (an F-ordered t: F-ordered): scan t's axes in that order
            order = U.k_axes(tuple(t.shape), (t,), trivial=False)
            inverse = sorted(range(t.ndim), key=order.__getitem__)
            r = scan(t.permute(order), order.index(axis % t.ndim)).permute(inverse)
            return wrap(U._k_layout(r, (t,), trivial=False))
    t = as_tensor(a)
    if axis is None:
        t, axis = t.reshape(-1), 0
    elif t.ndim == 0:
        t = t.reshape(1)
    ax = normalize_axis_index(axis, t.ndim)
    r = accumulate_tensor(uf, t, ax, reduce_loop(uf, _dtypes.from_torch(t.dtype), dtype, "accumulate"))
    return wrap(U._k_layout(r, (t,), trivial=False)) if out is None else to_out(r, check_out(out), uf.__name__)


def cumsum(a, axis=None, dtype=None, out=None):
    """``add.accumulate``, over the flattened array when ``axis`` is None."""
    return _cumulative(U.add, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return _cumulative(U.multiply, a, axis, dtype, out)


def _array_api_cumulative(uf, x, axis, dtype, out, include_initial):
    t = as_tensor(x)
    if axis is None:
        if t.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        t, axis = t.reshape(-1), 0
    r = _cumulative(uf, wrap(t), axis, dtype, None).tensor
    if include_initial:
        ax = normalize_axis_index(axis, r.ndim)
        shape = list(r.shape)
        shape[ax] = 1
        r = torch.cat([torch.full(shape, uf.identity, dtype=r.dtype, device=r.device), r], ax)
    return wrap(r) if out is None else to_out(r, check_out(out), uf.__name__)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The array-API cumsum: ``axis`` is required beyond 1-D; ``include_initial`` prepends the 0."""
    return _array_api_cumulative(U.add, x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _array_api_cumulative(U.multiply, x, axis, dtype, out, include_initial)


# ---------------------------------------------------------------- moments


def _mean_dtypes(in_dtype, dtype, var=False):
    """(accumulator, result) dtypes of NumPy's mean/var: integers in float64; float16 means go through float32
    (variances stay float16, as NumPy's)."""
    if dtype is not None:
        d = _dtypes.to_dtype(dtype)
        return d, d
    if in_dtype.kind in "biu":
        return _F8, _F8
    if in_dtype == _np.float16 and not var:
        return _np.dtype(_np.float32), in_dtype
    return in_dtype, in_dtype


def _count(t, axes, mask):
    """Elements per reduced slice (a tensor when ``where=`` makes it vary)."""
    if mask is None:
        return math.prod(t.shape[d] for d in axes)
    return torch.sum(mask, axes, keepdim=True, dtype=torch.int64) if axes else mask.to(torch.int64)


def _sum_in(t, axes, acc, mask):
    return reduce_tensor(U.add, t, axes, reduce_loop(U.add, _dtypes.from_torch(t.dtype), acc), mask)


def _true_divide(s, n):
    """``s / n`` as NumPy's true_divide: an integer sum divides in float64 (torch's would be float32)."""
    if not (s.is_floating_point() or s.is_complex()):
        s = s.to(torch.float64)
    return s / n


def _divide(s, n, acc):
    """Sum over count, cast back to the accumulator (NumPy divides with an unsafe cast).  An integer sum (a
    ``dtype=`` int) divides in float64, as NumPy's true_divide of integers (torch's would be float32)."""
    q = _true_divide(s, n)
    return q if q.dtype == _dtypes.to_torch(acc) else q.to(_dtypes.to_torch(acc))


def _mean_tensor(t, axes, mask, acc):
    n = _count(t, axes, mask)
    if isinstance(n, int) and n == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=4)
    return _divide(_sum_in(t, axes, acc, mask), n, acc)


def mean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    """Arithmetic mean; integers and bools give float64, float16 accumulates in float32."""
    if type(a) is ndarray and dtype is None and out is None and where is _NoValue:
        t = a.tensor
        acc = _MEAN_PLAIN.get(t.dtype)
        dims = plain_dims(t, axis, keepdims) if acc is not None else None
        if dims is not None:  # fast path: one torch mean
            return wrap(torch.mean(t if t.dtype == acc else t.to(acc), dims, keepdim=keepdims is True))
    t = as_tensor(a)
    axes = reduction_axes(axis, t.ndim, ufunc_like=False)
    mask = where_mask(where, t.shape)
    if out is not None:
        return _mean_into(t, axes, mask, dtype, check_out(out), _kd(keepdims))
    acc, res = _mean_dtypes(_dtypes.from_torch(t.dtype), dtype)
    r = _mean_tensor(t, axes, mask, acc)
    return finish(r.to(_dtypes.to_torch(res)), axes, _kd(keepdims), out, "add")


def _mean_into(t, axes, mask, dtype, out, keepdims):
    """``mean`` into ``out`` in NumPy's two steps: the sum written into ``out``, then ``out`` divided by the count
    in out's own dtype.  The sum runs in mean's accumulator (``_mean_dtypes``), except that a sum in the data's own
    dtype runs in a sum's dtype for that ``out`` (``_reduce_dtype``: float32 data averaged into a float64 out add
    up in float64; float64 data into a float32 out round twice, as NumPy's)."""
    d = _dtypes.from_torch(t.dtype)
    acc, _ = _mean_dtypes(d, dtype)
    if dtype is None and acc == d:
        acc = _reduce_dtype(U.add, t, None, out)
    n = _count(t, axes, mask)
    if isinstance(n, int) and n == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
    finish(_sum_in(t, axes, acc, mask), axes, keepdims, out, "add")
    if isinstance(n, torch.Tensor):  # (counts under where=, kept dims like the sums')
        n = wrap(n if keepdims or not axes else n.squeeze(axes))
    return U.true_divide(out, n, out=out, casting="unsafe")


_MEAN_PLAIN = {torch.float32: torch.float32, torch.float64: torch.float64, torch.complex64: torch.complex64,
               torch.complex128: torch.complex128, **{t: torch.float64 for t in (
                   torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)}}


def _ddof(ddof, correction):
    """The degrees-of-freedom correction: a Python number, or a tensor for an array of them (NumPy divides by
    ``max(n - ddof, 0)``, broadcasting such an array against the reduced shape)."""
    if correction is not _NoValue:
        if not _is_zero(ddof):
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    if isinstance(ddof, (ndarray, _np.ndarray, _np.generic, list, tuple)):
        d = as_tensor(ddof)
        if d.ndim == 0:  # a NumPy scalar or 0-D array is a number
            return d.item()
        return d.to(torch.int64) if d.dtype == torch.bool else d
    return int(ddof) if type(ddof) is builtins.bool else ddof


def _is_zero(ddof):
    if isinstance(ddof, (ndarray, _np.ndarray, _np.generic, list, tuple)):
        d = as_tensor(ddof)
        return d.numel() == 1 and d.item() == 0  # NumPy tests ddof != 0: an array of more raises there
    return ddof == 0


_WIDE_UNSIGNED = (torch.uint16, torch.uint32, torch.uint64)


def _sq_dev_sum(t, axes, mask, acc, mean_, nan_dof):
    """(sum of ``|t - mean|**2`` over ``axes`` keeping dims, in the accumulator's real dtype; element count)."""
    m = _mean_tensor(t, axes, mask, acc) if mean_ is _NoValue else as_tensor(mean_).to(_dtypes.to_torch(acc))
    xd = _dtypes.to_torch(_dtypes.promote_types(_dtypes.from_torch(t.dtype), acc))  # NumPy's a - mean promotes
    if xd in _WIDE_UNSIGNED:  # (dtype=uint16/32/64): torch has no arithmetic there; the ufuncs wrap as NumPy's
        x = U.subtract(wrap(t.to(xd)), wrap(m.to(xd))).tensor
        sq = U.multiply(wrap(x), wrap(x)).tensor
    else:
        x = t.to(xd) - m.to(xd)
        x = x.to(t.dtype) if nan_dof else x  # NumPy's nanvar subtracts into its (NaN-zeroed) copy of the input
        sq = x.real * x.real + x.imag * x.imag if x.is_complex() else x * x
    sq_acc = _np.dtype(acc.char.lower()) if acc.kind == "c" else acc  # |x|**2 is real: so is its sum
    s = _sum_in(sq, axes, sq_acc, mask)  # in the accumulator, as NumPy (an int8 dtype= wraps; torch.sum widened it)
    return s, _count(t, axes, mask)


def _over_dof(s, n, ddof, nan_dof):
    """``s / max(n - ddof, 0)``, warning where that is not positive.  ``nan_dof`` (nanvar of floats): those
    slices give NaN rather than x/0 (var).  A complex ``s`` (a complex dtype=) divides as a complex number, so
    x/0 is NumPy's (inf, nan), not (inf, 0)."""
    dof = n - ddof
    if isinstance(dof, torch.Tensor):
        if not _tracing(dof) and bool((dof <= 0).any()):  # data-dependent warning, eager only
            warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=5)
        r = _true_divide(s, torch.clamp(dof, min=0))
    else:
        if guard_or_false(dof <= 0):  # (a count read from the data, known only when the code runs: no warning)
            warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=5)
        r = _true_divide(s, torch.sym_max(dof, 0))
    if not nan_dof:
        return r
    return torch.where(dof > 0, r, torch.nan) if isinstance(dof, torch.Tensor) else r if dof > 0 else r * torch.nan


def _var_tensor(t, axes, mask, acc, ddof, mean_, nan_dof, cplx=None):
    """Mean squared deviation over ``axes`` with ``n - ddof`` as divisor (keeps dims, accumulator dtype; ``cplx``:
    a complex dtype the sum of squares is made first, as NumPy's sum into a complex dtype= or out=).
    ``nan_dof``: nanvar's."""
    s, n = _sq_dev_sum(t, axes, mask, acc, mean_, nan_dof)
    return _over_dof(s if cplx is None else s.to(cplx), n, ddof, nan_dof)


def _var_ddof_array(t, axes, mask, acc, d, mean_, nan, cplx, kd, out, where):
    """The variance for an array ``ddof`` ``d``, reduced (dims dropped unless ``kd``).  NumPy divides the
    reduced sum by ``max(n - d, 0)``: into the sum when it is an array (``d`` broadcasts to its shape), as
    NumPy scalars when it is 0-D (the result takes ``d``'s shape).  var's own check ``ddof >= n`` needs one
    element when ``where`` is not given."""
    s, n = _sq_dev_sum(t, axes, mask, acc, mean_, nan)
    if cplx is not None:
        s = s.to(cplx)
    if not kd and axes:
        s = s.squeeze(axes)
        n = n.squeeze(axes) if isinstance(n, torch.Tensor) else n
    if not nan and where is _NoValue and d.numel() != 1:
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all()")
    try:
        shape = torch.broadcast_shapes(s.shape, d.shape, n.shape if isinstance(n, torch.Tensor) else ())
    except RuntimeError:
        raise ValueError(f"operands could not be broadcast together with shapes {tuple(s.shape)} "
                         f"{tuple(d.shape)}") from None
    if shape != s.shape and (s.ndim or out is not None):
        raise ValueError(f"non-broadcastable output operand with shape {tuple(s.shape)} doesn't match the "
                         f"broadcast shape {tuple(shape)}")
    return _over_dof(s, n, d, nan)


def _var(a, axis, dtype, out, ddof, keepdims, where, mean_, correction, root, nan=False):
    t = as_tensor(a)
    in_dtype = _dtypes.from_torch(t.dtype)
    nan = nan and in_dtype.kind in "fc"  # NumPy's nanvar of data that cannot hold NaN is var (ddof >= n: x/0)
    axes = reduction_axes(axis, t.ndim, ufunc_like=nan)
    acc, res = _mean_dtypes(in_dtype, dtype, var=True)
    if dtype is None and in_dtype.kind == "c":
        res = _np.dtype(in_dtype.char.lower())  # the variance of complex numbers is real
    mask = where_mask(where, t.shape)
    if nan:
        keep = ~torch.isnan(t)
        mask = keep if mask is None else mask & keep
    ddof = _ddof(ddof, correction)
    kd = _kd(keepdims)
    # a complex dtype= or out=: NumPy sums |x|**2 into complex numbers and divides those (x/0 is (inf, nan))
    cplx = _dtypes.to_torch(res) if res.kind == "c" else None
    if out is not None and check_out(out).dtype.kind == "c" and cplx is None:
        res = out.dtype  # (NumPy's variance is then the out array itself)
        cplx = _dtypes.to_torch(res)
    if isinstance(ddof, torch.Tensor):
        r, squeezed = _var_ddof_array(t, axes, mask, acc, ddof, mean_, nan, cplx, kd, out, where), True
        ndim = r.ndim
    else:
        r, squeezed = _var_tensor(t, axes, mask, acc, ddof, mean_, nan, cplx), False
        ndim = r.ndim - (0 if kd else len(axes))
    if root and (out is not None or res.kind in "biu" and ndim > 0):
        # NumPy roots an array variance in place, sqrt(v, out=v): 'same_kind' casting, so an integer one (out=
        # or dtype=) is an error; a 0-D one is cast back
        o = finish(r.to(_dtypes.to_torch(res)), axes, kd, out, "add", squeezed)
        return U.sqrt(o, out=o)
    if root and res.kind in "biu":  # NumPy's 0-D root: sqrt of the variance already cast (NaN's C cast too)
        r = r.to(_dtypes.to_torch(res)).to(torch.float64)
    r = torch.sqrt(r) if root else r
    return finish(r.to(_dtypes.to_torch(res)), axes, kd, out, "add", squeezed)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue, mean=_NoValue,
        correction=_NoValue):
    """Variance ``sum(|a - mean|**2) / (n - ddof)``; ``correction`` is the array-API name of ``ddof``."""
    return _var(a, axis, dtype, out, ddof, keepdims, where, mean, correction, root=False)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue, mean=_NoValue,
        correction=_NoValue):
    return _var(a, axis, dtype, out, ddof, keepdims, where, mean, correction, root=True)


# ---------------------------------------------------------------- average


def average(a, axis=None, weights=None, returned=False, *, keepdims=_NoValue):
    """Weighted mean; raises ZeroDivisionError where the weights of a slice sum to zero (checked eagerly)."""
    t = as_tensor(a)
    keep = _kd(keepdims)
    axes = reduction_axes(axis, t.ndim, ufunc_like=False, sequences=True)
    axis = None if axis is None else axes
    if weights is None:
        avg = mean(wrap(t), axis, keepdims=keep)
        if avg.size == 0:  # NumPy divides a.size by avg.size in Python
            raise ZeroDivisionError("division by zero")
        scl = torch.full(avg.shape, t.numel() / avg.size, dtype=avg.tensor.dtype, device=t.device)
        return (avg, wrap(scl)) if returned else avg
    w = _weights_like(t, as_tensor(weights), axis)
    in_dt = _dtypes.from_torch(t.dtype)
    rd = _dtypes.result_type(t, w, _F8) if in_dt.kind in "biu" else _dtypes.result_type(t, w)
    td = _dtypes.to_torch(rd)
    scl = _sum_in(w.to(td).expand(t.shape), axes, rd, None)
    if not _tracing(scl) and bool((scl == 0).any()):  # data-dependent check, eager only
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = _sum_in(t.to(td) * w.to(td), axes, rd, None) / scl
    if returned:
        scl = finish(scl.expand(avg.shape).clone(), axes, keep, None, "add")
        return finish(avg, axes, keep, None, "add"), scl
    return finish(avg, axes, keep, None, "add")


def _weights_like(t, w, axis):
    """``weights`` broadcastable against ``t``: the same shape, or the shape of ``t`` along ``axis``."""
    if w.shape == t.shape:
        return w
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    axes = reduction_axes(axis, t.ndim, sequences=True)
    if tuple(w.shape) != tuple(t.shape[d] for d in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    w = w.permute(order) if len(axes) > 1 else w
    return w.reshape([t.shape[d] if d in axes else 1 for d in range(t.ndim)])


# ---------------------------------------------------------------- nan-ignoring variants


def _inexact(t):
    return t.is_floating_point() or t.is_complex()


def _nan_to(a, value):
    """``a`` with NaNs replaced by ``value`` (the reduction's identity); integers pass through unchanged."""
    t = as_tensor(a)
    return wrap(torch.where(torch.isnan(t), value, t) if _inexact(t) else t)


def nansum(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    """``sum`` treating NaN as zero."""
    return sum(_nan_to(a, 0), axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return prod(_nan_to(a, 1), axis, dtype, out, keepdims, initial, where)


def _warn_all_nan(r):
    t = r.tensor
    if _inexact(t) and not _tracing(t) and bool(torch.isnan(t).any()):  # data-dependent warning, eager only
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    return r


def nanmax(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    """``fmax.reduce``: NaNs ignored; all-NaN slices give NaN with a RuntimeWarning."""
    t = as_tensor(a)
    uf = U.fmax if _inexact(t) else U.maximum
    return _warn_all_nan(reduce(uf, wrap(t), axis, None, out, keepdims, initial, where))


def nanmin(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    t = as_tensor(a)
    uf = U.fmin if _inexact(t) else U.minimum
    return _warn_all_nan(reduce(uf, wrap(t), axis, None, out, keepdims, initial, where))


def _check_inexact(t, dtype, out):
    if _inexact(t):
        if dtype is not None and _dtypes.to_dtype(dtype).kind not in "fc":
            raise TypeError("If a is inexact, then dtype must be inexact")
        if out is not None and check_out(out).dtype.kind not in "fc":
            raise TypeError("If a is inexact, then out must be inexact")


def nanmean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    """``mean`` over the non-NaN elements; all-NaN slices give NaN with a RuntimeWarning."""
    t = as_tensor(a)
    _check_inexact(t, dtype, out)
    if not _inexact(t):
        return mean(wrap(t), axis, dtype, out, keepdims, where=where)
    axes = reduction_axes(axis, t.ndim)
    mask = where_mask(where, t.shape)
    mask = ~torch.isnan(t) if mask is None else mask & ~torch.isnan(t)
    # NumPy sums in the input's dtype here, float16 too (mean goes through float32): 12 x 5460 is inf
    acc = res = _dtypes.from_torch(t.dtype) if dtype is None else _dtypes.to_dtype(dtype)
    n = _count(t, axes, mask)
    if not _tracing(n) and bool((n == 0).any()):  # data-dependent warning, eager only
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    r = _divide(_sum_in(t, axes, acc, mask), n, acc)
    return finish(r.to(_dtypes.to_torch(res)), axes, _kd(keepdims), out, "add")


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue, mean=_NoValue,
           correction=_NoValue):
    """``var`` over the non-NaN elements; slices without degrees of freedom give NaN."""
    _check_inexact(as_tensor(a), dtype, out)
    return _var(a, axis, dtype, out, ddof, keepdims, where, mean, correction, root=False, nan=True)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue, mean=_NoValue,
           correction=_NoValue):
    _check_inexact(as_tensor(a), dtype, out)
    return _var(a, axis, dtype, out, ddof, keepdims, where, mean, correction, root=True, nan=True)


def nancumsum(a, axis=None, dtype=None, out=None):
    """``cumsum`` treating NaN as zero."""
    return cumsum(_nan_to(a, 0), axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    return cumprod(_nan_to(a, 1), axis, dtype, out)
