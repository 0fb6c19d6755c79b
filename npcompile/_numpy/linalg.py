"""``numpy.linalg`` on ``torch.linalg``.

Types follow NumPy's linalg rule (``_linalg_types``): computation in double precision (complex if any input
is), results in single precision only when every input is single; integers count as double; float16 is
refused with NumPy's TypeError.  Errors are NumPy's own ``LinAlgError`` class, and results are NumPy's own
named tuples, so user code catching or unpacking them works unchanged.

Where NumPy's LAPACK call fails on the *values* (a singular matrix, SVD non-convergence) the check needs the
data (``_fail_if``): eagerly it raises at once; traced on the CPU it becomes an assertion in the compiled code,
raised as NumPy's LinAlgError where the graph is called; traced on other devices (where a failed assertion would
kill the device context) the result is torch's (inf/NaN).
"""

from __future__ import annotations

import math
import operator

import numpy as _np
import torch
from numpy.linalg import LinAlgError
from numpy.linalg._linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult

from .._errors import LINALG_TAG, UnsupportedFeature
from ._trace import is_tracing as _tracing
from . import _dtypes
from . import _small_linalg as _small
from . import _ufuncs as U
from ._ndarray import ndarray, view_of, wrap
from ._normalize import ArrayLike, as_tensor, normalize_axis_index, normalize_axis_tuple, normalizer
from ._products import (
    _dot_out, contract, cross as _cross, dot as _dot, outer as _outer, tensordot as _tensordot, trace as _trace,
)

__all__ = ["LinAlgError", "solve", "lstsq", "inv", "pinv", "det", "slogdet", "eig", "eigh", "eigvals", "eigvalsh",
           "svd", "svdvals", "qr", "cholesky", "matrix_power", "matrix_rank", "multi_dot", "tensorinv",
           "tensorsolve", "cond", "norm", "matrix_norm", "vector_norm", "cross", "outer", "vecdot", "matmul",
           "diagonal", "trace", "matrix_transpose", "tensordot"]

_NoValue = _np._NoValue
_SINGLE = (torch.float32, torch.complex64)
_REAL = {torch.complex64: torch.float32, torch.complex128: torch.float64}

# ---------------------------------------------------------------- types and checks


def _linalg_types(*tensors):
    """(computation dtype, result dtype) by NumPy's linalg rule, as torch dtypes."""
    for t in tensors:
        if t.dtype == torch.float16:
            raise TypeError("array type float16 is unsupported in linalg")
    cplx = any(t.is_complex() for t in tensors)
    single = all(t.dtype in _SINGLE for t in tensors)
    if cplx:
        return torch.complex128, torch.complex64 if single else torch.complex128
    return torch.float64, torch.float32 if single else torch.float64


def _prepare(*tensors):
    """The tensors in the computation dtype, and the result dtype."""
    comp, res = _linalg_types(*tensors)
    return [t.to(comp) for t in tensors], res


def _real(td):
    return _REAL.get(td, td)


def _stacked_2d(*tensors):
    for t in tensors:
        if t.ndim < 2:
            raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be at least two-dimensional")


def _stacked_square(*tensors):
    _stacked_2d(*tensors)
    for t in tensors:
        if t.shape[-1] != t.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def _two_d(*tensors):
    for t in tensors:
        if t.ndim != 2:
            raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be two-dimensional")


def _fail_if(bad: torch.Tensor, message: str):
    """Raise LinAlgError where NumPy's LAPACK call reports failure on these values (see the module docstring)."""
    if not _tracing(bad):
        if bool(bad.any()):
            raise LinAlgError(message)
    elif bad.device.type == "cpu":
        torch._assert_async(~bad.any(), LINALG_TAG + message)


def _values_decide(t, what):
    """Data-dependent results (a dtype or shape chosen by the values) cannot be traced: fall back to NumPy."""
    if _tracing(t):
        raise UnsupportedFeature(f"{what} under tracing (NumPy chooses the result's dtype or shape by its values)")


# ---------------------------------------------------------------- solving and inverting


@normalizer
def solve(a: ArrayLike, b: ArrayLike):
    """``numpy.linalg.solve``: ``b`` is a stack of vectors only when 1-D (NumPy 2), else of matrices."""
    _stacked_square(a)
    (a, b), rt = _prepare(a, b)
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    if b.ndim < 2:
        raise ValueError(f"solve: Input operand 1 does not have enough dimensions (has {b.ndim}, gufunc core with "
                         "signature (m,m),(m,n)->(m,n) requires 2)")
    if b.shape[-2] != a.shape[-1]:
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        raise ValueError(f"solve{'1' if vector else ''}: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature {sig} (size {b.shape[-2]} is different from {a.shape[-1]})")
    batch = _broadcast_batch(a, b)
    if _small.applies(a, b.shape[-1]):
        x, singular = _small.solve(a, b)
    else:
        x, info = torch.linalg.solve_ex(a.expand(batch + a.shape[-2:]), b.expand(batch + b.shape[-2:]))
        singular = info != 0
    _fail_if(singular, "Singular matrix")
    return (x[..., 0] if vector else x).to(rt)


def _broadcast_batch(*tensors):
    try:
        return torch.broadcast_shapes(*(t.shape[:-2] for t in tensors))
    except RuntimeError:
        raise ValueError("operands could not be broadcast together with shapes "
                         + " ".join(str(tuple(t.shape)).replace(" ", "") for t in tensors)) from None


@normalizer
def lstsq(a: ArrayLike, b: ArrayLike, rcond=None):
    """``numpy.linalg.lstsq`` by SVD, like LAPACK's gelsd: the minimum-norm solution over the singular values
    above ``rcond * s[0]``; returns (x, residuals, rank, s).  Overdetermined systems (m > n) cannot be traced:
    NumPy gives residuals only at full rank, so their shape is a value, and the call cannot know whether the
    caller discards them (it graph-breaks there; ``polyfit``, which needs no residuals, traces)."""
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    _two_d(a, b)
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    (a, b), rt = _prepare(a, b)
    if rcond is None or rcond < 0:
        rcond = _np.finfo(_np.float64).eps * (max(m, n) if rcond is None else 1)
    failure = "SVD did not converge in Linear Least Squares"
    _fail_if(~torch.isfinite(a), failure)  # LAPACK's gelsd refuses infinities too (gesdd, in ``_svd``, does not)
    u, s, vh = _svd(a, False, failure)
    large = s > rcond * s[:1]
    rank = large.sum(dtype=torch.int32)
    x = vh.mH @ (torch.where(large, 1 / s, 0)[:, None] * (u.mH @ b))
    if m > n:
        _values_decide(rank, "lstsq residuals")
    if m > n and int(rank) == n:  # data-dependent (NumPy gives residuals only at full rank)
        resid = (b - a @ x).abs().square().sum(0)
    else:
        resid = b.new_empty(0, dtype=_real(b.dtype))
    return (x[:, 0] if vector else x).to(rt), resid.to(_real(rt)), rank, s.to(_real(rt))


@normalizer
def inv(a: ArrayLike):
    _stacked_square(a)
    (a,), rt = _prepare(a)
    if _small.applies(a):
        r, singular = _small.inv(a)
    else:
        r, info = torch.linalg.inv_ex(a)
        singular = info != 0
    _fail_if(singular, "Singular matrix")
    return r.to(rt)


def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    """``numpy.linalg.pinv``: by SVD, dropping singular values at or below ``rcond * max(s)`` (default 1e-15;
    ``rtol=None``: ``max(M, N) * eps``).  Empty input gives an empty result of the input's dtype, as NumPy."""
    t = as_tensor(a)
    if rcond is None:
        rcond = 1e-15 if rtol is _NoValue else \
            max(t.shape[-2:]) * _np.finfo(_dtypes.from_torch(t.dtype)).eps if rtol is None else rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    _stacked_2d(t)
    if t.numel() == 0 and math.prod(t.shape[-2:]) == 0:
        return wrap(t.new_empty(t.shape[:-2] + (t.shape[-1], t.shape[-2])))
    (t,), rt = _prepare(t)
    u, s, vh = _svd(t, False, hermitian=hermitian)
    cutoff = as_tensor(rcond).to(s.device)[..., None] * s.amax(-1, keepdim=True)
    s_inv = torch.where(s > cutoff, 1 / s, 0).to(t.dtype)
    return wrap((vh.mH @ (s_inv[..., None] * u.mH)).to(rt))


@normalizer
def det(a: ArrayLike):
    _stacked_square(a)
    (a,), rt = _prepare(a)
    return (_small.det(a) if _small.applies(a) else torch.linalg.det(a)).to(rt)


@normalizer
def slogdet(a: ArrayLike):
    """``numpy.linalg.slogdet``: (sign, log|det|); sign is complex for complex input."""
    _stacked_square(a)
    (a,), rt = _prepare(a)
    if a.is_complex():
        sign, logabsdet = torch.linalg.slogdet(a)
    elif _small.applies(a):
        sign, logabsdet = _small.slogdet(a)
    else:  # NumPy's sign: the LU pivots' signs, a NaN one counting as +1 (torch's sign of NaN is 0), and the rows'
        lu, piv = torch.linalg.lu_factor_ex(a)[:2]  # permutation's parity
        d = lu.diagonal(dim1=-2, dim2=-1)
        swaps = (piv != torch.arange(1, d.shape[-1] + 1, dtype=piv.dtype, device=piv.device)).sum(-1)
        sign = torch.where(d < 0, -1.0, 1.0).prod(-1) * (1 - 2 * (swaps % 2))
        sign = torch.where((d == 0).any(-1), 0.0, sign).to(a.dtype)
        logabsdet = torch.log(d.abs()).sum(-1)
    return SlogdetResult(sign.to(rt), logabsdet.to(_real(rt)))


# ---------------------------------------------------------------- decompositions


def _eig_dtype(a, w, rt):
    """NumPy's eig of a real matrix is real when every eigenvalue is (data-dependent), else complex."""
    if a.is_complex():
        return rt, True
    _values_decide(a, "eig of a real matrix")
    if bool((w.imag == 0).all()):
        return rt, False
    return {torch.float32: torch.complex64, torch.float64: torch.complex128}[rt], True


def _eig(a, vectors):
    _stacked_square(a)
    _fail_if(~torch.isfinite(a), "Array must not contain infs or NaNs")
    (a,), rt = _prepare(a)
    w, v = torch.linalg.eig(a) if vectors else (torch.linalg.eigvals(a), None)
    rt, cplx = _eig_dtype(a, w, rt)
    if not cplx:
        w, v = w.real, (v.real if vectors else None)
    return w.to(rt), (v.to(rt) if vectors else None)


@normalizer
def eig(a: ArrayLike):
    return EigResult(*_eig(a, True))


@normalizer
def eigvals(a: ArrayLike):
    return _eig(a, False)[0]


def _uplo(UPLO):
    u = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return u


@normalizer
def eigh(a: ArrayLike, UPLO="L"):
    """``numpy.linalg.eigh``: ascending real eigenvalues and eigenvectors, reading the ``UPLO`` triangle."""
    uplo = _uplo(UPLO)
    _stacked_square(a)
    (a,), rt = _prepare(a)
    w, v = _eigh(a, uplo, True)
    return EighResult(w.to(_real(rt)), v.to(rt))


@normalizer
def eigvalsh(a: ArrayLike, UPLO="L"):
    uplo = _uplo(UPLO)
    _stacked_square(a)
    (a,), rt = _prepare(a)
    return _eigh(a, uplo, False).to(_real(rt))


def _eigh(a, uplo="L", vectors=True):
    """torch's eigh/eigvalsh, its failure (NaN or infinite input) raised as NumPy's LinAlgError."""
    try:
        return torch.linalg.eigh(a, UPLO=uplo) if vectors else torch.linalg.eigvalsh(a, UPLO=uplo)
    except torch.linalg.LinAlgError:
        raise LinAlgError("Eigenvalues did not converge") from None


def _svd(a, full_matrices, failure="SVD did not converge", hermitian=False):
    """(u, s, vh) in the computation dtype; ``hermitian`` as NumPy: from eigh, by descending |eigenvalue|.
    A matrix with NaNs raises (LAPACK's gesdd refuses it); one with infinities gets NaN factors
    (``_nan_where_infinite``)."""
    if hermitian:
        _stacked_square(a)
        w, u = _eigh(a)
        order = w.abs().argsort(-1, descending=True)
        w, u = w.gather(-1, order), u.gather(-1, order[..., None, :].expand(u.shape))
        return u, w.abs(), (u * torch.sgn(w).to(u.dtype)[..., None, :]).mH
    _fail_if(torch.isnan(a), failure)
    try:
        u, s, vh = torch.linalg.svd(_zero_non_finite(a), full_matrices=full_matrices)
    except torch.linalg.LinAlgError:
        raise LinAlgError(failure) from None
    return _nan_where_infinite(a, u, s, vh)


def _zero_non_finite(a):
    """``a`` with NaNs and infinities zeroed, for torch's SVD: it raises its own error on them, also in compiled code
    (where the traced check, ``_fail_if``, cannot come first)."""
    return torch.where(torch.isfinite(a), a, 0)


def _nan_where_infinite(a, *results):
    """The SVD results, NaN for each matrix of ``a`` holding infinities.  LAPACK scales such a matrix by its
    infinite norm, which leaves NaNs and zeros: its singular values are all NaN, and its U and Vh LAPACK's
    accident (NaN, partly NaN, a LinAlgError or an endless loop by size and values); npcompile makes them NaN
    (README, deviations)."""
    inf = torch.isinf(a).flatten(-2).any(-1)
    return tuple(torch.where(inf.reshape(inf.shape + (1,) * (r.ndim - inf.ndim)),
                             complex(math.nan, math.nan) if r.is_complex() else math.nan, r) for r in results)


def _singular_values(a, hermitian=False):
    """Singular values, descending (NaN for a matrix with infinities, ``_nan_where_infinite``)."""
    if hermitian:
        _stacked_square(a)
        return _eigh(a, vectors=False).abs().sort(-1, descending=True).values
    _fail_if(torch.isnan(a), "SVD did not converge")
    try:
        s = torch.linalg.svdvals(_zero_non_finite(a))
    except torch.linalg.LinAlgError:
        raise LinAlgError("SVD did not converge") from None
    return _nan_where_infinite(a, s)[0]


@normalizer
def svd(a: ArrayLike, full_matrices=True, compute_uv=True, hermitian=False):
    """``numpy.linalg.svd``: SVDResult(U, S, Vh), or S alone without ``compute_uv``."""
    _stacked_2d(a)
    (a,), rt = _prepare(a)
    if not compute_uv:
        return _singular_values(a, hermitian).to(_real(rt))
    u, s, vh = _svd(a, full_matrices, hermitian=hermitian)
    return SVDResult(u.to(rt), s.to(_real(rt)), vh.to(rt))


@normalizer
def svdvals(x: ArrayLike, /):
    _stacked_2d(x)
    (x,), rt = _prepare(x)
    return _singular_values(x).to(_real(rt))


_QR_DEPRECATED = {"f": "reduced", "full": "reduced", "e": "economic", "economic": "economic"}


def _qr_mode(mode):
    if mode in ("reduced", "complete", "r", "raw"):
        return mode
    if mode not in _QR_DEPRECATED:
        raise ValueError(f"Unrecognized mode '{mode}'")
    import warnings

    warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor backward compatibility let mode "
                  "default." if _QR_DEPRECATED[mode] == "reduced" else "The 'economic' option is deprecated.",
                  DeprecationWarning, stacklevel=3)
    return _QR_DEPRECATED[mode]


@normalizer
def qr(a: ArrayLike, mode="reduced"):
    """``numpy.linalg.qr``: QRResult(Q, R) ('reduced', 'complete'), R ('r'), or LAPACK's Householder form
    ('raw': (h, tau) with h transposed as NumPy returns it; deprecated 'economic': h untransposed)."""
    mode = _qr_mode(mode)
    _stacked_2d(a)
    (a,), rt = _prepare(a)
    if mode in ("raw", "economic"):
        h, tau = torch.geqrf(a)
        return h.to(rt) if mode == "economic" else (h.mT.to(rt), tau.to(rt))
    q, r = torch.linalg.qr(a, mode=mode)
    return r.to(rt) if mode == "r" else QRResult(q.to(rt), r.to(rt))


@normalizer
def cholesky(a: ArrayLike, /, *, upper=False):
    """``numpy.linalg.cholesky``: L (or U = L^H with ``upper``), reading that triangle of ``a``."""
    _stacked_square(a)
    (a,), rt = _prepare(a)
    r, info = torch.linalg.cholesky_ex(a, upper=upper)
    failed = info != 0
    if not _tracing(failed) and bool(failed.any()):  # torch's LAPACK stops at a NaN pivot, NumPy's goes on
        low, bad = _cholesky_columns(a.mT if upper else a)  # (a.mT's factor is L's conjugate: U = its .mT)
        r = torch.where(failed[..., None, None], low.mT if upper else low, r)
        failed = failed & bad
    _fail_if(failed, "Matrix is not positive definite")
    return r.to(rt)


def _cholesky_columns(a):
    """Lower Cholesky factors of the lower triangles of ``a`` (..., n, n), column by column, and which of them
    fail, as NumPy's LAPACK computes them: only a pivot <= 0 fails; a NaN one goes on, spreading NaN."""
    low = torch.zeros_like(a)
    bad = torch.zeros(a.shape[:-2], dtype=torch.bool, device=a.device)
    for j in range(a.shape[-1]):
        row = low[..., j, :j]
        d = a[..., j, j].real - (row * row.conj()).real.sum(-1)
        bad |= d <= 0
        low[..., j, j] = torch.sqrt(d)
        low[..., j + 1:, j] = (a[..., j + 1:, j] - (low[..., j + 1:, :j] @ row.conj()[..., None])[..., 0]) / \
            low[..., j, j, None]
    return low, bad


# ---------------------------------------------------------------- powers, ranks, chains, tensors


def matrix_power(a, n):
    """``numpy.linalg.matrix_power`` by repeated squaring with the matmul ufunc (exact for integers; the
    input dtype is kept, except that negative powers go through ``inv``)."""
    t = as_tensor(a)
    _stacked_square(t)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    if n == 0:
        eye = torch.eye(t.shape[-1], dtype=torch.bool, device=t.device)  # (torch has no eye for wide uints)
        return wrap(eye.to(t.dtype).expand(t.shape).clone())
    if n == 1 and isinstance(a, ndarray):
        return a  # NumPy returns its input itself
    x, n = (inv(t), -n) if n < 0 else (wrap(t), n)
    result = None
    while True:
        if n & 1:
            result = x if result is None else U.matmul(result, x)
        n >>= 1
        if not n:
            return result
        x = U.matmul(x, x)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """``numpy.linalg.matrix_rank``: singular values above ``tol`` (default ``max(s) * max(M, N) * eps``).
    Below 2-D NumPy returns a Python int (1 unless all zero): data-dependent, so eager only."""
    t = as_tensor(A)
    if t.ndim < 2:
        _values_decide(t, "matrix_rank of a vector")
        return int(bool((t != 0).any()))  # data-dependent: NumPy returns a Python int
    if tol is not None and rtol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    (x,), rt = _prepare(t)
    s = _singular_values(x, hermitian).to(_real(rt))
    if tol is None:
        if rtol is None:
            rtol = max(t.shape[-2:]) * _np.finfo(_dtypes.from_torch(s.dtype)).eps
        else:
            rtol = as_tensor(rtol)[..., None]
        tol = s[..., :1] * rtol  # s is descending: its first value is the largest (none: no rank)
    else:
        tol = as_tensor(tol)[..., None]
    return wrap((s > tol).sum(-1))


def _matmul(x, y):
    """Matrix product of 2-D tensors (exact for every dtype)."""
    return contract([x, y], [[0, 1], [1, 2]], [0, 2], _dtypes.result_type(x, y))


def multi_dot(arrays, *, out=None):
    """``numpy.linalg.multi_dot``: the chain product in the cheapest order; the first and last array may be
    1-D (a row and a column vector)."""
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(arrays) == 2:
        return _dot(arrays[0], arrays[1], out=out)  # as NumPy: any shapes dot accepts
    ts = [as_tensor(x) for x in arrays]
    first, last = ts[0].ndim == 1, ts[-1].ndim == 1
    ts[0] = ts[0][None, :] if first else ts[0]
    ts[-1] = ts[-1][:, None] if last else ts[-1]
    _two_d(*ts)
    for x, y in zip(ts, ts[1:]):
        if x.shape[1] != y.shape[0]:
            raise ValueError(f"shapes {_shape(x)} and {_shape(y)} not aligned: {x.shape[1]} (dim 1) != "
                             f"{y.shape[0]} (dim 0)")
    r = _chain(ts, _chain_splits(ts), 0, len(ts) - 1)
    r = r[0] if first else r
    r = r[..., 0] if last else r
    return wrap(r) if out is None else _dot_out(r, out)


def _shape(t):
    return str(tuple(t.shape)).replace(" ", "")


def _chain_splits(ts):
    """The classic dynamic programme: split[i][j] is where the cheapest product of ts[i..j] splits."""
    dims = [t.shape[0] for t in ts] + [ts[-1].shape[1]]
    n = len(ts)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j], split[i][j] = min((cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1], k)
                                          for k in range(i, j))
    return split


def _chain(ts, split, i, j):
    if i == j:
        return ts[i]
    k = split[i][j]
    return _matmul(_chain(ts, split, i, k), _chain(ts, split, k + 1, j))


@normalizer
def tensorinv(a: ArrayLike, ind=2):
    """``numpy.linalg.tensorinv``: the inverse of ``a`` seen as a matrix (first ``ind`` dims by the rest)."""
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    shape = tuple(a.shape)
    rows = math.prod(shape[ind:])
    if a.numel() == 0 and rows == 0:
        raise ValueError(f"cannot reshape array of size 0 into shape ({rows},newaxis)")
    r = inv(a.reshape(rows, -1)).tensor
    return r.reshape(shape[ind:] + shape[:ind])


@normalizer
def tensorsolve(a: ArrayLike, b: ArrayLike, axes=None):
    """``numpy.linalg.tensorsolve``: x with ``tensordot(a, x, x.ndim) == b``; ``axes`` move to the end first."""
    if axes is not None:
        moved = normalize_axis_tuple(axes, a.ndim, allow_duplicate=False)
        a = a.permute([i for i in range(a.ndim) if i not in moved] + list(moved))
    shape = tuple(a.shape[b.ndim:])
    n = math.prod(shape)
    if a.numel() != n * n:
        raise LinAlgError("Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == "
                          "prod(a.shape[:b.ndim])")
    return solve(a.reshape(n, n), b.reshape(-1)).tensor.reshape(shape)


# ---------------------------------------------------------------- norms and condition numbers


def _sum_sq(x, dims, keepdim):
    """The sum of ``|x|**2`` over ``dims``, in x's real dtype (NumPy's ``(x.conj() * x).real``)."""
    sq = x.real.square() + x.imag.square() if x.is_complex() else x.square()
    return sq.sum(dims, keepdim=keepdim)


def _max_or_min(a, dim, keepdim, largest):
    """max/min of ``a >= 0`` along ``dim``: NumPy's max has initial=0 here (empty gives 0), its min has none."""
    if a.shape[dim] == 0:
        if not largest:
            raise ValueError("zero-size array to reduction operation minimum which has no identity")
        return a.sum(dim, keepdim=keepdim)
    return a.amax(dim, keepdim=keepdim) if largest else a.amin(dim, keepdim=keepdim)


def _vector_norm(x, ord, dim, keepdim):
    a = x.abs()
    if ord == math.inf or ord == -math.inf:
        return _max_or_min(a, dim, keepdim, ord > 0)
    if ord == 0:
        return (x != 0).to(a.dtype).sum(dim, keepdim=keepdim)
    if ord == 1:
        return a.sum(dim, keepdim=keepdim)
    if ord is None or ord == 2:
        return _sum_sq(x, dim, keepdim).sqrt()
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return a.pow(ord).sum(dim, keepdim=keepdim).pow(1 / ord)


def _matrix_norm(x, ord, row, col):
    """The matrix norm over dims ``row``, ``col``, both kept (size 1)."""
    if ord in (2, -2, "nuc"):
        (y,), rt = _prepare(x)
        s = _singular_values(torch.movedim(y, (row, col), (-2, -1))).to(_real(rt))
        s = s.sum(-1) if ord == "nuc" else _max_or_min(s, -1, False, ord == 2)
        return s.reshape([1 if i in (row, col) else n for i, n in enumerate(x.shape)])
    a = x.abs()
    if ord in (1, -1):
        return _max_or_min(a.sum(row, keepdim=True), col, True, ord == 1)
    if ord in (math.inf, -math.inf):
        return _max_or_min(a.sum(col, keepdim=True), row, True, ord > 0)
    if ord in (None, "fro", "f"):
        return _sum_sq(x, (row, col), True).sqrt()
    raise ValueError("Invalid norm order for matrices.")


def _norm(x, ord, axis, keepdims):
    """``numpy.linalg.norm`` on an inexact tensor."""
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            r = _sum_sq(x.reshape(-1), 0, False).sqrt()
            return r.reshape([1] * nd) if keepdims else r
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from None
    if len(axis) == 1:
        return _vector_norm(x, ord, normalize_axis_index(axis[0], nd), keepdims)
    if len(axis) == 2:
        row, col = normalize_axis_index(axis[0], nd), normalize_axis_index(axis[1], nd)
        if row == col:
            raise ValueError("Duplicate axes given.")
        r = _matrix_norm(x, ord, row, col)
        return r if keepdims else r.squeeze((row, col))
    raise ValueError("Improper number of dimensions to norm.")


def _inexact(t):
    return t if t.is_floating_point() or t.is_complex() else t.to(torch.float64)


@normalizer
def norm(x: ArrayLike, ord=None, axis=None, keepdims=False):
    """``numpy.linalg.norm``: vector norms over one axis, matrix norms over two; integers as float64, other
    dtypes kept (float16 too, except for the SVD-based orders 2, -2 and 'nuc')."""
    return _norm(_inexact(x), ord, axis, keepdims)


@normalizer
def vector_norm(x: ArrayLike, /, *, axis=None, keepdims=False, ord=2):
    """``numpy.linalg.vector_norm``: over all of ``axis`` at once (flattened together)."""
    shape = list(x.shape)
    x = _inexact(x)
    if axis is None:
        r = _norm(x.reshape(-1), ord, 0, False)
        kept = range(len(shape))
    elif isinstance(axis, tuple):
        kept = normalize_axis_tuple(axis, x.ndim)
        rest = [i for i in range(x.ndim) if i not in kept]
        x = x.permute(list(kept) + rest).reshape([math.prod(shape[i] for i in kept)] + [shape[i] for i in rest])
        r = _norm(x, ord, 0, False)
    else:
        kept = (normalize_axis_index(axis, x.ndim),)
        r = _norm(x, ord, axis, False)
    return r.reshape([1 if i in kept else n for i, n in enumerate(shape)]) if keepdims else r


@normalizer
def matrix_norm(x: ArrayLike, /, *, keepdims=False, ord="fro"):
    return _norm(_inexact(x), ord, (-2, -1), keepdims)


@normalizer
def cond(x: ArrayLike, p=None):
    """``numpy.linalg.cond``: by singular values (p None, 2, -2) or as ``norm(x, p) * norm(inv(x), p)``;
    singular matrices give inf (NaN only where ``x`` has NaNs)."""
    if x.numel() == 0 and math.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p == 2 or p == -2:
        _stacked_2d(x)
        (y,), rt = _prepare(x)
        s = _singular_values(y).to(_real(rt))
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        _stacked_square(x)
        (y,), rt = _prepare(x)
        inverse, info = torch.linalg.inv_ex(y)
        inverse = torch.where((info != 0)[..., None, None], math.nan, inverse)
        r = (_norm(y, p, (-2, -1), False) * _norm(inverse, p, (-2, -1), False)).to(_real(rt))
    return torch.where(r.isnan() & ~x.isnan().flatten(-2).any(-1), math.inf, r)


# ---------------------------------------------------------------- the array API's linalg names


def cross(x1, x2, /, *, axis=-1):
    """``numpy.linalg.cross``: ``numpy.cross`` of 3-vectors only."""
    a, b = as_tensor(x1), as_tensor(x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{a.shape[axis]} and {b.shape[axis]} dimensional instead.")
    return _cross(wrap(a), wrap(b), axis=axis)


def outer(x1, x2, /):
    """``numpy.linalg.outer``: ``numpy.outer`` of 1-D arrays only."""
    a, b = as_tensor(x1), as_tensor(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={a.ndim} and "
                         f"x2.ndim={b.ndim}.")
    return _outer(wrap(a), wrap(b))


def vecdot(x1, x2, /, *, axis=-1):
    """``numpy.linalg.vecdot``: the vecdot ufunc with each operand's ``axis`` as its vector axis."""
    a, b = as_tensor(x1), as_tensor(x2)
    a = torch.movedim(a, normalize_axis_index(axis, a.ndim), -1)
    b = torch.movedim(b, normalize_axis_index(axis, b.ndim), -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n),(n)->() (size {b.shape[-1]} is different from {a.shape[-1]})")
    return U.vecdot(wrap(a), wrap(b))


def matmul(x1, x2, /):
    return U.matmul(x1, x2)


def diagonal(x, /, *, offset=0):
    from . import diagonal as np_diagonal  # the package's numpy.diagonal (a view)

    return np_diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    return _trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def matrix_transpose(x, /):
    """``numpy.linalg.matrix_transpose``: swap the last two axes (a view)."""
    t = as_tensor(x)
    if t.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return view_of(x, t.mT) if isinstance(x, ndarray) else wrap(t.mT)


def tensordot(x1, x2, /, *, axes=2):
    return _tensordot(x1, x2, axes)
