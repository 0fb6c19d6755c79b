"""The ufunc methods ``reduce``, ``accumulate``, ``reduceat`` and ``at``: NumPy's reduction engine on torch.

Every reduction of the shim (``sum``, ``max``, ``all``, ``mean``...) runs through ``reduce_tensor`` here, so axis,
keepdims, where=, initial= and out= have one home.  The loop dtype is NumPy's own (``resolve_dtypes`` with
``reduction=True``: e.g. add/multiply over small ints accumulate in int64).  The common ufuncs map to one torch
reduction; other reorderable ufuncs reduce as a log-depth tree of ufunc calls, and the rest (subtract, divide...)
fold left along their single axis in a Python loop.
"""

from __future__ import annotations

import functools
import math
import operator
import warnings

import numpy as _np
import torch
from numpy.exceptions import ComplexWarning

from .._errors import INDEX_TAG, UnsupportedFeature
from ._trace import check, is_tracing as _tracing, zero_count
from . import _dtypes
from ._ndarray import ndarray, wrap
from ._normalize import as_element, as_tensor, check_out, copy_to_out, normalize_axis_index, normalize_axis_tuple
from ._library import LIB as _LIB, as_numpy, from_numpy, numpy_kernel_applies, numpy_op
from ._sorting import _FLOAT_BITS

_NoValue = _np._NoValue
_SIGN_BIT = -(2**63)

# NumPy lets these reduce over several axes at once (associative and commutative loops).
_REORDERABLE = frozenset({"add", "multiply", "maximum", "minimum", "fmax", "fmin", "hypot", "logaddexp",
                          "logaddexp2", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
                          "bitwise_xor", "gcd"})


# ---------------------------------------------------------------- shared pieces of every reduction


def reduction_axes(axis, ndim: int, ufunc_like=True, sequences=False) -> tuple:
    """NumPy's reduction ``axis``: None (all), an int or a tuple.  Ufunc reductions (not mean, var, median...)
    also accept the int 0 or -1 for a 0-D array; with ``sequences`` (median, quantiles, average) any sequence of
    ints is a tuple."""
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is tuple:
        return normalize_axis_tuple(axis, ndim)
    if sequences and not isinstance(axis, (int, _np.integer)) and hasattr(axis, "__iter__") and \
            getattr(axis, "ndim", 1):  # (a 0-D array or our scalar is one axis)
        return normalize_axis_tuple(tuple(axis), ndim)
    if ufunc_like and ndim == 0 and operator.index(axis) in (0, -1):
        return ()
    return (normalize_axis_index(axis, ndim),)


def where_mask(where, shape) -> torch.Tensor | None:
    """``where=`` as a bool tensor broadcast to ``shape`` (None for 'everywhere')."""
    if where is True or where is _NoValue:
        return None
    w = as_tensor(where)
    if w.dtype != torch.bool:
        raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(w.dtype)!r} to dtype('bool') according "
                        "to the rule 'safe'")
    if w.ndim > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    try:
        return w.expand(shape)
    except RuntimeError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes: {tuple(w.shape)} "
                         f"{tuple(shape)}") from None


def finish(r: torch.Tensor, axes: tuple, keepdims, out, name: str, squeezed=False):
    """``r`` was reduced keeping its dims (unless ``squeezed``): drop them unless ``keepdims``, then write
    ``out`` (exact ndim and shape, unsafe cast as NumPy's reductions) or wrap."""
    if not keepdims and axes and not squeezed:
        r = r.squeeze(axes)
    if out is None:
        return wrap(r)
    out = check_out(out)
    if out.ndim != r.ndim:
        raise ValueError(f"output parameter for reduction operation {name} has the wrong number of dimensions: "
                         f"Found {out.ndim} but expected {r.ndim}"
                         + (" (must match the operand's when keepdims=True)" if keepdims else ""))
    return to_out(r, out, name)


def to_out(r: torch.Tensor, out: ndarray, name: str):
    """Write ``r`` into ``out`` of exactly its shape (reductions and scans do not broadcast into out)."""
    if tuple(r.shape) != out.shape:
        raise ValueError(f"non-broadcastable output operand with shape {out.shape} doesn't match the broadcast "
                         f"shape {tuple(r.shape)}")
    return copy_to_out(r, out, "unsafe", name)


def cast(t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """``t`` in ``dtype``, unsafely as NumPy's reductions cast their input (complex to real warns)."""
    if t.dtype == dtype:
        return t
    if t.is_complex() and dtype == torch.bool:
        return t != 0
    if t.is_complex() and not dtype.is_complex:
        warnings.warn("Casting complex values to real discards the imaginary part", ComplexWarning, stacklevel=4)
        t = t.real
    return t.to(dtype)


def _check_method(uf, method):
    if uf.signature is not None:
        raise RuntimeError("Reduction not defined on ufunc with signature")
    if uf.nin != 2:
        raise ValueError(f"{method} only supported for binary functions")
    if uf.nout != 1:
        raise ValueError(f"{method} only supported for functions returning a single value")


@functools.lru_cache(maxsize=None)
def _resolve_loop(uf, in_dtype, dtype):
    kw = {} if dtype is None else {"signature": (dtype, None, None)}
    loop = uf._np.resolve_dtypes((None, in_dtype, None), casting="unsafe", reduction=True, **kw)
    if loop[0] not in _dtypes._NP_TO_TORCH:
        raise UnsupportedFeature(f"{uf.__name__}.reduce with dtype {loop[0]!r}")
    return loop


def reduce_loop(uf, in_dtype: _np.dtype, dtype, method="reduce") -> tuple:
    """NumPy's loop (three dtypes, all the accumulator's) for reducing ``in_dtype`` with ``uf``."""
    _check_method(uf, method)
    return _resolve_loop(uf, in_dtype, None if dtype is None else _dtypes.to_dtype(dtype))


# ---------------------------------------------------------------- kernels over the accumulator dtype

# float16 accumulates in float32 as NumPy's half loops do
_COMPUTE = {torch.bool: torch.int64, torch.uint16: torch.int32, torch.uint32: torch.int64, torch.float16: torch.float32}


def _compute(x, order=False):
    """``x`` in a dtype torch can reduce: wide unsigned as signed (uint64 by its bit pattern, sign-flipped where
    order matters), bool as int64 for arithmetic."""
    if x.dtype == torch.uint64:
        x = x.view(torch.int64)
        return x ^ _SIGN_BIT if order else x
    c = _COMPUTE.get(x.dtype)
    return x if c is None or (order and x.dtype == torch.bool) else x.to(c)


def _back(r, dtype, order=False):
    if dtype == torch.uint64:
        return (r ^ _SIGN_BIT if order else r).view(torch.uint64)
    return r if r.dtype == dtype else r.to(dtype)


def _arith(f):
    """A torch reduction ``f(x, axes, keepdim)`` lifted to any storage dtype (arithmetic modulo 2**bits as
    NumPy)."""
    return lambda x, axes, keep: _back(f(_compute(x), axes, keep), x.dtype)


def _order(f):
    return lambda x, axes, keep: _back(f(_compute(x, order=True), axes, keep), x.dtype, order=True)


def _flat(x, axes):
    """``x`` with ``axes`` moved last and flattened into one (no view op where they are already one last axis:
    in compiled code an identity view of a complex array is an ATen call, some 5 us)."""
    kept = [d for d in range(x.ndim) if d not in axes]
    shape = [x.shape[d] for d in kept] + [math.prod(x.shape[d] for d in axes)]
    if kept + list(axes) != list(range(x.ndim)):
        x = x.permute(kept + list(axes))
    return x if len(axes) == 1 else x.reshape(shape)


def _as_bool(r):
    return r if r.dtype == torch.bool else r.to(torch.bool)  # torch.all/any of uint8 give uint8


def _keep_shape(shape, axes, keep=True):
    """The result shape of reducing ``axes``: kept as 1s, or dropped."""
    return tuple(1 if d in axes else s for d, s in enumerate(shape) if keep or d not in axes)


def _prod(x, axes, keep, mask=None, start=None):
    """``multiply.reduce``; complex ones as NumPy's loop: from ``start`` (1+0j) over the elements ``mask`` picks."""
    r = _numpy_products(x, _numpy_product(False, axes, keep, mask, start))
    if r is not None:
        return r
    shape = _keep_shape(x.shape, axes, keep)
    f, m = _flat(x, axes), None if mask is None else _flat(mask, axes)
    return (_complex_products(f, -1, False, m, start) if _by_op(f) else _torch_prod(f, -1, m, start)).reshape(shape)


def _torch_prod(x, axis, mask, start):
    r = torch.prod(x if mask is None else torch.where(mask, x, 1), axis, dtype=x.dtype)
    return r if start is None else r * start


def _by_op(x):
    """Complex products take ``_complex_products`` unless autograd follows them (the op has no derivative)."""
    return x.is_complex() and not x.requires_grad and torch.autograd.forward_ad._current_level < 0


def _numpy_products(x, f):
    """NumPy's own complex ``multiply.reduce``/``accumulate`` (``f``) of eager CPU tensors, through zero-copy views:
    its loops multiply left to right, a reduction from 1+0j, a scan from the first element as it is, textbook or
    with fused multiply-adds by the array's layout, which decides infinities, NaNs and zero signs that torch's
    products do not reproduce.  None for other tensors (traced, autograd, other devices): ``_complex_products``."""
    if not x.is_complex() or not x.is_cpu or _tracing(x) or torch.autograd.forward_ad._current_level >= 0:
        return None
    try:
        a = x.resolve_conj().numpy()
    except RuntimeError:  # needs grad, or has no plain storage
        return None
    return _numpy_products_of(a, f)


def _numpy_products_of(a, f):
    with _np.errstate(all="ignore"):
        return torch.from_numpy(_np.asarray(f(a)))


def _numpy_product(scan, axis, keep=False, mask=None, start=None):
    """NumPy's own loop, a function of a NumPy array: ``multiply.accumulate`` (a ``scan``) or ``multiply.reduce``
    from ``start`` over the elements ``mask`` picks (both read when it runs: never on traced tensors)."""
    if scan:
        return lambda a: _np.multiply.accumulate(a, axis)
    return lambda a: _np.multiply.reduce(a, axis, keepdims=keep, where=True if mask is None else mask.cpu().numpy(),
                                         initial=_NoValue if start is None else start.item())


def _complex_products_impl(x, axis, scan, mask=None, start=None):
    """Complex ``multiply.reduce`` (or ``accumulate``, a ``scan``) along ``axis`` in compiled code and on other
    devices: torch's product, unless it is not finite, then NumPy's.  torch's products agree with NumPy's on
    finite values (up to rounding: another order) but not on infinities and NaNs, which NumPy's left-to-right loop
    turns into particular ones (torch's scan also starts from 1+0j, NumPy's from the first element: inf+1j stays,
    where torch gives nan+1j).  A part that is not finite never becomes finite again in a product, so a finite
    torch result (a scan's last slice) is the answer.  An op, opaque to Inductor, so that NumPy's loops run only
    when needed: the finite case costs the call and a check of the result; on the CPU, up to ``_NUMPY_FIRST``
    elements NumPy's loop itself costs less than that check (12 elements: 4 us, torch's product and check 20).
    A reduction reads the elements ``mask`` picks, from ``start``."""
    if not x.is_cpu or x.numel() > _NUMPY_FIRST:
        r = torch.cumprod(x, axis).contiguous() if scan else _torch_prod(x, axis, mask, start)
        if bool(torch.isfinite(torch.view_as_real(r.select(axis, -1) if scan else r)).all()):  # (2x faster as real)
            return r
    f = _numpy_product(scan, axis, mask=mask, start=start)
    return _numpy_products_of(x.resolve_conj().cpu().numpy(), f).to(x.device).contiguous()


_NUMPY_FIRST = 2048  # (NumPy's scalar loop: 5.5 ns an element; torch's product and check: 12-17 us, then 1-3 ns)

_LIB.define("complex_products(Tensor x, int axis, bool scan, Tensor? mask=None, Tensor? start=None) -> Tensor")
_LIB.impl("complex_products", _complex_products_impl, "CompositeExplicitAutograd")
_complex_products = torch.ops.npcompile.complex_products.default


@torch.library.register_fake("npcompile::complex_products", lib=_LIB)
def _(x, axis, scan, mask=None, start=None):
    return x.new_empty(x.shape if scan else x.shape[:axis % x.ndim] + x.shape[axis % x.ndim + 1:])


# Kernels take (x, axes, keepdim); logical_and/or read any dtype's truth directly (no cast to bool first).
_FAST = {
    "add": _arith(lambda x, axes, keep: torch.sum(x, axes, keepdim=keep, dtype=x.dtype)),
    "multiply": _arith(_prod),
    "maximum": _order(lambda x, axes, keep: torch.amax(x, axes, keepdim=keep)),
    "minimum": _order(lambda x, axes, keep: torch.amin(x, axes, keepdim=keep)),
    "logical_and": lambda x, axes, keep: _as_bool(torch.all(x, axes, keepdim=keep)),
    "logical_or": lambda x, axes, keep: _as_bool(torch.any(x, axes, keepdim=keep)),
}
_TRUTH = ("logical_and", "logical_or")


def _pairwise(uf, loop):
    return lambda a, b: uf._run([a, b], loop)


def _tree(uf, loop):
    """A reorderable ufunc reduced pairwise: log2(n) ufunc calls over the flattened axes."""
    op = _pairwise(uf, loop)

    def k(x, axes, keep):
        shape = _keep_shape(x.shape, axes, keep)
        x = _flat(x, axes)
        if x.shape[-1] == 1:
            x = x.clone()  # (over one element: a new array all the same, never a view of the input)
        while x.shape[-1] > 1:
            n = x.shape[-1]
            y = op(x[..., 0:n - 1:2], x[..., 1:n:2])
            x = torch.cat([y, x[..., n - 1:]], -1) if n % 2 else y
        return x.reshape(shape)
    return k


def _kernel(uf, loop, dtype):
    name = uf.__name__
    if name in _FAST and not (dtype.is_complex and name in ("maximum", "minimum")):
        return _FAST[name]
    return _tree(uf, loop)


def _fold(uf, loop, x, axis, mask, init):
    """A non-reorderable ufunc folded left along one axis (NumPy's order), masked steps skipped."""
    op = _pairwise(uf, loop)
    x = x.movedim(axis, -1)
    m = None if mask is None else mask.movedim(axis, -1)
    r, start = (init.expand(x.shape[:-1]), 0) if init is not None else (x[..., 0].clone(), 1)  # (not a view)
    for i in range(start, x.shape[-1]):
        v = op(r, x[..., i])
        r = v if m is None else _dtypes.where(m[..., i], v, r)
    return r.unsqueeze(axis)


def _scalar_initial(initial, loop_dtype, device):
    """``initial=`` as a 0-D tensor of the loop dtype: NumPy sets it as one element (``as_element``)."""
    return as_element(initial, loop_dtype, device)


_HALF_STEP_OPS = {"add": torch.sum, "multiply": torch.prod}
_HALF_UNROLL = 64  # most float16 accumulator steps traced into a graph (an op each); beyond, NumPy runs the call
_BUFSIZE = 8192  # NumPy's iterator buffer, in elements


def _half_steps(uf, t, axes, mask, init):
    """A float16 sum or product in NumPy's rounding, keeping dims, or None where NumPy's is one float32 pass per
    result.  NumPy's iterator walks ``t`` in memory order: its inner loop reduces the innermost dims, when reduced,
    in float32, and each outer step adds that into a float16 accumulator, rounding: a column sum of 5000 float16
    ones is 2048 in NumPy, not 5000 (and ``initial=`` is such a step).  Its products multiply each inner run in
    order, and where the inner dims do not coalesce into one run of memory and hold more than a buffer, or with
    ``where=``, its buffered loops round at other points.  Eagerly NumPy's own loop computes all of these on a
    host view (exact, and far faster than a torch op per step); traced, the steps of an exact case unroll into the
    graph (a few only: beyond, NumPy runs the call); with gradients they run here, in torch's float32 order."""
    if t.dtype != torch.float16:  # cast element by element in NumPy's buffers first
        if _tracing(t):
            raise UnsupportedFeature(f"{uf.__name__}.reduce of {t.dtype} into float16 in NumPy's rounding order")
        if not t.requires_grad:
            return _host_reduce(uf, t, axes, mask, init)
        t = t.to(torch.float16)
    dims = sorted((d for d in range(t.ndim) if t.shape[d] != 1), key=lambda d: -abs(t.stride(d)))
    inner = []
    for d in reversed(dims):
        if d not in axes:
            break
        inner.append(d)
    outer = [d for d in dims if d in axes and d not in inner]
    one_run = all(t.stride(d) == t.stride(i) * t.shape[i] for i, d in zip(inner, inner[1:]))
    exact = uf.__name__ == "add" and mask is None and (one_run or math.prod(t.shape[d] for d in inner) <= _BUFSIZE)
    if exact and not outer and init is None:
        return None
    if not (_tracing(t) or t.requires_grad):
        return _host_reduce(uf, t, axes, mask, init)
    steps = math.prod(t.shape[d] for d in outer)
    if _tracing(t) and not (exact and steps <= _HALF_UNROLL):
        raise UnsupportedFeature(f"float16 {uf.__name__}.reduce in NumPy's rounding order (a product, where=, "
                                 f"strided inner axes or {steps} steps)")
    add, x = uf.__name__ == "add", t.to(torch.float32)
    if mask is not None:
        x = torch.where(mask, x, float(uf.identity))
    for d in inner:
        x = _HALF_STEP_OPS[uf.__name__](x, d, keepdim=True)
    kept = [d for d in range(t.ndim) if d not in axes]
    x = x.permute(outer + kept + [d for d in range(t.ndim) if d in axes and d not in outer])
    x = x.reshape(steps, *(t.shape[d] for d in kept))
    acc = x[0] if init is None else init.float() + x[0] if add else init.float() * x[0]
    for i in range(1, steps):
        acc = acc.to(torch.float16).float() + x[i] if add else acc.to(torch.float16).float() * x[i]
    return acc.to(torch.float16).reshape(_keep_shape(t.shape, axes))


def _host_reduce(uf, t, axes, mask, init):
    """``uf.reduce`` in float16 computed by NumPy itself, on a host view of ``t``."""
    kw = {} if mask is None else {"where": torch.broadcast_to(mask, t.shape).cpu().numpy()}
    if init is not None:
        kw["initial"] = init.item()
    r = uf._np.reduce(t.cpu().numpy(), axis=tuple(axes), dtype=_np.float16, keepdims=True, **kw)
    return torch.from_numpy(_np.asarray(r)).to(t.device)


def reduce_tensor(uf, t, axes, loop, mask=None, initial=_NoValue, keepdims=True):
    """``uf.reduce`` of tensor ``t`` over normalized ``axes`` in NumPy loop ``loop``."""
    name, acc = uf.__name__, _dtypes.to_torch(loop[0])
    if len(axes) > 1 and name not in _REORDERABLE:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis may be specified")
    init = None if initial is _NoValue or initial is None else _scalar_initial(initial, loop[0], t.device)
    n = math.prod(t.shape[d] for d in axes)
    if acc == torch.float16 and name in _HALF_STEP_OPS and axes and not zero_count(n):
        r = _half_steps(uf, t, axes, mask, init)
        if r is not None:
            return r if keepdims else r.squeeze(axes)
    if mask is None and init is None and axes and name in _FAST and not zero_count(n):  # the common case: one
        if uf.identity is None:  # torch reduction
            nonempty(n, name)
        x = t if name in _TRUTH and not t.dtype.is_complex else cast(t, acc)
        return _kernel(uf, loop, acc)(x, axes, keepdims)
    r = _reduce_general(uf, cast(t, acc), t, axes, loop, mask, init, n)
    return r if keepdims or not axes else r.squeeze(axes)


def _reduce_general(uf, x, t, axes, loop, mask, init, n):
    """Reductions with where=, initial=, no axes, empty axes, or without a single torch reduction: dims kept."""
    name, acc = uf.__name__, x.dtype
    identity = None if uf.identity is None else torch.tensor(uf.identity, device=t.device).to(acc)  # wraps -1
    if mask is not None and identity is None and init is None:
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one has "
                         "to specify 'initial'")
    start = init if init is not None else identity  # NumPy reduces from initial=, else from the identity
    if n == 0:
        if start is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        return start.expand(_keep_shape(t.shape, axes)).clone()
    if not axes:  # each element reduces alone: start op x, or what a masked-out element leaves
        r = (x.clone() if x is t else x) if start is None else uf._run([start, x], loop)
        return r if mask is None else _dtypes.where(mask, r, start)
    if name == "multiply" and acc.is_complex:  # (neither 1+0j nor start is neutral to a product that is not finite)
        return _prod(x, axes, True, mask, start)
    if name not in _REORDERABLE:
        return _fold(uf, loop, x, axes[0], mask, init if init is not None else identity if mask is not None
                     else None)
    if mask is not None:
        x = _dtypes.where(mask, x, identity if identity is not None else init)
    r = _kernel(uf, loop, acc)(x, axes, True)  # (the identity shows on one element: hypot, gcd of -3 are 3)
    return r if start is None else uf._run([start, r], loop)


_ALL_DIMS = tuple(tuple(range(n)) for n in range(65))  # NumPy's 64 dims at most


def plain_dims(t, axis, keepdims):
    """The dims of a plain reduction (axis None or an in-range int, a real keepdims, nothing empty) for the
    fast paths, or None when the call needs the general path: a tuple of all dims, or the int axis as it is
    (torch parses an int dim faster than a tuple).  A count read from the data (``x[x > 0].sum()``) counts as
    not empty: torch's reductions of an empty array give NumPy's values; those without one check (``nonempty``)."""
    if keepdims is not _NoValue and type(keepdims) is not bool or zero_count(t.numel()):
        return None
    nd = t.ndim
    if axis is None:
        return _ALL_DIMS[nd] if nd else None  # a prebuilt tuple: tuple(range(nd)) costs a tenth of torch.sum
    if type(axis) is int and -nd <= axis < nd:
        return axis
    return None


def nonempty(n, name):
    """NumPy's ValueError for a reduction without identity over ``n`` (not zero: ``zero_count``) elements, for
    a count read from the data: checked when the compiled code runs."""
    if type(n) is not int:
        check(n > 0, ValueError, f"zero-size array to reduction operation {name} which has no identity")


_PLAIN_ACC: dict = {}
# whole-array reductions of the plain dtypes: the cheapest torch calls (no dim list to parse)
_FULL = {"add": torch.sum, "multiply": lambda x: _prod(x, tuple(range(x.ndim)), False) if x.is_complex()
         else torch.prod(x), "maximum": torch.amax, "minimum": torch.amin}
# (x, dim or dims, keepdim) of the plain dtypes in their accumulator dtype: nothing to convert or promote
_DIMS = {"add": torch.sum, "maximum": torch.amax, "minimum": torch.amin}
_PLAIN_TYPES = frozenset({torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
                          torch.float32, torch.float64, torch.complex64, torch.complex128})


def _plain_acc(uf, dt):
    """The accumulator dtype of ``uf.reduce`` on torch dtype ``dt`` when one torch reduction is exact, else False."""
    name = uf.__name__
    if dt not in _PLAIN_TYPES or name not in _FAST or (dt.is_complex and name in ("maximum", "minimum")):
        return False
    acc = _dtypes.to_torch(reduce_loop(uf, _dtypes.from_torch(dt), None)[0])
    return acc if acc in _PLAIN_TYPES else False


def reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """``ufunc.reduce``: NumPy's reduction of ``array`` by ``uf`` along ``axis``."""
    if type(array) is ndarray and dtype is None and out is None and initial is _NoValue and (
            where is True or where is _NoValue):
        # Fast path: a cached accumulator dtype and one torch reduction.
        t = array.tensor
        key = (uf.__name__, t.dtype)
        acc = _PLAIN_ACC.get(key)
        if acc is None:
            acc = _PLAIN_ACC[key] = _plain_acc(uf, t.dtype)
        dims = plain_dims(t, axis, keepdims) if acc is not False else None
        if dims is not None:
            name = key[0]
            if uf.identity is None:
                nonempty(t.numel() if type(dims) is tuple else t.shape[dims], name)
            x = t if name in _TRUTH and not t.dtype.is_complex else t if t.dtype == acc else t.to(acc)
            full = _FULL.get(name) if axis is None and keepdims is not True else None
            if full is not None:
                return wrap(full(x))
            f = _DIMS.get(name)
            if f is not None:
                return wrap(f(x, dims, keepdims is True))
            return wrap(_FAST[name](x, dims if type(dims) is tuple else (dims % t.ndim,), keepdims is True))
    t = as_tensor(array)
    loop = reduce_loop(uf, _dtypes.from_torch(t.dtype), _reduce_dtype(uf, t, dtype, out))
    axes = reduction_axes(axis, t.ndim)
    keep = keepdims is not _NoValue and bool(keepdims)
    r = reduce_tensor(uf, t, axes, loop, where_mask(where, t.shape), initial, keep)
    return finish(r, axes, keep, out, uf.__name__, squeezed=True)


def _reduce_dtype(uf, t, dtype, out):
    """A reduction's ``dtype``: as given, or with ``out`` and none given, the input's promoted with out's, which
    NumPy resolves the loop with (float32 data summed into a float64 ``out`` add up in float64; floats summed into
    an int64 one, in float64, truncated at the end).  Logical reductions stay bool."""
    if dtype is not None or out is None or uf.__name__.startswith("logical_"):
        return dtype
    return _np.promote_types(_dtypes.from_torch(t.dtype), check_out(out).dtype)


# ---------------------------------------------------------------- accumulate


def _hillis_steele(uf, loop):
    """An associative scan in log2(n) ufunc calls: step d combines each element with the one d before."""
    op = _pairwise(uf, loop)

    def k(x, axis):
        n, d = x.shape[axis], 1
        while d < n:
            x = torch.cat([x.narrow(axis, 0, d), op(x.narrow(axis, 0, n - d), x.narrow(axis, d, n - d))], axis)
            d *= 2
        return x
    return k


def _sequential_scan(uf, loop):
    op = _pairwise(uf, loop)

    def k(x, axis):
        parts = list(x.unbind(axis))
        for i in range(1, len(parts)):
            parts[i] = op(parts[i - 1], parts[i])
        return torch.stack(parts, axis) if parts else x
    return k


def _starts_negative_zero(xs, axis) -> torch.Tensor:
    """Whether a first element along ``axis`` is -0.0 (its bits are the sign bit alone), as a bool tensor."""
    bits = _FLOAT_BITS[xs.dtype]
    return (xs.select(axis, 0).view(bits) == torch.iinfo(bits).min).any()


def _first_negative_zero(xs, axis) -> bool:
    """``_starts_negative_zero`` of real data; on the CPU through a NumPy view (torch's select, comparison, any
    and bool cost some 10 us)."""
    first = _first_values(xs, axis)
    if first is None:
        return bool(_starts_negative_zero(xs, axis))
    return bool(((first == 0) & _np.signbit(first)).any())


def _first_values(t, axis):
    """The first elements of real ``t`` along ``axis`` as a NumPy array, where a NumPy view reads them (a CPU
    float tensor without gradient), else None."""
    if t.is_cpu and not t.requires_grad and t.dtype in _NUMPY_FLOATS:  # (a strided view gathered by a copy: the
        return _np.ascontiguousarray(t.numpy()[(slice(None),) * axis + (slice(0, 1),)])  # fastest NumPy read)
    return None


def _scan_starts_at_zero(r, axis) -> bool:
    """Whether a running sum ``r`` made by torch starts at a zero anywhere: there its input starts at +0.0 or
    -0.0 (torch's first sum is 0.0 plus the first element).  Read in the result just written, still in cache,
    before the input's first elements (along rows of a large C array, one cache miss each: 0.2 ms of a 3.5 ms
    running mean of 2000x2000)."""
    rs = torch.view_as_real(r) if r.is_complex() else r
    first = _first_values(rs, axis)
    return bool((rs.select(axis, 0) == 0).any()) if first is None else not first.all()


_NUMPY_FLOATS = frozenset({torch.float16, torch.float32, torch.float64})
_READ_AGAIN = 1 << 17  # bytes up to which a traced fix reads its (cached) input again rather than check: ~25 us


def running_sum(x, axis, dtype=None):
    """``torch.cumsum`` with NumPy's zero signs: torch adds from +0.0 where NumPy's scan starts from the first
    element, so a leading run of -0.0 (in either part of a complex) stays -0.0 (torch: 0.0).  The fix reads the
    input again, so it runs only where a first element is -0.0: eager, a check in Python; traced on the CPU, an op
    of ours doing the same (``_running_sum_op``: Inductor's CPU scan is an ATen call either way, and its consumers
    fuse after the op as after the call; the cond this was before made a graph Inductor's cache refuses, so a warm
    process compiled a running mean again: 1 s); traced elsewhere, a cond on that check, then the scan with or
    without the fix (a compiled running mean of 2000x2000 took 1.4x torch.compile's time with the fix always on,
    which keeps +0.0).  Small inputs, in cache, are read again rather than pay for the check."""
    axis %= x.ndim
    if not (x.is_floating_point() or x.is_complex()) or x.shape[axis] == 0:
        return torch.cumsum(x, axis, dtype=dtype)
    if _single_precision_scan(x, dtype):
        return _numpy_running_sum(x, axis)
    xs = torch.view_as_real(x.resolve_conj()) if x.is_complex() else x
    if _tracing(x):  # (the op itself: torch.cond would start a nested Dynamo compile; branches give tuples)
        n = x.numel()
        if type(n) is int and n * x.element_size() <= _READ_AGAIN or \
                not all(type(d) is int or d.node.expr.is_Symbol for d in x.shape):
            return _negative_zero_run(x, axis, dtype)  # (Inductor's cond cannot bind s0, s1 from a size s0*s1)
        if x.is_cpu:
            return _running_sum_op(x, axis, dtype)
        return torch.ops.higher_order.cond(_starts_negative_zero(xs, axis),
                                           lambda x: (_negative_zero_run(x, axis, dtype),),
                                           lambda x: (torch.cumsum(x, axis, dtype=dtype),), (x,))[0]
    return _running_sum(x, axis, dtype)


def _single_precision_scan(x, dtype) -> bool:
    """float32 and complex64 sums on the CPU run NumPy's own loop: torch's CPU cumsum adds them up in double
    precision and rounds each sum once, where NumPy rounds every partial sum to single precision, so 60-80% of
    the results differed from NumPy's (by up to a few ulp of the running sum).  (Elsewhere, or with a gradient,
    torch's scan is kept.)"""
    return x.dtype in (torch.float32, torch.complex64) and dtype in (None, x.dtype) and numpy_kernel_applies(x)


def _numpy_scan(name, np_ufunc):
    """An op running NumPy's ``np_ufunc.accumulate`` on a CPU tensor's memory (its loop rounds every partial
    result in the data's dtype)."""
    return numpy_op(f"{name}(Tensor x, int axis) -> Tensor",
                    lambda x, axis: from_numpy(np_ufunc.accumulate(as_numpy(x), axis)),
                    lambda x, axis: x.new_empty(x.shape))


_numpy_running_sum = _numpy_scan("numpy_running_sum", _np.add)


def _running_sum(x, axis, dtype):
    """``running_sum`` of real data, in ``torch.cumsum``'s layout (what the op's fake gives)."""
    r = torch.cumsum(x, axis, dtype=dtype)
    if not _scan_starts_at_zero(r, axis):
        return r
    xs = torch.view_as_real(x.resolve_conj()) if x.is_complex() else x
    return r.copy_(_negative_zero_run(x, axis, dtype)) if _first_negative_zero(xs, axis) else r


def _running_sum_context(ctx, inputs, output):
    ctx.axis, ctx.dtype = inputs[1], inputs[0].dtype


def _running_sum_backward(ctx, grad):
    """torch.cumsum's gradient: each element's, the sum of the output gradients from its position on."""
    return grad.flip(ctx.axis).cumsum(ctx.axis).flip(ctx.axis).to(ctx.dtype), None, None


_LIB.define("running_sum(Tensor x, int axis, ScalarType? dtype) -> Tensor")
_LIB.impl("running_sum", _running_sum, "CPU")
torch.library.register_fake("npcompile::running_sum", lambda x, axis, dtype: torch.cumsum(x, axis, dtype=dtype),
                            lib=_LIB)
torch.library.register_autograd("npcompile::running_sum", _running_sum_backward, setup_context=_running_sum_context,
                                lib=_LIB)
_running_sum_op = torch.ops.npcompile.running_sum.default


def _negative_zero_run(x, axis, dtype):
    """``torch.cumsum`` with its sums over the leading run of -0.0 made -0.0.  The run ends at the first element
    that is not -0.0: a min reduction of indices, which Inductor vectorizes (a second scan cost compiled code 3.5x
    the plain cumsum, an argmax and signbit ran scalar).  The run's sums (+0.0 there) become -(0.0 - sum), which
    is -0.0 with the sum's gradient."""
    r = torch.cumsum(x, axis, dtype=dtype)
    xs, rs = (torch.view_as_real(x.resolve_conj()), torch.view_as_real(r)) if x.is_complex() else (x, r)
    n = xs.shape[axis]
    at = torch.arange(n, device=xs.device).view([n if d == axis else 1 for d in range(xs.ndim)])
    bits = _FLOAT_BITS[xs.dtype]
    run = torch.where(xs.view(bits) != torch.iinfo(bits).min, at, n).amin(axis, keepdim=True)
    r = torch.where(at < run, -(0.0 - rs), rs)
    return torch.view_as_complex(r) if x.is_complex() else r


def _cumprod(x, axis):
    if x.dtype == torch.float32 and numpy_kernel_applies(x):  # (NumPy rounds every partial product, torch's
        return _numpy_running_product(x, axis)                 # CPU cumprod multiplies in double: 60% differed)
    r = _numpy_products(x, _numpy_product(True, axis))
    if r is not None:
        return r
    return _complex_products(x, axis, True) if _by_op(x) else torch.cumprod(x, axis, dtype=x.dtype)


_numpy_running_product = _numpy_scan("numpy_running_product", _np.multiply)


def _cum(f, order=False):
    return lambda x, axis: _back(f(_compute(x, order), axis), x.dtype, order)


_FAST_SCAN = {
    "add": _cum(lambda x, axis: running_sum(x, axis, x.dtype)),
    "multiply": _cum(_cumprod),
    "maximum": _cum(lambda x, axis: torch.cummax(x, axis).values, order=True),
    "minimum": _cum(lambda x, axis: torch.cummin(x, axis).values, order=True),
}


def accumulate_tensor(uf, t, axis, loop):
    """``uf.accumulate`` of ``t`` along one normalized ``axis`` in NumPy loop ``loop``."""
    x = cast(t, _dtypes.to_torch(loop[0]))
    name = uf.__name__
    if x.shape[axis] == 0:
        return x.clone()
    if x.dtype == torch.float16 and name in ("add", "multiply"):
        return _sequential_scan(uf, loop)(x, axis)  # NumPy rounds each partial result to float16
    if name in _FAST_SCAN and not (x.is_complex() and name in ("maximum", "minimum")):
        return _FAST_SCAN[name](x, axis)
    r = (_hillis_steele if name in _REORDERABLE else _sequential_scan)(uf, loop)(x, axis)
    return r.clone() if r is t else r  # (a scan of one element is the input itself: NumPy's result is new)


def _single_axis(axis, ndim, method):
    if axis is None:
        if ndim != 1:
            raise ValueError(f"{method} does not allow multiple axes")
        axis = 0
    elif type(axis) is tuple:
        if len(axis) != 1:
            raise ValueError(f"{method} does not allow multiple axes")
        axis = axis[0]
    return normalize_axis_index(axis, ndim)


def accumulate(uf, array, axis=0, dtype=None, out=None):
    """``ufunc.accumulate``: running reduction along one axis."""
    _check_method(uf, "accumulate")
    t = as_tensor(array)
    if t.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    ax = _single_axis(axis, t.ndim, "accumulate")
    r = accumulate_tensor(uf, t, ax, reduce_loop(uf, _dtypes.from_torch(t.dtype), dtype, "accumulate"))
    return wrap(r) if out is None else to_out(r, check_out(out), uf.__name__)


# ---------------------------------------------------------------- reduceat


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    """``ufunc.reduceat``: reductions over ``array[indices[i]:indices[i+1]]`` along ``axis`` (a single element
    where the next index is not larger).  Segments are gathered into one tensor and reduced by segment id."""
    _check_method(uf, "reduceat")
    t = as_tensor(array)
    if t.ndim == 0:
        raise TypeError("cannot reduceat on a scalar")
    ax = _single_axis(axis, t.ndim, "reduceat")
    idx = as_tensor(indices)
    if idx.ndim > 1:
        raise ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                         "number of dimension of 1.")
    if idx.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    d = _dtypes.from_torch(idx.dtype)
    if isinstance(indices, (ndarray, _np.ndarray)) and not _np.can_cast(d, _np.intp):
        # NumPy casts an index array safely (a sequence's values convert as np.array(seq, dtype=intp) would)
        raise TypeError(f"Cannot cast array data from {d!r} to dtype('int64') according to the rule 'safe'")
    idx = idx.to(torch.int64)
    loop = reduce_loop(uf, _dtypes.from_torch(t.dtype), dtype, "reduceat")
    n = t.shape[ax]
    bad = (idx < 0) | (idx >= n)
    x = t.to(_dtypes.to_torch(loop[0])).movedim(ax, 0)
    kind = _SCATTER.get(uf.__name__)
    if _tracing(bad) and kind is not None and not x.is_complex() and x.device.type == "cpu":
        # the values are unknown: compiled CPU code checks the bounds when it runs (``_errors.INDEX_TAG``; on
        # other devices a failed check would end the device context, so the call runs in NumPy there)
        torch._assert_async(~bad.any(), INDEX_TAG + f"index out-of-bounds in {uf.__name__}.reduceat [0, {n})")
        r = _segments_traced(x, idx, kind).movedim(0, ax)
        return wrap(r) if out is None else to_out(r, check_out(out), uf.__name__)
    if idx.numel() and not _tracing(bad) and bool(bad.any()):  # data-dependent check (eager only)
        i = int(idx[bad][0])
        raise IndexError(f"index {i} out-of-bounds in {uf.__name__}.reduceat [0, {n})")
    r = _segments(uf, x, idx, loop).movedim(0, ax)
    return wrap(r) if out is None else to_out(r, check_out(out), uf.__name__)


def _segments(uf, x, idx, loop):
    """Segment i spans [idx[i], end_i) along dim 0, end_i = idx[i+1] if larger, else idx[i] + 1."""
    k, n = idx.numel(), x.shape[0]
    nxt = torch.cat([idx[1:], idx.new_full((min(k, 1),), n)])
    lengths = torch.where(nxt > idx, nxt - idx, 1)
    seg = torch.repeat_interleave(torch.arange(k, device=x.device), lengths)
    starts = torch.repeat_interleave(idx - (torch.cumsum(lengths, 0) - lengths), lengths)
    pos = torch.arange(seg.numel(), device=x.device) + starts
    kind = _SCATTER.get(uf.__name__)
    if kind is not None and not x.is_complex():
        c = _compute(x, order=kind in ("amax", "amin")).index_select(0, pos)
        res = c.new_zeros((k,) + tuple(x.shape[1:]))
        index = seg.reshape((-1,) + (1,) * (x.ndim - 1)).expand(c.shape)
        res = res.scatter_reduce(0, index, c, kind, include_self=False)
        return _back(res, x.dtype, order=kind in ("amax", "amin"))
    # other ufuncs: one reduction per segment (a Python loop over segments, data-dependent bounds); a segment of
    # one element is that element (reduceat does not start from the identity as reduce does)
    bounds = torch.stack([idx, idx + lengths]).tolist()
    outs = [x[s] if e - s == 1 else reduce_tensor(uf, x[s:e], (0,), loop).squeeze(0) for s, e in zip(*bounds)]
    return torch.stack(outs) if outs else x.new_empty((0,) + tuple(x.shape[1:]))


_SCATTER = {"add": "sum", "multiply": "prod", "maximum": "amax", "minimum": "amin"}
_COMBINE = {"sum": torch.add, "prod": torch.mul, "amax": torch.maximum, "amin": torch.minimum}


def _segments_traced(x, idx, kind):
    """``_segments`` for indices known only when the code runs, in sizes fixed by the trace: segment i is
    ``x[idx[i]]`` combined with ``x[idx[i] + 1:end_i]``, the latter a segment tree's query vectorised over the
    segments.  Level L holds the blocks of 2**L elements combined pairwise; walking up, an interval takes at most
    one block at each end per level, so the work is O(n + k log n) for any indices (segments may overlap when
    they decrease, so they cannot be scattered by segment id).  Sums and products group differently from
    NumPy's left-to-right loop (rounding only); maxima and minima are exact, NaN included."""
    op, order = _COMBINE[kind], kind in ("amax", "amin")
    k, n = idx.numel(), x.shape[0]
    safe = idx.clamp(0, max(n - 1, 0))  # (out-of-bounds indices fail the caller's check when the code runs)
    at = torch.arange(k, device=idx.device)  # (k may be a size known only at run time: the indices from np.unique)
    nxt = torch.where(at == k - 1, n, safe.roll(-1))
    lo = safe + 1
    hi = torch.where(nxt > safe, nxt, lo)  # the rest of segment i: [lo, hi), empty for a single element
    c = _compute(x, order)
    if n == 0:
        return _back(c.new_empty((k,) + tuple(c.shape[1:])), x.dtype, order)
    acc = c[safe]
    level, shape = c, (k,) + (1,) * (c.ndim - 1)
    while level.shape[0] > 0:  # [lo, hi) in units of this level's blocks
        last = level.shape[0] - 1
        take = (lo % 2 == 1) & (lo < hi)  # an odd first block is no left half of a block above: take it
        acc = torch.where(take.reshape(shape), op(acc, level[lo.clamp(max=last)]), acc)
        lo = lo + take.to(lo.dtype)
        take = (hi % 2 == 1) & (lo < hi)  # nor an even last one (hi odd) a right half: take it
        hi = hi - take.to(hi.dtype)
        acc = torch.where(take.reshape(shape), op(acc, level[hi.clamp(max=last)]), acc)
        lo, hi = lo // 2, hi // 2
        m = level.shape[0] // 2
        level = op(level[0:2 * m:2], level[1:2 * m:2])
    return _back(acc, x.dtype, order)


# ---------------------------------------------------------------- at


def at(uf, a, indices, b=None):
    """``ufunc.at``: ``a[indices] = uf(a[indices], b)`` unbuffered, so repeated indices apply repeatedly."""
    if uf.signature is not None:
        raise TypeError(f"{uf.__name__}.at does not support ufunc with non-trivial signature: {uf.__name__} has "
                        f"signature {uf.signature}.")
    if uf.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time")
    if not isinstance(a, ndarray):
        raise TypeError("first operand must be array")
    if uf.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if uf.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if not a._writeable:
        raise ValueError("output array is read-only")
    t = a.tensor
    sel = wrap(torch.arange(t.numel(), device=t.device).reshape(t.shape))[indices].tensor
    vals, ops = None, (t.dtype,)
    if uf.nin == 2:
        bt = as_tensor(b)
        try:
            vals = bt.expand(sel.shape).reshape(-1)
        except RuntimeError:
            raise ValueError("array is not broadcastable to correct shape") from None
        ops = (t.dtype, bt.dtype)
    loop = uf._resolve(ops, None, "same_kind", (None,))
    t.copy_(_apply_at(uf, t.reshape(-1).clone(), sel.reshape(-1), vals, loop).reshape(t.shape))


def _apply_at(uf, flat, lin, vals, loop):
    kind = _SCATTER.get(uf.__name__)
    storage = flat.dtype
    if vals is not None and kind is not None and all(_dtypes.to_torch(d) == storage for d in loop) \
            and not flat.is_complex():  # (values of another dtype cast to the loop's, as NumPy's do)
        order = kind in ("amax", "amin")
        c = _compute(flat, order)
        c = c.scatter_reduce(0, lin, _compute(vals.to(storage), order), kind, include_self=True)
        return _back(c, storage, order)
    for i, j in enumerate(lin.tolist()):  # generic: one ufunc call per index, in order (unbuffered)
        ops = [flat[j].to(_dtypes.to_torch(loop[0]))]
        if vals is not None:
            ops.append(vals[i].to(_dtypes.to_torch(loop[1])))
        flat[j] = uf._run(ops, loop).to(storage)
    return flat
