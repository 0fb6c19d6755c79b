"""Bool masks in the forms Inductor's CPU code keeps in vector registers.

Inductor's C++ code holds a comparison of float64 values as a ``VecMask<double,2>``.  Two things it does with
such a mask have no vectorized form for that layout (AVX2), so the mask is moved lane by lane through memory:

- ``&``, ``|``, ``^`` of two masks, done on ``VecMask<int32>``: ``where((x > a) & (x < b), x, 0)`` took 30 ms
  on 4M float64 values (one thread), ``where(x > a, x < b, False)``, done on ``VecMask<float>``, 3.5 ms;
- a mask converted to a small integer type (uint8, int8, int16, int32): through memory too; as 0/1 float32
  lanes converted to that type, vectorized.

(A mask stored as a bool tensor is written as bytes by the code generator itself: ``_bool_vectors``.)

This post-grad pass rewrites those nodes into the fast forms; every value stays the same.  It runs on CPU graphs
of npcompile's own compiles only (``inductor_options`` installs it).
"""

from __future__ import annotations

import torch

from ._graph_pass import GraphPass, computed

aten, prims = torch.ops.aten, torch.ops.prims

_NARROW_INTS = {torch.uint8, torch.int8, torch.int16, torch.int32}


class BoolMaskPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def run(self, graph: torch.fx.Graph) -> None:
        for node in list(graph.nodes):
            if node.op == "call_function" and node.target in _LOGIC:
                if _bool(node) and all(_bool(a) for a in node.args[:2]):
                    with graph.inserting_before(node):
                        new = _LOGIC[node.target](_Builder(graph, node), *node.args[:2])
                    new.meta.update({k: v for k, v in node.meta.items() if k != "val"})
                    node.replace_all_uses_with(new)
                    graph.erase_node(node)
            elif node.op == "call_function" and node.target is prims.convert_element_type.default \
                    and _bool(node.args[0]) and node.args[1] in _NARROW_INTS and computed(node.args[0]):
                with graph.inserting_before(node):
                    node.replace_input_with(node.args[0], _Builder(graph, node).float32(node.args[0]))


def _val(node):
    return node.meta.get("val") if isinstance(node, torch.fx.Node) else None


def _bool(node) -> bool:
    v = _val(node)
    return isinstance(v, torch.Tensor) and v.dtype == torch.bool and v.device.type == "cpu"


class _Builder:
    """New nodes before the current insertion point, each with its fake ``val`` (as the later passes expect)."""

    def __init__(self, graph, like):
        self.graph, self.device = graph, _val(like).device
        self.mode = _val(like).fake_mode

    def add(self, target, *args, **kwargs):
        new = self.graph.call_function(target, args, kwargs)
        with self.mode:
            new.meta["val"] = target(*(_val(a) if isinstance(a, torch.fx.Node) else a for a in args), **kwargs)
        return new

    def const(self, value, dtype):
        return self.add(aten.full.default, [], value, dtype=dtype, device=self.device, pin_memory=False)

    def float32(self, mask):
        """``mask`` as 0.0/1.0 float32, whose conversion to an integer type is vectorized."""
        f4 = torch.float32
        return self.add(aten.where.self, mask, self.const(1.0, f4), self.const(0.0, f4))


def _and(b, x, y):
    return b.add(aten.where.self, x, y, b.const(False, torch.bool))


def _or(b, x, y):
    return b.add(aten.where.self, x, b.const(True, torch.bool), y)


def _xor(b, x, y):
    return b.add(aten.where.self, x, b.add(aten.logical_not.default, y), y)


# each as a where of masks (done on VecMask<float>)
_LOGIC = {aten.bitwise_and.Tensor: _and, aten.logical_and.default: _and, aten.bitwise_or.Tensor: _or,
          aten.logical_or.default: _or, aten.bitwise_xor.Tensor: _xor, aten.logical_xor.default: _xor}
