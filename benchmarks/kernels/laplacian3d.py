"""7-point Laplacian of a 3-D field (finite differences): seven shifted views of one array, the stencil
inside every 3-D PDE solver; the output is the interior only."""
import numpy as np

from ._util import nbytes

NAME = "laplacian3d"
MEMORY_BOUND = True
_N = {"small": 24, "default": 160, "gpu": 512}


def kernel(u, inv_h2):
    c = u[1:-1, 1:-1, 1:-1]
    lap = (
        u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1]
        + u[1:-1, :-2, 1:-1] + u[1:-1, 2:, 1:-1]
        + u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:]
        - 6.0 * c
    )
    return lap * inv_h2


def make_inputs(size, rng):
    n = _N[size]
    h = 1.0 / (n - 1)
    return rng.random((n, n, n)), np.array(1.0 / (h * h))


def BYTES(inputs):
    u = inputs[0]
    return nbytes(*inputs) + (u.shape[0] - 2) * (u.shape[1] - 2) * (u.shape[2] - 2) * u.itemsize
