"""A running sum of an array led by +0.0 scans the array itself (``npcompile/inductor/_zero_led_scans.py``): NumPy's
sums to the bit and zero sign, along any axis; a -0.0 lead keeps the scan of the joined array."""

import numpy as np
import pytest

from npcompile import _compile as C


def _running_sums(x, m):
    lead = np.cumsum(np.concatenate((np.zeros(1), x)))
    rows = np.cumsum(np.concatenate((np.zeros((m.shape[0], 1)), m), axis=1), axis=1)
    negative = np.cumsum(np.concatenate((np.array([-0.0]), x)))
    return (lead[50:] - lead[:-50]) / 50, rows, negative


@pytest.mark.inductor
def test_zero_led_running_sums_scan_the_array_itself_with_numpys_sums():
    from torch._inductor.utils import run_and_get_code

    rng = np.random.default_rng(0)
    x, m = rng.standard_normal(40_000), rng.standard_normal((300, 200))
    x[:3] = m[:5, :2] = -0.0  # (0.0 + -0.0 is +0.0 in NumPy's sums too)
    got, codes = run_and_get_code(C.compile(_running_sums), x, m)
    code = "".join(codes)
    assert code.count("aten.cumsum.default(arg") == 2 and code.count("npcompile.running_sum.default(") == 1
    for g, w in zip(got, _running_sums(x, m)):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
        assert np.array_equal(np.signbit(g), np.signbit(w))
