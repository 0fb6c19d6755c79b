"""Reductions that keep a tiny innermost axis, computed one component at a time.

Arrays of 2-, 3- and 4-vectors (positions, velocities, RGB) are reduced over their other axes all the time:
``(d * w[:, :, None]).sum(axis=1)`` in an n-body step sums 3-vectors over the sources.  Inductor's C++ backend
vectorizes such a reduction along the innermost axis, three lanes of sixteen, so everything the three components
share (a distance, its power) is computed in scalar code once per vector of 3, and it opens one parallel region
per output row.  Split into one reduction per component and stacked back, the reductions share their loops:
Inductor fuses them into one kernel vectorized along an axis with many elements, the shared part computed once
per element for all three sums.  The n-body step on 1000 bodies went from about 55 to 19 ms on one core.

Only the loop order changes: each component's sum adds the same terms (in Inductor's order, as before).  It runs
on CPU graphs of npcompile's own compiles only (``inductor_options`` installs it).
"""

from __future__ import annotations

import math

import torch

from ._graph_pass import GraphPass, add_node, pointwise, reduction_args

aten = torch.ops.aten

_REDUCTIONS = {aten.sum.dim_IntList, aten.mean.dim, aten.amax.default, aten.amin.default}
_MAX_COMPONENTS = 4  # innermost axes up to this size are split (a vector holds 8 or 16 elements)
_MIN_OTHER = 64  # ... when the other axes hold at least this many elements per component


class SmallAxisReductionPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def plan(self, node):
        return _plan(node)

    def rewrite(self, graph, node, *plan):
        _rewrite(graph, node, *plan)


def _plan(node):
    """(input, reduced dims, keepdim) when ``node`` reduces a tensor over axes other than its tiny last one."""
    args = reduction_args(node, _REDUCTIONS)
    if args is None:
        return None
    x, dims, keepdim, val = args
    if val.ndim < 2 or not all(isinstance(s, int) for s in val.shape):
        return None
    dims = sorted({d % val.ndim for d in dims})
    k = val.shape[-1]
    if not 2 <= k <= _MAX_COMPONENTS or dims[-1] == val.ndim - 1 or math.prod(val.shape) // k < _MIN_OTHER:
        return None
    return x, dims, keepdim


def _derived(n) -> bool:
    """Whether ``n`` comes, along first arguments through views and other non-elementwise ops (a reduction: the
    first product of ``a @ b @ c``), from computed values rather than straight from a graph input."""
    while n.op == "call_function" and not pointwise(n) and n.args and isinstance(n.args[0], torch.fx.Node):
        n = n.args[0]
    return n.op == "call_function"


class _Components:
    """Component ``c`` of the reduced tensor: its last axis selected at ``c``, the selection pushed through the
    elementwise ops that only it uses.  An operand that broadcasts along that axis (size 1) is shared by all
    components; ``shared_work`` tells whether such an operand is computed (``_derived``), not just read."""

    def __init__(self, add):
        self.add, self.memo, self.shared_work = add, {}, False

    def __call__(self, n, c):
        if not isinstance(n, torch.fx.Node) or n.meta["val"].ndim == 0:
            return n
        broadcast = n.meta["val"].shape[-1] == 1
        key = (n, None if broadcast else c)
        if key not in self.memo:
            if broadcast:
                self.shared_work |= _derived(n)
                self.memo[key] = self.add(aten.select.int, n, -1, 0)
            elif pointwise(n) and len(n.users) == 1:
                self.memo[key] = self.add(n.target, *torch.fx.node.map_arg(n.args, lambda a: self(a, c)), **n.kwargs)
            else:
                self.memo[key] = self.add(aten.select.int, n, -1, c)
        return self.memo[key]


def _rewrite(graph, node, x, dims, keepdim):
    made = []

    def add(target, *args, **kwargs):
        made.append(add_node(graph, target, *args, **kwargs))
        return made[-1]

    with graph.inserting_before(node):
        component = _Components(add)
        parts = [add(aten.unsqueeze.default, add(node.target, component(x, c), dims, keepdim), -1)
                 for c in range(x.meta["val"].shape[-1])]
        if not component.shared_work:  # nothing shared to compute once: Inductor's own loops are as good
            for n in reversed(made):
                graph.erase_node(n)
            return
        out = add(aten.cat.default, parts, -1)
    node.replace_all_uses_with(out)
    graph.erase_node(node)
