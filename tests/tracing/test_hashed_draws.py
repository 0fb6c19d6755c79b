"""Compiled CPU draws are keyed hashes of their positions (``npcompile._numpy._hashed_draws``): checked here by
distribution against NumPy's own samples, for independence, and for Inductor computing the integer hash
exactly as torch does."""
import math

import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import npcompile as C
import npcompile._numpy as shim
from npcompile._numpy import _hashed_draws as H
from tests.numpy_conformance.test_random import assert_same_distribution

N = 20_000

# distributions built on the hashed primitives (uniforms, normals, exponentials) and a few on ATen's samplers
CASES = [("random_sample", ()), ("standard_normal", ()), ("standard_exponential", ()), ("uniform", (-2.0, 3.0)),
         ("normal", (1.5, 0.5)), ("exponential", (2.5,)), ("lognormal", (0.3, 0.7)), ("standard_cauchy", ()),
         ("laplace", (1.0, 2.0)), ("gumbel", (1.0, 2.0)), ("rayleigh", (2.0,)), ("weibull", (1.5,)),
         ("triangular", (-1.0, 2.0, 3.0)), ("gamma", (0.3, 2.0)), ("beta", (0.5, 0.5)), ("geometric", (0.2,))]


@pytest.mark.parametrize("name,args", CASES, ids=[n for n, _ in CASES])
def test_compiled_draws_follow_numpys_distributions(name, args):
    def draw(x):
        return getattr(np.random, name)(*args, size=x.shape)

    np.random.seed(11)
    ours = C.compile(draw, backend="aot_eager")(np.zeros(N))
    theirs = getattr(np.random.RandomState(11), name)(*args, size=N)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    assert_same_distribution(ours, theirs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_generator_float32_and_float64(dtype):
    """A shim Generator's draws traced into a graph (as in code written against npcompile._numpy)."""
    g = shim.random.default_rng(5)

    def draw(x):
        return g.random(x.shape, dtype=dtype).tensor, g.standard_normal(x.shape, dtype=dtype).tensor

    gm = make_fx(draw)(torch.zeros(N))
    assert any("randint" in str(n.target) for n in gm.graph.nodes) and not any(
        str(n.target) in ("aten.rand.default", "aten.randn.default") for n in gm.graph.nodes)
    u, z = (t.numpy() for t in gm(torch.zeros(N)))
    rng = np.random.default_rng(3)
    assert u.dtype == z.dtype == dtype
    assert_same_distribution(u, rng.random(N, dtype=dtype))
    assert_same_distribution(z, rng.standard_normal(N, dtype=dtype))
    assert ((u >= 0) & (u < 1)).all()


def test_uniform_bits_and_grid():
    """53 random bits per float64: every bit of u * 2**53 is balanced; float32 sits on the 2**-24 grid."""
    key = torch.tensor([12345, 678910])
    k = (H.uniform(key, (1 << 18,)) * 2.0**53).to(torch.int64)
    for bit in (0, 1, 26, 52):
        share = ((k >> bit) & 1).double().mean().item()
        assert abs(share - 0.5) < 5 * 0.5 / math.sqrt(k.numel()), (bit, share)
    f = H.uniform(key, (1000,), torch.float32) * 2.0**24
    assert torch.equal(f, f.round()) and f.dtype == torch.float32


def test_neighbouring_keys_and_positions_are_independent():
    """Keys one apart in either word, and consecutive positions, give uncorrelated uniforms; the same key gives
    the same numbers."""
    n = 1 << 16
    a = H.uniform(torch.tensor([5, 9]), (n,))
    tol = 5 / math.sqrt(n)
    for other in (H.uniform(torch.tensor([6, 9]), (n,)), H.uniform(torch.tensor([5, 10]), (n,)), a.roll(1)):
        assert abs(np.corrcoef(a.numpy(), other.numpy())[0, 1]) < tol
    assert torch.equal(a, H.uniform(torch.tensor([5, 9]), (n,)))


def two_draws(x):
    return x + np.random.random(x.shape), np.random.standard_normal(x.shape), np.random.exponential(2.0, x.shape)


def test_each_draw_and_each_call_has_its_own_numbers():
    f = C.compile(two_draws, backend="aot_eager")
    a, b, c = f(np.zeros(1000))
    assert len(np.unique(a)) == 1000
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.2 and abs(np.corrcoef(b, c)[0, 1]) < 0.2
    assert not np.intersect1d(a, f(np.zeros(1000))[0]).size  # the next call draws afresh


@pytest.mark.inductor
def test_inductor_hashes_exactly_as_torch():
    """Same NumPy seed, same numbers from Inductor's C++ (vectorized body and scalar tail: 1001 elements) and
    from aot_eager's torch ops: the wrapping int64 arithmetic is computed exactly."""
    x = np.zeros(1001)
    np.random.seed(4)
    ours = C.compile(two_draws, fullgraph=True)(x)
    np.random.seed(4)
    ref = C.compile(two_draws, backend="aot_eager")(x)
    for o, r in zip(ours, ref):
        np.testing.assert_allclose(o, r, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(ours[0], ref[0])


@pytest.mark.parametrize("low, high, dtype", [(0, 10, np.int64), (-3, 4, np.int8), (0, 256, np.uint8),
                                              (0, 2, np.bool_), (5, 6, np.int64), (-2**52, 2**52, np.int64)])
def test_compiled_integers_cover_their_range_uniformly(low, high, dtype):
    """Integers from hashed uniforms, floor(u * span): every value of a small range about equally often, the
    bounds kept for spans up to 2**53, NumPy's dtype."""
    def draw(x):
        return np.random.randint(low, high, size=x.shape, dtype=dtype)

    got = C.compile(draw, backend="aot_eager")(np.zeros(N))
    assert got.dtype == np.dtype(dtype) and got.shape == (N,)
    ints = got.astype(np.int64)
    assert ints.min() >= low and ints.max() < high
    span = high - low
    if span <= 16:
        counts = np.bincount(ints - low, minlength=span)
        assert (abs(counts - N / span) < 5 * np.sqrt(N / span)).all(), counts
    else:
        assert_same_distribution(ints / span, np.random.default_rng(1).integers(low, high, N) / span)
