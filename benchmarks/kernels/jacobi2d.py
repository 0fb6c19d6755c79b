"""One Jacobi sweep of the 2-D Laplace equation with slicing: four shifted reads of the same grid and a
write into the interior of a copy (the boundary is kept)."""
import numpy as np

from ._util import nbytes

NAME = "jacobi2d"
MEMORY_BOUND = True
_N = {"small": 128, "default": 2048, "gpu": 8192}


def kernel(u):
    v = u.copy()
    v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return v


def make_inputs(size, rng):
    n = _N[size]
    return (rng.random((n, n)),)


def BYTES(inputs):
    return 2 * nbytes(*inputs)
