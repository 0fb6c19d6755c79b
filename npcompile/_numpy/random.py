"""``numpy.random`` on torch's random number generators: the legacy functions (``np.random.rand``...), the
``RandomState`` class and ``default_rng`` / ``Generator``.

Streams: every distribution is sampled with torch ops, exactly in distribution (inverse CDFs, gamma/Poisson
mixtures, torch's own gamma, Poisson and binomial samplers), so results are *statistically* equivalent to
NumPy's but not bit-identical: NumPy's Mersenne Twister / PCG64 streams are not reproduced, and
``get_state``/``set_state`` exchange torch generator states only.  Output dtypes, shapes and result types are
NumPy's (``_scalar_result``): one draw without ``size`` is a Python float or int (weak in NEP 50: ``x32 *
np.random.random()`` stays float32), except integers drawn with a NumPy ``dtype`` (``Generator.integers`` and
``random_integers`` by default) and picks from an array population, which are NumPy scalars; ``size=()`` gives a
0-D array.

Seeding: a ``RandomState(seed)`` or ``default_rng(seed)`` owns a ``torch.Generator`` seeded from ``seed``;
``np.random.seed(s)`` gives the legacy module functions such a generator.  Until it is called (or after
``seed(None)``) the module functions draw from torch's global generator, so ``torch.manual_seed`` also makes them
reproducible.  Under ``npcompile.compile`` a ``torch.Generator`` cannot be traced: compiled code draws from
torch's global generator, which each call seeds from NumPy's legacy global state (``npcompile.tracing._seeding``),
so ``numpy.random.seed`` makes compiled runs reproducible.  On the CPU, a graph's uniforms, normals and
exponentials (and what is built on them) are keyed hashes of their positions instead (``_hashed_draws``: they
fuse and use every core), so compiled code does not draw the numbers eager code would draw from the same torch
state.  The exception is ``numpy.random.default_rng(seed)`` called inside the compiled function with a constant seed: its draws with
constant arguments are constants, drawn by real NumPy at trace time (``npcompile.tracing._dynamo_patch``), so
they are NumPy's exact stream.

Parameter checks (``scale < 0`` and the like) on array parameters look at the values: eager only, skipped
while tracing.  NumPy's ``SeedSequence`` and bit generators are NumPy's own classes, which seed ours; not modelled
(``UnsupportedFeature``): the legacy functions' MT19937 (``get_bit_generator``/``set_bit_generator``).
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import inspect
import math
import operator
import os
import warnings

import numpy as _np
import torch

from .._errors import UnsupportedFeature
from ._trace import is_tracing as _tracing
from . import _dtypes, _hashed_draws, _unsupported
from ._ndarray import as_array0d, is_array0d, ndarray, wrap
from ._sorting import first_true
from ._normalize import as_tensor, check_out, normalize_axis_index

__all__ = [
    "RandomState", "Generator", "default_rng", "seed", "get_state", "set_state", "rand", "randn", "randint",
    "random_integers", "random", "random_sample", "ranf", "sample", "bytes", "choice", "permutation",
    "shuffle", "uniform", "normal", "standard_normal", "exponential", "standard_exponential", "gamma",
    "standard_gamma", "beta", "chisquare", "noncentral_chisquare", "f", "noncentral_f", "standard_t",
    "standard_cauchy", "lognormal", "laplace", "logistic", "gumbel", "rayleigh", "weibull", "pareto", "power",
    "wald", "triangular", "vonmises", "poisson", "binomial", "negative_binomial", "geometric", "multinomial",
    "multivariate_normal", "dirichlet", "hypergeometric", "zipf", "logseries", "get_bit_generator",
    "set_bit_generator", "BitGenerator", "SeedSequence", "MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64",
]

_F64 = torch.float64
_INT64 = _np.dtype(_np.int64)
_FLOATS = (_np.dtype(_np.float32), _np.dtype(_np.float64))
_POISSON_LAM_MAX = 9.223372006484771e18
_ROUNDS = 48  # proposals per sample of the rejection samplers (vonmises, zipf): P(all rejected) < 1e-21
_HYPERGEOMETRIC_MAX = 10**9  # Generator.hypergeometric's (and the "marginals" method's) bound on the counts
_VECTOR_NORMALS = 4096  # float64 normals drawn by vectorized Box-Muller from this many on (_normal01)
_TINY = 2.0 ** -64  # lower clamp for uniforms that feed a logarithm (the open interval (0, 1))


# ------------------------------------------------------------------------------ parameters, shapes, checks


def _param(x):
    """A distribution parameter: a Python float stays one (cheap); anything else is a float64 tensor."""
    if type(x) in (builtins.int, builtins.float):
        return float(x)
    t = as_tensor(x)
    if t.is_complex():
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') according to the rule "
                        "'safe'")
    return t.to(_F64)


def _size(size):
    if size is None:
        return None
    shape = (operator.index(size),) if not isinstance(size, (tuple, list)) else tuple(operator.index(s) for s in size)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _shape(size, *params):
    """The output shape: ``size``, which the parameters must broadcast to, or the parameters' broadcast shape."""
    shapes = [p.shape for p in params if isinstance(p, torch.Tensor) and p.ndim]
    if not shapes:  # scalar parameters broadcast to any size (torch.broadcast_shapes: ~10 us a call)
        size = _size(size)
        return () if size is None else size
    try:
        common = tuple(torch.broadcast_shapes(*shapes)) if shapes else ()
        size = _size(size)
        if size is not None and tuple(torch.broadcast_shapes(size, common)) != size:
            raise RuntimeError
    except RuntimeError:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape") from None
    return common if size is None else size


def _raise_if(bad, message, error=ValueError):
    """Raise when ``bad`` (a Python bool, or a bool tensor: any element) holds.  Tensor checks read values: eager
    only, skipped while tracing."""
    if isinstance(bad, torch.Tensor):
        if _tracing():
            return
        bad = builtins.bool(bad.any())
    if bad:
        raise error(message)


def _nonnegative(x, name):  # NumPy: -0.0 is negative, NaN passes
    bad = (torch.signbit(x) & ~torch.isnan(x)) if isinstance(x, torch.Tensor) else math.copysign(1.0, x) < 0 \
        and x == x
    _raise_if(bad, f"{name} < 0")


def _positive(x, name):  # NaN passes
    _raise_if(x <= 0, f"{name} <= 0")


def _probability(x, name, open_low=False):
    ok = ((x > 0) if open_low else (x >= 0)) & (x <= 1) if isinstance(x, torch.Tensor) else \
        ((x > 0) if open_low else (x >= 0)) and x <= 1
    low = "<=" if open_low else "<"
    _raise_if(~ok if isinstance(ok, torch.Tensor) else not ok, f"{name} {low} 0, {name} > 1 or {name} is NaN")


def _full(p, shape, device, dtype=_F64):
    """A parameter broadcast to ``shape`` as a ``dtype`` tensor."""
    if isinstance(p, torch.Tensor):
        return p.to(device=device, dtype=dtype).expand(shape)
    return torch.full(shape, p, dtype=dtype, device=device)


def _seed_value(seed, legacy):
    """An integer seed for ``torch.Generator.manual_seed`` from NumPy's seed forms (int or sequence of ints)."""
    if isinstance(seed, builtins.int) and not isinstance(seed, builtins.bool):
        ints = [seed]
    else:
        values = _np.asarray(seed)
        if values.dtype.kind not in "iu" or values.ndim > 1:
            raise TypeError("Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule "
                            "'safe'" if legacy else f"SeedSequence expects int or sequence of ints for entropy not "
                            f"{seed}")
        ints = [builtins.int(v) for v in values.reshape(-1)]
        if not ints:
            raise ValueError("Seed must be non-empty")
    if any(v < 0 for v in ints) or (legacy and any(v >= 2**32 for v in ints)):
        raise ValueError("Seed must be between 0 and 2**32 - 1" if legacy else "expected non-negative integer")
    if len(ints) == 1 and ints[0] < 2**63:
        return ints[0]
    return builtins.int.from_bytes(hashlib.sha256(repr(ints).encode()).digest()[:8], "little") >> 1


def _new_generator(seed, legacy, device):
    g = torch.Generator(device=device if device is not None else "cpu")
    seed_generator(g, builtins.int.from_bytes(os.urandom(8), "little") >> 1 if seed is None else
                   _seed_from_numpy(seed) if isinstance(seed, (SeedSequence, BitGenerator)) else
                   _seed_value(seed, legacy))
    return g


# A CPU generator's state (torch 2.11 to 2.13): a header that a fresh ``manual_seed`` leaves as it must be, then
# MT19937's 624 state words in 64-bit slots from byte 24 on, then a cache of normals marked empty.  One buffer,
# refilled per seed (``set_state`` copies it).
_CPU_STATE = torch.Generator().manual_seed(0).get_state()
_CPU_WORDS = _CPU_STATE[24:24 + 8 * 624].view(torch.int64).numpy()
_POSITIONS = _np.arange(1, 625, dtype=_np.int64)


def seed_generator(g: torch.Generator, seed: int) -> None:
    """Seed ``g`` with all of ``seed``'s bits (below 2**63).  A CPU generator's ``manual_seed`` keeps 32
    (MT19937's initialization): ``default_rng(1)`` and ``default_rng(1 + 2**32)`` drew the same numbers, and
    compiled calls seeded per call would share their draws after about 77000 calls (the birthday bound of
    2**32).  Its state words are filled by SplitMix64 from the whole seed instead (about 8 us)."""
    if g.device.type != "cpu":
        g.manual_seed(seed)
        return
    with _np.errstate(over="ignore"):
        _np.bitwise_and(_hashed_draws.mix64((_POSITIONS + seed) * _hashed_draws.GAMMA), 0xFFFFFFFF, out=_CPU_WORDS)
    g.set_state(_CPU_STATE)


# NumPy's seed material is host-side and NumPy's own: ``SeedSequence`` and the bit generators are NumPy's classes;
# a ``Generator`` or ``default_rng`` made from one seeds its torch generator from it (``_seed_from_numpy``).
BitGenerator, SeedSequence = _np.random.BitGenerator, _np.random.SeedSequence
MT19937, PCG64, PCG64DXSM, Philox, SFC64 = (_np.random.MT19937, _np.random.PCG64, _np.random.PCG64DXSM,
                                             _np.random.Philox, _np.random.SFC64)


def _seed_from_numpy(source) -> int:
    """A 63-bit seed from a SeedSequence (its generated state) or a bit generator (its next raw output: the bit
    generator advances, so two Generators made from one draw differently, as in NumPy where they share it)."""
    if isinstance(source, SeedSequence):
        return builtins.int(source.generate_state(1, _np.uint64)[0]) >> 1
    return builtins.int(source.random_raw()) >> 1


# ------------------------------------------------------------------------------ the distributions


class _Sampler:
    """The distributions shared by ``RandomState`` and ``Generator``; each draws from ``self._g()``."""

    _gen: torch.Generator | None = None
    _device = torch.device("cpu")
    _legacy = True  # RandomState's argument checks (Generator's differ in places)

    def _g(self):
        return None if _tracing() else self._gen

    # -------------------------------------------------------------- primitive draws (float64 tensors)
    def _hashed(self):
        """Whether draws are hashes of their position (``_hashed_draws``): in a graph, on the CPU."""
        return self._device.type == "cpu" and _tracing()

    def _uniform01(self, shape, dtype=_F64):
        if self._hashed():
            return _hashed_draws.uniform(_hashed_draws.new_key(self._device), shape, dtype)
        return torch.rand(shape, generator=self._g(), dtype=dtype, device=self._device)

    def _open01(self, shape):
        return self._uniform01(shape).clamp_(min=_TINY)

    def _normal01(self, shape, dtype=_F64):
        n = math.prod(shape)
        if not self._hashed() and (dtype != _F64 or self._device.type != "cpu" or n < _VECTOR_NORMALS):
            return torch.randn(shape, generator=self._g(), dtype=dtype, device=self._device)
        # torch's float64 normal on the CPU is a scalar loop (its vectorized one is float32 only), 2x slower than
        # Box-Muller written in vector ops on its uniforms: r = sqrt(-2 log(1-u)) in (0, 8.6], angle 2 pi v,
        # each pair (u, v) giving two independent normals (for small draws, the eight ops cost more).  In a
        # graph, on hashed uniforms: a pair shares its r and angle (1M normals, one thread: 5.6 ms; one pair per
        # normal, 8.9 ms), and the float64 tails serve float32 results too.
        u = self._uniform01((2, (n + 1) // 2))
        r = torch.sqrt(-2.0 * torch.log1p(-u[0]))
        angle = (2.0 * math.pi) * u[1]
        return torch.cat((r * torch.cos(angle), r * torch.sin(angle)))[:n].reshape(shape).to(dtype)

    def _exponential01(self, shape):
        if self._hashed():  # inverse CDF on a uniform in [0, 1): fuses with its consumer
            return -torch.log1p(-self._uniform01(shape))
        return torch.empty(shape, dtype=_F64, device=self._device).exponential_(1.0, generator=self._g())

    def _gamma01(self, alpha, shape):
        """Standard gamma variates (shape ``alpha``); exactly 0 for ``alpha == 0`` as NumPy."""
        a = _full(alpha, shape, self._device)
        g = torch._standard_gamma(a.contiguous(), generator=self._g())
        return torch.where(a == 0, torch.zeros_like(g), g)

    def _log_gamma01(self, alpha, shape):
        """log of standard gamma variates, accurate for tiny ``alpha``: G(a) = G(a + 1) * U**(1/a)."""
        a = _full(alpha, shape, self._device)
        return torch.log(self._gamma01(a + 1, shape)) + torch.log(self._open01(shape)) / a

    def _chisquare01(self, df, shape):
        return 2.0 * self._gamma01(_half(df), shape)

    def _poisson01(self, lam, shape):
        return torch.poisson(_full(lam, shape, self._device).contiguous(), generator=self._g())

    def _binomial01(self, n, p, shape):
        return torch.binomial(_full(n, shape, self._device).contiguous(), _full(p, shape, self._device).contiguous(),
                              generator=self._g())

    # -------------------------------------------------------------- continuous
    def uniform(self, low=0.0, high=1.0, size=None):
        low, high = _param(low), _param(high)
        _raise_if(_isinf(high - low), "Range exceeds valid bounds", OverflowError)
        return wrap(low + (high - low) * self._uniform01(_shape(size, low, high)))

    def normal(self, loc=0.0, scale=1.0, size=None):
        loc, scale = _param(loc), _param(scale)
        _nonnegative(scale, "scale")
        return wrap(loc + scale * self._normal01(_shape(size, loc, scale)))

    def exponential(self, scale=1.0, size=None):
        scale = _param(scale)
        _nonnegative(scale, "scale")
        return wrap(scale * self._exponential01(_shape(size, scale)))

    def gamma(self, shape, scale=1.0, size=None):
        shape, scale = _param(shape), _param(scale)
        _nonnegative(shape, "shape")
        _nonnegative(scale, "scale")
        return wrap(scale * self._gamma01(shape, _shape(size, shape, scale)))

    def beta(self, a, b, size=None):
        """Beta(a, b) = Ga / (Ga + Gb), computed from log-gammas (stable for tiny a, b)."""
        a, b = _param(a), _param(b)
        _positive(a, "a")
        _positive(b, "b")
        s = _shape(size, a, b)
        return wrap(torch.sigmoid(self._log_gamma01(a, s) - self._log_gamma01(b, s)))

    def chisquare(self, df, size=None):
        df = _param(df)
        _positive(df, "df")
        return wrap(self._chisquare01(df, _shape(size, df)))

    def noncentral_chisquare(self, df, nonc, size=None):
        """A chi-square with ``df + 2 K`` degrees of freedom, K ~ Poisson(nonc / 2)."""
        df, nonc = _param(df), _param(nonc)
        _positive(df, "df")
        _nonnegative(nonc, "nonc")
        s = _shape(size, df, nonc)
        return wrap(self._noncentral_chisquare(df, nonc, s))

    def _noncentral_chisquare(self, df, nonc, s):
        k = self._poisson01(_half(nonc), s)
        return self._chisquare01(df + 2.0 * k, s)

    def f(self, dfnum, dfden, size=None):
        dfnum, dfden = _param(dfnum), _param(dfden)
        _positive(dfnum, "dfnum")
        _positive(dfden, "dfden")
        s = _shape(size, dfnum, dfden)
        return wrap((self._chisquare01(dfnum, s) * dfden) / (self._chisquare01(dfden, s) * dfnum))

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        dfnum, dfden, nonc = _param(dfnum), _param(dfden), _param(nonc)
        _positive(dfnum, "dfnum")
        _positive(dfden, "dfden")
        _nonnegative(nonc, "nonc")
        s = _shape(size, dfnum, dfden, nonc)
        return wrap((self._noncentral_chisquare(dfnum, nonc, s) * dfden) / (self._chisquare01(dfden, s) * dfnum))

    def standard_t(self, df, size=None):
        df = _param(df)
        _positive(df, "df")
        s = _shape(size, df)
        return wrap(self._normal01(s) / torch.sqrt(self._chisquare01(df, s) / df))

    def standard_cauchy(self, size=None):
        s = _shape(size)
        return wrap(self._normal01(s) / self._normal01(s))

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        mean, sigma = _param(mean), _param(sigma)
        _nonnegative(sigma, "sigma")
        return wrap(torch.exp(mean + sigma * self._normal01(_shape(size, mean, sigma))))

    def laplace(self, loc=0.0, scale=1.0, size=None):
        loc, scale = _param(loc), _param(scale)
        _nonnegative(scale, "scale")
        u = self._open01(_shape(size, loc, scale))
        return wrap(torch.where(u >= 0.5, loc - scale * torch.log(2.0 - 2.0 * u), loc + scale * torch.log(2.0 * u)))

    def logistic(self, loc=0.0, scale=1.0, size=None):
        loc, scale = _param(loc), _param(scale)
        _nonnegative(scale, "scale")
        u = self._open01(_shape(size, loc, scale))
        return wrap(loc + scale * torch.log(u / (1.0 - u)))

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        loc, scale = _param(loc), _param(scale)
        _nonnegative(scale, "scale")
        return wrap(loc - scale * torch.log(self._exponential01(_shape(size, loc, scale))))

    def rayleigh(self, scale=1.0, size=None):
        scale = _param(scale)
        _nonnegative(scale, "scale")
        return wrap(scale * torch.sqrt(2.0 * self._exponential01(_shape(size, scale))))

    def weibull(self, a, size=None):
        a = _param(a)
        _nonnegative(a, "a")
        e = self._exponential01(_shape(size, a))
        return wrap(torch.where(_full(a, e.shape, e.device) == 0, torch.zeros_like(e), e ** (1.0 / _nz(a))))

    def pareto(self, a, size=None):
        a = _param(a)
        _positive(a, "a")
        return wrap(torch.expm1(self._exponential01(_shape(size, a)) / a))

    def power(self, a, size=None):
        a = _param(a)
        _positive(a, "a")
        return wrap((-torch.expm1(-self._exponential01(_shape(size, a)))) ** (1.0 / a))

    def wald(self, mean, scale, size=None):
        """Inverse Gaussian by Michael, Schucany & Haas (one normal and one uniform per sample)."""
        mean, scale = _param(mean), _param(scale)
        _positive(mean, "mean")
        _positive(scale, "scale")
        s = _shape(size, mean, scale)
        y = mean * self._normal01(s) ** 2
        x = mean + (mean / (2.0 * scale)) * (y - torch.sqrt(4.0 * scale * y + y * y))
        return wrap(torch.where(self._uniform01(s) <= mean / (mean + x), x, mean * mean / x))

    def triangular(self, left, mode, right, size=None):
        left, mode, right = _param(left), _param(mode), _param(right)
        _raise_if(left > mode, "left > mode")
        _raise_if(mode > right, "mode > right")
        _raise_if(left == right, "left == right")
        u = self._uniform01(_shape(size, left, mode, right))
        base = right - left
        ratio = (mode - left) / base
        lo = left + torch.sqrt(u * ((mode - left) * base))
        hi = right - torch.sqrt((1.0 - u) * ((right - mode) * base))
        return wrap(torch.where(u <= ratio, lo, hi))

    def vonmises(self, mu, kappa, size=None):
        """Best & Fisher's rejection sampler (``_rejection``; P(a proposal is rejected) < 0.35); uniform for tiny
        ``kappa``, a wrapped normal for huge ``kappa``, as NumPy."""
        mu, kappa = _param(mu), _param(kappa)
        _nonnegative(kappa, "kappa")
        s = _shape(size, mu, kappa)
        k = _full(kappa, s, self._device)
        r = 1.0 + torch.sqrt(1.0 + 4.0 * k * k)
        rho = (r - torch.sqrt(2.0 * r)) / (2.0 * k)
        sk = torch.where(k < 1e-5, 1.0 / k + k, (1.0 + rho * rho) / (2.0 * rho))

        def propose(draws, k, sk):
            z = torch.cos(math.pi * self._uniform01(draws))
            w = (1.0 + sk * z) / (sk + z)
            y = k * (sk - w)
            v = self._open01(draws)
            return w, (y * (2.0 - y) - v >= 0) | (torch.log(y / v) + 1.0 - y >= 0)

        angle = torch.acos(_rejection(propose, s, k, sk).clamp(-1.0, 1.0))
        angle = torch.where(self._uniform01(s) < 0.5, -angle, angle)
        angle = torch.where(k > 1e6, torch.sqrt(1.0 / k) * self._normal01(s), angle)
        angle = torch.where(k < 1e-8, math.pi * (2.0 * self._uniform01(s) - 1.0), angle)
        return wrap(torch.remainder(angle + mu + math.pi, 2.0 * math.pi) - math.pi)

    # -------------------------------------------------------------- discrete (int64)
    def poisson(self, lam=1.0, size=None):
        lam = _param(lam)
        _raise_if(lam > _POISSON_LAM_MAX, "lam value too large")
        _raise_if((lam < 0) | torch.isnan(lam) if isinstance(lam, torch.Tensor) else not lam >= 0,
                  "lam < 0 or lam is NaN")
        return wrap(self._poisson01(lam, _shape(size, lam)).to(torch.int64))

    def binomial(self, n, p, size=None):
        n, p = _integral(n), _param(p)
        _raise_if(n < 0, "n < 0")
        _probability(p, "p")
        return wrap(self._binomial01(n, p, _shape(size, n, p)).to(torch.int64))

    def negative_binomial(self, n, p, size=None):
        """Poisson(Gamma(n, (1 - p) / p)): the number of failures before ``n`` successes."""
        n, p = _param(n), _param(p)
        _positive(n, "n")
        _probability(p, "p", open_low=True)
        s = _shape(size, n, p)
        return wrap(self._poisson01(self._gamma01(n, s) * ((1.0 - p) / p), s).to(torch.int64))

    def geometric(self, p, size=None):
        """Trials to the first success, by inversion: ceil(log(1 - U) / log(1 - p)), at least 1."""
        p = _param(p)
        _probability(p, "p", open_low=True)
        u = self._uniform01(_shape(size, p))
        k = torch.ceil(torch.log1p(-u) / torch.log1p(-_full(p, u.shape, u.device)))
        return wrap(k.clamp_(min=1.0).to(torch.int64))

    def multinomial(self, n, pvals, size=None):
        """Category counts by sequential conditional binomials (exact)."""
        nt = _integral(n)
        pv = _param(pvals)
        if not isinstance(pv, torch.Tensor) or pv.ndim < 1:
            raise ValueError("pvals must have at least 1 dimension")
        _raise_if(nt < 0, "n < 0")
        _raise_if((pv < 0) | (pv > 1) | torch.isnan(pv), "pvals < 0, pvals > 1 or pvals contains NaNs")
        _raise_if(pv[..., :-1].sum(-1) > 1.0 + 1e-12, "sum(pvals[:-1]) > 1.0")
        k = pv.shape[-1]
        batch = _shape(size, nt, pv[..., 0])
        left = _full(nt, batch, self._device).clone()
        mass = torch.ones(batch, dtype=_F64, device=self._device)
        counts = []
        for i in range(k - 1):
            pi = pv[..., i].expand(batch)
            x = self._binomial01(left, (pi / mass).clamp(0.0, 1.0).nan_to_num(0.0), batch)
            counts.append(x)
            left = left - x
            mass = mass - pi
        counts.append(left)
        return wrap(torch.stack(counts, dim=-1).to(torch.int64))

    # -------------------------------------------------------------- multivariate
    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        """``mean + z @ (sqrt(s) * vh)`` with ``cov = u diag(s) vh`` (SVD, as NumPy's default)."""
        m, c = _param(mean), _param(cov)
        m = m if isinstance(m, torch.Tensor) else torch.tensor(m, dtype=_F64)
        c = c if isinstance(c, torch.Tensor) else torch.tensor(c, dtype=_F64)
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        size = _size(size) or ()
        _, s, vh = torch.linalg.svd(c)
        if check_valid != "ignore" and not _tracing():  # a data-dependent check, eager only
            if not torch.allclose((vh.T * s) @ vh, c, rtol=tol, atol=tol):
                if check_valid == "raise":
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2)
        z = self._normal01(tuple(size) + (m.shape[0],))
        return wrap(m.to(self._device) + z @ (torch.sqrt(s)[:, None] * vh).to(self._device))

    def dirichlet(self, alpha, size=None):
        """Normalized gammas, computed as a softmax of log-gammas (stable for tiny alpha)."""
        a = _param(alpha)
        if not isinstance(a, torch.Tensor) or a.ndim != 1:
            raise ValueError("alpha must be a one-dimensional array" if isinstance(a, torch.Tensor) and a.ndim
                             else "object of too small depth for desired array")
        self._check_alpha(a)
        shape = tuple(_size(size) or ()) + (a.shape[0],)
        return wrap(torch.softmax(self._log_gamma01(a, shape), dim=-1))

    def _check_alpha(self, a):
        _raise_if(a <= 0, "alpha <= 0")

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        good, bad, n = _integral(ngood), _integral(nbad), _integral(nsample)
        shape = _shape(size, good, bad, n)
        _raise_if(good < 0, "ngood < 0")
        _raise_if(bad < 0, "nbad < 0")
        if self._legacy:
            _raise_if(n < 1, "nsample < 1 or nsample is NaN")
        else:
            _raise_if(n < 0, "nsample < 0")
            _raise_if((good >= _HYPERGEOMETRIC_MAX) | (bad >= _HYPERGEOMETRIC_MAX),
                      f"both ngood and nbad must be less than {_HYPERGEOMETRIC_MAX}")
        _raise_if(good + bad < n, "ngood + nbad < nsample")
        return wrap(self._hypergeometric01(good, bad, n, shape))

    def _hypergeometric01(self, good, bad, n, shape):
        """Good items among ``n`` drawn without replacement, by inversion of the pmf over a window around the mean.

        The window is the mean +- (6 sqrt(m) + 2), m the smallest of n, ngood, nbad and the population minus n
        (the sample sizes of the four equivalent urn views), clipped to the support: Hoeffding's bound for
        sampling without replacement puts less than 2 exp(-72) ~ 1e-31 of the mass outside it.  The pmf comes
        from the cumulated log ratios p(k + 1) / p(k) of its terms (no cancellation of large log-gammas)."""
        params = (good, bad, n)
        row = None  # per sample, its row of distinct parameters (None: Python scalars, one row)
        if any(isinstance(x, torch.Tensor) for x in params):
            xp = torch
            params = torch.broadcast_tensors(*(torch.as_tensor(x, dtype=_F64, device=self._device) for x in params))
            tail = tuple(shape[len(shape) - params[0].ndim:])  # the trailing dims of ``shape`` the params span
            params = [x.expand(tail).reshape(-1) for x in params]
            for x in params:  # number the distinct parameter triples (1-D uniques: unique(dim=0) is slow)
                i = torch.unique(x, return_inverse=True)[1]
                row = i if row is None else torch.unique(row * i.numel() + i, return_inverse=True)[1]
            distinct = builtins.int(row.max()) + 1 if row.numel() else 0
            good, bad, n = (torch.empty(distinct, dtype=_F64, device=self._device).index_put_((row,), x)
                            for x in params)
            row = row.reshape(tail).expand(shape)
        else:
            xp = _np
            good, bad, n = (_np.float64(x) for x in params)
        first, last = _hypergeometric_window(good, bad, n, xp)
        first, last = (torch.as_tensor(x, dtype=_F64, device=self._device) for x in (first, last))
        width = builtins.int((last - first).max()) + 1 if first.numel() else 1
        k = first[..., None] + torch.arange(width, dtype=_F64, device=self._device)
        good, bad, n = (torch.as_tensor(x, dtype=_F64, device=self._device)[..., None] for x in (good, bad, n))
        step = torch.log(good - k) + torch.log(n - k) - torch.log1p(k) - torch.log(bad - n + k + 1.0)
        step = torch.where(k < last[..., None], step, -math.inf)  # log p(k + 1) / p(k); -inf past the window
        log_p = torch.cat([torch.zeros_like(step[..., :1]), torch.cumsum(step[..., :-1], -1)], -1)
        cdf = torch.cumsum(torch.exp(log_p - log_p.amax(-1, keepdim=True)), -1)
        u = self._uniform01(shape)
        if row is None:
            idx = torch.searchsorted(cdf, u * cdf[-1], right=True)
        else:
            idx = _search_rows(cdf, row, u * cdf[:, -1][row])
            first = first[row]
        return (first + idx.clamp_(max=width - 1)).to(torch.int64)

    def zipf(self, a, size=None):
        """Rejection from the discretized Pareto floor(U**(-1 / (a - 1))): accept with probability
        (p(k) / q(k)) / max, which is V k (1 - (1 + 1/k)**(1 - a)) <= 1 - 2**(1 - a); the acceptance rate is at
        least log 2 for every a (``_rejection``).  Values beyond int64 are
        rejected, as NumPy does."""
        a = _param(a)
        _raise_if(~(a > 1) if isinstance(a, torch.Tensor) else not a > 1, "a <= 1 or a is NaN")
        s = _shape(size, a)
        am1 = _full(a, s, self._device) - 1.0
        bound = -torch.expm1(-am1 * math.log(2.0))

        def propose(draws, am1, bound):
            k = torch.floor(torch.exp(-torch.log1p(-self._uniform01(draws)) / am1))  # U in (0, 1]
            v = self._uniform01(draws)
            ok = (v * k * -torch.expm1(-am1 * torch.log1p(1.0 / k)) <= bound) & (k < 2.0**63)
            return k.clamp(max=2.0**62), ok

        return wrap(_rejection(propose, s, am1, bound).to(torch.int64))

    def logseries(self, p, size=None):
        """A mixture of geometrics (exact): K | q ~ Geometric(1 - q) on {1, 2, ...} with q = 1 - (1 - p)**U,
        U uniform, whose mixture weights integrate to p**k / (-k log(1 - p))."""
        p = _param(p)
        _raise_if(~((p >= 0) & (p < 1)) if isinstance(p, torch.Tensor) else not 0 <= p < 1,
                  "p < 0, p >= 1 or p is NaN")
        s = _shape(size, p)
        t = torch.log1p(-_full(p, s, self._device)) * self._uniform01(s)  # log(1 - q) <= 0
        log_q = torch.where(t > -math.log(2.0), torch.log(-torch.expm1(t)), torch.log1p(-torch.exp(t)))
        return wrap((1.0 + torch.floor(torch.log(self._open01(s)) / log_q)).to(torch.int64))

    # -------------------------------------------------------------- shared helpers for the integer/choice APIs
    def _integers(self, low, high, size, dtype, endpoint, name):
        """Uniform integers in [low, high) (or [low, high] with ``endpoint``), in ``dtype``."""
        d = _dtypes.to_dtype(dtype)
        if d.kind not in "biu":
            raise TypeError(f"Unsupported dtype {d!r} for {name}")
        if high is None:
            low, high = 0, low
        bound_lo, bound_hi = (0, 1) if d.kind == "b" else (_np.iinfo(d).min, _np.iinfo(d).max)
        lo, hi = _integral(low), _integral(high)
        top = hi if endpoint else hi - 1
        _raise_if(lo < bound_lo, f"low is out of bounds for {d}")
        _raise_if(top > bound_hi, f"high is out of bounds for {d}")
        _raise_if(lo > top, "low > high" if endpoint else "low >= high")
        shape = _shape(size, lo, hi)
        if not isinstance(lo, torch.Tensor) and not isinstance(hi, torch.Tensor):
            if top + 1 > 2**63 - 1:
                raise UnsupportedFeature("random integers above 2**63 - 2")
            span = builtins.int(top) - builtins.int(lo) + 1
            if self._hashed() and span <= 2**53:  # floor(u * span) < span: u <= 1 - 2**-53 rounds below span
                r = (self._uniform01(shape) * span).floor_().to(torch.int64) + builtins.int(lo)
            else:
                r = torch.randint(builtins.int(lo), builtins.int(top) + 1, shape, generator=self._g(),
                                  dtype=torch.int64, device=self._device)
        else:  # per-element bounds: a 62-bit draw reduced modulo each span (bias below span / 2**62)
            lo_t, top_t = (_full(x, shape, self._device, torch.int64) for x in (lo, top))
            raw = torch.randint(0, 2**62, shape, generator=self._g(), dtype=torch.int64, device=self._device)
            r = lo_t + torch.remainder(raw, top_t - lo_t + 1)
        return _scalar_result(wrap(r.to(_dtypes.to_torch(d))), size, dtype is builtins.int or dtype is builtins.bool)

    def _choice(self, a, size, replace, p, axis, legacy):
        pop = as_tensor(a)
        if pop.ndim == 0:
            try:
                n = operator.index(a)
            except TypeError:  # NumPy: a float (or other) scalar is neither a population nor a size
                raise ValueError("a must be 1-dimensional or an integer" if legacy else
                                 f"a must be a sequence or an integer, not {type(a)}") from None
            pop = None
        else:
            if legacy and pop.ndim != 1:
                raise ValueError("a must be 1-dimensional")
            axis = normalize_axis_index(axis, pop.ndim)
            n = pop.shape[axis]
        shape = _size(size)
        count = 1 if shape is None else math.prod(shape)
        if n <= 0 and count > 0:
            raise ValueError("a must be a positive integer unless no samples are taken" if pop is None or not legacy
                             else "'a' cannot be empty unless no samples are taken")
        if not replace and count > n:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        idx = self._choice_indices(n, count, replace, p)
        idx = idx.reshape(() if shape is None else shape)
        if pop is None:
            return _scalar_result(wrap(idx), size, python=True)
        picked = torch.index_select(pop, axis, idx.reshape(-1))
        return _scalar_result(wrap(picked.reshape(pop.shape[:axis] + tuple(idx.shape) + pop.shape[axis + 1:])), size,
                              python=False)

    def _choice_indices(self, n, count, replace, p):
        if p is None:
            if replace:
                return torch.randint(0, builtins.max(n, 1), (count,), generator=self._g(), device=self._device)
            if 4 * count > n or _tracing():
                return torch.randperm(n, generator=self._g(), device=self._device)[:count]
            return self._distinct_draws(n, count)
        pt = _param(p)
        if not isinstance(pt, torch.Tensor) or pt.ndim != 1:
            raise ValueError("'p' must be 1-dimensional")
        if pt.shape[0] != n:
            raise ValueError("'a' and 'p' must have same size")
        _raise_if(torch.isnan(pt), "probabilities contain NaN")
        _raise_if(pt < 0, "probabilities are not non-negative")
        _raise_if((pt.sum() - 1.0).abs() > math.sqrt(torch.finfo(_F64).eps), "probabilities do not sum to 1")
        if not replace:
            _raise_if((pt > 0).sum() < count, "Fewer non-zero entries in p than size")
        if count == 0:
            return torch.zeros(0, dtype=torch.int64, device=self._device)
        return torch.multinomial(pt.to(self._device), count, replacement=replace, generator=self._g())

    def _distinct_draws(self, n, count):
        """``count`` distinct integers of [0, n) in random order, for ``count <= n / 4`` (eager): the first
        occurrences, in draw order, of iid uniform draws are a sample without replacement (each new value is
        uniform over the unseen ones), at O(count) cost where a permutation of all ``n`` costs O(n)."""
        draws = torch.empty(0, dtype=torch.int64, device=self._device)
        while True:  # about 1.15 * count draws suffice when count <= n / 4
            more = torch.randint(0, n, (count + count // 4 + 16,), generator=self._g(), device=self._device)
            draws = torch.cat([draws, more])
            values, inverse = torch.unique(draws, return_inverse=True)
            if values.numel() >= count:
                break
        positions = torch.arange(draws.numel(), device=self._device)
        first = torch.full(values.shape, draws.numel(), device=self._device).scatter_reduce_(0, inverse, positions,
                                                                                             "amin")
        return draws[first.sort().values[:count]]

    def _permutation(self, x, axis):
        if isinstance(x, (builtins.int, _np.integer)) or (isinstance(x, ndarray) and x.ndim == 0 and not is_array0d(x)
                                                          and x.dtype.kind in "iu"):  # a NumPy integer scalar
            return wrap(torch.randperm(operator.index(x), generator=self._g(), device=self._device))
        t = as_tensor(x)
        if t.ndim == 0:  # (a 0-D array is no integer to NumPy: Generator's axis check refuses it)
            if isinstance(self, Generator):
                raise _np.exceptions.AxisError(axis, 0)
            raise IndexError("x must be an integer or at least 1-dimensional")
        axis = normalize_axis_index(axis, t.ndim)
        perm = torch.randperm(t.shape[axis], generator=self._g(), device=t.device)
        return wrap(torch.index_select(t, axis, perm))

    def _shuffle(self, x, axis):
        """Shuffle ``x`` in place along ``axis`` (our arrays, or Python lists)."""
        if isinstance(x, list):
            order = torch.randperm(len(x), generator=self._g()).tolist()
            x[:] = [x[i] for i in order]
            return None
        if not isinstance(x, ndarray):
            raise TypeError("x must be a numpy array or a mutable sequence")
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        if not x._writeable:
            raise ValueError("array is read-only")
        axis = normalize_axis_index(axis, x.ndim)
        perm = torch.randperm(x.shape[axis], generator=self._g(), device=x.tensor.device)
        x.tensor.copy_(torch.index_select(x.tensor, axis, perm))
        return None


def _scalar_result(r, size, python):
    """A draw as NumPy types it: without ``size`` one value is a Python float or int (``python``) or a NumPy
    scalar; with ``size=()`` a 0-D array.  Traced, the Python number is a symbol read from the graph's draw."""
    if type(r) is not ndarray or r.tensor.ndim:
        return r
    if size is not None:
        return as_array0d(r)
    return r.item() if python else r


def _typed_draws(cls, names):
    """Wrap the methods ``names`` of ``cls`` (each with a ``size`` parameter and float or int results: one draw
    is a Python number) in ``_scalar_result``; one given ``out`` returns ``out``."""
    for name in names:
        method = cls.__dict__[name]
        at = list(inspect.signature(method).parameters).index("size") - 1  # (positional index after self)

        def typed(self, *args, _method=method, _at=at, **kwargs):
            r = _method(self, *args, **kwargs)
            if r is kwargs.get("out") or any(r is a for a in args):  # ``out``, given by name or position
                return r
            return _scalar_result(r, kwargs["size"] if "size" in kwargs else args[_at] if len(args) > _at else None,
                                  python=True)

        setattr(cls, name, functools.wraps(method)(typed))


def _rejection(propose, shape, *params):
    """Rejection sampling: ``propose(draws, *params)`` gives proposals of shape ``draws`` and whether each is
    accepted, for per-sample parameters ``params`` (broadcastable to ``shape``).  Traced (no data-dependent
    loop): ``_ROUNDS`` proposals for every sample at once, the first accepted one kept (the first proposal if
    none is).  Eagerly: one proposal per still-pending sample per round, so the work is the expected number of
    proposals (the last one kept if none of ``_ROUNDS`` is accepted)."""
    shape = tuple(shape)
    if _tracing():
        proposals, ok = propose((_ROUNDS,) + shape, *params)
        return torch.gather(proposals, 0, first_true(ok, 0, keepdim=True))[0]
    params = [p.expand(shape).reshape(-1) if isinstance(p, torch.Tensor) else p for p in params]
    pending = out = None
    for _ in range(_ROUNDS):
        proposals, ok = propose((math.prod(shape),) if pending is None else pending.shape, *params)
        if pending is None:
            out, pending = proposals, torch.nonzero(~ok).flatten()
        else:
            out[pending] = proposals
            pending = pending[~ok]
        if not pending.numel():
            break
        params = [p[~ok] if isinstance(p, torch.Tensor) else p for p in params]
    return out.reshape(shape)


def _search_rows(cdf, row, u):
    """``torch.searchsorted(cdf[row], u, right=True)`` with a row of ``cdf`` per sample: a binary search of every
    sample at once (its steps are gathers), without materializing a row per sample."""
    width = cdf.shape[-1]
    flat, base = cdf.reshape(-1), row * width
    pos = torch.zeros_like(row)
    step = 1 << (width.bit_length() - 1)
    while step:  # pos = the number of entries <= u, found bit by bit
        nxt = pos + step
        pos = torch.where((nxt <= width) & (flat[base + nxt.clamp(max=width) - 1] <= u), nxt, pos)
        step >>= 1
    return pos


def _hypergeometric_window(good, bad, n, xp):
    """First and last value of the hypergeometric inversion window (see ``_hypergeometric01``); ``xp`` is
    NumPy for Python scalars (static bounds, also while tracing) or torch for tensors."""
    zero = n * 0
    spread = xp.minimum(xp.minimum(n, good + bad - n), xp.minimum(good, bad))
    mean = n * good / xp.maximum(good + bad, zero + 1)
    half = 6.0 * xp.sqrt(spread) + 2.0
    first = xp.maximum(xp.maximum(n - bad, zero), xp.floor(mean - half))
    last = xp.minimum(xp.minimum(n, good), xp.ceil(mean + half))
    return first, last


def _isinf(x):
    return torch.isinf(x) if isinstance(x, torch.Tensor) else math.isinf(x)


def _half(x):
    return x * 0.5


def _nz(a):
    """``a`` with zeros replaced by 1 (their results are overwritten)."""
    return torch.where(a == 0, torch.ones_like(a), a) if isinstance(a, torch.Tensor) else (a or 1.0)


def _integral(x):
    """An integer parameter: a Python int, or an int64 tensor (float scalars truncate, float arrays are
    refused, as NumPy's casts)."""
    if type(x) is builtins.int:
        return x
    if type(x) is builtins.float:
        return builtins.int(x)
    t = as_tensor(x)
    if t.ndim and (t.dtype.is_floating_point or t.is_complex()):
        raise TypeError(f"Cannot cast array data from dtype('{_dtypes.to_dtype(t.dtype)}') to dtype('int64') "
                        "according to the rule 'safe'")
    if t.ndim == 0 and not _tracing():
        return builtins.int(t.item())
    return t.to(torch.int64)


# ------------------------------------------------------------------------------ RandomState (legacy)


class RandomState(_Sampler):
    """NumPy's legacy generator.  ``RandomState(seed)`` owns a seeded ``torch.Generator`` (``device=`` picks
    where it draws); streams differ from NumPy's Mersenne Twister (see the module docstring)."""

    def __init__(self, seed=None, *, device=None):
        self._device = torch.device(device if device is not None else "cpu")
        self._gen = _new_generator(seed, True, self._device)

    def seed(self, seed=None):
        self._gen = _new_generator(seed, True, self._device)

    def get_state(self, legacy=True):
        """The torch generator state, as ``("npcompile-torch", state)``; NumPy's MT19937 tuple is not modelled."""
        return ("npcompile-torch", (self._gen or torch.default_generator).get_state())

    def set_state(self, state):
        if not (isinstance(state, tuple) and len(state) == 2 and state[0] == "npcompile-torch"):
            raise UnsupportedFeature("set_state with a NumPy bit-generator state")
        if self._gen is None:
            self._gen = torch.Generator(device=self._device)
        self._gen.set_state(state[1])

    def random_sample(self, size=None):
        return wrap(self._uniform01(_shape(size)))

    def random(self, size=None):
        return self.random_sample(size)

    def rand(self, *args):
        return _scalar_result(wrap(self._uniform01(_shape(args))), args or None, python=True)

    def randn(self, *args):
        return _scalar_result(wrap(self._normal01(_shape(args))), args or None, python=True)

    def standard_normal(self, size=None):
        return wrap(self._normal01(_shape(size)))

    def standard_exponential(self, size=None):
        return wrap(self._exponential01(_shape(size)))

    def standard_gamma(self, shape, size=None):
        shape = _param(shape)
        _nonnegative(shape, "shape")
        return wrap(self._gamma01(shape, _shape(size, shape)))

    def randint(self, low, high=None, size=None, dtype=int):
        if high is None and not isinstance(low, torch.Tensor):
            _raise_if(_integral(low) <= 0, "high <= 0")
        return self._integers(low, high, size, dtype, False, "randint")

    def random_integers(self, low, high=None, size=None):
        warnings.warn("This function is deprecated. Please call randint instead", DeprecationWarning, stacklevel=2)
        if high is None:
            low, high = 1, low
        return self._integers(low, high, size, _INT64, True, "random_integers")

    def tomaxint(self, size=None):
        return self._integers(0, 2**63 - 2, size, builtins.int, True, "tomaxint")

    def bytes(self, length):
        t = torch.randint(0, 256, (operator.index(length),), generator=self._g(), dtype=torch.uint8)
        return t.numpy().tobytes()

    def choice(self, a, size=None, replace=True, p=None):
        return self._choice(a, size, replace, p, 0, legacy=True)

    def permutation(self, x):
        return self._permutation(x, 0)

    def shuffle(self, x):
        return self._shuffle(x, 0)


class _ModuleState(RandomState):
    """The state behind the module functions: torch's global generator until ``seed(s)``."""

    def __init__(self):
        self._gen = None

    def seed(self, seed=None):
        self._gen = None if seed is None else _new_generator(seed, True, self._device)


# ------------------------------------------------------------------------------ Generator


class Generator(_Sampler):
    """NumPy's ``Generator`` API on a ``torch.Generator`` (build it with ``default_rng``)."""

    _legacy = False

    def __init__(self, bit_generator=None):
        if isinstance(bit_generator, BitGenerator):
            bit_generator = _new_generator(bit_generator, False, None)
        if not isinstance(bit_generator, torch.Generator):
            raise AttributeError(f"Generator needs a NumPy BitGenerator, not {type(bit_generator).__name__}")
        self._gen = bit_generator
        self._device = bit_generator.device

    def __repr__(self):
        return f"Generator(torch.Generator on {self._device})"

    @property
    def bit_generator(self):
        raise UnsupportedFeature("Generator.bit_generator (draws come from a torch.Generator)")

    def spawn(self, n_children):
        """Independent child generators, each seeded by a draw of this one (NumPy spawns its SeedSequence)."""
        seeds = torch.randint(0, 2**62, (operator.index(n_children),), generator=self._gen).tolist()
        return [Generator(_new_generator(s, False, self._device)) for s in seeds]

    def random(self, size=None, dtype=_np.float64, out=None):
        d = _float_dtype(dtype, "random")
        return _into(out, size, _shape(size), d, lambda s: self._uniform01(s, _dtypes.to_torch(d)))

    def standard_normal(self, size=None, dtype=_np.float64, out=None):
        d = _float_dtype(dtype, "standard_normal")
        return _into(out, size, _shape(size), d, lambda s: self._normal01(s, _dtypes.to_torch(d)))

    def standard_exponential(self, size=None, dtype=_np.float64, method="zig", out=None):
        """``method`` is accepted and ignored (one exact sampler)."""
        d = _float_dtype(dtype, "standard_exponential")
        return _into(out, size, _shape(size), d, lambda s: self._exponential01(s).to(_dtypes.to_torch(d)))

    def standard_gamma(self, shape, size=None, dtype=_np.float64, out=None):
        d = _float_dtype(dtype, "standard_gamma")
        shape = _param(shape)
        _nonnegative(shape, "shape")
        s = _shape(size if out is None or size is not None else check_out(out).shape, shape)
        return _into(out, size, s, d, lambda s: self._gamma01(shape, s).to(_dtypes.to_torch(d)))

    def uniform(self, low=0.0, high=1.0, size=None):
        """As the legacy ``uniform``, but ``high < low`` is an error."""
        span = _param(high) - _param(low)
        _raise_if((torch.signbit(span) & ~torch.isnan(span)) if isinstance(span, torch.Tensor) else span < 0,
                  "high - low < 0")
        return super().uniform(low, high, size)

    def integers(self, low, high=None, size=None, dtype=_np.int64, endpoint=False):
        return self._integers(low, high, size, dtype, endpoint, "integers")

    def bytes(self, length):
        t = torch.randint(0, 256, (operator.index(length),), generator=self._g(), dtype=torch.uint8)
        return t.numpy().tobytes()

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """``shuffle=False`` is accepted; samples without replacement come in random order regardless."""
        return self._choice(a, size, replace, p, axis, legacy=False)

    def permutation(self, x, axis=0):
        return self._permutation(x, axis)

    def shuffle(self, x, axis=0):
        return self._shuffle(x, axis)

    def permuted(self, x, *, axis=None, out=None):
        """Shuffle every slice along ``axis`` independently (random sort keys), into a new array or ``out``."""
        t = as_tensor(x)
        if axis is None:
            flat = t.reshape(-1)
            r = flat[torch.randperm(flat.shape[0], generator=self._g(), device=t.device)].reshape(t.shape)
        else:
            axis = normalize_axis_index(axis, t.ndim)
            keys = torch.rand(t.shape, generator=self._g(), device=t.device)
            r = torch.gather(t, axis, torch.argsort(keys, dim=axis))
        if out is None:
            return wrap(r)
        out = check_out(out)
        if out.shape != tuple(t.shape):
            raise ValueError("out must have the same shape as x")
        out.tensor.copy_(r)
        return out

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        return super().multivariate_normal(mean, cov, size, check_valid, tol)

    def _check_alpha(self, a):
        _raise_if((a < 0) | torch.isnan(a), "alpha < 0 or alpha contains a NaN")

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """Counts by sequential conditional hypergeometrics (exact; ``method`` picks NumPy's checks only).
        ``colors`` are read as values: eager only."""
        c = as_tensor(colors)
        bad = "colors must be a one-dimensional sequence of nonnegative integers not exceeding " \
              f"{_np.iinfo(_np.int64).max}."
        if c.ndim != 1 or c.numel() and _dtypes.from_torch(c.dtype).kind not in "iu":
            raise ValueError(bad)
        counts = [builtins.int(v) for v in c.tolist()]
        if any(v < 0 for v in counts):
            raise ValueError(bad)
        try:
            n = operator.index(nsample)
        except TypeError:
            raise ValueError("nsample must be an integer") from None
        if n < 0:
            raise ValueError("nsample must be nonnegative.")
        total = builtins.sum(counts)
        if total > _np.iinfo(_np.int64).max:
            raise ValueError("sum(colors) must not exceed the maximum value of a 64 bit signed integer "
                             f"({_np.iinfo(_np.int64).max})")
        if n > total:
            raise ValueError("nsample > sum(colors)")
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        if method == "marginals" and total >= _HYPERGEOMETRIC_MAX:
            raise ValueError(f'When method is "marginals", sum(colors) must be less than {_HYPERGEOMETRIC_MAX}.')
        batch = tuple(_size(size) or ())
        left = torch.full(batch, n, dtype=torch.int64, device=self._device)
        out = []
        for i, ci in enumerate(counts):
            total -= ci
            x = self._hypergeometric01(ci, total, left, batch) if i < len(counts) - 1 else left
            out.append(x)
            left = left - x
        return wrap(torch.stack(out, -1) if out else torch.zeros(batch + (0,), dtype=torch.int64))


def _float_dtype(dtype, name):
    d = _dtypes.to_dtype(dtype)
    if d not in _FLOATS:
        raise TypeError(f"Unsupported dtype {d!r} for {name}")
    return d


def _into(out, size, shape, d, draw):
    """Draw a ``shape`` sample of dtype ``d`` with ``draw(shape)``, or fill ``out`` (which fixes the shape)."""
    if out is None:
        return wrap(draw(shape))
    out = check_out(out)
    if out.dtype != d:
        raise TypeError(f"Supplied output array has the wrong type. Expected {d}, got {out.dtype}")
    if size is not None and tuple(_size(size)) != out.shape:
        raise ValueError("size must match out.shape when used together")
    out.tensor.copy_(draw(out.shape))
    return out


class _FreshGenerator(Generator):
    """``default_rng()`` (no seed: fresh entropy) made inside compiled code: draws from torch's global generator,
    which the compiled code seeds from the OS's entropy at each call (``npcompile.tracing._seeding``)."""

    def __init__(self):
        self._gen = None


fresh = _FreshGenerator()


def default_rng(seed=None, *, device=None):
    """A ``Generator`` on a ``torch.Generator`` seeded from ``seed`` (int, sequence of ints, None for fresh
    entropy, or a Generator, returned as is).  ``device=`` picks the torch device it draws on."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _np.random.Generator):
        seed = seed.bit_generator
    return Generator(_new_generator(seed, False, device))


globals().update(_unsupported.stand_ins("random"))  # get_bit_generator, set_bit_generator: not modelled

_typed_draws(_Sampler, (
    "uniform", "normal", "exponential", "gamma", "beta", "chisquare", "noncentral_chisquare", "f", "noncentral_f",
    "standard_t", "standard_cauchy", "lognormal", "laplace", "logistic", "gumbel", "rayleigh", "weibull", "pareto",
    "power", "wald", "triangular", "vonmises", "poisson", "binomial", "negative_binomial", "geometric",
    "hypergeometric", "zipf", "logseries"))
_typed_draws(RandomState, ("random_sample", "standard_normal", "standard_exponential", "standard_gamma"))
_typed_draws(Generator, ("random", "standard_normal", "standard_exponential", "standard_gamma"))

# ------------------------------------------------------------------------------ the legacy module functions

_state = _ModuleState()
seed = _state.seed
get_state = _state.get_state
set_state = _state.set_state
random_sample = random = ranf = sample = _state.random_sample
rand, randn, randint, random_integers = _state.rand, _state.randn, _state.randint, _state.random_integers
bytes, choice, permutation, shuffle = _state.bytes, _state.choice, _state.permutation, _state.shuffle
uniform, normal, standard_normal = _state.uniform, _state.normal, _state.standard_normal
exponential, standard_exponential = _state.exponential, _state.standard_exponential
gamma, standard_gamma, beta = _state.gamma, _state.standard_gamma, _state.beta
chisquare, noncentral_chisquare, f, noncentral_f = _state.chisquare, _state.noncentral_chisquare, _state.f, \
    _state.noncentral_f
standard_t, standard_cauchy, lognormal = _state.standard_t, _state.standard_cauchy, _state.lognormal
laplace, logistic, gumbel, rayleigh = _state.laplace, _state.logistic, _state.gumbel, _state.rayleigh
weibull, pareto, power, wald = _state.weibull, _state.pareto, _state.power, _state.wald
triangular, vonmises = _state.triangular, _state.vonmises
poisson, binomial, negative_binomial, geometric = _state.poisson, _state.binomial, _state.negative_binomial, \
    _state.geometric
multinomial, multivariate_normal, dirichlet = _state.multinomial, _state.multivariate_normal, _state.dirichlet
hypergeometric, zipf, logseries = _state.hypergeometric, _state.zipf, _state.logseries
