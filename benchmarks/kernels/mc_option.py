"""Monte Carlo pricing of European calls: terminal prices of geometric Brownian motion from normal draws
made inside the kernel (np.random.standard_normal), discounted mean payoff per option. Random streams
differ between implementations, so results are checked statistically."""
import numpy as np

NAME = "mc_option"
MEMORY_BOUND = False
_M = {"small": 16, "default": 128, "gpu": 4096}
N_PATHS = 8192
_R, _SIGMA, _T = 0.03, 0.25, 1.0


def kernel(spot, strike):
    z = np.random.standard_normal((spot.shape[0], N_PATHS))
    terminal = spot[:, None] * np.exp((_R - 0.5 * _SIGMA**2) * _T + _SIGMA * np.sqrt(_T) * z)
    payoff = np.maximum(terminal - strike[:, None], 0.0)
    return np.exp(-_R * _T) * payoff.mean(axis=1)


def make_inputs(size, rng):
    m = _M[size]
    return rng.uniform(80.0, 120.0, m), np.full(m, 100.0)


def check(ref, out):
    """Same shape, and the average price over all options within 3% (both are MC estimates)."""
    (r,), (o,) = ref, out
    if r.shape != o.shape:
        return False, f"shape {o.shape} != {r.shape}"
    rel = abs(o.mean() - r.mean()) / abs(r.mean())
    return bool(rel < 0.03), f"mean price rel diff {rel:.2%}"


def BYTES(inputs):
    return None
