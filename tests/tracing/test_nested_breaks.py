"""Graph breaks inside called functions (``config.nested_graph_breaks``): right values, few graphs."""

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile.tracing._dynamo_patch import NESTED_GRAPH_BREAKS

from .conftest import RecordingBackend, same


def _sorted_key_breaks(a):
    d = {"x": a * 2, "y": a + 1}
    return sorted(d.items(), key=lambda kv: str(kv))[0]  # str() of an array: a break inside the key function


def _sorted_key_index(a):
    d = {a.shape: a * 2}
    return sorted(d.items(), key=lambda kv: str(kv))[0][1] + 1


def _map_breaks(a):
    return list(map(lambda v: str(v), [a, a + 1]))


def _max_key_breaks(a):
    return max([a, a + 1], key=lambda v: float(v.sum()))


def _filter_breaks(a):
    return list(filter(lambda v: float(v.sum()) > 0, [a, -a]))


@pytest.mark.parametrize("helper", [_sorted_key_breaks, _sorted_key_index, _map_breaks, _max_key_breaks,
                                    _filter_breaks])
def test_break_in_a_function_a_builtin_calls(helper):
    # torch 2.13 resumed the caller after the builtin's call with the key function's value as the builtin's
    # result (sorted(...)[0] gave '(', len(list(map(...))) the length of a string)
    def user(a):
        y = a * 3
        r = helper(a)
        return (len(r) if isinstance(r, list) else r), np.sin(y)

    a = np.linspace(0.1, 1, 5)
    assert same(C.compile(user, backend="eager")(a), user(a))


def test_break_in_a_called_function_resumes_inside_it():
    def inner(a):
        b = np.cos(a)
        print(end="")  # a break
        return b * 2

    def user(a):
        return inner(a + 1) - 1

    rec = RecordingBackend()
    a = np.linspace(0, 1, 7)
    assert same(C.compile(user, backend=rec)(a), user(a))
    # nested: (a + 1, cos) and (* 2, - 1); without (torch 2.11) each frame splits around the call: 6
    assert len(rec.graphs) == (2 if NESTED_GRAPH_BREAKS else 6)


# Slice bounds read from an array (a CSR row: data[indptr[i]:indptr[i + 1]]): Dynamo could not resume from the
# data-dependent bound and ran the whole frame in NumPy; the bound is now an unbacked SymInt in the graph
# (tracing._dynamo_patch._slice_init, capture_scalar_outputs in npcompile._compile).
def _csr_matvec(data, indices, indptr, x):
    y = np.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        y[i] = data[indptr[i]:indptr[i + 1]] @ x[indices[indptr[i]:indptr[i + 1]]]
    return y


def _csr(n=6, seed=0):
    rng = np.random.default_rng(seed)
    indptr = np.concatenate([[0], np.cumsum(rng.integers(0, 4, n))])
    return rng.standard_normal(indptr[-1]), rng.integers(0, n, indptr[-1]), indptr, rng.standard_normal(n)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_slice_bounds_read_from_an_array_stay_compiled(backend):
    report = C.explain(_csr_matvec, backend=backend)(*_csr())
    # the outlined loop is the one break: its body is one graph, with no break at the slices
    assert [e.kind for e in report.events] == ["graph_break"] and "outlined loop" in report.events[0].feature, \
        str(report)
    for seed in (1, 2):  # the cached body, on other rows
        args = _csr(seed=seed)
        assert same(report.compiled(*args), _csr_matvec(*args))


def _slice_of(d, p):
    return d[p[1]:p[2]] * 2, d[p[0]:] + 1, d[:p[2]:p[0]]


@pytest.mark.parametrize("p", [[1, 3, 7], [-1, -8, -2], [2, 9, 30], [3, 1, -1], [0, 3, 7]])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8])
def test_array_slice_bounds(p, dtype):
    d, p = np.arange(10.0), np.array(p).astype(dtype)  # (uint8: -1 is 255)
    cf = C.compile(_slice_of, backend="eager")
    if p[0] == 0:
        with pytest.raises(ValueError, match="^slice step cannot be zero$"):
            cf(d, p)
    else:
        assert same(cf(d, p), _slice_of(d, p))


@pytest.mark.parametrize("bound", [lambda p: p[1:2], lambda p: p[1] > 0, lambda p: p[1] * 1.0],
                         ids=["one_element", "bool", "float"])
def test_array_slice_bounds_numpy_refuses(bound):
    def f(d, p):
        return d[bound(p):p[2]] * 2

    d, p = np.arange(10.0), np.array([1, 3, 7])
    with pytest.raises(TypeError) as want:
        f(d, p)
    with pytest.raises(TypeError) as got:
        C.compile(f, backend="eager")(d, p)
    assert str(got.value) == str(want.value)


def _rows_dot(d, idx, x, p):
    return d[p[0]:p[1]] @ x[idx[p[0]:p[1]]]


def test_data_dependent_sizes_that_differ_raise_value_error():
    d, idx, x = np.arange(10.0), np.arange(12) % 5, np.ones(5)
    cf = C.compile(_rows_dot, backend="aot_eager")
    assert same(cf(d, idx, x, np.array([1, 4])), _rows_dot(d, idx, x, np.array([1, 4])))
    with pytest.raises(ValueError):
        _rows_dot(d, idx, x, np.array([8, 12]))
    with pytest.raises(ValueError):  # (traced: torch's runtime assertion Eq(u2, u6))
        cf(d, idx, x, np.array([8, 12]))


@pytest.mark.inductor
def test_data_dependent_slices_inductor():
    # Inductor dropped the size assertion (npcompile disabled scalar_asserts) and returned a wrong sum of products
    d, idx, x = np.arange(10.0), np.arange(12) % 5, np.arange(5.0)
    cf = C.compile(_rows_dot, backend="inductor")
    for p in ([1, 4], [2, 9], [0, 0]):
        p = np.array(p)
        assert same(cf(d, idx, x, p), _rows_dot(d, idx, x, p))
    with pytest.raises(ValueError):
        cf(d, idx, x, np.array([8, 12]))
