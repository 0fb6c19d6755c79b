"""float16 sums rounded where NumPy rounds (``_ufunc_methods._half_steps``), through the compiler and with
gradients: a short outer axis unrolls into the graph, a long one (or a product) runs in NumPy."""

import numpy as np
import pytest
import torch

import npcompile
from npcompile.tracing._dynamo_patch import _torch_version

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _column_sums(x):
    return np.sum(x, axis=0) * np.float16(2), x.sum(axis=(0, 2)) if x.ndim == 3 else x.sum(axis=1)


_INDUCTOR = pytest.param("inductor", (12, 5, 9), marks=pytest.mark.xfail(
    _torch_version() < (2, 13), strict=True, reason="torch 2.11's C++ code ignores emulate_precision_casts (README)"))


@pytest.mark.parametrize("backend, shape", [("aot_eager", (40, 6)), ("aot_eager", (12, 5, 9)), _INDUCTOR])
def test_short_outer_axis_traces_in_numpys_rounding(backend, shape):
    x = (np.random.default_rng(0).random(shape) * 100).astype(np.float16)
    report = npcompile.explain(_column_sums)(x)
    assert report.fallbacks == [] and report.graph_count == 1, report
    got = npcompile.compile(_column_sums, backend=backend, fullgraph=True)(x)
    for g, w in zip(got, _column_sums(x)):
        assert g.dtype == w.dtype == np.float16 and np.array_equal(g, w)


def test_long_outer_axis_and_products_run_in_numpy():
    x = np.ones((5000, 3), np.float16)
    f = npcompile.compile(lambda x: (np.sum(x, axis=0), np.prod(x[:8] * np.float16(1.1), axis=0)),
                          backend="aot_eager")
    s, p = f(x)
    assert np.array_equal(s, np.full(3, 2048, np.float16))  # NumPy's float16 accumulator stops at 2048
    assert np.array_equal(p, np.prod(x[:8] * np.float16(1.1), axis=0))


def test_gradients_flow_through_the_rounded_steps():
    x = torch.from_numpy((np.random.default_rng(1).random((30, 4)) * 100).astype(np.float16)).requires_grad_()
    y = npcompile.wrap_numpy(lambda a: np.sum(a, axis=0))(x)
    assert np.array_equal(y.detach().numpy(), np.sum(x.detach().numpy(), axis=0))
    y.float().sum().backward()
    assert torch.equal(x.grad, torch.ones_like(x))
