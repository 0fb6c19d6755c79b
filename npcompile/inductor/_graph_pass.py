"""The base of our Inductor post-grad passes."""

from __future__ import annotations

import contextlib

import torch
from torch._inductor.custom_graph_pass import CustomGraphPass

aten = torch.ops.aten

# ops that view their first argument: Inductor inlines them as index changes, computing nothing
VIEWS = {aten.view.default, aten.reshape.default, aten.unsqueeze.default, aten.squeeze.dim, aten.squeeze.dims,
         aten.permute.default, aten.expand.default, aten.slice.Tensor, aten.select.int, aten.alias.default}


# The node.meta flag that makes Inductor store a node's value in a buffer where it would inline it into its consumers
# (Inductor's own passes set it; read when the node is lowered).
STORE = "inductor_realize_to_strides"


class GraphPass(CustomGraphPass):
    """A post-grad pass of ours: ``run`` rewrites the graph after ``first`` (another pass of ours, or None) has
    run; Inductor has one slot per stage, and torch 2.11 takes no list there.  ``uuid``, which Inductor's
    compiled-graph cache keys on, is a hash of our sources and the CPU's vector instruction set."""

    def __init__(self, first: "GraphPass | None" = None):
        self.first = first

    def __call__(self, graph: torch.fx.Graph) -> None:
        if self.first is not None:
            self.first(graph)
        self.run(graph)

    def run(self, graph: torch.fx.Graph) -> None:
        """By default: ``rewrite(graph, node, *plan)`` for each node that ``plan(node)`` gives a plan for."""
        for node in list(graph.nodes):
            plan = self.plan(node)
            if plan is not None:
                self.rewrite(graph, node, *plan)

    def uuid(self):
        """Inductor's cache key leaves out the vector ISA that the C++ was generated for: a compile run under
        ``ATEN_CPU_CAPABILITY=default`` (or avx2) stored scalar (or AVX2) kernels that every later process on
        the machine then loaded (polynomial: 0 vector loops instead of one AVX-512 pass), and a cache directory
        shared with an older CPU would hand it AVX-512 code.  Our passes run on every CPU graph of ours, so the
        capability ATen runs at is part of their id (Inductor picks its ISA from the same setting)."""
        from . import code_version

        return code_version(), torch.backends.cpu.get_cpu_capability()


def reduction_args(node, targets):
    """(input, dims as a list, keepdim, the input's fake tensor) when ``node`` calls one of ``targets`` (aten
    reductions taking input, dim, keepdim) on a CPU tensor, with at most a ``dtype=`` of the input's own (no
    cast); else None."""
    if node.op != "call_function" or node.target not in targets or set(node.kwargs) - {"keepdim", "dim", "dtype"}:
        return None
    x, dims = node.args[0], node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
    keepdim = node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False)
    val = getattr(x, "meta", {}).get("val")
    if (not isinstance(val, torch.Tensor) or val.device.type != "cpu" or not isinstance(dims, (list, tuple))
            or not dims or node.kwargs.get("dtype", val.dtype) != val.dtype):
        return None
    return x, list(dims), bool(keepdim), val


def pointwise(node) -> bool:
    """Whether ``node`` calls an elementwise aten op."""
    return node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload) \
        and torch.Tag.pointwise in node.target.tags


def add_node(graph: torch.fx.Graph, target, *args, **kwargs) -> torch.fx.Node:
    """A new call of ``target`` at the graph's insertion point, its ``val`` (the fake tensor later passes and
    Inductor read) computed by running ``target`` on its operands' values."""
    new = graph.call_function(target, args, kwargs)
    new.meta["val"] = target(*torch.fx.node.map_arg(args, lambda a: a.meta["val"]),
                             **torch.fx.node.map_arg(kwargs, lambda a: a.meta["val"]))
    return new


def expression(sink: torch.fx.Node, member, leaf):
    """The expression computing ``sink``: its nodes in graph order (``sink`` and, recursively, each input for which
    ``member(input, nodes so far)`` holds) and its leaves ``{input: leaf(input)}``; None where an input is neither
    (``leaf`` gives None)."""
    members, leaves, todo = {sink}, {}, [sink]
    while todo:
        for a in todo.pop().all_input_nodes:
            if a in members or a in leaves:
                continue
            if member(a, members):
                members.add(a)
                todo.append(a)
            elif (kind := leaf(a)) is not None:
                leaves[a] = kind
            else:
                return None
    return [n for n in sink.graph.nodes if n in members], leaves


def clone_expression(graph: torch.fx.Graph, nodes, env: dict) -> dict:
    """The expression ``nodes`` (in graph order) computed again at the insertion point from ``env``, which maps its
    leaves to their new nodes and gets the new nodes (each with the old one's meta but its own ``val``)."""
    for m in nodes:
        new = add_node(graph, m.target, *torch.fx.node.map_arg(m.args, env.get),
                       **torch.fx.node.map_arg(m.kwargs, env.get))
        new.meta.update({key: v for key, v in m.meta.items() if key not in ("val", "tensor_meta")})
        env[m] = new
    return env


def copy_into(graph: torch.fx.Graph, view: torch.fx.Node, src) -> torch.fx.Node:
    """``view.copy_(src)`` at the graph's insertion point: a write into the array ``view`` views (its ``val``
    the view's; running copy_ on the fake values would only write into them)."""
    new = graph.call_function(aten.copy_.default, (view, src))
    new.meta["val"] = view.meta["val"]
    return new


def new_buffer(graph: torch.fx.Graph, like: torch.Tensor) -> torch.fx.Node:
    """A new uninitialized array with the layout of the fake tensor ``like``, at the graph's insertion point (its
    ``val`` made in ``like``'s fake mode: a real tensor there fails Inductor's fake-tensor checks in torch 2.11)."""
    new = graph.call_function(aten.empty_strided.default, (list(like.shape), list(like.stride())),
                              {"dtype": like.dtype, "device": like.device})
    with getattr(like, "fake_mode", None) or contextlib.nullcontext():
        new.meta["val"] = torch.empty_strided(like.shape, like.stride(), dtype=like.dtype, device=like.device)
    return new


def computed(node) -> bool:
    """Whether ``node`` (through views) is computed by an elementwise op, i.e. in Inductor's generated code; a
    graph input or an op's output is already in memory and stays as it is."""
    while node.op == "call_function" and node.target in VIEWS:
        node = node.args[0]
    return pointwise(node)
