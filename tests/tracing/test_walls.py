"""Python idioms NumPy users write inside a compiled function: NumPy's answers (a graph break is allowed where
noted), and how many graphs they cost (trace-level: eager backend)."""

import collections
import dataclasses
import functools

import numpy as np
import torch
import pytest

from npcompile import _compile as C

from .conftest import same


def errstate_quiet(a):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / (a - a)
    return np.nan_to_num(r) + 1


def errstate_raise(a):
    with np.errstate(divide="raise"):
        return 1.0 / a


def rng_inside(a):
    rng = np.random.default_rng(0)
    return a + rng.random(a.shape)


def formatting(a):
    b = a * 2
    print(f"{b.sum():.3f} {b}", end="")
    return b + 1, str(a), f"{a[0]}"


def shape_loops(a):
    n, m = a.shape
    out = np.zeros_like(a)
    for i in range(n):
        for j in range(m):
            out[i, j] = a[i, j] * (i + j)
    return out


def enumerate_rows(a):
    acc = 0.0
    for i, row in enumerate(a):
        acc = acc + row.sum() * i
    return acc


def zip_rows(a, b):
    return [np.dot(x, y) for x, y in zip(a, b)]


Pair = collections.namedtuple("Pair", "x y")


@dataclasses.dataclass
class Scaled:
    x: np.ndarray
    k: float


def namedtuple_arg(p):
    return p.x * p.y, Pair(p.y, p.x)


def dataclass_arg(d):
    return d.x * d.k


def dataclass_result(a):
    return Scaled(a * 2, 3.0)


_sum0 = functools.partial(np.sum, axis=0)


def partials(a):
    return _sum0(a) + functools.partial(np.clip, a_min=0.0, a_max=0.5)(a).sum()


@np.vectorize
def _piecewise(x, y):
    return x + y if x > y else x - y


def vectorized(a, b):
    return _piecewise(a, b) * 2


def _power(n, a):
    return a if n == 0 else _power(n - 1, a * n)


def recursion(a):
    return _power(4, a)


def _multiples(a):
    for i in range(3):
        yield a * i


def generators(a):
    return sum(_multiples(a)), list(x.sum() for x in a)


def inverse_or_zeros(a):
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        return np.zeros_like(a)


def _solve_first(a):
    return np.linalg.solve(a, a[0])


def caught_in_caller(a, i):
    try:
        x = _solve_first(a)
    except np.linalg.LinAlgError as e:
        x = str(e)
    try:
        y = a.ravel().take(i)
    except IndexError:
        y = None
    return x, y


def caught_subscript_and_power(a, i, k):
    try:
        x = a[i] * 2
    except IndexError:  # an index out of bounds
        x = None
    try:
        y = a ** k
    except ValueError:  # integers to negative integer powers
        y = None
    return x, y


def loop_under_floating_point_error(u, n):
    try:  # compiled code reports no floating-point errors (README): nothing NumPy raises here is caught
        for _ in range(n):
            u = u * 0.5 + np.sin(u)
    except FloatingPointError:
        u = None
    return u


def caught_through_inner_try_and_with(a):
    try:
        try:
            with np.errstate(all="ignore"):
                r = np.linalg.inv(a)
        except KeyError:
            r = None
    except np.linalg.LinAlgError:
        r = "caught"
    return r


def keyword_only(a, *, scale=2.0, shift):
    return a * scale + shift


_DEFAULT = np.arange(3.0)


def default_array(a, b=_DEFAULT):
    return a + b


def accumulating_default(a, acc=np.zeros(3)):
    acc += a  # the default array is updated in place, call after call, as in NumPy
    return acc.copy()


def by_scalar_type(a):
    if a.dtype.type == np.float32 or np.float16 == a.dtype.type:
        return a * 2
    return a + (1 if a.dtype.type != np.int64 else 2)


SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])

# (function, arguments, keyword arguments, most graphs; None: a graph break is expected)
CASES = {
    "errstate_quiet": (errstate_quiet, lambda: (np.arange(4.0),), {}, 1),
    "rng_inside": (rng_inside, lambda: (np.arange(4.0),), {}, 1),
    "formatting": (formatting, lambda: (np.arange(4.0),), {}, None),
    "shape_loops": (shape_loops, lambda: (np.arange(6.0).reshape(2, 3),), {}, None),
    "enumerate_rows": (enumerate_rows, lambda: (np.arange(6.0).reshape(3, 2),), {}, 1),
    "zip_rows": (zip_rows, lambda: (np.arange(6.0).reshape(3, 2), np.ones((3, 2))), {}, 1),
    "namedtuple_arg": (namedtuple_arg, lambda: (Pair(np.arange(3.0), np.ones(3)),), {}, 1),
    "dataclass_arg": (dataclass_arg, lambda: (Scaled(np.arange(3.0), 2.5),), {}, 1),
    "dataclass_result": (dataclass_result, lambda: (np.arange(3.0),), {}, 1),
    "partials": (partials, lambda: (np.linspace(0, 1, 6).reshape(2, 3),), {}, 1),
    "vectorized": (vectorized, lambda: (np.arange(4.0), np.array([3.0, 0, 5, 1])), {}, None),
    "recursion": (recursion, lambda: (np.arange(3.0),), {}, 1),
    "generators": (generators, lambda: (np.arange(6.0).reshape(3, 2),), {}, 1),
    "inverse_regular": (inverse_or_zeros, lambda: (np.eye(3) * 2,), {}, None),
    "inverse_singular": (inverse_or_zeros, lambda: (SINGULAR.copy(),), {}, None),
    "caught_in_caller_singular": (caught_in_caller, lambda: (SINGULAR.copy(), np.array([7])), {}, None),
    "caught_in_caller_regular": (caught_in_caller, lambda: (np.eye(2), np.array([1])), {}, None),
    "caught_subscript_and_power": (caught_subscript_and_power,
                                   lambda: (np.arange(3), np.array([5]), np.array([1, -1, 2])), {}, None),
    "subscript_and_power_in_try": (caught_subscript_and_power,
                                   lambda: (np.arange(3), np.array([2]), np.array([1, 1, 2])), {}, None),
    "loop_under_floating_point_error": (loop_under_floating_point_error, lambda: (np.ones(4), 5), {}, 1),
    "inner_try_and_with_singular": (caught_through_inner_try_and_with, lambda: (SINGULAR.copy(),), {}, None),
    "inner_try_and_with_regular": (caught_through_inner_try_and_with, lambda: (np.eye(2),), {}, None),
    "keyword_only": (keyword_only, lambda: (np.arange(3.0),), {"shift": 1.0}, 1),
    "default_array": (default_array, lambda: (np.arange(3.0),), {}, 1),
    "scalar_type_float32": (by_scalar_type, lambda: (np.arange(3, dtype=np.float32),), {}, 1),
    "scalar_type_int64": (by_scalar_type, lambda: (np.arange(3),), {}, 1),
    "scalar_type_uint8": (by_scalar_type, lambda: (np.arange(3, dtype=np.uint8),), {}, 1),
}


def _plain(v):
    """Dataclasses and namedtuples as tuples, for ``same``."""
    if dataclasses.is_dataclass(v):
        return (type(v).__name__,) + tuple(_plain(getattr(v, f.name)) for f in dataclasses.fields(v))
    if isinstance(v, tuple) and type(v) is not tuple:
        return (type(v).__name__,) + tuple(_plain(x) for x in v)
    if isinstance(v, (tuple, list)):
        return type(v)(_plain(x) for x in v)
    return v


@pytest.mark.parametrize("name", list(CASES))
def test_idiom_gives_numpys_answer(name, capsys):
    fn, make, kwargs, most = CASES[name]
    compiled = C.compile(fn, backend="eager")
    for _ in range(2):
        assert same(_plain(compiled(*make(), **kwargs)), _plain(fn(*make(), **kwargs)))
    if most is not None:
        report = C.explain(fn)(*make(), **kwargs)
        assert report.graph_count <= most and not report.graph_breaks, str(report)


def test_errstate_raise_raises_numpys_error():
    with pytest.raises(FloatingPointError):
        C.compile(errstate_raise, backend="eager")(np.array([1.0, 0.0]))


def test_mutable_default_array_accumulates_as_in_numpy():
    default = accumulating_default.__defaults__[0]
    default[:] = 0
    compiled = C.compile(accumulating_default, backend="eager")
    got = [compiled(np.ones(3)) for _ in range(3)]
    assert same(got[-1], np.full(3, 3.0)) and same(default, np.full(3, 3.0))
    default[:] = 0


def test_try_block_breaks_are_explained():
    report = C.explain(inverse_or_zeros)(SINGULAR.copy())
    assert same(report.result, np.zeros((2, 2)))
    assert [e.feature for e in report.graph_breaks] == ["try/except"]


def test_augmented_assignment_into_a_view_writes_once():
    """``a[k] += x`` is ``t = a[k]; t += x; a[k] = t``: the last write puts the view back onto itself, a no-op
    for NumPy, but in a graph a second scatter into ``a`` that kept Inductor from updating ``a`` in place (it
    rewrote and copied all of ``a`` on every call: 2000x500, 1.3 ms against NumPy's 2 us)."""
    from torch._dynamo.backends.common import aot_autograd

    def row(a, k):
        a[k] += 1.5

    def column_below(a, k):
        a[k + 1:, k] /= a[k, k]  # (a write through two views: two scatters)

    for f, most in ((row, 1), (column_below, 2)):
        scatters = []

        def count(gm, example_inputs):
            scatters.append(sum(n.target in (torch.ops.aten.select_scatter.default,
                                             torch.ops.aten.slice_scatter.default) for n in gm.graph.nodes))
            return gm.forward

        a = np.random.default_rng(0).random((6, 5))
        b = a.copy()
        f(a, 2)
        C.compile(f, backend=aot_autograd(fw_compiler=count))(b, 2)
        assert same(a, b)
        assert scatters == [most], f.__name__


def _sorted_columns(cols, reverse):
    return [k + "!" for k, _ in sorted(cols.items(), reverse=reverse)], \
        np.stack([v - v.mean() for _, v in sorted(cols.items(), reverse=reverse)])


def test_sorted_pairs_of_keys_and_arrays_stay_in_the_graph():
    """``sorted(d.items())`` with array values: Dynamo sorted only constants (a graph break); distinct keys decide
    Python's order alone.  Equal keys (1 and 1.0) make Python compare the arrays: NumPy's ValueError, as before."""
    cols = {"b": np.arange(3.0), "a": np.ones(3), "c": np.arange(3.0) ** 2}
    for reverse in (False, True):
        rep = C.explain(_sorted_columns, backend="eager")(cols, reverse)
        assert same(rep.result, _sorted_columns(cols, reverse))
        assert rep.graph_count == 1 and not rep.graph_breaks, rep
    tied = C.compile(lambda a: sorted([(1, a), (1.0, a + 1)]), backend="eager")
    with pytest.raises(ValueError):
        sorted([(1, np.ones(2)), (1.0, np.ones(2) + 1)])
    with pytest.raises(ValueError):
        tied(np.ones(2))
