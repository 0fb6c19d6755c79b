"""A fourth batch of ordinary NumPy programs, in areas the first three leave out: textbook solvers (Kepler's
equation by Newton, row-by-row Gauss-Seidel, red-black SOR, finite-element assembly with ``np.add.at``, RKF45 with
step control), molecular dynamics (velocity Verlet with the minimum image), image work (median filter over
``sliding_window_view``, Otsu's threshold, Harris corners), signal processing (STFT spectrogram, windowed-sinc FIR,
matched filter, FFT Hilbert envelope), statistics (weighted quantiles, Spearman ranks, KDE, OLS inference, a seeded
permutation test), geometry (shoelace, point in polygon, batched rotations), finance (CRR binomial tree, RiskMetrics
EWMA with VaR/CVaR), ML (Gaussian mixture EM in log space, Gaussian-process regression, projection onto the
simplex, Viterbi), an elementary cellular automaton, a Kalman filter and data cleaning.

They register into the same ``PROGRAMS`` table (same runner, same rules: small sizes, drawn inputs, ``slow`` for
tests over ~10 s, ``known_bug`` for an unfixed wrong answer).
"""

from __future__ import annotations

import numpy as np

from .programs import program

# -------------------------------------------------------------------------------------------------- solvers


@program("solver", lambda rng: (rng.uniform(0, 2 * np.pi, 40), rng.uniform(0, 0.9, 40)), rtol=1e-12)
def kepler_newton(mean_anomaly, ecc):
    e_anom = np.where(ecc > 0.8, np.pi * np.ones_like(mean_anomaly), mean_anomaly)
    for _ in range(12):
        f = e_anom - ecc * np.sin(e_anom) - mean_anomaly
        e_anom = e_anom - f / (1.0 - ecc * np.cos(e_anom))
    nu = 2.0 * np.arctan2(np.sqrt(1 + ecc) * np.sin(e_anom / 2), np.sqrt(1 - ecc) * np.cos(e_anom / 2))
    return e_anom, nu


def _diag_dominant(n):
    def make(rng):
        a = rng.standard_normal((n, n))
        a += np.diag(np.abs(a).sum(axis=1) + 1.0)
        return a, rng.standard_normal(n), 15
    return make


@program("solver", _diag_dominant(6), rtol=1e-10)
def gauss_seidel_rows(a, b, sweeps):
    n = b.size
    x = np.zeros(n)
    for _ in range(sweeps):
        for i in range(n):
            s = a[i, :i] @ x[:i] + a[i, i + 1:] @ x[i + 1:]
            x[i] = (b[i] - s) / a[i, i]
    return x, np.linalg.norm(a @ x - b)


@program("pde", lambda rng: (rng.standard_normal((18, 18)), 1.5, 20), rtol=1e-10)
def sor_red_black(f, omega, sweeps):
    n = f.shape[0]
    h2 = (1.0 / (n - 1)) ** 2
    u = np.zeros_like(f)
    ii, jj = np.indices(f.shape)
    interior = np.zeros(f.shape, dtype=bool)
    interior[1:-1, 1:-1] = True
    red = interior & ((ii + jj) % 2 == 0)
    black = interior & ((ii + jj) % 2 == 1)
    for _ in range(sweeps):
        for colour in (red, black):
            nb = np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1)
            gs = 0.25 * (nb - h2 * f)
            u[colour] = (1 - omega) * u[colour] + omega * gs[colour]
    res = np.zeros_like(f)
    res[1:-1, 1:-1] = f[1:-1, 1:-1] - (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                       - 4 * u[1:-1, 1:-1]) / h2
    return u, np.abs(res).max()


@program("fem", lambda rng: (np.sort(np.concatenate([[0.0, 1.0], rng.random(10)])), 1.0 + rng.random(11)),
         rtol=1e-9)
def fem_1d_poisson(nodes, kappa):
    """-(kappa u')' = 1 on [0, 1], u(0) = u(1) = 0, linear elements; kappa is constant per element."""
    n = nodes.size
    elems = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
    h = np.diff(nodes)
    ke = (kappa / h)[:, None, None] * np.array([[1.0, -1.0], [-1.0, 1.0]])
    fe = (h / 2)[:, None] * np.ones(2)
    k = np.zeros((n, n))
    f = np.zeros(n)
    rows = np.repeat(elems, 2, axis=1)
    cols = np.tile(elems, (1, 2))
    np.add.at(k, (rows.ravel(), cols.ravel()), ke.reshape(-1))
    np.add.at(f, elems.ravel(), fe.ravel())
    free = np.arange(1, n - 1)
    u = np.zeros(n)
    u[free] = np.linalg.solve(k[np.ix_(free, free)], f[free])
    return u, k.sum(axis=1), f.sum()


# ------------------------------------------------------------------------------------------------ dynamics


def _lj_inputs(rng):
    side = 4
    g = (np.stack(np.meshgrid(np.arange(side), np.arange(side), indexing="ij"), -1).reshape(-1, 2) + 0.5) * 1.3
    return g + 0.05 * rng.standard_normal(g.shape), 0.1 * rng.standard_normal(g.shape), side * 1.3, 0.005, 8


def _lj_forces(x, box):
    d = x[:, None, :] - x[None, :, :]
    d -= box * np.round(d / box)
    r2 = (d ** 2).sum(-1)
    np.fill_diagonal(r2, np.inf)
    inv6 = (1.0 / r2) ** 3
    fmag = 24.0 * (2.0 * inv6 * inv6 - inv6) / r2
    pot = 4.0 * (inv6 * inv6 - inv6)
    return (fmag[:, :, None] * d).sum(axis=1), 0.5 * pot.sum()


@program("dynamics", _lj_inputs, rtol=1e-9, atol=1e-11)
def lennard_jones_verlet(x, v, box, dt, steps):
    x = x.copy()
    v = v.copy()
    f, pot = _lj_forces(x, box)
    energies = np.empty(steps)
    for s in range(steps):
        v += 0.5 * dt * f
        x += dt * v
        x %= box
        f, pot = _lj_forces(x, box)
        v += 0.5 * dt * f
        energies[s] = pot + 0.5 * (v ** 2).sum()
    return x, v, energies


@program("ode", lambda rng: (rng.uniform(0.5, 2.0, 3), 2.0), rtol=1e-9)
def rk45_adaptive_decay(y0, t_end):
    """Fehlberg's embedded pair with step control.  Not one graph, by nature: each step is accepted or rejected on
    its error estimate (an ``if`` on array values, and the number of steps follows from those)."""
    lam = -3.0
    t, y, h = 0.0, y0, 0.1
    steps = 0
    while t < t_end:
        h = min(h, t_end - t)
        k1 = lam * y
        k2 = lam * (y + h * k1 / 4)
        k3 = lam * (y + h * (3 * k1 + 9 * k2) / 32)
        k4 = lam * (y + h * (1932 * k1 - 7200 * k2 + 7296 * k3) / 2197)
        k5 = lam * (y + h * (439 / 216 * k1 - 8 * k2 + 3680 / 513 * k3 - 845 / 4104 * k4))
        k6 = lam * (y + h * (-8 / 27 * k1 + 2 * k2 - 3544 / 2565 * k3 + 1859 / 4104 * k4 - 11 / 40 * k5))
        y4 = y + h * (25 / 216 * k1 + 1408 / 2565 * k3 + 2197 / 4104 * k4 - k5 / 5)
        y5 = y + h * (16 / 135 * k1 + 6656 / 12825 * k3 + 28561 / 56430 * k4 - 9 / 50 * k5 + 2 / 55 * k6)
        err = np.abs(y5 - y4).max()
        if err < 1e-8:
            t += h
            y = y5
            steps += 1
        h *= 0.9 * (1e-8 / max(err, 1e-16)) ** 0.2
    return y, y0 * np.exp(lam * t_end), steps


@program("tracking", lambda rng: (np.cumsum(0.5 + 0.1 * rng.standard_normal(30)) + rng.standard_normal(30),),
         rtol=1e-9)
def kalman_constant_velocity(z):
    dt = 1.0
    f = np.array([[1.0, dt], [0.0, 1.0]])
    hm = np.array([[1.0, 0.0]])
    q = 0.01 * np.array([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    r = np.array([[1.0]])
    x = np.zeros(2)
    p = 10.0 * np.eye(2)
    out = np.zeros((z.size, 2))
    for k in range(z.size):
        x = f @ x
        p = f @ p @ f.T + q
        s = hm @ p @ hm.T + r
        gain = p @ hm.T @ np.linalg.inv(s)
        x = x + gain @ (z[k:k + 1] - hm @ x)
        p = (np.eye(2) - gain @ hm) @ p
        out[k] = x
    return out, p


# --------------------------------------------------------------------------------------------------- images


@program("image", lambda rng: (rng.random((20, 24)) + 5.0 * (rng.random((20, 24)) > 0.95),))
def median_filter_windows(img):
    padded = np.pad(img, 2, mode="reflect")
    win = np.lib.stride_tricks.sliding_window_view(padded, (5, 5))
    med = np.median(win, axis=(-2, -1))
    outliers = np.abs(img - med) > 3 * np.std(img - med)
    return med, np.where(outliers, med, img), outliers.sum()


@program("image", lambda rng: (np.clip(np.concatenate([rng.normal(60, 15, 200), rng.normal(170, 20, 200)]), 0, 255)
                               .astype(np.uint8).reshape(20, 20),))
def otsu_threshold(img):
    hist, _ = np.histogram(img, bins=256, range=(0, 256))
    p = hist / hist.sum()
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    mu_t = mu[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma_b = (mu_t * omega - mu) ** 2 / (omega * (1 - omega))
    sigma_b = np.nan_to_num(sigma_b)
    t = np.argmax(sigma_b)
    return t, (img > t).astype(np.uint8), sigma_b[t]


@program("image", lambda rng: (np.kron(rng.random((4, 4)) > 0.5, np.ones((6, 6))) + 0.05 * rng.random((24, 24)),),
         rtol=1e-9, atol=1e-10)
def harris_corners(img):
    gy, gx = np.gradient(img)
    ixx, iyy, ixy = gx * gx, gy * gy, gx * gy

    def box3(a):
        p = np.pad(a, 1, mode="edge")
        return sum(p[i:i + a.shape[0], j:j + a.shape[1]] for i in range(3) for j in range(3)) / 9.0

    sxx, syy, sxy = box3(ixx), box3(iyy), box3(ixy)
    resp = sxx * syy - sxy ** 2 - 0.05 * (sxx + syy) ** 2
    flat = np.argsort(resp, axis=None)[::-1][:5]
    return resp, np.column_stack(np.unravel_index(flat, resp.shape))


# --------------------------------------------------------------------------------------------------- signal


@program("signal", lambda rng: (np.sin(2 * np.pi * 0.1 * np.arange(256) * (1 + np.arange(256) / 512))
                                + 0.1 * rng.standard_normal(256),), rtol=1e-8, atol=1e-10)
def spectrogram_stft(x):
    nfft, hop = 32, 16
    win = np.hamming(nfft)
    frames = np.lib.stride_tricks.sliding_window_view(x, nfft)[::hop]
    spec = np.fft.rfft(frames * win, axis=1)
    power = np.abs(spec) ** 2 / (win ** 2).sum()
    freqs = np.fft.rfftfreq(nfft)
    return 10 * np.log10(power + 1e-12), freqs[np.argmax(power, axis=1)]


@program("signal", lambda rng: (np.sin(0.05 * np.arange(200)) + 0.5 * np.sin(2.5 * np.arange(200))
                                + 0.1 * rng.standard_normal(200),), rtol=1e-9, atol=1e-11)
def fir_windowed_sinc(x):
    ntaps, cutoff = 31, 0.1
    n = np.arange(ntaps) - (ntaps - 1) / 2
    h = 2 * cutoff * np.sinc(2 * cutoff * n) * np.blackman(ntaps)
    h /= h.sum()
    y = np.convolve(x, h, mode="same")
    response = np.abs(np.fft.rfft(h, 256))
    return y, np.convolve(x, h, mode="valid"), response


def _chirp_inputs(rng):
    t = np.arange(40)
    pulse = np.sin(0.02 * t * t) * np.hanning(40)
    x = 0.3 * rng.standard_normal(300)
    x[117:157] += pulse
    return x, pulse


@program("signal", _chirp_inputs, rtol=1e-9, atol=1e-11)
def matched_filter_correlate(x, pulse):
    c = np.correlate(x, pulse, mode="valid")
    full = np.correlate(x, pulse, mode="full")
    lag = np.argmax(np.abs(c))
    energy = np.convolve(x ** 2, np.ones(pulse.size), mode="valid")
    ncc = c / np.sqrt(energy * (pulse ** 2).sum())
    return lag, ncc.max(), full.size, c


@program("signal", lambda rng: ((1 + 0.5 * np.cos(0.03 * np.arange(128))) * np.cos(0.6 * np.arange(128))
                                + 0.01 * rng.standard_normal(128),), rtol=1e-8, atol=1e-10)
def hilbert_envelope(x):
    n = x.size
    xf = np.fft.fft(x)
    h = np.zeros(n)
    h[0] = h[n // 2] = 1.0
    h[1:n // 2] = 2.0
    analytic = np.fft.ifft(xf * h)
    env = np.abs(analytic)
    phase = np.unwrap(np.angle(analytic))
    inst_freq = np.diff(phase) / (2 * np.pi)
    return env, inst_freq, analytic.dtype == np.complex128


# ----------------------------------------------------------------------------------------------- statistics


@program("statistics", lambda rng: (rng.standard_normal(50), rng.random(50)), rtol=1e-10)
def weighted_quantiles(x, w):
    order = np.argsort(x)
    xs, ws = x[order], w[order]
    cw = np.cumsum(ws) - 0.5 * ws
    cw /= ws.sum()
    q = np.array([0.1, 0.25, 0.5, 0.75, 0.9])
    wmedian = xs[np.searchsorted(np.cumsum(ws), 0.5 * ws.sum())]
    return np.interp(q, cw, xs), wmedian, np.quantile(x, q)


@program("statistics", lambda rng: (rng.standard_normal((40, 3)) @ np.array([[1, 0.5, 0], [0, 1, 0.3], [0, 0, 1.0]]),),
         rtol=1e-10)
def spearman_ranks(x):
    ranks = np.argsort(np.argsort(x, axis=0), axis=0).astype(float) + 1
    rho = np.corrcoef(ranks, rowvar=False)
    n = x.shape[0]
    d2 = ((ranks[:, 0] - ranks[:, 1]) ** 2).sum()
    return rho, 1 - 6 * d2 / (n * (n * n - 1)), ranks.dtype


@program("statistics", lambda rng: (np.concatenate([rng.normal(-2, 0.5, 30), rng.normal(1, 1, 50)]),), rtol=1e-10)
def kde_gaussian(samples):
    n = samples.size
    bw = 1.06 * samples.std(ddof=1) * n ** (-1 / 5)
    grid = np.linspace(samples.min() - 3 * bw, samples.max() + 3 * bw, 60)
    u = (grid[:, None] - samples[None, :]) / bw
    dens = np.exp(-0.5 * u * u).sum(axis=1) / (n * bw * np.sqrt(2 * np.pi))
    area = np.trapezoid(dens, grid)
    return grid, dens, area, grid[np.argmax(dens)]


def _ols_inputs(rng):
    x = rng.standard_normal((60, 3))
    return x, x @ np.array([1.5, -2.0, 0.0]) + 0.7 + 0.5 * rng.standard_normal(60)


@program("statistics", _ols_inputs, rtol=1e-8, atol=1e-10)
def ols_inference(x, y):
    """Not one graph, by nature: ``lstsq`` also returns the residuals, an array of one element or none as the rank
    found decides (NumPy's rule), so that call runs in NumPy."""
    n = x.shape[0]
    xd = np.column_stack([np.ones(n), x])
    beta = np.linalg.pinv(xd) @ y
    resid = y - xd @ beta
    dof = n - xd.shape[1]
    sigma2 = resid @ resid / dof
    cov = sigma2 * np.linalg.inv(xd.T @ xd)
    se = np.sqrt(np.diag(cov))
    r2 = 1 - resid @ resid / ((y - y.mean()) ** 2).sum()
    lstsq_beta = np.linalg.lstsq(xd, y, rcond=None)[0]
    return beta, se, beta / se, r2, lstsq_beta


@program("statistics", lambda rng: (rng.normal(0.0, 1.0, 20), rng.normal(0.6, 1.0, 25), 200))
def permutation_test_seeded(a, b, nperm):
    """Not one graph: the generator seeded here is carried into the outlined loop's body, where it is an input,
    so its draws run in NumPy (as ``softmax_sgd_minibatch``'s); within one graph its stream would be folded."""
    rng = np.random.default_rng(2024)
    pooled = np.concatenate([a, b])
    observed = b.mean() - a.mean()
    count = 0
    for _ in range(nperm):
        p = rng.permutation(pooled)
        count += abs(p[a.size:].mean() - p[:a.size].mean()) >= abs(observed)
    return observed, (count + 1) / (nperm + 1)


# ------------------------------------------------------------------------------------------------- geometry


def _polygon(rng):
    ang = np.sort(rng.uniform(0, 2 * np.pi, 12))
    rad = 1.0 + 0.4 * rng.random(12)
    return np.column_stack([rad * np.cos(ang), rad * np.sin(ang)]), rng.uniform(-1.5, 1.5, (30, 2))


@program("geometry", _polygon, rtol=1e-10)
def shoelace_area_centroid(poly, _points):
    x, y = poly[:, 0], poly[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cross = x * yn - xn * y
    area = 0.5 * cross.sum()
    cx = ((x + xn) * cross).sum() / (6 * area)
    cy = ((y + yn) * cross).sum() / (6 * area)
    perim = np.hypot(xn - x, yn - y).sum()
    return area, np.array([cx, cy]), perim


@program("geometry", _polygon)
def point_in_polygon(poly, points):
    x0, y0 = poly[:, 0], poly[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    px, py = points[:, 0:1], points[:, 1:2]
    straddle = (y0 > py) != (y1 > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xcross = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
    hits = straddle & (px < xcross)
    inside = np.count_nonzero(hits, axis=1) % 2 == 1
    return inside, np.flatnonzero(inside)


@program("geometry", lambda rng: (rng.uniform(-np.pi, np.pi, (10, 3)), rng.standard_normal((10, 5, 3))), rtol=1e-10)
def batched_rotations_einsum(euler, pts):
    """Not one graph, by nature: ``np.allclose`` gives a Python bool, a value of the data the graph cannot return
    (the call runs in NumPy)."""
    a, b, c = euler[:, 0], euler[:, 1], euler[:, 2]
    zeros, ones = np.zeros_like(a), np.ones_like(a)
    rz = np.stack([np.stack([np.cos(a), -np.sin(a), zeros], -1),
                   np.stack([np.sin(a), np.cos(a), zeros], -1),
                   np.stack([zeros, zeros, ones], -1)], -2)
    ry = np.stack([np.stack([np.cos(b), zeros, np.sin(b)], -1),
                   np.stack([zeros, ones, zeros], -1),
                   np.stack([-np.sin(b), zeros, np.cos(b)], -1)], -2)
    rx = np.stack([np.stack([ones, zeros, zeros], -1),
                   np.stack([zeros, np.cos(c), -np.sin(c)], -1),
                   np.stack([zeros, np.sin(c), np.cos(c)], -1)], -2)
    r = np.einsum("nij,njk,nkl->nil", rz, ry, rx)
    rotated = np.einsum("nij,npj->npi", r, pts)
    ortho = np.abs(np.einsum("nji,njk->nik", r, r) - np.eye(3)).max()
    return rotated, np.linalg.det(r), ortho, np.allclose(np.linalg.norm(rotated, axis=-1), np.linalg.norm(pts, axis=-1))


# -------------------------------------------------------------------------------------------------- finance


@program("finance", lambda rng: (100.0, 95.0 + 10 * rng.random(), 0.05, 0.2, 1.0, 40), rtol=1e-10)
def binomial_crr_american(s0, k, r, sigma, t, n):
    dt = t / n
    u = np.exp(sigma * np.sqrt(dt))
    d = 1 / u
    p = (np.exp(r * dt) - d) / (u - d)
    disc = np.exp(-r * dt)
    j = np.arange(n + 1)
    s = s0 * u ** (n - j) * d ** j
    euro = np.maximum(k - s, 0.0)
    amer = euro.copy()
    for i in range(n - 1, -1, -1):
        s = s[:i + 1] / u
        euro = disc * (p * euro[:i + 1] + (1 - p) * euro[1:i + 2])
        amer = np.maximum(disc * (p * amer[:i + 1] + (1 - p) * amer[1:i + 2]), k - s)
    return euro[0], amer[0], amer[0] >= euro[0]


@program("finance", lambda rng: (0.01 * rng.standard_t(4, 250),), rtol=1e-10)
def ewma_var_cvar(returns):
    lam = 0.94
    var_t = np.empty_like(returns)
    var_t[0] = returns[:20].var()
    for t in range(1, returns.size):
        var_t[t] = lam * var_t[t - 1] + (1 - lam) * returns[t - 1] ** 2
    vol = np.sqrt(var_t)
    hist_var = -np.percentile(returns, 5)
    tail = returns[returns <= -hist_var]
    exceed = returns < -1.645 * vol
    return vol, hist_var, -tail.mean(), exceed.mean()


# ------------------------------------------------------------------------------------------------------- ml


def _gmm_inputs(rng):
    x = np.concatenate([rng.normal(-2.0, 0.6, (40, 2)), rng.normal(2.0, 0.8, (40, 2))])
    return x, np.array([[-1.0, 0.0], [1.0, 0.0]]), 10


def _logsumexp(a, axis):
    m = a.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(a - m).sum(axis=axis, keepdims=True))).squeeze(axis)


@program("ml", _gmm_inputs, rtol=1e-8, atol=1e-10)
def gmm_em_diagonal(x, means, iters):
    n, d = x.shape
    k = means.shape[0]
    mu = means.copy()
    var = np.ones((k, d))
    pi = np.full(k, 1.0 / k)
    for _ in range(iters):
        logp = (-0.5 * (((x[:, None, :] - mu) ** 2) / var + np.log(2 * np.pi * var)).sum(-1) + np.log(pi))
        ll = _logsumexp(logp, 1)
        resp = np.exp(logp - ll[:, None])
        nk = resp.sum(axis=0)
        mu = resp.T @ x / nk[:, None]
        var = (resp.T @ x ** 2) / nk[:, None] - mu ** 2 + 1e-6
        pi = nk / n
    return mu, var, pi, ll.sum()


@program("ml", lambda rng: (np.sort(rng.uniform(0, 5, 15)), np.linspace(0, 5, 25)), rtol=1e-7, atol=1e-9)
def gp_regression(xtr, xte):
    ytr = np.sin(xtr)

    def rbf(a, b, ell=0.8):
        return np.exp(-0.5 * np.subtract.outer(a, b) ** 2 / ell ** 2)

    k = rbf(xtr, xtr) + 1e-4 * np.eye(xtr.size)
    l = np.linalg.cholesky(k)
    alpha = np.linalg.solve(l.T, np.linalg.solve(l, ytr))
    ks = rbf(xte, xtr)
    mean = ks @ alpha
    v = np.linalg.solve(l, ks.T)
    var = 1.0 - (v * v).sum(axis=0)
    lml = -0.5 * ytr @ alpha - np.log(np.diag(l)).sum() - 0.5 * xtr.size * np.log(2 * np.pi)
    return mean, var, lml


@program("ml", lambda rng: (rng.standard_normal((8, 6)) * 2,), rtol=1e-12)
def simplex_projection(v):
    """Euclidean projection of each row onto the probability simplex (sort, cumsum, last positive index)."""
    u = np.sort(v, axis=1)[:, ::-1]
    css = np.cumsum(u, axis=1) - 1
    ind = np.arange(1, v.shape[1] + 1)
    cond = u - css / ind > 0
    rho = v.shape[1] - 1 - np.argmax(cond[:, ::-1], axis=1)
    theta = css[np.arange(v.shape[0]), rho] / (rho + 1)
    w = np.maximum(v - theta[:, None], 0)
    return w, w.sum(axis=1)


def _hmm_inputs(rng):
    trans = np.array([[0.9, 0.1], [0.2, 0.8]])
    emit = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]])
    return rng.integers(0, 3, 25), np.log(trans), np.log(emit), np.log(np.array([0.5, 0.5]))


@program("ml", _hmm_inputs, rtol=1e-10)
def hmm_viterbi_forward(obs, log_a, log_b, log_pi):
    t_len, k = obs.size, log_a.shape[0]
    delta = np.empty((t_len, k))
    back = np.zeros((t_len, k), dtype=np.int64)
    alpha = log_pi + log_b[:, obs[0]]
    delta[0] = alpha
    for t in range(1, t_len):
        scores = delta[t - 1][:, None] + log_a
        back[t] = scores.argmax(axis=0)
        delta[t] = scores.max(axis=0) + log_b[:, obs[t]]
        alpha = _logsumexp(alpha[:, None] + log_a, 0) + log_b[:, obs[t]]
    path = np.empty(t_len, dtype=np.int64)
    path[-1] = delta[-1].argmax()
    for t in range(t_len - 2, -1, -1):
        path[t] = back[t + 1, path[t + 1]]
    return path, delta[-1].max(), _logsumexp(alpha, 0)


# --------------------------------------------------------------------------------------------- automata


@program("automata", lambda rng: ((rng.random(48) > 0.5).astype(np.uint8), 110, 20))
def elementary_ca(row, rule, steps):
    table = np.array([(rule >> i) & 1 for i in range(8)], dtype=np.uint8)
    hist = np.zeros((steps + 1, row.size), dtype=np.uint8)
    hist[0] = row
    for s in range(steps):
        left, right = np.roll(row, 1), np.roll(row, -1)
        row = table[(left << 2) | (row << 1) | right]
        hist[s + 1] = row
    return hist, hist.sum(axis=1)


# ------------------------------------------------------------------------------------------ data cleaning


def _dirty(rng):
    x = rng.standard_normal((30, 4)) * np.array([1.0, 10.0, 0.1, 5.0]) + np.array([0.0, 50.0, 1.0, -3.0])
    x[rng.random(x.shape) < 0.1] = np.nan
    x[rng.integers(0, 30, 3), rng.integers(0, 4, 3)] = 1e3
    return x, rng.integers(0, 5, 30)


@program("cleaning", _dirty, rtol=1e-10)
def impute_winsorize_counts(x, cat):
    col_mean = np.nanmean(x, axis=0)
    filled = np.where(np.isnan(x), col_mean, x)
    lo, hi = np.percentile(filled, [5, 95], axis=0)
    clipped = np.clip(filled, lo, hi)
    z = (clipped - clipped.mean(axis=0)) / clipped.std(axis=0)
    values, counts = np.unique(cat, return_counts=True)
    mode = values[np.argmax(counts)]
    missing_per_col = np.isnan(x).sum(axis=0)
    return z, mode, missing_per_col, np.nanmedian(x, axis=0), np.isnan(x).any(axis=1).mean()
