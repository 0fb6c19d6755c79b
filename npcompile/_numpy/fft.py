"""``numpy.fft`` on ``torch.fft``.

NumPy 2's types: float16/float32/complex64 transform in single precision (float16 is computed as float32,
which torch's CPU FFT needs), everything else (integers, bools, float64) in double.  ``n``/``s`` pad or crop,
``norm`` is 'backward' (default), 'ortho' or 'forward', and ``out=`` takes the result (exact shape,
'same_kind' casting; a higher-precision ``out=`` can raise the precision, ``_loop_precision``), all as in NumPy.
"""

from __future__ import annotations

import operator
import warnings

import numpy as _np
import torch
from numpy.fft import _pocketfft_umath as _pocketfft

from . import _dtypes
from . import _ufuncs as U
from ._ndarray import is_array0d, ndarray, wrap
from ._normalize import as_tensor, check_out, copy_to_out, normalize_axis_index

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_SINGLE = (torch.float16, torch.float32, torch.complex64)
_NORMS = (None, "backward", "ortho", "forward")

# ---------------------------------------------------------------- shared argument handling


def _inexact(t, name, real_only=False):
    """``t`` as the float or complex type the transform runs in."""
    if t.is_complex():
        if real_only:
            raise TypeError(f"ufunc '{name}' not supported for the input types, and the inputs could not be safely "
                            "coerced to any supported types according to the casting rule ''safe''")
        return t
    return t.to(torch.float32 if t.dtype in _SINGLE else torch.float64)


def _loop_precision(kind, t, x, norm, out):
    """``x`` (``t`` as ``_inexact`` makes it) in the precision NumPy's transform runs in given ``out=``.  NumPy
    picks the loop from the input, the ``norm`` factor and ``out`` together: where the input already is the
    loop's own type and the factor a typed scalar (not 1), that loop; otherwise (float16, integers, real input
    to a complex transform, or no scaling) an ``out=`` of higher precision computes in its precision."""
    if out is None or check_out(out).dtype.kind not in "fc":  # (another kind fails in _finish, as NumPy's)
        return x
    own = t.dtype in (torch.float32, torch.float64) if kind in _HALF_OUT else t.is_complex()
    scaled = norm == "ortho" or norm == ("backward" if kind in _INVERSE else "forward")
    if own and scaled:
        return x
    return x.to(torch.promote_types(x.dtype, _dtypes.to_torch(out.dtype).to_real()))


def _norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
    return norm or "backward"


def _points(n):
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _finish(r, out, name):
    """The result, or written into ``out`` (exact shape; 'same_kind' casting failing with NumPy's own error,
    named after NumPy's internal gufunc)."""
    if out is None:
        return wrap(r)
    out = check_out(out)
    if out.shape != tuple(r.shape):
        raise ValueError("output array has wrong shape.")
    rd = _dtypes.from_torch(r.dtype)
    if not _np.can_cast(rd, out.dtype, "same_kind"):
        gufunc = _pocketfft.fft if r.is_complex() else _pocketfft.irfft
        raise _np._core._exceptions._UFuncOutputCastingError(gufunc, "same_kind", rd, out.dtype, 0)
    return copy_to_out(r, out, "same_kind", name)


# ---------------------------------------------------------------- one axis

_ONE_AXIS = {"fft": torch.fft.fft, "ifft": torch.fft.ifft, "rfft": torch.fft.rfft, "irfft": torch.fft.irfft,
             "hfft": torch.fft.hfft, "ihfft": torch.fft.ihfft}
_REAL_OUT = ("irfft", "hfft")
_HALF_OUT = ("rfft", "ihfft")
_INVERSE = ("ifft", "irfft", "ihfft")


def _transform(kind, t, n, dim, norm, out=None):
    """One 1-D transform of tensor ``t`` (``n`` None: the transform's default for ``t``) in the precision NumPy
    uses for it with ``out``.  As in NumPy, irfft/hfft of real float16 input stay float16."""
    if n is None:
        n = 2 * (t.shape[dim] - 1) if kind in _REAL_OUT else t.shape[dim]
    n = _points(n)
    x = _loop_precision(kind, t, _inexact(t, kind, real_only=kind in _HALF_OUT), norm, out)
    factor_dtype = t.dtype if t.dtype in _SINGLE[:2] else t.dtype.to_real() if t.is_complex() else torch.float64
    if x.numel() and factor_dtype != (x.dtype.to_real() if x.is_complex() else x.dtype):
        # NumPy scales by a factor rounded to the input's precision (float16; float32 computed in double)
        inverse = kind in _INVERSE
        r = _ONE_AXIS[kind](x, n=n, dim=dim, norm="forward" if inverse else "backward")  # unscaled
        scaled = "backward" if inverse else "forward"  # the norm that divides this direction by n
        factor = n ** -0.5 if norm == "ortho" else 1.0 / n if norm == scaled else 1.0
        r = r * torch.tensor(factor, dtype=factor_dtype).item() if factor != 1.0 else r
    elif x.numel():
        r = _ONE_AXIS[kind](x, n=n, dim=dim, norm=norm)
    else:  # torch's FFT refuses empty arrays
        shape = list(x.shape)
        shape[dim] = n // 2 + 1 if kind in _HALF_OUT else n
        single = x.dtype in (torch.float32, torch.complex64)
        dtype = (torch.float32 if single else torch.float64) if kind in _REAL_OUT else (
            torch.complex64 if single else torch.complex128)
        r = x.new_zeros(shape, dtype=dtype)
    return r.to(torch.float16) if t.dtype == torch.float16 and kind in _REAL_OUT and out is None else r


def _one_axis(kind, a, n, axis, norm, out):
    t = as_tensor(a)
    axis = normalize_axis_index(axis, t.ndim)
    return _finish(_transform(kind, t, n, axis, _norm(norm), out), out, kind)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """``numpy.fft.fft``: the 1-D discrete Fourier transform along ``axis``."""
    return _one_axis("fft", a, n, axis, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    return _one_axis("ifft", a, n, axis, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """``numpy.fft.rfft``: of real input, the ``n // 2 + 1`` non-negative frequency terms."""
    return _one_axis("rfft", a, n, axis, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """``numpy.fft.irfft``: the inverse of rfft, ``n`` real points (default ``2 * (m - 1)``)."""
    return _one_axis("irfft", a, n, axis, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """``numpy.fft.hfft``: the real FFT of a Hermitian-symmetric signal given by its first half.  NumPy 2.x
    ignores ``out`` here (returning a new array), and so does this."""
    return _one_axis("hfft", a, n, axis, norm, None)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    return _one_axis("ihfft", a, n, axis, norm, out)


# ---------------------------------------------------------------- several axes


def _shape_and_axes(t, s, axes, inverse_real):
    """NumPy's ``s``/``axes`` for an n-D transform: no ``s`` means the input's sizes (irfftn's last:
    ``2 * (m - 1)``); in ``s``, -1 means the input's size and None (deprecated) each transform's default."""
    if s is None:
        axes = [normalize_axis_index(ax, t.ndim) for ax in (range(t.ndim) if axes is None else axes)]
        s = [t.shape[ax] for ax in axes]
        if inverse_real and axes:
            s[-1] = 2 * (s[-1] - 1)
        return s, axes
    s = list(s)
    if axes is None:
        warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future "
                      "version of NumPy, this will raise an error and `s[i]` will correspond to the size along the "
                      "transformed axis specified by `axes[i]`. To retain current behaviour, pass a sequence "
                      "[0, ..., k-1] to `axes` for an array of dimension k.", DeprecationWarning, stacklevel=4)
        axes = range(-len(s), 0)
    axes = [normalize_axis_index(ax, t.ndim) for ax in axes]
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise "
                      "an error in a future version of NumPy. To use the default behaviour of the corresponding "
                      "1-D transform, pass the value matching the default for its `n` parameter. To use the "
                      "default behaviour for every axis, the `s` argument can be omitted.", DeprecationWarning,
                      stacklevel=4)
    return [t.shape[ax] if n is not None and n == -1 else n for n, ax in zip(s, axes)], axes


def _c2c(t, s, axes, norm, inverse, last_first=True, out=None):
    """Complex transforms over ``axes``, one after another (repeated axes transform repeatedly) in NumPy's
    order: last axis first, except in irfftn.  With ``out``, as NumPy, each pass is written into ``out`` (its
    shape, its casting) and the next reads it back."""
    if not axes:
        return t
    if len(set(axes)) == len(axes) and t.numel() and t.dtype != torch.float16 and out is None:  # else per axis
        s = [t.shape[ax] if n is None else _points(n) for n, ax in zip(s, axes)]
        return (torch.fft.ifftn if inverse else torch.fft.fftn)(_inexact(t, ""), s=s, dim=axes, norm=norm)
    steps = list(zip(s, axes))
    for n, ax in reversed(steps) if last_first else steps:
        t = _through_out(_transform("ifft" if inverse else "fft", t, n, ax, norm, out), out)
    return t


def _through_out(r, out):
    return r if out is None else as_tensor(_finish(r, out, "fftn"))


def _n_axes(kind, a, s, axes, norm, out):
    t = as_tensor(a)
    s, axes = _shape_and_axes(t, s, axes, kind == "irfftn")
    norm = _norm(norm)
    if not axes:
        if kind in ("rfftn", "irfftn"):
            raise IndexError("list index out of range")
        return a if isinstance(a, ndarray) else wrap(t)  # nothing to transform: NumPy returns the input
    if kind == "rfftn":
        r = _through_out(_transform("rfft", t, s[-1], axes[-1], norm, out), out)
        r = _c2c(r, s[:-1], axes[:-1], norm, False, out=out)
    elif kind == "irfftn":  # NumPy's out= takes the last (real) transform only
        r = _transform("irfft", _c2c(t, s[:-1], axes[:-1], norm, True, False), s[-1], axes[-1], norm, out)
    else:
        r = _c2c(t, s, axes, norm, kind == "ifftn", out=out)
    return _finish(r, out, kind)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """``numpy.fft.fftn``: the n-D transform over ``axes`` (default all), sizes ``s``."""
    return _n_axes("fftn", a, s, axes, norm, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    return _n_axes("ifftn", a, s, axes, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _n_axes("fftn", a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """``numpy.fft.ifft2``; NumPy 2.x ignores ``out`` here (returning a new array), and so does this."""
    return _n_axes("ifftn", a, s, axes, norm, None)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """``numpy.fft.rfftn``: rfft over the last of ``axes``, then complex transforms over the others."""
    return _n_axes("rfftn", a, s, axes, norm, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """``numpy.fft.irfftn``: the inverse of rfftn; the last axis has ``s[-1]`` real points
    (default ``2 * (m - 1)``)."""
    return _n_axes("irfftn", a, s, axes, norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _n_axes("rfftn", a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """``numpy.fft.irfft2``; NumPy 2.x ignores ``out`` here (returning a new array), and so does this."""
    return _n_axes("irfftn", a, s, axes, norm, None)


# ---------------------------------------------------------------- frequencies and shifts


def _count(n):
    try:
        return operator.index(n)
    except TypeError:
        raise ValueError("n should be an integer") from None


def fftfreq(n, d=1.0, device=None):
    """``numpy.fft.fftfreq``: ``[0, 1, ..., n//2 - 1 (or (n-1)//2), -(n//2), ..., -1] / (d * n)``."""
    n = _count(n)
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    k = torch.arange(n, device=device)
    return U.multiply(wrap(torch.where(k < (n + 1) // 2, k, k - n)), 1.0 / (n * d))


def rfftfreq(n, d=1.0, device=None):
    """``numpy.fft.rfftfreq``: ``[0, 1, ..., n//2] / (d * n)``."""
    n = _count(n)
    return U.multiply(wrap(torch.arange(max(n // 2 + 1, 0), device=device)), 1.0 / (n * d))


def _shift(x, axes, sign):
    t = as_tensor(x)
    axes = tuple(range(t.ndim)) if axes is None else axes
    dims = (axes,) if isinstance(axes, (int, _np.integer)) or isinstance(axes, ndarray) and axes.ndim == 0 and \
        not is_array0d(axes) else tuple(axes)  # NumPy's integer types: ints and its integer scalars
    shifts = [sign * (t.shape[ax] // 2) for ax in dims]
    if t.ndim == 0:
        raise ValueError("not enough values to unpack (expected 2, got 0)")  # NumPy's roll fails on 0-D
    return wrap(torch.roll(t, shifts, dims) if dims else t.clone())


def fftshift(x, axes=None):
    """``numpy.fft.fftshift``: roll the zero frequency to the centre of each of ``axes`` (default all)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    return _shift(x, axes, -1)
