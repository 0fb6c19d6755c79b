"""Sums and counts of bool masks, and casts to bool, compiled: NumPy's values, dtypes and shapes (sum of bool is
int64, count_nonzero intp; axis None, ints, tuples, keepdims, empty arrays).  Two Inductor tests check the CPU code
generator's bool loads and stores (npcompile/inductor/_bool_vectors.py) on tails, strides, NaN and -0.0."""

import numpy as np
import pytest

from npcompile import _compile as C

from .conftest import same


def _masks(x):
    m = x > 0
    return (m.sum(), m.sum(axis=1), m.sum(axis=0, keepdims=True), m.sum(axis=(0, 1)), (x > 0).sum(axis=-1),
            np.count_nonzero(m), np.count_nonzero(m, axis=1), np.count_nonzero(x, axis=(0,)),
            np.count_nonzero(m, axis=1, keepdims=True), np.sum(m, axis=1, dtype=np.int32), m.mean(axis=1),
            np.count_nonzero(x != 0, axis=0), m.any(axis=1), m.all(axis=0))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (mean of the empty rows of (3, 0), as NumPy's)
@pytest.mark.parametrize("shape", [(5, 7), (0, 3), (3, 0), (1, 1)])
def test_mask_sums_and_counts_are_numpys(shape):
    x = np.random.default_rng(sum(shape)).standard_normal(shape)
    if x.size:
        x.flat[0] = 0.0
    assert same(C.compile(_masks, backend="aot_eager")(x), _masks(x))


def _casts(x, i, u):
    return x.astype(bool), x != 0, i.astype(bool), u.astype(np.bool_), x.astype(np.float32).astype(bool), ~(x == 0)


def _cast_inputs(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n)
    x[: min(n, 5)] = [np.nan, -0.0, 0.0, np.inf, 5e-324][: min(n, 5)]
    return x, rng.integers(-2, 3, n), rng.integers(0, 3, n).astype(np.uint8)


@pytest.mark.parametrize("n", [37, 0])
def test_casts_to_bool_are_numpys(n):
    args = _cast_inputs(n)
    assert same(C.compile(_casts, backend="aot_eager")(*args), _casts(*args))


def _code_of(fn, *args):
    from torch._inductor.utils import run_and_get_code

    got, codes = run_and_get_code(C.compile(fn), *args)
    return got, "\n".join(codes)


@pytest.mark.inductor
def test_inductor_bool_loads_match_numpy():
    def f(m, x):
        return m.sum(axis=1), np.count_nonzero(m), m[:, ::2].sum(axis=0), np.where(m, x, 0.0).sum(axis=1)

    rng = np.random.default_rng(0)
    x = rng.standard_normal((9, 37))  # rows of 37: a full vector and a tail
    m = x > 0.2
    got, code = _code_of(f, m, x)
    assert same(got, f(m, x))
    assert ("Vectorized<uint8_t>::loadu" in code or "npc_avx2::loadu<uint8_t>" in code) and (
        "VecMask<float,1>::from(in_ptr" not in code)


@pytest.mark.inductor
def test_inductor_bool_stores_match_numpy():
    args = _cast_inputs(37)
    got, code = _code_of(_casts, *args)
    assert same(got, _casts(*args))
    assert "reinterpret_cast<uint8_t*>" in code and "::from<double,2>" not in code
