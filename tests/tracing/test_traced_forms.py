"""Shim functions that take a different torch form while traced, so Inductor can fuse them (a stack of tiny
matrix products as a broadcast sum; small integer powers as products): same answers and errors as NumPy."""

import numpy as np
import pytest
import torch
from torch._functorch.aot_autograd import aot_module_simplified

from npcompile import _compile as C


def _aten_ops(fn, *args):
    """The ATen ops of ``fn``'s captured graph (after AOT tracing), and its result."""
    seen = []

    def backend(gm, example_inputs):
        def inner(g, _):
            seen.extend(str(n.target) for n in g.graph.nodes if n.op == "call_function")
            return g.forward

        return aot_module_simplified(gm, example_inputs, fw_compiler=inner)

    return seen, C.compile(fn, backend=backend)(*args)


def test_tiny_matrix_stack_is_a_fused_broadcast_sum():
    rng = np.random.default_rng(0)
    rot, cov = rng.standard_normal((50, 3, 3)), rng.standard_normal((50, 3, 3))
    ops, got = _aten_ops(lambda r, c: r @ c @ np.swapaxes(r, -1, -2), rot, cov)
    np.testing.assert_allclose(got, rot @ cov @ np.swapaxes(rot, -1, -2), rtol=1e-13)
    assert not any("bmm" in o or "mm." in o for o in ops), ops
    big = rng.standard_normal((4, 8, 8))
    ops, got = _aten_ops(lambda a: a @ a, big)  # beyond the tiny size: a GEMM
    np.testing.assert_allclose(got, big @ big, rtol=1e-13)
    assert any("bmm" in o for o in ops), ops


def test_tiny_matrix_stack_errors_as_numpy():
    a, b = np.ones((5, 3, 1)), np.ones((5, 3, 3))  # k = 1 vs 3: would broadcast silently as a product
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        a @ b
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        C.compile(lambda x, y: x @ y, backend="aot_eager")(a, b)


# Literal exponents, as in user code (a scalar *argument* stays symbolic, and its power a pow call).
POWERS = {2: lambda v: v ** 2, 3: lambda v: v ** 3, -2: lambda v: v ** -2, 0.5: lambda v: v ** 0.5,
          -1: lambda v: np.power(v, -1), 4: lambda v: np.power(v, 4.0)}


@pytest.mark.parametrize("exponent", list(POWERS))
def test_small_powers_have_no_pow_call(exponent):
    x = np.random.default_rng(1).uniform(0.5, 2.0, 64).astype(np.float32)
    ops, got = _aten_ops(POWERS[exponent], x)
    np.testing.assert_allclose(got, x ** exponent, rtol=2e-7)
    assert got.dtype == np.float32
    assert not any("pow" in o for o in ops), ops
