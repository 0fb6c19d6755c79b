"""One explicit diffusion step on a periodic 2-D grid: neighbours by ``np.roll``, the way periodic boundaries
are usually written in NumPy (no ghost cells, no special edges)."""
import numpy as np

from ._util import nbytes

NAME = "periodic_diffusion"
MEMORY_BOUND = True
_N = {"small": 128, "default": 2048, "gpu": 8192}


def kernel(u):
    lap = np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1) - 4.0 * u
    return u + 0.1 * lap


def make_inputs(size, rng):
    n = _N[size]
    return (rng.random((n, n)),)


def BYTES(inputs):
    return 2 * nbytes(*inputs)
