"""Every place where npcompile reaches into TorchDynamo internals, in one module.

TorchDynamo (``torch._dynamo``) already knows how to trace NumPy code: it maps each NumPy callable to a
same-named function of ``torch._numpy`` and records one FX node per call.  npcompile wants the same capture,
but with *our* NumPy-on-torch (``npcompile._numpy``, "the shim") as the implementation.  ``numpy_mode()`` is a
context manager that, while active, swaps each of Dynamo's ``torch._numpy`` touchpoints for ours and puts
everything back on exit (also on exceptions).  It is entered only while Dynamo *compiles* a frame for an
``npcompile.compile`` function (see ``npcompile/_compile.py``), never for a plain ``torch.compile``.

The FX graphs produced under the patch reference our own callables (``ShimCall``, ``ShimMethodCall``,
``ShimOperatorCall``, ``shim_attr``; ``ArrayConstant`` for draws of a generator seeded inside the traced code,
folded at trace time), which close over ``npcompile._numpy`` directly, so running such a graph
later (outside the patch, e.g. with the "eager" backend) needs no patch; guards reference no ``torch._numpy``
object either (they check tensors, NumPy callables by id, and NumPy dtypes), so guard evaluation needs none.

Supported torch: 2.11 to 2.13 (checked on import).  Every attribute we replace is looked up by name and a
missing one is reported with a clear error naming it, rather than failing obscurely mid-trace.
"""

from __future__ import annotations

import contextlib
import copy as _copy
import functools
import math
import operator
import threading
import types
import warnings
from typing import Any

import numpy as _np
import torch

SUPPORTED_TORCH = ((2, 11), (2, 13))


def _torch_version() -> tuple[int, int]:
    base = torch.__version__.split("+")[0]
    parts = base.split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):  # pragma: no cover - exotic builds
        return (0, 0)


def check_torch_version() -> None:
    v = _torch_version()
    lo, hi = SUPPORTED_TORCH
    if not (lo <= v <= hi):
        raise ImportError(
            f"npcompile supports torch {lo[0]}.{lo[1]} to {hi[0]}.{hi[1]} (it hooks into TorchDynamo internals "
            f"that change between releases); found torch {torch.__version__}"
        )


check_torch_version()

import torch._dynamo  # noqa: E402
import torch._dynamo.trace_rules as _dy_rules  # noqa: E402
import torch._dynamo.codegen as _dy_codegen  # noqa: E402
import torch._dynamo.guards as _dy_guards  # noqa: E402
import torch._dynamo.symbolic_convert as _dy_sc  # noqa: E402
import torch._dynamo.source as _dy_source  # noqa: E402
import torch._dynamo.utils as _dy_utils  # noqa: E402
import torch._dynamo.variables.builder as _dy_builder  # noqa: E402
import torch._dynamo.variables.builtin as _dy_builtin  # noqa: E402
import torch._dynamo.variables.lists as _dy_lists  # noqa: E402
import torch._dynamo.variables.misc as _dy_misc  # noqa: E402
import torch._dynamo.variables.tensor as _dy_tensor  # noqa: E402
import torch._dynamo.variables.torch_function as _dy_tf  # noqa: E402
import torch._dynamo.variables.torch as _dy_torch_vars  # noqa: E402

from torch._dynamo.bytecode_transformation import create_call_function as _create_call_function  # noqa: E402

from ..fallback import REAL_NUMPY_ONLY  # noqa: E402
from . import _fast_path, _lean_graph, _with_callables  # noqa: E402


try:
    from torch._dynamo.eval_frame import skip_code
except ImportError:  # pragma: no cover - torch without it: Dynamo traces what should be skipped (slower)
    def skip_code(code):
        pass


def _require(obj: Any, name: str) -> Any:
    try:
        return getattr(obj, name)
    except AttributeError:
        where = getattr(obj, "__name__", repr(obj))
        raise ImportError(
            f"npcompile: torch {torch.__version__} has no {where}.{name}; this torch release is not supported "
            f"(supported: 2.11 to 2.13)"
        ) from None


# Checked once, at import, so an incompatible torch fails here and not in the middle of a trace.
_NumpyVariable = _require(_dy_misc, "NumpyVariable")
_NumpyDTypeVariable = _require(_dy_misc, "NumpyDTypeVariable")
_ConstantLikeVariable = _require(_dy_misc, "ConstantLikeVariable")
_ORIG_CONSTANT_LIKE_RECONSTRUCT = _require(_ConstantLikeVariable, "reconstruct")
_ORIG_CONSTANT_LIKE_GETATTR = _require(_ConstantLikeVariable, "var_getattr")
_NumpyNdarrayVariable = _require(_dy_tensor, "NumpyNdarrayVariable")
for _name in ("numpy_to_tensor_wrapper", "numpy_attr_wrapper", "numpy_method_wrapper", "numpy_operator_wrapper",
              "tnp", "NP_TO_TNP_MODULE"):
    _require(_dy_utils, _name)
for _name in ("get_np_to_tnp_map", "get_tnp_to_np_map"):
    _require(_dy_misc, _name)
_require(_dy_builtin, "numpy_operator_wrapper")
_require(_dy_tensor, "tnp")
_ORIG_NDARRAY_GETATTR = _require(_NumpyNdarrayVariable, "var_getattr")
_ORIG_NDARRAY_CALL_METHOD = _require(_NumpyNdarrayVariable, "call_method")
_ORIG_IS_NUMPY = _require(_dy_rules, "is_numpy")
_ORIG_BUILDER_WRAP = _require(_require(_dy_builder, "VariableBuilder"), "_wrap")
_ORIG_AUTOMATIC_DYNAMIC = _require(_dy_builder, "_automatic_dynamic")
_ORIG_SLICE_INIT = _require(_require(_dy_lists, "SliceVariable"), "__init__")
_ORIG_CODEGEN_CALL = _require(_dy_codegen.PyCodegen, "__call__")
_ORIG_CODEGEN_IMPORT = _require(_dy_codegen.PyCodegen, "load_import_from")
_ORIG_CAN_DISPATCH_TF = _require(_dy_tf, "can_dispatch_torch_function")
# STORE_ATTR's setattr: SetAttrBuiltinVariable._call_setattr (torch 2.13), BuiltinVariable.call_setattr (2.11)
_SETATTR_OWNER, _SETATTR_NAME = ((_dy_builtin.SetAttrBuiltinVariable, "_call_setattr")
                                 if hasattr(getattr(_dy_builtin, "SetAttrBuiltinVariable", None), "_call_setattr")
                                 else (_dy_builtin.BuiltinVariable, "call_setattr"))
_ORIG_SETATTR = _require(_SETATTR_OWNER, _SETATTR_NAME)
_ORIG_TENSOR_NUMPY = _require(_dy_tensor.TensorVariable, "method_numpy")
_ORIG_NUMPY_SOURCE_RECONSTRUCT = _require(_require(_dy_source, "NumpyTensorSource"), "reconstruct")
_ORIG_LIST_CALL_METHOD = _require(_require(_dy_lists, "ListVariable"), "call_method")
_ORIG_IN_GRAPH_CALL = _require(_require(_dy_torch_vars, "TorchInGraphFunctionVariable"), "call_function")
_ORIG_JUMP_GUARD_BOOL = _require(_dy_sc, "guard_bool")
_tf_all_args = _require(_dy_tf, "_get_all_args")
_tf_overridden = _require(_dy_tf, "has_torch_function")
del _name

# Where the supported torch releases differ, each decided here, once:
# - Whether Dynamo answers ``a is b`` for two classes by the objects.  torch 2.11 answers by the kinds of their
#   trackers, so ``type(x) is np.ndarray`` is False in traced code (``type(x)`` is a class tracker, the global
#   ``np.ndarray`` a NumPy-callable one); later releases compare the objects (``vt_identity_compare``).  Without
#   it ``np.ndarray`` is traced as a plain class, as ``type(x)`` is (see ``_is_numpy``).
try:
    from torch._dynamo.variables.object_protocol import vt_identity_compare  # noqa: F401

    CLASS_IDENTITY_BY_OBJECT = True
except ImportError:
    CLASS_IDENTITY_BY_OBJECT = False
# - Whether to use Dynamo's nested graph breaks (``npcompile.config.nested_graph_breaks``).  torch 2.11's rebuild
#   the calling frame's stack wrongly when the broken frame cannot resume (``g(f(x))``, ``f`` breaking at an
#   operator: ``g`` gets the wrong values, no error), so they are used from the release tested correct on (2.13).
NESTED_GRAPH_BREAKS = hasattr(torch._dynamo.config, "nested_graph_breaks") and _torch_version() >= (2, 13)
if NESTED_GRAPH_BREAKS:
    _Translator = _require(_dy_sc, "InstructionTranslatorBase")
    _ORIG_TX_CALL_FUNCTION = _require(_Translator, "call_function")
    _ORIG_TX_INLINE = _require(_Translator, "inline_user_function_return")
    _LazyVariable = _require(_require(torch._dynamo.variables, "lazy"), "LazyVariableTracker")
    _require(_LazyVariable, "unwrap")


def _shim():
    """The shim, imported on first use (it is being written alongside; importing it lazily keeps this module
    importable, and lets tests substitute a module)."""
    global _SHIM
    if _SHIM is None:
        import npcompile._numpy as shim

        _SHIM = shim
    return _SHIM


_SHIM = None


def set_shim(module) -> None:
    """Testing hook: trace into ``module`` instead of ``npcompile._numpy``."""
    global _SHIM
    _SHIM = module
    _np_to_shim_map.cache_clear()


# --------------------------------------------------------------------------------------------------------------
# Exceptions while tracing.  Dynamo runs each recorded call once on fake tensors.  A NotImplementedError raised
# there becomes a graph break at that call (torch/_dynamo/utils.py ``run_node``), after which the call runs in
# real NumPy on real arrays.  Any other exception would become a hard "TorchRuntimeError", so while we are
# compiling we turn the shim's exceptions (UnsupportedFeature, NumPy-style ValueError/TypeError for bad user
# input, ...) into a NotImplementedError: real NumPy then runs the call and gives the real answer or the real
# error.  Torch's own data-dependence signals pass through untouched: Dynamo handles those itself.
# --------------------------------------------------------------------------------------------------------------


class ShimTraceError(NotImplementedError):
    """A shim call failed while tracing; the call graph-breaks and runs in real NumPy."""

    def __init__(self, what: str, exc: BaseException):
        self.what = what
        self.original = exc
        feature = getattr(exc, "feature", None)
        self.feature = feature
        msg = f"{what}: {type(exc).__name__}: {exc}"
        super().__init__(msg)


_state = threading.local()


def tracing_active() -> bool:
    return getattr(_state, "depth", 0) > 0


def _passthrough_types() -> tuple[type, ...]:
    from torch._subclasses import fake_tensor as ft

    from torch._dynamo.exc import Unsupported

    types_ = [Unsupported]
    for n in ("DataDependentOutputException", "DynamicOutputShapeException"):
        t = getattr(ft, n, None)
        if t is not None:
            types_.append(t)
    return tuple(types_)


_PASSTHROUGH: tuple[type, ...] | None = None


def _convert_exc(what: str, exc: BaseException) -> BaseException:
    global _PASSTHROUGH
    if not tracing_active():
        return exc
    if _PASSTHROUGH is None:
        _PASSTHROUGH = _passthrough_types()
    if isinstance(exc, _PASSTHROUGH) or isinstance(exc, ShimTraceError):
        return exc
    return ShimTraceError(what, exc)


def _shape_env():
    """The ShapeEnv of the node being traced, or None outside fake tracing."""
    if not tracing_active():
        return None
    try:
        from torch._guards import detect_fake_mode

        mode = detect_fake_mode()
        return getattr(mode, "shape_env", None) if mode is not None else None
    except Exception:
        return None


def _pending_unbacked():
    """Dynamo's list of unbacked symbols created by the node being traced, or None outside fake tracing."""
    return getattr(_shape_env(), "pending_fresh_unbacked_symbols", None)


# The size Inductor assumes for a length that depends on values read from the data (a slice ``a[p[i]:p[i + 1]]``):
# short, so that its loops run on one thread.  Without a hint it assumes 8192 and spreads a loop over a CSR row's
# 20 elements across threads, which costs far more than the loop (a compiled per-row body: 44 -> 380 us per call).
_DATA_BOUND_SIZE_HINT = 64


def _hint_data_bound_sizes(new, args, kwargs):
    """Hint the sizes ``new`` that a shim call made from integers read from the data (unbacked scalars among
    ``args``) as short (_DATA_BOUND_SIZE_HINT); sizes that only depend on array contents (``nonzero``, ``x[x > 0]``)
    keep Inductor's default, which suits whole-array masks."""
    if not _has_unbacked_scalar((args, kwargs)):
        return
    hints = getattr(_shape_env(), "var_to_hint_override", None)  # (torch releases without: no hints)
    if hints is not None:
        for sym in new:
            hints.setdefault(sym, _DATA_BOUND_SIZE_HINT)


def _has_unbacked_scalar(x) -> bool:
    if isinstance(x, torch.SymInt):
        return bool(x.node.expr.free_symbols) and not x.node.has_hint()
    tx = type(x)
    if tx is slice:
        return _has_unbacked_scalar((x.start, x.stop, x.step))
    if tx is tuple or tx is list:
        return any(_has_unbacked_scalar(v) for v in x)
    if tx is dict:
        return any(_has_unbacked_scalar(v) for v in x.values())
    return False


def _check_unbacked(pending, n0, out, what):
    """A shim call that made data-dependent sizes/values internally (e.g. a ``nonzero`` to decide a branch) but
    returns none of them would make Dynamo fail the whole frame ("pending unbacked symbols"); turn it into a
    graph break at this one call instead."""
    if pending is None or len(pending) <= n0:
        return
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    escaped = free_unbacked_symbols(out)
    new = pending[n0:]
    if all(sym in escaped for sym in new):
        return
    del pending[n0:]
    raise ShimTraceError(what, NotImplementedError("data-dependent internals in the shim for this call"))


# --------------------------------------------------------------------------------------------------------------
# Graph-node callables.  These replace torch/_dynamo/utils.py's ``numpy_to_tensor_wrapper``,
# ``numpy_attr_wrapper``, ``numpy_method_wrapper`` and ``numpy_operator_wrapper``, which turn the tensors of
# the graph into ``torch._numpy.ndarray`` through the module global ``tnp``.  Ours wrap them into
# ``npcompile._numpy.ndarray`` instead and unwrap results back into tensors.  They carry no reference to the
# patch, so a graph that calls them can run anywhere.
# --------------------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------------------
# Read-only arrays.  Writeability is not a property of tensors, so while Dynamo traces, a fake tensor standing for
# a read-only array carries the mark READONLY in its ``__dict__``: set on graph inputs made from read-only NumPy
# arrays (``_builder_wrap``) and on results the shim returns read-only (``np.broadcast_to``, a view of a
# read-only array...), read back whenever a node wraps a tensor into a shim array.  A write into such an array
# then fails in the shim at trace time, which is a graph break at that call (``ShimTraceError``); real NumPy runs
# it on a read-only array and raises NumPy's own error before writing anything.  So compiled code never writes a
# read-only array: writeability is part of what a graph is specialised on (the argument mask of
# ``npcompile._compile``, a guard on ``flags.writeable`` for the arrays Dynamo wraps itself), and after a graph
# break such an array is rebuilt read-only (``readonly_numpy``).  Marks on real tensors are never read: graphs
# run later on real tensors hold no write into a read-only array.
# --------------------------------------------------------------------------------------------------------------

READONLY = "_npcompile_readonly"

# 0-d arrays and scalars (npcompile._numpy._ndarray.is_array0d) are told apart the same way: a fake tensor standing
# for a 0-d array (not a scalar) carries ARRAY0D, set on arrays the shim returns and on the arrays NumPy code
# gets from outside (arguments, ``Tensor.numpy()``).  Each graph node records which of its 0-d arguments carry it
# when traced, for its later runs (``_array0d_marks``).
ARRAY0D = "_npcompile_array0d"


def _is_array0d(a) -> bool:
    from npcompile._numpy._ndarray import is_array0d

    return is_array0d(a)


def _ndarray_python_type(self):
    """NumpyNdarrayVariable.python_type (what ``type(v)`` and ``isinstance(v, T)`` read): a NumPy scalar (a 0-d
    value without ARRAY0D, ``a[0]``, ``a.sum()``) has its NumPy scalar type, as in NumPy: ``isinstance(a[0],
    np.floating)`` was False, ``isinstance(a[0], np.ndarray)`` True, and ``type(a.sum()) is np.float64`` False."""
    ev = _example(self)
    if ev is not None and ev.ndim == 0 and ARRAY0D not in ev.__dict__:
        return _shim()._dtypes.from_torch(ev.dtype).type
    return _np.ndarray


def _tensor_numpy(self, tx, *args, **kwargs):
    """TensorVariable.method_numpy: ``t.numpy()`` of a 0-d tensor is a 0-d array, not a scalar (ARRAY0D)."""
    vt = _ORIG_TENSOR_NUMPY(self, tx, *args, **kwargs)
    ev = vt.as_proxy().node.meta.get("example_value")
    if isinstance(ev, torch.Tensor) and ev.ndim == 0:
        ev.__dict__[ARRAY0D] = True
    return vt


def is_readonly_variable(v) -> bool:
    """Whether the Dynamo variable ``v`` is an array the traced code must not write (see READONLY)."""
    if not isinstance(v, _NumpyNdarrayVariable):
        return False
    ev = v.as_proxy().node.meta.get("example_value")
    return isinstance(ev, torch.Tensor) and READONLY in ev.__dict__


def readonly_numpy(t):
    """A graph output that stands for a read-only array, as the array real NumPy gets after a graph break."""
    a = t.numpy(force=True)
    a.flags.writeable = False
    return a


def _to_shim(x):
    if isinstance(x, torch.Tensor):
        a = _shim().ndarray(x)
        if READONLY in x.__dict__:
            a._writeable = False
        if ARRAY0D in x.__dict__:
            a._array0d = True
        return a
    tx = type(x)
    if tx is list or tx is tuple:
        return tx(_to_shim(v) for v in x)
    return x


def _to_tensor(x):
    shim = _shim()
    if isinstance(x, shim.ndarray):
        t = x.tensor
        if not x._writeable and tracing_active():
            t.__dict__[READONLY] = True
        if t.ndim == 0 and tracing_active() and _is_array0d(x):
            t.__dict__[ARRAY0D] = True
        return t
    tx = type(x)
    if tx is list or tx is tuple:
        return tx(_to_tensor(v) for v in x)
    if isinstance(x, tuple) and hasattr(tx, "_fields"):  # NumPy's named results (SVDResult, EighResult...)
        return tx(*(_to_tensor(v) for v in x))
    return x


def _run_shim(what: str, f, args, kwargs, node):
    """Run ``f`` on shim arrays made from the graph's tensors and return tensors: the body of every graph node
    target (``node``); shim errors become Dynamo-facing errors naming ``what``, and new unbacked sizes are
    checked."""
    args = _to_shim(args)
    if kwargs:
        kwargs = {k: _to_shim(v) for k, v in kwargs.items()}
    _array0d_marks(node, (args, kwargs))
    pending = _pending_unbacked()
    n0 = len(pending) if pending is not None else 0
    try:
        out = _to_tensor(f(*args, **kwargs))
    except Exception as e:
        raise _convert_exc(what, e) from e
    _check_unbacked(pending, n0, out, what)
    if pending is not None and len(pending) > n0:
        _hint_data_bound_sizes(pending[n0:], args, kwargs)
    return out


def _array0d_marks(node, args):
    """Which 0-d arguments of a graph node are arrays, not scalars (ARRAY0D): the fake tensors of Dynamo's trace
    carry the mark, the tensors of a backend's own trace and of the compiled graph's runs do not, so the node's
    first run (Dynamo's) records it and later runs set it again.  Without, the shim's answers for a 0-d array
    changed from trace to run: ``a += 1`` did not write into it, ``a ** 0.5`` of -inf gave a scalar's inf,
    ``int8_a[0] = np.array(300)`` raised a scalar's OverflowError, ``a.ravel()`` copied it."""
    zero_d = [a for a in _shim_arrays(args) if a.tensor.ndim == 0]
    if node.array0d is None:
        node.array0d = tuple(i for i, a in enumerate(zero_d) if _is_array0d(a))
    else:
        for i in node.array0d:
            zero_d[i]._array0d = True


def _shim_arrays(x):
    if isinstance(x, _shim().ndarray):
        yield x
    elif type(x) in (list, tuple):
        for v in x:
            yield from _shim_arrays(v)
    elif type(x) is dict:
        for v in x.values():
            yield from _shim_arrays(v)


def _moved_to(x, device):
    if isinstance(x, torch.Tensor):
        return x if x.device == device else x.to(device)
    tx = type(x)
    if tx is list or tx is tuple:
        return tx(_moved_to(v, device) for v in x)
    return x


class ShimCall:
    """Graph node target for a NumPy function call: ``ShimCall(npcompile._numpy.sin)(tensor, ...)``.

    Made while tracing a call under ``with torch.device(d)`` (d not the CPU), it runs the function under that
    context too, so the arrays it creates (``np.zeros``, ``np.arange``...) are on ``d`` in the fake run, in
    the backend's own trace and at run time alike (Dynamo clears the context while it compiles); results
    the shim still makes on the host (``np.array`` of Python data goes through NumPy) move to ``d``.
    """

    __slots__ = ("f", "device", "array0d", "__name__", "__qualname__")

    def __init__(self, f):
        self.f = f
        self.array0d = None  # (see _array0d_marks)
        self.device = getattr(_state, "device", None) if tracing_active() else None
        name = getattr(f, "__name__", None) or type(f).__name__
        owner = getattr(f, "__self__", None)
        if owner is not None and not isinstance(owner, types.ModuleType):
            name = f"{getattr(owner, '__name__', type(owner).__name__)}_{name}"
        self.__name__ = "npc_" + name
        self.__qualname__ = self.__name__

    def __repr__(self):
        return f"<npcompile call {getattr(self.f, '__module__', '?')}.{getattr(self.f, '__name__', self.f)}>"

    def __call__(self, *args, **kwargs):
        what = f"numpy.{getattr(self.f, '__name__', self.f)}"
        if self.device is None:
            return _run_shim(what, self.f, args, kwargs, self)
        with self.device:
            return _moved_to(_run_shim(what, self.f, args, kwargs, self), self.device)


class ShimMethodCall:
    """Graph node target for ``a.method(...)`` on an array."""

    __slots__ = ("method", "array0d", "__name__", "__qualname__")

    def __init__(self, method: str):
        self.method = method
        self.array0d = None  # (see _array0d_marks)
        self.__name__ = "npc_method_" + method
        self.__qualname__ = self.__name__

    def __repr__(self):
        return f"<npcompile method ndarray.{self.method}>"

    def __call__(self, *args, **kwargs):
        method = self.method
        return _run_shim(f"ndarray.{method}", lambda obj, *a, **k: getattr(obj, method)(*a, **k), args, kwargs,
                         self)


def _getitem_symbolic(a, dim, i):
    """Dynamo writes ``a[i]`` with a symbolic int ``i`` (e.g. a dynamic loop index) as torch.select(a, 0, i)."""
    return a[i]


_getitem_symbolic.__name__ = "getitem"


class ShimOperatorCall:
    """Graph node target for an operator (``a + b``, ``a[i]``, ``a += b``...) on arrays.  An in-place operator on
    a 0-d operand writes into an array, and makes a new scalar (ARRAY0D, kept by _array0d_marks)."""

    __slots__ = ("op", "array0d", "__name__", "__qualname__")

    def __init__(self, op):
        self.op = _getitem_symbolic if op is torch.select else op
        self.array0d = None  # (see _array0d_marks)
        self.__name__ = "npc_op_" + getattr(op, "__name__", "op")
        self.__qualname__ = self.__name__

    def __repr__(self):
        return f"<npcompile operator {getattr(self.op, '__name__', self.op)}>"

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError("operators take no keyword arguments")
        return _run_shim(f"operator {getattr(self.op, '__name__', self.op)}", self.op, args, kwargs, self)


def shim_attr(obj, name: str):
    """Graph node target for an array attribute that is itself an array (``a.T``, ``a.real``...)."""
    obj = _to_shim(obj)
    try:
        out = getattr(obj, name)
    except Exception as e:
        raise _convert_exc(f"ndarray.{name}", e) from e
    return _to_tensor(out)


shim_attr.__name__ = "npc_attr"

GRAPH_CALLABLE_TYPES = (ShimCall, ShimMethodCall, ShimOperatorCall)


# --------------------------------------------------------------------------------------------------------------
# NumPy callable -> shim callable.  Replaces torch/_dynamo/variables/misc.py ``get_np_to_tnp_map`` (an
# lru_cache over ``NP_TO_TNP_MODULE``, which would point at torch._numpy).  Ours is keyed on the shim and the
# set of NumPy functions the user disallowed (``npcompile.disallow_in_graph``): those are left out, so Dynamo
# graph-breaks at them and real NumPy runs them.
# --------------------------------------------------------------------------------------------------------------

_disallowed: set = set()
_disallowed_version = [0]


def disallow_numpy(fn) -> None:
    _disallowed.add(fn)
    _disallowed_version[0] += 1


def allow_numpy(fn) -> None:
    _disallowed.discard(fn)
    _disallowed_version[0] += 1


def _module_pairs():
    shim = _shim()
    pairs = [(_np, shim)]
    for sub in ("fft", "linalg", "random", "lib.stride_tricks", "polynomial.polynomial", "polynomial.chebyshev",
                "polynomial.legendre", "polynomial.laguerre", "polynomial.hermite", "polynomial.hermite_e"):
        m = functools.reduce(lambda mod, n: getattr(mod, n, None), sub.split("."), shim)
        if m is not None:
            pairs.append((functools.reduce(getattr, sub.split("."), _np), m))
    return pairs


@functools.lru_cache(maxsize=4)
def _np_to_shim_map(_version: int = 0) -> dict:
    result = {}
    for np_mod, shim_mod in _module_pairs():
        for name, ours in vars(shim_mod).items():
            if name.startswith("_") or not callable(ours) or isinstance(ours, types.ModuleType):
                continue
            theirs = getattr(np_mod, name, None)
            if theirs is None or not callable(theirs) or np_mod is _np.random and name in REAL_NUMPY_ONLY:
                continue
            try:
                if theirs in _disallowed:
                    continue
                # aliases (np.atan is np.arctan): the entry under the NumPy object's own name wins
                if theirs in result and name != getattr(theirs, "__name__", name):
                    continue
                result[theirs] = ours
            except TypeError:  # unhashable callable
                continue
    # ufunc methods (np.add.reduce, ...): bound builtin methods compare and hash by (ufunc, name), so the
    # fresh bound method Dynamo sees at each access finds its entry here.
    for np_uf, ours in list(result.items()):
        if isinstance(np_uf, _np.ufunc):
            for meth in ("reduce", "accumulate", "outer", "at", "reduceat"):
                m_ours = getattr(ours, meth, None)
                if m_ours is not None:
                    bound = getattr(np_uf, meth)
                    if bound not in _disallowed:
                        result[bound] = m_ours
    # Code written against the shim itself (``import npcompile._numpy as np``, its eager debug mode) calls our
    # functions directly: each traces as itself, as the NumPy function it stands for would (not inlined by
    # Dynamo, which would break the graph inside our implementation).
    for ours in list(result.values()):
        if not isinstance(ours, type):
            result.setdefault(ours, ours)
    return result


def np_to_shim_map() -> dict:
    return _np_to_shim_map(_disallowed_version[0])


def shim_to_np_map() -> dict:
    return {v: k for k, v in np_to_shim_map().items() if k is not v}


def shim_function_for(np_callable):
    """The shim function that traces ``np_callable``, or None (then it runs in real NumPy)."""
    try:
        return np_to_shim_map().get(np_callable)
    except TypeError:
        return None


# --------------------------------------------------------------------------------------------------------------
# NumpyVariable class-method replacements.  torch's versions assert ``fn.__module__.startswith('torch._numpy')``
# and consult ``np_constant_collections_map`` / ``constant_fold_functions``, built from torch._numpy objects at
# import time; ours answer the same questions for shim functions.
# --------------------------------------------------------------------------------------------------------------

_FOLD_NAMES_DTYPE_ONLY = ("issubdtype", "promote_types", "can_cast", "isdtype")


def _can_constant_fold_through(cls, fn) -> bool:
    shim = _shim()
    for n in _FOLD_NAMES_DTYPE_ONLY:
        if getattr(shim, n, None) is fn:
            return True
    return False


def _get_constant_collection_for_func(cls, fn):
    shim = _shim()
    from torch._dynamo.variables.misc import ConstantLikeVariable

    if fn is getattr(shim, "dtype", None) or fn is _np.dtype:
        return _NumpyDTypeVariable
    if fn is getattr(shim, "finfo", None) or fn is getattr(shim, "iinfo", None):
        return ConstantLikeVariable
    return None


# --------------------------------------------------------------------------------------------------------------
# NumpyNdarrayVariable.var_getattr replacement.  torch refuses ``a.dtype`` (a graph break) and a few other
# attributes; in the shim dtypes are real ``numpy.dtype`` constants, fixed by the tensor's dtype, which the
# tensor guards already pin.  So ``a.dtype`` (and ``np.zeros(n, dtype=a.dtype)``) stay in the graph.
# --------------------------------------------------------------------------------------------------------------


def _ndarray_var_getattr(self, tx, name: str):
    from torch.fx.experimental.symbolic_shapes import has_free_symbols

    from torch._dynamo.variables.base import VariableTracker

    if name in ("dtype", "nbytes", "strides", "itemsize"):
        example_value = self.as_proxy().node.meta["example_value"]
        arr = _shim().ndarray(example_value)
        if name == "dtype":
            return _NumpyDTypeVariable(arr.dtype)
        value = getattr(arr, name)
        if not has_free_symbols(value):
            if isinstance(value, tuple):
                return VariableTracker.build(tx, tuple(int(v) for v in value))
            return VariableTracker.build(tx, int(value))
    if name == READONLY:  # (asked by npcompile._compile._pack of each array result)
        return VariableTracker.build(tx, is_readonly_variable(self))
    if name == ARRAY0D:  # (asked by npcompile._compile._pack of each 0-d result)
        ev = self.as_proxy().node.meta.get("example_value")
        return VariableTracker.build(tx, isinstance(ev, torch.Tensor) and ARRAY0D in ev.__dict__)
    if name == "flags":
        flags = _traced_flags(self)
        if flags is not None:
            return _FlagsVariable(flags)
    if name in ("mT",):
        from torch._dynamo.variables.builder import wrap_fx_proxy_cls

        proxy = tx.output.create_proxy("call_function", shim_attr, (self.as_proxy(), name), {})
        return wrap_fx_proxy_cls(target_cls=_NumpyNdarrayVariable, tx=tx, proxy=proxy)
    return _ORIG_NDARRAY_GETATTR(self, tx, name)


# ``a.flags`` in a graph: the flags of the traced array that the graph is specialised on, its layout (tensor guards
# pin shapes and strides) and writeability (READONLY), read as constants (``if not a.flags.c_contiguous: a =
# np.ascontiguousarray(a)`` had broken the graph).  ``owndata`` depends on whether the caller's array is a view, which
# no guard pins; it, the flags of a NumPy scalar or of symbolic strides, and the flags object itself leaving the graph
# are graph breaks.  A function that sets a flag runs in NumPy (``_branches``).
_TRACED_FLAGS = frozenset({"c_contiguous", "f_contiguous", "contiguous", "writeable", "aligned", "writebackifcopy",
                           "fnc", "forc", "behaved", "carray", "farray"})


def _traced_flags(v):
    """The shim's flags object of the array Dynamo variable ``v`` stands for, or None where they are not fixed."""
    from torch.fx.experimental.symbolic_shapes import has_free_symbols

    ev = v.as_proxy().node.meta.get("example_value")
    if not isinstance(ev, torch.Tensor) or has_free_symbols(ev.stride()) or has_free_symbols(ev.shape):
        return None
    a = _to_shim(ev)
    return a.flags if ev.ndim or _is_array0d(a) else None


def _flags_break(what: str):
    from torch._dynamo.exc import unimplemented

    unimplemented(gb_type="npcompile: ndarray.flags", context=what, hints=[],
                  explanation=f"{what} depends on the caller's array, not on what the graph is specialised on")


class _FlagsVariable(_ConstantLikeVariable):
    """``a.flags``: the flags in ``_TRACED_FLAGS``, read by attribute or by key, are constants.  Not a constant
    itself: Dynamo would read any attribute of it (``owndata`` of a view was True)."""

    def as_python_constant(self):
        raise NotImplementedError("ndarray.flags")

    def python_type(self):
        return type(self.value)

    def var_getattr(self, tx, name):
        from torch._dynamo.variables.base import VariableTracker

        if name not in _TRACED_FLAGS:
            _flags_break(f"ndarray.flags.{name}")
        return VariableTracker.build(tx, getattr(self.value, name))

    def call_method(self, tx, name, args, kwargs):
        key = args[0].as_python_constant() if name == "__getitem__" and len(args) == 1 and not kwargs and \
            args[0].is_python_constant() else None
        attr = type(self.value)._KEYS.get(key.upper()) if isinstance(key, str) else None
        if attr not in _TRACED_FLAGS:
            _flags_break(f"ndarray.flags.{name}")
        return self.var_getattr(tx, attr)

    def mp_subscript_impl(self, tx, key):  # (torch 2.13: ``flags[key]``; 2.11 calls ``__getitem__``)
        return self.call_method(tx, "__getitem__", [key], {})

    def reconstruct(self, codegen):
        _flags_break("ndarray.flags leaving the graph")


def _constant_like_reconstruct(self, codegen):
    """ConstantLikeVariable.reconstruct (NumpyDTypeVariable's too): a ``numpy.dtype`` made in the graph
    (``a.dtype``, ``np.result_type(...)``) and returned or live at a graph break is loaded as a constant (NumPy's
    dtypes of the built-in kinds are immutable singletons: the very object NumPy returns; a structured one, whose
    ``names`` can be set, is not shared); a ``finfo`` or ``iinfo`` is made anew by its class from its dtype, as
    NumPy does on each call.  Dynamo has no code for them and gives up on the whole frame, whose arithmetic then
    runs outside any graph.  Other values as Dynamo does."""
    value = self.value
    if isinstance(value, (_np.finfo, _np.iinfo)):
        codegen.add_push_null(lambda: codegen.append_output(codegen.create_load_const(type(value))))
        codegen.append_output(codegen.create_load_const_unchecked(value.dtype))
        codegen.extend_output(_create_call_function(1, False))
    elif isinstance(value, _np.dtype) and value.names is None:
        codegen.append_output(codegen.create_load_const_unchecked(value))
    else:
        _ORIG_CONSTANT_LIKE_RECONSTRUCT(self, codegen)


def _constant_like_getattr(self, tx, name):
    """ConstantLikeVariable.var_getattr: an attribute of a ``finfo`` that is a NumPy scalar (``eps``, ``max``,
    ``tiny``...) is that scalar, made in the graph from its exact value.  Dynamo makes a Python float of it,
    which NEP 50 promotes as a weak scalar: ``x16 * np.finfo(np.float32).eps`` was float16, NumPy's float32."""
    value = getattr(self.value, name, None) if isinstance(self.value, _np.finfo) else None
    if isinstance(value, _np.generic):
        from torch._dynamo.variables.constant import ConstantVariable

        return _NumpyVariable(type(value)).call_function(tx, [ConstantVariable.create(value.item())], {})
    return _ORIG_CONSTANT_LIKE_GETATTR(self, tx, name)


# --------------------------------------------------------------------------------------------------------------
# NumPy calls inside ``try``.  A compiled graph runs after the code around it was traced, so an error its NumPy
# calls raise on the data (LinAlgError on a singular matrix, IndexError on an index out of bounds...) would
# never reach the function's ``except`` clauses (and compiled kernels check no data at all).  So a NumPy
# function call or ndarray method inside a ``try`` block (of the function or of any caller being traced) whose
# handlers could act on such an error (``except ValueError``, ``except Exception``, a bare ``except``, ``finally``;
# not ``except KeyError`` or ``except FloatingPointError``) is a graph
# break; Dynamo cannot resume inside a ``try``, so the frame holding it runs in Python, its NumPy calls in
# real NumPy with NumPy's errors (the functions it calls are compiled as frames of their own).  The same for array
# operators and subscripts (``a[i]`` with an index out of bounds), caught where Dynamo asks whether they dispatch
# to a torch function mode (``_can_dispatch_torch_function``).
# --------------------------------------------------------------------------------------------------------------


# Errors NumPy raises on the data, and their bases and subclasses are what a clause must not catch (LinAlgError is
# a ValueError); FloatingPointError is not among them: compiled code
# reports no floating-point errors (README), and ``with np.errstate(...="raise")`` runs in real NumPy anyway.
_DATA_ERRORS = (ValueError, IndexError, TypeError, OverflowError, ZeroDivisionError, RuntimeError)
_EXPR_OPS = ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "BUILD_TUPLE")
_CLEANUP_OPS = ("COPY", "SWAP", "POP_EXCEPT", "POP_TOP", "LOAD_CONST", "STORE_FAST", "DELETE_FAST", "NOP")


def _clause_types(tx, exprs):
    """The exception classes an ``except`` clause names (its expression's instructions), or None if unknown."""
    stack = []
    for ins in exprs:
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            name = ins.argval
            if name in tx.f_globals:
                stack.append(tx.f_globals[name])
            elif name in tx.f_builtins:
                stack.append(tx.f_builtins[name])
            else:
                return None
        elif ins.opname == "LOAD_ATTR" and stack:
            stack.append(getattr(stack.pop(), ins.argval, None))
        elif ins.opname == "BUILD_TUPLE" and len(stack) >= ins.arg:
            items = stack[len(stack) - ins.arg:]
            del stack[len(stack) - ins.arg:]
            stack.append(tuple(items))
        else:
            return None
    if len(stack) != 1:
        return None
    out = stack[0] if isinstance(stack[0], tuple) else (stack[0],)
    return out if all(isinstance(t, type) for t in out) else None


def _may_catch(tx, entry, depth=0) -> bool:
    """Whether an error raised where the exception table ``entry`` of ``tx`` applies can reach code that acts on
    it: an ``except`` clause that catches an error NumPy raises on the data (or one we cannot read), a bare
    ``except``, a ``finally``.  ``with`` exits and ``except ... as e`` cleanups pass it on (re-raise)."""
    if entry is None:
        return False
    insts, indexof = tx.instructions, tx.indexof
    i = indexof.get(entry.target) if depth < 16 else None
    if i is None:
        return True

    def passed_on(k):  # the handler re-raises at its first RERAISE from index k: where that one goes
        while k < len(insts) and insts[k].opname != "RERAISE":
            k += 1
        return k == len(insts) or _may_catch(tx, insts[k].exn_tab_entry, depth + 1)

    if insts[i].opname != "PUSH_EXC_INFO":  # a cleanup that only re-raises
        k = i
        while k < len(insts) and insts[k].opname in _CLEANUP_OPS:
            k += 1
        return k == len(insts) or insts[k].opname != "RERAISE" or passed_on(k)
    i += 1
    if insts[i].opname == "WITH_EXCEPT_START":  # (Dynamo traces only context managers that suppress nothing)
        return passed_on(i)
    while True:
        k = i
        while insts[k].opname in _EXPR_OPS:
            k += 1
        if k == i or insts[k].opname != "CHECK_EXC_MATCH":
            return True  # a bare except or a finally
        types = _clause_types(tx, insts[i:k])
        if types is None or any(issubclass(e, t) or issubclass(t, e) for e in _DATA_ERRORS for t in types):
            return True
        jump = insts[k + 1]
        if jump.target is None or jump.target not in indexof:
            return True
        i = indexof[jump.target]
        if insts[i].opname == "RERAISE":  # no clause matched
            return _may_catch(tx, insts[i].exn_tab_entry, depth + 1)


def _in_try(tx) -> bool:
    """Whether an error raised by the instruction being traced could be caught by user code (``_may_catch``),
    in ``tx`` or in a caller being inlined (whose current instruction is the call)."""
    while tx is not None:
        if _may_catch(tx, getattr(getattr(tx, "current_instruction", None), "exn_tab_entry", None)):
            return True
        tx = getattr(tx, "parent", None)
    return False


def _break_in_try(tx, what: str) -> None:
    if _in_try(tx):
        from torch._dynamo.exc import unimplemented

        unimplemented(gb_type="npcompile: NumPy call inside try", context=what,
                      explanation=f"npcompile runs NumPy calls inside try blocks in real NumPy ({what}), so that "
                                  f"errors they raise on the data reach the except clause", hints=[])


_NDARRAY_LOCAL_METHODS = ("__len__", "size", "tolist", "__iter__")  # answered by Dynamo, no graph node


def _slice_init(self, items, tx=None, **kwargs):
    """SliceVariable.__init__ (BUILD_SLICE): an array slice bound (``a[p[i]:p[i + 1]]``) becomes an integer as in
    NumPy, through the shim's ``__index__``: only a 0-d integer array converts (others raise NumPy's TypeError, a
    break the call's NumPy run raises from), where Dynamo's ``.item()`` would take a one-element array or a float.
    Traced, the integer is data-dependent (an unbacked SymInt: ``capture_scalar_outputs``, see
    ``npcompile._compile``) and the slice stays in the graph."""
    if tx is not None:
        items = [v.call_method(tx, "__index__", [], {}) if isinstance(v, _NumpyNdarrayVariable) else v
                 for v in items]
    _ORIG_SLICE_INIT(self, items, tx, **kwargs)


def _ndarray_var_call_method(self, tx, name, args, kwargs):
    if name in ("resize", "setflags"):
        _in_numpy(f"ndarray.{name}")
    if name not in _NDARRAY_LOCAL_METHODS:
        _break_in_try(tx, f"ndarray.{name}")
    _no_subclass_argument(name, args, kwargs)
    if name == "__round__" and not kwargs and (not args or args[0].is_python_constant()
                                               and args[0].as_python_constant() is None):
        return _round_to_int(self, tx)
    return _ORIG_NDARRAY_CALL_METHOD(self, tx, name, args, kwargs)


def _no_subclass_argument(name, args, kwargs):
    """An ndarray subclass among the arguments of an array method (``a.view(np.recarray)``, ``a.view(type=T)``):
    a graph node cannot hold a class (fx failed the whole function, which then ran in NumPy with Dynamo's
    warnings), and the result is no array of ours, so the call runs in real NumPy.  (Read from the trackers of
    classes only: ``as_python_constant`` of a symbolic size would specialize it.)"""
    from torch._dynamo.variables.user_defined import UserDefinedClassVariable

    for v in (*args, *kwargs.values()):
        v = v.realize()
        c = v.value if isinstance(v, (UserDefinedClassVariable, _NumpyVariable)) else None
        if isinstance(c, type) and issubclass(c, _np.ndarray) and c is not _np.ndarray:
            from torch._dynamo.exc import unimplemented

            what = f"ndarray subclass {c.__module__}.{c.__qualname__}"
            unimplemented(gb_type="npcompile: ndarray subclass argument", context=f"ndarray.{name}", hints=[],
                          explanation=f"npcompile does not support {what} (ndarray.{name})")


def _round_to_int(a, tx):
    """``round(x)`` of a NumPy scalar: a Python int.  The shim's ``__round__`` computes it inside its graph node,
    where an int made from the data cannot leave the node (Dynamo failed the frame); so the node rounds, half to
    even as Python does (``np.rint``; integers as they are), and ``int()`` converts, as ``int(x)`` does."""
    from torch._dynamo.variables.builtin import BuiltinVariable

    value = _example(a)
    dtype = value.dtype
    if value.ndim or ARRAY0D in value.__dict__ or dtype.is_complex or dtype == torch.bool:  # (NumPy's TypeError)
        return _ORIG_NDARRAY_CALL_METHOD(a, tx, "__round__", [], {})
    if dtype.is_floating_point:
        a = _NumpyVariable(_np.rint).call_function(tx, [a], {})
    return BuiltinVariable(int).call_function(tx, [a], {})


def _numpy_var_as_python_constant(self):
    """NumpyVariable.as_python_constant: an array Dynamo holds as a NumPy object (an ndarray subclass: np.matrix,
    a masked array, a memmap, a user's subclass) is no constant.  Dynamo folded ``m *= 2`` on one by running it on
    the caller's array while tracing, and the graph break ran it again (m multiplied by 4)."""
    if isinstance(self.value, _np.ndarray):
        from torch._dynamo.variables.base import AsPythonConstantNotImplementedError

        raise AsPythonConstantNotImplementedError(self)
    return self.value


def _numpy_var_richcompare(self, tx, other, op):
    """NumpyVariable.richcompare_impl (torch 2.13, which gives the class none: a graph break): NumPy objects Dynamo
    holds as constants compare as Python compares them, ``a.dtype.type == np.float32`` or ``np.float64 != t``."""
    from torch._dynamo.variables.object_protocol import python_constant_richcompare_impl

    return python_constant_richcompare_impl(self, tx, other, op)


# --------------------------------------------------------------------------------------------------------------
# NumpyVariable.call_method replacement: ``np.add.reduce(a)`` (a method of a ufunc object) is a graph break
# in torch ("attempted to trace numpy.* function as a method"); the shim's ufunc objects have these methods,
# so record one call of the shim's bound method instead.
# --------------------------------------------------------------------------------------------------------------

_UFUNC_METHODS = ("reduce", "accumulate", "outer", "at", "reduceat")
_ORIG_NUMPY_CALL_METHOD = _require(_NumpyVariable, "call_method")


def _traced(fn) -> bool:
    """Whether the NumPy callable ``fn`` is traced (``trace_numpy`` on, and not disallowed by the user)."""
    return torch._dynamo.config.trace_numpy and fn not in _disallowed


_CLASS_COMPARISONS = {"__eq__": operator.eq, "__ne__": operator.ne}


def _numpy_var_call_method(self, tx, name, args, kwargs):
    value = self.value
    _break_in_try(tx, f"{getattr(value, '__name__', 'numpy')}.{name}")
    if name == "__getitem__" and len(args) == 1 and not kwargs and _traced(value):
        trick = _index_trick(value)
        if trick in ("s_", "index_exp"):  # plain Python: the key itself, a tuple for index_exp
            key = args[0]
            if trick == "s_" or isinstance(key, _dy_lists.TupleVariable):
                return key
            return _dy_lists.TupleVariable([key])
        if trick is not None:
            from torch._dynamo.utils import proxy_args_kwargs

            ours = getattr(_shim(), trick).__getitem__
            return _NumpyNdarrayVariable.create(
                tx, tx.output.create_proxy("call_function", ShimCall(ours), *proxy_args_kwargs(args, {})))
    if value is _np.polynomial.Polynomial and name in _POLYNOMIAL_CONSTRUCTORS and _traced(value):
        return PolynomialVariable.construct(tx, name, args, kwargs)
    if name in _CLASS_COMPARISONS and isinstance(value, type) and len(args) == 1 and args[0].is_python_constant():
        # (torch 2.11 compares a NumPy class so: ``a.dtype.type == np.float32``; 2.13: _numpy_var_richcompare)
        from torch._dynamo.variables.constant import ConstantVariable

        return ConstantVariable.create(_CLASS_COMPARISONS[name](value, args[0].as_python_constant()))
    if (name in _UFUNC_METHODS and isinstance(value, (_np.ufunc, _shim().ufunc))
            and torch._dynamo.config.trace_numpy):
        bound_np = getattr(value, name)
        ours = np_to_shim_map().get(bound_np)
        if ours is not None:
            from torch._dynamo.utils import proxy_args_kwargs

            proxy = tx.output.create_proxy("call_function", ShimCall(ours), *proxy_args_kwargs(args, kwargs))
            return _NumpyNdarrayVariable.create(tx, proxy)
    return _ORIG_NUMPY_CALL_METHOD(self, tx, name, args, kwargs)


# --------------------------------------------------------------------------------------------------------------
# NumpyVariable.call_function wrapper: ``np.result_type(a, 1.0)`` depends only on dtypes (NEP 50), and array
# dtypes are pinned by the tensor guards, so answer it at trace time (a dtype constant) instead of recording a
# graph node that returns a dtype (a graph break in torch).
# --------------------------------------------------------------------------------------------------------------

_ORIG_NUMPY_CALL_FUNCTION = _require(_NumpyVariable, "call_function")


def _dtype_only_value(v):
    from torch._dynamo.variables.constant import ConstantVariable

    if isinstance(v, _NumpyNdarrayVariable):
        return _shim().ndarray(v.as_proxy().node.meta["example_value"]).dtype
    if isinstance(v, (_NumpyDTypeVariable, ConstantVariable, _NumpyVariable)):
        return v.as_python_constant()
    raise NotImplementedError


def _quiet_errstate(kwargs):
    """``np.errstate(...)`` that only silences or warns is a no-op context in the graph (compiled code checks no
    floating-point errors, see README); one that raises (or calls a handler) is left to run in real NumPy."""
    try:
        modes = {k: _constant(v) for k, v in kwargs.items()}
    except Exception:
        return None
    if set(modes) <= {"all", "divide", "over", "under", "invalid"} and \
            all(m in (None, "ignore", "warn", "print") for m in modes.values()):
        from torch._dynamo.variables.ctx_manager import NullContextVariable

        return NullContextVariable()
    return None


def _no_function_argument(name, args, kwargs):
    """A Python function among the arguments of a NumPy call that is a graph node (``np.piecewise(x, conds,
    [lambda v: ...])``, ``np.vectorize(math.erf)``): a graph node's arguments cannot hold it, so the call runs in
    real NumPy, and ``explain`` says why.  (Dynamo holds ``math``'s functions as torch functions, whose value fx
    cannot record either: the whole function failed to compile.)"""
    from torch._dynamo.exc import unimplemented
    from torch._dynamo.variables.functions import BaseUserFunctionVariable
    from torch._dynamo.variables.lists import BaseListVariable
    from torch._dynamo.variables.torch import BaseTorchVariable

    def function(v):
        v = v.realize()
        if isinstance(v, BaseListVariable):
            return any(map(function, v.items))
        return isinstance(v, (BaseTorchVariable, BaseUserFunctionVariable))

    if any(map(function, (*args, *kwargs.values()))):
        unimplemented(gb_type="Failed to convert args/kwargs to proxy", context=name, hints=[],
                      explanation=f"a Python function passed to numpy.{name} runs with the call in real NumPy")


def _static_value(v):
    """What ``_with_callables.traced_through`` may know of an argument when tracing: an array's shape (None where a
    size is read from the data), a number or constant (one Dynamo made symbolic is specialized: guarded), a
    list's items so, a Python function as ``ELEMENTWISE`` where its code is, else None."""
    from torch._dynamo.variables.functions import BaseUserFunctionVariable
    from torch._dynamo.variables.lists import BaseListVariable
    from torch._dynamo.variables.tensor import SymNodeVariable
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    v = v.realize()
    if isinstance(v, _NumpyNdarrayVariable):
        shape = tuple(v.as_proxy().node.meta["example_value"].shape)
        return None if free_unbacked_symbols(shape) else shape
    if isinstance(v, SymNodeVariable) and not free_unbacked_symbols(v.sym_num):
        return v.evaluate_expr()
    if isinstance(v, BaseListVariable):
        return [_static_value(x) for x in v.items]
    if isinstance(v, BaseUserFunctionVariable):
        try:
            code, f_globals = v.get_code(), getattr(v, "f_globals", None) or v.get_globals()
        except NotImplementedError:
            return None
        return _with_callables.ELEMENTWISE if _with_callables.elementwise(code, f_globals) else None
    return v.as_python_constant() if v.is_python_constant() else None


def _list_call_method(self, tx, name, args, kwargs):
    """``sorted(d.items())`` with arrays among the values: Dynamo sorts only lists of constants.  Pairs whose
    first items are distinct constants sort by those alone, as Python's tuple comparison does (it compares the
    second items only on a tie)."""
    if name == "sort" and not args and set(kwargs) <= {"reverse"} and self.is_mutable():
        heads = [x.items[0].as_python_constant() for x in self.items if isinstance(x, _dy_lists.TupleVariable)
                 and x.items and x.items[0].is_python_constant()]
        if len(heads) == len(self.items) and not all(x.is_python_constant() for x in self.items):
            try:
                distinct = len(set(heads)) == len(heads)  # (equal heads: Python compares the next items)
                order = distinct and sorted(range(len(heads)), key=heads.__getitem__,
                                            reverse=bool(kwargs["reverse"].as_python_constant()) if kwargs else False)
            except TypeError:  # (heads Python cannot hash or compare: Dynamo's own path)
                order = None
            if order:
                from torch._dynamo.variables.constant import ConstantVariable

                tx.output.side_effects.mutation(self)
                self.items[:] = [self.items[i] for i in order]
                return ConstantVariable.create(None)
    return _ORIG_LIST_CALL_METHOD(self, tx, name, args, kwargs)


# --------------------------------------------------------------------------------------------------------------
# builtin ``max(items, key=f)`` / ``min(items, key=f)`` where the keys are NumPy values: Dynamo's min/max handler
# takes no ``key`` (a graph break).  For a constant-length sequence (a range, list or tuple) of constant ints or
# of arrays of one shape and dtype whose keys are 0-d NumPy values of one dtype, the selection is recorded as
# Python makes it: scanning in order, an item replaces the best so far only when its key compares ``>`` (min:
# ``<``) -- so the first maximal item wins a tie and a NaN key is never taken past the first item (a comparison
# with NaN is False).  Each step is a NumPy comparison and ``np.where``; an int item comes back as a Python int
# (``int()`` of the chosen value, as ``int(a[0])``), an array item as an array equal to the chosen one.
# Without a key, ``max(a, b, ...)`` of 0-d NumPy values of one dtype is the same scan (_select_0d).  Everything
# else (mixed dtypes, other items, a key of Python values, more than _SELECT_MAX_ITEMS items) is Dynamo's.
# --------------------------------------------------------------------------------------------------------------

_ORIG_BUILTIN_CALL = _require(_require(_dy_builtin, "BuiltinVariable"), "call_function")
_SELECT_MAX_ITEMS = 64  # (three graph nodes per item: longer sequences keep Dynamo's behaviour)


_ORIG_BUILTIN_AS_PROXY = _require(_dy_builtin.BuiltinVariable, "as_proxy")


def _builtin_as_proxy(self):
    # Dynamo passes ``bool``/``int``/``float`` given as a dtype (``dtype=float``) into the graph as torch dtypes,
    # which the shim reads as NumPy's; ``complex`` too here, as NumPy's complex128 (it was a fallback to NumPy).
    return torch.complex128 if self.fn is complex else _ORIG_BUILTIN_AS_PROXY(self)


_ORIG_SYMFLOAT_POW = torch.SymFloat.__pow__


def _symfloat_pow(self, other):
    # torch checks that the base of every power of a symbolic float is >= 0 (so that no power comes out complex),
    # a runtime assert in the graph: ``float(v) ** 2`` of a negative element raised at run time.  An integral
    # exponent gives a real power of any base, as Python computes it.
    if _integral(other):
        return self.__float_pow__(other)
    return _ORIG_SYMFLOAT_POW(self, other)


def _integral(e) -> bool:
    """Whether ``e`` is an integer, or a float known to hold one: an int argument ``k`` of ``float(v) ** k``
    reaches the power as a symbolic int while Dynamo traces, as a float of it (``ToFloat``) in AOTAutograd's trace."""
    if isinstance(e, (int, torch.SymInt)):
        return True
    if isinstance(e, float):
        return e.is_integer()
    if isinstance(e, torch.SymFloat):
        from torch.utils._sympy.functions import ToFloat

        return isinstance(e.node.expr, ToFloat)
    return False


def _builtin_call_function(self, tx, args, kwargs):
    if (self.fn is max or self.fn is min) and args and set(kwargs) <= {"key"}:
        key = kwargs["key"].realize() if kwargs else None
        if key is not None and key.is_python_constant() and key.as_python_constant() is None:
            key = None  # (``key=None``: no key)
        items = [a.realize() for a in args]
        chosen = _select_by_key(self.fn, tx, items, key) if key is not None else _select_0d(self.fn, tx, items)
        if chosen is not None:
            return chosen
    return _ORIG_BUILTIN_CALL(self, tx, args, kwargs)


def _example(v):
    """The fake tensor an array variable stands for, or None."""
    ev = v.as_proxy().node.meta.get("example_value") if isinstance(v, _NumpyNdarrayVariable) else None
    return ev if isinstance(ev, torch.Tensor) else None


def _select_items(tx, args, ints=True):
    """The items of ``max(iterable, ...)`` / ``max(a, b, ...)``: with ``ints``, when they are ints or arrays as
    described above; else all of them (2 to _SELECT_MAX_ITEMS)."""
    from torch._dynamo.variables.constant import ConstantVariable

    if len(args) > 1:
        items = list(args)
    elif isinstance(args[0], (_dy_lists.RangeVariable, _dy_lists.BaseListVariable)):
        try:
            items = [v.realize() for v in args[0].unpack_var_sequence(tx)]
        except Exception:
            return None
    else:
        return None
    if not 2 <= len(items) <= _SELECT_MAX_ITEMS:
        return None
    if not ints:
        return items
    if all(isinstance(v, ConstantVariable) and type(v.as_python_constant()) is int
           and -2 ** 63 <= v.as_python_constant() < 2 ** 63 for v in items):
        return items
    evs = [_example(v) for v in items]
    if all(ev is not None and ev.ndim >= 1 and ev.dtype == evs[0].dtype and _same_shape(ev, evs[0]) for ev in evs):
        return items
    return None


def _same_shape(a, b):
    """Whether two fake tensors' shapes are known equal (also when they are symbolic: no guard is added)."""
    from torch.fx.experimental.symbolic_shapes import statically_known_true

    return a.ndim == b.ndim and all(x is y or statically_known_true(x == y) for x, y in zip(a.shape, b.shape))


def _select_by_key(fn, tx, args, key):
    from torch._dynamo.variables.builtin import BuiltinVariable

    items = _select_items(tx, args)
    if items is None:
        return None
    keys = [key.call_function(tx, [v], {}) for v in items]
    evs = [_example(k) for k in keys]
    if not all(ev is not None and ev.ndim == 0 for ev in evs) or len({ev.dtype for ev in evs}) != 1 \
            or evs[0].dtype.is_complex:
        return None  # (Dynamo's own path: a graph break, whose retrace drops what the keys recorded)
    best = _scan(fn, tx, keys, items)
    if isinstance(items[0], _NumpyNdarrayVariable):
        return best
    return BuiltinVariable(int).call_function(tx, [best], {})


def _select_0d(fn, tx, args):
    """``max(a, b, ...)`` / ``max([a, b, ...])`` of 0-d NumPy values of one dtype, all NumPy scalars or all 0-d
    arrays: Dynamo records ``np.maximum``, which takes a NaN wherever it is (Python keeps the first item when a
    comparison with NaN is False) and promotes mixed dtypes (Python returns one of the values).  The same scan
    as with a key, the values being their own keys; the result is made the items' kind (``np.asarray`` of a
    scalar, ``[()]`` of a 0-d array) where ``np.where`` made the other."""
    from torch._dynamo.variables.builtin import BuiltinVariable
    from torch._dynamo.variables.lists import TupleVariable

    items = _select_items(tx, args, ints=False)
    if items is None:
        return None
    evs = [_example(v) for v in items]
    if all(ev is not None and ev.ndim == 0 for ev in evs) and len({ev.dtype for ev in evs}) > 1:
        from torch._dynamo.exc import unimplemented  # (np.maximum would promote: max(int64(3), 2.5) gave 3.0)

        unimplemented(gb_type="npcompile: max/min of mixed dtypes", context=fn.__name__, hints=[],
                      explanation=f"{fn.__name__}() of NumPy scalars of different dtypes returns one of them, "
                                  "whose type the data decides: it runs in Python")
    if not all(ev is not None and ev.ndim == 0 for ev in evs) or evs[0].dtype.is_complex \
            or len({(ev.dtype, ARRAY0D in ev.__dict__) for ev in evs}) != 1:
        return None
    best = _scan(fn, tx, items, items)
    array0d = ARRAY0D in evs[0].__dict__
    if array0d == (ARRAY0D in _example(best).__dict__):
        return best
    if array0d:
        return _NumpyVariable(_np.asarray).call_function(tx, [best], {})
    return BuiltinVariable(operator.getitem).call_function(tx, [best, TupleVariable([])], {})


def _scan(fn, tx, keys, items):
    """Python's selection: the first item whose key is maximal (min: minimal), comparing in order with ``>``
    (``<``), recorded as a NumPy comparison and ``np.where`` (two with a key) per item after the first."""
    from torch._dynamo.variables.builtin import BuiltinVariable

    where = _NumpyVariable(_np.where)
    better = BuiltinVariable(operator.gt if fn is max else operator.lt)
    best_key, best = keys[0], items[0]
    for k, v in zip(keys[1:], items[1:]):
        taken = better.call_function(tx, [k, best_key], {})
        best_key = where.call_function(tx, [taken, k, best_key], {})
        best = best_key if keys is items else where.call_function(tx, [taken, v, best], {})
    return best


def _numpy_var_call_function(self, tx, args, kwargs):
    if not isinstance(self.value, type) and not _can_constant_fold_through(None, shim_function_for(self.value)):
        _break_in_try(tx, getattr(self.value, "__name__", "a NumPy function"))
    if self.value in _with_callables.THROUGH and _traced(self.value):
        through = _with_callables.traced_through(self.value, len(args), lambda i: _static_value(args[i]))
        if through is not None:
            from torch._dynamo.variables.base import VariableTracker

            return tx.inline_user_function_return(VariableTracker.build(tx, through), args, kwargs)
    if self.value is _np.vectorize and _traced(self.value):
        made = VectorizeVariable.construct(args, kwargs)
        if made is not None:
            return made
    _no_function_argument(getattr(self.value, "__name__", "a NumPy function"), args, kwargs)
    if self.value is _np.polynomial.Polynomial and _traced(self.value):
        return PolynomialVariable.construct(tx, "__init__", args, kwargs)
    if self.value is _np.random.default_rng and _traced(self.value):
        folded = _seeded_generator(args, kwargs)
        if folded is not None:
            return folded
    if self.value is _np.errstate and not args and _traced(self.value):
        quiet = _quiet_errstate(kwargs)
        if quiet is not None:
            return quiet
    if self.value is _np.result_type and not kwargs and _traced(self.value):
        try:
            consts = [_dtype_only_value(a) for a in args]
        except Exception:
            consts = None
        if consts is not None:
            return _NumpyDTypeVariable(_np.result_type(*consts))
    if self.value is _np.can_cast and args and _traced(self.value):  # NumPy 2 casts an array by its dtype alone
        try:
            answer = _np.can_cast(_dtype_only_value(args[0]), *[_constant(a) for a in args[1:]],
                                  **{k: _constant(v) for k, v in kwargs.items()})
        except Exception:  # (Python numbers: NumPy's TypeError, raised by the call at run time)
            answer = None
        if answer is not None:
            from torch._dynamo.variables.constant import ConstantVariable

            return ConstantVariable.create(answer)
    if self.value is _np.promote_types and not kwargs and _traced(self.value):  # Dynamo folds it to a dtype
        return _NumpyDTypeVariable(_np.promote_types(*[_constant(a) for a in args]))  # that it cannot track
    if self.value in (_np.shares_memory, _np.may_share_memory) and _traced(self.value):
        answer = _memory_answer(tx, self.value, args, kwargs)
        if answer is not None:
            from torch._dynamo.variables.constant import ConstantVariable

            return ConstantVariable.create(answer)
    return _ORIG_NUMPY_CALL_FUNCTION(self, tx, args, kwargs)


# --------------------------------------------------------------------------------------------------------------
# ``np.shares_memory(a, b)`` / ``np.may_share_memory(a, b)`` of two arrays in the graph: a bool that depends on
# where the arrays lie, not on their values, answered at trace time (a constant) where the fake tensors tell it
# soundly.  Fake tensors share a storage exactly where the arrays the code makes share memory (views), and a
# storage that no graph input lies on was made by the traced code, so it shares memory with nothing else.  So:
# two arrays on one storage that at most one input lies on are views of one array, and real NumPy answers for
# their layouts; two on different storages share nothing if either storage was made by the code.  Two inputs'
# storages (arguments that may overlap in memory as torch storages do not show, different inputs viewing one
# storage) stay a call that real NumPy runs.
# --------------------------------------------------------------------------------------------------------------


def _input_storages(tx) -> dict:
    """How many of the graph's inputs (placeholders, attributes) lie on each storage, by ``_cdata``."""
    counts: dict = {}
    for node in tx.output.graph.nodes:
        ev = node.meta.get("example_value") if node.op in ("placeholder", "get_attr") else None
        if isinstance(ev, torch.Tensor):
            key = ev.untyped_storage()._cdata
            counts[key] = counts.get(key, 0) + 1
    return counts


def _memory_answer(tx, fn, args, kwargs):
    """``fn(a, b, **kwargs)`` decided at trace time, or None where the traced code cannot know it."""
    if len(args) != 2 or not all(isinstance(a, _NumpyNdarrayVariable) for a in args):
        return None
    try:
        kw = {k: _constant(v) for k, v in kwargs.items()}
    except Exception:
        return None
    a, b = (v.as_proxy().node.meta["example_value"] for v in args)
    inputs = _input_storages(tx)
    ka, kb = a.untyped_storage()._cdata, b.untyped_storage()._cdata
    if ka != kb:
        return None if ka in inputs and kb in inputs else False
    if inputs.get(ka, 0) > 1:
        return None

    def extent(t):  # bytes from the storage's start to one past the last element
        return 0 if t.numel() == 0 else \
            (int(t.storage_offset()) + sum((int(n) - 1) * int(s) for n, s in zip(t.shape, t.stride())) + 1) * \
            t.element_size()

    def laid_out(t, scratch):  # a uint8 array addressing the bytes ``t`` addresses (nothing is read)
        isz = t.element_size()
        return _np.lib.stride_tricks.as_strided(
            scratch[int(t.storage_offset()) * isz:], shape=(*map(int, t.shape), isz),
            strides=(*(int(s) * isz for s in t.stride()), 1))

    scratch = _np.empty(max(extent(a), extent(b)), _np.uint8)
    try:
        return bool(fn(laid_out(a, scratch), laid_out(b, scratch), **kw))
    except Exception:
        return None  # (a bad max_work...: real NumPy raises when the call runs)


# --------------------------------------------------------------------------------------------------------------
# ``numpy.random.default_rng(seed)`` made inside the traced function with a constant seed: its draws with constant
# arguments (sizes from static shapes, Python scalars) are constants too, the same on every call, so they are
# drawn by real NumPy at trace time and enter the graph as constant arrays: NumPy's exact stream, one graph.
# (A torch.Generator cannot be traced, so draws with array arguments, or past the size limit, graph-break there;
# the generator is then rebuilt, in its state at that point, for real NumPy to go on.)  A generator made with
# no seed (fresh entropy), or passed in, is left as before.
# --------------------------------------------------------------------------------------------------------------

FOLDED_DRAW_LIMIT = 1 << 20  # the most elements one folded draw embeds in the graph


def _constant(v):
    """The Python value of a Dynamo variable, guarded (a constant that came from an input is checked per call)."""
    return v.guard_as_python_constant() if hasattr(v, "guard_as_python_constant") else v.as_python_constant()


def _seeded_generator(args, kwargs):
    try:
        seed = [_constant(a) for a in args] + [_constant(v) for v in kwargs.values()]
    except Exception:
        return None
    if not seed or len(seed) == 1 and seed[0] is None:
        return FreshGeneratorVariable()
    if len(seed) != 1 or isinstance(seed[0], (_np.random.Generator, _np.random.BitGenerator)):
        return None
    try:
        gen = _np.random.default_rng(*seed)
    except Exception:
        return None  # NumPy raises the error at run time
    return SeededGeneratorVariable(gen)


class ArrayConstant:
    """Graph node target (wrapped in ``ShimCall``) that gives one fixed array or NumPy scalar: a folded draw."""

    __name__ = __qualname__ = "seeded_draw"

    def __init__(self, value):
        self.value = value

    def __call__(self):
        from npcompile._numpy._ndarray import as_array0d

        a = _shim().ndarray(torch.tensor(self.value))
        return as_array0d(a) if isinstance(self.value, _np.ndarray) else a  # (``rng.random(size=())``: an array)


def _seeded_generator_variable_type():
    from torch._dynamo.exc import unimplemented
    from torch._dynamo.variables.base import VariableTracker
    from torch._dynamo.variables.constant import ConstantVariable

    class SeededGeneratorVariable(VariableTracker):
        """A ``numpy.random.Generator`` seeded by a constant inside the traced code; holds the real generator, in
        the state the draws traced so far left it."""

        _nonvar_fields = {"gen", *VariableTracker._nonvar_fields}

        def __init__(self, gen, **kwargs):
            super().__init__(**kwargs)
            self.gen = gen

        def python_type(self):
            return _np.random.Generator

        def _break(self, name, why):
            unimplemented(gb_type="npcompile: seeded generator draw", context=f"Generator.{name}",
                          explanation=f"Generator.{name} {why}: it runs in real NumPy", hints=[])

        def call_method(self, tx, name, args, kwargs):
            if name.startswith("_") or not callable(getattr(self.gen, name, None)) or "out" in kwargs:
                self._break(name, "is not a draw that can be folded")
            if name == "choice" and args and isinstance(args[0], _NumpyNdarrayVariable):
                return self._choice_of_array(tx, args[0], args[1:], kwargs)
            if name == "permutation" and args and isinstance(args[0], _NumpyNdarrayVariable):
                return self._permutation_of_array(tx, args[0], args[1:], kwargs)
            a, k = self._constants(name, args, kwargs)
            trial, value = self._trial(name, lambda g: getattr(g, name)(*a, **k))
            if isinstance(value, (float, int, bytes)) or value is None:
                self.gen = trial
                return ConstantVariable.create(value)
            if not isinstance(value, (_np.ndarray, _np.generic)) or value.dtype.kind not in "biufc" \
                    or value.size > FOLDED_DRAW_LIMIT:
                self._break(name, f"gives more than {FOLDED_DRAW_LIMIT} elements or a non-numeric result")
            self.gen = trial
            return self._node(tx, ArrayConstant(value), [], {})

        def _choice_of_array(self, tx, a, args, kwargs):
            """``rng.choice(x, ...)`` of an array: NumPy draws the positions as ``rng.choice(len(x), ...)`` does
            and takes them along ``axis``; the positions are folded, the take is traced (bootstrap resampling)."""
            pos, k = self._constants("choice", args, kwargs)
            k = {**dict(zip(("size", "replace", "p", "axis", "shuffle"), pos)), **k}
            shape = a.as_proxy().node.meta["example_value"].shape
            axis = k.pop("axis", 0)
            if not shape or not all(type(n) is int for n in shape) or type(axis) is not int \
                    or not -len(shape) <= axis < len(shape):
                self._break("choice", "picks from a 0-d array, an array of traced shape, or along no axis")
            trial, idx = self._trial("choice", lambda g: g.choice(shape[axis], **k))
            self.gen = trial
            idx = ConstantVariable.create(idx) if isinstance(idx, int) else \
                self._node(tx, ArrayConstant(_np.asarray(idx)), [], {})
            return self._node(tx, _shim().take, [a, idx], {"axis": ConstantVariable.create(axis)})

        def _permutation_of_array(self, tx, a, args, kwargs):
            """``rng.permutation(x, axis)`` of an array: NumPy's draws are those of ``rng.permutation(len)``
            (it shuffles the positions, or a copy of a 1-D ``x`` the same way), taken along ``axis``; the
            positions are folded, the take is traced."""
            pos, k = self._constants("permutation", args, kwargs)
            k = {**dict(zip(("axis",), pos)), **k}
            shape = a.as_proxy().node.meta["example_value"].shape
            axis = k.pop("axis", 0)
            if k or len(pos) > 1 or not shape or not all(type(n) is int for n in shape) or type(axis) is not int \
                    or not -len(shape) <= axis < len(shape):
                self._break("permutation", "permutes a 0-d array, an array of traced shape, or along no axis")
            trial, idx = self._trial("permutation", lambda g: g.permutation(shape[axis]))
            self.gen = trial
            idx = self._node(tx, ArrayConstant(idx), [], {})
            return self._node(tx, _shim().take, [a, idx], {"axis": ConstantVariable.create(axis)})

        def _constants(self, name, args, kwargs):
            """The call's arguments as Python values, or a break when one is not a constant."""
            try:
                return [_constant(v) for v in args], {n: _constant(v) for n, v in kwargs.items()}
            except Exception:
                self._break(name, "has array (non-constant) arguments")

        def _trial(self, name, draw):
            """A copy of the generator and ``draw(copy)``: the caller keeps the copy (NumPy's state advances) only
            for a draw it folds."""
            trial = _copy.deepcopy(self.gen)
            try:
                return trial, draw(trial)
            except Exception:
                self._break(name, "raises for these arguments")

        @staticmethod
        def _node(tx, f, args, kwargs):
            from torch._dynamo.utils import proxy_args_kwargs

            proxy = tx.output.create_proxy("call_function", ShimCall(f), *proxy_args_kwargs(args, kwargs))
            return _NumpyNdarrayVariable.create(tx, proxy)

        def reconstruct(self, codegen):
            import pickle

            codegen.add_push_null(lambda: codegen.load_import_from("pickle", "loads"))
            codegen(ConstantVariable.create(pickle.dumps(self.gen)))
            codegen.call_function(1, False)

    return SeededGeneratorVariable


SeededGeneratorVariable = _seeded_generator_variable_type()


# ``numpy.random.default_rng()`` (no seed: fresh entropy) made inside the traced function: its draws are the shim's
# Generator draws in the graph (``random.fresh``), from torch's generator, which ``_seeding`` seeds at each call
# from the OS's entropy (from NumPy's legacy state where the graph also draws through ``np.random`` functions:
# one stream per graph).  NumPy defines no values for such a generator, only their distributions.  Returned or
# kept past a graph break, it becomes a new ``numpy.random.default_rng()``: fresh entropy again.  Draws that
# write into an array (``shuffle``, ``out=``) or give no array (``bytes``, ``spawn``) break the graph there.
_FRESH_DRAWS = frozenset(n for n in dir(_np.random.Generator) if not n.startswith("_")
                         and callable(getattr(_np.random.Generator, n))) - {"shuffle", "bytes", "spawn"}


def _fresh_generator_variable_type():
    from torch._dynamo.exc import unimplemented
    from torch._dynamo.variables.base import VariableTracker

    class FreshGeneratorVariable(VariableTracker):
        """A ``numpy.random.Generator`` made without a seed inside the traced code."""

        def python_type(self):
            return _np.random.Generator

        def call_method(self, tx, name, args, kwargs):
            if name not in _FRESH_DRAWS or "out" in kwargs:
                unimplemented(gb_type="npcompile: unseeded generator call", context=f"Generator.{name}",
                              explanation=f"Generator.{name} of an unseeded generator runs in real NumPy", hints=[])
            return SeededGeneratorVariable._node(tx, getattr(_shim().random.fresh, name), args, kwargs)

        def reconstruct(self, codegen):
            codegen.add_push_null(lambda: codegen.load_import_from("numpy.random", "default_rng"))
            codegen.call_function(0, False)

    return FreshGeneratorVariable


FreshGeneratorVariable = _fresh_generator_variable_type()


# --------------------------------------------------------------------------------------------------------------
# ``numpy.polynomial.Polynomial`` objects in the traced code.  NumPy's class is Python in a module Dynamo skips (a
# graph break at every use).  Here the class counts as a NumPy callable (``_is_numpy``) and an object made from
# it (``Polynomial(...)``, ``Polynomial.fit(...)``) or passed in (an argument, a module global: ``_builder_wrap``)
# is a ``PolynomialVariable``: its coefficients, domain and window are graph arrays, and each method is one graph
# node that runs the shim's ``Polynomial`` (``PolynomialOp``).  Methods without a node (arithmetic: trimming is
# data-dependent; roots; printing...) graph-break, and the object is rebuilt as NumPy's ``Polynomial`` from the
# three arrays (one passed in is the caller's object itself).
# --------------------------------------------------------------------------------------------------------------

_POLYNOMIAL_CONSTRUCTORS = ("fit", "identity", "basis", "fromroots")
_POLYNOMIAL_RESULTS = ("deriv", "integ", "copy", "cutdeg", "truncate", "trim", "convert", "__neg__", "__pos__")
_ARRAY_RESULTS = ("__call__", "roots")


# NumPy's index tricks, objects indexed like arrays: ``np.r_[0, np.cumsum(c)]``, ``np.mgrid[0:n, 0:m]``.  Traced
# as NumPy objects whose subscript is a call of the shim's own (``_numpy_var_call_method``), not inlined NumPy
# Python code (a fallback to real NumPy).
_INDEX_TRICKS = {id(getattr(_np, name)): name for name in ("r_", "c_", "mgrid", "ogrid", "s_", "index_exp")}


def _index_trick(obj):
    """The name of NumPy's index-trick object ``obj`` (``np.r_`` gives "r_"), or None."""
    return _INDEX_TRICKS.get(id(obj))


def _numpy_var_subscript(self, tx, key):
    if _index_trick(self.value) is not None:
        return self.call_method(tx, "__getitem__", [key], {})
    return _ORIG_NUMPY_SUBSCRIPT(self, tx, key)


_ORIG_NUMPY_SUBSCRIPT = getattr(_NumpyVariable, "mp_subscript_impl", None)


def _is_numpy(obj) -> bool:
    if obj is _np.ndarray and not CLASS_IDENTITY_BY_OBJECT:
        return False  # traced as a class, so that ``type(x) is np.ndarray`` holds (see CLASS_IDENTITY_BY_OBJECT)
    if obj is _np.polynomial.Polynomial or _ORIG_IS_NUMPY(obj) or _index_trick(obj) is not None:
        return True
    try:  # one of the shim's own public functions, called directly (see _np_to_shim_map)
        ours = np_to_shim_map().get(obj)
    except TypeError:  # unhashable
        return False
    # or a function of a NumPy module Dynamo does not know (np.lib.stride_tricks, np.polynomial.chebyshev) that
    # the shim implements
    return ours is obj or (ours is not None and getattr(obj, "__module__", "").startswith(("numpy.lib.",
                                                                                         "numpy.polynomial.")))


class PolynomialOp:
    """Graph node target (wrapped in ``ShimCall``): one part (``coef``, ``domain``, ``window``) of a shim
    ``Polynomial`` made by ``make`` (a constructor name) or by the method ``method`` of the polynomial given by
    the first three arguments; or the method's array result when ``part`` is None."""

    def __init__(self, make, method, part, symbol):
        self.make, self.method, self.part, self.symbol = make, method, part, symbol
        self.__name__ = self.__qualname__ = f"Polynomial_{make or method}" + (f"_{part}" if part else "")

    def __call__(self, *args, **kwargs):
        cls = _shim().polynomial.Polynomial
        if self.make == "__init__":
            out = cls(*args, **kwargs, symbol=self.symbol)
        elif self.make:
            out = getattr(cls, self.make)(*args, **kwargs, symbol=self.symbol)
        else:
            out = getattr(cls(*args[:3], symbol=self.symbol), self.method)(*args[3:], **kwargs)
        return getattr(out, self.part) if self.part else out


def _polynomial_variable_type():
    from torch._dynamo.exc import unimplemented
    from torch._dynamo.utils import proxy_args_kwargs
    from torch._dynamo.variables.base import VariableTracker
    from torch._dynamo.variables.constant import ConstantVariable

    def node(tx, target, args, kwargs):
        proxy = tx.output.create_proxy("call_function", ShimCall(target), *proxy_args_kwargs(args, kwargs))
        return _NumpyNdarrayVariable.create(tx, proxy)

    class PolynomialVariable(VariableTracker):
        """A ``numpy.polynomial.Polynomial`` made in the traced code: graph arrays ``coef``, ``domain``,
        ``window`` and the constant ``symbol``."""

        _nonvar_fields = {"symbol", *VariableTracker._nonvar_fields}

        def __init__(self, coef, domain, window, symbol, **kwargs):
            super().__init__(**kwargs)
            self.coef, self.domain, self.window, self.symbol = coef, domain, window, symbol

        @classmethod
        def construct(cls, tx, make, args, kwargs, method=None, symbol="x"):
            kwargs = dict(kwargs)
            if "symbol" in kwargs:
                symbol = _constant(kwargs.pop("symbol"))
            if make == "fit" and "full" in kwargs:
                unimplemented(gb_type="npcompile: Polynomial", context="Polynomial.fit(full=...)",
                              explanation="Polynomial.fit(full=...) runs in real NumPy", hints=[])
            parts = [node(tx, PolynomialOp(make, method, part, symbol), args, kwargs)
                     for part in ("coef", "domain", "window")]
            return cls(*parts, symbol)

        @classmethod
        def wrap_object(cls, builder, value):
            """The Polynomial ``value`` found at ``builder.source``: its arrays are graph inputs, read per call."""
            from torch._dynamo.guards import GuardBuilder
            from torch._dynamo.source import AttrSource

            builder.install_guards(GuardBuilder.TYPE_MATCH)
            tx, src = builder.tx, builder.source
            parts = [_dy_builder.VariableBuilder(tx, AttrSource(src, n))(getattr(value, n))
                     for n in ("coef", "domain", "window")]
            symbol = _constant(_dy_builder.VariableBuilder(tx, AttrSource(src, "symbol"))(value.symbol))
            return cls(*parts, symbol, source=src)

        def python_type(self):
            return _np.polynomial.Polynomial

        def var_getattr(self, tx, name):
            if name in ("coef", "domain", "window"):
                return getattr(self, name)
            if name == "symbol":
                return ConstantVariable.create(self.symbol)
            return super().var_getattr(tx, name)

        def call_function(self, tx, args, kwargs):
            return self.call_method(tx, "__call__", args, kwargs)

        def call_method(self, tx, name, args, kwargs):
            own = [self.coef, self.domain, self.window]
            if name in _ARRAY_RESULTS:
                return node(tx, PolynomialOp(None, name, None, self.symbol), own + list(args), kwargs)
            if name in _POLYNOMIAL_RESULTS:
                return self.construct(tx, None, own + list(args), kwargs, method=name, symbol=self.symbol)
            unimplemented(gb_type="npcompile: Polynomial", context=f"Polynomial.{name}",
                          explanation=f"Polynomial.{name} runs in real NumPy", hints=[])

        def reconstruct(self, codegen):
            codegen.add_push_null(lambda: codegen.load_import_from("numpy.polynomial", "Polynomial"))
            for v in (self.coef, self.domain, self.window, ConstantVariable.create(self.symbol)):
                codegen(v)
            codegen.call_function(4, False)

    return PolynomialVariable


PolynomialVariable = _polynomial_variable_type()


def _real_function(v):
    """The Python function or builtin a Dynamo variable holds (one made in the traced code, without a closure: a
    function of its code and globals), or None."""
    from torch._dynamo.variables.functions import BaseUserFunctionVariable

    v = v.realize()
    if isinstance(v, BaseUserFunctionVariable):
        try:
            code, f_globals = v.get_code(), getattr(v, "f_globals", None) or v.get_globals()
        except NotImplementedError:
            return None
        return None if code.co_freevars else types.FunctionType(code, f_globals)
    return v.as_python_constant() if v.is_python_constant() else None


def _otypes(value):
    """``vectorize``'s ``otypes`` as NumPy checks them (raising its errors), as one string of type chars (NumPy keeps
    a list of dtypes)."""
    value = _np.vectorize(abs, otypes=value).otypes
    return value if value is None or isinstance(value, str) else "".join(o.char for o in value)


def _dtype_and_empty(v):
    """An argument's dtype as NumPy reads it and whether it has no elements, where the trace fixes them, or None."""
    v = v.realize()
    if isinstance(v, _NumpyNdarrayVariable):
        shape = _static_value(v)
        ev = v.as_proxy().node.meta["example_value"]
        return None if shape is None else (_shim().ndarray(ev).dtype, 0 in shape)
    if v.is_python_constant() and type(v.as_python_constant()) in (bool, int, float):
        try:
            return _np.asarray(_constant(v)).dtype, False
        except OverflowError:
            return None
    return None


def _vectorize_variable_type():
    from torch._dynamo.exc import unimplemented
    from torch._dynamo.source import AttrSource
    from torch._dynamo.variables.base import VariableTracker
    from torch._dynamo.variables.constant import ConstantVariable

    class VectorizeVariable(VariableTracker):
        """A ``numpy.vectorize(pyfunc, otypes)`` whose calls may be traced as one call on the whole arrays
        (``_with_callables.vectorize_plan``): made in the traced code, or found (``@np.vectorize`` on a module
        function).  A call that may not runs in real NumPy."""

        _nonvar_fields = {"function", "otypes", *VariableTracker._nonvar_fields}

        def __init__(self, pyfunc, function, otypes, **kwargs):
            super().__init__(**kwargs)
            self.pyfunc, self.function, self.otypes = pyfunc, function, otypes

        @classmethod
        def construct(cls, args, kwargs):
            """``np.vectorize(pyfunc, otypes=...)`` in the traced code, or None (other arguments: real NumPy)."""
            given = dict(zip(("pyfunc", "otypes"), args))
            if len(args) > 2 or set(kwargs) - {"pyfunc", "otypes"} or set(kwargs) & set(given):
                return None
            given.update(kwargs)
            if "pyfunc" not in given:
                return None
            function = _real_function(given["pyfunc"])
            try:
                otypes = _otypes(_constant(given["otypes"])) if "otypes" in given else None
            except Exception:  # (not a constant, or NumPy's error, raised by NumPy)
                return None
            if not _with_callables.vectorizable(function):
                return None
            return cls(given["pyfunc"], function, otypes)

        @classmethod
        def wrap_object(cls, builder, value):
            """The np.vectorize ``value`` found at ``builder.source``, or None; guarded on what it is traced as."""
            if not _with_callables.vectorizable(value.pyfunc):
                return None

            def attribute(name):
                return _constant(_dy_builder.VariableBuilder(builder.tx, AttrSource(builder.source, name))(
                    getattr(value, name)))

            try:
                otypes, excluded, signature, cache = map(attribute, ("otypes", "excluded", "signature", "cache"))
            except Exception:
                return None
            if excluded or signature is not None or cache:
                return None
            pyfunc = _dy_builder.VariableBuilder(builder.tx, AttrSource(builder.source, "pyfunc"))(value.pyfunc)
            return cls(pyfunc, value.pyfunc, _otypes(otypes), source=builder.source)

        def python_type(self):
            return _np.vectorize

        def call_function(self, tx, args, kwargs):
            facts = [_dtype_and_empty(a) for a in args]
            plan = None if kwargs or None in facts else _with_callables.vectorize_plan(
                self.function, self.otypes, [d for d, _ in facts], any(e for _, e in facts))
            if plan is None:
                unimplemented(gb_type="Failed to convert args/kwargs to proxy", context="vectorize", hints=[],
                              explanation="a Python function passed to numpy.vectorize runs with the call in real "
                                          "NumPy")
            func, otype = plan
            func = self.pyfunc if func is self.function else VariableTracker.build(tx, func)
            return tx.inline_user_function_return(VariableTracker.build(tx, _with_callables.vectorize_call),
                                                  [func, ConstantVariable.create(otype), *args], {})

        def reconstruct(self, codegen):
            codegen.add_push_null(lambda: codegen.load_import_from("numpy", "vectorize"))
            codegen(self.pyfunc)
            codegen(ConstantVariable.create(self.otypes))
            codegen.call_function(2, False)

    return VectorizeVariable


VectorizeVariable = _vectorize_variable_type()


# --------------------------------------------------------------------------------------------------------------
# Whole calls in NumPy.  An array taking other data or another layout in place (``a.resize(...)``, ``a.shape =
# ...``) is a change no graph can give the array it was handed, and Dynamo would drop it silently.  A graph break
# is no better: real NumPy would then change the array rebuilt at the break, not the caller's.  Tracing such a
# call stops the compile (``InNumpy``), and npcompile._compile runs the whole call in real NumPy.
# --------------------------------------------------------------------------------------------------------------

REBINDING = frozenset({"shape", "strides", "dtype", "data"})  # attributes whose assignment rebinds an array


class InNumpy(Exception):
    """Raised while tracing: the call must run in real NumPy (see above)."""


def _in_numpy(what: str):
    _state.in_numpy = what  # Dynamo rewraps or suppresses the exception: this survives either
    raise InNumpy(f"{what} runs in real NumPy")


def in_numpy_pending() -> bool:
    return getattr(_state, "in_numpy", None) is not None


def take_in_numpy() -> str | None:
    """The feature that stopped the last trace on this thread for a whole call in NumPy, or None (then cleared)."""
    what = getattr(_state, "in_numpy", None)
    _state.in_numpy = None
    return what


def _setattr(self, tx, obj, name_var, val):
    """setattr on an array (``a.flat = v``, ``a.real = v``...) breaks the graph there, so that real NumPy sets it:
    Dynamo would record it as an attribute of the graph's tensor and drop it.  One that rebinds the array's layout
    or data (``a.shape = s``) makes the whole call run in NumPy (``InNumpy``)."""
    if isinstance(obj, _NumpyNdarrayVariable):
        from torch._dynamo.exc import unimplemented

        name = name_var.as_python_constant() if name_var.is_python_constant() else "?"
        if name in REBINDING:
            _in_numpy(f"ndarray.{name} = ...")
        unimplemented(gb_type="npcompile: ndarray attribute set", context=f"ndarray.{name} = ...",
                      explanation=f"npcompile runs 'ndarray.{name} = ...' in real NumPy", hints=[])
    return _ORIG_SETATTR(self, tx, obj, name_var, val)


_ORIG_WRAP_SYMINT = _dy_builder.VariableBuilder.wrap_symint
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _wrap_symint(self, value, dynamism=None, context=None):
    """VariableBuilder.wrap_symint (an int argument Dynamo makes a symbol once it has seen two values): a graph
    carries a symbol as an int64, so a value outside int64 (a uint64 seed or hash constant, 2**63) wrapped or
    failed in torch ('value cannot be converted to type int64_t'), where NumPy takes it exactly or raises
    OverflowError.  Such a value is a constant of its own graph, and the symbol's graph is guarded on int64."""
    if dynamism is None and not _INT64_MIN <= value <= _INT64_MAX:
        from torch._dynamo.guards import GuardBuilder
        from torch._dynamo.variables.constant import ConstantVariable

        self.install_guards(GuardBuilder.CONSTANT_MATCH)
        return ConstantVariable.create(value=value, source=self.source)
    vt = _ORIG_WRAP_SYMINT(self, value, dynamism, context)
    sym = getattr(vt, "sym_num", None)
    if type(sym) is torch.SymInt:  # guards (the value is in range)
        torch._check(_INT64_MIN <= sym)
        torch._check(sym <= _INT64_MAX)
    return vt


# An axis of 2 to 4 elements that changed between calls stays static (a recompile per length, not a symbol):
# arrays of small vectors (xy, xyz, RGB) reduced over such an axis compile, when it is symbolic, into per-row
# masked vector loads: ((p - q)**2).sum(axis=1) of 1M x 3 float64 ran 20x slower dynamic than static (88 vs
# 4.4 ms at one thread, NumPy 10 ms), plain torch.compile too.
_SMALL_AXIS = range(2, 5)


def _automatic_dynamic(e, tx, source, static_shapes, *args, **kwargs):
    """builder._automatic_dynamic: in our compiles, a small axis of an array that automatic dynamic shapes made
    symbolic is kept static (_SMALL_AXIS).  An axis made dynamic otherwise (``dynamic=True``, mark_dynamic)
    stays dynamic."""
    context = _ORIG_AUTOMATIC_DYNAMIC(e, tx, source, static_shapes, *args, **kwargs)
    sizes = getattr(context, "dynamic_sizes", None)
    if sizes is None or not torch._dynamo.config.assume_static_by_default:  # (dynamic=True: all symbolic)
        return context
    from torch.fx.experimental.symbolic_shapes import DimDynamic

    marked = getattr(e, "_dynamo_dynamic_indices", ())
    for i, d in enumerate(sizes):
        constraint = context.constraint_sizes[i]  # automatic dynamic's own: a warn-only relaxed one
        if d == DimDynamic.DYNAMIC and e.shape[i] in _SMALL_AXIS and i not in marked and getattr(
                constraint, "warn_only", False):
            context.dynamic_sizes[i] = DimDynamic.STATIC
            context.constraint_sizes[i] = None
    return context


def _builder_wrap(self, value):
    """VariableBuilder._wrap: a NumPy Polynomial of numeric coefficients passed in is a PolynomialVariable; a
    NumPy array is specialised on its writeability (see READONLY); a NumPy scalar (a graph input, as Dynamo makes
    it: a 0-d array) is converted through ``np.asarray`` (_SCALAR_SOURCES)."""
    if type(value) is _np.polynomial.Polynomial and _traced(_np.polynomial.Polynomial) and all(
            type(a) is _np.ndarray and a.dtype.kind in "fc" and a.dtype.itemsize <= 16 and a.dtype.isnative
            for a in (value.coef, value.domain, value.window)) and type(value.symbol) is str:
        return PolynomialVariable.wrap_object(self, value)
    if type(value) is _np.vectorize and _traced(_np.vectorize) and self.source is not None:
        vectorized = VectorizeVariable.wrap_object(self, value)
        if vectorized is not None:
            return vectorized
    if isinstance(value, _np.generic) and self.source is not None:
        self.tx.output.__dict__.setdefault(_SCALAR_SOURCES, set()).add(self.get_source())
    if type(value) is _np.ndarray and value.dtype.newbyteorder("=") not in _shim()._dtypes._NP_TO_TORCH:
        from torch._dynamo.exc import unimplemented  # (Dynamo's own text names no dtype: "[0 0]")

        unimplemented(gb_type="npcompile: array dtype", context=str(value.dtype), hints=[],
                      explanation=f"npcompile does not support dtype {value.dtype}")
    if type(value) is not _np.ndarray or self.source is None:
        return _ORIG_BUILDER_WRAP(self, value)
    writeable = value.flags.writeable
    vt = _ORIG_BUILDER_WRAP(self, value if writeable else _writeable_alias(value))
    if isinstance(vt, _NumpyNdarrayVariable):
        from torch._dynamo.guards import GuardBuilder, install_guard
        from torch._dynamo.source import AttrSource

        install_guard(AttrSource(AttrSource(self.source, "flags"), "writeable").make_guard(
            GuardBuilder.CONSTANT_MATCH))
        ev = vt.as_proxy().node.meta["example_value"]
        if not writeable:
            ev.__dict__[READONLY] = True
        if value.ndim == 0:
            ev.__dict__[ARRAY0D] = True
    return vt


# A NumPy scalar Dynamo reads (a global, a closure cell, an attribute) is a graph input: a 0-d array whose
# tensor Dynamo makes with ``torch.as_tensor(scalar)``, in the guards (``guards.from_numpy``) and in the code
# before the graph (``NumpyTensorSource.reconstruct``).  torch.as_tensor refuses a numpy.uint64 scalar ("an
# integer is required"), so both convert ``np.asarray(scalar)`` for the sources recorded here, per compile (the
# value is read afresh on every call: a changed global is seen; its dtype and shape are guarded).
_SCALAR_SOURCES = "_npc_scalar_sources"


def _numpy_source_reconstruct(self, codegen):
    """NumpyTensorSource.reconstruct: ``torch.as_tensor(np.asarray(scalar))`` for a NumPy scalar
    (_SCALAR_SOURCES), Dynamo's ``torch.as_tensor(value)`` otherwise."""
    if self.base not in codegen.tx.output.__dict__.get(_SCALAR_SOURCES, ()):
        return _ORIG_NUMPY_SOURCE_RECONSTRUCT(self, codegen)
    codegen.add_push_null(lambda: codegen.load_import_from("torch", "as_tensor"))
    codegen.add_push_null(lambda: codegen.load_import_from("numpy", "asarray"))
    codegen(self.base)
    codegen.extend_output(_create_call_function(1, False) + _create_call_function(1, False))


def _writeable_alias(a):
    """A writeable array over the read-only ``a``'s memory, from which Dynamo makes its example tensor: Dynamo
    sets a read-only array writeable for that (and leaves it so), and fails on one whose flag NumPy will not set (a
    view made by ``as_strided(..., writeable=False)`` or ``sliding_window_view``, or rebuilt after a graph break by
    ``readonly_numpy``).  Only its metadata is used: the graph gets the real array at run time and the trace marks
    it READONLY, so no write reaches it.  One torch cannot view (negative strides, byte order) is a graph break,
    as Dynamo makes for a writeable one (its repr names a dtype that is not native: npcompile.fallback)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # torch: "The given NumPy array is not writable"
            return torch.from_numpy(a).numpy()
    except (ValueError, TypeError) as e:
        from torch._dynamo.exc import unimplemented

        unimplemented(gb_type="failed to convert numpy.ndarray to Tensor", context=f"read-only {a!r}: {e}",
                      explanation="torch cannot view this array (negative strides, byte order)", hints=[])


def _codegen_call(self, value, allow_cache=True):
    """PyCodegen.__call__: after a graph break, a scalar is rebuilt as a NumPy scalar (``scalar_numpy``, not a 0-d
    array: ARRAY0D) and an array that the traced code must not write read-only (``readonly_numpy``), in place of
    Dynamo's ``to_numpy_helper`` (see ``_codegen_load_import_from``)."""
    outer = self.__dict__.get("_npc_rebuild")
    self._npc_rebuild = _rebuild_helper(value)
    try:
        return _ORIG_CODEGEN_CALL(self, value, allow_cache)
    finally:
        self._npc_rebuild = outer


def _rebuild_helper(value):
    if not isinstance(value, _NumpyNdarrayVariable):
        return None
    ev = value.as_proxy().node.meta.get("example_value")
    if not isinstance(ev, torch.Tensor):
        return None
    if ev.ndim == 0 and ARRAY0D not in ev.__dict__:
        return "scalar_numpy"
    return "readonly_numpy" if READONLY in ev.__dict__ else None


def scalar_numpy(t):
    """A graph output that stands for a NumPy scalar, as real NumPy gets it after a graph break."""
    return t.numpy(force=True)[()]


for _helper in (scalar_numpy, readonly_numpy):
    skip_code(_helper.__code__)  # called by the bytecode Dynamo makes: a frame Dynamo must not compile


def _codegen_load_import_from(self, module_name, object_name):
    helper = self.__dict__.get("_npc_rebuild")
    if object_name == "to_numpy_helper" and helper:
        module_name, object_name = __name__, helper
    return _ORIG_CODEGEN_IMPORT(self, module_name, object_name)


# --------------------------------------------------------------------------------------------------------------
# The patch itself.
# --------------------------------------------------------------------------------------------------------------


def _can_dispatch_torch_function(tx, args, kwargs) -> bool:
    """An operator, method or subscript whose operands are NumPy arrays and no tensor is a NumPy operation: an
    active torch function mode (``with torch.device(...)``) never sees it in real Python, so Dynamo must not
    route it through the mode's ``__torch_function__`` either (it would call ``torch.Tensor.mul`` & co. on
    the arrays).  Operations with a real tensor operand, and torch API calls (``variables/torch.py`` holds its
    own reference to the original), dispatch as before."""
    arrays = False
    for a in _tf_all_args(args, kwargs):
        if isinstance(a, _NumpyNdarrayVariable):
            arrays = True
        elif isinstance(a, _dy_tensor.TensorVariable) or _tf_overridden(a):
            return _ORIG_CAN_DISPATCH_TF(tx, args, kwargs)
    if arrays:
        _break_in_try(tx, "an array operator or subscript")  # (asked here: the one hook such operations pass with tx)
    return False if arrays else _ORIG_CAN_DISPATCH_TF(tx, args, kwargs)


_ORIG_GUARD_FROM_NUMPY = getattr(_dy_guards, "from_numpy", None)
_ORIG_GUARD_CLOSURE_VARS = getattr(_dy_guards, "_get_closure_vars", None)
if _ORIG_GUARD_CLOSURE_VARS is not None:
    _ORIG_GUARD_CLOSURE_VARS()  # Dynamo caches these on first use: filled now, with its own from_numpy


def _guard_from_numpy(a):
    """The tensor Dynamo's guards check for an array it reads from a global or an attribute (a module-level
    array): a view by ``torch.from_numpy`` where no torch function mode is active.  Dynamo's own turns torch
    function back on and calls ``torch.as_tensor`` (for a default device), several µs per guard, and such an
    array has two guards, checked on every call (``npcompile.tracing.overhead``'s module-global case).  Anything
    else as Dynamo does, a NumPy scalar as a 0-d array (_SCALAR_SOURCES)."""
    if isinstance(a, _np.generic):
        a = _np.asarray(a)
    t = _fast_path.array_tensor(a)
    return _ORIG_GUARD_FROM_NUMPY(a) if t is None else t


_ORIG_EQUALS_MATCH = _dy_guards.GuardBuilder.EQUALS_MATCH


def _equals_match(self, guard, recompile_hint=None):
    """GuardBuilder.EQUALS_MATCH, which guards a float argument (a constant in the graph) on ``==``: that takes
    -0.0 for 0.0, so ``f(x, -0.0)`` after ``f(x, 0.0)`` ran the graph traced for 0.0 (``np.copysign(1, x * k)``,
    ``1 / (x + k)``; plain torch.compile 2.13 too).  A zero is also guarded on its sign."""
    _ORIG_EQUALS_MATCH(self, guard, recompile_hint)
    val = self.get(guard)
    if type(val) is float and val == 0.0:
        sign = math.copysign(1.0, val)
        code = [f"math.copysign(1.0, {self.arg_ref(guard)}) == {sign}"]
        self.get_guard_manager(guard).add_lambda_guard(
            lambda v: type(v) is float and math.copysign(1.0, v) == sign,
            _dy_guards.get_verbose_code_parts(code, guard), guard.user_stack)


def _guard_closure_vars():
    """guards._get_closure_vars, the names guard sources are evaluated with while guards are built: with
    ``___from_numpy`` as ``_guard_from_numpy``.  Dynamo caches the dict it builds on first use, so without this
    its ``from_numpy`` would be whichever one was current then, for npcompile and plain torch.compile alike."""
    return {**_ORIG_GUARD_CLOSURE_VARS(), "___from_numpy": _guard_from_numpy}


def _tx_call_function(self, fn, args, kwargs):
    """Records the callee of the call instruction being traced (see ``_tx_inline_user_function_return``)."""
    outer = self.__dict__.get("_npc_callee")
    self._npc_callee = fn
    try:
        return _ORIG_TX_CALL_FUNCTION(self, fn, args, kwargs)
    finally:
        self._npc_callee = outer


def _tx_inline_user_function_return(self, fn, args, kwargs, allow_nested_graph_breaks=False):
    """A graph break nested in an inlined function resumes the caller after its current call instruction, with
    the function's return value as that instruction's result.  That holds only when the instruction calls this
    very function; torch 2.13 also allows it for functions a builtin calls (``sorted(key=...)``, ``map``,
    ``max(key=...)``), whose caller then gets the key function's value as ``sorted``'s (wrong values, or an
    IndexError).  Other calls break at the caller's instruction, which then runs in Python."""
    if allow_nested_graph_breaks:
        callee = self.__dict__.get("_npc_callee")
        if isinstance(callee, _LazyVariable):  # a global or closure variable, realized by the call
            callee = callee.unwrap()
        allow_nested_graph_breaks = callee is fn
    return _ORIG_TX_INLINE(self, fn, args, kwargs, allow_nested_graph_breaks)


# Python's number protocol on arrays (torch 2.13's ``object_protocol``): ``abs(a)`` reaches TensorVariable's
# ``nb_*_impl``, which record torch's operator and give a torch tensor: ``abs(x[0])`` returned a torch.Tensor from a
# compiled function.  On arrays each goes through the builtin operator instead, the NumPy operator path
# (``ShimOperatorCall``).
_NUMBER_PROTOCOL = {"negative": operator.neg, "positive": operator.pos, "absolute": operator.abs,
                    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
                    "true_divide": operator.truediv, "floor_divide": operator.floordiv, "remainder": operator.mod,
                    "lshift": operator.lshift, "rshift": operator.rshift, "and": operator.and_, "or": operator.or_,
                    "xor": operator.xor}


def _number_protocol(op):
    def impl(self, tx, *other, reverse=False):
        from torch._dynamo.variables.builtin import BuiltinVariable

        operands = [self, *other] if not reverse else [*other, self]
        return BuiltinVariable(op).call_function(tx, operands, {})

    return impl


def _math_prod(iterable, /, *, start=1):
    """``math.prod`` as Python computes it: ``start * v`` item by item, so NumPy scalars multiply as NumPy's."""
    for v in iterable:
        start = start * v
    return start


def _in_graph_call(self, tx, args, kwargs):
    """``math.prod`` over an array, or over arrays, is traced as Python computes it (``_math_prod``): as one graph
    node it multiplied torch tensors and returned a torch.Tensor from the compiled function."""
    if self.value is math.prod and args and _holds_array(args[0]):
        from torch._dynamo.variables.base import VariableTracker

        return tx.inline_user_function_return(VariableTracker.build(tx, _math_prod), args, kwargs)
    return _ORIG_IN_GRAPH_CALL(self, tx, args, kwargs)


def _holds_array(v) -> bool:
    v = v.realize()
    if isinstance(v, _dy_lists.BaseListVariable):
        return any(map(_holds_array, v.items))
    return isinstance(v, _NumpyNdarrayVariable)


def _jump_guard_bool(expr):
    """``guard_bool`` as a jump on an int's truth calls it (``if a[a > 0].size:``): a size read from the data
    raises the UserError after which Dynamo's jump breaks the graph, as it does for a comparison of that size.
    (The GuardOnDataDependentSymNode escaped the jump: the whole function ran in NumPy, with a logged traceback.)"""
    from torch.fx.experimental import _config as shape_config
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

    try:
        return _ORIG_JUMP_GUARD_BOOL(expr)
    except GuardOnDataDependentSymNode as e:
        if shape_config.no_data_dependent_graph_break:
            raise
        raise torch._dynamo.exc.UserError(torch._dynamo.exc.UserErrorType.ANTI_PATTERN, str(e)) from e


def _patch_table():
    """(object, attribute, replacement) for every swap.  Each comment says what it replaces and why."""
    shim = _shim()
    table = [
        # utils.numpy_to_tensor_wrapper(func) is the FX target Dynamo records for ``np.foo(...)``
        # (imported lazily inside NumpyVariable.call_function, so the module attribute is what counts).
        (_dy_utils, "numpy_to_tensor_wrapper", ShimCall),
        # utils.numpy_attr_wrapper: FX target for ``a.T`` / ``a.real`` ...; uses tnp.ndarray.
        (_dy_utils, "numpy_attr_wrapper", shim_attr),
        # utils.numpy_method_wrapper(name): FX target for ``a.sum()`` ...; uses tnp.ndarray.
        (_dy_utils, "numpy_method_wrapper", ShimMethodCall),
        # utils.numpy_operator_wrapper(op): FX target for ``a + b`` ... (lazily imported by tensor.py).
        (_dy_utils, "numpy_operator_wrapper", ShimOperatorCall),
        # builtin.py imports numpy_operator_wrapper at module level: same swap there.
        (_dy_builtin, "numpy_operator_wrapper", ShimOperatorCall),
        # ``tnp`` module globals: utils.py (to_numpy_helper / numpy_to_tensor isinstance checks during tracing)
        # and variables/tensor.py (``tnp.ndarray(example_value)`` in NumpyNdarrayVariable.var_getattr).
        (_dy_utils, "tnp", shim),
        (_dy_tensor, "tnp", shim),
        # misc.get_np_to_tnp_map / get_tnp_to_np_map: numpy callable -> implementation (lru_cached over
        # NP_TO_TNP_MODULE = torch._numpy); NumpyVariable.call_function looks the module global up per call.
        (_dy_misc, "get_np_to_tnp_map", np_to_shim_map),
        (_dy_misc, "get_tnp_to_np_map", shim_to_np_map),
        # NumpyVariable classmethods asserting ``fn.__module__`` starts with torch._numpy.
        (_NumpyVariable, "can_constant_fold_through", classmethod(_can_constant_fold_through)),
        (_NumpyVariable, "get_constant_collection_for_func", classmethod(_get_constant_collection_for_func)),
        # NumpyVariable.call_function: np.result_type of arrays folded to a dtype constant.
        (_NumpyVariable, "call_function", _numpy_var_call_function),
        # NumpyVariable.call_method: ``np.add.reduce(a)`` & co. traced instead of a graph break.
        (_NumpyVariable, "call_method", _numpy_var_call_method),
        # NumpyVariable.as_python_constant: an ndarray subclass instance is not a constant to fold operators over.
        (_NumpyVariable, "as_python_constant", _numpy_var_as_python_constant),
        # torch.TorchInGraphFunctionVariable.call_function: ``math.prod`` of arrays traced as Python computes it.
        (_dy_torch_vars.TorchInGraphFunctionVariable, "call_function", _in_graph_call),
        # NumpyNdarrayVariable.python_type: a NumPy scalar's own type, not numpy.ndarray (_ndarray_python_type).
        (_NumpyNdarrayVariable, "python_type", _ndarray_python_type),
        # NumpyNdarrayVariable.var_getattr: ``a.dtype`` (and nbytes/strides) as constants instead of a break.
        (_NumpyNdarrayVariable, "var_getattr", _ndarray_var_getattr),
        # misc.ConstantLikeVariable.reconstruct (NumpyDTypeVariable inherits it): a dtype, finfo or iinfo the code
        # returns or keeps past a graph break is rebuilt instead of failing the frame (_constant_like_reconstruct).
        (_ConstantLikeVariable, "reconstruct", _constant_like_reconstruct),
        # misc.ConstantLikeVariable.var_getattr: ``np.finfo(...).eps`` & co. are NumPy scalars, not Python floats.
        (_ConstantLikeVariable, "var_getattr", _constant_like_getattr),
        # NumpyNdarrayVariable.call_method: a method call inside a try block is a graph break (_break_in_try).
        (_NumpyNdarrayVariable, "call_method", _ndarray_var_call_method),
        # SliceVariable.__init__ (BUILD_SLICE): array slice bounds convert through __index__, not .item().
        (_dy_lists.SliceVariable, "__init__", _slice_init),
        # trace_rules.is_numpy: numpy.polynomial.Polynomial counts as a NumPy callable (a PolynomialVariable);
        # on torch 2.11 numpy.ndarray does not (CLASS_IDENTITY_BY_OBJECT).
        (_dy_rules, "is_numpy", _is_numpy),
        # builder.VariableBuilder._wrap (how Dynamo tracks an object it finds in an argument or a global): NumPy
        # Polynomial objects are traced (PolynomialVariable.wrap_object) instead of skipped; arrays are guarded on
        # their writeability (READONLY).
        (_dy_builder.VariableBuilder, "_wrap", _builder_wrap),
        # builder._automatic_dynamic (the sizes of a graph input that become symbols once they change between
        # calls): an array's axes of 2 to 4 elements stay static (_SMALL_AXIS).
        (_dy_builder, "_automatic_dynamic", _automatic_dynamic),
        # builder.VariableBuilder.wrap_symint: an int argument outside int64 is a constant, not a symbol.
        (_dy_builder.VariableBuilder, "wrap_symint", _wrap_symint),
        # source.NumpyTensorSource.reconstruct (the code reading an array or NumPy scalar graph input before the
        # graph): a NumPy scalar converts as a 0-d array, which torch.as_tensor takes for uint64 (_SCALAR_SOURCES).
        (_dy_source.NumpyTensorSource, "reconstruct", _numpy_source_reconstruct),
        # TensorVariable.method_numpy (``t.numpy()``): a 0-d result is an array, not a scalar (ARRAY0D).
        (_dy_tensor.TensorVariable, "method_numpy", _tensor_numpy),
        # builtin setattr (STORE_ATTR): setting an array's attribute is a graph break, run by NumPy (_setattr).
        (_SETATTR_OWNER, _SETATTR_NAME, _setattr),
        # codegen.PyCodegen.__call__ / .load_import_from (the bytecode rebuilding values after a graph break): an
        # array the traced code must not write is rebuilt read-only (READONLY).
        (_dy_codegen.PyCodegen, "__call__", _codegen_call),
        (_dy_codegen.PyCodegen, "load_import_from", _codegen_load_import_from),
        # torch_function.can_dispatch_torch_function (looked up per call by builtin.py and tensor.py): NumPy
        # operators/methods/subscripts stay NumPy operations under an active torch function mode.
        (_dy_tf, "can_dispatch_torch_function", _can_dispatch_torch_function),
        # lists.ListVariable.call_method ("sort", also under ``sorted``): (key, array) pairs with distinct constant
        # keys sort by the keys instead of a graph break (_list_call_method).
        (_dy_lists.ListVariable, "call_method", _list_call_method),
        # builtin.BuiltinVariable.call_function (not its call_max/call_min: _make_handler caches the bound handler
        # past the patch): ``max(items, key=f)`` / ``min(...)`` with NumPy keys traced as Python selects instead of
        # a graph break (_select_by_key); ``max(a, b)`` of 0-d NumPy values selects as Python does, not
        # ``np.maximum`` (_select_0d: NaN).
        (_dy_builtin.BuiltinVariable, "call_function", _builtin_call_function),
        # symbolic_convert.guard_bool (called only by a jump on an int's truth): a size read from the data breaks
        # the graph there instead of failing the frame (_jump_guard_bool).
        (_dy_sc, "guard_bool", _jump_guard_bool),
        # builtin.BuiltinVariable.as_proxy: the type ``complex`` as a dtype argument (_builtin_as_proxy).
        (_dy_builtin.BuiltinVariable, "as_proxy", _builtin_as_proxy),
        # SymFloat.__pow__ (a Python float from the data raised to a power): no base >= 0 assert for an integral
        # exponent (_symfloat_pow).
        (torch.SymFloat, "__pow__", _symfloat_pow),
    ]
    if hasattr(_NumpyVariable, "mp_subscript_impl"):
        # NumpyVariable.mp_subscript_impl (torch 2.13's subscript): ``np.r_[...]`` & co. (_INDEX_TRICKS).
        table.append((_NumpyVariable, "mp_subscript_impl", _numpy_var_subscript))
    if hasattr(_NumpyVariable, "richcompare_impl"):
        # NumpyVariable.richcompare_impl (torch 2.13): NumPy constants compare as Python compares them.
        table.append((_NumpyVariable, "richcompare_impl", _numpy_var_richcompare))
    # TensorVariable.nb_<op>_impl on NumpyNdarrayVariable (torch 2.13): the NumPy operator (_NUMBER_PROTOCOL).
    table += [(_NumpyNdarrayVariable, f"nb_{name}_impl", _number_protocol(op)) for name, op in _NUMBER_PROTOCOL.items()
              if hasattr(_dy_tensor.TensorVariable, f"nb_{name}_impl")]
    if _ORIG_GUARD_FROM_NUMPY is not None:
        # guards.from_numpy: the guards built for our compiles convert an array they check faster (looked up when
        # a guard is built, so plain torch.compile's guards keep Dynamo's).
        table.append((_dy_guards, "from_numpy", _guard_from_numpy))
        if _ORIG_GUARD_CLOSURE_VARS is not None:
            # guards._get_closure_vars (Dynamo's cached names for evaluating guard sources): the same swap there.
            table.append((_dy_guards, "_get_closure_vars", _guard_closure_vars))
    # guards.GuardBuilder.EQUALS_MATCH (the guard of a float argument): the sign of a zero too (_equals_match).
    table.append((_dy_guards.GuardBuilder, "EQUALS_MATCH", _equals_match))
    # runtime_wrappers._create_runtime_wrapper (AOTAutograd's per-call wrapper around a graph, looked up when built):
    # marks the wrappers that have nothing to do per call, which the direct path then skips (tracing._lean_graph).
    table.append((_lean_graph.runtime_wrappers, "_create_runtime_wrapper", _lean_graph.create_runtime_wrapper))
    if NESTED_GRAPH_BREAKS:
        # symbolic_convert.InstructionTranslatorBase.call_function / .inline_user_function_return: nested graph
        # breaks only in a function the current call instruction calls itself (see _tx_inline_user_function_return).
        table += [(_Translator, "call_function", _tx_call_function),
                  (_Translator, "inline_user_function_return", _tx_inline_user_function_return)]
    return table


_MISSING = object()


def _dynamo_compile_lock():
    # torch/_dynamo/convert_frame.py ``compile_lock``: every Dynamo compile (ours and torch.compile's, in any
    # thread) runs under it.  Holding it while the swap is installed means no plain torch.compile can be
    # tracing in another thread while Dynamo points at our shim.  It is an RLock, so Dynamo's own acquisition
    # inside our scope is re-entrant.
    import torch._dynamo.convert_frame as cf

    lock = getattr(cf, "compile_lock", None)
    return lock if lock is not None else threading.RLock()


_lock = _dynamo_compile_lock()
_active = [0]
_saved: list = []


@contextlib.contextmanager
def numpy_mode(device: torch.device | None = None):
    """While active, TorchDynamo traces NumPy code into ``npcompile._numpy`` instead of ``torch._numpy``.

    ``device``: the default device of the call being compiled when it is not the CPU (see ``ShimCall``).
    Re-entrant and thread-safe: the swap is process-global, so it is installed and held under Dynamo's own
    global compile lock (no other thread can be compiling meanwhile).  Everything is restored on exit, also
    when the body raises.
    """
    with _lock:
        _state.depth = getattr(_state, "depth", 0) + 1
        outer_device = getattr(_state, "device", None)
        _state.device = device
        try:
            if _active[0] == 0:
                _install()
            _active[0] += 1
            try:
                yield
            finally:
                _active[0] -= 1
                if _active[0] == 0:
                    _uninstall()
        finally:
            _state.depth -= 1
            _state.device = outer_device


def _install():
    table = _patch_table()
    saved = []
    try:
        for obj, name, new in table:
            old = obj.__dict__.get(name, _MISSING) if isinstance(obj, type) else getattr(obj, name, _MISSING)
            saved.append((obj, name, old))
            setattr(obj, name, new)
    except BaseException:
        _restore(saved)
        raise
    _saved[:] = saved


def _restore(saved):
    for obj, name, old in reversed(saved):
        if old is _MISSING:
            try:
                delattr(obj, name)
            except AttributeError:
                pass
        else:
            setattr(obj, name, old)


def _uninstall():
    saved = list(_saved)
    _saved.clear()
    _restore(saved)


def is_active() -> bool:
    return _active[0] > 0


def numpy_to_shim_ops_in(gm) -> list:
    """The shim callables a captured graph calls (for tests and ``explain``)."""
    out = []
    for node in gm.graph.nodes:
        if node.op == "call_function":
            t = node.target
            if isinstance(t, ShimCall):
                out.append(t.f)
            elif isinstance(t, (ShimMethodCall, ShimOperatorCall)) or t is shim_attr:
                out.append(t)
    return out


def graph_references_torch_numpy(gm) -> bool:
    """True if any node of ``gm`` calls into torch._numpy (the state of a plain torch.compile graph)."""
    orig = (torch._dynamo.utils.numpy_to_tensor_wrapper, torch._dynamo.utils.numpy_method_wrapper,
            torch._dynamo.utils.numpy_operator_wrapper)
    for node in gm.graph.nodes:
        if node.op != "call_function":
            continue
        t = node.target
        if isinstance(t, GRAPH_CALLABLE_TYPES) or t is shim_attr:
            continue
        if isinstance(t, tuple(c for c in orig if isinstance(c, type))):
            return True
        if t is torch._dynamo.utils.numpy_attr_wrapper:
            return True
        mod = getattr(getattr(t, "f", t), "__module__", "") or ""
        if mod.startswith("torch._numpy"):
            return True
    return False


__all__ = ["numpy_mode", "is_active", "ShimCall", "ShimMethodCall", "ShimOperatorCall", "shim_attr",
           "ShimTraceError", "disallow_numpy", "allow_numpy", "np_to_shim_map", "shim_function_for",
           "check_torch_version", "SUPPORTED_TORCH", "tracing_active", "graph_references_torch_numpy",
           "numpy_to_shim_ops_in", "set_shim"]
