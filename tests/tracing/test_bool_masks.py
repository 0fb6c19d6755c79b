"""Bool masks in compiled CPU code.  The post-grad pass that keeps them in vectorizable forms
(npcompile/inductor/_bool_masks.py), run on aten graphs traced with fake tensors and Inductor's decompositions: no
Inductor compile needed to check the rewrite and its values.  Mask indexing and nonzero as traced by the shim
(compactions by running count): NumPy's answers, one graph."""

import numpy as np
import pytest
import torch
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

from npcompile import _compile as C
from npcompile.inductor import inductor_options
from npcompile.inductor._bool_masks import BoolMaskPass

from .conftest import same

aten, prims = torch.ops.aten, torch.ops.prims
_LOGIC = {aten.bitwise_and.Tensor, aten.bitwise_or.Tensor, aten.bitwise_xor.Tensor, aten.logical_and.default,
          aten.logical_or.default, aten.logical_xor.default}


def _rewritten(fn, *args, mode="fake"):
    gm = make_fx(fn, tracing_mode=mode, decomposition_table=select_decomp_table())(*args)  # as Inductor's graphs
    BoolMaskPass()(gm.graph)
    gm.graph.lint()
    gm.recompile()
    return gm


def _targets(gm):
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


def _check_same(gm, fn, *args):
    expected, got = fn(*args), gm(*args)
    if not isinstance(expected, tuple):
        expected, got = (expected,), (got,)
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype and g.shape == e.shape and g.stride() == e.stride()
        torch.testing.assert_close(g, e, rtol=0, atol=0, equal_nan=True)


_x = torch.tensor([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, float("nan"), float("inf"), -float("inf")],
                  dtype=torch.float64)


@pytest.mark.parametrize("name, fn", [
    ("&", lambda x, y: torch.where((x > -1.0) & (x < 1.0), x, 0.0)),
    ("|", lambda x, y: torch.where((x < -1.0) | (x > 1.0) | torch.isnan(x), x, 0.0)),
    ("^", lambda x, y: ((x < 1.0) ^ (y > 0)).sum()),
    ("logical_and/or/xor",
     lambda x, y: torch.logical_xor(torch.logical_and(x > 0, y > 0), torch.logical_or(x < 0, y < 0))),
    ("~ of &, broadcast masks", lambda x, y: ~((x[:, None] > 0) & (y > 0.5))),
    ("& of a bool input", lambda x, y: torch.where((x > 0) & (y > 0.5).clone(), y, x).any()),
])
def test_logic_of_masks_becomes_where_with_the_same_values(name, fn):
    y = torch.linspace(-1, 1, _x.numel(), dtype=torch.float64)
    gm = _rewritten(fn, _x, y)
    assert not _LOGIC & set(_targets(gm)), gm.graph
    _check_same(gm, fn, _x, y)


def test_logic_of_integers_is_left_alone():
    def fn(a, b):
        return (a & b) | (a ^ b)
    a, b = torch.arange(10), torch.arange(10, 0, -1)
    gm = _rewritten(fn, a, b)
    assert _targets(gm).count(aten.bitwise_and.Tensor) == 1 and aten.where.self not in _targets(gm)


def test_masks_converted_to_narrow_integers_go_through_float32():
    def fn(x):
        return (x > 0).to(torch.uint8), (x < 0).to(torch.int32), (x < 0).to(torch.int64)
    gm = _rewritten(fn, _x)
    wheres = [n for n in gm.graph.nodes if n.target is aten.where.self]
    assert len(wheres) == 2 and all(w.meta["val"].dtype == torch.float32 for w in wheres)
    _check_same(gm, fn, _x)


def test_stored_masks_are_left_to_the_code_generator():
    """Inductor's CPU code stores a mask as bytes itself (npcompile/inductor/_bool_vectors.py): no rewrite."""
    def fn(x, m):
        return torch.nonzero(x > 0), x[(x > 0) & m], torch.nonzero(m), x < 0, (x < 1).reshape(2, 5)
    m = torch.arange(10) % 3 == 0
    gm = _rewritten(fn, _x, m, mode="symbolic")
    assert not any(n.target is aten.view.dtype or n.target is aten.where.self and n.meta["val"].dtype
                   == torch.float32 for n in gm.graph.nodes), gm.graph
    _check_same(gm, fn, _x, m)


def test_the_pass_is_installed_for_cpu_graphs_only():
    assert isinstance(inductor_options()["post_grad_custom_post_pass"].first.first, BoolMaskPass)
    assert "post_grad_custom_post_pass" not in inductor_options(device_type="cuda")


def _mask_code(a, b):
    m = a > 0.3
    c, d = a.copy(), b.copy()
    c[m] = a[m] * 2.0 if a.size < 10 else 0.5  # (array values: a graph break, as before)
    d[d > 0] = 0.5
    return (a[m], a[(a > -1) & (a < 1)], np.nonzero(m), np.argwhere(b > 0.5), np.flatnonzero(m), np.extract(m, a),
            np.where(b > 0), b[b[:, 0] > 0], b[b > 0], np.compress(b[:, 1] > 0, b, axis=0), np.extract(b[:2] > 0, b),
            a[a > 100], np.nonzero(b > 100), c, d)


@pytest.mark.parametrize("n", [20, 7, 0])
def test_compiled_mask_indexing_and_nonzero_give_numpys_answers(n):
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal(n), rng.standard_normal((6, 3))
    assert same(C.compile(_mask_code, backend="aot_eager")(a, b), _mask_code(a, b))


def test_compiled_mask_indexing_is_one_graph_of_compactions():
    from torch._dynamo.backends.common import aot_autograd

    graphs = []

    def keep(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    backend = aot_autograd(fw_compiler=keep)  # the aten graph, where the shim's calls are traced through

    def fn(a, b):
        return a[a > 0], np.nonzero(b > 0), np.argwhere(b > 0), np.extract(a > 0, a), b[b[:, 0] > 0]

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(12), rng.standard_normal((4, 3))
    assert same(C.compile(fn, backend=backend)(a, b), fn(a, b))
    (gm,) = graphs
    calls = {str(n.target) for n in gm.graph.nodes if n.op == "call_function"}
    assert any("true_count" in c for c in calls) and not any("nonzero" in c for c in calls), calls


def test_compiled_mask_results_own_just_their_elements():
    """As NumPy's: a few chosen elements of a big array do not keep a buffer of the big array's size alive."""
    a = np.random.default_rng(0).random(10_000)
    got = C.compile(lambda a: a[a > 0.999], backend="aot_eager")(a)
    assert same(got, a[a > 0.999])
    root = got
    while getattr(root, "base", None) is not None:
        root = root.base
    held = root.untyped_storage().nbytes() if isinstance(root, torch.Tensor) else root.nbytes
    assert held <= got.nbytes + 8


@pytest.mark.inductor
def test_inductor_masks_match_numpy():
    @C.compile
    def f(a):
        m = (a > -1.0) & (a < 1.0) | np.isnan(a)
        return np.where(m ^ (a > 0), a, 0.0), m, a[m], np.nonzero(~m), (m & (a > 0)).sum()

    a = np.random.default_rng(0).standard_normal(100)
    a[:3] = [np.nan, 1.0, -1.0]
    assert same(f(a), f.__wrapped__(a))
