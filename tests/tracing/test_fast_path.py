"""The direct call path (``npcompile.tracing._fast_path``): warm calls run Dynamo's cached code without its
frame hook, and must give exactly what the normal path gives, never using a dead cache entry."""

import contextlib
import gc

import numpy as np
import pytest
import torch

import npcompile
from npcompile import _compile as C
from npcompile import config
from npcompile.tracing import _fast_path
from npcompile.tracing._dynamo_patch import NESTED_GRAPH_BREAKS

from .conftest import RecordingBackend, same


def k3(a, b):
    return np.sin(a) * b + 1.0


@pytest.fixture
def normal_calls(monkeypatch):
    """Counts calls that went through Dynamo's frame hook (the normal path)."""
    count = [0]
    real = C._set_eval_frame

    def counting(cb):
        if cb is not None and cb is not False and isinstance(cb, C._Callback):
            count[0] += 1
        return real(cb)

    monkeypatch.setattr(C, "_set_eval_frame", counting)
    return count


def _normal_only(f):
    direct = f.__npcompile_state__.direct
    direct.enabled = False
    direct.table = ()
    return f


def _hooked(f):
    """Whether a direct entry of ``f`` runs code after a graph break (with Dynamo's callback set)."""
    return any(fn._npc_hooked for _, _, fn in f.__npcompile_state__.direct.table)


def _copies(args):
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def test_warm_calls_skip_dynamo_and_match_numpy(normal_calls):
    rec = RecordingBackend()
    f = C.compile(k3, backend=rec)
    x, y = np.random.rand(16), np.random.rand(16)
    for _ in range(5):
        assert same(f(x, y), k3(x, y))
    assert len(rec.graphs) == 1
    assert normal_calls[0] == 1  # the first call compiled; the other four were direct
    assert len(f.__npcompile_state__.direct.table) == 1


def _inplace_return(a, b):
    a *= 2
    return a


def _out_param(a, b):
    out = np.empty_like(a)
    r = np.multiply(a, b, out=out)
    return r, out


def _identities(out, args):
    """For each array in an output structure: which argument it is (-1: none)."""
    if isinstance(out, (tuple, list)):
        return [_identities(o, args) for o in out]
    if isinstance(out, dict):
        return {k: _identities(v, args) for k, v in out.items()}
    return next((i for i, a in enumerate(args) if out is a), -1)


@pytest.mark.parametrize("fn, kwargs", [
    (lambda a, b: a, {}),
    (_inplace_return, {}),
    (lambda a, b: (a * b).sum(), {}),
    (lambda a, b: (a[1:], b[::2], {"n": a.shape[0], "m": [a - b]}), {}),
    (_out_param, {}),
    (lambda a, b, scale=1.0, c=None: a * scale + c, {"scale": 3.0, "c": np.arange(16.0)}),
    (lambda a, b: (a + b).astype(np.float32), {}),
    (lambda a, b: np.maximum(a, 0.5) > b, {}),
], ids=["identity", "inplace", "scalar", "views_structures", "out", "kwargs", "astype", "bool"])
def test_direct_path_gives_what_the_normal_path_gives(fn, kwargs):
    direct_f = C.compile(fn, backend="aot_eager")
    normal_f = _normal_only(C.compile(fn, backend="aot_eager"))
    rng = np.random.default_rng(0)
    for _ in range(3):
        args = (rng.random(16), rng.random(16))
        kw = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        ref_args = _copies(args)
        expected = fn(*ref_args, **kw)
        results = []
        for f in (direct_f, normal_f):
            got_args = _copies(args)
            got = f(*got_args, **kw)
            assert same(got, expected), (got, expected)
            assert all(same(g, r) for g, r in zip(got_args, ref_args))  # in-place effects
            # an output that is an input comes back as the caller's very object, like NumPy's
            assert _identities(got, got_args) == _identities(expected, ref_args)
            results.append(got)
        assert same(results[0], results[1])
    assert direct_f.__npcompile_state__.direct.table  # these functions are single graphs: direct entries


def test_shape_dtype_and_aliasing_changes_recompile_with_right_values(normal_calls):
    rec = RecordingBackend()
    f = C.compile(k3, backend=rec)
    x, y = np.random.rand(16), np.random.rand(16)
    cases = [(x, y), (x.astype(np.float32), y.astype(np.float32)), (x[:7], y[:7]), (x, x), (x[:5], y[:5])]
    for _ in range(2):
        for a, b in cases:
            r = f(a, b)
            assert same(r, k3(a, b))
    assert 2 <= len(rec.graphs) <= 5
    n = normal_calls[0]
    for a, b in cases:  # everything compiled: all direct now
        assert same(f(a, b), k3(a, b))
    assert normal_calls[0] == n


def _warm_locals(x, y):
    """The locals the direct path checks guards against for f(x, y), with the tensors kept alive."""
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    return "11", (tx, ty), {}


@pytest.mark.parametrize("reset", [torch._dynamo.reset, npcompile.reset], ids=["torch", "npcompile"])
def test_reset_kills_direct_entries(reset):
    rec = RecordingBackend()
    f = C.compile(k3, backend=rec)
    x, y = np.random.rand(8), np.random.rand(8)
    f(x, y)
    f(x, y)
    direct = f.__npcompile_state__.direct
    (gm, check, _), = direct.table
    mask, args, kwargs = _warm_locals(x, y)
    with torch.no_grad():
        assert direct(mask, args, kwargs) is not _fast_path.MISS
        reset()
        # The dead entry's guards would still pass, but it is never called.
        assert check({"__npc_mask": mask, "args": args, "kwargs": kwargs, "fn": k3})
        assert direct(mask, args, kwargs) is _fast_path.MISS
    assert same(f(x, y), k3(x, y))
    assert len(rec.graphs) == 2  # compiled again
    assert len(direct.table) == 1 and direct.table[0][0] is not gm
    assert same(f(x, y), k3(x, y)) and len(rec.graphs) == 2


def test_entry_invalidated_by_a_freed_guarded_object():
    rec = RecordingBackend()

    def make():
        class Cfg:
            v = 2.0
        return Cfg()

    f = C.compile(lambda a, cfg: np.sin(a) + cfg.v, backend=rec)
    x = np.random.rand(4)
    cfg = make()
    f(x, cfg)
    f(x, cfg)
    gm = f.__npcompile_state__.direct.table[0][0]
    del cfg
    gc.collect()
    assert gm.cache_entry is None  # Dynamo invalidated the entry (its guarded class is gone)
    cfg = make()
    cfg.v = 5.0
    assert same(f(x, cfg), np.sin(x) + 5.0)
    assert all(item[0] is not gm for item in f.__npcompile_state__.direct.table)


SCALE = 2.0


def _broken(a):
    b = np.cos(a)
    npcompile.graph_break()
    return b * SCALE


def test_graph_break_functions_go_direct_behind_every_frames_guards(normal_calls, monkeypatch):
    """Code after a break runs with Dynamo's callback set; the resume frame is direct behind its own guards
    (here on a module global the entry's do not read), and when they fail Dynamo compiles it again."""
    rec = RecordingBackend()
    f = C.compile(_broken, backend=rec)
    x = np.random.rand(5)
    for _ in range(4):
        assert same(f(x), _broken(x))
    # (without nested graph breaks, torch 2.11, the entry function splits around the call too)
    n_graphs = len(rec.graphs)
    assert n_graphs == (2 if NESTED_GRAPH_BREAKS else 4)
    # (torch 2.11 makes the resume functions in the entry's code, which then stays on the normal path)
    direct = NESTED_GRAPH_BREAKS
    assert normal_calls[0] == (1 if direct else 4) and _hooked(f) == direct
    replaced = [v for _, _, fn in f.__npcompile_state__.direct.table for v in fn.__globals__.values()
                if isinstance(v, (_fast_path._Resume, _fast_path._ResumeFactory))]
    assert len(replaced) == direct  # the resume function is called directly too
    monkeypatch.setitem(globals(), "SCALE", 3.0)
    for _ in range(3):
        assert same(f(x), np.cos(x) * 3.0)
    assert normal_calls[0] == (1 if direct else 7) and len(rec.graphs) == n_graphs + 1  # after the break, again


def _loop(x, n):
    y = x * 2
    for i in range(n):
        y = y + x[i]
    return y + 3


@pytest.mark.skipif(not config.outline_loops, reason="loop outlining off")
def test_outlined_loop_goes_direct(normal_calls):
    direct_f = C.compile(_loop, backend="aot_eager")
    normal_f = _normal_only(C.compile(_loop, backend="aot_eager"))
    x = np.arange(16.0)
    for n in (0, 1, 5, 0, 3, 16, 2):
        expected = _loop(x, n)
        assert same(direct_f(x, n), expected) and same(normal_f(x, n), expected)
    assert same(direct_f(x.astype(np.float32), 4), _loop(x.astype(np.float32), 4))
    with pytest.raises(IndexError):
        direct_f(x, 17)
    assert _hooked(direct_f) == NESTED_GRAPH_BREAKS


def _code(src):
    return compile(src, "<test>", "exec").co_consts[0]


@pytest.mark.parametrize("src, factory, expected", [
    ("def g(a):\n    return __resume_at_1(a, 2)", False, True),
    ("def g(c):\n    return __resume_at_1(c)", True, False),  # a factory: what it makes is not called
    ("def g(c, a):\n    return __resume_at_1(c)(*a)", False, False),  # calls what the resume function gave
    ("def g(a):\n    r = __resume_at_1\n    return r(a)", False, False),  # kept
    ("def g(a):\n    return [__resume_at_1, a]", False, False),  # handed on as data
    ("def g(a):\n    __resume_at_1(a)\n    return __resume_at_1(a)", False, False),  # loaded twice
    ("def g(a):\n    return len(__resume_at_1(a))", False, False),  # its result not returned as it is
], ids=["call", "factory_only", "not_a_factory", "stored", "data", "twice", "result_used"])
def test_the_root_resume_call_is_recognised_only_as_dynamo_makes_it(src, factory, expected):
    """Only a resume function Dynamo's code calls last, returning what it returns, is replaced (``_Resume``);
    any other use of it keeps the real function (its frame then meets Dynamo's hook).  (Dynamo's factory
    sequence is met in the tests of functions with breaks.)"""
    assert _fast_path._calls_resume_last(_code(src), "__resume_at_1", factory) is expected


@npcompile.disable
def _bump(a):
    a += 1.0  # in NumPy: no version counter of the tensor behind ``a`` moves


def test_break_writing_a_negative_stride_argument_after_the_break():
    """Code after a break writes, in NumPy, the copy standing in for an argument torch cannot view: that write
    reaches the caller's array too."""
    def g(a):
        b = a * 2.0
        _bump(a)
        return a + b

    f = C.compile(g, backend="aot_eager")
    for _ in range(4):
        x, ref = np.arange(4.0)[::-1], np.arange(4.0)[::-1]
        assert same(f(x), g(ref)) and same(x, ref)
    assert _hooked(f) == NESTED_GRAPH_BREAKS


def _break_then_write(x):
    y = x + 1
    print(end="")  # a graph break: the write below runs in the resume function's code
    x[0] = y[1]
    return y


def test_an_error_after_the_break_is_the_calls(normal_calls):
    """NumPy's error raised by the resume function's direct code (a write into a read-only argument) is the
    call's, as on the normal path: that code is never run again through the hook (it has already emptied
    Dynamo's lists of nested frames, and re-tracing them failed in Dynamo's resume prologue); the warm calls
    hand Dynamo no frame to compile (npcompile's own included)."""
    f = C.compile(_break_then_write, backend="eager")
    frames = torch._dynamo.utils.counters["frames"]
    for k, writeable in enumerate((False, True, False, True, False)):
        if k == 2:
            compiled = frames["total"]
        a = np.array([3.0, 1.0, 2.0, 0.0])
        a.flags.writeable = writeable
        if writeable:
            assert same(f(a), np.array([4.0, 2.0, 3.0, 1.0])) and a.tolist() == [2.0, 1.0, 2.0, 0.0]
        else:
            with pytest.raises(ValueError, match="^assignment destination is read-only$"):
                f(a)
            assert a.tolist() == [3.0, 1.0, 2.0, 0.0]
    assert _hooked(f) == NESTED_GRAPH_BREAKS
    assert normal_calls[0] == (2 if NESTED_GRAPH_BREAKS else 5) and frames["total"] == compiled  # (nothing traced)


def test_python_scalars_compile_at_most_twice_and_go_direct(normal_calls):
    rec = RecordingBackend()
    f = C.compile(lambda a, s: a * s + s, backend=rec)
    x = np.random.rand(8)
    for i in range(20):
        s = 0.5 + i
        assert same(f(x, s), x * s + s)
    assert len(rec.graphs) <= 2
    assert normal_calls[0] <= 3


def test_global_state_guards_still_apply(normal_calls):
    rec = RecordingBackend()

    def g(a, t):
        return a * 2, t * 3

    f = C.compile(g, backend=rec)
    x = np.random.rand(3)
    for _ in range(2):
        r = f(x, torch.ones(3))
        assert same(r[0], x * 2) and not r[1].requires_grad
    t = torch.ones(3, requires_grad=True)
    for _ in range(2):  # grad mode on (an input requires grad): other guards, and autograd works
        r = f(x, t)
        assert r[1].requires_grad
    r[1].sum().backward()
    assert torch.equal(t.grad, torch.full((3,), 3.0))
    direct = f.__npcompile_state__.direct
    args = (torch.from_numpy(x), torch.ones(3))
    with torch.no_grad():
        assert direct("10", args, {}) is not _fast_path.MISS
        with torch.device("cpu"):  # Dynamo guards on the default device: the normal path decides
            assert direct("10", args, {}) is _fast_path.MISS


W = np.linspace(0.0, 1.0, 6)


def _uses_global(a):
    return np.sin(a) * W + 1.0


def test_module_level_array_goes_direct_and_is_read_per_call(normal_calls):
    global W
    keep = W
    rec = RecordingBackend()
    f = C.compile(_uses_global, backend=rec)
    x = np.random.rand(6)
    try:
        for _ in range(3):
            assert same(f(x), _uses_global(x))
        assert normal_calls[0] == 1 and len(f.__npcompile_state__.direct.table) == 1
        W[2] = 7.0  # updated in place: the next call sees it
        assert same(f(x), _uses_global(x))
        W = np.arange(6.0)  # rebound to another array of the same kind: read afresh, no recompile
        assert same(f(x), _uses_global(x)) and normal_calls[0] == 1
        for w in (np.arange(6, dtype=np.float32), np.arange(3.0)[:, None], 2.5):  # other dtype, shape, kind
            W = w
            for _ in range(2):
                assert same(f(x), _uses_global(x))
        assert normal_calls[0] == 4 and len(rec.graphs) == 4
    finally:
        W = keep


def test_trace_numpy_off_after_warm_calls():
    rec = RecordingBackend()
    f = C.compile(k3, backend=rec)
    x = np.random.rand(4)
    f(x, x + 1)
    f(x, x + 1)
    old = config.trace_numpy
    config.trace_numpy = False
    try:
        r = f(x, x + 1)
    finally:
        config.trace_numpy = old
    assert same(r, k3(x, x + 1))


def test_explain_then_warm_compiled(normal_calls):
    x, y = np.random.rand(4), np.random.rand(4)
    report = npcompile.explain(k3)(x, y)
    assert same(report.result, k3(x, y))
    assert same(report.compiled(x, y), k3(x, y))
    assert same(report.compiled(x, y), k3(x, y))
    assert normal_calls[0] == 1


def test_called_from_the_eager_part_of_a_torch_compiled_function():
    f = C.compile(k3, backend="eager")
    x, y = np.random.rand(4), np.random.rand(4)
    f(x, y)
    f(x, y)

    @torch.compile(backend="eager")
    def outer(t):
        u = t + 1
        torch._dynamo.graph_break()
        return u, f(x, y)

    for _ in range(2):
        u, r = outer(torch.ones(2))
        assert same(r, k3(x, y)) and torch.equal(u, torch.full((2,), 2.0))


@pytest.mark.inductor
def test_inductor_direct_path():
    f = C.compile(k3)
    x, y = np.random.rand(16), np.random.rand(16)
    for _ in range(3):
        assert same(f(x, y), k3(x, y))
    (_, _, fn), = f.__npcompile_state__.direct.table
    assert not fn._npc_hooked and not any("record_pregraph" in n for n in fn.__code__.co_names)



@pytest.mark.filterwarnings("ignore:The given NumPy array is not writable")
@pytest.mark.parametrize("mode", [None, "meta"], ids=["no_mode", "device_mode"])
def test_torch_for_arrays_gives_what_torch_gives(mode):
    """The direct path's torch (``_fast_path._TORCH_FOR_ARRAYS``) converts arrays as ``torch.as_tensor`` does."""
    lean = _fast_path._TORCH_FOR_ARRAYS
    ro = np.arange(4.0)
    ro.flags.writeable = False
    arrays = [np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3).T, np.ones((), np.float32), ro,
              np.arange(4.0)[::-1], np.arange(3, dtype=">i4"), np.zeros(2, dtype=np.complex64)]
    with torch.device(mode) if mode else contextlib.nullcontext():
        for a in arrays:
            try:
                expected = torch.as_tensor(a)
            except (TypeError, ValueError) as e:
                with pytest.raises(type(e)):
                    lean.as_tensor(a)
                continue
            got = lean.as_tensor(a)
            assert (got.dtype, got.device, got.shape, got.stride()) == \
                (expected.dtype, expected.device, expected.shape, expected.stride())
            if mode is None:
                assert torch.equal(got, expected) and got.data_ptr() == expected.data_ptr() == a.ctypes.data
                assert lean._as_tensor_fullprec(got) is got
        for x in (2.5, 3):
            assert lean._as_tensor_fullprec(x).dtype == torch._as_tensor_fullprec(x).dtype
    assert lean.float64 is torch.float64  # everything else is torch's


def test_contiguous_argument_with_a_negative_stride_on_a_length_one_axis():
    """NumPy calls ``a[::-1]`` of shape (1, 3) C-contiguous; torch cannot view its negative stride."""
    def g(a):
        a += 1.0
        return a * 2.0

    f = C.compile(g, backend="aot_eager")
    for _ in range(3):
        x, ref = np.arange(3.0).reshape(1, 3)[::-1], np.arange(3.0).reshape(1, 3)[::-1]
        assert x.flags.c_contiguous and x.strides[0] < 0
        assert same(f(x), g(ref)) and same(x, ref)


def test_to_numpy_helper_gives_what_dynamos_gives():
    from torch._dynamo.utils import to_numpy_helper

    mine = _fast_path._FASTER["torch._dynamo.utils"].to_numpy_helper
    values = [torch.arange(4.0), torch.ones(3, requires_grad=True), torch.tensor(2.5), (torch.zeros(2), 3),
              torch.arange(6).reshape(2, 3).T, 7, None]
    for v in values:
        got, expected = mine(v), to_numpy_helper(v)
        assert type(got) is type(expected)
        if isinstance(v, torch.Tensor):
            assert got.dtype == expected.dtype and got.shape == expected.shape and got.strides == expected.strides
            assert np.array_equal(got, expected) and got.ctypes.data == v.data_ptr()
