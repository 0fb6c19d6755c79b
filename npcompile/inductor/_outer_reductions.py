"""Two-stage form for reductions over the outer axis of a tall array on the CPU.

NumPy code reduces over axis 0 all the time: ``x.mean(axis=0)``, ``x.std(axis=0)``, ``x.T @ r`` (which
Inductor decomposes into a product summed over the rows).  For such an *outer* reduction of an ``(n, k)`` array
with k of a few dozen, Inductor's C++ backend loops over k in vector-wide column tiles and sweeps all n rows once
per tile, so each pass reads one 64-byte piece of every row: memory traffic several times the array's size.  On a
200000 x 64 float64 array that takes 11 ms where one streaming pass takes 4.

This post-grad pass rewrites such a reduction into chunks of c consecutive rows, small enough to stay in the
L2 cache between column tiles: ``red(red(x[:q*c].view(q, c, k), 1), 0)``, combined with the reduction of the
``n - q*c`` leftover rows.  Inductor still fuses the producer of ``x`` (the product in ``x.T @ r``) into both
stages.  Sums change their rounding order only (pairs of partial sums, like NumPy's own pairwise summation).

It runs on CPU graphs of npcompile's own compiles only (``inductor_options`` installs it); on CUDA, Triton's
split reductions already handle this shape.
"""

from __future__ import annotations

import functools
import math

import torch

from ._graph_pass import GraphPass, add_node, reduction_args

aten = torch.ops.aten

# Reductions rewritten, with the op that combines two partial results.
_COMBINE = {
    aten.sum.dim_IntList: aten.add.Tensor,
    aten.mean.dim: aten.add.Tensor,  # partial sums, divided by n at the end
    aten.amax.default: aten.maximum.default,
    aten.amin.default: aten.minimum.default,
}

_CHUNK_BYTES = 128 * 1024  # rows per chunk: about this many bytes, well inside a core's L2 cache
_MIN_KEPT = 8  # fewer kept elements per row than a vector: Inductor vectorizes along the rows instead
_MAX_ROW_BYTES = 32 * 1024  # wider rows: even a few of them overflow the cache, no gain from chunks


class OuterReductionPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def plan(self, node):
        return _plan(node)

    def rewrite(self, graph, node, *plan):
        _rewrite(graph, node, *plan)


def _plan(node):
    """(input, reduced dim, keepdim, chunk rows) when ``node`` is an outer reduction worth splitting, else None."""
    args = reduction_args(node, _COMBINE)
    if args is None:
        return None
    x, dims, keepdim, val = args
    if not val.is_floating_point() or len(dims) != 1:
        return None
    shape, strides = val.shape, val.stride()
    if not all(isinstance(s, int) for s in (*shape, *strides)) or val.ndim < 2:
        return None  # symbolic sizes: the chunking would have to be symbolic too
    d = dims[0] % val.ndim
    n = shape[d]
    kept = math.prod(shape) // n if n else 0
    row_bytes = kept * val.element_size()
    if kept < _MIN_KEPT or row_bytes > _MAX_ROW_BYTES:
        return None
    # the reduced dim must be outermost in memory, the kept dims C-ordered below it (so the permuted view is
    # contiguous and chunks of rows are contiguous blocks)
    order = [d] + [i for i in range(val.ndim) if i != d]
    if not val.permute(order).is_contiguous():
        return None
    chunk = 1 << max(3, (_CHUNK_BYTES // row_bytes).bit_length() - 1)
    if n < 4 * chunk:
        return None
    return x, d, keepdim, chunk


def _rewrite(graph, node, x, d, keepdim, chunk):
    val = x.meta["val"]
    n = val.shape[d]
    rest = [s for i, s in enumerate(val.shape) if i != d]
    q = n // chunk
    reduce_op = aten.sum.dim_IntList if node.target is aten.mean.dim else node.target
    combine = _COMBINE[node.target]

    add = functools.partial(add_node, graph)

    with graph.inserting_before(node):
        rows = x if d == 0 else add(aten.permute.default, x, [d] + [i for i in range(val.ndim) if i != d])
        head = add(aten.slice.Tensor, rows, 0, 0, q * chunk) if q * chunk < n else rows
        blocks = add(aten.view.default, head, [q, chunk, *rest])
        out = add(reduce_op, add(reduce_op, blocks, [1]), [0])
        if q * chunk < n:
            out = add(combine, out, add(reduce_op, add(aten.slice.Tensor, rows, 0, q * chunk, n), [0]))
        if node.target is aten.mean.dim:
            out = add(aten.div.Tensor, out, n)
        if keepdim:
            out = add(aten.unsqueeze.default, out, d)
    node.replace_all_uses_with(out)
    graph.erase_node(node)
