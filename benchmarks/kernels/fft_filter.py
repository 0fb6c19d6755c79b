"""Gaussian low-pass filtering of a batch of signals in the frequency domain: rfft, multiply by a transfer
function built with rfftfreq, irfft. Complex intermediates and library FFT calls."""
import numpy as np

NAME = "fft_filter"
MEMORY_BOUND = False
_SHAPE = {"small": (8, 512), "default": (256, 8192), "gpu": (4096, 16384)}
_CUTOFF = 0.05  # cycles per sample


def kernel(x):
    n = x.shape[-1]
    f = np.fft.rfftfreq(n)
    h = np.exp(-((f / _CUTOFF) ** 2))
    return np.fft.irfft(np.fft.rfft(x, axis=-1) * h, n=n, axis=-1)


def make_inputs(size, rng):
    rows, n = _SHAPE[size]
    t = np.arange(n)
    clean = np.sin(2 * np.pi * 0.01 * t) * rng.uniform(0.5, 2.0, (rows, 1))
    return (clean + 0.5 * rng.standard_normal((rows, n)),)


def BYTES(inputs):
    return None
