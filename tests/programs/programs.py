"""Ordinary NumPy programs from several domains, written the way people write NumPy (no npcompile in sight).

Python loops are unrolled by the tracer, so loop counts are kept small here (the default test run compiles
every program); the shapes of the computations are what matter.

Each entry: ``PROGRAMS[name] = Program(fn, make_inputs, rtol)``.  ``make_inputs(rng)`` draws fresh random
inputs; randomness used *by* a program (Monte Carlo) is drawn outside and passed in, so results are
deterministic and comparable with NumPy (``seeded_random_projection`` seeds a generator inside: its draws are
folded from NumPy's own stream, so they compare exactly).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass
class Program:
    name: str
    fn: Callable
    make_inputs: Callable
    rtol: float = 1e-9
    atol: float = 1e-12
    domain: str = ""


PROGRAMS: dict[str, Program] = {}


def program(domain, make_inputs, rtol=1e-9, atol=1e-12):
    def deco(fn):
        PROGRAMS[fn.__name__] = Program(fn.__name__, fn, make_inputs, rtol, atol, domain)
        return fn

    return deco


def _vec(n):
    return lambda rng: (rng.standard_normal(n),)


def _mat(m, n):
    return lambda rng: (rng.standard_normal((m, n)),)


# ----------------------------------------------------------------------------------------------- stencils


@program("stencil", lambda rng: (rng.random(64), 0.1, 8))
def heat_1d(u, alpha, steps):
    u = u.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


@program("stencil", lambda rng: (rng.random((24, 24)), 5))
def jacobi_2d(grid, iters):
    g = grid.copy()
    for _ in range(iters):
        g[1:-1, 1:-1] = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
    return g


@program("stencil", _mat(20, 30))
def laplacian_2d(f):
    lap = -4.0 * f
    lap += np.roll(f, 1, axis=0) + np.roll(f, -1, axis=0)
    lap += np.roll(f, 1, axis=1) + np.roll(f, -1, axis=1)
    return lap


@program("stencil", lambda rng: ((rng.random((16, 16)) > 0.6).astype(np.int64),))
def game_of_life_step(board):
    n = sum(np.roll(np.roll(board, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
    return ((n == 3) | ((board == 1) & (n == 2))).astype(np.int64)


@program("stencil", lambda rng: (rng.random(50), 0.3, 6))
def wave_1d(u0, c, steps):
    prev = u0.copy()
    cur = u0.copy()
    for _ in range(steps):
        nxt = np.zeros_like(cur)
        nxt[1:-1] = 2 * cur[1:-1] - prev[1:-1] + c * c * (cur[2:] - 2 * cur[1:-1] + cur[:-2])
        prev, cur = cur, nxt
    return cur


# --------------------------------------------------------------------------------------------- statistics


@program("statistics", _mat(40, 6))
def standardize(x):
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    return (x - mu) / sd


@program("statistics", _mat(30, 5))
def covariance(x):
    xc = x - x.mean(axis=0, keepdims=True)
    return xc.T @ xc / (x.shape[0] - 1)


@program("statistics", _mat(5, 40), rtol=1e-8)
def correlation(x):
    return np.corrcoef(x)


@program("statistics", lambda rng: (rng.random(100), rng.random(100)))
def weighted_stats(x, w):
    m = np.average(x, weights=w)
    v = np.average((x - m) ** 2, weights=w)
    return m, v, np.median(x), np.percentile(x, 90)


@program("statistics", _vec(200))
def moving_average(x):
    c = np.cumsum(x)
    w = 5
    return (c[w:] - c[:-w]) / w


@program("statistics", lambda rng: (rng.random(12), 0.2))
def exp_moving_average(x, alpha):
    out = np.empty_like(x)
    acc = x[0]
    for i in range(x.shape[0]):
        acc = alpha * x[i] + (1 - alpha) * acc
        out[i] = acc
    return out


@program("statistics", lambda rng: (rng.integers(0, 10, size=300),))
def histogram_counts(labels):
    return np.bincount(labels, minlength=10) / labels.size


# ----------------------------------------------------------------------------------------------- k-means


def _kmeans_inputs(rng):
    pts = np.concatenate([rng.normal(c, 0.3, size=(30, 2)) for c in (0.0, 3.0, -3.0)])
    return pts, pts[[0, 30, 60]].copy()


@program("clustering", _kmeans_inputs)
def kmeans_assign(points, centers):
    d = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=-1)
    return d.argmin(axis=1), d.min(axis=1).sum()


@program("clustering", _kmeans_inputs)
def kmeans_iterations(points, centers):
    c = centers.copy()
    for _ in range(3):
        d = ((points[:, None, :] - c[None, :, :]) ** 2).sum(axis=-1)
        lab = d.argmin(axis=1)
        onehot = (lab[:, None] == np.arange(c.shape[0])[None, :]).astype(points.dtype)
        c = (onehot.T @ points) / onehot.sum(axis=0)[:, None]
    return c


# ------------------------------------------------------------------------------------------------ n-body


def _bodies(rng):
    return rng.standard_normal((16, 3)), rng.standard_normal((16, 3)) * 0.1, rng.random(16) + 0.5


@program("n-body", _bodies)
def nbody_accel(pos, vel, mass):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d ** 2).sum(-1) + 1e-2
    inv = r2 ** -1.5
    np.fill_diagonal(inv, 0.0)
    return (d * (inv * mass[None, :])[:, :, None]).sum(axis=1)


@program("n-body", _bodies, rtol=1e-8)
def nbody_leapfrog(pos, vel, mass):
    p, v = pos.copy(), vel.copy()
    dt = 0.01
    for _ in range(3):
        d = p[None, :, :] - p[:, None, :]
        r2 = (d * d).sum(-1) + 1e-2
        a = (d * (mass[None, :] / r2 ** 1.5)[:, :, None]).sum(axis=1)
        v += dt * a
        p += dt * v
    ke = 0.5 * (mass * (v ** 2).sum(axis=1)).sum()
    return p, v, ke


# ---------------------------------------------------------------------------------------- ML-ish kernels


@program("ml", _mat(8, 32))
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@program("ml", _mat(8, 32))
def log_softmax(x):
    m = x.max(axis=1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))


@program("ml", lambda rng: (rng.standard_normal((6, 10)), rng.integers(0, 10, size=6)))
def cross_entropy(logits, labels):
    m = logits.max(axis=1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
    return -logp[np.arange(labels.shape[0]), labels].mean()


@program("ml", lambda rng: (rng.standard_normal((4, 16)), rng.random(16) + 0.5, rng.standard_normal(16)))
def layernorm(x, gamma, beta):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * gamma + beta


@program("ml", lambda rng: tuple(rng.standard_normal((6, 8)) for _ in range(3)))
def attention(q, k, v):
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    return p @ v


@program("ml", lambda rng: (rng.standard_normal((50, 3)), rng.standard_normal(50), 0.05, 8), rtol=1e-8)
def linreg_gradient_descent(x, y, lr, steps):
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(steps):
        r = x @ w + b - y
        w = w - lr * (x.T @ r) / len(y)
        b = b - lr * r.mean()
    return w, b


@program("ml", lambda rng: (rng.standard_normal((40, 4)), (rng.random(40) > 0.5).astype(np.float64), 5))
def logistic_regression(x, y, steps):
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        w += 0.1 * x.T @ (y - p) / y.size
    return w


@program("ml", lambda rng: (rng.integers(0, 5, size=12),))
def one_hot(labels):
    out = np.zeros((labels.size, 5))
    out[np.arange(labels.size), labels] = 1.0
    return out


@program("ml", lambda rng: (rng.standard_normal(40), 5))
def top_k(x, k):
    idx = np.argsort(x)[::-1][:k]
    return idx, x[idx]


# ------------------------------------------------------------------------------------------ distances


@program("distances", lambda rng: (rng.standard_normal((20, 3)), rng.standard_normal((15, 3))))
def pairwise_broadcast(a, b):
    return np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=-1))


@program("distances", lambda rng: (rng.standard_normal((20, 3)), rng.standard_normal((15, 3))), rtol=1e-7)
def pairwise_dot_trick(a, b):
    sq = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T
    return np.sqrt(np.maximum(sq, 0.0))


@program("distances", _mat(12, 5))
def cosine_similarity(x):
    n = x / np.linalg.norm(x, axis=1, keepdims=True)
    return n @ n.T


@program("distances", lambda rng: (rng.standard_normal((30, 2)),))
def nearest_neighbour(p):
    d = ((p[:, None, :] - p[None, :, :]) ** 2).sum(-1)
    d[np.arange(len(p)), np.arange(len(p))] = np.inf
    return d.argmin(axis=1), np.sqrt(d.min(axis=1))


# --------------------------------------------------------------------------------------------- images


@program("image", lambda rng: (rng.random((20, 24)),))
def box_blur(img):
    out = np.zeros_like(img)
    out[1:-1, 1:-1] = sum(img[1 + i:img.shape[0] - 1 + i, 1 + j:img.shape[1] - 1 + j]
                          for i in (-1, 0, 1) for j in (-1, 0, 1)) / 9.0
    return out


@program("image", lambda rng: (rng.random((18, 18)),))
def sobel_magnitude(img):
    gx = img[1:-1, 2:] - img[1:-1, :-2]
    gy = img[2:, 1:-1] - img[:-2, 1:-1]
    return np.hypot(gx, gy)


@program("image", lambda rng: ((rng.random((16, 16)) * 255).astype(np.uint8),))
def normalize_threshold(img):
    f = img.astype(np.float32) / 255.0
    f = (f - f.min()) / (f.max() - f.min() + 1e-6)
    return np.where(f > 0.5, 1.0, 0.0).astype(np.float32), np.clip(f * 1.2, 0, 1)


@program("image", lambda rng: (rng.random((3, 12, 12)),))
def rgb_to_gray_gamma(img):
    w = np.array([0.299, 0.587, 0.114])
    gray = np.tensordot(w, img, axes=1)
    return gray ** (1 / 2.2)


@program("image", lambda rng: (rng.random((16, 16)), np.array([0.25, 0.5, 0.25])))
def separable_blur(img, k):
    rows = k[0] * img[:, :-2] + k[1] * img[:, 1:-1] + k[2] * img[:, 2:]
    return k[0] * rows[:-2] + k[1] * rows[1:-1] + k[2] * rows[2:]


# ---------------------------------------------------------------------------------------- Monte Carlo


@program("monte-carlo", lambda rng: (rng.random((2, 4000)),))
def monte_carlo_pi(u):
    inside = (u[0] ** 2 + u[1] ** 2) <= 1.0
    return 4.0 * inside.mean()


@program("monte-carlo", lambda rng: (rng.standard_normal(5000), 100.0, 105.0, 0.2, 0.01, 1.0))
def mc_option_price(z, s0, k, sigma, r, t):
    st = s0 * np.exp((r - 0.5 * sigma ** 2) * t + sigma * np.sqrt(t) * z)
    payoff = np.maximum(st - k, 0.0)
    return np.exp(-r * t) * payoff.mean(), payoff.std() / np.sqrt(z.size)


@program("monte-carlo", lambda rng: (rng.standard_normal((20, 16)),))
def seeded_random_projection(x):  # a generator made inside: the same draws on every call, as NumPy's
    rng = np.random.default_rng(42)
    w = rng.standard_normal((x.shape[1], 4)) / np.sqrt(x.shape[1])
    return x @ w


@program("monte-carlo", lambda rng: (rng.choice([-1.0, 1.0], size=(50, 40)),))
def random_walk_stats(steps):
    paths = np.cumsum(steps, axis=1)
    return paths[:, -1].mean(), (paths ** 2).mean(axis=0), np.abs(paths).max()


# ---------------------------------------------------------------------------------------- polynomials


@program("polynomial", lambda rng: (np.linspace(-1, 1, 30), rng.standard_normal(30)), rtol=1e-7)
def polyfit_eval(x, y):
    c = np.polyfit(x, y, 3)
    return c, np.polyval(c, x)


@program("polynomial", lambda rng: (rng.standard_normal(6), np.linspace(-2, 2, 40)))
def horner(coeffs, x):
    acc = np.zeros_like(x)
    for c in coeffs:
        acc = acc * x + c
    return acc


@program("polynomial", lambda rng: (np.linspace(-1, 1, 30), rng.standard_normal(30)), rtol=1e-7)
def polynomial_class_fit(x, y):
    p = np.polynomial.Polynomial.fit(x, y, 3)
    return p(x), p.deriv()(x), p.integ().coef


@program("polynomial", lambda rng: (np.linspace(0, 1, 25), rng.standard_normal(25)), rtol=1e-7)
def vandermonde_lstsq(x, y):
    v = np.vander(x, 4)
    coef, *_ = np.linalg.lstsq(v, y, rcond=None)
    return coef


# ------------------------------------------------------------------------------------- linear algebra


def _spd(rng):
    a = rng.standard_normal((6, 6))
    return a @ a.T + 6 * np.eye(6), rng.standard_normal(6)


@program("linalg", _spd, rtol=1e-8)
def solve_normal_equations(a, b):
    x = np.linalg.solve(a, b)
    return x, np.linalg.norm(a @ x - b)


@program("linalg", _spd, rtol=1e-7)
def power_iteration(a, v0):
    v = v0 / np.linalg.norm(v0)
    for _ in range(10):
        w = a @ v
        v = w / np.linalg.norm(w)
    return v @ a @ v


@program("linalg", _mat(6, 4), rtol=1e-8)
def gram_schmidt(a):
    q = np.zeros_like(a)
    for j in range(a.shape[1]):
        v = a[:, j].copy()
        for i in range(j):
            v -= (q[:, i] @ a[:, j]) * q[:, i]
        q[:, j] = v / np.linalg.norm(v)
    return q


@program("linalg", _spd, rtol=1e-8)
def cholesky_solve(a, b):
    l = np.linalg.cholesky(a)
    y = np.linalg.solve(l, b)
    return np.linalg.solve(l.T, y)


@program("linalg", lambda rng: (rng.standard_normal((5, 5)),), rtol=1e-8)
def det_inv_trace(a):
    return np.linalg.det(a), np.trace(np.linalg.inv(a) @ a), np.einsum("ij,ji->", a, a)


# --------------------------------------------------------------------------------------- time stepping


@program("time-stepping", lambda rng: (np.array([1.0, 1.0, 1.0]) + 0.1 * rng.standard_normal(3), 0.005, 3),
         rtol=1e-8)
def lorenz_rk4(state, dt, steps):
    def f(s):
        x, y, z = s[0], s[1], s[2]
        return np.array([10.0 * (y - x), x * (28.0 - z) - y, x * y - 8.0 / 3.0 * z])

    s = state.copy()
    for _ in range(steps):
        k1 = f(s)
        k2 = f(s + 0.5 * dt * k1)
        k3 = f(s + 0.5 * dt * k2)
        k4 = f(s + dt * k3)
        s = s + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return s


@program("time-stepping", lambda rng: (rng.standard_normal(10), np.zeros(10), 0.01, 10))
def spring_chain_euler(x, v, dt, steps):
    x, v = x.copy(), v.copy()
    for _ in range(steps):
        f = -2 * x
        f[1:] += x[:-1]
        f[:-1] += x[1:]
        v += dt * f
        x += dt * v
    return x, v


@program("time-stepping", lambda rng: (rng.random(30) * 0.1, 0.02, 8))
def logistic_growth(p, r, steps):
    traj = [p]
    for _ in range(steps):
        p = p + r * p * (1 - p)
        traj.append(p)
    return np.stack(traj)


# --------------------------------------------------------------------------------------- misc numeric


@program("numeric", lambda rng: (np.linspace(-2, 1, 24)[None, :] + 1j * np.linspace(-1.5, 1.5, 20)[:, None],))
def mandelbrot(c):
    z = np.zeros_like(c)
    count = np.zeros(c.shape, dtype=np.int64)
    for _ in range(8):
        z = np.where(np.abs(z) <= 2, z * z + c, z)
        count += (np.abs(z) <= 2).astype(np.int64)
    return count


@program("numeric", lambda rng: (rng.random(50) * 50 + 50, rng.random(50) * 50 + 50, 0.2, 0.05, 1.0))
def black_scholes(s, k, sigma, r, t):
    d1 = (np.log(s / k) + (r + 0.5 * sigma ** 2) * t) / (sigma * np.sqrt(t))
    d2 = d1 - sigma * np.sqrt(t)

    def ncdf(x):  # Abramowitz-Stegun 7.1.26 based normal CDF
        a = np.abs(x) / np.sqrt(2.0)
        t_ = 1.0 / (1.0 + 0.3275911 * a)
        poly = t_ * (0.254829592 + t_ * (-0.284496736 + t_ * (1.421413741 + t_ * (-1.453152027 + t_ * 1.061405429))))
        erf = 1.0 - poly * np.exp(-a * a)
        return 0.5 * (1.0 + np.sign(x) * erf)

    return s * ncdf(d1) - k * np.exp(-r * t) * ncdf(d2)


@program("numeric", lambda rng: (np.linspace(0, np.pi, 101),))
def trapezoid_integral(x):
    y = np.sin(x) ** 2
    return ((y[1:] + y[:-1]) * np.diff(x)).sum() / 2


@program("numeric", lambda rng: (rng.standard_normal(64), rng.standard_normal(64)), rtol=1e-8, atol=1e-10)
def fft_convolution(a, b):
    n = a.size + b.size - 1
    return np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(b, n), n)
