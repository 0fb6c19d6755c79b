"""More ordinary NumPy programs (issue 4), in styles ``programs.py`` does not cover: padded image filters and
integer images, signal processing with FFTs and interpolation, minibatch training with a generator seeded inside,
Metropolis and ODE simulations, group-by with ``np.unique``, and code organised the way people organise it (dicts
and small classes holding arrays, helpers, ``while`` loops with a convergence test, ``try``/``except``,
``np.errstate``, dtype reads, in-place updates through views).

They register into the same ``PROGRAMS`` table as ``programs.py`` (same runner, same rules: small sizes, drawn
inputs, ``slow`` for tests over ~10 s, ``known_bug`` for an unfixed wrong answer).
"""

from __future__ import annotations

import math

import numpy as np

from .programs import program

# ------------------------------------------------------------------------------------------------- images


def _gauss_kernel(sigma, radius):
    x = np.arange(-radius, radius + 1, dtype=np.float64)
    k = np.exp(-0.5 * (x / sigma) ** 2)
    return k / k.sum()


@program("image", lambda rng: (rng.random((14, 17)), 1.2))
def gaussian_blur_padded(img, sigma):
    r = 2
    k = _gauss_kernel(sigma, r)
    p = np.pad(img, ((r, r), (0, 0)), mode="reflect")
    rows = sum(k[i] * p[i:i + img.shape[0], :] for i in range(2 * r + 1))
    q = np.pad(rows, ((0, 0), (r, r)), mode="edge")
    return sum(k[j] * q[:, j:j + img.shape[1]] for j in range(2 * r + 1))


@program("image", lambda rng: ((rng.beta(2, 5, size=(12, 16)) * 255).astype(np.uint8),))
def histogram_equalize_uint8(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = np.cumsum(hist).astype(np.float64)
    cdf_min = cdf[np.flatnonzero(hist)[0]]
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255)
    lut = np.clip(lut, 0, 255).astype(np.uint8)
    eq = lut[img]
    # the same through interpolation of the normalised CDF
    levels = np.interp(img.ravel(), np.arange(256), cdf / cdf[-1]).reshape(img.shape)
    return eq, levels


@program("image", lambda rng: (rng.random((7, 9)), 11, 13))
def bilinear_resize(img, out_h, out_w):
    h, w = img.shape
    ys = np.linspace(0, h - 1, out_h)
    xs = np.linspace(0, w - 1, out_w)
    y0 = np.floor(ys).astype(np.int64)
    x0 = np.floor(xs).astype(np.int64)
    y1 = np.minimum(y0 + 1, h - 1)
    x1 = np.minimum(x0 + 1, w - 1)
    wy = (ys - y0)[:, None]
    wx = (xs - x0)[None, :]
    top = img[y0[:, None], x0[None, :]] * (1 - wx) + img[y0[:, None], x1[None, :]] * wx
    bot = img[y1[:, None], x0[None, :]] * (1 - wx) + img[y1[:, None], x1[None, :]] * wx
    return top * (1 - wy) + bot * wy


@program("image", lambda rng: ((rng.random((12, 12)) > 0.3).astype(np.uint8) * 255,))
def erosion_dilation_windows(mask):
    padded = np.pad(mask, 1, mode="edge")
    win = np.lib.stride_tricks.sliding_window_view(padded, (3, 3))
    eroded = win.min(axis=(-2, -1))
    dilated = np.lib.stride_tricks.sliding_window_view(np.pad(eroded, 1, mode="constant"), (3, 3)).max(axis=(2, 3))
    return eroded, dilated, (dilated != mask).sum()


@program("image", lambda rng: ((rng.random((10, 10, 3)) * 255).astype(np.uint8),
                               (rng.random((10, 10, 3)) * 255).astype(np.uint8), 0.3))
def uint8_alpha_blend(a, b, alpha):
    mixed = (a.astype(np.float32) * (1 - alpha) + b.astype(np.float32) * alpha + 0.5).astype(np.uint8)
    wrapped = a + b  # uint8 arithmetic wraps around, as in NumPy
    saturated = np.clip(a.astype(np.int16) + b, 0, 255).astype(np.uint8)
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
    return mixed, wrapped, saturated, diff.max(axis=-1), (a >> 4) << 4


# ------------------------------------------------------------------------------------------------- signals


@program("signal", lambda rng: (np.sin(np.linspace(0, 12 * np.pi, 96)) + 0.3 * rng.standard_normal(96),),
         rtol=1e-8, atol=1e-10)
def autocorrelation(x):
    x = x - x.mean()
    direct = np.correlate(x, x, mode="full")[x.size - 1:]
    n = 2 * x.size
    f = np.fft.rfft(x, n)
    via_fft = np.fft.irfft(f * np.conj(f), n)[:x.size]
    return direct / direct[0], via_fft / via_fft[0]


@program("signal", lambda rng: (np.sin(np.linspace(0, 8 * np.pi, 80)) + 0.2 * rng.standard_normal(80), 0.5))
def find_peaks_masks(x, height):
    is_peak = (x[1:-1] > x[:-2]) & (x[1:-1] >= x[2:]) & (x[1:-1] > height)
    idx = np.flatnonzero(is_peak) + 1
    prominence = x[idx] - np.minimum(x[idx - 1], x[idx + 1])
    order = np.argsort(-x[idx], kind="stable")
    return idx, prominence, idx[order][:3], np.diff(idx)


@program("signal", lambda rng: (np.sort(rng.random(30)) * 10, rng.standard_normal(30)))
def resample_nonuniform(t, y):
    grid = np.linspace(t[0], t[-1], 50)
    on_grid = np.interp(grid, t, y)
    outside = np.interp(np.array([-1.0, 20.0]), t, y, left=np.nan, right=0.0)
    periodic = np.interp(np.linspace(0, 20, 7), t, y, period=10.0)
    return on_grid, outside, periodic


@program("signal", lambda rng: (rng.standard_normal(256), 32), rtol=1e-8, atol=1e-12)
def welch_psd(x, nperseg):
    step = nperseg // 2
    nseg = (x.size - nperseg) // step + 1
    idx = np.arange(nperseg)[None, :] + step * np.arange(nseg)[:, None]
    segs = x[idx]
    segs = segs - segs.mean(axis=1, keepdims=True)
    win = np.hanning(nperseg)
    spec = np.abs(np.fft.rfft(segs * win, axis=1)) ** 2
    psd = spec.mean(axis=0) / (win ** 2).sum()
    psd[1:-1] *= 2
    return np.fft.rfftfreq(nperseg), psd


@program("signal", lambda rng: (rng.standard_normal(40).cumsum(), 7))
def rolling_window_stats(x, w):
    c1 = np.cumsum(np.concatenate(([0.0], x)))
    c2 = np.cumsum(np.concatenate(([0.0], x * x)))
    s1 = c1[w:] - c1[:-w]
    s2 = c2[w:] - c2[:-w]
    mean = s1 / w
    var = np.maximum(s2 / w - mean ** 2, 0.0)
    z = (x[w - 1:] - mean) / np.sqrt(var + 1e-12)
    return mean, np.sqrt(var), z > 1.0


# -------------------------------------------------------------------------------------------------- ML


def _softmax_inputs(rng):
    x = rng.standard_normal((48, 5))
    w_true = rng.standard_normal((5, 3))
    return x, np.argmax(x @ w_true, axis=1), 3


def _softmax_rows(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@program("ml", _softmax_inputs, rtol=1e-8)
def softmax_sgd_minibatch(x, y, epochs):
    rng = np.random.default_rng(7)
    n, d = x.shape
    k = int(y.max()) + 1
    w = np.zeros((d, k))
    b = np.zeros(k)
    onehot = np.eye(k)[y]
    losses = []
    for _ in range(epochs):
        perm = rng.permutation(n)
        for start in range(0, n, 16):
            bi = perm[start:start + 16]
            p = _softmax_rows(x[bi] @ w + b)
            g = (p - onehot[bi]) / bi.size
            w -= 0.5 * x[bi].T @ g
            b -= 0.5 * g.sum(axis=0)
        p = _softmax_rows(x @ w + b)
        losses.append(-np.log(p[np.arange(n), y]).mean())
    return w, b, np.array(losses)


@program("ml", lambda rng: (rng.standard_normal((30, 2)), rng.integers(0, 3, size=30), rng.standard_normal((6, 2)), 4))
def knn_classify(train, labels, query, k):
    d2 = ((query[:, None, :] - train[None, :, :]) ** 2).sum(-1)
    nearest = np.argpartition(d2, k, axis=1)[:, :k]
    votes = labels[nearest]
    counts = (votes[:, :, None] == np.arange(3)).sum(axis=1)
    return counts.argmax(axis=1), np.sort(np.take_along_axis(d2, nearest, axis=1), axis=1)


@program("ml", lambda rng: (rng.standard_normal((25, 4)) @ rng.standard_normal((4, 4)),), rtol=1e-7, atol=1e-10)
def pca_svd(x):
    xc = x - x.mean(axis=0)
    u, s, vt = np.linalg.svd(xc, full_matrices=False)
    signs = np.sign(vt[np.arange(vt.shape[0]), np.argmax(np.abs(vt), axis=1)])
    vt = vt * signs[:, None]
    explained = s ** 2 / (s ** 2).sum()
    scores = xc @ vt[:2].T
    return vt[:2], explained, scores


@program("ml", lambda rng: (rng.standard_normal((16, 6)) * 3 + 1, rng.random(6) + 0.5, rng.standard_normal(6),
                            rng.standard_normal((16, 6))), rtol=1e-8)
def batchnorm_forward_backward(x, gamma, beta, dout):
    eps = 1e-5
    mu = x.mean(axis=0)
    xc = x - mu
    var = (xc ** 2).mean(axis=0)
    inv = 1.0 / np.sqrt(var + eps)
    xhat = xc * inv
    out = gamma * xhat + beta
    n = x.shape[0]
    dbeta = dout.sum(axis=0)
    dgamma = (dout * xhat).sum(axis=0)
    dxhat = dout * gamma
    dx = inv / n * (n * dxhat - dxhat.sum(axis=0) - xhat * (dxhat * xhat).sum(axis=0))
    return out, dx, dgamma, dbeta


class _Adam:
    """A small optimizer object holding its state arrays, as training loops are written."""

    def __init__(self, shape, lr=0.05, b1=0.9, b2=0.999):
        self.m = np.zeros(shape)
        self.v = np.zeros(shape)
        self.t = 0
        self.lr, self.b1, self.b2 = lr, b1, b2

    def step(self, w, g):
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.b2 * self.v + (1 - self.b2) * g * g
        mhat = self.m / (1 - self.b1 ** self.t)
        vhat = self.v / (1 - self.b2 ** self.t)
        w -= self.lr * mhat / (np.sqrt(vhat) + 1e-8)


@program("ml", lambda rng: (rng.standard_normal((40, 3)), rng.standard_normal(40), 6), rtol=1e-8)
def adam_least_squares(x, y, steps):
    w = np.zeros(x.shape[1])
    opt = _Adam(w.shape)
    for _ in range(steps):
        r = x @ w - y
        opt.step(w, x.T @ r / len(y))
    return w, opt.m, opt.v, 0.5 * np.mean((x @ w - y) ** 2)


# ---------------------------------------------------------------------------------------------- simulation


@program("simulation", lambda rng: (np.where(rng.random((8, 8)) > 0.5, 1, -1), rng.random((3, 2, 8, 8)), 0.6))
def ising_checkerboard(spins, u, beta):
    s = spins.copy()
    ii, jj = np.indices(s.shape)
    colours = [(ii + jj) % 2 == 0, (ii + jj) % 2 == 1]
    for sweep in range(u.shape[0]):
        for c in range(2):
            nb = np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)
            de = 2.0 * s * nb
            flip = colours[c] & ((de <= 0) | (u[sweep, c] < np.exp(-beta * de)))
            s[flip] *= -1
    return s, s.mean(), -(s * (np.roll(s, 1, 0) + np.roll(s, 1, 1))).sum()


def _sir_rhs(y, beta, gamma):
    s, i, r = y
    inf = beta * s * i
    return np.array([-inf, inf - gamma * i, gamma * i])


@program("simulation", lambda rng: (np.array([0.99, 0.01, 0.0]), 0.3 + 0.1 * rng.random(), 0.1, 0.5, 12),
         rtol=1e-8)
def sir_rk4(y0, beta, gamma, dt, steps):
    y = y0.copy()
    traj = np.empty((steps + 1, 3))
    traj[0] = y
    for n in range(steps):
        k1 = _sir_rhs(y, beta, gamma)
        k2 = _sir_rhs(y + 0.5 * dt * k1, beta, gamma)
        k3 = _sir_rhs(y + 0.5 * dt * k2, beta, gamma)
        k4 = _sir_rhs(y + dt * k3, beta, gamma)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[n + 1] = y
    return traj, traj[:, 1].argmax()


@program("simulation", lambda rng: (rng.random((20, 2)), rng.standard_normal((20, 2)), 0.05, 10))
def particles_reflecting_walls(pos, vel, dt, steps):
    p, v = pos.copy(), vel.copy()
    bounces = np.zeros(p.shape[0], dtype=np.int64)
    for _ in range(steps):
        p += dt * v
        low, high = p < 0.0, p > 1.0
        p = np.where(low, -p, np.where(high, 2.0 - p, p))
        hit = low | high
        v[hit] = -v[hit]
        bounces += hit.any(axis=1)
    return p, v, bounces


@program("simulation", lambda rng: (1.0 + 0.1 * np.exp(-((np.linspace(0, 1, 40) - 0.5) / 0.1) ** 2), 12),
         rtol=1e-8)
def shallow_water_1d(h0, steps):
    g, dx = 9.81, 1.0 / h0.size
    h, hu = h0.copy(), np.zeros_like(h0)
    dt = 0.4 * dx / np.sqrt(g * h.max())

    def flux(h, hu):
        u = hu / h
        return hu, hu * u + 0.5 * g * h * h

    for _ in range(steps):
        fh, fhu = flux(h, hu)
        # Lax-Friedrichs with reflecting walls through ghost cells
        hp = np.concatenate((h[:1], h, h[-1:]))
        hup = np.concatenate((-hu[:1], hu, -hu[-1:]))
        fhp = np.concatenate((-fh[:1], fh, -fh[-1:]))
        fhup = np.concatenate((fhu[:1], fhu, fhu[-1:]))
        h = 0.5 * (hp[2:] + hp[:-2]) - dt / (2 * dx) * (fhp[2:] - fhp[:-2])
        hu = 0.5 * (hup[2:] + hup[:-2]) - dt / (2 * dx) * (fhup[2:] - fhup[:-2])
    return h, hu, h.sum() * dx


@program("simulation", lambda rng: ({"x": rng.standard_normal(12), "v": np.zeros(12)}, 0.02, 8), rtol=1e-8)
def dict_state_oscillators(state, dt, steps):
    k = np.linspace(1.0, 2.0, state["x"].size)
    hist = {"energy": [], "xmax": []}
    st = {name: arr.copy() for name, arr in state.items()}
    for _ in range(steps):
        st["v"] -= dt * k * st["x"]
        st["x"] += dt * st["v"]
        hist["energy"].append(0.5 * (st["v"] ** 2 + k * st["x"] ** 2).sum())
        hist["xmax"].append(np.abs(st["x"]).max())
    state["x"][:] = st["x"]  # the caller's dict sees the final positions
    return st, np.array(hist["energy"]), np.stack(hist["xmax"])


# ------------------------------------------------------------------------------------------ finance / stats


@program("finance", lambda rng: (rng.random(24) * 40 + 80, 100.0, 0.25, 0.03, rng.random(24) + 0.1), rtol=1e-9)
def black_scholes_math_erf(s, k, sigma, r, t):
    erf = np.vectorize(math.erf, otypes=[np.float64])

    def ncdf(z):
        return 0.5 * (1.0 + erf(z / math.sqrt(2.0)))

    d1 = (np.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * np.sqrt(t))
    d2 = d1 - sigma * np.sqrt(t)
    call = s * ncdf(d1) - k * np.exp(-r * t) * ncdf(d2)
    put = call - s + k * np.exp(-r * t)
    return call, put


@program("statistics", lambda rng: (rng.exponential(2.0, size=40), 200), rtol=1e-9)
def bootstrap_ci(x, nboot):
    rng = np.random.default_rng(123)
    samples = rng.choice(x, size=(nboot, x.size), replace=True)
    means = samples.mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return x.mean(), lo, hi, means.std(ddof=1)


@program("numeric", lambda rng: (rng.standard_normal(64) * 10.0 ** rng.integers(-8, 8, size=64),))
def kahan_sum(x):
    total = 0.0
    comp = 0.0
    for v in x:
        y = v - comp
        t = total + y
        comp = (t - total) - y
        total = t
    return total, math.fsum(x.tolist())


@program("statistics", lambda rng: (rng.integers(0, 6, size=50) * 10, rng.standard_normal(50)))
def groupby_unique(keys, values):
    uniq, inv, counts = np.unique(keys, return_inverse=True, return_counts=True)
    sums = np.bincount(inv, weights=values, minlength=uniq.size)
    means = sums / counts
    centred = values - means[inv]
    maxes = np.full(uniq.size, -np.inf)
    np.maximum.at(maxes, inv, values)
    return uniq, counts, means, centred, maxes


# ----------------------------------------------------------------------------------------- control flow


def _spd_system(rng, n=10):
    m = rng.standard_normal((n, n))
    return m @ m.T + n * np.eye(n), rng.standard_normal(n)


@program("solver", _spd_system, rtol=1e-7, atol=1e-9)
def conjugate_gradient_while(a, b):
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rs = r @ r
    it = 0
    while np.linalg.norm(r) > 1e-10 * np.linalg.norm(b):
        ap = a @ p
        alpha = rs / (p @ ap)
        x += alpha * p
        r -= alpha * ap
        rs_new = r @ r
        p = r + (rs_new / rs) * p
        rs = rs_new
        it += 1
        if it > 50:
            return x, -1
    return x, it


@program("solver", lambda rng: (rng.random(8) * 3 + 1,), rtol=1e-10)
def bisection_roots_early_return(c):
    # roots of x**3 - c on [0, c], stopped early when every bracket is narrow
    lo, hi = np.zeros_like(c), c.copy()
    for it in range(200):
        mid = 0.5 * (lo + hi)
        f = mid ** 3 - c
        lo = np.where(f < 0, mid, lo)
        hi = np.where(f < 0, hi, mid)
        if np.max(hi - lo) < 1e-9:
            return mid, it
    return 0.5 * (lo + hi), -1


def _safe_stats(a, table):
    if a.dtype.kind not in "fc":
        a = a.astype(np.float64)
    try:
        scale = table["scale"]
    except KeyError:
        scale = 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(a) * scale
        ratio = a / a.sum(axis=0)
    return np.where(np.isfinite(logs), logs, 0.0), np.nan_to_num(ratio)


@program("mixed", lambda rng: (rng.integers(0, 4, size=(5, 4)), rng.random((5, 4)) - 0.2), rtol=1e-6)
def dtype_dispatch_errstate(ints, floats):
    li, ri = _safe_stats(ints, {})
    lf, rf = _safe_stats(floats.astype(np.float32), {"scale": 2.0})
    return li, ri, lf, rf, ints.dtype.kind == "i", np.issubdtype(lf.dtype, np.floating)


@program("mixed", lambda rng: (rng.standard_normal((6, 8)),))
def inplace_on_views(a):
    b = a.copy()
    b[::2] *= 2.0
    b[:, 1::3] += b[:, ::3][:, :3]
    col = b[:, 0]
    col -= col.mean()
    t = b.T
    t[-1] = 0.0
    np.multiply(b[1:, 1:], 0.5, out=b[1:, 1:])
    d = np.einsum("ii->i", b[:6, :6])
    return b, d.copy(), np.shares_memory(col, b)


@program("mixed", lambda rng: (rng.random(16).astype(np.float32), rng.integers(1, 5, size=16).astype(np.int32)),
         rtol=1e-6)
def float32_int32_promotion(x, n):
    y = x * 3 + 0.5  # a Python float keeps float32 (NEP 50)
    z = x * n  # int32 with float32 -> float64
    w = n // 2 + n % 3  # stays int32
    m = np.float32(2.5) * n  # float32 scalar with int32 array -> float64
    acc = np.zeros(4, dtype=np.float32)
    acc += x.reshape(4, 4).sum(axis=1)
    return y, z, w, m, acc, (x > 0.5).sum(), n.mean(), n.sum()
