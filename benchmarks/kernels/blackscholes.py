"""Black-Scholes European call and put prices, with the classic polynomial approximation of the normal
CDF: many transcendental ops per element over five input arrays, two outputs.

Compute-bound, not memory-bound: five exps, a log, a square root and eight divisions per float64 element.
Compiled it takes 18 to 23 ms on our two cores (27 ms on one), where a triad moving its 112 MB takes about 4.5 ms;
so no bandwidth figure is reported for it."""
import numpy as np


NAME = "blackscholes"
MEMORY_BOUND = False
_N = {"small": 10_000, "default": 2_000_000, "gpu": 32_000_000}


def _norm_cdf(d):
    # Abramowitz & Stegun 26.2.17 (NumPy has no erf).
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    w = 1.0 - 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
    return np.where(d < 0, 1.0 - w, w)


def kernel(spot, strike, expiry, rate, vol):
    sqrt_t = np.sqrt(expiry)
    d1 = (np.log(spot / strike) + (rate + 0.5 * vol * vol) * expiry) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    discounted = strike * np.exp(-rate * expiry)
    call = spot * _norm_cdf(d1) - discounted * _norm_cdf(d2)
    put = discounted * _norm_cdf(-d2) - spot * _norm_cdf(-d1)
    return call, put


def make_inputs(size, rng):
    n = _N[size]
    spot = rng.uniform(5.0, 30.0, n)
    strike = rng.uniform(1.0, 100.0, n)
    expiry = rng.uniform(0.25, 10.0, n)
    rate = rng.uniform(0.0, 0.05, n)
    vol = rng.uniform(0.1, 0.6, n)
    return spot, strike, expiry, rate, vol


def BYTES(inputs):
    return None
