"""Memory layout of new elementwise results (strides and flags) against NumPy's: order='K' follows the operands
(NumPy's rules, not torch's TensorIterator, which follows the first operand whose strides differ)."""

import random

import numpy
import pytest

import npcompile._numpy as shim

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::UserWarning")


def _layout(x):
    """Shape, flags and the strides of the axes longer than 1 (those of length-1 axes address nothing: torch
    keeps an operand's where NumPy's ufunc may not, ``_k_layout`` does not copy for them)."""
    x = numpy.asarray(x) if isinstance(x, shim.ndarray) else x
    return (x.shape, tuple(s if n != 1 else None for s, n in zip(x.strides, x.shape)), x.flags.c_contiguous,
            x.flags.f_contiguous)


def _same_layout(f, *arrays, values=True):
    exp = f(numpy, *arrays)
    got = f(shim, *(shim.asarray(a) for a in arrays))  # shares the NumPy array's memory: the same strides
    assert _layout(got) == _layout(exp)
    if values:
        numpy.testing.assert_array_equal(numpy.asarray(got), exp)


_A = numpy.arange(12.0).reshape(3, 4)
_F = numpy.asfortranarray(_A)
_C3 = numpy.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize("f", [
    lambda xp, a, b, f: a.T * b,                       # mixed layouts: NumPy takes C order (torch: a.T's F order)
    lambda xp, a, b, f: f * a, lambda xp, a, b, f: a * f, lambda xp, a, b, f: f + f, lambda xp, a, b, f: f + 1,
    lambda xp, a, b, f: xp.sin(f), lambda xp, a, b, f: -a.T, lambda xp, a, b, f: f > 3,
    lambda xp, a, b, f: f * xp.ones(4), lambda xp, a, b, f: f * xp.ones((3, 1)), lambda xp, a, b, f: f[:, ::2] + 1,
    lambda xp, a, b, f: xp.add(a.T, 1, order="C"), lambda xp, a, b, f: xp.add(a, 1, order="F"),
    lambda xp, a, b, f: xp.add(f, 1, order="A"), lambda xp, a, b, f: xp.add(a, 1, order="A"),
    lambda xp, a, b, f: xp.add(a[:, :1], a[:, :1], order="A"), lambda xp, a, b, f: xp.divmod(f, 3)[0],
    lambda xp, a, b, f: xp.add(f, 1, where=f > 2, out=xp.zeros_like(f)) * 1, lambda xp, a, b, f: xp.cumsum(f, axis=0),
    lambda xp, a, b, f: xp.cumprod(f, axis=1), lambda xp, a, b, f: xp.cumsum(f.astype(xp.float32), axis=0),
    lambda xp, a, b, f: xp.add.accumulate(f, axis=1), lambda xp, a, b, f: (a.T * b).ravel(order="K"),
    lambda xp, a, b, f: xp.where(f > 3, f, a), lambda xp, a, b, f: xp.where(a.T > 3, a.T, b),
    lambda xp, a, b, f: xp.where(f > 3, f, 0.5),
])
def test_elementwise_layout(f):
    _same_layout(f, _A, _A.T.copy(), _F)


def _random_view(rng, shape):
    """A view of a fresh array with the given shape: axes permuted, some stepped by 2, sometimes an index taken."""
    nd = len(shape)
    perm = list(range(nd))
    rng.shuffle(perm)
    step = [2 if rng.random() < 0.2 else 1 for _ in range(nd)]
    base = numpy.arange(numpy.prod([shape[p] * step[p] for p in perm]), dtype=float)
    v = base.reshape([shape[p] * step[p] for p in perm]).transpose(numpy.argsort(perm))
    return v[tuple(slice(None, None, s) for s in step)]


_CALLS = {
    "add": lambda xp, x, y: xp.add(x, y), "sin": lambda xp, x, y: xp.sin(x), "less": lambda xp, x, y: x < y,
    "scalar": lambda xp, x, y: x * 2.5, "zero-d": lambda xp, x, y: xp.multiply(x, xp.array(2.0)),
    "divmod": lambda xp, x, y: xp.divmod(x, y)[1], "order A": lambda xp, x, y: xp.add(x, y, order="A"),
    "where": lambda xp, x, y: xp.add(x, y, where=x > 2), "cumsum": lambda xp, x, y: xp.cumsum(x, axis=-1),
    "cumprod": lambda xp, x, y: xp.cumprod(x, axis=0), "where3": lambda xp, x, y: xp.where(x > 2, x, y),
    "where3 int": lambda xp, x, y: xp.where(y > 2, x.astype(int), 1),
}


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("name", sorted(_CALLS))
def test_random_layouts(name, seed):
    """Random permuted, stepped and broadcast operands with length-1 axes: the same strides as NumPy's."""
    rng = random.Random(seed * 31 + len(name))
    for _ in range(12):
        nd = rng.randint(2, 4)
        shape = [rng.choice([1, 2, 3, 4]) for _ in range(nd)]
        x, y = (_random_view(rng, [s if rng.random() > 0.2 else 1 for s in shape]) for _ in range(2))
        if rng.random() < 0.2:
            y = y[(0,) * rng.randint(1, nd - 1)]
        y = x if rng.random() < 0.3 else y
        try:
            numpy.broadcast_shapes(x.shape, y.shape)
        except ValueError:
            continue
        _same_layout(_CALLS[name], x, y, values=name != "where")  # (where= leaves memory unset)


@pytest.mark.slow
def test_compiled_results_keep_torch_layout():
    """The README's deviation: under npcompile.compile a mixed-layout product keeps torch's layout (the first
    operand's F order), with NumPy's values."""
    import npcompile

    def f(a, b):
        return a.T * b

    a = numpy.arange(12.0).reshape(3, 4)
    got = npcompile.compile(f)(a, a.T.copy())
    numpy.testing.assert_array_equal(got, f(a, a.T.copy()))
    assert got.flags.f_contiguous and not got.flags.c_contiguous


@pytest.mark.parametrize("f", [
    lambda xp, f, g: f @ g, lambda xp, f, g: xp.matmul(f, g), lambda xp, f, g: xp.matmul(g.T, f.T),
    lambda xp, f, g: xp.vecdot(f, f), lambda xp, f, g: xp.matmul(xp.stack([f, f]).transpose(0, 2, 1), f),
], ids=["@", "matmul", "matmul of transposes", "vecdot", "batched"])
def test_gufunc_results_are_c_ordered(f):
    """matmul and vecdot allocate C-ordered outputs whatever their operands' layout (an elementwise ufunc of
    F-ordered operands is F-ordered)."""
    _same_layout(f, numpy.asfortranarray(numpy.arange(12.0).reshape(3, 4)),
                 numpy.asfortranarray(numpy.arange(20.0).reshape(4, 5)), values=False)
