"""Checks on sizes known only when the compiled code runs raise NumPy's exception type, with the shim's message.

The shim's ``_trace.check`` defers them to torch's runtime assertions, which fail as a RuntimeError naming only
an expression (``u0 >= 1``); the compiled call maps it back.  Under aot_eager an assertion that made a size a
constant was lost (``_interp_counts`` returned an answer computed from the first 4 of 6 counts).
"""

import numpy as np
import pytest

from npcompile import _compile as C


def _interp_counts(img, data):
    cdf = np.bincount(data, minlength=4).cumsum()
    return np.interp(img, np.arange(4), cdf / cdf[-1])


def _masked_dot(x, y):
    return x[x > 0] @ y[y > 0]


def _first_marked(x, m):
    return x[np.flatnonzero(m)[0]]


def _last_marked(x, m):
    return x[np.flatnonzero(m)[-1]]


def _zeros_below(y):
    return np.zeros(int(y.max()) - 5)


def _pair_sums(x):
    return x[x > 0].reshape(-1, 2).sum(axis=1)


def _square(x):
    return x[x > 0].reshape(2, 2)


IMG = np.array([0.5, 1.5, 2.5])
X = np.array([1.0, -1.0, 2.0])
# (function, arguments it runs with, arguments NumPy raises on, part of the shim's message)
CASES = {
    "interp length": (_interp_counts, (IMG, np.array([0, 1, 2, 3])), (IMG, np.array([0, 1, 2, 5])),
                      "fp and xp are not of the same length"),
    "mask sizes": (_masked_dot, (X, np.array([1.0, 2.0, -3.0])), (X, np.array([1.0, 2.0, 3.0])), "sizes"),
    "index [0]": (_first_marked, (X, np.array([False, True, False])), (X, np.zeros(3, bool)),
                  "index 0 is out of bounds for axis 0"),
    "index [-1]": (_last_marked, (X, np.array([False, True, True])), (X, np.zeros(3, bool)),
                   "index -1 is out of bounds for axis 0"),
    "negative size": (_zeros_below, (np.array([7, 9]),), (np.array([1, 2]),), "negative dimensions are not allowed"),
    "reshape -1": (_pair_sums, (np.array([1.0, 2.0, -1.0, 3.0, 4.0]),), (np.array([1.0, 2.0, 3.0]),),
                   "cannot reshape array of size"),
    "reshape": (_square, (np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),),
                "cannot reshape array of size"),
}


def _numpy_error(fn, args):
    with pytest.raises(Exception) as info:
        fn(*args)
    return info.type


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_failed_runtime_check_raises_numpy_error(backend, case):
    fn, good, bad, message = CASES[case]
    f = C.compile(fn, backend=backend)
    np.testing.assert_array_equal(f(*good), fn(*good))
    expected = _numpy_error(fn, bad)
    assert expected in (ValueError, IndexError)
    with pytest.raises(expected, match=message) as info:
        f(*bad)
    assert info.type is expected
    np.testing.assert_array_equal(f(*good), fn(*good))  # the graph is kept, and still right


def _three_checks(img, data, x, y, m):
    return _interp_counts(img, data), _masked_dot(x, y), _first_marked(x, m)


@pytest.mark.inductor
def test_failed_runtime_checks_raise_numpy_errors_under_inductor():
    good = [IMG, np.array([0, 1, 2, 3]), X, np.array([1.0, 2.0, -3.0]), np.array([False, True, False])]
    f = C.compile(_three_checks, backend="inductor")
    for got, want in zip(f(*good), _three_checks(*good)):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    for at, bad in ((1, np.array([0, 1, 2, 5])), (3, np.array([1.0, 2.0, 3.0])), (4, np.zeros(3, bool))):
        args = good[:at] + [bad] + good[at + 1:]
        expected = _numpy_error(_three_checks, args)
        with pytest.raises(expected) as info:
            f(*args)
        assert info.type is expected


def test_a_size_known_only_when_the_code_runs_is_named_by_its_value():
    """The message names the size the failed run had, as NumPy's (it named the trace's symbol, ``size u0``)."""
    f = C.compile(_first_marked, backend="eager")
    f(X, np.array([False, True, False]))
    with pytest.raises(IndexError, match=r"^index 0 is out of bounds for axis 0 with size 0$"):
        f(X, np.zeros(3, bool))


def _reads_and_writes_at(a, i):
    b = a.copy()
    np.add.at(b, i, 1.0)
    return a[i], np.take(a, i, axis=1), b


@pytest.mark.inductor
def test_an_index_from_the_data_out_of_bounds_raises_index_error_under_inductor():
    """Inductor's kernels check indices read from the data themselves and raised RuntimeError ("index out of
    bounds: 0 <= tmp7 < 7L"); NumPy (and eager torch, so aot_eager) raise IndexError."""
    a = np.arange(21.0).reshape(7, 3)
    f = C.compile(_reads_and_writes_at)
    ok = np.array([0, 2, -1])
    assert all(np.array_equal(g, w) for g, w in zip(f(a, ok), _reads_and_writes_at(a, ok)))
    for bad in (np.array([0, 7]), np.array([-8])):
        with pytest.raises(IndexError):
            _reads_and_writes_at(a, bad)
        with pytest.raises(IndexError, match="out of bounds"):
            f(a, bad)
