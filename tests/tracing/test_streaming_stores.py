"""Large graph outputs are written with streaming stores (``npcompile/inductor/_streaming_stores.py``): the same
values, in every layout, also when a later kernel of the graph reads them."""

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile.inductor._streaming_stores import MIN_BYTES


@pytest.mark.inductor
@pytest.mark.parametrize("simdlen", [None, 256], ids=["native", "avx2"])
def test_large_outputs_stream_and_keep_numpys_values(simdlen):
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    def f(x, rows, small):
        y = x * 2.0 + 1.0  # a large output, read again by the cumulative sum's kernel
        return y, np.cumsum(y), np.sqrt(rows[1:-1, 1:-1]) - 0.5, small * 3.0, (x > 0.5).astype(np.float32)

    rng = np.random.default_rng(0)
    x = rng.random(MIN_BYTES // 8 + 3)  # 16 MB and a few elements: whole vectors stream, the tail does not
    rows = rng.random((1031, 2049))  # the interior's rows start at every alignment (2047 doubles each)
    small = rng.random(1000)
    with inductor_config.patch({"cpp.simdlen": simdlen}):  # (256: AVX2's 32-byte streaming stores)
        got, codes = run_and_get_code(C.compile(f), x, rows, small)
    code = "".join(codes)
    assert "npc_nt::store(" in code and "npc_nt::FenceOnReturn" in code
    for g, w in zip(got, f(x, rows, small)):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
    assert code.count("npc_nt::store(") < code.count(".store(")  # the small output, the float32 one stored plainly


@pytest.mark.inductor
def test_outputs_of_symbolic_size_stream_when_large_at_run_time():
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    def f(x):
        return x * 2.0 + 1.0

    g = C.compile(f, dynamic=True)
    x = np.random.default_rng(1).random(MIN_BYTES // 8 + 5)
    with inductor_config.patch({"cpp.threads": 2}):  # a team of a set size: the fence runs on a team as large
        got, codes = run_and_get_code(g, x)
    assert f">= {MIN_BYTES});" in "".join(codes) and "npc_nt_fence{2};" in "".join(codes)
    assert np.array_equal(got, f(x))
    for y in (x[:-1], x[1:1000], x[3:]):  # large, small, and another large one, through the same code
        assert np.array_equal(g(y), f(y))


@pytest.mark.inductor
def test_an_output_that_several_parallel_loops_write_stores_plainly():
    """The copy's border and the interior are written by separate loops of one kernel: no streaming for them."""
    from torch._inductor.utils import run_and_get_code

    def f(u):
        v = u.copy()
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        return v

    u = np.random.default_rng(2).random((1026, 2048))
    got, codes = run_and_get_code(C.compile(f), u)
    code = "".join(codes)
    assert "npc_nt::store<false>(" in code and "npc_nt::store(" not in code and "FenceOnReturn npc" not in code
    assert np.array_equal(got, f(u))
