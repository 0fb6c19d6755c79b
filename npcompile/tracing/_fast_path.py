"""The direct call path: run Dynamo's cached code for a compiled function without Dynamo's frame hook.

Why: a warm call through Dynamo's frame hook (set the eval-frame callback, C frame interception, cache lookup,
guard evaluation, then a frame for the transformed code) costs several times what the compiled kernel does
on small arrays.  After the first call, the entry function's code object holds Dynamo's cache entries; for an
entry whose transformed code does nothing but call compiled graphs (no resume functions, no user code), we
evaluate that entry's guards ourselves and call its transformed code as a plain function.  That runs exactly
the code Dynamo would run on a cache hit, with the same locals, after the same guards.  Anything else
(a graph break, a guard failure, a first call) takes the normal path through Dynamo, which compiles or
recompiles; the table of direct entries is rebuilt after Dynamo compiled anything for the entry.

The run-time Dynamo internals npcompile relies on are all here (the trace-time ones are in
``_dynamo_patch``):

* ``torch._dynamo.eval_frame._debug_get_cache_entry_list(code)``: the cache entries of a code object, each
  with ``.code`` (the transformed code object, same arguments and free variables as the original) and
  ``.guard_manager`` (a ``GuardManagerWrapper``: ``.root.check(f_locals)`` evaluates all the entry's guards,
  global state such as grad mode and the default device included, given the frame's locals as a dict).  The
  entry objects are non-owning views of C++ entries: only their code and guard manager are kept.
* ``guard_manager.cache_entry``: set by Dynamo's C++ ``CacheEntry`` to itself, and back to ``None`` by its
  destructor (``torch._dynamo.reset()``) and by its invalidation (a guarded object was freed).  A direct entry
  is only used while it is not ``None``, so a dead entry is never called.
* A compiled graph is installed as a ``torch._dynamo.disable`` wrapper (``_torchdynamo_disable``, the graph
  as ``__wrapped__``) that only clears the frame callback around the call; the direct call clears it itself
  and calls the graph, or the graph's lean call, which skips AOTAutograd's and Inductor's per-call wrappers
  where they have nothing to do (``_lean_graph``, which lists the internals it relies on).
* ``torch._dynamo.config.record_runtime_overhead`` (set off while we compile, see ``config_patches``): the
  profiler bookkeeping Dynamo otherwise puts into every transformed code.
* Dynamo's code for an array graph input read from a module, ``torch._as_tensor_fullprec(torch.as_tensor(
  mod.W))``, loads torch as a global: the direct code gets ``_TorchForArrays`` in its place.

A torch without these (or with an entry of another shape) simply gets no direct entries: every call then
takes the normal path.
"""

from __future__ import annotations

import dis
import types

import numpy as np
import torch

from . import _lean_graph

try:
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list as _cache_entries
except ImportError:  # pragma: no cover - torch without it: normal path only
    _cache_entries = None

from torch._C._dynamo.eval_frame import set_eval_frame as _set_eval_frame

_ndarray = np.ndarray
_from_numpy = torch.from_numpy
_tf_stack_len = torch._C._len_torch_function_stack

MISS = object()  # returned by ``DirectPath.__call__`` when no direct entry's guards pass

# Globals a transformed code may load and still count as "only calls the compiled graphs": the graphs,
# modules and constants.  Modules: torch (Dynamo's helpers such as ``torch._as_tensor_fullprec`` for float
# arguments) and the user's modules (``__import_<name>``), through which the code reads module-level arrays the
# function uses (``torch.as_tensor(mod.W)``) afresh on every call, after the guards checked the very objects it
# reads (the module by id; the array's dtype, shape and strides as a tensor).  (The entry's globals are
# npcompile's own module, whose constants are never rebound, and Dynamo's ``__import_*`` names, set once.)
_GRAPH_PREFIX = "__compiled_fn_"
_CONSTANT_TYPES = (str, int, float, complex, bool, bytes, type(None))
# Opcodes through which a transformed code could reach user code or module state (closure cells, globals,
# imports): an entry using any of them stays on the normal path.
_DENIED_OPS = frozenset({"LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_CLOSURE", "STORE_DEREF", "DELETE_DEREF",
                         "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_NAME", "STORE_NAME",
                         "DELETE_NAME", "STORE_GLOBAL", "DELETE_GLOBAL", "IMPORT_NAME", "IMPORT_FROM",
                         "IMPORT_STAR"})


def config_patches() -> dict:
    """Dynamo settings for our compiles that keep transformed code lean (applied by the caller's patch)."""
    if hasattr(torch._dynamo.config, "record_runtime_overhead"):
        return {"record_runtime_overhead": False}
    return {}


def _allowed_global(name: str, module_globals: dict) -> bool:
    if name.startswith(_GRAPH_PREFIX):
        return True
    v = module_globals.get(name)
    if isinstance(v, types.ModuleType):
        return name.startswith("__import_") or v.__name__ == "torch" or v.__name__.startswith("torch.")
    return type(v) in _CONSTANT_TYPES


def _direct_only(code: types.CodeType, module_globals: dict) -> bool:
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op in _DENIED_OPS:
            return False
        if op == "LOAD_GLOBAL":
            if not _allowed_global(ins.argval, module_globals):
                return False
    return True


def _globals_for(code: types.CodeType, module_globals: dict) -> dict:
    """The globals a direct entry's code loads, each compiled graph as ``_lean_graph.direct_callable`` gives it
    and torch as ``_TorchForArrays``."""
    g = {"__builtins__": module_globals.get("__builtins__")}
    for ins in dis.get_instructions(code):
        if ins.opname == "LOAD_GLOBAL" and ins.argval not in g:
            v = module_globals[ins.argval]
            if ins.argval.startswith(_GRAPH_PREFIX):
                v = _lean_graph.direct_callable(v)
            elif v is torch:
                v = _TORCH_FOR_ARRAYS
            g[ins.argval] = v
    return g


def array_tensor(a):
    """``torch.from_numpy(a)`` for a plain ndarray where no torch function mode is active (then that is what
    ``torch.as_tensor(a)`` gives, a view of its memory, in a fraction of the time), else None: a dtype or byte
    order torch lacks, negative strides, a subclass, or a mode (a default device) that may put it elsewhere."""
    if type(a) is _ndarray and not _tf_stack_len():
        try:
            return _from_numpy(a)
        except (TypeError, ValueError):
            pass
    return None


class _TorchForArrays:
    """torch as a direct entry's code sees it: what it applies to a module-level array the function reads,
    ``torch._as_tensor_fullprec(torch.as_tensor(mod.W))`` (Dynamo's code for an array graph input, several µs),
    is ``array_tensor`` and the tensor itself where that is their answer; anything else is torch's."""

    def __getattr__(self, name):
        return getattr(torch, name)

    @staticmethod
    def as_tensor(data, *args, **kwargs):
        t = None if args or kwargs else array_tensor(data)
        return torch.as_tensor(data, *args, **kwargs) if t is None else t

    @staticmethod
    def _as_tensor_fullprec(t):
        if type(t) is torch.Tensor and not _tf_stack_len():
            return t  # (torch.as_tensor of a tensor, with no dtype, device or mode to apply)
        return torch._as_tensor_fullprec(t)


_TORCH_FOR_ARRAYS = _TorchForArrays()


class DirectPath:
    """The direct entries of one entry function ``entry(first, *args, **kwargs)``, and the call that tries
    them (an entry function of another shape gets no direct entries)."""

    def __init__(self, entry: types.FunctionType):
        self.entry = entry
        code = entry.__code__
        shaped = code.co_argcount == 1 and not code.co_kwonlyargcount and code.co_flags & 0x0C == 0x0C
        self.enabled = shaped and _cache_entries is not None
        # The entry's locals at frame start, by name, as the guards read them: its three parameters, and its
        # free variables (cells the entry never rebinds, so their contents are fixed).
        self.names = code.co_varnames[:3] if shaped else ()
        self.fixed = {n: c.cell_contents for n, c in zip(code.co_freevars, entry.__closure__ or ())}
        self.table: tuple = ()  # (guard manager, its check, function running the transformed code), MRU first
        self.stale = True  # Dynamo may have compiled something for the entry since the table was built

    def refresh(self) -> None:
        self.stale = False
        if not self.enabled:
            return
        entry = self.entry
        known = {id(item[0]): item for item in self.table}
        table = []
        for ce in _cache_entries(entry.__code__):
            gm = getattr(ce, "guard_manager", None)
            code = getattr(ce, "code", None)
            if gm is None or not isinstance(code, types.CodeType) or getattr(gm, "cache_entry", None) is None:
                continue
            item = known.get(id(gm))
            if item is None:
                root = getattr(gm, "root", None)
                if (root is None or code.co_freevars != entry.__code__.co_freevars
                        or not _direct_only(code, entry.__globals__)):
                    continue
                fn = types.FunctionType(code, _globals_for(code, entry.__globals__), code.co_name, None,
                                        entry.__closure__)
                item = (gm, root.check, fn)
            table.append(item)
        self.table = tuple(table)

    def __call__(self, first, args: tuple, kwargs: dict):
        """``entry(first, *args, **kwargs)`` by the first direct entry whose guards pass, else ``MISS``."""
        n0, n1, n2 = self.names
        f_locals = {n0: first, n1: args, n2: kwargs, **self.fixed}
        for gm, check, fn in self.table:
            if gm.cache_entry is None:  # died (reset / invalidated): rebuild after the normal path ran
                self.stale = True
                continue
            try:
                passed = check(f_locals)
            except Exception:  # a guard that raises: the normal path repeats Dynamo's own handling
                return MISS
            if passed:
                # As on a Dynamo cache hit, minus the frame callback: nothing the code calls is compiled
                # (the graphs are Dynamo-disabled anyway), so an outer torch.compile's hook is set aside too.
                prior = _set_eval_frame(None)
                try:
                    return fn(first, *args, **kwargs)
                finally:
                    if prior is not None:
                        _set_eval_frame(prior)
        return MISS
