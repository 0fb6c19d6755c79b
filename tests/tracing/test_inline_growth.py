"""Elementwise chains whose inlined bodies grow exponentially are stored part way
(npcompile/inductor/_inline_growth.py): the pass on aten graphs traced with Inductor's decompositions, and one
Inductor compile of the program that took 37 s to compile before (NumPy's values)."""

import numpy as np
import pytest
import torch
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

from npcompile import _compile as C
from npcompile.inductor._graph_pass import STORE
from npcompile.inductor._inline_growth import InlineGrowthPass

from ..programs.programs import logistic_growth as _logistic_np
from .conftest import same


def _marked(fn, *args):
    gm = make_fx(fn, decomposition_table=select_decomp_table())(*args)
    InlineGrowthPass()(gm.graph)
    return [n for n in gm.graph.nodes if n.meta.get(STORE)]


def _logistic(p, steps=8):
    traj = [p]
    for _ in range(steps):
        p = p + 0.02 * p * (1 - p)  # each step reads the previous one three times
        traj.append(p)
    return torch.stack(traj)


def test_a_chain_reading_each_step_three_times_is_stored_every_few_steps():
    marked = _marked(lambda p: _logistic(p), torch.rand(30, dtype=torch.float64))
    assert 1 <= len(marked) <= 3 and all(n.target is torch.ops.aten.add.Tensor for n in marked)


@pytest.mark.parametrize("fn", [
    lambda x: torch.stack([x := torch.sin(x) * 1.01 + 0.5 for _ in range(60)]),  # long, each step read once
    lambda x: torch.where(x > 0, x * x + 2 * x + 1, torch.exp(-x) * (x - 1)) / (1 + x * x),  # a formula
    lambda x: _logistic(x, steps=2),
])
def test_chains_without_growing_repeats_are_left_inlined(fn):
    assert not _marked(fn, torch.rand(30, dtype=torch.float64))


@pytest.mark.inductor
def test_inductor_logistic_growth_matches_numpy():
    p = np.random.default_rng(0).random(30) * 0.1
    assert same(C.compile(_logistic_np)(p, 0.02, 8), _logistic_np(p, 0.02, 8))
