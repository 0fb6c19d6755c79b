"""A polynomial basis as a table, and the exact rational facts derived from it.

Each basis of ``numpy.polynomial`` is given by its three-term recurrence

    P_0 = 1,   P_{k+1} = ((p_k + q_k x) P_k - r_k P_{k-1}) / d_k        (integers p, q, r, d)

plus what does not follow from it (domain, weight, the weight's integral).  Multiplication by x, derivatives,
antiderivatives and the conversions to and from the power basis are derived here once, exactly (``Fraction``),
and applied to coefficient tensors as sparse linear maps (no ``0 * inf`` from a dense product).
"""

from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import torch


_LOCK = threading.RLock()  # reentrant: the antiderivatives read the derivatives' columns


def _float(v: Fraction) -> float:
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def _number(v: Fraction):
    """An int when ``v`` is one (NumPy's integer constants stay integers), else a float."""
    return int(v) if v.denominator == 1 else _float(v)


@dataclass(eq=False)
class Basis:
    """One basis: ``prefix`` names its functions (``cheb`` -> ``chebval``); ``rec(k) -> (p, q, r, d)``."""

    prefix: str
    name: str  # the class name
    rec: Callable[[int], tuple]
    domain: tuple = (-1.0, 1.0)
    basis_name: str | None = None
    weight: Callable | None = None  # the weight function (orthogonal bases)
    mu0: float | None = None  # the integral of the weight over the domain of orthogonality
    symmetric: bool = False  # an even weight: Gauss nodes and weights are made exactly symmetric
    # NumPy's generic product and division (polyutils) mix in float64 series: a product with a one-term factor
    # and a division's remainder come back float64 for float32 data
    float64_promotion: bool = False
    maxpower: int | None = 16  # the default limit of ``<prefix>pow`` (none for ``polypow``)
    _cols: dict = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------ the recurrence and x * P_k
    def mulx_coefs(self, k):
        """``(a, b, c)`` with ``x P_k = a P_{k+1} + b P_k + c P_{k-1}``."""
        p, q, r, d = self.rec(k)
        return Fraction(d, q), Fraction(-p, q), Fraction(r, q)

    def mulx_exact(self, v):
        out = [Fraction(0)] * (len(v) + 1)
        for k, vk in enumerate(v):
            if vk:
                a, b, c = self.mulx_coefs(k)
                out[k + 1] += a * vk
                out[k] += b * vk
                if k:
                    out[k - 1] += c * vk
        return out

    # ------------------------------------------------------------ columns: one list of Fractions per P_k
    def _column(self, kind, k):
        with _LOCK:  # grown on demand: one thread at a time, or a column could be appended twice
            cols = self._cols.setdefault(kind, [])
            while len(cols) <= k:
                cols.append(getattr(self, "_next_" + kind)(cols))
            return cols[k]

    def _next_topoly(self, cols):  # power coefficients of P_k
        k = len(cols)
        if k == 0:
            return [Fraction(1)]
        p, q, r, d = self.rec(k - 1)
        prev = cols[k - 1] + [Fraction(0)]
        out = [p * v for v in prev]
        for i, v in enumerate(cols[k - 1]):
            out[i + 1] += q * v
        for i, v in enumerate(cols[k - 2] if k > 1 else []):
            out[i] -= r * v
        return [v / d for v in out]

    def _next_frompoly(self, cols):  # basis coefficients of x**k
        return [Fraction(1)] if not cols else self.mulx_exact(cols[-1])

    def _next_der(self, cols):  # basis coefficients of P_k'
        k = len(cols)
        if k == 0:
            return [Fraction(0)]
        p, q, r, d = self.rec(k - 1)
        prev = cols[k - 1] + [Fraction(0)]
        out = [p * v for v in prev] + [Fraction(0)]
        out[k - 1] += q
        for i, v in enumerate(self.mulx_exact(cols[k - 1])):
            out[i] += q * v
        for i, v in enumerate(cols[k - 2] if k > 1 else []):
            out[i] -= r * v
        return [v / d for v in out[:k]]

    def _next_int(self, cols):
        """Basis coefficients of the antiderivative of P_j without a P_0 term: back substitution through the
        (upper triangular) derivative columns, skipping the zero unknowns."""
        j = len(cols)
        y = {}
        for row in range(j, -1, -1):
            rhs = Fraction(int(row == j)) - sum(self._column("der", m)[row] * ym for m, ym in y.items()
                                                if row < len(self._column("der", m)))
            if rhs:
                y[row + 1] = rhs / self._column("der", row + 1)[row]
        out = [Fraction(0)] * (j + 2)
        for m, ym in y.items():
            out[m] = ym
        out[0] = Fraction(0)
        return out

    # ------------------------------------------------------------ application to coefficient tensors
    @functools.lru_cache(maxsize=None)  # noqa: B019  (a few bases, kept for the process)
    def _triplets(self, kind, n):
        rows, cols, vals = [], [], []
        for j in range(n):
            for i, v in enumerate(self._column(kind, j)):
                if v:
                    rows.append(i)
                    cols.append(j)
                    vals.append(_float(v))
        return rows, cols, vals

    def apply(self, kind, c: torch.Tensor, n_out: int) -> torch.Tensor:
        """The linear map ``kind`` ("der", "int", "topoly", "frompoly") applied along axis 0 of ``c``."""
        rows, cols, vals = self._triplets(kind, c.shape[0])
        out = c.new_zeros((n_out,) + tuple(c.shape[1:]))
        if not rows:
            return out
        v = torch.tensor(vals, dtype=torch.float64).to(c.dtype).reshape((-1,) + (1,) * (c.ndim - 1))
        return out.index_add(0, torch.tensor(rows), v * c[torch.tensor(cols)])

    def mulx_tensors(self, n, dtype):
        """``a, b, c`` of x*P_k for k < n as tensors (``c[0]`` unused)."""
        a, b, c = zip(*(self.mulx_coefs(k) for k in range(n)))
        return tuple(torch.tensor([_float(v) for v in col], dtype=torch.float64).to(dtype) for col in (a, b, c))

    # ------------------------------------------------------------ the symmetrised companion matrix
    def jacobi(self, n):
        """Sub-diagonal, diagonal and super-diagonal (floats) of x acting on P_0..P_{n-1} rescaled to be
        symmetric (orthonormal up to one factor); the power basis (no P_{k-1} term) stays as it is.  Also the
        scale ``s_k / s_{n-1}`` of each P_k, for the companion's last column."""
        sub, sup, t = [], [], []
        for j in range(n - 1):
            a, _, _ = self.mulx_coefs(j)
            c = self.mulx_coefs(j + 1)[2]
            if c == 0:
                sub.append(_float(a))
                sup.append(0.0)
                t.append(1.0)
            else:
                m = math.sqrt(_float(a * c))
                sub.append(math.copysign(m, a))
                sup.append(math.copysign(m, c))
                t.append(math.sqrt(_float(c / a)))
        diag = [_float(self.mulx_coefs(j)[1]) for j in range(n)]
        ratio = [1.0] * n
        for j in range(n - 2, -1, -1):
            ratio[j] = ratio[j + 1] / t[j]
        return sub, diag, sup, ratio

    # ------------------------------------------------------------ exact constants
    def line_coefs(self, off, scl):
        """``off + scl*x`` in this basis (``x = b_0 P_0 + a_0 P_1``)."""
        a, b, _ = self.mulx_coefs(0)
        return [off + scl * _number(b) if b else off, scl * _number(a) if a != 1 else scl]

    def exact_constant(self, values):
        """An int64 array when every value is an integer (NumPy's ``chebx`` is ``array([0, 1])``), else float64."""
        nums = [_number(v) for v in values]
        return torch.tensor(nums, dtype=torch.int64 if all(type(v) is int for v in nums) else torch.float64)
