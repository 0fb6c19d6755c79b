"""Small computed operands of large elementwise results are stored, computed once
(npcompile/inductor/_broadcast_operands.py): the pass on aten graphs traced with Inductor's decompositions, and
one Inductor compile of a column normalization (NumPy's values)."""

import numpy as np
import pytest
import torch
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

from npcompile import _compile as C
from npcompile.inductor._broadcast_operands import BroadcastOperandPass
from npcompile.inductor._graph_pass import STORE

aten = torch.ops.aten


def _stored(fn, *args):
    gm = make_fx(fn, decomposition_table=select_decomp_table())(*args)
    BroadcastOperandPass()(gm.graph)
    return {n.target.overloadpacket for n in gm.graph.nodes if n.meta.get(STORE)}


def _normalize(x):
    mean = x.sum(0) / x.shape[0]
    var = ((x - mean) ** 2).sum(0) / x.shape[0]
    return (x - mean) / torch.sqrt(var)


def _normalize_rows(x):
    mean = x.sum(1, keepdim=True) / x.shape[1]
    var = ((x - mean) ** 2).sum(1, keepdim=True) / x.shape[1]
    return (x - mean) / torch.sqrt(var)


def test_costly_small_operands_of_broadcasts_are_stored():
    assert _stored(_normalize, torch.randn(4096, 8, dtype=torch.float64)) == {aten.div, aten.sqrt}


def test_cheap_operands_and_small_ratios_are_left_inline():
    # a sum read as it is (no costly op); rows 16 times the operand (below the ratio)
    assert _stored(lambda x: x - x.sum(0) * 2.0, torch.randn(4096, 8)) == set()
    assert _stored(_normalize, torch.randn(16, 8, dtype=torch.float64)) == set()
    # per-row statistics (constant along the innermost axis of the result)
    assert _stored(_normalize_rows, torch.randn(8, 4096, dtype=torch.float64)) == set()


@pytest.mark.inductor
def test_compiled_column_normalization_is_numpys():
    x = np.random.default_rng(3).standard_normal((5000, 12)) * np.arange(1.0, 13.0) + 2.0
    got = C.compile(lambda x: (x - x.mean(axis=0)) / x.std(axis=0))(x)
    want = (x - x.mean(axis=0)) / x.std(axis=0)
    assert got.dtype == want.dtype and np.allclose(got, want, rtol=1e-12, atol=1e-12)  # (sums in torch's order)
