"""Brownian particles in a unit box: ten steps of uniform random displacement drawn inside the kernel
(np.random.random) with reflecting walls, then the mean squared displacement. A short unrolled loop
that mixes random number generation with elementwise work."""
import numpy as np

NAME = "random_walk"
MEMORY_BOUND = False
_N = {"small": 10_000, "default": 1_000_000, "gpu": 32_000_000}
_STEP = 0.02


def kernel(pos):
    p = pos
    for _ in range(10):
        p = p + _STEP * (np.random.random(p.shape) - 0.5)
        p = 1.0 - np.abs(1.0 - np.abs(p))  # reflect at 0 and 1
    msd = ((p - pos) ** 2).sum(axis=1).mean()
    return p, msd


def make_inputs(size, rng):
    return (rng.uniform(0.1, 0.9, (_N[size], 2)),)


def check(ref, out):
    """Same shape, positions inside the box, mean squared displacement within 5%."""
    (rp, rmsd), (op, omsd) = ref, out
    if rp.shape != op.shape:
        return False, f"shape {op.shape} != {rp.shape}"
    if not (np.all(op >= 0.0) and np.all(op <= 1.0)):
        return False, "positions left the box"
    rel = abs(float(omsd) - float(rmsd)) / float(rmsd)
    return bool(rel < 0.05), f"msd rel diff {rel:.2%}"


def BYTES(inputs):
    return None
