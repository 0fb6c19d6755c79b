"""Reductions fold their vector lanes in a tree (``npcompile/inductor/_lane_folds.py``): float64 and float32 sums of
8 and 16 contiguous elements round as NumPy's pairwise sum; integer sums, maxima, minima, argmax and argmin are
NumPy's."""

import numpy as np
import pytest


@pytest.mark.inductor
@pytest.mark.parametrize("simdlen", [None, 256], ids=["native", "avx2"])
def test_row_folds_match_numpy(simdlen):
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    from npcompile import _compile as C

    def f(a8, a16, x, c, m, i, t):
        d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(axis=-1)  # a k-means distance: 8 dimensions
        s8, s16 = a8.astype(np.float32), a16.astype(np.float32)
        return (a8.sum(axis=-1), a16.sum(axis=-1), d2, np.max(m, axis=-1), np.min(m, axis=-1),
                s8.sum(axis=-1), s16.sum(axis=-1), np.max(s16, axis=-1),
                i.sum(axis=-1), i.sum(axis=-1, dtype=np.int32), i.max(axis=-1), np.count_nonzero(i > 0, axis=-1),
                np.argmax(m, axis=-1), np.argmin(t, axis=-1), np.argmax(t.astype(np.float32), axis=-1),
                a8.prod(axis=-1))

    rng = np.random.default_rng(0)
    wide = lambda *shape: rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)  # noqa: E731
    m = rng.standard_normal((3000, 16))
    m[::7, 3] = np.nan
    i = rng.integers(-2**40, 2**40, (4000, 12))  # (int32 sums wrap around)
    t = rng.integers(0, 4, (5000, 10)).astype(np.float64)  # ties: the first one wins
    t[::9, 7] = np.nan  # the first NaN wins
    args = wide(5000, 8), wide(3000, 16), wide(2000, 8), wide(16, 8), m, i, t
    with inductor_config.patch({"cpp.simdlen": simdlen}):
        got, code = run_and_get_code(C.compile(f), *args)
    *exact, prod = zip(got, f(*args))
    for k, (g, w) in enumerate(exact):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")  # bit for bit, NaNs where NumPy's are
    np.testing.assert_allclose(*prod, rtol=1e-15)  # (in ATen's order: NumPy's up to 8 lanes of one vector)
    code = "".join(code)
    assert all(f"npc_fold::tree<{t}, " in code for t in ("double", "float", "int64_t", "int32_t"))
    assert "npc_fold::ordered<double, " in code
