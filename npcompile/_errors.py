"""Exceptions shared by every part of npcompile."""

import re


class UnsupportedFeature(NotImplementedError):
    """A NumPy feature the torch-backed shim does not model (strings, object dtypes, ...).

    The compiler catches it and runs the call in real NumPy instead.
    """

    def __init__(self, feature: str):
        super().__init__(f"npcompile does not support {feature}")
        self.feature = feature


# A traced check that NumPy would raise on (a singular matrix in linalg.inv, a negative integer exponent): the shim
# emits ``torch._assert_async(ok, TAG + message)`` with the tag of NumPy's exception, which the compiled code raises
# as a RuntimeError carrying that text; ``numpy_error`` turns it back into NumPy's exception where compiled graphs
# are called.
LINALG_TAG = "numpy.linalg.LinAlgError: "
VALUE_TAG = "numpy ValueError: "
INDEX_TAG = "numpy IndexError: "
# A Python ``assert`` on array values, which Dynamo compiles into ``torch._assert_async(ok, message)``: npcompile
# tags the message (``_compile._tag_asserts``) so that a failed one raises AssertionError, as Python does, not a
# RuntimeError.  Dynamo's message for an assert without one is ASSERT_DEFAULT.
ASSERT_TAG = "python AssertionError: "
ASSERT_DEFAULT = "assertion error"


# A failed runtime assertion on sizes that depend on the data: Inductor's code raises the bare expression
# ("u0 >= 1"), eager code (Dynamo's and AOT's graphs) "Runtime assertion failed for expression u0 >= 1 on node 'ge'".
_ASSERTION = re.compile(r"Runtime assertion failed for expression (.*) on node '")
# Torch's own assertion that two such sizes agree (``a[p[0]:p[1]] @ b[p[0]:p[1]]`` of arrays of different
# lengths, ``x[x > 0] + y[y > 0]``): NumPy raises ValueError for such operands.
_SIZES_AGREE = re.compile(r"Eq\(u\d+, [^)]*\)")
# Inductor's bounds check of an index read from the data, in its C++ kernels ("index out of bounds: 0 <= tmp7 <
# 7L"); eager torch raises IndexError there itself, as NumPy does.
_KERNEL_BOUNDS = re.compile(r"index out of bounds: 0 <= \w+ < (\w+?)L?$", re.M)


def numpy_error(e: RuntimeError, checks: dict[str, tuple[type, str]]) -> Exception | None:
    """NumPy's exception for a RuntimeError raised by a traced check, else None.  ``checks`` maps the text of the
    size assertions that the shim's checks added to the exception each asked for (``_trace.check``)."""
    text = str(e)
    line = text.split("\n", 1)[0]
    m = _ASSERTION.match(line)
    expression = m.group(1) if m else line
    asked = checks.get(expression)
    if asked is not None:
        error, message = asked
        return error(_run_time_sizes(message, e.__traceback__))
    if _SIZES_AGREE.fullmatch(expression):
        return ValueError(f"operands could not be broadcast together: sizes that depend on the data differ "
                          f"({expression})")
    m = _KERNEL_BOUNDS.search(text)
    if m:
        size = f" of size {m.group(1)}" if m.group(1).isdigit() else ""  # (not a symbol of the kernel's)
        return IndexError(f"an index is out of bounds for an axis{size} (checked in compiled code)")
    for tag in (LINALG_TAG, VALUE_TAG, INDEX_TAG, ASSERT_TAG):
        at = text.find(tag)
        if at >= 0:
            message = text[at + len(tag):].splitlines()[0]
            if tag is ASSERT_TAG:
                return AssertionError() if message == ASSERT_DEFAULT else AssertionError(message)
            if tag is not LINALG_TAG:
                return (ValueError if tag is VALUE_TAG else IndexError)(message)
            from numpy.linalg import LinAlgError

            return LinAlgError(message)
    return None


# A size read from the data, as the trace names it (its unbacked symbol) in a recorded check's message.
_SYMBOL = re.compile(r"\bu\d+\b")


def _run_time_sizes(message: str, tb) -> str:
    """``message`` with each size read from the data (``u0``, the trace's name, which NumPy's message would not
    have) replaced by its value in the run that failed, read from the compiled code's frames on the traceback
    ``tb``: Inductor's code names the symbol itself, an FX graph's (Dynamo's, AOT's) the node whose value it is.
    A size not found keeps its name."""
    from torch.fx import Graph

    names = set(_SYMBOL.findall(message))
    values = {}
    while names - values.keys() and tb is not None:
        local = tb.tb_frame.f_locals
        for name in names:
            if type(local.get(name)) is int:
                values[name] = local[name]
        graph = getattr(local.get("self"), "graph", None)
        for n in graph.nodes if isinstance(graph, Graph) else ():
            v = n.meta.get("val", n.meta.get("example_value"))
            name = str(getattr(getattr(v, "node", None), "expr", ""))
            if name in names and type(local.get(n.name)) is int:
                values[name] = local[n.name]
        tb = tb.tb_next
    return _SYMBOL.sub(lambda m: str(values.get(m.group(0), m.group(0))), message)
