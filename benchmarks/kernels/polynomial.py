"""Polynomial evaluation by Horner's rule with a Python loop over the coefficients: NumPy makes two
temporaries per degree; a compiler can unroll the loop into one pass over x."""
import numpy as np

from ._util import nbytes

NAME = "polynomial"
MEMORY_BOUND = True
_N = {"small": 10_000, "default": 4_000_000, "gpu": 64_000_000}


def kernel(x, coef):
    y = np.zeros_like(x)
    for c in coef:
        y = y * x + c
    return y


def make_inputs(size, rng):
    x = rng.uniform(-1.0, 1.0, _N[size])
    coef = rng.standard_normal(9)
    return x, coef


def BYTES(inputs):
    x, coef = inputs
    return nbytes(x, coef) + x.nbytes
