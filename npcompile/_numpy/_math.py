"""The numeric rest: clipping and rounding, interpolation and differences, closeness tests, convolution, bit
packing, Python-function helpers (vectorize, piecewise, apply_*), floating-point error state and printing.

Elementwise arithmetic inside these functions goes through the ufuncs (``_ufuncs``), so their result dtypes are
NumPy's by construction; the rest is torch ops on the normalized tensors.
"""

from __future__ import annotations

import builtins
import contextlib
import math
import numbers
import operator
import re
import warnings

import numpy as _np
import torch
import torch.nn.functional as _F

from .._errors import UnsupportedFeature
from ._trace import check, is_tracing as _tracing
from . import _dtypes
from . import _ufuncs as U
from ._ndarray import as_array0d, ndarray, view_of, wrap
from ._normalize import (
    ArrayLike, OutArray, as_tensor, check_out, copy_to_out, normalize_axis_index, normalize_axis_tuple, normalizer,
    PY_SCALARS,
)
from ._sorting import search

__all__ = [
    "clip", "round", "around", "fix", "interp", "gradient", "diff", "ediff1d", "trapezoid", "unwrap", "sinc", "i0",
    "nan_to_num", "real_if_close", "real", "imag", "angle", "iscomplex", "isreal", "iscomplexobj", "isrealobj",
    "isscalar", "isclose", "allclose", "array_equal", "array_equiv", "apply_along_axis", "apply_over_axes",
    "vectorize", "piecewise", "convolve", "correlate", "packbits", "unpackbits", "frompyfunc", "errstate",
    "seterr", "geterr", "seterrcall", "geterrcall", "set_printoptions", "get_printoptions", "printoptions",
    "array_repr", "array_str", "array2string", "format_float_positional", "format_float_scientific",
    "base_repr", "binary_repr", "__array_namespace_info__", "astype", "bartlett", "blackman", "hamming", "hanning",
    "kaiser", "isposinf", "isneginf",
]

_NoValue = _np._NoValue


def _arr(x) -> ndarray:
    """An array-like as our ndarray (no copy for our arrays)."""
    return x if isinstance(x, ndarray) else wrap(as_tensor(x))


def _t(x, dtype) -> torch.Tensor:
    """``x`` as a tensor of numpy dtype ``dtype``."""
    t = as_tensor(x)
    td = _dtypes.to_torch(dtype)
    return t if t.dtype == td else t.to(td)


def _along(t: torch.Tensor, axis: int, start=None, stop=None) -> torch.Tensor:
    """``t[..., start:stop, ...]`` on ``axis`` (a view)."""
    return t[(slice(None),) * axis + (slice(start, stop),)]


def _is_inexact(t: torch.Tensor) -> bool:
    return t.is_floating_point() or t.is_complex()


# ------------------------------------------------------------------------------ clip and rounding


def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue, **kwargs):
    """Limit values to [min, max]: ``minimum(maximum(a, min), max)`` as one ufunc, NaNs propagating."""
    if a_min is _NoValue and a_max is _NoValue:
        a_min = None if min is _NoValue else min
        a_max = None if max is _NoValue else max
    elif a_min is _NoValue or a_max is _NoValue:
        missing = "a_min" if a_min is _NoValue else "a_max"
        raise TypeError(f"clip() missing 1 required positional argument: '{missing}'")
    elif min is not _NoValue or max is not _NoValue:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is "
                         "forbidden.")
    elif type(a) is ndarray and out is None and not kwargs and a.tensor.is_cpu and _clamps(a_min, a.tensor.dtype) \
            and _clamps(a_max, a.tensor.dtype):
        return wrap(torch.clamp(a.tensor, a_min, a_max))  # the common call: one torch op
    a = _arr(a)
    if a.dtype.kind in "iu":  # an out-of-range Python int bound clips nothing (NEP 50: no value promotion)
        info = _np.iinfo(a.dtype)
        if type(a_min) is builtins.int and a_min <= info.min:
            a_min = None
        if type(a_max) is builtins.int and a_max >= info.max:
            a_max = None
    if a_min is None and a_max is None:
        return U.positive(a, out=out, **kwargs)
    if a_min is None:
        return U.minimum(a, a_max, out=out, **kwargs)
    if a_max is None:
        return U.maximum(a, a_min, out=out, **kwargs)
    return _clip_ufunc(a, a_min, a_max, out=out, **kwargs)


# torch's CPU clamp with Python-number bounds is NumPy's clip loop exactly (NaN elements and bounds propagate, a
# tie keeps the element's zero sign, min > max gives max) where NumPy takes the number as it is into the array's
# dtype (NEP 50); other bounds (promoting, out of range, rounded to float16) take the ufunc path.
_CLAMP_FLOAT_MAX = {torch.float64: math.inf, torch.float32: float(_np.finfo(_np.float32).max)}  # torch refuses more
_CLAMP_INT_RANGE = {t: (torch.iinfo(t).min, torch.iinfo(t).max)
                    for t in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)}


def _clamps(v, dtype):
    """Whether torch.clamp takes bound ``v`` of an array of ``dtype`` as NumPy's clip does."""
    t = type(v)
    big = _CLAMP_FLOAT_MAX.get(dtype)
    if big is not None:
        return t is builtins.float and not big < abs(v) < math.inf or t is builtins.int and -2**53 <= v <= 2**53
    r = _CLAMP_INT_RANGE.get(dtype)
    return r is not None and t is builtins.int and r[0] <= v <= r[1]


def _clip_kernel(a, lo, hi):
    lo, hi = (b if isinstance(b, torch.Tensor) else torch.scalar_tensor(b, dtype=a.dtype, device=a.device)
              for b in (lo, hi))
    if a.dtype == torch.bool:
        return (a | lo) & hi
    if a.is_complex():
        return _complex_clip_step(_complex_clip_step(a, lo, torch.gt), hi, torch.lt)
    return torch.minimum(torch.maximum(a, lo), hi)


def _complex_clip_step(a, bound, beyond):
    """NumPy's complex clip loop, one bound at a time: a NaN element stays, else the element stays if it lies
    ``beyond`` the bound in lexicographic order, where NaN parts simply compare false (unlike maximum's order), so
    a NaN bound wins over any element not beyond it, and ties give the bound."""
    keep = torch.isnan(a) | beyond(a.real, bound.real) | ((a.real == bound.real) & beyond(a.imag, bound.imag))
    return torch.where(keep, a, bound)


_clip_ufunc = U.ufunc(_np._core.umath.clip, U._kinds(_clip_kernel, uint64=lambda a, lo, hi: U._U64_MINIMUM(
    U._U64_MAXIMUM(a, lo), hi)))


def round(a, decimals=0, out=None):
    """Round to ``decimals`` places, halves to even: ``rint(a * 10**d) / 10**d`` in a's dtype, as NumPy does
    (integers with negative ``decimals`` go through float64 and back)."""
    x = _arr(a)
    out = check_out(out)
    t = x.tensor
    decimals = operator.index(decimals)
    if decimals == 0 and not (t.dtype == torch.bool or _is_inexact(t)):
        return U.positive(x, out=out)
    if decimals == 0:
        return U.rint(x, out=out)  # booleans too: NumPy's float16 loop
    if t.dtype == torch.bool:  # NumPy's float path: multiplies by 10**decimals into a bool result, or into out
        target = _dtypes.bool_ if out is None else out.dtype
        if not _np.can_cast(_dtypes.float64, target, "same_kind"):
            raise _np._core._exceptions._UFuncOutputCastingError(U.multiply._np, "same_kind", _dtypes.float64,
                                                                 target, 0)
        t = t.to(torch.float64)
    if out is not None and decimals < 0 and not _is_inexact(t) and not _np.can_cast(_dtypes.float64, out.dtype,
                                                                                      "same_kind"):
        # NumPy divides integers by 10**-decimals into ``out`` itself
        raise _np._core._exceptions._UFuncOutputCastingError(U.divide._np, "same_kind", _dtypes.float64,
                                                             out.dtype, 0)
    r = _round_tensor(t, decimals, None if out is None else out.tensor.dtype)
    return wrap(r) if out is None else copy_to_out(r, out, "same_kind", U.multiply)


def _round_tensor(t: torch.Tensor, decimals: int, into=None) -> torch.Tensor:
    """``into``: the torch dtype of out=, if any."""
    if t.is_complex():
        return torch.complex(_round_tensor(t.real, decimals), _round_tensor(t.imag, decimals))
    if not t.is_floating_point():
        if decimals >= 0:
            return t.clone()
        return _round_tensor(_t(t, _dtypes.default_float), decimals).to(t.dtype)
    f = torch.tensor(10.0 ** builtins.abs(decimals), dtype=t.dtype, device=t.device)
    y = t * f if decimals >= 0 else t / f
    if into is not None and (into.is_floating_point or into.is_complex) and into != t.dtype:
        # NumPy writes that first step into out= and goes on there
        y, f = y.to(into), torch.tensor(10.0 ** builtins.abs(decimals), dtype=into, device=t.device)
    r = torch.complex(torch.round(y.real), torch.round(y.imag)) if y.is_complex() else torch.round(y)
    return r / f if decimals >= 0 else r * f


def around(a, decimals=0, out=None):
    """Alias of ``round``."""
    return round(a, decimals, out)


def fix(x, out=None):
    """Round toward zero: NumPy's ``fix`` is ``trunc`` (same loops, same dtypes)."""
    return U.trunc(x, out=out)


# ------------------------------------------------------------------------------ interpolation and differences


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of increasing ``xp`` -> ``fp`` at ``x`` (float64, or complex128 for complex
    ``fp``), with NumPy's slope formula and its retry from the right end when the left one gives NaN."""
    xt = _t(x, _dtypes.default_float) if not as_tensor(x).is_complex() else _no_complex_x()
    xpt = as_tensor(xp)
    if xpt.is_complex():
        _no_complex_x()
    xpt = _t(xpt, _dtypes.default_float)
    fpt = as_tensor(fp)
    fpt = _t(fpt, _dtypes.default_complex if fpt.is_complex() else _dtypes.default_float)
    if xpt.ndim != 1 or fpt.ndim != 1:
        raise ValueError("Data points must be 1-D sequences")
    check(xpt.shape[0] == fpt.shape[0], ValueError, "fp and xp are not of the same length.")  # sizes may be
    check(xpt.shape[0] != 0, ValueError, "array of sample points is empty")  # data-dependent (np.bincount)
    if period is not None:
        if type(period) not in (builtins.int, builtins.float):  # a NumPy scalar or 0-D array: in float64
            period = _t(period, _dtypes.default_float)
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = builtins.abs(period)
        left = right = None
        xt = torch.remainder(xt, period)
        xpt = torch.remainder(xpt, period)
        xpt, order = torch.sort(xpt)
        fpt = fpt[order]
        xpt = torch.cat([xpt[-1:] - period, xpt, xpt[:1] + period])
        fpt = torch.cat([fpt[-1:], fpt, fpt[:1]])
    if fpt.is_complex():
        r = torch.complex(*(_interp_real(xt, xpt, part, _part(left, p), _part(right, p))
                            for part, p in ((fpt.real, "real"), (fpt.imag, "imag"))))
    else:
        r = _interp_real(xt, xpt, fpt, left, right)
    return wrap(r)


def _no_complex_x():
    raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') according to the rule "
                    "'safe'")


def _part(v, which):
    return None if v is None else getattr(builtins.complex(v), which)


def _interp_real(x, xp, fp, left, right):
    n = xp.shape[0]
    lo = fp[0] if left is None else torch.tensor(float(left), dtype=fp.dtype, device=fp.device)
    hi = fp[-1] if right is None else torch.tensor(float(right), dtype=fp.dtype, device=fp.device)
    if n == 1:
        r = fp[0].expand(x.shape)
    else:
        j = (search(xp, x, right=True) - 1).clamp(0, n - 2)
        x0, x1, f0, f1 = xp[j], xp[j + 1], fp[j], fp[j + 1]
        slope = (f1 - f0) / (x1 - x0)
        r = slope * (x - x0) + f0
        retry = slope * (x - x1) + f1
        r = torch.where(torch.isnan(r), torch.where(torch.isnan(retry) & (f0 == f1), f0, retry), r)
        r = torch.where(x == x0, f0, r)
    r = torch.where(x == xp[-1], fp[-1], r)
    r = torch.where(x < xp[0], lo, torch.where(x > xp[-1], hi, r))
    return torch.where(torch.isnan(x), x, r) if n > 1 else r


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, first- or second-order one-sided at the edges.

    Coordinate arrays that turn out evenly spaced use the scalar-spacing formula, as NumPy does (chosen with
    ``torch.where``, not a branch, so both are computed)."""
    ft = as_tensor(f)
    n = ft.ndim
    axes = tuple(range(n)) if axis is None else normalize_axis_tuple(axis, n)
    if len(varargs) == 0:
        spacing = [1.0] * len(axes)
    elif len(varargs) == 1 and _ndim(varargs[0]) == 0:
        spacing = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacing = [_coordinate_spacing(v, ft.shape[ax]) for v, ax in zip(varargs, axes)]
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = _dtypes.from_torch(ft.dtype)
    if otype.kind not in "fc":
        if otype.kind in "iu":
            ft = ft.to(torch.float64)
        otype = _dtypes.default_float
    outs = []
    for ax, dx in zip(axes, spacing):
        if ft.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1)"
                             " elements are required.")
        outs.append(wrap(_gradient_axis(_arr(ft.movedim(ax, -1)), dx, edge_order).tensor
                         .to(_dtypes.to_torch(otype)).movedim(-1, ax)))
    return outs[0] if len(outs) == 1 else tuple(outs)


def _ndim(v):
    return v.ndim if isinstance(v, (ndarray, _np.ndarray, torch.Tensor)) else as_tensor(v).ndim


def _coordinate_spacing(v, length):
    """A scalar spacing, or (differences of the coordinates, whether they are all equal)."""
    c = as_tensor(v)
    if c.ndim == 0:
        return v
    if c.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if c.shape[0] != length:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if c.dtype == torch.bool:  # NumPy's diff of booleans: whether neighbours differ
        return U.not_equal(wrap(c[1:]), wrap(c[:-1]))
    if not _is_inexact(c):
        c = c.to(torch.float64)
    d = _arr(U.subtract(wrap(c[1:]), wrap(c[:-1])).tensor)
    return d


def _gradient_axis(f: ndarray, dx, edge_order: int) -> ndarray:
    """The gradient along the last axis of ``f`` (ufunc arithmetic: NumPy's dtypes and roundings)."""
    if isinstance(dx, ndarray) and dx.ndim == 1:
        step = wrap(dx.tensor[0])
        if dx.size < 2:
            return _gradient_axis(f, step, edge_order)
        same = (dx.tensor == dx.tensor[0]).all()
        if _dtypes.bool_ in (f.dtype, dx.dtype):  # NumPy picks the even or the uneven formulas by the spacing;
            # with booleans only one may be defined (the other subtracts or negates them): its branch, read back
            return _gradient_axis(f, step, edge_order) if bool(same) else _gradient_nonuniform(f, dx, edge_order)
        general = _gradient_nonuniform(f, dx, edge_order)
        uniform = _gradient_axis(f, step, edge_order)
        return wrap(torch.where(same, uniform.tensor.to(general.tensor.dtype), general.tensor))
    e = _ends(f)
    inner = (_inner(f, 2) - _inner(f, 0)) / (2.0 * dx)
    if edge_order == 1:
        return _edges_and_inside((e[1] - e[0]) / dx, inner, (e[5] - e[4]) / dx)
    first = (-1.5 / dx) * e[0] + (2.0 / dx) * e[1] + (-0.5 / dx) * e[2]
    last = (0.5 / dx) * e[3] + (-2.0 / dx) * e[4] + (1.5 / dx) * e[5]
    return _edges_and_inside(first, inner, last)


def _gradient_nonuniform(f: ndarray, dx: ndarray, edge_order: int) -> ndarray:
    """Second-order differences for uneven spacing ``dx`` (differences of the coordinates)."""
    d1, d2 = wrap(dx.tensor[:-1]), wrap(dx.tensor[1:])
    inner = (-d2 / (d1 * (d1 + d2))) * _inner(f, 0) + ((d2 - d1) / (d1 * d2)) * _inner(f, 1) \
        + (d1 / (d2 * (d1 + d2))) * _inner(f, 2)
    e = _ends(f)
    p1, p2, q1, q2 = (wrap(dx.tensor[i]) for i in (0, 1, -2, -1))
    if edge_order == 1:
        return _edges_and_inside((e[1] - e[0]) / p1, inner, (e[5] - e[4]) / q2)
    first = (-(2.0 * p1 + p2) / (p1 * (p1 + p2))) * e[0] + ((p1 + p2) / (p1 * p2)) * e[1] \
        + (-p1 / (p2 * (p1 + p2))) * e[2]
    last = (q2 / (q1 * (q1 + q2))) * e[3] + (-(q2 + q1) / (q1 * q2)) * e[4] \
        + ((2.0 * q2 + q1) / (q2 * (q1 + q2))) * e[5]
    return _edges_and_inside(first, inner, last)


def _inner(f: ndarray, shift: int) -> ndarray:
    """``f[..., shift:n - 2 + shift]``: the left, centre or right neighbours of the interior points."""
    return wrap(f.tensor[..., shift:f.shape[-1] - 2 + shift])


def _ends(f: ndarray):
    """The first three and the last three points along the last axis, each keeping its axis (size 1)."""
    t = f.tensor
    n = t.shape[-1]
    return [wrap(t[..., i % n:i % n + 1]) for i in (0, 1, 2, -3, -2, -1)]


def _edges_and_inside(first, inner, last):
    dt = _dtypes.to_torch(_dtypes.result_type(first, inner, last))
    return wrap(torch.cat([first.tensor.to(dt), inner.tensor.to(dt), last.tensor.to(dt)], dim=-1))


def diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    """The n-th discrete difference along ``axis`` (``not_equal`` for booleans, as NumPy)."""
    if n == 0:
        return _arr(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    t = as_tensor(a)
    if t.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis_index(axis, t.ndim)
    parts = [_edge_block(prepend, t, axis), t, _edge_block(append, t, axis)]
    parts = [p for p in parts if p is not None]
    if len(parts) > 1:
        dt = _dtypes.to_torch(_dtypes.result_type(*parts))
        if any(p.ndim != t.ndim or p.shape[:axis] + p.shape[axis + 1:] != t.shape[:axis] + t.shape[axis + 1:]
               for p in parts):
            raise ValueError("all the input array dimensions except for the concatenation axis must match exactly")
        t = torch.cat([p.to(dt) for p in parts], dim=axis)
    op = U.not_equal if t.dtype == torch.bool else U.subtract
    r = _arr(t)
    for _ in range(n):
        r = op(wrap(_along(r.tensor, axis, 1)), wrap(_along(r.tensor, axis, None, -1)))
    return r


def _edge_block(v, t, axis):
    if v is _NoValue:
        return None
    e = as_tensor(v)
    if e.ndim == 0:
        shape = list(t.shape)
        shape[axis] = 1
        e = e.expand(shape)
    return e


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of the flattened array, in its dtype, with optional blocks before and after."""
    t = as_tensor(ary).reshape(-1)
    d = _dtypes.from_torch(t.dtype)
    blocks = []
    for name, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is None:
            blocks.append(t.new_empty(0))
            continue
        e = as_tensor(v)
        if not _np.can_cast(_dtypes.from_torch(e.dtype), d, "same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule.")
        blocks.append(e.reshape(-1).to(t.dtype))
    if t.dtype == torch.bool:
        U.subtract(wrap(t[:1]), wrap(t[:1]))  # NumPy's TypeError for boolean subtract
    mid = U.subtract(wrap(t[1:]), wrap(t[:-1])).tensor if t.shape[0] else t[:0]
    return wrap(torch.cat([blocks[0], mid.to(t.dtype), blocks[1]]))


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of ``y`` by the trapezoidal rule along ``axis``: sum of ``d * (y[1:] + y[:-1]) / 2``."""
    yt = as_tensor(y)
    ax = normalize_axis_index(axis, yt.ndim)
    if x is None:
        d = dx
    else:
        xt = as_tensor(x)
        if xt.ndim == 1:
            d = diff(xt)
            shape = [1] * yt.ndim
            shape[ax] = d.shape[0]
            d = wrap(d.tensor.reshape(shape))
        else:
            d = diff(xt, axis=axis)
    hi, lo = wrap(_along(yt, ax, 1)), wrap(_along(yt, ax, None, -1))
    terms = U.multiply(d, U.add(hi, lo)) / 2.0  # always inexact: add.reduce keeps the dtype
    return wrap(terms.tensor.sum(operator.index(axis)))  # NumPy's axis as given: a 2-D ``x`` may broadcast the
    # terms up (an index: a NumPy integer axis reached torch's sum as an array)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """Remove jumps larger than ``discont`` (default ``period/2``) by adding multiples of ``period``."""
    pt = as_tensor(p)
    dd = diff(pt, axis=axis)
    axis = normalize_axis_index(axis, pt.ndim)
    if discont is None:
        discont = period / 2
    dtype = _dtypes.result_type(dd, period)
    if dtype.kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = U.add(U.remainder(U.subtract(dd, low), period), low).tensor
    if ambiguous:
        ddmod = _dtypes.where(U.equal(wrap(ddmod), low).tensor & U.greater(dd, 0).tensor,
                              torch.tensor(high, dtype=ddmod.dtype, device=ddmod.device), ddmod)
    correct = U.subtract(wrap(ddmod), dd).tensor
    correct = _dtypes.where(U.less(U.absolute(dd), discont).tensor, torch.zeros_like(correct), correct)
    td = _dtypes.to_torch(dtype)
    up = pt.to(td).clone()
    tail = U.add(wrap(_along(pt, axis, 1)), wrap(_cumsum(correct, axis)))
    _along(up, axis, 1).copy_(tail.tensor.to(td))
    return wrap(up)


def _cumsum(t: torch.Tensor, axis: int) -> torch.Tensor:
    """NumPy's ``cumsum``: float16 partial sums are rounded at every step (torch accumulates in float32)."""
    if t.dtype != torch.float16:
        return t.cumsum(axis)
    out = t.clone()
    for i in range(1, t.shape[axis]):
        _along(out, axis, i, i + 1).add_(_along(out, axis, i - 1, i))
    return out


@normalizer
def sinc(x: ArrayLike):
    """``sin(pi x) / (pi x)``, with 1 at 0 (NumPy substitutes eps for exact zeros)."""
    y = U.multiply(math.pi, wrap(x)).tensor
    eps = _np.finfo(_dtypes.from_torch(y.dtype)).eps if y.is_floating_point() else 1e-20
    y = torch.where(y != 0, y, torch.tensor(eps, dtype=y.dtype, device=y.device))
    return torch.sin(y) / y


@normalizer
def i0(x: ArrayLike):
    """Modified Bessel function of the first kind, order 0 (real input; non-floats become float64)."""
    if x.is_complex():
        raise TypeError("i0 not supported for complex values")
    if not x.is_floating_point():
        x = x.to(torch.float64)
    return as_array0d(wrap(torch.special.i0(x.abs())))  # (not a ufunc: an array also for a scalar)


# ------------------------------------------------------------------------------ window functions


def _window(M, shape):
    """``shape(n, M)`` at the symmetric points ``n = arange(1 - M, M, 2)`` in float64; one point for M == 1, none
    below.  ``M`` is read as NumPy reads it, through a float64 array (so a 0-D array or a float will do)."""
    M = builtins.float(M)
    if M <= 1:
        return wrap(torch.ones(1 if M == 1 else 0, dtype=torch.float64))
    return wrap(shape(torch.arange(1 - M, M, 2, dtype=torch.float64), M))


def hamming(M):
    """``0.54 + 0.46 cos(pi n / (M - 1))``."""
    return _window(M, lambda n, M: 0.54 + 0.46 * torch.cos(math.pi * n / (M - 1)))


def hanning(M):
    """``0.5 + 0.5 cos(pi n / (M - 1))``."""
    return _window(M, lambda n, M: 0.5 + 0.5 * torch.cos(math.pi * n / (M - 1)))


def blackman(M):
    """``0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))``."""
    return _window(M, lambda n, M: 0.42 + 0.5 * torch.cos(math.pi * n / (M - 1)) + 0.08 * torch.cos(
        2.0 * math.pi * n / (M - 1)))


def bartlett(M):
    """The triangular window ``1 - |n| / (M - 1)``."""
    return _window(M, lambda n, M: torch.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1)))


def kaiser(M, beta):
    """``i0(beta sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta)`` with ``alpha = (M - 1) / 2``."""
    M = builtins.float(M)
    if M == 1:
        return wrap(torch.ones(1, dtype=torch.float64))
    n = torch.arange(0, builtins.max(M, 0), dtype=torch.float64)
    alpha = (M - 1) / 2.0
    beta = torch.tensor(float(beta), dtype=torch.float64)
    return wrap(torch.special.i0(beta * torch.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / torch.special.i0(beta))


# ------------------------------------------------------------------------------ complex parts and NaN handling


def isposinf(x, out=None):
    """Elementwise ``+inf`` (TypeError for complex, whose sign is ambiguous)."""
    return _signed_inf(x, out, positive=True)


def isneginf(x, out=None):
    """Elementwise ``-inf`` (TypeError for complex)."""
    return _signed_inf(x, out, positive=False)


def _signed_inf(x, out, positive):
    a = _arr(x)
    if a.tensor.is_complex():
        raise TypeError(f"This operation is not supported for {a.dtype} values because it would be ambiguous.")
    sign = U.signbit(a)
    return U.logical_and(U.isinf(a), U.logical_not(sign) if positive else sign, out=out)



def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """Replace NaN and infinities (by default with 0 and the dtype's extremes), per part for complex.
    ``copy=False`` writes into ``x`` itself when it is an array."""
    a = _arr(x)
    if copy:
        a = wrap(a.tensor.clone())
    t = a.tensor
    for part in ((t.real, t.imag) if t.is_complex() else (t,) if t.is_floating_point() else ()):
        r = _finite(part, nan, posinf, neginf)
        if r.shape != part.shape:  # replacement arrays broadcast into x, never x into them
            raise ValueError(f"could not broadcast input array from shape {tuple(r.shape)} into shape "
                             f"{tuple(part.shape)}")
        part.copy_(r)
    return a[()] if t.ndim == 0 else a  # (NumPy's ``x[()]``: a new scalar for a 0-d array, also written in place)


def _finite(t, nan, posinf, neginf):
    info = torch.finfo(t.dtype)
    def value(v, default):
        return torch.tensor(default if v is None else v, dtype=torch.float64).to(t.dtype)
    # the masks come from the input, as NumPy's: a replacement that overflows the dtype stays infinite
    # (nan_to_num(float32 NaN, nan=1e300) is inf, not float32's max)
    isnan, isposinf, isneginf = torch.isnan(t), t == math.inf, t == -math.inf
    t = torch.where(isnan, value(nan, 0.0), t)
    t = torch.where(isposinf, value(posinf, info.max), t)
    return torch.where(isneginf, value(neginf, info.min), t)


def real_if_close(a, tol=100):
    """The real part when every imaginary part is within ``tol`` (machine epsilons if > 1) of zero.

    The result dtype depends on the values: a data-dependent check (``bool``), unavoidable here."""
    arr = _arr(a)
    t = arr.tensor
    if not t.is_complex():
        return arr
    if tol > 1:
        tol = torch.finfo(t.dtype).eps * tol
    if builtins.bool((t.imag.abs() < tol).all()):  # data-dependent dtype
        return arr.real
    return arr


def real(val):
    """The real part (Python numbers keep Python types, as in NumPy)."""
    if isinstance(val, (ndarray,) + PY_SCALARS):
        return val.real
    return _arr(val).real


def imag(val):
    """The imaginary part (zeros, read-only, for real arrays)."""
    if isinstance(val, (ndarray,) + PY_SCALARS):
        return val.imag
    return _arr(val).imag


def angle(z, deg=False):
    """The counterclockwise angle from the positive real axis: ``arctan2(imag, real)``."""
    a = _arr(z)
    if a.tensor.is_complex():
        r = U.arctan2(a.imag, a.real)
    else:
        r = U.arctan2(0, a)
    return U.multiply(r, 180 / math.pi) if deg else r


@normalizer
def iscomplex(x: ArrayLike):
    """Elementwise: a nonzero imaginary part (all False for real dtypes)."""
    return x.imag != 0 if x.is_complex() else torch.zeros(x.shape, dtype=torch.bool, device=x.device)


@normalizer
def isreal(x: ArrayLike):
    """Elementwise: a zero imaginary part."""
    return x.imag == 0 if x.is_complex() else torch.ones(x.shape, dtype=torch.bool, device=x.device)


def iscomplexobj(x):
    """Whether ``x`` has a complex dtype (looks at the dtype only)."""
    d = getattr(x, "dtype", None)
    if not isinstance(d, _np.dtype):
        d = _dtypes.from_torch(as_tensor(x).dtype)
    return d.kind == "c"


def isrealobj(x):
    """Not ``iscomplexobj``."""
    return not iscomplexobj(x)


def isscalar(element):
    """Python numbers, strings and NumPy scalars.  Our 0-D arrays are arrays (NumPy's ``isscalar`` is False for
    0-D arrays too), so reductions that NumPy returns as scalars answer False here."""
    return isinstance(element, (_np.generic, str, bytes, memoryview, numbers.Number))


# ------------------------------------------------------------------------------ closeness and equality


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|a - b| <= atol + rtol * |b|`` for finite ``b``, or exact equality (NumPy's formula, ufunc by ufunc)."""
    x, y, atol, rtol = (v if type(v) in PY_SCALARS else _arr(v) for v in (a, b, atol, rtol))
    if isinstance(y, ndarray):
        y = _astype(y, _dtypes.result_type(y, 1.0))
    elif type(y) is builtins.int:
        y = float(y)
    close = U.less_equal(U.absolute(U.subtract(x, y)), U.add(atol, U.multiply(rtol, U.absolute(y))))
    r = U.logical_or(U.logical_and(close, U.isfinite(y)), U.equal(x, y))
    if equal_nan:
        r = U.logical_or(r, U.logical_and(U.isnan(x), U.isnan(y)))
    return r


def _astype(a: ndarray, d) -> ndarray:
    td = _dtypes.to_torch(d)
    return a if a.tensor.dtype == td else wrap(a.tensor.to(td))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``isclose`` holds everywhere: a Python bool (data-dependent, as in NumPy)."""
    return builtins.bool(isclose(a, b, rtol, atol, equal_nan).tensor.all())


def array_equal(a1, a2, equal_nan=False):
    """Same shape and equal elements (NaNs equal with ``equal_nan``): a Python bool."""
    try:
        x, y = _arr(a1), _arr(a2)
    except Exception:
        return False
    if x.shape != y.shape:
        return False
    eq = U.equal(x, y).tensor
    if equal_nan:
        nx, ny = (U.isnan(a).tensor if _is_inexact(a.tensor) else torch.zeros_like(eq) for a in (x, y))
        eq = torch.where(nx | ny, nx == ny, eq)
    return builtins.bool(eq.all())


def array_equiv(a1, a2):
    """Shape-consistent (broadcastable) and equal everywhere: a Python bool."""
    try:
        x, y = _arr(a1), _arr(a2)
        torch.broadcast_shapes(x.tensor.shape, y.tensor.shape)
    except Exception:
        return False
    return builtins.bool(U.equal(x, y).tensor.all())


# ------------------------------------------------------------------------------ convolution


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D sequences: correlation with the shorter one reversed."""
    at, vt = (_at_least_1d(x) for x in (a, v))
    if vt.shape[0] > at.shape[0]:
        at, vt = vt, at
    if at.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if vt.shape[0] == 0:
        raise ValueError("v cannot be empty")
    return wrap(_correlate(at, vt, mode, conj=False, reverse=True))


def correlate(a, v, mode="valid"):
    """Cross-correlation ``c[k] = sum_n a[n + k] * conj(v[n])`` of two 1-D sequences."""
    at, vt = as_tensor(a), as_tensor(v)
    if at.ndim != 1 or vt.ndim != 1:
        raise ValueError("object too deep for desired array" if builtins.max(at.ndim, vt.ndim) > 1 else
                         "object of too small depth for desired array")
    if at.shape[0] == 0 or vt.shape[0] == 0:
        raise ValueError(f"{'first' if at.shape[0] == 0 else 'second'} array argument cannot be empty")
    return wrap(_correlate(at, vt, mode, conj=True))


def _at_least_1d(x):
    t = as_tensor(x)
    if t.ndim > 1:
        raise ValueError("object too deep for desired array")
    return t.reshape(1) if t.ndim == 0 else t


_MODES = ("valid", "same", "full")  # NumPy's legacy integer modes 0, 1, 2 index this


def _correlate(a, v, mode, conj, reverse=False):
    if isinstance(mode, (int, _np.integer)) and not isinstance(mode, bool):
        if mode not in (0, 1, 2):
            raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
        mode = _MODES[mode]
    elif not isinstance(mode, str):
        raise TypeError("convolve/correlate mode not understood")
    if mode not in _MODES:
        raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
    dt = _dtypes.to_torch(_dtypes.result_type(a, v))
    full = _correlate_full(a.to(dt), v.to(dt).conj() if conj and dt.is_complex else v.to(dt), reverse)
    m, n = a.shape[0], v.shape[0]
    short, length = builtins.min(m, n), builtins.max(m, n)
    if mode == "full":
        return full
    if mode == "valid":
        return full[short - 1:short - 1 + length - short + 1]
    start = (short - 1) - short // 2 if m >= n else short // 2
    return full[start:start + length]


# Traced, a short ``v`` (a smoothing window, a stencil) is correlated as a sum of shifted slices of ``a``, which
# Inductor computes in one loop: torch's conv1d of float64 is an unfold into a (len(a), len(v)) copy and a product
# (1M values with 31 taps compiled: 19-43 ms, NumPy 11.5).  Eager keeps conv1d (the slices would be a pass each).
_SHIFTED_TERMS = 64


def _shifted_sum(a, v):
    """``sum(a[k:k + len(a) - len(v) + 1] * v[k])``: each correlation lag's terms added in order of k."""
    n = v.shape[0]
    m = a.shape[0] - n + 1
    r = a[:m] * v[0]
    for k in range(1, n):
        r = r + a[k:k + m] * v[k]
    return r


def _correlate_full(a, v, reverse):
    """All ``len(a) + len(v) - 1`` lags (``v`` reversed first for a convolution), in a's dtype with NumPy's
    wrap-around for integers."""
    n = v.shape[0]
    if a.dtype in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        v = v.flip(0) if reverse else v
        if n <= _SHIFTED_TERMS and not a.is_complex() and _tracing(a):
            return _shifted_sum(_F.pad(a, (n - 1, n - 1)), v)
        return _F.conv1d(a.reshape(1, 1, -1), v.resolve_conj().reshape(1, 1, -1), padding=n - 1).reshape(-1)
    store = a.dtype
    if store == torch.bool:
        a, v = a.to(torch.int64), v.to(torch.int64)
    elif store in (torch.uint16, torch.uint32, torch.uint64):
        a, v = (x.view(torch.int64) if store == torch.uint64 else x.to(torch.int64) for x in (a, v))
    v = v.flip(0) if reverse else v
    pad = a.new_zeros(n - 1)
    windows = torch.cat([pad, a, pad]).unfold(0, n, 1)
    r = (windows * v).sum(-1)
    if store == torch.bool:
        return r != 0
    if store == torch.uint64:
        return r.view(torch.uint64)
    return r.to(store)


# ------------------------------------------------------------------------------ bit packing


def packbits(a, /, axis=None, bitorder="big"):
    """Pack the truth values of an integer or boolean array into uint8 bytes along ``axis`` (zero padded)."""
    order = _bit_order(bitorder, unpack=False)
    t = as_tensor(a)
    if t.is_floating_point() or t.is_complex():
        raise TypeError("Expected an input array of integer or boolean data type")
    t = t.reshape(1) if t.ndim == 0 else t  # NumPy packs a 0-d array as 1-d, along any axis it has
    bits = t.reshape(-1) if axis is None else t.movedim(normalize_axis_index(axis, t.ndim), -1)
    bits = bits if bits.dtype == torch.bool else bits != 0  # (compiled, a bool's != 0 went through int64 lanes)
    pad = -bits.shape[-1] % 8
    bits = _F.pad(bits.to(torch.uint8), (0, pad))
    bits = bits.reshape(*bits.shape[:-1], bits.shape[-1] // 8, 8)
    shifts = range(7, -1, -1) if order == "big" else range(8)
    r = bits[..., 0] << shifts[0]
    for i in range(1, 8):  # eight shifted slices OR-ed: compiled, a sum over the 8 bits ran 60x slower
        r = r | (bits[..., i] << shifts[i])
    return wrap(r if axis is None else r.movedim(-1, normalize_axis_index(axis, t.ndim)))


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Expand uint8 bytes into their bits along ``axis``; ``count`` keeps (or pads to) that many bits."""
    order = _bit_order(bitorder, unpack=True)
    t = as_tensor(a)
    if t.dtype != torch.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    t = t.reshape(1) if t.ndim == 0 else t  # as packbits
    if axis is None:
        t, ax = t.reshape(-1), 0
    else:
        ax = normalize_axis_index(axis, t.ndim)
    t = t.movedim(ax, -1)
    shifts = torch.arange(8, dtype=torch.uint8, device=t.device)
    shifts = shifts.flip(0) if order == "big" else shifts  # (compiled, masks of int32 words ran 20x slower)
    bits = ((t.unsqueeze(-1) >> shifts) & 1).reshape(*t.shape[:-1], t.shape[-1] * 8)
    if count is not None:
        count = operator.index(count)
        total = bits.shape[-1]
        keep = count if count >= 0 else total + count
        if keep < 0:
            raise ValueError("-count larger than number of elements")
        bits = _F.pad(bits, (0, keep - total)) if keep > total else bits[..., :keep]
    return wrap(bits.movedim(-1, ax))


def _bit_order(bitorder, unpack):
    """'big' or 'little' as NumPy's C code reads ``bitorder`` (before anything else): packbits wants a word
    starting 'big' or 'little', unpackbits only looks at the first letter."""
    if not isinstance(bitorder, str):
        raise TypeError(f"{'unpack' if unpack else 'pack'}() argument {4 if unpack else 3} must be str, not "
                        f"{type(bitorder).__name__}")
    if unpack:
        if bitorder[:1] not in ("b", "l"):
            raise ValueError("'order' must begin with 'l' or 'b'")
        return "big" if bitorder[0] == "b" else "little"
    for order in ("big", "little"):
        if bitorder.startswith(order):
            return order
    raise ValueError("'order' must be either 'little' or 'big'")


# ------------------------------------------------------------------------------ Python functions over arrays


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Call ``func1d`` on every 1-D slice along ``axis`` (a Python loop); results take the first one's dtype."""
    a = _arr(arr)
    axis = normalize_axis_index(axis, a.ndim)
    moved = a.tensor.movedim(axis, -1)
    outer = moved.shape[:-1]
    count = math.prod(outer)
    if count == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    flat = moved.reshape(count, moved.shape[-1])
    results = [_arr(func1d(wrap(flat[i]), *args, **kwargs)).tensor for i in range(count)]
    first = results[0]
    stacked = torch.stack([r.to(first.dtype) for r in results]).reshape(*outer, *first.shape)
    core = tuple(range(len(outer), stacked.ndim))
    perm = tuple(range(axis)) + core + tuple(range(axis, len(outer)))
    return wrap(stacked.permute(perm))


def apply_over_axes(func, a, axes):
    """Apply ``func(a, axis)`` repeatedly; a result with one fewer dimension gets the axis back as size 1."""
    val = _arr(a)
    n = val.ndim
    for axis in (axes,) if as_tensor(axes).ndim == 0 else axes:
        axis = axis + n if axis < 0 else axis
        res = _arr(func(val, axis))
        if res.ndim != val.ndim:
            res = wrap(res.tensor.unsqueeze(axis))
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate ``funclist[i]`` (or use the constant) where ``condlist[i]``; an extra function is the
    "otherwise" case.  Each function sees only its selected elements (boolean masking: data-dependent
    shapes), and is skipped when nothing is selected (a data-dependent check, as in NumPy)."""
    xa = _arr(x)
    xt = xa.tensor
    n2 = len(funclist)
    if _scalar_like(condlist) or (_scalar_like(condlist[0]) and xt.ndim != 0):
        condlist = [condlist]
    conds = _stack_conditions(condlist, xt)
    n = conds.shape[0]
    if n == n2 - 1:
        conds = torch.cat([conds, ~conds.any(0, keepdim=True)])
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = as_array0d(wrap(torch.zeros_like(xt)))  # (of a scalar too, an array)
    if y.size == 0:  # nothing to select (NumPy does not check the mask shapes then), but constants are still cast
        for func in funclist:
            if not callable(func):
                y[...] = func
        return y
    for cond, func in zip(conds, funclist):  # assigned as NumPy assigns (its casts, any dtype)
        if not callable(func):
            y[wrap(cond)] = func
            continue
        vals = xt[cond]
        if vals.numel() > 0:  # data-dependent, as NumPy's
            y[wrap(cond)] = func(wrap(vals), *args, **kw)
    return y


def _stack_conditions(condlist, x):
    if not len(condlist):
        return torch.zeros((0,) + x.shape, dtype=torch.bool, device=x.device)
    conds = [as_tensor(c).to(torch.bool) for c in condlist]
    if len({c.shape for c in conds}) > 1:
        raise ValueError("setting an array element with a sequence. The requested array has an inhomogeneous "
                         "shape after 1 dimensions.")
    return torch.stack(conds)


def _scalar_like(v):
    """NumPy's "a scalar, not a list of conditions": our 0-D arrays stand for NumPy scalars."""
    return not isinstance(v, (list, tuple, _np.ndarray, torch.Tensor)) and not (isinstance(v, ndarray) and v.ndim)


_SIGNATURE = re.compile(r"^\s*(\([\w,\s]*\)(?:\s*,\s*\([\w,\s]*\))*)\s*->\s*(\([\w,\s]*\)(?:\s*,\s*\([\w,\s]*\))*)"
                        r"\s*$")


def _parse_signature(sig):
    m = _SIGNATURE.match(sig)
    if not m:
        raise ValueError(f"not a valid gufunc signature: {sig}")
    parse = lambda part: [tuple(d.strip() for d in grp.split(",") if d.strip())  # noqa: E731
                          for grp in re.findall(r"\(([^)]*)\)", part)]
    return parse(m.group(1)), parse(m.group(2))


class vectorize:
    """Run a Python function element by element (or, with ``signature``, core-block by core-block) over
    broadcast arrays.  An eager convenience: each call is a Python loop.  Elements reach the function as NumPy's
    reach it: as Python scalars, except in the call on the first elements that infers ``otypes``, which gets
    read-only 0-D arrays (our NumPy scalars)."""

    def __init__(self, pyfunc=_NoValue, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        if isinstance(otypes, str):
            for c in otypes:
                if c not in _np.typecodes["All"]:
                    raise ValueError(f"Invalid otype specified: {c}")
        elif otypes is not None:
            otypes = "".join(_np.dtype(getattr(o, "_np_dtype", o)).char for o in otypes)
        self.otypes = otypes
        self.excluded = set(excluded) if excluded is not None else set()
        self._sig = _parse_signature(signature) if signature is not None else None
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self.pyfunc is _NoValue:
            self.pyfunc = args[0]
            self.__doc__ = self.__doc__ or getattr(args[0], "__doc__", None)
            return self
        fixed_kw = {k: v for k, v in kwargs.items() if k in self.excluded}
        free_kw = [k for k in kwargs if k not in self.excluded]
        free_pos = [i for i in range(len(args)) if i not in self.excluded]
        arrays = [_arr(args[i]) for i in free_pos] + [_arr(kwargs[k]) for k in free_kw]

        def call(*vals):
            full = list(args)
            for i, v in zip(free_pos, vals):
                full[i] = v
            kw = dict(fixed_kw, **dict(zip(free_kw, vals[len(free_pos):])))
            return self.pyfunc(*full, **kw)

        if self._sig is None:
            return self._elementwise(call, arrays)
        return self._blockwise(call, arrays)

    def _elementwise(self, call, arrays):
        """As NumPy's: ``otypes`` from a call on the first elements as (our) NumPy scalars, then every element
        as a Python scalar (NumPy's object loop), the results cast to ``otypes`` by NumPy itself (so an out of
        range Python int is its OverflowError, not a wrapped value)."""
        if not arrays:
            return call()
        otypes, cached = self.otypes, []
        if otypes is None:
            if any(a.size == 0 for a in arrays):
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            first = call(*(_element(a.tensor.reshape(-1)[0]) for a in arrays))
            otypes = "".join(_np.dtype(_dtypes.from_torch(as_tensor(o).dtype)).char
                             for o in (first if isinstance(first, tuple) else (first,)))
            cached = [first] if self.cache else []
        shape = torch.broadcast_shapes(*(a.tensor.shape for a in arrays))
        flats = [a.tensor.expand(shape).reshape(-1) for a in arrays]
        results = [cached.pop() if cached else call(*(f[i].item() for f in flats)) for i in range(math.prod(shape))]
        nout = len(otypes)
        if nout > 1:  # NumPy's loop leaves its outputs None where a result is not a tuple of nout values
            results = [r if isinstance(r, tuple) and len(r) == nout else (None,) * nout for r in results]
        outs = tuple(_collect([r[k] for r in results] if nout > 1 else results, otypes[k], shape,
                              flats[0].device) for k in range(nout))
        return outs if nout > 1 else outs[0]

    def _blockwise(self, call, arrays):
        ins, outs_dims = self._sig
        if len(arrays) != len(ins):
            raise TypeError(f"wrong number of positional arguments: expected {len(ins)}, got {len(arrays)}")
        sizes, loops = {}, []
        for a, dims in zip(arrays, ins):
            if a.ndim < len(dims):
                raise ValueError(f"input with shape {a.shape!r} does not have enough dimensions for all core "
                                 f"dimensions {dims!r}")
            core = a.shape[a.ndim - len(dims):]
            for d, s in zip(dims, core):
                if sizes.setdefault(d, s) != s:
                    raise ValueError(f"inconsistent size for core dimension {d!r}: {s!r} vs {sizes[d]!r}")
            loops.append(a.shape[:a.ndim - len(dims)])
        loop = tuple(torch.broadcast_shapes(*loops))
        blocks = [a.tensor.expand(loop + a.shape[a.ndim - len(d):]).reshape(-1, *a.shape[a.ndim - len(d):])
                  for a, d in zip(arrays, ins)]
        count = math.prod(loop)
        if count == 0 and self.otypes is None:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        results = []
        for i in range(count):
            r = call(*(wrap(b[i]) for b in blocks))
            r = r if isinstance(r, tuple) else (r,)
            if len(r) != len(outs_dims):
                raise ValueError(f"wrong number of outputs from pyfunc: expected {len(outs_dims)}, got {len(r)}")
            results.append([_arr(x).tensor for x in r])
        outs = []
        for k, dims in enumerate(outs_dims):
            if count == 0:
                if any(d not in sizes for d in dims):
                    raise ValueError("cannot call `vectorize` with a signature including new output dimensions "
                                     "on size 0 inputs")
                d = _dtypes.to_torch(_np.dtype(self.otypes[k]))
                outs.append(wrap(torch.empty(loop + tuple(sizes[x] for x in dims), dtype=d)))
                continue
            parts = [r[k] for r in results]
            for p in parts:
                if p.ndim != len(dims):
                    raise ValueError(f"wrong number of dimensions returned from pyfunc: expected {len(dims)}, "
                                     f"got {p.ndim}")
                for d, s in zip(dims, p.shape):
                    if sizes.setdefault(d, s) != s:
                        raise ValueError(f"inconsistent size for core dimension {d!r}: {s!r} vs {sizes[d]!r}")
            d = _dtypes.to_torch(_np.dtype(self.otypes[k])) if self.otypes else parts[0].dtype
            outs.append(wrap(torch.stack([p.to(d) for p in parts]).reshape(loop + tuple(parts[0].shape))))
        return tuple(outs) if len(outs_dims) > 1 else outs[0]


def _element(t):
    e = wrap(t)
    e._writeable = False
    return e


def _collect(values, code, shape, device):
    """The function's results as one array of type ``code``, converted by NumPy as its object loop's are."""
    objs = _np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        objs[i] = _np_scalar(v)
    return wrap(as_tensor(objs.astype(_np.dtype(code)).reshape(tuple(shape))).to(device))


def frompyfunc(func, /, nin, nout, **kwargs):
    """Object-dtype ufuncs: not modelled (use ``vectorize``)."""
    raise UnsupportedFeature("frompyfunc (object arrays)")


# ------------------------------------------------------------------------------ floating-point error handling
#
# The state is NumPy's own (``numpy.seterr``), so code that falls back to NumPy sees the same settings.  Our
# ufuncs check results only while some category is 'raise' or 'call': their kernels are swapped for checking
# ones then, so the default modes cost nothing.  Deviations: 'warn', 'print' and 'log' are accepted and
# silent (NumPy's default warns); underflow is never detected; only ufunc calls are checked (not reductions,
# linalg or other torch-level code); checks are skipped while tracing (compiled code never raises).

_CHECKED_MODES = ("raise", "call")
_FLAGS = {"divide": 1, "over": 2, "under": 4, "invalid": 8}
_MESSAGES = {"divide": "divide by zero", "over": "overflow", "invalid": "invalid value"}
_POLES = {  # where an infinite result from finite operands is a division by zero, not an overflow
    "divide": lambda a, b: b == 0, "floor_divide": lambda a, b: b == 0, "divmod": lambda a, b: b == 0,
    "reciprocal": lambda a: a == 0, "log": lambda a: a == 0, "log2": lambda a: a == 0,
    "log10": lambda a: a == 0, "log1p": lambda a: a == -1, "arctanh": lambda a: a.abs() == 1,
    "power": lambda a, b: (a == 0) & (b < 0), "float_power": lambda a, b: (a == 0) & (b < 0),
}
_INT_DIVISIONS = {"floor_divide", "remainder", "divmod", "fmod"}
_SIGNED = (torch.int8, torch.int16, torch.int32, torch.int64)
_original_kernels: dict = {}


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Set how floating-point errors are handled; returns the old settings (NumPy's state)."""
    old = _np.seterr(all=all, divide=divide, over=over, under=under, invalid=invalid)
    _sync_checks()
    return old


def geterr():
    """The current floating-point error handling (NumPy's state)."""
    return _np.geterr()


def seterrcall(func):
    """Set the callable (or object with ``write``) used by the 'call' mode; returns the old one."""
    return _np.seterrcall(func)


def geterrcall():
    return _np.geterrcall()


class errstate(contextlib.ContextDecorator):
    """Context manager (and decorator) setting floating-point error handling for a block."""

    def __init__(self, *, call=_NoValue, all=None, divide=None, over=None, under=None, invalid=None):
        self._call = call
        self._kw = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._saved = []

    def __enter__(self):
        old_call = seterrcall(self._call) if self._call is not _NoValue else _NoValue
        self._saved.append((seterr(**self._kw), old_call))
        return self

    def __exit__(self, *exc):
        old, old_call = self._saved.pop()
        seterr(**old)
        if old_call is not _NoValue:
            seterrcall(old_call)
        return False


def _sync_checks():
    """Install checking kernels while any error category is 'raise' or 'call'; restore the plain ones after."""
    want = any(v in _CHECKED_MODES for v in _np.geterr().values())
    if want and not _original_kernels:
        for name, uf in U.UFUNCS.items():
            if name == uf.__name__:  # each ufunc once, not again under its aliases
                _original_kernels[name] = uf._kernel
                uf._kernel = _checking(uf, uf._kernel)
    elif not want and _original_kernels:
        for name, kernel in _original_kernels.items():
            U.UFUNCS[name]._kernel = kernel
        _original_kernels.clear()


def _checking(uf, kernel):
    name = uf.__name__

    def k(*ops):
        r = kernel(*ops)
        if not _tracing():
            _check_result(name, ops, r)
        return r
    return k


def _check_result(name, ops, r):
    tensors = [o if isinstance(o, torch.Tensor) else torch.tensor(o) for o in ops]
    first = r[0] if isinstance(r, tuple) else r
    if not first.is_floating_point():
        if name in _INT_DIVISIONS and len(tensors) == 2 and not _is_inexact(tensors[1]):
            a, b = tensors
            if builtins.bool((b == 0).any()):
                _report("divide", name)
            if name in ("floor_divide", "divmod") and a.dtype in _SIGNED and builtins.bool(
                    ((a == torch.iinfo(a.dtype).min) & (b == -1)).any()):  # the one quotient out of range
                _report("over", name)
        return
    real_in = [t for t in tensors if t.is_floating_point() or not t.is_complex()]
    if len(real_in) != len(tensors):
        return  # complex operands: not checked
    finite_in = _all_of(t.isfinite() if t.is_floating_point() else torch.ones_like(t, dtype=torch.bool)
                        for t in real_in)
    nonnan_in = _all_of(~t.isnan() if t.is_floating_point() else torch.ones_like(t, dtype=torch.bool)
                        for t in real_in)
    inf_new = torch.isinf(first) & finite_in
    pole = _POLES.get(name)
    pole_mask = pole(*tensors) if pole is not None else torch.zeros((), dtype=torch.bool)
    if builtins.bool((inf_new & pole_mask).any()):
        _report("divide", name)
    if builtins.bool((inf_new & ~pole_mask).any()):
        _report("over", name)
    if builtins.bool((torch.isnan(first) & nonnan_in).any()):
        _report("invalid", name)


def _all_of(masks):
    r = None
    for m in masks:
        r = m if r is None else r & m
    return r


def _report(kind, name):
    mode = _np.geterr()[kind]
    message = f"{_MESSAGES[kind]} encountered in {name}"
    if mode == "raise":
        raise FloatingPointError(message)
    if mode == "call":
        f = _np.geterrcall()
        if callable(f):
            f(_MESSAGES[kind], _FLAGS[kind])
        elif f is not None:
            f.write(f"Warning: {message}\n")


# ------------------------------------------------------------------------------ printing (NumPy's own)

set_printoptions = _np.set_printoptions
get_printoptions = _np.get_printoptions
printoptions = _np.printoptions


def _np_array(a):
    return _np.asarray(a) if isinstance(a, ndarray) else a


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    return _np.array_repr(_np_array(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return _np.array_str(_np_array(a), max_line_width, precision, suppress_small)


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ", prefix="", *,
                 formatter=None, threshold=None, edgeitems=None, sign=None, floatmode=None, suffix="",
                 legacy=None):
    return _np.array2string(_np_array(a), max_line_width, precision, suppress_small, separator, prefix,
                            formatter=formatter, threshold=threshold, edgeitems=edgeitems, sign=sign,
                            floatmode=floatmode, suffix=suffix, legacy=legacy)


def _np_scalar(x):
    return _np.asarray(x)[()] if isinstance(x, ndarray) else x


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k", sign=False, pad_left=None,
                            pad_right=None, min_digits=None):
    return _np.format_float_positional(_np_scalar(x), precision, unique, fractional, trim, sign, pad_left,
                                       pad_right, min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False, pad_left=None, exp_digits=None,
                            min_digits=None):
    return _np.format_float_scientific(_np_scalar(x), precision, unique, trim, sign, pad_left, exp_digits,
                                       min_digits)


def base_repr(number, base=2, padding=0):
    return _np.base_repr(_np_scalar(number), base, padding)


def binary_repr(num, width=None):
    return _np.binary_repr(operator.index(num), width)


# ------------------------------------------------------------------------------ array API helpers


class __array_namespace_info__:  # noqa: N801  (the array API's name)
    """Array API inspection: devices are torch devices; the default device is the CPU."""

    __module__ = "npcompile._numpy"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return torch.device("cpu")

    def devices(self):
        cuda = [torch.device("cuda", i) for i in range(torch.cuda.device_count())] \
            if torch.cuda.is_available() else []
        return [torch.device("cpu")] + cuda

    def default_dtypes(self, *, device=None):
        return {"real floating": _dtypes.default_float, "complex floating": _dtypes.default_complex,
                "integral": _dtypes.default_int, "indexing": _dtypes.default_int}

    def dtypes(self, *, device=None, kind=None):
        names = {"bool": ["bool"], "signed integer": ["int8", "int16", "int32", "int64"],
                 "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
                 "real floating": ["float32", "float64"], "complex floating": ["complex64", "complex128"]}
        names["integral"] = names["signed integer"] + names["unsigned integer"]
        names["numeric"] = names["integral"] + names["real floating"] + names["complex floating"]
        if kind is None:
            kind = ("bool", "numeric")
        kinds = kind if isinstance(kind, tuple) else (kind,)
        out = {}
        for k in kinds:
            if isinstance(k, str) and k not in names:
                raise ValueError(f"unsupported kind: {k!r}")
            for n in names[k] if isinstance(k, str) else [_np.dtype(k).name]:
                out[n] = _np.dtype(n)
        return out


def astype(x, dtype, /, *, copy=True, device=None):
    """The array API's ``astype``: a cast (a copy unless ``copy=False`` and nothing changes), optionally to
    another torch device."""
    if not isinstance(x, ndarray):
        raise TypeError(f"Input should be a NumPy array. It is a {type(x)} instead.")
    r = x.astype(dtype, copy=copy)
    if device is not None and torch.device(device) != r.tensor.device:
        r = wrap(r.tensor.to(device))
    return r
