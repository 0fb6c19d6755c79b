"""One explicit step of a softened gravitational n-body simulation: all-pairs displacement tensor,
inverse-cube distances, acceleration by a reduction over sources, then velocity and position updates."""
import numpy as np

NAME = "nbody"
MEMORY_BOUND = False
_N = {"small": 64, "default": 1000, "gpu": 8192}
_DT = 0.01
_EPS2 = 1e-3


def kernel(pos, vel, mass):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d * d).sum(axis=-1) + _EPS2
    inv_r3 = r2**-1.5
    acc = (d * (mass[None, :] * inv_r3)[:, :, None]).sum(axis=1)
    vel_new = vel + _DT * acc
    pos_new = pos + _DT * vel_new
    return pos_new, vel_new


def make_inputs(size, rng):
    n = _N[size]
    return rng.standard_normal((n, 3)), 0.1 * rng.standard_normal((n, 3)), rng.uniform(0.5, 1.5, n) / n


def BYTES(inputs):
    return None
