"""Cumulative sum along rows turned into a running mean (expanding-window average of time series): a
scan, which does not fuse as simply as a reduction."""
import numpy as np

from ._util import nbytes

NAME = "running_mean"
MEMORY_BOUND = True
_SHAPE = {"small": (50, 200), "default": (2000, 2000), "gpu": (16000, 8000)}


def kernel(x):
    return np.cumsum(x, axis=1) / np.arange(1, x.shape[1] + 1)


def make_inputs(size, rng):
    return (rng.standard_normal(_SHAPE[size]),)


def BYTES(inputs):
    return 2 * nbytes(*inputs)
