"""Branch cutting: a function whose top-level ``if`` tests array values runs as plain Python around compiled parts.

Why: such a test (``if np.any(x < 0):``, ``if np.linalg.norm(r) < tol:``) is a data-dependent branch, where Dynamo
breaks the graph, and every call then pays Dynamo's resume machinery: a frame per call level, guards converting
each NumPy local, graph outputs aliasing inputs.  That is about 100 µs on this machine, several times a whole small
compiled call.  Cut at the test, the code before it becomes one compiled function that also gives the test's value
(``part``), and the code after it, the branch taken followed by the rest of the function, another (``then`` or
``else``); each takes the direct call path, and the ``if`` itself runs in Python, as it does in NumPy.  An ``if``
whose branches hold an array test is cut the same way, so that the nested test is at the top of a part (cut when
that part compiles); so are the loop bodies ``_loops`` outlines.

The rewrite is exact or not done, as loop outlining (``_loops``), whose name analysis it shares: the code before
the test must not return or hold a nested scope, every name the code after it reads must be surely bound, and the
function must not have cells (a nested function seeing its locals).  Which tests are array tests is a guess from
the source (a call of a NumPy function or of an array method that reduces); a wrong guess costs speed only.
Parts are cut and outlined again when they compile (their trees travel with them).
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
import types

from torch._C._dynamo.eval_frame import set_eval_frame as _set_eval_frame

from .. import config
from .. import fallback as _fallback
from . import _dynamo_patch as _patch, _loops as L

# Array methods whose result a test typically turns into a Python bool (so the test depends on array values).
_REDUCING = frozenset({"any", "all", "max", "min", "sum", "mean", "std", "var", "prod", "item", "ptp", "argmax",
                       "argmin", "count_nonzero", "allclose", "array_equal", "isclose", "norm", "dot"})


def rewrite(fn, compile_body, recorder):
    """``fn`` cut at its first top-level array test, else with its array loops outlined (``_loops.outline``);
    ``fn`` run in real NumPy when it rebinds an array in place (``a.resize(...)``, ``a.shape = s``: the array
    would have to take other data or layout, which a graph cannot give the array it was handed).
    The source is parsed once, for all three."""
    if type(fn) is not types.FunctionType or fn.__code__.co_flags & L._NOT_PLAIN or getattr(fn, "_npc_outlined", 0):
        return fn
    try:
        tree = L._function_tree(fn)
    except _UNAVAILABLE:
        return fn
    np_names = L._numpy_names(fn, tree)
    rebinding = _rebinding(fn, tree, np_names, {fn.__code__})
    if rebinding is not None:
        driver = _fallback.in_numpy(fn, rebinding, recorder)
        driver._npc_driver = True
        _patch.skip_code(driver.__code__)
        return driver
    cut = _cut(fn, tree, np_names, compile_body, recorder) if config.cut_branches else None
    if cut is not None:
        return cut
    return L.outline(fn, compile_body, recorder, tree) if config.outline_loops else fn


_UNAVAILABLE = (L._Skip, OSError, TypeError, SyntaxError, ValueError)  # no source, or none we may rewrite


def _rebinding(fn, tree, np_names, seen) -> str | None:
    """What rebinds an array in place (``_rebinds``) in ``fn`` or in a Python function it calls by name (a global,
    a closure variable, a module attribute; to any depth, at most _MAX_CALLEES of them).  A resize is found at
    trace time too (``_dynamo_patch.InNumpy``), but only before anything of the call ran: this also covers one
    after a graph break."""
    found = _rebinds(tree, np_names)
    if found is not None:
        return found
    for f in _named_callees(fn, tree):
        if f.__code__ in seen or len(seen) >= _MAX_CALLEES:
            continue
        seen.add(f.__code__)
        t = _source_tree(f)
        found = _rebinding(f, t, L._numpy_names(f, t), seen) if t is not None else None
        if found is not None:
            return found
    return None


_MAX_CALLEES = 32
_LIBRARIES = frozenset({"numpy", "torch", "npcompile", "builtins"})  # callees not ours to read
_SOURCE_TREES: dict = {}  # code object -> its parsed source (None without one): each read once per process


def _source_tree(f):
    code = f.__code__
    if code not in _SOURCE_TREES:
        try:
            _SOURCE_TREES[code] = ast.parse(textwrap.dedent(inspect.getsource(f)))
        except (OSError, TypeError, SyntaxError, ValueError):
            _SOURCE_TREES[code] = None
    return _SOURCE_TREES[code]


def _named_callees(fn, tree):
    scope = {}  # the closure's values; other names are looked up in fn's globals
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:  # empty cell
            pass
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        f, path = n.func, []
        while isinstance(f, ast.Attribute):
            path.append(f.attr)
            f = f.value
        v = (scope[f.id] if f.id in scope else fn.__globals__.get(f.id)) if isinstance(f, ast.Name) else None
        for attr in reversed(path):
            v = getattr(v, attr, None) if isinstance(v, types.ModuleType) else None
        v = getattr(v, "__npcompile_original__", v)  # a compiled function is traced as its original
        if type(v) is types.FunctionType and (v.__module__ or "").split(".")[0] not in _LIBRARIES:
            yield v


def _rebinds(tree, np_names) -> str | None:
    """What rebinds an array in place in the function, if anything: a call of a ``.resize`` method of something
    not NumPy (``np.resize`` makes a copy) or of ``.setflags``, an assignment of an array's shape, strides, dtype,
    data or flags (``a.flags.writeable = ...``, ``a.flags["W"] = ...``).  (Graph breaks run such writes on the
    array rebuilt at the break, not on the caller's.)"""
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("resize", "setflags") \
                and not (isinstance(n.func.value, ast.Name) and n.func.value.id in np_names):
            return f"ndarray.{n.func.attr}"
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
            if n.attr in _patch.REBINDING:
                return f"ndarray.{n.attr} = ..."
            if isinstance(n.value, ast.Attribute) and n.value.attr == "flags":
                return f"ndarray.flags.{n.attr} = ..."
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Attribute) \
                and n.value.attr == "flags":
            return "ndarray.flags[...] = ..."
    return None


def _array_test(test, np_names) -> bool:
    for n in ast.walk(test):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr in _REDUCING:
                return True
            while isinstance(f, ast.Attribute):
                f = f.value
            if isinstance(f, ast.Name) and f.id in np_names:
                return True
    return False


def _holds_array_test(stmts, np_names) -> bool:
    """An ``if`` nested in ``stmts`` tests array values: the ``if`` holding it is cut too, so that the nested one
    becomes a top-level test of the part that holds it, cut in turn when that part compiles."""
    return any(isinstance(n, ast.If) and _array_test(n.test, np_names)
               for s in stmts for n in ast.walk(s))


def _cut(fn, tree, np_names, compile_body, recorder):
    if fn.__code__.co_cellvars:
        return None
    i = next((k for k, s in enumerate(tree.body) if isinstance(s, ast.If) and (
        _array_test(s.test, np_names) or _holds_array_test(s.body + s.orelse, np_names))), None)
    if i is None:
        return None
    try:
        return _build(fn, tree, i, compile_body, recorder)
    except _UNAVAILABLE:
        return None


def _build(fn, tree, i, compile_body, recorder):
    body, s = tree.body, tree.body[i]
    before, after = body[:i], body[i + 1:]
    if L._check_body(before, top=False):  # a return before the test
        raise L._Skip
    a = tree.args
    params = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x]
    bound = L._flow(before, frozenset(params), set()) | L._stores(s.test)
    assigned = set(params) | L._stores(ast.Module(body=before, type_ignores=[])) | L._stores(s.test)
    later = set().union(*(L._loads(x) for x in s.body + s.orelse + after))
    carry = sorted(assigned & later)
    if not set(carry) <= bound:
        raise L._Skip  # might be unbound: the rest would raise where Python raises only on some path
    test = L._PREFIX + "test"
    first = copy.deepcopy(tree)
    first.name = L._PREFIX + "part"
    first.args.defaults, first.args.kw_defaults = [], [None] * len(first.args.kwonlyargs)  # set at run time
    first.returns = None
    for x in ast.walk(first.args):
        if isinstance(x, ast.arg):
            x.annotation = None
    first.body = before + [ast.copy_location(ast.Assign(targets=[L._name(test, True)], value=s.test), s),
                           ast.copy_location(ast.Return(value=ast.Tuple(
                               elts=[L._name(n) for n in carry] + [L._name(test)], ctx=ast.Load())), s)]
    then = L._def(L._PREFIX + "then", carry, s.body + after, s)
    other = L._def(L._PREFIX + "else", carry, (s.orelse + after) or [ast.Pass()], s)
    defs = [first, then, other]
    codes = L._codes(fn, defs, ())
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    line = s.lineno

    def make(d, label, defaults=None, kwdefaults=None):
        c = codes[d.name].replace(co_name=f"{fn.__code__.co_name}<{label}>",
                                  co_qualname=f"{fn.__qualname__}<{label}>")
        f = types.FunctionType(c, fn.__globals__, c.co_name, defaults, tuple(cells[v] for v in c.co_freevars))
        f.__kwdefaults__ = kwdefaults
        f._npc_tree = d  # cut and outlined again when compiled
        return f

    part = compile_body(make(first, f"before the test at line {line}", fn.__defaults__, fn.__kwdefaults__))
    rest = [make(then, f"if at line {line}"), make(other, f"else at line {line}")]  # compiled when first taken

    def driver(*args, **kwargs):
        # Called from Dynamo-compiled code, the driver is no frame for Dynamo (skip_code below), and its calls
        # neither: the compiled parts set Dynamo's frame hook themselves.
        prior = _set_eval_frame(None)
        try:
            rec = recorder()
            *vals, go = _call(part, rec, args, kwargs)
            k = 0 if go else 1
            f = rest[k]
            if not hasattr(f, "__npcompile_state__"):
                f = rest[k] = compile_body(f)
            return _call(f, rec, vals, {})
        finally:
            if prior is not None:
                _set_eval_frame(prior)

    driver._npc_driver = True
    _patch.skip_code(driver.__code__)
    return driver


def _call(f, rec, args, kwargs):
    """``f(*args, **kwargs)``, its graphs and breaks reported to ``rec`` (the caller's ``explain``) if any."""
    if rec is None:
        return f(*args, **kwargs)
    st = f.__npcompile_state__
    st._recorder = rec
    try:
        return f(*args, **kwargs)
    finally:
        st._recorder = None


__all__ = ["rewrite"]
