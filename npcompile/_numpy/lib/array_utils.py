"""``numpy.lib.array_utils``: axis normalization with NumPy's exceptions, and an array's memory bounds."""

from __future__ import annotations

import operator

from numpy.exceptions import AxisError

from .._creation import asarray

__all__ = ["byte_bounds", "normalize_axis_index", "normalize_axis_tuple"]


def normalize_axis_index(axis, ndim, msg_prefix=None):
    """``axis`` in ``range(ndim)`` (negative ones counted from the end), else NumPy's AxisError."""
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim, msg_prefix)
    return axis % ndim


def normalize_axis_tuple(axis, ndim, argname=None, allow_duplicate=False):
    """An axis or sequence of axes as a tuple of normalized ones; repeats are a ValueError unless allowed."""
    if type(axis) not in (tuple, list):
        try:
            axis = [operator.index(axis)]
        except TypeError:
            pass
    r = tuple(normalize_axis_index(a, ndim, argname) for a in axis)
    if not allow_duplicate and len(set(r)) != len(r):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    return r


def byte_bounds(a):
    """(first byte, one past the last byte) of the memory ``a`` spans, as addresses: the tensor's."""
    t = asarray(a).tensor
    size = t.element_size()
    low = high = t.data_ptr()
    for n, s in zip(t.shape, t.stride()):
        if n == 0:
            return low, low
        if s < 0:
            low += (n - 1) * s * size
        else:
            high += (n - 1) * s * size
    return low, high + size
