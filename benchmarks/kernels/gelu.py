"""GELU activation (tanh approximation) in float32: an ML elementwise chain with a power and a tanh, and a
check that Python-float constants keep the array float32 (NEP 50)."""
import numpy as np

from ._util import nbytes

NAME = "gelu"
MEMORY_BOUND = True
_SHAPE = {"small": (64, 256), "default": (4096, 2048), "gpu": (16384, 8192)}


def kernel(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def make_inputs(size, rng):
    return (rng.standard_normal(_SHAPE[size], dtype=np.float32),)


def BYTES(inputs):
    return 2 * nbytes(*inputs)
