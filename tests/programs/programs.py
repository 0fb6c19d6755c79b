"""Ordinary NumPy programs from several domains, written the way people write NumPy (no npcompile in sight).

Sizes and loop counts are kept small here (the default test run compiles every program; short literal loops are
unrolled by the tracer, others outlined and compiled once); the shapes of the computations are what matter.
A program whose wrong answer is known and not fixed yet names it (``known_bug``): its test is a strict xfail; one
whose test takes over ~10 s is ``slow`` (run with ``-m slow``).

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
    known_bug: str = ""  # a wrong answer not fixed yet: the test is a strict xfail naming it
    slow: bool = False  # its test takes over ~10 s (marked slow: left out of the default run)


PROGRAMS: dict[str, Program] = {}


def program(domain, make_inputs, rtol=1e-9, atol=1e-12, known_bug="", slow=False):
    def deco(fn):
        PROGRAMS[fn.__name__] = Program(fn.__name__, fn, make_inputs, rtol, atol, domain, known_bug, slow)
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


# ------------------------------------------------------------------------------- HPC kernels (npbench-style)
# Written the way such kernels are published: Python loops over k/rows/columns with slice updates, in-place
# writes into the arguments, masks, bit twiddling, dtype-generic code.


@program("hpc", lambda rng: (rng.random((12, 12)) * 10,))
def floyd_warshall(dist):
    d = dist.copy()
    np.fill_diagonal(d, 0.0)
    for k in range(d.shape[0]):
        d = np.minimum(d, d[:, k, None] + d[None, k, :])
    return d


def _csr(rng, n=10, per_row=3):
    cols = np.sort(np.stack([rng.choice(n, per_row, replace=False) for _ in range(n)]), axis=1).ravel()
    indptr = np.arange(0, n * per_row + 1, per_row)
    return rng.standard_normal(n * per_row), cols, indptr, rng.standard_normal(n)


@program("hpc", _csr)
def csr_spmv_reduceat(data, indices, indptr, x):
    return np.add.reduceat(data * x[indices], indptr[:-1])


@program("hpc", _csr)
def csr_spmv_rows(data, indices, indptr, x):
    y = np.zeros(indptr.size - 1, dtype=data.dtype)
    for i in range(y.size):
        lo, hi = indptr[i], indptr[i + 1]
        y[i] = data[lo:hi] @ x[indices[lo:hi]]
    return y


def _spd_only(n):
    def make(rng):
        a = rng.standard_normal((n, n))
        return (a @ a.T + n * np.eye(n),)
    return make


@program("hpc", _spd_only(5), rtol=1e-8, slow=True)
def cholesky_inplace(a):
    a = a.copy()
    for k in range(a.shape[0]):
        a[k, k] = np.sqrt(a[k, k])
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k + 1:, k])
    return np.tril(a)


@program("hpc", _spd_only(5), rtol=1e-8)
def lu_doolittle_args(a):  # factors the argument in place (the caller sees L\U), as LAPACK-style code does
    n = a.shape[0]
    for k in range(n - 1):
        a[k + 1:, k] = a[k + 1:, k] / a[k, k]
        a[k + 1:, k + 1:] = a[k + 1:, k + 1:] - a[k + 1:, k, None] * a[None, k, k + 1:]
    return np.triu(a).trace()


@program("hpc", lambda rng: (rng.standard_normal((6, 4)),), rtol=1e-8, slow=True)
def modified_gram_schmidt(a):
    m, n = a.shape
    q = a.copy()
    r = np.zeros((n, n), dtype=a.dtype)
    for k in range(n):
        r[k, k] = np.linalg.norm(q[:, k])
        q[:, k] /= r[k, k]
        r[k, k + 1:] = q[:, k] @ q[:, k + 1:]
        q[:, k + 1:] -= np.outer(q[:, k], r[k, k + 1:])
    return q, r


def _tridiag(rng, n=8):
    return (rng.random(n), rng.random(n) + 3.0, rng.random(n), rng.standard_normal(n))


@program("hpc", _tridiag, rtol=1e-8)
def thomas_solve(lower, diag, upper, rhs):
    n = diag.size
    c = np.empty(n)
    d = np.empty(n)
    c[0] = upper[0] / diag[0]
    d[0] = rhs[0] / diag[0]
    for i in range(1, n):
        m = diag[i] - lower[i] * c[i - 1]
        c[i] = upper[i] / m
        d[i] = (rhs[i] - lower[i] * d[i - 1]) / m
    x = np.empty(n)
    x[-1] = d[-1]
    for i in range(n - 2, -1, -1):
        x[i] = d[i] - c[i] * x[i + 1]
    return x


@program("hpc", lambda rng: (rng.random((6, 6)), 0.2, 2), rtol=1e-8, slow=True)
def adi_sweeps(u, r, steps):
    n = u.shape[0]
    u = u.copy()
    for _ in range(steps):
        for axis_pass in range(2):
            v = u if axis_pass == 0 else u.T.copy()
            c = np.zeros_like(v)
            d = np.zeros_like(v)
            c[:, 0] = -r / (1 + 2 * r)
            d[:, 0] = v[:, 0] / (1 + 2 * r)
            for j in range(1, n):
                den = 1 + 2 * r + r * c[:, j - 1]
                c[:, j] = -r / den
                d[:, j] = (v[:, j] + r * d[:, j - 1]) / den
            out = np.empty_like(v)
            out[:, -1] = d[:, -1]
            for j in range(n - 2, -1, -1):
                out[:, j] = d[:, j] - c[:, j] * out[:, j + 1]
            u = out if axis_pass == 0 else out.T.copy()
    return u


@program("hpc", lambda rng: (rng.random((10, 10, 10)), 4))
def heat_3d(a, steps):
    b = a.copy()
    a = a.copy()
    for _ in range(steps):
        b[1:-1, 1:-1, 1:-1] = a[1:-1, 1:-1, 1:-1] + 0.125 * (
            a[2:, 1:-1, 1:-1] - 2 * a[1:-1, 1:-1, 1:-1] + a[:-2, 1:-1, 1:-1]
            + a[1:-1, 2:, 1:-1] - 2 * a[1:-1, 1:-1, 1:-1] + a[1:-1, :-2, 1:-1]
            + a[1:-1, 1:-1, 2:] - 2 * a[1:-1, 1:-1, 1:-1] + a[1:-1, 1:-1, :-2])
        a, b = b, a
    return a


def _hdiff_inputs(rng):
    return rng.random((10, 10, 4)), rng.random((6, 6, 4)) * 0.1


@program("hpc", _hdiff_inputs)
def horizontal_diffusion(field, coeff):
    ni, nj = coeff.shape[0], coeff.shape[1]
    lap = 4.0 * field[1:ni + 3, 1:nj + 3, :] - (field[2:ni + 4, 1:nj + 3, :] + field[0:ni + 2, 1:nj + 3, :]
                                                 + field[1:ni + 3, 2:nj + 4, :] + field[1:ni + 3, 0:nj + 2, :])
    fx = lap[1:, 1:-1, :] - lap[:-1, 1:-1, :]
    fx = np.where(fx * (field[2:ni + 3, 2:nj + 2, :] - field[1:ni + 2, 2:nj + 2, :]) > 0, 0.0, fx)
    fy = lap[1:-1, 1:, :] - lap[1:-1, :-1, :]
    fy = np.where(fy * (field[2:ni + 2, 2:nj + 3, :] - field[2:ni + 2, 1:nj + 2, :]) > 0, 0.0, fy)
    return field[2:ni + 2, 2:nj + 2, :] - coeff * (fx[1:, :, :] - fx[:-1, :, :] + fy[:, 1:, :] - fy[:, :-1, :])


def _vadv_inputs(rng):
    return rng.random((4, 3, 5)), rng.random((4, 3, 5)) * 0.3, 0.1


@program("hpc", _vadv_inputs, rtol=1e-8)
def vertical_advection(stage, wcon, dtr):
    ni, nj, nk = stage.shape
    ccol = np.zeros((ni, nj, nk))
    dcol = np.zeros((ni, nj, nk))
    gcv = 0.25 * wcon[:, :, 1]
    cs = gcv * 0.5
    ccol[:, :, 0] = gcv * 0.5 / (dtr - cs)
    dcol[:, :, 0] = (dtr * stage[:, :, 0] - cs * (stage[:, :, 1] - stage[:, :, 0])) / (dtr - cs)
    for k in range(1, nk - 1):
        gav = -0.25 * wcon[:, :, k]
        gcv = 0.25 * wcon[:, :, k + 1]
        av, cv = gav * 0.5, gcv * 0.5
        bcol = dtr - av - cv
        div = 1.0 / (bcol - ccol[:, :, k - 1] * av)
        ccol[:, :, k] = cv * div
        dcol[:, :, k] = (dtr * stage[:, :, k] - av * (stage[:, :, k - 1] - stage[:, :, k])
                         - cv * (stage[:, :, k + 1] - stage[:, :, k]) - dcol[:, :, k - 1] * av) * div
    out = np.empty_like(stage)
    out[:, :, nk - 1] = dcol[:, :, nk - 1]
    for k in range(nk - 2, -1, -1):
        out[:, :, k] = dcol[:, :, k] - ccol[:, :, k] * out[:, :, k + 1]
    return out


@program("hpc", lambda rng: (np.linspace(-2, 0.6, 30)[None, :] + 1j * np.linspace(-1.2, 1.2, 20)[:, None], 6), slow=True)
def mandelbrot_masked(c, iters):
    z = np.zeros_like(c)
    n = np.zeros(c.shape, dtype=np.int32)
    for i in range(iters):
        m = np.abs(z) <= 2.0
        z[m] = z[m] ** 2 + c[m]
        n[m] = i
    return n, np.abs(z) > 2.0


@program("hpc", lambda rng: (rng.random((16, 16)), 8), rtol=1e-8)
def azimuthal_average(img, nbins):
    y, x = np.indices(img.shape)
    cy, cx = (img.shape[0] - 1) / 2, (img.shape[1] - 1) / 2
    r = np.hypot(x - cx, y - cy)
    edges = np.linspace(0, r.max() + 1e-9, nbins + 1)
    counts, _ = np.histogram(r, bins=edges)
    sums, _ = np.histogram(r, bins=edges, weights=img)
    idx = np.minimum((r / r.max() * nbins).astype(np.int64), nbins - 1)
    return sums / np.maximum(counts, 1), np.bincount(idx.ravel(), weights=img.ravel(), minlength=nbins)


@program("hpc", lambda rng: (rng.integers(0, 256, size=(3, 5), dtype=np.uint8),), slow=True)
def crc32_rows(msgs):
    poly = np.uint32(0xEDB88320)
    crc = np.full(msgs.shape[0], 0xFFFFFFFF, dtype=np.uint32)
    for j in range(msgs.shape[1]):
        crc ^= msgs[:, j].astype(np.uint32)
        for _ in range(8):
            crc = np.where(crc & 1, (crc >> 1) ^ poly, crc >> 1)
    return crc ^ np.uint32(0xFFFFFFFF)


def _latlon(rng, n=40):
    return tuple(rng.random(n) * s - s / 2 for s in (np.pi, 2 * np.pi, np.pi, 2 * np.pi))


@program("hpc", _latlon, rtol=1e-8)
def haversine(lat1, lon1, lat2, lon2):
    dlat, dlon = lat2 - lat1, lon2 - lon1
    h = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    return 2 * 6371.0 * np.arcsin(np.sqrt(h))


def _contour_inputs(rng):
    return rng.standard_normal((5, 5)) + 1j * rng.standard_normal((5, 5)), rng.standard_normal((5, 2)), 4


@program("hpc", _contour_inputs, rtol=1e-7, atol=1e-10)
def contour_integral(a, b, npts):
    n = a.shape[0]
    acc = np.zeros((n, b.shape[1]), dtype=np.complex128)
    for j in range(npts):
        theta = 2 * np.pi * (j + 0.5) / npts
        z = 3.0 * np.exp(1j * theta)
        x = np.linalg.solve(z * np.eye(n) - a, b)
        acc += x * z / npts
    return acc


@program("hpc", lambda rng: (np.concatenate(([1.0], 0.5 ** np.arange(1, 7) * rng.uniform(0.5, 1.0, 6))),),
         rtol=1e-8)
def levinson_durbin(r):
    n = r.size - 1
    y = np.zeros(n)
    y[0] = -r[1]
    beta, alpha = 1.0, -r[1]
    for k in range(1, n):
        beta = (1 - alpha * alpha) * beta
        alpha = -(r[k + 1] + np.dot(r[k:0:-1], y[:k])) / beta
        y[:k] = y[:k] + alpha * y[k - 1::-1]
        y[k] = alpha
    return y


@program("hpc", lambda rng: (rng.random((5, 6)), 0.5), rtol=1e-8)
def deriche_rows(img, alpha):
    k = (1 - np.exp(-alpha)) ** 2 / (1 + 2 * alpha * np.exp(-alpha) - np.exp(-2 * alpha))
    a1, a2 = k, k * np.exp(-alpha) * (alpha - 1)
    b1, b2 = 2 * np.exp(-alpha), -np.exp(-2 * alpha)
    h, w = img.shape
    y1 = np.zeros_like(img)
    y2 = np.zeros_like(img)
    ym1 = np.zeros(h)
    ym2 = np.zeros(h)
    xm1 = np.zeros(h)
    for j in range(w):
        y1[:, j] = a1 * img[:, j] + a2 * xm1 + b1 * ym1 + b2 * ym2
        xm1 = img[:, j]
        ym2, ym1 = ym1, y1[:, j]
    yp1 = np.zeros(h)
    yp2 = np.zeros(h)
    for j in range(w - 1, -1, -1):
        y2[:, j] = b1 * yp1 + b2 * yp2
        yp2, yp1 = yp1, y2[:, j] + a1 * img[:, j]
    return y1 + y2


def _mlp_inputs(rng):
    return (rng.standard_normal((6, 10)).astype(np.float32), rng.standard_normal((10, 16)).astype(np.float32),
            rng.standard_normal(16).astype(np.float32), rng.standard_normal((16, 4)).astype(np.float32),
            rng.standard_normal(4).astype(np.float32))


@program("hpc", _mlp_inputs, rtol=2e-5, atol=1e-6)
def mlp_forward(x, w1, b1, w2, b2):
    h = np.maximum(x @ w1 + b1, 0)
    logits = h @ w2 + b2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@program("hpc", lambda rng: (rng.random((2, 12, 12)), rng.standard_normal((3, 2, 3, 3))), rtol=1e-8)
def conv2d_windows(img, kernels):
    win = np.lib.stride_tricks.sliding_window_view(img, kernels.shape[2:], axis=(1, 2))
    return np.einsum("chwij,ocij->ohw", win, kernels)


@program("hpc", lambda rng: (rng.random((2, 10, 10)), rng.standard_normal((3, 2, 3, 3))), rtol=1e-8)
def conv2d_loops(img, kernels):
    o, c, kh, kw = kernels.shape
    h, w = img.shape[1] - kh + 1, img.shape[2] - kw + 1
    out = np.zeros((o, h, w))
    for i in range(kh):
        for j in range(kw):
            out += np.tensordot(kernels[:, :, i, j], img[:, i:i + h, j:j + w], axes=(1, 0))
    return out


@program("hpc", lambda rng: (rng.standard_normal((8, 8)), rng.standard_normal(8), 1e-10, 200), rtol=1e-6)
def spectral_norm(a, v, tol, maxiter):
    v = v / np.linalg.norm(v)
    sigma = 0.0
    for _ in range(maxiter):
        w = a.T @ (a @ v)
        new = np.sqrt(np.linalg.norm(w))
        v = w / np.linalg.norm(w)
        err = abs(new - sigma)
        sigma = new
        if err < tol:
            break
    return sigma


@program("hpc", _mat(10, 10))
def go_fast(a):
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


@program("hpc", lambda rng: (rng.standard_normal(60).cumsum() + 100,))
def drawdown_scan(prices):
    returns = np.diff(prices) / prices[:-1]
    wealth = np.cumprod(1 + returns)
    peak = np.maximum.accumulate(wealth)
    dd = 1 - wealth / peak
    return dd.max(), np.cumsum(returns)[-1], np.diff(np.sign(returns), prepend=0.0)


@program("hpc", lambda rng: (rng.random(20).astype(np.float32) * 10 + 0.1,), rtol=1e-6)
def newton_sqrt_generic(a):
    eps = np.finfo(a.dtype).eps
    x = np.ones_like(a)
    for _ in range(30):
        nxt = (0.5 * (x + a / x)).astype(a.dtype)
        if np.all(np.abs(nxt - x) <= 4 * eps * nxt):
            return nxt
        x = nxt
    return x


@program("hpc", lambda rng: (rng.standard_normal((6, 5)), rng.standard_normal(5)))
def normalize_rows_inplace(a, shift):  # returns nothing: the caller sees the writes
    a -= a.mean(axis=1, keepdims=True)
    a[1:, :] /= np.linalg.norm(a[1:, :], axis=1)[:, None]
    a[0] += shift
    shift[::2] = 0.0
