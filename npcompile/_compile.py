"""``npcompile.compile`` and friends: NumPy functions in, fused kernels out, NumPy's answers.

How a call runs
---------------
``compile(fn)`` returns a plain Python function (so it binds as a method) that

1. turns each top-level ``numpy.ndarray`` argument of a numeric dtype into a ``torch.Tensor`` sharing its
   memory (``torch.from_numpy``: zero copy, so in-place updates reach the caller's array); one with negative
   strides, which torch cannot view, into a copy written back after the call (``npcompile.tracing._copies``);
   a read-only one into a tensor the function sees as NumPy's read-only view, which the compiled code never
   writes (a write is a graph break where real NumPy raises its error: ``tracing._dynamo_patch.READONLY``);
2. calls a private entry function (its own code object per compiled function, so Dynamo's per-code caches
   and recompile limits are ours alone) with TorchDynamo's frame callback set; the entry function turns the
   tensors back into arrays (``t.numpy()``, traced by Dynamo as NumPy arrays), calls ``fn`` and turns array
   results into tensors (in-graph, free).  Warm calls of a function captured as one graph skip the frame
   callback: ``npcompile.tracing._fast_path`` checks the cached entry's guards and runs its code directly;
3. turns the tensors that come out into NumPy arrays again.  A result that *is* an argument (the function
   returns its argument, ``out=``, an in-place operator's left operand) comes back as the caller's very
   object: the entry function asks ``result is argument`` while Dynamo traces it, which Dynamo answers from
   the arrays' identity at trace time, so the answer is a constant in the compiled code.  A result that views
   an argument's memory (``a[1:]``, ``a.T``, also ``a[:]``, for which NumPy makes a new array object too)
   comes back as a new NumPy view of the caller's array.  A 0-D result comes back as a NumPy scalar
   (``numpy.float64``...), as NumPy returns from full reductions.

Under ``with torch.device(d)`` for a device other than the CPU, the argument tensors move to ``d`` first and
updated ones are copied back afterwards (``npcompile.tracing._devices``).

Dynamo's guards then see tensors (checked in C++) instead of NumPy arrays (checked by converting each array in
Python), which is most of the per-call saving over ``torch.compile`` on NumPy code.

The NumPy -> ``npcompile._numpy`` swap (``npcompile.tracing.numpy_mode``) is active only while Dynamo compiles
a frame for us: our frame callback enters it around Dynamo's own callback, and Dynamo calls the callback only on
a cache miss.  Inductor settings for NumPy code (``npcompile.inductor``) travel with the backend.
"""

from __future__ import annotations

import functools
import logging
import operator
import os
import threading
import types
import warnings
from typing import Callable

import numpy as _np
import torch

from . import config
from ._errors import ASSERT_TAG, UnsupportedFeature, numpy_error
from ._numpy._trace import runtime_checks
from . import fallback as _fallback
from .tracing import _aot_cache
from .tracing import _copies
from .tracing import _devices
from .tracing import _dynamo_patch as _patch
from .tracing import _fast_path
from .tracing import _lean_graph
from .tracing import _seeding
from .tracing import _branches

import torch._dynamo  # noqa: E402

try:
    from torch._C._dynamo.eval_frame import set_eval_frame as _set_eval_frame
except ImportError as e:  # pragma: no cover
    raise ImportError(f"npcompile: torch {torch.__version__} lacks torch._C._dynamo.eval_frame.set_eval_frame") from e

_MISS = _fast_path.MISS
_set_grad_enabled = torch._C._set_grad_enabled
_is_grad_enabled = torch.is_grad_enabled
_from_numpy = torch.from_numpy
_Tensor = torch.Tensor
_tf_stack_len = torch._C._len_torch_function_stack
_ndarray = _np.ndarray
_assert_scalar = torch.ops.aten._assert_scalar.default

# NumPy dtypes that have a torch twin: arrays of these cross into the graph as tensors.  Anything else
# (datetime64, str, object, structured, longdouble, non-native byte order...) is passed as is, and Dynamo
# graph-breaks on it, so real NumPy handles it.
_TORCH_DTYPES = frozenset(
    _np.dtype(t) for t in (_np.bool_, _np.int8, _np.int16, _np.int32, _np.int64, _np.uint8, _np.uint16,
                           _np.uint32, _np.uint64, _np.float16, _np.float32, _np.float64, _np.complex64,
                           _np.complex128)
)
_TORCH_DTYPE_NUMS = tuple(sorted({d.num for d in _TORCH_DTYPES}))
_NP_DTYPES = {_from_numpy(_np.empty(0, d)).dtype: d for d in _TORCH_DTYPES}

# Marks a torch.Tensor the user's function itself returned (not an array): it comes back as a tensor.
_TENSOR_TAG = "__npcompile_user_tensor__"
# Marks a result that is the argument at a position (int) or keyword (str): it comes back as the caller's object.
_ARG_TAG = "__npcompile_argument__"
# Marks an array result that NumPy makes read-only (``np.broadcast_to``, a view of a read-only array...): it comes
# back read-only.
_READ_ONLY_TAG = "__npcompile_read_only__"
# Marks a 0-d array result that is an array, not a scalar (``np.zeros(())``; _numpy._ndarray.is_array0d): it comes
# back as a 0-d array, where other 0-d results come back as NumPy scalars.
_ARRAY0D_TAG = "__npcompile_array0d__"


class CompileError(RuntimeError):
    """``fullgraph=True`` and the function could not be captured as one graph."""


# --------------------------------------------------------------------------------------------------------------
# Helpers traced by Dynamo inside the entry function.  Written in the small subset Dynamo folds well.
# --------------------------------------------------------------------------------------------------------------


def _unpack_args(mask, args, kwargs):
    pos, _, kw = mask.partition("|")
    kw = kw.partition("|")[0]  # (after it: the aliased arguments' offsets, see _alias_mask)
    if pos:
        args = tuple(a.numpy() if c == "1" else _read_only(a.numpy(), a.shape) if c == "2" else a
                     for a, c in zip(args, pos))
    if kw:
        kwargs = dict(kwargs)
        for k in kw.split(","):
            if k[0] == "!":
                k = k[1:]
                kwargs[k] = _read_only(kwargs[k].numpy(), kwargs[k].shape)
            else:
                kwargs[k] = kwargs[k].numpy()
    return args, kwargs


# An argument passed read-only (mask '2', kwarg '!name') enters as NumPy's read-only view of itself, which the
# trace marks read-only (``tracing._dynamo_patch.READONLY``): a write into it is a graph break where real NumPy
# raises its error, so the graphs never write it.
_read_only = _np.broadcast_to


def _argument_tag(x, args, kwargs):
    """``(_ARG_TAG, position or name[, index or key])`` when ``x`` is one of the arguments, or an element of a
    list, tuple or dict argument (one level, small containers), else None: returned, it is the caller's object
    (``f(d)`` returning ``d["a"]`` gives that array, also when ``f`` put it there).  Traced, identity is the
    arguments' (fake tensors', Dynamo's containers') identity: these loops fold to a constant answer."""
    named = (*enumerate(args), *kwargs.items())
    for key, a in named:
        if x is a:
            return (_ARG_TAG, key)
    for key, a in named:
        ta = type(a)
        if (ta is list or ta is tuple or ta is dict) and len(a) <= _CONTAINER_SEARCH:
            for k, e in (a.items() if ta is dict else enumerate(a)):
                if x is e:
                    return (_ARG_TAG, key, k)
    return None


_CONTAINER_SEARCH = 32  # most elements of a container argument searched for a returned array (traced: unrolled)


def _pack(x, args, kwargs):
    tx = type(x)
    if tx is _ndarray:  # not _np.ndarray: Dynamo would add a Python-level guard "user's np is our _np"
        tag = _argument_tag(x, args, kwargs)
        if tag is not None:
            return tag
        # literals only: constants in code cost Dynamo no guards
        d = x.dtype
        k = d.kind
        # (traced, the array is a tensor: no negative strides or strides between items, and Dynamo cannot read
        # symbolic strides; untraced, such an array, ``a[:, :2].view(np.int32)`` of int16 rows say, stays NumPy's)
        if ((k in "biu" or (k == "f" and d.itemsize <= 8) or (k == "c" and d.itemsize <= 16)) and d.isnative
                and (torch.compiler.is_compiling() or all(s >= 0 and s % d.itemsize == 0 for s in x.strides))):
            if torch.compiler.is_compiling():
                # traced, a constant (tracing._dynamo_patch.READONLY); a mark only read-only results carry
                read_only = x._npcompile_readonly
                t = torch.from_numpy(x)
                if x.ndim == 0 and x._npcompile_array0d:
                    t = (_ARRAY0D_TAG, t)
            else:
                read_only = not x.flags.writeable
                t = _from_readonly(x) if read_only else torch.from_numpy(x)
                if x.ndim == 0:  # (untraced, a real NumPy array: a scalar is no ndarray)
                    t = (_ARRAY0D_TAG, t)
            return (_READ_ONLY_TAG, t) if read_only else t
        return x
    if isinstance(x, torch.Tensor):
        return (_TENSOR_TAG, x)
    if tx is list or tx is dict:  # an argument container returned: the caller's object, as in Python
        tag = _argument_tag(x, args, kwargs)
        if tag is not None:
            return tag
    if tx is tuple:
        return tuple(_pack(v, args, kwargs) for v in x)
    if tx is list:
        return [_pack(v, args, kwargs) for v in x]
    if tx is dict:
        return {k: _pack(v, args, kwargs) for k, v in x.items()}
    return x


def _make_entry(fn: Callable) -> types.FunctionType:
    """A fresh function (fresh code object) that Dynamo compiles in place of ``fn``."""

    def __npcompile_entry__(__npc_mask, *args, **kwargs):
        if __npc_mask:
            args, kwargs = _unpack_args(__npc_mask, args, kwargs)
        return _pack(fn(*args, **kwargs), args, kwargs)

    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    # Dynamo keeps what it learnt about argument shapes (automatic dynamic) per (file, line, name) of the code: the
    # source location in the name keeps two same-named functions from sharing it (one would compile dynamic).
    src = getattr(fn, "__code__", None)
    if src is not None:
        name = f"{name}@{os.path.basename(src.co_filename)}:{src.co_firstlineno}"
    code = __npcompile_entry__.__code__
    code = code.replace(co_name=f"npcompile<{name}>"[:200])
    entry = types.FunctionType(code, __npcompile_entry__.__globals__, code.co_name, None,
                               __npcompile_entry__.__closure__)
    return entry


# --------------------------------------------------------------------------------------------------------------
# Output conversion (runs per call, outside any graph: kept lean).
# --------------------------------------------------------------------------------------------------------------


def _tensor_to_numpy(t, io, array0d=False):
    """``t`` as NumPy: a view of the caller's array when it lies in an argument's memory, else ``t``'s own data;
    0-d, a NumPy scalar unless ``array0d``.

    ``io``: the caller's arrays, their tensors, the tensors the graphs ran on (the same, or copies on a
    device), whether the function had a graph break, and the call's ``_copies.Copies`` (arguments with negative
    strides, whose tensors are copies: a view of one maps to the caller's array through ``Copies.place``) or
    ``_devices.Moved`` or None.  After one, the code that packs the results runs on
    Dynamo's rebuilds of the arrays (``tensor.numpy()``, a new object for each frame it rebuilds), where
    ``result is argument`` fails; then a result with an argument's exact memory, layout and dtype that is no
    torch view counts as that argument.  (A view a graph made, ``a[:]`` or ``a.ravel()`` in any call, even one
    without the break, stays a new view, as NumPy's; one real NumPy made after the break counts as ``a``.)
    """
    arrays, host, run, broken, moved = io
    # A result of an argument's dtype that is no view to torch is one the graph made (cheap to tell); a dtype
    # view (``a.view(np.int64)``) is no view to torch either, but has another dtype.
    if run and (array0d or t.dim() and (broken or t._is_view() or _other_dtype(t.dtype, run))):
        p = t.data_ptr()
        for i, r in enumerate(run):
            s = r.untyped_storage()
            lo = s.data_ptr()
            if lo and lo <= p < lo + s.nbytes():  # (no memory, address 0: meta tensors)
                if broken and not t._is_view() and p == r.data_ptr() and t.dtype == r.dtype and t.shape == r.shape \
                        and t.stride() == r.stride():
                    return arrays[i]
                h = host[i]
                addr = h.data_ptr() + (p - r.data_ptr())
                if type(moved) is _copies.Copies and moved.holds(h):
                    place = moved.place(h, addr, t.shape, t.stride(), t.element_size())
                    if place is None:
                        break  # no view of the caller's array: an array of its own, as NumPy's copy
                    return _view_of(arrays[i], place[0], t, place[1])
                return _view_of(arrays[i], addr, t)
    try:
        a = t.numpy()
    except (RuntimeError, TypeError):
        a = t.numpy(force=True)
    if a.ndim == 0 and not array0d:
        return a[()]  # NumPy returns scalars (numpy.float64...) where the shim has 0-D arrays
    return a


def _other_dtype(d, tensors):
    for r in tensors:
        if r.dtype is not d:
            return True
    return False


class _Region:
    """Bytes of a caller's array as ``__array_interface__`` (as ``numpy.lib.stride_tricks.as_strided`` makes
    views): the ``.base`` of a view made from it, which keeps the caller's array (its own ``.base``) alive."""

    __slots__ = ("__array_interface__", "base")

    def __init__(self, interface, base):
        self.__array_interface__ = interface
        self.base = base


def _view_of(a, ptr, t, strides=None):
    """A new NumPy array over ``a``'s memory at address ``ptr`` with ``t``'s shape and dtype, and ``t``'s
    strides or the byte ``strides`` given; read-only where ``a`` is.  Its ``.base`` is the array owning the
    memory, as for a view NumPy makes (``f(x)`` returning ``x[1:]``: ``.base is x``), where that array exports
    its buffer (a contiguous one); else a ``_Region``."""
    d = _NP_DTYPES[t.dtype]
    shape, strides = tuple(t.shape), strides or tuple(s * d.itemsize for s in t.stride())
    root = _array_root(a)
    try:
        v = _np.ndarray(shape, d, buffer=root, offset=ptr - root.__array_interface__["data"][0], strides=strides)
    except (ValueError, TypeError, BufferError):
        interface = {"version": 3, "data": (ptr, not a.flags.writeable), "typestr": d.str, "shape": shape,
                     "strides": strides}
        return _np.asarray(_Region(interface, a))
    if not a.flags.writeable:
        v.flags.writeable = False
    return v


def _unpack_out(x, args, kwargs, io):
    tx = type(x)
    if tx is _Tensor:
        return _tensor_to_numpy(x, io)
    if tx is tuple:
        if 2 <= len(x) <= 3 and type(x[0]) is str:
            if x[0] == _ARG_TAG:
                k = x[1]
                a = args[k] if type(k) is int else kwargs[k]
                return a if len(x) == 2 else a[x[2]]
            if x[0] == _TENSOR_TAG and isinstance(x[1], _Tensor):
                return x[1]
            if x[0] == _READ_ONLY_TAG and isinstance(x[1], (_Tensor, tuple)):  # (tuple: a 0-d array's mark)
                a = _unpack_out(x[1], args, kwargs, io)
                if type(a) is _ndarray and a.flags.writeable:
                    if any(a is b for b in io[0]):  # (the caller's array itself: a no-op view after a break)
                        a = a.view()
                    a.flags.writeable = False
                return a
            if x[0] == _ARRAY0D_TAG and isinstance(x[1], _Tensor):
                return _tensor_to_numpy(x[1], io, True)
        return tuple(_unpack_out(v, args, kwargs, io) for v in x)
    if tx is list:
        return [_unpack_out(v, args, kwargs, io) for v in x]
    if tx is dict:
        return {k: _unpack_out(v, args, kwargs, io) for k, v in x.items()}
    if isinstance(x, _Tensor):  # tensor subclass from the graph (e.g. a Parameter): as a plain tensor
        return _tensor_to_numpy(x, io)
    return x


def _array_root(a):
    b = a.base
    while isinstance(b, _ndarray):
        a = b
        b = a.base
    return a


def _alias_fix(arrays, tensors):
    """Arrays that view the same memory must reach the graph as views of one tensor, so that Dynamo/AOT see
    the aliasing (a write through one is visible through the other, as in NumPy)."""
    if len({id(a) for a in arrays}) == len(arrays) and not any(isinstance(a.base, _ndarray) for a in arrays):
        return tensors
    roots = [_array_root(a) for a in arrays]
    ids = [id(r) for r in roots]
    if len(set(ids)) == len(ids):
        return tensors
    out = list(tensors)
    groups: dict = {}
    for i, rid in enumerate(ids):
        groups.setdefault(rid, []).append(i)
    for idxs in groups.values():
        if len(idxs) < 2:
            continue
        root = roots[idxs[0]]
        try:
            rt = _from_numpy(root)
        except (ValueError, TypeError):
            continue
        root_ptr = root.__array_interface__["data"][0]
        for i in idxs:
            a = arrays[i]
            if a is root:
                out[i] = rt
                continue
            if a.dtype != root.dtype:
                continue
            isz = a.itemsize
            off = a.__array_interface__["data"][0] - root_ptr
            if off % isz or any(s % isz or s < 0 for s in a.strides):  # (negative: a copy, shares nothing)
                continue
            out[i] = rt.as_strided(a.shape, [s // isz for s in a.strides], rt.storage_offset() + off // isz)
    # identical objects passed twice: one tensor
    return out


def _alias_mask(mask, tensors):
    """``mask`` with the storage offsets of the arguments, for a call whose arguments view one array.  torch's
    compiled graphs regenerate such views at the offsets they were traced with, and Dynamo does not guard the
    offsets: ``f(y, y[:, k])`` writing into ``y`` gave k=0's answer for every later k (torch 2.13, plain
    torch.compile too).  In the mask (a constant Dynamo guards), each layout is a specialization of its own."""
    pos, _, kw = mask.partition("|")
    return f"{pos}|{kw}|" + ",".join(str(t.storage_offset()) for t in tensors)


# --------------------------------------------------------------------------------------------------------------
# The Dynamo side: backend wrapper and frame callback.
# --------------------------------------------------------------------------------------------------------------


def _resolve_backend(backend, mode, options, dynamic):
    if callable(backend):
        return backend
    if backend == "inductor":
        from .inductor import make_inductor_backend

        return make_inductor_backend(mode, options, dynamic)
    if backend == "aot_eager":
        from .tracing._aot_eager import aot_eager

        return aot_eager
    from torch._dynamo.backends.registry import lookup_backend

    return lookup_backend(backend)


class _Backend:
    """The backend Dynamo calls with each captured graph: records it, then hands it to the real backend.

    One object per compiled function: Dynamo tags cache entries with their backend (its BACKEND_MATCH check),
    so entries compiled for npcompile are never used by a plain ``torch.compile`` of the same code, and the
    other way round.
    """

    def __init__(self, backend, owner):
        self.backend = backend
        self.owner = owner
        self.compiler_name = getattr(backend, "compiler_name", None) or getattr(backend, "__name__", "custom")

    def __call__(self, gm, example_inputs):
        rec = self.owner._recorder
        if rec is not None:
            rec.graphs.append(gm)
        self.owner._graph_count += 1
        asserts = _tag_asserts(gm)
        with _aot_cache.cacheable(gm, example_inputs):
            compiled = self.backend(gm, example_inputs)
        lean = _lean_graph.lean_call(compiled)  # what the direct path calls instead (see _fast_path)
        if asserts or _has_checks(gm):
            checks = runtime_checks(example_inputs)
            compiled = _numpy_errors(compiled, checks)
            lean = lean and _numpy_errors(lean, checks)
        devices = _seeding.drawing_devices(gm)
        if devices is not None:
            fresh = _seeding.fresh_only(gm)
            compiled = _seeding.seeded(compiled, devices, fresh)
            lean = lean and _seeding.seeded(lean, devices, fresh)
        if lean is not None:
            _lean_graph.attach(compiled, lean)
        return compiled


def _tag_asserts(gm) -> bool:
    """Tags the message of each ``torch._assert_async`` that Dynamo made of a Python ``assert`` on array values
    (the shim's own checks run inside its calls, not in this graph), so that a failed one raises AssertionError
    (``_errors.numpy_error``); it raised a RuntimeError.  Whether there was one."""
    found = False
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target is torch._assert_async and len(n.args) == 2 \
                and isinstance(n.args[1], str) and not n.args[1].startswith(ASSERT_TAG):
            n.args = (n.args[0], ASSERT_TAG + n.args[1])
            found = True
    if found:
        gm.recompile()
    return found


def _has_checks(gm) -> bool:
    """Whether the graph calls numpy.linalg, a power (``**``, ``np.power`` and its methods), a ufunc's reduceat
    or an item assignment, whose data checks become assertions (``linalg._fail_if``, ``_ufuncs._int_power``,
    reduceat's bounds, a masked assignment's length in ``_indexing._assign_mask_traced``, histogram bins from the
    data's extent), asserts on sizes that depend on the data (torch's), or reads at indices from the data
    (Inductor's bounds checks): see ``_errors.numpy_error``."""
    from ._numpy import linalg, power
    from ._numpy._ufuncs import ufunc

    exported = vars(linalg)
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        f = getattr(n.target, "f", None)
        if f is not None and (exported.get(getattr(f, "__name__", None)) is f or getattr(f, "__self__", f) is power
                              or getattr(f, "__func__", None) in (ufunc.reduceat, ufunc.at)
                              or getattr(f, "__name__", None) in _INDEXED_BY_DATA | _HISTOGRAMS):
            return True
        op = getattr(n.target, "op", None)
        if op in (operator.pow, operator.ipow) or getattr(n.target, "method", None) == "__setitem__" \
                or n.target is _assert_scalar or op is operator.getitem and _reads_nodes(n.args[1:]):
            return True
    return False


# Shim functions that read or write at indices given as arrays.
_INDEXED_BY_DATA = frozenset({"take", "put", "take_along_axis", "put_along_axis", "choose", "compress"})
# Histograms, whose bins from the data's extent are checked when the code runs (``_statistics._traced_extent``).
_HISTOGRAMS = frozenset({"histogram", "histogram_bin_edges", "histogramdd", "histogram2d"})


def _reads_nodes(args) -> bool:
    """Whether ``args`` hold a graph value (an index array) anywhere in them."""
    return any(isinstance(a, torch.fx.Node) or isinstance(a, (tuple, list)) and _reads_nodes(a) for a in args)


def _numpy_errors(compiled, checks):
    """The compiled graph raising NumPy's exception for a failed traced check (see ``_errors.numpy_error``);
    only graphs with such checks get this wrapper, the others keep the per-call path one frame shorter."""

    def run(*args):
        try:
            return compiled(*args)
        except RuntimeError as e:
            err = numpy_error(e, checks)
            if err is None:
                raise
            raise err from None

    return run


class _LogCatcher(logging.Handler):
    """Collects the errors Dynamo suppresses (the frame then runs eagerly) while we compile."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


_dynamo_cf_log = logging.getLogger("torch._dynamo.convert_frame")
# Dynamo logs a suppressed InNumpy as a compile failure; it is our request to run the call in NumPy.
_dynamo_cf_log.addFilter(lambda record: not _patch.in_numpy_pending())
# The fake run of a shim call that raises NumPy's error (``x + np.ones(4)`` on a (2, 3) array: ValueError) logged a
# traceback at ERROR level before the error went on to be raised as NumPy raises it: it is the answer, not a fault.
logging.getLogger("torch._subclasses.fake_tensor").addFilter(lambda record: not _patch.tracing_active())


def _dynamo_config_patch(fullgraph: bool):
    dc = torch._dynamo.config
    patches = {
        "trace_numpy": bool(config.trace_numpy),
        "suppress_errors": bool(config.suppress_errors) and not fullgraph,
        "capture_dynamic_output_shape_ops": bool(config.capture_dynamic_output_shape_ops),
        # An integer read from an array (a slice bound ``a[p[i]:p[i + 1]]``, tracing._dynamo_patch._slice_init) is
        # a data-dependent value in the graph; without, it is a break Dynamo cannot resume from (frame in NumPy).
        "capture_scalar_outputs": True,
    }
    if _patch.NESTED_GRAPH_BREAKS:
        # A graph break inside a called function resumes in place instead of splitting at the outermost call
        # (our entry function always calls the user's function, so this matters for every break).
        patches["nested_graph_breaks"] = bool(config.nested_graph_breaks)
    if hasattr(dc, "recompile_limit"):
        patches["recompile_limit"] = int(config.recompile_limit)
    else:  # pragma: no cover - older name
        patches["cache_size_limit"] = int(config.recompile_limit)
    patches.update(_fast_path.config_patches())
    return dc.patch(patches)


class _Callback:
    """Our frame callback: Dynamo's own callback, run with the NumPy swap, our Dynamo settings and the
    ``dynamic=`` setting active.  Called by the interpreter hook only when no cached entry's guards pass."""

    def __init__(self, inner, owner, enter_hooks):
        self._inner = inner
        self._owner = owner
        self._enter_hooks = enter_hooks
        # Dynamo finds the backend (for its BACKEND_MATCH cache check) by following this chain.
        self._torchdynamo_orig_backend = inner

    def __call__(self, frame, *args, **kwargs):
        if _errors_checked():
            return _UNCOMPILED
        owner = self._owner
        owner.direct.stale = True  # Dynamo is about to compile (or skip) something: new cache entries
        catcher = _LogCatcher()
        reasons = _graph_break_reasons()
        n0 = len(reasons) if reasons is not None else 0
        _dynamo_cf_log.addHandler(catcher)
        cleanups = [h() for h in self._enter_hooks]
        try:
            with _dynamo_config_patch(owner._fullgraph), _patch.numpy_mode(_devices.run_device()):
                try:
                    result = self._inner(frame, *args, **kwargs)
                finally:  # Dynamo raised (or suppressed) InNumpy: the call must run in NumPy
                    feature = _patch.take_in_numpy()
                    if feature is not None:
                        owner.run_in_numpy(feature, frame.f_code is owner.entry.__code__)
                return result
        finally:
            for c in cleanups:
                c()
            _dynamo_cf_log.removeHandler(catcher)
            new = list(reasons[n0:]) if reasons is not None else []
            if new:
                owner.broken = True
            if new or catcher.records:
                owner._note_breaks(new, catcher.records, frame)


# This frame runs uncompiled (the frames it calls still come to the callback) and is not marked to stay so.
_UNCOMPILED = torch._dynamo.types.ConvertFrameReturn(apply_to_code=False)


def _errors_checked() -> bool:
    """NumPy's floating-point error state asks for checks ('raise', 'call'), which compiled code makes none of: a
    ``with np.errstate(divide="raise")`` block runs in Python (``_patch._quiet_errstate``), and a frame it calls
    must then run in real NumPy, not compiled (``f(a, b)`` inside it returned ``a // 0`` unchecked); so must a
    compiled function called while that state holds (its cached code is called without our frame callback)."""
    state = _ERROR_STATE.get() if _ERROR_STATE is not None else None
    if state is not None and state is _quiet_error_state[0]:
        return False
    checked = any(m in ("raise", "call") for m in _np.geterr().values())
    if not checked:
        _quiet_error_state[0] = state
    return checked


# NumPy keeps its error state in a context variable that errstate and seterr replace: the last value known to ask
# for no checks makes the per-call test one lookup (np.geterr() costs 0.5 us).
_ERROR_STATE = getattr(_np._core._multiarray_umath, "_extobj_contextvar", None)
_quiet_error_state = [None]


def _graph_break_reasons():
    return getattr(torch._dynamo.utils, "graph_break_reasons", None)


# --------------------------------------------------------------------------------------------------------------
# compile()
# --------------------------------------------------------------------------------------------------------------


class _RunInNumpy(Exception):
    """Raised from our frame callback into the call: nothing of it ran, run it in real NumPy (_Compiled.run_in_numpy)."""


class _Compiled:
    """State of one compiled function (the returned wrapper is a plain function closing over this)."""

    def __init__(self, fn, original, backend, fullgraph, dynamic, mode, options):
        self.fn = fn
        self._fullgraph = bool(fullgraph)
        self._graph_count = 0
        self.broken = False  # a graph break seen while compiling it (see _tensor_to_numpy)
        self._recorder = None
        self.original = original
        self.numpy_driver = None  # set when the function must run in real NumPy (run_in_numpy)
        self.entry = _make_entry(fn)
        self.direct = _fast_path.DirectPath(self.entry)
        real_backend = _resolve_backend(backend, mode, options, dynamic)
        self.backend = _Backend(real_backend, self)
        ctx = torch._dynamo.optimize(self.backend, nopython=self._fullgraph, dynamic=dynamic)
        # Registers the entry with Dynamo (e.g. never "skip: no tensors in frame" for it); the wrapper torch
        # returns is not used, we set the frame callback ourselves per call (see __call__ below).
        ctx(self.entry)
        self.callback = _Callback(ctx.callback, self, list(getattr(ctx, "enter_exit_hooks", ())))
        self.direct.callback = self.callback  # (set while a direct entry's code after a graph break runs)
        self.lock = threading.Lock()

    def run_in_numpy(self, feature: str, first_frame: bool):
        """From now on every call runs in real NumPy (``tracing._dynamo_patch.InNumpy``); this one too when nothing
        of it has run yet (``first_frame``: the trace was the call's first frame), otherwise it cannot be exact."""
        self.numpy_driver = _fallback.in_numpy(self.original, feature, lambda: self._recorder)
        if self._fullgraph:
            raise CompileError(f"{feature} cannot be compiled: it changes the array the function was handed in a "
                               f"way no graph can; npcompile runs such functions in real NumPy (fullgraph=False)")
        if not first_frame:
            raise UnsupportedFeature(f"{feature} reached after a graph break in this call (the part before the "
                                     f"break has run compiled); the next calls run the whole function in NumPy")
        raise _RunInNumpy

    def _note_breaks(self, reasons, records, frame):
        rec = self._recorder
        seen = set()
        for r in reasons:
            # Dynamo records a break once per analysis restart; one event per (reason, place).
            us = getattr(r, "user_stack", None) or []
            key = (getattr(r, "reason", ""), tuple((f.filename, f.lineno) for f in us))
            if key in seen:
                continue
            seen.add(key)
            _fallback.note_graph_break(r, rec)
        for record in records:
            _fallback.note_suppressed_error(record, frame, rec)


def compile(fn: Callable | None = None, *, backend: str | Callable = "inductor", fullgraph: bool = False,
            dynamic: bool | None = None, mode: str | None = None, options: dict | None = None):
    """Compile a NumPy function into fused kernels (C++/OpenMP on CPU, Triton on CUDA).

    Use as ``@npcompile.compile`` or ``@npcompile.compile(backend=..., ...)``, on functions, methods, closures
    and lambdas.  NumPy arrays in, NumPy arrays out, NumPy's answers; what cannot be compiled runs in real NumPy.

    backend: "inductor" (default), "eager", "aot_eager", another registered Dynamo backend name, or a callable
        ``(torch.fx.GraphModule, example_inputs) -> callable``.
    fullgraph: raise ``npcompile.CompileError`` at the first place the function cannot stay in one graph.
    dynamic: as in ``torch.compile`` (None: compile static, go dynamic on the first size change).
    mode, options: Inductor mode / config overrides, as in ``torch.compile``.
    """
    if fn is None:
        return functools.partial(compile, backend=backend, fullgraph=fullgraph, dynamic=dynamic, mode=mode,
                                 options=options)
    if not callable(fn):
        raise TypeError(f"npcompile.compile expects a callable, got {type(fn).__name__}")
    orig = getattr(fn, "__npcompile_original__", None)
    if orig is not None:
        fn = orig
    target = fn
    if (config.outline_loops or config.cut_branches) and not fullgraph:  # see tracing._loops, _branches
        target = _branches.rewrite(fn, functools.partial(compile, backend=backend, dynamic=dynamic, mode=mode,
                                                         options=options), lambda: state._recorder)
    state = _Compiled(target, fn, backend, fullgraph, dynamic, mode, options)
    # a cut function is plain Python around compiled parts: it is called as it is
    wrapper = target if getattr(target, "_npc_driver", False) else _make_wrapper(state)
    try:
        functools.update_wrapper(wrapper, fn)
    except (AttributeError, TypeError):
        pass
    wrapper.__npcompile_original__ = fn
    wrapper.__npcompile_state__ = state
    # Dynamo tracing a call to the wrapper (one compiled function calling another) inlines ``fn`` instead.
    wrapper._torchdynamo_inline = fn
    wrapper.__wrapped__ = fn
    return wrapper


def _make_wrapper(state: _Compiled):
    entry = state.entry
    callback = state.callback
    direct = state.direct  # Dynamo's cached code called without its frame hook, when that is exact
    fullgraph = state._fullgraph
    fn = state.fn
    torch_dtypes = _TORCH_DTYPES

    def npcompiled(*args, **kwargs):
        if state.numpy_driver is not None:
            return state.numpy_driver(*args, **kwargs)
        if _errors_checked():
            return fn(*args, **kwargs)
        if not config.trace_numpy and not _has_tensor(args, kwargs):
            return fn(*args, **kwargs)
        user_kwargs = kwargs
        targs = list(args)
        in_arrays = []
        in_tensors = []
        bits = 0
        ro = 0  # the read-only ones among them
        need_grad = False
        has_base = False
        moved = None  # _copies.Copies or _devices.Moved: what to write back after the call
        i = 0
        for a in args:
            if type(a) is _ndarray:
                if a.dtype in torch_dtypes:
                    flags = a.flags
                    if flags.writeable and flags.c_contiguous:  # the common case, inline (see _array_tensor)
                        try:
                            t, read_only = _from_numpy(a), False
                        except (ValueError, TypeError):  # a negative stride of length 1
                            moved, t, read_only = _array_tensor(a, moved, args, kwargs)
                    else:
                        moved, t, read_only = _array_tensor(a, moved, args, kwargs)
                    if t is not None:
                        if read_only:
                            ro |= 1 << i
                        targs[i] = t
                        bits |= 1 << i
                        in_arrays.append(a)
                        in_tensors.append(t)
                        if isinstance(a.base, _ndarray):  # (a compiled result's base is a tensor: its own root)
                            has_base = True
                else:
                    _fallback.note_array_argument(a, state._recorder)
            elif isinstance(a, _Tensor):
                if a.requires_grad:
                    need_grad = True
            elif isinstance(a, _ndarray):
                _fallback.note_array_argument(a, state._recorder)
            i += 1
        mask = (_MASKS.get((bits, i, ro)) or _mask_string(bits, i, ro)) if bits else ""
        if kwargs:
            kwargs, mask, has_base_k, need_grad_k, moved = _convert_kwargs(kwargs, mask, in_arrays, in_tensors,
                                                                           state, args, moved)
            has_base = has_base or has_base_k
            need_grad = need_grad or need_grad_k
        n_in = len(in_arrays)
        direct_ok = True
        if n_in > 1 and (has_base or (in_arrays[0] is in_arrays[1] if n_in == 2
                                      else len(set(map(id, in_arrays))) != n_in)):
            fixed = _alias_fix(in_arrays, in_tensors)
            if fixed is not in_tensors:
                _replace_tensors(targs, kwargs, in_tensors, fixed)
                in_tensors = fixed
                mask = _alias_mask(mask, fixed)
                # Views among them take Dynamo's own path: the direct one ran a cached graph of them wrong
                # ('too many values to unpack', or other values) from its second call.  (One array passed
                # twice is right there.)
                direct_ok = not has_base
        run_tensors = in_tensors
        if n_in and _tf_stack_len():  # (a device context is a torch function mode: none, nothing to ask)
            device = _devices.run_device()
            if device is not None:
                on_device = _devices.Moved(in_tensors, device)
                run_tensors = on_device.run
                _replace_tensors(targs, kwargs, in_tensors, run_tensors)
                if moved is None:
                    moved = on_device
                else:
                    moved.device = on_device
        grad_off = not need_grad and _is_grad_enabled()
        if grad_off:
            _set_grad_enabled(False)
        try:
            if type(moved) is _copies.Copies:
                moved.snapshot()  # code Dynamo runs uncompiled (after a break) may write into the copies, uncounted
            out = direct(mask, tuple(targs), kwargs) if direct.table and direct_ok else _MISS
            if out is _MISS:
                prior = _set_eval_frame(callback)
                try:
                    out = entry(mask, *targs, **kwargs)
                except _RunInNumpy:
                    out = _RunInNumpy
                finally:
                    _set_eval_frame(prior)
                if direct.stale:
                    direct.refresh()
        except Exception as e:
            if fullgraph:
                _raise_fullgraph(e, fn)
            raise
        finally:
            if grad_off:
                _set_grad_enabled(True)
            if moved is not None:
                moved.copy_back()
        if out is _RunInNumpy:
            return state.numpy_driver(*args, **user_kwargs)
        io = (in_arrays, in_tensors, run_tensors, state.broken, moved)
        if type(out) is _Tensor:
            return _tensor_to_numpy(out, io)
        return _unpack_out(out, args, user_kwargs, io)

    return npcompiled


_MASKS: dict = {}


def _mask_string(bits: int, n: int, ro: int) -> str:
    """'1' for each positional argument passed as a tensor, '2' for one passed as a read-only tensor, e.g. '1021'
    (cached: one str object per pattern)."""
    key = (bits, n, ro)
    m = _MASKS.get(key)
    if m is None:
        m = _MASKS[key] = "".join("2" if ro >> j & 1 else "1" if bits >> j & 1 else "0" for j in range(n))
    return m


def _readonly_tensor(a, flags):
    """The tensor viewing the read-only array ``a`` (the graphs never write it, see ``_unpack_args``), or None
    for one with negative strides: Dynamo takes that (and guards its writeability, see
    ``tracing._dynamo_patch.READONLY``)."""
    if flags.c_contiguous or min(a.strides) >= 0:
        try:
            return _from_readonly(a)
        except (ValueError, TypeError):  # a negative stride of length 1
            pass
    return None


def _from_readonly(a):
    """``torch.from_numpy`` of a read-only array: torch warns that it is not writable once per process, and
    that once is swallowed here."""
    global _from_readonly
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        t = _from_numpy(a)
    _from_readonly = _from_numpy
    return t


def _array_tensor(a, moved, args, kwargs):
    """How the array argument ``a`` (of a torch dtype) enters the graphs: ``(moved, tensor, read-only)``, the
    tensor None where Dynamo's path (real NumPy) must take ``a``.  A view of its memory; for one with negative
    strides, which torch cannot view, a copy (``_copy_in``, kept in ``moved`` for the write-back)."""
    flags = a.flags
    if not flags.writeable:
        return moved, _readonly_tensor(a, flags), True
    if flags.c_contiguous or min(a.strides) >= 0:  # (not: torch.from_numpy raises, in 25 us)
        try:
            return moved, _from_numpy(a), False
        except (ValueError, TypeError):  # a negative stride of length 1
            pass
    moved, t = _copy_in(moved, a, args, kwargs)
    return moved, t, False


def _copy_in(moved, a, args, kwargs):
    """The call's ``_copies.Copies`` and the copy of ``a`` (an array torch cannot view: negative strides) that
    stands in for it, or None where Dynamo's path (real NumPy) must take ``a``."""
    if moved is None:
        moved = _copies.Copies()
    return moved, moved.add(a, args, kwargs)


def _convert_kwargs(kwargs, mask, in_arrays, in_tensors, state, args, moved):
    kwnames = []
    tkw = {}
    has_base = need_grad = False
    for k, v in kwargs.items():
        if type(v) is _ndarray and v.dtype in _TORCH_DTYPES:
            moved, t, read_only = _array_tensor(v, moved, args, kwargs)
            name = "!" + k if read_only else k  # (see _unpack_args)
            if t is None:
                tkw[k] = v
                continue
            tkw[k] = t
            kwnames.append(name)
            in_arrays.append(v)
            in_tensors.append(t)
            if isinstance(v.base, _ndarray):
                has_base = True
        else:
            if isinstance(v, _Tensor) and v.requires_grad:
                need_grad = True
            elif isinstance(v, _ndarray):
                _fallback.note_array_argument(v, state._recorder)
            tkw[k] = v
    if kwnames:
        mask = mask + "|" + ",".join(kwnames)
    return tkw, mask, has_base, need_grad, moved


def _replace_tensors(targs, kwargs, old, new):
    mapping = {id(o): n for o, n in zip(old, new) if o is not n}
    for i, a in enumerate(targs):
        n = mapping.get(id(a))
        if n is not None:
            targs[i] = n
    for k, v in kwargs.items():
        n = mapping.get(id(v))
        if n is not None:
            kwargs[k] = n


def _has_tensor(args, kwargs):
    return any(isinstance(a, _Tensor) for a in args) or any(isinstance(v, _Tensor) for v in kwargs.values())


def _raise_fullgraph(e: BaseException, fn) -> None:
    from torch._dynamo.exc import Unsupported

    if isinstance(e, (Unsupported, torch._dynamo.exc.UserError)):
        name = getattr(fn, "__qualname__", fn)
        msg = _fallback.describe_exception(e)
        raise CompileError(f"npcompile.compile(fullgraph=True): {name} cannot be captured as one graph: {msg}") from e


# --------------------------------------------------------------------------------------------------------------
# explain, disable, allow/disallow_in_graph, graph_break
# --------------------------------------------------------------------------------------------------------------


def explain(fn: Callable, *, backend: str | Callable = "eager"):
    """``npcompile.explain(fn)(*args)`` compiles and runs ``fn`` once on ``args`` and reports how it was
    captured: number of graphs, each graph break with its reason (in NumPy terms) and file:line, what ran in
    real NumPy (fallbacks), and hints.  Returns an ``ExplainReport`` (``print`` it)."""
    fn = getattr(fn, "__npcompile_original__", fn)

    def run(*args, **kwargs):
        rec = _fallback.Recorder()
        compiled = compile(fn, backend=backend)
        state = compiled.__npcompile_state__
        state._recorder = rec
        try:
            result = compiled(*args, **kwargs)
        finally:
            state._recorder = None
        rec.result = result
        report = rec.report(getattr(fn, "__qualname__", repr(fn)))
        report.compiled = compiled  # the compiled function, warm: call it again without recompiling
        return report

    return run


def disable(fn: Callable | None = None, recursive: bool = True):
    """Run ``fn`` (and, with ``recursive=True``, everything it calls) uncompiled, in real NumPy, even when
    called from a compiled function.  Usable as ``@npcompile.disable``."""
    if fn is None:
        return functools.partial(disable, recursive=recursive)
    return torch._dynamo.disable(fn, recursive=recursive)


def _is_numpy_callable(fn) -> bool:
    mod = getattr(fn, "__module__", None) or ""
    if isinstance(fn, _np.ufunc) or mod == "numpy" or mod.startswith("numpy."):
        return True
    self_ = getattr(fn, "__self__", None)
    return isinstance(self_, _np.ufunc)


def allow_in_graph(fn):
    """Put ``fn`` into the graph as one opaque call (torch functions/ops; see ``torch.compiler.allow_in_graph``).
    For a NumPy function previously passed to ``disallow_in_graph``, trace it again."""
    if _is_numpy_callable(fn):
        _patch.allow_numpy(fn)
        return fn
    return torch._dynamo.allow_in_graph(fn)


def disallow_in_graph(fn):
    """Never trace ``fn``: calls to it graph-break and run eagerly.  For a NumPy function (``np.linalg.eig``,
    ``np.add.reduce``...) that means it always runs in real NumPy on real arrays."""
    if _is_numpy_callable(fn):
        _patch.disallow_numpy(fn)
        return fn
    return torch._dynamo.disallow_in_graph(fn)


def graph_break(msg: str = "") -> None:
    """Force a graph break here (code before and after is compiled separately)."""
    if msg:
        torch._dynamo.graph_break(msg)
    else:
        torch._dynamo.graph_break()


def reset() -> None:
    """Forget every compiled function's cached code (as ``torch._dynamo.reset()``, which it calls)."""
    torch._dynamo.reset()


__all__ = ["compile", "explain", "disable", "allow_in_graph", "disallow_in_graph", "graph_break", "reset",
           "CompileError"]
