"""``numpy.polynomial.polyutils``: coefficient-series helpers shared by the six bases (on torch tensors)."""

from __future__ import annotations

import builtins

import numpy as _np
import torch

from .. import _dtypes
from .._ndarray import ndarray, wrap
from .._normalize import as_tensor

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapparms", "mapdomain", "format_float"]

format_float = _np.polynomial.polyutils.format_float  # printing of Python floats: NumPy's own


def tensor(x) -> torch.Tensor:
    return x.tensor if isinstance(x, ndarray) else as_tensor(x)


def series(alist, trim=True):
    """``as_series`` on tensors: 1-D coefficient tensors of one common inexact dtype (NumPy's ``common_type``),
    trailing zeros trimmed (a data-dependent length, as NumPy's)."""
    arrays = [tensor(a) for a in alist]
    arrays = [a.reshape(1) if a.ndim == 0 else a for a in arrays]
    if any(a.numel() == 0 for a in arrays):
        raise ValueError("Coefficient array is empty")
    if any(a.ndim != 1 for a in arrays):
        raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimmed(a) for a in arrays]
    try:
        common = _np.common_type(*(_np.empty(0, _dtypes.from_torch(a.dtype)) for a in arrays))
    except TypeError:
        raise ValueError("Coefficient arrays have no common type") from None
    dt = _dtypes.to_torch(_np.dtype(common))
    return [a.to(dt).clone() for a in arrays]


def trimmed(t: torch.Tensor) -> torch.Tensor:
    """Drop trailing zeros, keeping at least one coefficient.  The length is read from the data as one integer
    (traced: a data-dependent size known to lie in [1, n], so nothing after it guards on the values)."""
    n = t.shape[0]
    if n == 0:
        return t
    keep = torch.where(t != 0, torch.arange(1, n + 1, device=t.device), 1).amax().item()
    torch._check(keep >= 1)
    torch._check(keep <= n)
    return t[:keep]


def as_series(alist, trim=True):
    return [wrap(t) for t in series(alist, trim)]


def trimseq(seq):
    """Trailing zeros removed (one coefficient kept); empty input unchanged.  A list or tuple comes back as
    one, sliced as NumPy slices it (the same object when its last entry is not 0)."""
    if isinstance(seq, (list, tuple)):
        if len(seq) == 0 or seq[-1] != 0:
            return seq
        i = len(seq) - 1
        while i > 0 and seq[i] == 0:
            i -= 1
        return seq[:i + 1]
    t = tensor(seq)
    return wrap(trimmed(t)) if t.ndim == 1 else seq


def trimcoef(c, tol=0):
    """Trailing coefficients of magnitude at most ``tol`` removed."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [a] = series([c])
    big = torch.nonzero(a.abs() > tol)
    return wrap(a[:builtins.int(big[-1, 0]) + 1] if big.shape[0] else a[:1] * 0)


def getdomain(x):
    """The data's range: (min, max); for complex data the corners (min real, min imag), (max real, max imag)."""
    [c] = series([x], trim=False)
    if c.is_complex():
        lo, hi = torch.complex(c.real.min(), c.imag.min()), torch.complex(c.real.max(), c.imag.max())
    else:
        lo, hi = c.min(), c.max()
    return wrap(torch.stack([lo, hi]))


def mapparms(old, new):
    """``off, scl`` with ``off + scl*old == new`` at both ends (Python numbers for lists of them, as NumPy's)."""
    oldlen, newlen = old[1] - old[0], new[1] - new[0]
    return (old[1] * new[0] - old[0] * new[1]) / oldlen, newlen / oldlen


def mapdomain(x, old, new):
    """``x`` mapped linearly from the interval ``old`` onto ``new`` (series objects map as series)."""
    from ._class import ABCPolyBase

    if type(x) not in (builtins.int, builtins.float, builtins.complex) and not isinstance(x, ABCPolyBase):
        x = x if isinstance(x, ndarray) else wrap(as_tensor(x))
    off, scl = mapparms(old, new)
    return off + scl * x
