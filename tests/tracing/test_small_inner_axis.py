"""The CPU post-grad pass that computes elementwise results with a small innermost axis as rows of whole vectors
(npcompile/inductor/_small_inner_axis.py): the pass on aten graphs traced with fake tensors and Inductor's
decompositions, run eagerly against NumPy, and one Inductor compile of the channels-last normalization it was
made for."""

import numpy as np
import pytest
import torch
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx

import npcompile as C
from npcompile.inductor._graph_pass import STORE
from npcompile.inductor._small_inner_axis import SmallInnerAxisPass

from .conftest import installed_passes, same


def _cast(x, dtype):
    return x.astype(dtype) if isinstance(x, np.ndarray) else x.to(getattr(torch, dtype))


# (name, fn, dtype of x, dtype of the per-channel operands): written with operators, so the same code runs on
# NumPy arrays (the oracle) and on torch tensors (the traced graph)
_CASES = [
    ("uint8 image to float32", lambda x, m, s: (_cast(x, "float32") / 255.0 - m) / s, np.uint8, np.float32),
    ("float32 affine", lambda x, m, s: x * s + m, np.float32, np.float32),
    ("float64 centering", lambda x, m, s: (x - m) * s, np.float64, np.float64),
    ("int64", lambda x, m, s: x * s - m, np.int64, np.int64),
    ("int32 to float64, a comparison", lambda x, m, s: _cast(x, "float64") * s + (x > m), np.int32, np.float64),
]


def _data(shape, x_dtype, c_dtype, c_shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 200, shape).astype(x_dtype) if np.dtype(x_dtype).kind in "iu" \
        else rng.standard_normal(shape).astype(x_dtype)
    m = rng.integers(1, 9, c_shape).astype(c_dtype) if np.dtype(c_dtype).kind == "i" \
        else rng.uniform(0.1, 1.0, c_shape).astype(c_dtype)
    s = (m + 1).astype(c_dtype)
    return x, m, s


def _rewritten(fn, *arrays):
    gm = make_fx(fn, decomposition_table=select_decomp_table(), tracing_mode="fake")(
        *(torch.from_numpy(a) for a in arrays))
    SmallInnerAxisPass()(gm.graph)
    gm.graph.lint()
    gm.recompile()
    return gm


def _fired(gm):
    return any(n.meta.get(STORE) for n in gm.graph.nodes)


def _check(fn, *arrays, fires):
    gm = _rewritten(fn, *arrays)
    assert _fired(gm) == fires, gm.graph
    got = gm(*(torch.from_numpy(a) for a in arrays))
    got = tuple(g.numpy() for g in got) if isinstance(got, (tuple, list)) else got.numpy()
    assert _exact(got, fn(*arrays))


def _exact(got, want):
    """NumPy's values bit for bit (NaNs equal), dtypes and shapes: only the indexing changed."""
    pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
    return same(got, want) and all(np.array_equal(g, w, equal_nan=g.dtype.kind == "f") for g, w in pairs)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 7, 8, 12])
@pytest.mark.parametrize("name, fn, x_dtype, c_dtype", _CASES, ids=[c[0] for c in _CASES])
@pytest.mark.parametrize("lead, c_shape", [((64, 32), "k"), ((64, 32), "1,1,k"), ((2047,), "k")],
                         ids=["rows divide, operands (k,)", "rows divide, operands (1, 1, k)", "rows do not divide"])
def test_results_equal_numpy_and_the_pass_fires_where_rows_divide(k, name, fn, x_dtype, c_dtype, lead, c_shape):
    c_shape = (k,) if c_shape == "k" else (1, 1, k)
    _check(fn, *_data((*lead, k), x_dtype, c_dtype, c_shape), fires=k != 1 and lead != (2047,))


@pytest.mark.parametrize("why, fn, shapes", [
    ("an operand varying along a leading axis", lambda x, y: x * y - 1.0, [(4096, 3), (4096, 1)]),
    ("an intermediate also returned", lambda x, y: (d := x - y, d * 2.0), [(4096, 3), (3,)]),
    ("a transposed operand", lambda x, y: x.T - y, [(3, 4096), (3,)]),
    ("the result is reduced", lambda x, y: (x - y).sum(0), [(4096, 3), (3,)]),
    ("too few elements", lambda x, y: x - y, [(16, 3), (3,)]),
    ("a multiple of the row", lambda x, y: x - y, [(256, 32), (32,)]),
    ("no per-channel operand: Inductor's loop is flat", lambda x, y: x * 2.0 - abs(x), [(4096, 3), (3,)]),
])
def test_other_regions_are_left_alone(why, fn, shapes):
    rng = np.random.default_rng(1)  # (whole numbers: sums in any order are exact)
    _check(fn, *(rng.integers(-50, 50, s).astype(np.float64) for s in shapes), fires=False)


def test_a_transcendental_function_is_left_alone():  # (its vector form may differ from the scalar one in the last bit)
    x, m, _ = _data((4096, 3), np.float64, np.float64, (3,))
    assert not _fired(_rewritten(lambda x, m: torch.exp(x * m), x, m))
    assert _fired(_rewritten(lambda x, m: torch.sqrt(x * m), x, m))


def test_single_element_operands_keep_their_dtype_promotion():
    def fn(x, m, s, t, u):  # t (1, 1) float64 promotes the float32 result, u 0-d float32 does not
        return ((x - m) * s + u) / t

    x, m, s = _data((2048, 3), np.float32, np.float32, (3,))
    _check(fn, x, m, s, np.array([[3.0]]), np.array(0.5, np.float32), fires=True)


def test_a_result_returned_through_a_view_of_its_own_shape():
    def fn(x, m):  # (the NumPy shim's np.where returns such an expand)
        out = (x > 0) * x * m
        return out.expand(*out.shape) if isinstance(out, torch.Tensor) else np.broadcast_to(out, out.shape)

    x, m, _ = _data((4096, 3), np.float64, np.float64, (3,))
    _check(fn, x, m, fires=True)


def test_the_pass_is_installed_for_cpu_graphs_only():
    assert "SmallInnerAxisPass" in installed_passes("post_grad_custom_post_pass")
    assert not installed_passes("post_grad_custom_post_pass", "cuda")


@pytest.mark.inductor
def test_channels_last_normalization_compiled_matches_numpy():
    def k_nt(img, mean, std):
        x = img.astype(np.float32) / 255.0
        return (x - mean) / std, img - mean.astype(np.float64)[None, None, :]

    img, mean, std = _data((64, 48, 3), np.uint8, np.float32, (3,))
    got, want = C.compile(k_nt)(img, mean, std), k_nt(img, mean, std)
    assert _exact(got, want)
