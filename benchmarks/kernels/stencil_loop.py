"""Explicit heat-equation time stepping: a 50-step Python loop of in-place slice updates. NumPy pays one
pass per operator per step; a tracer unrolls the loop (50 copies of the step in one graph), which is
why the runner reports its compile time separately."""
import numpy as np

NAME = "stencil_loop"
MEMORY_BOUND = False  # 50 passes over the grid; "bytes moved once" does not describe it
LOOP_STEPS = 50
_N = {"small": 64, "default": 512, "gpu": 4096}


def kernel(u0):
    u = u0.copy()
    for _ in range(50):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.2 * (
            u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
        )
    return u


def make_inputs(size, rng):
    n = _N[size]
    u = np.zeros((n, n))
    u[n // 4 : 3 * n // 4, n // 4 : 3 * n // 4] = 1.0
    u += 0.01 * rng.random((n, n))
    return (u,)


def BYTES(inputs):
    return None
