"""Array products: dot, vdot, inner, outer, tensordot, einsum (and einsum_path), kron, cross, trace.

Every contraction is one ``torch.einsum`` call through ``contract`` (or, for dot/inner/vdot of at most 2-D
operands, one ``torch.matmul`` where torch has an exact kernel), which also makes integer, unsigned and boolean
products exact (torch has no matmul kernels for bool and the wide unsigned types, and none for
integers off the CPU).  Element-wise products (outer, kron, cross) are the ``multiply``/``subtract`` ufuncs, so
they promote and cast exactly as those do.
"""

from __future__ import annotations

import functools
import math
import operator
import warnings

import numpy as _np
import torch
from numpy.exceptions import ComplexWarning

from .._errors import UnsupportedFeature
from . import _dtypes
from . import _ufuncs as U
from ._ndarray import as_array0d, ndarray, view_of, wrap
from ._normalize import (
    ArrayLike, as_tensor, check_out, copy_to_out, normalize_axis_index, normalize_axis_tuple, normalizer,
)

__all__ = ["dot", "vdot", "inner", "outer", "tensordot", "einsum", "einsum_path", "kron", "cross", "trace"]

# ---------------------------------------------------------------- the contraction kernel

# Integer and bool contractions run in int64: torch has no product kernels for bool and the wide unsigned types,
# and its einsum sums small integer types into int64 mid-way (then fails).  This is exact: integer products and
# sums wrap modulo 2**64, and casting back keeps the low bits NumPy computes (bool: "any nonzero").
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # einsum's labels; sublist ints 0..51 name them
_MAX_LABELS = len(_LETTERS)
_INT_MATMUL = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)  # torch's CPU integer matmul
_FLOATING = frozenset({torch.float16, torch.float32, torch.float64, torch.complex64, torch.complex128})


def contract(operands, subs, out_sub, dtype) -> torch.Tensor:
    """``einsum`` over tensors: ``subs[i]`` labels the dims of ``operands[i]`` (ints), ``out_sub`` the result's.

    Operands are cast to numpy dtype ``dtype`` and the result has that dtype.  Shapes are checked by callers.
    """
    labels = sorted({x for s in subs for x in s} | set(out_sub))
    if len(labels) > _MAX_LABELS:
        raise UnsupportedFeature(f"contractions over more than {_MAX_LABELS} distinct dimensions")
    rename = {x: i for i, x in enumerate(labels)}
    subs = [[rename[x] for x in s] for s in subs]
    out_sub = [rename[x] for x in out_sub]
    equation = ",".join(_letters_of(s) for s in subs) + "->" + _letters_of(out_sub)
    td = _dtypes.to_torch(dtype)
    ops = [t if t.dtype == td else _cast(t, td) for t in operands]
    if len(ops) == 1 and set(out_sub) == set(subs[0]):
        return torch.einsum(equation, ops[0])  # transposes and diagonals only: a view
    if not (td.is_floating_point or td.is_complex):
        ops = [t.view(torch.int64) if td == torch.uint64 else t.to(torch.int64) for t in ops]
    if ops and not ops[0].is_cpu and not (ops[0].is_floating_point() or ops[0].is_complex()):
        r = _contract_by_broadcast(ops, subs, out_sub)
    else:
        r = torch.einsum(equation, *ops)
    if td == torch.bool:
        return r != 0
    if td == torch.uint64:
        return r.view(torch.uint64)
    return r if r.dtype == td else r.to(td)


def _letters_of(labels):
    return "".join([_LETTERS[x] for x in labels])


def matmul_native(a, b, dtype):
    """``a @ b`` in numpy dtype ``dtype`` when torch has an exact kernel for it on a's device, else None."""
    td = _dtypes.to_torch(dtype)
    if not (td.is_floating_point or td.is_complex) and (not a.is_cpu or td not in _INT_MATMUL):
        return None
    return U.torch_matmul(a if a.dtype == td else _cast(a, td), b if b.dtype == td else _cast(b, td))


def _pair_dtype(a, b):
    """The result dtype of a product of tensors ``a`` and ``b`` (NumPy's promotion; no weak operands)."""
    da = _dtypes.from_torch(a.dtype)
    return da if a.dtype is b.dtype else _dtypes.promote_types(da, _dtypes.from_torch(b.dtype))


def _cast(t, td):
    if t.is_complex() and not td.is_complex:
        warnings.warn("Casting complex values to real discards the imaginary part", ComplexWarning, stacklevel=4)
        t = t.real
    return t.to(td)


def _contract_by_broadcast(ops, subs, out_sub):
    """Integer einsum without matmul kernels (GPUs): each operand's diagonals are taken (a view), the operands are
    aligned on all labels and multiplied, and the summed labels are reduced."""
    labels = sorted({x for s in subs for x in s} | set(out_sub))
    prod = None
    for t, s in zip(ops, subs):
        present = [x for x in labels if x in s]
        t = torch.einsum(t, s, present)  # diagonals taken, dims in label order: a view
        t = t.reshape([t.shape[present.index(x)] if x in present else 1 for x in labels])
        prod = t if prod is None else prod * t
    summed = [i for i, x in enumerate(labels) if x not in out_sub]
    if summed:
        prod = prod.sum(summed)
    kept = [x for x in labels if x in out_sub]
    return prod.permute([kept.index(x) for x in out_sub])


def matmul_exact(a, b) -> torch.Tensor:
    """``a @ b`` (1-D promotion, broadcast batch dims) through ``contract``: the matmul ufunc's kernel for dtypes
    torch has no exact matmul for (bool; integers off the CPU)."""
    k, i, j = 0, 1, 2
    nbatch = max(a.ndim, b.ndim, 2) - 2
    batch = list(range(3, 3 + nbatch))
    sa = batch[nbatch - (a.ndim - 2):] + [i, k] if a.ndim > 1 else [k]
    sb = batch[nbatch - (b.ndim - 2):] + [k, j] if b.ndim > 1 else [k]
    out = batch + [i] * (a.ndim > 1) + [j] * (b.ndim > 1)
    return contract([a, b], [sa, sb], out, _dtypes.from_torch(a.dtype))


# ---------------------------------------------------------------- dot, vdot, inner, tensordot


def _not_aligned(a, b, ia, ib):
    return ValueError(f"shapes {_shape_str(a.shape)} and {_shape_str(b.shape)} not aligned: {a.shape[ia]} "
                      f"(dim {ia}) != {b.shape[ib]} (dim {ib})")


def _shape_str(shape):
    return str(tuple(shape)).replace(" ", "")


def dot(a, b, out=None):
    """``numpy.dot``: sum over the last axis of ``a`` and the second-to-last of ``b`` (multiply for 0-D)."""
    if type(a) is ndarray and type(b) is ndarray and out is None:
        ta, tb = a.tensor, b.tensor
        if ta.dtype is tb.dtype and ta.dtype in _FLOATING and 0 < ta.ndim <= 2 and 0 < tb.ndim <= 2:
            try:  # the common case: matmul_native's product, nothing to cast
                return wrap(U.torch_matmul(ta, tb))
            except RuntimeError:
                pass  # unaligned shapes: NumPy's message below
    return _dot(a, b, out)


@normalizer
def _dot(a: ArrayLike, b: ArrayLike, out=None):
    na, nb = a.ndim, b.ndim
    ib = max(nb - 2, 0)
    if na and nb and a.shape[-1] != b.shape[ib]:
        raise _not_aligned(a, b, na - 1, ib)
    dtype = _pair_dtype(a, b)
    r = matmul_native(a, b, dtype) if 0 < na <= 2 and 0 < nb <= 2 else None  # dot is matmul up to 2-D
    if r is None:
        sa, sb = list(range(na)), list(range(na, na + nb))
        if na and nb:
            sb[ib] = sa[-1]
        out_sub = [x for x in sa + sb if x not in sa or x not in sb]
        r = contract([a, b], [sa, sb], out_sub, dtype)
    return r if out is None else _dot_out(r, out)


def _dot_out(r, out):
    """``dot``'s out= is strict: exactly the result's dtype and shape, C-contiguous."""
    if not isinstance(out, ndarray):
        raise TypeError("'out' must be an array")
    if out.dtype != _dtypes.from_torch(r.dtype) or not out.tensor.is_contiguous() or out.ndim != r.ndim:
        raise ValueError("output array is not acceptable (must have the right datatype, number of dimensions, "
                         "and be a C-Array)")
    if out.shape != tuple(r.shape):
        raise ValueError("output array has wrong dimensions")
    return copy_to_out(r, out, "no", "dot")


@normalizer
def vdot(a: ArrayLike, b: ArrayLike, /):
    """``numpy.vdot``: the dot product of the flattened arrays, conjugating the first."""
    a, b = a.reshape(-1), b.reshape(-1)
    if a.shape != b.shape:
        raise ValueError(f"vdot: arrays of different sizes ({a.shape[0]} and {b.shape[0]})")
    a, dtype = a.conj() if a.is_complex() else a, _pair_dtype(a, b)
    r = matmul_native(a, b, dtype)
    return contract([a, b], [[0], [0]], [], dtype) if r is None else r


@normalizer
def inner(a: ArrayLike, b: ArrayLike, /):
    """``numpy.inner``: sum over the last axes of both (multiply when one is 0-D)."""
    na, nb = a.ndim, b.ndim
    sa, sb = list(range(na)), list(range(na, na + nb))
    if na and nb:
        if a.shape[-1] != b.shape[-1]:
            raise _not_aligned(a, b, na - 1, nb - 1)
        sb[-1] = sa[-1]
    dtype = _pair_dtype(a, b)
    r = matmul_native(a, b.mT if nb == 2 else b, dtype) if 0 < na <= 2 and 0 < nb <= 2 else None
    if r is None:
        out_sub = [x for x in sa + sb if x not in sa or x not in sb]
        r = contract([a, b], [sa, sb], out_sub, dtype)
    return r


def _tensordot_axes(axes, a, b):
    """``axes`` as two normalized axis tuples: an int N pairs the last N of ``a`` with the first N of ``b``."""
    try:
        axes_a, axes_b = axes
    except TypeError:
        n = operator.index(axes)
        axes_a, axes_b = range(-n, 0), range(n)
    axes_a = tuple(axes_a) if isinstance(axes_a, (list, tuple, range)) else (axes_a,)
    axes_b = tuple(axes_b) if isinstance(axes_b, (list, tuple, range)) else (axes_b,)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a, axes_b = normalize_axis_tuple(axes_a, a.ndim), normalize_axis_tuple(axes_b, b.ndim)
    if any(a.shape[i] != b.shape[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError("shape-mismatch for sum")
    return axes_a, axes_b


@normalizer
def tensordot(a: ArrayLike, b: ArrayLike, axes=2):
    """``numpy.tensordot``: sum products over paired axes (an int N: the last N of a with the first N of b)."""
    axes_a, axes_b = _tensordot_axes(axes, a, b)
    sa, sb = list(range(a.ndim)), list(range(a.ndim, a.ndim + b.ndim))
    for i, j in zip(axes_a, axes_b):
        sb[j] = i
    out_sub = [x for i, x in enumerate(sa) if i not in axes_a] + [x for j, x in enumerate(sb) if j not in axes_b]
    return as_array0d(wrap(contract([a, b], [sa, sb], out_sub, _pair_dtype(a, b))))  # (full contraction: an array)


# ---------------------------------------------------------------- element-wise products


def outer(a, b, out=None):
    """``numpy.outer``: ``multiply(a.ravel()[:, None], b.ravel()[None, :], out)``."""
    x, y = as_tensor(a).reshape(-1, 1), as_tensor(b).reshape(1, -1)
    return U.multiply(wrap(x), wrap(y), out=out)


def kron(a, b):
    """``numpy.kron``: the block product; the operand with fewer dims gets leading 1-dims."""
    x, y = as_tensor(a), as_tensor(b)
    nd = max(x.ndim, y.ndim)
    sx, sy = (1,) * (nd - x.ndim) + tuple(x.shape), (1,) * (nd - y.ndim) + tuple(y.shape)
    r = U.multiply(wrap(x.reshape([d for n in sx for d in (n, 1)])), wrap(y.reshape([d for n in sy for d in (1, n)])))
    return wrap(r.tensor.reshape([m * n for m, n in zip(sx, sy)]))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """``numpy.cross`` of 3- (or, deprecated, 2-) vectors along ``axisa``/``axisb``, stacked along ``axisc``.

    Components are formed with the multiply/subtract/negative ufuncs, term by term as NumPy does (a missing
    z component contributes no term), so dtypes, wraparound and errors are NumPy's.
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    x, y = as_tensor(a), as_tensor(b)
    x = torch.movedim(x, normalize_axis_index(axisa, x.ndim), -1)
    y = torch.movedim(y, normalize_axis_index(axisb, y.ndim), -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if x.shape[-1] == 2 or y.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    x = [wrap(x[..., i]) for i in range(x.shape[-1])] + [None] * (3 - x.shape[-1])
    y = [wrap(y[..., i]) for i in range(y.shape[-1])] + [None] * (3 - y.shape[-1])
    z = _cross_term(x[0], y[1], x[1], y[0])
    if x[2] is None and y[2] is None:
        return as_array0d(z)  # (two 2-vectors: NumPy's 0-d result is an array, not its ufunc's scalar)
    r = torch.stack([_cross_term(x[1], y[2], x[2], y[1]).tensor, _cross_term(x[2], y[0], x[0], y[2]).tensor,
                     z.tensor], -1)
    return wrap(torch.movedim(r, -1, normalize_axis_index(axisc, r.ndim)))


def _cross_term(p, q, r, s):
    """``p*q - r*s``, where a None factor (a missing z component) drops its product."""
    left = None if p is None or q is None else U.multiply(p, q)
    right = None if r is None or s is None else U.multiply(r, s)
    if right is None:
        return left
    return U.negative(right) if left is None else U.subtract(left, right)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """``numpy.trace``: the sum (``add.reduce``, with its dtype rules) along the diagonal of axis1/axis2."""
    t = as_tensor(a)
    if t.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    ax1, ax2 = normalize_axis_index(axis1, t.ndim), normalize_axis_index(axis2, t.ndim)
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    d = torch.diagonal(t, operator.index(offset), ax1, ax2)
    return U.add.reduce(wrap(d), axis=-1, dtype=dtype, out=out)


# ---------------------------------------------------------------- einsum

_ELLIPSIS = 100  # label of the ellipsis dim r places from the right: _ELLIPSIS + r
_EINSUM_KWARGS = ("dtype", "order", "casting")


def _einsum_args(operands):
    """(subscripts string, arrays), from either the string form or the sublist form (op, [0, 1], op, [1])."""
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string and at least one operand, or at least "
                         "one operand and its corresponding subscripts list")
    if isinstance(operands[0], str):
        if len(operands) == 1:
            raise ValueError("must specify the einstein sum subscripts string and at least one operand")
        return operands[0], operands[1:]
    if len(operands) == 1:
        raise ValueError("must provide at least an operand and a subscripts list to einsum")
    n = len(operands) - len(operands) % 2
    terms = ",".join(_sublist_str(s) for s in operands[1:n:2])
    if len(operands) % 2:
        terms += "->" + _sublist_str(operands[-1])
    return terms, operands[0:n:2]


def _sublist_str(sublist):
    parts = []
    for x in sublist:
        if x is Ellipsis:
            parts.append("...")
            continue
        try:
            i = operator.index(x)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") from None
        if not 0 <= i < len(_LETTERS):
            raise ValueError("subscript is not within the valid range [0, 52)")
        parts.append(_LETTERS[i])
    return "".join(parts)


def _letters(text, where):
    head, ell, tail = text.partition("...")
    if "." in head + tail:
        raise ValueError(f"einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') "
                         f"in {where}")
    for c in head + tail:
        if c not in _LETTERS:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be "
                             "letters")
    return [_LETTERS.index(c) for c in head], bool(ell), [_LETTERS.index(c) for c in tail]


def _term_labels(term, ndim, i):
    """Labels of operand ``i``'s dims: letter indices, and ``_ELLIPSIS + r`` for the dims '...' stands for."""
    head, ell, tail = _letters(term, f"operand {i}")
    k = ndim - len(head) - len(tail)
    if k < 0:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts for operand {i}")
    if k and not ell:
        raise ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                         "provided to broadcast the extra dimensions.")
    return head + [_ELLIPSIS + r for r in range(k - 1, -1, -1)] + tail


def _parse(subscripts, shapes):
    """NumPy's einsum subscripts -> (labels per operand, output labels, size per label), with NumPy's errors;
    cached per subscripts and shapes (the results are shared: callers must not mutate them)."""
    shapes = tuple(tuple(shape) for shape in shapes)
    try:
        return _parse_cached(subscripts, shapes)
    except TypeError:  # symbolic sizes under tracing are not hashable
        return _parse_cached.__wrapped__(subscripts, shapes)


@functools.lru_cache(maxsize=1024)
def _parse_cached(subscripts, shapes):
    s = subscripts.replace(" ", "")
    lhs, arrow, rhs = s.partition("->")
    if "-" in lhs or ">" in lhs:
        raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"{'more' if len(shapes) > len(terms) else 'fewer'} operands provided to einstein sum "
                         "function than specified in the subscripts string")
    subs = [_term_labels(t, len(shape), i) for i, (t, shape) in enumerate(zip(terms, shapes))]
    sizes = _label_sizes(subs, shapes)
    n_ell = max((x - _ELLIPSIS + 1 for sub in subs for x in sub if x >= _ELLIPSIS), default=0)
    ell = [_ELLIPSIS + r for r in range(n_ell - 1, -1, -1)]
    if not arrow:
        counts = [x for sub in subs for x in sub if x < _ELLIPSIS]
        return subs, ell + sorted(x for x in set(counts) if counts.count(x) == 1), sizes
    head, has_ell, tail = _letters(rhs, "the output")
    if n_ell and not has_ell:
        raise ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                         "provided to broadcast the extra dimensions.")
    out = head + ell + tail
    for x in head + tail:
        if (head + tail).count(x) > 1:
            raise ValueError(f"einstein sum subscripts string includes output subscript '{_LETTERS[x]}' multiple "
                             "times")
        if x not in sizes:
            raise ValueError(f"einstein sum subscripts string included output subscript '{_LETTERS[x]}' which "
                             "never appeared in an input")
    return subs, out, sizes


def _label_sizes(subs, shapes):
    """Each label's size: equal within an operand; across operands equal or 1 (which broadcasts)."""
    sizes = {}
    for sub, shape in zip(subs, shapes):
        mine = {}
        for x, n in zip(sub, shape):
            if mine.setdefault(x, n) != n:
                raise ValueError(f"dimensions in single operand for collapsing index '{_LETTERS[x]}' don't match "
                                 f"({mine[x]} != {n})")
        for x, n in mine.items():
            m = sizes.get(x, 1)
            if m != 1 and n != 1 and m != n:
                raise ValueError("operands could not be broadcast together with remapped shapes "
                                 "[original->remapped]: " + " ".join(_shape_str(s) for s in shapes))
            sizes[x] = m if n == 1 else n
    return sizes


def einsum(*operands, out=None, optimize=False, **kwargs):
    """``numpy.einsum``: string or sublist subscripts, ellipsis broadcasting, implicit or explicit output.

    ``optimize`` is validated but the contraction order is torch.einsum's own, all in the result dtype: the
    same values up to rounding, except that NumPy's optimized paths compute each pairwise intermediate in that
    pair's own dtype, so mixed-width integer operands that overflow such an intermediate wrap differently there.
    Operands are arrays first (Python scalars are not weak here, as in NumPy); the result has
    the promoted dtype of the operands (unoptimized with ``out=``: and out's) or ``dtype=``, each operand cast to
    it under ``casting`` (default 'safe').
    Like NumPy, a single operand that is only transposed or diagonalised gives a view (``dtype`` and
    ``casting`` then play no part).
    """
    for k in kwargs:
        if k not in _EINSUM_KWARGS:
            raise TypeError(f"einsum() got an unexpected keyword argument '{k}'")
    _check_optimize(optimize)
    subscripts, arrays = _einsum_args(operands)
    tensors = [as_tensor(x) for x in arrays]
    subs, out_sub, sizes = _parse(subscripts, [t.shape for t in tensors])
    if out is None and len(tensors) == 1 and set(out_sub) == set(subs[0]):
        r = contract(tensors, subs, out_sub, _dtypes.from_torch(tensors[0].dtype))
        return view_of(arrays[0], r) if isinstance(arrays[0], ndarray) and r.ndim else wrap(r)  # (0-d: a scalar)
    dtype, casting = kwargs.get("dtype"), kwargs.get("casting", "safe")
    out = check_out(out)
    # Unoptimized, NumPy's iterator computes in the common dtype of the operands and out= (accumulated into, so
    # also read: out must cast to a requested dtype too); its optimized paths compute without out's dtype.
    iterated = [] if out is None or optimize is not False else [out.dtype]
    # n-ary promotion, not a pairwise fold: NumPy promotes uint8, int8, float16 to float16
    rt = _dtypes.result_type(*tensors, *iterated) if dtype is None else _dtypes.to_dtype(dtype)
    for i, d in enumerate([_dtypes.from_torch(t.dtype) for t in tensors] + iterated):
        if not _np.can_cast(d, rt, casting):
            raise TypeError(f"Iterator operand {i} dtype could not be cast from {d!r} to {rt!r} according to the "
                            f"rule {casting!r}")
    r = contract(tensors, subs, out_sub, rt)
    if out is not None:
        return copy_to_out(r, out, casting, "einsum")
    if r.ndim == 0 and optimize is not False and len(subs) > 1 and \
            _ends_in_matrix_product(subs, out_sub, sizes, optimize):
        return as_array0d(wrap(r))
    return wrap(r)


def _ends_in_matrix_product(subs, out_sub, sizes, optimize):
    """Whether NumPy's optimized einsum ends in a matrix product, whose 0-d result is an array (its plain
    einsum, used for a pair with a 0-d operand, gives a scalar): the last step of the path joins two operands
    of at least one axis each."""
    path = _path(subs, out_sub, sizes, optimize)
    *_, (last, _, _) = _contractions(subs, out_sub, path)
    return len(last) == 2 and all(last)


def _check_optimize(optimize):
    if not isinstance(optimize, (bool, str, list, tuple)):
        raise TypeError(f"Did not understand the path: {optimize!r}")


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """``numpy.einsum_path``: a contraction order (``['einsum_path', (i, j), ...]``) and NumPy's printed report.

    'greedy' and 'optimal' both use the greedy pairwise search (an equivalent, not always identical, path);
    an explicit path is validated and reported; False contracts everything at once.
    """
    if einsum_call:
        raise UnsupportedFeature("einsum_path(einsum_call=True)")
    subscripts, arrays = _einsum_args(operands)
    shapes = [tuple(as_tensor(x).shape) for x in arrays]
    subs, out_sub, sizes = _parse(subscripts, shapes)
    path = _path(subs, out_sub, sizes, optimize)
    return ["einsum_path", *path], _path_report(subs, out_sub, sizes, path)


def _path(subs, out_sub, sizes, optimize):
    if isinstance(optimize, tuple) and len(optimize) == 2 and isinstance(optimize[0], str):
        optimize = optimize[0]  # (strategy, memory limit): the limit is not modelled
    if isinstance(optimize, (list, tuple)):
        if not optimize or optimize[0] != "einsum_path":
            raise TypeError(f"Did not understand the path: {optimize!r}")
        return [tuple(step) for step in optimize[1:]]
    if optimize is False or len(subs) == 1:
        return [tuple(range(len(subs)))]
    if optimize not in (True, "greedy", "optimal"):
        raise TypeError(f"Did not understand the path: {optimize!r}")
    return _greedy(subs, out_sub, sizes)


def _size(labels, sizes):
    return math.prod(sizes[x] for x in set(labels))


def _kept(terms, picked, out_sub):
    """Labels of the contraction of ``terms[picked]`` that the output or the other terms still need."""
    rest = set(out_sub).union(*(t for i, t in enumerate(terms) if i not in picked))
    return sorted(set().union(*(terms[i] for i in picked)) & rest)


def _greedy(subs, out_sub, sizes):
    """Contract, step by step, the pair whose result is smallest relative to its inputs."""
    terms, path = [list(s) for s in subs], []
    while len(terms) > 1:
        pairs = [(i, j) for i in range(len(terms)) for j in range(i + 1, len(terms))]
        i, j = min(pairs, key=lambda p: _size(_kept(terms, p, out_sub), sizes) - _size(terms[p[0]], sizes)
                   - _size(terms[p[1]], sizes))
        path.append((i, j))
        terms.append(_kept(terms, (i, j), out_sub))
        del terms[j], terms[i]
    return path


def _contractions(subs, out_sub, path):
    """Each step of ``path`` as (its operands' labels, last operand first as NumPy reports them, its result's
    labels, the terms left after it): the operands leave the list and the result joins its end, as in NumPy."""
    terms = [list(s) for s in subs]
    for n, step in enumerate(path):
        step = sorted(step, reverse=True)
        picked = [terms[i] for i in step]
        result = list(out_sub) if n == len(path) - 1 else _kept(terms, step, out_sub)
        for i in step:
            del terms[i]
        terms.append(result)
        yield picked, result, terms


def _path_report(subs, out_sub, sizes, path):
    """NumPy's einsum_path report: scaling, FLOP counts and each contraction with what remains."""
    unused = iter(c for c in _LETTERS if _LETTERS.index(c) not in sizes)
    names = {x: (_LETTERS[x] if x < _ELLIPSIS else next(unused, "?")) for x in sorted(sizes)}

    def text(labels):
        return "".join(names[x] for x in labels)

    output = text(out_sub)
    everything = set(sizes)
    naive_inner = sum(len(set(s)) for s in subs) > len(everything)
    naive = _size(everything, sizes) * (max(1, len(subs) - 1) + naive_inner)
    rows, costs, largest, scales = [], [], [], []
    for picked, result, terms in _contractions(subs, out_sub, path):
        used = set().union(*picked)
        costs.append(_size(used, sizes) * (max(1, len(picked) - 1) + bool(used - set(result))))
        largest.append(_size(result, sizes))
        scales.append(len(used))
        current = ",".join(text(t) for t in picked) + "->" + text(result)
        remaining = ",".join(text(t) for t in terms) + "->" + output
        rows.append(f"{len(used):4d}    {current:>24} {remaining:>40}")
    opt = sum(costs) + 1
    lines = [f"  Complete contraction:  {','.join(text(s) for s in subs)}->{output}",
             f"         Naive scaling:  {len(everything)}",
             f"     Optimized scaling:  {max(scales)}",
             f"      Naive FLOP count:  {naive:.3e}",
             f"  Optimized FLOP count:  {opt:.3e}",
             f"   Theoretical speedup:  {naive / opt:3.3f}",
             f"  Largest intermediate:  {max(largest):.3e} elements",
             "-" * 74,
             f"{'scaling':>6} {'current':>24} {'remaining':>40}",
             "-" * 74]
    return "\n".join(lines + rows)
