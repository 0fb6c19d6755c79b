"""The Dynamo patch is scoped: npcompile graphs call npcompile._numpy, plain torch.compile graphs torch._numpy,
in the same process, before and after each other, for the very same Python function."""

import numpy as np
import torch
import torch._dynamo.utils as dy_utils
import torch._dynamo.variables.misc as dy_misc
import torch._dynamo.variables.tensor as dy_tensor

import npcompile._numpy as shim
from npcompile import _compile as C
from npcompile.tracing import _dynamo_patch as P

from .conftest import RecordingBackend


def kernel(a, b):
    return np.sin(a) * b + 1.0


def _shim_funcs(gm):
    return [n.target.f for n in gm.graph.nodes if n.op == "call_function" and isinstance(n.target, P.ShimCall)]


def _uses_shim_only(gm):
    kinds = [n.target for n in gm.graph.nodes if n.op == "call_function"]
    numpy_nodes = [t for t in kinds if isinstance(t, P.GRAPH_CALLABLE_TYPES) or t is P.shim_attr]
    return bool(numpy_nodes) and not P.graph_references_torch_numpy(gm)


def _torch_compile_graph(fn, a, b):
    rec = RecordingBackend()
    out = torch.compile(fn, backend=rec)(a, b)
    np.testing.assert_allclose(out, fn(a, b))
    assert len(rec.graphs) == 1
    return rec.graphs[0]


def test_torch_compile_before_and_after_npcompile_is_untouched():
    a, b = np.random.rand(8), np.random.rand(8)
    before = _torch_compile_graph(kernel, a, b)
    assert P.graph_references_torch_numpy(before)
    assert not any(isinstance(n.target, P.GRAPH_CALLABLE_TYPES) for n in before.graph.nodes)

    rec = RecordingBackend()
    out = C.compile(kernel, backend=rec)(a, b)
    np.testing.assert_allclose(out, kernel(a, b))
    assert len(rec.graphs) == 1
    assert _uses_shim_only(rec.graphs[0])
    assert shim.sin in _shim_funcs(rec.graphs[0])

    # Same function object, compiled by torch again after npcompile: torch._numpy, and npcompile's cache
    # entries are not reused (Dynamo tags entries with their backend).
    after = _torch_compile_graph(kernel, a, b)
    assert P.graph_references_torch_numpy(after)
    assert not any(isinstance(n.target, P.GRAPH_CALLABLE_TYPES) for n in after.graph.nodes)


def test_graph_calls_shim_functions_only():
    rec = RecordingBackend()

    def f(x, y):
        z = np.exp(x) + np.maximum(x, y) * 2
        w = np.zeros(x.shape, dtype=x.dtype)
        return z - w

    x, y = np.random.rand(3, 4), np.random.rand(3, 4)
    np.testing.assert_allclose(C.compile(f, backend=rec)(x, y), f(x, y))
    assert len(rec.graphs) == 1
    funcs = _shim_funcs(rec.graphs[0])
    assert shim.exp in funcs and shim.maximum in funcs and shim.zeros in funcs
    for fn in funcs:
        assert not (getattr(fn, "__module__", "") or "").startswith("torch._numpy")
    assert not P.graph_references_torch_numpy(rec.graphs[0])


def test_patch_restored_after_compile_and_on_exception():
    originals = [(dy_utils, "numpy_to_tensor_wrapper"), (dy_utils, "tnp"), (dy_tensor, "tnp"),
                 (dy_misc, "get_np_to_tnp_map"), (dy_misc.NumpyVariable, "can_constant_fold_through"),
                 (dy_tensor.NumpyNdarrayVariable, "var_getattr")]
    before = [getattr(o, n) for o, n in originals]
    C.compile(kernel, backend="eager")(np.ones(3), np.ones(3))
    assert [getattr(o, n) for o, n in originals] == before
    assert not P.is_active()
    try:
        with P.numpy_mode():
            assert dy_utils.tnp is shim
            raise KeyError("boom")
    except KeyError:
        pass
    assert [getattr(o, n) for o, n in originals] == before
    assert dy_utils.tnp.__name__ == "torch._numpy"


def test_patch_not_active_while_compiled_code_runs():
    seen = []

    @C.disable
    def probe(x):  # runs uncompiled, between graphs
        seen.append(P.is_active())
        return x

    @C.compile(backend="eager")
    def f(a):
        b = np.sin(a)
        C.graph_break()
        return probe(b) + 1

    f(np.ones(3))
    f(np.ones(3))
    assert seen == [False, False]


def test_unsupported_torch_version_message(monkeypatch):
    import pytest

    monkeypatch.setattr(torch, "__version__", "2.99.0")
    with pytest.raises(ImportError, match="2.11 to 2.13"):
        P.check_torch_version()


W = np.arange(4.0)  # a module-level array read by the function below


def _adds_global(a):
    return a + W


def test_module_level_array_guards_are_ours_only_in_our_compiles():
    """The guards on a module-level array convert it with npcompile's faster ``_guard_from_numpy`` (built while our
    patch is active) and still catch what Dynamo's catch: new values are read, a new dtype or shape recompiles.
    A plain torch.compile's guards keep Dynamo's own conversion."""
    global W
    import torch._dynamo.guards as dy_guards

    original = dy_guards.from_numpy
    rec = RecordingBackend()
    f = C.compile(_adds_global, backend=rec)
    a = np.ones(4)
    try:
        np.testing.assert_array_equal(f(a), a + W)
        W[0] = 10.0  # same array, new values: no recompile
        np.testing.assert_array_equal(f(a), a + W)
        assert len(rec.graphs) == 1
        W = np.arange(4, dtype=np.float32)  # a new dtype: the guard fails, Dynamo recompiles
        got = f(a)
        assert got.dtype == np.float64 and np.array_equal(got, a + W) and len(rec.graphs) == 2
        W = np.arange(2.0)  # a new shape: NumPy's broadcasting error after a recompile
        with np.testing.assert_raises(ValueError):
            f(a)
    finally:
        W = np.arange(4.0)
    assert dy_guards.from_numpy is original
    with P.numpy_mode():
        assert dy_guards.from_numpy is P._guard_from_numpy
    np.testing.assert_array_equal(torch.compile(_adds_global, backend="eager")(a), a + W)
