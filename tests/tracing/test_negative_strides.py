"""Array arguments with negative strides (``f(a[::-1])``, ``f(np.flip(a))``) are compiled on a copy
(``npcompile.tracing._copies``): NumPy's results, writes into the caller's array, results that view it, and
real NumPy where the copy could not be exact (an argument sharing memory with another)."""

import numpy as np
import pytest
import torch

import npcompile
from npcompile import _compile as C
from npcompile.tracing import _copies

from .conftest import same
from .test_devices import cpu_as_device  # noqa: F401  (fixture)


def _flat(x):
    return [v for e in x for v in _flat(e)] if isinstance(x, (tuple, list)) else [x]


def _both(fn, make, backend="eager", calls=2):
    """``fn`` in NumPy and compiled, each on fresh ``make()`` = (the memory's owner, the arguments): the same
    results, the same writes into the owner, results sharing memory with it (or being an argument) alike."""
    f = C.compile(fn, backend=backend)
    for _ in range(calls):  # the first call compiles, the next runs the cached code
        base_np, args_np = make()
        base_c, args_c = make()
        want = fn(*args_np)
        got = f(*args_c)
        assert same(got, want), (got, want)
        assert same(base_c, base_np), (base_c, base_np)
        for g, w in zip(_flat(got), _flat(want)):
            if isinstance(w, np.ndarray):
                assert np.shares_memory(g, base_c) == np.shares_memory(w, base_np), (g, w)
                if np.shares_memory(w, base_np):  # (the step along an axis of length 1 is never taken)
                    assert [s for s, n in zip(g.strides, g.shape) if n > 1] == \
                        [s for s, n in zip(w.strides, w.shape) if n > 1]
                assert [g is a for a in args_c] == [w is a for a in args_np]
    return f


def _rev(shape=(3, 4), dtype=np.float64, index=np.s_[::-1], order="C"):
    def make():
        base = np.asarray(np.arange(np.prod(shape)).reshape(shape), dtype=dtype, order=order)
        return base, (base[index],)

    return make


def _compiled_one_graph(f):
    state = f.__npcompile_state__
    return state._graph_count == 1 and not state.broken


@pytest.mark.parametrize("make", [
    _rev((10,)), _rev(), _rev(index=np.s_[:, ::-1]), _rev(index=np.s_[::-1, ::-1]), _rev((5, 4), index=np.s_[::-2, 1:]),
    _rev((3, 4), order="F"), _rev((2, 3, 4), order="F", index=np.s_[:, ::-1, ::-2]), _rev(dtype=np.int32),
    _rev(dtype=np.bool_), _rev(dtype=np.complex64), _rev(dtype=np.float16), _rev((3, 1), index=np.s_[:, ::-1]),
], ids=["1d", "rows", "cols", "both", "step-2", "F", "F-3d", "int32", "bool", "complex64", "float16", "size-1"])
def test_compiled_with_numpy_results(make):
    def fn(a):
        return a * 2 + a[0], a.sum(axis=0), a.sum(), a.ravel("K") + 0  # (K: the copy keeps F order)

    f = _both(fn, make)
    assert _compiled_one_graph(f)


def test_zero_d_results_and_empty_arguments():
    _both(lambda a: (a[0], a.max(), a.shape), _rev((5,)))
    _both(lambda a: (a + 1, a.sum(axis=0)), _rev((0, 3)))
    _both(lambda a: (a + 1, a.T[1:]), _rev((3, 0)))


WRITES = {
    "iadd": lambda a: a.__iadd__(1),
    "out": lambda a: np.multiply(a, 3, out=a),
    "ellipsis": lambda a: a.__setitem__(Ellipsis, 7),
    "slice": lambda a: a.__setitem__(slice(1, None), 5),
    "item": lambda a: a.__setitem__(0, -1),
    "sort": lambda a: a.sort(axis=-1),
    "fill": lambda a: a.fill(2),
    "through a view": lambda a: a[1:].__imul__(2),
}


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
@pytest.mark.parametrize("make", [_rev(), _rev((5, 4), index=np.s_[::-2, 1:]), _rev((3, 4), order="F")],
                         ids=["rows", "step-2", "F"])
def test_writes_reach_the_callers_array(write, make):
    def fn(a):
        WRITES[write](a)
        return a.sum(), a

    _both(fn, make)


def test_writes_through_a_keyword_argument_and_aot():
    def fn(x, *, a):
        a[0] += x
        return a[1:]

    _both(lambda x, a: fn(x, a=a), lambda: (lambda b: (b, (2.0, b[::-1])))(np.arange(4.0)), backend="aot_eager")
    f = C.compile(fn, backend="aot_eager")
    b = np.arange(4.0)
    r = f(1.0, a=b[::-1])
    assert same(b, np.array([0.0, 1.0, 2.0, 4.0])) and same(r, b[::-1][1:]) and np.shares_memory(r, b)


@pytest.mark.parametrize("view", [
    lambda a: a, lambda a: a[1:], lambda a: a.T, lambda a: a[:, ::2], lambda a: a.diagonal(), lambda a: a[None, :, 1],
    lambda a: a.view(np.int64), lambda a: a.reshape(-1), lambda a: a.reshape(2, 2, 3),
    lambda a: np.broadcast_to(a, (2, 3, 4)), lambda a: a.astype(np.complex128).real,
], ids=["itself", "slice", "T", "step", "diagonal", "newaxis", "dtype", "flatten", "split", "broadcast", "fresh"])
@pytest.mark.parametrize("make", [_rev(), _rev(index=np.s_[::-1, ::-1]), _rev((3, 4), order="F")],
                         ids=["rows", "both", "F"])
def test_results_that_view_the_argument_view_the_callers_array(view, make):
    """NumPy's views come back as views of the caller's array; where NumPy copies (``reshape(-1)`` of
    ``x[::-1]``) the result owns its memory (the copy's)."""
    _both(view, make)


_G = None


def test_the_argument_is_contiguous_inside():
    """Deviation (README): inside, the argument is its contiguous copy, so what NumPy decides by the layout
    follows the copy's: ``ravel`` of ``x[::-1]`` is a view (NumPy copies), and writes through it reach ``x``."""
    def fn(a):
        r = a.ravel()
        r[0] = -1.0
        return r, a.flags.c_contiguous, a.strides

    x = np.arange(3.0)
    r, contiguous, strides = C.compile(fn, backend="eager")(x[::-1])
    assert contiguous and strides == (8,) and same(x, np.array([0.0, 1.0, -1.0])) and np.shares_memory(r, x)
    y = np.arange(3.0)
    r, contiguous, strides = fn(y[::-1])
    assert not contiguous and strides == (-8,) and same(y, np.arange(3.0)) and not np.shares_memory(r, y)


@pytest.mark.parametrize("view", [lambda a: a.real, lambda a: a.imag[1:], lambda a: a.view(np.float32),
                                  lambda a: a.view(np.int8)[:, 1::3]], ids=["real", "imag", "float32", "int8"])
def test_views_of_another_element_size(view):
    _both(view, _rev(dtype=np.complex64))
    _both(view, _rev((2, 3, 4), dtype=np.complex64, index=np.s_[::-1, :, 1:]), calls=1)


def test_no_write_back_without_a_write():
    """The copy is written back only when the function wrote into it: a write into the caller's memory made
    another way (here through a module global) stays, on the first call (through Dynamo: compared with a
    snapshot) and on the next (the cached graph run directly: the version counter did not move)."""
    global _G

    def fn(a):
        _G[0] = 100.0
        return a.sum()

    f = C.compile(fn, backend="eager")
    for _ in range(2):
        _G = x = np.arange(4.0)
        assert f(x[::-1]) == 6.0 and x[0] == 100.0  # (NumPy's sum, 106, sees the write: README)
    assert f.__npcompile_state__.direct.table


def test_a_write_before_an_exception_reaches_the_callers_array():
    def fn(a):
        a[0] = 5.0
        raise KeyError("k")

    f = C.compile(fn, backend="eager")
    for _ in range(2):
        x = np.arange(4.0)
        with pytest.raises(KeyError):
            f(x[::-1])
        assert same(x, np.array([0.0, 1.0, 2.0, 5.0]))


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_writes_by_real_numpy_after_a_graph_break_reach_the_callers_array(backend):
    @npcompile.disable
    def bump(a):
        a[0] += 10  # real NumPy, on the copy: no version counter moves

    def fn(a):
        b = a * 2
        bump(a)
        return b + a

    def make():
        x = np.arange(6.0).reshape(2, 3)
        return x, (x[::-1],)

    f = _both(fn, make, backend=backend)
    assert f.__npcompile_state__.broken


def test_arguments_sharing_memory_run_in_numpy():
    """``f(x, x[::-1])``: a copy would not see writes through ``x``, so NumPy runs (and explain says so)."""
    def fn(x, y):
        x[0] = 100.0
        return y[-1] + 0, x

    def shared():
        x = np.arange(4.0)
        return x, (x, x[::-1])

    _both(fn, shared)
    _both(lambda x, y: (x.__iadd__(1), y + 0), lambda: (lambda x: (x, (x[::-1], x[::-1])))(np.arange(3.0)))
    _both(lambda x, y: (y[0].__iadd__(1), x + 0), lambda: (lambda x: (x, (x[::-1], [x])))(np.arange(3.0)))
    report = C.explain(fn)(*shared()[1])
    assert [e.feature for e in report.fallbacks] == ["arrays with negative strides"], report
    assert "sharing no memory with another argument" in str(report)


def test_disjoint_parts_of_one_array_are_compiled():
    def fn(x, y):
        x += y
        return y[1:], x

    f = _both(fn, lambda: (lambda b: (b, (b[:4], b[4:][::-1])))(np.arange(8.0)))
    assert _compiled_one_graph(f)


def test_explain_reports_no_fallback():
    report = C.explain(lambda x: np.sin(x) * 2)(np.arange(10.0)[::-1])
    assert report.fallbacks == [] and report.graph_count == 1, report


def test_place_maps_views_only_at_regular_steps():
    """A view of the copy with no regular step in the caller's array (it would carry from one row into the
    next, which ``x[::-1]`` lays out in reverse) has no place there."""
    x = np.arange(12.0).reshape(3, 4)
    copies = _copies.Copies()
    t = copies.add(x[::-1], (), {})
    assert copies.place(t, t.data_ptr() + 8, (6,), (1,), 8) is None  # elements 1..6 of the copy
    ptr, strides = copies.place(t, t.data_ptr() + 8, (3,), (1,), 8)  # elements 1..3: row 0 of x[::-1]
    assert strides == (8,) and ptr == x[2, 1:].__array_interface__["data"][0]


def test_through_a_device(cpu_as_device):  # noqa: F811
    def fn(a, b):
        a += b
        return a[1:], a

    f = C.compile(fn, backend="aot_eager")
    for _ in range(2):  # through Dynamo (a snapshot compared), then the cached graph (the version counter)
        x, want = np.arange(6.0), np.arange(6.0)
        fn(want[::-1], np.ones(6))
        with torch.device("cpu"):
            v, r = f(x[::-1], np.ones(6))
        assert same(x, want) and r.base is x and np.shares_memory(v, x) and same(v, want[::-1][1:])
    assert len(cpu_as_device) == 2 and f.__npcompile_state__.direct.table


@pytest.mark.inductor
def test_inductor():
    def fn(a, b):
        a *= 2
        return np.sin(a) + b, a[1:]

    _both(fn, lambda: (lambda x: (x, (x[::-1, ::2], np.ones(2))))(np.arange(12.0).reshape(3, 4)), backend="inductor")
