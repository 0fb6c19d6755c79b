"""A first npcompile program: a plain NumPy function, compiled, checked against NumPy, and timed."""

import time

import numpy as np

import npcompile


def heat_step(u, alpha=0.1):
    """One explicit time step of the 2-D heat equation on the interior of ``u``."""
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
    out = u.copy()
    out[1:-1, 1:-1] += alpha * lap
    return out, np.abs(lap).max()


def best_of(fn, *args, repeat=20):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times)


if __name__ == "__main__":
    u = np.random.default_rng(0).random((1000, 1000))
    fast = npcompile.compile(heat_step)
    got, got_max = fast(u)
    want, want_max = heat_step(u)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(got_max, want_max, rtol=1e-12)
    print(f"results match NumPy: {type(got).__name__} {got.dtype} {got.shape}, max |lap| = {float(got_max):.4f}")
    t_np, t_nc = best_of(heat_step, u), best_of(fast, u)
    print(f"NumPy {t_np * 1e3:.2f} ms, npcompile {t_nc * 1e3:.2f} ms per step ({t_np / t_nc:.1f}x)")
