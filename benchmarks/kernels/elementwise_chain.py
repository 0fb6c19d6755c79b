"""Fused elementwise chain: the simplest memory-bound case, where NumPy writes a temporary per operator
and a fusing compiler reads each input once and writes the output once."""
import numpy as np

from ._util import nbytes

NAME = "elementwise_chain"
MEMORY_BOUND = True
_N = {"small": 10_000, "default": 4_000_000, "gpu": 64_000_000}


def kernel(a, b, c, d):
    return a * b + c * d - np.sin(a)


def make_inputs(size, rng):
    n = _N[size]
    return tuple(rng.standard_normal(n) for _ in range(4))


def BYTES(inputs):
    return nbytes(*inputs) + inputs[0].nbytes
