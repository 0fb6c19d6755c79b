"""The CPU post-grad pass computing arg-max/min of long rows from block maxima (npcompile/inductor/
_blocked_arg_reductions.py): on aten graphs traced with fake tensors (NumPy's indices, ties and NaNs included),
and once through Inductor."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C
from npcompile.inductor._blocked_arg_reductions import BlockedArgReductionPass

from .pass_backend import rewritten

aten = torch.ops.aten


def _rewritten(fn, *args):
    return rewritten(BlockedArgReductionPass(), fn, *args)


def _arrays():
    """Rows of 70001 float64 (a partial last block) with ties of the maximum and minimum in different blocks, a
    row with NaNs (the first NaN is the answer), -0.0 beside 0.0, and int32/uint8/float32 copies."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 70001))
    x[0, [900, 40000]] = 9.0
    x[0, [1200, 69999]] = -9.0
    x[1, [5000, 70000]] = np.nan
    x[2, :] = 0.0
    x[2, 300] = -0.0
    return [x, (x[[0, 2]] * 1000).astype(np.int32), np.abs(x[:1] * 20).astype(np.uint8), x.astype(np.float32)]


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, -1])
def test_block_search_gives_numpys_indices(name, axis):
    for a in _arrays():
        t, length = torch.from_numpy(a), a.size if axis is None else a.shape[-1]
        fn = (lambda x: getattr(torch, name)(x)) if axis is None else (lambda x: getattr(torch, name)(x, axis))
        gm = _rewritten(fn, t)
        calls = [n for n in gm.graph.nodes if n.target in (aten.argmax.default, aten.argmin.default)]
        assert calls and all(n.args[0].meta["val"].shape[-1] in (-(-length // 256), 256) for n in calls), gm.graph
        got = gm(t)
        assert got.dtype == torch.int64 and np.array_equal(got.numpy(), getattr(np, name)(a, axis=axis))


@pytest.mark.parametrize("why, shape, fn", [
    ("rows too short", (64, 1000), lambda x: torch.argmax(x, 1)),
    ("too few elements", (10000,), lambda x: torch.argmax(x)),
    ("an outer axis", (4096, 8), lambda x: torch.argmax(x, 0)),
    ("a strided view", (4096, 16), lambda x: torch.argmax(x.T)),
])
def test_left_to_inductor(why, shape, fn):
    gm = _rewritten(fn, torch.randn(shape))
    assert not any(n.target is aten.amax.default for n in gm.graph.nodes), why


@pytest.mark.inductor
def test_compiled_argmax_of_long_rows():
    x, i, _, _ = _arrays()
    got = C.compile(lambda x, i: (x.argmax(), np.argmin(x, axis=1, keepdims=True), i.argmax(axis=-1)))(x, i)
    want = (x.argmax(), np.argmin(x, axis=1, keepdims=True), i.argmax(axis=-1))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
