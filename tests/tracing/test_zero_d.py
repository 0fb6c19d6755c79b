"""Scalars and 0-d arrays in compiled code: an in-place operator writes into a 0-d array but makes a new scalar,
as in NumPy, and a 0-d array result comes back as a 0-d array, a scalar result as a NumPy scalar."""

import numpy as np
import pytest

from npcompile import _compile as C

from .conftest import same


def _int_accumulator_takes_a_float(a):
    s = a.sum()
    s += 0.5  # an int64 scalar: becomes a float64 scalar (an array would raise)
    return s


def _old_binding_keeps_its_value(a):
    b = a.max()
    old = b
    b *= 2
    x = a[1]
    x += 10
    return old, b, x, a


def _arrays_are_written(a, z):
    w = z
    z += a.sum()  # the caller's 0-d array
    y = np.zeros(())
    y2 = y
    y += 1
    v = a[..., 0]  # a 0-d view of the argument
    v += 5
    return w, y2, np.asarray(a.sum()), a


def _in_a_loop(a):
    total = a[0]
    seen = []
    for v in a[:3]:
        seen.append(total)
        total += v
    return total, seen


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("fn,make", [
    (_int_accumulator_takes_a_float, lambda: (np.arange(4),)),
    (_old_binding_keeps_its_value, lambda: (np.arange(4.0),)),
    (_arrays_are_written, lambda: (np.arange(4.0), np.array(1.0))),
    (_in_a_loop, lambda: (np.arange(1.0, 5.0),)),
], ids=lambda x: getattr(x, "__name__", ""))
def test_inplace_operators_on_scalars_and_0d_arrays_match_numpy(fn, make, backend):
    want_args, got_args = make(), make()
    want = fn(*want_args)
    got = C.compile(fn, backend=backend)(*got_args)
    assert same(got, want), (got, want)
    assert same(got_args, want_args)
