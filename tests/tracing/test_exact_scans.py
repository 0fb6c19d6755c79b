"""Compiled scans and products that keep NumPy's exact answers without paying for them in the common case:
cumsum's zero signs (a leading run of -0.0 stays -0.0) behind a check of the first elements
(``_ufunc_methods.running_sum``), complex prod/cumprod through an op that runs NumPy's loop on small arrays
(``_ufunc_methods._complex_products``)."""

import numpy as np
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd

from npcompile import _compile as C
from npcompile.wrap_numpy import wrap_numpy


def _same_bits(got, want):
    got = np.asarray(got)
    return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


def _leading_negative_zeros(a):
    a = a.copy()
    a[0, :2] = -0.0
    a[:3, 0] = -0.0
    a[1, 1] = 0.0  # ends row 1's run with +0.0, whose sum is +0.0 in NumPy too
    return a


def test_traced_cumsum_checks_the_first_elements_before_fixing_zero_signs():
    """The fix of the run's sums reads the input a second time (a quarter of the compiled scan's time), so the
    traced scan of a CPU input over 128 KB is an op of ours that checks the first elements along the axis before
    fixing (not a cond: Inductor's graph cache refuses those): the same graph gives NumPy's bits with and without
    a leading -0.0."""
    graphs = []

    def keep(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    def f(a, z):
        return np.cumsum(a, axis=1), np.cumsum(a, axis=0), np.cumsum(z, axis=1)

    g = C.compile(f, backend=aot_autograd(fw_compiler=keep), fullgraph=True)
    a = np.random.default_rng(0).standard_normal((130, 130))
    for x in (a, _leading_negative_zeros(a)):
        z = x + 1j * x[::-1]
        assert all(_same_bits(got, want) for got, want in zip(g(x, z), f(x, z)))
    assert len(graphs) == 1
    targets = [n.target for n in graphs[0].graph.nodes]
    assert targets.count(torch.ops.npcompile.running_sum.default) == 3 and torch.ops.higher_order.cond not in targets



def test_traced_single_precision_cumsum_is_numpys_bits():
    """float32 and complex64 running sums, float32 running products, round every partial result as NumPy's loop
    does (torch's CPU scans work in double), small or large, compiled: the ops run NumPy's loops on the CPU."""
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((64, 130)) * 10).astype(np.float32)
    z = (a[:, :40] + 1j * a[:, 40:80]).astype(np.complex64)

    def f(a, z):
        return (np.cumsum(a, axis=1), np.cumsum(a[:4, :9]), np.add.accumulate(a[::2], axis=0), np.cumsum(z, axis=0),
                np.cumprod(1 + a[:, :20] / 1000, axis=1), np.multiply.accumulate(1 - a[:30, :5] / 500, axis=0))

    got = C.compile(f, backend="aot_eager", fullgraph=True)(a, z)
    assert all(_same_bits(g, w) for g, w in zip(got, f(a, z), strict=True))

def test_traced_scans_of_other_ufuncs_are_one_graph():
    """Scans without a fast form (subtract, divide, logaddexp, bitwise_xor) are traced as ufunc calls, one
    element or many; a scan of one element is a new array, as NumPy's is (the check read a data pointer, which
    a traced tensor has not: the call ran in NumPy)."""
    def f(a, k):
        return (np.subtract.accumulate(a[0]), np.subtract.accumulate(a[:, :1], axis=1), np.true_divide.accumulate(a, 1),
                np.logaddexp.accumulate(a, axis=0), np.bitwise_xor.accumulate(k))

    a, k = np.arange(1.0, 13.0).reshape(3, 4), np.arange(9)
    got = C.compile(f, backend="aot_eager", fullgraph=True)(a, k)
    assert all(_same_bits(g, w) for g, w in zip(got, f(a, k), strict=True))
    one = C.compile(lambda x: np.subtract.accumulate(x), backend="aot_eager", fullgraph=True)
    x = np.array([5.0])
    r = one(x)
    r[0] = 1.0
    assert x[0] == 5.0


def test_cumsum_of_a_negative_zero_run_keeps_its_gradient():
    """The run's sums are made -0.0 as -(0.0 - sum): a constant -0.0 there cut their gradient (d x[0] gave 2, not
    4, below), eager and traced."""
    h = wrap_numpy(lambda x: np.cumsum(x, axis=1))
    x = torch.tensor([[-0.0, -0.0, 1.0, 2.0], [1.0, -0.0, 3.0, 0.0]], dtype=torch.float64, requires_grad=True)
    for fn in (h, C.compile(h, backend="aot_eager")):
        r = fn(x)
        assert torch.signbit(r).tolist() == [[True, True, False, False], [False] * 4]
        assert torch.autograd.grad(r.sum(), x)[0].tolist() == [[4.0, 3.0, 2.0, 1.0]] * 2


@pytest.mark.inductor
def test_compiled_cumsum_zero_signs_across_shapes():
    """Inductor: the cond's branches build and give NumPy's bits; a second shape compiles with symbolic sizes,
    where a flattened array's size s0*s1 takes the unconditional fix (Inductor's cond cannot bind s0 and s1
    from it: the compile failed), as a small array does."""
    def f(x):
        return (np.cumsum(x, axis=1) / np.arange(1, x.shape[1] + 1), np.cumsum(x.T, axis=1), np.cumsum(x),
                np.cumsum(x[:3, :4], axis=0))

    g = C.compile(f)
    rng = np.random.default_rng(1)
    for shape in ((130, 130), (140, 131)):
        a = rng.standard_normal(shape)
        for x in (a, _leading_negative_zeros(a)):
            assert all(_same_bits(got, want) for got, want in zip(g(x), f(x)))


def _products(a, b):
    return np.prod(a), np.cumprod(a), np.prod(b, axis=0), np.cumprod(b, axis=1), np.prod(b, axis=1, where=b.real > 0)


def test_traced_small_complex_products_are_numpys_bits():
    """Up to 2048 elements the op runs NumPy's own loop (cheaper than torch's product and its finiteness check):
    finite products are NumPy's to the last bit (torch's, in another order, differed there)."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal(40) + 1j * rng.standard_normal(40)
    b = rng.standard_normal((6, 7)) + 1j * rng.standard_normal((6, 7))
    got = C.compile(_products, backend="aot_eager")(a, b)
    assert all(_same_bits(g, w) for g, w in zip(got, _products(a, b)))


def test_traced_large_complex_products_check_torchs():
    """Larger arrays take torch's product, kept where finite and else replaced by NumPy's loop (units: exact
    products in any order)."""
    rng = np.random.default_rng(4)
    a = rng.choice(np.array([1, -1, 1j, -1j]), 3000)
    f = C.compile(lambda a: (np.prod(a), np.cumprod(a)), backend="aot_eager")
    for x in (a, np.where(np.arange(3000) == 2500, complex(np.inf, 1), a)):
        with np.errstate(invalid="ignore"):
            want = np.prod(x), np.cumprod(x)
        for g, w in zip(f(x), want):
            assert _same_bits(g, w) if np.isinf(x).any() else g.dtype == w.dtype and np.array_equal(g, w)


def test_cumsum_op_gradient_is_torchs():
    """The traced CPU scan of a large input is our op: its gradient is cumsum's (the reversed running sum), with a
    leading -0.0 run or not, and a float32 input scanned in float64 gets a float32 gradient."""
    def g(x):
        return np.cumsum(x, axis=1) * np.arange(1.0, x.shape[1] + 1), np.cumsum(x[::2], axis=0, dtype=np.float64)

    h = C.compile(wrap_numpy(g), backend="aot_eager")
    base = np.random.default_rng(3).standard_normal((130, 140))
    for a in (base, _leading_negative_zeros(base)):
        x = torch.tensor(a, dtype=torch.float32, requires_grad=True)
        y = x.detach().clone().requires_grad_(True)
        r, s = h(x)
        (r.sum() + s.sum()).backward()
        w = torch.arange(1.0, 141.0)
        (torch.cumsum(y, 1) * w).sum().add(torch.cumsum(y[::2].double(), 0).sum()).backward()
        assert x.grad.dtype == torch.float32 and torch.allclose(x.grad, y.grad)
