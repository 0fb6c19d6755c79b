"""NumPy functions that call a Python function the user passes (``fromfunction``, ``apply_along_axis``,
``apply_over_axes``), written in NumPy for Dynamo to trace through.

Why: a NumPy call is one graph node calling the shim's function, and a node's arguments cannot hold a Python
function made in the traced code (a lambda, a closure over traced arrays): the whole call ran in real NumPy.
Traced through instead, the user's function is inlined where NumPy calls it, on the arrays NumPy gives it, in
NumPy's order.  ``apply_along_axis`` calls it once per slice, so it is traced through only over at most
``MAX_CALLS`` slices (the trace grows with them); beyond, it runs in real NumPy as before.
"""

import itertools
import math

import numpy as np

MAX_CALLS = 64


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


THROUGH = (np.fromfunction, np.apply_along_axis, np.apply_over_axes)


def traced_through(np_function, nargs, static):
    """The version of ``np_function`` to trace through, or None.  ``static(i)``: the ``i``-th positional argument's
    shape (an array) or value (a constant) as the trace fixes it, or None where the data decides it."""
    if np_function is np.fromfunction:
        return fromfunction
    if np_function is np.apply_over_axes:
        return apply_over_axes
    if np_function is np.apply_along_axis and nargs >= 3:
        shape, axis = static(2), static(1)
        if isinstance(shape, tuple) and type(axis) is int and -len(shape) <= axis < len(shape):
            shape = list(shape)
            del shape[axis]
            return apply_along_axis if math.prod(shape) <= MAX_CALLS else None
    return None
