"""wrap_numpy: tensors in, tensors out, gradients through NumPy code, no host copies, device checks."""

import numpy as np
import pytest
import torch

from npcompile.wrap_numpy import wrap_numpy


def elementwise(x):
    return np.exp(np.sin(x) * 2.0) - np.tanh(x) / (1.0 + x * x)


def reductions(x):
    return np.sum(x, axis=0) + np.mean(x, axis=1).sum() + np.var(x, axis=0, ddof=1)


def products(x, y):
    return np.einsum("ij,kj->ik", x, y) + x @ y.T


def solve(x):
    a = x[:3, :3] + 4 * np.eye(3)
    return np.linalg.solve(a, x[:3, 3])


def inverse_det(x):
    a = x[:3, :3] + 4 * np.eye(3)
    return np.linalg.inv(a) * np.linalg.det(a)


def norms(x):
    return np.linalg.norm(x, axis=1) + np.linalg.norm(x)


def where(x):
    return np.where(x > 0, x * x, -x)


def fancy(x):
    return x[[0, 2, 2], 1:] + np.take(x, [1, 0], axis=1).sum()


def cumulative(x):
    return np.cumsum(x, axis=1) * np.cumprod(x[:, :2] * 0.1 + 1, axis=0).sum()


def median(x):
    return np.median(x, axis=0)


def fft_roundtrip(x):
    return np.fft.irfft(np.fft.rfft(x, axis=1) * 2.0, n=x.shape[1], axis=1)


def join(x):
    return np.concatenate([x, x * 2], axis=0) + np.stack([x, -x])[1].sum()


def clip(x):
    return np.clip(x, -0.5, 0.5) * x


def stats(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def sorted_(x):
    return np.sort(x, axis=1)[:, ::2]


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


UNARY = [elementwise, reductions, solve, inverse_det, norms, where, fancy, cumulative, median, fft_roundtrip,
         join, clip, stats, sorted_, softmax]


def _x(seed=0, shape=(4, 5)):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=g, dtype=torch.float64, requires_grad=True)


@pytest.mark.parametrize("fn", UNARY, ids=lambda f: f.__name__)
def test_gradcheck_eager(fn):
    assert torch.autograd.gradcheck(wrap_numpy(fn), (_x(),))


def test_gradcheck_eager_binary():
    assert torch.autograd.gradcheck(wrap_numpy(products), (_x(0), _x(1)))


@pytest.mark.parametrize("fn", UNARY, ids=lambda f: f.__name__)
def test_values_match_numpy(fn):
    x = _x()
    got = wrap_numpy(fn)(x)
    want = fn(x.detach().numpy())
    assert isinstance(got, torch.Tensor)
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-10, atol=1e-12)


def test_containers_and_scalars_pass_through():
    @wrap_numpy
    def f(d, pair, k):
        a, b = pair
        return {"s": np.sum(d["x"]), "t": (a + b, k)}

    x = torch.ones(3, dtype=torch.float64)
    r = f({"x": x}, (x, x), 7)
    assert isinstance(r["s"], torch.Tensor) and r["s"].ndim == 0 and r["s"].item() == 3.0
    assert torch.equal(r["t"][0], 2 * x) and r["t"][1] == 7


def test_no_host_copy_on_meta_device():
    """The meta device has no data: any host copy (``.numpy()``, ``__array__``) would raise."""
    x = torch.empty(4, 5, device="meta", dtype=torch.float64)
    for fn in (elementwise, where, softmax, join):
        r = wrap_numpy(fn)(x)
        assert r.device.type == "meta"


def test_mixed_devices_raise_naming_both():
    with pytest.raises(RuntimeError, match="meta.*cpu|cpu.*meta"):
        wrap_numpy(products)(torch.empty(2, 2, device="meta"), torch.ones(2, 2))


def test_integer_results_have_no_grad_fn():
    r = wrap_numpy(lambda x: np.argsort(x, axis=1))(_x())
    assert r.grad_fn is None and r.dtype == torch.int64


@pytest.mark.parametrize("fn", UNARY, ids=lambda f: f.__name__)
def test_gradcheck_under_npcompile(fn):
    import npcompile

    f = npcompile.compile(wrap_numpy(fn), backend="aot_eager", fullgraph=True)
    x = _x()
    np.testing.assert_allclose(f(x).detach().numpy(), fn(x.detach().numpy()), rtol=1e-10, atol=1e-12)
    assert torch.autograd.gradcheck(f, (x,))


def test_gradcheck_under_npcompile_binary():
    import npcompile

    f = npcompile.compile(wrap_numpy(products), backend="aot_eager", fullgraph=True)
    assert torch.autograd.gradcheck(f, (_x(0), _x(1)))


@pytest.mark.parametrize("fn", UNARY, ids=lambda f: f.__name__)
def test_gradcheck_under_plain_torch_compile(fn):
    f = torch.compile(wrap_numpy(fn), backend="aot_eager", fullgraph=True)
    x = _x()
    np.testing.assert_allclose(f(x).detach().numpy(), fn(x.detach().numpy()), rtol=1e-10, atol=1e-12)
    assert torch.autograd.gradcheck(f, (x,))


def test_plain_torch_compile_has_numpys_semantics():
    """Under a plain torch.compile the body runs on our shim, not Dynamo's torch._numpy, which lacks nanmean and
    ``a.dtype``, returns a NumPy scalar's dtype differently, and draws no NumPy random numbers."""
    def f(x):
        m = np.nanmean(np.where(x > 0, x, np.nan), axis=0)
        return m.astype(np.float32) + np.float32(x.dtype.itemsize), np.float64(2) * np.int8(3)

    x = _x()
    got = torch.compile(wrap_numpy(f), backend="aot_eager", fullgraph=True)(x)
    want = f(x.detach().numpy())
    assert got[0].dtype == torch.float32 and got[1].dtype == torch.float64 and got[1].ndim == 0
    np.testing.assert_allclose(got[0].detach().numpy(), want[0], rtol=1e-6)
    assert got[1].item() == want[1]
    assert got[0].grad_fn is not None
    draw = torch.compile(wrap_numpy(lambda x: x + np.random.standard_normal(x.shape)), backend="aot_eager",
                         fullgraph=True)(x)
    assert draw.shape == x.shape and draw.grad_fn is not None


def test_plain_torch_compile_many_wrapped_functions():
    """Each wrapped function compiles on its own: they do not share torch.compile's per-frame recompile limit."""
    for k in range(torch._dynamo.config.recompile_limit + 2):
        f = torch.compile(wrap_numpy(lambda x, k=k: np.sin(x) * k), backend="eager", fullgraph=True)
        x = _x()
        assert torch.allclose(f(x), torch.sin(x) * k)


def test_plain_torch_compile_branch_on_data_breaks_and_stays_right():
    """A branch on the data cannot be one graph: the call is a graph break and runs eagerly, gradients included."""
    def f(x):
        return x * 2 if np.sum(x) > 0 else -x

    for sign in (1, -1):
        x = (sign * _x().detach().abs()).requires_grad_()
        got = torch.compile(wrap_numpy(f), backend="aot_eager")(x)
        np.testing.assert_array_equal(got.detach().numpy(), f(x.detach().numpy()))
        got.sum().backward()
        assert torch.equal(x.grad, torch.full_like(x, 2.0 if sign > 0 else -1.0))


@pytest.mark.inductor
def test_gradcheck_inductor():
    import npcompile

    f = npcompile.compile(wrap_numpy(softmax))
    assert torch.autograd.gradcheck(f, (_x(shape=(3, 4)),))


@pytest.mark.skipif(torch.__version__ < "2.13", reason="torch 2.11 still shares the sizes (another key): the "
                    "second function compiles with symbolic sizes, with the same answers")
def test_wrapped_functions_of_one_name_keep_their_own_sizes():
    """Dynamo keeps what it learnt of sizes per file, line and name: two wrapped functions both named ``solve``
    made the second one's sizes symbolic (and a symbolic graph's backward refuses gradcheck's second pass)."""
    import npcompile

    shapes = []

    def backend(gm, example_inputs):
        shapes.append([x.shape if isinstance(x, torch.Tensor) else x for x in example_inputs])
        return gm.forward

    def solve(x):
        return np.linalg.solve(x[:4, :4] + 4 * np.eye(4), x[:4, 4])

    npcompile.compile(wrap_numpy(solve), backend=backend, fullgraph=True)(torch.ones(6, 8, dtype=torch.float64))

    def solve(x):  # noqa: F811 - another function of the same name
        return np.linalg.solve(x[:3, :3] + 4 * np.eye(3), x[:3, 3])

    npcompile.compile(wrap_numpy(solve), backend=backend, fullgraph=True)(torch.ones(4, 5, dtype=torch.float64))
    assert shapes == [[(6, 8)], [(4, 5)]]
