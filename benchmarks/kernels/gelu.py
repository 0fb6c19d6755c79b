"""GELU activation (tanh approximation) in float32: an ML elementwise chain with a power and a tanh. The
constant is a Python float: np.sqrt(2.0 / np.pi) would be an np.float64 scalar, which under NumPy 2's
promotion rules (NEP 50) turns the whole result into float64."""
import math

import numpy as np

from ._util import nbytes

NAME = "gelu"
MEMORY_BOUND = True
_SHAPE = {"small": (64, 256), "default": (2048, 2048), "gpu": (16384, 8192)}


_C = math.sqrt(2.0 / math.pi)


def kernel(x):
    return 0.5 * x * (1.0 + np.tanh(_C * (x + 0.044715 * x**3)))


def make_inputs(size, rng):
    return (rng.standard_normal(_SHAPE[size], dtype=np.float32),)


def BYTES(inputs):
    return 2 * nbytes(*inputs)
