"""np.histogram with a fixed bin count and range (counts and edges), the call users reach for first."""
import numpy as np

NAME = "histogram"
MEMORY_BOUND = True
_N = {"small": 10_000, "default": 2_000_000, "gpu": 64_000_000}
_BINS = 64


def kernel(x):
    return np.histogram(x, bins=_BINS, range=(-4.0, 4.0))


def make_inputs(size, rng):
    return (rng.standard_normal(_N[size]),)


def BYTES(inputs):
    return inputs[0].nbytes + _BINS * 8 + (_BINS + 1) * 8
