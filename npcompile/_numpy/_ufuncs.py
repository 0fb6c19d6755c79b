"""NumPy's ufuncs as ``ufunc`` objects over torch ops.

Type resolution is NumPy's own (``numpy.ufunc.resolve_dtypes``, cached per dtype combination), so loop
selection, NEP 50 weak scalars, ``dtype=``/``signature=`` and ``casting=`` errors match NumPy exactly.  Each
ufunc then needs only its torch kernel, which receives operands already cast to the loop's dtype.
"""

from __future__ import annotations

import builtins
import math

import numpy as _np
import torch

from .._errors import UnsupportedFeature
from . import _dtypes
from ._ndarray import ndarray, wrap
from ._normalize import as_tensor, copy_to_out

_SCALARS = (builtins.bool, builtins.int, builtins.float, builtins.complex)
_SYM = {torch.SymInt: builtins.int, torch.SymFloat: builtins.float, torch.SymBool: builtins.bool}
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
# uint64 runs in int64: exact for these (arithmetic modulo 2**64, or bit patterns); order ops flip the sign bit.
_U64_WRAP = {"add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift",
             "negative", "positive", "square", "conjugate", "equal", "not_equal", "bitwise_count",
             "matmul", "matvec", "vecmat"}
_U64_ORDER = {"less", "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax", "fmin"}
_SIGN_BIT = -(2**63)
_TORCH_DTYPES = frozenset(_dtypes._TORCH_TO_NP)


class ufunc:
    """A NumPy universal function: broadcasting, type resolution, out=, where=, and the reduce family."""

    def __init__(self, np_ufunc, kernel, scalar_ok=False):
        self._np = np_ufunc
        self._kernel = kernel
        self._scalar_ok = scalar_ok  # kernel accepts a Python number as its last operand
        self.__name__ = np_ufunc.__name__
        self.__qualname__ = self.__name__
        self.nin, self.nout, self.nargs = np_ufunc.nin, np_ufunc.nout, np_ufunc.nargs
        self.identity = np_ufunc.identity
        self.signature = np_ufunc.signature
        self.types = [t for t in np_ufunc.types if set(t) <= set("?bBhHiIlLqQefdFD->")]
        self.ntypes = len(self.types)
        self.__doc__ = f"NumPy's ``{self.__name__}`` ufunc on torch tensors."
        self._cache = {}
        self._plans = {}

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        return self.__name__

    # ------------------------------------------------------------ type resolution
    def _resolve(self, key, dtype, casting, out_dtypes):
        ck = (key, dtype, casting, out_dtypes)
        r = self._cache.get(ck)
        if r is None:
            np_key = tuple(_dtypes.from_torch(k) if isinstance(k, torch.dtype) else k for k in key)
            sig = None if dtype is None else (None,) * self.nin + (dtype,) * self.nout
            try:
                kw = {} if sig is None else {"signature": sig}
                r = self._np.resolve_dtypes(np_key + out_dtypes, casting=casting, **kw)
            except TypeError as e:
                if "resolve_dtypes" in str(e) or "no loop" in str(e).lower() or "did not contain" in str(e):
                    # same words as the real call: "ufunc 'x' not supported for the input types..."
                    raise _np._core._exceptions._UFuncNoLoopError(
                        self._np, tuple(d if isinstance(d, _np.dtype) else _np.dtype(d) for d in np_key)
                    ) from None
                raise
            for d in r:
                if d not in _dtypes._NP_TO_TORCH:
                    raise UnsupportedFeature(f"ufunc {self.__name__} with dtype {d!r}")
            self._cache[ck] = r
        return r

    # ------------------------------------------------------------ call
    def __call__(self, *args, **kwargs):
        if not kwargs:
            # Fast path: the common call (our arrays and Python scalars, no keywords) costs one dict lookup on
            # top of the torch kernel.
            if len(args) == 2 and self.nin == 2:
                return self._binary(args[0], args[1])
            if len(args) == 1 and self.nin == 1:
                x = args[0]
                if type(x) is ndarray:
                    t = x.tensor
                    plan = self._plans.get(t.dtype)
                    if plan is not None:
                        if plan[0]:
                            t = t.to(plan[0][0][1])
                        r = self._kernel(t)
                        if self.nout == 1:
                            return wrap(r if r.dtype is plan[1] else r.to(plan[1]))
        return self._call(*args, **kwargs)

    def _binary(self, x, y):
        tx, ty = type(x), type(y)
        a = x.tensor if tx is ndarray else x
        b = y.tensor if ty is ndarray else y
        plan = self._plans.get((a.dtype if tx is ndarray else tx, b.dtype if ty is ndarray else ty))
        if plan is None:
            return self._call(x, y)
        for i, want in plan[0]:
            if i:
                b = b.to(want)
            else:
                a = a.to(want)
        try:
            r = self._kernel(a, b)
        except RuntimeError as e:
            raise _shape_error(e, (a, b)) from None
        return wrap(r if r.dtype is plan[1] else r.to(plan[1]))

    def _call(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None, subok=True,
              signature=None, axes=None, axis=None, keepdims=False):
        nin = self.nin
        if len(args) != nin:
            if len(args) > nin and out is None:
                out = args[nin:] if len(args) - nin > 1 else args[nin]
                args = args[:nin]
            else:
                raise TypeError(f"{self.__name__}() takes from {nin} to {self.nargs} positional arguments but "
                                f"{len(args)} were given")
        if axes is not None or axis is not None:
            raise UnsupportedFeature(f"the ufunc axes=/axis= machinery ({self.__name__})")
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
            elif tx in _SCALARS:
                ops.append(x)
                key.append(tx)
            elif tx in _SYM:
                ops.append(x)
                key.append(_SYM[tx])
            else:
                t = as_tensor(x)
                ops.append(t)
                key.append(t.dtype)
        out_dtypes = (None,) * self.nout if outs is None else tuple(o.dtype for o in outs)
        loop = self._resolve(tuple(key), dtype, casting, out_dtypes)

        if all(not isinstance(op, torch.Tensor) for op in ops):  # all Python scalars: NumPy gives 0-D
            ops[0] = as_tensor(ops[0])
        cast = []
        for i, op in enumerate(ops):
            want = _dtypes.to_torch(loop[i])
            if isinstance(op, torch.Tensor):
                if op.dtype != want:
                    op = op.to(want)
            else:
                op = _weak_scalar(op, loop[i], self.__name__, ops, i, want)
            cast.append(op)
        res = self._run(cast, loop)
        if out is None and where is True and dtype is None and casting == "same_kind" and self.nout == 1:
            self._remember_plan(tuple(key), ops, cast, loop)

        if where is not True:
            w = as_tensor(where)
            if w.dtype != torch.bool:
                raise TypeError(f"Cannot cast array data from {_dtypes.from_torch(w.dtype)!r} to "
                                "dtype('bool') according to the rule 'safe'")
            if self.nout == 1:
                res = (res,)
            fill = [o.tensor if o is not None else None for o in outs] if outs else [None] * self.nout
            res = tuple(torch.where(w, r, f if f is not None else torch.zeros((), dtype=r.dtype, device=r.device))
                        for r, f in zip(res, fill))
            if self.nout == 1:
                res = res[0]
        if outs is None:
            if self.nout == 1:
                return wrap(res)
            return tuple(wrap(r) for r in res)
        if self.nout == 1:
            return copy_to_out(res, outs[0], "unsafe", self)
        return tuple(copy_to_out(r, o, "unsafe", self) for r, o in zip(res, outs))

    def _remember_plan(self, key, ops, cast, loop):
        """Cache the casts of a plain call whose kernel needs nothing but casting (no wide-uint compute,
        no scalar-to-tensor conversion, no out-of-range check), for the fast path."""
        if any(k in (builtins.int, builtins.float, builtins.complex, builtins.bool) for k in key):
            if not self._scalar_ok or len(key) != 2 or key[0] not in _TORCH_DTYPES:
                return
            if key[1] is builtins.int and loop[1].kind in "iu":
                return  # needs the out-of-range check per value
            if type(cast[1]) is not key[1]:
                return
        if any(isinstance(k, torch.dtype) and k in (torch.uint16, torch.uint32, torch.uint64) for k in key):
            return
        casts = tuple((i, _dtypes.to_torch(loop[i])) for i, k in enumerate(key)
                      if isinstance(k, torch.dtype) and k != _dtypes.to_torch(loop[i]))
        if any(_dtypes.to_torch(loop[i]) in (torch.uint16, torch.uint32, torch.uint64) for i in range(len(key))):
            return
        self._plans[key if len(key) > 1 else key[0]] = (casts, _dtypes.to_torch(loop[-1]))

    def _run(self, ops, loop):
        name = self.__name__
        storage = [_dtypes.to_torch(d) for d in loop[self.nin:]]
        tensors = [o for o in ops if isinstance(o, torch.Tensor)]
        wide = [t.dtype for t in tensors if t.dtype in (torch.uint16, torch.uint32, torch.uint64)]
        flip = False
        if wide:
            if torch.uint64 in wide and name not in _U64_WRAP:
                if name in _U64_ORDER:
                    flip = True
                else:
                    raise UnsupportedFeature(f"ufunc {name} on uint64")
            ops = [_to_compute(o, flip) if isinstance(o, torch.Tensor) else o for o in ops]
        # Python scalars become 0-D tensors, except a last one that the kernel accepts (``2.0 * a``)
        last = len(ops) - 1 if self._scalar_ok and not flip else len(ops)
        ops = [o if i == last or isinstance(o, torch.Tensor) else _scalar_operand(o, loop[i], flip, tensors[0].device)
               for i, o in enumerate(ops)]
        try:
            res = self._kernel(*ops)
        except RuntimeError as e:
            raise _shape_error(e, ops) from None
        if self.nout == 1:
            if flip and res.dtype == torch.int64:
                res = res ^ _SIGN_BIT
            return res if res.dtype == storage[0] else res.to(storage[0])
        return tuple(r if r.dtype == s else r.to(s) for r, s in zip(res, storage))

    # ------------------------------------------------------------ methods
    def outer(self, A, B, /, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        a, b = as_tensor(A), as_tensor(B)
        a = wrap(a.reshape(a.shape + (1,) * b.ndim))
        return self(a, B if not isinstance(B, (list, tuple)) else wrap(b), **kwargs)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
        from ._ufunc_methods import reduce

        return reduce(self, array, axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        from ._ufunc_methods import accumulate

        return accumulate(self, array, axis, dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        from ._ufunc_methods import reduceat

        return reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None, /):
        from ._ufunc_methods import at

        return at(self, a, indices, b)

    def resolve_dtypes(self, dtypes, *, signature=None, casting=None, reduction=False):
        return self._np.resolve_dtypes(dtypes, signature=signature, casting=casting, reduction=reduction)


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
        out = (out,)
    if len(out) != nout:
        raise ValueError(f"The 'out' tuple must have exactly {nout} entries: one per ufunc output")
    if all(o is None for o in out):
        return None
    for o in out:
        if not isinstance(o, ndarray):
            raise TypeError("return arrays must be of ArrayType")
    return out


def _to_compute(t, flip):
    c = _dtypes.compute_dtype(t.dtype)
    if t.dtype == torch.uint64:
        t = t.view(torch.int64)
        return t ^ _SIGN_BIT if flip else t
    return t.to(c) if c != t.dtype else t


def _scalar_operand(v, d, flip, device):
    """A Python scalar as a 0-D tensor in the loop's compute dtype (uint64: its int64 bit pattern)."""
    t = torch.scalar_tensor(v, dtype=_dtypes.compute_dtype(_dtypes.to_torch(d)), device=device)
    return t ^ _SIGN_BIT if flip and d == _np.uint64 else t


def _weak_scalar(v, d, name, ops, i, want):
    """A Python scalar operand at loop dtype ``d``: NumPy 2 raises for out-of-range Python ints."""
    if type(v) is builtins.int and d.kind in "iu":
        info = _np.iinfo(d)
        if not info.min <= v <= info.max:
            if name in _COMPARISONS:
                raise UnsupportedFeature(f"comparison of {d} with out-of-range Python int")
            raise OverflowError(f"Python integer {v} out of bounds for {d}")
        if d == _np.uint64 and v >= 2**63:
            v -= 2**64
    if type(v) is builtins.float and d.kind in "iub":
        return v
    if type(v) is builtins.complex and d.kind != "c":
        v = v.real
    return v


# ------------------------------------------------------------------------------ kernels


def _int_safe_divmod(kind):
    """Integer division by zero gives 0 in NumPy (with a warning); torch raises.  Floats go straight through."""
    def k(a, b):
        if isinstance(a, torch.Tensor) and (a.is_floating_point() or a.is_complex()):
            if kind == "floor":
                return _float_floor_divide(a, b)
            return _float_remainder(a, b)
        if isinstance(a, torch.Tensor) and a.dtype == torch.bool:
            a = a.to(torch.int8)
            b = b.to(torch.int8) if isinstance(b, torch.Tensor) else b
            r = k(a, b)
            return r.to(torch.bool)
        zero = b == 0
        safe = torch.where(zero, torch.ones_like(b), b) if isinstance(b, torch.Tensor) else (b or 1)
        r = torch.div(a, safe, rounding_mode="floor") if kind == "floor" else torch.remainder(a, safe)
        return torch.where(zero, torch.zeros_like(r), r) if isinstance(b, torch.Tensor) or b == 0 else r
    return k


def _float_floor_divide(a, b):
    # NumPy: floor_divide(a, b) = (a - remainder(a, b)) / b rounded; torch's floor rounding agrees except for
    # division by zero, where NumPy gives a/b (inf or nan).
    r = torch.div(a, b, rounding_mode="floor")
    if isinstance(b, torch.Tensor):
        return torch.where(b == 0, a / b, r)
    return a / b if b == 0 else r


def _float_remainder(a, b):
    r = torch.remainder(a, b)
    if isinstance(b, torch.Tensor):
        return torch.where(torch.isinf(b) & torch.isfinite(a) & (a != 0) & ((a < 0) != (b < 0)), b, r)
    return r


def _divmod(a, b):
    return _int_safe_divmod("floor")(a, b), _int_safe_divmod("rem")(a, b)


def _power(a, b):
    if not (a.is_floating_point() or a.is_complex()):
        if a.dtype == torch.bool:
            return torch.pow(a.to(torch.int8), b.to(torch.int8)).to(torch.bool)
        if not _is_tracing(a) and builtins.bool((b < 0).any()):
            raise ValueError("Integers to negative integer powers are not allowed.")
    return torch.pow(a, b)


def _is_tracing(t):
    from torch._subclasses.fake_tensor import is_fake

    return is_fake(t) or torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.PROXY) is not None \
        or isinstance(t, torch.SymInt)


def _sign(a):
    if a.is_complex():
        return torch.sgn(a)
    if a.dtype == torch.bool:
        return a
    return torch.where(torch.isnan(a), a, torch.sign(a)) if a.is_floating_point() else torch.sign(a)


def _cbrt(a):
    return torch.sign(a) * torch.abs(a).pow(1.0 / 3.0)


def _shift(left):
    def k(a, b):
        bits = a.element_size() * 8
        big = b >= bits
        safe_b = torch.where(big, torch.zeros_like(b), b)
        r = torch.bitwise_left_shift(a, safe_b) if left else torch.bitwise_right_shift(a, safe_b)
        fill = torch.zeros_like(r) if left or not a.is_signed() else torch.where(a < 0, -torch.ones_like(r),
                                                                                 torch.zeros_like(r))
        return torch.where(big | (b < 0), fill, r)
    return k


def _modf(a):
    i = torch.trunc(a)
    f = torch.where(torch.isinf(a), torch.copysign(torch.zeros_like(a), a), a - i)
    return f, i


def _frexp(a):
    m, e = torch.frexp(a)
    return m, e.to(torch.int32)


def _spacing(a):
    inf = torch.full_like(a, math.inf)
    return torch.nextafter(a, torch.where(torch.signbit(a), -inf, inf)) - a


def _reciprocal(a):
    if a.is_floating_point() or a.is_complex():
        return torch.reciprocal(a)
    if a.dtype == torch.bool:
        return torch.ones_like(a)
    return torch.where(a == 0, torch.zeros_like(a), torch.div(torch.ones_like(a), torch.where(a == 0, 1, a),
                                                              rounding_mode="trunc"))


def _bitwise_count(a):
    x = a.to(torch.int64).abs() if a.is_signed() else a.to(torch.int64)
    n = torch.zeros_like(x, dtype=torch.uint8)
    for k in range(a.element_size() * 8):
        n = n + ((x >> k) & 1).to(torch.uint8)
    return n


def _logaddexp2(a, b):
    return torch.logaddexp2(a, b)


def _square(a):
    return a * a if a.dtype != torch.bool else a


def _heaviside(a, b):
    return torch.where(torch.isnan(a), a, torch.heaviside(a, b.expand_as(a) if b.ndim == 0 else b)
                       if a.shape == torch.broadcast_shapes(a.shape, b.shape) else torch.heaviside(
                           a.expand(torch.broadcast_shapes(a.shape, b.shape)), b))


def _ldexp(a, b):
    return torch.ldexp(a, b).to(a.dtype)


def _isnat(a):
    raise UnsupportedFeature("isnat (datetime64)")


def _bool_int8(f):
    """Kernels torch lacks for bool: run on int8 and return to bool (loop operands share one dtype)."""
    def k(a, *rest):
        if a.dtype is not torch.bool:
            return f(a, *rest)
        return f(a.to(torch.int8), *(x.to(torch.int8) if isinstance(x, torch.Tensor) else x for x in rest)
                 ).to(torch.bool)
    return k


def _float_only(f, floor_like=False):
    """Rounding ufuncs are identity on integers (NumPy keeps the integer dtype)."""
    def k(a):
        if a.is_floating_point() or a.is_complex():
            return f(a)
        return a.clone()
    return k


def _matmul(a, b):
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
                         "signature (n?,k),(k,m?)->(n?,m?) requires 1)")
    if a.shape[-1] != (b.shape[-2] if b.ndim > 1 else b.shape[0]):
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n?,k),(k,m?)->(n?,m?) (size {b.shape[-2] if b.ndim > 1 else b.shape[0]} is different "
                         f"from {a.shape[-1]})")
    if a.dtype == torch.bool or (a.device.type != "cpu" and not (a.is_floating_point() or a.is_complex())):
        from ._products import matmul_exact  # no exact torch kernel: bool, integers off the CPU

        return matmul_exact(a, b)
    return a @ b


def _vecdot(a, b):
    return (torch.conj(a) * b).sum(-1) if a.is_complex() else (_bool_mul(a, b)).sum(-1).to(a.dtype)


def _bool_mul(a, b):
    return a & b if a.dtype == torch.bool else a * b


def _matvec(a, b):
    return _matmul(a, b.unsqueeze(-1)).squeeze(-1)


def _vecmat(a, b):
    if a.is_complex():
        a = torch.conj(a)
    return _matmul(a.unsqueeze(-2), b).squeeze(-2)


def _logical(f):
    return lambda *args: f(*(x if isinstance(x, torch.Tensor) else torch.tensor(x) for x in args))


def _fmax(a, b):
    return torch.fmax(a, b) if not a.is_complex() else torch.where(torch.isnan(b) | (a.real > b.real) | (
        (a.real == b.real) & (a.imag >= b.imag)), a, b)


def _lexicographic(f, greater, nan_from_first):
    """maximum/minimum/fmin on complex numbers: NumPy orders them by (real, imag); NaN comes from the first
    operand (maximum, minimum) or is ignored in favour of the other (fmin)."""
    def k(a, b):
        if not a.is_complex():
            return f(a, b)
        x, y = (a, b) if greater else (b, a)
        first = (x.real > y.real) | ((x.real == y.real) & (x.imag >= y.imag))
        return torch.where(first | (torch.isnan(a) if nan_from_first else torch.isnan(b)), a, b)
    return k


def _copysign(a, b):
    return torch.copysign(a, b)


def _rad(a):
    return torch.deg2rad(a)


def _deg(a):
    return torch.rad2deg(a)


def _hypot(a, b):
    return torch.hypot(a, b)


def _gcd(a, b):
    if a.dtype == torch.bool:
        return torch.gcd(a.to(torch.int8), b.to(torch.int8)).to(torch.bool)
    return torch.gcd(a, b)


def _lcm(a, b):
    return torch.abs(torch.lcm(a, b))


def _sqrt(a):
    return torch.sqrt(a)


def _positive(a):
    return a.clone()


def _abs(a):
    return torch.abs(a) if a.dtype != torch.bool else a.clone()


def _negative(a):
    if a.dtype == torch.bool:
        raise TypeError("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
                        "or the logical_not function instead.")
    return torch.neg(a)


def _exp2(a):
    return torch.exp2(a)


_KERNELS = {
    # arithmetic
    "add": (_bool_int8(torch.add), True),
    "subtract": (torch.sub, True),
    "multiply": (_bool_int8(torch.mul), True),
    "divide": (torch.true_divide, True),
    "floor_divide": (_int_safe_divmod("floor"), True),
    "remainder": (_int_safe_divmod("rem"), True),
    "fmod": (lambda a, b: torch.fmod(a, torch.where(b == 0, 1, b)) * (b != 0)
             if not a.is_floating_point() else torch.fmod(a, b), False),
    "divmod": (_divmod, True),
    "power": (_power, False),
    "float_power": (torch.pow, True),
    "negative": (_negative, False),
    "positive": (_positive, False),
    "absolute": (_abs, False),
    "fabs": (torch.abs, False),
    "sign": (_sign, False),
    "conjugate": (lambda a: torch.conj_physical(a) if a.is_complex() else a.clone(), False),
    "square": (_square, False),
    "reciprocal": (_reciprocal, False),
    "sqrt": (_sqrt, False),
    "cbrt": (_cbrt, False),
    "gcd": (_gcd, False),
    "lcm": (_lcm, False),
    "heaviside": (_heaviside, False),
    # exponents and logarithms
    "exp": (torch.exp, False), "exp2": (_exp2, False), "expm1": (torch.expm1, False),
    "log": (torch.log, False), "log2": (torch.log2, False), "log10": (torch.log10, False),
    "log1p": (torch.log1p, False), "logaddexp": (torch.logaddexp, False), "logaddexp2": (_logaddexp2, False),
    # trigonometry
    "sin": (torch.sin, False), "cos": (torch.cos, False), "tan": (torch.tan, False),
    "arcsin": (torch.asin, False), "arccos": (torch.acos, False), "arctan": (torch.atan, False),
    "arctan2": (torch.atan2, False), "hypot": (_hypot, False),
    "sinh": (torch.sinh, False), "cosh": (torch.cosh, False), "tanh": (torch.tanh, False),
    "arcsinh": (torch.asinh, False), "arccosh": (torch.acosh, False), "arctanh": (torch.atanh, False),
    "deg2rad": (_rad, False), "radians": (_rad, False), "rad2deg": (_deg, False), "degrees": (_deg, False),
    # rounding
    "rint": (_float_only(torch.round), False), "floor": (_float_only(torch.floor), False),
    "ceil": (_float_only(torch.ceil), False), "trunc": (_float_only(torch.trunc), False),
    # floating point
    "isfinite": (torch.isfinite, False), "isinf": (torch.isinf, False), "isnan": (torch.isnan, False),
    "isnat": (_isnat, False), "signbit": (torch.signbit, False), "copysign": (_copysign, False),
    "nextafter": (torch.nextafter, False), "spacing": (_spacing, False), "modf": (_modf, False),
    "frexp": (_frexp, False), "ldexp": (_ldexp, False),
    # bits
    "bitwise_and": (torch.bitwise_and, True), "bitwise_or": (torch.bitwise_or, True),
    "bitwise_xor": (torch.bitwise_xor, True), "invert": (torch.bitwise_not, False),
    "left_shift": (_shift(True), False), "right_shift": (_shift(False), False),
    "bitwise_count": (_bitwise_count, False),
    # logic and comparison
    "logical_and": (torch.logical_and, False), "logical_or": (torch.logical_or, False),
    "logical_xor": (torch.logical_xor, False), "logical_not": (torch.logical_not, False),
    "equal": (torch.eq, True), "not_equal": (torch.ne, True), "less": (torch.lt, True),
    "less_equal": (torch.le, True), "greater": (torch.gt, True), "greater_equal": (torch.ge, True),
    "maximum": (_bool_int8(_lexicographic(torch.maximum, True, True)), False),
    "minimum": (_bool_int8(_lexicographic(torch.minimum, False, True)), False),
    "fmax": (_bool_int8(_fmax), False), "fmin": (_bool_int8(_lexicographic(torch.fmin, False, False)), False),
    # linear algebra gufuncs
    "matmul": (_matmul, False), "vecdot": (_vecdot, False), "matvec": (_matvec, False),
    "vecmat": (_vecmat, False),
}

# NumPy's aliases share one ufunc object with NumPy's own name.
_ALIASES = {"abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
            "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh", "bitwise_invert": "invert",
            "bitwise_not": "invert", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
            "conj": "conjugate", "mod": "remainder", "pow": "power", "true_divide": "divide"}

UFUNCS = {}
for _name, (_kernel, _scalar_ok) in _KERNELS.items():
    UFUNCS[_name] = ufunc(getattr(_np, _name), _kernel, _scalar_ok)
for _alias, _target in _ALIASES.items():
    UFUNCS[_alias] = UFUNCS[_target]
# radians/degrees are separate NumPy objects with their own names
globals().update(UFUNCS)
__all__ = sorted(UFUNCS) + ["ufunc"]
