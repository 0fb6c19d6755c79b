"""Power series (coefficients in increasing powers): the ``polyval``/``polyfit``/... functions and the
``Polynomial`` class with its domain -> window mapping.

As in NumPy, coefficient sequences are trimmed of trailing zeros by arithmetic (a data-dependent length), and
``Polynomial.roots`` are sorted eigenvalues of the companion matrix (real when none is complex).
"""

from __future__ import annotations

import builtins
import numbers
import operator
import warnings

import numpy as _np
import torch

from ..._errors import UnsupportedFeature
from .. import _dtypes
from .. import _ufuncs as U
from .._polynomial import check_fit_data, fit_rcond, fit_rcond_out
from .._ndarray import ndarray, wrap
from .._normalize import as_tensor, normalize_axis_index
from .._polynomial import _eigvals, _lstsq, _sort_complex

__all__ = ["Polynomial", "polyval", "polyfit", "polyder", "polyint", "polyadd", "polysub", "polymul", "polydiv",
           "polypow", "polyroots", "polyvander", "polyfromroots", "polyline", "polycompanion", "polyx", "polyone",
           "polyzero", "polydomain", "polymulx", "polytrim"]

_INTEGER_OR_BOOL = "?bBhHiIlLqQpP"


def _t(x) -> torch.Tensor:
    return x.tensor if isinstance(x, ndarray) else as_tensor(x)


def _as_series(alist, trim=True):
    """1-D coefficient tensors of one common inexact dtype (NumPy's ``common_type``), trailing zeros trimmed."""
    arrays = [_t(a) for a in alist]
    arrays = [a.reshape(1) if a.ndim == 0 else a for a in arrays]
    if any(a.numel() == 0 for a in arrays):
        raise ValueError("Coefficient array is empty")
    if any(a.ndim != 1 for a in arrays):
        raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [_trimseq(a) for a in arrays]
    try:
        common = _np.common_type(*(_np.empty(0, _dtypes.from_torch(a.dtype)) for a in arrays))
    except TypeError:
        raise ValueError("Coefficient arrays have no common type") from None
    dt = _dtypes.to_torch(_np.dtype(common))
    return [a.to(dt).clone() for a in arrays]


def _trimseq(t: torch.Tensor) -> torch.Tensor:
    """Drop trailing zeros, keeping at least one coefficient (a data-dependent length, as NumPy's)."""
    if t.shape[0] == 0:
        return t
    nz = torch.nonzero(t != 0)
    last = builtins.int(nz[-1, 0]) if nz.shape[0] else 0
    return t[:last + 1]


def _inexact(t: torch.Tensor) -> torch.Tensor:
    """``c + 0.0`` for integer and boolean coefficients: float64."""
    return t if t.is_floating_point() or t.is_complex() else t.to(torch.float64)


def _as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{desc} must be an integer, received {x}") from None


# ------------------------------------------------------------------------------ functions


polydomain = wrap(torch.tensor([-1.0, 1.0], dtype=torch.float64))
polyzero = wrap(torch.tensor([0.0], dtype=torch.float64))
polyone = wrap(torch.tensor([1.0], dtype=torch.float64))
polyx = wrap(torch.tensor([0.0, 1.0], dtype=torch.float64))


def polyline(off, scl):
    """The series ``off + scl*x``."""
    return wrap(as_tensor([off, scl] if scl != 0 else [off]))


def polyval(x, c, tensor=True):
    """``c[0] + c[1]*x + ...`` by Horner's rule; with ``tensor`` each coefficient column gets x's shape."""
    ct = _t(c)
    ct = ct.reshape(1) if ct.ndim == 0 else ct
    if ct.dtype == torch.bool or not (ct.is_floating_point() or ct.is_complex()):
        ct = ct.to(torch.float64)
    if isinstance(x, (tuple, list)):
        x = wrap(as_tensor(x))
    if isinstance(x, ndarray) and tensor:
        ct = ct.reshape(tuple(ct.shape) + (1,) * x.ndim)
    c0 = wrap(ct[-1]) + x * 0
    for i in range(2, ct.shape[0] + 1):
        c0 = wrap(ct[-i]) + c0 * x
    return c0


def polyvander(x, deg):
    """The pseudo-Vandermonde matrix: ``V[..., i] = x**i`` for i up to ``deg``."""
    ideg = _as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    xt = _inexact(_t(x))
    xt = xt.reshape(1) if xt.ndim == 0 else xt
    cols = [torch.ones_like(xt)] + ([xt] if ideg > 0 else [])
    for _ in range(2, ideg + 1):
        cols.append(cols[-1] * xt)
    return wrap(torch.stack(cols, dim=-1))


def polyadd(c1, c2):
    """Sum of two series."""
    return _padded(torch.add, c1, c2)


def polysub(c1, c2):
    """Difference of two series."""
    return _padded(torch.sub, c1, c2)


def _padded(op, c1, c2):
    a, b = _as_series([c1, c2])
    n = builtins.max(a.shape[0], b.shape[0])
    a, b = (torch.cat([x, x.new_zeros(n - x.shape[0])]) for x in (a, b))
    return wrap(_trimseq(op(a, b)))


def polymulx(c):
    """Multiply a series by x."""
    [a] = _as_series([c])
    return wrap(torch.cat([a.new_zeros(1), a]) if a.shape[0] > 1 or builtins.bool(a[0] != 0) else a)


def polymul(c1, c2):
    """Product of two series (a convolution)."""
    from .._math import convolve

    a, b = _as_series([c1, c2])
    return wrap(_trimseq(convolve(wrap(a), wrap(b)).tensor))


def polydiv(c1, c2):
    """Quotient and remainder of series division."""
    a, b = _as_series([c1, c2])
    if builtins.bool(b[-1] == 0):
        raise ZeroDivisionError("polynomial division")
    la, lb = a.shape[0], b.shape[0]
    if lb == 1:
        return wrap(a / b[-1]), wrap(a[:1] * 0)
    if la < lb:
        return wrap(a[:1] * 0), wrap(a)
    scl = b[-1]
    b = b[:-1] / scl
    i, j = la - lb, la - 1
    while i >= 0:
        a[i:j] -= b * a[j]
        i, j = i - 1, j - 1
    return wrap(a[j + 1:] / scl), wrap(_trimseq(a[:j + 1]))


def polypow(c, pow, maxpower=None):
    """``c**pow`` by repeated multiplication."""
    [a] = _as_series([c])
    power = builtins.int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return wrap(torch.ones(1, dtype=a.dtype))
    from .._math import convolve

    prd = wrap(a)
    for _ in range(power - 1):
        prd = convolve(prd, wrap(a))  # untrimmed, as NumPy's
    return prd


def polyder(c, m=1, scl=1, axis=0):
    """Differentiate ``m`` times along ``axis``, each time multiplying by ``scl``."""
    ct = _inexact(_t(c)).clone()
    ct = ct.reshape(1) if ct.ndim == 0 else ct
    cnt, iaxis = _as_int(m, "the order of derivation"), _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    iaxis = normalize_axis_index(iaxis, ct.ndim)
    if cnt == 0:
        return wrap(ct)
    ct = ct.movedim(iaxis, 0)
    n = ct.shape[0]
    if cnt >= n:
        ct = ct[:1] * 0
    else:
        for _ in range(cnt):
            n -= 1
            ct = (ct * _t(scl)).to(ct.dtype)  # NumPy scales in place
            j = torch.arange(1, n + 1).to(ct.dtype).reshape((n,) + (1,) * (ct.ndim - 1))
            ct = j * ct[1:]
    return wrap(ct.movedim(0, iaxis))


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
    """Integrate ``m`` times along ``axis``; constants ``k``, lower bound ``lbnd``, each time scaled by ``scl``."""
    ct = _inexact(_t(c)).clone()
    ct = ct.reshape(1) if ct.ndim == 0 else ct
    if not _np.iterable(k):
        k = [k]
    cnt, iaxis = _as_int(m, "the order of integration"), _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if _np.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if _np.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = normalize_axis_index(iaxis, ct.ndim)
    if cnt == 0:
        return wrap(ct)
    k = list(k) + [0] * (cnt - len(k))
    ct = ct.movedim(iaxis, 0)
    for i in range(cnt):
        n = ct.shape[0]
        ct = (ct * _t(scl)).to(ct.dtype)  # NumPy scales in place
        if n == 1 and builtins.bool((ct[0] == 0).all()):  # data-dependent, as NumPy's
            ct = ct.clone()
            ct[0] += k[i]
            continue
        j = torch.arange(1, n + 1).to(ct.dtype).reshape((n,) + (1,) * (ct.ndim - 1))
        tmp = torch.cat([ct[:1] * 0, ct / j])
        tmp[0] += k[i] - polyval(lbnd, wrap(tmp)).tensor
        ct = tmp
    return wrap(ct.movedim(0, iaxis))


def polycompanion(c):
    """The companion matrix of ``c`` (scaled so its eigenvalues are the roots)."""
    [a] = _as_series([c])
    if a.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if a.shape[0] == 2:
        return wrap((-a[0] / a[1]).reshape(1, 1))
    n = a.shape[0] - 1
    mat = torch.diag(torch.ones(n - 1, dtype=a.dtype), -1)
    mat[:, -1] -= a[:-1] / a[-1]
    return wrap(mat)


def polyroots(c):
    """Roots of the series, sorted (complex when any is complex)."""
    [a] = _as_series([c])
    if a.shape[0] < 2:
        return wrap(a[:0])
    if a.shape[0] == 2:
        return wrap((-a[0] / a[1]).reshape(1))
    r = _eigvals(polycompanion(wrap(a)).tensor.flip(0, 1))
    return wrap(_sort_complex(r) if r.is_complex() else torch.sort(r).values)


def polyfromroots(roots):
    """The monic series with the given roots (products taken pairwise, as NumPy's)."""
    if len(roots) == 0 if not isinstance(roots, ndarray) else roots.size == 0:
        return wrap(torch.ones(1, dtype=torch.float64))
    [r] = _as_series([roots], trim=False)
    r = _sort_complex(r) if r.is_complex() else torch.sort(r).values
    p = [polyline(-v, 1) for v in wrap(r)]
    n = len(p)
    while n > 1:
        m, rem = divmod(n, 2)
        tmp = [polymul(p[i], p[i + m]) for i in range(m)]
        if rem:
            tmp[0] = polymul(tmp[0], p[-1])
        p, n = tmp, m
    return p[0]


def polytrim(c, tol=0):
    """Remove trailing coefficients with magnitude at most ``tol``."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [a] = _as_series([c])
    big = torch.nonzero(a.abs() > tol)
    return wrap(a[:builtins.int(big[-1, 0]) + 1] if big.shape[0] else a[:1] * 0)


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """Least-squares fit of a series (increasing powers); ``deg`` may list the degrees to include.  While
    tracing, the RankWarning for a rank-deficient fit is not given (the rank is a value)."""
    xt, yt = _inexact(_t(x)), _inexact(_t(y))
    dg = _np.asarray(deg)
    if dg.ndim > 1 or dg.dtype.kind not in "iu" or dg.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if dg.min() < 0:
        raise ValueError("expected deg >= 0")
    check_fit_data(xt, yt)
    lmax = builtins.int(dg.max())
    van = polyvander(wrap(xt), lmax).tensor
    if dg.ndim:
        degs = _np.sort(dg)
        van = van[:, torch.as_tensor(degs)]
        order = len(degs)
    else:
        order = lmax + 1
    dt = _dtypes.to_torch(_dtypes.result_type(van, yt))
    lhs, rhs = van.to(dt), yt.to(dt)
    if w is not None:
        wt = _inexact(_t(w))
        if wt.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if wt.shape[0] != xt.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs = lhs * wt[:, None]
        rhs = rhs * (wt[:, None] if rhs.ndim == 2 else wt)
    rc = fit_rcond(rcond, xt)
    scl = torch.sqrt((lhs.abs() ** 2).sum(0))
    scl = torch.where(scl == 0, torch.ones_like(scl), scl)
    c, resids, rank, s = _lstsq(lhs / scl, rhs, rc, full)
    c = c / (scl if c.ndim == 1 else scl[:, None])
    if dg.ndim:
        cc = torch.zeros((lmax + 1,) + tuple(c.shape[1:]), dtype=c.dtype)
        cc[torch.as_tensor(degs)] = c
        c = cc
    if rank is not None and rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
    if full:
        rank = wrap(torch.tensor(rank, dtype=torch.int32))
        return wrap(c), [wrap(resids), rank, wrap(s), fit_rcond_out(rcond, rc, xt)]
    return wrap(c)


# ------------------------------------------------------------------------------ the Polynomial class


def _mapparms(old, new):
    """``off, scl`` with ``off + scl*old == new`` at both ends."""
    o, n = _t(old), _t(new)
    oldlen, newlen = o[1] - o[0], n[1] - n[0]
    return wrap((o[1] * n[0] - o[0] * n[1]) / oldlen), wrap(newlen / oldlen)


def _mapdomain(x, old, new):
    if type(x) not in (builtins.int, builtins.float, builtins.complex) and not isinstance(x, Polynomial):
        x = x if isinstance(x, ndarray) else wrap(as_tensor(x))
    off, scl = _mapparms(old, new)
    return off + scl * x


def _interval(v, what):
    [t] = _as_series([v], trim=False)
    if t.shape[0] != 2:
        raise ValueError(f"{what} has wrong number of elements.")
    return wrap(t)


class Polynomial:
    """A power series ``coef[0] + coef[1]*x + ...`` evaluated on ``window`` after mapping ``domain`` onto it."""

    __hash__ = None
    __array_ufunc__ = None
    maxpower = 100
    basis_name = None
    domain = polydomain
    window = polydomain

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        [c] = _as_series([coef], trim=False)
        self.coef = wrap(c)
        # the defaults are made per object (not the class's arrays): new tensors are traceable (fake) ones
        self.domain = _interval([-1.0, 1.0] if domain is None else domain, "Domain")
        self.window = _interval([-1.0, 1.0] if window is None else window, "Window")
        if not isinstance(symbol, str) or not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self):
        return self._symbol

    # ------------------------------------------------------------ printing (NumPy's)
    def _np_poly(self):
        return _np.polynomial.Polynomial(_np.asarray(self.coef), _np.asarray(self.domain),
                                         _np.asarray(self.window), self._symbol)

    def __repr__(self):
        return repr(self._np_poly())

    def __str__(self):
        return str(self._np_poly())

    def __format__(self, spec):
        return format(self._np_poly(), spec)

    def _repr_latex_(self):
        return self._np_poly()._repr_latex_()

    # ------------------------------------------------------------ basics
    def __len__(self):
        return self.coef.shape[0]

    def degree(self):
        return self.coef.shape[0] - 1

    def copy(self):
        return self.__class__(self.coef.copy(), self.domain.copy(), self.window.copy(), self._symbol)

    def mapparms(self):
        return _mapparms(self.domain, self.window)

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self._symbol)

    def has_samecoef(self, other):
        return self.coef.shape == other.coef.shape and builtins.bool((self.coef.tensor == other.coef.tensor).all())

    def has_samedomain(self, other):
        return builtins.bool((self.domain.tensor == other.domain.tensor).all())

    def has_samewindow(self, other):
        return builtins.bool((self.window.tensor == other.window.tensor).all())

    def has_sametype(self, other):
        return isinstance(other, self.__class__)

    def __eq__(self, other):
        return (isinstance(other, self.__class__) and self.has_samedomain(other) and self.has_samewindow(other)
                and self.has_samecoef(other) and self._symbol == other._symbol)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __call__(self, arg):
        return polyval(_mapdomain(arg, self.domain, self.window), self.coef)

    def __iter__(self):
        return iter(self.coef)

    # ------------------------------------------------------------ arithmetic
    def _other_coef(self, other):
        if isinstance(other, Polynomial):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not self.has_samedomain(other):
                raise TypeError("Domains differ")
            if not self.has_samewindow(other):
                raise TypeError("Windows differ")
            if self._symbol != other._symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _binary(self, f, other, reflected=False):
        oc = self._other_coef(other)
        try:
            coef = f(oc, self.coef) if reflected else f(self.coef, oc)
        except (TypeError, ValueError, NotImplementedError):
            return NotImplemented
        return self._new(coef)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def __add__(self, other):
        return self._binary(polyadd, other)

    def __radd__(self, other):
        return self._binary(polyadd, other, True)

    def __sub__(self, other):
        return self._binary(polysub, other)

    def __rsub__(self, other):
        return self._binary(polysub, other, True)

    def __mul__(self, other):
        return self._binary(polymul, other)

    def __rmul__(self, other):
        return self._binary(polymul, other, True)

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, builtins.bool):
            if not (isinstance(other, ndarray) and other.ndim == 0):
                raise TypeError(f"unsupported types for true division: '{type(self)}', '{type(other)}'")
        return self._new(self.coef / other)

    def __divmod__(self, other):
        oc = self._other_coef(other)
        try:
            quo, rem = polydiv(self.coef, oc)
        except ZeroDivisionError:
            raise
        except (TypeError, ValueError, NotImplementedError):
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __rdivmod__(self, other):
        try:
            quo, rem = polydiv(other, self.coef)
        except ZeroDivisionError:
            raise
        except (TypeError, ValueError, NotImplementedError):
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __floordiv__(self, other):
        r = self.__divmod__(other)
        return r if r is NotImplemented else r[0]

    def __rfloordiv__(self, other):
        r = self.__rdivmod__(other)
        return r if r is NotImplemented else r[0]

    def __mod__(self, other):
        r = self.__divmod__(other)
        return r if r is NotImplemented else r[1]

    def __rmod__(self, other):
        r = self.__rdivmod__(other)
        return r if r is NotImplemented else r[1]

    def __pow__(self, other):
        return self._new(polypow(self.coef, other, maxpower=self.maxpower))

    # ------------------------------------------------------------ calculus, roots, fitting
    def deriv(self, m=1):
        off, scl = self.mapparms()
        return self._new(polyder(self.coef, m, scl))

    def integ(self, m=1, k=[], lbnd=None):  # noqa: B006  (NumPy's signature)
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(polyint(self.coef, m, k, lbnd, 1.0 / scl))

    def roots(self):
        return _mapdomain(polyroots(self.coef), self.window, self.domain)

    def trim(self, tol=0):
        return self._new(polytrim(self.coef, tol))

    def truncate(self, size):
        isize = builtins.int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef[:isize])

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def linspace(self, n=100, domain=None):
        """``n`` evenly spaced points over ``domain`` (default the polynomial's) and the values there."""
        d = _t(self.domain if domain is None else domain).to(torch.float64)
        x = wrap(torch.linspace(float(d[0]), float(d[1]), n, dtype=torch.float64))
        return x, self(x)

    def convert(self, domain=None, kind=None, window=None):
        """The same polynomial expressed with another domain and window (other bases are not modelled)."""
        if kind is not None and not issubclass(kind, Polynomial):
            raise UnsupportedFeature("Polynomial.convert to another basis")
        kind = kind or self.__class__
        return self(kind.identity(kind.domain if domain is None else domain,
                                  window=kind.window if window is None else window, symbol=self._symbol))

    def cast(self, series, domain=None, window=None):
        raise UnsupportedFeature("Polynomial.cast")

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        domain = [-1.0, 1.0] if domain is None else domain
        window = [-1.0, 1.0] if window is None else window
        off, scl = _mapparms(window, domain)
        return cls(torch.stack([off.tensor, scl.tensor]), domain, window, symbol)

    @classmethod
    def basis(cls, deg, domain=None, window=None, symbol="x"):
        ideg = builtins.int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):  # noqa: B006  (NumPy's signature)
        [r] = _as_series([roots], trim=False)
        if domain is None:
            domain = _getdomain(r)
        elif type(domain) is list and len(domain) == 0:
            domain = [-1.0, 1.0]
        window = [-1.0, 1.0] if window is None else window
        off, scl = _mapparms(domain, window)
        rnew = off + scl * wrap(r)
        return cls(polyfromroots(rnew) / scl ** r.shape[0], domain, window, symbol)

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        """Least-squares fit; ``domain`` defaults to the data's range, mapped onto ``window``."""
        if domain is None:
            domain = _getdomain(_t(x))
        elif type(domain) is list and len(domain) == 0:
            domain = [-1.0, 1.0]
        window = [-1.0, 1.0] if window is None else window
        xnew = _mapdomain(x, domain, window)
        res = polyfit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain, window, symbol), status
        return cls(res, domain, window, symbol)


def _getdomain(x: torch.Tensor) -> ndarray:
    """The data's range (widened by 1 each side when it is a single point)."""
    [c] = _as_series([x], trim=False)
    if c.is_complex():
        raise UnsupportedFeature("Polynomial.fit with complex abscissae")
    lo, hi = c.min(), c.max()
    same = lo == hi
    return wrap(torch.stack([torch.where(same, lo - 1, lo), torch.where(same, hi + 1, hi)]))
