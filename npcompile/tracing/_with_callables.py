"""NumPy functions that call a Python function the user passes (``fromfunction``, ``apply_along_axis``,
``apply_over_axes``, ``piecewise``, ``vectorize``), written in NumPy for Dynamo to trace through.

Why: a NumPy call is one graph node calling the shim's function, and a node's arguments cannot hold a Python
function made in the traced code (a lambda, a closure over traced arrays): the whole call ran in real NumPy.
Traced through instead, the user's function is inlined where NumPy calls it, on the arrays NumPy gives it, in
NumPy's order.  ``apply_along_axis`` calls it once per slice, so it is traced through only over at most
``MAX_CALLS`` slices (the trace grows with them); beyond, it runs in real NumPy as before.  ``piecewise`` skips
a function where its condition selects nothing (a test on the data), so it is traced through only when every
function is ``elementwise``: called on an empty selection, such a function changes nothing.  ``vectorize`` calls
it once per element, on Python scalars: it is traced as one call on whole arrays where that computes the same
(``vectorize_plan``).
"""

import dis
import inspect
import itertools
import math
import types

import numpy as np
import torch

MAX_CALLS = 64
ELEMENTWISE = "elementwise"  # what traced_through's ``static`` gives for an ``elementwise`` function


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    return function(*np.indices(shape, dtype=dtype), **kwargs)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = np.asarray(arr)
    nd = arr.ndim
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension {nd}")
    axis %= nd
    moved = np.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    slices = itertools.product(*[range(n) for n in outer])
    first = next(slices)
    res = np.asarray(func1d(moved[first], *args, **kwargs))
    out = np.empty(outer + res.shape, res.dtype)  # later results are cast and broadcast into the first one's
    out[first] = res
    for ind in slices:
        out[ind] = np.asarray(func1d(moved[ind], *args, **kwargs))
    r, k = res.ndim, len(outer)
    return np.transpose(out, list(range(axis)) + list(range(k, k + r)) + list(range(axis, k)))


def apply_over_axes(func, a, axes):
    val = np.asarray(a)
    n = a.ndim
    for axis in (axes if isinstance(axes, (list, tuple)) else (axes,)):
        axis = axis + n if axis < 0 else axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = np.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def piecewise(x, condlist, funclist):
    """NumPy's ``piecewise`` for conditions shaped as ``x`` and ``elementwise`` functions (see _dynamo_patch)."""
    n, n2 = len(condlist), len(funclist)
    condlist = [np.asarray(c, dtype=bool) for c in condlist]  # (as NumPy reads them: 1 and 2.5 select)
    if n == n2 - 1:
        condlist.append(~np.any(np.stack(condlist), axis=0))
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = np.zeros_like(x)
    for cond, func in zip(condlist, funclist):
        y[cond] = func(x[cond]) if callable(func) else func
    return y


# What an ``elementwise`` function's code may do: load its arguments, numbers and NumPy ufuncs, compute with
# operators, call, return (the opcodes of Python 3.11 to 3.13 for that).
_ELEMENTWISE_OPS = frozenset({"RESUME", "NOP", "CACHE", "LOAD_CONST", "LOAD_FAST", "LOAD_FAST_CHECK",
                              "LOAD_FAST_LOAD_FAST", "BINARY_OP", "UNARY_NEGATIVE", "UNARY_INVERT", "PUSH_NULL",
                              "PRECALL", "CALL", "RETURN_VALUE", "RETURN_CONST", "LOAD_GLOBAL", "LOAD_ATTR"})
_NUMBERS = (int, float, complex, bool)
_SCALAR_SAFE = frozenset({"+", "-", "*", "+=", "-=", "*="})  # operators no Python float raises in


def elementwise(code, f_globals, nargs=1, scalars=False) -> bool:
    """Whether a function of ``nargs`` arguments only computes with operators (not ``@``) on its arguments and
    numbers, and calls NumPy ufuncs (``np.sin``): on an empty array it gives an empty array or a number and raises
    nothing.  With ``scalars`` (``vectorize`` calls it on Python floats), only as float64 arrays compute and without
    raising where they do not (``x / 0`` and ``x ** 2`` raise on Python floats): with ``+ - *``, ``/`` by a nonzero
    number and ufuncs of one result, giving a number (not None)."""
    if code.co_argcount != nargs or code.co_freevars or code.co_cellvars or code.co_kwonlyargcount \
            or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR):
        return False
    module = False  # the instruction before loaded the numpy module
    before = None  # the instruction before
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op not in _ELEMENTWISE_OPS or module and op != "LOAD_ATTR" or scalars and op == "UNARY_INVERT":
            return False
        if op in ("LOAD_CONST", "RETURN_CONST") and \
                not (type(ins.argval) in _NUMBERS or ins.argval is None and not scalars):
            return False
        if op == "BINARY_OP" and ("@" in ins.argrepr or scalars and ins.argrepr not in _SCALAR_SAFE and not (
                ins.argrepr in ("/", "/=") and before.opname == "LOAD_CONST" and before.argval != 0)):
            return False
        if op == "LOAD_GLOBAL":
            v = f_globals.get(ins.argval)
            if v is not np and not _ufunc(v, scalars):
                return False
            module = v is np
        elif op == "LOAD_ATTR":
            if not module or not _ufunc(getattr(np, ins.argval, None), scalars):
                return False
            module = False
        before = ins
    return True


def _ufunc(v, scalars):
    """Whether an ``elementwise`` function may call ``v``: a ufunc, with ``scalars`` one of one result that has a
    float64 loop (it computes on Python floats)."""
    return isinstance(v, np.ufunc) and (not scalars or v.nout == 1 and any(
        t.startswith("d" * v.nin + "->") for t in v.types))


def _erf(x):
    return torch.special.erf(torch.from_numpy(x)).numpy()


def _erfc(x):
    return torch.special.erfc(torch.from_numpy(x)).numpy()


# ``math`` functions that raise on no float, and their counterparts on float64 arrays: a function, or a NumPy ufunc's
# name (math.exp, log, sqrt, sin, gamma... raise ValueError or OverflowError on some floats where NumPy gives inf
# or nan: they are not traced).
MATH = {math.erf: _erf, math.erfc: _erfc, math.atan: "arctan", math.atan2: "arctan2", math.tanh: "tanh",
        math.asinh: "arcsinh", math.fabs: "fabs", math.copysign: "copysign", math.degrees: "degrees",
        math.radians: "radians", math.isnan: "isnan", math.isinf: "isinf", math.isfinite: "isfinite"}

# The ``otypes`` (type chars) that NumPy's loop converts each call's Python result to as an array of the results
# (by their dtype kind: bool, int64, float64, complex128) casts to them: not float to integer (int() raises on
# nan), nor complex to real (float() raises).
_CASTS = {"b": "?lefdFD", "i": "?lefdFD", "f": "?efdFD", "c": "FD"}


def vectorizable(pyfunc) -> bool:
    """Whether ``np.vectorize(pyfunc)`` may be traced (``vectorize_plan`` decides per call)."""
    if isinstance(pyfunc, types.FunctionType):
        code = pyfunc.__code__
        return elementwise(code, pyfunc.__globals__, code.co_argcount, scalars=True)
    return type(pyfunc) is types.BuiltinFunctionType and pyfunc in MATH


def vectorize_plan(pyfunc, otypes, dtypes, empty):
    """How ``np.vectorize(pyfunc, otypes=otypes)`` called on arrays of ``dtypes`` (``empty``: one has no elements)
    is traced: (the function giving all its calls' results at once from the arrays as float64, the result's type
    char), or None where that would not give NumPy's answer.  NumPy calls ``pyfunc`` per element on Python
    scalars, a float32 or integer element becoming a Python float for math (an integer stays one in Python's
    arithmetic: not traced), and converts the results to ``otypes`` or, without them, to the type of its result on
    the first elements as NumPy scalars (so none without elements: NumPy's ValueError)."""
    if not vectorizable(pyfunc) or empty and otypes is None:
        return None
    python = isinstance(pyfunc, types.FunctionType)
    func, kinds = (pyfunc, "f") if python else (MATH[pyfunc], "biuf")
    if not dtypes or any(d.kind not in kinds or d.char == "g" for d in dtypes) or \
            python and pyfunc.__code__.co_argcount != len(dtypes):  # (not one of its defaults)
        return None
    try:
        with np.errstate(all="ignore"):
            first = np.asarray(pyfunc(*[np.zeros(1, d)[0] for d in dtypes])).dtype
            each = np.asarray(pyfunc(*[0.0] * len(dtypes))).dtype
    except Exception:  # (a math function given another number of arguments: NumPy's TypeError)
        return None
    otype = otypes or first.char
    return (func, otype) if len(otype) == 1 and otype in _CASTS.get(each.kind, "") else None


def vectorize_call(func, otype, *args):
    """``np.vectorize``'s call as ``vectorize_plan`` traces it: ``func`` on the arguments as float64 arrays, broadcast
    as NumPy's loop broadcasts them (a result may not depend on every argument), cast to ``otype`` (a copy: an
    array, 0-d too, as NumPy's; not ``astype``, whose 0-d result the shim takes for a scalar)."""
    func = getattr(np, func) if isinstance(func, str) else func
    arrays = [np.asarray(a) for a in args]
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    return np.array(np.broadcast_to(func(*[a.astype(np.float64) for a in arrays]), shape), dtype=otype)


THROUGH = (np.fromfunction, np.apply_along_axis, np.apply_over_axes, np.piecewise)


def traced_through(np_function, nargs, static):
    """The version of ``np_function`` to trace through, or None.  ``static(i)``: the ``i``-th positional argument's
    shape (an array) or value (a constant) as the trace fixes it, or None where the data decides it."""
    if np_function is np.fromfunction:
        return fromfunction
    if np_function is np.apply_over_axes:
        return apply_over_axes
    if np_function is np.piecewise and nargs == 3:
        shape, conds, funcs = static(0), static(1), static(2)
        if isinstance(shape, tuple) and shape and isinstance(conds, list) and all(c == shape for c in conds) \
                and isinstance(funcs, list) and all(f is ELEMENTWISE or type(f) in (int, float) for f in funcs):
            return piecewise
        return None
    if np_function is np.apply_along_axis and nargs >= 3:
        shape, axis = static(2), static(1)
        if isinstance(shape, tuple) and type(axis) is int and -len(shape) <= axis < len(shape):
            shape = [int(n) for n in shape]  # (sizes Dynamo made symbolic: fixed, guarded, for the unrolled calls)
            del shape[axis]
            return apply_along_axis if math.prod(shape) <= MAX_CALLS else None
    return None
