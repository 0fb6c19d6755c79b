"""The ndarray: one torch.Tensor plus the NumPy bookkeeping torch lacks (base, writeable).

Methods that are also functions (``a.sum()``, ``a.reshape()``...) are attached in ``_methods`` once every
topic module is loaded; operators go through the ufunc objects, so casting and promotion have one home.
"""

from __future__ import annotations

import builtins
import operator

import numpy as _np
import torch

from .._errors import UnsupportedFeature
from . import _dtypes


def wrap(t: torch.Tensor, base=None) -> "ndarray":
    """The internal constructor: no checks, no copies."""
    a = object.__new__(ndarray)
    a.tensor = t
    a._base = base
    a._writeable = True
    return a


_REVERSED_DIMS = tuple(tuple(range(n - 1, -1, -1)) for n in range(65))  # NumPy's 64 dims at most


def reversed_axes(t: torch.Tensor) -> torch.Tensor:
    """``t`` with its axes reversed (NumPy's ``.T``).  ``torch.permute(t, dims)``, not ``t.permute(dims)``:
    Tensor methods parse a tuple argument slowly (about 0.7us more per call)."""
    return torch.permute(t, _REVERSED_DIMS[t.ndim])


def view_of(src: "ndarray", t: torch.Tensor) -> "ndarray":
    """A result that NumPy returns as a view of ``src``: base chain and writeability follow NumPy.  A view is
    always a new tensor (torch returns ``t[...]`` itself): compiled code tells "is the argument" from "views
    it" by tensor identity."""
    a = object.__new__(ndarray)
    a.tensor = t if t is not src.tensor else t.view(t.shape)
    a._base = src if src._base is None else src._base
    a._writeable = src._writeable
    if t.ndim == 0 and (src.tensor.ndim or is_array0d(src)):
        a._array0d = True  # a 0-d view of an array (``a[..., 0]``, ``a.reshape(())``) is an array
    return a


def is_array0d(a: "ndarray") -> bool:
    """Whether the 0-d ``a`` is an array, as ``np.array(1.0)`` or ``np.zeros(())``, rather than a scalar, as
    ``np.float64(1.0)``, ``a.sum()`` or ``a[0]``.  Scalars are 0-d arrays here (README), marked apart only where
    NumPy's answers differ: an in-place operator writes into an array but makes a new scalar (``s += 0.5`` on an
    integer scalar gives a float64 scalar; a name bound to the old scalar keeps its value).  Unmarked 0-d
    results are scalars: NumPy returns a scalar from every ufunc, reduction and integer index."""
    # (a slot only 0-d arrays set; reading it unset raises inside getattr, 0.3 us, so the cheap test goes first)
    return a.tensor.ndim == 0 and getattr(a, "_array0d", False)


def is_scalar(a: "ndarray") -> bool:
    """Whether ``a`` stands for a NumPy scalar (0-d, not is_array0d): NumPy's are immutable, so a write into one
    (``s[...] = 1``, ``out=s``, ``copyto(s, 1)``) is NumPy's TypeError, not a write."""
    return a.tensor.ndim == 0 and not is_array0d(a)


def as_array0d(a: "ndarray") -> "ndarray":
    """``a``, marked an array if it is 0-d (results of more dims are arrays anyway)."""
    if a.tensor.ndim == 0:
        a._array0d = True
    return a


class _Flags:
    __slots__ = ("_a",)

    def __init__(self, a):
        self._a = a

    @property
    def c_contiguous(self):
        return _is_contiguous(self._a.tensor, "C")

    @property
    def f_contiguous(self):
        return _is_contiguous(self._a.tensor, "F")

    @property
    def contiguous(self):
        return self.c_contiguous

    @property
    def owndata(self):
        return self._a._base is None

    @property
    def writeable(self):
        return self._a._writeable

    @writeable.setter
    def writeable(self, value):
        if value and not self._a._writeable and self._a._base is not None and not self._a._base._writeable:
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        self._a._writeable = bool(value)

    @property
    def aligned(self):
        return True

    @property
    def writebackifcopy(self):
        return False

    fnc = property(lambda self: self.f_contiguous and not self.c_contiguous)
    forc = property(lambda self: self.f_contiguous or self.c_contiguous)
    behaved = property(lambda self: self.writeable)
    carray = property(lambda self: self.c_contiguous and self.writeable)
    farray = property(lambda self: self.f_contiguous and not self.c_contiguous and self.writeable)

    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
             "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
             "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
             "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy",
             "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray",
             "CA": "carray", "FARRAY": "farray", "FA": "farray"}

    def __getitem__(self, key):
        return getattr(self, self._KEYS[key.upper()])

    def __setitem__(self, key, value):
        if self._KEYS.get(key.upper()) != "writeable":
            raise KeyError(f"Cannot set flag {key!r}")
        self.writeable = value

    def __repr__(self):
        names = ["C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY"]
        return "\n".join(f"  {n} : {self[n]}" for n in names)


def _is_contiguous(t: torch.Tensor, order: str) -> bool:
    if t.numel() == 0:  # NumPy: empty arrays are both C and F contiguous
        return True
    shape, strides = t.shape, t.stride()
    dims = range(t.ndim - 1, -1, -1) if order == "C" else range(t.ndim)
    expected = 1
    for d in dims:
        if shape[d] == 1:
            continue
        if shape[d] == 0:
            return True
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


class flatiter:
    """``a.flat``: 1-D iteration and indexing over the array in C order; writes go to the array."""

    __slots__ = ("base", "index")

    def __init__(self, a):
        self.base = a
        self.index = 0

    def __iter__(self):
        return (self.base.ravel()[i] for i in range(self.base.size))

    def __len__(self):
        return self.base.size

    def __getitem__(self, idx):
        r = self.base.ravel()[idx]
        return r.copy() if r.ndim else r  # NumPy's flat indexing copies: writes into it never reach the array

    def __setitem__(self, idx, value):
        a = self.base
        if not a._writeable:
            raise ValueError("underlying array is read-only")
        if not isinstance(idx, (int, _np.integer)):  # a selection: the values cycle over it, as ``put`` does
            from ._indexing import put

            return put(a, wrap(torch.arange(a.size, device=a.tensor.device))[idx], value)
        if a.tensor.is_contiguous():
            view = wrap(a.tensor.view(-1))
            view._writeable = a._writeable
            view[idx] = value
        else:
            flat = a.ravel().copy()
            flat[idx] = value
            a[...] = flat.reshape(a.shape)

    def __array__(self, dtype=None, copy=None):
        return _np.asarray(self.base.ravel(), dtype=dtype)

    def copy(self):
        return self.base.flatten()

    @property
    def coords(self):
        return _np.unravel_index(self.index, self.base.shape)


class ndarray:
    """``numpy.ndarray`` on a torch.Tensor.  ``ndarray(tensor)`` wraps a tensor without copying."""

    __slots__ = ("tensor", "_base", "_writeable", "_array0d", "__weakref__")
    __array_priority__ = 100

    def __new__(cls, shape=None, dtype=float, buffer=None, offset=0, strides=None, order=None):
        if isinstance(shape, torch.Tensor):
            return wrap(shape)
        if isinstance(shape, ndarray):
            return wrap(shape.tensor)
        if buffer is not None or strides is not None:
            raise UnsupportedFeature("ndarray(buffer=..., strides=...) constructor")
        from ._creation import empty

        return empty(shape, dtype=dtype, order=order or "C")

    # ------------------------------------------------------------ attributes
    @property
    def dtype(self):
        return _dtypes._TORCH_TO_NP[self.tensor.dtype]

    @property
    def shape(self):
        return tuple(self.tensor.shape)

    @shape.setter
    def shape(self, value):
        new = self.reshape(value)
        if not new.tensor._is_view() and new.size > 1 and new.tensor.data_ptr() != self.tensor.data_ptr():
            raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` to make a "
                                 "copy with the desired shape.")
        self.tensor = new.tensor

    @property
    def ndim(self):
        return self.tensor.ndim

    @property
    def size(self):
        return self.tensor.numel()

    @property
    def itemsize(self):
        return self.tensor.element_size()

    @property
    def nbytes(self):
        return self.tensor.numel() * self.tensor.element_size()

    @property
    def strides(self):
        s = self.tensor.element_size()
        return tuple(x * s for x in self.tensor.stride())

    @property
    def base(self):
        return self._base

    @property
    def flags(self):
        return _Flags(self)

    @property
    def device(self):
        return self.tensor.device

    @property
    def T(self):
        return view_of(self, reversed_axes(self.tensor))

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return view_of(self, self.tensor.transpose(-2, -1))

    @property
    def real(self):
        t = self.tensor
        return view_of(self, t.real) if t.is_complex() else self

    @real.setter
    def real(self, value):
        self.real[...] = value

    @property
    def imag(self):
        t = self.tensor
        if t.is_complex():
            return view_of(self, t.imag)
        r = wrap(torch.zeros_like(t))
        r._writeable = False
        return as_array0d(r) if is_array0d(self) else r

    @imag.setter
    def imag(self, value):
        if not self.tensor.is_complex():
            raise TypeError("array does not have imaginary part to set")
        self.imag[...] = value

    @property
    def flat(self):
        return flatiter(self)

    @flat.setter
    def flat(self, value):
        from ._creation import asarray

        if not self._writeable:
            raise ValueError("array is read-only")
        v = asarray(value).ravel()
        n = self.size
        if v.size == 0:
            return
        reps = -(-n // v.size)
        self[...] = v.tensor.repeat(reps)[:n].reshape(self.shape)

    @property
    def data(self):
        return memoryview(self.__array__())

    @property
    def ctypes(self):
        raise UnsupportedFeature("ndarray.ctypes")

    # ------------------------------------------------------------ conversion protocols
    def __array__(self, dtype=None, copy=None):
        t = self.tensor
        if t.requires_grad:
            t = t.detach()
        if not t.is_cpu:
            t = t.cpu()
        if t.is_conj():
            t = t.resolve_conj()
        if t.is_neg():
            t = t.resolve_neg()
        a = t.numpy()
        if not self._writeable:
            a = a.view()
            a.flags.writeable = False
        if dtype is not None and a.dtype != dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return a.astype(dtype)
        if copy:
            return a.copy()
        return a

    def __array_namespace__(self, *, api_version=None):
        import npcompile._numpy as np

        return np

    def __dlpack__(self, **kwargs):
        return self.tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()

    def __len__(self):
        if self.tensor.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.tensor.shape[0]

    def __iter__(self):
        t = self.tensor
        if t.ndim == 0:  # raised by iter() itself, as NumPy's (a generator would raise only when advanced)
            raise TypeError("iteration over a 0-d array")
        if t.ndim == 1:  # NumPy yields scalars, which do not alias the array (``for x in a: x += 1`` wrote into a)
            return (wrap(t[i].clone()) for i in range(t.shape[0]))
        return (view_of(self, t[i]) for i in range(t.shape[0]))

    def _one_element(self, what):
        """The single element as a 0-D tensor: NumPy 2.4 converts only 0-D arrays to Python numbers (the
        1.25 deprecation has expired), and bool() takes any one-element array."""
        t = self.tensor
        if what != "bool":
            if t.ndim:
                raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
            return t
        if t.numel() != 1:
            raise ValueError(
                "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is "
                "not empty." if t.numel() == 0 else
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()")
        return t.reshape(())

    def __bool__(self):
        t = self._one_element("bool")
        return builtins.bool(t.view(torch.int64) if t.dtype == torch.uint64 else t)

    def __int__(self):
        t = self._one_element("int")
        if t.is_complex():
            raise TypeError("int() argument must be a string, a bytes-like object or a real number, not 'complex'")
        if t.is_floating_point():
            v = t.item()
            if v != v:
                raise ValueError("cannot convert float NaN to integer")
            return builtins.int(v)
        return builtins.int(t.item()) if t.dtype != torch.uint64 else builtins.int(t.item()) % 2**64

    def __float__(self):
        t = self._one_element("float")
        if t.is_complex():
            raise TypeError("float() argument must be a string or a real number, not 'complex'")
        return builtins.float(self.item())

    def __complex__(self):
        self._one_element("complex")
        return builtins.complex(self.item())

    def __index__(self):
        if self.tensor.ndim != 0 or self.tensor.is_floating_point() or self.tensor.is_complex() \
                or self.tensor.dtype == torch.bool:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return self.item()  # an int (traced, a SymInt: int() of it would demand its value)

    def __hash__(self):
        """Arrays are unhashable; scalars (0-D, not ``is_array0d``: ``a.sum()``, ``a[0]``, ``np.float32(1)``) hash
        as NumPy's scalars do, by value (``set(a)``, dict keys), where the value is at hand (eager)."""
        t = self.tensor
        if t.ndim == 0 and not is_array0d(self):
            from ._trace import is_tracing
            if not is_tracing(t):
                return hash(self.item())
        raise TypeError("unhashable type: 'numpy.ndarray'")

    def __round__(self, ndigits=None):
        """Only scalars round (NumPy arrays have no ``__round__``): to a Python int, or to a scalar of the same
        dtype with ``ndigits``."""
        t = self.tensor
        if t.ndim or t.dtype == torch.bool or t.is_complex():
            name = "ndarray" if t.ndim else _dtypes.to_dtype(t.dtype).name
            raise TypeError(f"type numpy.{name} doesn't define __round__ method")
        if ndigits is None:
            return builtins.round(self.item())
        from ._math import round as _round

        return _round(self, ndigits)

    def item(self, *args):
        t = self.tensor
        if args:
            if len(args) == 1 and not isinstance(args[0], tuple):
                i = operator.index(args[0])
                if not -t.numel() <= i < t.numel():
                    raise IndexError("index %d is out of bounds for size %d" % (i, t.numel()))
                t = t.reshape(-1)[i]
            else:
                idx = args[0] if len(args) == 1 else args
                if len(idx) != t.ndim:
                    raise ValueError("incorrect number of indices for array")
                t = t[tuple(idx)]
        elif t.numel() != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        elif t.ndim == 0:
            from ._trace import is_tracing

            if is_tracing(t):  # Inductor (torch 2.11-2.13) lost the value read from a 0-d argument when a Python
                t = t.reshape(1)[0]  # number made of it is returned (pytorch#158060); read through a 1-d view
        if t.dtype == torch.uint64:
            return builtins.int(t.item()) % 2**64
        if t.dtype in _UNSIGNED_WIDE:
            return builtins.int(t.to(torch.int64).item())
        return t.item()

    def tolist(self):
        t = self.tensor
        if t.dtype in _UNSIGNED_WIDE or t.dtype == torch.uint64:
            return self.__array__().tolist()
        if t.requires_grad:
            t = t.detach()
        return t.tolist()

    def __repr__(self):
        try:
            a = self.__array__()
        except Exception:  # fake or meta tensors have no data
            return f"array(<{self.shape}, dtype={self.dtype}, device={self.device}>)"
        return repr(a)

    def __str__(self):
        try:
            return str(self.__array__())
        except Exception:
            return repr(self)

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return format(str(self), spec)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo=None):
        return self.copy()

    def __reduce__(self):
        from ._creation import asarray

        return (asarray, (self.__array__().copy(),))

    def __setstate__(self, state):
        raise UnsupportedFeature("ndarray.__setstate__")

    def __class_getitem__(cls, item):
        import types

        return types.GenericAlias(cls, item)


_UNSIGNED_WIDE = (torch.uint16, torch.uint32)
