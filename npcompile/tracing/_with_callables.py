"""NumPy functions that call a Python function the user passes (``fromfunction``, ``apply_along_axis``,
``apply_over_axes``, ``piecewise``), written in NumPy for Dynamo to trace through.

Why: a NumPy call is one graph node calling the shim's function, and a node's arguments cannot hold a Python
function made in the traced code (a lambda, a closure over traced arrays): the whole call ran in real NumPy.
Traced through instead, the user's function is inlined where NumPy calls it, on the arrays NumPy gives it, in
NumPy's order.  ``apply_along_axis`` calls it once per slice, so it is traced through only over at most
``MAX_CALLS`` slices (the trace grows with them); beyond, it runs in real NumPy as before.  ``piecewise`` skips
a function where its condition selects nothing (a test on the data), so it is traced through only when every
function is ``elementwise``: called on an empty selection, such a function changes nothing.
"""

import dis
import inspect
import itertools
import math

import numpy as np

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


# What an ``elementwise`` function's code may do: load its argument, numbers and NumPy ufuncs, compute with
# operators, call, return (the opcodes of Python 3.11 to 3.13 for that).
_ELEMENTWISE_OPS = frozenset({"RESUME", "NOP", "CACHE", "LOAD_CONST", "LOAD_FAST", "LOAD_FAST_CHECK",
                              "LOAD_FAST_LOAD_FAST", "BINARY_OP", "UNARY_NEGATIVE", "UNARY_INVERT", "PUSH_NULL",
                              "PRECALL", "CALL", "RETURN_VALUE", "RETURN_CONST", "LOAD_GLOBAL", "LOAD_ATTR"})


def elementwise(code, f_globals) -> bool:
    """Whether a one-argument function only computes with operators (not ``@``) on its argument and numbers, and
    calls NumPy ufuncs (``np.sin``): on an empty array it gives an empty array or a number and raises nothing."""
    if code.co_argcount != 1 or code.co_freevars or code.co_cellvars or code.co_kwonlyargcount \
            or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR):
        return False
    module = False  # the instruction before loaded the numpy module
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op not in _ELEMENTWISE_OPS or module and op != "LOAD_ATTR":
            return False
        if op in ("LOAD_CONST", "RETURN_CONST") and type(ins.argval) not in (int, float, complex, bool, type(None)):
            return False
        if op == "BINARY_OP" and "@" in ins.argrepr:
            return False
        if op == "LOAD_GLOBAL":
            v = f_globals.get(ins.argval)
            if v is not np and not isinstance(v, np.ufunc):
                return False
            module = v is np
        elif op == "LOAD_ATTR":
            if not module or not isinstance(getattr(np, ins.argval, None), np.ufunc):
                return False
            module = False
    return True


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
