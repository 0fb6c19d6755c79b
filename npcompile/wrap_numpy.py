"""``wrap_numpy``: a NumPy function becomes a function from torch tensors to torch tensors.

Eagerly, the function runs on the shim: tensors become shim arrays without a copy, the function's ``numpy``
globals are rebound to ``npcompile._numpy`` (and any real NumPy call that still sees a shim array dispatches
to the shim through NEP 13/18), so data stays on its device and autograd records every op.

Under ``npcompile.compile`` the same conversions are written as ``Tensor.numpy()`` and ``torch.from_numpy``,
which TorchDynamo treats as free re-labellings, and the body is traced as NumPy code through the shim.  Under a
plain ``torch.compile`` Dynamo would trace the body with its own ``torch._numpy`` (other dtypes and results than
NumPy's, and many functions missing), so there the eager call is one opaque node (``nonstrict_trace``) that
AOTAutograd traces through the shim's torch ops: one graph, gradients, NumPy's semantics.  Where that trace
cannot go on (a branch on the data) the call is a graph break and runs eagerly, with Dynamo off.
"""

from __future__ import annotations

import functools
import itertools
import types

import numpy
import torch

import npcompile._numpy as shim
from npcompile._numpy import ndarray

_ids = itertools.count()
_SHIM_MODULES = {numpy: shim, numpy.linalg: shim.linalg, numpy.fft: shim.fft, numpy.random: shim.random}


def _shim_globals(fn):
    """``fn`` with its module-level references to NumPy (modules and functions) pointing at the shim."""
    if not isinstance(fn, types.FunctionType):
        return fn
    g = dict(fn.__globals__)
    changed = False
    for name, value in fn.__globals__.items():
        target = _shim_target(value)
        if target is not None:
            g[name] = target
            changed = True
    if not changed:
        return fn
    new = types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    return new


def _shim_target(value):
    if isinstance(value, types.ModuleType):
        return _SHIM_MODULES.get(value)
    mod = getattr(value, "__module__", None)
    if callable(value) and isinstance(mod, str) and mod.startswith("numpy"):
        owner = _SHIM_MODULES.get(getattr(numpy, mod.split(".")[1], None) if "." in mod else numpy, shim)
        name = getattr(value, "__name__", None)
        target = getattr(owner, name, None) if name else None
        if target is None and name:
            target = getattr(shim, name, None)
        return target
    return None


def _map(x, f):
    if isinstance(x, tuple):
        return type(x)(*(_map(e, f) for e in x)) if hasattr(x, "_fields") else tuple(_map(e, f) for e in x)
    if isinstance(x, list):
        return [_map(e, f) for e in x]
    if isinstance(x, dict):
        return {k: _map(v, f) for k, v in x.items()}
    return f(x)


def _input_device(args, kwargs):
    devices = []
    _map((args, kwargs), lambda x: devices.append(x.device) if isinstance(x, torch.Tensor) else None)
    distinct = list(dict.fromkeys(devices))
    if len(distinct) > 1:
        raise RuntimeError(f"wrap_numpy: input tensors are on different devices: {distinct[0]} and {distinct[1]}")
    return distinct[0] if distinct else None


def wrap_numpy(fn):
    """Make ``fn`` (NumPy arrays -> NumPy arrays) a function of torch tensors returning torch tensors.

    Tensors anywhere in the arguments (also inside tuples, lists and dicts) become arrays on the same device;
    arrays in the result become tensors on that device; NumPy scalars become 0-D tensors; other results pass
    through.  Gradients flow through the NumPy code.
    """
    eager_fn = _shim_globals(fn)

    def eager(*args, **kwargs):
        device = _input_device(args, kwargs)
        args, kwargs = _map((args, kwargs), lambda x: shim.ndarray(x) if isinstance(x, torch.Tensor) else x)
        with torch.device(device) if device is not None else _nullcontext():
            out = eager_fn(*args, **kwargs)
        return _map(out, lambda x: _to_tensor(x, device))

    in_graph = _opaque_to_dynamo(eager)

    def wrapper(*args, **kwargs):
        if not torch.compiler.is_compiling():
            return eager(*args, **kwargs)
        if _numpy_mode():
            return _traced_call(fn, args, kwargs)
        return in_graph(*args, **kwargs)

    # A code object of its own, with a name of its own: Dynamo caches compiled frames per code object, so wrappers
    # sharing one would share torch.compile's recompile limit (the ninth ``torch.compile(wrap_numpy(f))`` ran
    # uncompiled), and keeps what it learnt of sizes (automatic dynamic shapes) per file, line and name, so two
    # wrapped functions of one name would make each other's sizes symbolic.
    wrapper.__code__ = wrapper.__code__.replace(co_name=f"wrap_numpy_{getattr(fn, '__name__', 'fn')}_{next(_ids)}")
    return functools.wraps(fn)(wrapper)


def _opaque_to_dynamo(eager):
    """``eager`` as a nonstrict_trace node: AOTAutograd runs it on fake tensors, and where a graph break runs it
    in Python, Dynamo does not trace into the shim (``disable``).  This imports TorchDynamo (about a second, once),
    which a wrapper needs before its first compiled call; ``import npcompile`` itself does not."""
    import torch._dynamo

    torch._dynamo.assume_constant_result(_numpy_mode)
    disabled = torch._dynamo.disable(eager)

    def body(*args, **kwargs):
        return disabled(*args, **kwargs)

    return torch._dynamo.nonstrict_trace(body)


def _numpy_mode() -> bool:
    """Whether Dynamo is tracing for ``npcompile.compile`` (the shim in place of torch._numpy).  Marked
    ``assume_constant_result``: read once per trace, a constant of the graph, no guard (a compiled frame is only
    ever traced in one of the two modes)."""
    from npcompile.tracing import _dynamo_patch

    return _dynamo_patch.is_active()


def _traced_call(fn, args, kwargs):
    """Under Dynamo: the conversions are graph-level no-ops and the body is traced as NumPy code."""
    args, kwargs = _map((args, kwargs), lambda x: x.numpy() if isinstance(x, torch.Tensor) else x)
    out = fn(*args, **kwargs)
    return _map(out, lambda x: torch.from_numpy(x) if isinstance(x, numpy.ndarray) else
                torch.as_tensor(x) if isinstance(x, numpy.generic) else x)


def _to_tensor(x, device):
    if isinstance(x, ndarray):
        return x.tensor
    if isinstance(x, (numpy.ndarray, numpy.generic)):
        t = torch.as_tensor(numpy.asarray(x))
        return t.to(device) if device is not None else t
    return x


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
