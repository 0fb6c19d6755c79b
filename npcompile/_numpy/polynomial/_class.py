"""The series classes (``Polynomial``, ``Chebyshev``, ...): one base class, each basis a subclass naming its
table and its module's functions (``class Chebyshev(ABCPolyBase, basis=CHEBYSHEV, functions=...)``).

A series is ``coef`` in its basis, evaluated on ``window`` after mapping ``domain`` onto it, as NumPy's
``ABCPolyBase``; printing is NumPy's own (the object is rebuilt as NumPy's class).
"""

from __future__ import annotations

import builtins
import numbers

import numpy as _np
import torch

from .._ndarray import ndarray, wrap
from .polyutils import getdomain, mapdomain, mapparms, series, tensor


def _interval(v, what):
    [t] = series([v], trim=False)
    if t.shape[0] != 2:
        raise ValueError(f"{what} has wrong number of elements.")
    return wrap(t)


def _data_domain(x):
    """The data's range, widened by 1 each side when it is a single point (without reading the values)."""
    d = getdomain(x).tensor
    same = d[0] == d[1]
    return wrap(torch.stack([torch.where(same, d[0] - 1, d[0]), torch.where(same, d[1] + 1, d[1])]))


class ABCPolyBase:
    """A series ``coef[0]*P_0(x) + coef[1]*P_1(x) + ...`` of the subclass' basis."""

    __hash__ = None
    __array_ufunc__ = None
    maxpower = 100
    basis_name = None
    _basis = None
    _ops: dict = {}

    def __init_subclass__(cls, basis=None, functions=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if basis is not None:
            cls._basis, cls.basis_name = basis, basis.basis_name
            cls._ops = {name[len(basis.prefix):]: f for name, f in functions.items()
                        if name.startswith(basis.prefix) and callable(f)}
            cls.domain, cls.window = (wrap(torch.tensor(basis.domain, dtype=torch.float64)) for _ in range(2))

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        if self._basis is None:
            raise TypeError("Can't instantiate abstract class ABCPolyBase")
        [c] = series([coef], trim=False)
        self.coef = wrap(c)
        # the defaults are made per object (not the class's arrays): new tensors are traceable (fake) ones
        self.domain = _interval(list(self._basis.domain) if domain is None else domain, "Domain")
        self.window = _interval(list(self._basis.domain) if window is None else window, "Window")
        if not isinstance(symbol, str):
            raise TypeError("Symbol must be a non-empty string")
        if not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self):
        return self._symbol

    # ------------------------------------------------------------ printing (NumPy's)
    def _np_series(self):
        cls = getattr(_np.polynomial, self._basis.name)
        return cls(_np.asarray(self.coef), _np.asarray(self.domain), _np.asarray(self.window), self._symbol)

    def __repr__(self):
        return repr(self._np_series())

    def __str__(self):
        return str(self._np_series())

    def __format__(self, spec):
        return format(self._np_series(), spec)

    def _repr_latex_(self):
        return self._np_series()._repr_latex_()

    # ------------------------------------------------------------ basics
    def __len__(self):
        return self.coef.shape[0]

    def __iter__(self):
        return iter(self.coef)

    def degree(self):
        return self.coef.shape[0] - 1

    def copy(self):
        return self.__class__(self.coef.copy(), self.domain.copy(), self.window.copy(), self._symbol)

    def mapparms(self):
        return mapparms(self.domain, self.window)

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self._symbol)

    # NumPy's comparisons give Python bools or NumPy bools, as their ``and`` chains stop
    def has_samecoef(self, other):
        return len(self.coef) == len(other.coef) and (self.coef == other.coef).all()

    def has_samedomain(self, other):
        return (self.domain == other.domain).all()

    def has_samewindow(self, other):
        return (self.window == other.window).all()

    def has_sametype(self, other):
        return isinstance(other, self.__class__)

    def __eq__(self, other):
        return (isinstance(other, self.__class__) and self.has_samedomain(other) and self.has_samewindow(other)
                and self.coef.shape == other.coef.shape and (self.coef == other.coef).all()
                and self._symbol == other._symbol)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __call__(self, arg):
        return self._ops["val"](mapdomain(arg, self.domain, self.window), self.coef)

    # ------------------------------------------------------------ arithmetic
    def _other_coef(self, other):
        if isinstance(other, ABCPolyBase):
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

    def _binary(self, op, other, reflected=False):
        oc = self._other_coef(other)
        try:
            coef = self._ops[op](oc, self.coef) if reflected else self._ops[op](self.coef, oc)
        except (TypeError, ValueError, NotImplementedError):
            return NotImplemented
        return self._new(coef)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def __add__(self, other):
        return self._binary("add", other)

    def __radd__(self, other):
        return self._binary("add", other, True)

    def __sub__(self, other):
        return self._binary("sub", other)

    def __rsub__(self, other):
        return self._binary("sub", other, True)

    def __mul__(self, other):
        return self._binary("mul", other)

    def __rmul__(self, other):
        return self._binary("mul", other, True)

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, builtins.bool):
            if not (isinstance(other, ndarray) and other.ndim == 0):
                raise TypeError(f"unsupported types for true division: '{type(self)}', '{type(other)}'")
        return self.__floordiv__(other)  # as NumPy's: float32 coefficients divided by an int come back float64

    def _divmod(self, a, b):
        try:
            quo, rem = self._ops["div"](a, b)
        except ZeroDivisionError:
            raise
        except (TypeError, ValueError, NotImplementedError):
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __divmod__(self, other):
        return self._divmod(self.coef, self._other_coef(other))

    def __rdivmod__(self, other):
        return self._divmod(other, self.coef)

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
        return self._new(self._ops["pow"](self.coef, other, maxpower=self.maxpower))

    # ------------------------------------------------------------ calculus, roots, conversion
    def deriv(self, m=1):
        off, scl = self.mapparms()
        return self._new(self._ops["der"](self.coef, m, scl))

    def integ(self, m=1, k=[], lbnd=None):  # noqa: B006  (NumPy's signature)
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._ops["int"](self.coef, m, k, lbnd, 1.0 / scl))

    def roots(self):
        return mapdomain(self._ops["roots"](self.coef), self.window, self.domain)

    def trim(self, tol=0):
        return self._new(self._ops["trim"](self.coef, tol))

    def truncate(self, size):
        isize = builtins.int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef[:isize])

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def linspace(self, n=100, domain=None):
        """``n`` evenly spaced points over ``domain`` (default the series') and the values there."""
        from .._creation import linspace

        d = self.domain if domain is None else domain
        x = linspace(d[0], d[1], n)
        return x, self(x)

    def convert(self, domain=None, kind=None, window=None):
        """The same function as a series of ``kind`` (default this class) on ``domain`` and ``window`` (default
        the kind's)."""
        kind = self.__class__ if kind is None else kind
        domain = kind.domain if domain is None else domain
        window = kind.window if window is None else window
        return self(kind.identity(domain, window=window, symbol=self._symbol))

    @classmethod
    def cast(cls, series, domain=None, window=None):
        """``series`` converted to this class."""
        return series.convert(cls.domain if domain is None else domain, cls,
                              cls.window if window is None else window)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        domain = list(cls._basis.domain) if domain is None else domain
        window = list(cls._basis.domain) if window is None else window
        off, scl = mapparms(window, domain)
        return cls(cls._ops["line"](off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg, domain=None, window=None, symbol="x"):
        ideg = builtins.int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def _domains(cls, x, domain, window, widen=True):
        if domain is None:
            domain = _data_domain(x) if widen else getdomain(x)
        elif type(domain) is list and len(domain) == 0:
            domain = list(cls._basis.domain)
        return domain, list(cls._basis.domain) if window is None else window

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):  # noqa: B006  (NumPy's signature)
        [r] = series([roots], trim=False)
        domain, window = cls._domains(r, domain, window, widen=False)
        off, scl = mapparms(domain, window)
        rnew = off + scl * wrap(r)
        return cls(cls._ops["fromroots"](rnew) / scl ** r.shape[0], domain, window, symbol)

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        """Least-squares fit; ``domain`` defaults to the data's range, mapped onto ``window``."""
        domain, window = cls._domains(tensor(x), domain, window)
        res = cls._ops["fit"](mapdomain(x, domain, window), y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain, window, symbol), status
        return cls(res, domain, window, symbol)
