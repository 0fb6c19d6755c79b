"""Slice writes into an array argument stay in place.

NumPy code that factors or sweeps an array in place (LU, Cholesky) writes a slice of it a few times per step:
``a[k+1:, k] = ...; a[k+1:, k+1:] -= ...``.  Functionalized, each write is a ``slice_scatter`` (``select_scatter``...)
that makes a new version of the whole array, and the last version is copied back into the argument
(``copy_(a, v2)``).  Inductor's own reinplacing turns a lone scatter back into a write, but keeps a chain
``v1 = scatter(a, ...)``, ``v2 = scatter(v1, ...)`` functional: each step then costs a pass over the whole array
and a full copy back (a 200x200 Cholesky, one thread: 60-85 ms, NumPy 6 ms; in place: 7-12 ms).

This post-grad pass runs before Inductor's reinplacing and turns such a chain, rooted at a mutated argument, into
writes into the argument, ``view(a).copy_(src)`` as NumPy does, and drops the copy back. Two things make that
unsafe in general. Inductor lowers reads and writes of ``a`` in graph order, and its ``reorder_for_locality`` has
already moved reads next to their users, possibly past a later write of what they read. And it may fuse a read into
the loop of a later write: from the second write into a buffer on, without checking that they touch the same
elements (its ``WeakDep`` check looks reads up by the buffer's first name; torch 2.13), so a read of ``a[i, :-2]``
fused into the write of ``a[i, 1:-1]`` would see elements already overwritten. So a chain is rewritten only where
every read of the array is, for each later write, either provably **disjoint** from it (index ranges per dimension
of the array: ``a[k+1:, k]`` and ``a[k+1:, k+1:]``), or placed before it and reads **the same elements**, element
by element, through elementwise ops into the source of a write (``a[k+1:, k+1:] - ...``): then any order and any
loop fusion give NumPy's values. (Before the first write, a read only needs to come first: Inductor checks the
fusion of reads into a buffer's first write correctly.) Every version must keep the argument's layout. Anything it
cannot account for (an op that is not an aten op, another mutation of the array, a view it does not model) leaves
the graph as it was. It runs on npcompile's own compiles only (``inductor_options`` installs it).

A new array built by writes gets the same treatment. ``v = np.empty_like(u); v[0] = ...; v[:, 0] = ...;
v[1:-1, 1:-1] = ...`` is a chain of scatters rooted at an uninitialized buffer, which Inductor fused into one loop
over the whole array testing every element against every write (2048x2048: 14% of the memory bandwidth); written in
place, each write is a loop over its own slice.  ``v = u.copy(); v[1:-1, 1:-1] = ...`` (the copy is folded into the
scatter: its root is ``u``) became one loop with the stencil's loads masked per element; here a large first write
(at least half the array) goes into a new buffer with only the rest of ``u`` copied around it, as 2 boxes per
dimension (a Jacobi sweep on 2048x2048: 69-80% of the matched triad -> 82-85%).  Arrays under ``_MIN_NEW`` elements,
whose loops cost less than the extra kernels, and symbolic sizes are left to Inductor.
"""

from __future__ import annotations

import math
import operator
import sys
from dataclasses import dataclass

import torch

from ._graph_pass import GraphPass, add_node, copy_into, new_buffer

aten = torch.ops.aten

# A scatter writes its source into this view of its input.
_SCATTER_VIEW = {aten.slice_scatter.default: aten.slice.Tensor, aten.select_scatter.default: aten.select.int,
                 aten.diagonal_scatter.default: aten.diagonal.default,
                 aten.as_strided_scatter.default: aten.as_strided.default}
# Reads of sizes and strides only: a write does not change them.
_META_ONLY = {aten.sym_size.int, aten.sym_stride.int, aten.sym_numel.default, aten.sym_storage_offset.default}
# Views of the same elements in another shape: their index ranges on the array are those of their input.
_SAME_ELEMENTS = {aten.view.default, aten.reshape.default, aten._unsafe_view.default, aten.squeeze.default,
                  aten.squeeze.dim, aten.squeeze.dims, aten.alias.default, aten.expand.default, aten.t.default,
                  aten.transpose.int}
_NO_END = sys.maxsize


class ReinplacePass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def run(self, graph: torch.fx.Graph) -> None:
        for node in list(graph.nodes):
            if node.op == "call_function" and node.target is aten.copy_.default and node.args[0].op == "placeholder":
                writes = _safely(_plan, node.args[0], node.args[1], node, _order(graph))
                if writes:
                    _rewrite(graph, node.args[0], writes, node)
        for node in list(graph.nodes):
            if node.users and _write(node) is not None and not _not_last(node):
                plan = _safely(_new_array_plan, node)
                if plan:
                    _rewrite(graph, *plan)


def _safely(plan, *args):
    try:
        return plan(*args)
    except Exception:  # (only reads the graph: one it cannot read, from another torch, is left as is)
        return None


def _order(graph):
    return {n: i for i, n in enumerate(graph.nodes)}


_EMPTY = {aten.empty.memory_format, aten.empty_strided.default}
_MIN_NEW = 1 << 16


def _not_last(node):
    """Whether the scatter ``node`` is not the last write of a chain: a later write takes it as its array, or it
    is a part of a write (``a[1:, 0] = ...``: the scatter into ``a[1:]`` is the source of one into ``a``)."""
    return any(user.target in _SCATTER_VIEW and (user.args[1] is node or _write(user) is not None
                                                 and _write(user).base is node) for user in node.users)


def _new_array_plan(last):
    """For the last write ``last`` of a chain making a new array: (buffer, writes) to do in place, the buffer an
    uninitialized root or a new one around the first write (see the module docstring); else None."""
    version = last
    while _write(version) is not None:
        version = _write(version).base
    root, val = version, last.meta.get("val")
    if not isinstance(val, torch.Tensor) or not isinstance(val.numel(), int) or val.numel() < _MIN_NEW:
        return None
    order = _order(last.graph)
    if root.op == "call_function" and root.target in _EMPTY:
        writes = _plan(root, last, None, order)
        return (root, writes) if writes else None
    writes = _plan(root, last, None, order, fresh=True)
    whole = [(0, size) for size in val.shape]
    box = writes and _box(whole, writes[0].views)
    if not box or 2 * _volume(box) < val.numel():
        return None
    graph = last.graph
    with graph.inserting_before(writes[0].node):
        buffer = new_buffer(graph, val)
        for part in _around(whole, box):
            views = [(aten.slice.Tensor, (d, lo, hi, 1)) for d, (lo, hi) in enumerate(part)]
            copy_into(graph, _viewed(graph, buffer, views), _viewed(graph, root, views))
    return buffer, writes


def _box(whole, views):
    """The index ranges of the view ``views`` of the array when it is all of a box (slices of step 1 and
    selects of known ints), else None."""
    if any(t not in (aten.slice.Tensor, aten.select.int) or args is None or not all(
            type(_value(a)) is int for a in args) or t is aten.slice.Tensor and args[3] != 1 for t, args in views):
        return None
    box = _region(whole, views)
    return box if box and all(type(lo) is int and type(hi) is int and lo < hi for lo, hi in box) else None


def _volume(box):
    return math.prod(hi - lo for lo, hi in box)


def _around(whole, box):
    """Boxes covering ``whole`` less ``box``: per dimension the slabs before and after it, within ``box`` in
    the dimensions before."""
    parts = []
    for d, ((lo, hi), (w_lo, w_hi)) in enumerate(zip(box, whole)):
        inner, outer = box[:d], whole[d + 1:]
        parts += [inner + [side] + outer for side in ((w_lo, lo), (hi, w_hi)) if side[0] < side[1]]
    return parts


@dataclass
class _Write:
    """``node`` = the array ``base`` with the view ``views`` (``(op, args)``, applied in order) replaced by
    ``src``."""

    node: torch.fx.Node
    base: torch.fx.Node
    views: list
    src: object
    parts: list  # the nested scatters and the views they write into: dead once the write is in place


def _write(node):
    """``node`` as a _Write when it is a (nested) scatter, else None.

    A write into ``a[1:, 0]`` is ``scatter(a, scatter(slice(a, ...), src, select...), slice...)``; the inner
    scatter is followed only where nothing else reads it."""
    if node.op != "call_function" or node.target not in _SCATTER_VIEW:
        return None
    write = _Write(node, node.args[0], [], None, [node])
    inner, base = node, node.args[0]
    while True:
        view = _view(_SCATTER_VIEW[inner.target], inner.args[2:], inner.kwargs)
        if view[1] is None:
            return None
        write.views.append(view)
        src = inner.args[1]
        into = src.args[0] if isinstance(src, torch.fx.Node) and src.target in _SCATTER_VIEW else None
        if into is None or len(src.users) != 1 or into.args[0] is not base \
                or not _same_views([_view(into.target, into.args[1:], into.kwargs)], [view]):
            write.src = src
            return write
        write.parts += [src, into]
        inner, base = src, into


def _view(target, args, kwargs):
    """A view op and its arguments, a slice's filled in, so equal views compare equal."""
    if target is aten.slice.Tensor:
        dim, start, end, step = (*args, *[None] * (4 - len(args)))
        start, end = kwargs.get("start", start), kwargs.get("end", end)
        end = _NO_END if end is None or isinstance(end, int) and end >= _NO_END else end
        return target, (kwargs.get("dim", dim or 0), start or 0, end, kwargs.get("step", step or 1))
    return target, None if kwargs else tuple(args)  # (None: not followed)


def _plan(root, last, epilogue, order, fresh=False):
    """The writes that make ``last`` from the array ``root``, first to last, when all can be done in place into
    one buffer (``epilogue``: the copy of ``last`` back into ``root``, or None); else None.  A read of the array
    must be disjoint from each later write, or come before it in ``order`` and (but for the first write) read the
    elements it writes, element by element, into the source of a write.  ``fresh``: the buffer is a new one, so
    reads of ``root`` itself do not matter."""
    if not isinstance(last, torch.fx.Node) or not isinstance(root.meta.get("val"), torch.Tensor):
        return None
    writes, version = [], last
    while version is not root:
        write = _write(version)
        if write is None or not _same_layout(version.meta.get("val"), root.meta["val"]):
            return None
        writes.append(write)
        version = write.base
    writes.reverse()
    whole = [(0, size) for size in root.meta["val"].shape]
    targets = [_region(whole, w.views) for w in writes]
    for i, version in enumerate([root] + [w.node for w in writes]):
        if fresh and i == 0:
            continue
        reads = _reads(version, epilogue, writes[i].parts if i < len(writes) else ())
        if reads is None:
            return None
        for node, views, user in reads:
            region, aligned = _region(whole, views), None
            for j, w in enumerate(writes[i:], i):
                if _disjoint(region, targets[j]):
                    continue
                if order[user] > order[w.node]:
                    return None
                if j == 0:
                    continue  # the array's first write: Inductor checks a read fused into it element by element
                aligned = _into_srcs(node, writes[i:]) if aligned is None else aligned
                if not aligned or not _same_views(views, w.views):
                    return None
    return writes


def _reads(version, epilogue, parts):
    """``(node, views, user)`` for each node aliasing ``version`` and each ``user`` that reads its values
    (``views``: the view ops from ``version`` to it), or None when something may write into it or read it in a
    way not known.  The scatters of the write into ``version`` (``parts``) read only their source."""
    chains, todo, reads = {version: []}, [version], []
    while todo:
        node = todo.pop()
        for user in node.users:
            target = user.target
            if user is epilogue or target in _META_ONLY or user in chains \
                    or user in parts and user.args[1] is not node \
                    or target is aten.copy.default and user.args[1] is not node:  # (copy takes only the layout)
                continue
            if user.op == "output":
                reads.append((node, chains[node], user))
            elif target is operator.getitem or isinstance(target, torch._ops.OpOverload) and _is_view(target):
                chains[user] = chains[node] + [_view(target, user.args[1:], user.kwargs)]
                todo.append(user)
            elif not isinstance(target, torch._ops.OpOverload) or _writes_into(user, node):
                return None
            else:
                reads.append((node, chains[node], user))
    return reads


def _into_srcs(node, writes):
    """Whether ``node``'s values go only into sources of ``writes``, through elementwise ops of its own shape:
    each of its elements is read in the loop over the elements of a write, at that element's step."""
    srcs = {w.src for w in writes}
    shape, todo, seen = node.meta["val"].shape, [node], set()
    while todo:
        n = todo.pop()
        if n in srcs and len(n.users) == 1:
            continue  # (its user: the write)
        for user in n.users:
            if user in seen or user.target is aten.copy.default and user.args[1] is not n:
                continue
            val = user.meta.get("val")
            elementwise = torch.Tag.pointwise in getattr(user.target, "tags", ()) \
                or user.target in (aten.copy.default, aten.expand.default, aten.alias.default)
            if not elementwise or not isinstance(val, torch.Tensor) or not _known_equal(val.shape, shape):
                return False
            seen.add(user)
            todo.append(user)
    return True


def _region(whole, views):
    """Index ranges ``[(lo, hi)]`` per dimension of the array holding every element of the view ``views`` of
    it (a superset where a step or a reshape is not followed), or None when not known."""
    box, dims = list(whole), list(range(len(whole)))  # dims: the array's dim for each dim of the view
    for target, args in views:
        if args is None:
            return None
        if target in (aten.slice.Tensor, aten.select.int):
            if dims is None:
                continue
            dim = args[0] % len(dims)
            d = dims[dim] if target is aten.slice.Tensor else dims.pop(dim)
            if d is not None:
                lo, hi = box[d]
                start, end = (args[1], args[2]) if target is aten.slice.Tensor else (args[1], None)
                new_lo = _at(lo, hi, start)
                new_hi = hi if end == _NO_END else _at(lo, hi, end) if end is not None else \
                    None if new_lo is None else new_lo + 1
                box[d] = (lo if new_lo is None else new_lo, hi if new_hi is None else new_hi)
        elif target is aten.unsqueeze.default:
            if dims is not None:
                dims.insert(args[0] % (len(dims) + 1), None)
        elif target is aten.permute.default:
            if dims is not None:
                dims = [dims[i] for i in args[0]]
        elif target in _SAME_ELEMENTS:
            dims = None
        else:
            return None
    return box


def _at(lo, hi, index):
    """The array index of position ``index`` of the range ``[lo, hi)`` (negative: from its end), or None when
    the sign of a symbolic index is not known."""
    index = _value(index)
    if isinstance(index, int):
        return lo + index if index >= 0 else hi + index
    if _known(index >= 0):
        return lo + index
    return None


def _disjoint(a, b):
    return a is not None and b is not None and any(
        _known(a_hi <= b_lo) or _known(b_hi <= a_lo) for (a_lo, a_hi), (b_lo, b_hi) in zip(a, b))


def _same_views(a, b):
    return len(a) == len(b) and all(ta is tb and xa is not None and xb is not None and len(xa) == len(xb)
                                    and all(map(_same_arg, xa, xb))
                                    for (ta, xa), (tb, xb) in zip(a, b))


def _same_arg(a, b):
    a, b = _value(a), _value(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(map(_same_arg, a, b))
    if isinstance(a, (int, torch.SymInt)) and isinstance(b, (int, torch.SymInt)):
        return _known(a == b)
    return type(a) is type(b) and a == b


def _known_equal(a, b):
    return len(a) == len(b) and all(_known(x == y) for x, y in zip(a, b))


def _value(x):
    return x.meta.get("val") if isinstance(x, torch.fx.Node) else x


def _known(cond):
    from torch.fx.experimental.symbolic_shapes import statically_known_true

    return statically_known_true(cond)


def _is_view(target):
    args = target._schema.arguments
    return bool(args) and args[0].alias_info is not None and not args[0].alias_info.is_write


def _writes_into(user, node):
    """Whether the aten op ``user`` writes into its argument ``node``."""
    for i, arg in enumerate(user.target._schema.arguments):
        if arg.alias_info is not None and arg.alias_info.is_write \
                and (user.args[i] if i < len(user.args) else user.kwargs.get(arg.name)) is node:
            return True
    return False


def _same_layout(a, b):
    return isinstance(a, torch.Tensor) and a.dtype == b.dtype and a.device == b.device and _known_equal(
        (*a.shape, *a.stride(), a.storage_offset()), (*b.shape, *b.stride(), b.storage_offset()))


def _viewed(graph, node, views):
    for target, args in views:
        node = add_node(graph, target, node, *args)
    return node


def _rewrite(graph, buffer, writes, epilogue=None):
    """``writes`` done in place into ``buffer``, which takes the place of the last; ``epilogue`` (the copy back
    into ``buffer``) dropped."""
    for w in writes:
        with graph.inserting_before(w.node):
            copy_into(graph, _viewed(graph, buffer, w.views), w.src)
        w.node.replace_all_uses_with(buffer)
        for dead in w.parts:
            if not dead.users:
                graph.erase_node(dead)
    if epilogue is not None:
        epilogue.replace_all_uses_with(buffer)
        graph.erase_node(epilogue)
