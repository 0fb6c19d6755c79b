"""Moving average with a fixed window through the cumulative-sum trick: prepend a zero, cumsum, difference
of shifted slices. O(n) regardless of the window."""
import numpy as np

from ._util import nbytes

NAME = "moving_average"
MEMORY_BOUND = True
ATOL = 1e-8  # differences of running sums of magnitude ~sqrt(n)
_N = {"small": 10_000, "default": 4_000_000, "gpu": 64_000_000}
_W = 50


def kernel(x):
    c = np.cumsum(np.concatenate((np.zeros(1, dtype=x.dtype), x)))
    return (c[_W:] - c[:-_W]) / _W


def make_inputs(size, rng):
    return (rng.standard_normal(_N[size]),)


def BYTES(inputs):
    x = inputs[0]
    return nbytes(x) + (x.shape[0] - _W + 1) * x.itemsize
