"""The classic polynomial API: ``poly1d`` and the ``poly*`` functions (coefficients in decreasing powers).

Arithmetic runs through the ufuncs, so result dtypes are NumPy's.  Several answers depend on the values, as in
NumPy, and so read them (eager only): ``roots`` and ``poly1d`` strip leading zero coefficients, ``polydiv`` trims
a negligible remainder, ``roots`` returns real values when no eigenvalue is complex, ``poly`` returns real
coefficients for conjugate-paired roots, and ``polyfit`` reports the numerical rank.
"""

from __future__ import annotations

import builtins
import operator
import warnings

import numpy as _np
import torch

from . import _dtypes
from . import _ufuncs as U
from ._ndarray import ndarray, wrap
from ._normalize import as_tensor
from ._trace import is_tracing

__all__ = ["poly1d", "poly", "polyfit", "polyval", "polyder", "polyint", "roots", "polyadd", "polysub", "polymul",
           "polydiv"]

_F64 = _dtypes.default_float


def _arr(x) -> ndarray:
    return x if isinstance(x, ndarray) else wrap(as_tensor(x))


def _arr1d(x) -> ndarray:
    """``atleast_1d``: 0-D becomes shape (1,)."""
    a = x.coeffs if isinstance(x, poly1d) else _arr(x)
    return wrap(a.tensor.reshape(1)) if a.ndim == 0 else a


def _sequence(x) -> ndarray:
    """Coefficients or zeros: a sequence, as NumPy's polynomial functions require (a scalar is a TypeError)."""
    a = x.coeffs if isinstance(x, poly1d) else _arr(x)
    if a.ndim == 0:
        raise TypeError("polynomial coefficients and zeros must be a sequence, not a scalar")
    return a


def _cat(*arrays) -> ndarray:
    """Concatenate 1-D arrays with NumPy's result dtype."""
    if len({a.ndim for a in arrays}) > 1:  # coefficients of more than one dimension
        raise ValueError("all the input arrays must have same number of dimensions")
    dt = _dtypes.to_torch(_dtypes.result_type(*arrays))
    return wrap(torch.cat([a.tensor.to(dt) for a in arrays]))


def _zeros(n, dtype) -> ndarray:
    return wrap(torch.zeros(n, dtype=_dtypes.to_torch(dtype)))


def _is_scalar(x) -> bool:
    return isinstance(x, (builtins.int, builtins.float, builtins.complex, _np.generic)) or (
        isinstance(x, ndarray) and x.ndim == 0)


def _trim_leading_zeros(a: ndarray) -> ndarray:
    """Drop leading zero coefficients (a data-dependent length, as NumPy's)."""
    nz = torch.nonzero(a.tensor != 0)
    if nz.shape[0] == 0:
        return wrap(a.tensor[:0])
    return wrap(a.tensor[builtins.int(nz[0, 0]):])


# ------------------------------------------------------------------------------ functions


def polyval(p, x):
    """Evaluate ``p[0] * x**(N-1) + ... + p[N-1]`` by Horner's rule (a ``poly1d`` ``x`` composes)."""
    pa = _sequence(p)
    if isinstance(x, poly1d):
        y = poly1d(0)
        for i in range(pa.shape[0]):
            y = y * x + wrap(pa.tensor[i])
        return y
    xa = _arr(x)
    y = wrap(torch.zeros_like(xa.tensor))
    for i in range(pa.shape[0]):
        y = U.add(U.multiply(y, xa), wrap(pa.tensor[i]))
    return y


def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (or a square matrix's eigenvalues)."""
    z = _sequence(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = wrap(_eigvals(z.tensor))
    elif z.ndim == 1:
        z = wrap(z.tensor.to(_dtypes.to_torch(_dtypes.to_dtype(_np.mintypecode(z.dtype.char)))))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    t = z.tensor
    a = torch.ones(1, dtype=t.dtype)
    for zero in t:
        a = torch.cat([a, a.new_zeros(1)]) - torch.cat([a.new_zeros(1), a * zero])
    if a.is_complex():
        r = t.to(torch.complex128)
        if builtins.bool((_sort_complex(r) == _sort_complex(r.conj())).all()):  # conjugate pairs: real
            a = a.real.clone()
    return wrap(a)


def _sort_complex(t):
    """Lexicographic (real, then imaginary) order, as NumPy's sort of complex numbers."""
    order = torch.argsort(t.imag, stable=True)
    order = order[torch.argsort(t.real[order], stable=True)]
    return t[order]


def _eigvals(a: torch.Tensor) -> torch.Tensor:
    """Eigenvalues as ``numpy.linalg.eigvals``: real dtype when all are real (data-dependent dtype)."""
    if not (a.is_floating_point() or a.is_complex()):
        a = a.to(torch.float64)
    if a.dtype == torch.float16:
        raise TypeError("array type float16 is unsupported in linalg")
    w = torch.linalg.eigvals(a)
    if not a.is_complex() and builtins.bool((w.imag == 0).all()):
        return w.real.contiguous()
    return w


def roots(p):
    """Roots of ``p``: eigenvalues of the companion matrix, after dropping leading and trailing zeros."""
    pa = _sequence(p)
    if pa.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    t = pa.tensor
    nz = torch.nonzero(t.reshape(-1) != 0).reshape(-1)
    if nz.shape[0] == 0:
        return wrap(torch.zeros(0, dtype=torch.float64))
    first, last = builtins.int(nz[0]), builtins.int(nz[-1])  # data-dependent, as NumPy's
    trailing = t.shape[0] - last - 1
    t = t[first:last + 1]
    if not (t.is_floating_point() or t.is_complex()):
        t = t.to(torch.float64)
    n = t.shape[0]
    if n > 1:
        companion = torch.diag(torch.ones(n - 2, dtype=t.dtype), -1)
        companion[0, :] = -t[1:] / t[0]
        r = _eigvals(companion)
    else:
        r = torch.zeros(0, dtype=torch.float64)
    return wrap(torch.cat([r, torch.zeros(trailing, dtype=r.dtype)]))


def polyder(p, m=1):
    """The m-th derivative of ``p`` (a ``poly1d`` stays one)."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    val = _sequence(p)
    for _ in range(m):
        n = val.shape[0] - 1
        val = U.multiply(wrap(val.tensor[:-1]), wrap(torch.arange(builtins.max(n, 0), 0, -1)))
    return poly1d(val) if truepoly else val


def polyint(p, m=1, k=None):
    """The m-th antiderivative of ``p``; ``k`` gives the integration constants (highest order first)."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = _arr1d(_zeros(m, _F64) if k is None else k)
    if ks.shape[0] == 1 and m > 1:
        ks = wrap(ks.tensor[0] * torch.ones(m, dtype=torch.float64))
    if ks.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    val = _sequence(p)
    for i in range(m):
        n = val.shape[0]
        val = _cat(U.divide(val, wrap(torch.arange(n, 0, -1))), wrap(ks.tensor[i:i + 1]))
    return poly1d(val) if truepoly else val


def _padded_op(op, a1, a2):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    x, y = _arr1d(a1), _arr1d(a2)
    diff = y.shape[0] - x.shape[0]
    if diff > 0:
        x = _cat(_zeros(diff, x.dtype), x)
    elif diff < 0:
        y = _cat(_zeros(-diff, y.dtype), y)
    val = op(x, y)
    return poly1d(val) if truepoly else val


def polyadd(a1, a2):
    """Sum of two polynomials (the shorter one padded with leading zeros)."""
    return _padded_op(U.add, a1, a2)


def polysub(a1, a2):
    """Difference of two polynomials."""
    return _padded_op(U.subtract, a1, a2)


def polymul(a1, a2):
    """Product of two polynomials: the convolution of their (leading-zero trimmed) coefficients."""
    from ._math import convolve

    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = convolve(poly1d(a1).coeffs, poly1d(a2).coeffs)
    return poly1d(val) if truepoly else val


def polydiv(u, v):
    """Quotient and remainder of polynomial division (float results; a negligible leading remainder is
    trimmed, as NumPy's)."""
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    ua, va = U.add(_arr1d(u), 0.0), U.add(_arr1d(v), 0.0)
    dt = _dtypes.to_torch(U.add(wrap(ua.tensor[0]), wrap(va.tensor[0])).dtype)
    m, n = ua.shape[0] - 1, va.shape[0] - 1
    vt = va.tensor.to(dt)
    scale = (1.0 / va.tensor[0]).to(dt)  # rounded in v's dtype first, as NumPy's ``1. / v[0]``
    q = torch.zeros(builtins.max(m - n + 1, 1), dtype=dt)
    r = ua.tensor.to(dt).clone()
    for k in range(m - n + 1):
        d = scale * r[k]
        if d.ndim:  # coefficients of more than one dimension, failing where NumPy's do
            raise ValueError("setting an array element with a sequence.")
        q[k] = d
        r[k:k + n + 1] -= d * vt
    while r.shape[0] > 1 and builtins.bool(torch.isclose(r[0], torch.zeros((), dtype=dt), rtol=1e-14, atol=1e-8)):
        r = r[1:]
    q, r = wrap(q), wrap(r)
    return (poly1d(q), poly1d(r)) if truepoly else (q, r)


def _vander(x: torch.Tensor, n: int) -> torch.Tensor:
    """Columns x**(n-1), ..., x**0, by running products (NumPy's order of multiplications)."""
    cols = torch.ones(x.shape[0], n, dtype=x.dtype, device=x.device)
    if n > 1:
        cols[:, 1:] = x[:, None]
        cols = torch.cumprod(cols, dim=1)
    return cols.flip(1)


def _lstsq(a: torch.Tensor, b: torch.Tensor, rcond: float, full: bool):
    """NumPy's ``lstsq`` by SVD: singular values below ``rcond * max`` count as zero.  Returns the solution,
    the residual sums of squares (empty unless full rank and overdetermined), the rank and the singular values.
    The rank is read from the values (its residuals' shape depends on it): only with ``full``, or eagerly for
    the callers' rank warning; otherwise (tracing) rank and residuals are None."""
    if a.dtype == torch.float16:
        raise TypeError("array type float16 is unsupported in linalg")
    u, s, vh = torch.linalg.svd(a, full_matrices=False)
    keep = s > rcond * s.max() if s.numel() else s > 0
    inv = torch.where(keep, 1.0 / torch.where(keep, s, torch.ones_like(s)), torch.zeros_like(s))
    b2 = b if b.ndim == 2 else b[:, None]
    x = vh.mH @ (inv[:, None] * (u.mH @ b2))
    x = x if b.ndim == 2 else x[:, 0]
    if not full and is_tracing(a):
        return x, None, None, s
    rank = builtins.int(keep.sum())
    m, n = a.shape
    if rank == n and m > n:
        resid = ((a @ x.reshape(n, -1) - b2).abs() ** 2).sum(0)  # real, complex data too
    else:
        resid = torch.zeros(0, dtype=s.dtype)
    return x, resid, rank, s


def fit_rcond(rcond, xt):
    """A fit's ``rcond`` as a Python float; by default ``len(x) * eps``, from the shape alone (nothing to read
    back while tracing)."""
    if rcond is not None:
        return builtins.float(rcond)
    return xt.shape[0] * builtins.float(torch.finfo(xt.real.dtype if xt.is_complex() else xt.dtype).eps)


def fit_rcond_out(rcond, value, xt):
    """``rcond`` as a full fit returns it: the caller's object, or the default as a scalar of x's real dtype
    (NumPy's ``len(x) * finfo(x.dtype).eps``: float32 for float32 x)."""
    return rcond if rcond is not None else wrap(torch.tensor(value, dtype=xt.real.dtype if xt.is_complex() else
                                                             xt.dtype))


def check_fit_data(xt, yt):
    """NumPy's checks of a least-squares fit's sample points (shared with ``polynomial.polynomial.polyfit``)."""
    if xt.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if xt.numel() == 0:
        raise TypeError("expected non-empty vector for x")
    if yt.ndim < 1 or yt.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if xt.shape[0] != yt.shape[0]:
        raise TypeError("expected x and y to have same length")


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit (decreasing powers), NumPy's column scaling and SVD solve.  While tracing,
    the RankWarning for a rank-deficient fit is not given (the rank is a value); the coefficients are NumPy's."""
    order = operator.index(deg) + 1 if not isinstance(deg, builtins.float) else builtins.int(deg) + 1
    xt, yt = U.add(_arr(x), 0.0).tensor, U.add(_arr(y), 0.0).tensor
    if deg < 0:
        raise ValueError("expected deg >= 0")
    check_fit_data(xt, yt)
    # NumPy's vander promotes x with its integer powers (float32 to float64); y keeps its dtype, weighted in place
    lhs, rhs = _vander(xt.to(_dtypes.to_torch(_dtypes.result_type(xt, _np.int64))), order), yt
    if w is not None:
        wt = U.add(_arr(w), 0.0).tensor
        if wt.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if wt.shape[0] != yt.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = (lhs * wt[:, None]).to(lhs.dtype)
        rhs = (rhs * (wt[:, None] if rhs.ndim == 2 else wt)).to(yt.dtype)
    dt = torch.promote_types(lhs.dtype, rhs.dtype)
    lhs, rhs = lhs.to(dt), rhs.to(dt)
    scale = torch.sqrt((lhs * lhs).sum(0))
    lhs = lhs / scale
    rc = fit_rcond(rcond, xt)
    c, resids, rank, s = _lstsq(lhs, rhs, rc, full or builtins.bool(cov))
    c = c / (scale if c.ndim == 1 else scale[:, None])
    if rank is not None and rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
    if full:
        rank = wrap(torch.tensor(rank, dtype=torch.int32))
        return wrap(c), wrap(resids), rank, wrap(s), fit_rcond_out(rcond, rc, xt)
    if not cov:
        return wrap(c)
    vbase = torch.linalg.inv(lhs.T @ lhs) / torch.outer(scale, scale)
    if cov == "unscaled":
        fac = 1.0
    else:
        if xt.shape[0] <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = resids / (xt.shape[0] - order)
    if yt.ndim == 1:
        return wrap(c), wrap(vbase * fac)
    return wrap(c), wrap(vbase[:, :, None] * fac)


# ------------------------------------------------------------------------------ poly1d


class poly1d:  # noqa: N801  (NumPy's name)
    """A one-dimensional polynomial (coefficients in decreasing powers), with arithmetic, calls, roots,
    derivatives and integrals.  Printing (``str``) is NumPy's own."""

    __hash__ = None
    __array_priority__ = 200

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = _arr1d(c_or_r)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = _trim_leading_zeros(c)
        if c.shape[0] == 0:
            c = wrap(torch.zeros(1, dtype=c.tensor.dtype))
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    # ------------------------------------------------------------ attributes
    @property
    def coeffs(self):
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        return roots(self._coeffs)

    r = roots

    # ------------------------------------------------------------ protocols
    def __array__(self, t=None, copy=None):
        return self._coeffs.__array__(t, copy)

    def __repr__(self):
        return "poly1d(%s)" % repr(self._coeffs)[6:-1]

    def __str__(self):
        return str(_np.poly1d(self._coeffs.__array__(), variable=self._variable))

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __iter__(self):
        return iter(self._coeffs)

    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order or val < 0:
            return wrap(torch.zeros((), dtype=self._coeffs.tensor.dtype))
        return self._coeffs[ind]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            zr = _zeros(key - self.order, self._coeffs.dtype)
            self._coeffs = _cat(zr, self._coeffs)
        self._coeffs = wrap(self._coeffs.tensor.clone())
        self._coeffs[self.order - key] = val

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return wrap(U.equal(self._coeffs, other._coeffs).tensor.all())  # a NumPy bool scalar: 0-D here

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # ------------------------------------------------------------ arithmetic
    def __neg__(self):
        return poly1d(U.negative(self._coeffs))

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _is_scalar(other):
            return poly1d(U.multiply(self._coeffs, other))
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        if _is_scalar(other):
            return poly1d(U.multiply(other, self._coeffs))
        return poly1d(polymul(poly1d(other)._coeffs, self._coeffs))

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    def __radd__(self, other):
        return poly1d(polyadd(poly1d(other)._coeffs, self._coeffs))

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not _is_scalar(val) or builtins.int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = [1]
        for _ in range(builtins.int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if _is_scalar(other):
            return poly1d(U.divide(self._coeffs, other))
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if _is_scalar(other):
            return poly1d(U.divide(other, self._coeffs))
        return polydiv(poly1d(other), self)

    __div__, __rdiv__ = __truediv__, __rtruediv__

    # ------------------------------------------------------------ calculus
    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m=m))
