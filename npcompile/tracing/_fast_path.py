"""The direct call path: run Dynamo's cached code for a compiled function without Dynamo's frame hook.

Why: a warm call through Dynamo's frame hook (set the eval-frame callback, C frame interception, cache lookup,
guard evaluation, then a frame for the transformed code) costs several times what the compiled kernel does
on small arrays.  After the first call, the entry function's code object holds Dynamo's cache entries; we
evaluate an entry's guards ourselves and call its transformed code as a plain function.  That runs exactly
the code Dynamo would run on a cache hit, with the same locals, after the same guards.  Anything else
(a guard failure, a first call) takes the normal path through Dynamo, which compiles or recompiles; the table
of direct entries is rebuilt after Dynamo compiled anything for the entry.

Two kinds of direct entry:

* Graphs only (the transformed code calls nothing but compiled graphs and torch helpers): run with the frame
  callback cleared, as nothing it calls would be compiled.
* After a graph break (a resume function, user code such as an outlined loop's runner, npcompile's own
  ``_pack``): run with our frame callback set, as Dynamo runs it on a cache hit, so every function it calls
  meets Dynamo's hook exactly as on the normal path; only the frame whose guards we evaluated skips the hook
  (its code is a copy marked ``skip_code``).  The root frame's resume function, which the code calls last, is
  called the same way: its own cache entries' guards evaluated on its arguments, its transformed code run
  directly, else the real function through the hook (Dynamo compiles it if need be).  Dynamo's code for that
  call is recognised by simulating the stack from the resume function's load to the return
  (``_calls_resume_last``); code where that fails keeps the real resume function (the hook's path).
  Globals such code reads are Dynamo's (installed once, never rebound), modules, constants and the names the
  entry function itself reads (npcompile's ``_pack``...): the direct code gets them as they were when the
  entry was built.

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
* ``torch._dynamo.eval_frame.skip_code(code)``: the hook runs frames of ``code`` without a cache lookup (their
  callees still meet the hook); our own functions that run while the callback is set are marked so too.
* A compiled graph is installed as a ``torch._dynamo.disable`` wrapper (``_torchdynamo_disable``, the graph
  as ``__wrapped__``) that only clears the frame callback around the call; the direct call clears it itself
  and calls the graph, or the graph's lean call, which skips AOTAutograd's and Inductor's per-call wrappers
  where they have nothing to do (``_lean_graph``, which lists the internals it relies on).
* Resume functions are globals named ``__resume_at_*``: the function, or (code with free variables) a
  factory ``f(closure)`` making it, whose ``code`` closure cell is the resume code.
* ``torch._dynamo.config.record_runtime_overhead`` (set off while we compile, see ``config_patches``): the
  profiler bookkeeping Dynamo otherwise puts into every transformed code.
* Dynamo's code for an array graph input read from a module, ``torch._as_tensor_fullprec(torch.as_tensor(
  mod.W))``, loads torch as a global, and its code for a graph output handed on as an array,
  ``torch._dynamo.utils.to_numpy_helper(out)``, that module: the direct code gets ``_Module``s in their place
  whose replacements give torch's answers on those values faster.

A torch without these (or with an entry of another shape) simply gets no direct entries: every call then
takes the normal path.
"""

from __future__ import annotations

import dis
import sys
import types

import numpy as np
import torch
import torch._dynamo.utils as _dynamo_utils

from . import _lean_graph

try:
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list as _cache_entries
    from torch._dynamo.eval_frame import skip_code as _skip_code
except ImportError:  # pragma: no cover - torch without them: normal path only
    _cache_entries = _skip_code = None

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
_RESUME_PREFIX = "__resume_at_"
_CONSTANT_TYPES = (str, int, float, complex, bool, bytes, type(None))
# Opcodes through which a transformed code could reach user code or module state (closure cells, globals,
# imports) or hand on its globals (a function it makes, such as torch 2.11's resume functions, would get the
# direct entry's): an entry using any of them stays on the normal path, but for reads of its free variables
# (cells of the entry function, which it never rebinds) in code run with the callback set.
_DENIED_OPS = frozenset({"LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_CLOSURE", "STORE_DEREF", "DELETE_DEREF",
                         "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_NAME", "STORE_NAME",
                         "DELETE_NAME", "STORE_GLOBAL", "DELETE_GLOBAL", "IMPORT_NAME", "IMPORT_FROM",
                         "IMPORT_STAR", "MAKE_FUNCTION"})
_FREE_READS = frozenset({"LOAD_DEREF", "LOAD_CLOSURE"})


def config_patches() -> dict:
    """Dynamo settings for our compiles that keep transformed code lean (applied by the caller's patch)."""
    if hasattr(torch._dynamo.config, "record_runtime_overhead"):
        return {"record_runtime_overhead": False}
    return {}


def _allowed_global(name: str, module_globals: dict) -> bool:
    if name.startswith(_GRAPH_PREFIX):
        return True
    if name not in module_globals:
        return False
    v = module_globals[name]
    if isinstance(v, types.ModuleType):
        return name.startswith("__import_") or v.__name__ == "torch" or v.__name__.startswith("torch.")
    return type(v) in _CONSTANT_TYPES


def _kind(code: types.CodeType, module_globals: dict, own: frozenset):
    """How the transformed ``code`` runs directly: ``(hooked, root resume global or None)``; None: it does not.

    ``own``: the globals the entry function itself reads."""
    hooked = False
    resumes = []
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op in _DENIED_OPS:
            if op not in _FREE_READS or ins.argval not in code.co_freevars or ins.argval in code.co_cellvars:
                return None
            hooked = True
        elif op == "LOAD_GLOBAL" and not _allowed_global(ins.argval, module_globals):
            name = ins.argval
            if name not in module_globals or not (name in own or name.startswith("__")):
                return None
            hooked = True
            if name.startswith(_RESUME_PREFIX):
                resumes.append(name)
    parts = _resume(module_globals[resumes[-1]]) if resumes else None
    root = resumes[-1] if parts and parts[2] is module_globals and _calls_resume_last(code, resumes[-1], parts[0]) \
        else None
    return hooked, root


def _resume(v):
    """``(factory, resume code, its globals)`` of a resume function global (the function, or Dynamo's factory
    ``_make_fn(closure)`` with cells ``code`` and ``f_globals``), else None."""
    code = getattr(v, "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    if code.co_name != "_make_fn":
        return False, code, v.__globals__
    cells = dict(zip(code.co_freevars, v.__closure__ or ()))
    try:
        return True, cells["code"].cell_contents, cells["f_globals"].cell_contents
    except (KeyError, ValueError):
        return None


# Stack values in _calls_resume_last.
_NULL, _OTHER, _RESUME, _MADE, _RESULT = "null", "other", "resume", "made", "result"
_NULL_FIRST = sys.version_info < (3, 13)  # a call's NULL before the callable (3.11, 3.12), else after it


def _calls_resume_last(code: types.CodeType, name: str, factory: bool) -> bool:
    """Whether, from its one load of the global ``name`` on, ``code`` only (``factory``: calls it with the
    closure, then) calls the resume function and returns what it returns: Dynamo's call of the root frame's
    resume function.  Any other use of it, or an instruction not simulated here, answers False."""
    ins = list(dis.get_instructions(code))
    at = [k for k, i in enumerate(ins) if i.opname == "LOAD_GLOBAL" and i.argval == name]
    if len(at) != 1:
        return False
    stack = [_OTHER] * 64  # what was on the stack before: data

    def take(n):
        vals = [stack.pop() for _ in range(n)]
        return not any(v in (_RESUME, _MADE, _RESULT) for v in vals)

    for i in ins[at[0]:]:
        op, arg = i.opname, i.arg
        if len(stack) < 8:
            return False
        if op == "LOAD_GLOBAL":
            v = _RESUME if i.argval == name else _OTHER
            stack.extend(([_NULL, v] if _NULL_FIRST else [v, _NULL]) if arg & 1 else [v])
        elif op in ("LOAD_CONST", "LOAD_FAST"):
            stack.append(_OTHER)
        elif op == "PUSH_NULL":
            stack.append(_NULL)
        elif op == "SWAP":
            stack[-1], stack[-arg] = stack[-arg], stack[-1]
        elif op == "COPY":
            if stack[-arg] in (_RESUME, _MADE, _RESULT):
                return False
            stack.append(stack[-arg])
        elif op in ("POP_TOP", "STORE_FAST", "LIST_EXTEND", "DELETE_SUBSCR", "BINARY_SUBSCR", "STORE_SUBSCR",
                    "BUILD_LIST", "BUILD_TUPLE", "BUILD_SLICE"):
            n = {"POP_TOP": 1, "STORE_FAST": 1, "LIST_EXTEND": 1, "DELETE_SUBSCR": 2, "BINARY_SUBSCR": 2,
                 "STORE_SUBSCR": 3}.get(op, arg)
            if not take(n):
                return False
            if op in ("BINARY_SUBSCR", "BUILD_LIST", "BUILD_TUPLE", "BUILD_SLICE"):
                stack.append(_OTHER)
        elif op in ("CALL", "CALL_FUNCTION_EX"):
            n = arg if op == "CALL" else 1 + (arg & 1)  # (CALL_FUNCTION_EX: the argument tuple, the kwargs)
            a, b = stack[-n - 2], stack[-n - 1]
            callee, self_arg = (b, a) if _NULL_FIRST and a is _NULL else (a, b)
            if self_arg is not _NULL or callee not in (_RESUME, _MADE) or not take(n):
                return False
            del stack[-2:]
            stack.append(_MADE if callee is _RESUME and factory else _RESULT)
        elif op == "RETURN_VALUE":
            return stack[-1] is _RESULT
        elif op not in ("PRECALL", "NOP", "CACHE"):
            return False
    return False


def _marked(f):
    """``f`` with its code marked for the hook to run without a cache lookup: npcompile's functions that run
    while our callback is set (their callees meet the hook as usual)."""
    if _skip_code is not None:
        _skip_code(getattr(f, "__func__", f).__code__)
    return f


class _Entries:
    """The direct entries of one code object: the entry function's (``closure`` fixed) or a root resume
    function's (the closure each call's).  Items: (guard manager, its check, the function running the
    transformed code, its ``_npc_hooked`` telling whether it runs with the callback set), most recent first."""

    def __init__(self, code: types.CodeType, module_globals: dict, own: frozenset, closure=None):
        self.code, self.globals, self.own = code, module_globals, own
        # (a resume's functions are templates with empty cells, remade with each call's closure)
        self.closure = closure if closure is not None else tuple(types.CellType() for _ in code.co_freevars)
        self.items: tuple = ()
        self.stale = True  # Dynamo may have compiled something for the code since the items were built

    def refresh(self) -> None:
        self.stale = False
        known = {id(item[0]): item for item in self.items}
        items = []
        for ce in _cache_entries(self.code):
            gm = getattr(ce, "guard_manager", None)
            code = getattr(ce, "code", None)
            if gm is None or not isinstance(code, types.CodeType) or getattr(gm, "cache_entry", None) is None:
                continue
            item = known.get(id(gm))
            if item is None:
                item = self._item(gm, code)
                if item is None:
                    continue
            items.append(item)
        self.items = tuple(items)

    def _item(self, gm, code: types.CodeType):
        root = getattr(gm, "root", None)
        if root is None or code.co_freevars != self.code.co_freevars:
            return None
        kind = _kind(code, self.globals, self.own)
        if kind is None:
            return None
        hooked, resume = kind
        if hooked:
            if _skip_code is None:
                return None
            code = code.replace()  # a copy of its own, marked: the hook runs our frame of it as it is
            _skip_code(code)
        fn = types.FunctionType(code, self._globals_for(code, hooked, resume), code.co_name, None, self.closure)
        fn._npc_hooked = hooked
        return gm, root.check, fn

    def _globals_for(self, code: types.CodeType, hooked: bool, resume) -> dict:
        """The globals ``code`` loads, each compiled graph as ``_lean_graph.direct_callable`` gives it (hooked:
        called with the callback cleared), torch and Dynamo's utilities as ``_Module``s and the root resume function as
        ``_Resume`` (or its factory as ``_ResumeFactory``)."""
        module_globals = self.globals
        # (``__name__``: what a warning raised with this frame as its place is attributed to)
        g = {"__builtins__": module_globals.get("__builtins__"), "__name__": module_globals.get("__name__")}
        for ins in dis.get_instructions(code):
            name = ins.argval
            if ins.opname != "LOAD_GLOBAL" or name in g:
                continue
            v = module_globals[name]
            if name.startswith(_GRAPH_PREFIX):
                lean = _lean_graph.direct_callable(v)
                v = _uncallbacked(lean) if hooked and lean is not v else lean
            elif isinstance(v, types.ModuleType) and getattr(_FASTER.get(v.__name__), "_module", None) is v:
                v = _FASTER[v.__name__]
            elif name == resume:
                factory, resume_code, _ = _resume(v)
                entries = _Entries(resume_code, module_globals, self.own)
                v = _ResumeFactory(v, entries) if factory else _Resume(v, entries)
            g[name] = v
        return g

    def run(self, f_locals: dict, args: tuple, kwargs: dict, callback, closure=None):
        """``code(*args, **kwargs)`` by the first entry whose guards pass (hooked ones with ``callback`` set,
        the others with none), else MISS.  Called with the callback cleared."""
        if self.stale:
            self.refresh()
        for gm, check, fn in self.items:
            if gm.cache_entry is None:  # died (reset / invalidated): rebuild after the normal path ran
                self.stale = True
                continue
            try:
                passed = check(f_locals)
            except Exception:  # a guard that raises: the normal path repeats Dynamo's own handling
                return MISS
            if passed:
                hooked = fn._npc_hooked
                if closure:
                    fn = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, None, closure)
                if not hooked:
                    return fn(*args, **kwargs)
                # As on a Dynamo cache hit: the callback set while the transformed code runs
                _set_eval_frame(callback)
                try:
                    return fn(*args, **kwargs)
                finally:
                    _set_eval_frame(None)
        return MISS


def _uncallbacked(f):
    """``f`` called with the frame callback cleared (a graph's lean call, from code run with it set)."""

    def call(*args):
        prior = _set_eval_frame(None)
        try:
            return f(*args)
        finally:
            _set_eval_frame(prior)

    return _marked(call)


class _Resume:
    """The root frame's resume function as a direct entry's code calls it: its direct entries, else the
    function itself through Dynamo's hook (the callback is set), after which its entries are rebuilt."""

    __slots__ = ("fn", "entries")

    @_marked  # (made by ``_ResumeFactory`` while the callback is set)
    def __init__(self, fn, entries: _Entries):
        self.fn, self.entries = fn, entries

    @_marked
    def __call__(self, *args):
        fn = self.fn
        callback = _set_eval_frame(None)  # (the hook evaluates guards without it too)
        try:
            f_locals = _frame_locals(fn, args)
            # (an exception of the code run here is the call's: that code may already have changed the
            # arguments, e.g. emptied Dynamo's lists of nested frames, so it is never run again by the hook)
            out = MISS if f_locals is None else self.entries.run(f_locals, args, {}, callback, fn.__closure__)
        finally:
            _set_eval_frame(callback)
        if out is MISS:
            self.entries.stale = True
            return fn(*args)
        return out


def _frame_locals(fn, args: tuple):
    """The locals at the start of a frame of ``fn(*args)`` as guards read them, or None where that is not simple
    (other argument counts, ``*args``/``**kwargs``, an empty closure cell): then the hook's path."""
    code = fn.__code__
    if len(args) != code.co_argcount or code.co_flags & 0x0C:
        return None
    f_locals = dict(zip(code.co_varnames, args))
    try:
        for n, c in zip(code.co_freevars, fn.__closure__ or ()):
            f_locals[n] = c.cell_contents
    except ValueError:  # an empty cell
        return None
    return f_locals


class _ResumeFactory:
    """Dynamo's factory of the root resume function (code with free variables), making ``_Resume``s."""

    __slots__ = ("factory", "entries")

    def __init__(self, factory, entries: _Entries):
        self.factory, self.entries = factory, entries

    @_marked
    def __call__(self, closure):
        return _Resume(self.factory(closure), self.entries)


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


class _Module:
    """A module as a direct entry's code sees it: its attributes, but for some replaced by functions that give
    the same answer faster on the values Dynamo's code hands them (``_FASTER``)."""

    def __init__(self, module, **faster):
        self.__dict__.update(faster)
        self._module = module

    @_marked
    def __getattr__(self, name):
        return getattr(self._module, name)


@_marked
def _as_tensor(data, *args, **kwargs):
    """torch.as_tensor, by ``array_tensor`` where that is its answer (Dynamo's code for an array graph input read
    from a module, ``torch._as_tensor_fullprec(torch.as_tensor(mod.W))``, several µs)."""
    t = None if args or kwargs else array_tensor(data)
    return torch.as_tensor(data, *args, **kwargs) if t is None else t


@_marked
def _as_tensor_fullprec(t):
    if type(t) is torch.Tensor and not _tf_stack_len():
        return t  # (torch.as_tensor of a tensor, with no dtype, device or mode to apply)
    return torch._as_tensor_fullprec(t)


_is_functional = torch._is_functional_tensor
_is_functorch_wrapped = torch._C._functorch.is_functorch_wrapped_tensor


@_marked
def _to_numpy_helper(value):
    """Dynamo's ``to_numpy_helper`` (a graph output the code hands on as an array): for a plain tensor that is
    no functional or functorch wrapper (which its fake-tensor test unwraps), ``value.numpy(force=True)``, what
    it gives there."""
    if type(value) is torch.Tensor and not _is_functional(value) and not _is_functorch_wrapped(value):
        return value.numpy(force=True)
    return _dynamo_utils.to_numpy_helper(value)


_TORCH_FOR_ARRAYS = _Module(torch, as_tensor=_as_tensor, _as_tensor_fullprec=_as_tensor_fullprec)
_marked(array_tensor)
_FASTER = {"torch": _TORCH_FOR_ARRAYS,
           "torch._dynamo.utils": _Module(_dynamo_utils, to_numpy_helper=_to_numpy_helper)}


class DirectPath:
    """The direct entries of one entry function ``entry(first, *args, **kwargs)``, and the call that tries
    them (an entry function of another shape gets no direct entries).  ``callback`` (set by the owner): the
    frame callback of the normal path, set while a hooked entry's code runs."""

    def __init__(self, entry: types.FunctionType):
        self.entry = entry
        self.callback = None
        code = entry.__code__
        shaped = code.co_argcount == 1 and not code.co_kwonlyargcount and code.co_flags & 0x0C == 0x0C
        self.enabled = shaped and _cache_entries is not None
        # The entry's locals at frame start, by name, as the guards read them: its three parameters, and its
        # free variables (cells the entry never rebinds, so their contents are fixed).
        self.names = code.co_varnames[:3] if shaped else ()
        self.fixed = {n: c.cell_contents for n, c in zip(code.co_freevars, entry.__closure__ or ())}
        own = frozenset(n for n in code.co_names if n in entry.__globals__)
        self.entries = _Entries(code, entry.__globals__, own, entry.__closure__ or ())

    @property
    def table(self) -> tuple:
        """The direct entries, most recent first (each begins with its guard manager)."""
        return self.entries.items

    @table.setter
    def table(self, items: tuple) -> None:
        self.entries.items = items

    @property
    def stale(self) -> bool:
        return self.entries.stale

    @stale.setter
    def stale(self, value: bool) -> None:
        self.entries.stale = value

    def refresh(self) -> None:
        if self.enabled:
            self.entries.refresh()
        else:
            self.entries.stale = False

    def __call__(self, first, args: tuple, kwargs: dict):
        """``entry(first, *args, **kwargs)`` by the first direct entry whose guards pass, else ``MISS``."""
        n0, n1, n2 = self.names
        # As on a Dynamo cache hit, minus the hook for this frame: code calling only the graphs runs with no
        # callback (the graphs are Dynamo-disabled anyway; an outer torch.compile's hook is set aside too),
        # code after a graph break with ours, as Dynamo runs it.
        prior = _set_eval_frame(None)
        try:
            return self.entries.run({n0: first, n1: args, n2: kwargs, **self.fixed}, (first, *args), kwargs,
                                    self.callback)
        finally:
            if prior is not None:
                _set_eval_frame(prior)
