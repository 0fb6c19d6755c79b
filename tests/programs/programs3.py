"""A third batch of ordinary NumPy programs (issue 4), in styles ``programs.py`` and ``programs2.py`` do not cover:
numerical methods written as textbooks write them (Newton on systems with a finite-difference Jacobian, RK4 over a
list of stages, Simpson with Richardson extrapolation, Chebyshev/Legendre fits, natural cubic splines), data
handling (multi-key sorts, binning with ``searchsorted`` and ``ufunc.at``, unique rows, ragged splits, ``np.pad``
modes, NaN-aware and method-specific quantiles, many-operand ``einsum``), integer and bit work (saturating uint8,
bit packing and popcounts, uint64 hashing, int32 wraparound, mixed-dtype shifts), float32/float16/complex
pipelines, and control flow (early ``return`` from nested loops, iteration over the rows of an array, recursion
on halves, ``try``/``except LinAlgError``, generators).

They register into the same ``PROGRAMS`` table (same runner, same rules: small sizes, drawn inputs, ``slow`` for
tests over ~10 s, ``known_bug`` for an unfixed wrong answer).
"""

from __future__ import annotations

import numpy as np

from .programs import program

# -------------------------------------------------------------------------------------- numerical methods


def _residual(x, a, b):
    return a @ x + 0.1 * x ** 3 - b


@program("solver", lambda rng: (np.eye(5) * 4 + 0.3 * rng.standard_normal((5, 5)), rng.standard_normal(5)),
         rtol=1e-7, atol=1e-9)
def newton_fd_jacobian(a, b):
    x = np.zeros_like(b)
    h = 1e-7
    for it in range(20):
        f = _residual(x, a, b)
        if np.linalg.norm(f) < 1e-10:
            break
        jac = np.empty((b.size, b.size))
        for j in range(b.size):
            e = np.zeros_like(x)
            e[j] = h
            jac[:, j] = (_residual(x + e, a, b) - f) / h
        x = x - np.linalg.solve(jac, f)
    return x, it


_RK4_TABLEAU = ([], [0.5], [0.0, 0.5], [0.0, 0.0, 1.0])
_RK4_WEIGHTS = (1 / 6, 1 / 3, 1 / 3, 1 / 6)


def _pendulums(y):
    n = y.size // 2
    th, om = y[:n], y[n:]
    return np.concatenate([om, -np.sin(th) - 0.1 * om])


@program("ode", lambda rng: (rng.uniform(-1, 1, 8), 0.05, 6), rtol=1e-10)
def rk4_stage_list(y0, dt, steps):
    y = y0.copy()
    traj = [y]
    for _ in range(steps):
        ks = []
        for coeffs in _RK4_TABLEAU:
            yi = y + dt * sum((c * k for c, k in zip(coeffs, ks)), np.zeros_like(y))
            ks.append(_pendulums(yi))
        y = y + dt * sum(w * k for w, k in zip(_RK4_WEIGHTS, ks))
        traj.append(y)
    return np.stack(traj)


def _simpson(f, a, b, n):
    x = np.linspace(a, b, n + 1)
    y = f(x)
    return (b - a) / (3 * n) * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])


@program("numeric", lambda rng: (rng.uniform(0.5, 2.0, 3),), rtol=1e-9)
def simpson_richardson(freqs):
    out = []
    for w in freqs:
        def f(x):
            return np.exp(-x) * np.cos(w * x)
        s1, s2 = _simpson(f, 0.0, 3.0, 8), _simpson(f, 0.0, 3.0, 16)
        out.append((16 * s2 - s1) / 15)
    return np.array(out), float(out[-1])


@program("numeric", lambda rng: (np.sort(rng.uniform(-1, 1, 30)), rng.standard_normal(30)), rtol=1e-7, atol=1e-9)
def chebyshev_legendre_fit(x, y):
    c = np.polynomial.chebyshev.chebfit(x, y, 4)
    l = np.polynomial.legendre.legfit(x, y, 4)
    grid = np.linspace(-1, 1, 9)
    dc = np.polynomial.chebyshev.chebder(c)
    return (np.polynomial.chebyshev.chebval(grid, c), np.polynomial.legendre.legval(grid, l),
            np.polynomial.chebyshev.chebval(grid, dc), np.polynomial.chebyshev.cheb2poly(c))


@program("numeric", lambda rng: (np.cumsum(rng.uniform(0.2, 1.0, 8)), rng.standard_normal(8)), rtol=1e-9)
def natural_cubic_spline(x, y):
    n = x.size
    h = np.diff(x)
    rhs = 3 * (np.diff(y[1:]) / h[1:] - np.diff(y[:-1]) / h[:-1])
    diag = 2 * (h[:-1] + h[1:])
    # Thomas algorithm on the interior second-derivative system
    c = np.zeros(n)
    cp = np.zeros(n - 2)
    dp = np.zeros(n - 2)
    cp[0] = h[1] / diag[0]
    dp[0] = rhs[0] / diag[0]
    for i in range(1, n - 2):
        m = diag[i] - h[i] * cp[i - 1]
        cp[i] = h[i + 1] / m
        dp[i] = (rhs[i] - h[i] * dp[i - 1]) / m
    c[n - 2] = dp[-1]
    for i in range(n - 4, -1, -1):
        c[i + 1] = dp[i] - cp[i] * c[i + 2]
    b = np.diff(y) / h - h * (2 * c[:-1] + c[1:]) / 3
    d = np.diff(c) / (3 * h)
    t = np.linspace(x[0], x[-1], 20)
    k = np.clip(np.searchsorted(x, t, side="right") - 1, 0, n - 2)
    dx = t - x[k]
    return y[k] + b[k] * dx + c[k] * dx ** 2 + d[k] * dx ** 3


# ------------------------------------------------------------------------------------------ data handling


def _records(rng, n=30):
    return rng.integers(0, 3, n), rng.integers(0, 4, n), rng.standard_normal(n)


@program("data", _records)
def lexsort_multikey(dept, grade, pay):
    order = np.lexsort((-pay, grade, dept))  # by dept, then grade, then pay descending
    first = np.ones(order.size, dtype=bool)
    d, g = dept[order], grade[order]
    first[1:] = (d[1:] != d[:-1]) | (g[1:] != g[:-1])
    stable = np.argsort(dept, kind="stable")
    return order, pay[order][first], np.flatnonzero(first), stable


@program("data", lambda rng: (rng.uniform(0, 10, 50), rng.standard_normal(50)), rtol=1e-12)
def searchsorted_scatter_bins(t, v):
    edges = np.linspace(0, 10, 6)
    idx = np.searchsorted(edges, t, side="right") - 1
    idx = np.minimum(idx, edges.size - 2)
    sums = np.zeros(edges.size - 1)
    np.add.at(sums, idx, v)
    lows = np.full(edges.size - 1, np.inf)
    np.minimum.at(lows, idx, v)
    grid = np.zeros((edges.size - 1, 2), dtype=np.int64)
    np.add.at(grid, (idx, (v > 0).astype(np.intp)), 1)
    return sums, lows, grid, np.digitize(t, edges)


@program("data", lambda rng: (rng.integers(0, 3, (20, 3)),))
def unique_rows_axis0(rows):
    uniq, first, inv, counts = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    weights = counts[inv.ravel()] / rows.shape[0]
    return uniq, first, inv, counts, weights


@program("data", lambda rng: (rng.standard_normal(23),), rtol=1e-12)
def array_split_reassemble(x):
    chunks = np.array_split(x, 5)
    centred = [c - c.mean() for c in chunks]
    sizes = np.array([c.size for c in chunks])
    back = np.concatenate(centred)
    halves = np.split(x[:22], [3, 10, 15])
    return back, sizes, np.array([h.max() for h in halves]), np.hstack(halves[::-1])


@program("data", lambda rng: (rng.standard_normal((4, 5)),))
def pad_modes(a):
    return (np.pad(a, 2, mode="constant", constant_values=-1.0),
            np.pad(a, ((1, 2), (0, 3)), mode="edge"),
            np.pad(a, 2, mode="reflect"),
            np.pad(a, ((2, 1), (3, 3)), mode="symmetric"),
            np.pad(a, 3, mode="wrap"),
            np.pad(a, (1, 2), mode="linear_ramp", end_values=(5.0, -5.0)),
            np.pad(a, 2, mode="maximum"))


def _with_nans(rng):
    x = rng.standard_normal((6, 9))
    x[rng.random((6, 9)) < 0.2] = np.nan
    x[2] = np.nan
    return (x,)


@program("statistics", _with_nans, rtol=1e-10)
def nan_masked_stats(x):
    valid = ~np.isnan(x)
    n = valid.sum(axis=1)
    mean = np.where(n > 0, np.where(valid, x, 0.0).sum(axis=1) / np.maximum(n, 1), np.nan)
    filled = np.where(valid, x, np.nanmean(x, axis=0))
    return (mean, np.nanmean(x[[0, 1, 3, 4, 5]], axis=1), np.nanstd(x, axis=0, ddof=1),
            np.nanpercentile(x, [10, 50, 90], axis=0), np.nanmedian(x[:, :4]), filled, np.nanmax(x[3:]),
            np.nansum(x, axis=0), n)


@program("statistics", lambda rng: (rng.standard_normal((7, 11)),), rtol=1e-12)
def percentile_methods(x):
    out = {}
    for m in ("linear", "lower", "higher", "nearest", "midpoint", "median_unbiased", "weibull"):
        out[m] = np.percentile(x, [5, 25, 50, 95], axis=1, method=m)
    out["q"] = np.quantile(x, 0.3, axis=0, keepdims=True)
    out["all"] = np.quantile(x.ravel(), np.array([0.0, 0.5, 1.0]))
    return out


@program("linalg", lambda rng: tuple(rng.standard_normal(s) for s in ((4, 5), (5, 6), (6, 3), (3,), (4, 4))),
         rtol=1e-10)
def einsum_many_operands(a, b, c, d, e):
    chain = np.einsum("ij,jk,kl,l->i", a, b, c, d)
    opt = np.einsum("ij,jk,kl,l->i", a, b, c, d, optimize=True)
    bil = np.einsum("i,ij,j->", chain, e, chain)
    outer = np.einsum("ij,kl->ijkl", e[:2, :2], e[2:, 2:])
    tr = np.einsum("ii", e)
    return chain, opt, bil, outer, tr, np.einsum("ij,ij->i", a, a)


# ----------------------------------------------------------------------------------------- integers, bits


@program("image", lambda rng: (rng.integers(0, 256, (10, 12), dtype=np.uint8), 40))
def uint8_threshold_saturate(img, gain):
    bright = np.clip(img.astype(np.int16) + gain, 0, 255).astype(np.uint8)
    dark = np.clip(img.astype(np.int16) - gain, 0, 255).astype(np.uint8)
    wrapped = img + np.uint8(gain)  # uint8 wraps around, as NumPy's does
    t = img.mean()
    mask = img > t
    binary = np.where(mask, np.uint8(255), np.uint8(0))
    inv = ~img
    return bright, dark, wrapped, binary, inv, img // 3 * 3, (img >> 4) << 4, t


@program("bits", lambda rng: (rng.random((6, 13)) < 0.4,))
def packbits_popcount(bits):
    packed = np.packbits(bits, axis=1)
    little = np.packbits(bits, axis=1, bitorder="little")
    back = np.unpackbits(packed, axis=1, count=bits.shape[1]).astype(bool)
    pop = np.bitwise_count(packed).sum(axis=1)
    words = np.bitwise_count(np.arange(20, dtype=np.int64) * 12345)
    return packed, little, back, pop, pop == bits.sum(axis=1), words


@program("bits", lambda rng: (rng.integers(0, 2**63, 16, dtype=np.uint64),))
def hash_uint64_wrap(keys):
    h = np.full(keys.shape, 0xCBF29CE484222325, dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    for shift in range(0, 64, 8):
        h ^= (keys >> np.uint64(shift)) & np.uint64(0xFF)
        h *= prime
    z = keys + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return h, z, h % np.uint64(7), (z & np.uint64(1)).astype(bool)


@program("bits", lambda rng: (rng.integers(-2**31, 2**31, 12, dtype=np.int32),
                              rng.integers(0, 8, 12, dtype=np.uint8)))
def int32_wraparound_shifts(a, s):
    big = a * np.int32(3) + np.int32(2**30)  # wraps as int32
    acc = np.zeros(1, dtype=np.int32)
    for v in a[:4]:
        acc += v
    left = a << s  # int32 with uint8 -> int32
    right = a >> s
    u = s.astype(np.uint16) << np.uint16(12)
    mixed = np.left_shift(s, np.int64(3))  # uint8 with int64 scalar -> int64? (NEP 50: uint8 kept)
    return (big, acc, left, right, u, mixed, np.right_shift(a, 31), a.sum(dtype=np.int32), a.astype(np.int64).sum(),
            np.abs(a), -a, a // np.int32(7), a % np.int32(-5))


# -------------------------------------------------------------------------------- float32, float16, complex


@program("float32", lambda rng: (rng.standard_normal((16, 8)).astype(np.float32),
                                 rng.standard_normal(8).astype(np.float32)), rtol=2e-5, atol=1e-6)
def float32_end_to_end(x, w):
    mu = x.mean(axis=0)
    sd = x.std(axis=0) + np.float32(1e-6)
    z = (x - mu) / sd
    logits = z @ w
    p = 1 / (1 + np.exp(-logits))
    loss = -np.mean(np.log(p + 1e-7))
    total = p.sum()
    scale = np.float32(0.5) * total
    return z, p, loss, total, scale, np.linalg.norm(w), p.max(), np.sqrt(total), float(loss)


@program("complex", lambda rng: (rng.standard_normal(16) + 1j * rng.standard_normal(16),), rtol=1e-9, atol=1e-9)
def dft_matrix_phasors(z):
    n = z.size
    k = np.arange(n)
    w = np.exp(-2j * np.pi * np.outer(k, k) / n)
    spec = w @ z
    back = (w.conj().T @ spec) / n
    ph = np.angle(spec)
    un = np.unwrap(np.angle(np.exp(1j * 0.9 * k)))
    mag_db = 20 * np.log10(np.abs(spec) + 1e-12)
    return spec, back, ph, un, mag_db, np.angle(z, deg=True), np.real_if_close(back * np.conj(back)), spec.real.dtype


@program("float16", lambda rng: ((rng.standard_normal((8, 6)) * 4).astype(np.float16),), rtol=1e-3, atol=1e-3)
def float16_storage(a):
    f = a.astype(np.float32)
    g = np.tanh(f) * np.float32(2) + f.mean(axis=0)
    out = g.astype(np.float16)
    half = a * a + a  # float16 arithmetic stays float16
    return out, half, a.sum(), a.astype(np.float32).sum(), np.float16(1.5) * a[0], a.max(axis=1)


# ---------------------------------------------------------------------------------------- control flow


@program("control", lambda rng: (rng.standard_normal((6, 2)), 0.8))
def early_return_nested(points, radius):
    n = points.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            d = np.sqrt(((points[i] - points[j]) ** 2).sum())
            if d < radius:
                return i, j, d
    return -1, -1, np.inf


@program("control", lambda rng: (rng.standard_normal((5, 4)), rng.standard_normal(5)), rtol=1e-12)
def rows_enumerate_zip(x, y):
    out = []
    norms = np.zeros(x.shape[0])
    for i, row in enumerate(x):
        norms[i] = np.sqrt(row @ row)
    for row, t in zip(x, y):
        out.append(row * t - row.mean())
    best = max(range(len(x)), key=lambda i: norms[i])
    return np.stack(out), np.vstack(out[::2]), norms, best


def _max_subarray(x):
    if x.size == 1:
        return x[0], x[0], x[0], x[0]  # best, best prefix, best suffix, total
    mid = x.size // 2
    lb, lp, ls, lt = _max_subarray(x[:mid])
    rb, rp, rs, rt = _max_subarray(x[mid:])
    return max(lb, rb, ls + rp), max(lp, lt + rp), max(rs, rt + ls), lt + rt


@program("control", lambda rng: (rng.standard_normal(8),), rtol=1e-12)
def recursive_max_subarray(x):
    best, prefix, suffix, total = _max_subarray(x)
    return best, prefix, suffix, total


@program("control", lambda rng: (rng.standard_normal((4, 4)),), rtol=1e-9)
def cholesky_jitter_retry(a):
    s = a + a.T
    jitter = 0.0
    for _ in range(8):
        try:
            l = np.linalg.cholesky(s + jitter * np.eye(4))
            break
        except np.linalg.LinAlgError:
            jitter = max(2 * jitter, 1e-3) if jitter else 1.0
    return l, jitter


def _windows(x, w):
    for i in range(0, x.size - w + 1, w // 2):
        yield x[i:i + w]


@program("control", lambda rng: (rng.standard_normal(20),), rtol=1e-12)
def generator_windows(x):
    energies = [float((seg ** 2).sum()) for seg in _windows(x, 8)]
    tapered = np.stack(list(seg * np.hanning(8) for seg in _windows(x, 8)))
    peak = max(np.abs(seg).max() for seg in _windows(x, 4))
    return energies, tapered, peak


@program("control", lambda rng: (rng.standard_normal(12), 1e-3), rtol=1e-9)
def while_break_numpy_bool(x, tol):
    # gradient descent on a smooth penalty until the step is small
    y = x.copy()
    steps = 0
    while True:
        g = y - x + 0.5 * np.tanh(y)
        y = y - 0.5 * g
        steps += 1
        done = np.abs(g).max() < tol
        if done:
            break
    return y, steps


@program("data", lambda rng: ({"a": rng.standard_normal(6), "b": rng.standard_normal(6), "c": rng.random(6)},),
         rtol=1e-12)
def dict_of_arrays_loop(cols):
    stats = {}
    for name, col in cols.items():
        stats[name] = {"mean": col.mean(), "span": np.ptp(col), "rank": np.argsort(np.argsort(col))}
    total = sum(c for c in cols.values())
    zs = {k: (v - v.mean()) / v.std() for k, v in sorted(cols.items())}
    return stats, total, zs


# ------------------------------------------------------------------------------------------------ more styles


@program("geometry", lambda rng: (rng.standard_normal((10, 3, 3)),), rtol=1e-10)
def triangle_normals_volumes(tris):
    e1 = tris[:, 1] - tris[:, 0]
    e2 = tris[:, 2] - tris[:, 0]
    n = np.cross(e1, e2)
    area = 0.5 * np.linalg.norm(n, axis=1)
    unit = n / np.linalg.norm(n, axis=-1, keepdims=True)
    vol = np.linalg.det(tris) / 6.0  # signed tetrahedron volumes with the origin
    angle = np.degrees(np.arccos(np.clip(np.einsum("ij,ij->i", e1, e2) / (np.linalg.norm(e1, axis=1)
                                                                            * np.linalg.norm(e2, axis=1)), -1, 1)))
    return area, unit, vol, angle, np.cross(e1.T, e2.T, axisa=0, axisb=0)


@program("data", lambda rng: (rng.uniform(0, 600, 25), rng.integers(0, 3, 25)), rtol=1e-12)
def tariff_select_piecewise(kwh, plan):
    rate = np.select([kwh < 100, kwh < 300, kwh >= 300], [0.10, 0.15, 0.22], default=np.nan)
    tiered = np.piecewise(kwh, [kwh < 100, (kwh >= 100) & (kwh < 300), kwh >= 300],
                          [lambda k: 0.1 * k, lambda k: 10 + 0.15 * (k - 100), lambda k: 40 + 0.22 * (k - 300)])
    fee = np.choose(plan, [5.0, 7.5, 12.0])
    return rate * kwh + fee, tiered, np.where(plan == 2, tiered * 0.9, tiered)


@program("data", lambda rng: (rng.integers(0, 30, 20), rng.integers(10, 40, 15)))
def set_operations(a, b):
    common, ia, ib = np.intersect1d(a, b, return_indices=True)
    only_a = np.setdiff1d(a, b)
    either = np.union1d(a, b)
    sym = np.setxor1d(a, b)
    mask = np.isin(a, b)
    return common, ia, ib, only_a, either, sym, mask, np.isin(b, a, invert=True).sum(), np.unique(a, return_counts=True)


@program("stencil", lambda rng: (rng.uniform(0.5, 1.5), 9, 7), rtol=1e-12)
def gradient_meshgrid(k, nx, ny):
    x = np.linspace(-1, 1, nx)
    y = np.linspace(0, 2, ny)
    xx, yy = np.meshgrid(x, y, indexing="ij")
    f = np.sin(k * xx) * np.exp(-yy)
    gx, gy = np.gradient(f, x, y)
    g2 = np.gradient(f, axis=1, edge_order=2)
    lap = np.gradient(gx, x, axis=0) + np.gradient(gy, y, axis=1)
    return gx, gy, g2, lap, np.hypot(gx, gy).max()


@program("data", lambda rng: (rng.standard_normal((6, 10)), 3))
def partition_topk_take_along(x, k):
    idx = np.argpartition(-x, k, axis=1)[:, :k]
    vals = np.take_along_axis(x, idx, axis=1)
    order = np.argsort(-vals, axis=1)
    top_idx = np.take_along_axis(idx, order, axis=1)
    out = np.zeros_like(x)
    np.put_along_axis(out, top_idx, 1.0, axis=1)
    kth = np.partition(x, k, axis=1)[:, k]
    return top_idx, np.take_along_axis(x, top_idx, axis=1), out, kth, np.triu(x[:, :6]), x[np.tril_indices(6, -1)]


@program("bits", lambda rng: (rng.standard_normal(12) * 10.0 ** rng.integers(-5, 6, 12),))
def float_bits_frexp(x):
    m, e = np.frexp(x)
    back = np.ldexp(m, e)
    frac, whole = np.modf(x)
    q, r = np.divmod(x, 0.75)
    bits = x.view(np.int64)
    sign = (bits >> 63) & 1
    return m, e, back, frac, whole, q, r, sign, np.nextafter(x, np.inf) - x, np.spacing(x), np.copysign(1.0, x)


@program("complex", lambda rng: ((rng.standard_normal(32) + 1j * rng.standard_normal(32)).astype(np.complex64),),
         rtol=2e-4, atol=2e-4)
def complex64_fft_pipeline(z):
    spec = np.fft.fft(z)
    power = np.abs(spec) ** 2
    phase = np.angle(spec)
    filt = np.where(np.abs(np.fft.fftfreq(z.size)) < 0.2, spec, 0)
    back = np.fft.ifft(filt)
    conj = z * np.conj(z)
    return spec, power, phase, back, conj.real, np.vdot(z, z), z.real.dtype, (z * 2j).dtype


@program("image", lambda rng: (rng.integers(-128, 128, (8, 8), dtype=np.int8),
                               rng.integers(0, 65536, 8, dtype=np.uint16)))
def int8_uint16_saturate(a, w):
    info = np.iinfo(a.dtype)
    boosted = np.clip(a.astype(np.int16) * 2, info.min, info.max).astype(np.int8)
    wrapped = a * np.int8(2)  # int8 wraps
    absval = np.abs(a)  # abs(-128) stays -128 in int8
    halved = a // 2 + a % 2
    wsum = w.sum()  # uint16 sums to uint64
    wmean = w.mean()
    scaled = (w >> 8).astype(np.uint8)
    mixed = a[0] + w  # int8 with uint16 -> int32
    return boosted, wrapped, absval, halved, wsum, wmean, scaled, mixed, np.negative(w), a.max(axis=0)
