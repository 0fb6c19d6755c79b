"""``numpy.lib.stride_tricks``: windowed views.  Torch's ``unfold`` gives the same view NumPy builds from strides
(each window dim steps as its axis does), so a convolution written with ``sliding_window_view`` stays in the graph;
``as_strided`` is torch's own, on the array's element strides."""

from __future__ import annotations

import operator

from ..._errors import UnsupportedFeature
from .._creation import asarray
from .._ndarray import view_of
from .._normalize import normalize_axis_tuple

__all__ = ["as_strided", "sliding_window_view"]


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of ``window_shape`` along ``axis`` (all axes when None), as a view (read-only unless
    ``writeable``): the windowed axes shrink to ``n - w + 1`` and the window dims come last, in ``axis`` order
    (an axis named twice is windowed twice)."""
    a = asarray(x)
    window = tuple(operator.index(w) for w in (window_shape if isinstance(window_shape, (tuple, list))
                                                  else (window_shape,)))
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(window) != a.ndim:
            raise ValueError(f"with axis=None, window_shape needs one entry per dimension of `x` ({a.ndim}); "
                             f"got {len(window)}")
        axes = tuple(range(a.ndim))
    else:
        axes = normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
        if len(window) != len(axes):
            raise ValueError(f"window_shape and axis must have the same length; got {len(window)} and {len(axes)}")
    t = a.tensor
    for ax, w in zip(axes, window):
        if w > t.shape[ax]:
            raise ValueError("window shape cannot be larger than input array shape")
        t = t.unfold(ax, w, 1)
    r = view_of(a, t)
    r._writeable = bool(writeable) and a._writeable
    return r


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of ``x``'s memory with the given ``shape`` and byte ``strides`` (default: ``x``'s own).  Torch
    counts strides in elements, and its views stay inside the array's storage: byte strides that are not a
    multiple of the item size, negative ones, or a view reaching past the memory (NumPy reads whatever lies
    there) are unsupported."""
    a = asarray(x)
    t = a.tensor
    shape = t.shape if shape is None else tuple(operator.index(n) for n in shape)
    strides = a.strides if strides is None else tuple(operator.index(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    size = t.element_size()
    if any(s % size or s < 0 for s in strides):
        raise UnsupportedFeature("numpy.lib.stride_tricks.as_strided with negative strides or strides that are "
                                 "not a multiple of the item size")
    span = t.storage_offset() + 1 + sum((n - 1) * s // size for n, s in zip(shape, strides))
    if 0 not in shape and span > t.untyped_storage().nbytes() // size:
        raise UnsupportedFeature("numpy.lib.stride_tricks.as_strided past the end of the array's memory")
    r = view_of(a, t.as_strided(shape, tuple(s // size for s in strides), t.storage_offset()))
    r._writeable = bool(writeable) and a._writeable
    return r
