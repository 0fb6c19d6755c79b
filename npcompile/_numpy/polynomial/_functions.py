"""The functions of a ``numpy.polynomial`` basis module (``chebval``, ``legfit``, ...), made once per basis
from its table (``_basis.Basis``): ``functions(basis)`` returns them by NumPy's names.

All work on torch tensors (so they trace); lengths that NumPy makes data-dependent (trimming trailing zeros
after arithmetic) are data-dependent here too.
"""

from __future__ import annotations

import builtins
import operator
import warnings

import numpy as _np
import torch

from .. import _dtypes
from .._ndarray import ndarray, wrap
from .._normalize import as_tensor, normalize_axis_index
from .._trace import is_tracing
from .._polynomial import _eigvals, _lstsq, _sort_complex, check_fit_data, fit_rcond, fit_rcond_out
from .polyutils import series, tensor, trimcoef, trimmed

def _inexact(t: torch.Tensor) -> torch.Tensor:
    """``c + 0.0`` for integer and boolean coefficients: float64."""
    return t if t.is_floating_point() or t.is_complex() else t.to(torch.float64)


def _as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{desc} must be an integer, received {x}") from None


def _coef_1d(c) -> torch.Tensor:
    ct = _inexact(tensor(c))
    return ct.reshape(1) if ct.ndim == 0 else ct


def _sorted(r: torch.Tensor) -> torch.Tensor:
    return _sort_complex(r) if r.is_complex() else torch.sort(r).values


def _tridiagonal(sub, diag, sup) -> torch.Tensor:
    def band(v, k):
        return torch.diag(torch.tensor(v, dtype=torch.float64), k)

    return band(diag, 0) + band(sub, -1) + band(sup, 1)


def _named(prefix, fns):
    out = {}
    for suffix, fn in fns.items():
        name = suffix.replace("*", prefix) if "*" in suffix else prefix + suffix
        fn.__name__ = fn.__qualname__ = name
        out[name] = fn
    return out


def functions(basis, mul=None, divide=None, power=None):
    """NumPy's functions of ``basis``.  Where NumPy rounds in a basis' own way, hooks on tensors of coefficients
    replace the generic arithmetic: ``mul`` (the product), ``divide`` (quotient and untrimmed remainder, the
    divisor of two or more coefficients) and ``power`` (``n >= 2`` copies multiplied, untrimmed as NumPy leaves
    it).  The power basis convolves and divides synthetically; the Chebyshev basis works on z-series."""
    B = basis

    def line(off, scl):
        """The series ``off + scl*x`` (just ``[off]`` for ``scl == 0``: while tracing, a traced ``scl`` counts
        as nonzero)."""
        traced = isinstance(scl, ndarray) and is_tracing(scl.tensor)
        return wrap(as_tensor(B.line_coefs(off, scl) if traced or scl != 0 else [off]))

    # ------------------------------------------------------------ evaluation (Clenshaw's recurrence)
    def _step(k, xb1, b1, b2):
        """``alpha_k(x) b1 + beta_{k+1} b2`` of Clenshaw's recurrence, ``xb1`` being ``x * b1``:
        ``((p_k + q_k x) b1) / d_k - (r_{k+1} / d_{k+1}) b2`` (no b2: None)."""
        p, q, _, d = B.rec(k)
        t = xb1 * q if q != 1 else xb1
        if p:
            t = t + b1 * p
        if d != 1:
            t = t / d
        if b2 is not None:
            _, _, r1, d1 = B.rec(k + 1)
            if r1:
                t = t - (b2 * r1 / d1 if d1 != 1 else b2 * r1)
        return t

    def val(x, c, tensor=True):
        """The series at ``x`` by Clenshaw's recurrence; with ``tensor`` each coefficient column gets x's shape.
        ``x`` may be an array, a scalar or a series object (conversions evaluate at one)."""
        ct = _coef_1d(c)
        if isinstance(x, (tuple, list)):
            x = wrap(as_tensor(x))
        if isinstance(x, ndarray) and tensor:
            ct = ct.reshape(tuple(ct.shape) + (1,) * x.ndim)
        n = ct.shape[0]
        b1 = wrap(ct[-1]) + x * 0
        b2 = None
        for k in range(n - 2, -1, -1):
            b1, b2 = wrap(ct[k]) + _step(k, b1 * x, b1, b2), b1
        return b1

    def _valnd(c, points):
        """The n-D series at the points: the first coordinate evaluates like ``val``, the others pointwise."""
        arrays = [a if isinstance(a, ndarray) else wrap(as_tensor(a)) for a in points]
        if any(a.shape != arrays[0].shape for a in arrays[1:]):
            raise ValueError(f"{'x, y' if len(arrays) == 2 else 'x, y, z'} are incompatible")
        out = val(arrays[0], c)
        for a in arrays[1:]:
            out = val(a, out, tensor=False)
        return out

    def val2d(x, y, c):
        """The 2-D series at the points ``(x, y)``."""
        return _valnd(c, (x, y))

    def val3d(x, y, z, c):
        """The 3-D series at the points ``(x, y, z)``."""
        return _valnd(c, (x, y, z))

    def grid2d(x, y, c):
        """The 2-D series on the Cartesian product of ``x`` and ``y``."""
        for a in (x, y):
            c = val(a, c)
        return c

    def grid3d(x, y, z, c):
        """The 3-D series on the Cartesian product of ``x``, ``y`` and ``z``."""
        for a in (x, y, z):
            c = val(a, c)
        return c

    # ------------------------------------------------------------ Vandermonde matrices and fitting
    def vander(x, deg):
        """The pseudo-Vandermonde matrix ``V[..., i] = P_i(x)`` for i up to ``deg``."""
        ideg = _as_int(deg, "deg")
        if ideg < 0:
            raise ValueError("deg must be non-negative")
        xt = _coef_1d(x)
        cols = [torch.ones_like(xt)]
        for k in range(ideg):
            p, q, r, d = B.rec(k)
            v = cols[-1] * (xt * q if q != 1 else xt)
            if p:
                v = v + cols[-1] * p
            if r and k:
                v = v - cols[-2] * r
            cols.append(v / d if d != 1 else v)
        return wrap(torch.stack(cols, dim=-1))

    def _vander_nd(points, degrees):
        n = len(degrees)
        if len(points) != n:
            raise ValueError(f"Expected {n} dimensions of sample points, got {len(points)}")
        pts = [tensor(p) for p in points]
        if any(p.shape != pts[0].shape for p in pts[1:]):
            raise ValueError("setting an array element with a sequence. The requested array has an inhomogeneous "
                             "shape after 1 dimensions.")
        dt = _dtypes.to_torch(_dtypes.result_type(*pts, 0.0))
        out = None
        for i, (p, dg) in enumerate(zip(pts, degrees)):
            v = vander(wrap(p.to(dt)), dg).tensor
            v = v.reshape(tuple(v.shape[:-1]) + (1,) * i + (v.shape[-1],) + (1,) * (n - 1 - i))
            out = v if out is None else out * v
        return wrap(out.reshape(tuple(out.shape[:-n]) + (-1,)))

    def vander2d(x, y, deg):
        """The 2-D pseudo-Vandermonde matrix of degrees ``deg = [xdeg, ydeg]``."""
        if len(deg) != 2:
            raise ValueError(f"Expected 2 dimensions of degrees, got {len(deg)}")
        return _vander_nd((x, y), deg)

    def vander3d(x, y, z, deg):
        """The 3-D pseudo-Vandermonde matrix of degrees ``deg = [xdeg, ydeg, zdeg]``."""
        if len(deg) != 3:
            raise ValueError(f"Expected 3 dimensions of degrees, got {len(deg)}")
        return _vander_nd((x, y, z), deg)

    def fit(x, y, deg, rcond=None, full=False, w=None):
        """Least-squares fit of the series; ``deg`` may list the degrees to include.  While tracing, the
        RankWarning for a rank-deficient fit is not given (the rank is a value)."""
        xt, yt = _inexact(tensor(x)), _inexact(tensor(y))
        dg = _np.asarray(deg)
        if dg.ndim > 1 or dg.dtype.kind not in "iu" or dg.size == 0:
            raise TypeError("deg must be an int or non-empty 1-D array of int")
        if dg.min() < 0:
            raise ValueError("expected deg >= 0")
        check_fit_data(xt, yt)
        lmax = builtins.int(dg.max())
        van = vander(wrap(xt), lmax).tensor
        if dg.ndim:
            degs = _np.sort(dg)
            van = van[:, torch.as_tensor(degs)]
            order = len(degs)
        else:
            order = lmax + 1
        dt = _dtypes.to_torch(_dtypes.result_type(van, yt))
        lhs, rhs = van.to(dt), yt.to(dt)
        if w is not None:
            wt = _inexact(tensor(w))
            if wt.ndim != 1:
                raise TypeError("expected 1D vector for w")
            if wt.shape[0] != xt.shape[0]:
                raise TypeError("expected x and w to have same length")
            lhs = lhs * wt[:, None]
            rhs = rhs * (wt[:, None] if rhs.ndim == 2 else wt)
        rc = fit_rcond(rcond, xt)
        scl = torch.sqrt((lhs.abs() ** 2).sum(0))
        scl = torch.where(scl == 0, torch.ones_like(scl), scl)
        c, resids, rank, s = _lstsq(lhs / scl, rhs, rc, full)
        c = c / (scl if c.ndim == 1 else scl[:, None])
        if dg.ndim:
            cc = torch.zeros((lmax + 1,) + tuple(c.shape[1:]), dtype=c.dtype)
            cc[torch.as_tensor(degs)] = c
            c = cc
        if rank is not None and rank != order and not full:
            warnings.warn("The fit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
        if full:
            rank = wrap(torch.tensor(rank, dtype=torch.int32))
            return wrap(c), [wrap(resids), rank, wrap(s), fit_rcond_out(rcond, rc, xt)]
        return wrap(c)

    # ------------------------------------------------------------ arithmetic
    def _padded(op, c1, c2):
        a, b = series([c1, c2])
        n = builtins.max(a.shape[0], b.shape[0])
        a, b = (torch.cat([x, x.new_zeros(n - x.shape[0])]) for x in (a, b))
        return wrap(trimmed(op(a, b)))

    def add(c1, c2):
        """Sum of two series."""
        return _padded(torch.add, c1, c2)

    def sub(c1, c2):
        """Difference of two series."""
        return _padded(torch.sub, c1, c2)

    def _mulx(v: torch.Tensor, coefs) -> torch.Tensor:
        """x * v for a series ``v`` whose last coefficient is zero (its length is kept)."""
        a, b, c = (t[:v.shape[0]] for t in coefs)
        out = b * v
        out = out + torch.cat([v.new_zeros(1), (a * v)[:-1]])
        return out + torch.cat([(c * v)[1:], v.new_zeros(1)])

    def mulx(c):
        """Multiply a series by x."""
        [a] = series([c])
        if a.shape[0] == 1 and builtins.bool(a[0] == 0):
            return wrap(a)
        v = torch.cat([a, a.new_zeros(1)])
        return wrap(_mulx(v, B.mulx_tensors(v.shape[0], v.dtype)))

    def _mul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """Product of two series: the shorter evaluated by Clenshaw's recurrence at "multiply by x" acting on the
        longer, in tensors of the product's length; trimmed."""
        c, xs = (a, b) if a.shape[0] <= b.shape[0] else (b, a)
        n = c.shape[0]
        if n == 1 and B.float64_promotion:
            xs = xs.to(_dtypes.to_torch(_dtypes.result_type(xs, torch.float64)))
        length = xs.shape[0] + n - 1
        xs = torch.cat([xs, xs.new_zeros(n - 1)])
        coefs = B.mulx_tensors(length, xs.dtype)
        b1, b2 = c[-1] * xs, None
        for k in range(n - 2, -1, -1):
            b1, b2 = c[k] * xs + _step(k, _mulx(b1, coefs), b1, b2), b1
        return trimmed(b1)

    def multiply(c1, c2):
        """Product of two series."""
        a, b = series([c1, c2])
        return wrap(_mul(a, b) if mul is None else trimmed(mul(a, b)))

    def div(c1, c2):
        """Quotient and remainder of series division (the remainder trimmed)."""
        a, b = series([c1, c2])
        if builtins.bool(b[-1] == 0):
            raise ZeroDivisionError("polynomial division")
        la, lb = a.shape[0], b.shape[0]
        if la < lb:
            return wrap(a[:1] * 0), wrap(a)
        if lb == 1:
            return wrap(a) / wrap(b[-1]), wrap(a[:1] * 0)
        if divide is not None:
            quo, rem = divide(a, b)
            return wrap(quo), wrap(trimmed(rem))
        # (the steps in NumPy's arithmetic: torch's complex x / x is not always 1)
        quo, rem = wrap(a.new_empty(la - lb + 1)), wrap(a)
        if B.float64_promotion:
            b = b.to(_dtypes.to_torch(_dtypes.result_type(b, torch.float64)))
        for i in range(la - lb, -1, -1):
            p = multiply(torch.cat([b.new_zeros(i), b.new_ones(1)]), b)
            q = rem[-1] / p[-1]
            rem = rem[:-1] - q * p[:-1]
            quo[i] = q
        return quo, wrap(trimmed(rem.tensor))

    def _power(c, pow, maxpower=B.maxpower):
        """``c**pow`` by repeated multiplication."""
        [a] = series([c])
        ipow = builtins.int(pow)
        if ipow != pow or ipow < 0:
            raise ValueError("Power must be a non-negative integer.")
        if maxpower is not None and ipow > maxpower:
            raise ValueError("Power is too large")
        if ipow == 0:
            return wrap(torch.ones(1, dtype=a.dtype))
        if ipow >= 2 and power is not None:
            return wrap(power(a, ipow))
        prd = wrap(a)
        for _ in range(ipow - 1):
            prd = multiply(prd, wrap(a))
        return prd

    # ------------------------------------------------------------ calculus
    def _counted(c, m, axis, what):
        ct = _coef_1d(c).clone()
        cnt, iaxis = _as_int(m, f"the order of {what}"), _as_int(axis, "the axis")
        if cnt < 0:
            raise ValueError(f"The order of {what} must be non-negative")
        return ct, cnt, normalize_axis_index(iaxis, ct.ndim)

    def der(c, m=1, scl=1, axis=0):
        """Differentiate ``m`` times along ``axis``, each time multiplying by ``scl``."""
        ct, cnt, iaxis = _counted(c, m, axis, "derivation")
        if cnt == 0:
            return wrap(ct)
        ct = ct.movedim(iaxis, 0)
        if cnt >= ct.shape[0]:
            ct = ct[:1] * 0
        else:
            for _ in range(cnt):
                ct = (ct * tensor(scl)).to(ct.dtype)  # NumPy scales in place
                ct = B.apply("der", ct, ct.shape[0] - 1)
        return wrap(ct.movedim(0, iaxis))

    def integ(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (NumPy's signature)
        """Integrate ``m`` times along ``axis``; constants ``k``, lower bound ``lbnd``, each time scaled by
        ``scl``."""
        if not _np.iterable(k):
            k = [k]
        ct, cnt, iaxis = _counted(c, m, 0, "integration")
        if len(k) > cnt:
            raise ValueError("Too many integration constants")
        if _np.ndim(lbnd) != 0:
            raise ValueError("lbnd must be a scalar.")
        if _np.ndim(scl) != 0:
            raise ValueError("scl must be a scalar.")
        iaxis = normalize_axis_index(_as_int(axis, "the axis"), ct.ndim)
        if cnt == 0:
            return wrap(ct)
        k = list(k) + [0] * (cnt - len(k))
        ct = ct.movedim(iaxis, 0)
        for i in range(cnt):
            ct = (ct * tensor(scl)).to(ct.dtype)  # NumPy scales in place
            if ct.shape[0] == 1 and builtins.bool((ct[0] == 0).all()):  # data-dependent, as NumPy's
                ct = ct.clone()
                ct[0] += k[i]
                continue
            tmp = B.apply("int", ct, ct.shape[0] + 1)
            tmp[0] += k[i] - val(lbnd, wrap(tmp)).tensor
            ct = tmp
        return wrap(ct.movedim(0, iaxis))

    # ------------------------------------------------------------ roots
    def _root_of_line(a):
        p, q, _, d = B.rec(0)
        r = -a[0] / a[1] * d
        return (r - p if p else r) / q if q != 1 else (r - p if p else r)

    def companion(c):
        """The companion matrix of ``c``, symmetric for a basis polynomial of an orthogonal basis."""
        [a] = series([c])
        if a.shape[0] < 2:
            raise ValueError("Series must have maximum degree of at least 1.")
        if a.shape[0] == 2:
            return wrap(_root_of_line(a).reshape(1, 1))
        n = a.shape[0] - 1
        sub, diag, sup, ratio = B.jacobi(n)
        mat = _tridiagonal(sub, diag, sup).to(a.dtype)
        last_a = float(B.mulx_coefs(n - 1)[0])
        mat[:, -1] -= (a[:-1] / a[-1]) * torch.tensor(ratio, dtype=torch.float64).to(a.dtype) * last_a
        return wrap(mat)

    def roots(c):
        """Roots of the series, sorted (complex when any is complex)."""
        [a] = series([c])
        if a.shape[0] < 2:
            return wrap(a[:0])
        if a.shape[0] == 2:
            return wrap(_root_of_line(a).reshape(1))
        return wrap(_sorted(_eigvals(companion(wrap(a)).tensor.flip(0, 1))))

    def fromroots(roots):
        """The series with the given roots and leading monomial coefficient 1 (products taken pairwise)."""
        if len(roots) == 0 if not isinstance(roots, ndarray) else roots.size == 0:
            return wrap(torch.ones(1, dtype=torch.float64))
        [r] = series([roots], trim=False)
        p = [line(-v, 1) for v in wrap(_sorted(r))]
        n = len(p)
        while n > 1:
            m, rem = divmod(n, 2)
            tmp = [multiply(p[i], p[i + m]) for i in range(m)]
            if rem:
                tmp[0] = multiply(tmp[0], p[-1])
            p, n = tmp, m
        return p[0]

    fns = {"line": line, "val": val, "val2d": val2d, "val3d": val3d, "grid2d": grid2d, "grid3d": grid3d,
           "vander": vander, "vander2d": vander2d, "vander3d": vander3d, "fit": fit, "add": add, "sub": sub,
           "mulx": mulx, "mul": multiply, "div": div, "pow": _power, "der": der, "int": integ,
           "companion": companion, "roots": roots, "fromroots": fromroots}
    fns["trim"] = lambda c, tol=0: trimcoef(c, tol)
    if B.prefix != "poly":
        fns.update(_orthogonal(B, val))
    out = _named(B.prefix, fns)
    zero, one, x = (B.exact_constant(v) for v in ([0], [1], B.mulx_exact([1])))
    out.update({f"{B.prefix}domain": wrap(torch.tensor(B.domain, dtype=torch.float64)),
                f"{B.prefix}zero": wrap(zero), f"{B.prefix}one": wrap(one), f"{B.prefix}x": wrap(x)})
    return out


def _orthogonal(B, val):
    """The conversions to and from the power basis, the weight and Gauss quadrature."""

    # Both maps take the untrimmed series: trailing zeros map to trailing zeros, which the result's trimming
    # drops as NumPy's trimming of the input would, and the map's size stays fixed under tracing.
    def topoly(c):
        """The power series of ``c``."""
        [a] = series([c], trim=False)
        return wrap(trimmed(B.apply("topoly", a, a.shape[0])))

    def frompoly(pol):
        """``pol`` (a power series) in this basis (float64 at least, as NumPy's sums from 0.0)."""
        [a] = series([pol], trim=False)
        a = a.to(_dtypes.to_torch(_dtypes.result_type(a, torch.float64)))
        return wrap(trimmed(B.apply("frompoly", a, a.shape[0])))

    def gauss(deg):
        """Gauss quadrature nodes and weights of degree ``deg`` for this basis' weight: the eigenvalues of the
        symmetric Jacobi matrix, weighted by the Christoffel numbers ``1 / sum_k p_k(x)**2`` of the orthonormal
        polynomials, normalised to the weight's integral."""
        ideg = _as_int(deg, "deg")
        if ideg <= 0:
            raise ValueError("deg must be a positive integer")
        sub, diag, _, _ = B.jacobi(ideg)
        x = torch.linalg.eigvalsh(_tridiagonal(sub, diag, sub))
        prev, cur, total = torch.zeros_like(x), torch.ones_like(x), torch.ones_like(x)
        for k in range(ideg - 1):
            nxt = ((x - diag[k]) * cur - (sub[k - 1] * prev if k else 0)) / sub[k]
            prev, cur = cur, nxt
            total = total + cur * cur
        w = 1.0 / total
        if B.symmetric:
            x, w = (x - x.flip(0)) / 2, (w + w.flip(0)) / 2
        return wrap(x), wrap(w * (B.mu0 / w.sum()))

    return {"*2poly": topoly, "poly2*": frompoly, "gauss": gauss, "weight": B.weight}

