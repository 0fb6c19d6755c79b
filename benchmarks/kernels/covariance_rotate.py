"""Batched small matmul: rotate a stack of 3x3 covariance matrices, R @ S @ R^T (sensor fusion, Kalman
filters). Tiny matrices where per-matrix BLAS calls are all overhead."""
import numpy as np

NAME = "covariance_rotate"
MEMORY_BOUND = False
_N = {"small": 1000, "default": 200_000, "gpu": 4_000_000}


def kernel(rot, cov):
    return rot @ cov @ np.swapaxes(rot, -1, -2)


def make_inputs(size, rng):
    n = _N[size]
    q, _ = np.linalg.qr(rng.standard_normal((n, 3, 3)))
    a = rng.standard_normal((n, 3, 3))
    return q, a @ np.swapaxes(a, -1, -2) + np.eye(3)


def BYTES(inputs):
    return None
