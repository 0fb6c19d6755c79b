"""Fallback to real NumPy, and the bookkeeping around it.

The mechanism is the graph break: whenever a NumPy call cannot be traced (the shim raises
``UnsupportedFeature``/NotImplementedError for it, the shim lacks the function, an argument has a dtype torch
cannot hold, the user called ``npcompile.disallow_in_graph`` on it, the object is an ndarray subclass or has
``__array_function__``...), TorchDynamo ends the graph before the call, runs the call itself in the Python
interpreter on real NumPy arrays (tensors crossing the boundary are converted with ``Tensor.numpy()``, which
shares memory), and compiles what follows as a new graph.  So a fallback is exact NumPy by construction.
Whole frames that fail to compile for any other reason run eagerly too (``config.suppress_errors``).

This module turns Dynamo's graph-break records into NumPy-level events: ``FallbackWarning`` (once per
feature, when ``npcompile.config.warn_on_fallback``), and the data ``npcompile.explain`` reports.
"""

from __future__ import annotations

import re
import threading
import warnings
from dataclasses import dataclass, field
from typing import Any


class FallbackWarning(UserWarning):
    """Part of a compiled function ran in real NumPy (it could not be compiled).  See ``npcompile.explain``."""


@dataclass
class Event:
    kind: str  # "fallback" (a NumPy feature ran in real NumPy) or "graph_break" (anything else)
    feature: str  # short NumPy-level name: "numpy.datetime_as_string", "dtype datetime64[D]", ...
    reason: str  # one-line explanation in NumPy terms
    where: str  # file:line in user code ("" if unknown)
    detail: str = ""  # Dynamo's original text

    def __str__(self):
        loc = f" at {self.where}" if self.where else ""
        return f"{self.kind}: {self.reason}{loc}"


_lock = threading.Lock()
_warned: set = set()
_events: list = []  # recent events (bounded), for debugging
_MAX_EVENTS = 200


def _emit(ev: Event, recorder) -> None:
    from .. import config

    with _lock:
        _events.append(ev)
        if len(_events) > _MAX_EVENTS:
            del _events[: len(_events) - _MAX_EVENTS]
    if recorder is not None:
        if any((e.reason, e.where) == (ev.reason, ev.where) for e in recorder.events):
            return
        recorder.events.append(ev)
    if ev.kind == "fallback" and config.warn_on_fallback:
        with _lock:
            if ev.feature in _warned:
                return
            _warned.add(ev.feature)
        loc = f" ({ev.where})" if ev.where else ""
        warnings.warn(f"npcompile: {ev.reason}{loc}; this part runs in real NumPy", FallbackWarning, stacklevel=2)


def reset_warnings() -> None:
    """Warn again for features already warned about (tests)."""
    with _lock:
        _warned.clear()


def recent_events() -> list:
    with _lock:
        return list(_events)


_USER_FILES_SKIP = ("/torch/", "/npcompile/_compile.py", "/npcompile/tracing/", "/npcompile/_numpy/")


def _where(user_stack) -> str:
    if not user_stack:
        return ""
    for fs in reversed(list(user_stack)):
        fn = getattr(fs, "filename", "") or ""
        if not any(s in fn for s in _USER_FILES_SKIP):
            return f"{fn}:{fs.lineno}"
    fs = list(user_stack)[-1]
    return f"{fs.filename}:{fs.lineno}"


_NP_FUNC_RE = re.compile(r"numpy function: (<[^>]*>|[\w.]+)")
_UNSUPPORTED_RE = re.compile(r"npcompile does not support ([^\n'\"]+)")
# A method of a NumPy generator object Dynamo found outside the function (an argument, a global), or the
# construction of a legacy RandomState.
_RANDOM_METHOD_RE = re.compile(r"method `(\w+)` of class `(Generator|RandomState)`")
_RANDOM_CLASS_RE = re.compile(r"UserDefinedClassVariable\(<class 'numpy\.random\.[\w.]*?(RandomState|Generator)'>\)")
_SHIM_ERR_RE = re.compile(r"ShimTraceError\(['\"]?([^:'\"]+): (\w+): (.*?)['\"]?\)(?:\n|$)")


def _np_name(text: str) -> str:
    m = _NP_FUNC_RE.search(text)
    if not m:
        return "a NumPy function"
    s = m.group(1)
    m2 = re.match(r"<(?:ufunc|function|built-in function|class) '?([\w.]+)'?", s)
    if m2:
        s = m2.group(1)
    m2 = re.match(r"<cyfunction (\w+) ", s)  # numpy.random's legacy module functions (Cython)
    if m2:
        s = "random." + m2.group(1)
    if not s.startswith("numpy"):
        s = "numpy." + s
    return s


# numpy.random's functions on NumPy's legacy global state, never traced: a graph would keep no effect of a seed,
# and compiled draws are seeded from that state (npcompile.tracing._seeding).
REAL_NUMPY_ONLY = frozenset(("seed", "get_state", "set_state"))

_OBJECT_DTYPE = ("fallback", "object dtype", "object arrays are not compiled")

# The reason npcompile.tracing._loops gives the runner of a loop it outlined (a deliberate graph break).
OUTLINED_LOOP = "npcompile outlined this loop"


def classify(text: str) -> tuple[str, str, str]:
    """(kind, feature, reason in NumPy terms) for a Dynamo graph-break / error text."""
    t = text or ""
    if OUTLINED_LOOP in t:
        return "graph_break", "outlined loop", ("loop runs in Python, calling its body (compiled once) per "
                                                "iteration (npcompile.config.outline_loops)")
    m = _UNSUPPORTED_RE.search(t)
    if m:
        feat = m.group(1).strip().rstrip(".")
        return "fallback", feat, f"npcompile does not compile {feat}"
    if "ShimTraceError" in t or "npc_" in t and "NotImplementedError" in t:
        m = _SHIM_ERR_RE.search(t)
        if m:
            what, ename, msg = m.groups()
            if ename == "ValueError" and "read-only" in msg:  # (tracing._dynamo_patch.READONLY)
                return "graph_break", "write into a read-only array", (f"{what.strip()} writes into a read-only "
                                                                       "array: NumPy raises its error there")
            return "fallback", what.strip(), f"{what.strip()} could not be traced ({ename}: {msg.strip()[:200]})"
        return "fallback", "numpy call", "a NumPy call could not be traced"
    if "unsupported by PyTorch" in t or "Can't find numpy" in t:
        name = _np_name(t)
        if name.removeprefix("numpy.random.") in REAL_NUMPY_ONLY:
            return "fallback", name, (f"{name} runs in real NumPy: NumPy's global random state, which seeds "
                                      "the compiled draws")
        return "fallback", name, f"{name} is not implemented in npcompile's NumPy"
    if "failed to convert numpy.ndarray to Tensor" in t or "convert numpy.ndarray" in t:
        m = re.search(r"dtype=['\"]?([\w<>\[\]|]+)", t)
        if m:
            return "fallback", f"dtype {m.group(1)}", f"arrays of dtype {m.group(1)} are not compiled"
        # (the other arrays torch cannot view: negative strides, where npcompile.tracing._copies does not copy)
        feat = "arrays with negative strides"
        return "fallback", feat, (f"{feat} run in real NumPy unless passed as writeable top-level arguments "
                                  f"sharing no memory with another argument (not a global, a list item, or "
                                  f"f(x, x[::-1]))")
    m = re.search(r"a Python function passed to ([\w.]+)", t)
    if m:
        feat = f"{m.group(1)} given a Python function"
        return "fallback", feat, f"{feat} runs in real NumPy"
    if "sourceless builder" in t or "Failed to convert args/kwargs to proxy" in t:
        m = re.search(r"wrap <class '([\w.]+)'>", t)
        what = m.group(1) if m else "an object"
        if what.startswith("numpy.ma.") or "MaskedArray" in what:
            feat = "masked arrays"
        elif "BuiltinVariable(object)" in t:  # dtype=object
            return _OBJECT_DTYPE
        elif m:
            feat = f"ndarray subclass {what}"
        else:
            feat = "non-array argument (ndarray subclass, __array_function__ object...)"
        return "fallback", feat, f"{feat} run in real NumPy"
    m = _RANDOM_METHOD_RE.search(t)
    m2 = None if m else _RANDOM_CLASS_RE.search(t)
    if m or m2:
        feat = f"numpy.random.{m.group(2)}.{m.group(1)}" if m else f"numpy.random.{m2.group(1)}"
        return "fallback", feat, (f"{feat} runs in real NumPy, on NumPy's own random stream (only a generator "
                                  f"seeded inside the function with a constant is folded into the graph)")
    if "The type Polynomial does not implement" in t or \
            re.search(r"builtin operator `\w+` with argument types \[[^\]]*'Polynomial'", t):  # (2.13 / 2.11)
        return "fallback", "Polynomial arithmetic", "Polynomial arithmetic runs in real NumPy"
    m = re.search(r"qualname: ([\w.<>]+),.*filename: `[^`]*/numpy/", t)
    if m:  # NumPy's own Python code that the shim does not model (np.vectorize's call, Polynomial methods...)
        feat = f"numpy {m.group(1)}"
        return "fallback", feat, f"{feat} (NumPy's Python code) runs in real NumPy"
    if "npcompile: NumPy call inside try" in t:
        return "graph_break", "try/except", ("NumPy calls inside a try block run in real NumPy (so that the errors "
                                             "they raise on the data reach the except clause)")
    m = re.search(r"Dynamo does not know how to enter a `(\w+)` context manager", t)
    if m:
        return "graph_break", f"with {m.group(1)}(...)", f"the with {m.group(1)}(...) block runs in Python"
    m = re.search(r"builtin operator `(\w+)` with argument types \['ndarray'", t)
    if m or "op returned non-Tensor" in t:
        what = f"{m.group(1)}() of an array" if m else "a NumPy call giving no array (errstate, formatting...)"
        return "graph_break", what, f"{what} runs in Python"
    if "astype(object)" in t or "astype('O')" in t:
        return _OBJECT_DTYPE
    if "tostring" in t or "tobytes" in t:
        return "fallback", "ndarray.tobytes", "ndarray.tobytes/tostring is not compiled"
    if t.startswith("generic_jump"):  # (Dynamo's text for a jump on a value it cannot decide)
        return "graph_break", "if/while on an array", ("a Python if/while/and/or on an array's value: the data "
                                                       "decides the branch, so the code after it is compiled apart")
    if "Data dependent" in t or "data-dependent" in t.lower() or "data dependent" in t.lower():
        return "graph_break", "data-dependent value", \
            "a value that depends on array contents is used in Python (item(), float(), if/while on an array...)"
    if "graph_break" in t or "torch._dynamo.graph_break" in t or "Call to `torch._dynamo.graph_break()`" in t:
        return "graph_break", "graph_break()", "explicit npcompile.graph_break()"
    if "skip" in t.lower() and "disable" in t.lower():
        return "graph_break", "disabled function", "a function marked npcompile.disable runs uncompiled"
    if "builtin print" in t or "operator `print`" in t:  # (not any "print": torch 2.11 hints at it in other breaks)
        return "graph_break", "print", "print() runs in Python"
    first = t.strip().splitlines()[0] if t.strip() else "unknown reason"
    return "graph_break", first[:120], first[:300]


def note_graph_break(reason, recorder=None) -> None:
    text = getattr(reason, "reason", str(reason))
    stack = list(getattr(reason, "user_stack", None) or [])
    if stack and all(any(s in (fs.filename or "") for s in _USER_FILES_SKIP) for fs in stack):
        return  # a break inside npcompile's own argument/result plumbing: its cause is reported elsewhere
    kind, feature, expl = classify(text)
    _emit(Event(kind, feature, expl, _where(getattr(reason, "user_stack", None)), text), recorder)


def note_suppressed_error(record, frame, recorder=None) -> None:
    text = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        text = f"{text}\n{type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
    kind, feature, expl = classify(text)
    code = getattr(frame, "f_code", None)
    where = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else ""
    if kind == "graph_break":
        feature, expl = "frame", f"function {getattr(code, 'co_name', '?')} could not be compiled and runs in real NumPy"
    _emit(Event("fallback", feature, expl, where, text), recorder)


def note_array_argument(a, recorder=None) -> None:
    """An array argument that stays a real NumPy array (not compiled): say why, once per feature."""
    import numpy as np

    if type(a) is not np.ndarray:
        feat = "masked arrays" if isinstance(a, np.ma.MaskedArray) else \
            f"ndarray subclass {type(a).__module__}.{type(a).__qualname__}"
        reason = f"{feat} run in real NumPy"
    elif not a.flags.writeable:
        return  # read-only arrays are compiled (tracing._dynamo_patch.READONLY); nothing to report
    else:
        d = a.dtype
        kind = {"M": "datetime64", "m": "timedelta64", "U": "str", "S": "bytes", "O": "object",
                "V": "structured"}.get(d.kind)
        if d.kind == "f" and d.itemsize > 8:
            kind = "longdouble"
        elif d.kind == "c" and d.itemsize > 16:
            kind = "clongdouble"
        elif not d.isnative:
            kind = "non-native byte order"
        feat = f"dtype {kind or d}"
        reason = f"arrays of {feat} run in real NumPy"
    from .. import config

    if recorder is None and not config.warn_on_fallback:
        return
    _emit(Event("fallback", feat, reason, "", ""), recorder)


def in_numpy(fn, feature: str, recorder):
    """``fn`` run whole in real NumPy, each call reported as a fallback for ``feature``: for what no graph can
    reproduce and a graph break would get wrong (an array taking other data or layout in place, see
    tracing._dynamo_patch.InNumpy).  ``recorder()`` gives the caller's ``explain`` recorder, if any."""
    from .. import config

    code = getattr(fn, "__code__", None)
    where = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else ""
    reason = f"{feature} changes an array in place in a way no graph can: the function runs in real NumPy"

    def driver(*args, **kwargs):
        rec = recorder()
        if rec is not None or config.warn_on_fallback:
            _emit(Event("fallback", feature, reason, where), rec)
        return fn(*args, **kwargs)

    return driver


def describe_exception(e: BaseException) -> str:
    text = str(e)
    kind, feature, expl = classify(text)
    stack = getattr(e, "real_stack", None)
    where = _where(stack) if stack else ""
    return f"{expl}{' at ' + where if where else ''}\n(Dynamo: {text.strip().splitlines()[0] if text.strip() else type(e).__name__})"


@dataclass
class Recorder:
    graphs: list = field(default_factory=list)
    events: list = field(default_factory=list)
    result: Any = None

    def report(self, name: str) -> "ExplainReport":
        return ExplainReport(name, list(self.graphs), list(self.events), self.result)


_HINTS = {
    "data-dependent value": "keep array-valued logic in NumPy (np.where, masks) instead of Python if/while on "
                            "array values, or move the Python decision outside the compiled function",
    "print": "remove print() from the hot function, or accept the break",
}
_HINTS["if/while on an array"] = _HINTS["data-dependent value"]


@dataclass
class ExplainReport:
    name: str
    graphs: list
    events: list
    result: Any = None
    compiled: Any = None

    @property
    def graph_count(self) -> int:
        return len(self.graphs)

    @property
    def graph_breaks(self) -> list:
        return [e for e in self.events if e.kind == "graph_break" or e.kind == "fallback"]

    @property
    def graph_break_count(self) -> int:
        return len(self.graph_breaks)

    @property
    def fallbacks(self) -> list:
        return [e for e in self.events if e.kind == "fallback"]

    @property
    def op_count(self) -> int:
        return sum(1 for g in self.graphs for n in g.graph.nodes if n.op == "call_function")

    @property
    def hints(self) -> list:
        out = []
        for e in self.events:
            h = _HINTS.get(e.feature)
            if h and h not in out:
                out.append(h)
        if any(e.kind == "fallback" for e in self.events):
            h = "fallbacks run in real NumPy with exact results; set npcompile.config.warn_on_fallback = True to be told"
            out.append(h)
        return out

    def __str__(self):
        lines = [f"npcompile.explain({self.name}): {self.graph_count} graph(s), {self.graph_break_count} graph "
                 f"break(s), {self.op_count} op(s) captured"]
        for i, e in enumerate(self.graph_breaks, 1):
            lines.append(f"  break {i}: {e.reason}" + (f"  [{e.where}]" if e.where else ""))
        fb = self.fallbacks
        if fb:
            lines.append("  runs in real NumPy: " + ", ".join(sorted({e.feature for e in fb})))
        for h in self.hints:
            lines.append(f"  hint: {h}")
        return "\n".join(lines)

    __repr__ = __str__


__all__ = ["FallbackWarning", "Event", "ExplainReport", "Recorder", "classify", "note_graph_break",
           "note_suppressed_error", "reset_warnings", "recent_events", "describe_exception"]
