"""Compiled argmax/argmin of 8-bit values and bools against NumPy (Inductor's vectorized CPU code for 8-bit
argmax/argmin compared lanes it never loaded: rows with ties or a maximum of 0 got index 0 or -1)."""

import numpy as np
import pytest

from npcompile import _compile as C


@pytest.mark.inductor
def test_compiled_argmax_argmin_of_8_bit_values_and_bools():
    @C.compile
    def f(u, i, b):
        return (np.argmin(u, 1), np.argmax(u, 0), np.argmin(u), np.argmax(i, 1), np.argmin(i, 0), np.argmax(i),
                np.argmax(b, 1), np.argmin(b, 0), np.nanargmax(u, 1), np.argmax(u[:, :3], 1), np.argmin(u[:, :3], 1))

    rng = np.random.default_rng(0)
    u = rng.integers(3, 7, (70, 37)).astype(np.uint8)
    u[5] = 255  # a row of the largest value: its argmin is 0
    i = rng.integers(-3, 1, (70, 37)).astype(np.int8)
    i[i < 0] -= 125  # rows whose maximum is 0
    i[7] = -128
    b = rng.random((70, 37)) < 0.05
    got = f(u, i, b)
    want = f.__wrapped__(u, i, b)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype and np.array_equal(g, w)
