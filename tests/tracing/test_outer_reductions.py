"""The CPU post-grad pass that chunks outer-axis reductions (npcompile/inductor/_outer_reductions.py), run on
aten graphs traced with fake tensors: no Inductor compile needed to check the rewrite and its values."""

import pytest
import torch

from npcompile.inductor import inductor_options
from npcompile.inductor._outer_reductions import OuterReductionPass

from .pass_backend import rewritten

aten = torch.ops.aten


def _rewritten(fn, *args):
    return rewritten(OuterReductionPass(), fn, *args)


def _views(gm):
    return [n.args[1] for n in gm.graph.nodes if n.target is aten.view.default]


@pytest.mark.parametrize("name, fn", [
    ("sum", lambda x: torch.sum(x, 0)),
    ("sum keepdim", lambda x: torch.sum(x, 0, keepdim=True)),
    ("mean", lambda x: torch.mean(x, 0)),
    ("amax", lambda x: torch.amax(x, 0)),
    ("amin keepdim", lambda x: torch.amin(x, [0], keepdim=True)),
    ("sum with its own dtype=, as the shim's var", lambda x: torch.sum(x * x, [0], True, dtype=torch.float64)),
    ("product then sum, as x.T @ r", lambda x: torch.sum(x.T * x[:, 0], 1)),
    ("3-D, keepdim", lambda x: torch.sum(x.reshape(2000, 4, 16), 0, keepdim=True)),
])
def test_outer_reductions_are_chunked_with_the_same_values(name, fn):
    x = torch.randn(2000, 64, dtype=torch.float64)  # 7 chunks of 256 rows and 208 rows left over
    gm = _rewritten(fn, x)
    assert [v[:2] for v in _views(gm) if len(v) > 2 and v[1] == 256] == [[7, 256]], gm.graph
    expected = fn(x)
    got = gm(x)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    torch.testing.assert_close(got, expected, rtol=1e-13, atol=1e-13)


def test_exact_multiple_of_the_chunk_has_no_leftover_rows():
    x = torch.randn(2048, 64, dtype=torch.float64)
    gm = _rewritten(lambda x: torch.sum(x, 0), x)
    assert not any(n.target is aten.slice.Tensor for n in gm.graph.nodes)
    torch.testing.assert_close(gm(x), x.sum(0))


@pytest.mark.parametrize("why, fn, shape", [
    ("inner axis, already streaming", lambda x: torch.sum(x, 1), (2000, 64)),
    ("a few kept columns: vectorized along the rows", lambda x: torch.sum(x, 0), (100000, 4)),
    ("too few rows for chunks", lambda x: torch.sum(x, 0), (600, 64)),
    ("integers sum exactly in any order but keep their own loop", lambda x: torch.sum(x.long(), 0), (2000, 64)),
    ("two reduced axes", lambda x: torch.sum(x, [0, 1]), (2000, 64)),
    ("a widening dtype=", lambda x: torch.sum(x.float(), [0], dtype=torch.float64), (2000, 64)),
])
def test_other_reductions_are_left_alone(why, fn, shape):
    x = torch.randn(*shape, dtype=torch.float64)
    gm = _rewritten(fn, x)
    assert not any(n.target is aten.view.default and len(n.args[1]) == 3 for n in gm.graph.nodes), why


def test_the_pass_is_installed_for_cpu_graphs_only():
    assert isinstance(inductor_options()["post_grad_custom_pre_pass"], OuterReductionPass)
    assert "post_grad_custom_pre_pass" not in inductor_options(device_type="cuda")
