"""Fixed-width histogram by hand: bin index by scaling and truncation, then np.bincount with and without
weights (a scatter-add). minlength pins the output length, but bincount's length still depends on the
data as far as a tracer knows."""
import numpy as np

NAME = "bincount_hist"
MEMORY_BOUND = True
_N = {"small": 10_000, "default": 4_000_000, "gpu": 64_000_000}
_NBINS = 256


def kernel(x, w):
    idx = np.clip((x * _NBINS).astype(np.int64), 0, _NBINS - 1)
    return np.bincount(idx, minlength=_NBINS), np.bincount(idx, weights=w, minlength=_NBINS)


def make_inputs(size, rng):
    n = _N[size]
    return rng.beta(2.0, 5.0, n), rng.random(n)


def BYTES(inputs):
    x, w = inputs
    return x.nbytes + w.nbytes + 2 * _NBINS * 8
