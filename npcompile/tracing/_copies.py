"""Array arguments with negative strides (``f(a[::-1])``, ``f(np.flip(a))``): compiled on a copy of each.

torch cannot view memory with negative strides, so such an argument enters the compiled code as one dense copy
(``a.copy(order="K")``: ``a``'s axis order with positive strides, so that a C- or Fortran-ordered ``a`` gives a
copy of the same order, and layout-dependent results such as ``ravel("K")`` or ``empty_like`` keep NumPy's
layout).  NumPy's semantics around it:

* Writes.  After a call that ran Dynamo's cached graphs directly (``_fast_path``: nothing but compiled
  graphs), the copy is written back into the caller's array when the graphs updated it (its version counter
  moved; every backend bumps it for an in-place update), and only then.  A call through Dynamo's frame hook
  (the first, a recompile, a function with a graph break, a frame Dynamo runs uncompiled) may also run code in
  real NumPy, which writes into the copy without moving the counter: there the copy is compared with a
  snapshot taken before the call, and the elements that changed are written back.
* Results that view the argument.  A view of the copy whose elements lie at regular steps in the caller's
  array (slices, transposes, diagonals, dtype views, ``reshape``s that NumPy makes as views) comes back as
  that view of the caller's array, as NumPy returns it; any other is an array of its own (``_compile`` keeps
  it on the copy's memory), as NumPy's result is a copy there too.  (What NumPy decides by the argument's own
  layout, such as whether ``ravel`` copies, follows the copy's layout: a README deviation.)
* Aliasing.  An argument that shares memory with another argument (``f(a, a[::-1])``, also inside a list or
  dict argument, or the same array passed twice) is not copied, since a write through one would not be seen
  through the other: Dynamo cannot take the array and the whole call runs in real NumPy.  Read-only arrays
  with negative strides are left to Dynamo the same way (NumPy raises on writes into them).
"""

from __future__ import annotations

import numpy as np
import torch

_ndarray = np.ndarray


def shares_memory(a, args, kwargs) -> bool:
    """Whether ``a`` (one of the arguments) may share memory with any other argument, nested ones included."""
    seen = False
    todo = [*args, *kwargs.values()]
    while todo:
        x = todo.pop()
        if x is a:
            if seen:
                return True
            seen = True
        elif isinstance(x, _ndarray):
            if np.may_share_memory(a, x):
                return True
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
    return False


class Copies:
    """The caller's arrays with negative strides, the copies the graphs run on, and their write-back.

    ``device``: the ``_devices.Moved`` of the call under a device context, copied back first (into the copies
    among others).  ``snapshots``: the copies' contents before a call through Dynamo's frame hook.
    """

    __slots__ = ("arrays", "copies", "versions", "device", "snapshots", "_groups")

    def __init__(self):
        self.arrays = []
        self.copies = []
        self.versions = []
        self.device = None
        self.snapshots = None
        self._groups = {}

    def add(self, a, args, kwargs):
        """The tensor that stands in for ``a``, or None where ``a`` shares memory with another argument."""
        if shares_memory(a, args, kwargs):
            return None
        t = torch.from_numpy(a.copy(order="K"))
        self.arrays.append(a)
        self.copies.append(t)
        self.versions.append(t._version)
        return t

    def snapshot(self) -> None:
        self.snapshots = [t.numpy().copy(order="K") for t in self.copies]

    def copy_back(self) -> None:
        if self.device is not None:
            self.device.copy_back()
        for k, (a, t, v) in enumerate(zip(self.arrays, self.copies, self.versions)):
            if self.snapshots is not None:
                c = t.numpy()
                np.copyto(a, c, where=_differs(c, self.snapshots[k]))
            elif t._version != v:
                np.copyto(a, t.numpy())

    def holds(self, t) -> bool:
        return any(c is t for c in self.copies)

    def place(self, copy, addr: int, shape, strides, itemsize: int):
        """Where a view of ``copy`` (first element at ``addr``; ``strides`` in elements of ``itemsize`` bytes)
        lies in the caller's array: ``(address, byte strides)``, or None where its elements are not at regular
        steps there.  Worked in bytes, so that views of another element size (``a.real``, ``a.view(np.int32)``)
        map too, each element's bytes as one more axis of step 1."""
        k = next(i for i, c in enumerate(self.copies) if c is copy)
        a = self.arrays[k]
        groups = self._groups.get(k)
        if groups is None:
            groups = self._groups[k] = _groups(a, copy.numpy())
        off = addr - copy.data_ptr()
        reach = [off // step % n for n, step, _ in groups]  # the view's first index, then its last, per group
        ptr = a.__array_interface__["data"][0] + sum(i * s for i, (_, _, s) in zip(reach, groups))
        out = []
        for size, stride in (*zip(shape, (s * itemsize for s in strides)), (itemsize, 1)):
            w = 0
            if size > 1:
                for g, (n, step, s) in enumerate(groups):  # the stride as a step in (mixed-radix) index space
                    q, stride = divmod(stride, step)
                    reach[g] += (size - 1) * q
                    w += q * s
                if stride:
                    return None
            out.append(w)
        if any(r >= n for r, (n, _, _) in zip(reach, groups)):
            return None  # a step would carry into an outer index: no regular step in the caller's array
        if itemsize > 1 and out[-1] != 1:
            return None  # an element's bytes are not together in the caller's array
        return ptr, tuple(out[:-1])


def _groups(a, c) -> list:
    """``a``'s axes (length > 1) in the copy's memory order, outer first, then the bytes of an element, adjacent
    ones merged where ``a``'s memory steps merge too: ``(length, the copy's step, a's step)`` each, in bytes."""
    out = []
    axes = sorted((m for m in range(a.ndim) if a.shape[m] > 1), key=lambda m: -c.strides[m])
    for n, step, s in (*((a.shape[m], c.strides[m], a.strides[m]) for m in axes), (a.itemsize, 1, 1)):
        if out and out[-1][2] == s * n:
            out[-1] = (out[-1][0] * n, step, s)
        else:
            out.append((n, step, s))
    return out


def _differs(x, y):
    """Where two arrays of one dtype and layout differ bitwise (a NaN equals itself, -0.0 differs from 0.0)."""
    if x.dtype.kind == "c":
        return _differs(x.real, y.real) | _differs(x.imag, y.imag)
    u = np.dtype(f"u{x.itemsize}")
    return x.view(u) != y.view(u)
