"""A running sum of an array led by a zero is the zero, then the running sum of the array.

``np.cumsum(np.concatenate(([0.0], x)))`` (moving averages and integral images by differences of running sums,
offsets from counts) copied ``x`` behind the zero, then scanned the copy.  NumPy's sums are ``0.0``, ``0.0 + x[0]``,
``(0.0 + x[0]) + x[1]``...; torch's own scan of ``x`` adds from +0.0 too (the very sums, -0.0 included: ``0.0 +
-0.0`` is +0.0 in both), so the scan reads ``x`` itself and the zero is joined to its result, where the consumer's
kernel reads it in place: one copy of ``x`` less (the ``moving_average`` benchmark, 4M doubles, 11.8 -> 11.0 ms;
the scan itself, on one thread, is most of the rest).

Only float64 and complex128 running sums (the shim's ``npcompile::running_sum``, which is torch's scan with NumPy's
zero signs; float32 scans run NumPy's own loop) led by a +0.0 of one element along the scanned axis change.  It
runs on CPU graphs of npcompile's own compiles only (``inductor_options`` installs it).
"""

from __future__ import annotations

import math

import torch

from ._graph_pass import GraphPass

aten = torch.ops.aten


class ZeroLedScanPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def plan(self, node):
        if node.op != "call_function" or node.target is not torch.ops.npcompile.running_sum.default or \
                len(node.args) != 3 or node.args[2] is not None or node.kwargs:
            return None
        cat, axis, _ = node.args
        if not (isinstance(cat, torch.fx.Node) and cat.target is aten.cat.default and len(cat.args[0]) == 2):
            return None
        zero, x = cat.args[0]
        val = node.meta.get("val")
        if val is None or val.device.type != "cpu" or getattr(x.meta.get("val"), "dtype", None) != val.dtype:
            return None
        axis %= val.ndim
        dim = cat.args[1] if len(cat.args) > 1 else cat.kwargs.get("dim", 0)
        return (zero, x, axis) if dim % val.ndim == axis and _positive_zero_slab(zero, val, axis) else None

    def rewrite(self, graph, node, zero, x, axis):
        with graph.inserting_before(node):
            scan = graph.call_function(aten.cumsum.default, (x, axis))
            joined = graph.call_function(aten.cat.default, ([zero, scan], axis))
        scan.meta["val"] = aten.cumsum.default(x.meta["val"], axis)
        joined.meta["val"] = node.meta["val"]
        node.replace_all_uses_with(joined)
        cat = node.args[0]
        graph.erase_node(node)
        if not cat.users:  # (the copy of x behind the zero, read by nothing else now)
            graph.erase_node(cat)


def _positive_zero_slab(zero, val, axis) -> bool:
    """Whether ``zero`` is a constant +0.0 of ``val``'s dtype (float64 or complex128), one element along ``axis``."""
    if not (isinstance(zero, torch.fx.Node) and zero.target is aten.full.default) or \
            val.dtype not in (torch.float64, torch.complex128):
        return False
    fake, fill = zero.meta.get("val"), zero.args[1]
    return (fake is not None and fake.dtype == val.dtype and fake.ndim == val.ndim and fake.shape[axis] == 1
            and isinstance(fill, (int, float)) and fill == 0 and math.copysign(1.0, fill) > 0)
