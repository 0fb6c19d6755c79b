"""Order statistics and histograms: median, quantile/percentile (every NumPy 2 method, weights), their nan*
forms, histogram/histogram2d/histogramdd/histogram_bin_edges, bincount, digitize, cov and corrcoef.

Quantiles sort the reduced axes (flattened last) and gather at NumPy's virtual indices (Hyndman & Fan); the
NaN-ignoring forms use a per-slice count, so both run as torch ops without looking at values.  Histograms count
with ``searchsorted`` + ``scatter_add`` over static bin counts; only data-driven bin numbers (string estimators,
range from the data) read values back to Python.  Torch cannot compare uint16/32/64: sorts, extents and bin
searches run on ``_sorting``'s order keys, and uint64 values travel as their int64 bit patterns.
"""

from __future__ import annotations

import builtins
import math
import operator
import warnings

import numpy as _np
import torch

from .._errors import VALUE_TAG, UnsupportedFeature
from . import _dtypes
from ._ndarray import as_array0d, ndarray, wrap
from ._normalize import as_tensor, cast
from ._reductions import _mean_dtypes, amax, amin, average, mean, nanmean, std
from ._sorting import _argsort, _int_key, _sortable, first_true, search, sorted_along
from ._trace import check, maybe_zero, zero_count
from . import _ufuncs as U
from ._ufunc_methods import _NoValue, _flat, _keep_shape, _tracing, finish, reduction_axes

__all__ = [
    "median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile", "histogram", "histogram2d",
    "histogramdd", "histogram_bin_edges", "bincount", "digitize", "cov", "corrcoef",
]

_F8 = _np.dtype(_np.float64)


def _eager(t):
    return not _tracing(t)


# ---------------------------------------------------------------- sorting the reduced axes


def _sort_last(x):
    """Sort along the last dim in NumPy's order (``_sorting``: NaN last, complex numbers with NaN parts last by
    class).  uint64 comes back as its int64 bit patterns (``_values`` restores it): torch gathers and subtracts
    those, not uint64."""
    r = sorted_along(x, -1)
    if r is not None:
        return _dtypes.movable(r) if x.dtype == torch.uint64 else r if x.is_complex() else _sortable(r)
    if x.dtype == torch.uint64:
        return torch.gather(_dtypes.movable(x), -1, torch.sort(_sortable(x), -1).indices)
    if not x.is_complex():
        return torch.sort(_sortable(x), -1).values
    return torch.gather(x, -1, _argsort(x, -1))


def _values(v, dtype):
    """Values picked from ``_sort_last``'s result, in a dtype torch converts exactly (uint64 restored)."""
    return v.view(torch.uint64) if dtype == torch.uint64 else v


def _prepare(a, axis, nan=False):
    """(sorted values with the reduced axes flattened last, normalized axes, input tensor)."""
    t = as_tensor(a)
    axes = reduction_axes(axis, t.ndim, ufunc_like=False, sequences=True)
    kept = [n for d, n in enumerate(t.shape) if d not in axes]
    if axis is not None and len(axes) != 1 and not math.prod(kept) and t.numel() == 0 and not nan:
        # as NumPy, which reshapes the reduced axes into one (size -1: ambiguous when a kept axis is empty)
        raise ValueError(f"cannot reshape array of size 0 into shape ({''.join(f'{n},' for n in kept)}newaxis)")
    return _sort_last(_flat(t, axes) if axes else t.unsqueeze(-1)), axes, t


def _place(r, axes, t, keepdims, qshape=()):
    """``r`` of shape (*kept, m) to NumPy's layout: the q dims first, then the kept (or kept-as-1) dims."""
    shape = _keep_shape(t.shape, axes) if keepdims else tuple(s for d, s in enumerate(t.shape) if d not in axes)
    return r.movedim(-1, 0).reshape(tuple(qshape) + shape)


def _to_out(r, out, keepdims):
    """The result, into ``out`` if given; kept dimensions make an array even of a 0-d input (as NumPy)."""
    if out is None:
        return as_array0d(wrap(r)) if keepdims else wrap(r)
    return finish(r, (), False, out, "quantile")


# ---------------------------------------------------------------- median


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Mean of the middle one or two sorted values; NaN where a slice holds NaN; float64 for integers."""
    return _median(a, axis, out, keepdims, nan=False)


def _nan_like(r):
    """A 0-D NaN of ``r``'s dtype (NumPy's nan+nanj for complex)."""
    n = torch.full((), torch.nan, dtype=r.dtype.to_real(), device=r.device)
    return torch.complex(n, n) if r.is_complex() else n


def _median(a, axis, out, keepdims, nan):
    s, axes, t = _prepare(a, axis, nan)
    acc, res = _mean_dtypes(_dtypes.from_torch(t.dtype), None)
    n = s.shape[-1]
    if zero_count(s.numel()):  # no values or no slices (compiled, Inductor's complex add of empty picks fails to build)
        # (nanmedian of floats: NumPy's nanmean, which warns only for a slice; of integers: its mean, as median)
        if n == 0 and (not nan or not (t.is_floating_point() or t.is_complex()) or math.prod(s.shape[:-1])):
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        r = torch.full(s.shape[:-1] + (1,), torch.nan, dtype=_dtypes.to_torch(res).to_real(), device=s.device)
        r = torch.complex(r, r) if s.is_complex() else r  # NumPy's nan+nanj
        return _to_out(_place(r, axes, t, keepdims), out, keepdims)
    cnt = (~torch.isnan(s)).sum(-1, keepdim=True) if nan else torch.full(s.shape[:-1] + (1,), n, device=s.device)
    empty = maybe_zero(n)  # a length read from the data (``x[x > 0]``): an empty slice's NaN is chosen when it runs
    if empty:  # (one more value, so that the picks below stay in bounds)
        s = torch.cat([s, s.new_zeros(s.shape[:-1] + (1,))], -1)
    lo, hi = torch.clamp((cnt - 1) // 2, min=0), torch.clamp(cnt // 2, min=0)
    pair = _values(torch.gather(s, -1, torch.cat([lo, hi], -1)), t.dtype).to(_dtypes.to_torch(acc))
    # NumPy's mean of the middle values, a sum from +0 (a -0 median is 0) over the count; of one, x / 1 (not
    # (x + x) / 2, which overflows; the division still makes 0+infj nan+infj as NumPy's complex division does)
    first = pair[..., :1] + 0
    r = torch.where(lo == hi, first / 1, (first + pair[..., 1:]) / 2)
    if s.is_floating_point() or s.is_complex():
        # a slice holding NaN gives its last sorted value (NaN, or for complex its NaN part with the other kept)
        bad = cnt == 0 if nan else torch.isnan(s).any(-1, keepdim=True)
        r = torch.where(bad, _nan_like(r) if nan else torch.gather(s, -1, torch.clamp(cnt - 1, min=0)).to(r.dtype), r)
        if nan:
            _warn_all_nan(cnt)
    if empty:
        r = torch.where(cnt == 0, _nan_like(r), r)
    return _to_out(_place(r.to(_dtypes.to_torch(res)), axes, t, keepdims), out, keepdims)


# ---------------------------------------------------------------- quantiles

# Continuous methods: virtual index n*q + alpha + q*(1 - alpha - beta) - 1 (Hyndman & Fan), then interpolation.
_CONTINUOUS = {"linear": (1, 1), "hazen": (0.5, 0.5), "weibull": (0, 0), "median_unbiased": (1 / 3, 1 / 3),
               "normal_unbiased": (3 / 8, 3 / 8), "interpolated_inverted_cdf": (0, 1)}
_DISCONTINUOUS = ("lower", "higher", "nearest", "inverted_cdf", "closest_observation")
_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
            "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest")
# Methods whose virtual index n*q + (alpha + q*(1 - alpha - beta)) - 1 has only Python-int constants: an integer
# q gives an integer index (and an integer interpolation weight).
_INT_INDEX = ("linear", "averaged_inverted_cdf", "interpolated_inverted_cdf", "weibull")


def _positions(method, n, q):
    """(lower index, upper index, weight of the upper) for each q, computed in q's float dtype as NumPy's virtual
    indices are; ``n`` per slice."""
    if method in _CONTINUOUS:
        alpha, beta = _CONTINUOUS[method]
        v = (n - 1) * q if method == "linear" else n * q + (alpha + q * (1 - alpha - beta)) - 1  # NumPy's roundings
        vc = torch.minimum(torch.clamp(v, min=0), n - 1)
        lo = torch.floor(vc)  # beyond either end NumPy interpolates the end value with itself
        return lo, torch.where((v < 0) | (v >= n - 1), lo, lo + 1), vc - lo
    v = (n - 1) * q
    if method in ("lower", "higher", "nearest"):
        i = {"lower": torch.floor, "higher": torch.ceil, "nearest": torch.round}[method](v)
        return i, i, torch.zeros_like(i)
    if method == "midpoint":
        lo = torch.floor(v)
        return lo, torch.ceil(v), torch.where(v == lo, 0.0, 0.5)
    nq = n * q
    if method == "inverted_cdf":
        i = torch.clamp(torch.ceil(nq) - 1, min=0)
        return i, i, torch.zeros_like(i)
    if method == "averaged_inverted_cdf":  # NumPy's: index n*q - 1, weight 1 (the upper), 0.5 on an observation
        v = nq - 1
        lo = torch.floor(v)
        below, above = v < 0, v >= n - 1
        end = torch.where(above, n - 1, 0)
        inside = ~(below | above)
        return torch.where(inside, lo, end), torch.where(inside, lo + 1, end), torch.where(inside & (v == lo), 0.5,
                                                                                           1.0)
    # closest_observation: the observation nearest to n*q - 1/2, ties to the even (1-based) rank
    j = torch.floor(nq - 0.5)
    i = torch.where((nq - 0.5 == j) & (torch.remainder(j, 2) == 0), j, j + 1) - 1
    i = torch.minimum(torch.clamp(i, min=0), n - 1)
    return i, i, torch.zeros_like(i)


def _lerp(a, b, g, d):
    """a + d * g with d = b - a, computed from the nearer end for accuracy."""
    return torch.where(g >= 0.5, b - d * (1 - g), a + d * g)


def _quantile_dtype(in_dt, q, qt, method, scale):
    """(result dtype, whether NumPy interpolates, the torch dtype of its index arithmetic), as NumPy derives
    them: the observations' dtype where it picks one (the discontinuous methods; 'linear' at an integer virtual
    index), else the input promoted with the interpolation weight, whose dtype is the virtual index's (a weak
    Python float when ``q`` was a Python int or float).  Percentiles divide ``q`` by 100 first, so their index is
    never an integer; integer indices are exact in float64."""
    qd = _dtypes.from_torch(qt.dtype)
    if scale != 1:
        qd = _dtypes.result_type(qd, 1.0)
    index = _dtypes.result_type(qd, 1) if method in _INT_INDEX else _dtypes.result_type(qd, 1, 1.0)
    arith = _dtypes.to_torch(qd) if qd.kind == "f" else torch.float64
    if method in _DISCONTINUOUS or method == "linear" and index.kind != "f":
        return in_dt, False, arith
    weight = 0.5 if type(q) in (builtins.int, builtins.float) else index
    return _dtypes.result_type(in_dt, weight), True, arith


def _check_q(qt, scale, what):
    if _eager(qt) and qt.numel() and not bool(((qt >= 0) & (qt <= scale)).all()):  # data check, eager only
        raise ValueError(f"{what} must be in the range [0, {scale}]")


def _quantile(a, q, axis, out, method, keepdims, weights, nan, scale=1):
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS}")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    t = as_tensor(a)
    if t.is_complex():
        raise TypeError("a must be an array of real numbers")
    qt = as_tensor(q)
    _check_q(qt, scale, "Quantiles" if scale == 1 else "Percentiles")
    if nan and t.numel() == 0:  # NumPy's nanquantile answers an empty array with nanmean, whatever q's shape
        return nanmean(wrap(t), axis, out=out, keepdims=keepdims)
    res, lerp, arith = _quantile_dtype(_dtypes.from_torch(t.dtype), q, qt, method, scale)
    qf = qt.to(arith).reshape(-1) / scale
    if t.dtype == torch.bool and lerp:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.")
    if weights is not None:
        r, axes = _weighted_inverted_cdf(t, qf, axis, weights, nan)
    else:
        s, axes, t = _prepare(t, axis, nan)
        r = _gather_quantiles(s, qf, method, nan, t.dtype, _dtypes.to_torch(res), lerp)
    r = r.to(_dtypes.to_torch(res))
    if lerp and out is not None and not _np.can_cast(res, out.dtype, "same_kind"):
        # NumPy interpolates into out= (add(..., out=out)): an integer or bool out is its casting error
        raise _np._core._exceptions._UFuncOutputCastingError(U.add._np, "same_kind", res, out.dtype, 0)
    return _to_out(_place(r, axes, t, keepdims, tuple(qt.shape)), out, keepdims)


def _gather_quantiles(s, qf, method, nan, in_dtype, res, lerp):
    """Quantiles ``qf`` of each sorted slice ``s`` (..., n) -> (..., len(qf)); with ``lerp`` interpolated in the
    result dtype ``res`` (or an integer weight, which only ever interpolates an end value with itself)."""
    n = s.shape[-1]
    if not nan:  # (a length read from the data is checked when the code runs)
        check(n != 0, IndexError, "index -1 is out of bounds for axis 0 with size 0")
    if n == 0:
        dt = s.dtype if s.is_floating_point() else torch.float64
        return torch.full(s.shape[:-1] + (qf.numel(),), torch.nan, dtype=dt, device=s.device)
    inexact = s.is_floating_point()
    if nan and inexact:
        cnt = (~torch.isnan(s)).sum(-1, keepdim=True).to(qf.dtype)
        _warn_all_nan(cnt)
    else:
        cnt = torch.full((), n, dtype=qf.dtype, device=s.device)
    lo, hi, g = _positions(method, torch.clamp(cnt, min=1), qf.to(s.device))
    shape = s.shape[:-1] + (qf.numel(),)
    lo, hi, g = (x.expand(shape) for x in (lo, hi, g))
    # float16 q rounds the index arithmetic of more than 2048 values past the end, NumPy's too: NumPy's partition
    # refuses such an index, its interpolating methods clip it (as the clamp does)
    if method in _DISCONTINUOUS and _eager(hi) and hi.numel() and hi.max().item() > n - 1:  # data check
        raise ValueError(f"kth(={int(hi.max().item())}) out of bounds ({n})")
    a, b = (torch.gather(s, -1, i.long().clamp(0, n - 1)) for i in (lo, hi))
    if not (lerp and res.is_floating_point):
        r = _values(a, in_dtype)
    else:  # NumPy subtracts in the input dtype (integers wrap around), then interpolates in the result's
        d = _values(b - a, in_dtype) if in_dtype == torch.uint64 else (b - a).to(in_dtype)
        r = _lerp(_values(a, in_dtype).to(res), _values(b, in_dtype).to(res), g.to(res), d.to(res))
    if inexact:
        bad = (cnt == 0) if nan else torch.isnan(s).any(-1, keepdim=True)  # (NaN sorts last; s[..., -1:] of a
        # length read from the data has a size the trace cannot tell is 1)
        r = torch.where(bad, torch.nan, r)
    return r


def _weighted_inverted_cdf(t, qf, axis, weights, nan):
    """NumPy 2's weighted inverted-CDF quantile: the first sorted value whose cumulative weight share reaches q
    (values of zero weight are never chosen)."""
    w = as_tensor(weights)
    if w.shape != t.shape:
        from ._reductions import _weights_like

        w = _weights_like(t, w, axis)
    w = w.expand(t.shape)
    if _eager(w) and bool(U.less(wrap(w), 0).tensor.any()):  # data check, eager only
        raise ValueError("Weights must be non-negative.")
    axes = reduction_axes(axis, t.ndim, ufunc_like=False, sequences=True)
    x = _flat(t, axes) if axes else t.unsqueeze(-1)
    wf = (_flat(w, axes) if axes else w.unsqueeze(-1)).to(torch.float64)
    if nan and x.is_floating_point():
        wf = torch.where(torch.isnan(x), 0, wf)
    order = torch.sort(_sortable(x), dim=-1, stable=True).indices
    xs, ws = torch.gather(_dtypes.movable(x), -1, order), torch.gather(wf, -1, order)
    cw = torch.cumsum(ws, -1)
    bad = ~(cw[..., -1] > 0) | torch.isinf(cw[..., -1])  # weights of a slice summing to 0, NaN or inf
    if nan and x.is_floating_point():
        bad &= ~torch.isnan(x).all(-1)  # (an all-NaN slice gives NaN)
    if _eager(bad) and bool(bad.any()):  # data check, eager only
        raise ValueError("Weights included NaN, inf or were all zero.")
    cdf = (cw / cw[..., -1:]).to(qf.dtype)  # compared with q in q's float dtype, as NumPy does
    target = qf.to(x.device).expand(cdf.shape[:-1] + (qf.numel(),)).contiguous()
    i = torch.searchsorted(torch.where(ws > 0, cdf, -1.0).cummax(-1).values.contiguous(), target)
    i = torch.where(target <= 0, first_true(ws > 0, -1, keepdim=True), i)
    r = torch.gather(xs, -1, torch.clamp(i, max=x.shape[-1] - 1)).view(x.dtype)
    if x.is_floating_point() and not nan:
        r = torch.where(torch.isnan(x).any(-1, keepdim=True), torch.nan, r)
    return r, axes


def _warn_all_nan(cnt):
    if _eager(cnt) and bool((cnt == 0).any()):  # data-dependent warning, eager only
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    """The ``q``-th quantiles (q in [0, 1]) along ``axis`` by any of NumPy's 13 methods."""
    return _quantile(a, q, axis, out, method, keepdims, weights, nan=False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None):
    return _quantile(a, q, axis, out, method, keepdims, weights, nan=False, scale=100)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=_NoValue, *,
                weights=None):
    """``quantile`` over the non-NaN values; all-NaN slices give NaN with a RuntimeWarning."""
    return _quantile(a, q, axis, out, method, keepdims is not _NoValue and keepdims, weights, nan=True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=_NoValue, *,
                  weights=None):
    return _quantile(a, q, axis, out, method, keepdims is not _NoValue and keepdims, weights, nan=True, scale=100)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=_NoValue):
    return _median(a, axis, out, keepdims is not _NoValue and keepdims, nan=True)


# ---------------------------------------------------------------- histograms


def _linspace(first, last, num, comp, dtype):
    """NumPy's ``linspace(first, last, num)`` computed in ``comp`` (the dtype of the end points, as NumPy's):
    start + i * step, the last point exactly ``last``; returned as ``dtype``."""
    if num == 1:  # NumPy's one point: the start
        return torch.as_tensor(first, dtype=_dtypes.to_torch(comp)).reshape(1).to(_dtypes.to_torch(dtype))
    return _linspace_at(torch.arange(num), first, last, num, comp).to(_dtypes.to_torch(dtype))


def _linspace_at(k, first, last, num, comp):
    """Points ``k`` (an index tensor) of ``_linspace(first, last, num, comp, comp)``, computed elementwise: a
    histogram compares each value with the edges next to its bin this way, which Inductor vectorizes (an indexed
    load of a computed edge vector it scalarizes)."""
    c = _dtypes.to_torch(comp)
    f, la = torch.as_tensor(first, dtype=c), torch.as_tensor(last, dtype=c)
    return torch.where(k == num - 1, la, k.to(c) * ((la - f) / (num - 1)) + f)


def _outer_edges(x, range):
    """(first, last) of the bins: ``range`` or the data's extent (widened when empty or a point), and the
    dtype NumPy computes their linspace in (the data's, or the range's with a Python float: float64 for Python
    numbers, float32 for float32 scalars)."""
    if range is not None:
        first, last = (_np.dtype(v.dtype).type(v.item()) if isinstance(v, ndarray) and v.ndim == 0 else v
                       for v in range)  # our scalars as NumPy's: NumPy's arithmetic on them follows
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif x.numel() == 0:
        first, last = 0, 1
    elif _tracing(x) and x.dtype != torch.uint64:
        return _traced_extent(x)
    else:  # data-dependent bin edges: reads the extent back
        first, last = _extent(x)
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    if range is not None:
        return first, last, _dtypes.to_dtype(_np.result_type(first, last, 1.0))
    return first, last, _F8 if x.numel() == 0 else _dtypes.result_type(x, 1.0)


def _traced_extent(x):
    """``_outer_edges`` of traced data: the extent as float64 0-d tensors (``_extent``'s Python numbers, read back,
    would end the graph), widened by 0.5 where it is a point; infinities and NaN fail NumPy's check when the code
    runs.  (Python numbers: ints for integer data, which NumPy's linspace computes in float64 all the same.)"""
    lo, hi = (v.to(torch.float64) for v in torch.aminmax(_sortable(x)))
    torch._assert_async(torch.isfinite(lo) & torch.isfinite(hi),
                        VALUE_TAG + "autodetected range of the data is not finite")
    point = lo == hi
    return torch.where(point, lo - 0.5, lo), torch.where(point, hi + 0.5, hi), _dtypes.result_type(x, 1.0)


def _extent(x):
    """(min, max) of real ``x`` as Python numbers, found on its order keys (torch has no min/max kernels for the
    wide unsigned types; a uint64 key is the value minus 2**63)."""
    lo, hi = (v.item() for v in torch.aminmax(_sortable(x)))
    return (lo + 2**63, hi + 2**63) if x.dtype == torch.uint64 else (lo, hi)


def _unsigned_subtract(hi, lo):
    """``hi - lo`` as NumPy's histogram takes it: signed integers subtract into their unsigned type."""
    d = _dtypes.result_type(hi, lo)
    if d.kind == "i":  # both as arrays of that dtype first (a Python range's -1 is no uint64 scalar)
        hi, lo = (wrap(as_tensor(v).to(_dtypes.to_torch(d))) for v in (hi, lo))
        return U.subtract(hi, lo, dtype=_np.dtype(d.char.upper()), casting="unsafe")
    return U.subtract(hi, lo)


# The bin-width estimators work on our arrays with NumPy's own formulas and operand types (Python floats weak, sizes
# through NumPy functions strong), so widths round as NumPy's do (float16 data: float16 widths, std overflowing).

def _ptp(a):
    """max - min in the data's dtype (unsigned for signed integers)."""
    return _unsigned_subtract(amax(a), amin(a))


def _sturges(a, r):
    return _ptp(a) / (U.log2(a.size) + 1.0)


def _sqrt(a, r):
    return _ptp(a) / U.sqrt(a.size)


def _fd(a, r):
    return 2.0 * U.subtract(*percentile(a, [75, 25])) * a.size ** (-1.0 / 3.0)


def _stone(a, r):
    """The bin count minimising the leave-one-out cross-validation estimate (at most max(100, sqrt n) bins)."""
    n, ptp = a.size, _ptp(a)
    if n <= 1 or ptp == 0:
        return 0

    def risk(nbins):
        p = _count(a.tensor, _uniform_edges(a.tensor, *r, nbins), None, r).to(torch.float64) / n  # (NumPy's error too)
        return (2 - (n + 1) * torch.dot(p, p).item()) / builtins.float(ptp / nbins)

    upper = builtins.max(100, int(math.sqrt(n)))
    best = builtins.min(builtins.range(1, upper + 1), key=risk)
    if best == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=4)
    return ptp / best


def _doane(a, r):
    n = a.size
    if n <= 2:
        return 0.0
    sigma = std(a)
    if not sigma > 0.0:
        return 0.0
    g1 = mean(U.power(U.true_divide(U.subtract(a, mean(a)), sigma), 3))
    sg1 = U.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
    return _ptp(a) / (1.0 + U.log2(n) + U.log2(1.0 + U.absolute(g1) / sg1))


def _auto(a, r):
    """The smaller of Freedman-Diaconis (at least half the sqrt width, bounding the bin count) and Sturges."""
    return builtins.min(builtins.max(_fd(a, r), _sqrt(a, r) / 2), _sturges(a, r))


_ESTIMATORS = {
    "sqrt": _sqrt,
    "sturges": _sturges,
    "rice": lambda a, r: _ptp(a) / (2.0 * a.size ** (1.0 / 3)),
    "scott": lambda a, r: (24.0 * math.pi ** 0.5 / a.size) ** (1.0 / 3.0) * std(a),
    "fd": _fd, "stone": _stone, "doane": _doane, "auto": _auto,
}


def _held_ends(x, first, last, range):
    """The first and last edge as NumPy holds them when dividing by a width: the range as given, else scalars of
    the data's dtype (a single point widened by 0.5 in its float type)."""
    if range is not None:
        return first, last
    d = x.dtype if (first, last) == _extent(x) else _dtypes.to_torch(_dtypes.result_type(x, 0.5))
    return tuple(wrap(torch.tensor(v, dtype=d, device=x.device)) for v in (first, last))


def _bin_edges(x, bins, range, weights):
    """NumPy's histogram bin edges for 1-D ``x``, and (first, last, comp) when they are uniform (else None)."""
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        first, last, comp = _outer_edges(x, range)
        inside = x if range is None else x[(U.greater_equal(wrap(x), first) & U.less_equal(wrap(x), last)).tensor]
        nbins = 1
        if inside.numel():  # data-dependent bin count: widths read back
            width = _ESTIMATORS[bins](wrap(inside), (first, last, comp))
            if width:
                if not (x.is_floating_point() or x.is_complex()) and width < 1:
                    width = 1  # integer data: bins at least one unit wide
                lo, hi = _held_ends(x, first, last, range)
                nbins = int(math.ceil(builtins.float(_unsigned_subtract(hi, lo) / width)))
        return _uniform_edges(x, first, last, comp, nbins), (first, last, comp)
    b = as_tensor(bins)
    if b.ndim == 0:
        try:
            nbins = operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if nbins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last, comp = _outer_edges(x, range)
        return _uniform_edges(x, first, last, comp, nbins), (first, last, comp)
    if b.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if _eager(b) and _decreasing(b):  # data check, eager only
        raise ValueError("`bins` must increase monotonically, when an array")
    return b, None


def _decreasing(edges):
    """Whether an edge is below the one before (compared on order keys, which torch has for every dtype)."""
    k = _sortable(edges)
    return bool((k[1:] < k[:-1]).any())


def _uniform_edges(x, first, last, comp, nbins):
    """``nbins`` equal bins from ``first`` to ``last`` (a count or an estimator's), with NumPy's error when the
    dtype cannot make them distinct."""
    edges = _linspace(first, last, nbins + 1, comp, _edge_dtype(x, first, last))
    message = f"Too many bins for data range. Cannot create {nbins} finite-sized bins."
    if _tracing(edges):
        torch._assert_async((edges[:-1] < edges[1:]).all(), VALUE_TAG + message)
    elif bool((edges[:-1] >= edges[1:]).any()):
        raise ValueError(message)
    return edges


def _edge_dtype(x, first, last):
    """The edges' dtype: the data's and the end points' (Python numbers, weak; a traced extent's float64
    tensors stand for Python numbers), float64 for integers."""
    if isinstance(first, torch.Tensor):
        first = last = 0.0
    d = _dtypes.result_type(x, first, last)
    return _F8 if d.kind in "biu" else d


def _count(x, edges, weights, span=None):
    """Counts (or summed weights) of ``x`` in [edges[i], edges[i+1]), the last bin closed; outliers and NaN
    dropped.  ``span`` = (first, last, comp) of uniform edges: the bin is computed arithmetically and corrected by
    one against the edges next to it (exact, and one fused pass in Inductor); otherwise found by binary search."""
    nb = edges.numel() - 1
    common = _dtypes.to_torch(_dtypes.result_type(x, edges))
    xs, es = _sortable(x.to(common)), _sortable(edges.to(common))  # order keys: torch compares any dtype's
    if span is not None and (isinstance(span[0], torch.Tensor) or  # (a traced extent: see below)
                             span[1] > span[0] and math.isfinite(nb / (span[1] - span[0]))):
        first, last, comp = span

        def edge(k):  # es[k]
            return _sortable(_linspace_at(k, first, last, nb + 1, comp).to(edges.dtype).to(common))

        # Bin numbers held as whole float64s (NaN for NaN, dropped at the end), and no `&` of comparisons: with
        # no bool or int lanes among the double ones, Inductor's CPU code keeps every mask in vector registers
        # (it moves bool masks lane by lane, which cost 4x the rest of the kernel).
        f8 = torch.float64
        if isinstance(first, torch.Tensor):  # a traced extent (finite, checked): its width may be too small for
            guess = (xs.to(f8) - first) / (last - first) * nb  # nb / width, so the data divides by the width
        else:
            lo, hi = builtins.float(first), builtins.float(last)  # (a range's NumPy scalars: no torch arithmetic)
            guess = (xs.to(f8) - lo) * (nb / (hi - lo))
        guess = guess.clamp(0, nb - 1).trunc()
        i = guess - (xs < edge(guess)).to(f8)
        i = i + (xs >= edge(i + 1)).to(f8) * (i != nb - 1).to(f8)
        i = torch.where(xs >= es[0], torch.where(xs <= es[-1], i, nb), nb).to(torch.int64)
    else:
        i = search(es, xs, right=True) - 1
        i = torch.where(xs == es[-1], nb - 1, i)
        i = torch.where((i >= 0) & (i < nb), i, nb)
    if weights is None:
        return _bin_counts(i, nb + 1)[:nb]
    acc = _dtypes.compute_dtype(weights.dtype)  # wide unsigned weights sum in int32/int64, exact modulo 2**bits
    return _bin_sums(i, weights.to(acc), nb + 1)[:nb].to(weights.dtype)


_CHUNKS = 16  # partial sums per chunk of the input; a fixed number, so results do not depend on the thread count
_CHUNKED_MIN = 1 << 16  # inputs shorter than this are counted in one scatter


def _bin_sums(idx, vals, size):
    """``zeros(size).scatter_add_(0, idx, vals)`` for ``idx`` in [0, size).

    torch's CPU scatter-add into one vector is a serial loop (and so is its bincount); long inputs on the CPU are
    split into _CHUNKS rows scattered into rows of their own, which run in parallel (eagerly and in Inductor's
    code), then summed.  Sums of floats round in that order rather than NumPy's sequential one."""
    n = idx.numel()
    if not (idx.is_cpu and n >= _CHUNKED_MIN and 4 * _CHUNKS * size <= n):
        return torch.zeros(size, dtype=vals.dtype, device=idx.device).scatter_add_(0, idx, vals)
    q = n // _CHUNKS
    m = q * _CHUNKS
    rows = torch.zeros(_CHUNKS, size, dtype=vals.dtype, device=idx.device)
    rows.scatter_add_(1, idx[:m].view(_CHUNKS, q), vals[:m].view(_CHUNKS, q))
    return rows.sum(0, dtype=vals.dtype).scatter_add_(0, idx[m:], vals[m:])


def _bin_counts(idx, size):
    """Occurrences of each bin in [0, size), as int64: counted in float64 (exact below 2**53), since torch's
    int64 scatter-add is several times slower."""
    ones = torch.ones((), dtype=torch.float64, device=idx.device).expand(idx.shape)
    return _bin_sums(idx, ones, size).to(torch.int64)


def _hist_weights(w, x_shape):
    if w is None:
        return None
    w = as_tensor(w)
    if w.shape != x_shape:
        raise ValueError("weights should have the same shape as a.")
    return w.reshape(-1)


def _real_sample(t):
    if t.is_complex():  # NumPy bins complex data in lexicographic order; torch cannot search or bound it
        raise UnsupportedFeature("histograms of complex data")
    return t


def _hist_data(a):
    """``a`` as a tensor; bool data counts as uint8 with NumPy's warning."""
    t = _real_sample(as_tensor(a))
    if t.dtype == torch.bool:
        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for compatibility.", RuntimeWarning,
                      stacklevel=3)
        t = t.to(torch.uint8)
    return t


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """Counts of ``a`` (flattened) in ``bins``: a count, a string estimator, or monotonic edges."""
    t = _hist_data(a)
    w = _hist_weights(weights, t.shape)
    x = t.reshape(-1)
    edges, span = _bin_edges(x, bins, range, w)
    if span is not None and edges.numel() == 1 and x.numel():  # an estimated width beyond the span: no bins
        raise ValueError("'list' argument must have no negative elements")  # (NumPy's counting fails so)
    hist = _count(x, edges, w, span)
    if density:  # (NumPy's order of the divisions, for its roundings)
        hist = hist.to(torch.float64) / torch.diff(edges).to(torch.float64) / hist.sum().to(torch.float64)
    return wrap(hist), wrap(edges)


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    t = _hist_data(a)
    w = _hist_weights(weights, t.shape)
    return wrap(_bin_edges(t.reshape(-1), bins, range, w)[0])


def _dd_edges(col, b, r):
    """Edges of one histogramdd dimension: a bin count over ``r`` or the data's extent, or explicit edges."""
    if isinstance(b, str):  # NumPy compares it with 1
        raise TypeError("'<' not supported between instances of 'str' and 'int'")
    bt = as_tensor(b)
    if bt.ndim == 0:
        n = operator.index(b)
        if n < 1:
            raise ValueError("`bins[i]` must be positive, when an integer")
        first, last, comp = _outer_edges(col, r)
        return _linspace(first, last, n + 1, comp, comp)
    if bt.ndim != 1:
        raise ValueError("`bins[i]` must be a scalar or 1d array")
    if _eager(bt) and _decreasing(bt):  # data check, eager only
        raise ValueError("`bins[i]` must be monotonically increasing, when an array")
    return bt


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """D-dimensional histogram of N points (an (N, D) array or D arrays of N); float64 counts as NumPy."""
    if isinstance(sample, (list, tuple)) and not (len(sample) and _is_scalar_row(sample)):
        cols = [as_tensor(s).reshape(-1) for s in sample]
        if len({c.numel() for c in cols}) > 1:
            raise ValueError("setting an array element with a sequence. The requested array has an inhomogeneous "
                             "shape after 1 dimensions.")
        x = torch.stack(cols, 1) if cols else torch.empty((0, 0), dtype=torch.float64)
    else:
        x = as_tensor(sample)
        x = x.reshape(-1, 1) if x.ndim < 2 else x
    n, d = _real_sample(x).shape
    try:  # NumPy's rule: anything with a length (a string too) has one entry per dimension
        if len(bins) != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = [bins] * d
    ranges = [None] * d if range is None else list(range)
    if len(ranges) != d:
        raise ValueError("range argument must have one entry per dimension")
    edges = [_dd_edges(x[:, i], bins[i], ranges[i]) for i in builtins.range(d)]
    w = None if weights is None else as_tensor(weights).reshape(-1)
    if w is not None and w.numel() != n:
        raise ValueError("weights should have the same shape as a.")
    if w is not None and not _np.can_cast(_dtypes.from_torch(w.dtype), _np.float64, "safe"):
        # NumPy counts with bincount, whose weights cast safely to float64 (histogram's own sums take complex)
        raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(w.dtype)!r} to dtype('float64') "
                        "according to the rule 'safe'")
    flat = torch.zeros(n, dtype=torch.int64, device=x.device)
    valid = torch.ones(n, dtype=torch.bool, device=x.device)
    for i, e in enumerate(edges):
        nb = e.numel() - 1
        common = _dtypes.to_torch(_dtypes.result_type(x, e))
        xi, ei = _sortable(x[:, i].to(common)), _sortable(e.to(common))
        j = search(ei, xi, right=True) - 1
        j = torch.where(xi == ei[-1], nb - 1, j)
        valid &= (j >= 0) & (j < nb)
        flat = flat * nb + torch.clamp(j, 0, builtins.max(nb - 1, 0))
    shape = [e.numel() - 1 for e in edges]
    total = math.prod(shape)
    idx = torch.where(valid, flat, total)
    vals = torch.ones(n, dtype=torch.float64, device=x.device) if w is None else w.to(torch.float64)
    hist = _bin_sums(idx, vals, total + 1)[:total]
    hist = hist.reshape(shape)
    if density:  # (NumPy's order of the divisions, for its roundings)
        total = hist.sum()
        for i, e in enumerate(edges):
            sh = [1] * d
            sh[i] = -1
            hist = hist / torch.diff(e).to(torch.float64).reshape(sh)
        hist = hist / total
    return wrap(hist), [wrap(e) for e in edges]


def _is_scalar_row(sample):
    return all(isinstance(s, (int, float, bool, complex)) for s in sample)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """``histogramdd`` of the points (x, y): returns (H, xedges, yedges)."""
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):  # NumPy's rule: one or two entries are per axis, any other length edges for both
        bins = [bins, bins]
    h, (ex, ey) = histogramdd([x, y], bins, range, density, weights)
    return h, ex, ey


# ---------------------------------------------------------------- bincount, digitize


_DTYPE_BINS = {torch.bool: 2, torch.uint8: 256}  # the values a dtype holds all lie below this


def bincount(x, /, weights=None, minlength=0):
    """Occurrences of each non-negative integer in 1-D ``x`` (float64 sums with ``weights``)."""
    t = as_tensor(x)
    if t.ndim != 1:
        raise ValueError("object too deep for desired array" if t.ndim > 1 else "object of too small depth for "
                         "desired array")
    if not _np.can_cast(_dtypes.from_torch(t.dtype), _np.intp, "same_kind"):
        raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(t.dtype)!r} to dtype('int64') according "
                        "to the rule 'safe'")
    if type(minlength) is not torch.SymInt:
        minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    bins = _DTYPE_BINS.get(t.dtype)
    t = t.to(torch.int64)
    if _eager(t) and t.numel() and bool((t < 0).any()):  # data check, eager only
        raise ValueError("'list' argument must have no negative elements")
    w = None
    if weights is not None:
        w = as_tensor(weights)
        if w.shape != t.shape:
            raise ValueError("The weights and list don't have the same length.")
        if not _np.can_cast(_dtypes.from_torch(w.dtype), _np.float64, "safe"):
            raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(w.dtype)!r} to dtype('float64') "
                            "according to the rule 'safe'")
        w = w.to(torch.float64)
    if _tracing(t) and bins is not None and type(minlength) is int and minlength >= bins:
        # every value is below minlength (an image histogram, bincount(img.ravel(), minlength=256)): the size is
        # known, where torch.bincount's depends on the data (which later code, np.interp, then asks about)
        return wrap(_bin_counts(t, minlength) if w is None else _bin_sums(t, w, minlength))
    if not (t.is_cpu and t.numel() >= _CHUNKED_MIN) and type(minlength) is not torch.SymInt:
        return wrap(torch.bincount(t, w, minlength))
    # (a traced minlength known only when the code runs, ``minlength=np.unique(k).size``: torch.bincount would
    # ask for its value)
    # the bin count depends on the values: traced, an op whose output size is data-dependent, as torch.bincount
    return wrap(_bincount_op(t, w, minlength) if _tracing(t) else _bincount_chunked(t, w, minlength))


def _bincount_chunked(t, w, minlength):
    size = builtins.max(minlength, int(t.max()) + 1)
    return _bin_counts(t, size) if w is None else _bin_sums(t, w, size)


@torch.library.custom_op("npcompile::bincount", mutates_args=())
def _bincount_op(t: torch.Tensor, w: torch.Tensor | None, minlength: int) -> torch.Tensor:
    return _bincount_chunked(t, w, minlength)


@_bincount_op.register_fake
def _(t, w, minlength):
    size = torch.library.get_ctx().new_dynamic_size(min=minlength if type(minlength) is int else 0)
    return t.new_empty(size, dtype=torch.int64 if w is None else torch.float64)


def _direction(bf):
    """(increasing, decreasing) as NumPy judges ``bins`` (in float64): the first value differing from the first
    (NaN differs) sets the direction, all equal is increasing; then no step may go against it (NaN steps
    never do)."""
    if bf.numel() < 2:
        return torch.tensor(True), torch.tensor(False)
    differs = bf[1:] != bf[0]
    first = differs & (torch.cumsum(differs.to(torch.int64), 0) == 1)
    rising = ~differs.any() | (first & (bf[0] < bf[1:])).any()
    return rising & ~(bf[:-1] > bf[1:]).any(), ~rising & ~(bf[:-1] < bf[1:]).any()


def digitize(x, bins, right=False):
    """Index of the bin of each ``x`` for monotonically increasing or decreasing ``bins``."""
    xt, b = as_tensor(x), as_tensor(bins)
    if xt.is_complex():
        raise TypeError("x may not be complex")
    if b.is_complex():  # NumPy casts the bins to float64 safely
        raise TypeError(f"Cannot cast array data from dtype('{_dtypes.from_torch(b.dtype)}') to dtype('float64') "
                        "according to the rule 'safe'")
    if b.ndim != 1:
        raise ValueError("object too deep for desired array" if b.ndim > 1 else "object of too small depth for "
                         "desired array")
    common = _dtypes.to_torch(_dtypes.result_type(xt, b))
    xs, bs = _int_key(xt.to(common)), _int_key(b.to(common))  # NumPy's order (NaN last), as searchsorted's
    up, down = _direction(b.to(torch.float64))
    if _eager(up) and not bool(up | down):  # data check, eager only
        raise ValueError("bins must be monotonically increasing or decreasing")
    inc = search(bs, xs, right=not right)
    dec = b.numel() - search(bs.flip(0), xs, right=not right)
    return wrap(torch.where(up, inc, dec))


# ---------------------------------------------------------------- covariance


def _rows(x, rowvar, dtype, name):
    """Variables as rows: ``x`` at least 2-D, transposed for ``rowvar=False`` (NumPy keeps a 1-D ``m``, and a
    ``y`` with one row, as they are)."""
    if x.ndim > 2:
        raise ValueError(f"{name} has more than 2 dimensions")
    flip = not rowvar and (x.ndim != 1 if name == "m" else x.ndim == 2 and x.shape[0] != 1)
    x = x.reshape(1, -1) if x.ndim < 2 else x
    return cast(x.T if flip else x, _dtypes.to_torch(dtype))  # (complex to real: NumPy's ComplexWarning)


def _obs_weights(w, n, name):
    if w is None:
        return None
    w = as_tensor(w).to(torch.float64)
    if name == "fweights" and _eager(w) and not bool((w == torch.round(w)).all()):  # data check, eager only
        raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if _eager(w) and bool((w < 0).any()):  # data check, eager only
        raise ValueError(f"{name} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """Covariance of the rows (variables) of ``m`` (and ``y``) over its columns (observations)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    ops = [as_tensor(m)] + ([] if y is None else [as_tensor(y)])
    dt = _dtypes.to_dtype(dtype) if dtype is not None else _dtypes.result_type(*ops, _F8)
    x = _rows(ops[0], rowvar, dt, "m")
    if y is not None:
        yr = _rows(ops[1], rowvar, dt, "y")
        if yr.shape[1] != x.shape[1]:
            raise ValueError("all the input array dimensions except for the concatenation axis must match exactly")
        x = torch.cat([x, yr], 0)
    if x.shape[0] == 0:
        return wrap(torch.empty((0, 0), dtype=x.dtype))
    ddof = (0 if bias else 1) if ddof is None else int(ddof)
    n = x.shape[1]
    fw, aw = _obs_weights(fweights, n, "fweights"), _obs_weights(aweights, n, "aweights")
    w = fw if aw is None else aw if fw is None else fw * aw
    if w is None:
        avg, fact = x.mean(1, keepdim=True) if n else torch.full((x.shape[0], 1), torch.nan, dtype=x.dtype), n - ddof
    else:
        avg_arr, wsum = average(wrap(x), 1, wrap(w), returned=True)
        avg, wsum = avg_arr.tensor.unsqueeze(1), wsum.tensor[0]
        fact = wsum if ddof == 0 else wsum - ddof if aw is None else wsum - ddof * (w * aw).sum() / wsum
    if isinstance(fact, (int, float)) and fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        scale = math.inf
    else:
        scale = 1 / (torch.clamp(fact.real, min=0) if isinstance(fact, torch.Tensor) else fact)
    xc = x - avg.to(x.dtype)
    xw = xc if w is None else xc * w.to(xc.dtype)
    c = xc @ xw.T.conj()
    if c.is_complex() and (w is None or not w.is_complex()):
        c.imag.diagonal().zero_()  # the variances are real; torch's complex matmul rounds their imaginary parts
    c = c * scale  # NumPy scales by the reciprocal (1/0 is inf, and inf * 0j is nan)
    r = wrap(c.squeeze())
    return as_array0d(r)  # NumPy squeezes an array: one variable's is a 0-d array


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients: ``cov`` normalized by the standard deviations, clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype).tensor
    if c.ndim == 0:
        return wrap(c / c)
    sd = torch.sqrt(torch.diagonal(c).real)
    c = c / sd[:, None] / sd[None, :]
    if c.is_complex():
        return wrap(torch.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1)))
    return wrap(c.clamp(-1, 1))
