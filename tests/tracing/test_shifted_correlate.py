"""Traced, ``np.convolve`` / ``np.correlate`` with a short second operand are sums of shifted slices
(npcompile/_numpy/_math.py, ``_shifted_sum``): one fused loop instead of conv1d's unfolded copy; NumPy's values in
every mode, either operand the longer one."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C

from .pass_backend import PassBackend


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("mode", ["valid", "same", "full"])
def test_short_kernels_match_numpy(mode, dtype):
    rng = np.random.default_rng(4)
    a = (rng.standard_normal(1000) * 10).astype(dtype)
    k = (rng.standard_normal(7) * 10).astype(dtype)
    backend = PassBackend(lambda graph: None)
    f = C.compile(lambda a, k: (np.convolve(a, k, mode), np.correlate(a, k, mode), np.convolve(k, a, mode)),
                  backend=backend)
    for got, want in zip(f(a, k), (np.convolve(a, k, mode), np.correlate(a, k, mode), np.convolve(k, a, mode))):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-3)
    if dtype != np.int64:
        assert not backend.calls({torch.ops.aten.convolution.default})
