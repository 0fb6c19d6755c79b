"""Batched small linear solves: one 4x4 system per element (per-cell implicit updates, small least
squares). Goes to LAPACK in NumPy and to a library call in any compiler."""
import numpy as np

NAME = "batched_solve"
MEMORY_BOUND = False
RTOL = 1e-6
_N = {"small": 1000, "default": 100_000, "gpu": 2_000_000}


def kernel(a, b):
    return np.linalg.solve(a, b[..., None])[..., 0]


def make_inputs(size, rng):
    n = _N[size]
    a = rng.standard_normal((n, 4, 4)) + 4.0 * np.eye(4)
    return a, rng.standard_normal((n, 4))


def BYTES(inputs):
    return None
