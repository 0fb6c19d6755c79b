"""Lean calls of compiled graphs for the direct path: AOTAutograd's and Inductor's per-call wrappers skipped
where their metadata says they have nothing to do.

Why: on small arrays a warm call spends more time in the Python layers around Inductor's compiled module
than in its kernels: ``aot_module_simplified``'s ``forward`` (prepends parameters), AOTAutograd's runtime
wrapper (input-mutation epilogue, regeneration of outputs that alias inputs, version-counter bumps, grad mode
off, a first-call custom-op check) and ``CompiledFxGraph.__call__`` (profiler event, autotune-cache
bundling, runtime metrics), about 4 µs of the 20 a call of ``npcompile.tracing.overhead`` took.  For an
inference graph whose runtime wrapper has no epilogue, the lean call does what is left: bump the version
counters of the inputs the graph mutates, call the compiled module with the argument list and mark the
dynamic dimensions of its outputs (for later Dynamo traces of them), as the wrapper does.  A graph it cannot prove that of keeps the full chain.

Only the direct path (``_fast_path``) calls it, and only after Dynamo's normal path ran the graph (first-call
work such as the custom-op check and the end of autotune-cache bundling happened there).  Per call it hands
over to the full chain while grad mode is on (the wrapper turns it off around an inference graph), the
autograd profiler runs (the full chain records its events) or Inductor records graph executions (a debug
hook).  Runtime metrics: none are gathered in a warm call of a CPU graph, so none are left unflushed.

Internals relied on (checked when built; anything else gets no lean call):

* ``torch._functorch._aot_autograd.runtime_wrappers._create_runtime_wrapper(compiled_fn, *, runtime_metadata,
  indices_of_inps_to_detach, trace_joint, keep_input_mutations, disable_amp)`` builds the runtime wrapper:
  ``create_runtime_wrapper`` below, swapped in while we compile (``_dynamo_patch``), marks a wrapper with
  nothing else to do with a ``_Plain``.
* ``aot_module_simplified``'s ``forward(*args)`` calls ``compiled_fn`` (the wrapper) with
  ``params_buffers_flat + args``; both are its closure cells.
* Inductor's ``CompiledFxGraph.current_callable(args)``: the compiled module's ``call``.
"""

from __future__ import annotations

import inspect
import sys
import weakref

import torch
from torch._functorch._aot_autograd import runtime_wrappers

_PLAIN = "_npc_plain"  # on a runtime wrapper with nothing else to do: its _Plain
_CREATE = runtime_wrappers._create_runtime_wrapper
_KNOWN_ARGS = frozenset({"runtime_metadata", "indices_of_inps_to_detach", "trace_joint", "keep_input_mutations",
                         "disable_amp"})
# How AOTAutograd marks the dynamic dimensions of outputs for later Dynamo traces (torch 2.13; 2.11 has another
# helper: graphs with dynamic outputs keep the full chain there).
_MARK_DYNAMIC = getattr(runtime_wrappers, "mark_dynamo_propagated_dynamic_indices", None)


class _Plain:
    """What a plain runtime wrapper does besides calling ``inner`` with grad mode off: bump the version counters
    of the inputs at ``bumps`` before, mark the dynamic dimensions ``(output index, dims)`` in ``marks`` after."""

    __slots__ = ("inner", "bumps", "marks")

    def __init__(self, inner, bumps: tuple, marks: tuple):
        self.inner, self.bumps, self.marks = inner, bumps, marks


def create_runtime_wrapper(compiled_fn, **kwargs):
    """AOTAutograd's ``_create_runtime_wrapper``, marking the wrappers that are plain (see the module doc)."""
    wrapper = _CREATE(compiled_fn, **kwargs)
    plain = _plain(compiled_fn, kwargs)
    if plain is not None:
        setattr(wrapper, _PLAIN, plain)
    return wrapper


def _plain(compiled_fn, kwargs: dict):
    """The ``_Plain`` for the runtime wrapper ``_create_runtime_wrapper(compiled_fn, **kwargs)`` builds, where
    this metadata takes none of its other branches; else None."""
    if set(kwargs) != _KNOWN_ARGS or kwargs["trace_joint"] or kwargs["disable_amp"] \
            or not getattr(compiled_fn, "_boxed_call", False):
        return None
    meta = kwargs["runtime_metadata"]
    try:
        if (meta.mutated_inp_runtime_indices or meta.num_outputs_aliased or meta.num_intermediate_bases
                or meta.grad_enabled_mutation is not None or meta.tokens):
            return None
        bumps = tuple(meta.mutated_graph_handled_indices_seen_by_autograd) if kwargs["keep_input_mutations"] else ()
        marks = ()
        if meta.dynamic_outputs:
            if _MARK_DYNAMIC is None:
                return None
            marks = tuple((i, o.dynamic_dims) for i, o in enumerate(meta.output_info) if o.dynamic_dims is not None)
    except AttributeError:  # metadata of another shape
        return None
    return _Plain(compiled_fn, bumps, marks)


def attach(compiled, lean) -> None:
    """Records ``lean`` as the lean call of ``compiled`` (what npcompile's backend returns to Dynamo; on the
    graph inside its ``torch._dynamo.disable`` wrappers, which Dynamo may replace by its own)."""
    graph = direct_callable(compiled)
    graph._npc_lean = (id(graph), lean)  # (the owner too: ``functools.wraps`` copies the attribute to wrappers)


def direct_callable(graph):
    """What the direct path calls for a compiled graph Dynamo installed: its lean call, else the graph without
    its ``torch._dynamo.disable`` wrappers (which clear the frame callback; the direct path cleared it)."""
    while True:
        owner, lean = getattr(graph, "_npc_lean", (None, None))
        if owner == id(graph):
            return lean
        inner = getattr(graph, "__wrapped__", None)
        if inner is None or not getattr(graph, "_torchdynamo_disable", False):
            return graph
        graph = inner


def lean_call(graph):
    """The lean call standing in for ``graph`` (what the backend returned), or None."""
    graph = direct_callable(graph)
    code = getattr(graph, "__code__", None)
    if code is None or code.co_name != "forward" or code.co_argcount or not code.co_flags & inspect.CO_VARARGS:
        return None
    cells = dict(zip(code.co_freevars, graph.__closure__ or ()))
    try:
        wrapper = cells["compiled_fn"].cell_contents
        params = cells["params_buffers_flat"].cell_contents
    except (KeyError, ValueError):
        return None
    plain = getattr(wrapper, _PLAIN, None)
    if plain is None or params:
        return None
    call, debug = _module_call(plain.inner)
    bumps, marks = plain.bumps, plain.marks
    profiler = torch.autograd.profiler
    grad_on = torch.is_grad_enabled
    bump = torch.autograd.graph.increment_version
    full = weakref.ref(graph)  # (the graph holds the lean call: no reference cycle, freed when Dynamo drops it)

    def lean(*args):
        if grad_on() or profiler._is_profiler_enabled or debug.RECORD_GRAPH_EXECUTION:
            return full()(*args)
        if bumps:
            bump(tuple(args[i] for i in bumps))
        outs = call(list(args))
        for i, dims in marks:
            _MARK_DYNAMIC(outs[i], dims)
        return outs

    return lean


class _NoDebug:
    RECORD_GRAPH_EXECUTION = False


def _module_call(inner):
    """``(callable, debug module)``: Inductor's compiled module's ``call`` for a ``CompiledFxGraph`` with no
    autotune bundling pending, and Inductor's debug module (whose graph-execution recording needs the full
    ``__call__``); else ``inner`` itself."""
    output_code = sys.modules.get("torch._inductor.output_code")  # (not loaded: no Inductor graph)
    if output_code is not None and type(inner) is getattr(output_code, "CompiledFxGraph", None) \
            and getattr(inner, "_compile_context", None) is None and inner.current_callable is not None:
        import torch._inductor.debug as debug

        return inner.current_callable, debug
    return inner, _NoDebug
