"""Slice writes into an array argument stay in place (npcompile/inductor/_reinplace.py).

Most tests run NumPy code through the shim and AOTAutograd with Inductor's decompositions, apply the pass to the
forward graph as Inductor would hand it over (no-op views removed), and run that graph: NumPy's values and the
argument mutated as NumPy mutates it, and no scatter left where the pass must act (or left where it must not). A
few compile with Inductor, with the loop bodies outlined as in real use."""

import re

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from npcompile import _compile as C
from npcompile.inductor import inductor_options
from npcompile.inductor._reinplace import ReinplacePass

from .pass_backend import PassBackend
from ..programs.programs import cholesky_inplace, lu_doolittle_args  # (factor a copy / the argument in place)

_SCATTERS = {torch.ops.aten.slice_scatter.default, torch.ops.aten.select_scatter.default}


def _Backend():
    return PassBackend(ReinplacePass())


def _run(fn, *args):
    """fn compiled through _Backend on copies of args, checked against NumPy: result and mutated arguments."""
    backend = _Backend()
    expected_args = [a.copy() for a in args]
    expected = fn(*expected_args)
    got_args = [a.copy() for a in args]
    got = C.compile(fn, backend=backend)(*got_args)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    for g, e in zip(got_args, expected_args):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)
    return backend


def _spd(n, seed=0):
    m = np.random.default_rng(seed).standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


def gauss_seidel_rows(u):
    for i in range(1, u.shape[0] - 1):
        u[i, 1:-1] = 0.25 * (u[i - 1, 1:-1] + u[i + 1, 1:-1] + u[i, :-2] + u[i, 2:])
    return u.sum()


def shifted_read_after_a_write(a):  # the second write reads its own row shifted: must stay functional
    for i in range(1, a.shape[0] - 1):
        a[i, 0] = 1.0
        a[i, 1:-1] = a[i, :-2] + a[i, 2:]
    return a.sum()


@pytest.mark.parametrize("fn, arg", [(lu_doolittle_args, _spd(9)), (cholesky_inplace, _spd(9))])
def test_factorizations_write_in_place(fn, arg):
    backend = _run(fn, arg)
    assert backend.graphs and not backend.calls(_SCATTERS)


def test_a_first_write_reading_its_own_row_shifted_is_in_place():
    backend = _run(gauss_seidel_rows, np.random.default_rng(1).standard_normal((7, 20)))
    assert backend.graphs and not backend.calls(_SCATTERS)


def test_a_write_reading_what_an_earlier_write_changed_stays_functional():
    backend = _run(shifted_read_after_a_write, np.arange(6 * 21.0).reshape(6, 21))
    assert backend.calls(_SCATTERS)


@pytest.mark.parametrize("name, fn", [
    ("disjoint rows", lambda a: (a.__setitem__(0, 1.0), a.__setitem__(slice(1, None), a[0] * 2))),
    ("copy from an overlapping slice", lambda a: (a.__setitem__((0, 0), 5.0), a.__setitem__(slice(1, None), a[:-1]))),
    ("transposed views", lambda a: (a.T.__setitem__((slice(1, None), 0), 3.0),
                                    a.T.__setitem__((0, slice(None)), a[:, 1] + a.T[0]))),
    ("negative indices", lambda a: (a.__setitem__((-1, slice(None, -1)), a[0, 1:]),
                                    a.__setitem__((slice(-2, None), -1), a[-3:-1, 0]))),
    ("same slice read and written twice", lambda a: (a.__setitem__(slice(1, 3), a[1:3] * 2),
                                                      a.__setitem__(slice(1, 3), a[1:3] + a[3:5]))),
    ("a view of an earlier version returned", lambda a: (a.__setitem__(0, 1.0), a.__setitem__(1, 2.0), a[0:2].sum())),
    ("reversed read of the written slice", lambda a: (a.__setitem__(0, 1.0), a.__setitem__(slice(1, 5), a[4:0:-1]))),
])
def test_pairs_of_writes_match_numpy(name, fn):
    a = np.arange(30.0).reshape(6, 5)
    _run(lambda a: (fn(a), a.sum())[1], a)


def test_views_of_the_argument_returned_after_its_writes():
    def f(a):
        a[0] = 1.0
        a[1:, 0] = a[1:, 1] * 2
        return a[1:], a.T

    a = np.arange(30.0).reshape(6, 5)
    expected = f(a.copy())
    backend = _Backend()
    got = C.compile(f, backend=backend)(a)
    assert not backend.calls(_SCATTERS)
    assert all(np.shares_memory(g, a) for g in got)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)


def test_a_non_contiguous_argument_matches_numpy():
    base = np.arange(60.0).reshape(6, 10)
    expected, got = base.copy(), base.copy()

    def f(a):
        a[0] = 1.0
        a[1:, 0] = a[1:, 1] * 2
        return a.sum()

    r = f(expected[:, ::2])
    assert C.compile(f, backend=_Backend())(got[:, ::2]) == r
    np.testing.assert_array_equal(got, expected)


def jacobi_sweep(u):
    v = u.copy()
    v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return v


def boundary_then_interior(u):
    v = np.empty_like(u)
    v[0], v[-1], v[1:-1, 0], v[1:-1, -1] = u[0], u[-1], u[1:-1, 0] * 2, 0.0
    v[1:-1, 1:-1] = u[1:-1, 1:-1] - u[:-2, 1:-1]
    return v


_BIG = np.random.default_rng(2).standard_normal((260, 270))  # (more elements than _reinplace._MIN_NEW)


@pytest.mark.parametrize("fn", [jacobi_sweep, boundary_then_interior,
                                lambda u: (v := np.zeros_like(u), v.__setitem__((slice(None), slice(1, -3)), 1.0),
                                           v.__setitem__((slice(2, None), 1), u[2:, 0]), v)[-1],
                                lambda u: (v := u[:, ::-1] * 2, v.__setitem__((slice(3, -3), slice(2, None)), 1.0),
                                           v)[-1]],
                         ids=["copy and interior", "boundaries and interior", "zeros and two writes", "computed root"])
def test_a_new_array_built_by_writes_is_written_in_place(fn):
    """A chain of writes making a new array (no argument written): each write a loop over its own slice, the rest
    of a copied array copied around a large first write; the argument untouched."""
    backend = _run(fn, _BIG)
    assert backend.graphs and not backend.calls(_SCATTERS)


@pytest.mark.parametrize("mode, width", [("constant", 1), ("constant", ((2, 0), (1, 3))), ("edge", 2), ("wrap", 1),
                                         ("wrap", 300), ("reflect", 3), ("mean", 1), ("empty", 1)])
def test_pad_writes_its_areas_in_place(mode, width):
    """``np.pad`` writes the array into a new one and then each pad area: compiled, loops over the areas, no
    concatenation (which copied the whole array once per axis) and no scatter; a stencil on it as NumPy's."""
    if mode == "empty":  # (its areas uninitialized: only the middle compared)
        backend = _run(lambda u: np.pad(u, width, mode)[1:-1, 1:-1] * 2, _BIG)
    else:
        backend = _run(lambda u: (p := np.pad(u, width, mode))[2:, 1:-1] - p[:-2, 1:-1], _BIG)
    assert backend.graphs and not backend.calls(_SCATTERS | {torch.ops.aten.cat.default})


@pytest.mark.parametrize("fn, arg", [
    (lambda u: (v := u.copy(), v.__setitem__((slice(1, -1), slice(1, -1)), 0.0), v)[-1], _BIG[:20]),
    (lambda u: (v := u.copy(), v.__setitem__(slice(0, 100), 0.0), v)[-1], _BIG),
    (lambda u: (v := u.copy(), v.__setitem__(slice(None, None, 2), 0.0), v)[-1], _BIG)],
    ids=["too small", "first write under half", "stepped first write"])
def test_a_new_array_stays_one_loop_where_that_costs_less(fn, arg):
    backend = _run(fn, arg)
    assert backend.calls(_SCATTERS)


@pytest.mark.parametrize("name, fn", [
    ("an edge copied from the new interior", lambda u: (v := u.copy(), v.__setitem__((slice(1, -1), slice(1, -1)),
                                                                                      u[1:-1, 1:-1] * 3),
                                                        v.__setitem__(0, v[1]), v)[-1]),
    ("a shifted read of the new interior", lambda u: (v := u.copy(), v.__setitem__((slice(1, -1), slice(1, -1)), 1.0),
                                                      v.__setitem__((slice(1, -1), slice(2, None)), v[1:-1, :-2] + 1),
                                                      v)[-1]),
    ("an earlier version read", lambda u: (v := np.empty_like(u), v.__setitem__(slice(None), u * 2),
                                           s := v.sum(), v.__setitem__(0, 3.0), v + s)[-1]),
])
def test_new_arrays_match_numpy(name, fn):
    _run(fn, _BIG)


def test_the_pass_is_installed_for_cpu_graphs():
    assert isinstance(inductor_options()["post_grad_custom_post_pass"], ReinplacePass)


@pytest.mark.inductor
@pytest.mark.parametrize("fn, arg", [(lu_doolittle_args, _spd(20)), (cholesky_inplace, _spd(20)),
                                     (gauss_seidel_rows, np.arange(6 * 67.0).reshape(6, 67) % 7),
                                     (shifted_read_after_a_write, np.arange(6 * 67.0).reshape(6, 67))])
def test_inductor_matches_numpy(fn, arg):
    expected_arg, got_arg = arg.copy(), arg.copy()
    np.testing.assert_allclose(C.compile(fn)(got_arg), fn(expected_arg), rtol=1e-12)
    np.testing.assert_allclose(got_arg, expected_arg, rtol=1e-12)


@pytest.mark.inductor
def test_inductor_step_writes_only_the_slices():
    """One LU step (k = 3) on a 64x64 argument: no 64x64 buffer is allocated, and no loop runs over all 64 rows
    or columns (without the pass: a new 64x64 version written, then copied back over 4096 elements)."""
    from torch._inductor.utils import run_and_get_code

    def step(a, k):
        a[k + 1:, k] = a[k + 1:, k] / a[k, k]
        a[k + 1:, k + 1:] = a[k + 1:, k + 1:] - a[k + 1:, k, None] * a[None, k, k + 1:]

    a = _spd(64)
    expected = a.copy()
    step(expected, 3)
    _, code = run_and_get_code(C.compile(step), a, 3)
    np.testing.assert_allclose(a, expected, rtol=1e-12)
    code = "\n".join(code)
    bounds = [int(b) for b in re.findall(r"for\(int64_t x\d+=.*?; x\d+<static_cast<int64_t>\((\d+)L\);", code)]
    assert bounds and max(bounds) < 64 and "empty_strided_cpu((64, 64)" not in code, code


@pytest.mark.inductor
@pytest.mark.parametrize("fn", [jacobi_sweep, boundary_then_interior])
def test_inductor_new_array_loops_over_each_slice(fn):
    """No loop over the whole new array testing each element against the writes (masked loads, blends)."""
    from torch._inductor.utils import run_and_get_code

    got, code = run_and_get_code(C.compile(fn), _BIG)
    np.testing.assert_array_equal(got, fn(_BIG))
    assert "all_zero" not in "".join(code) and "blendv" not in "".join(code)


_N = 256  # (a 256x256 array: as many elements as _reinplace._MIN_NEW)
_edges = st.one_of(st.none(), st.integers(-_N, _N))


@st.composite
def _new_array_programs(draw):
    """(root, writes): the new array's start ("copy" of u, "zeros", or "empty" filled by a first write of all of
    it) and writes ``v[box] = src``, a box a pair of slices or an int and a slice (the first one often most of
    the array), src "u" (u[box] * 3), "v" (the array's own elements at the box moved by (dr, dc), plus 1) or
    "const"."""
    large = st.tuples(st.one_of(st.none(), st.integers(0, 3)), st.one_of(st.none(), st.integers(-3, -1))).map(
        lambda t: slice(*t))
    any_slice = st.tuples(_edges, _edges).map(lambda t: slice(*t))
    root = draw(st.sampled_from(["copy", "zeros", "empty"]))
    writes = []
    for i in range(draw(st.integers(1, 4))):
        rows, cols = (draw(large), draw(large)) if i == 0 and draw(st.booleans()) else \
            (draw(st.one_of(st.integers(-_N, _N - 1), any_slice)), draw(any_slice))
        writes.append(((rows, cols), draw(st.sampled_from(["u", "v", "const"])),
                       draw(st.tuples(st.integers(-2, 2), st.integers(-2, 2)))))
    return root, writes


def _shifted(index, by):
    """``index`` (an int or a slice of step 1 along an axis of _N) moved by ``by`` where it stays inside."""
    r = range(_N)[index]
    if isinstance(index, int):
        return r + by if 0 <= r + by < _N else r
    return slice(r.start + by, r.stop + by) if len(r) and 0 <= r.start + by and r.stop + by <= _N else index


def _text(index):
    return str(index) if isinstance(index, int) else \
        f"{'' if index.start is None else index.start}:{'' if index.stop is None else index.stop}"


def _build(root, writes):
    """The program as a function of straight-line code (a Python loop over the writes would be outlined: its body
    a graph of its own, writing into an argument)."""
    lines = ["def f(u):", "    v = " + {"copy": "u.copy()", "zeros": "np.zeros_like(u)", "empty": "np.empty_like(u)"}[root]]
    if root == "empty":
        lines.append("    v[:] = u * 2")
    for (rows, cols), src, (dr, dc) in writes:
        box = f"{_text(rows)}, {_text(cols)}"
        lines.append(f"    v[{box}] = " + {"u": f"u[{box}] * 3", "const": "7.0",
                                            "v": f"v[{_text(_shifted(rows, dr))}, {_text(_shifted(cols, dc))}] + 1"}[src])
    namespace = {"np": np}
    exec(compile("\n".join(lines + ["    return v"]), f"<program {abs(hash(str(writes)))}>", "exec"), namespace)
    return namespace["f"]


@settings(max_examples=40, deadline=None, database=None, derandomize=True)
@given(_new_array_programs())
def test_new_arrays_built_by_random_writes_match_numpy(program):
    """Chains of writes making a new array, each reading the argument or the array itself at a shifted box:
    NumPy's values, whatever the pass does with them."""
    f = _build(*program)
    u = np.random.default_rng(len(program[1])).random((_N, _N))
    np.testing.assert_array_equal(C.compile(f, backend=_Backend())(u.copy()), f(u.copy()))
