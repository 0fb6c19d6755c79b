"""Quality masks per row (sensor channels x samples): flag outliers, combine them with a validity mask read from
disk, count the kept and flagged samples of each row and keep the combined mask. Bool loads, stores and row
sums of bools, which compiled code long did lane by lane."""
import numpy as np

from ._util import nbytes

NAME = "mask_row_count"
MEMORY_BOUND = True
_SHAPE = {"small": (64, 200), "default": (2000, 2000), "gpu": (16000, 8000)}


def kernel(x, valid):
    out = np.abs(x) > 3.0
    keep = valid & ~out
    return np.count_nonzero(keep, axis=1), out.sum(axis=1), keep


def make_inputs(size, rng):
    x = rng.standard_normal(_SHAPE[size]) * 1.5
    return x, rng.random(_SHAPE[size]) > 0.05


def BYTES(inputs):
    x, valid = inputs
    return nbytes(x, valid) + valid.nbytes + 2 * x.shape[0] * 8
