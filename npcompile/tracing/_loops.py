"""Loop outlining: a Python loop over array code runs as plain Python calling its body, compiled once.

TorchDynamo unrolls a Python loop into the graph it traces (a 50-step time loop becomes 50 copies of the step:
compile time grows with the trip count, and Inductor cannot fuse stencil steps anyway), and it cannot resume
inside a loop after a graph break (a ``while`` on an array value nests one more resume frame per iteration).
So ``compile()`` rewrites the function's source first (``outline``): each top-level loop whose body works on
arrays becomes a call to a runner that iterates in plain Python and calls the loop body, made a function of
the loop state and compiled with the same settings, once per iteration.  The runner is ``torch._dynamo.disable``d:
a deliberate graph break that ``explain`` reports as an outlined loop; code before and after the loop are
graphs of their own.

``break``, ``continue`` and ``return`` in the body (an iterative solver's convergence test) become returns of the
body function with a flag the runner acts on; Dynamo itself would recompile the code after such a test once per
iteration (its resume frame is specialised on the loop counter) and give up after 16, running the rest in NumPy.

A loop over an array's items whose body works on its items and state alone (no indexing, no NumPy names: Kahan
summation, Horner's rule) is outlined only over a long array, decided when the code runs; over a 1-D array's
elements with scalar state it runs as written, in NumPy, where a compiled call per element would cost more.
Loops over literal ranges of a few items and over a dict's entries stay with Dynamo, which unrolls them.

The rewrite is exact or not done: a loop whose meaning could change (loop ``else``, nested scopes, names that may
be unbound other than the loop variable, closures over loop variables...) is left to Dynamo, and a function whose
source is unavailable or does not compile back to its own bytecode is returned unchanged.
"""

from __future__ import annotations

import __future__
import ast
import copy
import dis
import inspect
import textwrap
import types

import numpy as np
import torch

from ..fallback import OUTLINED_LOOP

# A loop over a literal range (or tuple/list display) of at most this many items stays unrolled: short
# loops fuse across iterations and compile quickly.
_UNROLL_MAX = 8
# A loop over a literal range of at most this many items whose body draws from a generator the function seeds with a
# constant before it stays unrolled too: Dynamo folds each draw into the graph as NumPy's exact values, where an
# outlined body is given the generator as an argument, whose draws run in NumPy (a graph break per iteration).
_UNROLL_DRAWS = 128
# A loop over an array whose body indexes nothing and names no NumPy (a running sum over the elements, Horner's
# rule over the coefficients) stays unrolled over at most this many items.
_UNROLL_ITEMS = 16


class _Unbound:
    """The value a loop variable not bound yet has in the runner (see _plan_loop): a scalar to it."""


_SCALAR_TYPES = frozenset({int, float, complex, bool, str, type(None), _Unbound} | set(np.sctypeDict.values()))
_PREFIX = "_npc_"  # generated names; a function using such names is left alone
_UNBOUND, _UNBOUND_MARK = _PREFIX + "unbound", _Unbound()
_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag
_NOT_PLAIN = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE
_LOOP_OPCODES = frozenset(op for name, op in dis.opmap.items() if "BACKWARD" in name)  # a loop jumps back
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
# Constructs a loop body must not contain (they act outside the body or need the function's own frame).
_BODY_BANNED = _SCOPES + (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal, ast.Delete,
                          ast.Match, ast.AsyncFor, ast.AsyncWith)
# How an outlined body ended (its last result, after the state): ran to the end or ``continue``d, ``break``,
# or ``return`` (the value comes after the flag).
_NEXT, _BREAK, _RETURN = 0, 1, 2
# Names whose use makes a name-based analysis of the function unsound.
_INTROSPECTION = {"locals", "vars", "eval", "exec", "globals", "super", "dir"}


class _Skip(Exception):
    """Leave this loop (or the whole function) as it is."""


def outline(fn, compile_body, recorder, tree=None):
    """``fn`` with its array loops outlined, or ``fn`` itself when there is nothing (safe) to outline.

    compile_body(f) compiles a loop body; recorder() gives the caller's ``explain`` recorder (or None), which
    the bodies share while the loop runs; ``tree``: ``fn``'s parsed source when the caller has it (rewritten
    here)."""
    if type(fn) is not types.FunctionType or fn.__code__.co_flags & _NOT_PLAIN or getattr(fn, "_npc_outlined", 0) \
            or _LOOP_OPCODES.isdisjoint(fn.__code__.co_code[::2]):
        return fn
    try:
        tree = _function_tree(fn) if tree is None else tree
        plans = _plan(fn, tree)
        if not plans:
            return fn
        return _build(fn, tree, plans, compile_body, recorder)
    except (_Skip, OSError, TypeError, SyntaxError, ValueError):
        return fn


# --------------------------------------------------------------------------------------------------------------
# Source and the bytecode check.
# --------------------------------------------------------------------------------------------------------------


def _function_tree(fn) -> ast.FunctionDef:
    made = getattr(fn, "_npc_tree", None)  # a function npcompile made (``_branches``): its tree travels with it
    if made is not None:
        return copy.deepcopy(made)
    code = fn.__code__
    if code.co_name == "<lambda>":
        raise _Skip
    mod = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    if len(mod.body) != 1 or type(mod.body[0]) is not ast.FunctionDef or mod.body[0].name != code.co_name:
        raise _Skip
    node = mod.body[0]
    ast.increment_lineno(node, code.co_firstlineno - 1)
    node.decorator_list = []
    node.lineno = code.co_firstlineno  # a decorated function's code starts at its first decorator
    ids = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {a.arg for a in ast.walk(node)
                                                                       if isinstance(a, ast.arg)}
    if any(i.startswith(_PREFIX) for i in ids) or ids & _INTROSPECTION:
        raise _Skip
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(node)):
        raise _Skip
    # The source must be the code's own (not an edited file, no name mangling, no implicit __class__ cell).
    check = _codes(fn, [copy.deepcopy(node)], ())
    if _shape(check[code.co_name]) != _shape(code):
        raise _Skip
    return node


def _shape(code) -> tuple:
    """The code's instructions (jumps as instruction indices, with line numbers) and names.  Equal for the
    same source compiled elsewhere, except that CPython 3.11 loads a method of an imported module with
    LOAD_ATTR and of any other name with LOAD_METHOD: both count as LOAD_ATTR."""
    ins = list(dis.get_instructions(code))
    index = {i.offset: k for k, i in enumerate(ins)}
    jumps = set(dis.hasjrel) | set(dis.hasjabs)
    ops = tuple(("LOAD_ATTR" if i.opname == "LOAD_METHOD" else i.opname,
                 index.get(i.argval) if i.opcode in jumps else
                 _shape(i.argval) if isinstance(i.argval, types.CodeType) else i.argval,
                 i.positions.lineno if i.positions else None) for i in ins)
    return ops, code.co_varnames, code.co_freevars, code.co_cellvars


def _codes(fn, defs, extra_cells) -> dict:
    """Compile ``defs`` as functions nested in a factory whose parameters are ``fn``'s free variables and
    ``extra_cells``, so that those names compile as closure variables; return the code objects by name."""
    params = list(fn.__code__.co_freevars) + list(extra_cells)
    factory = ast.FunctionDef(name=_PREFIX + "factory", args=_arguments(params), body=defs + [ast.Pass()],
                              decorator_list=[], returns=None, type_comment=None)
    ast.copy_location(factory, defs[0])
    mod = ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[]))
    top = compile(mod, fn.__code__.co_filename, "exec", flags=fn.__code__.co_flags & _FUTURE_FLAGS,
                  dont_inherit=True)
    fcode = next(c for c in top.co_consts if isinstance(c, types.CodeType))
    return {c.co_name: c for c in fcode.co_consts if isinstance(c, types.CodeType)}


def _arguments(names) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


# --------------------------------------------------------------------------------------------------------------
# Name analysis.
# --------------------------------------------------------------------------------------------------------------


def _loads(node) -> set:
    """Names the code reads from the function's scope (a superset inside nested functions)."""
    out: set = set()
    _collect_loads(node, out)
    return out


def _collect_loads(node, out):
    if isinstance(node, ast.Name):
        if not isinstance(node.ctx, ast.Store):
            out.add(node.id)
        return
    if isinstance(node, _COMPS):
        gens = node.generators
        _collect_loads(gens[0].iter, out)
        inner: set = set()
        for i, g in enumerate(gens):
            _collect_loads(g.target, inner)
            if i:
                _collect_loads(g.iter, inner)
            for c in g.ifs:
                _collect_loads(c, inner)
        for e in ((node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,)):
            _collect_loads(e, inner)
        own = {n.id for g in gens for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        out |= inner - own
        return
    if isinstance(node, _SCOPES):
        out.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
        return
    for child in ast.iter_child_nodes(node):
        _collect_loads(child, out)


def _stores(node) -> set:
    """Names the code binds in the function's scope."""
    out: set = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name):
            if not isinstance(n.ctx, ast.Load):
                out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.Lambda):
            continue
        elif isinstance(n, _COMPS):
            if any(isinstance(m, ast.NamedExpr) for m in ast.walk(n)):
                raise _Skip  # binds in the enclosing scope
            continue
        todo.extend(ast.iter_child_nodes(n))
    return out


def _flow(stmts, defined: frozenset, exposed: set) -> frozenset:
    """Names surely bound after ``stmts`` given ``defined`` before; adds to ``exposed`` the names that may be
    read before being bound."""
    for s in stmts:
        defined = _flow_stmt(s, defined, exposed)
    return defined


def _flow_stmt(s, defined, exposed):
    def use(node):
        if node is not None:
            exposed.update(_loads(node) - defined)

    if isinstance(s, ast.If):
        use(s.test)
        return _flow(s.body, defined, exposed) & _flow(s.orelse, defined, exposed)
    if isinstance(s, ast.For):
        use(s.iter)
        use(s.target)
        _flow(s.body, defined | _stores(s.target), exposed)
        _flow(s.orelse, defined, exposed)
        return defined
    if isinstance(s, ast.While):
        use(s.test)
        _flow(s.body, defined, exposed)
        _flow(s.orelse, defined, exposed)
        return defined
    if isinstance(s, ast.With):
        for it in s.items:
            use(it.context_expr)
            use(it.optional_vars)
        return _flow(s.body, defined | set().union(*(_stores(it.optional_vars) for it in s.items
                                                     if it.optional_vars)), exposed)
    if isinstance(s, ast.Try):
        after = _flow(s.body, defined, exposed)
        for h in s.handlers:
            use(h.type)
            _flow(h.body, defined | ({h.name} if h.name else set()), exposed)
        _flow(s.orelse, after, exposed)
        _flow(s.finalbody, defined, exposed)
        return defined
    if isinstance(s, (ast.Match, ast.AsyncFor, ast.AsyncWith)) or type(s).__name__ == "TryStar":
        raise _Skip
    if isinstance(s, ast.AugAssign):
        use(s.value)
        use(s.target)
        exposed.update(_stores(s.target) - defined)  # x += 1 reads x
        return defined | _stores(s.target)
    use(s)
    if isinstance(s, ast.Delete):
        return defined - _stores(s)
    if isinstance(s, ast.AnnAssign) and s.value is None:
        return defined
    return defined | _stores(s)


def _check_body(stmts, top=True) -> set:
    """Raise _Skip if the loop body has a construct that acts outside it (a nested scope, ``yield``...); return
    the kinds of exit it has: ast.Break / ast.Continue of this loop, ast.Return."""
    exits = set()
    for s in stmts:
        for n in _walk_here(s):
            if isinstance(n, _BODY_BANNED):
                raise _Skip
            if isinstance(n, ast.Return) or (top and isinstance(n, (ast.Break, ast.Continue))):
                exits.add(type(n))
            if isinstance(n, (ast.For, ast.While)):
                exits |= _check_body(n.body, top=False) & {ast.Return}
                exits |= _check_body(n.orelse, top=top)
    return exits


class _Exits(ast.NodeTransformer):
    """Turns the body's ``break``/``continue`` of its loop and its ``return`` into returns of the body function:
    the state, then the next while-test (while loops), the flag and the returned value."""

    def __init__(self, state, test):
        self.state, self.test, self.top = state, test, True

    def _ret(self, node, go, flag, value):
        elts = [_name(n) for n in self.state] + ([go] if self.test is not None else [])
        elts += [ast.Constant(flag), value if value is not None else ast.Constant(None)]
        return ast.copy_location(ast.Return(value=ast.Tuple(elts=elts, ctx=ast.Load())), node)

    def visit_Break(self, node):
        return self._ret(node, ast.Constant(False), _BREAK, None) if self.top else node

    def visit_Continue(self, node):
        return self._ret(node, copy.deepcopy(self.test), _NEXT, None) if self.top else node

    def visit_Return(self, node):
        return self._ret(node, ast.Constant(False), _RETURN, node.value)

    def _loop(self, node):  # a nested loop: its body's break/continue are its own
        top, self.top = self.top, False
        node.body = [self.visit(x) for x in node.body]
        self.top = top
        node.orelse = [self.visit(x) for x in node.orelse]
        return node

    visit_For = visit_While = _loop


def _walk_here(node):
    """The nodes of one statement, not entering nested loops' bodies (``_check_body`` handles those)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, (ast.For, ast.While)):
            continue
        todo.extend(ast.iter_child_nodes(n))


# --------------------------------------------------------------------------------------------------------------
# Which loops, and with which state.
# --------------------------------------------------------------------------------------------------------------


class _Plan:
    """One loop to outline: its index in the function body, the names carried through it (``state``, bound
    before the loop, rebound in it and read in it or after it), the names it only reads (``reads``), and
    whether the body needs the loop item."""

    def __init__(self, index, node, state, reads, with_item, exits, parts, appended, guarded, unbound):
        self.index, self.node, self.state, self.reads, self.with_item = index, node, state, reads, with_item
        self.exits = exits  # the kinds of exit in the body (ast.Break, ast.Continue, ast.Return)
        self.parts = parts  # the body cut at its exit tests (see _parts), or None
        self.appended = appended  # the lists among ``reads`` the body only appends to (see _only_appended)
        self.guarded = guarded  # outlined only when it runs over a long array (see _long_array)
        self.unbound = unbound  # the loop variable, when unbound before the loop and read after it


def _plan(fn, tree) -> list:
    code = fn.__code__
    local = set(code.co_varnames) | set(code.co_cellvars)
    cells = set(code.co_cellvars)
    np_names = _numpy_names(fn, tree)
    a = tree.args
    defined = frozenset(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x)
    # names whose list another name may reach: parameters (but lists a runner made for this body) and cells
    shared = (defined - getattr(tree, "_npc_fresh", frozenset())) | cells
    plans = []
    body = tree.body
    for i, s in enumerate(body):
        p = None
        if type(s) in (ast.For, ast.While) and not s.orelse:
            try:
                p = _plan_loop(i, s, body[:i], body[i + 1:], defined, local, cells, np_names, fn, shared)
            except _Skip:
                p = None
        if p is not None:
            plans.append(p)
        else:
            defined = _flow_stmt(s, defined, set())
    return plans


def _plan_loop(i, s, before, after, defined, local, cells, np_names, fn, shared):
    looped = s.body + ([s.test] if isinstance(s, ast.While) else [])
    if isinstance(s, ast.For) and (_short_literal(s.iter, fn) or _dict_view(s.iter)
                                   or _short_literal(s.iter, fn, _UNROLL_DRAWS) and _draws_seeded(s, before, fn)):
        return None
    # A body that indexes nothing and names no NumPy works on its items and state alone: outlined only when
    # it runs over a long array (an unrolled loop over an array's elements grows the trace with the array).
    guarded = not any(isinstance(n, ast.Subscript) or (isinstance(n, ast.Name) and n.id in np_names)
                      for x in looped for n in ast.walk(x))
    if guarded and (isinstance(s, ast.While) or _builtin_range(s.iter, fn)):
        return None
    exits = _check_body(s.body)
    exposed: set = set()
    if isinstance(s, ast.For):
        target = _stores(s.target)
        exposed |= _loads(s.target)
        _flow(s.body, frozenset(target), exposed)
    else:
        target = set()
        exposed |= _loads(s.test)
        _flow(s.body, frozenset(), exposed)
    assigned = target | _stores(ast.Module(body=s.body, type_ignores=[]))
    if assigned & cells:
        raise _Skip  # a nested function sees these names: they must stay the function's own variables
    live_after: set = set()  # names the code after the loop may read before binding them (a second loop's i: no)
    _flow(after, frozenset(), live_after)
    state = assigned & (exposed | live_after) & local
    reads = (exposed & local) - assigned
    unbound = None
    if not (state | reads) <= defined:
        # ``for it in range(n): ...; return x, it``: the loop variable, bound nowhere before the loop, starts
        # as a marker the runner carries (the body binds it before any read) and is deleted again when the loop
        # ran no iteration.  Other names that might be unbound: the loop would raise where Python raises only on
        # some path.
        name = s.target.id if isinstance(s, ast.For) and isinstance(s.target, ast.Name) else None
        if (state | reads) - defined != {name} or name in exposed or name in _stores(ast.Module(before, [])):
            raise _Skip
        unbound = name
    with_item = True
    if isinstance(s, ast.For) and isinstance(s.target, ast.Name) and s.target.id not in state:
        with_item = any(isinstance(n, ast.Name) and n.id == s.target.id for x in s.body for n in ast.walk(x))
    state, reads = sorted(state), sorted(reads)
    parts = _parts(s, state, reads, target) if exits else None
    appended = [n for n in reads if n not in shared and _only_appended(n, before, s)]
    return _Plan(i, s, state, reads, with_item, exits, parts, appended, guarded, unbound)


def _only_appended(name, before, loop) -> bool:
    """``name`` holds a list that nothing else can reach, which the loop only appends to: before the loop it is
    bound only by list displays (``hist = []``; or it is a body's parameter its runner hands over fresh, see
    _plan) and used only in ``name.append(x)`` statements, and in the loop only in those.  The runner then
    gives the body a new empty list each iteration and extends the real one after it: the same appends in the
    same order, where appending to the one list (whose length Dynamo guards) recompiled the body every
    iteration."""
    allowed = set()
    for n in (n for s in before + [loop] for n in ast.walk(s)):
        if type(n) is ast.Expr and type(n.value) is ast.Call:
            f, call = n.value.func, n.value
            if (type(f) is ast.Attribute and f.attr == "append" and type(f.value) is ast.Name and f.value.id == name
                    and len(call.args) == 1 and not call.keywords and type(call.args[0]) is not ast.Starred):
                allowed.add(id(f.value))
        elif type(n) is ast.Assign:
            for t, v in _pairs(n):
                if type(t) is ast.Name and t.id == name and type(v) is ast.List:
                    allowed.add(id(t))
        elif isinstance(n, (ast.Import, ast.ImportFrom, ast.ExceptHandler, *_SCOPES)) and name in _stores(n):
            return False  # bound to something else
    return all(id(n) in allowed for s in before + [loop] for n in ast.walk(s)
               if type(n) is ast.Name and n.id == name)


def _pairs(assign):
    """The (target, value) pairs of a single-target assignment, element by element for ``a, b = x, y`` (none
    for ``a = b = x``: both names get the one value)."""
    if len(assign.targets) != 1:
        return []
    t, v = assign.targets[0], assign.value
    if type(t) in (ast.Tuple, ast.List) and type(v) in (ast.Tuple, ast.List) and len(t.elts) == len(v.elts) \
            and not any(type(e) is ast.Starred for e in t.elts + v.elts):
        return list(zip(t.elts, v.elts))
    return [(t, v)]


def _exit_test(s) -> bool:
    """``if test: break`` (or ``continue``, or ``return`` of names and constants, cheap to compute early; also in
    tuples, as an outer loop's body returns them: see _Exits)."""
    if type(s) is not ast.If or s.orelse or len(s.body) != 1:
        return False
    e = s.body[0]
    if type(e) is ast.Return:
        return e.value is None or _names_and_constants(e.value)
    return type(e) in (ast.Break, ast.Continue)


def _names_and_constants(v) -> bool:
    return type(v) in (ast.Name, ast.Constant) or type(v) is ast.Tuple and all(map(_names_and_constants, v.elts))


def _parts(s, state, reads, target):
    """The loop body cut at its top-level exit tests, when those are all its exits: [(statements, names
    taken, names added, exit test or None)], each piece's names being the last one's plus those it binds that
    later code reads.  A body with an exit test breaks Dynamo's graph there on every iteration (the test is a
    data-dependent branch), which costs as much as several graphs; cut, each piece compiles to a graph of its
    own and the runner makes the tests in Python.  None when there are other exits, or a name that later
    code reads might be unbound at a cut."""
    body = s.body
    cuts = [k for k, x in enumerate(body) if _exit_test(x)]
    if not cuts or _check_body([x for k, x in enumerate(body) if k not in cuts]):
        return None
    chunks = [body[a + 1:b] for a, b in zip([-1] + cuts, cuts + [len(body)])]
    tests = [body[k] for k in cuts]
    tail = [s.test] if isinstance(s, ast.While) else []
    carry, parts = list(state), []
    bound = frozenset(state) | frozenset(reads) | frozenset(target)
    assigned = set(target)
    for i, chunk in enumerate(chunks):
        bound = _flow(chunk, bound, set())
        assigned |= _stores(ast.Module(body=chunk, type_ignores=[]))
        if i == len(tests):
            if chunk or tail:  # (after a last test with nothing behind it, the state is the last part's)
                parts.append((chunk, carry, [], None))
            break
        bound |= _stores(tests[i].test)
        assigned |= _stores(tests[i].test)
        later = set().union(*(_loads(x) for x in [tests[i]] + [y for c in chunks[i + 1:] for y in c]
                              + tests[i + 1:] + tail))
        new = sorted((assigned & later) - set(carry))
        if not set(new) <= bound:
            return None
        parts.append((chunk, carry, new, tests[i]))
        carry = carry + new
    return parts


def _builtin_range(it, fn) -> bool:
    """``it`` is a call of the builtin ``range`` with one to three plain arguments."""
    return (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and not it.keywords and 1 <= len(it.args) <= 3 and not any(isinstance(a, ast.Starred) for a in it.args)
            and "range" not in fn.__code__.co_varnames + fn.__code__.co_cellvars + fn.__code__.co_freevars
            and "range" not in fn.__globals__)


def _short_literal(it, fn, most=_UNROLL_MAX) -> bool:
    """A literal ``range(...)`` or tuple/list display of at most ``most`` items."""
    if isinstance(it, (ast.Tuple, ast.List)):
        return not any(isinstance(e, ast.Starred) for e in it.elts) and len(it.elts) <= most
    if not _builtin_range(it, fn):
        return False
    try:
        vals = [ast.literal_eval(x) for x in it.args]
    except ValueError:
        return False
    return all(type(v) is int for v in vals) and len(range(*vals)) <= most


def _draws_seeded(loop, before, fn) -> bool:
    """The loop body, which has no loops of its own (unrolled, they would multiply its length), calls a method of a
    name that the statements ``before`` it last bound, at the top level, to ``numpy.random.default_rng(<int
    literal>)``: a generator whose draws Dynamo folds (see _UNROLL_DRAWS)."""
    if any(isinstance(n, (ast.For, ast.While)) for x in loop.body for n in ast.walk(x)):
        return False
    seeded = set()
    for x in before:
        stored = _stores(x)
        seeded -= stored
        if type(x) is ast.Assign and len(x.targets) == 1 and type(x.targets[0]) is ast.Name \
                and _constant_rng(x.value, fn):
            seeded |= stored
    return any(type(n) is ast.Call and type(n.func) is ast.Attribute and type(n.func.value) is ast.Name
               and n.func.value.id in seeded for x in loop.body for n in ast.walk(x))


def _constant_rng(v, fn) -> bool:
    """``v`` is ``np.random.default_rng(k)`` (or ``default_rng(seed=k)``) with ``k`` an int literal."""
    if type(v) is not ast.Call or len(v.args) + len(v.keywords) != 1:
        return False
    seed = v.args[0] if v.args else v.keywords[0].value if v.keywords[0].arg == "seed" else None
    if type(seed) is not ast.Constant or type(seed.value) is not int:
        return False
    f = v.func
    if type(f) is ast.Name:
        return fn.__globals__.get(f.id) is np.random.default_rng
    return (type(f) is ast.Attribute and f.attr == "default_rng" and type(f.value) is ast.Attribute
            and f.value.attr == "random" and type(f.value.value) is ast.Name
            and getattr(fn.__globals__.get(f.value.value.id), "random", None) is np.random)


def _dict_view(it) -> bool:
    """``d.items()``, ``d.keys()`` or ``d.values()``: a dict's entries, which Dynamo unrolls with their keys as
    constants; an outlined body would be compiled anew for each key it is given (a str or int item is guarded
    by value)."""
    return (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args and not it.keywords
            and it.func.attr in ("items", "keys", "values"))


def _numpy_names(fn, tree) -> set:
    """Names that refer to NumPy (the module, a submodule or a NumPy function) in ``fn``."""
    def is_np(v):
        name = v.__name__ if isinstance(v, types.ModuleType) else getattr(v, "__module__", None)
        return isinstance(name, str) and (name == "numpy" or name.startswith("numpy."))

    out = {k for k, v in fn.__globals__.items() if is_np(v)}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            if is_np(cell.cell_contents):
                out.add(name)
        except ValueError:  # empty cell
            pass
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            mod = getattr(n, "module", None) or ""
            for al in n.names:
                if (mod or al.name).split(".")[0] == "numpy":
                    out.add((al.asname or al.name).split(".")[0])
    return out


# --------------------------------------------------------------------------------------------------------------
# The rewrite and the runners.
# --------------------------------------------------------------------------------------------------------------


def _name(n, store=False):
    return ast.Name(id=n, ctx=ast.Store() if store else ast.Load())


def _build(fn, tree, plans, compile_body, recorder):
    code = fn.__code__
    if tree.name.startswith(_PREFIX):  # a loop body (or part) npcompile made: its own bodies take such names
        tree.name = _PREFIX + "outlined"
    defs = []
    body = list(tree.body)
    inserted = 0
    for k, p in enumerate(plans):
        s = p.node
        # (copied before _Exits rewrites the body's break/continue/return in place) the loop as it is, for a short
        # iterable, and as a function of the items, the state and the reads, for the runner to run over scalars
        unrolled = copy.deepcopy(s) if p.guarded else None
        whole = copy.deepcopy(s) if p.guarded and ast.Return not in p.exits else None
        params = p.state + p.reads
        stmts = list(s.body)
        ret = [_name(n) for n in p.state]
        if isinstance(s, ast.For):
            if p.with_item:
                params = [_PREFIX + "item"] + params
                stmts.insert(0, ast.copy_location(ast.Assign(targets=[s.target], value=_name(_PREFIX + "item")),
                                                  s))
            # range(...) is made in the runner: handed over built, its bounds would be constants to Dynamo (a
            # recompile of the code around the loop for every new trip count)
            call_args = [ast.Tuple(elts=s.iter.args, ctx=ast.Load()) if _builtin_range(s.iter, fn) else
                         _name(f"{_PREFIX}iter{k}") if p.guarded else s.iter]
        else:
            ret.append(copy.deepcopy(s.test))
            call_args = []
            defs.append(_def(f"{_PREFIX}cond{k}", p.state + p.reads, [ast.Return(value=copy.deepcopy(s.test))], s))
        if p.parts:
            first = params[:len(params) - len(p.state) - len(p.reads)]  # the item, if the body takes it
            stmts = stmts[:len(stmts) - len(s.body)]  # the item's assignment, if any
            for j, (chunk, carry, added, test) in enumerate(p.parts):
                if test is None:
                    ret_j = ret
                else:
                    e = test.body[0]
                    value = e.value if type(e) is ast.Return else s.test if (
                        type(e) is ast.Continue and isinstance(s, ast.While)) else None
                    # the test first: it may bind names (a walrus) that the part gives
                    chunk = chunk + [ast.copy_location(ast.Assign(targets=[_name(_PREFIX + "test", True)],
                                                                  value=copy.deepcopy(test.test)), test)]
                    ret_j = [_name(n) for n in carry + added] + [_name(_PREFIX + "test"),
                                                                  copy.deepcopy(value) or ast.Constant(None)]
                defs.append(_def(f"{_PREFIX}body{k}_{j}", (first if j == 0 else []) + carry + p.reads,
                                 (stmts if j == 0 else []) + chunk
                                 + [ast.Return(value=ast.Tuple(elts=ret_j, ctx=ast.Load()))], s))
        else:
            if p.exits:
                exits = _Exits(p.state, s.test if isinstance(s, ast.While) else None)
                stmts = [exits.visit(x) for x in stmts]
                ret += [ast.Constant(_NEXT), ast.Constant(None)]
            defs.append(_def(f"{_PREFIX}body{k}", params,
                             stmts + [ast.Return(value=ast.Tuple(elts=ret, ctx=ast.Load()))], s))
        call = ast.Call(func=_name(f"{_PREFIX}run{k}"), args=call_args + [_name(n) for n in params
                                                                          if n != _PREFIX + "item"], keywords=[])
        # the runner gives the state, and after a body with exits whether it returned and what
        targets = [_name(n, True) for n in p.state]
        if p.exits:
            targets = [_name(f"{_PREFIX}returned{k}", True), _name(f"{_PREFIX}value{k}", True)] + targets
        if targets:
            new = ast.Assign(targets=[ast.Tuple(elts=targets, ctx=ast.Store())], value=call)
        else:
            new = ast.Expr(value=call)
        here = [new]
        if p.unbound:  # it = _npc_unbound; <the runner>; if it is _npc_unbound: del it
            here = [ast.Assign(targets=[_name(p.unbound, True)], value=_name(_UNBOUND)), new,
                    ast.If(test=ast.Compare(left=_name(p.unbound), ops=[ast.Is()], comparators=[_name(_UNBOUND)]),
                           body=[ast.Delete(targets=[ast.Name(id=p.unbound, ctx=ast.Del())])], orelse=[])]
        if ast.Return in p.exits:
            here.append(ast.If(test=_name(f"{_PREFIX}returned{k}"),
                               body=[ast.Return(value=_name(f"{_PREFIX}value{k}"))], orelse=[]))
        if p.guarded:  # it = <iterable>; if _npc_long(it): <the runner> else: for <target> in it: <body>
            if whole is not None:
                whole.iter = _name(_PREFIX + "items")
                defs.append(_def(f"{_PREFIX}whole{k}", [_PREFIX + "items"] + p.state + p.reads,
                                 [whole, ast.Return(value=ast.Tuple(elts=[_name(n) for n in p.state],
                                                                    ctx=ast.Load()))], s))
            unrolled.iter = _name(f"{_PREFIX}iter{k}")
            here = [ast.Assign(targets=[_name(f"{_PREFIX}iter{k}", True)], value=s.iter),
                    ast.If(test=ast.Call(func=_name(_PREFIX + "long"), args=[_name(f"{_PREFIX}iter{k}")], keywords=[]),
                           body=here, orelse=[unrolled])]
        at = p.index + inserted
        body[at:at + 1] = [ast.copy_location(x, s) for x in here]
        inserted += len(here) - 1
    tree.body = body
    runners = [f"{_PREFIX}run{k}" for k in range(len(plans))]
    codes = _codes(fn, [tree] + defs, runners + [_PREFIX + "long", _UNBOUND])
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    cells[_PREFIX + "long"] = types.CellType(_long_array)
    cells[_UNBOUND] = types.CellType(_UNBOUND_MARK)

    def make(c, name, qualname, defaults=None):
        c = c.replace(co_name=name, co_qualname=qualname)
        return types.FunctionType(c, fn.__globals__, name, defaults, tuple(cells[v] for v in c.co_freevars))

    trees = {d.name: d for d in defs}

    def body(name, label, qualname, appended):
        """The body compiled, and as it is (for iterations on scalars alone, see _runner)."""
        f = make(codes[name], label, qualname)
        f._npc_tree = trees[name]  # cut at its array tests and its loops outlined when compiled (_branches)
        f._npc_tree._npc_fresh = frozenset(appended)  # lists its runner makes anew (see _only_appended)
        return compile_body(f), f

    for k, p in enumerate(plans):
        line = p.node.lineno
        label = f"{code.co_name}<loop at line {line}>"
        qualname = f"{fn.__qualname__}<loop at line {line}>"
        n = len(p.state)
        is_while = isinstance(p.node, ast.While)
        if p.parts:
            pairs = [body(f"{_PREFIX}body{k}_{j}", f"{label[:-1]}, part {j + 1}>", f"{qualname[:-1]}, part {j + 1}>",
                          p.appended) for j in range(len(p.parts))]
            widths = [len(c) + len(a) if t else n for _, c, a, t in p.parts]
            flags = [_exit_flag(t) for _, _, _, t in p.parts]
            compiled, plain = (_cut_iteration(list(bodies), widths, flags, n) for bodies in zip(*pairs))
        else:
            pairs = [body(f"{_PREFIX}body{k}", label, qualname, p.appended)]
            compiled, plain = (_iteration(b, n, is_while, bool(p.exits)) for b in pairs[0])
        cond = make(codes[f"{_PREFIX}cond{k}"], label, label) if is_while else None
        whole = codes.get(f"{_PREFIX}whole{k}")
        whole = whole and make(whole, label, qualname)
        ranged = not is_while and _builtin_range(p.node.iter, fn)
        appended = tuple(p.reads.index(a) for a in p.appended)
        run = _runner(compiled, plain, whole, cond, n, p.with_item, bool(p.exits),
                      _SharedRecorder([c for c, _ in pairs], recorder), ranged, appended)
        reason = f"{OUTLINED_LOOP} at line {line}"
        cells[runners[k]] = types.CellType(torch._dynamo.disable(run, reason=reason))
    new = make(codes[tree.name], code.co_name, code.co_qualname, fn.__defaults__)
    new._npc_outlined = True  # rewritten already (its bodies carry their trees, _npc_tree, and are rewritten)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    return new


def _def(name, params, stmts, loc) -> ast.FunctionDef:
    d = ast.FunctionDef(name=name, args=_arguments(params), body=stmts, decorator_list=[], returns=None,
                        type_comment=None)
    return ast.copy_location(d, loc)


class _SharedRecorder:
    """While a loop runs under ``explain``, its body's graphs and breaks go to the caller's report."""

    def __init__(self, bodies, recorder):
        self.states = [body.__npcompile_state__ for body in bodies]
        self.recorder = recorder

    def __enter__(self):
        rec = self.recorder()
        for st in self.states:
            st._recorder = rec

    def __exit__(self, *exc):
        for st in self.states:
            st._recorder = None


def _exit_flag(test):
    return None if test is None else {ast.Break: _BREAK, ast.Continue: _NEXT, ast.Return: _RETURN}[
        type(test.body[0])]


def _iteration(body, n_state, is_while, exits):
    """One call of a whole body as ``(flag, value, state)``: how it ended, the returned value (while loops:
    the next test when it ran to the end or continued), the state after it."""
    def one(item, state, reads):
        out = body(*item, *state, *reads)
        if not exits:
            return _NEXT, out[n_state] if is_while else None, out[:n_state]
        flag, value = out[-2:]
        return flag, out[n_state] if is_while and flag == _NEXT else value, out[:n_state]

    return one


def _cut_iteration(parts, widths, flags, n_state):
    """As ``_iteration`` for a body cut at its exit tests (``_parts``): each part gives the names the next
    takes (``widths``: how many), then its exit test and value; the runner takes the exit when the test is
    true, as the ``if`` would.  A last part without a test gives the state (and a while loop's next test)."""
    def one(item, state, reads):
        carry = state
        for j, body in enumerate(parts):
            out = body(*(item if j == 0 else ()), *carry, *reads)
            w = widths[j]
            if flags[j] is None:  # the last part, without a test
                return _NEXT, out[w] if len(out) > w else None, out[:n_state]
            carry = out[:w]
            if out[w]:
                return flags[j], out[w + 1], carry[:n_state]
        return _NEXT, None, carry[:n_state]

    return one


def _runner(compiled, plain, whole, cond, n_state, with_item, exits, shared, ranged, appended):
    """The loop in plain Python around an iteration: a for loop over its iterable (``ranged``: given as the
    arguments of ``range``), or (``cond``, the first test in plain NumPy; each iteration gives the next one from
    its graph) a while loop.  Gives the state, after a body with exits preceded by whether it returned and what.

    An iteration runs ``compiled``, the body's graphs, unless the item, the state and the reads are all
    scalars: then the body as written (``plain``) runs in NumPy, which is faster than a compiled call (a sum
    over an array's elements, a scalar recurrence) and is NumPy's answer.  ``appended``: the positions among
    the reads of lists the body only appends to, given to it anew and empty each iteration (_only_appended).
    ``whole``: the loop as written (a guarded one without ``return``, see _plan_loop), run at once when its items
    are an array's elements and state and reads are scalars: every iteration would run ``plain``."""
    if appended:
        compiled, plain = _appending(compiled, appended), _appending(plain, appended)

    def run(*vals):
        if cond is None:
            items, vals = (range(*vals[0]) if ranged else vals[0]), vals[1:]
        state, reads = vals[:n_state], vals[n_state:]
        # (the reads are not rebound in the loop: checked once)
        scalar = _scalars(tuple(r for i, r in enumerate(reads) if i not in appended))
        if whole is not None and scalar and _scalars(state) and items.ndim == 1 and items.dtype.kind in "biufc":
            state = whole(items, *state, *reads)  # (real lists: appends land as they are made)
            return (False, None, *state) if exits else state
        flag = value = None
        with shared:
            if cond is None:
                for item in items:
                    item = (item,) if with_item else ()
                    flag, value, state = (plain if scalar and _scalars(item) and _scalars(state) else compiled)(
                        item, state, reads)
                    if flag != _NEXT:
                        break
            else:
                go = cond(*vals)
                while go:
                    flag, value, state = (plain if scalar and _scalars(state) else compiled)((), state, reads)
                    if flag != _NEXT:
                        break
                    go = value
        if flag == _RETURN:
            return (True, value, *state)
        return (False, None, *state) if exits else tuple(state)

    return run



def _scalars(values: tuple) -> bool:
    """Every value is a Python or NumPy scalar (a 0-D array included), or None.  (The set test first: this runs
    for every iteration of a loop over an array's elements.)"""
    return _SCALAR_TYPES.issuperset(map(type, values)) or all(
        type(v) in _SCALAR_TYPES or (type(v) is np.ndarray and v.ndim == 0) for v in values)


def _long_array(it) -> bool:
    """Whether a guarded loop (see _plan_loop) over ``it`` is outlined: over an array of more than _UNROLL_ITEMS
    items.  Traced, a fact about the array's shape that Dynamo guards."""
    return isinstance(it, np.ndarray) and it.ndim > 0 and it.shape[0] > _UNROLL_ITEMS


def _appending(iteration, positions):
    """``iteration`` with the lists at ``positions`` of its reads replaced by new empty ones, whose items then
    go to the real lists (also when the body raised: its appends before that happened)."""
    def one(item, state, reads):
        reads = list(reads)
        real = [reads[i] for i in positions]
        for i in positions:
            reads[i] = []
        try:
            return iteration(item, state, reads)
        finally:
            for i, r in zip(positions, real):
                r.extend(reads[i])

    return one


__all__ = ["outline"]
