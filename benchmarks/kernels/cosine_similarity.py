"""Row-wise cosine similarity of two embedding matrices: three reductions over the same rows (dot and two
norms via np.linalg.norm) and a division; one read of each input is enough."""
import numpy as np

from ._util import nbytes

NAME = "cosine_similarity"
MEMORY_BOUND = True
_SHAPE = {"small": (500, 32), "default": (200_000, 64), "gpu": (2_000_000, 128)}


def kernel(a, b):
    num = (a * b).sum(axis=1)
    den = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    return num / np.maximum(den, 1e-12)


def make_inputs(size, rng):
    shape = _SHAPE[size]
    a = rng.standard_normal(shape)
    return a, 0.7 * a + rng.standard_normal(shape)


def BYTES(inputs):
    a = inputs[0]
    return nbytes(*inputs) + a.shape[0] * a.itemsize
