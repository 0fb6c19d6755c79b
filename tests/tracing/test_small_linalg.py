"""Traced solve, inv, det and slogdet of small matrices (``_small_linalg``: elimination unrolled over the entries,
n <= MAX_N) against NumPy: values, dtypes, LAPACK's pivots (the first row of largest magnitude), its singular
matrices (an exactly zero pivot) raising LinAlgError from compiled code, and NaN/inf input."""

import numpy as np
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd
from npcompile import _compile as C
from npcompile._numpy._small_linalg import MAX_N

rng = np.random.default_rng(7)


def _solve(a, b):
    return np.linalg.solve(a, b)


def _inv(a):
    return np.linalg.inv(a)


def _det(a):
    return np.linalg.det(a)


def _slogdet(a):
    return tuple(np.linalg.slogdet(a))


def _unrolled(fn, *args):
    """fn compiled (aot_eager), its result, and whether its graph made no LAPACK call (the unrolled path).  Dynamo
    starts afresh: a second shape would make n dynamic, which the unrolled path needs static."""
    torch._dynamo.reset()
    graphs = []
    backend = aot_autograd(fw_compiler=lambda gm, example_inputs: graphs.append(gm) or gm)
    out = C.compile(fn, backend=backend, fullgraph=True)(*args)
    names = [str(n.target) for g in graphs for n in g.graph.nodes if n.op == "call_function"]
    return out, bool(names) and not any("linalg" in s for s in names)


def _check(fn, *args, rtol=1e-10, unrolled=True):
    out, took = _unrolled(fn, *args)
    ref = fn(*args)
    outs, refs = (out, ref) if isinstance(ref, tuple) else ((out,), (ref,))
    for o, r in zip(outs, refs):
        assert o.dtype == r.dtype and o.shape == r.shape
        np.testing.assert_allclose(o, r, rtol=rtol, atol=rtol * np.abs(r[np.isfinite(r)]).max(initial=1))
    assert took == unrolled


def _matrices(shape, dtype=np.float64):
    n = shape[-1]
    return (rng.standard_normal(shape) + n * np.eye(n) * rng.choice([-1, 1, 0.1], shape[:-2] + (1, 1))).astype(dtype)


@pytest.mark.parametrize("n", range(1, MAX_N + 2))
@pytest.mark.parametrize("batch", [(), (5,), (2, 3)])
def test_solve_inv_det_slogdet_match_numpy(n, batch):
    a = _matrices(batch + (n, n))
    small = n <= MAX_N
    _check(_solve, a, rng.standard_normal(n), unrolled=small)  # (a vector only when 1-D, as NumPy 2)
    _check(_solve, a, rng.standard_normal(batch + (n, 2 if n > 1 else 1)), unrolled=small)
    _check(_inv, a, unrolled=small)
    _check(_det, a, unrolled=small)
    _check(_slogdet, a, unrolled=small)


def test_broadcast_vector_and_wide_right_hand_sides():
    a = _matrices((4, 3, 3))
    _check(_solve, a, rng.standard_normal((2, 1, 3, 2)))  # batches broadcast
    _check(_solve, a[0], rng.standard_normal((5, 3, 3)))
    _check(_solve, a, rng.standard_normal((3, 7)), unrolled=False)  # more columns than rows: LAPACK


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128])
def test_dtypes(dtype):
    a = _matrices((6, 3, 3)).astype(dtype)
    if dtype == np.complex128:
        a = a + 1j * _matrices((6, 3, 3))
    real = dtype != np.complex128
    rtol = 1e-5 if dtype == np.float32 else 1e-10
    _check(_solve, a, rng.standard_normal(3).astype(dtype), rtol=rtol, unrolled=real)
    _check(_inv, a, rtol=rtol, unrolled=real)
    _check(_det, a, rtol=rtol, unrolled=real)
    _check(_slogdet, a, rtol=rtol, unrolled=real)


# pivots: a zero leading entry, ties (the first row of largest magnitude), a negative largest entry
PIVOTING = [
    [[0.0, 1.0], [1.0, 1.0]],
    [[0.0, 2.0, 1.0], [1.0, 1.0, 3.0], [-1.0, 4.0, 2.0]],
    [[1.0, 2.0, 3.0, 4.0], [-3.0, 1.0, 0.0, 2.0], [3.0, 0.0, 1.0, 1.0], [2.0, 5.0, 1.0, 0.0]],
    [[0.0, 0.0, 1.0, 2.0], [0.0, 3.0, 1.0, 1.0], [2.0, 1.0, 0.0, 4.0], [-2.0, 1.0, 5.0, 1.0]],
    [[1e-20, 1.0, 0.0], [1.0, 1.0, 1.0], [0.5, 0.0, 2.0]],
    [[0.2, -0.3, 0.1], [-0.2, -0.6, -0.7], [-0.2, -0.9, -0.9]],  # the last of the tied rows: a zero pivot
]


@pytest.mark.parametrize("a", PIVOTING)
def test_pivoting(a):
    a = np.array(a)
    _check(_solve, a, np.arange(1.0, len(a) + 1))
    _check(_inv, a)
    _check(_det, a, rtol=1e-14)
    _check(_slogdet, a, rtol=1e-14)
    if np.all(a == np.round(a)):  # (exact arithmetic: the signs cannot depend on rounding)
        permuted = a[[1, 0] + list(range(2, len(a)))]  # the determinant's sign follows the row swaps
        assert np.sign(_unrolled(_det, permuted)[0]) == np.sign(np.linalg.det(permuted)) != 0


SINGULAR = [np.zeros((1, 1)), np.array([[1.0, 2.0], [3.0, 6.0]]), np.array([[0.1, 0.2], [0.3, 0.6]]),
            np.arange(9.0).reshape(3, 3), np.ones((4, 4)), np.array([[2.0, 4, 1], [1, 2, 5], [3, 6, 7]]),
            np.array([[1.0, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 1], [1, 0, 1, 0]]),
            np.array([[0.6, -0.1, -0.6], [0.6, -0.7, -0.3], [-0.6, 0.9, 0.2]])]  # (only the first tied row: zero)


@pytest.mark.parametrize("a", SINGULAR, ids=lambda a: str(a.shape))
def test_singular_raises_and_has_zero_determinant(a):
    stack = np.stack([np.eye(len(a)), a, 2 * np.eye(len(a))])
    for fn, args in [(_solve, (stack, np.ones(len(a)))), (_inv, (stack,))]:
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            fn(*args)
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            _unrolled(fn, *args)
    _check(_det, stack)
    _check(_slogdet, stack)
    assert _unrolled(_det, a)[0] == 0.0 and _unrolled(_slogdet, a)[0] == (0.0, -np.inf)


def test_nan_and_inf_input():
    """NaN and infinities off the pivots spread as in NumPy; a zero pivot above a NaN is still singular.  (NumPy's
    OpenBLAS has its own ways with a NaN or an infinite pivot: they differ, as torch's LAPACK did.)"""
    nan, inf = np.nan, np.inf
    cases = [[[1.0, 2.0], [nan, 1.0]], [[0.0, 1.0], [nan, 2.0]], [[2.0, 1.0], [1.0, nan]], [[1.0, inf], [2.0, 1.0]],
             [[2.0, 1.0], [1.0, -inf]], [[3.0, 1.0, 0.0], [1.0, inf, 1.0], [0.0, 1.0, 2.0]]]
    for a in map(np.array, cases):
        b = np.ones(len(a))
        b[0] = nan
        for fn, args in [(_solve, (a, np.ones(len(a)))), (_solve, (np.eye(len(a)) * 2, b)), (_inv, (a,)),
                         (_det, (a,)), (_slogdet, (a,))]:
            try:
                ref = fn(*args)
            except np.linalg.LinAlgError:
                with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
                    _unrolled(fn, *args)
                continue
            out, took = _unrolled(fn, *args)
            assert took
            for o, r in zip(out if isinstance(ref, tuple) else (out,), ref if isinstance(ref, tuple) else (ref,)):
                np.testing.assert_allclose(o, r, rtol=1e-12, equal_nan=True)


def test_inductor_compiles_the_unrolled_solve():
    a, b = _matrices((200, 4, 4)), rng.standard_normal((200, 4))
    f = C.compile(lambda a, b: np.linalg.solve(a, b[..., None])[..., 0])
    np.testing.assert_allclose(f(a, b), np.linalg.solve(a, b[..., None])[..., 0], rtol=1e-10)
    a[3] = 1.0
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        f(a, b)
