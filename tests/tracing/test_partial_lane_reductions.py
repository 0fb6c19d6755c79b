"""Reductions of 1-byte integers along the contiguous axis in compiled code (``npcompile/inductor/
_partial_lane_reductions.py``): Inductor's vectors of int8/uint8 hold fewer elements than lanes, and the filler
lanes (1s) were folded in: ``a.min()`` of a uint8 image whose darkest pixel is 2 gave 1."""
import numpy as np
import pytest

from npcompile import _compile as C


def _reductions(u, s):
    return (u.min(), u.min(axis=1), u.max(axis=1), u.sum(dtype=np.uint8), u.sum(axis=1, dtype=np.uint8),
            s.max(), s.max(axis=1), s.min(axis=1), s.sum(dtype=np.int8), s.sum(axis=1, dtype=np.int8),
            np.bitwise_and.reduce(u, axis=1), s.prod(axis=1, dtype=np.int8), s[:, :8].max(axis=1), u.sum(axis=0))


@pytest.mark.inductor
@pytest.mark.parametrize("simdlen", [None, 256], ids=["native", "avx2"])
def test_byte_reductions_fold_only_elements(simdlen):
    """uint8 values from 2 up and int8 values all negative (a filler lane of 1 would be the min, the max), rows of
    37 (vectors and a scalar tail), sums that wrap: every result is NumPy's, bit for bit."""
    import torch._inductor.config as inductor_config

    rng = np.random.default_rng(7)
    u = rng.integers(2, 256, (30, 37)).astype(np.uint8)
    s = -rng.integers(2, 128, (30, 37)).astype(np.int8)
    with inductor_config.patch({"cpp.simdlen": simdlen}):
        got = C.compile(_reductions)(u, s)
    for g, w in zip(got, _reductions(u, s), strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w), (g, w)


def _row_reductions(u):
    return u.min(axis=1), (u > 100).sum(axis=1), np.isnan(u - 3.0).sum(axis=0)


@pytest.mark.inductor
def test_byte_reductions_of_varying_widths():
    """Widths that change between calls make the kernels' sizes symbolic, and a tail kernel's element count with
    them (the fold once compared such a count with the lanes, and the compile failed)."""
    f = C.compile(_row_reductions)
    rng = np.random.default_rng(8)
    for width in (37, 13, 100):
        u = rng.integers(2, 200, (9, width)).astype(np.uint8)
        for g, w in zip(f(u), _row_reductions(u), strict=True):
            assert g.dtype == w.dtype and np.array_equal(g, w), (width, g, w)
