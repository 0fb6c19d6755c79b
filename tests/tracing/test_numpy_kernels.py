"""Traced sorts and membership tests on the CPU run NumPy's own kernels (npcompile/_numpy/_library.py): NumPy's
very answers, ties of the unstable sort kinds included, each in one opaque op; arrays needing a gradient keep
torch's sort."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C
from npcompile.wrap_numpy import wrap_numpy

from .pass_backend import PassBackend


def _sorts(v, m):
    return (np.sort(v), np.argsort(v), np.argsort(v, kind="heapsort"), np.median(v), np.percentile(v, [10, 90]),
            np.sort(m, axis=0), np.argsort(m, kind="stable"), np.argsort(m),
            # across the memory order (NumPy's result keeps it; the op's is C-ordered, as its fake says)
            np.argsort(m, axis=0), np.sort(m.T, axis=1), np.quantile(m, [0.1, 0.9], axis=0))


def _data():
    rng = np.random.default_rng(3)
    v = rng.random(5000)
    v[::50], v[1::50], v[2::50] = np.nan, -0.0, 0.0
    return v, rng.integers(0, 5, (30, 40)).astype(np.int32)  # (ties everywhere)


def test_traced_sorts_are_numpys_own():
    args = _data()
    backend = PassBackend(lambda graph: None)
    got, want = C.compile(_sorts, backend=backend, fullgraph=True)(*args), _sorts(*args)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes()
    assert len(backend.calls({torch.ops.npcompile.numpy_sort.default})) == 11
    assert not backend.calls({torch.ops.aten.sort.default, torch.ops.aten.sort.stable})


def test_traced_isin_is_numpys_own():
    rng = np.random.default_rng(5)
    e, s = rng.integers(-5, 300, (40, 50)), rng.integers(0, 200, 37).astype(np.uint8)

    def members(e, s):
        return (np.isin(e, s), np.isin(e, s, invert=True), np.isin(e, s, kind="sort"), np.isin(e * 0.5, s),
                np.isin(e.T, s))

    backend = PassBackend(lambda graph: None)
    got, want = C.compile(members, backend=backend, fullgraph=True)(e, s), members(e, s)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
    assert len(backend.calls({torch.ops.npcompile.numpy_isin.default})) == 5


def test_traced_unique_is_numpys_own():
    rng = np.random.default_rng(6)
    i, x = rng.integers(0, 50, 3000), rng.standard_normal((30, 40))
    x[::7] = np.nan

    def uniques(i, x):
        v, c = np.unique(i, return_counts=True)
        return (v, c, v.size, np.unique(x), *np.unique(x, return_index=True, return_inverse=True, equal_nan=False),
                np.unique(x.T, return_inverse=True)[1])

    backend = PassBackend(lambda graph: None)
    got, want = C.compile(uniques, backend=backend, fullgraph=True)(i, x), uniques(i, x)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype and np.shape(g) == np.shape(w)
        assert np.array_equal(g, w, equal_nan=True)
    assert len(backend.calls({torch.ops.npcompile.numpy_unique.default})) == 4


@pytest.mark.inductor
def test_inductor_reads_the_ops_results_in_c_order():
    """NumPy's sort of a strided array keeps its memory order; Inductor reads an op's result with the strides of
    its fake (C order): a column-wise quantile compiled was wrong until the ops returned C-ordered arrays."""
    m = np.random.default_rng(7).random((30, 40))

    def across(m):
        return (np.quantile(m, [0.1, 0.9], axis=0) + 1, np.sort(m.T, axis=1) * 2, np.argsort(m, axis=0) + 1,
                np.isin(m.T, m[:2]) | False, np.unique(m.T[:3], return_inverse=True)[1] + 1)

    for g, w in zip(C.compile(across)(m), across(m)):
        assert g.dtype == w.dtype and np.array_equal(g, w)


def test_sort_with_a_gradient_is_torchs():
    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    r = wrap_numpy(lambda a: np.sort(a) * np.arange(3))(x)
    r.sum().backward()
    assert r.tolist() == [0.0, 2.0, 6.0] and x.grad.tolist() == [2.0, 0.0, 1.0]
