"""``npcompile.compile`` under ``with torch.device(d)``: NumPy operations stay NumPy operations (the device
context's torch function mode never sees them), arguments move to ``d`` (not at all for the CPU), kernels run
there, results come back as NumPy arrays and in-place updates reach the caller's arrays.

No GPU here: the CPU context checks the zero-copy path; the meta device (no data: any host copy would raise)
checks that arguments and the arrays the function creates are on ``d`` in the graph; and the CPU posing as a
separate device (a real copy of every argument) checks the copy-back and the mapping of views back onto the
caller's arrays."""

import numpy as np
import pytest
import torch

import npcompile
from npcompile import _compile as C
from npcompile.tracing import _devices

from .conftest import RecordingBackend, same


def _numpy_code(a, b):
    c = np.zeros(3)
    s = 0.0
    for row in a[:2]:
        s = s + row.sum()
    b[0] += 1  # in place on the caller's array
    return a * b[:, None] + len(a) + a[1:].sum() + c.sum() + np.sin(b).mean() + s, np.arange(4) * 2.0, a.T


def _args():
    return np.arange(12.0).reshape(4, 3), np.linspace(0.0, 1.0, 4)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_cpu_device_context_runs_numpy_code(backend):
    want_args, got_args = _args(), _args()
    want = _numpy_code(*want_args)
    f = C.compile(_numpy_code, backend=backend)
    for _ in range(2):  # the first call compiles; the second runs the cached code (direct path)
        got_args = _args()
        with torch.device("cpu"):
            got = f(*got_args)
        assert same(got, want) and same(got_args, want_args)
    assert f.__npcompile_state__.direct.table


def test_cpu_device_context_is_zero_copy(monkeypatch):
    def no_move(*a):
        raise AssertionError("arguments moved under the CPU device")

    monkeypatch.setattr(_devices, "Moved", no_move)
    a = np.arange(6.0)
    with torch.device("cpu"):
        r = C.compile(lambda x: x[2:], backend="eager")(a)
    r[0] = -1.0
    assert a[2] == -1.0


def test_device_context_outside_the_function_after_a_plain_call():
    f = C.compile(lambda a: a * 2 + 1, backend="eager")
    a = np.arange(3.0)
    assert same(f(a), a * 2 + 1)
    with torch.device("cpu"):  # another context: Dynamo's guards send the call to a new cache entry
        assert same(f(a), a * 2 + 1)
    assert same(f(a), a * 2 + 1)


def test_meta_device_runs_the_graph_on_the_device():
    rec = RecordingBackend()

    def g(a, b):
        return a * b + np.ones(4) + np.arange(4) + np.array([1.0, 2.0, 3.0, 4.0]) + np.linspace(0, 1, 4)

    f = C.compile(g, backend=rec)
    a, b = np.arange(4.0), np.ones(4)
    with torch.device("meta"), pytest.raises(NotImplementedError, match="meta"):
        f(a, b)  # the graph ran on meta tensors; a result on meta has no data to come back
    (gm,) = rec.graphs
    values = [n.meta["example_value"] for n in gm.graph.nodes if isinstance(n.meta.get("example_value"), torch.Tensor)]
    assert len(values) > 2 and all(v.device.type == "meta" for v in values)
    assert same(a, np.arange(4.0)) and same(b, np.ones(4))


@pytest.fixture
def cpu_as_device(monkeypatch):
    """The CPU posing as a separate device: every argument is copied, so only the copy-back reaches the
    caller's arrays.  Returns the list of ``Moved`` objects the calls made."""
    made = []

    class Recorded(_devices.Moved):
        __slots__ = ()

        def __init__(self, host, device):
            super().__init__(host, device)
            made.append(self)

    monkeypatch.setattr(_devices, "run_device", lambda: torch.device("cpu") if torch._C._len_torch_function_stack()
                        else None)
    monkeypatch.setattr(_devices, "Moved", Recorded)
    return made


def _inplace_and_views(a, b, out):
    np.add(a, 1.0, out=out)
    a[1:] *= 2.0
    return out, a[1:], a.T, b.sum(), a


@pytest.mark.parametrize("backend", ["aot_eager", pytest.param("inductor", marks=pytest.mark.inductor)])
def test_copy_back_and_views_through_a_device(cpu_as_device, backend):
    f = C.compile(_inplace_and_views, backend=backend)
    for _ in range(2):
        want_args = (np.arange(6.0).reshape(3, 2), np.arange(3.0), np.zeros((3, 2)))
        got_args = tuple(x.copy() for x in want_args)
        want = _inplace_and_views(*want_args)
        with torch.device("cpu"):
            got = f(*got_args)
        assert same(got, want) and same(got_args, want_args)
        a, b, out = got_args
        assert got[0] is out and got[4] is a  # the caller's own objects
        for view in got[1:3]:  # new arrays on the caller's memory
            assert view is not a and np.shares_memory(view, a)
        got[1][0, 0] = -5.0
        assert a[1, 0] == -5.0
    assert f.__npcompile_state__.direct.table  # warm calls took the direct path, with the moved arguments
    moved = cpu_as_device[-1]
    for host, run in zip(moved.host, moved.run):  # the graphs ran on copies
        assert host.untyped_storage().data_ptr() != run.untyped_storage().data_ptr()


def test_aliasing_arguments_alias_on_the_device(cpu_as_device):
    def f(x, y):
        y[0] = 100.0  # y views x: NumPy sees the write through x
        return x * 1

    base = np.arange(6.0)
    want_base = base.copy()
    want = f(want_base, want_base[2:])
    with torch.device("cpu"):
        got = C.compile(f, backend="aot_eager")(base, base[2:])
    assert same(got, want) and same(base, want_base)
    run = cpu_as_device[-1].run
    assert run[0].untyped_storage().data_ptr() == run[1].untyped_storage().data_ptr()


def test_unmodified_arguments_are_not_copied_back(cpu_as_device):
    a, b = np.arange(4.0), np.ones(4)
    with torch.device("cpu"):
        C.compile(lambda x, y: np.multiply(x, 2.0, out=x) + y, backend="eager")(a, b)
    moved = cpu_as_device[-1]
    assert [r._version != v for r, v in zip(moved.run, moved.versions)] == [True, False]
    assert same(a, np.arange(4.0) * 2)


def test_updates_in_real_numpy_after_a_graph_break_stay_on_the_device_copy(cpu_as_device):
    """Documented limit (as in ``torch.compile``): after a graph break, real NumPy works on host arrays made
    from the device data, and what it writes there does not reach the caller's array."""

    def f(a):
        b = a * 2
        npcompile.graph_break()
        a += 1  # real NumPy, after the break
        return b

    a = np.zeros(3)
    with torch.device("cpu"):
        r = C.compile(f, backend="eager")(a)
    assert same(r, np.zeros(3)) and same(a, np.zeros(3))
    plain = np.zeros(3)
    C.compile(f, backend="eager")(plain)  # without the device, the caller's array is updated
    assert same(plain, np.ones(3))
