"""Branch cutting (npcompile.tracing._branches): a top-level ``if`` on array values (or holding one) runs in Python
between compiled parts, also in outlined loop bodies, with exactly Python's and NumPy's semantics, and functions
whose meaning could change are left alone."""

import numpy as np
import pytest

from npcompile import _compile as C
from npcompile import config

from .conftest import RecordingBackend, same

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")


def _check(fn, *args, cut=True, **kwargs):
    """Compiled result, exceptions and in-place effects equal NumPy's; the function was (or was not) cut."""
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    compiled = C.compile(fn, backend="eager")
    try:
        want = fn(*ref, **kwargs)
    except Exception as e:  # noqa: BLE001 - the compiled function must raise the same
        with pytest.raises(type(e), match=str(e)):
            compiled(*got_args, **kwargs)
    else:
        got = compiled(*got_args, **kwargs)
        assert same(got, want), (got, want)
    for g, r in zip(got_args, ref):
        if isinstance(r, np.ndarray):
            assert same(g, r)
    assert getattr(compiled, "_npc_driver", False) == cut
    return compiled


def _sign_flip(a, b):
    c = np.sin(a) * b + 1.0
    if (c > 0).all():
        return c
    return -c


def _validate_then_loop(u, steps):
    if np.any(u < 0):
        raise ValueError("negative temperatures")
    u = u.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + 0.25 * (u[:-2] - 2 * u[1:-1] + u[2:])
    return u


def _writes_around_the_test(x, y):
    x[0] = 5.0
    v = x[1:]  # a view, carried across the cut
    if x.sum() > 10:
        v[0] = -1.0
        y += 1
    else:
        y -= 1
    x[-1] = 9.0
    return x, v, y


def _walrus_and_defaults(x, scale=2.0, *, shift=1.0):
    if (m := np.max(x * scale)) > 3:
        x = x - m
    return x + shift, m


def _two_tests(x):
    r = np.abs(x)
    if np.isnan(r).any():
        r = np.nan_to_num(r)
    if r.sum() == 0:
        return None  # falls through otherwise
    r /= r.sum()


def _varargs(*xs):
    total = sum(xs)
    if np.mean(total) > 1:
        return total, len(xs)
    return -total, xs


def _maybe_unbound(x, flag):
    if flag:
        y = x * 2
    if np.any(x > 0):
        return y  # unbound when not flag: left to Dynamo
    return x


def _returns_before(x):
    for v in x:
        if v > 100:
            return v
    if np.any(x > 0):
        return x
    return -x


def _closure_cell(x):
    k = 3.0

    def g(z):
        return z * k  # k is a cell: the function is left alone

    if np.any(x > 0):
        return g(x)
    return x


@pytest.mark.parametrize("fn,args,kwargs", [
    (_sign_flip, (np.arange(4.0), np.ones(4)), {}), (_sign_flip, (np.arange(4.0) - 9, np.ones(4)), {}),
    (_validate_then_loop, (np.linspace(0, 1, 12), 30), {}), (_validate_then_loop, (np.linspace(-1, 1, 12), 30), {}),
    (_writes_around_the_test, (np.arange(6.0), np.zeros(2)), {}),
    (_writes_around_the_test, (np.zeros(6), np.zeros(2)), {}),
    (_walrus_and_defaults, (np.arange(3.0),), {}), (_walrus_and_defaults, (np.arange(3.0), 0.5), {"shift": -2.0}),
    (_two_tests, (np.array([1.0, np.nan, -3.0]),), {}), (_two_tests, (np.zeros(3),), {}),
    (_varargs, (np.ones(2), np.ones(2) * 3), {}), (_varargs, (np.zeros(2),), {}),
], ids=lambda x: getattr(x, "__name__", ""))
def test_cut_functions_keep_python_and_numpy_semantics(fn, args, kwargs):
    _check(fn, *args, **kwargs)


@pytest.mark.parametrize("fn,args", [(_maybe_unbound, (np.arange(3.0), True)), (_returns_before, (np.arange(3.0),)),
                                     (_closure_cell, (np.arange(3.0),))], ids=lambda x: getattr(x, "__name__", ""))
def test_functions_whose_meaning_could_change_are_not_cut(fn, args):
    _check(fn, *args, cut=False)


def test_identity_and_views_across_the_cut():
    x, y = np.arange(6.0), np.zeros(2)
    rx, rv, ry = C.compile(_writes_around_the_test, backend="eager")(x, y)
    assert rx is x and ry is y and np.shares_memory(rv, x)


def test_a_cut_has_no_graph_break_and_compiles_each_part_once():
    report = C.explain(_sign_flip)(np.arange(4.0), np.ones(4))
    assert report.graph_break_count == 0 and report.graph_count == 2
    rec = RecordingBackend()
    f = C.compile(_sign_flip, backend=rec)
    for k in range(2):  # both branches (``return c`` is no graph)
        assert same(f(np.arange(4.0) - 9 * k, np.ones(4)), _sign_flip(np.arange(4.0) - 9 * k, np.ones(4)))
    graphs = len(rec.graphs)
    assert graphs == 2
    for k in range(6):  # new values compile nothing more
        assert same(f(np.arange(4.0) - 3 * k, np.ones(4)), _sign_flip(np.arange(4.0) - 3 * k, np.ones(4)))
    assert len(rec.graphs) == graphs


def _nested_test(x, flag):
    y = x * 2
    if flag:
        if np.any(y < 0):
            y = -y
        else:
            return y.sum()
        y = y + 1
    return y


def _test_in_loop_body(x, n):
    acc = 0.0
    for i in range(n):
        x = np.sin(x) * 1.5
        if np.abs(x).max() > 1.2:
            x = x / 2
            continue
        acc += x[0]
    return x, acc


@pytest.mark.parametrize("args", [(np.linspace(-1, 1, 5), True), (np.linspace(1, 2, 5), True),
                                  (np.linspace(-1, 1, 5), False)])
def test_an_if_holding_an_array_test_is_cut_and_its_parts_too(args):
    _check(_nested_test, *args)
    report = C.explain(_nested_test)(*args)
    assert report.graph_break_count == 0


@pytest.mark.parametrize("x", [np.linspace(-1, 1, 6), np.linspace(0, 0.1, 6)])
def test_array_tests_in_loop_bodies_are_cut(x):
    _check(_test_in_loop_body, x, 20, cut=False)  # the function is outlined (its loop body is cut)
    report = C.explain(_test_in_loop_body)(x, 20)
    assert [e.feature for e in report.graph_breaks] == ["outlined loop"]


def test_loops_after_the_cut_are_still_outlined():
    report = C.explain(_validate_then_loop)(np.linspace(0, 1, 12), 30)
    assert [e.feature for e in report.graph_breaks] == ["outlined loop"]


def test_switch():
    old = config.cut_branches
    config.cut_branches = False
    try:
        _check(_sign_flip, np.arange(4.0), np.ones(4), cut=False)
    finally:
        config.cut_branches = old
    assert not getattr(C.compile(_sign_flip, backend="eager", fullgraph=True), "_npc_driver", False)


def test_called_from_another_compiled_function():
    inner = C.compile(_sign_flip, backend="eager")

    def outer(a, b):
        return inner(a, b) * 2

    _check(outer, np.arange(4.0), np.ones(4), cut=False)
