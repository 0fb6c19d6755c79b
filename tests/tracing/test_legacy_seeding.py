"""``numpy.random.seed`` governs the legacy module functions (``np.random.rand``...) in compiled code: their draws
come from torch's generator, seeded from NumPy's global state at each call (``npcompile.tracing._seeding``)."""
import numpy as np
import pytest
import torch

import npcompile as C
from npcompile._numpy.random import seed_generator


def draw(x):
    return x + np.random.rand(3), np.random.standard_normal(2)


def seed_twice(x):
    np.random.seed(5)
    a = np.random.rand(4)
    np.random.seed(5)
    b = np.random.rand(4)
    return a + x, b


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_seed_before_the_call(backend):
    f = C.compile(draw, backend=backend)
    np.random.seed(1)
    a = f(0.0)
    np.random.seed(1)
    b = f(0.0)
    np.random.seed(2)
    c = f(0.0)
    for u, v, w in zip(a, b, c):
        np.testing.assert_array_equal(u, v)
        assert not np.array_equal(u, w)
    later = f(0.0)  # the state moved on: a fresh draw
    assert not np.array_equal(later[0], b[0])


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_seed_inside_the_function(backend):
    a, b = C.compile(seed_twice, backend=backend)(0.0)
    np.testing.assert_array_equal(a, b)
    assert ((a >= 0) & (a < 1)).all() and len(set(a.tolist())) == 4
    report = C.explain(seed_twice)(0.0)
    assert report.fallbacks and {e.feature for e in report.fallbacks} == {"numpy.random.seed"}


def test_torch_generator_left_as_it_was():
    f = C.compile(draw, backend="aot_eager")
    f(0.0)
    torch.manual_seed(3)
    expected = torch.rand(5)
    torch.manual_seed(3)
    f(0.0)
    np.testing.assert_array_equal(torch.rand(5), expected)


def test_state_functions_run_in_numpy():
    def f(x):
        state = np.random.get_state()
        u = np.random.rand(2)
        np.random.set_state(state)
        return state[0], u, np.random.rand(2) + x

    name, u, v = C.compile(f, backend="aot_eager")(0.0)
    assert name == "MT19937"
    np.testing.assert_array_equal(u, v)


def test_every_bit_of_the_per_call_seed_counts():
    """torch's CPU ``manual_seed`` keeps 32 bits; the per-call seed keeps all 53, so seeds that differ only above
    bit 32 draw differently, and a seed still fixes the draws."""
    g = torch.Generator()

    def draws(seed):
        seed_generator(g, seed)
        return torch.rand(8, generator=g, dtype=torch.float64)

    low = draws(5)
    assert not torch.equal(low, draws(5 + 2**32)) and not torch.equal(low, draws(5 + 2**52))
    torch.testing.assert_close(low, draws(5), rtol=0, atol=0)
    assert ((low >= 0) & (low < 1)).all() and len(set(low.tolist())) == 8
