"""float64 reductions fold their vector lanes in a tree (``npcompile/inductor/_double_lane_folds.py``): sums of 8
and 16 contiguous elements round as NumPy's pairwise sum, maxima and minima are NumPy's, products keep the
in-order fold NumPy's loop has."""

import numpy as np
import pytest


@pytest.mark.inductor
def test_float64_row_folds_match_numpy():
    from torch._inductor.utils import run_and_get_code

    from npcompile import _compile as C

    def f(a8, a16, x, c, m):
        d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(axis=-1)  # a k-means distance: 8 dimensions
        return a8.sum(axis=-1), a16.sum(axis=-1), d2, np.max(m, axis=-1), np.min(m, axis=-1), a8.prod(axis=-1)

    rng = np.random.default_rng(0)
    wide = lambda *shape: rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)  # noqa: E731
    m = rng.standard_normal((3000, 16))
    m[::7, 3] = np.nan
    args = wide(5000, 8), wide(3000, 16), wide(2000, 8), wide(16, 8), m
    got, code = run_and_get_code(C.compile(f), *args)
    for g, w in zip(got, f(*args)):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)  # bit for bit, NaNs where NumPy's are
    assert "npc_fold::tree<" in "".join(code)
