"""Argument normalization, in one place: array-likes, axes, dtypes, out=, and the ``@normalizer`` decorator.

Public functions are written as ``*_impl``-style bodies over torch tensors, with parameters annotated by the
markers below.  ``normalizer`` reads the annotations once, at definition time, and generates a plain Python
wrapper with the same signature that converts each annotated argument and wraps the result.  Nothing is
inspected per call, so the wrapper costs a few attribute lookups on top of the torch op.
"""

from __future__ import annotations

import builtins
import functools
import inspect
import math
import operator
import warnings

import numpy as _np
import torch
from numpy.exceptions import AxisError, ComplexWarning

from .._errors import UnsupportedFeature
from . import _dtypes
from ._ndarray import is_array0d, is_scalar, ndarray, wrap
from ._trace import is_tracing, traced_int

PY_SCALARS = (builtins.bool, builtins.int, builtins.float, builtins.complex)  # weak in NEP 50

# ---------------------------------------------------------------- array-likes


def _from_numpy(x: _np.ndarray) -> torch.Tensor:
    d = x.dtype
    if d not in _dtypes._NP_TO_TORCH:
        if d.byteorder not in "=|" and d.newbyteorder("=") in _dtypes._NP_TO_TORCH:
            return _from_numpy(x.astype(d.newbyteorder("=")))
        raise UnsupportedFeature(f"dtype {d}")
    if type(x) is not _np.ndarray:
        raise UnsupportedFeature(f"ndarray subclass {type(x).__name__}")
    if d.char == "Q":  # NumPy's uint64 for Python ints >= 2**63 is 'Q', a type torch.from_numpy refuses; same bits
        x = x.view(_np.uint64)
    if not x.flags.writeable:
        x = x.copy()  # torch has no read-only tensors
    try:
        return torch.from_numpy(x)
    except (TypeError, ValueError):  # negative strides, misaligned or otherwise unusual memory
        return torch.from_numpy(x.copy())


def _scalar_tensor(x) -> torch.Tensor:
    if type(x) is builtins.bool:
        return torch.tensor(x, dtype=torch.bool)
    if type(x) is builtins.int:
        if -(2**63) <= x < 2**63:
            return torch.tensor(x, dtype=torch.int64)
        if 0 <= x < 2**64:
            return torch.tensor(x, dtype=torch.uint64)
        raise UnsupportedFeature(f"object arrays (Python int {x} is beyond int64 and uint64)")
    if type(x) is builtins.float:
        return torch.tensor(x, dtype=torch.float64)
    return torch.tensor(x, dtype=torch.complex128)


def _holds_tensor(s) -> bool:
    """Whether a nested list/tuple holds any of our arrays or torch tensors."""
    for e in s:
        if type(e) is builtins.float or type(e) is builtins.int:  # the common content, skipped quickly
            continue  # (isinstance against torch.Tensor is slow: 4.8us -> 0.5us on 16 floats)
        if isinstance(e, (ndarray, torch.Tensor)):
            return True
        if isinstance(e, (list, tuple)) and _holds_tensor(e):
            return True
    return False


def _seq_tensor(x) -> torch.Tensor:
    """Nested lists/tuples.  Pure-Python content goes through NumPy's own inference (exact dtypes); content
    holding our arrays or tensors is stacked in torch, so it also works on other devices and under tracing."""
    if not _holds_tensor(x):
        try:
            arr = _np.asarray(x)
        except ValueError as e:
            raise ValueError(str(e)) from None
        if arr.dtype == object:
            if any(isinstance(e, (torch.SymInt, torch.SymFloat, torch.SymBool)) for e in x):
                return torch.stack([as_tensor(e) for e in x])
            raise UnsupportedFeature("object arrays (ragged or non-numeric sequences)")
        return _from_numpy(arr)
    parts = [as_tensor(e) for e in x]
    if not parts:
        return torch.empty(0, dtype=torch.float64)
    shapes = {p.shape for p in parts}
    if len(shapes) > 1:
        raise ValueError("setting an array element with a sequence. The requested array has an "
                         "inhomogeneous shape after 1 dimensions.")
    dt = _dtypes.to_torch(_dtypes.result_type(*parts))
    return torch.stack([p.to(dt) for p in parts])


def as_tensor(x) -> torch.Tensor:
    """Any array-like to a torch.Tensor, zero-copy where NumPy would not copy."""
    t = type(x)
    if t is ndarray:
        return x.tensor
    if isinstance(x, torch.Tensor):
        return x
    if isinstance(x, ndarray):
        return x.tensor
    if t in (builtins.bool, builtins.int, builtins.float, builtins.complex):
        return _scalar_tensor(x)
    if isinstance(x, _np.ndarray):
        return _from_numpy(x)
    if isinstance(x, _np.generic):
        return _from_numpy(_np.asarray(x))
    if isinstance(x, (list, tuple)):
        return _seq_tensor(x)
    if isinstance(x, range):
        return _seq_tensor(list(x))
    if isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return torch.scalar_tensor(x, dtype={torch.SymInt: torch.int64, torch.SymFloat: torch.float64,
                                             torch.SymBool: torch.bool}[type(x)])
    if hasattr(x, "__array__") or hasattr(x, "__array_interface__"):
        return _from_numpy(_np.asarray(x))
    if hasattr(x, "__dlpack__"):
        return torch.from_dlpack(x)
    for base in (builtins.bool, builtins.int, builtins.float, builtins.complex):  # scalar subclasses
        if isinstance(x, base):
            return _scalar_tensor(base(x))
    if x is None:
        raise UnsupportedFeature("object arrays (None as an array)")
    raise UnsupportedFeature(f"arrays of {type(x).__name__} objects")


def as_element(initial, loop_dtype, device=None):
    """``initial`` as NumPy sets it into one element of ``loop_dtype`` (a reduction's ``initial=``,
    ``ndarray.fill``), as a 0-D tensor: a Python scalar as ``python_value`` converts it, a NumPy float scalar
    into a signed integer dtype too; a 0-D array casts unsafely; into an integer dtype a sequence is a TypeError;
    an array of one or more dims is a ValueError (a TypeError into complex; bool takes anything by its truth)."""
    initial = traced_int(initial, loop_dtype)
    kind = loop_dtype.kind
    if kind == "i":  # (NumPy casts its own scalars into an unsigned dtype)
        initial = python_scalar(initial)
    if type(initial) in PY_SCALARS:
        initial = python_value(initial, loop_dtype)
    elif kind in "iu" and isinstance(initial, (list, tuple)):
        raise TypeError("int() argument must be a string, a bytes-like object or a real number, not "
                        f"'{type(initial).__name__}'")
    v = as_tensor(initial)
    if v.ndim and kind == "c":
        raise TypeError("complex() first argument must be a string or a number, not "
                        f"'{type(initial).__name__}'")
    if v.numel() != 1 or (v.ndim and kind != "b"):
        raise ValueError("setting an array element with a sequence.")
    return v.reshape(()).to(device=device, dtype=_dtypes.to_torch(loop_dtype))


def python_value(x, d: _np.dtype):
    """The Python scalar ``x`` converted for one element of dtype ``d`` as NumPy converts it there (assignment,
    ``fill``, a reduction's ``initial``): into an integer dtype through ``int()`` (NaN: ValueError, infinity:
    OverflowError), beyond a C long (an unsigned long for uint32 and uint64) or outside the dtype's range
    OverflowError, with NumPy's two messages; a complex into a real dtype TypeError; into a float, complex or bool
    dtype any int (2**64 too) by its value."""
    k = d.kind
    if k in "iu":
        if type(x) is complex:
            raise TypeError("int() argument must be a string, a bytes-like object or a real number, not 'complex'")
        x = int(x)
        if not -2**63 <= x < (2**64 if k == "u" and d.itemsize >= 4 else 2**63):  # (NumPy: C long, unsigned long)
            raise OverflowError("Python int too large to convert to C long")
        info = _np.iinfo(d)
        if not info.min <= x <= info.max:
            raise OverflowError(f"Python integer {x} out of bounds for {d}")
        return x
    if k == "f":
        if type(x) is complex:
            raise TypeError("float() argument must be a string or a real number, not 'complex'")
        return float(x)
    return bool(x) if k == "b" else complex(x)


def python_scalar(x):
    """``x`` as the Python scalar NumPy converts it through when it sets it into a signed integer array
    (``a[0] = v``, ``fill``: out of range is an OverflowError, NaN a ValueError) if it is a real NumPy scalar
    (NumPy's, or ours: a 0-D non-array with its value at hand, eager); else ``x`` itself (a 0-D array casts)."""
    if isinstance(x, (_np.bool_, _np.integer, _np.floating)):
        return x.item()
    if isinstance(x, ndarray) and x.ndim == 0 and not is_array0d(x) and x.dtype.kind in "biuf" and \
            not is_tracing(x.tensor):
        return x.tensor.item()
    return x


def as_tensor_dtype(x, dtype) -> torch.Tensor:
    """``as_tensor`` in numpy dtype ``dtype`` (None: keep), converted as ``numpy.array(x, dtype)`` does: Python
    content exactly (an out-of-range int raises OverflowError), arrays by unsafe cast (ComplexWarning)."""
    if dtype is None:
        return as_tensor(x)
    if type(x) is torch.SymInt:
        x = traced_int(x, _dtypes.to_dtype(dtype))
    if type(x) in (builtins.bool, builtins.int, builtins.float, builtins.complex) or (
            isinstance(x, (list, tuple, range)) and not _holds_tensor(x)):
        try:
            return _from_numpy(_np.array(x, dtype=dtype))
        except ValueError as e:
            raise ValueError(str(e)) from None
    return cast(as_tensor(x), _dtypes.to_torch(dtype))


def cast(t: torch.Tensor, td: torch.dtype) -> torch.Tensor:
    """``t`` in torch dtype ``td`` by NumPy's unsafe cast: complex to real keeps the real part, with NumPy's
    ComplexWarning."""
    if t.dtype == td:
        return t
    if t.is_complex() and not td.is_complex and td != torch.bool:
        warnings.warn("Casting complex values to real discards the imaginary part", ComplexWarning, stacklevel=3)
        t = t.real
        if t.dtype == td:  # a cast makes new memory: .real is a view (astype's result wrote into its source)
            return t.clone()
    if td is torch.float16 and t.dtype in _ROUNDED_TWICE_TO_HALF:
        return _half(t)
    return t.to(td)


# torch converts these to float16 through float32, rounding twice (1 + 2**-11 + 2**-40 gave 1.0, NumPy 1.001).
_ROUNDED_TWICE_TO_HALF = frozenset({torch.float64, torch.int32, torch.int64, torch.uint32, torch.uint64})


def _half(t: torch.Tensor) -> torch.Tensor:
    """``t`` in float16 rounded once, as NumPy: through float32 rounded to odd (the one of the two neighbours
    whose last bit is set, when inexact), which a second rounding to a format 13 bits shorter keeps exact."""
    d = t.to(torch.float64)  # (integers beyond 2**53 are beyond float16's range: inf either way)
    f = d.to(torch.float32)
    back = f.to(torch.float64)
    even = (f.view(torch.int32) & 1) == 0
    toward = torch.where(back > d, -math.inf, math.inf).to(torch.float32)
    return torch.where((back != d) & even, torch.nextafter(f, toward), f).to(torch.float16)


# ---------------------------------------------------------------- axes


def normalize_axis_index(axis, ndim: int) -> int:
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer") from None
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim if ndim else 0


def normalize_axis_tuple(axis, ndim: int, argname: str = "axis", allow_duplicate=False) -> tuple:
    if not isinstance(axis, (tuple, list)):  # (Dynamo passes lists as torch.fx immutable_list)
        axis = (axis,)
    r = tuple(normalize_axis_index(a, ndim) for a in axis)
    if not allow_duplicate and len(set(r)) != len(r):
        raise ValueError(f"repeated {argname}" if argname != "axis" else "duplicate value in 'axis'")
    return r


def normalize_shape(shape) -> tuple:
    """A shape argument (an int or a sequence of ints) as a tuple, with NumPy's TypeError for anything else.
    Sizes are not checked (``reshape`` allows -1)."""
    if type(shape) is tuple and all(type(s) is builtins.int for s in shape):
        return shape
    try:
        return (_index(shape),)
    except TypeError:
        pass
    try:
        items = iter(shape)
    except TypeError:
        raise TypeError(f"expected a sequence of integers or a single integer, got '{shape!r}'") from None
    return tuple(_index(s) for s in items)


def _index(s):
    """``operator.index``, keeping symbolic sizes symbolic under tracing; a bool is no size (NumPy's
    TypeError)."""
    if type(s) is builtins.int or isinstance(s, torch.SymInt):
        return s
    if type(s) is builtins.bool:
        raise TypeError("an integer is required")
    return operator.index(s)


def broadcast_shape(shapes) -> tuple:
    """NumPy's broadcast of ``shapes`` (tuples of ints), or its ValueError naming the two that clash."""
    nd = max((len(s) for s in shapes), default=0)
    out, who = [1] * nd, [0] * nd
    for k, s in enumerate(shapes):
        for j, n in enumerate(s, nd - len(s)):
            if n != 1 and out[j] != n:
                if out[j] != 1:
                    raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                     f"between arg {who[j]} with shape {tuple(shapes[who[j]])} and arg {k} with "
                                     f"shape {tuple(s)}.")
                out[j], who[j] = n, k
    return tuple(out)


# ---------------------------------------------------------------- out=


def check_out(out):
    if out is None:
        return None
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if not isinstance(out, ndarray) or is_scalar(out):
        raise TypeError("return arrays must be of ArrayType")
    return out


def copy_to_out(result: torch.Tensor, out: ndarray, casting="same_kind", name="function"):
    """Write ``result`` into ``out`` under NumPy's casting rule and shape check; return ``out``."""
    if not out._writeable:
        raise ValueError("output array is read-only")
    rd = _dtypes.from_torch(result.dtype)
    if rd != out.dtype and not _np.can_cast(rd, out.dtype, casting):
        uf = getattr(name, "_np", name)  # our ufunc objects carry NumPy's, which NumPy's error class needs
        raise _np._core._exceptions._UFuncOutputCastingError(  # NumPy's own class: user code catches it
            uf, casting, rd, out.dtype, 0) if isinstance(uf, _np.ufunc) else TypeError(
            f"Cannot cast array data from {rd!r} to {out.dtype!r} according to the rule {casting!r}")
    if tuple(result.shape) != out.shape:
        try:
            b = torch.broadcast_shapes(result.shape, out.tensor.shape)
        except RuntimeError:
            b = None
        if b != out.tensor.shape:
            raise ValueError(f"non-broadcastable output operand with shape {out.shape} doesn't match the "
                             f"broadcast shape {tuple(result.shape)}")
    if result.dtype is not out.tensor.dtype and (result.is_complex() or out.tensor.dtype is torch.float16):
        result = cast(result, out.tensor.dtype)  # (NumPy's ComplexWarning; float16 rounded once)
    out.tensor.copy_(result)
    return out


def name_of(f):
    return getattr(f, "__name__", str(f))


# ---------------------------------------------------------------- the decorator


class _Marker:
    def __init__(self, name, convert):
        self.name, self.convert = name, convert

    def __repr__(self):
        return self.name


def _opt(f):
    return lambda x: None if x is None else f(x)


ArrayLike = _Marker("ArrayLike", as_tensor)
OptArrayLike = _Marker("OptArrayLike", _opt(as_tensor))
ArrayLikeSeq = _Marker("ArrayLikeSeq", lambda xs: tuple(as_tensor(x) for x in xs)
                       if not isinstance(xs, (ndarray, torch.Tensor, _np.ndarray)) else tuple(as_tensor(xs)))
DTypeLike = _Marker("DTypeLike", _opt(_dtypes.to_dtype))
OutArray = _Marker("OutArray", check_out)


def _wrap_out(r):
    if isinstance(r, torch.Tensor):
        return wrap(r)
    if isinstance(r, tuple):
        return type(r)(_wrap_out(x) for x in r) if type(r) is tuple else type(r)(*(_wrap_out(x) for x in r))
    if isinstance(r, list):
        return [_wrap_out(x) for x in r]
    return r


def normalizer(fn=None, *, wrap_result=True, out_casting="unsafe"):
    """Build a NumPy-signature wrapper around a tensor-level implementation ``fn``.

    Annotated parameters are converted (``ArrayLike`` -> tensor, ``DTypeLike`` -> numpy dtype, ...); tensors in
    the result become ndarrays.  A parameter named ``out`` annotated ``OutArray`` receives the result copy:
    the function returns ``out`` itself, as NumPy does.
    """
    if fn is None:
        return functools.partial(normalizer, wrap_result=wrap_result, out_casting=out_casting)
    sig = inspect.signature(fn)
    ns = {"_impl": fn, "_wrap": _wrap_out, "_copy_to_out": copy_to_out, "_casting": out_casting}
    params, lines, call = [], [], []
    seen_kwonly = False
    has_out = False
    for p in sig.parameters.values():
        name = p.name
        ann = p.annotation
        if isinstance(ann, str):  # from __future__ annotations
            ann = fn.__globals__.get(ann, ann)
        if p.default is not p.empty:
            ns[f"_d_{name}"] = p.default
        default = f"=_d_{name}" if p.default is not p.empty else ""
        if p.kind is p.VAR_POSITIONAL:
            params.append(f"*{name}")
            seen_kwonly = True
            call.append(f"*{name}")
        elif p.kind is p.VAR_KEYWORD:
            params.append(f"**{name}")
            call.append(f"**{name}")
        elif p.kind is p.KEYWORD_ONLY:
            if not seen_kwonly:
                params.append("*")
                seen_kwonly = True
            params.append(f"{name}{default}")
            call.append(f"{name}={name}")
        elif p.kind is p.POSITIONAL_ONLY:
            params.append(f"{name}{default}")
            call.append(name)
        else:
            params.append(f"{name}{default}")
            call.append(name)
        if isinstance(ann, _Marker):
            if ann is OutArray:
                has_out = True
                lines.append(f"    {name} = _cv_{name}({name}) if {name} is not None else None")
                ns[f"_cv_{name}"] = ann.convert
                call[-1] = f"{name}=None" if p.kind is p.KEYWORD_ONLY else "None"  # the wrapper writes out
            else:
                ns[f"_cv_{name}"] = ann.convert
                if p.kind is p.VAR_POSITIONAL:
                    lines.append(f"    {name} = tuple(_cv_{name}(_x) for _x in {name})")
                else:
                    lines.append(f"    {name} = _cv_{name}({name})")
    # positional-only marker
    if any(p.kind is p.POSITIONAL_ONLY for p in sig.parameters.values()):
        last = max(i for i, p in enumerate(sig.parameters.values()) if p.kind is p.POSITIONAL_ONLY)
        params.insert(last + 1, "/")
    body = "\n".join(lines)
    result = "_r = _impl(" + ", ".join(call) + ")"
    if has_out:
        tail = (f"    if out is not None:\n        return _copy_to_out(_r, out, _casting, {fn.__name__!r})\n"
                "    return _wrap(_r)" if wrap_result else "    return _r")
    else:
        tail = "    return _wrap(_r)" if wrap_result else "    return _r"
    src = f"def {fn.__name__}({', '.join(params)}):\n{body}\n    {result}\n{tail}\n"
    exec(compile(src, f"<npcompile normalizer {fn.__name__}>", "exec"), ns)
    w = ns[fn.__name__]
    w.__doc__ = fn.__doc__
    w.__qualname__ = fn.__qualname__
    w.__module__ = "npcompile._numpy"
    w.__wrapped_impl__ = fn
    return w
