"""int64 -> float64 vector conversions in one AVX-512 instruction (``npcompile/inductor/_int64_doubles.py``):
NumPy's values, rounded to nearest, for every int64."""

import numpy as np
import pytest
import torch


@pytest.mark.inductor
def test_int64_to_double_rounds_as_numpy():
    from torch._inductor.utils import run_and_get_code

    from npcompile import _compile as C

    def f(x, i):
        return x / np.arange(1, x.shape[1] + 1), i.astype(np.float64), x * i[:64]

    rng = np.random.default_rng(0)
    i = np.concatenate([[2**53 + 1, 2**53 + 3, -(2**62) - 3, 2**63 - 1, -2**63, 123456789123456789],
                        rng.integers(-2**63, 2**63 - 1, 4000, dtype=np.int64)])
    x = rng.standard_normal((300, 64))
    got, code = run_and_get_code(C.compile(f), x, i)
    for g, w in zip(got, f(x, i)):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
    if torch.backends.cpu.get_cpu_capability() == "AVX512":
        assert "_mm512_cvtepi64_pd" in "".join(code)
