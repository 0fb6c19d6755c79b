"""k-means assignment step: squared distances of every point to every centroid by broadcasting, argmin
per point, and the inertia. NumPy materializes the (points, centroids, dims) difference tensor."""
import numpy as np

NAME = "kmeans_assign"
MEMORY_BOUND = False
_SHAPE = {"small": (2000, 8, 16), "default": (20000, 8, 16), "gpu": (2_000_000, 8, 16)}


def kernel(x, centroids):
    d2 = ((x[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=-1)
    labels = d2.argmin(axis=1)
    inertia = d2.min(axis=1).sum()
    return labels, inertia


def make_inputs(size, rng):
    n, d, k = _SHAPE[size]
    centers = rng.uniform(-10, 10, (k, d))
    x = centers[rng.integers(0, k, n)] + rng.standard_normal((n, d))
    centroids = centers + 0.5 * rng.standard_normal((k, d))
    return x, centroids


def BYTES(inputs):
    return None
