"""Elementwise results with a small innermost axis, computed as rows of a whole number of vectors.

Channels-last images (h, w, 3) and point clouds (n, 3) are normalized, shifted and scaled per channel:
``(img / 255.0 - mean) / std``, ``points - points.mean(0)``.  Inductor's C++ backend loops over such a result as
(n, k) and does not merge the two loops, as ``mean`` is indexed by the inner one alone; it does not vectorize an
inner loop of fewer than a quarter vector (3 of 16 float32 lanes) in a short body, and runs k = 5 to 15 as one
masked partial vector per row.  The normalization of a 2048 x 2048 RGB image took 27 ms in scalar code, 6.5 ms
vectorized (one thread).

This post-grad pass computes such a region on views of shape (m, L), L = lcm(k, 16) elements: the full-size
operands (contiguous, in memory) are viewed as (m, L), the per-channel operands (shape (k,) or (1, ..., 1, k)) are
tiled to length L and stored (a small buffer: Inductor would otherwise inline the tiling as ``x % k`` indices,
which its vectorizer does not take), and the result is stored as (m, L) and viewed back.  Each element is computed
by the same operations on the same values, and only ops whose vector forms give the same bits (``_EXACT``) are
taken: the values stay those of the scalar loop, only the indexing changes.  Regions whose sizes do not divide into
such rows, with dynamic sizes, other ops or broadcasts, or values used outside the region are left as they are.  It
runs on CPU graphs of npcompile's own compiles only (``inductor_options`` installs it).
"""

from __future__ import annotations

import functools
import math

import torch

from ._graph_pass import STORE, VIEWS, GraphPass, add_node, clone_expression, computed, expression

aten, prims = torch.ops.aten, torch.ops.prims

_ROW = 16  # a row holds a whole number of vectors of this many elements (float32 on AVX-512; two on AVX2)
_MIN_ELEMENTS = 4096  # smaller results gain little or lose (break-even near 3000 elements, one thread)


class SmallInnerAxisPass(GraphPass):
    """Inductor post-grad pass (see the module docstring)."""

    def plan(self, node):
        return _plan(node)

    def rewrite(self, graph, node, *plan):
        _rewrite(graph, node, *plan)


# Elementwise ops whose vector and scalar forms in Inductor's C++ give the same bits: exactly rounded arithmetic,
# comparisons, selections, casts.  (A transcendental function runs in ATen's vector form, SLEEF, instead of the
# scalar libm call: 1 ulp apart, as in any vectorized kernel; here the values stay those of the scalar loop.)
_EXACT = {aten.add, aten.sub, aten.mul, aten.neg, aten.abs, aten.sqrt, aten.reciprocal, aten.minimum, aten.maximum,
          aten.clamp, aten.clamp_min, aten.clamp_max, aten.where, aten.eq, aten.ne, aten.lt, aten.le, aten.gt, aten.ge,
          aten.logical_and, aten.logical_or, aten.logical_xor, aten.logical_not, aten.bitwise_and, aten.bitwise_or,
          aten.bitwise_xor, aten.bitwise_not, aten.floor, aten.ceil, aten.trunc}
_EXACT_OPS = {aten.div.Tensor, aten.div.Scalar, aten.round.default,  # (not div's rounding modes, round's decimals)
              prims.convert_element_type.default}


def _elementwise(node) -> bool:
    return node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload) \
        and (node.target.overloadpacket in _EXACT or node.target in _EXACT_OPS)


def _plain(val) -> bool:
    """A real tensor with static sizes and strides."""
    return isinstance(val, torch.Tensor) and not val.is_complex() \
        and all(isinstance(s, int) for s in (*val.shape, *val.stride()))


def _returned(node) -> bool:
    """Whether ``node`` is only returned, as it is or through views of its own shape (``np.where``'s expand)."""
    return all(u.op == "output" or u.op == "call_function" and u.target in VIEWS
               and getattr(u.meta.get("val"), "shape", None) == node.meta["val"].shape and _returned(u)
               for u in node.users)


def _plan(node):
    """(rows, row length L, the region's elementwise nodes in graph order, leaves {node: 'full' | 'channel' |
    'single'}) when ``node`` is a returned elementwise result of shape (..., k) with a per-channel operand that can
    be computed as rows of L; else None.  (Without a per-channel operand, Inductor's loops over a contiguous
    result are flat already.)"""
    val = node.meta.get("val")
    if node.op != "call_function" or not _elementwise(node) or not _plain(val) or val.device.type != "cpu" \
            or val.ndim < 2 or not val.is_contiguous() or not _returned(node):
        return None
    shape, k = tuple(val.shape), val.shape[-1]
    row = math.lcm(k, _ROW)
    if k == 1 or k % _ROW == 0 or val.numel() < _MIN_ELEMENTS or val.numel() % row:
        return None
    def member(a, _):
        v = a.meta.get("val")
        return _plain(v) and tuple(v.shape) == shape and _elementwise(a)

    def leaf(a):
        v = a.meta.get("val")
        if not _plain(v):
            return None
        if tuple(v.shape) == shape and not computed(a) and v.is_contiguous():
            return "full"
        if v.ndim <= len(shape) and all(s == 1 for s in v.shape[:-1]) and v.shape[-1:] in ((k,), (1,), ()):
            return "channel" if v.shape[-1:] == (k,) else "single"
        return None

    found = expression(node, member, leaf)
    if found is None:
        return None
    members, leaves = found
    if "channel" not in leaves.values() or any(u not in members for m in members if m is not node for u in m.users):
        return None  # (a value used elsewhere too is computed once, in its own shape)
    return val.numel() // row, row, members, leaves


def _rewrite(graph, node, rows, row, members, leaves):
    add = functools.partial(add_node, graph)

    k = node.meta["val"].shape[-1]
    with graph.inserting_before(node):
        env = {}
        for leaf, kind in leaves.items():
            ndim = leaf.meta["val"].ndim
            if kind == "full":
                env[leaf] = add(aten.view.default, leaf, [rows, row])
            elif kind == "channel":
                env[leaf] = tiled = add(aten.repeat.default, add(aten.view.default, leaf, [k]), [row // k])
                tiled.meta[STORE] = True  # stored: its loads are contiguous in the rows' loop
            else:
                env[leaf] = add(aten.view.default, leaf, [1]) if ndim > 1 else leaf  # (0-d stays 0-d: promotion)
        clone_expression(graph, members, env)  # (the same dtypes: promotion sees them, dimensioned or 0-d, as before)
        env[node].meta[STORE] = True  # stored as (rows, L): the view back reads it as it is
        out = add(aten.view.default, env[node], list(node.meta["val"].shape))
    node.replace_all_uses_with(out)
    for m in reversed(members):
        graph.erase_node(m)
