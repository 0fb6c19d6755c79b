"""AOTAutograd's cache for graphs that call the shim.

A process with warm caches still traced each graph through AOTAutograd and ran Inductor's passes (and their
one-off set-up, about 2 s in the first compile of a process) before Inductor's own cache answered: AOTAutograd's
cache, which would skip all that, refuses a graph with a call it cannot name, and every graph of ours calls the
shim (``ShimCall`` and the other targets of ``_dynamo_patch``).  Torch takes a function as cacheable when
Inductor's ``unsafe_marked_cacheable_functions`` lists it by module and name, with a version that enters the
key.  Ours get names that say exactly what they run: the shim object by where it lives in the shim's modules
(so ``np.diagonal`` and ``np.linalg.diagonal``, both ``npc_diagonal`` before, differ), the device it runs under
and its 0-d marks, hashed into the name; the version is a hash of npcompile's sources.  A graph with anything
the key would not see (a user's function or a generator's bound method called, an object passed as an argument)
or a random draw is left as it is, and AOTAutograd skips its cache as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import sys
import types
from pathlib import Path

import torch

from . import _dynamo_patch
from ._dynamo_patch import ShimCall, ShimMethodCall, ShimOperatorCall, shim_attr

_PLAIN = (type(None), bool, int, float, complex, str, type(Ellipsis), torch.dtype, torch.device, torch.fx.Node)


def cacheable(gm: torch.fx.GraphModule, example_inputs):
    """A context for compiling ``gm`` in which AOTAutograd's cache takes it: its shim calls made nameable (when
    every node of the graph can be named) and their names listed in Inductor's
    ``unsafe_marked_cacheable_functions``, with npcompile's sources hash as their version.  Not where two inputs
    share memory: AOTAutograd rebuilds one as a view of the other at this call's offset, which its cache key
    does not see (a graph compiled for ``f(y, y[:, 0])`` answered ``f(y, y[:, 1])`` with column 0)."""
    if _share_memory(example_inputs):
        return contextlib.nullcontext()
    names = {}
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "output", "get_attr"):
            continue
        if not _plain((node.args, node.kwargs)):
            return contextlib.nullcontext()
        if node.op == "call_function" and isinstance(node.target, (ShimCall, ShimMethodCall, ShimOperatorCall)):
            name = _identity(node.target)
            if name is None:
                return contextlib.nullcontext()
            names[node] = name
    marked = {f"{shim_attr.__module__}.{shim_attr.__name__}": _sources()}  # (an attribute: its name is in the code)
    for node, name in names.items():
        node.target = target = _importable(node.target, name)
        marked[f"{target.__module__}.{target.__name__}"] = _sources()
    gm.recompile()
    import torch._inductor.config as inductor_config

    return inductor_config.patch(unsafe_marked_cacheable_functions=marked)


def _share_memory(inputs) -> bool:
    storages = [t.untyped_storage()._cdata for t in inputs if isinstance(t, torch.Tensor)]  # (as _dynamo_patch)
    return len(set(storages)) < len(storages)


def _importable(target, name: str):
    """One target per name (they run the same), reachable as ``_dynamo_patch.<its name>``, as the pickling of the
    graph for the cache key requires; the name ends in a hash of ``name``, and so tells the targets apart in the
    graph's code and in the list of cacheable functions."""
    if getattr(_dynamo_patch, target.__name__, None) is target:
        return target  # (named already: the same target in a later graph)
    attr = f"{target.__name__}_{hashlib.sha256(name.encode()).hexdigest()[:16]}"
    canonical = getattr(_dynamo_patch, attr, None)
    if canonical is None:
        canonical = target
        canonical.__name__ = canonical.__qualname__ = attr
        setattr(_dynamo_patch, attr, canonical)
    return canonical


def _identity(target) -> str | None:
    marks = f"|0d={target.array0d}"
    if isinstance(target, ShimMethodCall):
        return f"method:{target.method}{marks}"
    if isinstance(target, ShimOperatorCall):
        op = target.op
        return f"op:{getattr(op, '__module__', '?')}.{getattr(op, '__qualname__', '?')}{marks}"
    path = _shim_paths().get(id(target.f))
    if path is None or getattr(target.f, "__module__", "").startswith("npcompile._numpy.random"):
        return None  # (random draws: their streams hang on state outside the graph)
    return f"call:{path}|{target.device}{marks}"


@functools.cache
def _shim_paths() -> dict[int, str]:
    """id -> ``module.name`` of every function, ufunc and class in the shim's modules (the first, in sorted
    order, where an object is found under several names).  Bound methods (generators' draws) are not named."""
    import npcompile._numpy  # noqa: F401  (its submodules load with it)

    paths: dict[int, str] = {}
    for modname in sorted(m for m in sys.modules if m == "npcompile._numpy" or m.startswith("npcompile._numpy.")):
        for name, obj in sorted(vars(sys.modules[modname]).items()):
            if callable(obj) and not isinstance(obj, (types.MethodType, types.ModuleType)):
                paths.setdefault(id(obj), f"{modname}.{name}")
    return paths


@functools.cache
def _sources() -> str:
    """A hash of npcompile's Python sources (what a shim call runs) and NumPy's version (which it consults)."""
    import numpy
    from torch._inductor.custom_graph_pass import get_hash_for_files

    root = Path(__file__).resolve().parent.parent
    return f"{get_hash_for_files(tuple(str(f) for f in sorted(root.rglob('*.py')))).hex()}|numpy {numpy.__version__}"


def _plain(arg) -> bool:
    """Whether ``arg`` prints into the graph's code as what it is (so the code in the key tells it apart)."""
    if isinstance(arg, (tuple, list)):
        return all(_plain(a) for a in arg)
    if isinstance(arg, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in arg.items())
    if isinstance(arg, slice):
        return _plain((arg.start, arg.stop, arg.step))
    if isinstance(arg, type):  # printed as a global named by its qualified name: ours, NumPy's, Python's
        return arg.__module__.split(".")[0] in ("npcompile", "numpy", "builtins", "torch")
    return isinstance(arg, _PLAIN) or isinstance(arg, torch.SymInt | torch.SymFloat | torch.SymBool)
