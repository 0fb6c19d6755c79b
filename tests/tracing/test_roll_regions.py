"""Elementwise results of rolled arrays computed box by box (npcompile/inductor/_roll_regions.py).

Through ``PassBackend``: NumPy's values bit for bit, and no roll left where the pass must act (or left where it must
not); one test compiles with Inductor."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C
from npcompile.inductor import inductor_options
from npcompile.inductor._roll_regions import STREAMED_BYTES, RollRegionPass, _aligned_cut

from .pass_backend import PassBackend


def _run(fn, *args):
    backend = PassBackend(RollRegionPass())
    got = C.compile(fn, backend=backend)(*args)
    expected = fn(*args)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    return backend


def laplacian(u):
    return np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1) - 4 * u


_U = np.random.default_rng(0).standard_normal((260, 270))  # (more elements than _roll_regions._MIN)
_V = np.random.default_rng(1).standard_normal((40, 41, 42)).astype(np.float32)


@pytest.mark.parametrize("fn, arg", [
    (laplacian, _U),
    (lambda u: np.roll(u, (1, -2), (0, 1)) * 2.0 - np.roll(u, 300, 0) + u, _U),  # nested; a shift beyond the size
    (lambda u: np.where(np.roll(u, 5, 1) > u, np.roll(u, -7, 1), np.float64(0.5)), _U),  # a 0-d operand
    (lambda v: sum(np.roll(v, s, a) for s in (1, -1) for a in range(3)) - 6 * v, _V),  # 3-D: 27 boxes
], ids=["laplacian", "nested and wrapped", "where and scalars", "3-D"])
def test_rolled_operands_become_slices(fn, arg):
    backend = _run(fn, arg)
    assert backend.graphs and not backend.calls({torch.ops.aten.index.Tensor})


@pytest.mark.parametrize("fn, arg", [
    (laplacian, _U[:50, :50]),  # small
    (lambda u: np.roll(u, 1, 0) + u[0], _U),  # a broadcast operand
    (lambda u: np.roll(u, 1, 0)[::2] + 1, _U),  # a roll read through a view
], ids=["small", "broadcast operand", "a view of it"])
def test_rolls_stay_where_the_pass_does_not_apply(fn, arg):
    backend = _run(fn, arg)
    assert backend.calls({torch.ops.aten.index.Tensor})


@pytest.mark.inductor
def test_a_size_read_from_the_data_is_left_alone():
    """Comparing such a size with another guards on the data: an error in a post-grad pass, where Inductor's compile
    failed and npcompile ran np.bincount's kernel again uncompiled, at half the speed."""
    def counts(x, w):
        idx = np.clip((x * 256).astype(np.int64), 0, 255)
        return np.bincount(idx, minlength=256), np.bincount(idx, weights=w, minlength=256)

    x, w = _U.ravel() % 1, np.abs(_U.ravel())  # (positive weights: sums without cancellation)
    got, want = C.compile(counts, fullgraph=True)(x, w), counts(x, w)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)


def test_the_pass_is_installed_for_cpu_graphs():
    passes, p = [], inductor_options()["post_grad_custom_post_pass"]
    while p is not None:
        passes.append(type(p))
        p = p.first
    assert RollRegionPass in passes


def test_a_large_result_cuts_its_rows_where_a_line_starts():
    """The interior box's rows start on a 64-byte line (so they stream), where every row does (2048 doubles)."""
    def cut(shape, dtype=torch.float64, cuts=(0, 1, 2047, 2048)):
        return _aligned_cut(list(cuts), torch.empty(shape, dtype=dtype, device="meta"))

    assert STREAMED_BYTES == 16 << 20  # (the sizes below)
    assert cut((1024, 2048)) == [0, 1, 8, 2047, 2048]
    assert cut((2048, 2048), torch.float32, (0, 1, 2046, 2048)) == [0, 1, 16, 2046, 2048]
    assert cut((1024, 2048), cuts=(0, 2040, 2048)) == [0, 2040, 2048]  # the longest interval starts on a line
    assert cut((1024, 2048), cuts=(0, 1, 5, 2048)) == [0, 1, 5, 8, 2048]
    assert cut((1026, 2046), cuts=(0, 1, 2045, 2046)) == [0, 1, 2045, 2046]  # rows start off the lines
    assert cut((512, 2048)) == [0, 1, 2047, 2048]  # 8 MB: stored plainly anyway
    assert cut((2048, 1024)).__len__() == 5 and cut((2048, 1024)[::-1]).__len__() == 5


@pytest.mark.inductor
def test_inductor_rolled_laplacian_vectorized_and_streamed():
    """No modulo left in the generated code: the interior a vectorized loop over plain slices.  The result (16 MB)
    is written once per element, box by box, so its boxes stream their whole aligned vectors, in every loop."""
    from torch._inductor.utils import run_and_get_code

    u = np.random.default_rng(2).standard_normal((1024, 2048))
    got, code = run_and_get_code(C.compile(laplacian), u)
    np.testing.assert_array_equal(got, laplacian(u))
    code = "".join(code)
    assert "%" not in code.split('extern "C"')[1].split("async_compile.wait")[0] and "Vectorized" in code
    assert "npc_nt::store<true>(tmp" in code and "2056L + x1 + 2048L*x0" in code and "FenceOnReturn npc" in code
