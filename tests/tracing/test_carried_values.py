"""Values Dynamo must carry into and out of npcompile's graphs: a NumPy scalar the function reads from a global or
a closure cell (a graph input, numpy.uint64 included, which ``torch.as_tensor`` refuses), and a dtype, scalar type,
``finfo`` or ``iinfo`` made in the graph and returned (a constant).  Each is one graph, with NumPy's values."""

import math

import numpy as np
import pytest
import torch

from npcompile import _compile as C

from .conftest import RecordingBackend, same

_SCALARS = [np.uint64(0x100000001B3), np.uint64(2**64 - 5), np.int8(-7), np.float32(1.5), np.complex64(1 - 2j),
            np.bool_(True)]

_S = None  # set by each test before it compiles


def _times_global(k):
    return k * _S, _S


def _closure_times(s):
    def times(k):
        return k * s, s

    return times


def _array_for(s):
    return np.arange(4, dtype=np.int16 if s.dtype == np.bool_ else s.dtype)


def _one_graph(fn, *args):
    rep = C.explain(fn, backend="eager")(*args)
    assert rep.graph_count == 1 and not rep.graph_breaks and not rep.fallbacks, rep
    return rep


@pytest.mark.parametrize("s", _SCALARS, ids=repr)
def test_a_global_numpy_scalar_is_a_graph_input(s, monkeypatch):
    monkeypatch.setitem(globals(), "_S", s)
    k = _array_for(s)
    assert same(_one_graph(_times_global, k).result, _times_global(k))


@pytest.mark.parametrize("s", _SCALARS, ids=repr)
def test_a_closure_numpy_scalar_is_a_graph_input(s):
    fn, k = _closure_times(s), _array_for(s)
    assert same(_one_graph(fn, k).result, fn(k))


def test_a_changed_global_scalar_is_read_afresh(monkeypatch):
    """The value is read on every call (no constant in the graph); a new dtype recompiles."""
    rec = RecordingBackend()
    monkeypatch.setitem(globals(), "_S", np.uint64(3))
    k = np.arange(4, dtype=np.uint64)
    compiled = C.compile(_times_global, backend=rec)
    assert same(compiled(k), _times_global(k))
    for s in (np.uint64(2**64 - 1), np.uint64(7)):
        monkeypatch.setitem(globals(), "_S", s)
        assert same(compiled(k), _times_global(k))
    assert len(rec.graphs) == 1
    monkeypatch.setitem(globals(), "_S", np.int8(-2))
    assert same(compiled(k), _times_global(k))  # uint64 * int8 -> float64, as NumPy
    assert len(rec.graphs) == 2


def test_a_changed_cell_scalar_is_read_afresh():
    s = np.uint64(3)

    def times(k):
        return k * s

    k = np.arange(4, dtype=np.uint64)
    compiled = C.compile(times, backend="eager")
    assert same(compiled(k), times(k))
    s = np.uint64(2**63 + 1)
    assert same(compiled(k), times(k))


def _plain_times(k):
    return k * _P


_P = np.uint64(0x100000001B3)


def test_plain_torch_compile_is_unchanged():
    """A plain torch.compile still does what torch does with a uint64 scalar (torch 2.13: fails, since
    ``torch.as_tensor`` refuses it), before and after npcompile compiled the same code."""
    k = np.arange(4, dtype=np.uint64)

    def plain():
        torch._dynamo.reset()
        try:
            return torch.compile(_plain_times, backend="eager")(k)
        except Exception as e:
            return type(e)

    before = plain()
    assert same(_one_graph(_plain_times, k).result, _plain_times(k))
    after = plain()
    assert after is before if isinstance(before, type) else same(after, before)
    guards = torch._dynamo.guards  # the names Dynamo evaluates guard sources with are its own again
    assert guards._get_closure_vars()["___from_numpy"] is guards.from_numpy
    try:
        torch.as_tensor(_P)
    except TypeError:
        assert before is torch._dynamo.exc.InternalTorchDynamoError


def _returned_dtype_from(z):
    return z * 2, z.dtype


def _calls_a_function_returning_a_dtype(z):
    y, d = _returned_dtype_from(z)
    return y + 1, d


def _dtype_across_a_graph_break(z):
    d = (z * 2j).dtype
    torch._dynamo.graph_break()
    return z.astype(d), d


@pytest.mark.parametrize("fn", [
    lambda z: (z * 3.0, (z * 2j).dtype),
    lambda z: (z * 3.0, z.dtype.type),
    lambda z: (z * 3.0, z.real.dtype),
    lambda z: (z * 3.0, np.result_type(z, 1.0)),
    lambda z: (z * 3.0, np.promote_types(z.dtype, np.float64)),
    lambda z: (z * 3.0, np.finfo(z.dtype)),
    lambda z: (z * 3.0, np.iinfo(np.int8)),
    _calls_a_function_returning_a_dtype,
], ids=["dtype", "dtype.type", "real.dtype", "result_type", "promote_types", "finfo", "iinfo", "called"])
def test_a_returned_dtype_is_numpys(fn):
    z = np.arange(4, dtype=np.complex64)
    rep = _one_graph(fn, z)
    got, exp = rep.result, fn(z)
    assert same(got[0], exp[0]) and type(got[1]) is type(exp[1])
    if isinstance(exp[1], np.iinfo):  # a new object per call, as NumPy makes
        assert rep.compiled(z)[1] is not got[1] and (got[1].dtype, got[1].min, got[1].max) == (exp[1].dtype, -128, 127)
    else:
        assert got[1] is exp[1]


def test_a_dtype_live_across_a_graph_break():
    z = np.arange(4, dtype=np.float32)
    rep = C.explain(_dtype_across_a_graph_break, backend="eager")(z)
    assert same(rep.result, _dtype_across_a_graph_break(z)) and not rep.fallbacks, rep


@pytest.mark.parametrize("fn", [
    lambda x: x.astype(np.float16) * np.finfo(np.float32).eps,  # a float32 scalar: float32, not float16
    lambda x: (np.finfo(x.dtype).eps, 4 * np.finfo(x.dtype).tiny, np.finfo(np.float16).max, np.iinfo(np.int8).min),
    lambda x: x * math.sqrt(np.finfo(x.dtype).eps),
    lambda x: x[: int(-np.log10(np.finfo(x.dtype).eps))],
    lambda x: np.full(3, np.finfo(x.dtype).resolution) + x[:3],
], ids=["promotes", "returned", "math", "int", "full"])
def test_finfo_attributes_are_numpy_scalars(fn):
    x = np.linspace(1, 2, 20, dtype=np.float32)
    assert same(_one_graph(fn, x).result, fn(x))


def _fnv_step(k):
    return (k ^ _S) * _P, k.dtype


@pytest.mark.inductor
def test_a_global_uint64_scalar_and_a_returned_dtype_under_inductor(monkeypatch):
    monkeypatch.setitem(globals(), "_S", np.uint64(0xCBF29CE484222325))
    k = np.arange(2**63, 2**63 + 8, dtype=np.uint64)
    rep = C.explain(_fnv_step, backend="inductor")(k)
    assert rep.graph_count == 1 and not rep.fallbacks and same(rep.result, _fnv_step(k)), rep
    monkeypatch.setitem(globals(), "_S", np.uint64(2**64 - 1))
    assert same(rep.compiled(k), _fnv_step(k))
