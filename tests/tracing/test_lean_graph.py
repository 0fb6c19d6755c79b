"""Lean graph calls on the direct path (``npcompile.tracing._lean_graph``): AOTAutograd's runtime wrapper and
Inductor's ``CompiledFxGraph.__call__`` are skipped only where they have nothing to do, and the results, the
in-place effects, the version counters, grad mode and NumPy's errors stay what the full chain gives."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C
from npcompile.tracing import _lean_graph

from .conftest import same


def _graphs(f):
    """What the direct entries of the compiled function ``f`` call for their graphs."""
    return [v for _, _, fn in f.__npcompile_state__.direct.table
            for k, v in fn.__globals__.items() if k.startswith("__compiled_fn")]


def _is_lean(g):
    if g.__qualname__.startswith("_numpy_errors."):  # a graph with NumPy's errors for failed checks
        (g,) = (c.cell_contents for c in g.__closure__ if callable(c.cell_contents))
    return g.__qualname__.startswith("lean_call.")


def _warm(f, *args):
    for _ in range(2):
        f(*args)
    (g,) = _graphs(f)
    return g


def _normal_path(f):
    f.__npcompile_state__.direct.enabled = False  # every call through Dynamo, which runs the full chain
    f.__npcompile_state__.direct.table = ()
    return f


def k3(a, b):
    return np.sin(a) * b + 1.0


def _bump(a, t):
    t += 1.0  # a torch tensor argument, updated in place by the graph
    return a * 2.0


def test_plain_graph_runs_lean_and_matches_numpy():
    f = C.compile(k3, backend="aot_eager")
    x, y = np.random.rand(8), np.random.rand(8)
    assert _is_lean(_warm(f, x, y))
    for _ in range(3):
        assert same(f(x, y), k3(x, y))


def test_input_mutation_bumps_version_counters_as_the_full_chain():
    lean_f = C.compile(_bump, backend="aot_eager")
    full_f = C.compile(_bump, backend="aot_eager")
    x = np.random.rand(4)
    t_lean, t_full = torch.zeros(4), torch.zeros(4)
    assert _is_lean(_warm(lean_f, x, t_lean))
    _warm(full_f, x, t_full)
    _normal_path(full_f)
    v_lean, v_full = t_lean._version, t_full._version
    for _ in range(3):
        assert same(lean_f(x, t_lean), x * 2.0) and same(full_f(x, t_full), x * 2.0)
    assert torch.equal(t_lean, torch.full((4,), 5.0)) and torch.equal(t_full, t_lean)
    assert t_lean._version - v_lean == t_full._version - v_full > 0


def test_in_place_update_of_an_array_argument_runs_lean():
    def g(a):
        a[1:] += a[:-1]
        return a.sum()

    f = C.compile(g, backend="aot_eager")
    x = np.arange(6.0)
    assert _is_lean(_warm(f, x.copy()))
    got, ref = x.copy(), x.copy()
    assert same(f(got), g(ref)) and same(got, ref)


@pytest.mark.parametrize("fn", [lambda a: a[1:], lambda a: (a.T, a * 2)], ids=["view", "view_and_new"])
def test_outputs_aliasing_inputs_keep_the_full_chain(fn):
    f = C.compile(fn, backend="aot_eager")
    x = np.random.rand(3, 3)
    g = _warm(f, x)
    assert not _is_lean(g)  # AOTAutograd regenerates those outputs from the inputs
    r = f(x)
    assert same(r, fn(x))
    first = r[0] if isinstance(r, tuple) else r
    assert np.shares_memory(first, x)


def test_grad_mode_on_hands_over_to_the_full_chain():
    def h(a, b):  # (its own code: k3 went dynamic in the tests above, its graph takes the sizes too)
        return np.sin(a) * b + 1.0

    f = C.compile(h, backend="aot_eager")
    x, y = np.random.rand(4), np.random.rand(4)
    lean = _warm(f, x, y)
    assert _is_lean(lean)
    a, b = torch.rand(4, requires_grad=True), torch.rand(4)
    with torch.enable_grad():
        (out,) = lean(a, b)
    # AOTAutograd's wrapper runs an inference graph with grad mode off; called directly, the eager graph would
    # record autograd history.
    assert not out.requires_grad
    with torch.no_grad():
        (out,) = lean(a, b)
    assert not out.requires_grad and torch.allclose(out, torch.sin(a) * b + 1.0)


def _dims_marks(t):
    return {n: getattr(t, n, None) for n in ("_dynamo_propagated_dynamic_indices", "_dynamo_weak_dynamic_indices")}


def test_dynamic_graph_runs_lean_and_marks_dynamic_outputs_as_the_full_chain():
    def g(a, t):
        return a * 2.0, t + 1.0  # an array and a tensor result with a dynamic size

    lean_f = C.compile(g, backend="aot_eager", dynamic=True)
    full_f = C.compile(g, backend="aot_eager", dynamic=True)
    x, t = np.random.rand(5), torch.rand(5)
    _warm(lean_f, x, t)
    _warm(full_f, x, t)
    _normal_path(full_f)
    for n in (5, 7):
        x, t = np.random.rand(n), torch.rand(n)
        (ra, rt), (fa, ft) = lean_f(x, t), full_f(x, t)
        assert same(ra, x * 2.0) and same(fa, ra) and torch.equal(rt, t + 1.0) and torch.equal(ft, rt)
        assert _dims_marks(rt) == _dims_marks(ft)
    assert len(_graphs(lean_f)) == 1


def test_numpy_errors_on_the_lean_path():
    def power(a, b):
        return a ** b

    f = C.compile(power, backend="aot_eager")
    a, b = np.arange(1, 5), np.arange(4)
    assert _is_lean(_warm(f, a, b))
    with pytest.raises(ValueError, match="negative integer powers"):
        f(a, -b - 1)


def test_only_marked_runtime_wrappers_are_plain():
    assert _lean_graph.lean_call(lambda *a: a) is None
    assert _lean_graph.lean_call(torch.sin) is None


@pytest.mark.inductor
def test_inductor_lean_call_and_profiler():
    def h(a, b):  # (its own code, compiled static: k3 went dynamic in the tests above)
        return np.sin(a) * b + 1.0

    f = C.compile(h)
    x, y = np.random.rand(16), np.random.rand(16)
    assert _is_lean(_warm(f, x, y))
    assert same(f(x, y), h(x, y))
    with torch.profiler.profile() as prof:  # profiling: the full chain, which records the graph call
        assert same(f(x, y), h(x, y))
    assert any("CompiledFxGraph" in e.name for e in prof.events())
