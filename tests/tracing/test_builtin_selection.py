"""Builtin ``max``/``min`` selecting by NumPy values inside compiled code: ``max(items, key=f)`` with 0-d NumPy
keys and ``max(a, b)`` of 0-d NumPy values are traced (one graph) and select as Python does -- the first item
whose key is maximal (minimal), a NaN key never taken past the first item -- with Python's result types."""

import numpy as np
import pytest

from npcompile import _compile as C

from .conftest import RecordingBackend, same

NAN = np.nan


def run(fn, *args):
    rec = RecordingBackend()
    got = C.compile(fn, backend="aot_eager")(*args)
    one = C.compile(fn, backend=rec)(*args)
    want = fn(*args)
    assert same(got, want), (got, want)
    assert same(one, want), (one, want)
    return rec


def by_index_max(x):
    return max(range(len(x)), key=lambda i: x[i])


def by_index_min(x):
    return min(range(len(x)), key=lambda i: x[i])


KEYS = [
    [1.0, 3.0, 2.0],
    [3.0, 1.0, 3.0, 2.0],  # tie: the first
    [2.0, 2.0, 2.0],
    [1.0, NAN, 3.0],  # NaN skipped: the item of 3 (of 1 for min)
    [NAN, 5.0, -1.0],  # NaN first: kept
    [5.0, NAN],
    [-0.0, 0.0],  # equal: the first
    [0.0, -0.0],
]


@pytest.mark.parametrize("keys", KEYS)
@pytest.mark.parametrize("fn", [by_index_max, by_index_min])
def test_range_key_is_python_int(fn, keys):
    x = np.array(keys)
    rec = run(fn, x)
    assert len(rec.graphs) == 1
    assert type(C.compile(fn, backend="aot_eager")(x)) is int


def test_int_keys_and_list_of_ints():
    def f(x):
        return max([4, 7, 9], key=lambda i: x[i % 3]), min((2, 0, 1), key=lambda i: -x[i])

    for x in (np.array([5, 1, 5]), np.array([0, 9, 3]), np.array([-2, -2, -2])):
        rec = run(f, x)
        assert len(rec.graphs) == 1


def test_rows_by_key():
    def f(x):
        rows = [x[0], x[1], x[2]]
        return max(rows, key=lambda r: r.sum()), min(rows, key=lambda r: r @ r)

    for x in (np.arange(6.0).reshape(3, 2), np.array([[1.0, 2.0], [3.0, 0.0], [NAN, 1.0]]),
              np.array([[NAN, 1.0], [3.0, 0.0], [0.0, 0.0]])):
        rec = run(f, x)
        assert len(rec.graphs) == 1


def test_arrays_as_positional_items():
    def f(a, b, c):
        return max(a, b, c, key=lambda r: r[0] - r[1])

    rec = run(f, np.array([1, 2]), np.array([5, 0]), np.array([7, 2]))
    assert len(rec.graphs) == 1


def test_rows_enumerate_zip_program():
    def f(x):
        norms = np.zeros(x.shape[0])
        for i, row in enumerate(x):
            norms[i] = np.sqrt(row @ row)
        return max(range(len(x)), key=lambda i: norms[i])

    rec = run(f, np.random.default_rng(0).standard_normal((5, 3)))
    assert len(rec.graphs) == 1


@pytest.mark.parametrize("pair", [(1.0, 2.0), (2.0, 1.0), (NAN, 2.0), (1.0, NAN), (-0.0, 0.0), (0.0, -0.0),
                                  (3.0, 3.0)])
def test_two_scalars(pair):
    def f(x):
        return max(x[0], x[1]), min(x[0], x[1]), max([x[1], x[0]]), min(x[1], x[0], x[0])

    rec = run(f, np.array(pair))
    assert len(rec.graphs) == 1


def test_two_int_scalars_and_0d_arrays():
    def f(x):
        return max(x[0], x[1]), min(x[0], x[1])

    def g(a, b):
        return max(a, b), min(a, b)

    assert len(run(f, np.array([3, -4], dtype=np.int32)).graphs) == 1
    assert len(run(g, np.array(NAN), np.array(1.0)).graphs) == 1
    assert len(run(g, np.array(1.0), np.array(NAN)).graphs) == 1
    assert len(run(g, np.array(2), np.array(7)).graphs) == 1


def test_untraced_forms_still_right():
    def consts(x):
        return max([3, 1, 2], key=lambda i: -i) + x[0], max(range(4)), min(2, 5)

    def py_keys(x):
        return max(["ab", "c"], key=len), x.sum()

    def mixed(x, y):  # keys of two dtypes
        return max([0, 1], key=lambda i: x[0] if i == 0 else y[0])

    def one(x):
        return max([7], key=lambda i: x[0])

    def gen(x):
        return max((i for i in range(3)), key=lambda i: x[i])

    run(consts, np.array([1.0]))
    run(py_keys, np.array([1.0]))
    run(mixed, np.array([1.0]), np.array([2], dtype=np.int64))
    run(mixed, np.array([3.0]), np.array([2], dtype=np.int64))
    run(one, np.array([1.0]))
    run(gen, np.array([1.0, 5.0, 5.0]))
    with pytest.raises(ValueError):
        C.compile(lambda x: max([], key=lambda i: x[i]), backend="aot_eager")(np.array([1.0]))


def test_key_none_list_argument_and_new_shapes():
    def f(x, idx):
        return max(x[0], x[2], key=None), min(idx, key=lambda i: x[i]), max([x[1], x[0]], key=None)

    def rows(x):
        return max(range(len(x)), key=lambda i: x[i].sum()), min([x[0], x[1], x[2]], key=lambda r: r.max())

    for x in (np.array([2.0, NAN, 5.0, 1.0]), np.array([NAN, 1.0, 0.0, 3.0])):
        rec = run(f, x, [3, 0, 2])
        assert len(rec.graphs) == 1
    compiled = C.compile(rows, backend="aot_eager")
    for n in (3, 4, 5, 6):  # the later shapes compile dynamic
        x = np.random.default_rng(n).standard_normal((n, n + 1))
        assert same(compiled(x), rows(x))


def test_scalars_of_two_dtypes_keep_the_chosen_ones_type():
    """max/min of NumPy scalars of different dtypes return one of them, of its own dtype: run in Python (np.maximum
    would promote: max(int64(3), float64(2.5)) gave float64(3.0))."""
    def f(x):
        i = x.astype(np.int64)
        return max(i[0], x[1]), min(i[0], x[1]), max(i[2], x[1]), min(x[1], i[2])

    run(f, np.array([3.0, 2.5, 1.0]))
