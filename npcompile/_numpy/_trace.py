"""Whether the shim runs under a tracer, the one test for every value-dependent branch.

Under TorchDynamo, make_fx or fake tensors the values are unknown: checks that read them (singular matrices,
out-of-range parameters, NaN warnings) are skipped there and kept in eager mode.
"""

import weakref

import numpy as np
import torch
from torch._subclasses.fake_tensor import is_fake


def _symbolic_shapes():
    """torch's symbolic-shape module, imported where a trace first needs it: with sympy it took 0.45 s of the
    shim's 0.7 s import, which eager code never uses."""
    from torch.fx.experimental import symbolic_shapes

    return symbolic_shapes


def guard_or_false(cond) -> bool:
    """A size condition's value where the trace knows it, else False (``symbolic_shapes.guard_or_false``)."""
    return cond if type(cond) is bool else _symbolic_shapes().guard_or_false(cond)


def guard_or_true(cond) -> bool:
    return cond if type(cond) is bool else _symbolic_shapes().guard_or_true(cond)


def free_unbacked_symbols(expr):
    """The symbols of a traced size ``expr`` read from the data (u0, u1...), not from an input's shape."""
    return _symbolic_shapes().free_unbacked_symbols(expr)


def is_tracing(t=None) -> bool:
    if torch.compiler.is_compiling() or torch._C._len_torch_dispatch_stack():  # Dynamo, or a fake/proxy mode
        return True
    # a plain tensor is real data; only tensor subclasses (fake, functional wrappers of fake) need the slow test
    return isinstance(t, torch.Tensor) and type(t) is not torch.Tensor and is_fake(t)


# Per ShapeEnv (one per compiled frame, so its u0, u1... name one value each): the text of each runtime assertion
# that a ``check`` added, mapped to the exception it asked for.  ``_errors.numpy_error`` reads it back.
_checks: "weakref.WeakKeyDictionary[object, dict[str, tuple[type, str]]]" = weakref.WeakKeyDictionary()


def check(ok, error: type, message: str) -> None:
    """Raise ``error(message)`` unless ``ok`` (a traced condition on sizes or indices) holds: now where the trace
    can decide it, else when the code runs (a size read from the data: ``np.flatnonzero(m)[0]``,
    ``np.zeros(int(y.max()) + 1)``).  There, torch._check lets the trace go on assuming ``ok`` and records the
    assertion that the compiled code checks (Inductor keeps it: npcompile leaves its scalar_asserts on); torch
    raises a failed one as a RuntimeError naming only its expression, so the expressions it added are recorded
    here with ``error`` and ``message`` (see ``runtime_checks``)."""
    if guard_or_false(ok):
        return
    if not guard_or_true(ok):
        raise error(message)
    env = ok.node.shape_env
    symbols = free_unbacked_symbols(ok.node.expr)
    ranges = {s: env.var_to_range.get(s) for s in symbols}
    known = {id(ra) for ras in env.deferred_runtime_asserts.values() for ra in ras}
    torch._check(ok)
    # what torch asserts for ``ok``: the assertions it deferred, and the bounds it narrowed (asserted as
    # ``u0 >= 1`` and ``u0 <= 4`` where the symbol's value is bound; an equality to a constant is only that)
    texts = [str(ra.expr) for ras in env.deferred_runtime_asserts.values() for ra in ras if id(ra) not in known]
    for s, old in ranges.items():
        new = env.var_to_range.get(s)
        if old is None or new is None:
            continue
        if new.lower != old.lower:
            texts.append(str(s >= new.lower))
        if new.upper != old.upper:
            texts.append(str(s <= new.upper))
    recorded = _checks.setdefault(env, {})
    for text in texts:
        recorded.setdefault(text, (error, message))


def zero_count(n) -> bool:
    """``n == 0`` for an element count; one read from the data (known only when the code runs: ``x[x > 0]``)
    counts as not zero, and the caller's compiled code handles or checks an empty case."""
    return n == 0 if type(n) is int else guard_or_false(n == 0)


def maybe_zero(n) -> bool:
    """A length read from the data (``x[x > 0]``) that may be 0 when the code runs, where the trace cannot tell:
    the caller's compiled code handles the empty case."""
    return type(n) is not int and not guard_or_false(n != 0)


def runtime_checks(fake_inputs) -> dict[str, tuple[type, str]]:
    """The assertions ``check`` added to the frame that ``fake_inputs`` (a backend's example inputs) trace:
    their text -> (exception type, message).  The dict fills as the backend traces on."""
    from torch._guards import detect_fake_mode

    mode = detect_fake_mode(fake_inputs)
    env = mode and mode.shape_env
    return {} if env is None else _checks.setdefault(env, {})



def traced_int(v, d):
    """A Python int operand for dtype ``d`` as the shim should take it: ``v`` itself, unless ``v`` is a traced int
    (an int argument that Dynamo made dynamic, an ``int()`` of data) outside the range of ``d`` (of int64 for a
    non-integer ``d``) or of int64, where a graph cannot carry it: then the constant it is (``int(v)``,
    specialized), which the caller converts as NumPy does (OverflowError, or a uint64 value).  Keeping a traced
    int unchecked gave the cast's wrapped value (``uint8_array + k`` with k=300).  An argument's range is guarded,
    so a later call outside it traces again; a value read from the data is asserted when the code runs
    (OverflowError), and is always an int64 there."""
    if type(v) is not torch.SymInt:
        return v
    info = np.iinfo(d if d.kind in "iu" else np.int64)
    lo, hi = max(info.min, -(2**63)), min(info.max, 2**63 - 1)
    if free_unbacked_symbols(v.node.expr):
        if (lo, hi) != (-(2**63), 2**63 - 1):
            check((lo <= v) & (v <= hi), OverflowError, f"Python integer out of bounds for {d}")
        return v
    return v if lo <= v <= hi else int(v)
