"""The CUDA paths: NumPy code under ``with torch.device("cuda")``, wrap_numpy on CUDA tensors, the shim on the GPU,
and Inductor's Triton code.  Skipped without a GPU (CI has none); ``benchmarks/gpu_check.sh`` runs them on a
lent GPU machine.  ``NPC_TEST_DEVICE=cpu`` runs the same tests on the CPU, to check the tests themselves."""

import os

import numpy as np
import pytest
import torch

import npcompile
import npcompile._numpy as snp
from npcompile import wrap_numpy

DEVICE = os.environ.get("NPC_TEST_DEVICE") or ("cuda" if torch.cuda.is_available() else None)
pytestmark = pytest.mark.skipif(DEVICE is None, reason="needs a CUDA device")


def _numpy_code(a, b):
    b[0] += 1.0  # in place on the caller's array
    return np.exp(-a) * b[:, None] + a[1:].sum(axis=0) + np.cumsum(a, axis=1)[:, -1:], a[::2].T.copy()


def _args():
    rng = np.random.default_rng(0)
    return rng.standard_normal((64, 16)), rng.standard_normal(64)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_numpy_code_under_the_device_context(backend):
    want_args, got_args = _args(), _args()
    want = _numpy_code(*want_args)
    f = npcompile.compile(_numpy_code, backend=backend)
    for _ in range(2):
        got_args = _args()
        with torch.device(DEVICE):
            got = f(*got_args)
        for g, w in zip(got, want):
            assert type(g) is np.ndarray and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(got_args[1], want_args[1])


def test_the_graph_runs_on_the_device():
    seen = []

    def backend(gm, example_inputs):
        seen.extend(x.device.type for x in example_inputs if isinstance(x, torch.Tensor))
        return gm.forward

    a, b = _args()
    with torch.device(DEVICE):
        npcompile.compile(_numpy_code, backend=backend)(a, b)
    assert seen and set(seen) == {torch.device(DEVICE).type}


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def reductions(x):
    return np.sum(x, axis=0) + np.var(x, axis=1).mean() + np.linalg.norm(x, axis=0)


def solve(x):
    a = x[:4, :4] + 4 * np.eye(4)
    return np.linalg.solve(a, x[:4, 4]) * np.linalg.det(a)


def spectral(x):
    return np.fft.irfft(np.fft.rfft(x, axis=1) * 0.5, n=x.shape[1], axis=1) + np.median(x, axis=0)


def fancy(x):
    return np.where(x > 0, x, 0.1 * x)[[0, 2, 2]] + np.take(x, [1, 0], axis=1).sum()


FUNCTIONS = [softmax, reductions, solve, spectral, fancy]
MODES = {
    "eager": lambda f: f,
    "npcompile": lambda f: npcompile.compile(f, backend="aot_eager", fullgraph=True),
    "torch.compile": lambda f: torch.compile(f, backend="aot_eager", fullgraph=True),
}


def _x(dtype=torch.float64):
    g = torch.Generator().manual_seed(0)
    return torch.randn(6, 8, generator=g, dtype=dtype).to(DEVICE).requires_grad_()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_wrap_numpy_on_device_values_and_gradients(fn, mode):
    f = MODES[mode](wrap_numpy(fn))
    x = _x()
    got = f(x)
    assert got.device == x.device and got.grad_fn is not None
    np.testing.assert_allclose(got.detach().cpu().numpy(), fn(x.detach().cpu().numpy()), rtol=1e-10, atol=1e-12)
    assert torch.autograd.gradcheck(f, (x,))


class _HostCopies(torch.utils._python_dispatch.TorchDispatchMode):
    """Records every op that reads a device tensor and writes a CPU tensor (a copy to the host)."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        ins = [a for a in torch.utils._pytree.tree_leaves((args, kwargs)) if isinstance(a, torch.Tensor)]
        outs = [o for o in torch.utils._pytree.tree_leaves(out) if isinstance(o, torch.Tensor)]
        if any(a.device.type != "cpu" for a in ins) and any(o.device.type == "cpu" for o in outs):
            self.seen.append(str(func))
        return out


@pytest.mark.skipif(DEVICE == "cpu", reason="a host copy is only visible from a device")
@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_wrap_numpy_makes_no_host_copy(fn):
    x = _x()
    with _HostCopies() as spy:
        wrap_numpy(fn)(x).sum().backward()
    assert spy.seen == []


def test_mixed_pattern_inside_npcompile_stays_on_the_device():
    def f(t):
        z = np.sin(t.numpy()) * 2.0 + t.numpy().mean()
        return torch.from_numpy(z) + 1

    t = _x().detach()
    got = npcompile.compile(f, backend="aot_eager", fullgraph=True)(t)
    assert isinstance(got, torch.Tensor) and got.device == t.device
    torch.testing.assert_close(got, torch.sin(t) * 2 + t.mean() + 1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_issue_example_through_inductor(dtype):
    def outer_sum(X, Y):
        return np.sum(X[:, :, None] * Y[:, None, :], axis=(-2, -1))

    g = torch.Generator().manual_seed(1)
    X, Y = (torch.randn(1024, 64, generator=g, dtype=dtype).to(DEVICE) for _ in range(2))
    for f in (npcompile.compile(wrap_numpy(outer_sum)), torch.compile(wrap_numpy(outer_sum), fullgraph=True)):
        got = f(X, Y)
        assert got.device == X.device and got.dtype == dtype
        want = outer_sum(X.cpu().numpy().astype(np.float64), Y.cpu().numpy().astype(np.float64))
        np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-4 if dtype == torch.float32 else 1e-10,
                                   atol=1e-2 if dtype == torch.float32 else 1e-9)


def test_eager_shim_on_the_device():
    with torch.device(DEVICE):
        a = snp.arange(12.0).reshape(3, 4)
        r = (snp.sqrt(a) @ a.T).sum(axis=0)
    assert a.device.type == torch.device(DEVICE).type and r.device.type == a.device.type
    want = (np.sqrt(np.arange(12.0).reshape(3, 4)) @ np.arange(12.0).reshape(3, 4).T).sum(axis=0)
    np.testing.assert_allclose(np.asarray(r), want, rtol=1e-12)
    assert r.dtype == want.dtype and type(r.tolist()) is list


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_compiled_uniform_draws_have_numpys_resolution(dtype):
    """NumPy's float64 uniforms carry 53 random bits, its float32 ones 24: a draw made through float32 leaves
    the low 29 bits of every float64 zero."""
    def draw(n):
        return np.random.random(n).astype(dtype) if dtype == np.float32 else np.random.random(n)

    np.random.seed(0)
    with torch.device(DEVICE):
        u = npcompile.compile(draw)(1 << 16)
    assert u.dtype == dtype and 0.0 <= u.min() and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01
    if dtype == np.float64:
        low = (u * 2.0**53).astype(np.int64) & ((1 << 29) - 1)
        assert np.count_nonzero(low) > 0.9 * u.size
