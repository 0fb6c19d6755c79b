"""NumPy dtypes on torch: the dtype table, scalar types, the abstract hierarchy, and NEP 50 promotion.

Dtypes *are* real ``numpy.dtype`` objects, so ``a.dtype == numpy.float32`` and ``numpy.dtype(a.dtype)`` work
with no translation.  Promotion defers to NumPy's own resolution (``ufunc.resolve_dtypes``, ``result_type``),
cached per dtype combination, so our answers are NumPy's by construction.
"""

from __future__ import annotations

import builtins
import math

import numpy as _np
import torch

from .._errors import UnsupportedFeature

dtype = _np.dtype

# numpy dtype <-> torch dtype.  The unsigned types wider than 8 bits exist in torch as storage types with
# almost no kernels; ``compute_dtype`` says in which type to run arithmetic on them.
_NP_TO_TORCH = {
    _np.dtype(_np.bool_): torch.bool,
    _np.dtype(_np.int8): torch.int8,
    _np.dtype(_np.int16): torch.int16,
    _np.dtype(_np.int32): torch.int32,
    _np.dtype(_np.int64): torch.int64,
    _np.dtype(_np.uint8): torch.uint8,
    _np.dtype(_np.uint16): torch.uint16,
    _np.dtype(_np.uint32): torch.uint32,
    _np.dtype(_np.uint64): torch.uint64,
    _np.dtype(_np.float16): torch.float16,
    _np.dtype(_np.float32): torch.float32,
    _np.dtype(_np.float64): torch.float64,
    _np.dtype(_np.complex64): torch.complex64,
    _np.dtype(_np.complex128): torch.complex128,
}
_TORCH_TO_NP = {t: n for n, t in _NP_TO_TORCH.items()}
_TORCH_TO_NP[torch.bfloat16] = None  # no NumPy equivalent: refused in from_torch

# Arithmetic on these torch dtypes runs in a wider signed type and is cast back (exact modulo 2**bits).
_COMPUTE = {torch.uint16: torch.int32, torch.uint32: torch.int64, torch.uint64: torch.int64}

SUPPORTED = tuple(_NP_TO_TORCH)
float64 = _np.dtype(_np.float64)
int64 = _np.dtype(_np.int64)
bool_ = _np.dtype(_np.bool_)
default_float = float64
default_int = int64  # NumPy 2 on Linux: int is int64
default_complex = _np.dtype(_np.complex128)

_dtype_cache: dict = {}


def to_dtype(x) -> _np.dtype:
    """Normalize any dtype-like (string, type code, Python type, our scalar type, numpy dtype) to a dtype."""
    try:
        return _dtype_cache[x]
    except (KeyError, TypeError):
        pass
    if isinstance(x, torch.dtype):
        d = from_torch(x)
    else:
        # our scalar, abstract and unsupported types stand for NumPy's; nonsense raises NumPy's TypeError
        d = _np.dtype(getattr(x, "_np_type", x) if isinstance(x, type) else x)
        if d not in _NP_TO_TORCH:
            raise UnsupportedFeature(f"dtype {d}")
    try:
        _dtype_cache[x] = d
    except TypeError:
        pass
    return d


def to_torch(d: _np.dtype) -> torch.dtype:
    return _NP_TO_TORCH[d]


def from_torch(t: torch.dtype) -> _np.dtype:
    d = _TORCH_TO_NP.get(t)
    if d is None:
        raise UnsupportedFeature(f"torch dtype {t}")
    return d


def compute_dtype(t: torch.dtype) -> torch.dtype:
    """The torch dtype in which kernels run for storage dtype ``t``."""
    return _COMPUTE.get(t, t)


# Same-size signed types: data movement (gather, index_put, flip...) has no kernels for the wide unsigned types
# but moves bits exactly through a reinterpreting view.
_SIGNED_VIEW = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}
# The storage dtypes torch's kernels take as they are (cat, where, indexing, fills): the fast paths' dtypes.
DIRECT = frozenset({torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.float16,
                    torch.float32, torch.float64, torch.complex64, torch.complex128})


def movable(t: torch.Tensor) -> torch.Tensor:
    """``t`` itself, or a same-size signed view of a wide unsigned ``t``; ``.view(t.dtype)`` restores it."""
    s = _SIGNED_VIEW.get(t.dtype)
    return t if s is None else t.view(s)


def where(mask: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``torch.where(mask, a, b)``, also for ``a`` and ``b`` of one wide unsigned dtype: torch 2.11 has no kernel for
    those, and selecting moves bits, so they select as their signed views."""
    s = _SIGNED_VIEW.get(a.dtype)
    if s is None or b.dtype != a.dtype:
        return torch.where(mask, a, b)
    return torch.where(mask, a.view(s), b.view(s)).view(a.dtype)


# ---------------------------------------------------------------- scalar types and the abstract hierarchy

class _ScalarMeta(type):
    """``isinstance(x, float32)`` is true for our 0-D float32 arrays: NumPy scalars are 0-D arrays here."""

    def __instancecheck__(cls, obj):
        from ._ndarray import ndarray

        if isinstance(obj, ndarray):
            return obj.ndim == 0 and _np.issubdtype(obj.dtype, cls._np_type)
        return isinstance(obj, cls._np_type)

    def __subclasscheck__(cls, sub):
        sub = getattr(sub, "_np_type", sub)
        return isinstance(sub, type) and issubclass(sub, cls._np_type)

    def __repr__(cls):
        return f"<class 'npcompile._numpy.{cls.__name__}'>"


class generic(metaclass=_ScalarMeta):
    """Base of the scalar types.  Calling a concrete one gives a 0-D array, as NumPy scalars are 0-D here."""

    _np_type = _np.generic

    def __new__(cls, value=0, /, *imag):
        if not hasattr(cls, "_np_dtype"):
            raise TypeError(f"cannot create instances of abstract type {cls.__name__!r}")
        from ._creation import _array

        kind = cls._np_dtype.kind
        if imag:  # complex types take (real, imag), as Python's complex
            if kind != "c" or len(imag) > 1:
                raise TypeError(f"{cls.__name__} takes at most {2 if kind == 'c' else 1} arguments "
                                f"({1 + len(imag)} given)")
            value = _complex_of(value, imag[0])
        elif value is None:  # NumPy's conversion of None: NaN, False, and int()'s error for integers
            if kind in "iu":
                raise TypeError("int() argument must be a string, a bytes-like object or a real number, not "
                                "'NoneType'")
            value = False if kind == "b" else complex(math.nan, math.nan) if kind == "c" else math.nan
        return _array(value, cls._np_dtype, True, "K")  # not ``array``, whose 0-d results are arrays


def _complex_of(real, imag):
    """``complex(real, imag)``, as a complex type takes its two parts.  Where one is a real 0-D array (``x[0]``),
    the parts are put together as tensors: float64 each (as complex() converts them), so a traced value is not
    read (that broke the graph); other operands go through complex() itself."""
    from ._ndarray import ndarray, wrap

    parts = (real, imag)
    if not any(isinstance(p, ndarray) for p in parts) or not all(
            isinstance(p, ndarray) and p.dtype.kind in "biuf" or type(p) in (bool, int, float) for p in parts):
        return complex(real, imag)
    device = next(p.tensor.device for p in parts if isinstance(p, ndarray))
    tensors = []
    for p in parts:
        if isinstance(p, ndarray) and p.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        tensors.append(p.tensor.to(torch.float64) if isinstance(p, ndarray)
                       else torch.tensor(float(p), dtype=torch.float64, device=device))
    return wrap(torch.complex(*tensors))


def _abstract(name, base, np_type):
    return _ScalarMeta(name, (base,), {"_np_type": np_type, "__module__": __name__})


number = _abstract("number", generic, _np.number)
integer = _abstract("integer", number, _np.integer)
signedinteger = _abstract("signedinteger", integer, _np.signedinteger)
unsignedinteger = _abstract("unsignedinteger", integer, _np.unsignedinteger)
inexact = _abstract("inexact", number, _np.inexact)
floating = _abstract("floating", inexact, _np.floating)
complexfloating = _abstract("complexfloating", inexact, _np.complexfloating)

_ABSTRACT_FOR_KIND = {"b": generic, "i": signedinteger, "u": unsignedinteger, "f": floating, "c": complexfloating}


def _concrete(d: _np.dtype):
    cls = _ScalarMeta(d.type.__name__, (_ABSTRACT_FOR_KIND[d.kind],),
                      {"_np_type": d.type, "_np_dtype": d, "dtype": d, "__module__": __name__})
    return cls


SCALAR_TYPES = {d: _concrete(d) for d in SUPPORTED}
_sc = {d.type.__name__: t for d, t in SCALAR_TYPES.items()}
SCALAR_TYPE_NAMES = {
    "bool": _sc["bool"], "bool_": _sc["bool"],
    "int8": _sc["int8"], "int16": _sc["int16"], "int32": _sc["int32"], "int64": _sc["int64"],
    "uint8": _sc["uint8"], "uint16": _sc["uint16"], "uint32": _sc["uint32"], "uint64": _sc["uint64"],
    "float16": _sc["float16"], "float32": _sc["float32"], "float64": _sc["float64"],
    "complex64": _sc["complex64"], "complex128": _sc["complex128"],
    # C names and NumPy 2 aliases
    "byte": _sc["int8"], "short": _sc["int16"], "intc": _sc["int32"], "int_": _sc["int64"],
    "intp": _sc["int64"], "long": _sc["int64"], "longlong": _sc["int64"],
    "ubyte": _sc["uint8"], "ushort": _sc["uint16"], "uintc": _sc["uint32"], "uint": _sc["uint64"],
    "uintp": _sc["uint64"], "ulong": _sc["uint64"], "ulonglong": _sc["uint64"],
    "half": _sc["float16"], "single": _sc["float32"], "double": _sc["float64"], "float_": _sc["float64"],
    "csingle": _sc["complex64"], "cdouble": _sc["complex128"], "complex_": _sc["complex128"],
}
ABSTRACT_TYPES = {
    "generic": generic, "number": number, "integer": integer, "signedinteger": signedinteger,
    "unsignedinteger": unsignedinteger, "inexact": inexact, "floating": floating,
    "complexfloating": complexfloating,
}


def _as_np_type_or_dtype(x):
    """Map our scalar/abstract (and unsupported stand-in) types to NumPy's, for NumPy's own predicates."""
    if isinstance(x, type) and getattr(x, "_np_type", None) is not None:
        return x._np_type
    from ._ndarray import ndarray

    if isinstance(x, ndarray):
        return x.dtype
    return x


def issubdtype(arg1, arg2) -> bool:
    return _np.issubdtype(_as_np_type_or_dtype(arg1), _as_np_type_or_dtype(arg2))


def isdtype(dtype, kind) -> bool:
    if isinstance(kind, tuple):
        kind = tuple(_as_np_type_or_dtype(k) for k in kind)
    else:
        kind = _as_np_type_or_dtype(kind)
    return _np.isdtype(to_dtype(dtype), kind)


# ---------------------------------------------------------------- promotion

_WEAK_TYPES = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def _promotion_operand(x):
    """A dtype, or a Python scalar *type* (NEP 50 weak), for NumPy's promotion functions."""
    from ._ndarray import ndarray

    if isinstance(x, ndarray):
        return x.dtype
    if isinstance(x, torch.Tensor):
        return from_torch(x.dtype)
    if isinstance(x, _WEAK_TYPES):
        return x  # NumPy treats Python scalars as weak by value type
    if isinstance(x, torch.SymInt):
        return 0
    if isinstance(x, torch.SymFloat):
        return 0.0
    if isinstance(x, torch.SymBool):
        return False
    if isinstance(x, _np.ndarray):
        return to_dtype(x.dtype)
    if isinstance(x, _np.generic):
        return to_dtype(x.dtype)
    return to_dtype(x)


def result_type(*arrays_and_dtypes) -> _np.dtype:
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    r = _np.result_type(*(_promotion_operand(x) for x in arrays_and_dtypes))
    if r not in _NP_TO_TORCH:
        raise UnsupportedFeature(f"dtype {r}")
    return r


_promote_cache: dict = {}


def promote_types(type1, type2) -> _np.dtype:
    key = (type1, type2)
    try:
        return _promote_cache[key]
    except (KeyError, TypeError):
        pass
    r = _np.promote_types(to_dtype(type1), to_dtype(type2))
    try:
        _promote_cache[key] = r
    except TypeError:
        pass
    return r


def can_cast(from_, to, casting="safe") -> bool:
    from ._ndarray import ndarray

    if isinstance(from_, _WEAK_TYPES):
        raise TypeError("can_cast() does not support Python ints, floats, and complex because the result "
                        "used to depend on the value.\nThis change was part of adopting NEP 50, we may "
                        "explicitly allow them again in the future.")
    if isinstance(from_, ndarray):
        from_ = from_.dtype
    return _np.can_cast(to_dtype(from_), to_dtype(to), casting)


def min_scalar_type(a):
    from ._ndarray import ndarray

    if isinstance(a, ndarray):
        a = a.__array__()
    return _np.min_scalar_type(a)


finfo = _np.finfo
iinfo = _np.iinfo


def _finfo(x):
    return _np.finfo(to_dtype(x))


def _iinfo(x):
    return _np.iinfo(to_dtype(x))


# ---------------------------------------------------------------- type-code utilities

typecodes = _np.typecodes


def typename(char):
    """The description of a type code, as NumPy words it (a pure string lookup)."""
    return _np.typename(char)


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The type code of ``typeset`` that all of ``typechars`` (codes, or arrays) safely cast to."""
    from ._ndarray import ndarray

    return _np.mintypecode([t.dtype.char if isinstance(t, ndarray) else t for t in typechars], typeset, default)


def common_type(*arrays):
    """The inexact scalar type of the arrays combined (integers count as float64), as our scalar type."""
    from ._ndarray import ndarray

    probes = [_np.empty(0, a.dtype if isinstance(a, ndarray) else _np.asarray(a).dtype) for a in arrays]
    return SCALAR_TYPES[_np.dtype(_np.common_type(*probes))]
