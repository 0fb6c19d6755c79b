"""One gradient-descent step of L2-regularized logistic regression: matvec, sigmoid, transposed matvec.
Two passes over the design matrix; bandwidth-bound at this aspect ratio."""
import numpy as np

from ._util import nbytes

NAME = "logreg_grad"
MEMORY_BOUND = True
_SHAPE = {"small": (1000, 16), "default": (200_000, 64), "gpu": (4_000_000, 128)}
_LR, _LAMBDA = 0.1, 1e-3


def kernel(x, y, w):
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    grad = x.T @ (p - y) / x.shape[0] + _LAMBDA * w
    return w - _LR * grad


def make_inputs(size, rng):
    n, d = _SHAPE[size]
    x = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d)
    y = (x @ w_true + rng.standard_normal(n) > 0).astype(np.float64)
    return x, y, 0.1 * rng.standard_normal(d)


def BYTES(inputs):
    return nbytes(*inputs) + inputs[2].nbytes
