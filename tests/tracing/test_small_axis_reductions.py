"""The CPU post-grad pass that reduces arrays of small vectors one component at a time
(npcompile/inductor/_small_axis_reductions.py), run on aten graphs traced with fake tensors, and once through
Inductor on the n-body step it was made for."""

import numpy as np
import pytest
import torch

import npcompile as C
from npcompile.inductor._small_axis_reductions import SmallAxisReductionPass

from .conftest import installed_passes
from .pass_backend import rewritten

aten = torch.ops.aten


def _rewritten(fn, *args):
    return rewritten(SmallAxisReductionPass(), fn, *args)


def _split(gm):
    return any(n.target is aten.cat.default for n in gm.graph.nodes)


def _accelerations(pos, mass):
    d = pos[None, :, :] - pos[:, None, :]
    w = mass[None, :] * ((d * d).sum(-1) + 1e-3) ** -1.5
    return (d * w[:, :, None]).sum(1)


@pytest.mark.parametrize("name, fn", [
    ("n-body accelerations", _accelerations),
    ("keepdim", lambda p, m: torch.sum(p[:, None] * torch.exp(m)[None, :, None], 0, keepdim=True)),
    ("mean over two axes", lambda p, m: torch.mean(p.reshape(20, 10, 3) * m.sqrt().reshape(20, 10, 1), [0, 1])),
    ("amax, a per-component operand", lambda p, m: torch.amax(p * torch.tensor([1.0, 2.0, 3.0], dtype=p.dtype)
                                                             * torch.log(m)[:, None], 0)),
])
def test_reductions_sharing_work_are_split_with_the_same_values(name, fn):
    pos, mass = torch.randn(200, 3, dtype=torch.float64), torch.rand(200, dtype=torch.float64) + 0.5
    gm = _rewritten(fn, pos, mass)
    assert _split(gm), gm.graph
    expected, got = fn(pos, mass), gm(pos, mass)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    torch.testing.assert_close(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("why, fn, shape", [
    ("nothing shared: a plain array", lambda x: torch.sum(x, 0), (1000, 3)),
    ("nothing shared: elementwise on the vectors only", lambda x: torch.amax(torch.abs(x), 1), (100, 100, 2)),
    ("the small axis is reduced", lambda x: torch.sum(x * x.sum(-1, keepdim=True), -1), (1000, 3)),
    ("a wide last axis", lambda x: torch.sum(x * x.sum(-1, keepdim=True), 0), (1000, 8)),
    ("too few elements", lambda x: torch.sum(x * x.sum(-1, keepdim=True), 0), (10, 3)),
])
def test_other_reductions_are_left_alone(why, fn, shape):
    x = torch.randn(*shape, dtype=torch.float64)
    gm = _rewritten(fn, x)
    assert not _split(gm), why
    torch.testing.assert_close(gm(x), fn(x))


def test_the_pass_is_installed_for_cpu_graphs_only():
    assert "SmallAxisReductionPass" in installed_passes("post_grad_custom_pre_pass")
    assert not installed_passes("post_grad_custom_pre_pass", "cuda")


@pytest.mark.inductor
def test_nbody_step_compiled():
    rng = np.random.default_rng(0)
    pos, mass = rng.standard_normal((100, 3)), rng.uniform(0.5, 1.5, 100)

    def step(pos, mass):
        d = pos[None, :, :] - pos[:, None, :]
        inv_r3 = ((d * d).sum(axis=-1) + 1e-3) ** -1.5
        return (d * (mass[None, :] * inv_r3)[:, :, None]).sum(axis=1)

    np.testing.assert_allclose(C.compile(step, fullgraph=True)(pos, mass), step(pos, mass), rtol=1e-12, atol=1e-12)
