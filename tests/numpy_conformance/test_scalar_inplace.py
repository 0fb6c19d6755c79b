"""Scalars and 0-d arrays under in-place operators: both are 0-d arrays in the shim (README), but NumPy writes
into an array and makes a new scalar (``s += 0.5`` on an integer scalar gives a float64 scalar; a name bound to
the old scalar keeps its value).  Each case runs in NumPy and in the shim and compares every value it returns."""

import numpy as np
import pytest

from .harness import assert_matches

OPS = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="]

# How each case makes its 0-d operand, from a 1-d array ``a``: scalars first, then arrays.
MAKERS = {
    "a.sum()": lambda xp, a: a.sum(),
    "a[1]": lambda xp, a: a[1],
    "a.max() * 2": lambda xp, a: a.max() * 2,
    "scalar type": lambda xp, a: xp.dtype(a.dtype).type(3) if xp is np else getattr(xp, a.dtype.name)(3),
    "np.zeros(())": lambda xp, a: xp.zeros((), a.dtype),
    "np.array(a[0])": lambda xp, a: xp.array(a[0]),
    "np.asarray(a.sum())": lambda xp, a: xp.asarray(a.sum()),
    "a[..., 0] (a view)": lambda xp, a: a[..., 0],
    "a[:1].reshape(()) (a view)": lambda xp, a: a[:1].reshape(()),
    "next(iter(a))": lambda xp, a: next(iter(a)),
}


def _run(op, make, other):
    def f(xp, a):
        x = make(xp, a)
        before = x
        scope = {"x": x, "v": other}
        exec(f"x {op} v", scope)
        return scope["x"], before, a

    return f


CASES = [(op, dtype, other) for dtype, other in [("int64", 3), ("int64", 0.5), ("float32", 2.5), ("int8", 2),
                                                  ("float64", np.float32(1.5))]
         for op in OPS if op in OPS[:7] or not (dtype.startswith("float") or isinstance(other, float))]


@pytest.mark.parametrize("make", list(MAKERS), ids=str)
@pytest.mark.parametrize("op,dtype,other", CASES, ids=str)
def test_inplace_operator_on_scalars_and_0d_arrays(op, dtype, other, make):
    a = np.arange(1, 5, dtype=dtype)
    assert_matches(_run(op, MAKERS[make], other), a, check_inputs=True)


def test_scalar_accumulator_keeps_old_bindings():
    def f(xp, a):
        total = a[0]
        history = []
        for v in a:
            history.append(total)
            total += v
        return total, history

    assert_matches(f, np.arange(5.0))


def test_iterating_a_1d_array_yields_scalars():
    """Iterating a 1-D array yields scalars that do not alias it (``for x in a: x += 1`` wrote into ``a``) and
    hash by value as NumPy's (``set(a)``, dict keys); rows of a 2-D array stay views."""
    def f(xp, a, b):
        for x in a:
            x += 10
        for row in b:
            row += 1
        keys = {v: i for i, v in enumerate(a)}
        return a, b, sorted(int(k) for k in set(xp.concatenate([a, a]))), [keys[k] for k in (1, 2.0, 4)]

    assert_matches(f, np.arange(1, 5), np.arange(6).reshape(2, 3), check_inputs=True)
