"""The Inductor (C++) tests of the default run: kept tiny."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C
from npcompile.tracing._dynamo_patch import _torch_version

from .conftest import same


@pytest.mark.inductor
def test_inductor_fused_kernel_matches_numpy():
    @C.compile
    def f(a, b):
        return np.sin(a) * b + 1.0

    x, y = np.random.rand(16), np.random.rand(16)
    assert same(f(x, y), np.sin(x) * y + 1.0)
    x2 = np.random.rand(16)
    assert same(f(x2, y), np.sin(x2) * y + 1.0)


@pytest.mark.inductor
@pytest.mark.xfail(_torch_version() < (2, 13), strict=True,
                   reason="torch 2.11's C++ code ignores emulate_precision_casts (README: deviations)")
def test_inductor_rounds_float16_as_numpy():
    """NumPy rounds each float16 result; fused code must too (without emulate_precision_casts, a*b+c kept a*b in
    float32 and differed in about a quarter of the elements, and histogram bins of float16 data moved)."""
    @C.compile
    def f(a, b, c):
        return a * b + c, np.histogram(a, bins=7, range=(-2.5, 3.1))

    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(4096).astype(np.float16) for _ in range(3))
    edges = np.histogram_bin_edges(a, bins=7, range=(-2.5, 3.1))
    a[:16] = np.concatenate([edges, np.nextafter(edges, np.inf)])[:16]  # values on and next to the edges
    got, (counts, got_edges) = f(a, b, c)
    assert got.dtype == np.float16 and np.array_equal(got, a * b + c)
    want = np.histogram(a, bins=7, range=(-2.5, 3.1))
    assert np.array_equal(counts, want[0]) and np.array_equal(got_edges, want[1])


@pytest.mark.inductor
def test_inductor_settings_are_scoped():
    import torch._inductor.config as ic

    seen = {}

    def spy(gm, example_inputs):
        from npcompile.inductor import make_inductor_backend

        seen["during"] = None
        backend = make_inductor_backend(None, None, None)
        compiled = backend(gm, example_inputs)
        return compiled

    before = (ic.size_asserts, ic.comprehensive_padding)
    f = C.compile(lambda a: a * 2 + 1, backend=spy)
    x = np.arange(8.0)
    assert same(f(x), x * 2 + 1)
    assert (ic.size_asserts, ic.comprehensive_padding) == before
    from npcompile.inductor import inductor_options

    opts = inductor_options()
    assert opts["comprehensive_padding"] is False and opts["cpp_wrapper"] is False
    # CPU graphs draw random numbers with ATen's generators; CUDA graphs keep Inductor's fused Triton RNG.
    assert opts["fallback_random"] is True
    assert "fallback_random" not in inductor_options(device_type="cuda")
    assert inductor_options({"fallback_random": False})["fallback_random"] is False


@pytest.mark.inductor
def test_searches_of_a_transposed_array_print_no_torch_warning(capfd):
    """ATen's searchsorted warns on stderr when handed strided operands; Inductor's CPU code handed it the shim's
    ``.contiguous()`` copy of a transposed array in the array's own layout (``np.digitize(a.T, bins)``)."""
    f = C.compile(lambda a: (np.digitize(a, [-1.0, 0.0, 1.0]), np.searchsorted(np.sort(a.ravel()), a)))
    a = np.random.default_rng(3).standard_normal((5, 6)).T
    warn_always = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # (the warning is one per process otherwise)
    try:
        got = f(a)
    finally:
        torch.set_warn_always(warn_always)
    assert same(got[0], np.digitize(a, [-1.0, 0.0, 1.0])) and same(got[1], np.searchsorted(np.sort(a.ravel()), a))
    assert "non-contiguous" not in capfd.readouterr().err


@pytest.mark.inductor
def test_cached_kernels_are_not_reused_for_another_vector_isa(monkeypatch):
    """Inductor's cache key leaves out the vector ISA its C++ was written for: one compile under
    ATEN_CPU_CAPABILITY=default (simulated: no vector ISA, capability DEFAULT) stored scalar kernels that later
    processes with AVX-512 loaded.  Our compiles key on the capability too, so the second compile is fresh."""
    from torch._inductor import cpu_vec_isa
    from torch._inductor.utils import fresh_cache, run_and_get_code

    if not cpu_vec_isa.pick_vec_isa():
        pytest.skip("this CPU has no vector ISA Inductor uses")
    x = np.arange(1000.0)
    with fresh_cache():
        with monkeypatch.context() as m:
            m.setattr(cpu_vec_isa, "pick_vec_isa", lambda: cpu_vec_isa.invalid_vec_isa)
            m.setattr(torch.backends.cpu, "get_cpu_capability", lambda: "DEFAULT")
            got, scalar = run_and_get_code(C.compile(lambda a: a * 2.5 + 1.0), x)
        torch._dynamo.reset()
        again, vector = run_and_get_code(C.compile(lambda a: a * 2.5 + 1.0), x)
    assert same(got, x * 2.5 + 1.0) and same(again, x * 2.5 + 1.0)
    assert "at::vec" not in "".join(scalar) and "at::vec" in "".join(vector)
