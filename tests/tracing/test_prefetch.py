"""Reductions over the rows of large inputs prefetch the rows ahead (``npcompile/inductor/_prefetch.py``): they
keep NumPy's values (the last rows prefetch past the array's end), and small inputs, short rows and elementwise
loops are left alone."""

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile.inductor._prefetch import MIN_BYTES


def _rows(x, u):
    return x - x.max(axis=1, keepdims=True), u.min(axis=1), u[:-2, 1:-1] + u[2:, 1:-1] - 2.0 * u[1:-1, 1:-1]


@pytest.mark.inductor
def test_reductions_over_rows_of_large_inputs_prefetch_and_keep_numpys_values():
    from torch._inductor.utils import run_and_get_code

    rng = np.random.default_rng(0)
    x = rng.standard_normal((MIN_BYTES // 4096 + 1, 1024), dtype=np.float32)  # rows of 4 KB: one row ahead
    u = rng.random((MIN_BYTES // 1024, 128))  # rows of 1 KB: two rows ahead
    got, codes = run_and_get_code(C.compile(_rows), x, u)
    code = "".join(codes)
    assert "__builtin_prefetch(in_ptr0 + static_cast<int64_t>(1024L + x1 + 1024L*x0))" in code
    assert "__builtin_prefetch(in_ptr1 + static_cast<int64_t>(256L + x1 + 128L*x0))" in code
    assert code.count("__builtin_prefetch") == 2  # the stencil, an elementwise loop, does not
    for g, w in zip(got, _rows(x, u)):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)


@pytest.mark.inductor
def test_small_inputs_and_short_rows_do_not_prefetch():
    from torch._inductor.utils import run_and_get_code

    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 1024), dtype=np.float32)  # 256 KB: in the caches
    u = rng.random((MIN_BYTES // 256, 32))  # large, but rows of 256 bytes
    got, codes = run_and_get_code(C.compile(_rows), x, u)
    assert "__builtin_prefetch" not in "".join(codes)
    for g, w in zip(got, _rows(x, u)):
        assert np.array_equal(g, w)


@pytest.mark.inductor
def test_rows_of_symbolic_length_prefetch_a_row_or_the_distance_ahead():
    from torch._inductor.utils import run_and_get_code

    def f(x):
        return x - x.max(axis=1, keepdims=True)

    g = C.compile(f, dynamic=True)
    rng = np.random.default_rng(2)
    x = rng.random((MIN_BYTES // 8000 + 1, 1000))
    got, codes = run_and_get_code(g, x)
    assert "__builtin_prefetch(in_ptr0 + static_cast<int64_t>(x1 + ks1*x0 + std::max(" in "".join(codes)
    assert np.array_equal(got, f(x))
    for y in (rng.random((3000, 130)), rng.random((50, 7))):  # rows of 1 KB; a small input
        assert np.array_equal(g(y), f(y))
