"""Feature standardization (z-score per column): mean and std reduced along axis 0 then broadcast back,
the first step of most tabular ML pipelines. NumPy makes several passes; the ideal is read twice."""
import numpy as np

from ._util import nbytes

NAME = "column_normalize"
MEMORY_BOUND = True
_SHAPE = {"small": (1000, 16), "default": (200_000, 32), "gpu": (4_000_000, 64)}


def kernel(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def make_inputs(size, rng):
    shape = _SHAPE[size]
    return (rng.standard_normal(shape) * rng.uniform(0.5, 5.0, shape[1]) + rng.uniform(-3, 3, shape[1]),)


def BYTES(inputs):
    return 2 * nbytes(*inputs)
