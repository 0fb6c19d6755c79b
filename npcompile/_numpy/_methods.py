"""ndarray operators and methods, bound once after every topic module is loaded.

Most methods are the same-named NumPy function (``a.sum(...)`` is ``sum(a, ...)``); the few whose method form
differs from the function (in-place ``sort``, ``reshape(*shape)``, ``compress`` argument order...) are defined
here.  Operators are the ufuncs, so operator promotion and casting have the ufuncs' single home.
"""

from __future__ import annotations

import builtins
import math
import operator
import types

import numpy as _np
import torch

from . import _dtypes
from ._ndarray import as_array0d, is_array0d, ndarray, view_of, wrap
from ._normalize import as_element, as_tensor, cast, check_out, copy_to_out
from . import _creation as _C
from . import _manipulation as _M
from . import _ufuncs as U


def _binary(uf):
    binary = uf._binary

    def op(self, other):
        if type(other) not in _FAST_OPERANDS and _defers(other):
            return NotImplemented
        return binary(self, other)

    def rop(self, other):
        if type(other) not in _FAST_OPERANDS and _defers(other):
            return NotImplemented
        return uf(other, self)

    def iop(self, other):
        if self.tensor.ndim == 0 and not is_array0d(self):
            return op(self, other)  # a scalar: a new one (is_array0d)
        return uf(self, other, out=self)

    return op, rop, iop


_FAST_OPERANDS = frozenset({ndarray, int, float, complex, bool})  # (never defer; _defers costs 0.27 us)


def _defers(other):
    """Let the other operand's reflected method run (e.g. objects with higher priority, not array-likes)."""
    return other is not None and getattr(type(other), "__array_ufunc__", False) is None


_OPERATORS = {
    "add": U.add, "sub": U.subtract, "mul": U.multiply, "truediv": U.divide, "floordiv": U.floor_divide,
    "mod": U.remainder, "pow": U.power, "lshift": U.left_shift, "rshift": U.right_shift, "and": U.bitwise_and,
    "or": U.bitwise_or, "xor": U.bitwise_xor, "matmul": U.matmul,
}
for _n, _uf in _OPERATORS.items():
    _op, _rop, _iop = _binary(_uf)
    setattr(ndarray, f"__{_n}__", _op)
    setattr(ndarray, f"__r{_n}__", _rop)
    setattr(ndarray, f"__i{_n}__", _iop)

# NumPy's ``**`` operator on a float or complex array takes a shortcut for these exponents (type included:
# for complex ``z**2`` squares, ``z**2.0`` calls power), where np.power can differ on signed zeros and
# infinities (float16 ``-inf**0.5`` is nan, ``power(-inf, 0.5)`` inf; complex ``0j**-1`` is nan+nanj).
_POW_SHORTCUTS = {(int, -1): U.reciprocal, (int, 2): U.square, (float, 0.5): U.sqrt}


def _pow_shortcut(self, other):
    if self.tensor.ndim == 0 and not is_array0d(self):
        return None  # a NumPy scalar's ** is its scalar power, no shortcut (float64(-inf)**0.5 is inf, not nan)
    if type(other) in (int, float) and self.dtype.kind in "fc":
        return _POW_SHORTCUTS.get((type(other), other))
    if type(other) is int and other == 2 and self.dtype.kind == "b":
        return U.square  # NumPy squares booleans too: int8, where power gives int64
    return None


def _pow(self, other):
    uf = _pow_shortcut(self, other)
    if uf is not None:
        return uf(self)
    if type(other) is float and other == 0.5 and self.tensor.ndim == 0 and not is_array0d(self) and \
            self.tensor.dtype in (torch.float32, torch.float64):
        # a NumPy scalar's power is C pow(), not the loops' sqrt for a Python 0.5: pow(-inf, 0.5) is inf and
        # pow(-0.0, 0.5) 0.0 (the exponent as a 0-D array of the scalar's dtype takes the pow path)
        other = wrap(torch.tensor(other, dtype=self.tensor.dtype, device=self.tensor.device))
    return _plain_pow(self, other)


def _ipow(self, other):
    if self.tensor.ndim == 0 and not is_array0d(self):
        return _pow(self, other)
    uf = _pow_shortcut(self, other)
    return uf(self, out=self) if uf is not None else _plain_ipow(self, other)


_plain_pow, _plain_ipow = ndarray.__pow__, ndarray.__ipow__  # from the operator loop above
ndarray.__pow__ = _pow
ndarray.__ipow__ = _ipow

for _n, _uf in {"eq": U.equal, "ne": U.not_equal, "lt": U.less, "le": U.less_equal, "gt": U.greater,
                "ge": U.greater_equal}.items():
    setattr(ndarray, f"__{_n}__", _binary(_uf)[0])


def _eq_fallback(uf, default):
    def op(self, other):
        try:
            return uf(self, other)
        except (TypeError, NotImplementedError, ValueError):
            if other is None or isinstance(other, (str, bytes)):
                return wrap(torch.full(self.tensor.shape, default, dtype=torch.bool, device=self.tensor.device))
            raise
    return op


ndarray.__eq__ = _eq_fallback(U.equal, False)
ndarray.__ne__ = _eq_fallback(U.not_equal, True)
ndarray.__divmod__ = lambda self, other: U.divmod(self, other)
ndarray.__rdivmod__ = lambda self, other: U.divmod(other, self)
ndarray.__neg__ = lambda self: U.negative(self)
ndarray.__pos__ = lambda self: U.positive(self)
ndarray.__abs__ = lambda self: U.absolute(self)
ndarray.__invert__ = lambda self: U.invert(self)


def _imatmul(self, other):
    r = U.matmul(self, other)
    if r.shape != self.shape:
        raise ValueError("inplace matrix multiplication requires the first operand to have at least one and the "
                         "second at least two dimensions.")
    return copy_to_out(r.tensor, self, "same_kind", U.matmul)


ndarray.__imatmul__ = _imatmul


# ---------------------------------------------------------------- methods whose form differs from the function

def _shape_args(args):
    if len(args) == 1 and (isinstance(args[0], (tuple, list)) or args[0] is None or
                           isinstance(args[0], (ndarray, _np.ndarray)) and args[0].ndim):  # (an array of sizes)
        return args[0]
    return args


def reshape(self, *shape, order="C", copy=None):
    return _M.reshape(self, _shape_args(shape), order, copy=copy)


def transpose(self, *axes):
    axes = _shape_args(axes)
    return _M.transpose(self, None if axes is None or type(axes) is tuple and not axes else axes)


def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    d = _dtypes.to_dtype(dtype)
    if casting != "unsafe" and not _np.can_cast(self.dtype, d, casting):
        raise TypeError(f"Cannot cast array data from {self.dtype!r} to {d!r} according to the rule {casting!r}")
    o, t, td = _C._order(order), self.tensor, _dtypes.to_torch(d)
    if t.dtype is td:
        return _like(self, _C._copy_in(t, o)) if copy or not _C._has_layout(t, o) else self
    r = cast(t, td)
    return _like(self, r if _C._has_layout(r, o) else _C._copy_in(r, o))


def copy(self, order="C"):
    return _like(self, _C._copy_in(self.tensor, _C._order(order)))


def _like(src, t):
    """A new array of ``src``'s values (a copy, a cast): of a 0-d array a 0-d array, of a scalar a scalar, as
    NumPy's array and scalar methods give (``a.squeeze().copy()`` came back a scalar)."""
    r = wrap(t)
    return as_array0d(r) if is_array0d(src) else r


def fill(self, value):
    if not self._writeable:
        raise ValueError("assignment destination is read-only")
    self.tensor.fill_(as_element(value, self.dtype, self.tensor.device))


def view(self, dtype=None, type=None):
    if isinstance(dtype, builtins.type) and issubclass(dtype, (ndarray, _np.ndarray)):
        dtype, type = None, dtype  # (a class given as the dtype is the type, as in NumPy)
    if type is not None and type is not ndarray and type is not _np.ndarray:
        from .._errors import UnsupportedFeature

        raise UnsupportedFeature(f"ndarray.view(type={type.__module__}.{type.__qualname__}): an ndarray subclass")
    if dtype is None:
        return view_of(self, self.tensor.view(self.tensor.shape))
    d = _dtypes.to_dtype(dtype)
    t = self.tensor
    new_size, old_size = d.itemsize, t.element_size()
    if new_size != old_size:
        if t.ndim == 0:
            raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
        if t.stride(-1) != 1 and t.shape[-1] != 1 and t.numel():
            raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
        if (t.shape[-1] * old_size) % new_size:
            raise ValueError("When changing to a smaller dtype, its size must be a divisor of the size of original "
                             "dtype" if new_size < old_size else
                             "When changing to a larger dtype, its size must be a divisor of the total size in "
                             "bytes of the last axis of the array.")
        if t.stride(-1) != 1:  # (an empty array's, or a last axis of one item's: NumPy reads no such stride)
            t = t.as_strided(t.shape, t.stride()[:-1] + (1,), t.storage_offset())
        ratio = new_size // old_size
        if ratio > 1 and (t.storage_offset() % ratio or any(st % ratio for st in t.stride()[:-1])):
            from .._errors import UnsupportedFeature

            raise UnsupportedFeature(f"ndarray.view as {d.name} of an array that starts or steps between "
                                     f"{d.name} items (torch strides count whole items)")
    return view_of(self, t.view(_dtypes.to_torch(d)))


def sort(self, axis=-1, kind=None, order=None, *, stable=None):
    from ._sorting import sort as f

    if not self._writeable:
        raise ValueError("sort array is read-only")
    r = f(self, axis=operator.index(axis), kind=kind, order=order, stable=stable)  # in place: no axis=None
    copy_to_out(r.tensor, self, "unsafe")


def partition(self, kth, axis=-1, kind="introselect", order=None):
    from ._sorting import partition as f

    if not self._writeable:
        raise ValueError("partition array is read-only")
    r = f(self, kth, axis=operator.index(axis), kind=kind, order=order)
    copy_to_out(r.tensor, self, "unsafe")


def resize(self, *new_shape, refcheck=True):
    """In place, as NumPy: the data in memory order, cut or zero-padded; an F-ordered array stays F-ordered."""
    new_shape = _shape_args(new_shape)
    if isinstance(new_shape, int):
        new_shape = (new_shape,)
    if any(s < 0 for s in new_shape):
        raise ValueError("negative dimensions not allowed")
    flags = self.flags
    if not (flags.c_contiguous or flags.f_contiguous):
        raise ValueError("resize only works on single-segment arrays")
    fortran = not flags.c_contiguous
    flat = (_reversed_dims(self.tensor) if fortran else self.tensor).reshape(-1)
    n = math.prod(new_shape)
    if n != flat.numel() and self._base is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    if n < flat.numel():
        flat = flat[:n].clone()
    elif n > flat.numel():
        flat = torch.cat([flat, torch.zeros(n - flat.numel(), dtype=flat.dtype, device=flat.device)])
    self.tensor = _reversed_dims(flat.reshape(new_shape[::-1])) if fortran else flat.reshape(new_shape)


def _reversed_dims(t):
    return t.permute(tuple(range(t.ndim))[::-1])


def compress(self, condition, axis=None, out=None):
    from ._indexing import compress as f

    return f(condition, self, axis=axis, out=out)


def clip(self, min=_np._NoValue, max=_np._NoValue, out=None, **kwargs):
    """The method's bounds are both optional (``a.clip(0)``); the function's positional ones are not."""
    from ._math import clip as f

    return f(self, out=out, min=min, max=max, **kwargs)


def flatten(self, order="C"):
    from ._manipulation import ravel

    r = ravel(self, order)
    return wrap(r.tensor.clone()) if r.base is not None else r  # ravel gives a view or a fresh copy


def squeeze(self, axis=None):
    from ._manipulation import squeeze as f

    return f(self, axis)


def tobytes(self, order="C"):
    return self.__array__().tobytes(order)


def getfield(self, dtype, offset=0):
    from .._errors import UnsupportedFeature

    raise UnsupportedFeature("ndarray.getfield")


def setfield(self, val, dtype, offset=0):
    from .._errors import UnsupportedFeature

    raise UnsupportedFeature("ndarray.setfield")


def setflags(self, write=None, align=None, uic=None):
    if write is not None:
        self.flags.writeable = write


def byteswap(self, inplace=False):
    if inplace and not self._writeable:
        raise ValueError("array to be byte-swapped is read-only")
    r = _np.asarray(self).byteswap()
    from ._creation import asarray

    res = asarray(r.copy())
    if inplace:
        self.tensor.copy_(res.tensor)
        return self
    return res


def conj(self):
    return U.conjugate(self) if self.dtype.kind == "c" else self  # NumPy: a real array's conj() is itself


def max(self, axis=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
    from ._reductions import amax

    return amax(self, axis, out, keepdims, initial, where)


def min(self, axis=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
    from ._reductions import amin

    return amin(self, axis, out, keepdims, initial, where)


from ._indexing import getitem as __getitem__, setitem as __setitem__  # noqa: E402  (bound directly: no per-call import)


def dump(self, file):
    from .._errors import UnsupportedFeature

    raise UnsupportedFeature("ndarray.dump (file IO)")


def tofile(self, fid, sep="", format="%s"):
    from .._errors import UnsupportedFeature

    raise UnsupportedFeature("ndarray.tofile (file IO)")


def dumps(self):
    from .._errors import UnsupportedFeature

    raise UnsupportedFeature("ndarray.dumps (pickle IO)")


def __contains__(self, value):
    return builtins.bool(U.equal(self, value).any())  # NumPy's: any element equal (Python's would iterate rows)


def __delitem__(self, key):
    raise ValueError("cannot delete array elements")


def to_device(self, device, /, *, stream=None):
    return wrap(self.tensor.to(device))


_SPECIAL = {
    "reshape": reshape, "transpose": transpose, "astype": astype, "copy": copy, "fill": fill, "view": view,
    "sort": sort, "partition": partition, "resize": resize, "compress": compress, "clip": clip, "flatten": flatten,
    "squeeze": squeeze, "tobytes": tobytes, "getfield": getfield, "setfield": setfield, "setflags": setflags,
    "byteswap": byteswap, "conj": conj, "conjugate": conj, "max": max, "min": min, "__getitem__": __getitem__,
    "__setitem__": __setitem__, "__contains__": __contains__, "__delitem__": __delitem__, "dump": dump,
    "dumps": dumps, "tofile": tofile, "to_device": to_device,
}


def bind_methods(namespace: dict):
    """Attach NumPy's ndarray methods: the special forms above, then same-named functions of ``namespace``."""
    for name, f in _SPECIAL.items():
        setattr(ndarray, name, f)
    for name in dir(_np.ndarray):
        if name.startswith("_") or name in _SPECIAL or hasattr(ndarray, name):
            continue
        f = namespace.get(name)
        if isinstance(f, types.FunctionType):
            setattr(ndarray, name, f)
