"""Elementwise results of rolled arrays are computed region by region, each region reading plain slices.

Periodic stencils roll arrays: ``np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1)
- 4 * u``.  torch's roll becomes a gather at ``(i + c) % n`` along the axis, and Inductor computed every element's
index with a modulo, and there left the loop scalar (the Laplacian above on 2048x2048: 8.1 ms, 42% of the matched
triad; 5.5 ms, 62%, split).  Along each rolled axis, an element's source is a plain shift except across one point
(``n - c``), so the axes split into intervals and the result into boxes in which every operand is a slice.  This
post-grad pass writes the result into a new buffer box by box, each box the same elementwise ops on slices of the
operands (the same values: bit for bit the same results): the big interior box a vectorized loop, the boxes along
the edges small ones.  Inductor vectorizes the gather loop itself where its non-contiguous loads are under 12% of
the loop's ops (``u + 0.1 * laplacian``: two more ops than the Laplacian); there the boxes cost about 8% on one
host (Intel, the ``periodic_diffusion`` benchmark: 4.0-4.6 ms against 3.8-4.4, interleaved) and gain on another
(AMD EPYC: 74-75% of the matched triad against 62-64%).  A result large enough to stream gets one more cut along
its last axis, where a 64-byte line starts, so that the interior box's rows start on one; its buffer is marked as
written once per element (``DISJOINT_WRITES``), so all boxes stream their whole aligned vectors
(``periodic_diffusion``, Intel: 3.1 -> 2.2 ms, interleaved).

It takes an elementwise node of static shape (at least ``_MIN`` elements) whose elementwise inputs of its shape,
used only by it, form its expression; the leaves of the expression are rolls (``aten.index`` at
``fmod(iota + c, n)`` along one axis, possibly nested), arrays of the result's shape, and 0-d or Python scalars.
Anything else (a broadcast operand, a mutation between the expression's first node and the result, more than
``_MAX_BOXES`` boxes) leaves the graph as it was. CPU graphs of npcompile's own compiles only.
"""

from __future__ import annotations

import itertools
import math

import torch

from ._graph_pass import GraphPass, add_node, clone_expression, copy_into, expression, new_buffer, pointwise
from ._streaming_stores import DISJOINT_WRITES, MIN_BYTES as STREAMED_BYTES

aten, prims = torch.ops.aten, torch.ops.prims

_MIN = 1 << 16  # elements: below, one loop costs less than the boxes' loops
_MAX_BOXES = 27  # (a 3-D stencil rolled both ways along every axis)
_LINE = 64  # bytes: a cache line, the alignment of a streamed vector


class RollRegionPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def run(self, graph: torch.fx.Graph) -> None:
        for node in list(graph.nodes):
            if node.users and pointwise(node) and not any(_same_shape(u, node) and pointwise(u) for u in node.users):
                try:
                    plan = _plan(node)
                except Exception:  # (only reads the graph: one it cannot read, from another torch, is left as is)
                    plan = None
                if plan:
                    _rewrite(graph, node, *plan)


def _shape(node):
    """``node``'s static shape; None for a non-tensor or a symbolic size (comparing one could guard on data)."""
    val = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    shape = tuple(val.shape) if isinstance(val, torch.Tensor) else ()
    return shape if isinstance(val, torch.Tensor) and all(type(s) is int for s in shape) else None


def _same_shape(a, b):
    return _shape(a) is not None and _shape(a) == _shape(b)


def _roll(node):
    """(array, {axis: c}) where ``node`` reads ``array`` at ``(i + c) % n`` along each such axis (nested rolls
    add up; ``(node, {})`` for anything else)."""
    shifts, read = {}, node
    while node.op == "call_function" and node.target is aten.index.Tensor and len(node.args) == 2:
        x, indices = node.args
        axes = [d for d, i in enumerate(indices) if i is not None]
        n = (_shape(x) or (None,) * (len(indices)))[axes[0]] if len(axes) == 1 else None
        c = _index_shift(indices[axes[0]], n) if n is not None else None
        if c is None or _shape(node) != _shape(x):
            return read, {}
        shifts[axes[0]] = (shifts.get(axes[0], 0) + c) % n
        node = x
    return (node, shifts) if shifts else (read, {})


def _index_shift(index, n):
    """c when ``index`` is ``fmod(iota(n) + c, n)`` (torch's decomposition of roll), else None."""
    if not (isinstance(index, torch.fx.Node) and index.target is aten.fmod.Scalar and index.args[1] == n):
        return None
    add = index.args[0]
    if add.target is not aten.add.Tensor or type(add.args[1]) is not int:
        return None
    iota = add.args[0]
    if iota.target is not prims.iota.default or iota.args[0] != n or iota.kwargs.get("start", 0) != 0 \
            or iota.kwargs.get("step", 1) != 1:
        return None
    return add.args[1] % n


def _plan(sink):
    """(expression nodes in graph order, {leaf: (array, {axis: c}) read, or (0-d leaf, None)}, boxes) for the result
    ``sink``, or None."""
    shape = _shape(sink)
    if shape is None or math.prod(shape) < _MIN \
            or torch.Tag.nondeterministic_seeded in sink.target.tags:
        return None

    def member(a, nodes):
        return pointwise(a) and _shape(a) == shape and all(u in nodes for u in a.users) \
            and torch.Tag.nondeterministic_seeded not in a.target.tags

    def leaf(a):
        return _roll(a) if _shape(a) == shape else (a, None) if _shape(a) == () else None

    found = expression(sink, member, leaf)
    if found is None:
        return None
    nodes, leaves = found
    rolls = [shifts for _, shifts in leaves.values() if shifts]
    if not rolls:
        return None
    order = {n: i for i, n in enumerate(sink.graph.nodes)}
    first = min(order[n] for n in nodes)
    if any(_mutates(n) for n in sink.graph.nodes if first <= order[n] <= order[sink]):
        return None
    cuts = [sorted({0, n} | {n - shifts[d] for shifts in rolls if shifts.get(d)}) for d, n in enumerate(shape)]
    if _boxes(cuts) > _MAX_BOXES:
        return None
    aligned = cuts[:-1] + [_aligned_cut(cuts[-1], sink.meta["val"])]
    if _boxes(aligned) <= _MAX_BOXES:
        cuts = aligned
    intervals = [list(zip(c, c[1:])) for c in cuts]
    return nodes, leaves, list(itertools.product(*intervals))


def _boxes(cuts):
    return math.prod(len(c) - 1 for c in cuts)


def _aligned_cut(cuts, val):
    """The last axis' ``cuts``, with one more where the longest interval starts off a line (``_LINE``), so that
    its box's rows start on one: the result, large enough to stream (``_streaming_stores``), then streams them.
    Only where every row starts on a line as well (contiguous rows of a multiple of ``_LINE`` bytes)."""
    line = _LINE // val.element_size()
    rows_aligned = val.stride(-1) == 1 and (val.ndim == 1 or val.stride(-2) % line == 0)
    if not rows_aligned or val.numel() * val.element_size() < STREAMED_BYTES:
        return cuts
    lo, hi = max(zip(cuts, cuts[1:]), key=lambda iv: iv[1] - iv[0])
    start = -(-lo // line) * line
    return sorted(cuts + [start]) if lo < start < hi else cuts


def _mutates(node):
    schema = getattr(node.target, "_schema", None)
    return node.op == "call_function" and schema is not None and any(
        a.alias_info is not None and a.alias_info.is_write for a in schema.arguments)


def _sliced(graph, x, box, shifts):
    """``x``'s elements read for the result's ``box`` (``shifts``: x rolled by c along those axes)."""
    for d, (lo, hi) in enumerate(box):
        n, c = _shape(x)[d], shifts.get(d, 0)
        if c:
            lo, hi = (lo + c, hi + c) if lo + c < n else (lo + c - n, hi + c - n)
        if (lo, hi) != (0, n):
            x = add_node(graph, aten.slice.Tensor, x, d, lo, hi)
    return x


def _rewrite(graph, sink, nodes, leaves, boxes):
    val = sink.meta["val"]
    with graph.inserting_before(sink):
        buffer = new_buffer(graph, val)
        buffer.meta[DISJOINT_WRITES] = True
        for box in boxes:
            env = {leaf: base if shifts is None else _sliced(graph, base, box, shifts)
                   for leaf, (base, shifts) in leaves.items()}
            copy_into(graph, _sliced(graph, buffer, box, {}), clone_expression(graph, nodes, env)[sink])
    sink.replace_all_uses_with(buffer)
    for node in reversed(nodes):
        graph.erase_node(node)
    for leaf in leaves:
        _erase_unused(graph, leaf)


def _erase_unused(graph, node):
    """``node`` and what only it used, where nothing reads them any more (the rolls' index computations)."""
    if node.op == "call_function" and not node.users and not _mutates(node):
        inputs = node.all_input_nodes
        graph.erase_node(node)
        for arg in inputs:
            _erase_unused(graph, arg)
