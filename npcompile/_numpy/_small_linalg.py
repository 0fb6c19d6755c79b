"""Small real matrices (n <= ``MAX_N``) solved, inverted and factored by Gaussian elimination unrolled over their
entries, for traced graphs.

``torch.linalg`` makes one LAPACK call per matrix, and for a large stack of small matrices the calls cost more than
the arithmetic.  Unrolled, each entry is a tensor over the stack and the elimination is elementwise arithmetic that
Inductor fuses into one loop: 100000 4x4 solves (the batched_solve benchmark, one thread) 3.4 ms instead of 16 ms,
one 4x4 solve 0.01 ms instead of 0.02 ms.  Complex matrices stay with LAPACK (Inductor leaves complex arithmetic
to eager kernels: 14x slower).  Eagerly every entry's operation would be a kernel of its own: only traced graphs
use it.

The steps are reference LAPACK's getrf: the pivot is the first row of largest magnitude (i?amax, which never
picks a NaN over the first row), a zero pivot is left unscaled and reported; so pivots, singular matrices and
determinant signs are NumPy's, the values equal within rounding.  (NumPy's OpenBLAS orders its sums otherwise and
treats a NaN or infinite pivot its own way: a nearly singular matrix, or such a pivot, can come out otherwise, as
it did with torch's LAPACK.)
"""

from __future__ import annotations

import torch

from ._trace import is_tracing

MAX_N = 4  # the compile time grows with n**3 (n = 4: about 2 s more than LAPACK's call; n = 5: 1.5 times that)


def applies(a: torch.Tensor, columns: int | None = None) -> bool:
    """Whether ``a`` (..., n, n) goes through the unrolled elimination: traced, on the CPU, real, n static and small
    (and the right-hand sides, ``columns``, no more than n)."""
    n = a.shape[-1]
    return (is_tracing(a) and a.device.type == "cpu" and not a.is_complex() and type(n) is int
            and 1 <= n <= MAX_N and (columns is None or (type(columns) is int and 1 <= columns <= n)))


def _entries(t, rows, cols):
    return [[t[..., i, j] for j in range(cols)] for i in range(rows)]


def _factor(a, rhs):
    """getrf on the entries ``a`` (n rows of n tensors) with ``rhs``'s rows carried along (getrs's forward
    substitution).  Returns U's rows (row k from column k on, then its right-hand sides), whether the rows were
    swapped an odd number of times, and whether a pivot was exactly zero (each a tensor over the stack)."""
    rows = [x + y for x, y in zip(a, rhs)]
    u, odd, zero = [], None, None
    while rows:
        mag = [r[0].abs() for r in rows]
        best, wins = mag[0], []
        for m in mag[1:]:
            wins.append(m > best)  # beats every row above it
            best = torch.where(wins[-1], m, best)
        pivot = rows[0]
        for w, r in zip(wins, rows[1:]):
            pivot = [torch.where(w, x, y) for x, y in zip(r, pivot)]  # the last row to win: the first largest
        moved, later = [], None  # moved[i]: row i + 1 is the pivot (the last to win), and takes the top row
        for w in reversed(wins):
            moved.insert(0, w if later is None else w & ~later)
            later = w if later is None else w | later
        u.append(pivot)
        is_zero = pivot[0] == 0
        zero = is_zero if zero is None else zero | is_zero
        if later is not None:
            odd = later if odd is None else odd ^ later
        scale = 1 / torch.where(is_zero, 1.0, pivot[0])  # a zero pivot has zeros below it: they stay unscaled
        rows = [_eliminated([torch.where(s, x, y) for x, y in zip(rows[0], r)], pivot, scale)
                for s, r in zip(moved, rows[1:])]
    return u, odd, zero


def _eliminated(row, pivot, scale):
    f = row[0] * scale
    return [x - f * p for x, p in zip(row[1:], pivot[1:])]


def _back_substituted(u, n, columns):
    """The solutions' entries x[i][c] from U's rows (``_factor``), as LAPACK's trsm orders the subtractions."""
    x = [None] * n
    for i in reversed(range(n)):
        row = u[i]
        xi = []
        for c in range(columns):
            s = row[n - i + c]
            for j in reversed(range(i + 1, n)):
                s = s - row[j - i] * x[j][c]
            xi.append(s / row[0])
        x[i] = xi
    return x


def _stacked(x):
    return torch.stack([torch.stack(r, -1) for r in x], -2)


def solve(a, b):
    """``a`` (..., n, n) and ``b`` (..., n, k): the solutions, and whether a matrix is singular."""
    n, k = a.shape[-1], b.shape[-1]
    u, _, zero = _factor(_entries(a, n, n), _entries(b, n, k))
    return _stacked(_back_substituted(u, n, k)), zero


def inv(a):
    """The inverses of ``a`` (..., n, n), by solving for the identity as NumPy does, and whether one is singular."""
    n = a.shape[-1]
    one, none = torch.ones_like(a[..., 0, 0]), torch.zeros_like(a[..., 0, 0])
    u, _, zero = _factor(_entries(a, n, n), [[one if i == c else none for c in range(n)] for i in range(n)])
    return _stacked(_back_substituted(u, n, n)), zero


def _pivots(a):
    n = a.shape[-1]
    u, odd, zero = _factor(_entries(a, n, n), [[] for _ in range(n)])
    return [r[0] for r in u], odd, zero


def det(a):
    """As NumPy's, 0 where a pivot is zero (LAPACK's report), whatever the other pivots are (NaN too)."""
    d, odd, zero = _pivots(a)
    r = d[0]
    for x in d[1:]:
        r = r * x
    r = r if odd is None else torch.where(odd, -r, r)
    return torch.where(zero, 0.0, r)


def slogdet(a):
    """(sign, log|det|) of real ``a`` as NumPy: a NaN pivot counts as positive; a zero one gives (0, -inf)."""
    d, odd, zero = _pivots(a)
    sign, log = None, None
    for x in d:
        s, lg = torch.where(x < 0, -1.0, 1.0).to(x.dtype), torch.log(x.abs())
        sign, log = (s, lg) if sign is None else (sign * s, log + lg)
    if odd is not None:
        sign = torch.where(odd, -sign, sign)
    return torch.where(zero, 0.0, sign), torch.where(zero, -torch.inf, log)
