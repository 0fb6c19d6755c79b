"""NumPy's ufuncs as ``ufunc`` objects over torch ops.

Type resolution is NumPy's own (``numpy.ufunc.resolve_dtypes``, cached per dtype combination), so loop
selection, NEP 50 weak scalars, ``dtype=``/``signature=`` and ``casting=`` errors match NumPy exactly.  Each
resolved loop then gets its torch kernel once (``_kinds``: one per dtype category, since torch's semantics
differ from NumPy's in different corners for ints, uint64, floats and complex), which receives operands
already cast to the loop's dtypes.
"""

from __future__ import annotations

import builtins
import math
import warnings

import numpy as _np
import torch

from .._errors import VALUE_TAG, UnsupportedFeature
from ._trace import free_unbacked_symbols, is_tracing, traced_int
from . import _dtypes
from ._ndarray import _is_contiguous, is_scalar, ndarray, wrap
from ._normalize import PY_SCALARS, as_tensor, copy_to_out, python_value

_SYM = {torch.SymInt: builtins.int, torch.SymFloat: builtins.float, torch.SymBool: builtins.bool}
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
_SIGN_BIT = -(2**63)
_WIDE = (torch.uint16, torch.uint32, torch.uint64)
# uint16/uint32 loops run in the next wider signed type; uint64 kernels take the int64 bit pattern themselves.
_COMPUTE = {torch.uint16: torch.int32, torch.uint32: torch.int64}
_BOOL = _np.dtype(builtins.bool)  # a Python bool resolves as dtype bool (it has no weak form)
_PY_TYPE = {"b": builtins.bool, "i": builtins.int, "u": builtins.int, "f": builtins.float, "c": builtins.complex}


_ABSENT = object()  # an operand not passed (ufunc.__call__ names its first two)


class ufunc:
    """A NumPy universal function: broadcasting, type resolution, out=, where=, and the reduce family.

    ``kernel`` is a torch function of the loop-dtype operands, or a ``_kinds`` table of them.
    """

    def __init__(self, np_ufunc, kernel, scalar_ok=False):
        self._np = np_ufunc
        self._spec = kernel
        self.__name__ = np_ufunc.__name__
        self.__qualname__ = self.__name__
        self.nin, self.nout, self.nargs = np_ufunc.nin, np_ufunc.nout, np_ufunc.nargs
        self.identity = np_ufunc.identity
        self.signature = np_ufunc.signature
        self.types = [t for t in np_ufunc.types if set(t) <= set("?bBhHiIlLqQefdFD->")]
        self.ntypes = len(self.types)
        self.__doc__ = f"NumPy's ``{self.__name__}`` ufunc on torch tensors."
        self._cache = {}  # (operand key, dtype, casting, out dtypes) -> loop (NumPy dtypes)
        self._loops = {}  # loop -> (kernel, whether it takes a Python scalar as last operand)
        self._plans = {}  # operand key of a plain call -> (casts, result torch dtype, kernel, int-scalar bounds)

    @property
    def _kernel(self):
        """The kernel spec; assigning one (e.g. a checking wrapper) drops every cached loop and plan."""
        return self._spec

    @_kernel.setter
    def _kernel(self, spec):
        self._spec = spec
        self._loops.clear()
        self._plans.clear()

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        return self.__name__

    # ------------------------------------------------------------ type resolution
    def _resolve(self, key, dtype, casting, out_dtypes):
        """NumPy's loop (input and output dtypes) for operand dtypes/Python types ``key``."""
        ck = (key, dtype, casting, out_dtypes)
        r = self._cache.get(ck)
        if r is None:
            np_key = tuple(_dtypes.from_torch(k) if isinstance(k, torch.dtype) else _BOOL if k is builtins.bool else k
                           for k in key)
            sig = None if dtype is None else (None,) * self.nin + (dtype,) * self.nout
            try:
                kw = {} if sig is None else {"signature": sig}
                if casting == "equiv" and any(k in PY_SCALARS for k in np_key):
                    r = self._resolve_equiv(np_key, out_dtypes, kw)
                else:
                    r = self._np.resolve_dtypes(np_key + out_dtypes, casting=casting, **kw)
            except TypeError as e:
                if "resolve_dtypes" in str(e) or "no loop" in str(e).lower() or "did not contain" in str(e):
                    # same words as the real call: "ufunc 'x' not supported for the input types..."
                    raise _np._core._exceptions._UFuncNoLoopError(
                        self._np, tuple(d if isinstance(d, _np.dtype) else _np.dtype(d) for d in np_key)
                    ) from None
                raise
            if r[0] == object and self.__name__ in _COMPARISONS and np_key[:2] == (builtins.int, builtins.int):
                # two Python ints compare in NumPy's object loop, exactly (_constant_comparison does that)
                r = (_dtypes.int64, _dtypes.int64) + r[2:]
            for d in r:
                if d not in _dtypes._NP_TO_TORCH:
                    raise UnsupportedFeature(f"ufunc {self.__name__} with dtype {d!r}")
            self._cache[ck] = r
        return r

    def _resolve_equiv(self, np_key, out_dtypes, kw):
        """casting='equiv' with a Python scalar operand crashes NumPy 2.4's resolve_dtypes: resolve unsafely, then
        check the casts as NumPy's ufunc call does (a Python bool as dtype bool; a Python int, float or complex
        only into its default dtype)."""
        loop = self._np.resolve_dtypes(np_key + out_dtypes, casting="unsafe", **kw)
        errors = _np._core._exceptions
        for i, k in enumerate(np_key):
            if isinstance(k, _np.dtype):
                if not _np.can_cast(k, loop[i], "equiv"):
                    raise errors._UFuncInputCastingError(self._np, "equiv", k, loop[i], i)
            elif not _np.can_cast(_np.dtype(k), loop[i], "equiv"):
                raise TypeError(f"cannot cast Python {k.__name__} to {loop[i]} under the casting rule 'equiv'")
        for i, d in enumerate(out_dtypes):
            if d is not None and not _np.can_cast(loop[self.nin + i], d, "equiv"):
                raise errors._UFuncOutputCastingError(self._np, "equiv", loop[self.nin + i], d, i)
        return loop

    def _loop_kernel(self, loop):
        """The kernel for a resolved loop, and whether it accepts a Python scalar as its last operand."""
        r = self._loops.get(loop)
        if r is None:
            spec = self._spec
            k = spec.choose(tuple(_dtypes.to_torch(d) for d in loop[:self.nin])) if isinstance(spec, _kinds) \
                else spec
            if k is None:
                raise UnsupportedFeature(f"ufunc {self.__name__} for {', '.join(map(str, loop[:self.nin]))}")
            # float16 arithmetic with a Python number runs in float32 in torch: NumPy rounds the number first.
            r = self._loops[loop] = (k, k in _SCALAR_OK and (_np.float16 not in loop or k is _float_power))
        return r

    # ------------------------------------------------------------ call
    def __call__(self, x=_ABSENT, y=_ABSENT, /, *args, **kwargs):
        # The first two operands are named so that the common call (our arrays and Python scalars, no keywords)
        # builds no argument tuple and costs one dict lookup on top of the torch kernel.
        if not kwargs and not args:
            if y is not _ABSENT:
                if self.nin == 2:
                    return self._binary(x, y)
            elif self.nin == 1 and type(x) is ndarray:
                t = x.tensor
                plan = self._plans.get(t.dtype)
                if plan is not None:
                    casts, out, kernel, _ = plan
                    if casts:
                        t = t.to(casts[0][1])
                    r = kernel(t)
                    r = r if r.dtype is out else r.to(out)
                    if r.ndim > 1 and not (r.is_contiguous() and t.is_contiguous()) and not is_tracing():
                        r = _k_layout(r, (t,))
                    return wrap(r)
        lead = () if x is _ABSENT else (x,) if y is _ABSENT else (x, y)
        return self._call(*lead, *args, **kwargs)

    def _binary(self, x, y):
        tx, ty = type(x), type(y)
        a = x.tensor if tx is ndarray else x
        b = y.tensor if ty is ndarray else y
        plan = self._plans.get((a.dtype if tx is ndarray else tx, b.dtype if ty is ndarray else ty))
        if plan is None:
            return self._call(x, y)
        casts, out, kernel, bounds = plan
        if bounds is not None and not bounds[0] <= (b if ty is not ndarray else a) <= bounds[1]:
            return self._call(x, y)  # raises NumPy's OverflowError
        for i, want in casts:
            if i:
                b = b.to(want)
            else:
                a = a.to(want)
        try:
            r = kernel(a, b)
        except RuntimeError as e:
            raise _shape_error(e, (a, b)) from None
        r = r if r.dtype is out else r.to(out)
        if r.ndim > 1 and not (r.is_contiguous() and (self.signature is not None or (
                ty is not ndarray or b.is_contiguous()) and (tx is not ndarray or a.is_contiguous()))) \
                and not is_tracing():
            # NumPy's memory layout where an operand is not C-ordered; a gufunc's (matmul) output is C-ordered,
            # whatever its operands' layouts
            r = _k_layout(r, (a, b)) if self.signature is None else r.contiguous()
        return wrap(r)

    def _call(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None, subok=True,
              signature=None, axes=None, axis=None, keepdims=False):
        nin = self.nin
        if len(args) != nin:
            if nin < len(args) <= self.nargs and out is None:
                out = args[nin:]  # positional outputs are arrays (or None), never tuples of them
                if any(o is not None and (not isinstance(o, ndarray) or is_scalar(o)) for o in out):
                    raise TypeError("return arrays must be of ArrayType")
                out = out + (None,) * (self.nout - len(out))
                args = args[:nin]
            else:
                raise TypeError(f"{self.__name__}() takes from {nin} to {self.nargs} positional arguments but "
                                f"{len(args)} were given")
        if axes is not None or axis is not None:
            raise UnsupportedFeature(f"the ufunc axes=/axis= machinery ({self.__name__})")
        if order != "K" and order is not None:
            if not isinstance(order, str):
                raise TypeError(f"order must be str, not {type(order).__name__}")
            if order.upper() not in ("C", "F", "A", "K"):
                raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
        if signature is not None:
            if dtype is not None:
                raise TypeError("cannot specify both 'signature' and 'dtype'")
            dtype = _signature_out_dtype(signature, self)
        elif dtype is not None:
            dtype = _dtypes.to_dtype(dtype)
        outs = _normalize_out(out, self.nout)

        ops, key = [], []
        for x in args:
            tx = type(x)
            if tx is ndarray:
                t = x.tensor
                ops.append(t)
                key.append(t.dtype)
            elif tx in PY_SCALARS and not (nin == 1 and tx is builtins.int and not -2**63 <= x < 2**63):
                ops.append(x)
                key.append(tx)
            elif tx in _SYM:
                ops.append(x)
                key.append(_SYM[tx])
            else:
                t = as_tensor(x)
                ops.append(t)
                key.append(t.dtype)
        key = tuple(key)
        out_dtypes = (None,) * self.nout if outs is None else tuple(None if o is None else o.dtype for o in outs)
        try:
            loop = self._resolve(key, dtype, casting, out_dtypes)
        except TypeError:
            self._check_python_ints(ops, key, dtype, out_dtypes)
            raise
        if self.__name__ in _COMPARISONS and _compares_data_int(ops, loop):
            loop = (_dtypes.int64, _dtypes.int64) + loop[2:]
        kernel, scalar_ok = self._loop_kernel(loop)

        res = self._constant_comparison(ops, loop)
        if res is None:
            device = next((o.device for o in ops if isinstance(o, torch.Tensor)), None)
            cast = []
            for i, op in enumerate(ops):
                want = _operand_dtype(kernel, _dtypes.to_torch(loop[i]), key[i], key)
                if isinstance(op, torch.Tensor):
                    cast.append(op if op.dtype == want else op.to(want))
                    continue
                v = _weak_scalar(op, _dtypes.from_torch(want))
                if not (scalar_ok and i == nin - 1 and i > 0):
                    v = as_tensor(v).to(device=device, dtype=want)
                cast.append(v)
            res = self._run(cast, loop, kernel)
            if out is None and where is True and dtype is None and casting == "same_kind" and self.nout == 1:
                self._remember_plan(key, loop, kernel)

        if where is not True:
            res = self._masked(res, where, outs)
        if outs is None and self.signature is not None:  # matmul, vecdot...: NumPy's output is C-ordered
            return wrap(res if is_tracing(res) else res.contiguous())
        if outs is None:
            # NumPy's iterator lays out a masked or multi-output call; a plain one may take its 'trivial' loop
            trivial = where is True and self.nout == 1
            ops = ops if where is True else [*ops, as_tensor(where)]
            order = "K" if order is None else order.upper()
            if self.nout == 1:
                return wrap(_k_layout(res, ops, order, trivial))
            return tuple(wrap(_k_layout(r, ops, order, trivial)) for r in res)
        if self.nout == 1:
            return copy_to_out(res, outs[0], "unsafe", self)
        return tuple(wrap(r) if o is None else copy_to_out(r, o, "unsafe", self) for r, o in zip(res, outs))

    def _check_python_ints(self, ops, key, dtype, out_dtypes):
        """Before a casting error, NumPy converts the Python ints to the loop's dtype: one out of its range
        raises OverflowError first (add(float array, 300, dtype=uint8))."""
        if builtins.int not in key:
            return
        try:
            loop = self._resolve(key, dtype, "unsafe", out_dtypes)
        except (TypeError, UnsupportedFeature):
            return
        for op, d in zip(ops, loop):
            if type(op) is builtins.int and d.kind in "iu":
                _weak_scalar(op, d)

    def _masked(self, res, where, outs):
        """where=: outputs keep their old values where the mask is False (zeros without out=, where NumPy leaves
        memory uninitialized)."""
        w = as_tensor(where)
        if w.dtype != torch.bool:
            raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(w.dtype)!r} to "
                            "dtype('bool') according to the rule 'safe'")
        if outs is None:
            warnings.warn("'where' used without 'out', expect unitialized memory in output. If this is "
                          "intentional, use out=None.", UserWarning, stacklevel=4)
        rs = (res,) if self.nout == 1 else res
        fill = [None] * self.nout if outs is None else [None if o is None else o.tensor for o in outs]
        try:
            rs = tuple(_dtypes.where(w, r, f if f is not None else torch.zeros((), dtype=r.dtype, device=r.device))
                       for r, f in zip(rs, fill))
        except RuntimeError as e:
            raise _shape_error(e, [*rs, w, *(f for f in fill if f is not None)]) from None
        return rs[0] if self.nout == 1 else rs

    def _constant_comparison(self, ops, loop):
        """A comparison of an integer with a Python int outside the loop's range is constant (NumPy 2 compares
        the values exactly): the int acts as +-infinity.  None when that is not the case (a bool operand runs
        the int64 loop, where such an int raises OverflowError)."""
        if self.__name__ not in _COMPARISONS or loop[0].kind not in "iu" or loop[1].kind not in "iu":
            return None
        if type(ops[0]) is builtins.int and type(ops[1]) is builtins.int:  # NumPy's object loop: exact
            return torch.tensor(_py_compare(self.__name__, *ops))
        for i, v in enumerate(ops):
            other = ops[1 - i]
            if type(v) is builtins.int and not _fits(v, loop[i]) and type(other) is not builtins.bool and not (
                    isinstance(other, torch.Tensor) and other.dtype == torch.bool):
                inf = math.inf if v > 0 else -math.inf
                x, y = (inf, 0) if i == 0 else (0, inf)
                value = _py_compare(self.__name__, x, y)
                shape = other.shape if isinstance(other, torch.Tensor) else ()
                device = other.device if isinstance(other, torch.Tensor) else None
                return torch.full(shape, value, dtype=torch.bool, device=device)
        return None

    def _remember_plan(self, key, loop, kernel):
        """Cache the casts of a plain call that needs nothing but casting (no wide-unsigned compute type, no
        scalar conversion), for the fast path.  A Python number passes straight to a kernel that takes one
        (as the first operand through the reflected torch op); a Python int keeps its range check there."""
        if any(k in _WIDE for k in key) or any(_dtypes.to_torch(d) in _WIDE for d in loop):
            return
        bounds = None
        scalars = [i for i, k in enumerate(key) if k in PY_SCALARS]
        if scalars:
            if len(key) != 2 or len(scalars) != 1 or _np.float16 in loop:
                return  # float16 with a Python number runs in float32 in torch: NumPy rounds the number first
            i = scalars[0]
            if i == 0:
                reflected = _REFLECTED.get(kernel)
                if reflected is None:
                    return
                kernel = _swapped(reflected)
            elif kernel not in _SCALAR_OK:
                return
            kind = loop[i].kind
            if key[i] is builtins.int and kind in "iu":
                info = _np.iinfo(loop[i])
                bounds = (info.min, info.max)
            elif key[i] is builtins.int and kind in "fc":
                bounds = (-(2**53), 2**53)  # converts exactly to float64, then rounds once like NumPy's
            elif key[i] is not _PY_TYPE[kind]:
                return  # the scalar needs converting (e.g. a float in a complex loop)
        wants = [_operand_dtype(kernel, _dtypes.to_torch(loop[i]), k, key) for i, k in enumerate(key)]
        casts = tuple((i, w) for i, (k, w) in enumerate(zip(key, wants)) if isinstance(k, torch.dtype) and k != w)
        self._plans[key if len(key) > 1 else key[0]] = (casts, _dtypes.to_torch(loop[-1]), kernel, bounds)

    def _run(self, ops, loop, kernel=None):
        """Apply the loop's kernel to operands already in the loop's dtypes; results in the output dtypes."""
        if kernel is None:
            kernel = self._loop_kernel(loop)[0]
        ops = [o.to(_COMPUTE[o.dtype]) if isinstance(o, torch.Tensor) and o.dtype in _COMPUTE else o for o in ops]
        try:
            res = kernel(*ops)
        except RuntimeError as e:
            raise _shape_error(e, ops) from None
        if self.nout == 1:
            return _to_storage(res, _dtypes.to_torch(loop[-1]))
        return tuple(_to_storage(r, _dtypes.to_torch(d)) for r, d in zip(res, loop[self.nin:]))

    # ------------------------------------------------------------ methods
    def outer(self, A, B, /, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        a, b = as_tensor(A), as_tensor(B)
        a = wrap(a.reshape(a.shape + (1,) * b.ndim))
        # both operands become arrays first, as in NumPy: a Python number is no weak scalar here
        # (add.outer(int8 array, 1) is int64, add.outer(uint8 array, -1) no OverflowError)
        return self(a, B if isinstance(B, ndarray) else wrap(b), **kwargs)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
        from ._ufunc_methods import reduce

        return reduce(self, array, axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        from ._ufunc_methods import accumulate

        r = accumulate(self, array, axis, dtype, out)
        return r if out is not None else wrap(_k_layout(r.tensor, (as_tensor(array),), trivial=False))

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        from ._ufunc_methods import reduceat

        return reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None, /):
        from ._ufunc_methods import at

        return at(self, a, indices, b)

    def resolve_dtypes(self, dtypes, *, signature=None, casting=None, reduction=False):
        return self._np.resolve_dtypes(dtypes, signature=signature, casting=casting, reduction=reduction)


def _to_storage(r, td):
    if r.dtype == td:
        return r
    if td == torch.uint64 and r.dtype == torch.int64:
        return r.view(torch.uint64)
    return r.to(td)


def _shape_error(e, ops):
    """torch's broadcasting failure is NumPy's ValueError; other runtime errors pass through unchanged."""
    shapes = [tuple(o.shape) for o in ops if isinstance(o, torch.Tensor)]
    try:
        torch.broadcast_shapes(*shapes)
    except RuntimeError:
        return ValueError("operands could not be broadcast together with shapes "
                          + " ".join(str(s).replace(" ", "") for s in shapes))
    return e


def _signature_out_dtype(signature, uf):
    if isinstance(signature, str):
        signature = signature.split("->")[-1]
        return _dtypes.to_dtype(signature[0]) if len(signature) == 1 else None
    outs = signature[uf.nin:] if isinstance(signature, tuple) and len(signature) == uf.nargs else signature
    if isinstance(outs, tuple):
        outs = outs[0]
    return None if outs is None else _dtypes.to_dtype(outs)


def _normalize_out(out, nout):
    if out is None:
        return None
    if not isinstance(out, tuple):
        if nout > 1:
            raise TypeError("'out' must be a tuple of arrays")
        out = (out,)
    if len(out) != nout:
        raise ValueError(f"The 'out' tuple must have exactly {nout} entries: one per ufunc output")
    if all(o is None for o in out):
        return None
    for o in out:
        if o is not None and (not isinstance(o, ndarray) or is_scalar(o)):
            raise TypeError("return arrays must be of ArrayType")
    return out


def _py_compare(name, x, y):
    return {"equal": x == y, "not_equal": x != y, "less": x < y, "less_equal": x <= y, "greater": x > y,
            "greater_equal": x >= y}[name]


def _fits(v, d):
    info = _np.iinfo(d)
    return info.min <= v <= info.max


_SYMBOLIC = (torch.SymInt, torch.SymFloat, torch.SymBool)


def _compares_data_int(ops, loop) -> bool:
    """Whether a comparison's integer loop narrower than int64 meets an int read from the data (``a ==
    int(b.max())``): NumPy compares such an int exactly, so the comparison runs in int64, which holds it."""
    return all(d.kind in "iu" and d.itemsize < 8 for d in loop[:2]) and any(
        type(op) is torch.SymInt and free_unbacked_symbols(op.node.expr) for op in ops)


def _weak_scalar(v, d):
    """A Python scalar operand as the Python value of loop dtype ``d`` (NumPy 2 raises OverflowError for an
    out-of-range Python int; ``dtype=`` may force an unsafe cast, which truncates like NumPy's)."""
    v = traced_int(v, d)
    if isinstance(v, _SYMBOLIC):
        return v  # a traced scalar: converting its value would specialize (recompile per value)
    kind = d.kind
    if kind in "iu":
        if type(v) is builtins.int:
            return v if _fits(v, d) else python_value(v, d)  # (raises NumPy's OverflowError)
        v = v.real if type(v) is builtins.complex else v
        if not math.isfinite(v):
            raise UnsupportedFeature(f"casting {v} to {d}")
        return builtins.int(v)
    if kind == "b":
        if type(v) is builtins.int and not -(2**63) <= v < 2**63:
            raise OverflowError("Python int too large to convert to C long")  # NumPy goes through a C long
        return builtins.bool(v)
    if kind == "f":
        return builtins.float(v.real if type(v) is builtins.complex else v)
    return builtins.complex(v)


# ------------------------------------------------------------------------------ kernel selection

_CATEGORY = {torch.bool: "bool", torch.int8: "int", torch.int16: "int", torch.int32: "int", torch.int64: "int",
             torch.uint8: "int", torch.uint16: "int", torch.uint32: "int", torch.uint64: "uint64",
             torch.float16: "float16", torch.float32: "float", torch.float64: "float",
             torch.complex64: "complex", torch.complex128: "complex"}
SAME = "same"  # a uint64 loop may run the int kernel on the int64 bit pattern (modular arithmetic, bits, ==)


class _kinds:
    """A ufunc's kernels by the category of its loop's first input dtype (``float16`` defaults to ``float``).
    A missing category (None) means the shim does not model that loop: UnsupportedFeature, never a guess."""

    def __init__(self, default=None, *, bool=None, int=None, uint64=None, float=None, float16=None,
                 complex=None, choose=None):
        self._table = {"bool": bool or default, "int": int or default, "float": float or default,
                       "complex": complex or default}
        self._table["float16"] = float16 or self._table["float"]
        self._table["uint64"] = _u64(self._table["int"]) if uint64 is SAME and self._table["int"] else uint64
        self._choose = choose

    def choose(self, tds):
        """The kernel for loop input torch dtypes ``tds`` (``choose=`` may special-case a loop first)."""
        k = self._choose(tds) if self._choose is not None else None
        return k if k is not None else self._table[_CATEGORY[tds[0]]]

    def __call__(self, *ops):
        """Run as a plain kernel (used when a wrapper, e.g. error checking, calls the spec directly)."""
        return self.choose(tuple(o.dtype for o in ops if isinstance(o, torch.Tensor)))(*ops)


def _u64(k):
    """uint64 through an int64 kernel that is exact on bit patterns."""
    def run(*ops):
        r = k(*(o.view(torch.int64) if isinstance(o, torch.Tensor) and o.dtype == torch.uint64 else o
                for o in ops))
        return r.view(torch.uint64) if isinstance(r, torch.Tensor) and r.dtype == torch.int64 else r
    return run


def _u64_order(op):
    """uint64 order on int64 bit patterns: flipping the sign bit maps unsigned order onto signed order."""
    def run(a, b):
        r = op(a.view(torch.int64) ^ _SIGN_BIT, b.view(torch.int64) ^ _SIGN_BIT)
        return (r ^ _SIGN_BIT).view(torch.uint64) if r.dtype == torch.int64 else r
    return run


def _mixed_sign(op):
    """NumPy 2 compares int64 with uint64 exactly (loops qQ, Qq): a uint64 >= 2**63 exceeds every int64."""
    def run(a, b):
        ua = a.dtype == torch.uint64
        u, s = (a, b) if ua else (b, a)
        u = u.view(torch.int64)
        big = u < 0
        u, s = torch.where(big, 0, u), torch.where(big, -1, s)  # keeps s < u, and so every comparison
        return op(u, s) if ua else op(s, u)
    return run


def _comparison(op, cplx=None):
    def choose(tds):
        return _mixed_sign(op) if len(tds) == 2 and tds[0] != tds[1] else None
    return _kinds(op, uint64=_u64_order(op) if op not in (torch.eq, torch.ne) else SAME, complex=cplx,
                  choose=choose)


# ------------------------------------------------------------------------------ kernels: arithmetic


def _componentwise(op):
    """Complex add/subtract on (re, im) pairs: torch computes a + 1*b, so 0*inf turns into nan."""
    def k(a, b):
        return torch.view_as_complex(op(torch.view_as_real(a.resolve_conj()), torch.view_as_real(b.resolve_conj())))
    return k


def _cmul(ar, ai, br, bi):
    """The textbook complex product on (re, im) parts: NumPy's complex power multiplies so (its multiply ufunc
    fuses, see _fused)."""
    return ar * br - ai * bi, ar * bi + ai * br


def _fused(x, y, z):
    """x*y + z as NumPy's complex multiply loop computes each part, with a fused multiply-add (x*y unrounded).
    float32 goes through float64, where x*y is exact and the sum rounds to odd (correct after the second
    rounding, also at float32's ties; the error of the sum tells which way is odd).  float64 takes the plain
    sum, except that with finite x, y an infinite or NaN z is the result itself (plainly, an overflowed x*y gives
    inf - inf = nan), an overflowed x*y still meets a finite z (scaled by 1/4 and back) and an underflowed one
    keeps its sign beside a zero z; elsewhere the two differ in the last bit, or more where the sum cancels (but
    not relative to the complex product's size)."""
    if x.dtype == torch.float32:
        p, z = x.to(torch.float64) * y.to(torch.float64), z.to(torch.float64)
        s = p + z
        back = s - p
        err = (p - (s - back)) + (z - back)
        inexact = (err != 0) & torch.isfinite(s) & ((s.view(torch.int64) & 1) == 0)
        return torch.where(inexact, torch.nextafter(s, err * math.inf), s).to(torch.float32)
    p = x * y
    r = torch.where((p == 0) & (z == 0) & (x != 0) & (y != 0), p, p + z)
    finite = torch.isfinite(x) & torch.isfinite(y)
    big = ((x * 0.25) * y + z * 0.25) * 4
    return torch.where(finite & ~torch.isfinite(z), z, torch.where(finite & torch.isinf(p), big, r))


@_np.errstate(all="ignore")  # (the formula reports no floating-point errors either)
def _np_multiply(a, b):
    r = _np.multiply(a, b)
    return r if type(r) is _np.ndarray else _np.asarray(r)  # 0-D operands give a NumPy scalar


def _operand_dtype(kernel, want, key, keys):
    """The dtype an operand (of key ``key``: its torch dtype, or its Python type) enters ``kernel`` in: the
    loop's, except that a kernel in ``_REAL_OK`` takes a real operand of a complex loop as real (cast to the
    loop's part dtype): NumPy's cast would add a +0 imaginary part, which such a kernel knows and skips (half
    the products, no fused-sum emulation).  That needs a complex operand among ``keys``: real operands forced
    into a complex loop (``dtype=complex``) multiply as NumPy's complex numbers (-inf * 2 is -inf+nanj)."""
    if kernel in _REAL_OK and want.is_complex and not _is_complex_key(key) and any(map(_is_complex_key, keys)):
        return want.to_real()
    return want


def _is_complex_key(key):
    return key is builtins.complex or isinstance(key, torch.dtype) and key.is_complex


def _complex_multiply(a, b):
    """NumPy's product (ar*br - ai*bi, ar*bi + ai*br), each part a fused multiply-add (``_fused``).  Eager CPU
    tensors borrow NumPy's loop through zero-copy views, as ``_sqrt`` does: exact (cancelling complex128 parts
    too) where the formula in eager torch is some 40x slower.  Traced code and other devices take the formula
    on the parts, joined by a stack: compiled, 4 to 18x faster than on the interleaved (re, im) pairs, whose
    last axis of 2 Inductor vectorizes with masked 8-lane loads and scalar fallbacks (120000 complex128:
    1.7 against 18 ms; 300x400 complex64: 2.8 against 12 ms)."""
    if a.is_cpu and b.is_cpu and not is_tracing(a) and not is_tracing(b) and _fwad._current_level < 0:
        try:
            return torch.from_numpy(_np_multiply(a.resolve_conj().numpy(), b.resolve_conj().numpy()))
        except RuntimeError:  # needs grad, or has no plain storage
            pass
    if not b.is_complex():
        return _times_real(a if a.is_complex() else a.to(b.dtype.to_complex()), b, real_first=False)
    if not a.is_complex():
        return _times_real(b, a)
    ar, br = torch.view_as_real(a.resolve_conj()), torch.view_as_real(b.resolve_conj())
    x, y, u, v = ar[..., 0], ar[..., 1], br[..., 0], br[..., 1]
    return torch.view_as_complex(torch.stack((_fused(x, u, -(y * v)), _fused(x, v, y * u)), -1))


def _times_real(z, u, real_first=True):
    """NumPy's product of complex ``z`` = (x, y) and real ``u`` taken as (u, +0), in its operand order.  With
    the zero known, each fused part is one product plus a signed zero (or NaN): exact with plain arithmetic,
    but for a product that underflows, which keeps its own sign where the sum of two zeros would not.
    The real part is fma(x, u, -(y*0)) either way; the imaginary part fma(u, y, 0*x) with u first, else
    fma(x, 0, y*u) = x*0 + y*u (already rounded, so no exception)."""
    zr = torch.view_as_real(z.resolve_conj())
    x, y = zr[..., 0], zr[..., 1]
    re = _fma_signed_zero(x, u, -(y * 0.0))
    im = _fma_signed_zero(u, y, x * 0.0) if real_first else x * 0.0 + y * u
    return torch.view_as_complex(torch.stack((re, im), -1))


def _fma_signed_zero(x, y, z):
    """fma(x, y, z) for a ``z`` that is +-0 or NaN."""
    p = x * y
    s = p + z
    return torch.where((s == 0) & (x != 0) & (y != 0), p, s)


def _complex_square(a):
    return _complex_multiply(a, a)


def _int_floor_divide(a, b):
    """NumPy: integer division by zero gives 0 (torch raises); MIN // -1 wraps to MIN."""
    zero = b == 0
    q = torch.div(a, torch.where(zero, 1, b), rounding_mode="floor")
    return torch.where(zero, 0, q)


def _int_remainder(a, b):
    zero = b == 0
    return torch.where(zero, 0, torch.remainder(a, torch.where(zero, 1, b)))


def _int_fmod(a, b):
    zero = b == 0
    return torch.where(zero, 0, torch.fmod(a, torch.where(zero, 1, b)))


def _fmod(a, b):
    """C's fmod, which is exact: float32 and float16 go through float64, where their quotient cannot overflow
    (torch's vectorized float32 fmod, eager and compiled, gave NaN wherever |a / b| overflows float32:
    3.4e38 % 0.5, 1 % 1e-45).  float64 keeps that NaN where its own quotient overflows (README)."""
    if a.dtype == torch.float64:
        return torch.fmod(a, b)
    return torch.fmod(a.to(torch.float64), b.to(torch.float64)).to(a.dtype)


def _float_floor_divide(a, b, m=None):
    """NumPy's float floor division, (a - fmod(a, b)) / b moved to the floor, not torch's floor-rounding divide:
    compiled, Inductor lowers that to a floor of the quotient (-0.5 // 3 gave -0.0, inf // 1 gave inf where
    NumPy gives -1.0 and NaN).  ``m``: fmod(a, b), when the caller has it.  float16 runs in float32 and rounds
    once, as NumPy's loop (rounding each step gave 5588 for 0.1871 // 3.35e-5, NumPy 5584)."""
    if a.dtype == torch.float16:
        return _float_floor_divide(a.float(), b.float(), None if m is None else m.float()).half()
    m = _fmod(a, b) if m is None else m
    # NaN where the quotient overflows (torch's vectorized fmod divides): it is whole there
    m = torch.where(torch.isnan(m) & torch.isfinite(a) & (b != 0) & ~torch.isnan(b), 0, m)
    d = (a - m) / b
    d = torch.where((m != 0) & ((b < 0) != (m < 0)), d - 1, d)
    q = torch.floor(d)
    q = torch.where(d - q > 0.5, q + 1, q)
    q = torch.where(d == 0, torch.copysign(torch.zeros_like(q), a / b), q)
    return torch.where(b == 0, a / b, q)


def _float_remainder(a, b, m=None):
    """NumPy's remainder: fmod moved into the divisor's sign; a zero result takes the divisor's sign.  ``m``:
    fmod(a, b), when the caller has it."""
    m = _fmod(a, b) if m is None else m
    m = torch.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)
    return torch.where(m == 0, torch.copysign(torch.zeros_like(m), b), m)


def _float_divmod(a, b):
    m = _fmod(a, b)  # one fmod for both results
    return _float_floor_divide(a, b, m), _float_remainder(a, b, m)


def _uge(x, y):
    """Unsigned x >= y on int64 bit patterns."""
    return (x ^ _SIGN_BIT) >= (y ^ _SIGN_BIT)


def _u64_divmod_bits(a, b):
    """Unsigned 64-bit division on int64 bit patterns: halve the dividend so signed division is exact, then
    correct by one; a divisor >= 2**63 gives quotient 0 or 1; division by zero gives 0, 0 (NumPy)."""
    zero, big = b == 0, b < 0
    d = torch.where(zero | big, 1, b)
    q = torch.div((a >> 1) & (2**63 - 1), d, rounding_mode="trunc") << 1
    r = a - q * d
    fix = _uge(r, d)
    q, r = torch.where(fix, q + 1, q), torch.where(fix, r - d, r)
    qb = _uge(a, b).to(torch.int64)
    q, r = torch.where(big, qb, q), torch.where(big, a - b * qb, r)
    return torch.where(zero, 0, q), torch.where(zero, 0, r)


def _u64_floor_divide(a, b):
    return _u64_divmod_bits(a, b)[0]


def _u64_remainder(a, b):
    return _u64_divmod_bits(a, b)[1]


_NEGATIVE_POWER = "Integers to negative integer powers are not allowed."


def _int_power(a, b):
    """NumPy raises on a negative exponent: traced on the CPU, an assertion that the compiled call raises as
    ValueError (``_errors.VALUE_TAG``); elsewhere the compiled result is torch's (as linalg's checks)."""
    if b.is_signed():
        if not is_tracing(b):
            if builtins.bool((b < 0).any()):
                raise ValueError(_NEGATIVE_POWER)
        elif b.device.type == "cpu":
            torch._assert_async(~(b < 0).any(), VALUE_TAG + _NEGATIVE_POWER)
    return torch.pow(a, b)


def _float_power(a, b):
    """Python exponents that NumPy's loops special-case, or that are small integers, avoid a pow call (a costly
    vector function that blocks nothing but runs slowly in Inductor): ``x**2`` is one multiply (exact, as NumPy's
    pow(x, 2)), ``x**-1`` a reciprocal, ``x**0.5`` a sqrt (float32/64, as NumPy's loops); float32 ``x**n`` for
    n in (1, 3, 4, -2, -3, -4) multiplies in float64 and rounds once (closer to NumPy's powf than torch's pow:
    0.06% vs 2% of results off by an ulp).  Any other exponent becomes a 0-D tensor of the loop's dtype, as
    NumPy rounds it into the loop (torch's scalar pow would expand x**3 into float products, rounding
    differently)."""
    if not isinstance(b, torch.Tensor):
        if type(b) in (builtins.int, builtins.float):
            if b == 2:
                return a * a
            if b == -1:
                return torch.reciprocal(a)
            if b == 0.5 and type(b) is builtins.float and a.dtype != torch.float16:
                return torch.sqrt(a)  # as NumPy's float32/64 loops: sqrt(-0.0) = -0.0, sqrt(-inf) = nan
            if a.dtype == torch.float32 and b in _SMALL_POWERS:
                w = a.to(torch.float64)
                r = w
                for _ in range(builtins.abs(builtins.int(b)) - 1):
                    r = r * w
                return (1.0 / r if b < 0 else r).to(torch.float32)
        b = as_tensor(b).to(device=a.device, dtype=a.dtype)
    return torch.pow(a, b)


_SMALL_POWERS = frozenset({1, 3, 4, -2, -3, -4})


def _u64_power(a, b):
    """a**b modulo 2**64 on bit patterns.  Exponents >= 2**63: odd bases repeat with period dividing 2**62, even
    bases are 0 from the 64th power on."""
    huge = b < 0
    b = torch.where(huge, torch.where((a & 1) == 1, b & (2**62 - 1), 64), b)
    return torch.pow(a, b)


def _complex_divide(a, b):
    """NumPy's complex division: Smith's method, scaling by the larger part of the divisor; a zero divisor
    gives the parts divided by zero (inf or nan).  A real divisor (``_REAL_OK``) is the real part's branch with
    the +0 imaginary part put in (a real NaN takes the other branch there, which gives NaN as well)."""
    if not a.is_complex():
        a = a.to(b.dtype if b.is_complex() else b.dtype.to_complex())
    if not b.is_complex():
        u, x, y = b, a.real, a.imag
        rat = 0.0 / u
        scl = 1.0 / (u + 0.0 * rat)
        zero = u == 0
        return torch.complex(torch.where(zero, x / u.abs(), (x + y * rat) * scl),
                             torch.where(zero, y / u.abs(), (y - x * rat) * scl))
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    real_big = br.abs() >= bi.abs()
    zero = (br == 0) & (bi == 0)
    rat = torch.where(real_big, bi / br, br / bi)
    scl = 1.0 / torch.where(real_big, br + bi * rat, bi + br * rat)
    re = torch.where(real_big, (ar + ai * rat) * scl, (ar * rat + ai) * scl)
    im = torch.where(real_big, (ai - ar * rat) * scl, (ai * rat - ar) * scl)
    re = torch.where(zero, ar / br.abs(), re)
    im = torch.where(zero, ai / br.abs(), im)
    return torch.complex(re, im)


_REAL_OK = frozenset({_complex_multiply, _complex_divide})


def _complex_power(a, b):
    """NumPy's complex power: exact special cases for a zero exponent or base, repeated (textbook)
    multiplication for small integer exponents, exp(b log a) otherwise."""
    ar, ai = a.real, a.imag
    br, bi = b.real, b.imag
    n = torch.where((bi == 0) & (br == torch.round(br)) & (br.abs() < 100), br, 0).to(torch.int64)
    small = (bi == 0) & (br == n) & (n != 0)
    # n = 1, 2, 3 are explicit products; other |n| < 100 multiply out the bits of |n| from 1.
    one, zero = torch.ones_like(ar), torch.zeros_like(ar)
    sq = _cmul(ar, ai, ar, ai)
    cube = _cmul(*sq, ar, ai)
    m = n.abs()
    acc, p = (one, zero), (ar, ai)
    for bit in range(7):
        take = ((m >> bit) & 1) == 1
        prod = _cmul(*acc, *p)
        acc = (torch.where(take, prod[0], acc[0]), torch.where(take, prod[1], acc[1]))
        p = _cmul(*p, *p)
    loop = torch.complex(*acc)
    loop = torch.where(n < 0, _complex_divide(torch.ones_like(loop), loop), loop)
    r = torch.where(n == 1, a, torch.where(n == 2, torch.complex(*sq), torch.where(n == 3, torch.complex(*cube),
                                                                                   loop)))
    r = torch.where(small, r, torch.pow(a, b))
    nan = torch.complex(one * math.nan, one * math.nan)
    at_zero = torch.where(br > 0, torch.complex(zero, zero), nan)
    r = torch.where((ar == 0) & (ai == 0), at_zero, r)
    return torch.where((br == 0) & (bi == 0), torch.complex(one, zero), r)


def _negative(a):
    return torch.neg(a)


def _complex_negative(z):
    """Negates both parts (torch's complex neg computes 0 - z, losing the sign of zeros)."""
    return torch.view_as_complex(torch.neg(torch.view_as_real(z.resolve_conj())))


def _clone(a):
    return a.clone()


def _sign_float(a):
    return torch.where(torch.isnan(a), a, torch.sign(a))


def _sign_complex(z):
    """NumPy 2: z/|z|; an infinite part gives its direction (both infinite: nan); zero gives 0.  Where |z|
    overflows with finite parts, NumPy gives the imaginary direction (0, sign(im))."""
    re, im = z.real, z.imag
    rinf, iinf = torch.isinf(re), torch.isinf(im)
    mag = torch.abs(z)
    safe = torch.where(mag == 0, 1, mag)
    iinf = iinf | (torch.isinf(mag) & ~rinf)
    out_re = torch.where(rinf, torch.sign(re), torch.where(iinf, 0, re / safe))
    out_im = torch.where(iinf, torch.sign(im), torch.where(rinf, 0, im / safe))
    nan = (rinf & iinf) | (~rinf & ~iinf & torch.isnan(z))
    out_re = torch.where(nan, math.nan, torch.where(mag == 0, 0, out_re))
    out_im = torch.where(nan, math.nan, torch.where(mag == 0, 0, out_im))
    return torch.complex(out_re, out_im)


def _complex_log1p(z):
    """NumPy's log(1 + z) as log|1 + z| + i arg(1 + z) (no care for tiny z: log1p(1e-20+0j) is 0, as NumPy's).
    complex64 rounds |1 + z| to float32 (it overflows there) but takes each function in float64, rounded once."""
    re = z.real + 1
    wide = torch.float64 if z.dtype == torch.complex64 else re.dtype
    mag = torch.hypot(re.to(wide), z.imag.to(wide)).to(re.dtype)
    return torch.complex(torch.log(mag.to(wide)).to(re.dtype), torch.atan2(z.imag.to(wide), re.to(wide)).to(re.dtype))


def _complex_expm1(z):
    """exp(z) - 1 without cancelling near 0 (torch's was hundreds of ulps off): expm1(x) cos(y) - 2 sin(y/2)**2
    + i exp(x) sin(y); complex64 through complex128."""
    w = z.to(torch.complex128)
    x, y = w.real, w.imag
    h = torch.sin(y / 2)
    return torch.complex(torch.expm1(x) * torch.cos(y) - 2 * h * h, torch.exp(x) * torch.sin(y)).to(z.dtype)


def _complex_arccos(z):
    """arccos = pi/2 - arcsin for finite z (torch's own was thousands of ulps off, lost zero signs and the real
    part of arccos(1e308+1j), 1e-308): the imaginary part is arcsin's negated, exactly; the real part is
    pi/2 - Re arcsin where that does not cancel, else Kahan's 2*atan2(Re sqrt(1-z), Re sqrt(1+z)) (within 4
    ulps of NumPy); complex64 through complex128.  Infinities and NaNs keep torch's answers, which are NumPy's."""
    w = z.to(torch.complex128)
    s = torch.asin(w)
    s1, s2 = torch.sqrt(torch.complex(1 + w.real, w.imag)), torch.sqrt(torch.complex(1 - w.real, -w.imag))
    re = torch.where(s.real.abs() < 0.5, math.pi / 2 - s.real, 2 * torch.atan2(s2.real, s1.real))
    return torch.where(torch.isfinite(w), torch.complex(re, -s.imag), torch.acos(w)).to(z.dtype)


def _int_reciprocal(tds):
    """1/x truncated toward zero, as NumPy's C loop computes it: 1.0/0 converts to the minimum of int32 and
    int64 (x86 conversion of inf), and to 0 for the narrower and the unsigned types."""
    at_zero = -(2**31) if tds[0] == torch.int32 else -(2**63) if tds[0] == torch.int64 else 0

    def k(a):
        r = torch.where(a == 1, 1, torch.where(a == -1, -1, 0) if a.is_signed() else 0).to(a.dtype)
        return torch.where(a == 0, at_zero, r) if at_zero else r
    return k


def _sqrt_is_exact(dtype):
    """Whether torch's CPU sqrt is correctly rounded in ``dtype`` on this build.  On some builds it is not: its
    float32 and float64 results are an ulp off for about 20% and 1.5% of the values, on every code path (any size,
    0-D, strided); ``pow(a, 0.5)`` and ``rsqrt`` are no better.  float16 (through float32) is exact there."""
    x = _np.random.default_rng(0).uniform(0, 1000, 4096).astype(dtype)
    return bool((torch.sqrt(torch.from_numpy(x)).numpy() == _np.sqrt(x)).all())


_EXACT_SQRT = {d: _sqrt_is_exact(_dtypes.from_torch(d)) for d in (torch.float16, torch.float32, torch.float64)}


_fwad = torch.autograd.forward_ad  # its dual level: -1 outside ``dual_level()``


@_np.errstate(invalid="ignore")  # a negative operand: the shim's own error checks report it (see errstate)
def _np_sqrt(x):
    r = _np.sqrt(x)
    return r if type(r) is _np.ndarray else _np.asarray(r)  # a 0-D operand gives a NumPy scalar


def _sqrt(a):
    """Correctly rounded square root, as NumPy's, also where torch's CPU sqrt is an ulp off (probed once).

    Eager CPU arrays borrow NumPy's sqrt through zero-copy views, the cheapest exact formulation by far (on 16
    elements: about two torch ops' time, where the refinement below takes twenty).  Tensors a view cannot carry
    (autograd, functorch wrappers; dual tensors of forward AD, which it would silently drop) take a Newton step
    on the exact residual x - y*y (Dekker's product), where that product cannot over- or underflow.  Traced code
    keeps the plain op: Inductor's generated sqrt is the correctly rounded hardware instruction."""
    if _EXACT_SQRT.get(a.dtype, True) or not a.is_cpu or is_tracing(a):
        return torch.sqrt(a)
    if _fwad._current_level < 0:
        try:
            return torch.from_numpy(_np_sqrt(a.numpy()))
        except RuntimeError:  # needs grad, or has no plain storage
            pass
    if a.dtype != torch.float64:  # float64 carries more than twice their bits: safe to round once more
        return torch.sqrt(a.to(torch.float64)).to(a.dtype)
    y = torch.sqrt(a)
    c = y * 134217729.0  # 2**27 + 1: Veltkamp's split of y into two 26-bit halves
    hi = c - (c - y)
    lo = y - hi
    p = y * y
    e = ((hi * hi - p) + 2 * hi * lo) + lo * lo  # y*y == p + e exactly
    refined = y + ((a - p) - e) / (2 * y)
    return torch.where((a > 2.0**-900) & (a < 2.0**900), refined, y)


def _complex_abs(z):
    """|z| as C's hypot: complex64 parts go through float64 (torch's float32 hypot is less accurate)."""
    if z.dtype == torch.complex64:
        return torch.hypot(z.real.to(torch.float64), z.imag.to(torch.float64)).to(torch.float32)
    return torch.hypot(z.real, z.imag)


def _complex_reciprocal(z):
    """NumPy's 1/z: divide by the larger part first (1/0 is nan+nanj, as in NumPy)."""
    re, im = z.real, z.imag
    real_big = im.abs() <= re.abs()
    r = torch.where(real_big, im / re, re / im)
    d = torch.where(real_big, re + im * r, re * r + im)
    return torch.complex(torch.where(real_big, 1 / d, r / d), torch.where(real_big, -r / d, -1 / d))


def _cbrt(a):
    """Real cube root: pow(|a|, 1/3) in float64 refined by one Newton step (pow alone is an ulp or two off).
    Tiny values are scaled by 2**300 first (and the root by 2**-100): cubing the root of a subnormal underflows,
    and the step made cbrt(5e-324) 60 ulps off.  float16/32 take their first guess in float32, exp2(log2|a| / 3)
    (vector functions, where float64's pow is a slow one: 4M float32 compiled 18 -> 7.4-8.3 ms; NumPy 1.7), within
    a few float32 ulps, which the same step makes good to ~1e-12 before rounding once (0.5 ulp seen; their range
    needs no scaling)."""
    x = a.to(torch.float64).abs()
    if a.dtype in (torch.float16, torch.float32):
        y = _cube_root_step(x, torch.exp2(torch.log2(a.to(torch.float32).abs()) * (1.0 / 3.0)).to(torch.float64))
    else:
        tiny = x < 2.0**-900
        x = torch.where(tiny, x * 2.0**300, x)
        y = _cube_root_step(x, x.pow(1.0 / 3.0))
        y = torch.where(tiny, y * 2.0**-100, y)
    return torch.copysign(y, a.to(torch.float64)).to(a.dtype)


def _cube_root_step(x, y):
    """One Newton step from ``y`` toward the cube root of ``x`` (0, inf and NaN left as they are)."""
    return torch.where(torch.isfinite(y) & (y != 0), y - (y * y * y - x) / (3 * y * y), y)


def _gcd(a, b):
    """torch's gcd can come out negative when an operand is the dtype's minimum; NumPy's is |gcd| (wrapping)."""
    return torch.gcd(a, b).abs()


def _lcm(a, b):
    """NumPy: |a| // gcd * |b|, wrapping; int8/int16 take their absolute values in C int (|-128| is 128)."""
    if a.dtype in (torch.int8, torch.int16):
        return _lcm(a.to(torch.int32), b.to(torch.int32)).to(a.dtype)
    a, b = a.abs(), b.abs()
    g = _gcd(a, b)
    return torch.where(g == 0, 0, torch.div(a, torch.where(g == 0, 1, g), rounding_mode="trunc") * b)


def _u64_gcd(a, b):
    """Three unsigned Euclid steps bring both values below 2**63, where torch's gcd is exact."""
    x, y = a.view(torch.int64), b.view(torch.int64)
    for _ in range(3):
        nz = y != 0
        r = _u64_remainder(x, y)
        x, y = torch.where(nz, y, x), torch.where(nz, r, y)
    return torch.where(y == 0, x, torch.gcd(x, y)).view(torch.uint64)


def _u64_lcm(a, b):
    g = _u64_gcd(a, b).view(torch.int64)
    q = _u64_floor_divide(a.view(torch.int64), torch.where(g == 0, 1, g))
    return torch.where(g == 0, 0, q * b.view(torch.int64)).view(torch.uint64)


def _logaddexp2(a, b):
    """log2(2**a + 2**b) as NumPy's: the larger plus log2(1 + 2**-|a - b|), taken as log1p(...) * log2(e);
    equal operands give a + 1 exactly (torch's logaddexp2 is an ulp off in a third of the cases, and gave
    -4.8e-17 for logaddexp2(-1, -1)).  float16 runs in float32 and rounds once, as NumPy's loop."""
    if a.dtype == torch.float16:
        return _logaddexp2(a.float(), b.float()).half()
    d = a - b
    r = torch.where(d > 0, a, b) + torch.log1p(torch.exp2(-d.abs())) * 1.4426950408889634
    return torch.where(a == b, a + 1, r)


def _hyperbolic(f, odd):
    """sinh/cosh, also where exp(|x|) overflows but the result does not (|x| up to log(2 * max)): torch's
    vectorized (SLEEF) functions give inf there (cosh(710.4) is 1.67e308).  There, (exp(|x|/2) / 2) * exp(|x|/2),
    as C's libm computes it."""
    def k(a):
        r = f(a)
        if a.dtype == torch.float16:  # computed in float32: no such range
            return r
        w = torch.exp(a.abs() * 0.5)
        big = w * 0.5 * w
        return torch.where(torch.isinf(r) & torch.isfinite(a), torch.copysign(big, a) if odd else big, r)
    return k


def _heaviside(x, h0):
    return torch.where(x < 0, 0, torch.where(x > 0, 1, torch.where(x == 0, h0, x)))


# ------------------------------------------------------------------------------ kernels: floating point


def _spacing(a):
    """Distance to the next value away from zero, signed like ``a`` (-0.0 counts as positive)."""
    inf = torch.full_like(a, math.inf)
    return torch.nextafter(a, torch.where(a < 0, -inf, inf)) - a


def _spacing_half(a):
    """NumPy's float16 spacing is the distance to the next value up, also for negative inputs."""
    return torch.where(torch.isinf(a), math.nan, _nextafter_half(a, torch.full_like(a, math.inf)) - a)


def _nextafter_half(a, b):
    """NumPy's float16 nextafter returns ``a`` (not ``b``) when they are equal: -0.0 and 0.0 keep a's sign.

    One step of the bit pattern, not torch.nextafter: compiled, Inductor computes float16 in float32 and the
    float32 step rounded back to float16 is no step at all (np.spacing of float16 gave 0)."""
    bits = a.view(torch.int16)
    step = torch.where((a > 0) == (b > a), bits + 1, bits - 1)
    tiny = torch.where(b > 0, 1, -32767).to(torch.int16)  # +-smallest subnormal (-32767: bits 0x8001)
    r = torch.where(a == 0, tiny, step).view(torch.float16)
    return torch.where(a == b, a, torch.where(torch.isnan(b), b, r))


def _modf(a):
    """(fraction, integral part); the fraction keeps a's sign, also when it is zero (C's modf)."""
    i = torch.trunc(a)
    f = torch.where(torch.isinf(a), 0, a - i)
    return torch.copysign(f, a), i


_FLOAT_BITS = {torch.float16: (torch.int16, 10, 15), torch.float32: (torch.int32, 23, 127),
               torch.float64: (torch.int64, 52, 1023)}  # float -> (same-size int, mantissa bits, exponent bias)


def _frexp(a):
    """(mantissa in [0.5, 1), exponent) from the bit pattern; zeros, infinities and NaNs give (a, 0).

    Not torch.frexp: it flushes float32/float64 subnormals to zero, and Inductor's vectorized C++ for it on
    float64 declares the exponent with the double vector's width and fails to compile (also int inputs, which
    NumPy computes in float64)."""
    ity, mbits, bias = _FLOAT_BITS[a.dtype]
    tiny = torch.abs(a) < torch.finfo(a.dtype).tiny  # subnormals (and zeros): scaled to normals, exactly
    scaled = torch.where(tiny, a * 2.0 ** (mbits + 1), a).view(ity)
    field = (scaled >> mbits) & (2 * bias + 1)  # the biased exponent
    e = field.to(torch.int32) - (bias - 1) - torch.where(tiny, mbits + 1, 0)
    m = ((scaled & ~((2 * bias + 1) << mbits)) | ((bias - 1) << mbits)).view(a.dtype)
    keep = (a == 0) | ~torch.isfinite(a)
    return torch.where(keep, a, m), torch.where(keep, 0, e).to(torch.int32)


def _pow2(k):
    """Exact 2.0**k in float64 for integer tensors k in [-1074, 1024] (1024 gives inf), from bit patterns."""
    k = k.to(torch.int64)
    normal = torch.where(k >= -1022, (k + 1023) << 52, 0)
    sub = torch.where(k < -1022, torch.ones_like(k) << (k + 1074).clamp(0, 62), 0)
    return torch.where(k >= -1022, normal, sub).view(torch.float64)


def _ldexp(m, e):
    """m * 2**e rounded once, as C's ldexp: float16/float32 scale exactly in float64 and round on the way back;
    float64 splits m into [1, 2) * 2**k so that at most one product is inexact."""
    e = e.to(torch.int64)
    if m.dtype != torch.float64:
        return (m.to(torch.float64) * _pow2(e.clamp(-400, 400))).to(m.dtype)
    f, k = _frexp(m)
    t = (k.to(torch.int64) + e.clamp(-2200, 2200) - 1).clamp(-1134, 1024)
    hi = t.clamp(-1074, 1024)
    r = (f * 2 * _pow2(t - hi)) * _pow2(hi)
    return torch.where((m == 0) | ~torch.isfinite(m), m, r)


def _complex_rint(z):
    return torch.complex(torch.round(z.real), torch.round(z.imag))


def _float_only(f):
    """Rounding ufuncs keep integer (and bool) inputs unchanged, in their dtype."""
    return _kinds(_clone, float=f, uint64=_clone)


# ------------------------------------------------------------------------------ kernels: bits


def _shift(left):
    def k(a, b):
        bits = a.element_size() * 8
        big = (b >= bits) | (b < 0)
        safe_b = torch.where(big, 0, b)
        r = torch.bitwise_left_shift(a, safe_b) if left else torch.bitwise_right_shift(a, safe_b)
        fill = 0 if left or not a.is_signed() else torch.where(a < 0, -1, 0)
        return torch.where(big, fill, r)
    return k


def _u64_right_shift(a, b):
    """Logical right shift on int64 bit patterns: one shift with the sign cleared, then an arithmetic one."""
    big = (b >= 64) | (b < 0)
    c = torch.where(big, 1, b)
    r = ((a >> 1) & (2**63 - 1)) >> (c - 1).clamp(min=0)
    return torch.where(big, 0, torch.where(b == 0, a, r))


_M1, _M2, _M4, _H01 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x0101010101010101


def _popcount(x):
    """Bit count of int64 x (SWAR); the masks drop what arithmetic shifts smear into the top bits."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return ((x * _H01) >> 56).to(torch.uint8)


def _bitwise_count(a):
    return _popcount(a.to(torch.int64).abs() if a.is_signed() else a.to(torch.int64))


def _u64_bitwise_count(a):
    return _popcount(a.view(torch.int64))


# ------------------------------------------------------------------------------ kernels: order


def _lexicographic(strict, tie):
    """NumPy's complex order: by real part, then imaginary part; a NaN imaginary part voids the real order."""
    def k(a, b):
        ordered = ~torch.isnan(a.imag) & ~torch.isnan(b.imag)
        return (strict(a.real, b.real) & ordered) | ((a.real == b.real) & tie(a.imag, b.imag))
    return k


_CLT, _CLE = _lexicographic(torch.lt, torch.lt), _lexicographic(torch.lt, torch.le)
_CGT, _CGE = _lexicographic(torch.gt, torch.gt), _lexicographic(torch.gt, torch.ge)


def _pick(keep_first):
    """maximum/minimum/fmax/fmin as ``where(keep_first(a, b), a, b)``: NumPy's rules (ties go to b)."""
    return lambda a, b: torch.where(keep_first(a, b), a, b)


_CMAXIMUM = _pick(lambda a, b: torch.isnan(a) | _CGE(a, b))
_CMINIMUM = _pick(lambda a, b: torch.isnan(a) | _CLE(a, b))
_U64_MAXIMUM, _U64_MINIMUM = _u64_order(torch.maximum), _u64_order(torch.minimum)
_CFMAX = _pick(lambda a, b: torch.isnan(b) | (~torch.isnan(a) & _CGE(a, b)))
_CFMIN = _pick(lambda a, b: torch.isnan(b) | (~torch.isnan(a) & _CLE(a, b)))
_FMAX = _pick(lambda a, b: torch.isnan(b) | (a > b))
_FMIN = _pick(lambda a, b: torch.isnan(b) | (a < b))


# ------------------------------------------------------------------------------ kernels: linear algebra


def _matmul(a, b):
    """Any dtype: bool products, and integer ones off the CPU, have no exact torch kernel."""
    if a.dtype is torch.bool or not (a.is_cpu or a.is_floating_point() or a.is_complex()):
        _matmul_dims(a, b)
        from ._products import matmul_exact

        return matmul_exact(a, b)
    return _matmul_torch(a, b)


def _matmul_torch(a, b):
    """torch's product (floats and complex numbers anywhere, integers on the CPU); NumPy's messages only when
    torch refuses, so the common call pays for no checks."""
    if (a.ndim > 2 or b.ndim > 2) and _tiny_stack(a, b):
        # A stack of tiny matrices: a library call per batch is mostly overhead, while the broadcast product
        # summed over k is one fused loop in Inductor (it also fuses with neighbouring matmuls and pointwise
        # ops), summing each k in order as NumPy's own small-matrix loop does.
        _matmul_dims(a, b)
        return (a.unsqueeze(-1) * b.unsqueeze(-3)).sum(-2)
    try:
        return torch_matmul(a, b)
    except RuntimeError:
        _matmul_dims(a, b)
        raise


def torch_matmul(a, b):
    """``a @ b`` with a vector operand made contiguous: a strided one (a matrix's column) was read at one cache line
    per element, once per block of rows in Inductor's product (1024x1024 by a column: 7.7 ms compiled, NumPy 0.14)
    and slowly by torch's kernel (1.0 ms against 0.11)."""
    return (a.contiguous() if a.ndim == 1 else a) @ (b.contiguous() if b.ndim == 1 else b)


def _matmul_dims(a, b):
    # a 1-D operand has one core dim (n? or m? absent), a stacked one two
    _core_dims("matmul", "(n?,k),(k,m?)->(n?,m?)", a, b, (1 + (a.ndim > 1), 1 + (b.ndim > 1)),
               (-1, -1 - (b.ndim > 1)))


def _tiny_stack(a, b):
    """Whether a traced product of stacked matrices (one operand above 2-D) has only tiny matrices."""
    return (a.ndim >= 2 and b.ndim >= 2 and a.is_floating_point() and is_tracing(a)
            and max(a.shape[-2], a.shape[-1], b.shape[-1]) <= _TINY_MATRIX)


_TINY_MATRIX = 4  # largest m, k, n traced as a fused broadcast-and-sum instead of a batched GEMM


def _core_dims(name, signature, a, b, need, shared):
    """NumPy's gufunc checks: each operand has its core dims (``need``), the shared core dim (at ``shared``,
    from the end of a and of b) is equal (core dims never broadcast), and the loop dims broadcast."""
    for i, (x, k) in enumerate(zip((a, b), need)):
        if x.ndim < k:
            raise ValueError(f"{name}: Input operand {i} does not have enough dimensions (has {x.ndim}, gufunc core "
                             f"with signature {signature} requires {k})")
    na, nb = a.shape[shared[0]], b.shape[shared[1]]
    if na != nb:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"{signature} (size {nb} is different from {na})")
    loops = (tuple(a.shape[:a.ndim - need[0]]), tuple(b.shape[:b.ndim - need[1]]))
    try:
        torch.broadcast_shapes(*loops)
    except RuntimeError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes {loops[0]} {loops[1]}") \
            from None


def _vecdot(a, b):
    _core_dims("vecdot", "(n),(n)->()", a, b, (1, 1), (-1, -1))
    return (torch.conj(a) * b).sum(-1) if a.is_complex() else (_bool_mul(a, b)).sum(-1).to(a.dtype)


def _bool_mul(a, b):
    return a & b if a.dtype == torch.bool else a * b


def _matvec(a, b):
    _core_dims("matvec", "(m,n),(n)->(m)", a, b, (2, 1), (-1, -1))
    return _matmul(a, b.unsqueeze(-1)).squeeze(-1)


def _vecmat(a, b):
    _core_dims("vecmat", "(n),(n,m)->(m)", a, b, (1, 2), (-1, -2))
    if a.is_complex():
        a = torch.conj(a)
    return _matmul(a.unsqueeze(-2), b).squeeze(-2)


def _isnat(a):
    raise UnsupportedFeature("isnat (datetime64)")


# Kernels that accept a Python number as their last operand (saves making a 0-D tensor per call), and the
# torch ops computing them with the operands swapped (for a Python number first, ``2.0 * a``, ``1 - a``).
_SCALAR_OK = frozenset({torch.add, torch.sub, torch.mul, torch.true_divide, torch.eq, torch.ne, torch.lt,
                        torch.le, torch.gt, torch.ge, torch.bitwise_and, torch.bitwise_or, torch.bitwise_xor,
                        _float_power})
_REFLECTED = {torch.add: torch.add, torch.mul: torch.mul, torch.sub: torch.rsub, torch.eq: torch.eq,
              torch.ne: torch.ne, torch.lt: torch.gt, torch.le: torch.ge, torch.gt: torch.lt, torch.ge: torch.le,
              torch.bitwise_and: torch.bitwise_and, torch.bitwise_or: torch.bitwise_or,
              torch.bitwise_xor: torch.bitwise_xor}


def _swapped(op):
    return lambda a, b: op(b, a)

_KERNELS = {
    # arithmetic
    "add": _kinds(torch.add, bool=torch.logical_or, uint64=SAME, complex=_componentwise(torch.add)),
    "subtract": _kinds(torch.sub, uint64=SAME, complex=_componentwise(torch.sub)),
    "multiply": _kinds(torch.mul, bool=torch.logical_and, uint64=SAME, complex=_complex_multiply),
    "divide": _kinds(torch.true_divide, complex=_complex_divide),
    "floor_divide": _kinds(int=_int_floor_divide, uint64=_u64(_u64_floor_divide),
                           float=_float_floor_divide),
    "remainder": _kinds(int=_int_remainder, uint64=_u64(_u64_remainder), float=_float_remainder),
    "fmod": _kinds(int=_int_fmod, uint64=_u64(_u64_remainder), float=_fmod),
    "divmod": _kinds(int=lambda a, b: (_int_floor_divide(a, b), _int_remainder(a, b)),
                     uint64=_u64(lambda a, b: _u64_divmod_bits(a, b)),
                     float=_float_divmod),
    "power": _kinds(int=_int_power, uint64=_u64(_u64_power), float=_float_power, complex=_complex_power),
    "float_power": _kinds(float=torch.pow, complex=_complex_power),
    "negative": _kinds(_negative, uint64=SAME, complex=_complex_negative),
    "positive": _kinds(_clone, uint64=SAME),
    "absolute": _kinds(torch.abs, bool=_clone, uint64=_clone, complex=_complex_abs),
    "fabs": _kinds(float=torch.abs),
    "sign": _kinds(int=torch.sign, uint64=lambda a: (a.view(torch.int64) != 0).to(torch.uint64), float=_sign_float,
                   complex=_sign_complex),
    "conjugate": _kinds(_clone, uint64=SAME, complex=torch.conj_physical),
    "square": _kinds(lambda a: a * a, uint64=SAME, complex=_complex_square),
    "reciprocal": _kinds(float=torch.reciprocal, complex=_complex_reciprocal,
                         uint64=lambda a: (a.view(torch.int64) == 1).to(torch.uint64),
                         choose=lambda tds: _int_reciprocal(tds) if _CATEGORY[tds[0]] == "int" else None),
    "sqrt": _kinds(float=_sqrt, complex=torch.sqrt),
    "cbrt": _kinds(float=_cbrt),
    "gcd": _kinds(int=_gcd, uint64=_u64_gcd),
    "lcm": _kinds(int=_lcm, uint64=_u64_lcm),
    "heaviside": _kinds(float=_heaviside),
    # exponents and logarithms
    "exp": _kinds(torch.exp), "exp2": _kinds(torch.exp2), "expm1": _kinds(torch.expm1, complex=_complex_expm1),
    "log": _kinds(torch.log), "log2": _kinds(torch.log2), "log10": _kinds(torch.log10),
    "logaddexp2": _kinds(float=_logaddexp2),
    "log1p": _kinds(torch.log1p, complex=_complex_log1p), "logaddexp": _kinds(float=torch.logaddexp),
    # trigonometry
    "sin": _kinds(torch.sin), "cos": _kinds(torch.cos), "tan": _kinds(torch.tan),
    "arcsin": _kinds(torch.asin), "arccos": _kinds(torch.acos, complex=_complex_arccos), "arctan": _kinds(torch.atan),
    "arctan2": _kinds(float=torch.atan2), "hypot": _kinds(float=torch.hypot),
    "sinh": _kinds(torch.sinh, float=_hyperbolic(torch.sinh, True)),
    "cosh": _kinds(torch.cosh, float=_hyperbolic(torch.cosh, False)), "tanh": _kinds(torch.tanh),
    "arcsinh": _kinds(torch.asinh), "arccosh": _kinds(torch.acosh), "arctanh": _kinds(torch.atanh),
    "deg2rad": _kinds(float=torch.deg2rad), "radians": _kinds(float=torch.deg2rad),
    "rad2deg": _kinds(float=torch.rad2deg), "degrees": _kinds(float=torch.rad2deg),
    # rounding
    "rint": _kinds(_clone, float=torch.round, complex=_complex_rint, uint64=_clone),
    "floor": _float_only(torch.floor), "ceil": _float_only(torch.ceil), "trunc": _float_only(torch.trunc),
    # floating point
    "isfinite": _kinds(torch.isfinite, uint64=SAME), "isinf": _kinds(torch.isinf, uint64=SAME),
    "isnan": _kinds(torch.isnan, uint64=SAME), "isnat": _isnat, "signbit": _kinds(float=torch.signbit),
    "copysign": _kinds(float=torch.copysign), "nextafter": _kinds(float=torch.nextafter, float16=_nextafter_half),
    "spacing": _kinds(float=_spacing, float16=_spacing_half), "modf": _kinds(float=_modf),
    "frexp": _kinds(float=_frexp), "ldexp": _kinds(float=_ldexp),
    # bits
    "bitwise_and": _kinds(torch.bitwise_and, uint64=SAME), "bitwise_or": _kinds(torch.bitwise_or, uint64=SAME),
    "bitwise_xor": _kinds(torch.bitwise_xor, uint64=SAME), "invert": _kinds(torch.bitwise_not, uint64=SAME),
    "left_shift": _kinds(_shift(True), uint64=SAME),
    "right_shift": _kinds(_shift(False), uint64=_u64(_u64_right_shift)),
    "bitwise_count": _kinds(int=_bitwise_count, uint64=_u64_bitwise_count),
    # logic and comparison
    "logical_and": _kinds(torch.logical_and, uint64=SAME), "logical_or": _kinds(torch.logical_or, uint64=SAME),
    "logical_xor": _kinds(torch.logical_xor, uint64=SAME), "logical_not": _kinds(torch.logical_not, uint64=SAME),
    "equal": _comparison(torch.eq), "not_equal": _comparison(torch.ne),
    "less": _comparison(torch.lt, _CLT), "less_equal": _comparison(torch.le, _CLE),
    "greater": _comparison(torch.gt, _CGT), "greater_equal": _comparison(torch.ge, _CGE),
    "maximum": _kinds(torch.maximum, bool=torch.logical_or, uint64=_U64_MAXIMUM,
                      complex=_CMAXIMUM),
    "minimum": _kinds(torch.minimum, bool=torch.logical_and, uint64=_U64_MINIMUM,
                      complex=_CMINIMUM),
    "fmax": _kinds(torch.maximum, bool=torch.logical_or, uint64=_U64_MAXIMUM, float=_FMAX,
                   complex=_CFMAX),
    "fmin": _kinds(torch.minimum, bool=torch.logical_and, uint64=_U64_MINIMUM, float=_FMIN,
                   complex=_CFMIN),
    # linear algebra gufuncs
    "matmul": _kinds(_matmul, float=_matmul_torch, complex=_matmul_torch, uint64=SAME), "vecdot": _vecdot, "matvec": _kinds(_matvec, uint64=SAME),
    "vecmat": _kinds(_vecmat, uint64=SAME),
}

# NumPy's aliases share one ufunc object with NumPy's own name.
_ALIASES = {"abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
            "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh", "bitwise_invert": "invert",
            "bitwise_not": "invert", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
            "conj": "conjugate", "mod": "remainder", "pow": "power", "true_divide": "divide"}

UFUNCS = {}
for _name, _kernel in _KERNELS.items():
    UFUNCS[_name] = ufunc(getattr(_np, _name), _kernel)
for _alias, _target in _ALIASES.items():
    UFUNCS[_alias] = UFUNCS[_target]
globals().update(UFUNCS)
__all__ = sorted(UFUNCS) + ["ufunc"]


# ------------------------------------------------------------------------------ result memory layout


def _dense_strides(shape, order):
    """Element strides of a dense array whose axes, outermost first, are ``order``."""
    st, step = [0] * len(shape), 1
    for d in reversed(order):
        st[d] = step
        step *= shape[d]
    return st


def _k_order(shape, operands):
    """The axis order (outermost first) NumPy's iterator gives a new output under order='K': its insertion sort
    of the axes, innermost first, where an axis moves inward past another only when every operand that steps
    along both (no broadcast, stride 0, on either) steps strictly farther along it; a disagreement keeps C order.
    ``operands``: each one's strides broadcast to ``shape``."""
    nd = len(shape)
    perm = list(range(nd - 1, -1, -1))  # innermost first
    for i in range(1, nd):
        ax, pos = perm[i], i
        for j in range(i - 1, -1, -1):
            decided, move = False, False
            for st in operands:
                s_in, s_out = st[ax], st[perm[j]]
                if s_in and s_out:
                    move = (builtins.abs(s_out) > builtins.abs(s_in)) and (move or not decided)
                    decided = True
            if not decided:
                continue
            if not move:
                break
            pos = j
        if pos != i:
            perm[pos + 1:i + 1] = perm[pos:i]
            perm[pos] = ax
    return perm[::-1]


def _dense(strides, shape):
    """Whether these strides step through one block of memory without gaps or overlaps."""
    step = 1
    for st, n in sorted((builtins.abs(st), n) for st, n in zip(strides, shape) if n != 1):
        if st != step:
            return False
        step *= n
    return True


def _broadcast_strides(t, shape):
    nd, k = len(shape), t.ndim
    st = t.stride()
    return [0] * (nd - k) + [0 if t.shape[d] == 1 else st[d] for d in range(k)]


def k_axes(shape, ops, order="K", trivial=True):
    """The axis order, outermost first, of the memory NumPy gives a new elementwise result of ``shape`` over
    ``ops``.  order='K': a single-output ufunc whose array operands all have the result's shape (``trivial``)
    gives C order when they are all C-contiguous, F order when they are all F-contiguous; otherwise NumPy's
    iterator orders the axes (``_k_order``).  'C' and 'F' are those orders, 'A' F when every array operand is
    F-contiguous (in the trivial case: and not all C-contiguous), C otherwise."""
    nd = len(shape)
    arrays = [o for o in ops if isinstance(o, torch.Tensor) and o.ndim]
    trivial = trivial and all(tuple(o.shape) == shape for o in arrays)
    if order == "C" or trivial and order in "KA" and all(o.is_contiguous() for o in arrays):
        return list(range(nd))
    if order == "F" or order in "KA" and (trivial or order == "A") and arrays and all(
            _is_contiguous(o, "F") for o in arrays):
        return list(range(nd - 1, -1, -1))
    if order == "A":
        return list(range(nd))
    return _k_order(shape, [_broadcast_strides(o, shape) for o in arrays])


def _k_layout(r, ops, order="K", trivial=True):
    """``r``, the fresh result of an elementwise kernel over ``ops``, laid out in memory as NumPy lays out
    its results (``k_axes``).  torch's TensorIterator follows the first operand whose strides differ: ``a.T * b``
    (b C-ordered) was F-ordered, NumPy's is C-ordered (a copy here; a result in NumPy's layout costs nothing).
    A layout that differs only in the strides of length-1 axes is restrided in place of a copy."""
    nd = r.ndim
    if nd < 2 or is_tracing(r):  # (a trace keeps torch's layout: reading symbolic strides would guard on them)
        return r
    shape, have = r.shape, r.stride()
    if order == "K" and 1 not in shape:
        for o in ops:
            if isinstance(o, torch.Tensor) and o.ndim and (o.stride() != have or o.shape != shape):
                break
        else:
            return r  # every operand in the result's (dense) layout: NumPy's too
    shape = tuple(shape)
    axes = k_axes(shape, ops, order, trivial)
    want = _dense_strides(shape, axes)
    if list(have) == want or r.numel() == 0:
        return r
    if all(h == w for h, w, n in zip(have, want, shape) if n != 1) and _dense(have, shape):
        return r.as_strided(shape, want)
    inverse = [0] * nd
    for i, d in enumerate(axes):
        inverse[d] = i
    return r.permute(axes).clone(memory_format=torch.contiguous_format).permute(inverse)
