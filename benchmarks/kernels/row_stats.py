"""Per-row summary statistics (mean, std, min, max along axis 1): four reductions over the same rows
that a compiler can do in one read of the data."""
import numpy as np

from ._util import nbytes

NAME = "row_stats"
MEMORY_BOUND = True
_SHAPE = {"small": (100, 200), "default": (4000, 1000), "gpu": (64000, 2000)}


def kernel(x):
    return x.mean(axis=1), x.std(axis=1), x.min(axis=1), x.max(axis=1)


def make_inputs(size, rng):
    return (rng.standard_normal(_SHAPE[size]),)


def BYTES(inputs):
    x = inputs[0]
    return nbytes(x) + 4 * x.shape[0] * x.itemsize
