"""Elementwise chains whose inlined code grows exponentially are stored part way.

Inductor inlines an elementwise result into each consumer, and it evaluates a kernel's body as Python calls on
every pass over it (dependencies, vectorization checks, scalar, vector and tail code).  When each step of a chain
reads the previous one more than once, ``p = p + r * p * (1 - p)`` stepped 8 times, the body of the last step calls
the first one 3**8 times: one such graph of 33 multiplications and additions took 37 s to compile (Python, not
C++), and a plain ``torch.compile`` of it 53 s.  Inductor's own limit counts the distinct operations of a body
(30 to 100) and does not see the repetition.

This post-grad pass counts, for every elementwise node, the operations its inlined body evaluates, paths through
shared inputs counted each time, and marks a node whose count passes ``_LIMIT`` and repeats its distinct nodes
more than ``_REPEATS`` times on average to be stored (the ``inductor_realize_to_strides`` flag Inductor's own
passes set); its consumers then load it.  Only such repeating chains change: one buffer more each few steps (memory
traffic Inductor's inlining avoided), the same values.  It runs on CPU graphs of npcompile's own compiles only (``inductor_options`` installs it).
"""

from __future__ import annotations

import torch

from ._graph_pass import STORE, VIEWS, GraphPass

aten, prims = torch.ops.aten, torch.ops.prims

_LIMIT = 128  # operations an inlined body may evaluate
_REPEATS = 2  # ... when they repeat its distinct nodes more than this often (Inductor stores 100 distinct ones)


class InlineGrowthPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def run(self, graph: torch.fx.Graph) -> None:
        cost: dict = {}  # node -> (operations its inlined body evaluates, the distinct nodes it inlines)
        for node in graph.nodes:
            kind = _inlined(node)
            if kind is None:
                continue
            ins = [cost[a] for a in _flat_args(node) if a in cost]
            ops = (kind == "op") + sum(n for n, _ in ins)
            cone = {node}.union(*(c for _, c in ins))
            if ops > _LIMIT and ops > _REPEATS * len(cone) and kind == "op" \
                    and isinstance(node.meta.get("val"), torch.Tensor):
                node.meta[STORE] = True
                continue  # (read from memory by its consumers)
            cost[node] = ops, cone


def _inlined(node):
    """"op" for an elementwise node Inductor inlines into its consumers, "view" for a view of one (inlined as an
    index change), None for anything read from memory."""
    if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload) or node.meta.get(STORE):
        return None
    if node.target in VIEWS:
        return "view"
    if torch.Tag.pointwise in node.target.tags or node.target is prims.convert_element_type.default:
        return "op"
    return None


def _flat_args(node):
    for a in (*node.args, *node.kwargs.values()):
        if isinstance(a, torch.fx.Node):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (x for x in a if isinstance(x, torch.fx.Node))
