"""Small computed operands of large elementwise results are computed once.

``(x - x.mean(axis=0)) / x.std(axis=0)`` on (200000, 32): the standard deviation is a square root of a (32,)
variance, itself a sum divided by n.  Inductor inlines a small elementwise value into its consumer, so the compiled
loop over the 6.4M elements took a square root and two divisions per element, where NumPy takes 32 square roots;
the column normalization ran 16 to 19 ms, 8.4 to 8.8 ms with the operand stored (same session, same machine).

This post-grad pass marks such an operand to be stored (the ``STORE`` flag Inductor's own passes set): an
elementwise node computed in the graph, of at most ``_SMALL`` elements, with a costly op (``_COSTLY``) in it or in
the elementwise nodes it is computed from, read (directly or through views: a broadcast) by an elementwise result
at least ``_RATIO`` times its size, in which it varies along the innermost axis (a per-row value, as in a layer
norm, is already computed once per row of Inductor's loop). Stored, it is computed by the same ops on the same
values, once: the results keep their bits. Sizes must be static. It runs on CPU graphs of npcompile's own compiles
only (``inductor_options`` installs it).
"""

from __future__ import annotations

import torch

from ._graph_pass import STORE, VIEWS, GraphPass, pointwise

aten = torch.ops.aten

_SMALL = 65536  # elements of an operand worth storing (a buffer in cache)
_RATIO = 64  # ... when a consumer has this many times more
_COSTLY = {aten.sqrt, aten.rsqrt, aten.div, aten.reciprocal, aten.exp, aten.exp2, aten.expm1, aten.log, aten.log2,
           aten.log10, aten.log1p, aten.pow, aten.sin, aten.cos, aten.tan, aten.tanh, aten.sigmoid, aten.atan,
           aten.atan2, aten.erf, aten.fmod, aten.remainder}


class BroadcastOperandPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def run(self, graph: torch.fx.Graph) -> None:
        costly = {}  # node -> whether it or an elementwise node it reads through elementwise nodes is costly
        for node in graph.nodes:
            costly[node] = pointwise(node) and (node.target.overloadpacket in _COSTLY or any(
                costly.get(a, False) for a in node.all_input_nodes))
            size = _numel(node)
            if costly[node] and size is not None and size <= _SMALL \
                    and any(_reads_broadcast(user, node, size, 4) for user in node.users):
                node.meta[STORE] = True


def _numel(node):
    val = node.meta.get("val")
    n = val.numel() if isinstance(val, torch.Tensor) else None
    return n if isinstance(n, int) else None


def _reads_broadcast(user, operand, size: int, depth: int) -> bool:
    """Whether ``user`` is an elementwise result ``_RATIO`` times ``size`` or more that reads ``operand`` varying
    along its innermost axis (a per-row value, constant along that axis, is computed once per row already), or a
    view leading to one."""
    if pointwise(user):
        n, shape, out = _numel(user), operand.meta["val"].shape, user.meta["val"].shape
        return n is not None and n >= _RATIO * size and len(shape) > 0 and len(out) > 0 and shape[-1] == out[-1] != 1
    return depth > 0 and user.op == "call_function" and user.target in VIEWS and any(
        _reads_broadcast(u, user, size, depth - 1) for u in user.users)
