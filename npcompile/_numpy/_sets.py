"""Set routines: unique (and the array-API unique_* forms), isin, and the 1-D set operations.

All are built on one stable sort in NumPy's order (``_sorting._argsort``), then neighbour comparisons, as NumPy
does; so NaN handling follows NumPy's exactly (``equal_nan`` collapses NaNs into one value, otherwise every NaN is
distinct), including its rule for complex NaNs.  Results are always sorted (``sorted=False`` permits that).
"""

from __future__ import annotations

import math
import operator

import numpy as _np
import torch
# NumPy's own named results: a result's type is NumPy's, in the shim and out of compiled code
from numpy.lib._arraysetops_impl import UniqueAllResult, UniqueCountsResult, UniqueInverseResult

from . import _dtypes, _library
from ._indexing import _moved
from ._ndarray import as_array0d, ndarray, wrap
from ._normalize import as_tensor, normalize_axis_index
from ._trace import is_tracing
from ._sorting import _argsort

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin", "intersect1d",
           "union1d", "setdiff1d", "setxor1d", "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"]


# ---------------------------------------------------------------- unique


def _first_of_runs(aux: torch.Tensor, equal_nan: bool) -> torch.Tensor:
    """For sorted 1-D ``aux``: where a new value starts.  With ``equal_nan`` and a NaN last, NumPy ends the
    values at the first NaN, which it finds by a binary search of ``isnan(aux)`` (for complex numbers, whose
    NaNs are not all at the end, that search is NumPy's own answer, reproduced here)."""
    n = aux.shape[0]
    new = torch.ones(n, dtype=torch.bool, device=aux.device)
    new[1:] = aux[1:] != aux[:-1]
    if not equal_nan or n == 0 or not (aux.is_floating_point() or aux.is_complex()):
        return new
    nan = torch.isnan(aux)
    first_nan = torch.searchsorted(nan.to(torch.uint8), torch.ones(1, dtype=torch.uint8, device=aux.device))
    pos = torch.arange(n, device=aux.device)
    collapsed = torch.where(pos < first_nan, new, pos == first_nan)
    return torch.where(nan[-1], collapsed, new)


def _unique_flat(t: torch.Tensor, equal_nan: bool):
    """Unique values of 1-D ``t`` with the first index, the inverse and the counts of each."""
    perm = _argsort(t, 0)
    aux = _moved(t, lambda m: m[perm])
    new = _first_of_runs(aux, equal_nan)
    return aux[new], perm[new], _inverse(perm, new), _counts(new)


def _inverse(perm, new):
    inv = torch.empty_like(perm)
    inv[perm] = torch.cumsum(new, 0) - 1
    return inv


def _counts(new):
    starts = torch.nonzero(new).reshape(-1)
    return torch.diff(starts, append=torch.tensor([new.shape[0]], device=new.device))


def _unique_rows(t: torch.Tensor, axis: int):
    """Unique slices along ``axis`` (compared as rows, lexicographically; NaNs never equal)."""
    moved = t.movedim(axis, 0)
    rows = moved.reshape(moved.shape[0], math.prod(moved.shape[1:]))
    perm = torch.arange(rows.shape[0], device=t.device)
    for j in range(rows.shape[1] - 1, -1, -1):  # least significant column first, each sort stable
        perm = perm[_argsort(rows[perm, j], 0)]
        if rows.dtype == torch.float16:  # NumPy's float16 row comparison puts NaNs first (its other types last)
            perm = perm[_argsort(~torch.isnan(rows[perm, j]), 0)]
    aux = _moved(rows, lambda m: m[perm])
    new = torch.ones(aux.shape[0], dtype=torch.bool, device=t.device)
    new[1:] = (aux[1:] != aux[:-1]).any(1)
    values = _moved(moved, lambda m: m[perm[new]]).movedim(0, axis)
    return values, perm[new], _inverse(perm, new), _counts(new)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    """``numpy.unique``; the inverse has the input's shape for ``axis=None`` (NumPy 2)."""
    t = as_tensor(ar)
    if axis is not None:
        axis = normalize_axis_index(operator.index(axis), t.ndim)
    flat = axis is None or t.ndim == 1  # NumPy: a 1-d array along its axis is the flat case (with equal_nan)
    if flat and _library.numpy_kernel_applies(t):
        values, index, inverse, counts = _numpy_unique(t, return_index, return_inverse, return_counts, equal_nan)
    elif flat:
        values, index, inverse, counts = _unique_flat(t.reshape(-1), equal_nan)
        inverse = inverse.reshape(t.shape)
        if equal_nan and t.is_complex() and values.numel() and not (return_index or return_inverse or return_counts):
            values = _first_nan_met(values, t.reshape(-1))
    else:
        values, index, inverse, counts = _unique_rows(t, axis)
    extra = [x for x, want in ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if want]
    return wrap(values) if not extra else tuple(as_array0d(wrap(x)) for x in [values] + extra)  # (0-d inverse)


def _unique_kernel(x, index, inverse, counts, equal_nan):
    """NumPy's flat ``unique`` of ``x``: (values, index, inverse, counts), those not asked for empty (NumPy sorts
    the values alone unless the first index is wanted)."""
    found = _np.unique(_library.as_numpy(x), return_index=index, return_inverse=inverse, return_counts=counts,
                       equal_nan=equal_nan)
    found = iter(found if isinstance(found, tuple) else (found,))
    values = _library.from_numpy(next(found))
    return (values, *(_library.from_numpy(next(found).astype(_np.int64, copy=False)) if want else
                      torch.empty(0, dtype=torch.int64) for want in (index, inverse, counts)))


def _unique_fake(x, index, inverse, counts, equal_nan):
    n = torch.library.get_ctx().new_dynamic_size()
    return (x.new_empty(n), *(x.new_empty(size if want else 0, dtype=torch.int64)
                              for size, want in ((n, index), (x.shape, inverse), (n, counts))))


# NumPy's unique on the CPU: the shim's took a stable argsort always (1M ints in [0, 1000) with their counts:
# 17.8 ms compiled, NumPy's sort of the values 4.0).
_numpy_unique = _library.numpy_op("numpy_unique(Tensor x, bool index, bool inverse, bool counts, bool equal_nan) -> "
                                  "(Tensor, Tensor, Tensor, Tensor)", _unique_kernel, _unique_fake)


def _first_nan_met(values, flat):
    """NumPy finds the unique complex values alone with a hash table: of the NaNs (all one value) it keeps the
    first in ``flat``'s order, not the first sorted (``values`` end with it, if any)."""
    nan = torch.isnan(flat)
    last = torch.arange(values.shape[0], device=values.device) == values.shape[0] - 1
    return torch.where(last & torch.isnan(values), flat[torch.argmax(nan.to(torch.uint8))], values)


def unique_all(x):
    values, index, inverse, counts = _unique_flat(as_tensor(x).reshape(-1), False)
    return UniqueAllResult(wrap(values), wrap(index), as_array0d(wrap(inverse.reshape(as_tensor(x).shape))),
                           wrap(counts))


def unique_counts(x):
    values, _, _, counts = _unique_flat(as_tensor(x).reshape(-1), False)
    return UniqueCountsResult(wrap(values), wrap(counts))


def unique_inverse(x):
    t = as_tensor(x)
    values, _, inverse, _ = _unique_flat(t.reshape(-1), False)
    return UniqueInverseResult(wrap(values), as_array0d(wrap(inverse.reshape(t.shape))))


def unique_values(x):
    return wrap(_unique_flat(as_tensor(x).reshape(-1), False)[0])


# ---------------------------------------------------------------- membership and set operations


def _common(*ts):
    """The tensors in their NumPy common dtype."""
    d = _dtypes.to_torch(_dtypes.result_type(*ts))
    return [t.to(d) for t in ts]


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """``numpy.isin``: NumPy's own on the CPU (``_library``); elsewhere compared in the common dtype (NaN is in
    nothing)."""
    e, s = as_tensor(element), as_tensor(test_elements)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: {kind!r}. Please use None, 'sort' or 'table'.")
    if kind == "table" and not all(t.dtype == torch.bool or not (t.is_floating_point() or t.is_complex())
                                   for t in (e, s)):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. Please select "
                         "'sort' or None for kind.")
    if kind == "table" and s.numel() and not is_tracing(s):
        _check_table_range(s)
    if _library.numpy_kernel_applies(e, s):  # (NumPy promotes the two itself)
        found = _numpy_isin(e, s, kind)
    else:
        e, s = _common(e, s)
        if e.is_complex():
            found = _isin_sorted(e.reshape(-1), s.reshape(-1)).reshape(e.shape)
        else:
            found = torch.isin(_equatable(e), _equatable(s).reshape(-1))  # torch needs contiguous test elements
    return as_array0d(wrap(~found if invert else found))  # (an array also for a scalar element, as NumPy)


# NumPy's isin on the CPU: torch's compared every element with every test element (1M ints against 143:
# 17 ms, NumPy's table of the test values' range 2.8 ms).
_numpy_isin = _library.numpy_op(
    "numpy_isin(Tensor element, Tensor test, str? kind) -> Tensor",
    lambda e, s, kind: _library.from_numpy(_np.isin(_library.as_numpy(e), _library.as_numpy(s), kind=kind)),
    lambda e, s, kind: e.new_empty(e.shape, dtype=torch.bool))


def _check_table_range(s):
    """NumPy's 'table' method indexes a table by ``test_elements - min``, computed in their dtype (bool as uint8):
    a range of values beyond that dtype's maximum is its RuntimeError (data-dependent: eager only)."""
    from ._reductions import amax, amin

    d = _dtypes.from_torch(s.dtype) if s.dtype != torch.bool else _np.dtype(_np.uint8)
    t = wrap(s)
    if int(amax(t)) - int(amin(t)) > _np.iinfo(d).max:
        raise RuntimeError("You have specified kind='table', but the range of values in `ar2` or `ar1` exceed the "
                           "maximum integer of the datatype. Please set `kind` to None or 'sort'.")


def _equatable(t):
    """``t`` in a dtype ``torch.isin`` takes, with the same equalities."""
    return t.to(torch.uint8) if t.dtype == torch.bool else _dtypes.movable(t)


def _isin_sorted(e, s):
    """Membership by one sort of both sets (NumPy's 'sort' method), for what ``torch.isin`` lacks."""
    ue, _, inv, _ = _unique_flat(e, False)
    us = _unique_flat(s, False)[0]
    both = torch.cat([ue, us])
    order = _argsort(both, 0)
    srt = both[order]
    hit = torch.zeros(both.shape[0], dtype=torch.bool, device=e.device)
    hit[:-1] = srt[1:] == srt[:-1]
    found = torch.empty_like(hit)
    found[order] = hit
    return found[:ue.shape[0]][inv]


def _flat_unique(x, assume_unique):
    t = as_tensor(x).reshape(-1)
    return t if assume_unique else _unique_flat(t, True)[0]


def _sorted_firsts(t):
    """1-D ``t`` sorted in NumPy's order, the permutation, and where each distinct value starts (NaNs one value):
    ``unique`` as masks of the input's size, so a set operation made of them has one data-dependent size (its
    result's; under compile, a size made inside a call and not returned stopped it from being traced)."""
    perm = _argsort(t, 0)
    aux = _moved(t, lambda m: m[perm])
    return aux, perm, _first_of_runs(aux, True)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """``numpy.intersect1d``: sorted common values; ``return_indices`` gives their first positions in each."""
    a, b = as_tensor(ar1).reshape(-1), as_tensor(ar2).reshape(-1)
    if a.dtype == b.dtype and not assume_unique:  # (else values equal only once cast: NumPy's concatenation)
        (sa, pa, fa), (sb, pb, fb) = _sorted_firsts(a), _sorted_firsts(b)
        in_a = fa & isin(wrap(sa), wrap(b)).tensor
        if not return_indices:
            return wrap(sa[in_a])
        return wrap(sa[in_a]), wrap(pa[in_a]), wrap(pb[fb & isin(wrap(sb), wrap(a)).tensor])
    if assume_unique:
        ua, ia, ub, ib = a, torch.arange(a.shape[0]), b, torch.arange(b.shape[0])
    else:
        ua, ia, _, _ = _unique_flat(a, True)
        ub, ib, _, _ = _unique_flat(b, True)
    ua, ub = _common(ua, ub)
    both = torch.cat([ua, ub])
    order = _argsort(both, 0)
    srt = both[order]
    same = srt[1:] == srt[:-1]
    values = srt[:-1][same]
    if not return_indices:
        return wrap(values)
    first, second = order[:-1][same], order[1:][same] - ua.shape[0]
    return wrap(values), wrap(ia[first]), wrap(ib[second])


def union1d(ar1, ar2):
    a, b = _common(as_tensor(ar1).reshape(-1), as_tensor(ar2).reshape(-1))
    return wrap(_unique_flat(torch.cat([a, b]), True)[0])


def setdiff1d(ar1, ar2, assume_unique=False):
    """``numpy.setdiff1d``: values of ``ar1`` not in ``ar2``, in ``ar1``'s dtype."""
    a = as_tensor(ar1).reshape(-1)
    a, _, first = (a, None, True) if assume_unique else _sorted_firsts(a)
    return wrap(a[first & ~isin(wrap(a), ar2, assume_unique=assume_unique).tensor])


def setxor1d(ar1, ar2, assume_unique=False):
    """``numpy.setxor1d``: sorted values in exactly one of the inputs (of each input's NaNs, one is kept)."""
    a, b = as_tensor(ar1).reshape(-1), as_tensor(ar2).reshape(-1)
    if a.dtype == b.dtype and not assume_unique:  # as in intersect1d
        (sa, _, fa), (sb, _, fb) = _sorted_firsts(a), _sorted_firsts(b)
        both = torch.cat([sa, sb])
        only = torch.cat([fa & ~isin(wrap(sa), wrap(b)).tensor, fb & ~isin(wrap(sb), wrap(a)).tensor])
        perm = _argsort(both, 0)
        return wrap(_moved(both, lambda m: m[perm])[only[perm]])
    a, b = _common(_flat_unique(ar1, assume_unique), _flat_unique(ar2, assume_unique))
    both = torch.cat([a, b])
    srt = _moved(both, lambda m: m[_argsort(both, 0)])
    flag = torch.ones(srt.shape[0] + 1, dtype=torch.bool, device=srt.device)
    flag[1:-1] = srt[1:] != srt[:-1]
    return wrap(srt[flag[1:] & flag[:-1]])
